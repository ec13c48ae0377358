"""What an outcome changes at the table, gathered per character (Mneme CE).

Rules never change the state: they describe the change as
:class:`~referee.systems.base.Change` data the ruleset's ``apply`` folds in, through the
cross-game :class:`~referee.systems.changes.Changes` builder. Mneme CE adds two things:
damage is a ``delta`` on ``sheet.damage`` (never below 0: the delta is clamped when it
is made), and conditions are one ``value`` per character for ``sheet.conditions``, however
many were added or removed. :meth:`Changes.sheet` gives the sheet as it will be, for the
outcome's report (the condition it ends in, its movement).
"""

from __future__ import annotations

from referee.systems import changes
from referee.systems.base import Change, jsonable
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.state import Seat, State
from referee.systems.state import apply_changes
from referee.systems.state import replaced as replace


class Changes(changes.Changes[State, Seat]):
    """Changes to the characters of ``state`` (and the table), in order."""

    pending_reason = "decisions"

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self._damage: dict[str, int] = {}
        self._conditions: dict[str, tuple[list[str], list[str]]] = {}

    def _sheet(self, cid: str) -> Sheet:
        return self.state.character(cid).sheet

    def damage(self, cid: str, delta: int, reason: str) -> int:
        """Add ``delta`` damage (negative heals, never below 0); returns what was added."""
        now = self._sheet(cid).damage + self._damage.get(cid, 0)
        delta = max(-now, delta)
        if delta:
            self._damage[cid] = self._damage.get(cid, 0) + delta
            self.recorded.append(Change(cid, "sheet.damage", delta=delta, reason=reason))
        return delta

    def add(self, cid: str, name: str, reason: str) -> None:
        """Give the character a condition (Bleeding, Crippled, Stunned, Dead...)."""
        conds, reasons = self._conditions.setdefault(cid, (list(self._sheet(cid).conditions), []))
        if name not in conds:
            conds.append(name)
            reasons.append(f"+{name}: {reason}")
            seat = self.state.character(cid)
            if name == "Bleeding" and seat.minute_rounds:  # a minute after the damage
                self.set(cid, "minute_rounds", 0, "Bleeding starts")

    def remove(self, cid: str, name: str, reason: str) -> None:
        """Take a condition away (first aid stops Bleeding...)."""
        conds, reasons = self._conditions.setdefault(cid, (list(self._sheet(cid).conditions), []))
        if name in conds:
            conds.remove(name)
            reasons.append(f"-{name}: {reason}")

    def protection(self, cid: str, index: int, delta: int, reason: str) -> None:
        """Damage to the character's protection object ``index`` (never below 0)."""
        objs = list(self._sheet(cid).protection)
        objs[index] = replace(objs[index], damage=max(0, objs[index].damage + delta))
        self.set(cid, "sheet.protection", jsonable(objs), reason)

    def sheet(self, cid: str) -> Sheet:
        """The character's sheet as these changes leave it (damage and conditions)."""
        s = self._sheet(cid)
        conds = self._conditions.get(cid, (list(s.conditions), []))[0]
        return replace(s, damage=s.damage + self._damage.get(cid, 0), conditions=tuple(conds))

    def after(self) -> State:
        """The state :meth:`build`'s changes lead to, worked out directly: the changes
        recorded as data but damage folded in (through ``apply_changes``), then each
        character's damage and conditions as :meth:`sheet` leaves them and the decisions
        waited for (seats put: by ``apply_changes`` of :meth:`build`)."""
        if self.seats:  # seats put are diffed against the old ones: the general way
            return apply_changes(self.state, self.build())
        plain = [c for c in self.recorded if c.field != "sheet.damage"]
        state = apply_changes(self.state, plain) if plain else self.state
        touched = set(self._damage) | {
            cid
            for cid, (conds, _) in self._conditions.items()
            if tuple(conds) != self._sheet(cid).conditions
        }
        characters = dict(state.characters)
        for cid in touched:
            seat = characters[cid]
            sheet = seat.sheet
            damage = sheet.damage + self._damage.get(cid, 0)
            found = self._conditions.get(cid)  # none added or taken: the same tuple
            conds = sheet.conditions if found is None else tuple(found[0])
            characters[cid] = replace(seat, sheet=replace(sheet, damage=damage, conditions=conds))
        if touched:
            state = replace(state, characters=characters)
        if self.pending != state.pending:
            state = replace(state, pending=self.pending)
        return state

    def last_changes(self) -> list[Change]:
        """One change of conditions per character whose conditions changed."""
        out = []
        for cid, (conds, reasons) in self._conditions.items():
            if tuple(conds) != self._sheet(cid).conditions:
                out.append(Change(cid, "sheet.conditions", value=conds, reason="; ".join(reasons)))
        return out
