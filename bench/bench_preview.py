"""Benchmark: the odds preview keeps up with typing (issue 19: each odds preview of the
demo tables' actions answered within 50 ms at p99).

Run by ``make bench`` (``bench/run.py preview`` writes its section of RESULTS.md), or
alone: ``python bench/bench_preview.py [--quick]``. One ``referee serve`` process on
127.0.0.1 with its default quotas (a temporary SQLite file); bounded in count and time,
it stops by itself.

Each game's table seats the rule text's example characters, as the demo does. A player's
browser asks ``POST /t/{tid}/preview`` (what the page posts while a form is filled in:
the odds rendered as HTML) for the actions a player and a referee use most, the dice
tray's roll among them, one request at a time, 25 ms apart (faster than anyone types).
The reference beside each row is the same odds computed in this process by the package
(``Ruleset.odds`` on the table's state): the part of the round trip that is the rules'
own work; the rest is the web's (HTTP, the worker process, rendering).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import pct, served

SEATED = {
    "mongrel": ("vooruk", "giazza"),
    "mnemonic": ("boxer", "frigate"),
    "mneme": ("ada", "raider"),
    "arm": ("alex", "brad"),
}
CASES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "mongrel": [
        ("check", {"dice": 4, "tn": 3}),
        ("task", {"actor": "vooruk", "expertise": "Rend"}),
        ("attack", {"actor": "vooruk", "target": "giazza", "expertise": "Rend"}),
        ("occult-roll", {"resist_dice": 2, "resist_tn": 3}),
        ("roll", {"dice": "4d6kh3"}),
    ],
    "mnemonic": [
        ("check", {"aptitude": 7}),
        ("attack", {"actor": "mickey-ruane", "target": "swiftsure"}),
        ("injury", {"worst": "immobilized", "victim": "swiftsure"}),
        ("roll", {"dice": "3d6+2"}),
    ],
    "mneme": [
        ("check", {}),
        ("attack", {"actor": "ada-vance", "target": "raider", "damage": "2d6"}),
        ("survival", {"actor": "ada-vance"}),
        ("roll", {"dice": "2d6+1"}),
    ],
    "arm": [
        ("task", {"actor": "brad", "stat": "Fitness"}),
        ("contest", {"actor": "brad", "opponent": "alex"}),
        ("damage", {"target": "alex", "result": 3, "damage": 6}),
        ("roll", {"dice": "d6-d6"}),
    ],
}
TYPED: dict[tuple[str, str], Any] = {
    ("mongrel", "check"): lambda i: {"dice": 1 + i % 8, "tn": 1 + i % 6},
    ("mongrel", "task"): lambda i: {"difficulty": i % 5},
    ("mnemonic", "check"): lambda i: {"aptitude": 1 + i % 12},
    ("mneme", "check"): lambda i: {"difficulty": 4 + i % 9},
    ("arm", "task"): lambda i: {"difficulty": i % 10},
}
"""What a player types between two previews, round by round (every roll of the tray
too): the same question is never asked twice in a row, so no cache answers it."""
OPENING = {"mongrel": ("start-conflict", {})}
"""What the referee does first, so the conflict's actions have their moment."""
GAP = 0.025


def _table(http: httpx.Client, game: str) -> tuple[str, dict[str, str]]:
    made = http.post("/api/tables", json={"game": game, "name": f"p-{game}", "referee": "Ron"})
    made.raise_for_status()
    tid = made.json()["table"]["id"]
    ron = {"authorization": f"Bearer {made.json()['token']}"}
    for example in SEATED[game]:
        r = http.post(
            f"/api/tables/{tid}/characters", json={"example": example, "force": True}, headers=ron
        )
        r.raise_for_status()
    if game in OPENING:
        action, fields = OPENING[game]
        r = http.post(
            f"/api/tables/{tid}/actions", json={"action": action, "fields": fields}, headers=ron
        )
        r.raise_for_status()
    return tid, ron


def _reference(game: str, tid_state: Any, action: str, fields: dict[str, Any]) -> float:
    """The same odds computed here, by the package, on the table's state: seconds."""
    from referee.systems.base import get

    rules = get(game)
    chosen = rules.load_action(action, fields)
    start = time.perf_counter()
    rules.odds(chosen, tid_state.state, tid_state.options)
    return time.perf_counter() - start


