"""Benchmarks of the live table: appends, loading a long table, folding.

Run by ``make bench`` (``bench/run.py table`` writes its section of RESULTS.md),
or alone: ``python bench/bench_table.py [--quick]`` prints it. Everything runs
on local files and stops by itself.

* **append**: commands/s through the whole service path (authorize, resolve a
  Mnemonic check with a seeded roller, seal, fold, insert) against a bare
  SQLAlchemy insert of the same rows with the same durability (the same
  SQLite file settings: WAL, synchronous=FULL, one transaction per row), in
  the same run. Target: at least 0.5 of the bare insert.
* **load**: opening a 100,000-event table cold (a new service: newest
  snapshot + the events after it). Target: at most 0.5 s.
* **fold**: events/s folded from the first event without snapshots.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert

from referee.table.audit import verify_events
from referee.table.events import Event
from referee.table.service import TableService, derived_seed, now
from referee.table.state import EVERYTHING, replay, snapshot_data
from referee.table.store import Store, TableRow, events_t


def _service(folder: Path, name: str) -> tuple[TableService, str]:
    service = TableService(Store(f"sqlite:///{folder / name}"), snapshot_every=500)
    tid = service.create("mnemonic", "bench", "Ron", seed=1).table.id
    return service, tid


def bench_append(folder: Path, n: int) -> tuple[float, float]:
    """(commands/s through the service, bare inserts/s) on the same kind of file."""
    service, tid = _service(folder, "append.db")
    t0 = time.perf_counter()
    for i in range(n):
        service.act(tid, "Ron", "check", {"aptitude": 5 + i % 5})
    ours = n / (time.perf_counter() - t0)
    template = service.store.events(tid, after=1, upto=2)[0]
    bare_store = Store(f"sqlite:///{folder / 'bare.db'}")
    bare_store.create(TableRow("tb", "bare", "mnemonic", now()), [])
    rows = []
    for i in range(n):
        e = template
        rows.append(
            {
                "table_id": "tb",
                "seq": i + 1,
                "time": e.time,
                "actor": e.actor,
                "kind": e.kind,
                "visibility": e.visibility,
                "audience": None,
                "payload": str(e.payload),
                "rolls": str(list(e.rolls)),
                "salt": e.salt,
                "prev_hash": e.prev_hash,
                "hash": e.hash,
            }
        )
    t0 = time.perf_counter()
    for row in rows:
        with bare_store.writer.begin() as conn:
            conn.execute(insert(events_t).values(**row))
    bare = n / (time.perf_counter() - t0)
    return ours, bare


def build_long_table(folder: Path, n: int) -> tuple[Store, str]:
    """A table of ``n`` events (Mnemonic checks and notes), written in one transaction,
    with a snapshot every 500 events as a live table would have."""
    service, tid = _service(folder, "long.db")
    ts = service.load(tid)
    rules = ts.ruleset
    from referee.dice.roller import SeededRoller
    from referee.systems.base import outcome_data

    events: list[Event] = []
    snapshots: list[tuple[int, dict[str, object]]] = []
    for seq in range(2, n + 1):
        if seq % 4 == 0:
            kind, payload, rolls = "note", {"text": f"line {seq}"}, ()
        else:
            action = rules.load_action("check", {"aptitude": 6})
            roller = SeededRoller(derived_seed(1, seq))
            outcome = rules.resolve(action, ts.state, roller, ts.options)
            kind = "action-resolved"
            payload = {
                "action": "check",
                "fields": rules.action_data(action),
                "outcome": outcome_data(outcome),
            }
            rolls = tuple(r.to_dict() for r in outcome.rolls)
        e = Event(tid, seq, now(), "Ron", kind, payload, rolls=rolls, prev_hash=ts.hash).sealed()  # type: ignore[arg-type]
        ts = replay(ts, [e], undone=frozenset(), revealed=frozenset())
        events.append(e)
        if seq % 500 == 0:
            snapshots.append((seq, snapshot_data(ts)))
    with service.store.writer.begin() as conn:
        conn.execute(insert(events_t), [_row(e) for e in events])
    for seq, data in snapshots:
        service.store.put_snapshot(tid, seq, data)  # type: ignore[arg-type]
    return service.store, tid


def _row(e: Event) -> dict[str, object]:
    from referee.table.store import _row as row

    return row(e)


def bench_load(store: Store, tid: str, repeats: int) -> float:
    """Median seconds to open the long table cold."""
    times = []
    for _ in range(repeats):
        fresh = TableService(Store(store.url, migrate=False))
        t0 = time.perf_counter()
        fresh.load(tid)
        times.append(time.perf_counter() - t0)
        fresh.store.close()
    return statistics.median(times)


def bench_fold(store: Store, tid: str, n: int) -> float:
    """Events/s folded from the first event (no snapshot), events already in memory."""
    events = store.events(tid, upto=n)
    from referee.table.state import created

    base = created(events[0])
    t0 = time.perf_counter()
    replay(base, events[1:], undone=frozenset(), revealed=frozenset(), viewer=EVERYTHING)
    return (len(events) - 1) / (time.perf_counter() - t0)


def bench_verify(store: Store, tid: str, n: int) -> float:
    """Events/s audited (hash chain + replay of every action from its faces)."""
    events = store.events(tid, upto=n)
    t0 = time.perf_counter()
    verify_events(events, tid)
    return len(events) / (time.perf_counter() - t0)


def section(quick: bool) -> tuple[str, list[dict[str, object]]]:
    """This benchmark's section of RESULTS.md and its targets (``bench/run.py table``)."""
    appends, events = (50, 5_000) if quick else (400, 100_000)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ours, bare = bench_append(folder, appends)
        store, tid = build_long_table(folder, events)
        load = bench_load(store, tid, 5)
        fold = bench_fold(store, tid, min(events, 20_000))
        audit = bench_verify(store, tid, min(events, 5_000))
    ratio = ours / bare
    lines = [
        f"## Live table (measured {time.strftime('%Y-%m-%d')}, `python bench/run.py table`)",
        "",
        "SQLite file in WAL mode with `synchronous=FULL` (every append is on disk before it is",
        "acknowledged). The bare insert is SQLAlchemy inserting the same rows into the same kind",
        "of file, one transaction each, in the same run.",
        "",
        "| measure | value | target | met |",
        "|---|---|---|---|",
        f"| commands/s appended + folded (service) | {ours:,.0f} | - | - |",
        f"| bare SQLAlchemy inserts/s, same durability | {bare:,.0f} | - | - |",
        f"| ratio | {ratio:.2f} | >= 0.5 | {'yes' if ratio >= 0.5 else 'no'} |",
        f"| load a {events:,}-event table cold (s) | {load:.3f} | <= 0.5 | "
        f"{'yes' if load <= 0.5 else 'no'} |",
        f"| fold rate, events/s (from the first event) | {fold:,.0f} | - | - |",
        f"| audit rate, events/s (chain + replay from faces) | {audit:,.0f} | - | - |",
        "",
    ]
    targets: list[dict[str, object]] = [
        {
            "label": "Live table: commands appended + folded vs a bare insert, same durability",
            "figure": f"{ratio:.2f} ({ours:,.0f}/s vs {bare:,.0f}/s)",
            "needed": "≥ 0.5",
            "met": ratio >= 0.5,
        },
        {
            "label": f"Live table: load a {events:,}-event table cold",
            "figure": f"{load:.3f} s",
            "needed": "≤ 0.5 s",
            "met": load <= 0.5,
        },
    ]
    return "\n".join(lines), targets


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    args = parser.parse_args()
    text, _targets = section(args.quick)
    print(text)


if __name__ == "__main__":
    main()
