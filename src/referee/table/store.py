"""Where tables live: an embedded SQLite file by default, PostgreSQL by URL.

SQLAlchemy Core over three tables: ``tables`` (id, unique name, game),
``events`` (the log; primary key ``(table_id, seq)``) and ``snapshots`` (folded
states every few hundred events, a cache the log can always rebuild). The
schema is Alembic's (``referee/table/migrations``), upgraded on open.

Appends are optimistic: an event is inserted at the seq its writer expects;
if another writer took that seq first, the primary key refuses the insert and
:class:`SeqTaken` tells the writer to re-read and retry. So the log never has
a gap or a duplicate, and an event is acknowledged only once committed.

SQLite runs in WAL mode with ``synchronous=FULL`` (a committed event survives
a power cut) and writers take the lock up front (``BEGIN IMMEDIATE``), so two
processes never deadlock upgrading a read lock.
"""

from __future__ import annotations

import json
import os
import queue
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
)
from sqlalchemy.exc import IntegrityError, OperationalError

from referee.errors import RulesError
from referee.table.events import Event, LogError, Written, canonical

ENV_URL = "REFEREE_DATABASE_URL"
"""The environment variable naming the database (``--db`` wins over it)."""

CHANNEL = "referee_events"
"""The PostgreSQL NOTIFY channel every append announces ``table_id:seq`` on."""

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("name", String(200), nullable=False, unique=True),
    Column("game", String(40), nullable=False),
    Column("created", String(40), nullable=False),
)

