"""Fair shares of the odds workers: one table's heavy questions never starve another's.

Odds, previews and analyses are computed in a small pool of worker processes
(:mod:`referee.web.worker`). Handed to the pool as they come, one table asking for
costly odds on many links at once would make every other table wait behind its
backlog. So work waits in a queue per table and the free workers take the tables in
turn (round-robin), at most :attr:`Shares.per_table` of one table's at once, so a
table never holds every worker while another waits. Each participant has at most
:attr:`Shares.per_participant` questions waiting or running, each table at most
:attr:`Shares.queue_per_table` waiting; past either, and where the wait a new
question would have (the questions the turns put ahead of it, at the recent mean time
of one) passes :attr:`Shares.wait_seconds`, it is refused at once with 429 and
``Retry-After`` - never queued for minutes.

A question the server can answer at once needs no worker: :mod:`referee.web.deps`
tries each preview first within a small budget of estimated work in the server's own
threads (:data:`QUICK_MICROSECONDS`) and only a costlier one waits its turn here.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Final, TypeVar

from referee.web.limits import TooMany

T = TypeVar("T")

QUICK_MICROSECONDS: Final = 20_000
"""The estimated work a question may take in the server's own threads (20 ms): a cheap
preview is answered there at once, whatever the workers are doing."""

FIRST_GUESS: Final = 0.5
"""The seconds one question is taken to need before any has been timed."""


@dataclass
class _Table:
    waiting: deque[asyncio.Future[None]] = field(default_factory=deque)
    running: int = 0
    served: int = 0
    """When this table last had a turn (a count of turns given; 0: never)."""


class Shares:
    """The turns of the workers between tables (see the module text). Used from the
    server's event loop only."""

    def __init__(
        self,
        workers: int,
        *,
        per_table: int = 0,
        per_participant: int = 4,
        queue_per_table: int = 16,
        wait_seconds: float = 10.0,
    ) -> None:
        self.workers = max(1, workers)
        self.per_table = per_table or max(1, self.workers - 1) if self.workers > 1 else 1
        self.per_participant = per_participant
        self.queue_per_table = queue_per_table
        self.wait_seconds = wait_seconds
        self.mean = FIRST_GUESS
        self._tables: dict[str, _Table] = {}
        self._people: dict[tuple[str, str], int] = {}
        self._running = 0
        self._turns = 0

    def _wait(self, table: str) -> float:
        """The seconds a new question of ``table`` would wait: every table's questions the
        turns serve before it (as many as this table has waiting, and one), over the
        workers, at the recent mean time of one."""
        mine = self._tables.get(table)
        ahead_here = len(mine.waiting) if mine is not None else 0
        ahead = ahead_here
        for tid, other in self._tables.items():
            if tid != table:
                ahead += min(len(other.waiting), ahead_here + 1)
        busy = max(0, self._running - self.workers + 1)
        return (ahead + busy) * self.mean / self.workers if ahead + busy else 0.0

    def _admit(self, table: str, who: str) -> None:
        """Refuse a question over a bound (429, with when to try again), or let it in."""
        person = self._people.get((table, who), 0)
        if self.per_participant and person >= self.per_participant:
            raise TooMany(
                f"odds for you at this table: at most {self.per_participant} waiting or "
                "computing at once",
                self.mean,
            )
        mine = self._tables.get(table)
        if mine is not None and self.queue_per_table and len(mine.waiting) >= self.queue_per_table:
            raise TooMany(
                f"odds at this table: at most {self.queue_per_table} waiting for a worker",
                self.mean * len(mine.waiting) / self.workers,
            )
        wait = self._wait(table)
        if self.wait_seconds and wait > self.wait_seconds:
            raise TooMany(
                f"the odds workers are busy: about {wait:.0f} s to wait, more than the "
                f"{self.wait_seconds:.0f} s a question may wait",
                wait,
            )

    def _next(self) -> None:
        """Give free workers to the tables in turn: each to the table with a question
        waiting that had its last turn longest ago."""
        while self._running < self.workers:
            ready = [t for t in self._tables.values() if t.waiting and t.running < self.per_table]
            if not ready:
                return
            entry = min(ready, key=lambda t: t.served)
            turn = entry.waiting.popleft()
            if turn.done():  # its asker went away
                continue
            self._turns += 1
            entry.served = self._turns
            entry.running += 1
            self._running += 1
            turn.set_result(None)

    async def run(self, table: str, who: str, work: Callable[[], Awaitable[T]]) -> T:
        """``work()`` when its table's turn comes, or a refusal at once (:class:`TooMany`)."""
        self._admit(table, who)
        entry = self._tables.setdefault(table, _Table())
        key = (table, who)
        self._people[key] = self._people.get(key, 0) + 1
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry.waiting.append(turn)
        try:
            self._next()
            await turn
            begun = time.monotonic()
            try:
                return await work()
            finally:
                took = time.monotonic() - begun
                self.mean = 0.8 * self.mean + 0.2 * took
        finally:
            if turn.done() and not turn.cancelled():  # its turn came (even if it then left)
                entry.running -= 1
                self._running -= 1
            elif turn in entry.waiting:
                entry.waiting.remove(turn)
            left = self._people[key] - 1
            if left:
                self._people[key] = left
            else:
                del self._people[key]
            if not entry.waiting and not entry.running:
                self._tables.pop(table, None)
            self._next()

    def snapshot(self) -> dict[str, int]:
        """How many questions run and wait now (for health and tests)."""
        return {
            "running": self._running,
            "waiting": sum(len(t.waiting) for t in self._tables.values()),
            "tables": len(self._tables),
        }


