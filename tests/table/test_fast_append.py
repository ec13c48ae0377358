"""The append fast path (issue 23 target 3) against the plain path it replaced.

* :func:`~referee.table.events.seal` gives the hash and the JSON texts that
  :meth:`Event.sealed` and :func:`canonical` give, for any event;
* :meth:`Store.append` (the driver's connection, the payload encoded once)
  writes exactly the rows :meth:`Store.append_plain` (SQLAlchemy Core, the old
  path) writes for the same events, on SQLite and on PostgreSQL: every event of
  sessions of all four games, hidden ones, notes, edits, undos, refused draws;
* the table the service folds as it writes (with the outcome it holds, not the
  one read back from the payload) is the table a cold load folds from the log.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select
from tests.open_table import OPEN
from tests.support import postgres

from referee.errors import RulesError
from referee.table.audit import verify
from referee.table.events import Event, Written, canonical, seal
from referee.table.service import TableService
from referee.table.state import snapshot_data
from referee.table.store import SeqTaken, Store, TableRow, events_t

# ---------------------------------------------------------------------------
# seal == sealed

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=12,
)
TEXT = st.text(max_size=12)


@st.composite
def events(draw: st.DrawFn) -> Event:
    return Event(
        table=draw(TEXT),
        seq=draw(st.integers(-(2**70), 2**70)),
        time=draw(TEXT),
        actor=draw(TEXT),
        kind=draw(st.sampled_from(["note", "action-resolved", 'we"ird\\kind\n'])),  # type: ignore[arg-type]
        payload=draw(st.dictionaries(TEXT, JSON, max_size=5)),
        visibility=draw(st.sampled_from(["public", "private", "referee"])),  # type: ignore[arg-type]
        audience=draw(st.none() | TEXT),
        rolls=tuple(draw(st.lists(st.dictionaries(TEXT, JSON, max_size=3), max_size=3))),
        salt=draw(st.sampled_from(["", "00ff", "é\u2028\x00"])),
        prev_hash=draw(TEXT),
    )


@pytest.mark.slow
@given(events())
def test_seal_gives_the_hash_and_texts_of_the_plain_path(event: Event) -> None:
    written = seal(event)
    salt = written.event.salt
    assert salt and (event.salt in ("", salt))
    assert written.event == replace(event, salt=salt).sealed()  # every field, the hash too
    assert written.event.hash == written.event.compute_hash()
    assert written.payload == canonical(event.payload)
    assert written.rolls == canonical(list(event.rolls))


# ---------------------------------------------------------------------------
# the rows of both paths


@pytest.fixture(params=["sqlite", "postgresql"])
def two_urls(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'fast.db'}", f"sqlite:///{tmp_path / 'plain.db'}"
        return
    server: postgres.Server = request.getfixturevalue("pg_server")
    yield server.new_database(), server.new_database()


class Recording(Store):
    """A store that keeps what the service hands its fast path."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.handed: list[Event | Written] = []

    def append(self, event: Event | Written) -> None:
        super().append(event)
        self.handed.append(event)


def _mnemonic(service: TableService) -> str:
    tid = service.create(
        "mnemonic", "Ship", "Kim", options={"randomizer": "cards"}, seed=3, settings=OPEN
    ).table.id
    service.join(tid, "Ann", "player")
    service.add_character(tid, "boxer", owner="Ann")
    service.add_character(tid, "frigate")
    for aptitude in (3, 6, 9):
        service.act(tid, "Kim", "check", {"aptitude": aptitude})
    service.act(tid, "Kim", "check", {"aptitude": 4}, visibility="referee")
    sheet = {"actor": "mickey-ruane", "talent": "Smart", "life_role": "Dock Worker"}
    service.act(tid, "Ann", "sheet-check", sheet, visibility="blind")
    attack = {"actor": "mickey-ruane", "target": "swiftsure", "chances": "Fair"}
    proposed = service.act(tid, "Ann", "attack", attack)
    service.decide(tid, proposed.event.seq, {}, by="Kim")
    service.act(tid, "Kim", "injury", {"victim": "swiftsure", "worst": "immobilized"})
    service.note(tid, "Ann", 'a "quoted" note, ünïcode ✓, \\ and a\nnew line')
    service.note(tid, "Kim", "for Ann alone", visibility="private", audience="Ann")
    service.edit(
        tid,
        [{"target": "swiftsure", "field": "status.injuries", "delta": 1}],
        "an old wound",
        by="Kim",
    )
    service.undo(tid, by="Kim")
    service.redo(tid, by="Kim")
    service.act(tid, "Kim", "reshuffle", {})
    return tid


