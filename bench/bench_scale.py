"""Benchmark of scale-out: one or two ``referee serve`` processes on one PostgreSQL.

Run by ``make bench`` (``bench/run.py scale`` writes its section of RESULTS.md), or
alone: ``python bench/bench_scale.py [--quick]``. A throwaway PostgreSQL server
(``tests/support/postgres.py``, the tests' own) on 127.0.0.1; the servers and the load in this
process; bounded in time, it stops by itself (issue 23 target 7; the capacity model
built on these figures is ``docs/scaling.md``).

Every scenario sends the referees' Mnemonic checks of :data:`TABLES` tables, closed
loop (:data:`SENDERS` senders, each bound to one table and one process, sending the
next command when the last is answered) for a few seconds, and reads the CPU each
part used over the measured window: each server process, every PostgreSQL process
(the postmaster's children), this load generator, and PostgreSQL's count of rolled
back transactions (a lost race for a seq: the insert fails, the writer reloads and
tries again).

* **one process**: every table on one server.
* **two processes, shared tables**: both servers write every table (a browser's
  commands go to whichever process the balancer picks).
* **two processes, sticky tables**: each table written through one process only.
* **... with browsers**: two WebSocket clients per table; with two processes, one on
  each, so each process pushes its own events and, told by NOTIFY, reads and pushes
  the other's (with one, both on it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench_web import Commands, served

TABLES = 4
SENDERS = 8
BODY = b'{"action":"check","fields":{"aptitude":7}}'


def _children_cpu(root_pid: int) -> float:
    """CPU seconds of a process and its children (PostgreSQL's postmaster and backends)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text.rsplit(")", 1)[1].split()
        pid = int(stat.parent.name)
        if pid == root_pid or int(fields[1]) == root_pid:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _rollbacks(url: str) -> int:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_rollback FROM pg_stat_database WHERE datname = %s", (name,)
        ).fetchone()
    return int(row[0]) if row else 0


def _support() -> Any:
    """The tests' PostgreSQL launcher (tests/support/postgres.py; not in the package)."""
    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    from tests.support import postgres

    return postgres


@contextlib.contextmanager
def _postgres() -> Iterator[Any]:
    postgres = _support()
    server = postgres.start()
    try:
        yield server
    finally:
        server.stop()


def _tables(base: str, n: int) -> list[tuple[str, str]]:
    out = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for i in range(n):
            made = http.post(
                "/api/tables", json={"game": "mnemonic", "name": f"t{i}", "referee": "Ron"}
            ).json()
            out.append((made["table"]["id"], made["token"]))
    return out