events_t = Table(
    "events",
    metadata,
    Column("table_id", String(40), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("time", String(40), nullable=False),
    Column("actor", String(200), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("visibility", String(20), nullable=False),
    Column("audience", String(200), nullable=True),
    Column("payload", Text, nullable=False),
    Column("rolls", Text, nullable=False),
    Column("salt", String(64), nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
)

snapshots_t = Table(
    "snapshots",
    metadata,
    Column("table_id", String(40), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("data", Text, nullable=False),
)


_INSERT_EVENT = insert(events_t)
"""One compiled statement for every append (parameters per event)."""

IDLE_APPENDERS = 5
"""Connections a store keeps open for appends between them (more are made while more
threads append at once, and closed when they are done), as the engine's pool keeps 5."""

MAX_APPENDERS = 15
"""Appends a store runs at once, as the engine's pool lends at most 15 connections (5
and 10 more under load); more wait for one to finish, up to :data:`APPEND_WAIT`."""

APPEND_WAIT = 30.0
"""Seconds an append waits for its turn before it fails (the engine pool's timeout)."""


class StoreError(RulesError):
    """The database cannot be reached, or holds what it should not."""


class SeqTaken(StoreError):
    """Another writer appended at this seq first: re-read the table and try again."""


@dataclass(frozen=True)
class TableRow:
    """A table's entry: its id, unique name, game and creation time."""

    id: str
    name: str
    game: str
    created: str


def default_url() -> str:
    """``REFEREE_DATABASE_URL`` if set, else a SQLite file in the user's data directory."""
    env = os.environ.get(ENV_URL)
    if env:
        return env
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("referee", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'referee.db'}"


def _normalise(url: str) -> str:
    if url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def _sqlite_engine(url: str, immediate: bool) -> Engine:
    engine = create_engine(url, connect_args={"timeout": 60, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _connect(dbapi: Any, _record: Any) -> None:
        dbapi.isolation_level = None  # SQLAlchemy's BEGIN below, not the driver's
        cursor = dbapi.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=60000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def _postgres_engine(url: str) -> Engine:
    """An engine on PostgreSQL, or a :class:`StoreError` saying what to install when its
    driver (the ``postgres`` extra) is missing."""
    try:
        import psycopg  # noqa: F401 - the driver SQLAlchemy loads for postgresql+psycopg
    except ImportError:
        raise StoreError(
            "a PostgreSQL database needs its driver: pip install 'referee[postgres]'"
        ) from None
    return create_engine(url, pool_pre_ping=True)


class Store:
    """A database of tables and their logs (see the module text)."""

    def __init__(self, url: str | None = None, *, migrate: bool = True) -> None:
        self.url = _normalise(url or default_url())
        self.dialect = self.url.split(":", 1)[0].split("+", 1)[0]
        if self.dialect not in ("sqlite", "postgresql"):
            raise StoreError(f"unsupported database URL {url!r}: use sqlite:/// or postgresql://")
        try:
            if self.dialect == "sqlite":
                self.writer = _sqlite_engine(self.url, immediate=True)
                self.reader = _sqlite_engine(self.url, immediate=False)
            else:
                self.writer = self.reader = _postgres_engine(self.url)
            # the append path (:meth:`append`): the driver's own connections, configured
            # by the engine (the same pragmas), and the insert the engine compiles
            self._idle: deque[Any] = deque()
            # the appends' turns: a slot taken from this queue and put back (the queue's
            # C code, where a semaphore's Python lock and condition cost every append more)
            self._turns: queue.SimpleQueue[None] = queue.SimpleQueue()
            for _ in range(MAX_APPENDERS):
                self._turns.put(None)
            self._closed = False
            self._dbapi: Any = self.writer.dialect.loaded_dbapi
            compiled = _INSERT_EVENT.compile(dialect=self.writer.dialect)
            self._insert_sql = str(compiled)
            self._insert_keys: tuple[str, ...] | None = (
                tuple(compiled.positiontup)
                if compiled.positional and compiled.positiontup
                else None
            )
            # PostgreSQL: the insert as a data-modifying WITH (run whole, whatever reads it)
            # and the NOTIFY that tells listeners, delivered when the insert commits
            self._notify_sql = (
                f"WITH written AS ({self._insert_sql}) "
                f"SELECT pg_notify('{CHANNEL}', %(notify_payload)s)"
            )
            if migrate:
                self.migrate()
        except OperationalError as e:
            raise StoreError(f"cannot open the database {self.safe_url}: {e.orig}") from None

    @property
    def safe_url(self) -> str:
        """The URL without its password (for messages and logs)."""
        from sqlalchemy.engine import make_url

        return make_url(self.url).render_as_string(hide_password=True)

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
        with self.writer.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def close(self) -> None:
        """Release every connection."""
        self._closed = True
        while self._idle:
            _quietly_close(self._idle.pop())
        self.writer.dispose()
        if self.reader is not self.writer:
            self.reader.dispose()

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        try:
            with self.writer.begin() as conn:
                yield conn
        except OperationalError as e:
            raise StoreError(f"database error: {e.orig}") from None

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        try:
            with self.reader.begin() as conn:
                yield conn
        except OperationalError as e:
            raise StoreError(f"database error: {e.orig}") from None

    # -- tables ----------------------------------------------------------------

    def create(self, row: TableRow, events: Sequence[Event]) -> None:
        """Add a table with its first events, all or nothing; :class:`StoreError` if the
        id or the name is taken."""
        try:
            with self._write() as conn:
                conn.execute(insert(tables_t).values(**row.__dict__))
                if events:
                    conn.execute(insert(events_t), [_row(e) for e in events])
        except IntegrityError:
            raise StoreError(
                f"a table with id {row.id!r} or name {row.name!r} already exists"
            ) from None

    def tables(self) -> list[TableRow]:
        """Every table, oldest first."""
        with self._read() as conn:
            rows = conn.execute(select(tables_t).order_by(tables_t.c.created, tables_t.c.id))
            return [TableRow(*r) for r in rows]

    def table_count(self) -> int:
        """How many tables the database holds."""
        from sqlalchemy import func

        with self._read() as conn:
            return int(conn.execute(select(func.count()).select_from(tables_t)).scalar_one())

    def find(self, ref: str) -> TableRow:
        """The table whose id or unique name is ``ref``; :class:`StoreError` if none."""
        with self._read() as conn:
            for column in (tables_t.c.id, tables_t.c.name):
                found = conn.execute(select(tables_t).where(column == ref)).first()
                if found is not None:
                    return TableRow(*found)
        raise StoreError(f"no table {ref!r} (give its id or its name; `referee table list`)")

    # -- the log ---------------------------------------------------------------

    def append(self, event: Event | Written) -> None:
        """Insert one event at its seq; :class:`SeqTaken` if that seq is already there.
        (Given as :func:`~referee.table.events.seal` made it, its JSON is not made again.)

        The hot path of every command, so it skips the engine's per-statement work: the
        driver's connection (made and configured by the engine, kept by the store), the
        insert the engine compiled once, one transaction of the same durability
        (SQLite: ``BEGIN IMMEDIATE`` ... ``COMMIT`` on a WAL file with
        ``synchronous=FULL``; PostgreSQL: the insert and its NOTIFY, committed together).
        It writes exactly the row :meth:`append_plain` (the engine's path) writes."""
        if isinstance(event, Written):
            params: Any = _row(event.event, event.payload, event.rolls)
            event = event.event
        else:
            params = _row(event)
        if self._insert_keys is not None:
            params = tuple([params[k] for k in self._insert_keys])
        try:
            self._turns.get(timeout=APPEND_WAIT)
        except queue.Empty:
            raise StoreError(
                f"database busy: {MAX_APPENDERS} appends waited {APPEND_WAIT:g} s"
            ) from None
        try:
            self._insert(event, params)
        finally:
            self._turns.put(None)

    def _insert(self, event: Event, params: Any) -> None:
        """The insert of :meth:`append`, in its own transaction."""
        dbapi = self._dbapi
        for again in (False, True):
            conn, reused = self._connection()
            committing = False
            try:
                if self.dialect == "sqlite":
                    conn.execute("BEGIN IMMEDIATE")
                    conn.execute(self._insert_sql, params)
                    committing = True
                    conn.execute("COMMIT")
                else:  # the insert and its NOTIFY in one statement: one round trip, not two
                    conn.execute(
                        self._notify_sql,
                        {**params, "notify_payload": f"{event.table}:{event.seq}"},
                    )
                    committing = True
                    conn.commit()
            except dbapi.IntegrityError:
                self._rollback(conn)
                raise SeqTaken(f"table {event.table}: seq {event.seq} is taken") from None
            except dbapi.Error as e:
                self._rollback(conn, keep=False)
                if reused and not again and not committing and self.dialect == "postgresql":
                    continue  # a connection the server dropped while idle: once more, anew
                raise StoreError(f"database error: {e}") from None
            except BaseException:
                self._rollback(conn, keep=False)
                raise
            self._release(conn)
            return

    def append_plain(self, event: Event) -> None:
        """:meth:`append` through the engine (SQLAlchemy Core, one transaction): the path
        appends took before the fast one, kept as its reference (the tests compare the
        rows both write) and for the benchmark."""
        try:
            with self._write() as conn:
                conn.execute(_INSERT_EVENT, _row(event))
                if self.dialect == "postgresql":  # delivered to listeners on commit
                    conn.execute(
                        text("SELECT pg_notify(:channel, :payload)"),
                        {"channel": CHANNEL, "payload": f"{event.table}:{event.seq}"},
                    )
        except IntegrityError:
            raise SeqTaken(f"table {event.table}: seq {event.seq} is taken") from None

    def _connection(self) -> tuple[Any, bool]:
        """An idle append connection (``True``: it was used before) or a new one."""
        try:
            return self._idle.pop(), True
        except IndexError:
            pass
        try:
            proxied = self.writer.raw_connection()
        except OperationalError as e:
            raise StoreError(f"database error: {e.orig}") from None
        proxied.detach()  # the store's own from now on, out of the engine's pool
        return proxied.dbapi_connection, False

    def _release(self, conn: Any) -> None:
        if self._closed or len(self._idle) >= IDLE_APPENDERS:
            _quietly_close(conn)
        else:
            self._idle.append(conn)

    def _rollback(self, conn: Any, *, keep: bool = True) -> None:
        """End a failed append's transaction; the connection is kept for the next append
        only if that worked and ``keep``."""
        try:
            if self.dialect == "sqlite":
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
            else:
                conn.rollback()
        except Exception:
            keep = False
        if keep:
            self._release(conn)
        else:
            _quietly_close(conn)

    def listen(self, on_event: Callable[[str, int], None], stop: threading.Event) -> None:
        """Call ``on_event(table_id, seq)`` for every event any process appends, until
        ``stop`` is set (run it in a thread). PostgreSQL: LISTEN/NOTIFY; SQLite: the heads
        of the tables are polled four times a second."""
        if self.dialect == "postgresql":
            self._listen_pg(on_event, stop)
        else:
            self._poll(on_event, stop)

    def _listen_pg(self, on_event: Callable[[str, int], None], stop: threading.Event) -> None:
        import psycopg

        dsn = self.url.replace("postgresql+psycopg://", "postgresql://", 1)
        while not stop.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    on_event("", 0)  # (re)connected: whatever was missed is caught up
                    while not stop.is_set():
                        for note in conn.notifies(timeout=0.5, stop_after=100):
                            tid, _, seq = note.payload.rpartition(":")
                            on_event(tid, int(seq))
            except psycopg.OperationalError:
                stop.wait(1.0)  # the server went away: try again shortly

    def _poll(self, on_event: Callable[[str, int], None], stop: threading.Event) -> None:
        heads: dict[str, int] = {}
        query = select(events_t.c.table_id, func.max(events_t.c.seq)).group_by(events_t.c.table_id)
        while not stop.wait(0.25):
            try:
                with self._read() as conn:
                    rows = list(conn.execute(query))
            except StoreError:
                continue
            for tid, seq in rows:
                if heads.get(tid) != seq:
                    heads[tid] = seq
                    on_event(tid, int(seq))

    def head(self, table_id: str) -> tuple[int, str]:
        """The last seq of a table's log and its hash (``(0, "")`` for none)."""
        with self._read() as conn:
            last = conn.execute(
                select(events_t.c.seq, events_t.c.hash)
                .where(events_t.c.table_id == table_id)
                .order_by(events_t.c.seq.desc())
                .limit(1)
            ).first()
        return (0, "") if last is None else (int(last[0]), str(last[1]))

    def events(
        self, table_id: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Event]:
        """The events with ``after < seq <= upto`` in order (at most ``limit``)."""
        query = select(events_t).where(events_t.c.table_id == table_id, events_t.c.seq > after)
        if upto is not None:
            query = query.where(events_t.c.seq <= upto)
        query = query.order_by(events_t.c.seq)
        if limit is not None:
            query = query.limit(limit)
        with self._read() as conn:
            return [_event(r) for r in conn.execute(query)]

    def control_events(self, table_id: str) -> list[Event]:
        """The undo, redo and reveal events of a table (small: they set what the rest means)."""
        query = (
            select(events_t)
            .where(
                events_t.c.table_id == table_id,
                events_t.c.kind.in_(("undo", "redo", "reveal")),
            )
            .order_by(events_t.c.seq)
        )
        with self._read() as conn:
            return [_event(r) for r in conn.execute(query)]

    def count(self, table_id: str) -> int:
        """How many events a table's log holds."""
        with self._read() as conn:
            n = conn.execute(
                select(func.count()).select_from(events_t).where(events_t.c.table_id == table_id)
            ).scalar_one()
        return int(n)

    # -- snapshots -------------------------------------------------------------

    def put_snapshot(self, table_id: str, seq: int, data: dict[str, Any]) -> None:
        """Keep a folded state at ``seq`` (a second one at the same seq is ignored)."""
        try:
            with self._write() as conn:
                conn.execute(
                    insert(snapshots_t).values(table_id=table_id, seq=seq, data=canonical(data))
                )
        except IntegrityError:
            pass

    def snapshot_seqs(self, table_id: str) -> list[int]:
        """The seqs a table has snapshots at, ascending."""
        with self._read() as conn:
            rows = conn.execute(
                select(snapshots_t.c.seq)
                .where(snapshots_t.c.table_id == table_id)
                .order_by(snapshots_t.c.seq)
            )
            return [int(r[0]) for r in rows]

    def snapshot(self, table_id: str, seq: int) -> dict[str, Any]:
        """The snapshot at ``seq``; :class:`StoreError` if it is missing or unreadable."""
        with self._read() as conn:
            data = conn.execute(
                select(snapshots_t.c.data).where(
                    snapshots_t.c.table_id == table_id, snapshots_t.c.seq == seq
                )
            ).scalar_one_or_none()
        if data is None:
            raise StoreError(f"table {table_id}: no snapshot at {seq}")
        try:
            loaded: dict[str, Any] = json.loads(data)
        except json.JSONDecodeError:
            raise StoreError(f"table {table_id}: the snapshot at {seq} is not JSON") from None
        return loaded


def _quietly_close(conn: Any) -> None:
    with suppress(Exception):
        conn.close()


def _row(e: Event, payload: str | None = None, rolls: str | None = None) -> dict[str, Any]:
    return {
        "table_id": e.table,
        "seq": e.seq,
        "time": e.time,
        "actor": e.actor,
        "kind": e.kind,
        "visibility": e.visibility,
        "audience": e.audience,
        "payload": canonical(e.payload) if payload is None else payload,
        "rolls": canonical(list(e.rolls)) if rolls is None else rolls,
        "salt": e.salt,
        "prev_hash": e.prev_hash,
        "hash": e.hash,
    }


def _event(r: Any) -> Event:
    try:
        payload = json.loads(r.payload)
        rolls = json.loads(r.rolls)
    except json.JSONDecodeError:
        raise LogError("the stored payload is not JSON (the database was changed)", r.seq) from None
    return Event(
        table=r.table_id,
        seq=r.seq,
        time=r.time,
        actor=r.actor,
        kind=r.kind,
        payload=payload,
        visibility=r.visibility,
        audience=r.audience,
        rolls=tuple(rolls),
        salt=r.salt,
        prev_hash=r.prev_hash,
        hash=r.hash,
    )
