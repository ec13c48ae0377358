"""Quotas and rate limits for a server open to people the referee does not fully trust.

Each limit has a default here, a ``referee serve`` option and a ``REFEREE_*``
environment variable (see docs/web.md, "Putting it on the internet"). A request
over a limit gets 429 with ``Retry-After`` (seconds) and a message naming the
limit; nothing is done for it.

* **Tables per client address**: creating and importing tables, a token bucket
  per address (``tables_per_hour``, bursts of ``tables_burst``). The address is
  the connection's peer, or the ``X-Forwarded-For`` of a proxy the server was
  told to trust (``--forwarded-allow-ips``) and of no one else.
* **Tables on the server**: ``max_tables`` in the database at most.
* **Requests per participant and per table**: every call made as one participant
  (API, pages, socket handshakes), whichever of their links it comes with, spends
  from a bucket of ``requests_per_second`` filling up to ``requests_burst``; every
  call at one table, from a bucket of ``table_requests_per_second`` up to
  ``table_requests_burst``. A referee's minted links share their table's budget.
  At most ``table_requests_at_once`` of one table's requests run in the server's
  threads at once; the others wait their turn on the event loop
  (:class:`referee.web.shares.Gates`).
* **Invites per table**: ``invites_per_table`` links made for one table, revoked
  ones counted (revoking does not give a link back).
* **Imports per client address**: an import is a table made (the tables' bucket)
  and spends from its own bucket too (``imports_per_hour``), its size bounded by the
  server's import limit.
* **Odds**: ``odds_per_participant`` odds, previews or analyses of one participant
  waiting or computing at once. They run in a pool of ``odds_workers`` worker
  processes (:mod:`referee.web.worker`), never in the server's own (but a cheap
  preview, answered at once), the tables taking turns (:mod:`referee.web.shares`):
  at most ``odds_queue_per_table`` of one table's wait, and one that would wait past
  ``odds_wait_seconds`` is refused at once.
* **Sockets**: ``sockets_per_table`` live sockets open on one table and
  ``sockets_per_participant`` of one participant, in each server process.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from referee.web.shares import Shares

MAX_KEYS: Final = 100_000
"""Buckets a limiter keeps (the least recently used go first): bounded memory."""


@dataclass(frozen=True)
class Limits:
    """The server's quotas (see the module text); ``0`` switches one off."""

    tables_per_hour: int = 30
    tables_burst: int = 10
    max_tables: int = 10_000
    requests_per_second: float = 50.0
    requests_burst: int = 500
    table_requests_per_second: float = 100.0
    table_requests_burst: int = 300
    table_requests_at_once: int = 4
    invites_per_table: int = 100
    imports_per_hour: int = 12
    odds_per_participant: int = 4
    odds_queue_per_table: int = 16
    odds_wait_seconds: float = 10.0
    odds_workers: int = 1
    sockets_per_table: int = 200
    sockets_per_participant: int = 10

    @classmethod
    def off(cls) -> Limits:
        """No quota at all (a trusted machine; benchmarks). The pool still bounds odds."""
        return cls(**{f.name: 0 for f in fields(cls) if f.name != "odds_workers"})

    @classmethod
    def names(cls) -> list[str]:
        """The limits' names, as options and variables take them."""
        return [f.name for f in fields(cls)]


HELP: dict[str, str] = {
    "tables_per_hour": "Tables one client address may create or import an hour.",
    "tables_burst": "Tables one address may create at once before the hourly rate applies.",
    "max_tables": "Tables the server holds at most.",
    "requests_per_second": "Requests one participant may make a second, over all their links.",
    "requests_burst": "Requests one participant may make at once before that rate applies.",
    "table_requests_per_second": "Requests one table's participants may make a second, in all.",
    "table_requests_burst": "Requests one table may take at once before that rate applies.",
    "table_requests_at_once": "Requests of one table the server runs at once (others wait).",
    "invites_per_table": "Invite links one table may make (revoked ones count).",
    "imports_per_hour": "Tables one client address may import an hour.",
    "odds_per_participant": "Odds, previews or analyses one participant may have at once.",
    "odds_queue_per_table": "Odds one table may have waiting for a worker.",
    "odds_wait_seconds": "Seconds a question may wait for a worker before it is refused.",
    "odds_workers": "Worker processes that compute odds and previews.",
    "sockets_per_table": "Live sockets open on one table at once, in this server process.",
    "sockets_per_participant": "Live sockets one participant may have open on a table.",
}
"""What each quota of :class:`Limits` bounds (the serve command's help)."""


