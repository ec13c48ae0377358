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
* **Requests per token**: every call made with one link (API, pages, socket
  handshakes), a bucket of ``requests_per_second`` filling up to
  ``requests_burst``.
* **Invites per table**: ``invites_per_table`` links made for one table, revoked
  ones counted (revoking does not give a link back).
* **Odds at once per token**: ``odds_per_token`` odds or previews of one link
  computed at the same time; they run in a pool of ``odds_workers`` worker
  processes (:mod:`referee.web.worker`), never in the server's own.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import Final

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
    invites_per_table: int = 100
    odds_per_token: int = 4
    odds_workers: int = 1

    @classmethod
    def off(cls) -> Limits:
        """No quota at all (a trusted machine; benchmarks). The pool still bounds odds."""
        return cls(0, 0, 0, 0.0, 0, 0, 0, cls.odds_workers)

    @classmethod
    def names(cls) -> list[str]:
        """The limits' names, as options and variables take them."""
        return [f.name for f in fields(cls)]


HELP: dict[str, str] = {
    "tables_per_hour": "Tables one client address may create or import an hour.",
    "tables_burst": "Tables one address may create at once before the hourly rate applies.",
    "max_tables": "Tables the server holds at most.",
    "requests_per_second": "Requests one link may make a second, sustained.",
    "requests_burst": "Requests one link may make at once before that rate applies.",
    "invites_per_table": "Invite links one table may make (revoked ones count).",
    "odds_per_token": "Odds or previews one link may have computing at once.",
    "odds_workers": "Worker processes that compute odds and previews.",
}
"""What each quota of :class:`Limits` bounds (the serve command's help)."""


class TooMany(Exception):
    """A request over a limit: 429, retry after ``retry_after`` seconds."""

    def __init__(self, detail: str, retry_after: float) -> None:
        super().__init__(detail)
        self.detail = detail
        self.retry_after = max(1, math.ceil(retry_after))


class Buckets:
    """Token buckets by key: each holds up to ``burst`` and fills at ``rate`` a second."""

    def __init__(self, rate: float, burst: int, what: str) -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self.what = what
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str) -> None:
        """Spend one from ``key``'s bucket, or raise :class:`TooMany`."""
        if self.rate <= 0:
            return
        now = time.monotonic()
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
            limits.requests_per_second, limits.requests_burst, "requests with this link"
        )
        self.odds = InFlight(limits.odds_per_token, "odds computed for this link")

    def new_table(self, address: str, tables_now: int) -> None:
        """Refuse a new table over the address's rate or the server's cap."""
        cap = self.limits.max_tables
        if cap and tables_now >= cap:
            raise TooMany(f"this server holds its limit of {cap:,} tables", 3600)
        self.tables.take(address)

    def invite(self, made: int) -> None:
        """Refuse an invite past the table's quota (``made``: its links so far)."""
        cap = self.limits.invites_per_table
        if cap and made >= cap:
            raise TooMany(f"this table has made its limit of {cap} invite links", 3600)
