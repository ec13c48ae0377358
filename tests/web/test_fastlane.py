"""The quick lane of ``POST /api/tables/{tid}/actions`` (:mod:`referee.web.fastlane`)
answers exactly as FastAPI's route: the same status, body and headers for every request,
well-formed or not, side by side with an app whose lane is taken out."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from referee.table.service import TableService
from referee.table.store import Store
from referee.table.tokens import Tokens
from referee.web import api_actions, create_app, fastlane
from referee.web.fastlane import CommandLane
from referee.web.limits import Limits


def _app(folder: Path, name: str, lane: bool, limits: Limits | None = None) -> Any:
    service = TableService(Store(f"sqlite:///{folder / name}"))
    app = create_app(service, tokens=Tokens(service.store), watch=False, limits=limits)
    if not lane:
        app.user_middleware = [m for m in app.user_middleware if m.cls is not CommandLane]
    return app


class Side:
    """One app with a Mnemonic table: the referee Ron, a player Ann, an observer Olo."""

    def __init__(self, http: TestClient) -> None:
        self.http = http
        made = http.post("/api/tables", json={"game": "mnemonic", "name": "Lane", "referee": "Ron"})
        assert made.status_code == 201, made.text
        self.tid = made.json()["table"]["id"]
        self.tokens = {"Ron": made.json()["token"]}
        ron = {"authorization": f"Bearer {self.tokens['Ron']}"}
        for who, role in (("Ann", "player"), ("Olo", "observer")):
            r = http.post(f"/api/tables/{self.tid}/invites", json={"name": who}, headers=ron)
            assert r.status_code == 201, r.text
            self.tokens[who] = r.json()["token"]
            if role == "observer":
                r = http.put(
                    f"/api/tables/{self.tid}/participants/{who}",
                    json={"role": "observer"},
                    headers=ron,
                )
                assert r.status_code == 200, r.text

    def send(
        self, who: str | None, body: bytes, headers: dict[str, str], query: str = ""
    ) -> tuple[int, str, dict[str, str]]:
        """One POST to the table's actions: (status, body with this side's ids masked,
        headers but for the date)."""
        sent = {"content-type": "application/json", **headers}
        if who is not None:
            sent["authorization"] = f"Bearer {self.tokens[who]}"
        r = self.http.post(f"/api/tables/{self.tid}/actions{query}", content=body, headers=sent)
        text = r.text.replace(self.tid, "TID")
        for token in self.tokens.values():
            text = text.replace(token, "TOKEN")
        kept = {k: v for k, v in r.headers.items() if k not in ("date", "content-length")}
        return r.status_code, text, kept


def _sides(folder: Path) -> Iterator[tuple[Side, Side]]:
    with (
        TestClient(_app(folder, "lane.db", lane=True)) as quick,
        TestClient(_app(folder, "plain.db", lane=False)) as plain,
    ):
        yield Side(quick), Side(plain)


@pytest.fixture
def sides(tmp_path: Path) -> Iterator[tuple[Side, Side]]:
    yield from _sides(tmp_path)


@pytest.fixture(scope="module")
def refusing_sides(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Side, Side]]:
    """One pair of apps for every refusal: a refused command writes nothing, so each
    case meets the same two tables (19 requests a side, far inside a link's quota)."""
    yield from _sides(tmp_path_factory.mktemp("lane"))


REFUSED: list[tuple[str | None, bytes, dict[str, str], str]] = [
    ("Ron", b'{"action": "check", "fields": {"aptitude": 7', {}, ""),  # not JSON
    ("Ron", b'{"action": "check", "fields": {"aptitude": NaN}}', {}, ""),  # not finite
    ("Ron", b'{"action": "check", "fields": {"aptitude": 1e400}}', {}, ""),
    ("Ron", b'{"action": "check", "fields": {}, "extra": 1}', {}, ""),  # unknown key
    ("Ron", b'{"action": "check", "fields": "aptitude"}', {}, ""),  # wrong type
    ("Ron", b'{"action": 7, "fields": {}}', {}, ""),
    ("Ron", b'{"fields": {}}', {}, ""),  # missing
    ("Ron", b"[]", {}, ""),
    ("Ron", b"", {}, ""),
    ("Ron", b'{"action": "check", "fields": {"aptitude": 7}, "visibility": "loud"}', {}, ""),
    ("Ron", b'{"action": "check", "fields": {"aptitude": 7}, "faces": ["x"]}', {}, ""),
    ("Ron", b'{"action": "nope", "fields": {}}', {}, ""),  # the rules refuse
    ("Ron", b'{"action": "check", "fields": {"aptitude": "seven"}}', {}, ""),
    ("Ron", b'{"action": "check", "fields": {"aptitude": 7}, "faces": [1, 2, 3, 4, 5]}', {}, ""),
    ("Ron", b'{"action": "check", "fields": {"aptitude": 7}, "expect": 999}', {}, ""),  # stale
    (None, b'{"action": "check", "fields": {"aptitude": 7}}', {}, ""),  # no token
    (None, b'{"action": "check", "fields": {"aptitude": 7}}', {"authorization": "Bearer x"}, ""),
    ("Olo", b'{"action": "check", "fields": {"aptitude": 7}}', {}, ""),  # an observer
    ("Ron", b'{"action": "check", "fields": {"aptitude": 7}}', {"content-type": "text/plain"}, ""),
    ("Ron", b'{"action": "check", "fields": {"aptitude": 99}}', {}, "?x=1"),
]


@pytest.mark.parametrize("who,body,headers,query", REFUSED)
def test_every_refusal_reads_as_fastapis(
    refusing_sides: tuple[Side, Side],
    who: str | None,
    body: bytes,
    headers: dict[str, str],
    query: str,
) -> None:
    quick, plain = refusing_sides
    ours = quick.send(who, body, headers, query)
    theirs = plain.send(who, body, headers, query)
    assert ours == theirs
    assert ours[0] != 201  # refused, so the shared tables stay as they were


def _shape(value: Any) -> Any:
    """An answer's shape: its keys and kinds of values (two tables' dice, times and
    hashes differ; what the answer says and of what kind does not)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return type(value).__name__


def test_an_action_is_served_by_the_lane_and_answers_as_the_route(
    sides: tuple[Side, Side], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: dict[str, list[str]] = {"lane": [], "route": []}
    real = fastlane.command

    def counting(where: str) -> Any:
        async def counted(*args: Any) -> Any:
            calls[where].append(args[2])
            return await real(*args)

        return counted

    monkeypatch.setattr(fastlane, "command", counting("lane"))
    monkeypatch.setattr(api_actions, "command", counting("route"))
    quick, plain = sides
    answered: list[Any] = []
    for body, headers in (
        (b'{"action":"check","fields":{"aptitude":7}}', {}),
        (b'{"action":"check","fields":{"aptitude":6},"visibility":"referee"}', {}),
        (b'{"action":"check","fields":{"aptitude":5},"faces":[3],"expect":6}', {}),
        # a browser's accept header: still the API's JSON answer
        (b'{"action":"check","fields":{"aptitude":4}}', {"accept": "text/html"}),
        (b'{"action": "check", "fields": {"aptitude": 4}}', {"content-type": "Application/JSON"}),
    ):
        ours = quick.send("Ron", body, headers)
        theirs = plain.send("Ron", body, headers)
        assert ours[0] == theirs[0] == 201, (ours, theirs)
        answered.append(json.loads(ours[1])["event"])
        assert _shape(json.loads(ours[1])) == _shape(json.loads(theirs[1]))
        assert ours[2] == theirs[2]
    # the lane served its side's; FastAPI served the other's by the act route itself
    assert calls == {"lane": ["act"] * 5, "route": ["act"] * 5}
    # what the lane answered is what the log holds, as the caller may see it
    seen = quick.http.get(
        f"/api/tables/{quick.tid}/log",
        headers={"authorization": f"Bearer {quick.tokens['Ron']}"},
    )
    assert seen.status_code == 200, seen.text
    logged = json.loads(seen.text.replace(quick.tid, "TID"))[-5:]
    assert [e["seq"] for e in logged] == [5, 6, 7, 8, 9]
    assert logged == answered


def test_a_caller_over_their_quota_is_refused_as_by_the_route(tmp_path: Path) -> None:
    """The request quota is counted once a command, and its refusal (429, its
    ``retry-after``) reads the same."""
    slow = Limits(requests_per_second=0.001, requests_burst=6)
    with (
        TestClient(_app(tmp_path, "lane.db", lane=True, limits=slow)) as quick_http,
        TestClient(_app(tmp_path, "plain.db", lane=False, limits=slow)) as plain_http,
    ):
        quick, plain = Side(quick_http), Side(plain_http)
        body = b'{"action":"check","fields":{"aptitude":7}}'
        statuses = []
        for _ in range(5):
            ours, theirs = quick.send("Ron", body, {}), plain.send("Ron", body, {})
            assert ours[0] == theirs[0]
            if ours[0] != 201:
                assert ours == theirs
            statuses.append(ours[0])
        assert statuses[0] == 201 and statuses[-1] == 429, statuses
