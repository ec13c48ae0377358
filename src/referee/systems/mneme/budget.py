"""A PC's action budget within one round (companion facts, Mneme CE turn economy).

A round is about 6 seconds. Each PC has free actions and 3 Minor actions a round;
two Minor actions make one Significant action. The budget is an immutable value
kept on the character's seat: spending returns a new budget, overspending is an
:class:`IllegalAction`, and passing a round restores it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.errors import IllegalAction, RulesError
from referee.systems.base import Outcome, Plan
from referee.systems.mneme.actions import SpendAction
from referee.systems.mneme.changes import Changes
from referee.systems.mneme.options import Options
from referee.systems.mneme.state import State
from referee.systems.mneme.tables import MINOR_ACTIONS, SIGNIFICANT_COST

MAX_FREE = 1000
"""Bound on free actions counted in one round."""

KINDS = ("free", "minor", "significant")
"""The kinds of action a PC spends from the budget."""


@dataclass(frozen=True)
class ActionBudget:
    """What a PC has left this round: ``minor_left`` Minor actions (a Significant action
    costs two) and ``free_taken`` free actions so far (free actions are counted, never
    refused: the text sets no limit)."""

    minor_left: int = MINOR_ACTIONS
    free_taken: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.minor_left <= MINOR_ACTIONS:
            raise RulesError(
                f"Minor actions left must be 0..{MINOR_ACTIONS}, not {self.minor_left}"
            )
        if not 0 <= self.free_taken <= MAX_FREE:
            raise RulesError(f"free actions taken must be 0..{MAX_FREE}, not {self.free_taken}")

    @property
    def significant_left(self) -> int:
        """Significant actions still possible this round (two Minor each)."""
        return self.minor_left // SIGNIFICANT_COST

    def spend(self, kind: str, count: int = 1) -> ActionBudget:
        """Spend ``count`` actions of ``kind`` ('free', 'minor' or 'significant')."""
        if kind not in KINDS:
            raise RulesError(f"an action is one of {', '.join(KINDS)}, not {kind!r}")
        if not 1 <= count <= MAX_FREE:
            raise RulesError(f"the number of actions must be 1..{MAX_FREE}, not {count}")
        if kind == "free":
            if self.free_taken + count > MAX_FREE:
                raise RulesError(f"more than {MAX_FREE} free actions in one round")
            return replace(self, free_taken=self.free_taken + count)
        cost = count * (SIGNIFICANT_COST if kind == "significant" else 1)
        if cost > self.minor_left:
            what = f"{count} {kind.capitalize()} action{'s' if count > 1 else ''}"
            raise IllegalAction(
                f"{what} need{'s' if count == 1 else ''} {cost} Minor, only "
                f"{self.minor_left} left ({MINOR_ACTIONS} a round, a Significant action "
                f"costs {SIGNIFICANT_COST})"
            )
        return replace(self, minor_left=self.minor_left - cost)

    def spend_minor(self, count: int = 1) -> ActionBudget:
        """Spend Minor actions."""
        return self.spend("minor", count)

    def spend_significant(self, count: int = 1) -> ActionBudget:
        """Spend Significant actions (two Minor each)."""
        return self.spend("significant", count)

    def spend_free(self, count: int = 1) -> ActionBudget:
        """Take free actions."""
        return self.spend("free", count)


def plan_spend_action(action: SpendAction, state: State, options: Options) -> Plan:
    """Spend actions from the character's budget for the round (companion facts, turn
    economy); the odds report the Minor actions left (certain)."""
    seat = state.character(action.actor)
    before = ActionBudget(min(seat.minor_left, MINOR_ACTIONS), min(seat.free_taken, MAX_FREE))
    try:
        new = before.spend(action.kind, action.count)
    except IllegalAction as e:
        raise IllegalAction(f"{seat.sheet.name}, round {state.round or 1}: {e}") from None
    changes = Changes(state)
    if new.minor_left != seat.minor_left:
        changes.set(action.actor, "minor_left", new.minor_left, f"{action.kind} action")
    if new.free_taken != seat.free_taken:
        changes.set(action.actor, "free_taken", new.free_taken, "free action")
    left = f"{new.minor_left} Minor left ({new.significant_left} Significant)"
    outcome = Outcome(
        "mneme",
        "spend-action",
        result=new.minor_left,
        success=True,
        label=f"{action.count} {action.kind} spent: {left}",
        changes=changes.build(),
        details={
            "spent": {"kind": action.kind, "count": action.count},
            "budget": {
                "minor_left": new.minor_left,
                "significant_left": new.significant_left,
                "free_taken": new.free_taken,
            },
        },
    )
    return Plan.fixed(outcome, value=new.minor_left)
