"""House rules for ARM: every referee choice the text leaves open, with the rulings as defaults."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

from referee.errors import InvalidSheet, Problem
from referee.systems.base import option

_CHOICES = {
    "log_method": ("table", "exact"),
    "group_count": ("total", "helpers"),
    "group_method": ("shortcut", "sum"),
    "push_offer": ("failure", "any"),
    "push_when_needed": ("failure", "saveable"),
}
_LIMITS = {
    "stun_shift": (0, 5),
    "destroyed_at": (0, 100),
    "max_wounds": (0, 100),
}
"""Bounds on the numeric house rules; other numbers (bonuses, bases) stay within +-100."""
RULE = "ARM options"


@dataclass(frozen=True)
class Options:
    """A table's ARM house rules (ARM 1.2; defaults = the product's rulings)."""

    log_method: Literal["table", "exact"] = option(
        "table", "Log <-> measure by the chart (table) or by 10^(log/5) (exact)."
    )
    pushing: bool = option(
        False,
        "The optional push (the text marks it optional, so it is off until the "
        "referee allows it): a third d6, 1 nothing, 2-5 +1 and +1 shock, 6 +1 free. "
        "Off refuses every push.",
    )
    push_offer: Literal["failure", "any"] = option(
        "any",
        "When a roll waits for its roller's push decision (an action's push = ask): after "
        "every d6 - d6 roll of the character's own, the attacker's damage roll included "
        "(any: the text's 'a success, or a better result'), or after a failed roll only "
        "(failure: 'really needs a success').",
    )
    accept_on_next: bool = option(
        False,
        "A roll held for its push decision is accepted when its roller makes another "
        "d6 - d6 roll (moving on is electing not to push: the text has the push decided "
        "after the roll, and says no more); off, that next roll waits for push or accept.",
    )
    push_when_needed: Literal["failure", "saveable"] = option(
        "failure",
        "What 'push when needed' (push = if-needed, and its odds) pushes: every failed roll "
        "(failure), or only a failure that +1 turns into a success (saveable).",
    )
    draw_succeeds: bool = option(
        True,
        "A result of 0 (a draw, a marginal success at best) counts as a success; "
        "the text goes on to further calculations on 0 or more.",
    )
    group_count: Literal["total", "helpers"] = option(
        "total",
        "Group effort within 1: add the log of the total number of people "
        "(ruling) or of the other helpers (the text's words).",
    )
    group_method: Literal["shortcut", "sum"] = option(
        "shortcut",
        "Group effort: when nobody is more than 1 from anybody else, the lowest log plus the "
        "log of the number of people (shortcut, the text's simpler way), or always add the "
        "measures and convert the sum back (sum).",
    )
    one_action_per_round: bool = option(
        True,
        "While a round runs, each combatant has one action (a prepared or circling combatant "
        "may still defend; a counter-blow defends then attacks).",
    )
    armour_counts: bool = option(
        True, "Armour values add to Toughness against damage (if the GM permits)."
    )
    stun_shift: int = option(1, "Levels a stunning attack moves from wound to shock damage.")
    destroyed_at: int = option(16, "A wound-side blow result of this or more is Destroyed.")
    record_wounds: bool = option(
        False, "Keep a record of each named wound (at most max_wounds per character)."
    )
    max_wounds: int = option(5, "Most named wounds a character may carry when recorded.")
    ranged_prepared_dodge: int = option(
        2,
        "Base difficulty of a prepared dodge of a slow missile: 2 as in melee "
        "(the ranged section says 6).",
    )
    standstill_defence_bonus: int = option(
        2, "Defence bonus for combatants at a standstill (assumed prepared)."
    )
    circling_bonus: int = option(1, "Attack bonus next round after a successful circling test.")
    berserk_penalty: int = option(-2, "Penalty to the next action after a berserk attack.")
    negative_distance_zero: bool = option(
        True, "Negative distance logs count as 0 for the ranged difficulty."
    )

    def __post_init__(self) -> None:
        """Refuse a house rule the rules cannot use: :class:`InvalidSheet` naming every
        field that is wrong (a clear error, not odd results)."""
        problems = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _CHOICES:
                wrong = value not in _CHOICES[f.name]
                need = " or ".join(_CHOICES[f.name])
            elif f.type in (bool, "bool"):
                wrong, need = not isinstance(value, bool), "true or false"
            else:
                low, high = _LIMITS.get(f.name, (-100, 100))
                number = isinstance(value, int) and not isinstance(value, bool)
                wrong = not number or not low <= value <= high
                need = f"a whole number {low}..{high}"
            if wrong:
                problems.append(Problem(RULE, f.name, f"the option is {need}", value))
        if problems:
            raise InvalidSheet(problems)


DEFAULT_OPTIONS = Options()
"""The rulings, for callers that pass no options (an immutable value, built once)."""
