"""The hub's pushes: a quiet table's event goes at once; a busy table's events that
come within one push gap go together, one frame per browser, in seq order."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from referee.table.service import TableService
from referee.table.state import Viewer
from referee.table.store import Store
from referee.web.live import BUSY_RATE, PUSH_GAP, Connection, Hub

BOUND = 10.0
"""Seconds a test waits at most for what it watches (a push the loop's timer sends):
never a guessed delay, only the bound past which something is wrong."""


class Clock:
    """A clock the test moves by hand (:attr:`Hub.clock`): when events come and when the
    hub last pushed are what the test says, however slow the machine."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _until(done: Any, what: str) -> None:
    """Turn the loop until ``done()`` (its timers and the push thread run meanwhile),
    failing past :data:`BOUND` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BOUND
    while not done():
        assert loop.time() < deadline, f"not within {BOUND} s: {what}"
        await asyncio.sleep(0.001)


def test_events_within_a_push_gap_share_one_frame_per_browser(tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 't.db'}"))
    tid = service.create("mnemonic", "Night", "Kim", seed=3).table.id
    service.join(tid, "Ann", "player")
    events = [service.note(tid, "Kim", f"line {i}").event for i in range(4)]
    hidden = service.note(tid, "Kim", "for me", visibility="referee").event

    async def scenario() -> tuple[list[Any], list[Any]]:
        clock = Clock()
        hub = Hub(service, lambda shown: f"<li>{shown['seq']}</li>", clock=clock)
        hub.bind(asyncio.get_running_loop())
        ann = Connection(ws=None, table_id=tid, viewer=Viewer("Ann", "player"), last=0)  # type: ignore[arg-type]
        kim = Connection(ws=None, table_id=tid, viewer=Viewer("Kim", "referee"), last=0)  # type: ignore[arg-type]
        for conn in (ann, kim):
            conn.catching_up = False
        hub.tables[tid] = {ann, kim}
        hub._dispatch(events[0])  # a quiet table: pushed at once
        first = [json.loads(ann.queue.get_nowait())]
        clock.now += PUSH_GAP / 5
        hub._dispatch(events[1])  # soon after, but the table is not busy: at once too
        first.append(json.loads(ann.queue.get_nowait()))
        kim.queue.get_nowait()
        hub._pace[tid] = 0.5 / BUSY_RATE  # events have been coming at twice the busy rate
        for e in (*events[2:], hidden):  # within the gap of a busy table: wait, together
            hub._dispatch(e)
        assert ann.queue.empty()
        await _until(lambda: not ann.queue.empty(), "the busy table's push")
        batch = json.loads(ann.queue.get_nowait())
        kim_frames = [json.loads(kim.queue.get_nowait()) for _ in range(2)]
        assert ann.queue.empty() and kim.queue.empty()
        return [*first, batch], kim_frames

    ann_frames, kim_frames = asyncio.run(scenario())
    assert [f["event"]["seq"] for f in ann_frames[:2]] == [events[0].seq, events[1].seq]
    batch = ann_frames[2]
    assert [m["event"]["seq"] for m in batch] == [e.seq for e in (*events[2:], hidden)]
    assert "payload" not in batch[-1]["event"]  # the referee's note, redacted for Ann
    assert "for me" not in json.dumps(ann_frames)
    assert kim_frames[1][-1]["event"]["payload"]["text"] == "for me"


def test_messages_waiting_together_go_as_one_flat_array() -> None:
    """A queued array (a push of several events) and single messages behind it leave
    in one frame: a flat array of every message, in order, never an array in one."""

    class Socket:
        def __init__(self) -> None:
            self.frames: list[str] = []
            self.application_state = None

        async def send_text(self, text: str) -> None:
            self.frames.append(text)

    async def scenario() -> list[str]:
        hub = Hub(None, str)  # type: ignore[arg-type]
        socket = Socket()
        conn = Connection(ws=socket, table_id="t", viewer=Viewer("Ann", "player"), last=0)  # type: ignore[arg-type]
        for text in ('[{"n":1},{"n":2}]', '{"n":3}', '[{"n":4}]', '{"n":5}'):
            conn.put(text)
        conn.end()
        await hub._send_loop(conn)
        return socket.frames

    frames = asyncio.run(scenario())
    assert [json.loads(f) for f in frames] == [[{"n": n} for n in range(1, 6)]]


def test_a_crowded_busy_table_pushes_less_often_than_a_small_one(tmp_path: Path) -> None:
    """200 sockets on a busy table took the loop from every other table; now a busy table
    pushes at most once per its sockets times SEND_SHARE: with 200 browsers, the events
    of the next 100 ms wait and go together."""
    from referee.web.live import PUSH_CHUNK, SEND_SHARE

    service = TableService(Store(f"sqlite:///{tmp_path / 'crowd.db'}"))
    tid = service.create("mnemonic", "Crowd", "Kim", seed=3).table.id
    names = [f"P{i}" for i in range(200)]
    for name in names:
        service.join(tid, name, "observer")
    events = [service.note(tid, "Kim", f"line {i}").event for i in range(3)]

    async def scenario() -> tuple[set[int], set[int], set[int]]:
        clock = Clock()
        hub = Hub(service, lambda shown: f"<li>{shown['seq']}</li>", clock=clock)
        hub.bind(asyncio.get_running_loop())
        conns = [
            Connection(ws=None, table_id=tid, viewer=Viewer(n, "observer"), last=0)  # type: ignore[arg-type]
            for n in names
        ]
        for conn in conns:
            conn.catching_up = False
        hub.tables[tid] = set(conns)

        def busy(event: Any) -> None:  # events have been coming at twice the busy rate
            hub._pace[tid] = 0.5 / BUSY_RATE
            hub._last_event[tid] = clock.now
            hub._dispatch(event)

        def queued() -> set[int]:
            return {c.queue.qsize() for c in conns}

        busy(events[0])  # the first push goes at once (PUSH_CHUNK browsers a turn)
        for _ in range(len(conns) // PUSH_CHUNK + 1):
            await asyncio.sleep(0)
        at_once = queued()
        busy(events[1])
        clock.now += PUSH_GAP * 2  # a small table would have pushed by now
        busy(events[2])
        waited = queued()
        assert len(conns) * SEND_SHARE > PUSH_GAP * 2  # the crowd's gap is not over yet
        await _until(lambda: min(queued()) > 1, "the crowd's next push")
        return at_once, waited, queued()

    at_once, waited, later = asyncio.run(scenario())
    assert (at_once, waited, later) == ({1}, {1}, {2})  # the other two went together, later


def _items(conn: Connection) -> list[Any]:
    """Every message queued for ``conn``, arrays flattened, in order."""
    out: list[Any] = []
    while not conn.queue.empty():
        item = conn.queue.get_nowait()
        if isinstance(item, str):
            found = json.loads(item)
            out.extend(found if isinstance(found, list) else [found])
    return out


def test_a_push_handed_out_in_turns_keeps_every_browsers_order(tmp_path: Path) -> None:
    """A table of more browsers than PUSH_CHUNK is handed a push in turns of the loop;
    events that come between two turns wait for the last: each browser still gets every
    event once, in seq order, and what the push thread rendered is what it is sent."""
    from referee.web.live import PUSH_CHUNK

    service = TableService(Store(f"sqlite:///{tmp_path / 'turns.db'}"))
    tid = service.create("mnemonic", "Turns", "Kim", seed=3).table.id
    names = [f"P{i}" for i in range(PUSH_CHUNK * 3 + 5)]
    for name in names:
        service.join(tid, name, "observer")
    events = [service.note(tid, "Kim", f"line {i}").event for i in range(5)]
    hidden = service.note(tid, "Kim", "for me", visibility="referee").event

    async def scenario() -> list[list[Any]]:
        hub = Hub(service, lambda shown: f"<li>{shown['seq']}</li>")
        hub.bind(asyncio.get_running_loop())
        conns = [
            Connection(ws=None, table_id=tid, viewer=Viewer(n, "observer"), last=0)  # type: ignore[arg-type]
            for n in names
        ]
        for conn in conns:
            conn.catching_up = False
        hub.tables[tid] = set(conns)
        loop = asyncio.get_running_loop()
        for e in (*events, hidden):  # from the service's thread, as an append does
            await loop.run_in_executor(None, hub._from_service, e)
            await asyncio.sleep(0)  # one turn: the push of the last is still handed out
        got: list[list[Any]] = [[] for _ in conns]

        def every_event_arrived() -> bool:
            for items, conn in zip(got, conns, strict=True):
                items += _items(conn)
            return all(items and items[-1]["event"]["seq"] == hidden.seq for items in got)

        await _until(every_event_arrived, "every browser's last event")
        return got

    got = asyncio.run(scenario())
    want = [e.seq for e in (*events, hidden)]
    for items in got:
        assert [m["event"]["seq"] for m in items] == want
        assert "for me" not in json.dumps(items)  # the referee's note, redacted for them
        assert items[0]["html"] == f"<li>{events[0].seq}</li>"


def test_a_drawing_equal_to_the_last_one_sent_is_not_sent_again(tmp_path: Path) -> None:
    """A viewer's panels that read the same as the last drawing their browser was sent
    (but for the seq) are not sent again; a changed one is."""
    service = TableService(Store(f"sqlite:///{tmp_path / 'same.db'}"))
    tid = service.create("mnemonic", "Same", "Kim", seed=3).table.id
    service.join(tid, "Ann", "player")
    drawings = iter(["same", "same", "changed"])

    def panels(table: str, viewers: Any) -> dict[Viewer, str | None]:
        text = next(drawings)
        seq = service.load(table).seq
        return {v: f'{{"type":"panels","seq":{seq},"cards":"{text}"}}' for v in viewers}

    async def scenario() -> list[Any]:
        hub = Hub(service, lambda shown: "", panels=panels)
        hub.bind(asyncio.get_running_loop())
        ann = Connection(ws=None, table_id=tid, viewer=Viewer("Ann", "player"), last=0)  # type: ignore[arg-type]
        ann.catching_up = False
        hub.tables[tid] = {ann}
        sent = []
        for _ in range(3):
            service.note(tid, "Kim", "x")  # a new seq each time
            await hub._draw(tid)
            while not ann.queue.empty():
                taken = ann.take(ann.queue.get_nowait())  # type: ignore[arg-type]
                if taken is not None:
                    sent.append(json.loads(taken))
        return sent

    sent = asyncio.run(scenario())
    assert [m["cards"] for m in sent] == ["same", "changed"]


def test_a_served_process_gives_back_its_free_memory() -> None:
    """The served process's heap trimming runs (glibc) or says it cannot, never fails."""
    from referee.web.app import trim_memory

    assert trim_memory(first=True) in (True, False)
    assert trim_memory() in (True, False)
