"""Every command a table takes, by one path: authorize -> build -> resolve -> append -> publish.

:class:`TableService` is what the command line and the web call: the facade of the live
tables of one database. It knows no game: actions are built from the game's ``actions()``
and resolved by its ``Ruleset``; the state is folded by :mod:`referee.table.state`. It
holds what is shared by every command: the tables it has loaded (cached), the writer that
appends each command's event, and the subscribers it publishes them to. What each command
does lives in the rooms beside it:

* :mod:`referee.table.rights`: who may do what (a referee anything; a player acts for
  their own characters, never the referee's actions or secret rolls, and adds or updates
  their own characters; an observer only reads), checked at every entry;
* :mod:`referee.table.acting` (act, decide, withdraw, answer: the dice) and
  :mod:`referee.table.running` (participants, house rules, settings, characters, edits,
  notes, undo, redo, reveal): each command's checks and its build, a function from the
  table as it is now to the :class:`~referee.table.drafts.Draft` event it appends;
* :mod:`referee.table.viewing`: what a participant may know (:func:`redact`, the table as
  JSON, the odds before a roll on their own view).

Appends are optimistic: a writer that loses the race for a seq re-reads the table and
runs its command's build again against the new state; a caller that gives ``expect`` (the
seq it last saw) gets :class:`StaleTable` instead.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import cast

from referee.errors import IllegalAction, RulesError
from referee.systems.base import JSONObject, JSONValue, get
from referee.table import acting, running, viewing
from referee.table.acting import derived_seed as derived_seed
from referee.table.drafts import Build as Build
from referee.table.drafts import Draft as Draft
from referee.table.events import (
    GENESIS,
    SYSTEM_ACTOR,
    Event,
    LogError,
    Visibility,
    check_event,
    seal_new,
)
from referee.table.hidden import HiddenOdds as HiddenOdds
from referee.table.lru import LRU
from referee.table.names import MAX_NAME as MAX_NAME
from referee.table.names import check_name as check_name
from referee.table.rights import ASKS_THE_REFEREE as ASKS_THE_REFEREE
from referee.table.rights import Forbidden as Forbidden
from referee.table.running import MAX_NOTE as MAX_NOTE
from referee.table.state import (
    EVERYTHING,
    Role,
    Settings,
    TableState,
    Viewer,
    advance,
    created,
    replay,
    settings_with,
    snapshot_data,
    snapshot_state,
)
from referee.table.store import SeqTaken, Store, StoreError, TableRow
from referee.table.viewing import Answer as Answer
from referee.table.viewing import Choice as Choice
from referee.table.viewing import Odds as Odds
from referee.table.viewing import proposal_data as proposal_data
from referee.table.viewing import redact as redact
from referee.table.viewing import redaction_key as redaction_key
from referee.table.viewing import sheet_hidden as sheet_hidden
from referee.table.viewing import table_data as table_data
from referee.table.viewing import tracker as tracker

CACHED_TABLES = 1000
"""Tables whose folded state a service keeps in memory, the most recently used (each
participant's view of them too, up to four times as many); others are read again."""

RETRIES = 200
"""How many times a command that lost the race for a seq is tried again (with a random
back-off that grows each time, so busy writers spread out instead of colliding again)."""


class StaleTable(RulesError):
    """The table moved on since the seq the caller expected."""


def now() -> str:
    """The current UTC time as ISO 8601 text with milliseconds (as
    ``datetime.now(UTC).isoformat(timespec="milliseconds")`` writes it: every event
    takes one, so the text of the second is made once a second)."""
    global _SECOND
    ns = time.time_ns()
    second, rest = divmod(ns, 1_000_000_000)
    known = _SECOND
    if known[0] != second:
        stamp = datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")
        known = _SECOND = (second, stamp.removesuffix("+00:00"))
    return f"{known[1]}.{rest // 1_000_000:03d}+00:00"


_SECOND: tuple[int, str] = (-1, "")
"""The last second :func:`now` wrote, and its text up to the seconds."""


@dataclass(frozen=True)
class Done:
    """What a command did: the event appended and the table after it (the whole truth)."""

    event: Event
    table: TableState


class TableService:
    """The live tables of one database (see the module text)."""

    def __init__(
        self, store: Store, *, snapshot_every: int = 500, cached_tables: int = CACHED_TABLES
    ) -> None:
        self.store = store
        self.snapshot_every = snapshot_every
        # bounded: a server anyone can reach must not keep every table ever made in memory
        self._cache: LRU[str, TableState] = LRU(cached_tables)
        self._rows: LRU[str, TableRow] = LRU(4 * cached_tables)
        self._views: LRU[tuple[str, str | None, Role], TableState] = LRU(4 * cached_tables)
        self._subscribers: dict[str, list[Callable[[Event], None]]] = {}
        self._published: dict[str, int] = {}
        self._lock = threading.RLock()
        self._writers: dict[str, threading.Lock] = {}

    # -- reading ---------------------------------------------------------------

    def table(self, ref: str) -> TableRow:
        """The table called ``ref`` (id or name); a table's id, name and game never change,
        so each is looked up once."""
        with self._lock:
            found = self._rows.get(ref)
        if found is None:
            found = self.store.find(ref)
            with self._lock:
                self._rows[ref] = found
        return found

    def load(self, ref: str) -> TableState:
        """The whole truth of a table at its newest event (cached; catches up with writers
        in other processes)."""
        row = self.table(ref)
        with self._lock:
            cached = self._cache.get(row.id)
        head, head_hash = self.store.head(row.id)
        if cached is not None and cached.seq == head and cached.hash == head_hash:
            return cached
        if cached is not None and cached.seq < head:
            ts = cached
            for e in self.store.events(row.id, after=cached.seq):
                ts = advance(ts, e, self._fetch(row.id), self._checkpoint(row.id))
        else:
            ts = self._cold(row.id)
        with self._lock:
            self._cache[row.id] = ts
        return ts

    def current(self, ref: str) -> TableState:
        """The table as this process last knew it (loaded if it knows nothing yet): no read
        of the database, for checks that a command re-checks on the state it writes on
        (who is at the table, in what role)."""
        tid = self.table(ref).id
        with self._lock:
            cached = self._cache.get(tid)
        return cached if cached is not None else self.load(tid)

    def holds(self, ref: str) -> bool:
        """Whether :meth:`current` would answer ``ref`` from memory (no database read)."""
        with self._lock:
            row = self._rows.get(ref)
            return row is not None and row.id in self._cache

    def _cold(self, tid: str) -> TableState:
        undone, revealed = self._final_sets(tid)
        base = self._valid_snapshot(tid, 10**12, undone)
        tail = self.store.events(tid, after=base.seq)
        return replay(base, tail, undone=undone, revealed=revealed)

    def _final_sets(self, tid: str) -> tuple[frozenset[int], frozenset[int]]:
        undone: set[int] = set()
        revealed: set[int] = set()
        for e in self.store.control_events(tid):
            target = e.payload.get("seq")
            if not isinstance(target, int):
                raise LogError(f"{e.kind} names no event", e.seq)
            if e.kind == "undo":
                undone.add(target)
            elif e.kind == "redo":
                undone.discard(target)
            else:
                revealed.add(target)
        return frozenset(undone), frozenset(revealed)

    def _first(self, tid: str) -> TableState:
        first = self.store.events(tid, after=0, upto=1)
        if not first:
            raise StoreError(f"table {tid} has no events")
        return created(first[0])

    def _valid_snapshot(
        self, tid: str, before: int, undone: frozenset[int], viewer: Viewer = EVERYTHING
    ) -> TableState:
        """The newest snapshot below ``before`` folded with the same undone events up to its
        own seq (and, for a viewer, holding nothing hidden from them); else the first event."""
        for seq in reversed(self.store.snapshot_seqs(tid)):
            if seq >= before:
                continue
            try:
                snap = snapshot_state(self.store.snapshot(tid, seq))
            except (RulesError, KeyError, TypeError, ValueError):
                continue  # a snapshot is a cache: an unreadable one is skipped, the log rules
            if {u for u in undone if u <= seq} != {u for u in snap.undone if u <= seq}:
                continue
            if snap.sees_everything(viewer, upto=seq):
                return snap
        return self._first(tid)

    def _fetch(self, tid: str) -> Callable[[int, int], Sequence[Event]]:
        return lambda after, upto: self.store.events(tid, after=after, upto=upto)

    def _checkpoint(self, tid: str) -> Callable[[int, frozenset[int]], TableState]:
        return lambda before, undone: self._valid_snapshot(tid, before, undone)

    def view(self, ref: str, name: str | None) -> TableState:
        """The table as participant ``name`` may know it (``None``: the whole truth)."""
        full = self.load(ref)
        viewer = full.viewer(name)
        if full.sees_everything(viewer):
            return full
        key = (full.id, viewer.name, viewer.role)
        with self._lock:
            cached = self._views.get(key)
        if cached is not None and cached.seq == full.seq and cached.hash == full.hash:
            return cached
        base = self._valid_snapshot(full.id, full.seq + 1, full.undone, viewer)
        tail = self.store.events(full.id, after=base.seq)
        seen = replay(
            base, tail, undone=full.undone, revealed=full.revealed, viewer=viewer, strict=False
        )
        hidden = full.hidden_from(viewer)
        if hidden & full.undone:  # that a hidden event was taken back is hidden too
            seen = replace(seen, undone=full.undone - hidden)
        with self._lock:
            self._views[key] = seen
        return seen

    def log(
        self, ref: str, name: str | None = None, after: int = 0, limit: int | None = None
    ) -> list[JSONObject]:
        """The events after ``after`` as participant ``name`` may see them."""
        full = self.load(ref)
        viewer = full.viewer(name)
        return [
            redact(e, viewer, full.revealed, full)
            for e in self.store.events(full.id, after=after, limit=limit)
        ]

    def odds(self, ref: str, by: str, action: str, fields: JSONValue) -> Odds:
        """The exact odds of an action before it is taken, on what ``by`` may know: the
        action, the distribution of what it reports, its chance of success (``None``
        where the game's rules give the action no success or failure), and which reported
        values succeed (:meth:`~referee.systems.plan.Plan.succeeds`)."""
        return viewing.odds(self.view(ref, by), by, action, fields)

    def alternatives(self, ref: str, by: str, action: str, fields: JSONValue) -> list[Choice]:
        """The chance of an action for each answer of a choice someone else still makes
        (a target's defence: the proposal asks them), on what ``by`` may know: one
        :class:`Choice` per value of each asked field that takes a few (yes or no, a list
        of words) where the answers' chances differ (an answer that changes nothing is
        not listed); an asked field of many values is listed once with no chance. Empty
        where nobody else is asked. Refused as :meth:`odds` is."""
        return viewing.alternatives(self.view(ref, by), by, action, fields)

    def answers(self, ref: str, by: str) -> list[list[Answer]]:
        """For each decision the rules wait for that ``by`` sees (in the order of
        ``state.pending``), one :class:`Answer` per choice, with its odds where ``by``
        answers it (owns the deciding character, or referees): the choice's action taken
        by the decider with its declared defaults, refused as :meth:`odds` is (a sheet
        ``by`` may not see gives ``hidden``, never a number)."""
        return viewing.answers(self.view(ref, by), by)

    # -- subscribers -----------------------------------------------------------

    def subscribe(self, table_id: str, fn: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``fn(event)`` for every event appended to the table from now on, in seq order
        and once each - also those appended by other processes once :meth:`watch` runs.
        Returns the function that unsubscribes. (A subscriber that needs the past reads
        :meth:`log` first and skips seqs it has.)"""
        with self._lock:
            if table_id not in self._published:
                self._published[table_id] = self.store.head(table_id)[0]
            self._subscribers.setdefault(table_id, []).append(fn)

        def cancel() -> None:
            with self._lock:
                listeners = self._subscribers.get(table_id, [])
                if fn in listeners:
                    listeners.remove(fn)

        return cancel

    def deliver(self, table_id: str = "", head: int = 0) -> None:
        """Publish every event after the last one published, for one table (or, with no
        id, every table with subscribers): the hook for other processes' appends. ``head``
        (with ``table_id``): the table's last seq as the caller read it; at or below the
        last published (this process's own appends, which it published as it wrote them)
        nothing is read."""
        with self._lock:
            ids = [table_id] if table_id else list(self._subscribers)
        for tid in ids:
            with self._lock:
                if tid not in self._published:
                    continue
                after = self._published[tid]
            if table_id and 0 < head <= after:
                continue  # nothing after what was published
            for e in self.store.events(tid, after=after):
                self._publish(e)

    def _publish(self, event: Event) -> None:
        with self._lock:
            last = self._published.get(event.table)
            if last is None:
                return
            if event.seq <= last:
                return  # already delivered
            if event.seq > last + 1:
                missing = self.store.events(event.table, after=last, upto=event.seq - 1)
            else:
                missing = []
            for e in [*missing, event]:
                self._published[event.table] = e.seq
                for fn in list(self._subscribers.get(event.table, ())):
                    try:
                        fn(e)
                    except Exception:  # a broken subscriber must not stop the others
                        continue

    def watch(self) -> Callable[[], None]:
        """Start delivering other processes' appends to this process's subscribers (a
        thread: LISTEN/NOTIFY on PostgreSQL, polling on SQLite). Returns a stop function."""
        stop = threading.Event()
        thread = threading.Thread(
            target=self.store.listen, args=(self.deliver, stop), daemon=True, name="referee-watch"
        )
        thread.start()

        def halt() -> None:
            stop.set()
            thread.join(timeout=5)

        return halt

    # -- writing ---------------------------------------------------------------

    def _writer(self, tid: str) -> threading.Lock:
        """The lock this process's writers of one table take turns with (added for the web
        table, where many requests write one table at once): they queue instead of racing
        for the same seq and retrying. Writers in other processes still race optimistically."""
        with self._lock:
            lock = self._writers.get(tid)
            if lock is None:
                lock = self._writers[tid] = threading.Lock()
            return lock

    def _command(
        self,
        ref: str,
        by: str | None,
        build: Build,
        expect: int | None = None,
        actor: Callable[[TableState], str] | None = None,
    ) -> Done:
        tid = self.table(ref).id
        with self._writer(tid):
            return self._attempts(ref, tid, by, build, expect, actor)

    def _attempts(
        self,
        ref: str,
        tid: str,
        by: str | None,
        build: Build,
        expect: int | None,
        actor: Callable[[TableState], str] | None = None,
    ) -> Done:
        for attempt in range(RETRIES):
            if attempt:
                time.sleep(random.uniform(0, min(0.25, 0.002 * 2 ** min(attempt, 8))))
            # a first try writes on the cached state with no read: if another process got
            # ahead, its event holds the seq and the insert fails, and the retry loads
            with self._lock:
                ts = self._cache.get(tid) if attempt == 0 else None
            if ts is None or (expect is not None and ts.seq != expect):
                ts = self.load(tid)
            if expect is not None and ts.seq != expect:
                raise StaleTable(
                    f"table {ts.name!r} is at event {ts.seq}, not {expect}: reload and try again"
                )
            draft = build(ts)
            written = seal_new(
                tid,
                ts.seq + 1,
                now(),
                actor(ts) if actor is not None else SYSTEM_ACTOR if by is None else by,
                draft.kind,
                draft.payload,
                draft.visibility,
                draft.audience,
                draft.rolls,
                ts.hash,
            )
            event = written.event
            check_event(event, written.payload)
            try:
                after = advance(ts, event, self._fetch(tid), self._checkpoint(tid), draft.outcome)
            except LogError as e:
                raise IllegalAction(str(e).split(": ", 1)[-1]) from None
            try:
                self.store.append(written)
            except SeqTaken:
                continue
            with self._lock:
                self._cache[tid] = after
            if after.seq % self.snapshot_every == 0:
                self.store.put_snapshot(tid, after.seq, snapshot_data(after))
            self._publish(event)
            return Done(event, after)
        raise StoreError(f"table {ref!r} is too busy: {RETRIES} tries lost the race for a seq")

    def create(
        self,
        game: str,
        name: str,
        referee: str,
        *,
        options: JSONValue = None,
        seed: int | None = None,
        settings: JSONObject | None = None,
    ) -> Done:
        """A new table for ``game`` whose first participant, ``referee``, runs it;
        ``settings``: the referee's table settings from the start (:class:`~referee.table.
        state.Settings`; the defaults where left out)."""
        rules = get(game)
        name = check_name(name, "the table name")
        referee = check_name(referee, "the referee's name")
        loaded = rules.load_options(options or {})
        tid = "t" + secrets.token_hex(5)
        payload: JSONObject = {
            "game": rules.name,
            "name": name,
            "referee": referee,
            "options": rules.dump_options(loaded),
            "seed": seed,
        }
        if settings:
            payload["settings"] = settings_with(Settings(), settings).data()
        first = Event(tid, 1, now(), referee, "table-created", payload, prev_hash=GENESIS).sealed()
        check_event(first)
        ts = created(first)
        self.store.create(TableRow(tid, name, rules.name, first.time), [first])
        with self._lock:
            self._cache[tid] = ts
        return Done(first, ts)

    # participants
    # participants

    def join(self, ref: str, name: str, role: Role, *, by: str | None = None) -> Done:
        """``name`` joins with ``role`` (by the referee, or the local operator)."""
        return self._command(ref, by, running.join(name, role, by))

    def leave(self, ref: str, name: str, *, by: str | None = None) -> Done:
        """``name`` leaves (themselves, or by the referee); the last referee cannot."""
        return self._command(ref, by, running.leave(name, by))

    def set_role(self, ref: str, name: str, role: Role, *, by: str | None = None) -> Done:
        """Change ``name``'s role (by the referee)."""
        return self._command(ref, by, running.set_role(name, role, by))

    # options

    def set_options(self, ref: str, options: JSONValue, *, by: str | None = None) -> Done:
        """Replace the table's house rules (by the referee)."""
        return self._command(ref, by, running.set_options(options, by))

    def set_sheets(self, ref: str, sheets: str, *, by: str | None = None) -> Done:
        """Who sees other participants' character sheets (the referee): ``owner`` (each
        player their own), ``players`` (the players' sheets to everyone, the referee's
        own kept) or ``everyone``. A table setting, the same for every game,
        recorded as a ``sheets-shown`` event so it is audited and replayed."""
        return self._command(ref, by, running.set_sheets(sheets, by))

    def set_settings(
        self,
        ref: str,
        *,
        take_back: str | None = None,
        typed_dice: str | None = None,
        true_odds: bool | None = None,
        players_gauge: bool | None = None,
        by: str | None = None,
    ) -> Done:
        """Change how the referee runs the table (:class:`~referee.table.state.Settings`):
        the settings given change, the others stay. Recorded as a ``settings-changed``
        event, so it is audited and replayed."""
        given = {"take_back": take_back, "typed_dice": typed_dice, "true_odds": true_odds}
        given["players_gauge"] = players_gauge
        changes: JSONObject = {k: v for k, v in given.items() if v is not None}
        return self._command(ref, by, running.set_settings(changes, by))

    # characters

    def add_character(
        self,
        ref: str,
        sheet: JSONValue | str,
        *,
        owner: str | None = None,
        cid: str | None = None,
        by: str | None = None,
        force: bool = False,
        visibility: Visibility = "public",
    ) -> Done:
        """Seat a character from a sheet (JSON) or the name of one of the text's examples.

        The validator's findings travel with it; a sheet that breaks a rule is refused
        unless the referee forces it in (then it is marked with every finding)."""
        build = running.add_character(sheet, owner, cid, by, force, visibility)
        return self._command(ref, by, build)

    def update_character(
        self,
        ref: str,
        cid: str,
        sheet: JSONValue | str,
        *,
        by: str | None = None,
        force: bool = False,
    ) -> Done:
        """Replace a seated character's sheet (its owner or the referee); what the table
        tracks about it stays."""
        return self._command(ref, by, running.update_character(cid, sheet, by, force))

    def remove_character(self, ref: str, cid: str, *, by: str | None = None) -> Done:
        """Take a character off the table (the referee)."""
        return self._command(ref, by, running.remove_character(cid, by))

    # actions

    def act(
        self,
        ref: str,
        by: str | None,
        action: str,
        fields: JSONValue,
        *,
        visibility: Visibility = "public",
        faces: Sequence[int] | None = None,
        expect: int | None = None,
    ) -> Done:
        """Resolve one action of the game for participant ``by`` and record its outcome.

        A field that is another character's choice (``param(decided_by=...)``: a target's
        defence, an opponent's resisting stat) is that character's owner's to set, or the
        referee's for a character no player owns. A player who gives one a value for a
        character they do not own is refused; left at its default, the action is not
        rolled but *proposed* (an ``action-proposed`` event, every refusal checked first):
        it waits for the one who decides to answer (:meth:`decide`), and is rolled then. A
        referee's value other than the default overrides; the referee's default for a
        player's character asks that player too. A proposal of a hidden action (secret,
        blind, private) is private to who answers it and its proposer.

        An action that answers a decision a hidden event brought (an ARM roll held for
        its push after a secret roll) is as hidden as that event. Faces typed from
        physical dice follow the table's ``typed_dice`` setting: a player's wait for the
        referee's approval (a ``request-made`` event, every refusal checked first) where
        the setting asks for it."""
        build = acting.act(self, by, action, fields, visibility, faces)
        return self._command(ref, by, build, expect)

    def decide(self, ref: str, seq: int, values: JSONValue, *, by: str | None = None) -> Done:
        """Answer a proposed action (:meth:`act`): ``values`` for the fields it asks (the
        ones left out keep their defaults), by the owner of the character whose choice
        they are (the referee for one no player owns, or overriding). The action is then
        checked again on the table as it is now and rolled, as its proposer's."""
        build = acting.decide(seq, values, by)
        return self._command(ref, by, build, actor=acting.proposer(seq))

    def withdraw(self, ref: str, seq: int, *, by: str | None = None) -> Done:
        """Withdraw a proposed action that waits for a decision (its proposer or the
        referee); nothing was rolled for it."""
        return self._command(ref, by, acting.withdraw(seq, by))

    def answer(self, ref: str, seq: int, grant: bool, *, by: str | None = None) -> Done:
        """The referee's answer to a request that waits for their approval (a player's
        taking back of a drawn roll, or a roll with typed dice): granted, the undo or the
        roll is made now, checked again on the table as it is (its event names the
        request); refused, a ``request-closed`` event says so. The one who asked may
        withdraw their own request (``grant`` false)."""
        build = acting.answer(self, seq, grant, by)
        return self._command(ref, by, build, actor=acting.answerer(seq, grant, by))

    # edits, notes, taking back

    def edit(self, ref: str, changes: JSONValue, reason: str, *, by: str | None = None) -> Done:
        """A manual correction of the game state by the referee, with its reason."""
        return self._command(ref, by, running.edit(changes, reason, by))

    def note(
        self,
        ref: str,
        by: str | None,
        text: str,
        *,
        visibility: Visibility = "public",
        audience: str | None = None,
    ) -> Done:
        """A note or chat line; ``private`` ones go to ``audience`` (and the referees)."""
        return self._command(ref, by, running.note(text, by, visibility, audience))

    def undo(self, ref: str, seq: int | None = None, *, by: str | None = None) -> Done:
        """Take back an action or edit (its effect on the state; the log keeps it).

        Without ``seq``, the newest one still in effect (a player: their own, and only while
        nothing has happened since). A player's taking back follows the table's
        ``take_back`` setting: refused (``never``), a request the referee answers with one
        click (``ask``, :meth:`answer`), or at once (``always``); a roll answering the
        referee's roll request is asked for under ``always`` too (the referee's to take
        back)."""
        return self._command(ref, by, running.undo(self, seq, by))

    def redo(self, ref: str, seq: int | None = None, *, by: str | None = None) -> Done:
        """Put back an undone action or edit (the referee); without ``seq`` the newest undone."""
        return self._command(ref, by, running.redo(self, seq, by))

    def reveal(self, ref: str, seq: int, *, by: str | None = None) -> Done:
        """Show a hidden event to everyone (the referee)."""
        return self._command(ref, by, running.reveal(self, seq, by))

    # -- bestiary --

    def seat_adversaries(
        self,
        ref: str,
        entry: str,
        *,
        count: int = 1,
        name: str | None = None,
        dials: JSONObject | None = None,
        force: bool = False,
        by: str | None = None,
    ) -> Done:
        """Seat ``count`` of the bestiary's ``entry`` as the referee's characters, every
        refusal checked before the first is written (:mod:`referee.table.bestiary`); the
        last seating."""
        from referee.table.bestiary import seat

        done = seat(self, ref, entry, count=count, name=name, dials=dials, force=force, by=by)
        return done[-1]

    # -- roll requests (referee.table.requests) -----------------------------------

    def request(
        self,
        ref: str,
        action: str,
        fields: JSONValue,
        characters: list[str],
        difficulty: int | str | None = None,
        secret: bool = False,
        visibility: str = "public",
        *,
        by: str | None = None,
    ) -> Done:
        """The referee asks characters for a roll (:mod:`referee.table.requests`)."""
        from referee.table import requests

        return requests.make(
            self, ref, by, action, fields, characters, difficulty, secret, visibility
        )

    def requests(self, ref: str, by: str | None = None) -> list[JSONObject]:
        """The roll requests as ``by`` may know them (:func:`referee.table.request_views.view`)."""
        from referee.table import request_views

        return request_views.view(self, ref, by)

    def roll(
        self, ref: str, seq: int, character: str | None = None, *, by: str | None = None
    ) -> Done:
        """Roll for a roll request (:func:`referee.table.requests.answer`)."""
        from referee.table import requests

        return requests.answer(self, ref, seq, character, by)

    def recall(self, ref: str, seq: int, *, by: str | None = None) -> Done:
        """Withdraw a roll request (:func:`referee.table.requests.withdraw`)."""
        from referee.table import requests

        return requests.withdraw(self, ref, seq, by)

    # -- gauge --

    def gauge(
        self,
        ref: str,
        by: str | None = None,
        *,
        a: tuple[str, ...] | None = None,
        b: tuple[str, ...] | None = None,
        what_ifs: bool = True,
    ) -> JSONObject:
        """Who is winning the fight in progress, as participant ``by`` may be shown it
        (:func:`referee.analysis.live.viewed`: each side's chance, exact or simulated, and
        the what-ifs unless ``what_ifs`` is false); ``a`` / ``b`` name the sides; ``by``
        ``None``: the operator's (the whole table's)."""
        from referee.analysis.live import gauge, seated, viewed

        full = self.load(ref)
        if by is None:
            seated(full, a, b)
            return cast(JSONObject, gauge(full, a=a, b=b, what_ifs=what_ifs))  # JSON data
        full.role_of(by)
        view = self.view(ref, by)
        return cast(JSONObject, viewed(full, view, by, a=a, b=b, what_ifs=what_ifs))
