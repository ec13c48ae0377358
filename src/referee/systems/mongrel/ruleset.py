"""The Mongrel :class:`~referee.systems.base.Ruleset`: one contract for the whole game.

Each action is declared once in :func:`.actions.table` with the rule module's
planner that knows it (:mod:`.conflict` for task and complex task resolution,
:mod:`.sorcery`, :mod:`.wealth`, :mod:`.advancement`). The plan dispatch,
resolve, odds and apply are derived from that table in the base class.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from referee.systems.base import Action, JSONObject, JSONValue, Ruleset, Verdict
from referee.systems.sheetview import SheetView
from referee.systems.turns import Turns

from .damage import terminal_at, wound_threshold
from .options import Options
from .sheet import Sheet
from .state import Seat, State, reseated, seat_of


class MongrelRuleset(Ruleset[Sheet, State, Options]):
    """Mongrel (Ron Edwards, 2003)."""

    name: ClassVar[str] = "mongrel"
    title: ClassVar[str] = "Mongrel"

    def seat(self, state: State, cid: str, sheet: Sheet, options: Options) -> State:
        """Seat ``cid`` fresh (AP = Speed, Infernal Resolve = Spirit), or replace its sheet
        keeping what play tracked. A character joins a conflict when the next one starts."""
        chars = dict(state.characters)
        old = chars.get(cid)
        chars[cid] = seat_of(sheet) if old is None else reseated(old, sheet)
        return replace(state, characters=chars)

    def sheets_read(self, action: Action, options: Options) -> tuple[str, ...]:
        """An attack the target does not defend rolls under the attacker's own attribute
        (Complex task resolution, step 3): its odds read the target's sheet only to shunt
        damage to Beauty. A defended one rolls over the target's attribute."""
        from .actions import Attack

        if isinstance(action, Attack) and not action.defend and not action.shunt_to_beauty:
            return action.actors()
        return super().sheets_read(action, options)

    def unseat(self, state: State, cid: str) -> State:
        """``state`` without ``cid``: its decisions and its place in the order go too."""
        out = super().unseat(state, cid)
        return replace(out, order=tuple(i for i in out.order if i != cid))

    def sheet_view(
        self, sheet: Sheet, seat: object | None, options: Options, state: State | None = None
    ) -> SheetView:
        """The sheet laid out as the game's own (:mod:`.present`)."""
        from referee.systems.mongrel.present import sheet_view

        return sheet_view(sheet, seat, options)

    def verdict(self, sheet: Sheet, options: Options) -> Verdict:
        """The rules the sheet breaks that no referee approval on it covers, shown after
        its derived scores with every problem and its approval (:mod:`.validation`)."""
        from .validation import audit, validation_data, validation_lines

        found = audit(sheet, options)
        left = tuple(p for p, reason in found if reason is None)
        shown = tuple(validation_lines(sheet, found))
        return Verdict(left, lines=shown, data=validation_data(sheet, found, not left))

    def turns(self, state: State, options: Options) -> Turns:
        """Whose turn it is (:mod:`.turns`)."""
        from referee.systems.mongrel import turns

        return turns.turns(state, options)

    def tracker(self, state: State, options: Options) -> JSONObject:
        """What a table shows of the state, in words: the conflict's order and who acts
        next (by name), the hours gone, the decisions awaited; per character the Action
        Points and Infernal Resolve left of their maximums, the damage track and its
        stage (Mongrel, Physical damage; Fatigue). The Identity scores that order a
        conflict are on the sheet (:mod:`.present`), not here: who may see a sheet is
        the table's choice, the tracker everyone sees."""
        names = {cid: f.name for cid, f in state.characters.items()}
        table: list[JSONValue] = [
            [
                "Conflict order",
                " > ".join(names.get(c, c) for c in state.order) if state.order else "none",
            ],
            ["Next to act", names.get(state.next, state.next) if state.next else "nobody"],
            ["Hours elapsed", state.hours],
        ]
        for d in state.pending:
            who = names.get(d.actor, d.actor)
            table.append([f"Waiting for {who}", f"{d.prompt} ({' or '.join(d.choices)})"])
        characters: dict[str, JSONValue] = {
            cid: _rows(f, state, options) for cid, f in state.characters.items()
        }
        return {"table": table, "characters": characters}


def _rows(f: Seat, state: State, options: Options) -> list[JSONValue]:
    fatigued = f.refreshes >= f.physique
    counted = f.refreshes if fatigued or f.refresh_hour == state.hours else 0
    condition = f.condition or "fine"
    rows: list[JSONValue] = [
        ["Name", f.name],
        ["Action Points", f"{f.ap} / {f.effective_ap_max}"],
        ["Infernal Resolve", f"{f.ir} / {f.ir_max}"],
        [
            "Damage",
            f"{f.damage} (collapses past {wound_threshold(f, options)}; "
            f"terminal at {terminal_at(f, options)})",
        ],
        [
            "Physique",
            f"{f.physique}"
            + (f" ({f.base_physique} less {f.physique_loss} lost)" if f.physique_loss else ""),
        ],
        [
            "Beauty",
            f"{f.beauty}"
            + (f" ({f.beauty_permanent} lost for good)" if f.beauty_permanent else ""),
        ],
        ["Condition", condition[:1].upper() + condition[1:]],
        [
            "Full refreshes this hour",
            f"{counted} / {f.physique}" + (" (fatigued)" if fatigued else ""),
        ],
    ]
    return rows


RULESET = MongrelRuleset()

__all__ = ["RULESET", "MongrelRuleset"]