def _mneme(service: TableService) -> str:
    tid = service.create("mneme", "Station", "Mo", settings=OPEN).table.id
    service.join(tid, "Ann", "player")
    service.add_character(tid, "ada", owner="Ann")
    service.add_character(tid, "raider")
    service.act(tid, "Mo", "initiative", {"pcs": [{"who": "ada-vance"}]}, faces=[6, 6])
    rifle = {
        "actor": "ada-vance",
        "target": "raider",
        "weapon": "Automatic Rifle",
        "check": {"characteristic": "Dex", "skill": "Gun Combat"},
    }
    service.act(tid, "Ann", "attack", rifle, faces=[4, 3, 6, 6, 5, 2, 2, 1])
    service.act(tid, "Mo", "pass-time", {"days": 2})
    return tid


def _mongrel(service: TableService) -> str:
    tid = service.create("mongrel", "Friday", "Ron", seed=11, settings=OPEN).table.id
    service.add_character(tid, "vooruk", force=True)
    service.add_character(tid, "giazza", force=True)
    service.act(tid, "Ron", "start-conflict", {})
    service.act(tid, "Ron", "roll", {"dice": "4d6kh3", "label": "tray"})
    return tid


def _arm(service: TableService) -> str:
    tid = service.create("arm", "Tavern", "Dana", seed=5, settings=OPEN).table.id
    service.add_character(tid, "alex")
    service.act(tid, "Dana", "roll", {"dice": "2d6+1"}, visibility="referee")
    with pytest.raises(RulesError):
        service.act(tid, "Dana", "roll", {"dice": "not dice"})  # refused: writes nothing
    return tid


def _rows(store: Store) -> list[tuple[Any, ...]]:
    with store.reader.connect() as conn:
        found = conn.execute(select(events_t).order_by(events_t.c.table_id, events_t.c.seq))
        return [tuple(r) for r in found]


@pytest.mark.slow
def test_the_fast_append_writes_the_rows_of_the_plain_one(two_urls: tuple[str, str]) -> None:
    fast_url, plain_url = two_urls
    fast = Recording(fast_url)
    service = TableService(fast, snapshot_every=7)
    tids = [make(service) for make in (_mnemonic, _mneme, _mongrel, _arm)]
    handed = fast.handed
    assert handed and all(isinstance(h, Written) for h in handed)  # the service's path

    plain = Store(plain_url)
    for row in fast.tables():
        first = fast.events(row.id, upto=1)  # written with the table, by create
        plain.create(row, first)
    for item in handed:
        plain.append_plain(item.event if isinstance(item, Written) else item)
    assert _rows(plain) == _rows(fast)
    assert len(_rows(fast)) == len(handed) + len(tids)

    # an Event given as it is (no texts made beforehand) writes the same row too
    again = Store(plain_url.replace("plain", "again")) if "sqlite" in plain_url else None
    if again is not None:
        for row in fast.tables():
            again.create(row, fast.events(row.id, upto=1))
        for item in handed:
            again.append(item.event if isinstance(item, Written) else item)
        assert _rows(again) == _rows(fast)
        again.close()

    # a taken seq is refused on the fast path as on the plain one, and writes nothing
    last = fast.events(tids[0])[-1]
    with pytest.raises(SeqTaken):
        fast.append(seal(replace(last, salt="", payload={"text": "rival"})))
    with pytest.raises(SeqTaken):
        plain.append_plain(replace(last, payload={"text": "rival"}).sealed())
    assert _rows(plain) == _rows(fast)
    fast.close()
    plain.close()


def test_the_table_folded_while_writing_is_the_one_the_log_gives(
    two_urls: tuple[str, str],
) -> None:
    url = two_urls[0]
    service = TableService(Store(url), snapshot_every=5)
    tids = [make(service) for make in (_mnemonic, _mneme, _mongrel, _arm)]
    for tid in tids:
        live = service.load(tid)
        cold = TableService(Store(url, migrate=False), snapshot_every=5).load(tid)
        assert snapshot_data(live) == snapshot_data(cold)
        assert live.state == cold.state
        assert verify(service, tid).ok


