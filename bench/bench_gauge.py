"""Benchmark: the referee's gauge of who is winning follows a live fight (issue 39 item 2:
its p99 update time beside the odds preview's on the same table).

Run by ``make bench`` (``bench/run.py gauge`` writes its section of RESULTS.md), or alone:
``python bench/bench_gauge.py [--quick]``. One ``referee serve`` process on 127.0.0.1 with
its default quotas (a temporary SQLite file); bounded in count and time.

Each game's table seats the fight the tests study (the player Ann's character against the
referee's, the rule text's examples). The referee's browser is connected by WebSocket.
The fight is then played at the table over HTTP, action by action, as the game's conflict
model plays it (each action by its character's owner; a proposal answered with the
defaults by the one it asks): the *update time* of an action is from its answer (the
event appended) to the referee's socket receiving the gauge of that seq or later,
computed in the server's odds worker. Between two actions the referee's browser asks
one odds preview of the next action (``POST /t/{tid}/preview``), timed the same way, on
the same table: the preview is what a player waits for while typing; the gauge is what
the referee waits for after each blow, off the request path.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import websockets.sync.client as wsc

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import pct, served

FIGHTS: dict[str, tuple[tuple[str, str], tuple[str, str], dict[str, str]]] = {
    "mnemonic": (("mick", "boxer"), ("bo", "boxer"), {}),
    "mongrel": (("vooruk", "vooruk"), ("giazza", "giazza"), {}),
    "mneme": (("r1", "raider"), ("r2", "raider"), {"adversary_attacks": "referee_rolls"}),
    "arm": (("brad", "brad"), ("christine", "christine"), {}),
}
WAIT = 60.0
"""Seconds an update may take before it counts as missing (a referee is pushed a gauge
after every event that changes the page, changed or not)."""


def _table(http: httpx.Client, game: str) -> tuple[str, dict[str, dict[str, str]]]:
    (a, ex_a), (b, ex_b), options = FIGHTS[game]
    body: dict[str, Any] = {"game": game, "name": f"g-{game}", "referee": "Ron", "seed": 7}
    if options:
        body["options"] = options
    made = http.post("/api/tables", json=body)
    made.raise_for_status()
    tid = made.json()["table"]["id"]
    auth = {"Ron": {"authorization": f"Bearer {made.json()['token']}"}}
    r = http.post(
        f"/api/tables/{tid}/invites", json={"name": "Ann", "role": "player"}, headers=auth["Ron"]
    )
    r.raise_for_status()
    auth["Ann"] = {"authorization": f"Bearer {r.json()['token']}"}
    for cid, example, owner in ((a, ex_a, "Ann"), (b, ex_b, None)):
        seat: dict[str, Any] = {"example": example, "id": cid, "force": True}
        if owner is not None:
            seat["owner"] = owner
        http.post(
            f"/api/tables/{tid}/characters", json=seat, headers=auth["Ron"]
        ).raise_for_status()
    return tid, auth


def _gauge_at(ws: Any, seq: int, deadline: float, whole: bool = False) -> dict[str, Any] | None:
    """The first gauge pushed for ``seq`` or later (``whole``: with its what-ifs, not the
    figures pushed ahead of them; ``None``: none before the deadline)."""
    while (left := deadline - time.perf_counter()) > 0:
        try:
            text = ws.recv(timeout=left)
        except TimeoutError:
            return None
        for msg in json.loads(text) if text.startswith("[") else [json.loads(text)]:
            if msg.get("type") == "gauge" and msg.get("seq", 0) >= seq:
                if whole and msg.get("what_if_pending"):
                    continue
                found: dict[str, Any] = msg
                return found
    return None


def play(base: str, db: str, game: str, actions: int) -> dict[str, Any]:
    """Play ``actions`` of the fight at a new table of ``game``: each update's and each
    preview's time (ms) and the gauges' methods."""
    from referee.analysis.live import fight_model, sides_of
    from referee.systems.outcome import outcome_from_data
    from referee.table.service import TableService
    from referee.table.store import Store

    service = TableService(Store(db))
    updates: list[float] = []
    wholes: list[float] = []
    previews: list[float] = []
    methods: list[str] = []
    missing = unchanged = 0
    with httpx.Client(base_url=base, timeout=60) as http:
        tid, auth = _table(http, game)
        url = f"{base.replace('http', 'ws')}/ws/tables/{tid}?after=0"
        with wsc.connect(url, additional_headers=auth["Ron"], max_size=2**22) as ws:
            first = _gauge_at(ws, 0, time.perf_counter() + 5)  # catch-up: nothing drawn yet
            del first
            ts = service.load(tid)
            a, b, _ = sides_of(ts)
            model = fight_model(ts, a, b, {})
            state, memo = model.start()
            for _ in range(actions):
                if model.verdict(state, memo) is not None:
                    break
                step = model.next(state, memo)
                rules = ts.ruleset
                name, fields = rules.action_name(step.action), rules.action_data(step.action)
                started = time.perf_counter()
                r = http.post(
                    f"/t/{tid}/preview",
                    json={"action": name, "fields": fields},
                    headers=auth["Ron"],
                )
                previews.append((time.perf_counter() - started) * 1000)
                r.raise_for_status()
                actor = getattr(step.action, "actor", None)
                by = ts.owners.get(str(actor)) or "Ron"
                r = http.post(
                    f"/api/tables/{tid}/actions",
                    json={"action": name, "fields": fields},
                    headers=auth[by],
                )
                r.raise_for_status()
                event = r.json()["event"]
                if event["kind"] == "action-proposed":
                    asked = next(iter(event["payload"]["ask"].values()))
                    decider = ts.owners.get(str(asked)) or "Ron"
                    r = http.post(
                        f"/api/tables/{tid}/proposals/{r.json()['seq']}",
                        json={"fields": {}},
                        headers=auth[decider],
                    )
                    r.raise_for_status()
                    event = r.json()["event"]
                appended = time.perf_counter()
                after = service.load(tid)
                if after.state == ts.state:  # a miss that changed nothing: the gauge holds
                    unchanged += 1
                    pushed = {}
                else:
                    pushed = _gauge_at(ws, r.json()["seq"], appended + WAIT)
                if pushed == {}:
                    pass
                elif pushed is None:
                    missing += 1
                else:
                    updates.append((time.perf_counter() - appended) * 1000)
                    methods.append(str(pushed.get("method", pushed.get("error", "?"))))
                    if pushed.get("what_if_pending"):
                        pushed = _gauge_at(ws, r.json()["seq"], appended + WAIT, whole=True)
                    if pushed is None:
                        missing += 1
                    else:
                        wholes.append((time.perf_counter() - appended) * 1000)
                outcome = outcome_from_data(event["payload"]["outcome"])
                ts = after
                memo = model.after(state, memo, step, outcome, ts.state)
                state = ts.state
    service.store.close()
    return {
        "updates": updates,
        "wholes": wholes,
        "previews": previews,
        "methods": methods,
        "missing": missing,
        "unchanged": unchanged,
    }


def section(quick: bool) -> tuple[str, list[dict[str, object]]]:
    """This benchmark's section of RESULTS.md and its targets (``bench/run.py gauge``)."""
    actions = 4 if quick else 12
    with served("gauge", extra=()) as server:
        found = {game: play(server.base, server.db, game, actions) for game in FIGHTS}
        cpu = server.cpu()
    every = [t for g in found.values() for t in g["updates"]]
    whole = [t for g in found.values() for t in g["wholes"]]
    shown = [t for g in found.values() for t in g["previews"]]
    lines = [
        f"## The referee's gauge after each blow (measured {time.strftime('%Y-%m-%d')}, "
        "`python bench/bench_gauge.py`)",
        "",
        "One `referee serve` process on 127.0.0.1, default quotas, SQLite. Each game's table",
        "seats a player's example character against the referee's; the referee's browser is",
        f"connected by WebSocket. Up to {actions} actions of the fight are played over HTTP as",
        "the game's conflict model plays them. Figures: from an action's answer to the",
        "referee's socket receiving the gauge of that seq or later (the whole chain from the",
        "new state, in an odds worker); with what-ifs: to the gauge that adds the what-ifs",
        "of whoever acts next (a chain each), pushed after the figures. Preview: the odds",
        "preview of the same action asked just before it, on the same table.",
        f"Machine: 2 cores shared with other work (load average {server.load:.1f} at the start).",
        "",
        "| game | actions | figures p50 (ms) | figures p99 (ms) | with what-ifs p50 / p99 (ms) "
        "| preview p50 (ms) | preview p99 (ms) | how the gauges were found |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for game, g in found.items():
        t, pv, w = g["updates"] or [0.0], g["previews"] or [0.0], g["wholes"] or [0.0]
        kinds = ", ".join(f"{k} {g['methods'].count(k)}" for k in sorted(set(g["methods"])))
        lines.append(
            f"| {game} | {len(g['previews'])} | {pct(t, 0.5):.0f} | {pct(t, 0.99):.0f} | "
            f"{pct(w, 0.5):.0f} / {pct(w, 0.99):.0f} | "
            f"{pct(pv, 0.5):.1f} | {pct(pv, 0.99):.1f} | {kinds or '-'} |"
        )
    p99 = pct(every or [0.0], 0.99)
    preview99 = pct(shown or [0.0], 0.99)
    missing = sum(g["missing"] for g in found.values())
    unchanged = sum(g["unchanged"] for g in found.values())
    lines += [
        f"| **all** | {len(shown)} | {pct(every or [0.0], 0.5):.0f} | **{p99:.0f}** | "
        f"{pct(whole or [0.0], 0.5):.0f} / {pct(whole or [0.0], 0.99):.0f} | "
        f"{pct(shown or [0.0], 0.5):.1f} | **{preview99:.1f}** | - |",
        "",
        f"Updates that did not come within {WAIT:.0f} s: {missing}. Actions that left the "
        f"fight as it was (no new gauge: the one shown holds): {unchanged}. Server CPU over "
        f"the run: {cpu:.1f} s. The gauge "
        "is computed off the request path: the previews and the actions were answered "
        "meanwhile.",
        "",
    ]
    targets: list[dict[str, object]] = [
        {
            "label": "The referee's gauge (its figures) after each action of a live fight, p99",
            "figure": f"{p99:.0f} ms (preview p99 {preview99:.1f} ms on the same tables)",
            "needed": "reported beside the preview's",
            "met": bool(every) and missing == 0,
        }
    ]
    return "\n".join(lines), targets


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a short run")
    args = parser.parse_args()
    text, _targets = section(args.quick)
    print(text)


if __name__ == "__main__":
    main()
