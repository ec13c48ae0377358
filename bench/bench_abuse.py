"""Benchmark: one table cannot starve another (issue 33). Each finding of the issue is
replayed against one ``referee serve`` process on 127.0.0.1 with its default quotas,
while a bystander at another table reads their table (GET) every 50 ms and asks a cheap
preview every 100 ms; side by side with the same bystander on an idle server in the
same run.

Run by ``make bench`` (``bench/run.py abuse`` writes its section of RESULTS.md), or
alone: ``python bench/bench_abuse.py [--quick]``. Every attack is bounded in count and
time and stops by itself; nothing leaves 127.0.0.1.

Attacks (each as the issue measured it, within today's quotas):

1. **heavy odds, one link**: 4 threads of one observer asking the odds of ``1000d20``,
   ``1000d6`` and ``20d20*20d20`` over and over;
2. **heavy odds, 20 minted links**: the referee mints 20 observers, one thread each;
3. **catch-up**: 100 sockets opening with ``?after=0`` on a table of 1,200 events;
4. **fan-out**: 300 sockets on one table (its cap is 200) while its referee writes a
   note every 100 ms;
5. **sockets that never read**: 200 sockets that never read while notes are written
   flat out for 10 s (the server's memory before and after);
6. **many sockets on few links**: 1,200 sockets on 3 links while notes are written flat
   out (each participant's cap is 10);
7. **analyses**: one link, 4 threads asking ARM 2-v-1 fights with ``runs=20000`` and
   ``max_states=5000``;
8. **imports**: two anonymous clients importing a big table's export (30 MB; 4.5 MB with
   ``--quick``) over and over;
9. **minted links' quota**: 100 links each firing 40 requests at once (how many are
   refused).

``--only N`` (repeatable) runs only those attacks.

Targets: the bystander's GET p99 at most 3x its idle baseline, the cheap preview's p99
at most 250 ms under every attack; the server's memory growth at most 100 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib

from bench_web import free_port, pct, start_server

HEAVY = ("1000d20", "1000d6", "20d20*20d20")
PREVIEW = {"action": "sheet-check", "fields": {"actor": "mickey-ruane", "talent": "Tough"}}


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _load() -> float:
    """The machine's load average over the last minute (other work on it)."""
    return float(Path("/proc/loadavg").read_text().split()[0])


def _prepare(db: str, big_notes: int) -> dict[str, Any]:
    """The tables, made in the database before the server starts (a 1,119-event table
    would take the referee's own quota minutes to write): the bystander's Mnemonic table,
    the attacker's Mneme CE table with its events, and the links."""
    from referee.systems.base import get
    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.table.tokens import Tokens

    service = TableService(Store(db))
    tokens = Tokens(service.store)
    quiet = service.create("mnemonic", "Quiet", "Ron").table.id
    service.join(quiet, "Ann", "player")
    service.add_character(quiet, "boxer", owner="Ann", force=True)
    loud = service.create("mneme", "Loud", "Rex").table.id
    for i in range(1_100):
        service.note(loud, "Rex", f"a long evening, note {i}")
    big = service.create("mnemonic", "Big", "Bea").table.id
    for i in range(big_notes):  # 4,000 characters each: an export of ~4.5 KB a note
        service.note(big, "Bea", f"{i:05d} " + "lorem ipsum " * 332)
    arena = service.create("arm", "Arena", "Rea", settings={"true_odds": True}).table.id
    fighters = list(get("arm").examples())
    for example in fighters:
        service.add_character(arena, example, force=True)
    links = {
        "ann": tokens.issue(quiet, "Ann")[0],
        "ron": tokens.issue(quiet, "Ron", "referee")[0],
        "rex": tokens.issue(loud, "Rex", "referee")[0],
        "rea": tokens.issue(arena, "Rea", "referee")[0],
        "bea": tokens.issue(big, "Bea", "referee")[0],
    }
    for i in range(100):
        name = f"Obs{i}"
        service.join(loud, name, "observer")
        links[name] = tokens.issue(loud, name)[0]
    head = service.load(loud).seq
    service.store.close()
    return {
        "quiet": quiet,
        "loud": loud,
        "arena": arena,
        "big": big,
        "fighters": fighters,
        "links": links,
        "events": head,
    }


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


