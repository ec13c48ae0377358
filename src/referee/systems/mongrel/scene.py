"""From a rule's new values to an outcome's changes (the one way a Mongrel state changes).

A rule works out the characters and table after an action on a :class:`Scene` -
a small local builder over the state before it - and :meth:`Scene.changes`
writes the difference as :class:`~referee.systems.base.Change` data: deltas for
numbers (so skipping an event at the table composes), values for the stages,
the order and the pending decisions.
"""

from __future__ import annotations

from dataclasses import fields

from referee.dice.evaluate import DieRoll
from referee.systems.base import TABLE, Change, Decision, Trace, jsonable

from .sheet import Sheet
from .state import Seat, State

SYSTEM = "mongrel"

_TRACKED = tuple(f.name for f in fields(Seat) if f.name != "sheet")


def d6(trace: Trace) -> tuple[DieRoll, ...]:
    """Every face a program rolled, as kept d6 (every Mongrel roll is of d6)."""
    return tuple(DieRoll(f, 6, True) for faces in trace for f in faces)


def fighter_changes(cid: str, before: Seat, after: Seat, reason: str = "") -> list[Change]:
    """What changed on a seated character: deltas for counts, values for the stages,
    and the sheet's own changes (character points, Credit...)."""
    out: list[Change] = []
    for name in _TRACKED:
        a, b = getattr(before, name), getattr(after, name)
        if a == b:
            continue
        if isinstance(a, bool) or not isinstance(a, int):
            out.append(Change(cid, name, value=b, reason=reason))
        else:
            out.append(Change(cid, name, delta=b - a, reason=reason))
    out += sheet_changes(cid, before.sheet, after.sheet, reason)
    return out


def sheet_changes(cid: str, before: Sheet, after: Sheet, reason: str = "") -> list[Change]:
    """What changed on a sheet: per-key deltas for maps of numbers, deltas for numbers,
    whole values for everything else."""
    out: list[Change] = []
    for f in fields(Sheet):
        a, b = getattr(before, f.name), getattr(after, f.name)
        if a == b:
            continue
        path = f"sheet.{f.name}"
        if isinstance(a, int) and not isinstance(a, bool) and isinstance(b, int):
            out.append(Change(cid, path, delta=b - a, reason=reason))
        elif isinstance(a, dict) and isinstance(b, dict) and _growing(a, b):
            for key in b:
                d = b[key] - a.get(key, 0)
                if d or key not in a:
                    out.append(Change(cid, f"{path}.{key}", delta=d, reason=reason))
        else:
            out.append(Change(cid, path, value=jsonable(b), reason=reason))
    return out


def _growing(a: dict[str, object], b: dict[str, object]) -> bool:
    """Whether ``b`` keeps every key of ``a`` and both map plain keys to numbers."""
    plain = all("." not in k for k in b)
    numbers = all(
        isinstance(v, int) and not isinstance(v, bool) for v in (*a.values(), *b.values())
    )
    return plain and numbers and set(a) <= set(b)


class Scene:
    """The characters, order, clock and decisions after an action, built up by its rule.

    Local to one rule call: it starts from ``state`` (never changed) and
    :meth:`changes` is all that leaves it.
    """

    def __init__(self, state: State) -> None:
        self.state = state
        self.fighters: dict[str, Seat] = {}
        self.order: tuple[str, ...] = state.order
        self.hours = 0
        self.pending: tuple[Decision, ...] = state.pending

    def get(self, cid: str) -> Seat:
        """The character as the action has left it so far."""
        return self.fighters.get(cid) or self.state.character(cid)

    def put(self, cid: str, f: Seat) -> None:
        """Record the character's new values; the dead leave the order."""
        self.fighters[cid] = f
        if f.dead:
            self.order = tuple(i for i in self.order if i != cid)

    def to_back(self, cid: str) -> None:
        """The character acted: to the back of the order (when in the conflict)."""
        if cid in self.order:
            self.order = (*[i for i in self.order if i != cid], cid)

    def to_front(self, cid: str) -> None:
        """The character takes the next action."""
        if cid in self.order:
            self.order = (cid, *[i for i in self.order if i != cid])

    def wait_for(self, decision: Decision) -> None:
        """The rules wait for ``decision`` before anything else happens."""
        self.pending = (*self.pending, decision)

    def answered(self, actor: str, choices: tuple[str, ...]) -> None:
        """The first decision ``actor`` owes among ``choices`` is answered."""
        for i, d in enumerate(self.pending):
            if d.actor == actor and d.choices == choices:
                self.pending = self.pending[:i] + self.pending[i + 1 :]
                return

    def changes(self, reason: str = "") -> tuple[Change, ...]:
        """Everything the action changed, as changes in a stable order."""
        out: list[Change] = []
        for cid, after in self.fighters.items():
            out += fighter_changes(cid, self.state.character(cid), after, reason)
        if self.order != self.state.order:
            out.append(Change(TABLE, "order", value=list(self.order), reason=reason))
        if self.hours:
            out.append(Change(TABLE, "hours", delta=self.hours, reason=reason))
        if self.pending != self.state.pending:
            out.append(Change(TABLE, "pending", value=jsonable(self.pending), reason=reason))
        return tuple(out)
