"""Crash safety and concurrency of the live table, on SQLite and on PostgreSQL.

Writers are separate processes that print one line per acknowledged command
(the command returned, so its event was committed). Killing a writer with
SIGKILL at a random moment must never lose an acknowledged event, leave a
gap, or break the chain; eight writers racing on one table must leave every
seq from 1 up, once each.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from referee.table.audit import verify
from referee.table.service import TableService
from referee.table.store import Store

pytestmark = pytest.mark.slow  # kills servers / runs a page: `make test` runs it

WRITER = textwrap.dedent(
    """
    import sys
    from referee.table.service import TableService
    from referee.table.store import Store

    url, table, tag, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    service = TableService(Store(url, migrate=False), snapshot_every=25)
    for i in range(count):
        if i % 3 == 2:
            done = service.note(table, "Ann", f"{tag}-{i}")
        else:
            done = service.act(table, "Ron", "check", {"aptitude": 5 + i % 5, "chances": 0})
        print(f"ack {done.event.seq} {done.event.hash}", flush=True)
    """
)


def _table(url: str) -> str:
    service = TableService(Store(url), snapshot_every=25)
    done = service.create("mnemonic", "durable", "Ron", seed=7)
    service.join(done.table.id, "Ann", "player")
    return done.table.id


def _writer(url: str, table: str, tag: str, count: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, url, table, tag, str(count)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _acks(out: str) -> dict[int, str]:
    acked = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "ack":
            acked[int(parts[1])] = parts[2]
    return acked


def _check_log(url: str, table: str, acked: dict[int, str]) -> int:
    service = TableService(Store(url, migrate=False), snapshot_every=25)
    events = service.store.events(table)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    by_seq = {e.seq: e.hash for e in events}
    for seq, h in acked.items():
        assert by_seq.get(seq) == h, f"acknowledged event {seq} lost or changed"
    report = verify(service, table)
    assert report.ok, report
    fresh = TableService(Store(url, migrate=False))  # a cold load rebuilds the same state
    assert fresh.load(table) == service.load(table)
    return len(events)


@pytest.mark.parametrize("trials", [20])
def test_killed_writers_lose_nothing_acknowledged(store_url: str, trials: int) -> None:
    table = _table(store_url)
    rng = random.Random(2026)
    acked: dict[int, str] = {}
    for trial in range(trials):
        proc = _writer(store_url, table, f"k{trial}", 60)
        time.sleep(rng.uniform(0.6, 2.5))  # mid-stream: startup takes about half a second
        proc.send_signal(signal.SIGKILL)
        out, _err = proc.communicate(timeout=30)
        acked.update(_acks(out))
    total = _check_log(store_url, table, acked)
    assert total >= len(acked) + 2


def test_eight_processes_two_hundred_commands_each(store_url: str) -> None:
    table = _table(store_url)
    procs = [_writer(store_url, table, f"w{k}", 200) for k in range(8)]
    acked: dict[int, str] = {}
    for proc in procs:
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, err[-2000:]
        got = _acks(out)
        assert len(got) == 200
        assert not set(got) & set(acked), "two commands acknowledged at one seq"
        acked.update(got)
    total = _check_log(store_url, table, acked)
    assert total == 2 + 8 * 200
