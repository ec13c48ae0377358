"""Live updates: every table's new events pushed to its browsers, redacted per viewer.

One :class:`Hub` per server process. A browser's WebSocket becomes a
:class:`Connection` of one table and one participant. The hub subscribes to
the service for each table that has connections; the service calls it from
whichever thread appended the event (a request of this process, or the watch
thread that hears PostgreSQL's NOTIFY from another process), always in seq
order and once each, and the hub hands the event to the event loop.

A connection that (re)connects says the last seq it saw. It is registered
*before* the missed events are read, so an event appended meanwhile is both
read and buffered; seqs already sent are skipped, so the browser gets every
event after its seq exactly once, in order: no gap, no duplicate.

Redaction happens here per viewer (:func:`referee.table.service.redact`), and
each distinct redacted form is rendered and serialised once per event, however many
browsers receive it, in the hub's push thread (:meth:`Hub._prepare`): neither in the
thread that appended it (which holds the service's lock) nor on the event loop, which
only queues the texts, to :data:`PUSH_CHUNK` browsers a turn. A browser that falls too
far behind is closed and reconnects from its last seq.

Messages that wait for one browser together go out in one frame as a JSON
array of the same messages, in order: a catch-up, a burst faster than the
socket drains, and the events of a busy table: past :data:`BUSY_RATE` events
a second, a table pushes to its browsers at most once per :data:`PUSH_GAP`
(10 ms; an event waits at most that long); below it, each event goes at once.
One write per browser per push instead of one per event (a write to a socket
is the dearest step of a push), so a busy table costs less per event the
busier it gets.

After an event that changes what a page shows, the table's panels are drawn again for
its browsers (:meth:`Hub._draw`). An event that leaves the table as it was but for its
seq (a check with no changes: the fold keeps every field it leaves alone as the same
object, :func:`referee.web.panel_push.same_but_seq`) changes no panel, and draws none
(:meth:`Hub._still`, judged in the thread that appended it, on the table it wrote).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Final, TypeVar

import anyio
import anyio.to_thread
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from referee.systems.base import JSONObject
from referee.table.events import Event
from referee.table.lru import LRU
from referee.table.service import TableService, redact, redaction_key
from referee.table.state import SHEET_KINDS, TableState, Viewer
from referee.web.panel_push import same_but_seq

log = logging.getLogger("referee.web")

T = TypeVar("T")

MAX_QUEUE: Final = 5000
"""Messages a connection may have waiting; past this it is closed (it reconnects)."""

MAX_QUEUE_BYTES: Final = 256 * 1024
"""Characters of messages a connection may have waiting (a socket that does not read
holds them): past this it is closed with :data:`CLOSE_BEHIND` and reconnects from its
last seq, so a reader that never reads costs the server at most this (200 of them on
one table: 50 MB). A browser that reads never nears it: a catch-up waits for it to take
what was sent (:data:`CATCH_UP_SLACK`), and only its newest panels wait (an older
drawing of the page is replaced, never queued behind the newer)."""

SOCKET_THREADS: Final = 2
"""Worker threads that check sockets' links and read and render their catch-ups, at
once, in one process: a hundred sockets opening together queue for these, not for the
threads that answer everyone's requests."""

CAUGHT_CHARS: Final = 16 * 1024 * 1024
"""Characters of catch-up messages kept ready (the most recently used), each under its
event and the form a viewer is shown of it (:func:`redaction_key`): a hundred browsers
catching up on one table serialise and render each entry once, not a hundred times."""

KEPT_EVENTS: Final = 5_000
"""Events kept as read from the database for catching up (the most recently used): a
hundred browsers catching up on one table read its log once. Events never change once
appended, so a kept one is never stale."""

CATCH_UP_PAGE: Final = 100
"""Missed events are read in pages of this many; the next page is read once the
browser has taken all but :data:`CATCH_UP_SLACK` characters of the last, so a catch-up
holds about one page per browser, never a whole log."""

CATCH_UP_SLACK: Final = 64 * 1024

MAX_CLIENT_MESSAGE: Final = 4096
"""The largest message a browser may send (characters)."""

MAX_BATCH: Final = 64
"""Messages sent together in one frame, at most, when several wait for one browser."""

BUSY_RATE: Final = 100
"""Events a second (a moving average) past which a table counts as busy."""