class Bystander:
    """Ann at the quiet table: a GET every 50 ms and a cheap preview every 100 ms."""

    def __init__(self, base: str, setup: dict[str, Any]) -> None:
        self.base = base
        self.tid = setup["quiet"]
        self.headers = _auth(setup["links"]["ann"])

    def measure(self, seconds: float) -> tuple[list[float], list[float], int]:
        gets: list[float] = []
        previews: list[float] = []
        failed = [0]
        stop = time.monotonic() + seconds

        def loop(
            gap: float, ask: Callable[[httpx.Client], httpx.Response], into: list[float]
        ) -> None:
            with httpx.Client(base_url=self.base, headers=self.headers, timeout=120) as http:
                while time.monotonic() < stop:
                    start = time.perf_counter()
                    r = ask(http)
                    into.append((time.perf_counter() - start) * 1000)
                    if r.status_code != 200:
                        failed[0] += 1
                    time.sleep(max(0.0, gap - (time.perf_counter() - start)))

        threads = [
            threading.Thread(
                target=loop, args=(0.05, lambda h: h.get(f"/api/tables/{self.tid}"), gets)
            ),
            threading.Thread(
                target=loop,
                args=(0.1, lambda h: h.post(f"/t/{self.tid}/preview", json=PREVIEW), previews),
            ),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return gets, previews, failed[0]


class Attacker:
    """An attack's clients in a process of their own (forked), so the bystander's timings
    are the server's, not those of one interpreter shared with 1,200 sockets' reads; what
    the attack found comes back when it stops."""

    def __init__(self, begin: Callable[[threading.Event], Any]) -> None:
        import multiprocessing

        self.pipe, child_end = multiprocessing.Pipe()
        self.proc = multiprocessing.get_context("fork").Process(
            target=self._run, args=(begin, child_end), daemon=True
        )
        self.proc.start()

    @staticmethod
    def _run(begin: Callable[[threading.Event], Any], pipe: Any) -> None:
        stop = threading.Event()
        found = begin(stop)
        pipe.recv()  # told to stop
        stop.set()
        time.sleep(1.0)
        pipe.send(found)

    def stop(self) -> Any:
        """Stop the attack; what it found."""
        self.pipe.send("stop")
        found = self.pipe.recv() if self.pipe.poll(120) else None
        self.proc.join(10)
        if self.proc.is_alive():
            self.proc.kill()
        return found


def _heavy(
    base: str, tid: str, tokens: list[str], threads_each: int, stop: threading.Event
) -> list[int]:
    counts = [0, 0]  # answered, refused (429)

    def ask(token: str) -> None:
        with httpx.Client(base_url=base, headers=_auth(token), timeout=120) as http:
            i = 0
            while not stop.is_set():
                dice = HEAVY[i % len(HEAVY)]
                i += 1
                r = http.post(
                    f"/api/tables/{tid}/odds", json={"action": "roll", "fields": {"dice": dice}}
                )
                counts[0 if r.status_code == 200 else 1] += 1
                if r.status_code == 429:
                    time.sleep(min(2.0, float(r.headers.get("retry-after", "1"))))

    workers = [threading.Thread(target=ask, args=(t,)) for t in tokens for _ in range(threads_each)]
    for w in workers:
        w.start()
    return counts


def _analyses(base: str, setup: dict[str, Any], stop: threading.Event) -> list[int]:
    """One link, 4 threads: ARM 2-v-1 fights with the largest bounds the issue used."""
    counts = [0, 0]  # answered, refused
    a, b = setup["fighters"][:2], setup["fighters"][2]
    query = f"a={a[0]}&a={a[1]}&b={b}&runs=20000&max_states=5000"
    url = f"/api/tables/{setup['arena']}/analysis?{query}"

    def ask() -> None:
        with httpx.Client(base_url=base, headers=_auth(setup["links"]["rea"]), timeout=120) as h:
            while not stop.is_set():
                r = h.get(url)
                counts[0 if r.status_code == 200 else 1] += 1
                if r.status_code == 429:
                    time.sleep(min(2.0, float(r.headers.get("retry-after", "1"))))

    for _ in range(4):
        threading.Thread(target=ask, daemon=True).start()
    return counts


def _imports(base: str, export: bytes, stop: threading.Event) -> list[int]:
    """Two anonymous clients importing the loud table's export over and over."""
    counts = [0, 0]  # folded (created or refused after reading), refused by the quota

    def post() -> None:
        with httpx.Client(base_url=base, timeout=120) as h:
            while not stop.is_set():
                r = h.post(
                    "/api/import", content=export, headers={"content-type": "application/json"}
                )
                counts[1 if r.status_code == 429 else 0] += 1
                if r.status_code == 429:
                    time.sleep(1.0)

    for _ in range(2):
        threading.Thread(target=post, daemon=True).start()
    return counts


def _sockets(
    base: str, tid: str, tokens: list[str], after: str, read: bool, stop: threading.Event
) -> dict[str, int]:
    """Open one socket per token (in a thread of its own loop); count the opened and the
    refused; a reader reads, a non-reader never does."""
    import websockets

    url = f"{base.replace('http', 'ws')}/ws/tables/{tid}?after={after}"
    seen = {"open": 0, "refused": 0, "closed": 0}

    async def one(token: str) -> None:
        try:
            async with websockets.connect(
                url, additional_headers=_auth(token), max_size=2**24
            ) as ws:
                seen["open"] += 1
                if not read:
                    ws.transport.pause_reading()  # type: ignore[attr-defined]
                while not stop.is_set():
                    if read:
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(ws.recv(), 0.5)
                    else:
                        await asyncio.sleep(0.2)
        except websockets.exceptions.InvalidStatus:
            seen["refused"] += 1
        except (websockets.exceptions.ConnectionClosed, OSError):
            seen["closed"] += 1

    def run() -> None:
        async def all_of() -> None:
            await asyncio.gather(*(one(t) for t in tokens))

        asyncio.run(all_of())

    threading.Thread(target=run, daemon=True).start()
    return seen


def _notes(base: str, tid: str, token: str, gap: float, stop: threading.Event) -> list[int]:
    written = [0]

    def loop() -> None:
        with httpx.Client(base_url=base, headers=_auth(token), timeout=60) as http:
            i = 0
            while not stop.is_set():
                r = http.post(f"/api/tables/{tid}/notes", json={"text": f"note {i} " + "x" * 200})
                written[0] += r.status_code == 201
                i += 1
                if gap:
                    time.sleep(gap)

    threading.Thread(target=loop, daemon=True).start()
    return written


def _burst(base: str, tid: str, tokens: list[str], each: int, stop: threading.Event) -> list[int]:
    """Every link fires ``each`` requests at once: 200 connections at a time, each
    taking the next request from one list (4,000 requests waiting on the client's own
    connection pool spin that pool, not the server)."""

    counts = [0, 0]  # answered, refused (429)

    async def go() -> None:
        todo = [t for t in tokens for _ in range(each)]
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:

            async def lane() -> None:
                while todo and not stop.is_set():
                    token = todo.pop()
                    try:
                        r = await http.get(f"/api/tables/{tid}", headers=_auth(token))
                    except httpx.HTTPError:
                        continue
                    counts[0 if r.status_code == 200 else 1] += r.status_code in (200, 429)

            await asyncio.gather(*(lane() for _ in range(200)))

    threading.Thread(target=lambda: asyncio.run(go()), daemon=True).start()
    return counts


def run(quick: bool, only: frozenset[int] = frozenset()) -> dict[str, Any]:
    seconds = 4.0 if quick else 10.0
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'abuse.db'}"
        setup = _prepare(db, 1_000 if quick else 6_800)
        port = free_port()
        proc = start_server(db, port, Path(tmp) / "server.log", extra=())
        base = f"http://127.0.0.1:{port}"
        try:
            return _attacks(base, setup, proc.pid, seconds, only)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def _attacks(
    base: str, setup: dict[str, Any], pid: int, seconds: float, only: frozenset[int]
) -> dict[str, Any]:
    links = setup["links"]
    loud = setup["loud"]
    observers = [links[f"Obs{i}"] for i in range(100)]
    bystander = Bystander(base, setup)
    bystander.measure(1.0)  # warm: the worker started, the tables folded
    rows: dict[str, Any] = {}
    start_rss = _rss_mb(pid)

    number = [0]

    def attack(name: str, begin: Callable[[threading.Event], Any], settle: float = 1.0) -> None:
        number[0] += 1
        if only and number[0] not in only:
            return
        print(f"  {name}", file=sys.stderr, flush=True)
        began = time.monotonic()
        attacker = Attacker(begin)
        time.sleep(settle)
        load = _load()
        gets, previews, failed = bystander.measure(seconds)
        found = attacker.stop()
        print(f"    {time.monotonic() - began:.0f} s, {found}", file=sys.stderr, flush=True)
        rows[name] = {
            "load": load,
            "gets": gets,
            "previews": previews,
            "failed": failed,
            "found": found,
            "rss": _rss_mb(pid),
        }

    idle_load = _load()
    rows["idle"] = dict(
        zip(("gets", "previews", "failed"), bystander.measure(seconds), strict=True)
    )
    rows["idle"]["load"] = idle_load
    rows["idle"]["rss"] = _rss_mb(pid)
    attack("heavy odds, one link (4 threads)", lambda s: _heavy(base, loud, observers[:1], 4, s))
    attack("heavy odds, 20 minted links", lambda s: _heavy(base, loud, observers[:20], 1, s))
    attack(
        f"catch-up: 100 sockets ?after=0 on {setup['events']:,} events",
        lambda s: _sockets(base, loud, observers, "0", True, s),
        settle=0.2,
    )
    attack(
        "fan-out: 300 sockets, notes every 100 ms",
        lambda s: (
            _sockets(base, loud, observers * 3, str(setup["events"]), True, s),
            _notes(base, loud, links["rex"], 0.1, s),
        ),
        settle=3.0,
    )
    attack(
        "200 sockets that never read, notes flat out",
        lambda s: (
            _sockets(base, loud, observers * 2, str(setup["events"]), False, s),
            _notes(base, loud, links["rex"], 0.0, s),
        ),
        settle=3.0,
    )
    attack(
        "1,200 sockets on 3 links, notes flat out",
        lambda s: (
            _sockets(base, loud, observers[:3] * 400, str(setup["events"]), True, s),
            _notes(base, loud, links["rex"], 0.0, s),
        ),
        settle=3.0,
    )
    attack(
        "analyses: 4 ARM 2-v-1 fights at once on one link",
        lambda s: _analyses(base, setup, s),
    )
    with httpx.Client(base_url=base, headers=_auth(links["bea"]), timeout=120) as http:
        export = http.get(f"/api/tables/{setup['big']}/export").content
    with httpx.Client(base_url=base, headers=_auth(links["rex"]), timeout=120) as http:
        odds = http.post(
            f"/api/tables/{loud}/odds", json={"action": "roll", "fields": {"dice": "1000d20"}}
        )
    rows["sizes"] = {
        "export": len(export),
        "odds": len(odds.content),
        "status": odds.status_code,
        "detail": odds.json().get("detail", "") if odds.status_code != 200 else "",
    }
    attack(
        f"imports: 2 anonymous clients importing a {len(export) / 1e6:.1f} MB export",
        lambda s: _imports(base, export, s),
    )
    attack(
        "minted links: 100 links, 40 requests each at once",
        lambda s: _burst(base, loud, observers, 40, s),
        settle=0.0,
    )
    rows["start_rss"] = start_rss
    rows["end_rss"] = _rss_mb(pid)
    return rows


