"""Mongrel's builder of an action's changes: the base's, plus the turn order and the hours.

A rule works out the characters and table after an action on a :class:`Scene` (the
cross-game :class:`~referee.systems.changes.Changes`, over the state before it) and
:meth:`Scene.changes` writes the difference as
:class:`~referee.systems.base.Change` data: deltas for numbers (so skipping an event at
the table composes), values for the stages, the order and the pending decisions.
"""

from __future__ import annotations

from referee.dice.evaluate import DieRoll
from referee.systems.base import TABLE, Change, Trace
from referee.systems.changes import Changes
from referee.systems.state import replaced as replace

from .state import Seat, State

SYSTEM = "mongrel"


def d6(trace: Trace) -> tuple[DieRoll, ...]:
    """Every face a program rolled, as kept d6 (every Mongrel roll is of d6)."""
    return tuple(DieRoll(f, 6, True) for faces in trace for f in faces)


class Scene(Changes[State, Seat]):
    """The characters, order, clock and decisions after an action, built up by its rule
    (Mongrel, Conflict: the order of action; Fatigue: the hours)."""

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.order: tuple[str, ...] = state.order
        self.hours = 0

    def put(self, cid: str, seat: Seat) -> None:
        """Record the character's new values; the dead leave the order."""
        super().put(cid, seat)
        if seat.dead:
            self.order = tuple(i for i in self.order if i != cid)

    def to_back(self, cid: str) -> None:
        """The character acted: to the back of the order (when in the conflict)."""
        if cid in self.order:
            self.order = (*[i for i in self.order if i != cid], cid)

    def to_front(self, cid: str) -> None:
        """The character takes the next action."""
        if cid in self.order:
            self.order = (cid, *[i for i in self.order if i != cid])

    def table_changes(self, reason: str) -> list[Change]:
        """The order and the hours, where the action moved them."""
        out: list[Change] = []
        if self.order != self.state.order:
            out.append(Change(TABLE, "order", value=list(self.order), reason=reason))
        if self.hours:
            out.append(Change(TABLE, "hours", delta=self.hours, reason=reason))
        return out

    def table_after(self, state: State) -> State:
        """``state`` with the order and the hours as the action leaves them."""
        if self.order != state.order or self.hours:
            return replace(state, order=self.order, hours=state.hours + self.hours)
        return state

    def changes(self, reason: str = "") -> tuple[Change, ...]:
        """Everything the action changed, as changes in a stable order."""
        return self.build(reason)
