"""Sorcery checks (Mongrel, Sorcery Expertise and spiritual damage).

Burn and Chill are attacks (see :mod:`.conflict`: Burn is physical damage,
Chill drains Infernal Resolve). Occult takes one hour per die, needs at least
1 Infernal Resolve spent before the roll, and each further point adds +1
Effect (RULINGS); long range, large areas or long time-scales are Modifiers
(1..4, the referee's choice: the text gives no numbers). Know and Resist are
ordinary checks; Resist defends against Occult only (RULINGS).
"""

from __future__ import annotations

from dataclasses import replace

from referee.errors import IllegalAction
from referee.systems.base import Procedure

from .checks import CheckResult, Mode, procedure, target_number


def occult_hours(dice: int) -> int:
    """An Occult working takes one hour per die rolled."""
    return dice


def occult_procedure(
    dice: int,
    tn: int,
    mode: Mode,
    identity: int,
    resolve_spent: int,
    resolve_available: int,
    scope_modifier: int = 0,
) -> Procedure[object, CheckResult]:
    """An Occult check: Resolve spent first, each point beyond the first adds +1 Effect."""
    if resolve_spent < 1:
        raise IllegalAction("Occult needs at least 1 Infernal Resolve spent before the roll")
    if resolve_spent > resolve_available:
        raise IllegalAction(
            f"cannot spend {resolve_spent} Infernal Resolve with {resolve_available} left"
        )
    bonus = resolve_spent - 1
    base: Procedure[object, CheckResult] = procedure(  # type: ignore[assignment]
        dice, target_number(tn, mode, scope_modifier), mode, identity
    )

    def rule(stat: object) -> CheckResult:
        r = base.rule(stat)
        return replace(r, effect=r.effect + bonus) if r.success else r

    return Procedure(base.groups, base.read, base.exact, rule)