def shares_for(limits: Limits) -> Shares:
    """The workers' turns between tables under ``limits`` (:mod:`referee.web.shares`)."""
    from referee.web.shares import Shares

    return Shares(
        max(1, limits.odds_workers),
        per_participant=limits.odds_per_participant,
        queue_per_table=limits.odds_queue_per_table,
        wait_seconds=limits.odds_wait_seconds,
    )


class TooMany(Exception):
    """A request over a limit: 429, retry after ``retry_after`` seconds."""

    def __init__(self, detail: str, retry_after: float) -> None:
        super().__init__(detail)
        self.detail = detail
        self.retry_after = max(1, math.ceil(retry_after))


class Buckets:
    """Token buckets by key: each holds up to ``burst`` and fills at ``rate`` a second of
    ``clock`` (seconds; the monotonic clock unless a test gives its own)."""

    def __init__(
        self, rate: float, burst: int, what: str, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self.what = what
        self.clock = clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str) -> None:
        """Spend one from ``key``'s bucket, or raise :class:`TooMany`."""
        if self.rate <= 0:
            return
        now = self.clock()
        with self._lock:
            level, then = self._buckets.pop(key, (float(self.burst), now))
            level = min(float(self.burst), level + (now - then) * self.rate)
            if level < 1:
                self._buckets[key] = (level, now)
                raise TooMany(f"too many {self.what}: try again shortly", (1 - level) / self.rate)
            self._buckets[key] = (level - 1, now)
            while len(self._buckets) > MAX_KEYS:
                self._buckets.popitem(last=False)


class InFlight:
    """How many calls each key has running; at most ``most`` at once."""

    def __init__(self, most: int, what: str) -> None:
        self.most = most
        self.what = what
        self._lock = threading.Lock()
        self._running: dict[str, int] = {}

    @contextmanager
    def slot(self, key: str) -> Iterator[None]:
        """Hold one of ``key``'s slots for the block, or raise :class:`TooMany`."""
        if self.most <= 0:
            yield
            return
        with self._lock:
            running = self._running.get(key, 0)
            if running >= self.most:
                raise TooMany(f"{self.what}: at most {self.most} at once", 1)
            self._running[key] = running + 1
        try:
            yield
        finally:
            with self._lock:
                left = self._running[key] - 1
                if left:
                    self._running[key] = left
                else:
                    del self._running[key]


class Quotas:
    """A server's limiters, made from its :class:`Limits`."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.tables = Buckets(
            limits.tables_per_hour / 3600, limits.tables_burst, "tables made from this address"
        )
        self.requests = Buckets(
            limits.requests_per_second, limits.requests_burst, "requests from you"
        )
        self.table_requests = Buckets(
            limits.table_requests_per_second,
            limits.table_requests_burst,
            "requests at this table",
        )
        self.imports = Buckets(
            limits.imports_per_hour / 3600,
            max(1, limits.imports_per_hour // 2),
            "imports from this address",
        )
        self.odds = InFlight(limits.odds_per_participant, "odds computed for you")

    @staticmethod
    def participant(table: str, name: str) -> str:
        """The key of one participant's quotas: every link of theirs shares it."""
        return f"{table}\x00{name}"

    def request(self, table: str, name: str) -> None:
        """Spend one request of the participant's and one of the table's, or refuse."""
        self.requests.take(self.participant(table, name))
        self.table_requests.take(table)

    def socket(self, table_open: int, participant_open: int) -> None:
        """Refuse a socket past the table's or the participant's cap of open sockets."""
        caps = (
            (self.limits.sockets_per_table, table_open, "open on this table"),
            (self.limits.sockets_per_participant, participant_open, "open for you"),
        )
        for cap, now, what in caps:
            if cap and now >= cap:
                raise TooMany(f"at most {cap} live sockets {what}: close one first", 5)

    def new_table(self, address: str, tables_now: int, *, imported: bool = False) -> None:
        """Refuse a new table over the address's rate or the server's cap; an import
        spends from the imports' bucket too (before its export is checked or folded)."""
        cap = self.limits.max_tables
        if cap and tables_now >= cap:
            raise TooMany(f"this server holds its limit of {cap:,} tables", 3600)
        if imported:
            self.imports.take(address)
        self.tables.take(address)

    def invite(self, made: int) -> None:
        """Refuse an invite past the table's quota (``made``: its links so far)."""
        cap = self.limits.invites_per_table
        if cap and made >= cap:
            raise TooMany(f"this table has made its limit of {cap} invite links", 3600)
