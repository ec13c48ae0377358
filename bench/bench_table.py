"""Benchmarks of the live table: appends, loading a long table, folding.

Run by ``make bench`` (``bench/run.py table`` writes its section of RESULTS.md),
or alone: ``python bench/bench_table.py [--quick]`` prints it. Everything runs
on local files and stops by itself.

* **append**: commands/s through the whole service path (authorize, resolve a
  Mnemonic check with a seeded roller, seal, fold, insert) against a bare
  SQLAlchemy insert of the same rows with the same durability (the same
  SQLite file settings: WAL, synchronous=FULL, one transaction per row), in
  the same run. Target: at least 0.5 of the bare insert.
* **CPU per event** (issue 23 target 3): the CPU time (user + system, of this
  process) an appended ``act`` costs through the whole service path, against a
  bare ``sqlite3`` insert of the same rows (the rows the service wrote, re-inserted
  by the driver alone) into a file of the same schema and the same settings (WAL,
  ``synchronous=FULL``, ``BEGIN IMMEDIATE`` ... ``COMMIT`` per row), in alternating
  rounds of one run; medians of the rounds. Target: at most 2x the bare insert.
* **contended rate**: the same two, timed by the wall clock while busy processes
  (one per core) spin beside them, so each append also waits for a core. Target:
  at least 0.8 of the bare insert's rate.
* **load**: opening a 100,000-event table cold (a new service: newest
  snapshot + the events after it). Target: at most 0.5 s.
* **fold**: events/s folded from the first event without snapshots.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from referee.table.audit import verify_events
from referee.table.events import Event, Written
from referee.table.service import TableService, derived_seed, now
from referee.table.state import EVERYTHING, replay, snapshot_data
from referee.table.store import Store, TableRow, events_t

COLUMNS = (
    "table_id, seq, time, actor, kind, visibility, audience, payload, rolls, salt, prev_hash, hash"
)


def _service(folder: Path, name: str, url: str | None = None) -> tuple[TableService, str]:
    store = Store(url or f"sqlite:///{folder / name}")
    service = TableService(store, snapshot_every=500)
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
    statement = insert(events_t)
    t0 = time.perf_counter()
    for row in rows:
        with bare_store.writer.begin() as conn:
            conn.execute(statement, row)
    bare = n / (time.perf_counter() - t0)
    return ours, bare


class Bare:
    """The reference: ``sqlite3`` alone inserting rows into a file made by :class:`Store`
    (the same schema), with the settings the store's connections take."""

    def __init__(self, path: Path) -> None:
        store = Store(f"sqlite:///{path}")
        store.create(TableRow("tb", "bare", "mnemonic", now()), [])
        store.close()
        self.conn = sqlite3.connect(path, isolation_level=None, timeout=60)
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
            self.conn.execute(f"PRAGMA {pragma}")
        self.seq = 0
        self.sql = f"INSERT INTO events ({COLUMNS}) VALUES ({', '.join('?' * 12)})"

    def insert(self, rows: list[tuple[object, ...]]) -> None:
        """One transaction per row, as the service appends."""
        conn, sql = self.conn, self.sql
        for row in rows:
            self.seq += 1
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(sql, ("tb", self.seq, *row[2:]))
            conn.execute("COMMIT")

    def rows(self, tid: str, after: int) -> list[tuple[object, ...]]:
        """The rows the service wrote after ``after`` (read on a connection of its own)."""
        with sqlite3.connect(self.source) as conn:
            found = conn.execute(
                f"SELECT {COLUMNS} FROM events WHERE table_id = ? AND seq > ? ORDER BY seq",
                (tid, after),
            )
            return list(found)

    source: Path = Path()

    def close(self) -> None:
        self.conn.close()