async def _burst(
    ports: list[int],
    tables: list[tuple[str, str]],
    route: list[list[int]],
    seconds: float,
    browsers: list[str],
) -> dict[str, Any]:
    """``route[t]``: the processes (indexes into ``ports``) table t's senders use, in turn.
    ``browsers``: base URLs on which each table gets one WebSocket client."""
    senders = []
    for i in range(SENDERS):
        t = i % len(tables)
        port = ports[route[t][(i // len(tables)) % len(route[t])]]
        tid, token = tables[t]
        c = Commands(port, f"/api/tables/{tid}/actions", token, BODY, 1)
        await c.open()
        senders.append(c)
    received = 0
    clients: list[asyncio.Task[None]] = []
    live = 0

    async def client(url: str, token: str) -> None:
        nonlocal received, live
        headers = {"authorization": f"Bearer {token}"}
        async with websockets.connect(url, additional_headers=headers, max_size=2**22) as ws:
            async for text in ws:
                assert isinstance(text, str)
                if '{"type":"live"' in text:
                    live += 1
                received += len(re.findall(r'"type":"event"', text))

    for base in browsers:
        for tid, token in tables:
            head = httpx.get(
                f"{base}/api/tables/{tid}", headers={"authorization": f"Bearer {token}"}
            ).json()["seq"]
            url = f"{base.replace('http', 'ws')}/ws/tables/{tid}?after={head}"
            clients.append(asyncio.create_task(client(url, token)))
    while live < len(clients):
        await asyncio.sleep(0.05)
    done = 0
    errors = 0
    round_trips: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def loop(sender: Commands) -> None:
        nonlocal done, errors
        while time.perf_counter() < stop_at:
            t0 = time.perf_counter()
            status, _ = await sender.send()
            round_trips.append(time.perf_counter() - t0)
            if status == 201:
                done += 1
            else:
                errors += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(loop(s) for s in senders))
    elapsed = time.perf_counter() - t0
    expected = done * len(browsers)
    deadline = time.perf_counter() + 30
    while received < expected and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    for task in clients:
        task.cancel()
    await asyncio.gather(*clients, return_exceptions=True)
    for s in senders:
        await s.close()
    return {
        "done": done,
        "rate": done / elapsed,
        "errors": errors,
        "rtt50": statistics.median(round_trips) * 1000 if round_trips else 0.0,
        "delivered": received >= expected,
    }


def pin(pid: int, core: int) -> None:
    """Keep every thread of process ``pid`` (and those it starts later) on one core."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(int(task.name), {core})


CORES = sorted(os.sched_getaffinity(0))
"""The cores this benchmark may use: server process i is pinned to ``CORES[i % len]``."""


def scenario(
    pg: Any, processes: int, sticky: bool, browsers: bool, seconds: float, pinned: bool = False
) -> dict[str, Any]:
    """One scenario on a fresh database (see the module text); ``pinned``: each server
    process on a core of its own (where the machine has as many)."""
    url = pg.new_database()
    postmaster = int((pg.root / "data" / "postmaster.pid").read_text().split()[0])
    with contextlib.ExitStack() as stack:
        servers = [stack.enter_context(served("scale", db=url)) for _ in range(processes)]
        if pinned:
            for i, server in enumerate(servers):
                pin(server.proc.pid, CORES[i % len(CORES)])
        tables = _tables(servers[0].base, TABLES)
        ports = [int(s.base.rsplit(":", 1)[1]) for s in servers]
        route = (
            [[t % processes] for t in range(TABLES)]
            if sticky
            else [list(range(processes)) for _ in range(TABLES)]
        )
        # two browsers per table either way: one on each process, or both on the one
        homes = ([s.base for s in servers] * (3 - processes)) if browsers else []
        cpu0 = [s.cpu() for s in servers]
        pg0 = _children_cpu(postmaster)
        me0 = time.process_time()
        rb0 = _rollbacks(url)
        r = asyncio.run(_burst(ports, tables, route, seconds, homes))
        r["server_cpu"] = [
            (s.cpu() - c) * 1000 / r["done"] for s, c in zip(servers, cpu0, strict=True)
        ]
        r["pg_cpu"] = (_children_cpu(postmaster) - pg0) * 1000 / r["done"]
        r["load_cpu"] = (time.process_time() - me0) * 1000 / r["done"]
        r["lost_races"] = _rollbacks(url) - rb0
        r["load"] = servers[0].load
    return r


def panel_costs(rounds: int) -> list[tuple[str, float | None, float | None]]:
    """CPU (ms, median of ``rounds``) of drawing the panels after an event, in this
    process on a SQLite table: each kind of viewer alone (``pages.panels_data``, what a
    viewer's own ``/panels`` costs and what every viewer cost a push before the classes),
    and whole rounds by viewer class (``panel_push.pushed_panels``) beside the same
    viewers drawn one by one."""
    import tempfile

    from referee.table.service import TableService
    from referee.table.state import Viewer
    from referee.table.store import Store
    from referee.web import create_app
    from referee.web.pages import Participant, panels_data
    from referee.web.panel_push import pushed_panels

    def cpu(fn: Any) -> float:
        times = []
        for _ in range(rounds):
            t0 = time.process_time()
            fn()
            times.append(time.process_time() - t0)
        return statistics.median(times) * 1000

    with tempfile.TemporaryDirectory() as tmp:
        service = TableService(Store(f"sqlite:///{tmp}/p.db"))
        tid = service.create("mnemonic", "Panels", "Ron", seed=1).table.id
        for name in ("Ann", "Bea", "Cal", "Dee"):
            service.join(tid, name, "player")
        service.add_character(tid, "boxer", owner="Ann")
        service.add_character(tid, "frigate", owner="Bea")
        for _ in range(20):
            service.act(tid, "Ron", "check", {"aptitude": 5})
        web = create_app(service, watch=False).state.web
        web.renderer.warm()
        draw = pushed_panels(web)

        def alone(vs: list[Viewer]) -> Any:
            return lambda: [panels_data(web, Participant(tid, str(v.name), v.role)) for v in vs]

        five = [
            Viewer("Ron", "referee"),
            *(Viewer(n, "player") for n in ("Ann", "Bea", "Cal", "Dee")),
        ]
        out: list[tuple[str, float | None, float | None]] = []
        for v, what in zip(
            five[:4],
            ("a referee", "a player with a character", "", "a player with none"),
            strict=True,
        ):
            if what:
                alone([v])()
                out.append((f"one viewer: {what}", None, cpu(alone([v]))))
        draw(tid, five)
        out.append(
            (
                "a round: a referee, 2 players with a character, 2 without (4 classes)",
                cpu(lambda: draw(tid, five)),
                cpu(alone(five)),
            )
        )
        many = [Viewer(f"P{i:02d}", "player") for i in range(50)]
        for v in many:
            service.join(tid, str(v.name), "player")
        draw(tid, [*five, *many])
        out.append(
            (
                "a round: the same and 50 more players without (4 classes)",
                cpu(lambda: draw(tid, [*five, *many])),
                cpu(alone([*five, *many])),
            )
        )
    return out


SCENARIOS = [
    ("one process", 1, True, False, False),
    ("two processes, shared tables", 2, False, False, False),
    ("two processes, sticky tables", 2, True, False, False),
    ("one process, pinned to a core", 1, True, False, True),
    ("two processes, sticky tables, each pinned to its core", 2, True, False, True),
    ("one process, with browsers", 1, True, True, False),
    ("two processes, sticky tables, with browsers", 2, True, True, False),
]
"""(name, server processes, sticky tables, with browsers, each process pinned to a core)."""
PINNED_PAIR = (SCENARIOS[3][0], SCENARIOS[4][0])
"""One process pinned, two pinned: the scale-out ratio of issue 38 (target 6)."""


def section(quick: bool) -> tuple[str, list[dict[str, object]]]:
    """This benchmark's section of RESULTS.md (``bench/run.py scale``)."""
    seconds = 2.0 if quick else 6.0
    rounds = 1 if quick else 2
    NoPostgres = _support().NoPostgres

    costs = panel_costs(5 if quick else 21)
    try:
        pg_ctx = _postgres()
        pg = pg_ctx.__enter__()
    except NoPostgres as e:
        return f"## Scale-out on PostgreSQL\n\nNot measured: {e}\n", []
    results: dict[str, list[dict[str, Any]]] = {name: [] for name, *_ in SCENARIOS}
    try:
        for _ in range(rounds):  # interleaved, so a busy spell of the machine hits all
            for name, processes, sticky, browsers, pinned in SCENARIOS:
                results[name].append(scenario(pg, processes, sticky, browsers, seconds, pinned))
    finally:
        pg_ctx.__exit__(None, None, None)

    def med(rs: list[dict[str, Any]], key: str) -> float:
        return statistics.median(sum(r[key]) if isinstance(r[key], list) else r[key] for r in rs)

    lines = [
        f"## Scale-out on PostgreSQL (measured {time.strftime('%Y-%m-%d')}, "
        "`python bench/bench_scale.py`)",
        "",
        "`referee serve` processes on one throwaway PostgreSQL server, all on this machine's",
        f"2 shared cores (load average {results['one process'][0]['load']:.1f} at the start). "
        f"{TABLES} tables, {SENDERS}",
        "senders in a closed loop (each bound to one table and one process), the referee's",
        f"Mnemonic checks, {seconds:g} s per scenario, {rounds} interleaved round(s), medians.",
        "CPU per command: each server process's (summed), every PostgreSQL process's, and the",
        "load generator's (which shares the cores). Rolled back: PostgreSQL's count of rolled",
        "back transactions; above the sticky scenarios' few, lost races (an insert whose seq",
        "another process took first: the writer reloads and tries again).",
        "",
        "| scenario | commands/s | round trip p50 (ms) | servers' CPU per command (ms) "
        "| per process | PostgreSQL CPU per command (ms) | load generator's (ms) "
        "| rolled back per 1000 commands | every event to every browser |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, _p, _s, browsers, _pinned in SCENARIOS:
        rs = results[name]
        per = " / ".join(
            f"{statistics.median(r['server_cpu'][i] for r in rs):.2f}"
            for i in range(len(rs[0]["server_cpu"]))
        )
        lost = statistics.median(r["lost_races"] * 1000 / r["done"] for r in rs)
        lines.append(
            f"| {name} | {med(rs, 'rate'):,.0f} | {med(rs, 'rtt50'):.1f} "
            f"| {med(rs, 'server_cpu'):.2f} | {per} | {med(rs, 'pg_cpu'):.2f} "
            f"| {med(rs, 'load_cpu'):.2f} | {lost:.1f} "
            f"| {('yes' if all(r['delivered'] for r in rs) else 'NO') if browsers else '-'} |"
        )
    one, two = (results[n] for n in PINNED_PAIR)
    ratios = sorted(b["rate"] / a["rate"] for a, b in zip(one, two, strict=True))
    lines += [
        "",
        f"Two processes against one, each pinned to a core of its own ({len(CORES)} cores here; "
        "PostgreSQL and the load generator share them), commands/s of the same round: "
        f"min {ratios[0]:.2f}×, median {statistics.median(ratios):.2f}×, max {ratios[-1]:.2f}×.",
    ]
    lines += [
        "",
        "The panels drawn after an event (CPU in one process, a Mnemonic table, medians; the",
        "per-viewer column is every viewer drawn alone, as each push did before viewer classes):",
        "",
        "| drawn | by viewer class (ms) | each viewer alone (ms) |",
        "|---|---|---|",
        *(
            f"| {what} | {'-' if ours is None else f'{ours:.2f}'} "
            f"| {'-' if ref is None else f'{ref:.2f}'} |"
            for what, ours, ref in costs
        ),
        "",
    ]
    delivered = all(r["delivered"] for rs in results.values() for r in rs)
    targets: list[dict[str, object]] = [
        {
            "label": "Scale-out: every event reached every browser on both processes",
            "figure": "yes" if delivered else "no",
            "needed": "all",
            "met": delivered,
        }
    ]
    targets.append(
        {
            "label": "Scale-out: two processes pinned to their cores against one (commands/s)",
            "figure": f"median {statistics.median(ratios):.2f}× (min {ratios[0]:.2f}×, "
            f"max {ratios[-1]:.2f}×) on {len(CORES)} cores",
            "needed": "measured",
            "met": True,
        }
    )
    return "\n".join(lines), targets


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="short scenarios, one round")
    args = parser.parse_args()
    text, _ = section(args.quick)
    print(text)


if __name__ == "__main__":
    main()
