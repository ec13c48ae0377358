"""The gauge of who is winning, at the edge: a JSON route and a push after each event.

* ``GET /api/tables/{tid}/gauge`` (``?a=ID&b=ID`` to name the sides) - the caller's gauge
  (:meth:`TableService.gauge`): each side's chance, exact or simulated, and the what-ifs;
  for a participant it is not shown to, why.
* After each event that changes the page, the table's browsers that are shown a gauge
  are pushed ``{"type": "gauge", "seq": N, ...}`` once it is computed (:func:`with_gauge`;
  ``seq``: the table's seq when it was asked for).

Neither is computed on the event loop or in the thread that appended the event: the
work goes to the odds workers (:mod:`referee.web.worker`) when the table's turn comes
(:mod:`referee.web.shares`: a table's gauges take turns with every table's odds, so a
costly fight never makes another table wait), under a CPU budget
(:data:`referee.analysis.live.GAUGE_SECONDS`); the push waits for it, play does not. A
table whose events come while its gauge is computed gets one more computation after it
(the newest state), not one per event. Each viewer is pushed the figures first and,
where whoever acts now has what-ifs (one more chain each), the whole gauge after them.
A referee is pushed every gauge; anyone else only one that differs from the last they
were sent, so an event that changes nothing of what they may know (a referee's secret
roll, for a player) sends them nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Final

import anyio.from_thread
from fastapi import Query, Request

from referee.errors import RulesError
from referee.table.lru import LRU
from referee.table.service import TableService
from referee.table.state import Viewer
from referee.web.analysis_routes import as_data
from referee.web.app import WebError, web_of
from referee.web.deps import Reader, in_pool
from referee.web.limits import TooMany
from referee.web.routes import param, serves

if TYPE_CHECKING:
    from referee.web.app import Web
    from referee.web.panel_push import DrawMany

log = logging.getLogger("referee.web")

SENT: Final = 4096
"""Viewers whose last pushed gauge is kept (the most recent): one not kept is pushed its
next gauge even if it is the same."""

ASKER: Final = "the gauge of "
"""Whose turn a pushed gauge takes at the odds workers: the gauge's own, per viewer."""
TRIES: Final = 3
"""Times a pushed gauge asks for its turn when the workers are too busy to give one."""
RETRY_SECONDS: Final = 5.0
"""The longest wait before asking again."""
MAX_SIDE: Final = 8
"""Characters named on one side at most."""

SideA = Annotated[list[str], Query(max_length=MAX_SIDE, description=param("gauge", "a").help)]
SideB = Annotated[list[str], Query(max_length=MAX_SIDE, description=param("gauge", "b").help)]


def compute(
    service: TableService, table: str, by: str, a: list[str], b: list[str], what_ifs: bool = True
) -> Any:
    """:meth:`TableService.gauge` with its refusal as data
    (:func:`~referee.web.analysis_routes.as_data`)."""

    def work() -> Any:
        sides = {"a": tuple(a) or None, "b": tuple(b) or None}
        found = service.gauge(table, by, **sides, what_ifs=what_ifs)
        return json.loads(json.dumps(found, default=float))

    return as_data("gauge", work)


def in_worker(table: str, by: str, a: list[str], b: list[str], what_ifs: bool = True) -> Any:
    """:func:`compute` in an odds worker process, on its own service."""
    from referee.web import worker

    return compute(worker.started(), table, by, a, b, what_ifs)


@serves(
    "gauge",
    "The answer: `method` (exact or simulated), each side's `p` (a simulated one with its "
    "interval), `fighters` (whom a side may name), `now` and `what_if`; `shown: false` "
    "and `why` where the caller is not shown it. Computed off the event loop; 422 names "
    "a refusal.",
)
async def gauge_api(
    caller: Reader,
    request: Request,
    a: SideA = [],  # noqa: B006 - FastAPI copies a query default
    b: SideB = [],  # noqa: B006
) -> dict[str, Any]:
    """Who is winning (the operation ``gauge``), in the odds pool under an odds slot, when
    the table's turn at the workers comes (:mod:`referee.web.shares`)."""
    web = web_of(request)
    args = (caller.table_id, caller.name, a, b)

    async def work() -> Any:
        return await in_pool(web, compute, in_worker, args)

    with web.quotas.odds.slot(web.quotas.participant(caller.table_id, caller.name)):
        kind, value = await web.shares.run(caller.table_id, caller.name, work)
    if kind == "ok":
        found: dict[str, Any] = value
        return found
    raise WebError(403 if kind == "forbidden" else 501 if kind == "missing" else 422, str(value))


# ---------------------------------------------------------------------------
# the push