def _found(rows: dict[str, Any], prefix: str) -> list[int]:
    for name, row in rows.items():
        if name.startswith(prefix):
            found: list[int] = row["found"]
            return found
    return [0, 0]


def section(quick: bool, only: frozenset[int] = frozenset()) -> tuple[str, list[dict[str, object]]]:
    """This benchmark's section of RESULTS.md and its targets (``bench/run.py abuse``)."""
    r = run(quick, only)
    idle = r["idle"]
    base_get = pct(idle["gets"], 0.99)
    lines = [
        f"## One table cannot starve another (measured {time.strftime('%Y-%m-%d')}, "
        "`python bench/bench_abuse.py`)",
        "",
        "One `referee serve` process on 127.0.0.1, default quotas, SQLite, one odds worker.",
        "A bystander at another table reads their table (GET) every 50 ms and asks a cheap",
        "preview every 100 ms while each attack of issue 33 runs; the first row is the same",
        "bystander on the idle server in the same run. Each attack's clients run in a process",
        "of their own (the bystander's timings are the server's, not those of one interpreter",
        "shared with the attack's sockets). Machine: 2 cores shared with other work (the",
        "load average as each attack began is in its row).",
        "",
        "| attack | bystander GET p50 / p99 (ms) | p99 vs idle | cheap preview p50 / p99 (ms) | "
        "bystander errors | server RSS (MB) | load average | met |",
        "|---|---|---|---|---|---|---|---|",
    ]
    worst_ratio, worst_preview, all_met = 0.0, 0.0, True
    for name, row in r.items():
        if not isinstance(row, dict) or "gets" not in row:
            continue
        g99, p99 = pct(row["gets"], 0.99), pct(row["previews"], 0.99)
        ratio = g99 / base_get if base_get else 0.0
        met = ratio <= 3 and p99 <= 250 and not row["failed"]
        if name != "idle":
            worst_ratio, worst_preview = max(worst_ratio, ratio), max(worst_preview, p99)
            all_met = all_met and met
        lines.append(
            f"| {name} | {pct(row['gets'], 0.5):.1f} / {g99:.1f} | {ratio:.1f}x | "
            f"{pct(row['previews'], 0.5):.1f} / {p99:.1f} | {row['failed']} | {row['rss']:.0f} | "
            f"{row.get('load', 0.0):.1f} | "
            f"{'-' if name == 'idle' else ('yes' if met else 'no')} |"
        )
    growth = r["end_rss"] - r["start_rss"]
    sizes = r.get("sizes", {})
    burst = dict(zip(("answered", "refused"), _found(r, "minted links"), strict=True))
    lines += [
        "",
        f"Minted links: 100 links firing 40 requests each at once: {burst['answered']:,} "
        f"answered, {burst['refused']:,} refused with 429 (the table's budget, shared by its "
        "links). The server's memory grew "
        f"{growth:.0f} MB over the whole run ({r['start_rss']:.0f} → {r['end_rss']:.0f} MB).",
        "",
        "What each attack found (answered / refused, or sockets opened / refused): "
        + "; ".join(
            f"{name}: {row['found']}"
            for name, row in r.items()
            if isinstance(row, dict) and "found" in row
        )
        + ".",
        "",
        f"The odds of `1000d20` answer {sizes.get('odds', 0):,} bytes (status "
        f"{sizes.get('status')}: {sizes.get('detail') or 'the odds'}; the issue measured "
        f"45.7 MB); the export imported above is {sizes.get('export', 0):,} bytes.",
        "",
    ]
    targets: list[dict[str, object]] = [
        {
            "label": "Abuse: bystander GET p99 under every attack, against its idle baseline",
            "figure": f"{worst_ratio:.1f}x",
            "needed": "≤ 3x",
            "met": worst_ratio <= 3,
        },
        {
            "label": "Abuse: a cheap preview's p99 on another table under every attack",
            "figure": f"{worst_preview:.0f} ms",
            "needed": "≤ 250 ms",
            "met": worst_preview <= 250,
        },
        {
            "label": "Abuse: the server's memory growth over every attack",
            "figure": f"{growth:.0f} MB",
            "needed": "≤ 100 MB",
            "met": growth <= 100,
        },
        {
            "label": "Abuse: minted links share their table's request budget (429s at once)",
            "figure": f"{burst['refused']:,} of {burst['answered'] + burst['refused']:,}",
            "needed": "> 0",
            "met": burst["refused"] > 0,
        },
    ]
    return "\n".join(lines), targets


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument(
        "--only", type=int, action="append", default=[], help="run only attack N (1-6)"
    )
    args = parser.parse_args()
    text, targets = section(args.quick, frozenset(args.only))
    print(text)
    for t in targets:
        print(
            f"{t['label']}: {t['figure']} (needed {t['needed']}) {'met' if t['met'] else 'NOT met'}"
        )


if __name__ == "__main__":
    import faulthandler

    faulthandler.dump_traceback_later(900, exit=True)
    socket.setdefaulttimeout(120)
    main()
