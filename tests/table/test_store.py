"""The store, the same suite on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import itertools
import threading
from typing import Any

import pytest

from referee.table.events import GENESIS, Event
from referee.table.store import SeqTaken, Store, StoreError, TableRow


def _note(table: str, seq: int, prev: str, text: str = "hello") -> Event:
    return Event(
        table, seq, "2026-11-23T10:00:00.000+00:00", "ann", "note", {"text": text}, prev_hash=prev
    ).sealed()


def _chain(table: str, n: int) -> list[Event]:
    out: list[Event] = []
    prev = GENESIS
    for seq in range(1, n + 1):
        e = _note(table, seq, prev, f"line {seq}")
        out.append(e)
        prev = e.hash
    return out


def test_create_append_and_read_back_in_order(store_url: str) -> None:
    store = Store(store_url)
    events = _chain("t1", 5)
    store.create(TableRow("t1", "Friday game", "mongrel", "2026-11-23"), events[:2])
    for e in events[2:]:
        store.append(e)
    assert store.events("t1") == events
    assert store.events("t1", after=2, upto=4) == events[2:4]
    assert store.events("t1", after=1, limit=2) == events[1:3]
    assert store.head("t1") == (5, events[-1].hash)
    assert store.count("t1") == 5
    assert store.find("Friday game").id == "t1" and store.find("t1").name == "Friday game"
    assert [t.id for t in store.tables()] == ["t1"]
    store.close()


def test_a_taken_seq_is_refused_and_nothing_changes(store_url: str) -> None:
    store = Store(store_url)
    events = _chain("t1", 2)
    store.create(TableRow("t1", "x", "arm", "2026-11-23"), events[:1])
    store.append(events[1])
    rival = _note("t1", 2, events[0].hash, "rival")
    with pytest.raises(SeqTaken, match="seq 2 is taken"):
        store.append(rival)
    assert store.events("t1") == events
    store.close()


def test_names_and_ids_are_unique_and_unknown_tables_named(store_url: str) -> None:
    store = Store(store_url)
    store.create(TableRow("t1", "x", "arm", "2026-11-23"), _chain("t1", 1))
    with pytest.raises(StoreError, match="already exists"):
        store.create(TableRow("t2", "x", "arm", "2026-11-23"), _chain("t2", 1))
    with pytest.raises(StoreError, match="already exists"):
        store.create(TableRow("t1", "y", "arm", "2026-11-23"), [])
    assert [t.id for t in store.tables()] == ["t1"]  # the failed creations wrote nothing
    assert store.events("t2") == []
    with pytest.raises(StoreError, match="no table 'nope'"):
        store.find("nope")
    store.close()


def test_snapshots_and_control_events(store_url: str) -> None:
    store = Store(store_url)
    events = _chain("t1", 3)
    undo = Event(
        "t1",
        4,
        "2026-11-23T10:00:01.000+00:00",
        "ann",
        "undo",
        {"seq": 2},
        prev_hash=events[-1].hash,
    ).sealed()
    store.create(TableRow("t1", "x", "arm", "2026-11-23"), [*events, undo])
    assert store.control_events("t1") == [undo]
    store.put_snapshot("t1", 3, {"seq": 3, "data": ["é", 1]})
    store.put_snapshot("t1", 3, {"seq": 3, "other": True})  # a second one is ignored
    assert store.snapshot_seqs("t1") == [3]
    assert store.snapshot("t1", 3) == {"seq": 3, "data": ["é", 1]}
    with pytest.raises(StoreError, match="no snapshot at 2"):
        store.snapshot("t1", 2)
    store.close()


def test_reopening_keeps_everything_and_migrations_are_idempotent(store_url: str) -> None:
    store = Store(store_url)
    store.create(TableRow("t1", "x", "arm", "2026-11-23"), _chain("t1", 3))
    store.close()
    again = Store(store_url)
    again.migrate()
    assert again.count("t1") == 3
    again.close()


def test_racing_writers_leave_no_gap_and_no_duplicate(store_url: str) -> None:
    """Eight threads append 25 events each to one table, retrying on a taken seq."""
    store = Store(store_url)
    first = _chain("t1", 1)
    store.create(TableRow("t1", "x", "arm", "2026-11-23"), first)
    acknowledged: list[str] = []
    lock = threading.Lock()

    def writer(k: int) -> None:
        mine = Store(store_url, migrate=False)
        for i in range(25):
            while True:
                seq, prev = mine.head("t1")
                e = _note("t1", seq + 1, prev, f"w{k}-{i}")
                try:
                    mine.append(e)
                except SeqTaken:
                    continue
                with lock:
                    acknowledged.append(f"w{k}-{i}")
                break
        mine.close()

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    events = store.events("t1")
    assert [e.seq for e in events] == list(range(1, 202))
    texts = [e.payload["text"] for e in events[1:]]
    assert sorted(texts) == sorted(acknowledged) and len(set(texts)) == 200
    for before, after in itertools.pairwise(events):
        assert after.prev_hash == before.hash and after.compute_hash() == after.hash
    store.close()


def test_bad_urls_get_a_clear_error(tmp_path: object) -> None:
    with pytest.raises(StoreError, match="unsupported database URL"):
        Store("mysql://x/y")
    with pytest.raises(StoreError, match="cannot open the database postgresql"):
        Store("postgresql://nobody:secret@127.0.0.1:1/none")


def test_an_append_is_announced_to_listeners_once_committed(pg_server: Any) -> None:
    """Every append on PostgreSQL tells the listeners ``table:seq`` (its NOTIFY, sent in
    the insert's own statement and delivered at its commit); a refused append (its seq
    taken) announces nothing."""
    store = Store(pg_server.new_database())
    events = _chain("t9", 3)
    store.create(TableRow("t9", "Heard", "mongrel", "2026-11-23"), events[:1])
    heard: list[tuple[str, int]] = []
    ready, got = threading.Event(), threading.Event()
    stop = threading.Event()

    def on_event(table: str, seq: int) -> None:
        if not table:
            ready.set()  # (re)connected
            return
        heard.append((table, seq))
        if seq == 3:
            got.set()

    listener = threading.Thread(target=store.listen, args=(on_event, stop), daemon=True)
    listener.start()
    try:
        assert ready.wait(10)
        store.append(events[1])
        with pytest.raises(SeqTaken):
            store.append(events[1])
        store.append(events[2])
        assert got.wait(10)
    finally:
        stop.set()
        listener.join(10)
        store.close()
    assert heard == [("t9", 2), ("t9", 3)]