class BarePostgres(Bare):
    """The reference on PostgreSQL: ``psycopg`` alone inserting the rows into a database
    of the same schema (made by :class:`Store`) on the same server, one transaction per
    row committed with the server's own durability (``synchronous_commit`` on, as the
    service's appends)."""

    def __init__(self, url: str, source: str) -> None:
        import psycopg

        store = Store(url)
        store.create(TableRow("tb", "bare", "mnemonic", now()), [])
        store.close()
        self.conn = psycopg.connect(url)  # type: ignore[assignment]
        self.reader = psycopg.connect(source, autocommit=True)
        self.seq = 0
        self.sql = f"INSERT INTO events ({COLUMNS}) VALUES ({', '.join(['%s'] * 12)})"

    def insert(self, rows: list[tuple[object, ...]]) -> None:
        """One transaction per row, as the service appends."""
        conn, sql = self.conn, self.sql
        with conn.cursor() as cursor:
            for row in rows:
                self.seq += 1
                cursor.execute(sql, ("tb", self.seq, *row[2:]))
                conn.commit()

    def rows(self, tid: str, after: int) -> list[tuple[object, ...]]:
        found = self.reader.execute(
            f"SELECT {COLUMNS} FROM events WHERE table_id = %s AND seq > %s ORDER BY seq",
            (tid, after),
        )
        return list(found)

    def close(self) -> None:
        self.conn.close()
        self.reader.close()


def _acts(service: TableService, tid: str, n: int) -> Callable[[], None]:
    def run() -> None:
        for i in range(n):
            service.act(tid, "Ron", "check", {"aptitude": 5 + i % 5})

    return run


