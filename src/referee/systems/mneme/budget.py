"""A PC's action budget within one round (companion facts, Mneme CE turn economy).

A round is about 6 seconds. Each PC has free actions and 3 Minor actions a round;
two Minor actions make one Significant action. The budget is an immutable value:
spending returns a new budget, overspending is an :class:`IllegalAction`, and the
next round restores it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.errors import IllegalAction, RulesError
from referee.systems.base import Outcome
from referee.systems.mneme.tables import MINOR_ACTIONS, ROUND_SECONDS, SIGNIFICANT_COST

MAX_ROUND = 1_000_000
MAX_FREE = 1000
"""Bounds on untrusted budget numbers."""

KINDS = ("free", "minor", "significant")
"""The kinds of action a PC spends from the budget."""


@dataclass(frozen=True)
class ActionBudget:
    """What a PC has left this round: ``minor_left`` Minor actions (a Significant action
    costs two) and ``free_taken`` free actions so far (free actions are counted, never
    refused: the text sets no limit)."""

    round: int = 1
    minor_left: int = MINOR_ACTIONS
    free_taken: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.round <= MAX_ROUND:
            raise RulesError(f"round must be 1..{MAX_ROUND}, not {self.round}")
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

    @property
    def seconds(self) -> int:
        """Seconds of the encounter elapsed when this round ends (about 6 a round)."""
        return self.round * ROUND_SECONDS

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
                f"round {self.round}: {what} need{'s' if count == 1 else ''} {cost} Minor, "
                f"only {self.minor_left} left ({MINOR_ACTIONS} a round, a Significant action "
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

    def next_round(self) -> ActionBudget:
        """The next round: the full budget again."""
        if self.round >= MAX_ROUND:
            raise RulesError(f"an encounter is at most {MAX_ROUND} rounds")
        return ActionBudget(round=self.round + 1)


def budget_data(budget: ActionBudget) -> dict[str, int]:
    """The budget as JSON data."""
    return {
        "round": budget.round,
        "minor_left": budget.minor_left,
        "significant_left": budget.significant_left,
        "free_taken": budget.free_taken,
    }


def after(kind: str, count: int, budget: ActionBudget) -> ActionBudget:
    """The budget after spending ``count`` of ``kind``, or after ``'new-round'``."""
    if kind == "new-round":
        return budget.next_round()
    return budget.spend(kind, count)


def spend_outcome(kind: str, count: int, budget: ActionBudget) -> Outcome:
    """Spending actions as an Outcome: ``result`` is the Minor actions left and
    ``details['budget']`` the new budget (no dice)."""
    new = after(kind, count, budget)
    if kind == "new-round":
        label = f"round {new.round}: {new.minor_left} Minor actions"
    else:
        left = f"{new.minor_left} Minor left ({new.significant_left} Significant)"
        label = f"{count} {kind} spent: {left}"
    return Outcome(
        "mneme",
        "spend-action",
        result=new.minor_left,
        success=True,
        label=label,
        details={"spent": {"kind": kind, "count": count}, "budget": budget_data(new)},
    )
