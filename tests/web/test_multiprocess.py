"""Several server processes serve one table: a player on one sees a roll taken through another.

Two ``referee serve`` processes on two ports share one database: PostgreSQL
(events fanned out with LISTEN/NOTIFY) and, the same test, SQLite (polled).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from tests.support.postgres import free_port

if TYPE_CHECKING:
    from tests.web.conftest import Connect

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(180),
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning"),
]


class Process:
    """``referee serve`` in a process of its own."""

    def __init__(self, url: str, log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        referee = Path(sys.executable).parent / "referee"
        main = "import sys; from referee.cli.main import run; sys.exit(run(sys.argv[1:]))"
        command = [str(referee)] if referee.exists() else [sys.executable, "-c", main]
        self.log = log.open("w")
        self.proc = subprocess.Popen(
            [*command, "serve", "--port", str(self.port), "--db", url, "--log-level", "warning"],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.base}/api/games", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"referee serve did not start: {log.read_text()}")
            time.sleep(0.2)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


@pytest.fixture
def two(store_url: str, tmp_path: Path) -> Iterator[tuple[Process, Process]]:
    a = Process(store_url, tmp_path / "a.log")
    try:
        b = Process(store_url, tmp_path / "b.log")
    except Exception:
        a.stop()
        raise
    yield a, b
    a.stop()
    b.stop()


def _until(ws: Any, seq: int) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    while not got or got[-1]["seq"] < seq:
        msg = json.loads(ws.recv(timeout=20))
        if msg["type"] == "event":
            got.append(msg["event"])
    return got


def test_a_roll_through_one_process_reaches_a_player_on_another(
    two: tuple[Process, Process],
    ws_connect: Connect,
) -> None:

    a, b = two
    made = httpx.post(
        f"{a.base}/api/tables", json={"game": "mnemonic", "name": "Shared", "referee": "Ron"}
    ).json()
    tid, ron = made["table"]["id"], {"authorization": f"Bearer {made['token']}"}
    ann_token = httpx.post(
        f"{a.base}/api/tables/{tid}/invites", json={"name": "Ann"}, headers=ron
    ).json()["token"]
    ann = {"authorization": f"Bearer {ann_token}"}
    r = httpx.post(
        f"{a.base}/api/tables/{tid}/characters",
        json={"example": "boxer", "owner": "Ann"},
        headers=ron,
    )
    assert r.status_code == 201
    # Ann's browser talks to process B (the tokens live in the shared database too)
    assert httpx.get(f"{b.base}/api/tables/{tid}", headers=ann).status_code == 200
    ws = ws_connect(
        f"{b.base.replace('http', 'ws')}/ws/tables/{tid}?after=0", additional_headers=ann
    )
    head = httpx.get(f"{a.base}/api/tables/{tid}", headers=ron).json()["seq"]
    assert [e["seq"] for e in _until(ws, head)] == list(range(1, head + 1))
    seqs = []
    for i in range(5):  # the referee rolls through process A, publicly and in secret
        vis = "referee" if i == 2 else "public"
        done = httpx.post(
            f"{a.base}/api/tables/{tid}/actions",
            json={
                "action": "sheet-check",
                "fields": {"actor": "mickey-ruane", "talent": "Tough"},
                "visibility": vis,
            },
            headers=ron,
        )
        assert done.status_code == 201, done.text
        seqs.append(done.json()["seq"])
    started = time.monotonic()
    got = _until(ws, seqs[-1])
    assert [e["seq"] for e in got] == seqs  # in order, once each
    assert time.monotonic() - started < 10
    assert got[2]["redacted"] is True and "outcome" not in got[2].get("payload", {})
    assert all("outcome" in e["payload"] for i, e in enumerate(got) if i != 2)
    ws.close()
    # and the other way round: Ann acts through B, the referee's socket on A hears it
    ws = ws_connect(
        f"{a.base.replace('http', 'ws')}/ws/tables/{tid}?after={seqs[-1]}", additional_headers=ron
    )
    assert json.loads(ws.recv(timeout=20))["type"] == "live"
    mine = httpx.post(
        f"{b.base}/api/tables/{tid}/actions",
        json={"action": "sheet-check", "fields": {"actor": "mickey-ruane", "talent": "Agile"}},
        headers=ann,
    ).json()["seq"]
    assert [e["seq"] for e in _until(ws, mine)] == [mine]
    ws.close()


def test_serve_demo_seats_every_game_and_prints_working_links(tmp_path: Path) -> None:
    from referee.web.api import contract_games

    url = f"sqlite:///{tmp_path / 'demo.db'}"

    def start() -> tuple[subprocess.Popen[str], dict[str, list[str]]]:
        port = free_port()
        referee = Path(sys.executable).parent / "referee"
        main = "import sys; from referee.cli.main import run; sys.exit(run(sys.argv[1:]))"
        command = [str(referee)] if referee.exists() else [sys.executable, "-c", main]
        proc = subprocess.Popen(
            [
                *command,
                "serve",
                "--demo",
                "--port",
                str(port),
                "--db",
                url,
                "--log-level",
                "warning",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        links: dict[str, list[str]] = {}
        table = ""
        assert proc.stdout is not None
        for line in proc.stdout:
            if ": table demo-" in line:
                table = line.split("table ", 1)[1].split()[0]
            elif "/join/" in line:
                links.setdefault(table, []).append(line.split()[-1])
            elif "serving on" in line:
                break
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                httpx.get(f"{base}/api/games", timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        return proc, links

    proc, links = start()
    try:
        assert set(links) == {f"demo-{g}" for g, _ in contract_games()}
        for table, found in links.items():
            with httpx.Client() as browser:
                page = browser.get(found[0])  # the referee's link comes first
                assert page.status_code == 200
                tid = page.text.split('data-next="/t/', 1)[1].split('"', 1)[0]
                view = browser.get(found[0].split("/join/")[0] + f"/api/tables/{tid}").json()
                assert view["me"]["role"] == "referee" and view["name"] == table
                assert len(view["owners"]) >= 1  # the texts' examples are seated
                assert len(found) == len(view["participants"])
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    again, second = start()  # a second start keeps the tables and hands out new links
    try:
        assert set(second) == set(links)
        base = second["demo-mnemonic"][0].split("/join/")[0]
        old = links["demo-mnemonic"][0].split("/join/")[1]
        assert httpx.get(f"{base}/join/{old}").status_code == 404  # old demo links revoked
        assert httpx.get(second["demo-mnemonic"][0]).status_code == 200
    finally:
        again.terminate()
        again.wait(timeout=15)


def test_every_event_reaches_every_browser_on_both_processes_in_order(
    two: tuple[Process, Process],
    ws_connect: Connect,
) -> None:
    """Browsers on both processes while both take commands for one table at once (their
    writers race for each seq): every browser gets every event once, in seq order, with
    no gap, each the same event (its hash) wherever it was appended and wherever it is
    received."""
    from concurrent.futures import ThreadPoolExecutor

    a, b = two
    made = httpx.post(
        f"{a.base}/api/tables", json={"game": "mnemonic", "name": "Both", "referee": "Ron"}
    ).json()
    tid, ron = made["table"]["id"], {"authorization": f"Bearer {made['token']}"}
    players = {}
    for name in ("Ann", "Ben", "Cat", "Dan"):
        token = httpx.post(
            f"{a.base}/api/tables/{tid}/invites", json={"name": name}, headers=ron
        ).json()["token"]
        players[name] = {"authorization": f"Bearer {token}"}
    start = httpx.get(f"{a.base}/api/tables/{tid}", headers=ron).json()["seq"]
    # the referee and two players on each process, all live before the first command
    sockets = {}
    for proc, who in ((a, ("Ron", "Ann", "Ben")), (b, ("Ron", "Cat", "Dan"))):
        for name in who:
            headers = ron if name == "Ron" else players[name]
            ws = ws_connect(
                f"{proc.base.replace('http', 'ws')}/ws/tables/{tid}?after={start}",
                additional_headers=headers,
            )
            while json.loads(ws.recv(timeout=20))["type"] != "live":
                pass
            sockets[proc.port, name] = ws

    def send(args: tuple[Process, int]) -> int:
        proc, i = args
        done = httpx.post(
            f"{proc.base}/api/tables/{tid}/actions",
            json={"action": "check", "fields": {"aptitude": 3 + i % 6}},
            headers=ron,
            timeout=30,
        )
        assert done.status_code == 201, done.text
        seq: int = done.json()["seq"]
        return seq

    jobs = [(a if i % 2 else b, i) for i in range(40)]
    with ThreadPoolExecutor(8) as pool:  # through both processes at once
        seqs = sorted(pool.map(send, jobs))
    assert seqs == list(range(start + 1, start + 41))  # each command one event, no seq lost
    # a note through each process too: the still kinds ride the same path
    for proc in (a, b):
        r = httpx.post(
            f"{proc.base}/api/tables/{tid}/notes", json={"text": f"via {proc.port}"}, headers=ron
        )
        assert r.status_code == 201, r.text
    head = httpx.get(f"{b.base}/api/tables/{tid}", headers=ron).json()["seq"]
    assert head == start + 42
    hashes: dict[int, str] = {}
    for (port, name), ws in sockets.items():
        got = _until(ws, head)
        assert [e["seq"] for e in got] == list(range(start + 1, head + 1)), (port, name)
        for e in got:
            assert hashes.setdefault(e["seq"], e["hash"]) == e["hash"], (port, name, e["seq"])
    assert len(hashes) == 42