def _cpu(func: Callable[[], None]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one call."""
    c0, w0 = time.process_time(), time.perf_counter()
    func()
    return time.process_time() - c0, time.perf_counter() - w0


@contextmanager
def busy(count: int) -> Iterator[None]:
    """``count`` processes spinning on the CPU while the block runs."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        time.sleep(0.3)  # let them get going
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


class PlainStore(Store):
    """A store whose appends take the engine's path (:meth:`Store.append_plain`, SQLAlchemy
    Core, as every append did before the fast path): the reference for what it saves."""

    def append(self, event: Event | Written) -> None:
        self.append_plain(event.event if isinstance(event, Written) else event)


def rules_cpu(n: int) -> float:
    """CPU ms the game's rules alone take for one of the bench's checks: the action read
    from its JSON, planned and resolved with a seeded roller (no table, no database)."""
    from referee.dice.roller import SeededRoller
    from referee.systems.base import get

    rules = get("mnemonic")
    options = rules.load_options({})
    state = rules.initial_state(options)
    c0 = time.process_time()
    for i in range(n):
        action = rules.load_action("check", {"aptitude": 5 + i % 5})
        rules.resolve(action, state, SeededRoller(derived_seed(1, i)), options)
    return (time.process_time() - c0) / n * 1e3


def bench_per_event(
    folder: Path,
    n: int,
    rounds: int,
    spinners: int = 0,
    plain: bool = False,
    server: Any = None,
) -> dict[str, float]:
    """Ours (``act`` through the service), the bare insert and, with ``plain``, the
    service appending through the engine (:class:`PlainStore`), in rounds of ``n``
    appends each, the order turned each round: medians (and the least and most) of CPU
    ms per event and of events/s (the wall clock), with ``spinners`` busy processes
    beside them. ``server``: a throwaway PostgreSQL server to append to (else SQLite
    files)."""
    tag = f"{spinners}"
    ours_url = server.new_database() if server is not None else None
    service, tid = _service(folder, f"ours-{tag}.db", ours_url)
    sides: dict[str, Callable[[], None]] = {"ours": _acts(service, tid, n)}
    if plain:
        url = server.new_database() if server else f"sqlite:///{folder / f'plain-{tag}.db'}"
        slow = TableService(PlainStore(url))
        slow_tid = slow.create("mnemonic", "bench", "Ron", seed=1).table.id
        sides["plain"] = _acts(slow, slow_tid, n)
        _acts(slow, slow_tid, 50)()
    _acts(service, tid, 50)()  # warm: the rules loaded, the plans' caches made
    if server is not None:
        assert ours_url is not None
        bare: Bare = BarePostgres(server.new_database(), ours_url)
    else:
        bare = Bare(folder / f"bare-{tag}.db")
        bare.source = folder / f"ours-{tag}.db"
    rows = bare.rows(tid, 1)
    bare.insert(rows)
    cpu: dict[str, list[float]] = {k: [] for k in (*sides, "bare")}
    rate: dict[str, list[float]] = {k: [] for k in (*sides, "bare")}
    with busy(spinners):
        for r in range(rounds):
            head = service.load(tid).seq
            batch = (rows * (n // len(rows) + 1))[:n]
            order = [*sides, "bare"]
            for side in order if r % 2 == 0 else reversed(order):
                run = sides.get(side) or (lambda b=batch: bare.insert(b))  # type: ignore[misc]
                spent, wall = _cpu(run)
                cpu[side].append(spent / n)
                rate[side].append(n / wall)
            rows = bare.rows(tid, head)
    bare.close()
    service.store.close()
    med = statistics.median
    out = {f"{k}_ms": med(v) * 1e3 for k, v in cpu.items()}
    out |= {f"{k}_rate": med(v) for k, v in rate.items()}
    ratios = [o / b for o, b in zip(cpu["ours"], cpu["bare"], strict=True)]
    out["cpu_ratio"] = med(ratios)
    out["cpu_ratio_min"], out["cpu_ratio_max"] = min(ratios), max(ratios)
    out["rate_ratio"] = med(o / b for o, b in zip(rate["ours"], rate["bare"], strict=True))
    out["sync_ms"] = 1e3 / out["bare_rate"]
    return out


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
    per_event, rounds = (60, 3) if quick else (300, 7)
    spinners = os.cpu_count() or 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ours, bare = bench_append(folder, appends)
        calm = bench_per_event(folder, per_event, rounds, plain=True)
        busy_ = bench_per_event(folder, per_event, rounds, spinners=spinners)
        pg = _on_postgres(folder, per_event, rounds)
        rules = rules_cpu(500 if quick else 3000)
        store, tid = build_long_table(folder, events)
        load = bench_load(store, tid, 5)
        fold = bench_fold(store, tid, min(events, 20_000))
        audit = bench_verify(store, tid, min(events, 5_000))
    ratio = ours / bare
    cpu_ratio, rate_ratio = calm["cpu_ratio"], busy_["rate_ratio"]
    cpu_met, rate_met = cpu_ratio <= 2, rate_ratio >= 0.8
    pg_met = pg is not None and pg["cpu_ratio"] <= 2
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
        "### CPU per event (issue 23 target 3)",
        "",
        f"CPU time (user + system) of this process per appended Mnemonic check, in {rounds}",
        f"rounds of {per_event} appends per side, the sides' order turned each round; medians",
        "of the rounds. The bare insert is `sqlite3` alone re-inserting the rows the service",
        "wrote (same schema, same pragmas, `BEGIN IMMEDIATE` ... `COMMIT` per row). Contended:",
        f"{spinners} processes spin on the CPU (one per core) while both sides run.",
        "",
        "| measure | quiet | contended | target | met |",
        "|---|---|---|---|---|",
        f"| CPU ms per `act` through the service | {calm['ours_ms']:.3f} | "
        f"{busy_['ours_ms']:.3f} | - | - |",
        f"| ... of which the game's rules alone (read, plan, resolve; no table) | {rules:.3f} "
        "| - | - | - |",
        f"| CPU ms per `act`, the service appending through SQLAlchemy Core "
        f"(`Store.append_plain`) | {calm['plain_ms']:.3f} | - | - | - |",
        f"| CPU ms per bare `sqlite3` insert, same durability | {calm['bare_ms']:.3f} | "
        f"{busy_['bare_ms']:.3f} | - | - |",
        f"| CPU ratio, service / bare | {cpu_ratio:.2f} | {busy_['cpu_ratio']:.2f} | <= 2 "
        f"(quiet) | {'yes' if cpu_met else 'no'} |",
        f"| events/s, service | {calm['ours_rate']:,.0f} | {busy_['ours_rate']:,.0f} | - | - |",
        f"| events/s, the service through SQLAlchemy Core | {calm['plain_rate']:,.0f} | - "
        "| - | - |",
        f"| events/s, bare insert | {calm['bare_rate']:,.0f} | {busy_['bare_rate']:,.0f} | - | - |",
        f"| rate ratio, service / bare | {calm['rate_ratio']:.2f} | {rate_ratio:.2f} | >= 0.8 "
        f"(contended) | {'yes' if rate_met else 'no'} |",
        f"| wall ms per bare insert (the disk sync, mostly) | {calm['sync_ms']:.2f} | "
        f"{busy_['sync_ms']:.2f} | - | - |",
        f"| CPU ratio per round, least / median / most (quiet) | "
        f"{_spread(calm)} | {_spread(busy_)} | - | - |",
        "",
        *_postgres_lines(pg, per_event, rounds),
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
        {
            "label": "Live table: CPU per appended act vs a bare sqlite3 insert, same durability",
            "figure": f"{cpu_ratio:.2f}× ({calm['ours_ms']:.3f} ms vs {calm['bare_ms']:.3f} ms; "
            f"rules alone {rules:.3f} ms)",
            "needed": "≤ 2×",
            "met": cpu_met,
        },
        {
            "label": "Live table on PostgreSQL: CPU per appended act vs a bare psycopg insert, "
            "same server",
            "figure": "not measured (no PostgreSQL)"
            if pg is None
            else f"{pg['cpu_ratio']:.2f}× ({pg['ours_ms']:.3f} ms vs {pg['bare_ms']:.3f} ms; "
            f"rounds {_spread(pg)})",
            "needed": "≤ 2×",
            "met": pg_met,
        },
        {
            "label": f"Live table: append rate with the CPU contended ({spinners} busy "
            "processes) vs a bare insert",
            "figure": f"{rate_ratio:.2f} ({busy_['ours_rate']:,.0f}/s vs "
            f"{busy_['bare_rate']:,.0f}/s; disk sync {busy_['sync_ms']:.2f} ms)",
            "needed": "≥ 0.8",
            "met": rate_met,
        },
    ]
    return "\n".join(lines), targets


def _spread(found: dict[str, float]) -> str:
    """The least, median and most of the rounds' CPU ratios."""
    return f"{found['cpu_ratio_min']:.2f} / {found['cpu_ratio']:.2f} / {found['cpu_ratio_max']:.2f}"


def _on_postgres(folder: Path, n: int, rounds: int) -> dict[str, float] | None:
    """:func:`bench_per_event` on a throwaway PostgreSQL server (``None`` without one)."""
    import importlib.util

    # the tests' launcher (not in the package), by its file: a `tests` package installed
    # elsewhere would shadow the project's
    where = Path(__file__).resolve().parents[1] / "tests" / "support" / "postgres.py"
    spec = importlib.util.spec_from_file_location("bench_postgres", where)
    assert spec is not None and spec.loader is not None
    postgres = sys.modules["bench_postgres"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(postgres)

    try:
        server = postgres.start()
    except postgres.NoPostgres:
        return None
    try:
        return bench_per_event(folder, n, rounds, plain=True, server=server)
    finally:
        server.stop()


def _postgres_lines(pg: dict[str, float] | None, n: int, rounds: int) -> list[str]:
    """The PostgreSQL side of the CPU per event (issue 38 item 2)."""
    head = [
        "### CPU per event on PostgreSQL (issue 38 item 2)",
        "",
    ]
    if pg is None:
        return [*head, "Not measured: no PostgreSQL server programs on this machine.", ""]
    return [
        *head,
        "The same measure on a throwaway PostgreSQL server on this machine "
        "(`tests/support/postgres.py`, its default durability: `fsync` and "
        f"`synchronous_commit` on), in {rounds} rounds of {n} appends per side. The bare "
        "insert is `psycopg` alone re-inserting the rows the service wrote into a database "
        "of the same schema on the same server, one transaction (insert, commit) per row; "
        "the service's append also tells listeners (its NOTIFY, in the same statement). "
        "CPU is this process's only (the server's is not counted on either side).",
        "",
        "| measure | value | target | met |",
        "|---|---|---|---|",
        f"| CPU ms per `act` through the service | {pg['ours_ms']:.3f} | - | - |",
        f"| CPU ms per `act`, through SQLAlchemy Core (`Store.append_plain`) | "
        f"{pg['plain_ms']:.3f} | - | - |",
        f"| CPU ms per bare `psycopg` insert | {pg['bare_ms']:.3f} | - | - |",
        f"| CPU ratio, service / bare (median of rounds) | {pg['cpu_ratio']:.2f} | <= 2 | "
        f"{'yes' if pg['cpu_ratio'] <= 2 else 'no'} |",
        f"| CPU ratio per round, least / median / most | {_spread(pg)} | - | - |",
        f"| events/s, service / bare | {pg['ours_rate']:,.0f} / {pg['bare_rate']:,.0f} | - | - |",
        "",
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    args = parser.parse_args()
    text, _targets = section(args.quick)
    print(text)


if __name__ == "__main__":
    main()
