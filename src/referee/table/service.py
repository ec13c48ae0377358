"""Every command a table takes, by one path: authorize -> build -> resolve -> append -> publish.

:class:`TableService` is what the command line and the web call. It knows no
game: actions are built from the game's ``actions()`` and resolved by its
``Ruleset``; the state is folded by :mod:`referee.table.state`.

* Who may do what: a referee anything; a player acts for their own characters
  (never the referee's actions, never the referee's secret rolls) and adds or
  updates their own characters; an observer only reads.
* Dice: faces typed in from physical dice when given (checked against what
  the action rolls); otherwise a seeded table rolls from a seed derived from
  the table's seed and the event's seq (a playtest replays exactly), a live
  table from the operating system's secure generator.
* Appends are optimistic: a writer that loses the race for a seq re-reads the
  table and resolves its command again against the new state; a caller that
  gives ``expect`` (the seq it last saw) gets :class:`StaleTable` instead.
* Reading is redacted per viewer (:func:`redact`): a player's log and state
  never hold what they may not see.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import threading
import time
import typing
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any, Final, Literal, cast

from referee.dice.odds import Distribution
from referee.dice.roller import ManualRoller, Roller, SeededRoller, SystemRoller
from referee.dice.rolling import check_faces_for
from referee.errors import DiceError, IllegalAction, RulesError
from referee.systems.base import (
    Action,
    JSONObject,
    JSONValue,
    Outcome,
    get,
    jsonable,
    outcome_data,
    problem_data,
    slug,
)
from referee.systems.words import names_in
from referee.table.events import (
    GENESIS,
    SYSTEM_ACTOR,
    UNDOABLE,
    Event,
    Kind,
    LogError,
    Visibility,
    check_event,
    seal_new,
)
from referee.table.hidden import HiddenOdds as HiddenOdds
from referee.table.hidden import hidden_odds
from referee.table.lru import LRU
from referee.table.names import MAX_NAME as MAX_NAME
from referee.table.names import check_name as check_name
from referee.table.names import look_alike
from referee.table.state import (
    EVERYTHING,
    ROLES,
    SHEET_KINDS,
    Role,
    Settings,
    SheetsShown,
    TableState,
    Viewer,
    advance,
    can_see,
    created,
    replay,
    settings_with,
    sheets_setting,
    snapshot_data,
    snapshot_state,
)
from referee.table.store import SeqTaken, Store, StoreError, TableRow

"""The longest participant, character or table name."""

MAX_NOTE = 4000
"""The longest note or chat message."""

CACHED_TABLES = 1000
"""Tables whose folded state a service keeps in memory, the most recently used (each
participant's view of them too, up to four times as many); others are read again."""

RETRIES = 200
"""How many times a command that lost the race for a seq is tried again (with a random
back-off that grows each time, so busy writers spread out instead of colliding again)."""


_STRICTNESS: Final[dict[str, int]] = {
    "public": 0,
    "private": 1,
    "blind": 2,
    "referee": 3,
    "self": 4,
}
"""How few see an event of each visibility (more: fewer)."""


ASKS_THE_REFEREE: Final = ""
"""In a proposal's ``ask``, the character a field is asked of when it is the referee's own
value to give (the GM's modifier a player proposed): nobody's but the referee's."""


class Forbidden(RulesError):
    """The participant may not do this (the message says who may)."""


class StaleTable(RulesError):
    """The table moved on since the seq the caller expected."""


def derived_seed(seed: int, seq: int) -> int:
    """The seed of event ``seq`` at a table seeded with ``seed`` (independent of other events)."""
    digest = hashlib.sha256(f"{seed}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


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
class Choice:
    """One answer of a choice someone else makes before an action is rolled, with the
    action's chance of success if they give it (``value`` ``None``: a field of too many
    values to list; ``chance`` ``None``: no success or failure, or not listed)."""

    field: str
    who: str
    value: JSONValue
    chance: Fraction | None


@dataclass(frozen=True)
class Answer:
    """One answer of a decision the rules wait for (:class:`~referee.systems.state.Decision`),
    as one participant may know it: the action its ``actor`` takes with it, and that
    action's exact odds from the same plan as its roll (``odds`` and ``chance``, the
    plan's chance of success: ``None`` where it has none), or ``hidden`` (why there is no
    number: the sheet it reads is kept from the participant), or neither where the
    participant does not answer it."""

    actor: str
    action: str
    odds: Distribution[Hashable] | None = None
    chance: Fraction | None = None
    hidden: str | None = None


def _few_values(kind: type, name: str) -> tuple[object, ...]:
    """The values of an action's field worth listing one by one: yes and no, or a
    ``Literal`` of at most eight words; otherwise none."""
    hint = typing.get_type_hints(kind).get(name)
    if hint is bool:
        return (False, True)
    if typing.get_origin(hint) is Literal and len(typing.get_args(hint)) <= 8:
        return typing.get_args(hint)
    return ()


@dataclass(frozen=True)
class Done:
    """What a command did: the event appended and the table after it (the whole truth)."""

    event: Event
    table: TableState


Built = tuple[Kind, JSONObject, Visibility, str | None, list[JSONObject]]
"""What a command's build makes of the table: the event's kind, payload, visibility,
audience and rolls."""

Resolved = tuple[Kind, JSONObject, Visibility, str | None, list[JSONObject], Outcome]
"""A built ``action-resolved`` event and the :class:`Outcome` its payload renders (the
fold applies it as it is instead of reading it back from the payload)."""

Build = Callable[[TableState], Built | Resolved]


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

    def odds(
        self, ref: str, by: str, action: str, fields: JSONValue
    ) -> tuple[Action, Distribution[Hashable], Fraction | None, Callable[[Hashable], bool | None]]:
        """The exact odds of an action before it is taken, on what ``by`` may know: the
        action, the distribution of what it reports, its chance of success (``None``
        where the game's rules give the action no success or failure), and which reported
        values succeed (:meth:`~referee.systems.plan.Plan.succeeds`)."""
        seen = self.view(ref, by)
        role = seen.role_of(by)
        rules = seen.ruleset
        chosen = rules.load_action(action, fields)
        if role != "referee" and not chosen.free:  # the dice tray's odds: anyone's
            self._may_act(seen, by, chosen)
        hidden = [] if seen.settings.true_odds else self._hidden_sheets(seen, by, chosen)
        read = set(rules.sheets_read(chosen, seen.options))
        sheets = [cid for cid in hidden if cid in read]
        if sheets:
            unknown = rules.unknown(chosen, seen.state, seen.options) if len(sheets) == 1 else None
            if unknown is not None and unknown.character != sheets[0]:
                unknown = None
            raise hidden_odds(_names(seen, sheets), unknown)
        try:
            plan = rules.planned(chosen, seen.state, seen.options)
        except (IllegalAction, DiceError) as e:
            if not hidden:
                raise
            raise IllegalAction(_sheet_refusal(seen, hidden)) from e  # quoting none of it
        return chosen, plan.odds(), plan.chance(), plan.succeeds

    def alternatives(self, ref: str, by: str, action: str, fields: JSONValue) -> list[Choice]:
        """The chance of an action for each answer of a choice someone else still makes
        (a target's defence: the proposal asks them), on what ``by`` may know: one
        :class:`Choice` per value of each asked field that takes a few (yes or no, a list
        of words) where the answers' chances differ (an answer that changes nothing is
        not listed); an asked field of many values is listed once with no chance. Empty
        where nobody else is asked. Refused as :meth:`odds` is."""
        self.odds(ref, by, action, fields)  # every refusal of the odds, first
        seen = self.view(ref, by)
        rules = seen.ruleset
        chosen = rules.load_action(action, fields)
        out: list[Choice] = []
        for name, cid in self._asked(seen, by, chosen).items():
            if "." in name:
                continue
            who = _names(seen, [cid]) if cid in seen.state.characters else "the referee"
            values = _few_values(type(chosen), name)
            if not values:
                out.append(Choice(name, who, None, None))
                continue
            answers: list[Choice] = []
            for value in values:
                try:
                    other = replace(chosen, **{name: value})
                    chance = rules.planned(other, seen.state, seen.options).chance()
                except (IllegalAction, RulesError):
                    continue  # not a choice the rules allow now
                answers.append(Choice(name, who, cast(JSONValue, value), chance))
            if len({c.chance for c in answers}) > 1:  # listed where the answer matters
                out += answers
        return out

    def answers(self, ref: str, by: str) -> list[list[Answer]]:
        """For each decision the rules wait for that ``by`` sees (in the order of
        ``state.pending``), one :class:`Answer` per choice, with its odds where ``by``
        answers it (owns the deciding character, or referees): the choice's action taken
        by the decider with its declared defaults, refused as :meth:`odds` is (a sheet
        ``by`` may not see gives ``hidden``, never a number)."""
        seen = self.view(ref, by)
        out: list[list[Answer]] = []
        for decision in seen.state.pending:
            row: list[Answer] = []
            for choice in decision.choices:
                fields: JSONObject = {"actor": decision.actor}
                try:
                    _, dist, chance, _ = self.odds(ref, by, choice, fields)
                except HiddenOdds as e:
                    row.append(Answer(decision.actor, choice, hidden=str(e)))
                    continue
                except RulesError:  # not theirs to answer, or not a choice the rules allow now
                    row.append(Answer(decision.actor, choice))
                    continue
                row.append(Answer(decision.actor, choice, dist, chance))
            out.append(row)
        return out

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

    def deliver(self, table_id: str = "", _seq: int = 0) -> None:
        """Publish every event after the last one published, for one table (or, with no
        id, every table with subscribers): the hook for other processes' appends."""
        with self._lock:
            ids = [table_id] if table_id else list(self._subscribers)
        for tid in ids:
            with self._lock:
                if tid not in self._published:
                    continue
                after = self._published[tid]
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
            built = build(ts)
            kind, payload, visibility, audience, rolls = built[:5]
            outcome = built[5] if len(built) == 6 else None
            written = seal_new(
                tid,
                ts.seq + 1,
                now(),
                actor(ts) if actor is not None else SYSTEM_ACTOR if by is None else by,
                kind,
                payload,
                visibility,
                audience,
                tuple(rolls),
                ts.hash,
            )
            event = written.event
            check_event(event, written.payload)
            try:
                after = advance(ts, event, self._fetch(tid), self._checkpoint(tid), outcome)
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

    def join(self, ref: str, name: str, role: Role, *, by: str | None = None) -> Done:
        """``name`` joins with ``role`` (by the referee, or the local operator)."""
        name = check_name(name, "the participant's name")
        _role(role)

        def build(ts: TableState) -> Any:
            self._referee(ts, by, "add participants")
            if name in ts.participants:
                raise RulesError(
                    f"{name!r} is already at table {ts.name!r} ({ts.participants[name]})"
                )
            alike = look_alike(name, ts.participants)
            if alike is not None:
                raise RulesError(
                    f"{name!r} looks like {alike!r}, already at table {ts.name!r}: choose a "
                    "name the others can tell apart"
                )
            return "participant-joined", {"name": name, "role": role}, "public", None, []

        return self._command(ref, by, build)

    def leave(self, ref: str, name: str, *, by: str | None = None) -> Done:
        """``name`` leaves (themselves, or by the referee); the last referee cannot."""

        def build(ts: TableState) -> Any:
            ts.role_of(name)
            if by != name:
                self._referee(ts, by, "remove participants")
            self._keeps_a_referee(ts, name, None)
            return "participant-left", {"name": name}, "public", None, []

        return self._command(ref, by, build)

    def set_role(self, ref: str, name: str, role: Role, *, by: str | None = None) -> Done:
        """Change ``name``'s role (by the referee)."""
        _role(role)

        def build(ts: TableState) -> Any:
            self._referee(ts, by, "change roles")
            ts.role_of(name)
            self._keeps_a_referee(ts, name, role)
            return "role-changed", {"name": name, "role": role}, "public", None, []

        return self._command(ref, by, build)

    # options

    def set_options(self, ref: str, options: JSONValue, *, by: str | None = None) -> Done:
        """Replace the table's house rules (by the referee)."""

        def build(ts: TableState) -> Any:
            self._referee(ts, by, "change the house rules")
            loaded = ts.ruleset.load_options(options)
            return (
                "options-changed",
                {"options": ts.ruleset.dump_options(loaded)},
                "public",
                None,
                [],
            )

        return self._command(ref, by, build)

    def set_sheets(self, ref: str, sheets: str, *, by: str | None = None) -> Done:
        """Who sees other participants' character sheets (the referee): ``owner`` (each
        player their own) or ``everyone``. A table setting, the same for every game,
        recorded as a ``sheets-shown`` event so it is audited and replayed."""
        chosen: SheetsShown = sheets_setting(sheets.strip().lower())

        def build(ts: TableState) -> Any:
            self._referee(ts, by, "choose who sees the sheets")
            return "sheets-shown", {"sheets": chosen}, "public", None, []

        return self._command(ref, by, build)

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

        def build(ts: TableState) -> Any:
            self._referee(ts, by, "change the table's settings")
            settings_with(ts.settings, changes)  # refused before anything is written
            now = ts.settings.data()
            changed = {k: v for k, v in changes.items() if now.get(k) != v}
            if not changed:
                raise RulesError("the table's settings are already so: nothing changes")
            return "settings-changed", {"settings": changed}, "public", None, []

        return self._command(ref, by, build)

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

        def build(ts: TableState) -> Any:
            shown = self._visibility(ts, by, visibility, tray=False)
            data, loaded = _sheet(ts, sheet)
            new_id = check_name(
                cid or slug(str(getattr(loaded, "name", "")) or "character"), "the id"
            )
            if shown == "private" and by is None:
                shown = "referee"  # the operator's private seating: the referees'
            if shown != "public":
                # an id nobody can guess: choosing the same id must not find a secret one
                new_id = f"{new_id[: MAX_NAME - 7]}-{secrets.token_hex(3)}"
            if new_id in ts.state.characters:
                raise RulesError(f"table {ts.name!r} already has a character {new_id!r}")
            who = self._owner_for(ts, by, owner)
            problems = ts.ruleset.validate(loaded, ts.options, ts.state)
            self._allow_findings(ts, by, problems, force)
            payload: JSONObject = {
                "id": new_id,
                "owner": who,
                "sheet": data,
                "problems": [problem_data(p) for p in problems],
                "forced": bool(problems),
            }
            return "character-added", payload, shown, by if shown == "private" else None, []

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

        def build(ts: TableState) -> Any:
            self._active(ts, by)
            ts.state.character(cid)
            self._owns_or_referee(ts, by, cid, "update")
            data, loaded = _sheet(ts, sheet)
            problems = ts.ruleset.validate(loaded, ts.options, ts.state)
            self._allow_findings(ts, by, problems, force)
            payload: JSONObject = {
                "id": cid,
                "owner": ts.owners.get(cid),
                "sheet": data,
                "problems": [problem_data(p) for p in problems],
                "forced": bool(problems),
            }
            return "character-updated", payload, "public", None, []

        return self._command(ref, by, build)

    def remove_character(self, ref: str, cid: str, *, by: str | None = None) -> Done:
        """Take a character off the table (the referee)."""

        def build(ts: TableState) -> Any:
            self._referee(ts, by, "remove characters")
            ts.state.character(cid)
            return "character-removed", {"id": cid}, "public", None, []

        return self._command(ref, by, build)

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

        def build(ts: TableState) -> Any:
            rules = ts.ruleset
            chosen = rules.load_action(action, fields)
            role = self._active(ts, by)
            if role != "referee":
                assert by is not None
                self._may_act(ts, by, chosen)
            shown = self._visibility(ts, by, visibility, tray=chosen.free)
            shown, audience = self._inherited(ts, chosen, shown, by)
            seen = self._partial_view(ts, by)
            typed = self._typed(ts, by, faces)
            sheets = self._hidden_sheets(ts, by, chosen)
            try:
                if seen is not None:
                    # a player who cannot see everything is refused on what they know, and
                    # a refusal only the hidden events explain names none of them
                    self._refusals(seen, chosen, shown, by, None if typed else faces)
            except (IllegalAction, DiceError) as e:
                if not sheets:
                    raise
                raise IllegalAction(_sheet_refusal(ts, sheets)) from e
            try:
                if typed:  # everything that refuses it, before it waits for the referee
                    self._refusals(ts, chosen, shown, by, faces)
                    return self._dice_request(ts, by, chosen, shown, faces)
                self._blind(ts, chosen, shown)
                return self._decided(ts, by, chosen, shown, audience, faces, None)
            except (IllegalAction, DiceError) as e:
                if sheets and not isinstance(e, DiceError):  # the truth's reason may quote
                    # a sheet they may not see (how many dice a roll takes, the log shows)
                    raise IllegalAction(_sheet_refusal(ts, sheets)) from e
                if seen is None:
                    raise
                raise IllegalAction(
                    "this cannot be done now, for a reason you cannot see (something happened "
                    "out of your sight): ask the referee"
                ) from e

        return self._command(ref, by, build, expect)

    def _hidden_sheets(self, ts: TableState, by: str | None, chosen: Action) -> list[str]:
        """The characters ``chosen`` involves whose sheets ``by`` may not see."""
        if by is None or ts.sheets == "everyone":
            return []
        viewer = ts.viewer(by)
        if viewer.sees_all:
            return []
        return [
            cid
            for cid in chosen.characters()
            if cid in ts.state.characters and not ts.sees_sheet(viewer, cid)
        ]

    def _refusals(
        self,
        ts: TableState,
        chosen: Action,
        shown: Visibility,
        by: str | None,
        faces: Sequence[int] | None,
    ) -> None:
        """Everything that refuses ``chosen`` on the table ``ts`` (a participant's view or
        the whole truth), before any die: the rules now, a blind roll that would wait for a
        decision its roller cannot see, typed faces that do not fit its dice."""
        self._blind(ts, chosen, shown)
        rules = ts.ruleset
        plan = rules.planned(chosen, ts.state, ts.options)
        if faces is None:
            return
        if self._asked(ts, by, chosen):
            need = sum(c for c, _ in plan.dice)  # physical dice: at least those it rolls first
            check_faces_for(plan.dice, list(faces)[:need] if len(faces) > need else faces)
            return
        typed = ManualRoller(faces)  # the faces tried as they will be used: no die is drawn
        rules.resolve(chosen, ts.state, typed, ts.options)
        if typed.remaining:
            left = list(typed.remaining)
            raise DiceError(f"{len(left)} face(s) more than this action rolls: {left}")

    def _blind(self, ts: TableState, chosen: Action, shown: Visibility) -> None:
        """Refuse a blind roll that would wait for a decision its roller cannot see."""
        if shown == "blind" and ts.ruleset.waits_for_roller(chosen, ts.state, ts.options):
            raise IllegalAction(
                "a blind roll cannot wait for a decision its roller cannot see (an ARM push "
                "after the roll): decide before rolling (push always, if-needed or never)"
            )

    def _typed(self, ts: TableState, by: str | None, faces: Sequence[int] | None) -> bool:
        """Whether ``by``'s typed ``faces`` wait for the referee's approval (the table's
        ``typed_dice``); refused where the table does not let them type dice at all."""
        if faces is None or by is None or ts.role_of(by) == "referee":
            return False
        setting = ts.settings.typed_dice
        if setting == "referee":
            raise Forbidden(
                "at this table only the referee enters physical dice (the referee's Fair play "
                "settings); roll here, or ask the referee"
            )
        return setting == "approval"

    def _dice_request(
        self,
        ts: TableState,
        by: str | None,
        chosen: Action,
        shown: Visibility,
        faces: Sequence[int] | None,
    ) -> Built:
        """A roll with typed dice that waits for the referee's approval (:meth:`answer`):
        seen by everyone for a public roll, else by its roller and the referees."""
        rules = ts.ruleset
        payload: JSONObject = {
            "what": "dice",
            "action": rules.action_name(chosen),
            "fields": rules.action_data(chosen),
            "faces": list(faces or ()),
            "visibility": shown,
        }
        if shown == "public":
            return "request-made", payload, "public", None, []
        return "request-made", payload, "private", by, []

    def _decided(
        self,
        ts: TableState,
        by: str | None,
        chosen: Action,
        shown: Visibility,
        audience: str | None,
        faces: Sequence[int] | None,
        extra: JSONObject | None,
    ) -> Built | Resolved:
        """``chosen``, checked, as the event it makes: proposed where it asks someone else's
        decision, else rolled."""
        rules = ts.ruleset
        asked = self._asked(ts, by, chosen)
        if asked:
            plan = rules.planned(chosen, ts.state, ts.options)  # what refuses it, now
            if faces is not None:  # physical dice: at least those it rolls first
                need = sum(c for c, _ in plan.dice)
                check_faces_for(plan.dice, list(faces)[:need] if len(faces) > need else faces)
            proposal: JSONObject = {
                "action": rules.action_name(chosen),
                "fields": rules.action_data(chosen),
                "ask": cast(JSONObject, asked),
                "system": rules.name,  # whose words it reads in
                "visibility": shown,
                "faces": list(faces) if faces is not None else None,
                **(extra or {}),
            }
            said = names_in(ts.state.characters, proposal["fields"], proposal["ask"])
            if said:
                proposal["names"] = cast(JSONObject, said)
            if shown == "public":
                return "action-proposed", proposal, "public", None, []
            # a hidden action is shown to who answers it (and its proposer), no one else
            answers = ts.owners.get(next(iter(asked.values())))
            return "action-proposed", proposal, "private", answers or by, []
        return self._resolution(ts, chosen, faces, shown, by, extra, audience)

    def _inherited(
        self, ts: TableState, chosen: Action, shown: Visibility, by: str | None
    ) -> tuple[Visibility, str | None]:
        """The visibility (and a private event's audience) of an action that may answer a
        decision a hidden event brought (:attr:`TableState.causes`): the stricter of the
        one chosen and the cause's, so the answer reveals nothing its cause hid."""
        audience = by if shown == "private" else None
        if not ts.causes or chosen.free:
            return shown, audience
        name = ts.ruleset.action_name(chosen)
        actors = chosen.actors()
        for decision, (vis, aud) in ts.causes.items():
            if name not in decision.choices or (actors and decision.actor not in actors):
                continue
            if _STRICTNESS[vis] > _STRICTNESS[shown]:
                return vis, aud
            if vis == shown == "private" and aud != audience:
                return "referee", None  # two audiences: only the referees see both
        return shown, audience

    def _partial_view(self, ts: TableState, by: str | None) -> TableState | None:
        """``by``'s view of the table when it is not the whole truth (a player or observer
        from whom some event is hidden), else None."""
        if by is None:
            return None
        viewer = ts.viewer(by)
        if ts.sees_everything(viewer):
            return None
        return self.view(ts.id, by)

    def _resolution(
        self,
        ts: TableState,
        chosen: Action,
        faces: Sequence[int] | None,
        shown: Visibility,
        actor: str | None,
        extra: JSONObject | None = None,
        audience: str | None = None,
    ) -> Built | Resolved:
        """Draw the dice of an action that nothing refuses any more, and its event.

        Should the rules still refuse it once the server has drawn dice for it (a game's
        refusal that its plan did not make first), the draw is not lost: an
        ``action-failed`` event records the action, the refusal and every die drawn, so
        nobody can roll again until the dice please them (faces entered by hand are the
        caller's own input: refused, not logged)."""
        rules = ts.ruleset
        roller = self._roller(ts, faces)
        if shown == "private" and audience is None:
            audience = actor
        if shown == "private" and audience is None:
            shown = "referee"  # the operator's private roll: nobody's but the referees'
        try:
            outcome = rules.resolve(chosen, ts.state, roller, ts.options)
        except RulesError as e:
            drawn = list(roller.records)
            if faces is not None or not drawn:
                raise
            failed: JSONObject = {
                "action": rules.action_name(chosen),
                "fields": rules.action_data(chosen),
                "error": str(e),
                **(extra or {}),
            }
            records = [cast(JSONObject, jsonable(r.to_dict())) for r in drawn]
            return "action-failed", failed, shown, audience, records
        left = getattr(roller, "remaining", ())
        if faces is not None and left:
            raise DiceError(f"{len(left)} face(s) more than this action rolls: {list(left)}")
        data = outcome_data(outcome)
        payload: JSONObject = {
            "action": rules.action_name(chosen),
            "fields": rules.action_data(chosen),
            "outcome": data,
            **(extra or {}),
        }
        said = names_in(ts.state.characters, payload["fields"], data["changes"], data["details"])
        if said:  # the characters it names, by name: it reads the same wherever it is shown
            payload["names"] = cast(JSONObject, said)
        rolls = [cast(JSONObject, r.to_dict()) for r in outcome.rolls]  # JSON already
        return "action-resolved", payload, shown, audience, rolls, outcome

    def _asked(self, ts: TableState, by: str | None, chosen: Action) -> dict[str, str]:
        """The fields of ``chosen`` that wait for someone else's decision (field -> the
        character whose choice it is); refuses a player's value for another's choice."""
        if by is None:
            return {}  # the system (a script, the command line without --as) decides all
        referee = ts.role_of(by) == "referee"
        asked: dict[str, str] = {}
        if not referee:
            for path, ids in chosen.nested_choices().items():
                for cid in ids:
                    if ts.owners.get(cid) != by:
                        raise Forbidden(
                            f"{path.replace('.', ' ').replace('_', ' ')} is "
                            f"{_names(ts, [cid]) if cid in ts.state.characters else cid}'s "
                            "choice: only their owner or the referee sets it (leave it out: "
                            "their own default applies)"
                        )
            for name in chosen.referee_fields():
                asked[name] = ASKS_THE_REFEREE  # the GM's value: the referee approves it
        for name, (ids, given) in chosen.deciders().items():
            for cid in ids:
                owner = ts.owners.get(cid)
                if owner == by or (referee and (given or owner is None)):
                    continue
                if given:
                    raise Forbidden(
                        f"{name} is {cid!r}'s choice: only their owner or the referee sets it "
                        "(leave it out, and they are asked)"
                    )
                asked.setdefault(name, cid)
        return asked

    def decide(self, ref: str, seq: int, values: JSONValue, *, by: str | None = None) -> Done:
        """Answer a proposed action (:meth:`act`): ``values`` for the fields it asks (the
        ones left out keep their defaults), by the owner of the character whose choice
        they are (the referee for one no player owns, or overriding). The action is then
        checked again on the table as it is now and rolled, as its proposer's."""
        if not isinstance(values, dict):
            raise RulesError("a decision is an object of the asked fields and their values")

        def build(ts: TableState) -> Any:
            role = self._active(ts, by)
            found = ts.proposals.get(seq)
            if found is None:
                raise RulesError(f"no action waits for a decision at event {seq}")
            ask = found.get("ask")
            ask = ask if isinstance(ask, dict) else {}
            unknown = sorted(k for k in values if k not in ask)
            if unknown:
                raise RulesError(f"event {seq} asks {', '.join(ask)}; not {', '.join(unknown)}")
            if role != "referee":
                for name, cid in ask.items():
                    if ts.owners.get(str(cid)) != by:
                        raise Forbidden(f"{name} is {cid!r}'s choice: their owner decides it")
            rules = ts.ruleset
            fields = found.get("fields")
            merged = {**(fields if isinstance(fields, dict) else {}), **values}
            chosen = rules.load_action(str(found.get("action")), merged)
            proposer = str(found.get("by"))
            if ts.participants.get(proposer) not in (None, "referee"):
                self._may_act(ts, proposer, chosen)  # still their character, still a player
            faces = found.get("faces")
            shown = found.get("visibility")
            return self._resolution(
                ts,
                chosen,
                [f for f in faces if isinstance(f, int)] if isinstance(faces, list) else None,
                shown if shown in ("public", "referee", "blind", "private", "self") else "public",
                proposer,
                {"proposal": seq, "decided_by": by if by is not None else SYSTEM_ACTOR},
            )

        return self._command(ref, by, build, actor=lambda ts: str(ts.proposals[seq].get("by")))

    def withdraw(self, ref: str, seq: int, *, by: str | None = None) -> Done:
        """Withdraw a proposed action that waits for a decision (its proposer or the
        referee); nothing was rolled for it."""

        def build(ts: TableState) -> Any:
            role = self._active(ts, by)
            found = ts.proposals.get(seq)
            if found is None:
                raise RulesError(f"no action waits for a decision at event {seq}")
            if role != "referee" and found.get("by") != by:
                raise Forbidden("only who proposed it, or the referee, withdraws it")
            return "proposal-closed", {"seq": seq, "withdrawn": True}, "public", None, []

        return self._command(ref, by, build)

    def answer(self, ref: str, seq: int, grant: bool, *, by: str | None = None) -> Done:
        """The referee's answer to a request that waits for their approval (a player's
        taking back of a drawn roll, or a roll with typed dice): granted, the undo or the
        roll is made now, checked again on the table as it is (its event names the
        request); refused, a ``request-closed`` event says so. The one who asked may
        withdraw their own request (``grant`` false)."""

        def build(ts: TableState) -> Any:
            role = self._active(ts, by)
            found = ts.requests.get(seq)
            if found is None:
                raise RulesError(f"no request waits for the referee at event {seq}")
            asker = str(found.get("by"))
            if role != "referee" and not (by == asker and not grant):
                raise Forbidden("only the referee answers a request (its asker may withdraw it)")
            if grant and asker not in ts.participants:
                raise RulesError(f"{asker} has left the table: their request can only be refused")
            if grant:
                self._active(ts, asker)  # a player made an observer since asks no more
            if not grant:
                closed: JSONObject = {"request": seq, "granted": False}
                if by == asker:
                    closed["withdrawn"] = True
                return "request-closed", closed, "public", None, []
            if found.get("what") == "undo":
                target = found.get("seq")
                if not isinstance(target, int) or target in ts.undone:
                    raise RulesError(f"event {target} is already undone")
                events = self.store.events(ts.id, after=target - 1, upto=target)
                shown_undo, audience_undo = _as_hidden_as(events[0])
                undo: JSONObject = {"seq": target, "request": seq}
                return "undo", undo, shown_undo, audience_undo, []
            rules = ts.ruleset
            chosen = rules.load_action(str(found.get("action")), found.get("fields"))
            if ts.participants.get(asker) not in (None, "referee"):
                self._may_act(ts, asker, chosen)  # still their character, still a player
            raw = found.get("visibility")
            shown: Visibility = (
                raw if raw in ("public", "blind", "private", "referee") else "public"
            )
            shown, audience = self._inherited(ts, chosen, shown, asker)
            faces = found.get("faces")
            typed = [f for f in faces if isinstance(f, int)] if isinstance(faces, list) else []
            self._refusals(ts, chosen, shown, asker, typed)
            extra: JSONObject = {"request": seq, "approved_by": by or SYSTEM_ACTOR}
            return self._decided(ts, asker, chosen, shown, audience, typed, extra)

        def actor(ts: TableState) -> str:
            found = ts.requests.get(seq, {})
            dice = found.get("what") == "dice" and grant
            return str(found.get("by")) if dice else by or SYSTEM_ACTOR

        return self._command(ref, by, build, actor=actor)

    def _roller(self, ts: TableState, faces: Sequence[int] | None) -> Roller:
        if faces is not None:
            return ManualRoller(faces)
        if ts.seed is not None:
            return SeededRoller(derived_seed(ts.seed, ts.seq + 1))
        return SystemRoller()

    def edit(self, ref: str, changes: JSONValue, reason: str, *, by: str | None = None) -> Done:
        """A manual correction of the game state by the referee, with its reason."""
        reason = reason.strip()
        if not reason:
            raise RulesError("a manual edit needs a reason")
        if not isinstance(changes, list) or not changes:
            raise RulesError("an edit is a non-empty list of changes")

        def build(ts: TableState) -> Any:
            self._referee(ts, by, "edit the state")
            clean = [_change_data(c, i) for i, c in enumerate(changes)]
            edited: JSONObject = {
                "changes": clean,
                "reason": reason[:MAX_NOTE],
                "system": ts.ruleset.name,  # whose words the changes read in
            }
            said = names_in(ts.state.characters, [c.get("target") for c in clean])
            if said:
                edited["names"] = cast(JSONObject, said)
            return (
                "state-edited",
                edited,
                "public",
                None,
                [],
            )

        return self._command(ref, by, build)

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
        body = text.strip()
        if not body:
            raise RulesError("the note is empty")
        if len(body) > MAX_NOTE:
            raise RulesError(f"the note is longer than {MAX_NOTE} characters")

        def build(ts: TableState) -> Any:
            if by is not None and ts.role_of(by) == "observer":
                raise Forbidden("an observer only reads")
            shown = self._visibility(ts, by, visibility)
            to = None
            if shown == "private":
                to = audience or by
                if to is None:
                    raise RulesError("a private note names who it is for")
                ts.role_of(to)
            return "note", {"text": body}, shown, to, []

        return self._command(ref, by, build)

    def undo(self, ref: str, seq: int | None = None, *, by: str | None = None) -> Done:
        """Take back an action or edit (its effect on the state; the log keeps it).

        Without ``seq``, the newest one still in effect (a player: their own, and only while
        nothing has happened since). A player's taking back follows the table's
        ``take_back`` setting: refused (``never``), a request the referee answers with one
        click (``ask``, :meth:`answer`), or at once (``always``)."""

        def build(ts: TableState) -> Any:
            role = self._active(ts, by)
            events = self.store.events(ts.id)
            target = self._undo_target(ts, events, seq, by)
            shown, audience = _as_hidden_as(events[target - 1])
            if role == "referee" or ts.settings.take_back == "always":
                return "undo", {"seq": target}, shown, audience, []
            if ts.settings.take_back == "never":
                raise Forbidden(
                    "at this table a drawn roll is not taken back (the referee's Fair play "
                    "settings); ask the referee"
                )
            if any(
                r.get("what") == "undo" and r.get("seq") == target for r in ts.requests.values()
            ):
                raise RulesError(f"taking back event {target} already waits for the referee")
            return "request-made", {"what": "undo", "seq": target}, shown, audience, []

        return self._command(ref, by, build)

    def _undo_target(
        self, ts: TableState, events: list[Event], seq: int | None, by: str | None
    ) -> int:
        referee = by is None or ts.role_of(by) == "referee"
        live = [e for e in events if e.kind in UNDOABLE and e.seq not in ts.undone]
        if seq is None:
            mine = live if referee else [e for e in live if e.actor == by]
            if not mine:
                raise RulesError("nothing to undo")
            seq = mine[-1].seq
        if not 1 <= seq <= len(events):
            raise RulesError(f"no event {seq} at table {ts.name!r}")
        target = events[seq - 1]
        refused = Forbidden("a player undoes only their own newest action; ask the referee")
        if not referee and target.actor != by:
            raise refused  # before anything about the event: it may be hidden from them
        if target.kind not in UNDOABLE:
            raise RulesError(f"event {seq} is a {target.kind}: only actions and edits are undone")
        if seq in ts.undone:
            raise RulesError(f"event {seq} is already undone")
        if not referee and [e for e in live if e.seq > seq]:
            raise refused
        return seq

    def redo(self, ref: str, seq: int | None = None, *, by: str | None = None) -> Done:
        """Put back an undone action or edit (the referee); without ``seq`` the newest undone."""

        def build(ts: TableState) -> Any:
            self._referee(ts, by, "redo")
            if not ts.undone:
                raise RulesError("nothing is undone")
            target = max(ts.undone) if seq is None else seq
            if target not in ts.undone:
                raise RulesError(f"event {target} is not undone")
            found = self.store.events(ts.id, after=target - 1, upto=target)
            shown, audience = _as_hidden_as(found[0]) if found else ("public", None)
            return "redo", {"seq": target}, shown, audience, []

        return self._command(ref, by, build)

    def reveal(self, ref: str, seq: int, *, by: str | None = None) -> Done:
        """Show a hidden event to everyone (the referee)."""

        def build(ts: TableState) -> Any:
            self._referee(ts, by, "reveal hidden events")
            found = self.store.events(ts.id, after=seq - 1, upto=seq)
            if not found:
                raise RulesError(f"no event {seq} at table {ts.name!r}")
            if found[0].visibility == "public" or seq in ts.revealed:
                raise RulesError(f"event {seq} is already public")
            return "reveal", {"seq": seq}, "public", None, []

        return self._command(ref, by, build)

    # -- who may ---------------------------------------------------------------

    def _referee(self, ts: TableState, by: str | None, what: str) -> None:
        if by is not None and ts.role_of(by) != "referee":
            raise Forbidden(f"only the referee may {what}")

    def _keeps_a_referee(self, ts: TableState, name: str, role: Role | None) -> None:
        referees = [n for n, r in ts.participants.items() if r == "referee"]
        if referees == [name] and role != "referee":
            raise RulesError(f"{name!r} is the table's only referee")

    def _may_act(self, ts: TableState, by: str, action: Action) -> None:
        role = ts.role_of(by)
        if role == "observer":
            raise Forbidden("an observer only reads")
        if role == "referee":
            return
        name = ts.ruleset.action_name(action)
        actors = action.actors()
        if action.free:
            return  # the dice tray: anyone at the table rolls it
        if action.referee_only or not actors:
            raise Forbidden(f"{name} is the referee's action")
        for cid in actors:
            ts.state.character(cid)
            if ts.owners.get(cid) != by:
                raise Forbidden(f"{cid!r} is not {by}'s character")

    def _owns_or_referee(self, ts: TableState, by: str | None, cid: str, what: str) -> None:
        if by is None or ts.role_of(by) == "referee":
            return
        if ts.owners.get(cid) != by:
            raise Forbidden(f"only {cid!r}'s owner or the referee may {what} it")

    def _owner_for(self, ts: TableState, by: str | None, owner: str | None) -> str | None:
        if owner is not None:
            ts.role_of(owner)
        if by is None or ts.role_of(by) == "referee":
            return owner
        if ts.role_of(by) == "observer":
            raise Forbidden("an observer only reads")
        if owner not in (None, by):
            raise Forbidden("a player adds characters for themselves")
        return by

    def _allow_findings(
        self, ts: TableState, by: str | None, problems: Sequence[Any], force: bool
    ) -> None:
        if not problems:
            return
        listed = "; ".join(str(p) for p in problems)
        if not force:
            raise RulesError(
                f"the sheet breaks {len(problems)} rule(s): {listed} "
                "(the referee may seat it anyway, marked, with force)"
            )
        self._referee(ts, by, "seat a character that breaks the rules")

    def _active(self, ts: TableState, by: str | None) -> Role:
        """The role of ``by`` (the operator: a referee's) for a command that changes the
        table: checked at every entry on the table as it is now, so a player made an
        observer (or removed) acts, answers, withdraws, undoes and edits no more."""
        if by is None:
            return "referee"
        role = ts.role_of(by)
        if role == "observer":
            raise Forbidden("an observer only reads")
        return role

    def _visibility(
        self, ts: TableState, by: str | None, visibility: str, *, tray: bool = False
    ) -> Visibility:
        """``visibility`` checked for ``by``: a player rolls blind or private, never in
        the referee's secret; ``self`` (its roller alone) is the dice tray's only."""
        if visibility not in ("public", "referee", "blind", "private", "self"):
            raise RulesError(
                f"unknown visibility {visibility!r}; known: public, referee, blind, private, self"
            )
        if visibility == "self" and not tray:
            raise RulesError(
                "only a free roll of the dice tray is seen by its roller alone; "
                "this is at least the referee's to see"
            )
        referee = by is None or ts.role_of(by) == "referee"
        if visibility == "referee" and not referee:
            raise Forbidden("only the referee rolls in secret; a player rolls blind or private")
        if visibility == "blind" and referee:
            return "referee"
        return cast(Visibility, visibility)

    # -- gauge --

    def gauge(
        self,
        ref: str,
        by: str,
        *,
        a: tuple[str, ...] | None = None,
        b: tuple[str, ...] | None = None,
    ) -> dict[str, Any]:
        """Who is winning the fight in progress, as participant ``by`` may be shown it
        (:func:`referee.analysis.live.viewed`: each side's chance, exact or simulated, and
        the what-ifs); ``a`` / ``b`` name the sides."""
        from referee.analysis.live import viewed

        full = self.load(ref)
        full.role_of(by)
        return viewed(full, self.view(ref, by), by, a=a, b=b)


# ---------------------------------------------------------------------------
# helpers


def redact(
    event: Event,
    viewer: Viewer,
    revealed: frozenset[int],
    table: TableState | None,
) -> JSONObject:
    """``event`` as ``viewer`` may see it: whole, or without what they may not see.

    A blind roll shows what was attempted but not what came of it; a referee's
    secret roll shows that the referee rolled; a private event shows only that
    something happened. The hash stays (the chain's shape is public) but the
    salt goes with the payload, so the hash gives nothing away.

    ``table`` is the table now: a character's seating or new sheet shows its sheet
    only to those :meth:`TableState.sees_sheet` allows; the others read that it was
    seated, its name and its owner (:func:`sheet_hidden`). It may be ``None`` only for
    an event that holds no sheet (a caller need not load the table for the others);
    a sheet's event without it is refused, so no caller can skip hiding a sheet.
    """
    if can_see(event, viewer, revealed):
        if sheet_hidden(event, viewer, table):
            return _without_sheet(event)
        if _typed_faces_hidden(event, viewer):
            return _without_faces(event)
        return event.data()
    shown: JSONObject = {
        "table": event.table,
        "seq": event.seq,
        "time": event.time,
        "visibility": event.visibility,
        "redacted": True,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
    }
    if event.visibility in ("blind", "referee", "self"):
        shown["actor"] = event.actor
        shown["kind"] = event.kind
    if event.visibility == "blind":
        attempted: JSONObject = {
            k: event.payload[k] for k in ("action", "fields") if k in event.payload
        }
        shown["payload"] = attempted
    return shown


def sheet_hidden(event: Event, viewer: Viewer, table: TableState | None) -> bool:
    """Whether ``event`` holds a sheet ``viewer`` may not see (under the table's sheets
    setting now and the character's owner now); ``table`` is required for such an event
    (``TypeError`` without it: hiding a sheet is never skipped)."""
    if event.kind not in SHEET_KINDS:
        return False
    if table is None:
        raise TypeError(f"event {event.seq} holds a sheet: who may see it needs the table")
    return not table.sees_sheet(viewer, str(event.payload.get("id", "")))


def redaction_key(
    event: Event, viewer: Viewer, revealed: frozenset[int], table: TableState | None
) -> tuple[bool, bool]:
    """What :func:`redact` shows ``viewer`` of ``event`` depends only on this pair
    (whether they see the payload, whether its sheet is hidden): viewers with the same key
    are sent the same text."""
    hidden = sheet_hidden(event, viewer, table) or _typed_faces_hidden(event, viewer)
    return can_see(event, viewer, revealed), hidden


def _typed_faces_hidden(event: Event, viewer: Viewer) -> bool:
    """Whether ``event`` is a proposal holding the faces its proposer typed, seen by
    someone else than the proposer or a referee (who answers it decides without them:
    they are the roll, which the proposal's visibility may hide)."""
    return (
        event.kind == "action-proposed"
        and event.payload.get("faces") is not None
        and not viewer.sees_all
        and viewer.name != event.actor
    )


def _without_faces(event: Event) -> JSONObject:
    """A proposal without the faces typed for it (and its salt, as every payload shown in
    part)."""
    shown = {**event.data(), "salt": ""}
    shown["payload"] = {**event.payload, "faces": "typed"}
    return shown


def _without_sheet(event: Event) -> JSONObject:
    """A seating or sheet update with its sheet taken out: the character's id, name and
    owner stay. Its salt goes too (as with every redacted payload)."""
    p = event.payload
    sheet = p.get("sheet")
    name = sheet.get("name") if isinstance(sheet, dict) else None
    shown = {**event.data(), "salt": "", "sheet_hidden": True}
    shown["payload"] = {
        "id": p.get("id"),
        "owner": p.get("owner"),
        "sheet": {"name": name} if isinstance(name, str) else None,
    }
    return shown


def _as_hidden_as(target: Event) -> tuple[Visibility, str | None]:
    """The visibility (and audience) of an event that takes back or puts back ``target``:
    as hidden as it, so who made it and what it was stay hidden (a tray roll only its
    roller saw: private to them and the referees, who answer its taking back)."""
    if target.visibility == "public":
        return "public", None
    if target.visibility in ("private", "self"):
        return "private", target.audience or target.actor
    return target.visibility, None


def _names(ts: TableState, cids: Sequence[str]) -> str:
    """The characters' names, joined for a sentence."""
    names = [str(getattr(ts.state.characters[c].sheet, "name", "") or c) for c in cids]
    return " and ".join(dict.fromkeys(names))


def _sheet_refusal(ts: TableState, cids: Sequence[str]) -> str:
    """A refusal that names nothing of the sheets it depends on."""
    return (
        f"this cannot be done as asked, for a reason in {_names(ts, cids)}'s sheet, which "
        "only the referee sees: ask the referee"
    )


def _role(role: str) -> None:
    if role not in ROLES:
        raise RulesError(f"unknown role {role!r}; known: referee, player, observer")


def _sheet(ts: TableState, sheet: JSONValue | str) -> tuple[JSONObject, Any]:
    rules = ts.ruleset
    if isinstance(sheet, str):
        examples = rules.examples()
        key = sheet.strip().lower()
        if key not in examples:
            known = ", ".join(examples) or "none"
            raise RulesError(f"{rules.title} has no example character {sheet!r}; known: {known}")
        loaded = examples[key]
        return rules.dump_sheet(loaded), loaded
    loaded = rules.load_sheet(sheet)
    return rules.dump_sheet(loaded), loaded


_CHANGE_KEYS: Final = frozenset({"target", "field", "delta", "value", "reason"})


def _change_data(data: JSONValue, i: int) -> JSONObject:
    if not isinstance(data, dict):
        raise RulesError(f"change {i}: not an object")
    extra = set(data) - _CHANGE_KEYS
    if extra:
        raise RulesError(f"change {i}: unknown field(s) {', '.join(sorted(extra))}")
    target, fld = data.get("target"), data.get("field")
    if not isinstance(target, str) or not isinstance(fld, str) or not fld:
        raise RulesError(f"change {i}: 'target' (a character id or 'table') and 'field' needed")
    delta = data.get("delta")
    if delta is not None and (not isinstance(delta, int) or isinstance(delta, bool)):
        raise RulesError(f"change {i}: 'delta' is a whole number")
    if delta is None and "value" not in data:
        raise RulesError(f"change {i}: give a 'delta' or a 'value'")
    return {
        "target": target,
        "field": fld,
        "delta": delta,
        "value": jsonable(data.get("value")),
        "reason": str(data.get("reason", "")),
    }


def table_data(ts: TableState, viewer: Viewer = EVERYTHING) -> JSONObject:
    """A table's state as JSON: who is there, the characters' owners and findings, the
    house rules, who sees the sheets, the game's tracker and the decisions the rules wait
    for. For ``viewer``, the sheets (and the validator's findings about them) they may not
    see are left out of ``state`` and ``findings`` (:meth:`TableState.sees_sheet`)."""
    rules = ts.ruleset
    state = rules.dump_state(ts.state)
    hidden = {cid for cid in ts.state.characters if not ts.sees_sheet(viewer, cid)}
    seated = state.get("characters")
    if hidden and isinstance(seated, dict):
        state["characters"] = {
            cid: ({k: v for k, v in rec.items() if k != "sheet"} if cid in hidden else rec)
            if isinstance(rec, dict)
            else rec
            for cid, rec in seated.items()
        }
    return {
        "id": ts.id,
        "name": ts.name,
        "game": ts.game,
        "title": rules.title,
        "seq": ts.seq,
        "hash": ts.hash,
        "seeded": ts.seed is not None,
        "participants": dict(ts.participants),
        "owners": dict(ts.owners),
        "findings": {k: list(v) for k, v in ts.findings.items() if k not in hidden},
        "options": rules.dump_options(ts.options),
        "sheets": ts.sheets,
        "settings": ts.settings.data(),
        "requests": [{"seq": seq, **r} for seq, r in sorted(ts.requests.items())],
        "tracker": rules.tracker(ts.state, ts.options),
        "pending": [
            {"actor": d.actor, "prompt": d.prompt, "choices": list(d.choices)}
            for d in ts.state.pending
        ],
        "proposals": [proposal_data(ts, seq, p) for seq, p in sorted(ts.proposals.items())],
        "undone": sorted(ts.undone),
        "state": state,
        "sheet_views": {
            cid: rules.sheet_view_safe(seat.sheet, seat, ts.options, ts.state).data()
            for cid, seat in ts.state.characters.items()
            if cid not in hidden
        },
    }


def proposal_data(ts: TableState, seq: int, p: JSONObject) -> JSONObject:
    """An action waiting for a decision, as JSON: who proposed it, what it asks of whom
    (each asked field, the character whose choice it is and who answers: their owner, or
    the referee for a character no player owns) and the fields it holds so far."""
    ask = p.get("ask")
    asked = ask if isinstance(ask, dict) else {}
    return {
        "seq": seq,
        "by": p.get("by"),
        "action": p.get("action"),
        "fields": p.get("fields"),
        "ask": [
            {"field": k, "character": v, "answers": ts.owners.get(str(v)) or "the referee"}
            for k, v in asked.items()
        ],
    }