PUSH_GAP: Final = 0.01
"""Seconds between two pushes of a busy table to its browsers, at least: an event
that comes sooner after the last push waits for the next (at most this long) and
goes with the others that came meanwhile, one frame per browser. A table under
:data:`BUSY_RATE` pushes each event at once."""

SEND_SHARE: Final = 0.0005
"""Seconds of the event loop one socket's send is given: a busy table pushes at most once
per its sockets times this (200 sockets: every 100 ms, 2,000 sends a second), so one
table's crowd never takes the loop from the other tables; a table of a few browsers
keeps :data:`PUSH_GAP`."""

PUSH_CHUNK: Final = 32
"""Browsers offered a push in one turn of the event loop: a table of 200 hands its push
to them in turns of this many, with the loop free between two turns to read and answer
other tables' requests (one turn costs about a millisecond of sends)."""

CLOSE_BEHIND: Final = 4008
CLOSE_LEFT: Final = 4003
CLOSE_POLICY: Final = 1008
"""A link revoked (here or by another process): the browser shows why and stays closed."""
CLOSE_UNREADABLE: Final = 1003
"""A frame the server does not read (binary): closed, never a crash."""
CLOSE_GOING_AWAY: Final = 1001
"""The server is shutting down (SIGTERM): the browser reconnects, to this server once it is
back or to another process of the same database."""

SWEEP: Final = 0.5
"""Seconds between two checks of the open sockets' links against the database, so a
link revoked by another server process closes its sockets within a second."""

Revoked = Callable[[set[str]], set[str]]
"""The ids among some token ids that are revoked (a database read)."""

Render = Callable[[JSONObject], str]
"""A redacted event -> its log entry as HTML."""

Panels = Callable[[str, Sequence[Viewer]], Mapping[Viewer, str | None]]
"""A table id and its viewers -> each viewer's ``panels`` message (JSON text: the live
parts of the page as that viewer sees them now: cards, action panels, tracker, decisions,
participants; ``None``: nothing to draw), drawn in one worker thread
(:func:`referee.web.panel_push.pushed_panels`)."""

PANELS_GAP: Final = 0.1
"""Seconds between two rounds of drawing a busy table's panels, at least (see
:meth:`Hub._draw`)."""

STILL: Final = frozenset({"note", "action-failed"})
"""Event kinds that change nothing a page's panels show: the push carries their entry
alone."""


class _Mark:
    """What marks a drawing's place in a connection's queue."""


PANELS_MARK: Final = _Mark()


