"""Benchmark of the web table's live fan-out: 50 WebSocket clients on one table.

Run by ``make bench`` (``bench/run.py web`` writes its section of RESULTS.md), or
alone: ``python bench/bench_web.py [--quick] [--db URL]`` prints it. One
``referee serve`` process on 127.0.0.1 (a temporary SQLite file unless
``--db``); the 50 WebSocket clients in a second process and the commands
from this one (one Python process could not both receive 50 streams and send
200 commands a second: measured, it saturated before the server did);
everything is bounded in count and time and stops by itself. Times are
``time.perf_counter()``, CLOCK_MONOTONIC, the same clock in every process.

* **fan-out latency**: 50 participants each hold a WebSocket on one table, as the table
  page opens it (``lean=1``: each event's seq and kind beside its entry's HTML),
  while the referee's commands (a Mnemonic check, resolved, folded and
  appended) arrive at 200/s, open loop. For each command: the time from
  sending it to the moment the *last* of the 50 clients has received its
  event, p50 and p99 (target p99 <= 50 ms in each of :data:`RUNS` runs, each on
  a server and clients of its own: issue 23 target 5). Measured from the send, so
  it includes the command's own processing (an upper bound of "accepted ->
  received"); the command's own round trip is reported beside it.
* **throughput**: with the 50 clients still connected, 16 senders send as
  fast as the server answers for a few seconds: commands/s one server process
  sustains, every event delivered to every client.
* **against a bare server** (issue 38): :data:`PUSH_RATE` commands a second to 50
  sockets, referee's server and :func:`bare_app` (a minimal Starlette app of the same
  shape: the command over HTTP, one durable row, a small JSON message to each socket)
  one after the other in :data:`PAIRS` pairs: the p99 to the last socket and the
  server's CPU per command, each as referee / bare (min / median / max), and the cheap
  odds preview's p99 at the same load. ``--push`` runs this part alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import websockets

EVENT_SEQ = re.compile(r'\{"type":"event","event":\{"table":"[^"]*","seq":(\d+)')
CLIENTS = int(__import__("os").environ.get("BENCH_CLIENTS", "50"))
RATE = 200
CALM = 40
SENDERS = 16
PUSH_RATE = 50
"""Issue 38's load: commands a second, against the bare server (:func:`bare_app`)."""
PREVIEW = {"action": "check", "fields": {"aptitude": 7}}
PREVIEW_GAP = 0.1


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


UNLIMITED = ("--requests-per-second", "0", "--tables-per-hour", "0")
"""This bench's one referee link sends 200 commands a second: past the default quota."""


