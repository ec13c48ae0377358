"""What an outcome changes at the table, gathered per character (Mneme CE).

Rules never change the state: they describe the change as
:class:`~referee.systems.base.Change` data the ruleset's ``apply`` folds in. Damage is a
``delta`` on ``sheet.damage`` (never below 0: the delta is clamped when it is made);
conditions are one ``value`` per character for ``sheet.conditions``, however many were
added or removed; other fields are set by value. :meth:`Changes.sheet` gives the sheet as
it will be, for the outcome's report (the condition it ends in, its movement).
"""

from __future__ import annotations

from dataclasses import replace

from referee.systems.base import TABLE, Change, Decision, JSONValue, jsonable
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.state import State


class Changes:
    """Changes to the characters of ``state`` (and the table), in order."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._out: list[Change] = []
        self._damage: dict[str, int] = {}
        self._conditions: dict[str, tuple[list[str], list[str]]] = {}
        self._pending: list[Decision] = list(state.pending)

    def _sheet(self, cid: str) -> Sheet:
        return self.state.character(cid).sheet

    def damage(self, cid: str, delta: int, reason: str) -> int:
        """Add ``delta`` damage (negative heals, never below 0); returns what was added."""
        now = self._sheet(cid).damage + self._damage.get(cid, 0)
        delta = max(-now, delta)
        if delta:
            self._damage[cid] = self._damage.get(cid, 0) + delta
            self._out.append(Change(cid, "sheet.damage", delta=delta, reason=reason))
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

    def set(self, cid: str, field: str, value: JSONValue, reason: str = "") -> None:
        """Set a field of the character's seat (``"sheet.x"`` for the sheet)."""
        self._out.append(Change(cid, field, value=value, reason=reason))

    def table(self, field: str, *, delta: int | None = None, value: JSONValue = None) -> None:
        """Change a field of the table itself."""
        self._out.append(Change(TABLE, field, delta=delta, value=value))

    def wait_for(self, decision: Decision) -> None:
        """The rules wait for ``decision`` after this outcome (a roll the character owes)."""
        self._pending.append(decision)

    def answered(self, cid: str, choice: str) -> None:
        """The first decision ``cid`` owes that ``choice`` answers is answered."""
        for i, d in enumerate(self._pending):
            if d.actor == cid and choice in d.choices:
                del self._pending[i]
                return

    def sheet(self, cid: str) -> Sheet:
        """The character's sheet as these changes leave it (damage and conditions)."""
        s = self._sheet(cid)
        conds = self._conditions.get(cid, (list(s.conditions), []))[0]
        return replace(s, damage=s.damage + self._damage.get(cid, 0), conditions=tuple(conds))

    def build(self) -> tuple[Change, ...]:
        """Every change, conditions last (one per character whose conditions changed)."""
        out = list(self._out)
        if tuple(self._pending) != self.state.pending:
            out.append(
                Change(TABLE, "pending", value=jsonable(tuple(self._pending)), reason="decisions")
            )
        for cid, (conds, reasons) in self._conditions.items():
            if tuple(conds) != self._sheet(cid).conditions:
                out.append(Change(cid, "sheet.conditions", value=conds, reason="; ".join(reasons)))
        return tuple(out)