def _dump(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


POINTING: Final = frozenset({"undo", "redo", "reveal"})
"""Kinds whose lean form keeps the entry they point at (``payload.seq``): the page marks
it taken back, put back or revealed."""


def lean_event(shown: JSONObject) -> JSONObject:
    """What a page reads of a redacted event beside its entry's HTML: the table, the seq
    and the kind, and for an undo, a redo or a reveal the seq of the entry it points at.
    Drawn from the redacted event, so it says nothing its viewer may not see; a page's
    socket asks for it (``lean=1``) and receives a third of the bytes."""
    lean: JSONObject = {
        "table": shown.get("table"),
        "seq": shown.get("seq"),
        "kind": shown.get("kind"),
    }
    payload = shown.get("payload")
    if shown.get("kind") in POINTING and isinstance(payload, dict):
        lean["payload"] = {"seq": payload.get("seq")}
    return lean


PANELS_HEAD: Final = '{"type":"panels","seq":'


def _drawing(text: str) -> str:
    """A ``panels`` message but for its seq: a drawing equal to the one a browser was sent
    last is not sent again (the page would draw the same; an event that changes nothing a
    viewer's panels show costs them no message)."""
    if text.startswith(PANELS_HEAD):
        comma = text.find(",", len(PANELS_HEAD))
        if comma > 0:
            return text[comma:]
    return text


@dataclass(eq=False)
class Connection:
    """One browser's WebSocket on one table, as one participant."""

    ws: WebSocket
    table_id: str
    viewer: Viewer
    last: int
    grant_id: str = ""
    lean: bool = False
    """Sent each event's lean form (:func:`lean_event`: what the page reads beside the
    entry's HTML) instead of the whole redacted event."""
    catching_up: bool = True
    buffer: list[Event] = field(default_factory=list)
    queue: asyncio.Queue[str | _Mark | None] = field(default_factory=asyncio.Queue)
    closed: bool = False
    close_code: int | None = None
    close_reason: str = ""
    queued: int = 0
    """Characters waiting in the queue."""
    panels: str | None = None
    """The newest drawing of the page waiting to be sent (:meth:`put_panels`)."""
    marks: int = 0
    """Places in the queue where a drawing was put (the last one sends it)."""
    drawn: str | None = None
    """The last drawing of the page sent, but for its seq (:func:`_drawing`)."""

    def put(self, message: str) -> None:
        """Queue one message (or close the connection if it is too far behind: more than
        :data:`MAX_QUEUE` messages or :data:`MAX_QUEUE_BYTES` characters waiting; one
        message alone is always queued)."""
        if self._fits(len(message)):
            self.queued += len(message)
            self.queue.put_nowait(message)

    def _fits(self, size: int) -> bool:
        if self.closed:
            return False
        if self.queue.qsize() >= MAX_QUEUE or (
            self.queued and self.queued + size > MAX_QUEUE_BYTES
        ):
            self.end(CLOSE_BEHIND, "too far behind: reconnect to catch up")
            return False
        return True

    def put_panels(self, message: str) -> None:
        """Queue a drawing of the page's panels, replacing one still waiting: it goes
        after everything queued before it, and a browser behind gets the newest drawing
        once, not every drawing it missed."""
        waiting = 0 if self.panels is None else len(self.panels)
        if not self._fits(len(message) - waiting):
            return
        self.queued += len(message) - waiting
        self.panels = message
        self.marks += 1
        self.queue.put_nowait(PANELS_MARK)

    def take(self, item: str | _Mark) -> str | None:
        """What a queued item sends: itself, or at the last mark the newest drawing
        (``None`` at an earlier mark: a newer drawing follows)."""
        if isinstance(item, str):
            self.queued -= len(item)
            return item
        self.marks -= 1
        if self.marks or self.panels is None:
            return None
        drawn, self.panels = self.panels, None
        self.queued -= len(drawn)
        return drawn

    def end(self, code: int | None = None, reason: str = "") -> None:
        """Stop sending after what is queued (and close with ``code``)."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.close_reason = reason
            self.queue.put_nowait(None)


class Hub:
    """The live connections of one server process (see the module text)."""

    def __init__(
        self,
        service: TableService,
        render: Render,
        revoked: Revoked | None = None,
        panels: Panels | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        # seconds (the monotonic clock unless a test gives its own): when a table's events
        # come and when it last pushed, which decide whether an event waits (_dispatch)
        self.clock = clock
        self.render = render
        self.revoked = revoked
        self.panels = panels
        self._drawing: dict[str, bool] = {}
        self.tables: dict[str, set[Connection]] = {}
        self._cancel: dict[str, Callable[[], None]] = {}
        self._ready: dict[str, asyncio.Event] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: dict[str, list[Event]] = {}
        self._pushed: dict[str, float] = {}
        self._last_event: dict[str, float] = {}
        self._pace: dict[str, float] = {}
        self._sheets_at: dict[str, TableState] = {}
        self._written: dict[str, TableState] = {}
        """Each table as the service held it when it published its last event (only ever
        touched under the service's lock: :meth:`_still`)."""
        self._unchanged: set[tuple[str, int]] = set()
        """Events, by table and seq, that left their table as it was but for the seq
        (on the loop, from :meth:`_dispatch` to :meth:`_push`)."""
        self._forms: dict[tuple[str, int], dict[tuple[Viewer, bool], str]] = {}
        self._offering: set[str] = set()
        self._preparing: ThreadPoolExecutor | None = None
        self._kept: LRU[tuple[str, int], Event] = LRU(KEPT_EVENTS)
        self._caught: OrderedDict[tuple[str, int, bool, bool], str] = OrderedDict()
        self._caught_chars = 0
        self._rendering = threading.Lock()
        self._catching_up = asyncio.Lock()
        self._threads: anyio.CapacityLimiter | None = None
        self._open: dict[tuple[str, str | None], int] = {}

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop the hub's connections live on."""
        self._loop = loop

    async def in_thread(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` in one of the :data:`SOCKET_THREADS` (a socket's handshake or
        catch-up), not in the threads that answer requests."""
        if self._threads is None:
            self._threads = anyio.CapacityLimiter(SOCKET_THREADS)
        return await anyio.to_thread.run_sync(functools.partial(work, *args), limiter=self._threads)

    @property
    def connections(self) -> int:
        """How many browsers are connected."""
        return sum(len(c) for c in self.tables.values())

    def open_at(self, table_id: str, name: str | None = None) -> int:
        """How many sockets are open on a table (of one participant, with ``name``),
        those still opening (:meth:`opening`) counted."""
        return self._open.get((table_id, name), 0)

    @contextlib.contextmanager
    def opening(self, table_id: str, name: str) -> Iterator[None]:
        """Count a socket as open on its table from its handshake's check to its end:
        a hundred handshakes at once each see the others, so a cap holds however fast
        they come (a check and this count happen with no wait between)."""
        keys = ((table_id, None), (table_id, name))
        for key in keys:
            self._open[key] = self._open.get(key, 0) + 1
        try:
            yield
        finally:
            for key in keys:
                left = self._open[key] - 1
                if left:
                    self._open[key] = left
                else:
                    del self._open[key]

    # -- shutting down -------------------------------------------------------

    def going_away(self, reason: str = "the server is shutting down") -> int:
        """End every connection with :data:`CLOSE_GOING_AWAY` once what is queued for it is
        sent (on the loop); how many."""
        ended = 0
        for conns in list(self.tables.values()):
            for conn in list(conns):
                if not conn.closed:
                    conn.end(CLOSE_GOING_AWAY, reason)
                    ended += 1
        return ended

    async def drained(self, timeout: float) -> bool:
        """Wait until no connection is left (at most ``timeout`` seconds); True if none is."""
        deadline = time.monotonic() + timeout
        while self.tables and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        return not self.tables

    # -- revoked links -------------------------------------------------------

    def close_grants(self, ids: set[str], reason: str = "your link was revoked") -> int:
        """Close every socket opened with one of these links (on the loop); how many."""
        closed = 0
        for conns in list(self.tables.values()):
            for conn in list(conns):
                if conn.grant_id in ids and not conn.closed:
                    conn.end(CLOSE_POLICY, reason)
                    closed += 1
        return closed

    def close_grants_soon(self, ids: set[str]) -> None:
        """:meth:`close_grants` from any thread (a request that revoked links)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.close_grants, ids)

    async def sweep(self) -> None:
        """Every :data:`SWEEP` seconds, close the sockets whose links were revoked (by any
        process: the database says), for as long as the loop runs."""
        while True:
            await asyncio.sleep(SWEEP)
            ids = {c.grant_id for conns in self.tables.values() for c in conns if c.grant_id}
            if not ids or self.revoked is None:
                continue
            try:
                gone = await run_in_threadpool(self.revoked, ids)
            except Exception as e:  # the database away for a moment: try again next sweep
                log.warning("could not check the open sockets' links: %s", e)
                continue
            if gone:
                self.close_grants(gone)

    # -- messages ----------------------------------------------------------

    def message(
        self,
        event: Event,
        viewer: Viewer,
        revealed: frozenset[int],
        kind: str = "event",
        lean: bool = False,
    ) -> str:
        """The JSON text a viewer is sent for an event (``lean``: with the event's
        :func:`lean_event` form)."""
        shown = redact(event, viewer, revealed, self._table(event))
        said = lean_event(shown) if lean else shown
        return _dump({"type": kind, "event": said, "html": self.render(shown)})

    def _table(self, event: Event) -> TableState | None:
        """The table at or after ``event``, for an event whose payload holds a sheet (who
        may see it depends on the table's sheets setting and the character's owner);
        ``None`` for others. Read from the database (an event appended by another process
        is judged by that process's setting too), once per table and newer seq."""
        if event.kind not in SHEET_KINDS:
            return None
        known = self._sheets_at.get(event.table)
        if known is None or known.seq < event.seq:
            known = self._sheets_at[event.table] = self.service.load(event.table)
        return known

    def _offer(self, conn: Connection, events: list[Event], cache: dict[Hashable, str]) -> None:
        """Queue what ``conn`` has not had of ``events`` (in seq order) as one message, or
        one array of messages. What a viewer is sent depends only on whether they may see
        the payload (a redacted event reads the same for everyone) and, for a seating,
        whether they may see its sheet (:func:`redaction_key`): one text per event and
        form, not per viewer."""
        texts: list[str] = []
        for event in events:
            if event.seq <= conn.last:
                continue  # already sent (read while catching up)
            forms = self._forms.get((event.table, event.seq))
            text = None if forms is None else forms.get((conn.viewer, conn.lean))
            if text is None:  # not rendered in the push thread (a viewer new since)
                table = self._table(event)
                form = redaction_key(event, conn.viewer, frozenset(), table)
                key = (event.seq, form, conn.lean)
                text = cache.get(key)
                if text is None:
                    text = cache[key] = self.message(
                        event, conn.viewer, frozenset(), lean=conn.lean
                    )
            texts.append(text)
            conn.last = event.seq
            texts.extend(self._after(conn, event))
        if texts:
            conn.put(texts[0] if len(texts) == 1 else f"[{','.join(texts)}]")
        if conn.close_code == CLOSE_LEFT:
            conn.end(CLOSE_LEFT)

    def _after(self, conn: Connection, event: Event) -> list[str]:
        """What an event means for the connection itself (a new role, leaving): the
        messages that say so. Leaving marks the connection to close once they are sent."""
        p = event.payload
        if event.visibility != "public" or p.get("name") != conn.viewer.name:
            return []
        if event.kind == "role-changed" and isinstance(p.get("role"), str):
            role = str(p["role"])
            if role in ("referee", "player", "observer"):
                conn.viewer = Viewer(conn.viewer.name, role)  # type: ignore[arg-type]
                return [_dump({"type": "reload", "reason": f"your role is now {role}"})]
        elif event.kind == "participant-left":
            conn.close_code = CLOSE_LEFT
            return [_dump({"type": "left"})]
        return []

    # -- from the service --------------------------------------------------

    def _from_service(self, event: Event) -> None:
        """Called by the service in the appending thread: hand over to the hub's push
        thread (:meth:`_prepare`), which hands over to the loop, in the same order."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            still = self._still(event)
            if self._preparing is None:
                self._preparing = ThreadPoolExecutor(1, thread_name_prefix="referee-push")
            self._preparing.submit(self._prepare, loop, event, still)

    def _still(self, event: Event) -> bool:
        """Whether ``event`` left its table as it was but for its seq and hash, so that no
        viewer's panels can read differently after it (:func:`same_but_seq`). The service
        publishes an event under its lock, right after this process wrote it and holds the
        table it made (:meth:`TableService.current`, no database read): that table and the
        one held at the event before decide. An event from another process, or one whose
        tables before and after this process does not hold, counts as a change."""
        tid = event.table
        before = self._written.pop(tid, None)
        if not self.service.holds(tid):
            return False
        now = self.service.current(tid)
        if now.seq != event.seq:  # not the table this event made (another process's)
            return False
        self._written[tid] = now
        return before is not None and before.seq == event.seq - 1 and same_but_seq(before, now)

    def _prepare(self, loop: asyncio.AbstractEventLoop, event: Event, still: bool = False) -> None:
        """In the push thread, one event at a time in seq order: redact and render the event
        once for each form the table's browsers are shown of it (:func:`redaction_key`: the
        same text for every viewer of one form), then hand it and each viewer's text to the
        loop. The loop only queues texts: no template, no JSON, no database on it."""
        forms: dict[tuple[Viewer, bool], str] = {}
        try:
            viewers = {(c.viewer, c.lean) for c in list(self.tables.get(event.table, ()))}
            if viewers:
                table = self._table(event)
                texts: dict[tuple[tuple[bool, bool], bool], str] = {}
                for viewer, lean in viewers:
                    key = (redaction_key(event, viewer, frozenset(), table), lean)
                    text = texts.get(key)
                    if text is None:
                        text = texts[key] = self.message(event, viewer, frozenset(), lean=lean)
                    forms[(viewer, lean)] = text
        except Exception as e:  # drawn on the loop instead (:meth:`_offer`)
            log.warning("could not render event %s of %s: %s", event.seq, event.table, e)
            forms = {}
        if not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._dispatch, event, forms, still)

    def _dispatch(
        self,
        event: Event,
        forms: dict[tuple[Viewer, bool], str] | None = None,
        still: bool = False,
    ) -> None:
        """An appended event, on the loop (with each viewer's text of it, if rendered
        already, and whether it left the table as it was but for its seq:
        :meth:`_still`): push it now if the table is not busy or its last push was
        :data:`PUSH_GAP` ago, else at that time with whatever else comes meanwhile."""
        tid = event.table
        if not self.tables.get(tid):
            return
        if forms:
            self._forms[(tid, event.seq)] = forms
        if still:
            self._unchanged.add((tid, event.seq))
        now = self.clock()
        # the table's pace: a moving average of the time between its events
        since = now - self._last_event.get(tid, now - 1.0)
        pace = self._pace[tid] = 0.8 * self._pace.get(tid, 1.0) + 0.2 * since
        self._last_event[tid] = now
        waiting = self._waiting.get(tid)
        if waiting is not None:
            waiting.append(event)  # a push is already due
        elif tid in self._offering:
            self._waiting[tid] = [event]  # once the running push has reached every browser
        else:
            loop = self._loop
            gap = max(PUSH_GAP, len(self.tables[tid]) * SEND_SHARE)
            wait = self._pushed.get(tid, -gap) + gap - now
            if wait <= 0 or loop is None or pace * BUSY_RATE > 1:
                self._push(tid, [event])
            else:
                self._waiting[tid] = [event]
                loop.call_later(wait, self._push_waiting, tid)
        target = event.payload.get("seq")
        if event.kind == "reveal" and isinstance(target, int):
            loop = self._loop
            if loop is not None:
                task = loop.create_task(self._send_revealed(event.table, target))
                self._tasks.add(task)  # kept until done (the loop holds tasks weakly)
                task.add_done_callback(self._tasks.discard)

    def _push_waiting(self, tid: str) -> None:
        self._push(tid, self._waiting.pop(tid, []))

    def _push(self, tid: str, events: list[Event]) -> None:
        """Send ``events`` (in seq order) to every browser of the table."""
        if not events:
            return
        if tid in self._offering:  # the last push is still being handed out: after it
            self._waiting[tid] = [*events, *self._waiting.get(tid, [])]
            return
        self._pushed[tid] = self.clock()
        self._hand_out(tid, events, list(self.tables.get(tid, ())), {})
        changed = [e for e in events if (tid, e.seq) not in self._unchanged]
        self._unchanged.difference_update((tid, e.seq) for e in events)
        if any(e.kind not in STILL for e in changed):
            self._redraw(tid)

    def _hand_out(
        self,
        tid: str,
        events: list[Event],
        conns: list[Connection],
        cache: dict[Hashable, str],
    ) -> None:
        """Offer ``events`` to :data:`PUSH_CHUNK` of ``conns`` now and to the rest in later
        turns of the loop (other tables' requests are read and answered between two
        turns); events that come meanwhile wait for the last turn, so each browser still
        gets every event once, in order."""
        for conn in conns[:PUSH_CHUNK]:
            if conn.closed:  # ending (too far behind, a link revoked): nothing more for it
                continue
            if conn.catching_up:
                conn.buffer.extend(events)
            else:
                self._offer(conn, events, cache)
        loop = self._loop
        if len(conns) > PUSH_CHUNK and loop is not None:
            self._offering.add(tid)
            loop.call_soon(self._hand_out, tid, events, conns[PUSH_CHUNK:], cache)
            return
        self._offering.discard(tid)
        for event in events:
            self._forms.pop((tid, event.seq), None)
        if tid in self._waiting and loop is not None:
            gap = max(PUSH_GAP, len(self.tables.get(tid, ())) * SEND_SHARE)
            wait = self._pushed.get(tid, 0.0) + gap - self.clock()
            loop.call_later(max(0.0, wait), self._push_waiting, tid)

    # -- what each viewer redraws ---------------------------------------------

    def _redraw(self, tid: str) -> None:
        """After an event that changes what the page shows, draw the table's panels for
        its viewers (:meth:`_draw`); events that come while it draws are drawn by one more
        round after it."""
        if self.panels is None or self._loop is None:
            return
        if tid in self._drawing:
            self._drawing[tid] = True  # draw again when the running round is done
            return
        self._drawing[tid] = False
        task = self._loop.create_task(self._draw(tid))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _draw(self, tid: str) -> None:
        """Rounds of drawing the panels of one table: each round draws every viewer of the
        table's live browsers in one worker thread (one rendering per viewer class, see
        :mod:`referee.web.panel_push`) and sends each browser its viewer's text. A table
        whose events come while a round draws gets one more round, at least
        :data:`PANELS_GAP` (or the last round's own time) later: the panels of a busy table
        follow it a few times a second, and the events themselves keep the loop and the
        processor."""
        panels = self.panels
        loop = self._loop
        assert panels is not None and loop is not None
        try:
            while True:
                viewers = list(
                    dict.fromkeys(c.viewer for c in self.tables.get(tid, ()) if not c.catching_up)
                )
                started = loop.time()
                if viewers:
                    try:
                        texts = await run_in_threadpool(panels, tid, viewers)
                    except Exception as e:  # a page that cannot draw: browsers keep their own
                        log.warning("could not draw the panels of %s: %s", tid, e)
                        texts = {}
                    for conn in list(self.tables.get(tid, ())):
                        text = texts.get(conn.viewer)
                        if text is not None and not conn.catching_up:
                            drawn = _drawing(text)
                            if drawn != conn.drawn:  # the same page but for its seq: unsent
                                conn.drawn = drawn
                                conn.put_panels(text)
                if not self._drawing.get(tid):
                    break
                self._drawing[tid] = False
                await asyncio.sleep(max(PANELS_GAP, loop.time() - started))
        finally:
            self._drawing.pop(tid, None)

    async def _send_revealed(self, table_id: str, seq: int) -> None:
        """After a reveal, every browser gets the revealed event whole."""
        found = await run_in_threadpool(self.service.store.events, table_id, seq - 1, seq)
        if not found:
            return
        target = found[0]
        table = None
        if target.kind in SHEET_KINDS:  # judged by the table now (a reveal may come late)
            table = await run_in_threadpool(self.service.load, table_id)
        texts: dict[tuple[tuple[bool, bool], bool], str] = {}
        for conn in list(self.tables.get(table_id, ())):
            if conn.catching_up or target.seq > conn.last:
                continue  # it will read it whole when it catches up
            key = (redaction_key(target, conn.viewer, frozenset({seq}), table), conn.lean)
            if key not in texts:
                texts[key] = self.message(
                    target, conn.viewer, frozenset({seq}), "updated", lean=conn.lean
                )
            conn.put(texts[key])

    # -- connections ---------------------------------------------------------

    async def attach(self, conn: Connection) -> None:
        """Register a connection once its table's subscription is active (subscribing if it
        is the table's first): an event appended after this returns reaches it."""
        tid = conn.table_id
        while True:
            ready = self._ready.get(tid)
            if ready is None:
                ready = self._ready[tid] = asyncio.Event()
                try:
                    cancel = await run_in_threadpool(
                        self.service.subscribe, tid, self._from_service
                    )
                except BaseException:
                    del self._ready[tid]
                    ready.set()
                    raise
                self._cancel[tid] = cancel
                ready.set()
            else:
                await ready.wait()
            if self._ready.get(tid) is ready and tid in self._cancel:
                self.tables.setdefault(tid, set()).add(conn)
                return
            # the subscription ended while we waited (its last browser left): start again

    def detach(self, conn: Connection) -> None:
        """Forget a connection (unsubscribing from its table if it was the last)."""
        conns = self.tables.get(conn.table_id)
        if conns is None or conn not in conns:
            return
        conns.discard(conn)
        if not conns:
            del self.tables[conn.table_id]
            for times in (self._pushed, self._last_event, self._pace):
                times.pop(conn.table_id, None)
            self._sheets_at.pop(conn.table_id, None)
            self._written.pop(conn.table_id, None)
            self._ready.pop(conn.table_id, None)
            cancel = self._cancel.pop(conn.table_id, None)
            if cancel is not None:
                cancel()

    def _read(self, table_id: str, after: int, upto: int) -> list[Event]:
        """The events ``after < seq <= upto`` (at most a page), kept ones without reading
        the database again (:data:`KEPT_EVENTS`)."""
        out: list[Event] = []
        seq = after
        last = min(upto, after + CATCH_UP_PAGE)
        while seq < last:
            with self._rendering:
                kept = self._kept.get((table_id, seq + 1))
            if kept is None:
                break
            out.append(kept)
            seq += 1
        if seq < last:
            read = self.service.store.events(table_id, after=seq, upto=last)
            with self._rendering:
                for event in read:
                    self._kept[(table_id, event.seq)] = event
            out.extend(read)
        return out

    def _missed(
        self, table_id: str, name: str | None, after: int
    ) -> tuple[list[tuple[int, str]], bool]:
        """A page of the events after ``after`` as ``name`` may see them, each as its
        message, and whether more follow. Read and rendered in a worker thread; each
        event's message is made once for every browser shown the same form of it
        (:data:`CAUGHT_CHARS`) from events read once (:data:`KEPT_EVENTS`)."""
        full = self.service.load(table_id)
        viewer = full.viewer(name)
        out: list[tuple[int, str]] = []
        events = self._read(full.id, after, full.seq)
        for event in events:
            key = (full.id, event.seq, *redaction_key(event, viewer, full.revealed, full))
            with self._rendering:
                message = self._caught.get(key)
                if message is not None:
                    self._caught.move_to_end(key)
            if message is None:
                shown = redact(event, viewer, full.revealed, full)
                message = (
                    f'{{"type":"event","event":{_dump(shown)},"html":{_dump(self.render(shown))}}}'
                )
                self._keep(key, message)
            out.append((event.seq, message))
        return out, bool(events) and events[-1].seq < full.seq

    def _keep(self, key: tuple[str, int, bool, bool], message: str) -> None:
        with self._rendering:
            if key in self._caught:
                return
            self._caught[key] = message
            self._caught_chars += len(message)
            while self._caught_chars > CAUGHT_CHARS and self._caught:
                self._caught_chars -= len(self._caught.popitem(last=False)[1])

    async def catch_up(self, conn: Connection) -> int:
        """Send everything after ``conn.last`` the viewer may see, then go live. The missed
        events are read and rendered off the event loop (:meth:`_missed`), one catch-up
        page at a time in the whole process (a hundred browsers catching up at once take
        turns rather than a hundred threads contending for the interpreter), and a page
        only once the browser has taken the last (:data:`CATCH_UP_SLACK`)."""
        while not conn.closed:
            async with self._catching_up:
                page, more = await self.in_thread(
                    self._missed, conn.table_id, conn.viewer.name, conn.last
                )
            for seq, message in page:
                while conn.queued > CATCH_UP_SLACK and not conn.closed:
                    await asyncio.sleep(0.02)  # the browser takes what was sent first
                if seq <= conn.last:
                    continue
                conn.put(message)
                conn.last = seq
            if not more:
                break
        conn.catching_up = False
        buffered, conn.buffer = conn.buffer, []
        self._offer(conn, buffered, {})
        conn.put(_dump({"type": "live", "seq": conn.last}))
        return conn.last

    async def serve(self, conn: Connection) -> None:
        """Run one connection until either side closes it."""
        sender = asyncio.create_task(self._send_loop(conn))
        try:
            await self.attach(conn)
            await self.catch_up(conn)
            while not conn.closed:
                frame = await conn.ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if not isinstance(text, str):
                    conn.end(CLOSE_UNREADABLE, "text frames only")
                    break
                if len(text) > MAX_CLIENT_MESSAGE:
                    await conn.ws.close(1009, "message too big")
                    break
                try:
                    msg = json.loads(text)
                except (json.JSONDecodeError, RecursionError):
                    conn.put(_dump({"type": "error", "detail": "messages are JSON"}))
                    continue
                if isinstance(msg, dict) and msg.get("type") == "ping":
                    conn.put(_dump({"type": "pong", "seq": conn.last}))
                else:
                    conn.put(_dump({"type": "error", "detail": "unknown message"}))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.detach(conn)
            conn.end()
            with contextlib.suppress(Exception):
                await sender

    async def _send_loop(self, conn: Connection) -> None:
        ws = conn.ws
        queue = conn.queue
        try:
            ending = False
            while not ending:
                item = await queue.get()
                if item is None:
                    break
                first = conn.take(item)
                batch = [] if first is None else [first]
                while len(batch) < MAX_BATCH and not queue.empty():
                    more = queue.get_nowait()
                    if more is None:
                        ending = True
                        break
                    taken = conn.take(more)
                    if taken is not None:
                        batch.append(taken)
                if not batch:
                    continue
                text = batch[0]
                if len(batch) > 1:  # one flat array: a queued array gives its messages
                    inner = (t[1:-1] if t[0] == "[" else t for t in batch)
                    text = f"[{','.join(inner)}]"
                await ws.send_text(text)
            if conn.close_code is not None and ws.application_state == WebSocketState.CONNECTED:
                await ws.close(conn.close_code, conn.close_reason)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            conn.closed = True