def start_server(
    db: str, port: int, log: Path, extra: tuple[str, ...] = UNLIMITED, bare: bool = False
) -> subprocess.Popen[bytes]:
    """A ``referee serve`` on ``port`` (or, ``bare``, :func:`bare_app` under uvicorn: the
    same shape with nothing of referee in it), once it answers."""
    referee = Path(sys.executable).parent / "referee"
    main = "import sys; from referee.cli.main import run; sys.exit(run(sys.argv[1:]))"
    command = [str(referee)] if referee.exists() else [sys.executable, "-c", main]
    args = [*command, "serve", "--port", str(port), "--db", db, "--log-level", "warning", *extra]
    if bare:
        args = [sys.executable, str(Path(__file__).resolve()), "--bare", str(port), db]
    proc = subprocess.Popen(args, stdout=log.open("w"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the server did not start: {log.read_text()}")


@dataclass
class Served:
    """A ``referee serve`` process of a benchmark: its address, database, the machine's
    load when it started, and the server's CPU seconds since (:func:`served`)."""

    base: str
    db: str
    load: float
    proc: subprocess.Popen[bytes]
    cpu_start: float

    def cpu(self) -> float:
        """The server's CPU seconds since it was ready."""
        return cpu_seconds(self.proc.pid) - self.cpu_start


@contextlib.contextmanager
def served(
    name: str, extra: tuple[str, ...] = UNLIMITED, db: str | None = None
) -> Iterator[Served]:
    """One ``referee serve`` on 127.0.0.1 over ``db`` (default: a temporary SQLite file),
    stopped (and its files removed) when the block ends, however it ends."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        db = db or f"sqlite:///{Path(tmp) / (name + '.db')}"
        proc = start_server(db, port, Path(tmp) / "server.log", extra=extra)
        load = float(Path("/proc/loadavg").read_text().split()[0])
        try:
            yield Served(f"http://127.0.0.1:{port}", db, load, proc, cpu_seconds(proc.pid))
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


# ---------------------------------------------------------------------------
# the bare server: the same shape as referee's push, nothing else


def bare_app(db: str) -> Any:
    """A minimal Starlette app of the same shape as a referee table's command and push
    (issue 38's yardstick): ``POST /api/tables/{tid}/actions`` with a bearer token reads
    the JSON body, writes one row to SQLite with referee's durability (WAL,
    ``synchronous=FULL``, a commit per row, in a worker thread), pushes a small JSON
    message (the same opening as referee's, so one parser reads both) to every
    WebSocket of the table, each through a queue and a send loop of its own, and
    answers 201 with the seq. The few set-up calls the bench makes (a table, links, its
    seq) answer in the same JSON shapes as referee's."""
    import asyncio
    import json
    import sqlite3
    import threading

    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    path = db.removeprefix("sqlite:///")
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS events (tbl TEXT, seq INTEGER, time REAL, body TEXT, "
        "PRIMARY KEY (tbl, seq))"
    )
    lock = threading.Lock()
    seqs: dict[str, int] = {}
    sockets: dict[str, set[asyncio.Queue[str]]] = {}

    def authorized(request: Request | WebSocket) -> bool:
        return request.headers.get("authorization", "").startswith("Bearer ")

    async def create(request: Request) -> JSONResponse:
        tid = f"bare{len(seqs)}"
        seqs[tid] = 1
        return JSONResponse({"table": {"id": tid}, "token": "ron"}, status_code=201)

    async def invite(request: Request) -> JSONResponse:
        name = (await request.json())["name"]
        return JSONResponse({"token": f"p-{name}"}, status_code=201)

    async def table(request: Request) -> JSONResponse:
        return JSONResponse({"seq": seqs[request.path_params["tid"]]})

    async def act(request: Request) -> JSONResponse:
        tid = request.path_params["tid"]
        if not authorized(request) or tid not in seqs:
            return JSONResponse({"detail": "no"}, status_code=403)
        fields = (await request.json())["fields"]

        def write() -> int:
            with lock:
                seq = seqs[tid] = seqs[tid] + 1
                row = json.dumps({"action": "check", "fields": fields})
                conn.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (tid, seq, time.time(), row))
            return seq

        seq = await asyncio.to_thread(write)
        text = json.dumps(
            {"type": "event", "event": {"table": tid, "seq": seq, "kind": "action-resolved"}},
            separators=(",", ":"),
        )
        for queue in sockets.get(tid, ()):
            queue.put_nowait(text)
        return JSONResponse({"seq": seq}, status_code=201)

    async def live(websocket: WebSocket) -> None:
        tid = websocket.path_params["tid"]
        if not authorized(websocket) or tid not in seqs:
            await websocket.close(1008)
            return
        await websocket.accept()
        queue: asyncio.Queue[str] = asyncio.Queue()
        sockets.setdefault(tid, set()).add(queue)

        async def sender() -> None:
            await websocket.send_text(f'{{"type":"live","seq":{seqs[tid]}}}')
            while True:
                await websocket.send_text(await queue.get())

        task = asyncio.create_task(sender())
        try:
            while True:
                await websocket.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            sockets[tid].discard(queue)
            task.cancel()

    return Starlette(
        routes=[
            Route("/api/games", lambda r: JSONResponse([])),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/tables/{tid}", table),
            Route("/api/tables/{tid}/invites", invite, methods=["POST"]),
            Route("/api/tables/{tid}/actions", act, methods=["POST"]),
            WebSocketRoute("/ws/tables/{tid}", live),
        ]
    )


def serve_bare(port: int, db: str) -> None:
    """:func:`bare_app` under uvicorn as referee runs (httptools, one process)."""
    import uvicorn

    uvicorn.run(
        bare_app(db),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        ws_per_message_deflate=False,  # as referee serves
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU a process has used (Linux)."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Clients:
    """The 50 WebSocket clients: when each received each seq."""

    def __init__(self, base: str, tid: str, tokens: list[str]) -> None:
        self.url = f"{base.replace('http', 'ws')}/ws/tables/{tid}"
        self.tokens = tokens
        self.received: list[dict[int, float]] = [{} for _ in tokens]
        self.tasks: list[asyncio.Task[None]] = []
        self.ready = 0

    async def _run(self, i: int, after: int, ready: asyncio.Event) -> None:
        headers = {"authorization": f"Bearer {self.tokens[i]}"}
        got = self.received[i]
        async with websockets.connect(
            f"{self.url}?after={after}&lean=1", additional_headers=headers, max_size=2**20
        ) as ws:
            async for text in ws:
                now = time.perf_counter()
                assert isinstance(text, str)
                # one message, or several that waited together as one JSON array
                for m in EVENT_SEQ.finditer(text):
                    got.setdefault(int(m.group(1)), now)
                if '{"type":"live"' in text:
                    self.ready += 1
                    if self.ready == len(self.tokens):
                        ready.set()

    async def start(self, after: int) -> None:
        ready = asyncio.Event()
        self.tasks = [
            asyncio.create_task(self._run(i, after, ready)) for i in range(len(self.tokens))
        ]
        await asyncio.wait_for(ready.wait(), 60)

    async def wait_for(self, seqs: set[int], timeout: float) -> bool:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if all(seqs <= got.keys() for got in self.received):
                return True
            await asyncio.sleep(0.05)
        return False

    async def stop(self) -> None:
        for t in self.tasks:
            t.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def clients_process(base: str, tid: str, tokens: list[str], after: int, pipe: Any) -> None:
    """The WebSocket clients, in a process of their own: say "ready" once every client
    is live, then answer each ``(seqs, timeout)`` asked with ``(complete, last)``:
    whether every client has every seq, and for each seq they all have, when the last
    of them received it."""

    async def serve() -> None:
        clients = Clients(base, tid, tokens)
        await clients.start(after)
        pipe.send("ready")
        loop = asyncio.get_running_loop()
        while True:
            asked = await loop.run_in_executor(None, pipe.recv)
            if asked is None:
                break
            seqs, timeout = asked
            complete = await clients.wait_for(set(seqs), timeout)
            last = {
                seq: max(got[seq] for got in clients.received)
                for seq in seqs
                if all(seq in got for got in clients.received)
            }
            pipe.send((complete, last))
        await clients.stop()

    asyncio.run(serve())


class Commands:
    """Commands over a few kept-alive HTTP/1.1 connections, written and read by hand:
    the load generator must cost less than the server it measures (httpx spent
    ~1.5 ms of CPU per request here)."""

    def __init__(self, port: int, path: str, token: str, body: bytes, connections: int) -> None:
        self.port = port
        self.request = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        self.size = connections
        self.free: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = (
            asyncio.Queue()
        )

    async def open(self) -> None:
        for _ in range(self.size):
            self.free.put_nowait(await asyncio.open_connection("127.0.0.1", self.port))

    async def send(self) -> tuple[int, int | None]:
        """One command: (HTTP status, the new event's seq)."""
        reader, writer = await self.free.get()
        try:
            writer.write(self.request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            body = await reader.readexactly(length)
        finally:
            self.free.put_nowait((reader, writer))
        m = re.search(rb'"seq":(\d+)', body)
        return status, int(m.group(1)) if m else None

    async def close(self) -> None:
        while not self.free.empty():
            _, writer = self.free.get_nowait()
            writer.close()


async def run(
    base: str,
    commands: int,
    burst_seconds: float,
    full: bool = True,
    rate: float = RATE,
    pid: int | None = None,
    previews: bool = False,
) -> dict[str, Any]:
    """The phases on one server: the issue's load (``rate`` commands a second; the server's
    CPU per command over it when ``pid`` is given, and with ``previews`` a cheap odds
    preview asked every :data:`PREVIEW_GAP` seconds meanwhile), then (``full``) the calm
    rate and the closed-loop burst."""
    async with httpx.AsyncClient(
        base_url=base, timeout=30, limits=httpx.Limits(max_connections=64)
    ) as http:
        made = (
            await http.post(
                "/api/tables", json={"game": "mnemonic", "name": "bench", "referee": "Ron"}
            )
        ).json()
        tid = made["table"]["id"]
        ron = {"authorization": f"Bearer {made['token']}"}
        tokens = []
        for i in range(CLIENTS):
            r = await http.post(
                f"/api/tables/{tid}/invites", json={"name": f"P{i:02d}"}, headers=ron
            )
            tokens.append(r.json()["token"])
        head = (await http.get(f"/api/tables/{tid}", headers=ron)).json()["seq"]
    import multiprocessing

    pipe, child_end = multiprocessing.Pipe()
    child = multiprocessing.get_context("spawn").Process(
        target=clients_process, args=(base, tid, tokens, head, child_end), daemon=True
    )
    child.start()
    loop = asyncio.get_running_loop()
    if not await loop.run_in_executor(None, pipe.poll, 60):
        child.kill()
        raise SystemExit("the WebSocket clients did not connect within 60 s")
    pipe.recv()
    port = int(base.rsplit(":", 1)[1])
    body = b'{"action":"check","fields":{"aptitude":7}}'
    sender = Commands(port, f"/api/tables/{tid}/actions", made["token"], body, 64)
    await sender.open()
    errors = 0

    async def delivered(seqs: set[int], timeout: float) -> tuple[bool, dict[int, float]]:
        pipe.send((sorted(seqs), timeout))
        answer: tuple[bool, dict[int, float]] = await loop.run_in_executor(None, pipe.recv)
        return answer

    async def open_loop(rate: float, count: int) -> dict[str, float]:
        """``count`` commands at ``rate``/s whatever the answers; latency per command."""
        nonlocal errors
        sent: dict[int, float] = {}
        round_trips: list[float] = []

        async def one(at: float) -> None:
            nonlocal errors
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            t0 = time.perf_counter()
            status, seq = await sender.send()
            if status != 201 or seq is None:
                errors += 1
                return
            round_trips.append(time.perf_counter() - t0)
            sent[seq] = t0

        start = time.perf_counter() + 0.2
        await asyncio.gather(*(one(start + i / rate) for i in range(count)))
        elapsed = time.perf_counter() - start
        complete, last = await delivered(set(sent), 60)
        latencies = [last[seq] - t0 for seq, t0 in sent.items() if seq in last]
        return {
            "commands": len(sent),
            "rate": rate,
            "answered": len(sent) / elapsed,
            "p50": pct(latencies, 0.50) * 1000,
            "p99": pct(latencies, 0.99) * 1000,
            "max": max(latencies) * 1000,
            "rtt50": statistics.median(round_trips) * 1000,
            "complete": float(complete and len(latencies) == len(sent)),
        }

    async def preview_loop(stop: asyncio.Event, into: list[float]) -> None:
        """The referee's cheap preview, every PREVIEW_GAP seconds until ``stop``."""
        async with httpx.AsyncClient(base_url=base, timeout=30, headers=ron) as http:
            while not stop.is_set():
                t0 = time.perf_counter()
                r = await http.post(f"/t/{tid}/preview", json=PREVIEW)
                if r.status_code == 200:
                    into.append((time.perf_counter() - t0) * 1000)
                await asyncio.sleep(max(0.0, PREVIEW_GAP - (time.perf_counter() - t0)))

    # 1. the load: ``rate`` commands/s, open loop
    cpu_before = cpu_seconds(pid) if pid else 0.0
    stop, preview_ms = asyncio.Event(), []
    prober = asyncio.create_task(preview_loop(stop, preview_ms)) if previews else None
    target = await open_loop(rate, commands)
    stop.set()
    if prober is not None:
        await prober
    if pid:
        target["cpu_ms"] = (cpu_seconds(pid) - cpu_before) / max(1, target["commands"]) * 1000
    if previews:
        target["preview_p50"] = pct(preview_ms, 0.5) if preview_ms else float("nan")
        target["preview_p99"] = pct(preview_ms, 0.99) if preview_ms else float("nan")
        target["previews"] = len(preview_ms)
    if not full:
        await sender.close()
        pipe.send(None)
        await loop.run_in_executor(None, child.join, 30)
        return {"target": target, "total": target["commands"], "errors": errors}
    # 2. below saturation: what the fan-out itself costs
    calm = await open_loop(CALM, max(100, commands // 4))

    # 3. closed loop: as fast as one server process answers
    done = 0
    stop_at = time.perf_counter() + burst_seconds
    burst_seqs: set[int] = set()

    async def closed() -> None:
        nonlocal done, errors
        while time.perf_counter() < stop_at:
            status, seq = await sender.send()
            if status == 201 and seq is not None:
                done += 1
                burst_seqs.add(seq)
            else:
                errors += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(closed() for _ in range(SENDERS)))
    burst = time.perf_counter() - t0
    burst_done, _ = await delivered(burst_seqs, 60)
    drained = time.perf_counter() - t0
    await sender.close()
    pipe.send(None)
    await loop.run_in_executor(None, child.join, 30)
    return {
        "target": target,
        "calm": calm,
        "throughput": done / burst,
        "total": target["commands"] + calm["commands"] + done,
        "delivered_rate": done / drained,
        "burst_complete": float(burst_done),
        "errors": errors,
    }


RUNS = 9
"""Runs of the issue's load, each on a server and clients of its own (issue 23 target 5:
p99 <= 50 ms in every one)."""


def one_run(
    url: str | None,
    commands: int,
    burst: float,
    full: bool,
    rate: float = RATE,
    bare: bool = False,
    previews: bool = False,
) -> dict[str, Any]:
    """One server (a temporary SQLite file unless ``url``; :func:`bare_app` if ``bare``),
    the phases on it, its CPU."""
    with tempfile.TemporaryDirectory() as tmp:
        db = url or f"sqlite:///{Path(tmp) / 'bench.db'}"
        port = free_port()
        server = start_server(db, port, Path(tmp) / "server.log", bare=bare)
        load = float(Path("/proc/loadavg").read_text().split()[0])
        before = cpu_seconds(server.pid)
        try:
            r = asyncio.run(
                run(
                    f"http://127.0.0.1:{port}",
                    commands,
                    burst,
                    full,
                    rate=rate,
                    pid=server.pid,
                    previews=previews,
                )
            )
            r["cpu_ms"] = (cpu_seconds(server.pid) - before) / r["total"] * 1000
            r["load"] = load
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    return r


PAIRS = 5
"""Pairs of runs at :data:`PUSH_RATE`: referee's server and the bare one, one after the
other (which goes first alternates), each on a server and clients of its own."""


def pairs(count: int, commands: int, url: str | None = None) -> list[dict[str, Any]]:
    """``count`` pairs of runs of issue 38's load (:data:`PUSH_RATE` commands a second,
    :data:`CLIENTS` sockets): each pair referee's figures, the bare server's and the
    ratios (p50, p99 and CPU per command)."""
    found = []
    for i in range(count):
        order = (False, True) if i % 2 == 0 else (True, False)
        got: dict[bool, dict[str, Any]] = {}
        for bare in order:
            got[bare] = one_run(url, commands, 0.0, False, rate=PUSH_RATE, bare=bare)["target"]
        ours, theirs = got[False], got[True]
        found.append(
            {
                "ours": ours,
                "bare": theirs,
                "p50": ours["p50"] / theirs["p50"],
                "p99": ours["p99"] / theirs["p99"],
                "cpu": ours["cpu_ms"] / theirs["cpu_ms"],
            }
        )
    return found


def _spread(values: list[float]) -> str:
    """min / median / max of some ratios."""
    return (
        f"{min(values):.2f}× / {statistics.median(values):.2f}× / {max(values):.2f}×"
        if values
        else "-"
    )


def push_section(quick: bool, url: str | None = None) -> tuple[list[str], list[dict[str, object]]]:
    """Issue 38's comparison: referee's push against the bare server's, in pairs, and
    the cheap preview's p99 at the same load."""
    commands = 150 if quick else 500
    found = pairs(2 if quick else PAIRS, commands, url)
    probe = one_run(url, commands, 0.0, False, rate=PUSH_RATE, previews=True)["target"]
    p99s, cpus, p50s = (
        [f["p99"] for f in found],
        [f["cpu"] for f in found],
        [f["p50"] for f in found],
    )
    every_complete = all(f["ours"]["complete"] and f["bare"]["complete"] for f in found)
    lines = [
        f"### Against a bare server (issue 38): {PUSH_RATE} commands/s, {CLIENTS} sockets",
        "",
        "The bare server (`bench_web.bare_app`) is a minimal Starlette app of the same shape",
        "under the same uvicorn: it reads the command's JSON body, writes one row to SQLite",
        "with the same durability (WAL, `synchronous=FULL`, a commit per row, in a worker",
        "thread) and pushes a small JSON message to each socket through a queue and send",
        "loop of its own. Each pair runs both, one after the other (the first alternates),",
        f"{commands} commands at {PUSH_RATE}/s open loop, each on a server and clients of its own;",
        "CPU per command is the server process's user + system CPU over the phase divided",
        "by the commands.",
        "",
        "| pair | referee p50 / p99 (ms) | bare p50 / p99 (ms) | p99 ratio | referee CPU / "
        "command (ms) | bare CPU / command (ms) | CPU ratio | every event to every client |",
        "|---|---|---|---|---|---|---|---|",
        *(
            f"| {i} | {f['ours']['p50']:.1f} / {f['ours']['p99']:.1f} | {f['bare']['p50']:.1f} "
            f"/ {f['bare']['p99']:.1f} | {f['p99']:.2f}× | {f['ours']['cpu_ms']:.2f} | "
            f"{f['bare']['cpu_ms']:.2f} | {f['cpu']:.2f}× | "
            f"{'yes' if f['ours']['complete'] and f['bare']['complete'] else 'NO'} |"
            for i, f in enumerate(found, start=1)
        ),
        "",
        "| measure | min / median / max | target | met |",
        "|---|---|---|---|",
        f"| p99 send -> last socket, referee / bare | {_spread(p99s)} | ≤ 2× | "
        f"{'yes' if max(p99s) <= 2 else 'no'} |",
        f"| p50 send -> last socket, referee / bare | {_spread(p50s)} | - | - |",
        f"| server CPU per command, referee / bare | {_spread(cpus)} | ≤ 2× | "
        f"{'yes' if max(cpus) <= 2 else 'no'} |",
        f"| cheap odds preview p50 / p99 at {PUSH_RATE} commands/s (ms; {probe['previews']} "
        f"previews, push p99 {probe['p99']:.1f} ms meanwhile) | {probe['preview_p50']:.1f} / "
        f"{probe['preview_p99']:.1f} | p99 ≤ 100 | "
        f"{'yes' if probe['preview_p99'] <= 100 else 'no'} |",
        "",
    ]
    targets: list[dict[str, object]] = [
        {
            "label": f"Web push: p99 send -> last of {CLIENTS} sockets at {PUSH_RATE}/s, "
            "referee / bare server (min / median / max)",
            "figure": _spread(p99s),
            "needed": "≤ 2×",
            "met": max(p99s) <= 2 and every_complete,
        },
        {
            "label": "Web push: server CPU per command, referee / bare server",
            "figure": _spread(cpus),
            "needed": "≤ 2×",
            "met": max(cpus) <= 2,
        },
        {
            "label": f"Web push: cheap odds preview p99 at {PUSH_RATE} commands/s",
            "figure": f"{probe['preview_p99']:.0f} ms",
            "needed": "≤ 100 ms",
            "met": probe["preview_p99"] <= 100,
        },
    ]
    return lines, targets


def section(quick: bool, url: str | None = None) -> tuple[str, list[dict[str, object]]]:
    """This benchmark's section of RESULTS.md and its targets (``bench/run.py web``)."""
    push_lines, push_targets = push_section(quick, url)
    commands, burst = (200, 2.0) if quick else (1000, 5.0)
    runs = 3 if quick else RUNS
    r = one_run(url, commands, burst, full=True)
    every = [r["target"] | {"load": r["load"], "cpu_ms": r["cpu_ms"]}]
    for _ in range(runs - 1):
        more = one_run(url, commands, burst, full=False)
        every.append(more["target"] | {"load": more["load"], "cpu_ms": more["cpu_ms"]})
        r["errors"] += more["errors"]
    kind = "PostgreSQL" if url and url.startswith("postgres") else "SQLite (WAL, FULL)"
    t, c = r["target"], r["calm"]
    within = sum(1 for m in every if m["p99"] <= 50 and m["complete"])
    met = "yes" if within == len(every) else "no"
    complete = all(m["complete"] for m in every) and bool(c["complete"])

    def rows(label: str, m: dict[str, float]) -> list[str]:
        return [
            f"| {label}: commands sent / answered per s | {m['commands']:,.0f} at "
            f"{m['rate']:.0f}/s / {m['answered']:.0f}/s | - | - |",
            f"| {label}: sent -> last of {CLIENTS} received, p50 (ms) | {m['p50']:.1f} | - | - |",
            f"| {label}: sent -> last of {CLIENTS} received, p99 (ms) | {m['p99']:.1f} | "
            + ("<= 50 | " + ("yes" if m["p99"] <= 50 else "no") + " |" if m is t else "- | - |"),
            f"| {label}: max (ms) / the command's own round trip p50 (ms) | {m['max']:.1f} / "
            f"{m['rtt50']:.1f} | - | - |",
            f"| {label}: every event reached every client | "
            f"{'yes' if m['complete'] else 'NO'} | yes | {'yes' if m['complete'] else 'no'} |",
        ]

    p99s = [m["p99"] for m in every]
    lines = [
        f"## Web table fan-out (measured {time.strftime('%Y-%m-%d')}, `python bench/bench_web.py`)",
        "",
        f"One `referee serve` process on 127.0.0.1 ({kind}); {CLIENTS} WebSocket clients, each",
        "a participant of one table, in a second process; the commands, sent by a third over",
        "kept-alive connections, are the referee's Mnemonic checks (authorized, resolved,",
        "folded, appended durably, pushed to every client redacted for them, and each",
        "viewer's redrawn panels after them). Latency:",
        "from sending a command to the moment the last of the clients has its event (so it",
        "includes the command's own processing; one clock, CLOCK_MONOTONIC, in every process).",
        f"Machine: 2 cores shared with other work (load average {r['load']:.1f} at the start).",
        f"The issue's load is run {len(every)} times, each on a server and clients of its own",
        "(the runs' table below); the other phases once, on the first run's server.",
        "",
        "| measure | value | target | met |",
        "|---|---|---|---|",
        *rows(f"{RATE}/s, run 1", t),
        f"| {RATE}/s: runs with p99 <= 50 ms | {within} of {len(every)} (p99 "
        f"{min(p99s):.1f} to {max(p99s):.1f} ms) | {len(every)} of {len(every)} | {met} |",
        *rows(f"{CALM}/s", c),
        f"| commands/s one server process sustains ({SENDERS} senders, {CLIENTS} clients) "
        f"| {r['throughput']:,.0f} | - | - |",
        f"| ... every one delivered to every client | "
        f"{'yes' if r['burst_complete'] else 'NO'} | yes | - |",
        f"| server CPU per command, all phases (ms) | {r['cpu_ms']:.1f} | - | - |",
        f"| errors | {r['errors']:.0f} | 0 | {'yes' if not r['errors'] else 'no'} |",
        "",
        f"Each run of the issue's load ({RATE} commands/s, {CLIENTS} clients):",
        "",
        "| run | load average at start | p50 (ms) | p99 (ms) | max (ms) | answered per s "
        "| server CPU per command (ms) | every event to every client | p99 <= 50 ms |",
        "|---|---|---|---|---|---|---|---|---|",
        *(
            f"| {i} | {m['load']:.1f} | {m['p50']:.1f} | {m['p99']:.1f} | {m['max']:.1f} "
            f"| {m['answered']:.0f} | {m['cpu_ms']:.2f} | {'yes' if m['complete'] else 'NO'} "
            f"| {'yes' if m['p99'] <= 50 else '**no**'} |"
            for i, m in enumerate(every, start=1)
        ),
        "",
        *push_lines,
    ]
    targets: list[dict[str, object]] = [
        {
            "label": f"Web table: {CLIENTS} clients at {RATE} commands/s, p99 to the last "
            f"client <= 50 ms, runs",
            "figure": f"{within} of {len(every)} (p99 {min(p99s):.1f} to {max(p99s):.1f} ms)",
            "needed": f"{len(every)} of {len(every)}",
            "met": met == "yes",
        },
        {
            "label": "Web table: every event reached every client",
            "figure": "yes" if complete else "no",
            "needed": "all",
            "met": complete,
        },
        *push_targets,
    ]
    return "\n".join(lines), targets


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--db", help="a database URL (default: a temporary SQLite file)")
    parser.add_argument(
        "--push", action="store_true", help="only issue 38's comparison with the bare server"
    )
    parser.add_argument("--bare", nargs=2, metavar=("PORT", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare:  # the bare server itself, started by start_server(bare=True)
        serve_bare(int(args.bare[0]), args.bare[1])
        return
    if args.push:
        lines, targets = push_section(args.quick, args.db)
        print("\n".join(lines))
        for t in targets:
            print(f"{t['label']}: {t['figure']} (needed {t['needed']})")
        return
    text, _targets = section(args.quick, args.db)
    print(text)


if __name__ == "__main__":
    main()
