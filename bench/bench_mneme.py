"""Mneme CE: check odds and attack damage distributions (issue 3)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
from dyce import H

from harness import Case, dyce_keep
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


def _as_fractions(dist: Any) -> dict[int, Fraction]:
    """Outcome -> probability for ours, icepool and dyce alike."""
    if hasattr(dist, "probabilities") and callable(dist.probabilities):
        probs = dist.probabilities()
        if isinstance(probs, dict):
            return {int(k): Fraction(v) for k, v in probs.items()}
    if isinstance(dist, icepool.Die):
        total = dist.denominator()
        return {int(o): Fraction(q, total) for o, q in dist.items()}
    total = dist.total
    return {int(o): Fraction(c, total) for o, c in dist.items() if c}


def _check_same() -> None:
    """The references compute the same distributions as ours (asserted once)."""
    pairs = [
        (_ours_check(), 2 @ icepool.d6 + 3 - 8, 2 @ H(6) + 3 - 8),
        (_ours_adv(), icepool.d6.highest(3, 2) + 3 - 8, dyce_keep(H(6), 3, 2) + 3 - 8),
        (_ours_dis(), icepool.d6.lowest(3, 2) + 3 - 8, dyce_keep(H(6), 3, 2, False) + 3 - 8),
        (_ours_damage(6), _ice_per_roll().highest(6, 3), dyce_keep(_dyce_per_roll(), 6, 3)),
        (_ours_damage(3), 3 @ _ice_per_roll(), 3 @ _dyce_per_roll()),
    ]
    for ours, ice, dy in pairs:
        assert _as_fractions(ours) == _as_fractions(ice) == _as_fractions(dy)


def cases() -> list[Case]:
    """The issue's targets: check odds <= 20 us, damage (6 rolls of 3d6 keep 3) <= 0.5 ms."""
    _check_same()
    return [
        Case(
            "check odds: 2d6+3 vs 8 (Effect distribution)",
            _ours_check,
            {"icepool": lambda: 2 @ icepool.d6 + 3 - 8, "dyce": lambda: 2 @ H(6) + 3 - 8},
            target_us=20,
            min_ratio=2,
        ),
        Case(
            "check odds with Advantage: 3d6 keep 2 + 3 vs 8",
            _ours_adv,
            {
                "icepool": lambda: icepool.d6.highest(3, 2) + 3 - 8,
                "dyce": lambda: dyce_keep(H(6), 3, 2) + 3 - 8,
            },
            target_us=20,
            min_ratio=2,
        ),
        Case(
            "check odds with Disadvantage: 3d6 keep 2 lowest + 3 vs 8",
            _ours_dis,
            {
                "icepool": lambda: icepool.d6.lowest(3, 2) + 3 - 8,
                "dyce": lambda: dyce_keep(H(6), 3, 2, False) + 3 - 8,
            },
            target_us=20,
            min_ratio=2,
        ),
        Case(
            "damage: 6 rolls of 3d6 vs AR 2, keep highest 3 (RoA 3)",
            lambda: _ours_damage(6),
            {
                "icepool": lambda: _ice_per_roll().highest(6, 3),
                "dyce": lambda: dyce_keep(_dyce_per_roll(), 6, 3),
            },
            target_us=500,
            min_ratio=2,
        ),
        Case(
            "damage: 3 rolls of 3d6 vs AR 2, all kept",
            lambda: _ours_damage(3),
            {
                "icepool": lambda: 3 @ _ice_per_roll(),
                "dyce": lambda: 3 @ _dyce_per_roll(),
            },
            target_us=500,
            min_ratio=2,
        ),
    ]