GATE_WAITING: Final = 64
"""Requests of one table that may wait for the gate (:class:`Gates`) at once; past this
a new one is refused at once with 429."""

GATE_WAIT_SECONDS: Final = 5.0
"""Seconds a request may wait for its table's gate; then it is refused (429)."""


@dataclass
class _Gate:
    running: int = 0
    waiting: deque[asyncio.Future[None]] = field(default_factory=deque)


class Gates:
    """How many of one table's requests the server's threads hold at once.

    Each request a participant makes (with a link this process knows) passes its
    table's gate: at most ``at_once`` of one table's requests run at a time, the others
    wait their turn on the event loop, where waiting costs no thread, in order; at most
    :data:`GATE_WAITING` wait, none longer than :data:`GATE_WAIT_SECONDS` (past either,
    429 with ``Retry-After``). A table flooding the server with requests on a hundred
    links so takes a few threads, not all of them, and a request of another table finds
    a thread free. ``at_once`` 0: no gate. Used from the server's event loop only."""

    def __init__(self, at_once: int) -> None:
        self.at_once = at_once
        self._tables: dict[str, _Gate] = {}

    async def enter(self, table: str) -> None:
        """Take one of ``table``'s places (waiting for one if need be), or refuse (429);
        :meth:`leave` gives it back."""
        if self.at_once <= 0:
            return
        gate = self._tables.setdefault(table, _Gate())
        if gate.running < self.at_once:
            gate.running += 1
        else:
            await self._wait(gate)

    def leave(self, table: str) -> None:
        """Give back a place :meth:`enter` took."""
        gate = self._tables.get(table)
        if self.at_once <= 0 or gate is None:
            return
        self._release(gate)
        if not gate.running:
            del self._tables[table]

    @asynccontextmanager
    async def held(self, table: str) -> AsyncIterator[None]:
        """One of ``table``'s places for the block."""
        await self.enter(table)
        try:
            yield
        finally:
            self.leave(table)

    async def _wait(self, gate: _Gate) -> None:
        if len(gate.waiting) >= GATE_WAITING:
            raise TooMany(f"too many requests at this table at once ({GATE_WAITING} waiting)", 1.0)
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        gate.waiting.append(turn)
        try:
            await asyncio.wait_for(asyncio.shield(turn), GATE_WAIT_SECONDS)
        except TimeoutError:
            if turn.done():  # handed a place as the wait ended: keep it
                return
            self._leave(gate, turn)
            raise TooMany(
                f"this table's requests waited over {GATE_WAIT_SECONDS:.0f} s for their turn",
                1.0,
            ) from None
        except BaseException:  # the request went away while it waited
            if turn.done() and not turn.cancelled():
                self._release(gate)  # its place goes to the next
            else:
                self._leave(gate, turn)
            raise

    @staticmethod
    def _leave(gate: _Gate, turn: asyncio.Future[None]) -> None:
        turn.cancel()
        with contextlib.suppress(ValueError):
            gate.waiting.remove(turn)

    @staticmethod
    def _release(gate: _Gate) -> None:
        while gate.waiting:
            turn = gate.waiting.popleft()
            if not turn.done():
                turn.set_result(None)  # the place passes on: running stays as it is
                return
        gate.running -= 1
