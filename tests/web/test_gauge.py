"""The gauge of who is winning at the edge (web/gauge.py): its JSON route, who is shown
it, and the push that follows each event without holding the event up."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from tests.web.conftest import Connect, LiveSocket, Site, Table

from referee.analysis.live import HIDDEN_SHEETS, OFF


def _gauge(site: Site, table: Table, who: str, query: str = "") -> tuple[int, dict[str, object]]:
    with site.client(table.tokens[who]) as http:
        r = http.get(f"/api/tables/{table.id}/gauge{query}")
        return r.status_code, r.json()


def test_the_route_answers_the_referee_and_tells_a_player_why_not(site: Site, table: Table) -> None:
    """Ann's boxer against Ben's frigate (a duel between two players): the referee gets
    the exact figures; a player, while the setting keeps the gauge for the referee, is
    told so; a side naming nobody at the table is refused, named."""
    status, ron = _gauge(site, table, "Ron")
    assert status == 200 and ron["shown"] is True and ron["method"] == "exact"
    sides = ron["sides"]
    assert isinstance(sides, dict) and sides["how"] == "Ann's characters against Ben's"
    p = ron["p"]
    assert (
        isinstance(p, dict)
        and abs(p["a"]["value"] + p["b"]["value"] + p["draw"]["value"] - 1) < 1e-12
    )
    assert _gauge(site, table, "Ann") == (200, {"shown": False, "why": OFF})
    assert _gauge(site, table, "Obi") == (200, {"shown": False, "why": OFF})
    status, bad = _gauge(site, table, "Ron", "?a=nobody&b=swiftsure")
    assert status == 422 and "side a: no character 'nobody' here" in str(bad["detail"])


def _until(
    ws: LiveSocket, wanted: Callable[[dict[str, Any]], bool], kind: str = "gauge"
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first message the socket gets that ``wanted`` accepts, and the messages of
    ``kind`` that came before it (in the socket's order); a bound of 120 s, not a wait."""
    before: list[dict[str, Any]] = []
    end = time.monotonic() + 120
    while (left := end - time.monotonic()) > 0:
        msg = json.loads(ws.recv(timeout=left))
        if wanted(msg):
            return msg, before
        if msg.get("type") == kind:
            before.append(msg)
    raise AssertionError("the socket never got the message")


def test_the_gauge_is_pushed_after_an_event(site: Site, table: Table, ws_connect: Connect) -> None:
    """The referee's browser is pushed the gauge after an event (the same figures as the
    route's); a player's, while the setting is off, is pushed none; once the referee
    shows it to players, Ann's browser is told why she still may not see it (Ben's
    sheet is kept from her)."""
    url = f"{site.ws_base}/ws/tables/{table.id}?after=0"
    with (
        ws_connect(url, additional_headers=table.auth("Ron")) as ron_ws,
        ws_connect(url, additional_headers=table.auth("Ann")) as ann_ws,
    ):
        with site.client(table.tokens["Ron"]) as ron:
            r = ron.post(
                f"/api/tables/{table.id}/edits",
                json={"changes": [{"target": "swiftsure", "field": "status.injuries", "delta": 1}],
                      "reason": "a fall"},
            )  # fmt: skip
            assert r.status_code == 201, r.text
        seq = r.json()["seq"]
        first, _ = _until(ron_ws, lambda m: m.get("type") == "gauge" and m["seq"] == seq)
        # the figures first, the what-ifs of whoever acts now after them
        assert first["what_if_pending"] is True and first["what_if"] == []
        pushed, _ = _until(ron_ws, lambda m: m.get("type") == "gauge" and m["seq"] == seq)
        _, now = _gauge(site, table, "Ron")
        assert {k: v for k, v in pushed.items() if k not in ("type", "seq")} == now
        assert {k: v for k, v in first.items() if k not in ("type", "seq", "what_if_pending")} == {
            **now,
            "what_if": [],
        }
        with site.client(table.tokens["Ron"]) as ron:
            r = ron.put(f"/api/tables/{table.id}/settings", json={"players_gauge": True})
            assert r.status_code in (200, 201), r.text
        # the referee is pushed the gauge after it too, unchanged, as of the new seq
        again, _ = _until(
            ron_ws,
            lambda m: (
                m.get("type") == "gauge"
                and m["seq"] == r.json()["seq"]
                and "what_if_pending" not in m
            ),
        )
        assert {k: v for k, v in again.items() if k != "seq"} == {
            k: v for k, v in pushed.items() if k != "seq"
        }
        told, earlier = _until(ann_ws, lambda m: m.get("type") == "gauge")
        assert earlier == []  # while the setting was off, Ann's browser was pushed none
        assert told == {
            "type": "gauge",
            "seq": r.json()["seq"],
            "shown": False,
            "why": HIDDEN_SHEETS,
        }


def test_the_gauge_takes_its_table_s_turn_at_the_workers(
    site: Site, table: Table, ws_connect: Connect
) -> None:
    """A table's gauges, pushed or asked for, wait for the table's turn at the odds
    workers (referee.web.shares) like its odds and previews, so a costly fight takes
    turns with every other table's questions instead of going ahead of them; a pushed
    gauge asks in its own name, taking none of the referee's own places."""
    web = site.server.server.config.app.state.web
    asked: list[tuple[str, str]] = []
    run = web.shares.run

    async def recorded(tid: str, who: str, work: Any) -> Any:
        asked.append((tid, who))
        return await run(tid, who, work)

    web.shares.run = recorded
    try:
        assert _gauge(site, table, "Ron")[0] == 200
        assert asked == [(table.id, "Ron")]
        url = f"{site.ws_base}/ws/tables/{table.id}?after=0"
        with ws_connect(url, additional_headers=table.auth("Ron")) as ron_ws:
            with site.client(table.tokens["Ron"]) as ron:
                r = ron.post(
                    f"/api/tables/{table.id}/edits",
                    json={"changes": [{"target": "swiftsure", "field": "status.injuries",
                                       "delta": 1}], "reason": "a fall"},
                )  # fmt: skip
                assert r.status_code == 201, r.text
            seq = r.json()["seq"]
            _until(ron_ws, lambda m: m.get("type") == "gauge" and m["seq"] == seq
                   and "what_if_pending" not in m)  # fmt: skip
        assert (table.id, "the gauge of Ron") in asked[1:]
        assert set(asked[1:]) == {(table.id, "the gauge of Ron")}
    finally:
        web.shares.run = run