def run(base: str, db: str, rounds: int) -> dict[str, Any]:
    from referee.table.service import TableService
    from referee.table.store import Store

    service = TableService(Store(db))
    out: dict[str, Any] = {}
    with httpx.Client(base_url=base, timeout=60) as http:
        for game, cases in CASES.items():
            tid, ron = _table(http, game)
            ts = service.load(tid)
            times: list[float] = []
            refs: list[float] = []
            errors: list[str] = []
            for case in cases:  # one untimed preview each: the worker has the code loaded
                http.post(
                    f"/t/{tid}/preview", json={"action": case[0], "fields": case[1]}, headers=ron
                )
            for i in range(rounds):
                for action, base in cases:
                    typed = TYPED.get((game, action))
                    fields = {**base, **(typed(i) if typed else {})}
                    if action == "roll":
                        fields = {"dice": f"{1 + i % 7}d{(4, 6, 8, 10, 12, 20)[i % 6]}+{i % 5}"}
                    start = time.perf_counter()
                    r = http.post(
                        f"/t/{tid}/preview",
                        json={"action": action, "fields": fields},
                        headers=ron,
                    )
                    took = time.perf_counter() - start
                    if r.status_code != 200 or r.json().get("problems"):
                        errors.append(f"{action}: {r.status_code} {r.text[:160]}")
                    times.append(took * 1000)
                    refs.append(_reference(game, ts, action, fields) * 1000)
                    time.sleep(GAP)
            out[game] = {"times": times, "refs": refs, "errors": errors, "cases": len(cases)}
    service.store.close()
    return out


def section(quick: bool) -> tuple[str, list[dict[str, object]]]:
    """This benchmark's section of RESULTS.md and its targets (``bench/run.py preview``)."""
    rounds = 10 if quick else 60
    with served("preview", extra=()) as server:
        r = run(server.base, server.db, rounds)
        cpu = server.cpu()
    load = server.load
    every = [t for g in r.values() for t in g["times"]]
    errors = [e for g in r.values() for e in g["errors"]]
    p99 = pct(every, 0.99)
    met = p99 <= 50 and not errors
    lines = [
        f"## Odds previews while typing (measured {time.strftime('%Y-%m-%d')}, "
        "`python bench/bench_preview.py`)",
        "",
        "One `referee serve` process on 127.0.0.1, default quotas, SQLite; each game's table",
        "seats the text's example characters. The page's own request, `POST /t/{tid}/preview`",
        f"(the odds rendered as HTML), for the most-used actions and the dice tray, {rounds}",
        f"rounds, one request at a time, {GAP * 1000:.0f} ms apart, the numbers typed changing",
        "every round (dice, targets, difficulties, the tray's expression). Reference: the",
        "same odds computed in one process by the package (`Ruleset.odds`), the rules' own",
        "share.",
        f"Machine: 2 cores shared with other work (load average {load:.1f} at the start).",
        "",
        "| game | previews | p50 (ms) | p99 (ms) | max (ms) | reference p50 / p99 (ms) |",
        "|---|---|---|---|---|---|",
    ]
    for game, g in r.items():
        t, ref = g["times"], g["refs"]
        lines.append(
            f"| {game} ({g['cases']} actions) | {len(t)} | {pct(t, 0.5):.1f} | "
            f"{pct(t, 0.99):.1f} | {max(t):.1f} | {pct(ref, 0.5):.2f} / {pct(ref, 0.99):.2f} |"
        )
    lines += [
        f"| **all** | {len(every)} | {pct(every, 0.5):.1f} | **{p99:.1f}** | {max(every):.1f} "
        "| - |",
        "",
        f"Target: p99 ≤ 50 ms: {'met' if met else 'not met'}. Errors: {len(errors)}"
        + (f" (first: {errors[0]})" if errors else "")
        + f". Server CPU over the run: {cpu:.1f} s.",
        "",
    ]
    targets: list[dict[str, object]] = [
        {
            "label": "Odds preview of the demo tables' actions (page request), p99",
            "figure": f"{p99:.1f} ms",
            "needed": "≤ 50 ms",
            "met": met,
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
