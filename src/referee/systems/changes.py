"""From a rule's new values to an outcome's changes, the same in every game.

A rule never changes the state: it works out the seats and the table as they will be
after an action and describes the difference as
:class:`~referee.systems.outcome.Change` data, which
:func:`~referee.systems.state.apply_changes` folds in. Two pieces do that for every game:

* :func:`diff` - the changes that turn one record (a seat, a sheet, Mnemonic's Status)
  into another: a ``delta`` for a number (so skipping an event at the table composes),
  per-key deltas for a map of numbers that only grows, the whole ``value`` for anything
  else; fields named in ``into`` are compared field by field, after the others;
* :class:`Changes` - a small builder local to one rule call, over the state before it
  (never changed): the seats the rule puts (:meth:`Changes.put`, diffed when built),
  changes it records directly (:meth:`Changes.set`, :meth:`Changes.table`), and the
  decisions the rules wait for (:meth:`Changes.wait_for`, :meth:`Changes.answered`).
  A game's own builder (Mongrel's ``Scene``, Mneme CE's ``Changes``) adds what only it
  tracks through :meth:`Changes.table_changes` and :meth:`Changes.last_changes`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields, is_dataclass
from typing import Any, ClassVar, Generic, TypeVar

from referee.systems.outcome import TABLE, Change, JSONValue, jsonable
from referee.systems.state import Decision, GameState, apply_changes
from referee.systems.state import replaced as replace

__all__ = ["Changes", "diff"]

StateT = TypeVar("StateT", bound=GameState[Any])
SeatT = TypeVar("SeatT")


def _number(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _growing(a: dict[str, object], b: dict[str, object]) -> bool:
    """Whether ``b`` keeps every key of ``a`` and both map plain keys to numbers."""
    plain = all("." not in k for k in b)
    numbers = all(_number(v) for v in (*a.values(), *b.values()))
    return plain and numbers and set(a) <= set(b)


_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(kind: type) -> tuple[str, ...]:
    """The field names of the dataclass type ``kind``, looked up once."""
    found = _NAMES.get(kind)
    if found is None:
        found = _NAMES[kind] = tuple(f.name for f in fields(kind))
    return found


def diff(
    target: str,
    before: object,
    after: object,
    reason: str = "",
    *,
    at: str = "",
    into: Iterable[str] = (),
) -> list[Change]:
    """The changes that turn the dataclass record ``before`` into ``after`` (of the same
    type) for ``target`` (a character id, or ``"table"``), at the dotted path ``at``.

    A number that changed is a ``delta``; a map of numbers that keeps its keys is a delta
    per key; anything else is its whole new ``value``. The fields named in ``into`` (a
    seat's ``sheet``) are diffed field by field, after the others.

    Example::

        >>> from referee.systems.mnemonic.sheet import Status
        >>> [str(c) for c in diff("ana", Status(), Status("Hurt", injuries=1), "a cut",
        ...                       at="status")]
        ["ana.status.condition = 'Hurt' (a cut)", 'ana.status.injuries +1 (a cut)']
    """
    assert is_dataclass(before) and is_dataclass(after) and type(before) is type(after)
    nested = tuple(into)
    prefix = f"{at}." if at else ""
    out: list[Change] = []
    for name in _field_names(type(before)):
        if name in nested:
            continue
        a, b = getattr(before, name), getattr(after, name)
        if a is b or a == b:
            continue
        path = prefix + name
        if _number(a) and _number(b):
            out.append(Change(target, path, delta=b - a, reason=reason))
        elif isinstance(a, dict) and isinstance(b, dict) and _growing(a, b):
            for key in b:
                d = b[key] - a.get(key, 0)
                if d or key not in a:
                    out.append(Change(target, f"{path}.{key}", delta=d, reason=reason))
        else:
            out.append(Change(target, path, value=jsonable(b), reason=reason))
    for name in nested:
        a, b = getattr(before, name), getattr(after, name)
        if a is not b and a != b:
            out += diff(target, a, b, reason, at=prefix + name)
    return out


class Changes(Generic[StateT, SeatT]):
    """The seats, table and decisions after an action, built up by its rule (see the
    module text). Local to one rule call: it starts from ``state`` (never changed) and
    :meth:`build` is all that leaves it."""

    pending_reason: ClassVar[str | None] = None
    """The reason given to the change of the pending decisions (``None``: the build's)."""

    def __init__(self, state: StateT) -> None:
        self.state = state
        self.seats: dict[str, SeatT] = {}
        self.recorded: list[Change] = []
        self.pending: tuple[Decision, ...] = state.pending

    def get(self, cid: str) -> SeatT:
        """The character's seat as the action has left it so far."""
        found = self.seats.get(cid)
        if found is None:
            seat: SeatT = self.state.character(cid)
            return seat
        return found

    def put(self, cid: str, seat: SeatT) -> None:
        """Record the character's seat as the action leaves it (diffed when built)."""
        self.seats[cid] = seat

    def set(self, cid: str, field: str, value: JSONValue, reason: str = "") -> None:
        """Set a field of the character's seat (``"sheet.x"`` for the sheet)."""
        self.recorded.append(Change(cid, field, value=value, reason=reason))

    def table(self, field: str, *, delta: int | None = None, value: JSONValue = None) -> None:
        """Change a field of the table itself."""
        self.recorded.append(Change(TABLE, field, delta=delta, value=value))

    def wait_for(self, decision: Decision) -> None:
        """The rules wait for ``decision`` before anything else happens."""
        self.pending = (*self.pending, decision)

    def answered(self, actor: str, *choices: str) -> None:
        """The first decision ``actor`` owes that offers every one of ``choices`` is
        answered."""
        for i, d in enumerate(self.pending):
            if d.actor == actor and all(c in d.choices for c in choices):
                self.pending = self.pending[:i] + self.pending[i + 1 :]
                return

    def table_changes(self, reason: str) -> list[Change]:
        """What the game's builder changed on the table itself (none by default)."""
        return []

    def last_changes(self) -> list[Change]:
        """Changes the game's builder gathers to the end (none by default)."""
        return []

    def table_after(self, state: StateT) -> StateT:
        """``state`` with what the game's builder changed on the table itself
        (:meth:`table_changes`) folded in: none by default."""
        return state

    def after(self) -> StateT:
        """The state :meth:`build`'s changes lead to (what ``apply_changes(state,
        build())`` gives), worked out directly: the seats put, the decisions waited for
        and the game's :meth:`table_after`. A builder with changes recorded as data, or
        the game's :meth:`last_changes`, folds those through ``apply_changes``."""
        if self.recorded or self.last_changes():
            return apply_changes(self.state, self.build())
        state = self.state
        if self.seats:
            characters = dict(state.characters)
            characters.update(self.seats)
            state = replace(state, characters=characters)
        if self.pending != state.pending:
            state = replace(state, pending=self.pending)
        return self.table_after(state)

    def build(self, reason: str = "") -> tuple[Change, ...]:
        """Everything the action changed, in a stable order: the changes recorded, each
        seat put (:func:`diff`, its sheet field by field), the table's, the decisions
        waited for, and the game's last ones."""
        out = list(self.recorded)
        for cid, after in self.seats.items():
            out += diff(cid, self.state.character(cid), after, reason, into=("sheet",))
        out += self.table_changes(reason)
        if self.pending != self.state.pending:
            why = reason if self.pending_reason is None else self.pending_reason
            out.append(Change(TABLE, "pending", value=jsonable(self.pending), reason=why))
        out += self.last_changes()
        return tuple(out)