class GaugePush:
    """The gauges pushed to one server's browsers (see the module text)."""

    def __init__(self, web: Web) -> None:
        self.web = web
        self.running: dict[str, bool] = {}
        """Tables whose gauges are being computed (true: compute again after)."""
        self.sent: LRU[tuple[str, Viewer], str] = LRU(SENT)
        """The last gauge text pushed to each viewer of each table."""
        self.tasks: set[asyncio.Task[None]] = set()

    def kick(self, tid: str) -> None:
        """On the event loop: compute the table's gauges (once more after the running
        computation, if one runs)."""
        if tid in self.running:
            self.running[tid] = True
            return
        self.running[tid] = False
        task = asyncio.get_running_loop().create_task(self._rounds(tid))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _now(self, tid: str) -> tuple[int, bool] | None:
        """In a thread: the table's seq and whether its setting shows players the gauge (a
        setting everyone may read); ``None``: the table is gone."""
        try:
            ts = self.web.service.current(tid)
        except RulesError:
            return None
        return ts.seq, ts.settings.players_gauge

    def _shown(self, tid: str, players: bool) -> list[Viewer]:
        """The viewers of the table's live browsers who may be shown a gauge: referees,
        and others where the setting shows it to players."""
        conns = self.web.hub.tables.get(tid, ())
        viewers = dict.fromkeys(c.viewer for c in conns if c.viewer.name is not None)
        return [v for v in viewers if players or v.sees_all]

    async def _rounds(self, tid: str) -> None:
        try:
            while True:
                now = await asyncio.to_thread(self._now, tid)
                if now is None:
                    break
                seq, players = now
                for viewer in self._shown(tid, players):
                    if not await self._viewer(tid, viewer, seq):
                        break
                if not self.running.get(tid):
                    break
                self.running[tid] = False
        finally:
            self.running.pop(tid, None)

    async def _viewer(self, tid: str, viewer: Viewer, seq: int) -> bool:
        """Compute and push one viewer's gauge: the figures first, then, where the one
        acting now has what-ifs (a chain each: seconds where the figures took a fraction),
        the whole gauge. False: a worker was lost (the browsers keep their gauge)."""
        assert viewer.name is not None
        for what_ifs in (False, True):
            args: tuple[str, str, list[str], list[str], bool] = (tid, viewer.name, [], [], what_ifs)

            async def work(args: tuple[str, str, list[str], list[str], bool] = args) -> Any:
                return await in_pool(self.web, compute, in_worker, args)

            try:
                kind, value = await self._turn(tid, viewer.name, work)
            except Exception as e:
                log.warning("could not compute the gauge of %s: %s", tid, e)
                return False
            if kind != "ok":
                return True
            self._send(tid, viewer, seq, json.dumps(value))
            if not value.get("what_if_pending"):
                return True
        return True

    async def _turn(self, tid: str, name: str, work: Callable[[], Awaitable[Any]]) -> Any:
        """``work()`` when the table's turn at the odds workers comes
        (:mod:`referee.web.shares`): a table's gauges wait their turn with its odds and
        previews, so a costly fight never holds the workers while another table waits.
        Asked in the gauge's own name (:data:`ASKER`), not the viewer's, so it takes none
        of their own questions' places; a turn refused because the workers are busy is
        asked again a few times, then the browsers keep the gauge they have."""
        for _ in range(TRIES - 1):
            try:
                return await self.web.shares.run(tid, ASKER + name, work)
            except TooMany as e:
                await asyncio.sleep(min(e.retry_after, RETRY_SECONDS))
        return await self.web.shares.run(tid, ASKER + name, work)

    def _send(self, tid: str, viewer: Viewer, seq: int, body: str) -> None:
        """Push ``body`` (a gauge as JSON) to the viewer's browsers; ``seq``: the table's
        seq when it was asked for (the gauge is of that state or a later one). A referee
        is pushed every gauge, so their page knows it is current; anyone else only one
        that differs from the last they were pushed (what they may know did not change)."""
        if self.sent.get((tid, viewer)) == body and not viewer.sees_all:
            return  # nothing new for them
        self.sent[(tid, viewer)] = body
        text = f'{{"type":"gauge","seq":{seq},{body[1:]}'
        for conn in list(self.web.hub.tables.get(tid, ())):
            if conn.viewer == viewer and not conn.catching_up:
                conn.put(text)


def with_gauge(web: Web, draw: DrawMany) -> DrawMany:
    """The live hub's drawing of a table's panels (:mod:`referee.web.panel_push`), which
    also starts the table's gauges (after each event that changes the page)."""
    pusher = GaugePush(web)

    def both(tid: str, viewers: Sequence[Viewer]) -> Mapping[Viewer, str | None]:
        texts = draw(tid, viewers)
        with contextlib.suppress(RuntimeError):  # drawn outside the server's threads: no push
            anyio.from_thread.run_sync(pusher.kick, tid)
        return texts

    return both
