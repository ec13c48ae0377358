"""Mneme CE: check odds and attack damage distributions (issue 3); dyce in both of its
keep-highest formulations (``P.at`` and a survey), the faster counting."""

from __future__ import annotations

from typing import Any

import icepool
from dyce import H

from harness import Case, dyce_keep_at, dyce_keep_survey
from referee.systems.base import Modifier
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import Check
from referee.systems.mneme.damage import DamageSpec, Target, damage_odds
from referee.systems.mneme.options import Options

TITLE = "Mneme CE"

OPTIONS = Options()
CHECK = Check(difficulty=8, modifiers=(Modifier(3, "Cmp", "competence"),))
CHECK_ADV = Check(difficulty=8, modifiers=(Modifier(3, "Cmp", "competence"),), advantage=1)
CHECK_DIS = Check(difficulty=8, modifiers=(Modifier(3, "Cmp", "competence"),), disadvantage=1)
RIFLE = DamageSpec("3d6", rate_of_attack=3)
ARMOUR = Target(armour=2)


def _ours_check() -> Any:
    return RULESET.odds(CHECK, None, OPTIONS)


def _ours_adv() -> Any:
    return RULESET.odds(CHECK_ADV, None, OPTIONS)


def _ours_dis() -> Any:
    return RULESET.odds(CHECK_DIS, None, OPTIONS)


def _ours_damage(rolls: int) -> Any:
    return damage_odds(RIFLE, rolls, ARMOUR, options=OPTIONS)


def _ice_per_roll() -> Any:
    return (3 @ icepool.d6 - 2).map(lambda x: max(x, 0))


def _dyce_per_roll() -> Any:
    return (3 @ H(6) - 2).apply(lambda x: max(x, 0))


def _keep(h: Any, n: int, keep: int, highest: bool = True) -> dict[str, Any]:
    return {
        "P.at": lambda: dyce_keep_at(h(), n, keep, highest) + 3 - 8,
        "survey": lambda: dyce_keep_survey(h(), n, keep, highest) + 3 - 8,
    }


def cases() -> list[Case]:
    """The issue's targets: check odds <= 20 us, damage (6 rolls of 3d6 keep 3) <= 0.5 ms."""
    d6 = lambda: H(6)  # noqa: E731
    return [
        Case(
            "check odds: 2d6+3 vs 8 (Effect distribution)",
            _ours_check,
            {
                "icepool": {"2 @ d6 + 3 - 8": lambda: 2 @ icepool.d6 + 3 - 8},
                "dyce": {"2 @ H(6) + 3 - 8": lambda: 2 @ H(6) + 3 - 8},
            },
            target_us=20,
        ),
        Case(
            "check odds with Advantage: 3d6 keep 2 + 3 vs 8",
            _ours_adv,
            {
                "icepool": {"d6.highest(3, 2) + 3 - 8": lambda: icepool.d6.highest(3, 2) + 3 - 8},
                "dyce": _keep(d6, 3, 2),
            },
            target_us=20,
        ),
        Case(
            "check odds with Disadvantage: 3d6 keep 2 lowest + 3 vs 8",
            _ours_dis,
            {
                "icepool": {"d6.lowest(3, 2) + 3 - 8": lambda: icepool.d6.lowest(3, 2) + 3 - 8},
                "dyce": _keep(d6, 3, 2, highest=False),
            },
            target_us=20,
        ),
        Case(
            "damage: 6 rolls of 3d6 vs AR 2, keep highest 3 (RoA 3)",
            lambda: _ours_damage(6),
            {
                "icepool": {"per_roll.highest(6, 3)": lambda: _ice_per_roll().highest(6, 3)},
                "dyce": {
                    "P.at": lambda: dyce_keep_at(_dyce_per_roll(), 6, 3),
                    "survey": lambda: dyce_keep_survey(_dyce_per_roll(), 6, 3),
                },
            },
            target_us=500,
        ),
        Case(
            "damage: 3 rolls of 3d6 vs AR 2, all kept",
            lambda: _ours_damage(3),
            {
                "icepool": {"3 @ per_roll": lambda: 3 @ _ice_per_roll()},
                "dyce": {"3 @ per_roll": lambda: 3 @ _dyce_per_roll()},
            },
            target_us=500,
        ),
    ]
