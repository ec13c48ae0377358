"""Audit, export and import: a table's log checked end to end, and carried as one JSON file.

:func:`verify_events` re-checks everything a log claims: seqs 1, 2, 3... with
no gap, each ``prev_hash`` the previous event's hash, each hash recomputed
from the event's content, every event folding into the state, and every
action replayed from its recorded faces giving the very outcome stored (a
seeded table's faces must also be the ones its seed gives). It reports the
first seq that does not match.

An export is ``{"schema": 1, "referee_version": "0.2.0", "table": {...}, "events":
[...], "head": {...}}``. ``schema`` is the format's version, bumped only by a change an
older reader would misread (a major release: the export format is a public interface);
``referee_version`` names the release that wrote the file (files from before 0.2.0 have
none), and is informative only: import reads every file of a schema it knows, whichever
release wrote it (``tests/data/exports`` keeps one of each).

A referee's export is whole; a player's is their redacted view (and cannot be
imported). ``head`` is the server's signed head (:mod:`referee.table.signing`); a file
without one (as every export before signing had) is unsigned. Import
verifies the whole file first and writes nothing unless all of it holds; the
imported table has the same id, state and hashes. A file is bounded by its
events (:data:`MAX_EVENTS`) and its nesting (:data:`MAX_DEPTH`), never by a
count of its JSON values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from referee.dice.roller import RollRecord
from referee.errors import DiceError, RulesError
from referee.systems.base import JSONObject, JSONValue, outcome_data
from referee.table.events import GENESIS, Event, LogError, event_from_data
from referee.table.service import TableService, derived_seed, redact
from referee.table.signing import (
    Checked,
    Signature,
    Signer,
    check_head,
    describe,
    sign_head,
)
from referee.table.state import TableState, advance, created, snapshot_data
from referee.table.store import StoreError, TableRow

SCHEMA: Final = 1
"""The export format's version."""

MAX_EVENTS: Final = 1_000_000
"""The most events an export may hold (a long campaign's table is tens of thousands)."""

MAX_DEPTH: Final = 64
"""The deepest nesting of JSON an export may hold."""

CHECKPOINT_EVERY = 200
"""How often :func:`verify_events` keeps a folded state to refold from after an undo."""


class ReplayRoller:
    """Hands back the faces an event recorded, roll by roll, as the roller that made them
    (same kind and seed), and fails on any roll the record does not hold."""

    def __init__(self, records: Sequence[JSONObject], seq: int) -> None:
        self._records = [_record(r, seq) for r in records]
        self._used: list[RollRecord] = []
        self._seq = seq
        self.kind = self._records[0].kind if self._records else "system"

    @property
    def remaining(self) -> tuple[int, ...]:
        """Faces not handed back yet (a manual roller's leading check reads them)."""
        return tuple(f for r in self._records[len(self._used) :] for f in r.faces)

    def roll(self, n: int, sides: int) -> tuple[int, ...]:
        """The next recorded roll, if it is ``n`` dice of ``sides`` sides."""
        i = len(self._used)
        if i >= len(self._records):
            raise DiceError(f"the replay asks for a roll the event did not record ({n}d{sides})")
        record = self._records[i]
        if len(record.faces) != n or record.sides != sides:
            raise DiceError(
                f"the replay asks for {n}d{sides} where the event recorded "
                f"{len(record.faces)}d{record.sides}"
            )
        self._used.append(record)
        return record.faces

    @property
    def records(self) -> tuple[RollRecord, ...]:
        """The rolls handed back so far."""
        return tuple(self._used)

    def all_used(self) -> bool:
        """True when every recorded roll was asked for."""
        return len(self._used) == len(self._records)


def _record(r: JSONObject, seq: int) -> RollRecord:
    faces, sides, kind, seed = r.get("faces"), r.get("sides"), r.get("kind"), r.get("seed")
    if (
        not isinstance(faces, list)
        or not all(isinstance(f, int) for f in faces)
        or not isinstance(sides, int)
        or not isinstance(kind, str)
        or not (seed is None or isinstance(seed, int))
    ):
        raise LogError(f"a roll record is malformed: {r!r}", seq)
    return RollRecord(tuple(f for f in faces if isinstance(f, int)), sides, kind, seed)


@dataclass(frozen=True)
class Report:
    """What :func:`verify_events` found: ``ok``, or the first bad ``seq`` and why; for a
    file, also its ``signature`` ("trusted", "untrusted" or "unsigned") and the key's id."""

    ok: bool
    events: int
    seq: int = 0
    problem: str = ""
    signature: Signature | None = None
    key: str = ""

    def data(self) -> JSONObject:
        """The report as JSON (``signature`` and ``key`` only for a file)."""
        out: JSONObject = {
            "ok": self.ok,
            "events": self.events,
            "seq": self.seq,
            "problem": self.problem,
        }
        if self.signature is not None:
            out["signature"] = self.signature
            out["key"] = self.key or None
        return out

    @property
    def signed(self) -> str:
        """The signature as a phrase: "signed by trusted key ..." or "unsigned"."""
        return describe(Checked(self.signature or "unsigned", self.key))

    @property
    def text(self) -> str:
        """The report in a line: "ok: N events, chain and replays verified" (and how a
        file is signed), or "BROKEN at event N: why"."""
        if not self.ok:
            return f"BROKEN{f' at event {self.seq}' if self.seq else ''}: {self.problem}"
        signed = f"; {self.signed}" if self.signature is not None else ""
        return f"ok: {self.events} events, chain and replays verified{signed}"