def test_a_table_row_is_needed_on_both_paths(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'x.db'}")
    store.create(TableRow("t1", "x", "arm", "2026-11-23"), [])
    orphan = seal(Event("nope", 1, "2026-11-23T10:00:00.000+00:00", "ann", "note", {}))
    with pytest.raises(SeqTaken):  # the foreign key refuses it, as the plain path did
        store.append(orphan)
    with pytest.raises(SeqTaken):
        store.append_plain(orphan.event)
    assert _rows(store) == []
    store.close()


def test_an_append_connection_the_server_dropped_is_replaced(
    pg_server: postgres.Server,
) -> None:
    """The engine pinged a pooled connection before using it; the fast path's own
    connections are tried once more, anew, when the server dropped them while idle."""
    from sqlalchemy import text

    store = Store(pg_server.new_database())
    store.create(TableRow("t1", "x", "arm", "2026-11-23"), [])
    first = seal(Event("t1", 1, "2026-11-23T10:00:00.000+00:00", "ann", "note", {"n": 1}))
    store.append(first)
    with store.reader.connect() as conn:  # end every other session of this database
        conn.execute(
            text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
    second = seal(
        Event(
            "t1",
            2,
            "2026-11-23T10:00:01.000+00:00",
            "ann",
            "note",
            {"n": 2},
            prev_hash=first.event.hash,
        )
    )
    store.append(second)
    assert [e.hash for e in store.events("t1")] == [first.event.hash, second.event.hash]
    store.close()


def test_appends_at_once_are_bounded_as_the_engine_pool_bounded_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most ``MAX_APPENDERS`` appends hold a connection at once (the engine's pool lent
    at most 15); the others wait their turn, and one that waits too long is told why."""
    import queue
    import threading
    import time

    from referee.table import store as store_module
    from referee.table.store import StoreError

    store = Store(f"sqlite:///{tmp_path / 'x.db'}")
    store._turns = queue.SimpleQueue()  # two turns
    store._turns.put(None)
    store._turns.put(None)
    inside = 0
    most = 0
    lock = threading.Lock()
    insert = store._insert

    def counted(event: Event, params: Any) -> None:
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        time.sleep(0.01)
        try:
            insert(event, params)
        finally:
            with lock:
                inside -= 1

    monkeypatch.setattr(store, "_insert", counted)
    for t in range(8):
        store.create(TableRow(f"t{t}", f"x{t}", "arm", "2026-11-23"), [])

    def writer(t: int) -> None:
        prev = ""
        for seq in range(1, 4):
            e = seal(
                Event(
                    f"t{t}", seq, "2026-11-23T10:00:00.000+00:00", "a", "note", {}, prev_hash=prev
                )
            )
            store.append(e)
            prev = e.event.hash

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert most == 2
    assert [store.count(f"t{t}") for t in range(8)] == [3] * 8

    monkeypatch.setattr(store_module, "APPEND_WAIT", 0.05)
    store._turns.get()
    store._turns.get()  # every turn taken
    late = seal(Event("t0", 4, "2026-11-23T10:00:00.000+00:00", "a", "note", {}))
    with pytest.raises(StoreError, match=r"database busy: 15 appends waited 0\.05 s"):
        store.append(late)
    assert store.count("t0") == 3
    store.close()


def test_now_writes_the_time_as_datetime_writes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """An event's time: ISO 8601 in UTC with milliseconds, the text of each second made
    once, for any instant (the first and last millisecond of a second, a new day)."""
    from datetime import UTC, datetime

    from referee.table import service

    for ns in (
        0,
        1_764_660_419_999_999_999,
        1_764_660_420_000_000_000,
        1_764_660_420_000_999_999,
        1_764_660_420_123_456_789,
        1_767_225_599_999_000_000,
    ):
        monkeypatch.setattr(service.time, "time_ns", lambda ns=ns: ns)
        second, rest = divmod(ns, 1_000_000_000)
        expected = datetime.fromtimestamp(second, UTC).replace(microsecond=rest // 1000)
        assert service.now() == expected.isoformat(timespec="milliseconds")
