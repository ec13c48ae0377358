"""The Mongrel :class:`~referee.systems.base.Ruleset`: one contract for the whole game.

:meth:`MongrelRuleset.plan` is the one place an action is resolved: it sends
each action type to the rule module that knows it (:mod:`.conflict` for task
and complex task resolution, :mod:`.sorcery`, :mod:`.wealth`,
:mod:`.advancement`). Resolve, odds and apply are derived from the plan in the
base class.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from referee.errors import IllegalAction, Problem, RulesError
from referee.systems.base import Action, JSONObject, JSONValue, Plan, Ruleset
from referee.systems.building import ExampleInfo
from referee.systems.sheetview import SheetView

from . import advancement, conflict, wealth
from .actions import ACTIONS
from .damage import terminal_at, wound_threshold
from .examples import EXAMPLES, INFO, example
from .options import Options
from .sheet import Sheet, validate
from .sorcery import occult_roll_plan
from .state import Fighter, State, fighter, reseated

Planner = Callable[[Any, State, Options], Plan]

PLANS: dict[type[Action], Planner] = {
    ACTIONS["check"]: conflict.check_plan,
    ACTIONS["task"]: conflict.task_plan,
    ACTIONS["start-conflict"]: conflict.start_plan,
    ACTIONS["end-conflict"]: conflict.end_plan,
    ACTIONS["advance"]: conflict.advance_plan,
    ACTIONS["attack"]: conflict.attack_plan,
    ACTIONS["occult"]: conflict.occult_plan,
    ACTIONS["recover"]: conflict.recover_plan,
    ACTIONS["wait"]: conflict.wait_plan,
    ACTIONS["spend-resolve"]: conflict.spend_plan,
    ACTIONS["take-damage"]: conflict.take_damage_plan,
    ACTIONS["spend-resolve-to-survive"]: conflict.survive_plan,
    ACTIONS["accept-fate"]: conflict.accept_plan,
    ACTIONS["rest"]: conflict.rest_plan,
    ACTIONS["vow-refresh"]: conflict.vow_plan,
    ACTIONS["occult-roll"]: occult_roll_plan,
    ACTIONS["buy"]: wealth.buy_plan,
    ACTIONS["buy-roll"]: wealth.buy_roll_plan,
    ACTIONS["sacrifice-credit"]: wealth.sacrifice_plan,
    ACTIONS["decline-purchase"]: wealth.decline_plan,
    ACTIONS["transfer-credit"]: wealth.transfer_plan,
    ACTIONS["award-points"]: advancement.award_plan,
    ACTIONS["raise-expertise"]: advancement.raise_expertise_plan,
    ACTIONS["raise-identity"]: advancement.raise_identity_plan,
    ACTIONS["raise-attribute"]: advancement.raise_attribute_plan,
    ACTIONS["approve-sheet"]: advancement.approve_plan,
}
"""Each action type -> the rule that plans it."""


class MongrelRuleset(Ruleset[Sheet, State, Options]):
    """Mongrel (Ron Edwards, 2003)."""

    name: ClassVar[str] = "mongrel"
    title: ClassVar[str] = "Mongrel"
    sheet_type = Sheet
    state_type = State
    options_type = Options

    def actions(self) -> Mapping[str, type[Action]]:
        """Every action by name (see :mod:`.actions`)."""
        return ACTIONS

    def validate(self, sheet: Sheet, options: Options) -> tuple[Problem, ...]:
        """Every creation rule the sheet breaks that no referee approval covers."""
        return validate(sheet, options)

    def examples(self) -> Mapping[str, Sheet]:
        """Alwia (Ahvia), Vooruk and Giazza (Ghiazza), by id."""
        return {name: example(name) for name in EXAMPLES}

    def example_info(self) -> Mapping[str, ExampleInfo]:
        """The text's three examples and their documented discrepancies."""
        return INFO

    def seat(self, state: State, cid: str, sheet: Sheet, options: Options) -> State:
        """Seat ``cid`` fresh (AP = Speed, Infernal Resolve = Spirit), or replace its sheet
        keeping what play tracked. A character joins a conflict when the next one starts."""
        chars = dict(state.characters)
        old = chars.get(cid)
        chars[cid] = fighter(sheet) if old is None else reseated(old, sheet)
        return replace(state, characters=chars)

    def unseat(self, state: State, cid: str) -> State:
        """``state`` without ``cid``: its decisions and its place in the order go too."""
        out = super().unseat(state, cid)
        return replace(out, order=tuple(i for i in out.order if i != cid))

    def plan(self, action: Action, state: State, options: Options) -> Plan:
        """The rule for ``action`` in ``state``; :class:`IllegalAction` if not allowed now."""
        planner = PLANS.get(type(action))
        if planner is None:
            raise IllegalAction(f"Mongrel has no action {type(action).__name__}")
        try:
            return planner(action, state, options)
        except IllegalAction:
            raise
        except RulesError as e:  # a bound or a creation rule the action would break
            raise IllegalAction(str(e)) from None

    def sheet_view(
        self, sheet: Sheet, seat: object | None, options: Options, state: State | None = None
    ) -> SheetView:
        """The sheet laid out as the game's own (:mod:`.present`)."""
        from referee.systems.mongrel.present import sheet_view

        return sheet_view(sheet, seat, options)

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


def _rows(f: Fighter, state: State, options: Options) -> list[JSONValue]:
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

__all__ = ["PLANS", "RULESET", "MongrelRuleset"]