def verify_events(
    events: Sequence[Event], table_id: str | None = None, keep: frozenset[int] = frozenset()
) -> tuple[TableState, dict[int, TableState]]:
    """Check a whole log (see the module text); return the state it folds to and the
    states at the seqs in ``keep``; :class:`LogError` with the first bad seq otherwise."""
    kept: dict[int, TableState] = {}
    if not events:
        raise LogError("the log is empty")
    checkpoints: list[TableState] = []
    ts: TableState | None = None
    prev = GENESIS
    for i, e in enumerate(events, start=1):
        if e.seq != i:
            raise LogError(f"expected event {i} here (a gap or a duplicate)", e.seq or i)
        if table_id is not None and e.table != table_id:
            raise LogError(f"belongs to table {e.table!r}, not {table_id!r}", e.seq)
        if e.prev_hash != prev:
            raise LogError("prev_hash is not the previous event's hash (the chain is broken)", i)
        if e.compute_hash() != e.hash:
            raise LogError("its hash does not match its content (it was changed)", i)
        prev = e.hash
        if ts is None:
            try:
                ts = created(e)
            except (RulesError, KeyError, TypeError) as err:
                raise LogError(f"the table cannot be created: {err}", 1) from None
            checkpoints.append(ts)
            continue
        if e.kind == "action-resolved":
            _replay_action(ts, e)
        elif e.kind == "action-failed":
            _replay_failure(ts, e)
        fetch = _list_fetch(events)
        ts = advance(ts, e, fetch, _list_checkpoint(checkpoints, events))
        if ts.seq % CHECKPOINT_EVERY == 0:
            checkpoints.append(ts)
        if ts.seq in keep:
            kept[ts.seq] = ts
    assert ts is not None
    if 1 in keep:
        kept[1] = checkpoints[0]
    return ts, kept


def _list_fetch(events: Sequence[Event]) -> Any:
    return lambda after, upto: events[after:upto]


def _list_checkpoint(checkpoints: list[TableState], events: Sequence[Event]) -> Any:
    def pick(before: int, undone: frozenset[int]) -> TableState:
        for cp in reversed(checkpoints):
            if cp.seq < before and {u for u in undone if u <= cp.seq} == {
                u for u in cp.undone if u <= cp.seq
            }:
                return cp
        return checkpoints[0]

    return pick


def _replay_failure(ts: TableState, e: Event) -> None:
    """An action logged as failed after its dice were drawn must fail the same way again
    from its recorded faces (the refusal and the dice are what the log says)."""
    p = e.payload
    rules = ts.ruleset
    try:
        action = rules.load_action(str(p["action"]), p["fields"])
        rules.resolve(action, ts.state, ReplayRoller(list(e.rolls), e.seq), ts.options)
    except (RulesError, KeyError, TypeError) as err:
        if str(err) == p.get("error"):
            return
        raise LogError(f"the failed action fails otherwise on replay: {err}", e.seq) from None
    raise LogError("the failed action succeeds on replay from its faces", e.seq)


def _replay_action(ts: TableState, e: Event) -> None:
    """Resolve the recorded action again from its recorded faces; it must give the stored
    outcome exactly."""
    p = e.payload
    rules = ts.ruleset
    try:
        action = rules.load_action(str(p["action"]), p["fields"])
        roller = ReplayRoller(list(e.rolls), e.seq)
        outcome = rules.resolve(action, ts.state, roller, ts.options)
    except (RulesError, KeyError, TypeError) as err:
        raise LogError(f"the action does not replay: {err}", e.seq) from None
    if not roller.all_used():
        raise LogError("the replay used fewer rolls than the event recorded", e.seq)
    if outcome_data(outcome) != p["outcome"]:
        raise LogError("replaying the action from its faces gives another outcome", e.seq)
    if ts.seed is not None:
        for r in outcome.rolls:
            if r.kind == "seeded" and r.seed != derived_seed(ts.seed, e.seq):
                raise LogError("a seeded roll does not come from the table's seed", e.seq)
    if [r.to_dict() for r in outcome.rolls] != [dict(r) for r in e.rolls]:
        raise LogError("the event's roll record differs from its outcome's", e.seq)


def verify(service: TableService, ref: str) -> Report:
    """Verify a stored table: the log, every replay, and every snapshot against the fold."""
    row = service.table(ref)
    events = service.store.events(row.id)
    try:
        seqs = service.store.snapshot_seqs(row.id)
        _final, kept = verify_events(events, row.id, frozenset(seqs))
        for seq in seqs:
            if seq not in kept:
                raise LogError("a snapshot past the end of the log", seq)
            if snapshot_data(kept[seq]) != service.store.snapshot(row.id, seq):
                raise LogError("the snapshot here differs from the fold of the log", seq)
    except LogError as e:
        return Report(False, len(events), e.seq, e.problem)
    except StoreError as e:
        return Report(False, len(events), 0, str(e))
    return Report(True, len(events))


