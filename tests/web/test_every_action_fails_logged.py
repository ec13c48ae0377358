"""Everything that can refuse an action is checked before a die is drawn (issue 19,
defect 1, made generic): for every action of every game, through the HTTP API, the dice
never decide whether the action is refused.

Each action is sent with fields a form would give (the seated characters, the first
choice of each list, a sheet's own names) twice: with every die showing its lowest face
and with every die showing its highest - faces that make most rolls fail, and faces
that make them succeed. Either both are refused, with the same reason and nothing
logged, or both are logged with exactly the faces sent. Then the same action goes to a
seeded table with the server's own dice, where a refusal after the draw is logged as
``action-failed`` with the dice drawn, never a bare refusal.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from dataclasses import MISSING, fields
from itertools import product
from typing import Any

import httpx
import pytest

from referee.dice.roller import RollRecord
from referee.errors import RulesError
from referee.systems.base import get, names
from referee.systems.records import describe_fields
from referee.web.limits import Limits

from .conftest import Site, start_site

SEATED = {
    "mnemonic": ("boxer", "frigate"),
    "mongrel": ("vooruk", "giazza"),
    "mneme": ("ada", "raider"),
    "arm": ("alex", "brad"),
}
# what a referee does first, so the conflict, round or encounter actions have a moment
OPENING = {
    "mnemonic": [],
    "mongrel": [("start-conflict", {})],
    "mneme": [("initiative", {})],
    "arm": [("next-round", {})],
}


DICE_FIELDS = {"dice", "damage", "expression"}


class Constant:
    """Every die shows its lowest face (``high`` False) or its highest; counts the dice."""

    kind = "scripted"

    def __init__(self, high: bool) -> None:
        self.high = high
        self._records: list[RollRecord] = []

    def roll(self, n: int, sides: int) -> tuple[int, ...]:
        faces = (sides if self.high else 1,) * n
        self._records.append(RollRecord(faces, sides, self.kind))
        return faces

    @property
    def records(self) -> tuple[RollRecord, ...]:
        return tuple(self._records)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    url = f"sqlite:///{tmp_path_factory.mktemp('every') / 'web.db'}"
    running = start_site(url, Limits(tables_burst=100, requests_burst=100_000))
    yield running
    running.server.stop()
    running.service.store.close()


def _value(desc: dict[str, Any], kind: type, ids: list[str], sheet_words: list[str]) -> Any:
    """A value a form would give a required field (or None to leave it out)."""
    name = desc["name"]
    if desc.get("ref") == "character":
        hint = str(typing.get_type_hints(kind)[name])
        one = ids[1] if name != "actor" and len(ids) > 1 else ids[0]
        return [one] if "tuple" in hint or "list" in hint else one
    choices = desc.get("choices")
    if choices:
        return choices[0]
    hint = str(typing.get_type_hints(kind)[name])
    if name in DICE_FIELDS and "str" in hint:
        return "2d6"
    if hint.startswith("<class 'int'>") or hint == "int | None":
        return max(desc.get("ge", 1), min(desc.get("le", 3), 3))
    if hint.startswith("<class 'str'>") or hint == "str | None":  # a name the sheet gives
        return sheet_words[0] if sheet_words else None
    return None


def _fields_for(
    kind: type, ids: list[str], sheet_words: list[str], fuller: bool = False
) -> dict[str, Any]:
    """The fields a form gives: the required ones (and the actor), or (``fuller``) every
    field left empty by default too."""
    out: dict[str, Any] = {}
    described = {d["name"]: d for d in describe_fields(kind)}
    for f in fields(kind):  # type: ignore[arg-type]
        required = f.default is MISSING and f.default_factory is MISSING
        if required or f.name == "actor" or (fuller and f.default is None):
            value = _value(described[f.name], kind, ids, sheet_words)
            if value is not None:
                out[f.name] = value
    return out


def _table(http: httpx.Client, game: str, seed: int | None) -> tuple[str, dict[str, str]]:
    body: dict[str, Any] = {"game": game, "name": f"every-{game}-{seed}", "referee": "Ron"}
    if seed is not None:
        body["seed"] = seed
    made = http.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    tid = made.json()["table"]["id"]
    ron = {"authorization": f"Bearer {made.json()['token']}"}
    for example in SEATED[game]:
        r = http.post(
            f"/api/tables/{tid}/characters", json={"example": example, "force": True}, headers=ron
        )
        assert r.status_code == 201, r.text
    for action, data in OPENING[game]:
        r = http.post(
            f"/api/tables/{tid}/actions", json={"action": action, "fields": data}, headers=ron
        )
        assert r.status_code == 201, r.text
    return tid, ron


def _seq(http: httpx.Client, tid: str, ron: dict[str, str]) -> int:
    return int(http.get(f"/api/tables/{tid}", headers=ron).json()["seq"])


def _words(site: Site, tid: str) -> list[str]:
    """Names on the first seated sheet (skills, expertise, weapons): what a form suggests."""
    from referee.web.views import seats

    found: list[str] = []
    for seat in seats(site.service.load(tid)):
        for value in (seat.sheet or {}).values():
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, dict) and isinstance(item.get("name"), str):
                    found.append(item["name"])
        break
    return found


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(names()))
def test_no_action_is_refused_by_its_dice(site: Site, game: str) -> None:
    rules = get(game)
    checked: dict[str, str] = {}
    with site.client() as http:
        tid, ron = _table(http, game, None)
        ts = site.service.load(tid)
        ids = list(ts.state.characters)
        words = _words(site, tid)
        for (name, kind), fuller in product(rules.every_action().items(), (False, True)):
            data = _fields_for(kind, ids, words, fuller)
            try:
                action = rules.load_action(name, data)
            except RulesError:
                checked.setdefault(name, "fields refused")
                continue
            answers = []
            for high in (False, True):
                ts = site.service.load(tid)
                roller = Constant(high)
                try:
                    rules.resolve(action, ts.state, roller, ts.options)
                    refused_before = False
                except RulesError:
                    refused_before = not roller.records  # a refusal after a draw: a bug
                    assert refused_before, (game, name, high, "refused after its dice")
                faces = [f for r in roller.records for f in r.faces]
                before = _seq(http, tid, ron)
                r = http.post(
                    f"/api/tables/{tid}/actions",
                    json={"action": name, "fields": data, "faces": faces},
                    headers=ron,
                )
                assert r.status_code < 500, (game, name, r.text)
                if r.status_code == 201:
                    event = r.json()["event"]
                    assert event["seq"] == before + 1
                    drawn = [f for roll in event.get("rolls", []) for f in roll["faces"]]
                    if event["kind"] == "action-resolved":
                        assert drawn == faces, (game, name, high)
                    answers.append(("logged", event["kind"]))
                    if event["kind"] == "action-resolved":
                        undo = http.post(f"/api/tables/{tid}/undo", json={}, headers=ron)
                        assert undo.status_code == 201, undo.text
                    elif event["kind"] == "action-proposed":
                        gone = http.delete(
                            f"/api/tables/{tid}/proposals/{event['seq']}", headers=ron
                        )
                        assert gone.status_code < 300, gone.text
                else:
                    assert r.status_code in (403, 409, 422), (game, name, r.text)
                    assert _seq(http, tid, ron) == before, (game, name, "logged a refusal")
                    answers.append(("refused", r.json().get("detail", "")))
            low, high_ = answers
            assert low == high_, (game, name, "the dice decided a refusal", low, high_)
            if checked.get(name) != "logged":
                checked[name] = low[0]
    # every action was reached; at the opening moment most are logged
    assert set(checked) == set(rules.every_action())
    logged = [n for n, how in checked.items() if how == "logged"]
    assert len(logged) >= len(checked) / 2, checked


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(names()))
def test_the_servers_dice_never_take_an_action_back(site: Site, game: str) -> None:
    """With the server's dice, an action is refused before the draw or logged (with the
    dice drawn, as ``action-failed`` if the rules refuse after them)."""
    rules = get(game)
    with site.client() as http:
        for seed in (1, 2, 3):
            tid, ron = _table(http, game, seed)
            ts = site.service.load(tid)
            ids = list(ts.state.characters)
            words = _words(site, tid)
            for (name, kind), fuller in product(rules.every_action().items(), (False, True)):
                data = _fields_for(kind, ids, words, fuller)
                before = _seq(http, tid, ron)
                r = http.post(
                    f"/api/tables/{tid}/actions",
                    json={"action": name, "fields": data},
                    headers=ron,
                )
                assert r.status_code < 500, (game, name, r.text)
                if r.status_code == 201:
                    event = r.json()["event"]
                    if event["kind"] == "action-failed":
                        assert event["rolls"], (game, name)
                    if event["kind"] == "action-resolved":
                        http.post(f"/api/tables/{tid}/undo", json={}, headers=ron)
                else:
                    assert _seq(http, tid, ron) == before, (game, name, "logged a refusal")