# ---------------------------------------------------------------------------
# export and import


def export(
    service: TableService, ref: str, name: str | None = None, signer: Signer | None = None
) -> JSONObject:
    """A table as JSON: whole for the referee (``name`` None or a referee), else the
    participant's redacted view; with ``signer``, its head signed (the same head either
    way: a redacted event keeps its hash)."""
    full = service.load(ref)
    viewer = full.viewer(name)
    row = service.table(ref)
    events = service.store.events(row.id)
    from referee import version

    data: JSONObject = {
        "schema": SCHEMA,
        "referee_version": version(),
        "table": {"id": row.id, "name": row.name, "game": row.game, "created": row.created},
        "redacted": not viewer.sees_all,
        "events": [redact(e, viewer, full.revealed, full) for e in events],
    }
    if signer is not None and events:
        data["head"] = sign_head(signer, row.id, events)
    return data


def _check_depth(value: JSONValue, limit: int = MAX_DEPTH) -> None:
    """Refuse JSON nested deeper than ``limit`` (walked without recursion)."""
    stack: list[tuple[JSONValue, int]] = [(value, 0)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict | list):
            if level >= limit:
                raise LogError(f"the export is nested more than {limit} levels deep")
            children = node.values() if isinstance(node, dict) else node
            stack.extend((c, level + 1) for c in children)


def read_export(data: JSONValue) -> tuple[TableRow, list[Event]]:
    """The table and events of an export, checked field by field (nothing is written)."""
    if not isinstance(data, dict):
        raise LogError("an export is a JSON object")
    if data.get("schema") != SCHEMA:
        raise LogError(f"unsupported export schema {data.get('schema')!r}; this reads {SCHEMA}")
    if data.get("redacted"):
        raise LogError("a player's redacted export cannot be imported: ask for the referee's")
    table = data.get("table")
    raw = data.get("events")
    if not isinstance(table, dict) or not isinstance(raw, list):
        raise LogError("an export has 'table' (an object) and 'events' (a list)")
    if len(raw) > MAX_EVENTS:
        raise LogError(f"the export holds {len(raw):,} events; at most {MAX_EVENTS:,}")
    _check_depth(data)
    try:
        row = TableRow(
            str(table["id"]), str(table["name"]), str(table["game"]), str(table["created"])
        )
    except KeyError as e:
        raise LogError(f"the table entry lacks {e}") from None
    events = [event_from_data(item, f"events[{i}]") for i, item in enumerate(raw)]
    return row, events


def _checked_file(
    data: JSONValue, trusted: Mapping[str, bytes] | None, require_trusted: bool, every: int
) -> tuple[TableRow, list[Event], Checked, dict[int, TableState]]:
    row, events = read_export(data)
    head = data.get("head") if isinstance(data, dict) else None
    checked = check_head(head, row.id, events, dict(trusted or {}))
    if require_trusted and checked.signature != "trusted":
        raise LogError(f"the file is {describe(checked)}; only a trusted signature is taken")
    keep = frozenset(range(every, len(events) + 1, every)) if every else frozenset()
    final, kept = verify_events(events, row.id, keep)
    if final.name != row.name or final.game != row.game:
        raise LogError("the table entry does not match the log's first event", 1)
    return row, events, checked, kept


def verify_file(
    data: JSONValue, trusted: Mapping[str, bytes] | None = None, *, require_trusted: bool = False
) -> Report:
    """Check an export as :func:`import_table` would, writing nothing: the report says
    whether it holds and how it is signed (a bad file raises :class:`LogError`)."""
    _row, events, checked, _kept = _checked_file(data, trusted, require_trusted, 0)
    return Report(True, len(events), signature=checked.signature, key=checked.key)


def import_table(
    service: TableService,
    data: JSONValue,
    trusted: Mapping[str, bytes] | None = None,
    *,
    require_trusted: bool = False,
) -> Report:
    """Verify an export completely, then store it as it was (same id, state, hashes).

    ``trusted`` holds the public keys (raw bytes by id) whose signature is trusted;
    the report says "trusted", "untrusted" (a valid signature by another key) or
    "unsigned". A signed head that does not name the file's last event (a cut tail,
    a log changed and rehashed) is refused, and so is any file but a trusted one
    with ``require_trusted``. :class:`LogError` (the first bad seq) or
    :class:`StoreError` (the id or name is taken); nothing is written unless
    everything holds."""
    row, events, checked, kept = _checked_file(
        data, trusted, require_trusted, service.snapshot_every
    )
    service.store.create(row, events)
    for seq, ts in sorted(kept.items()):
        service.store.put_snapshot(row.id, seq, snapshot_data(ts))
    return Report(True, len(events), signature=checked.signature, key=checked.key)
