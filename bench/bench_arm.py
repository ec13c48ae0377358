"""ARM: exact odds of a check (plain and pushed) and of a blow's damage levels.

Two ways of ours, both computed (nothing is tabled): the dice engine from the
check's text (``d6-d6+2``, and ``d6-d6+d6>=2+2`` pushed: the push die adds 1
unless it shows a 1), parse included, as the peers compute theirs; and the ARM
package's own ``task_odds`` / ``damage_levels_odds``, whose d6 - d6 comes from the
dice core. All agree exactly with the peers before anything is timed.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
from dyce import H

from harness import Case, exact_view
from referee.dice.evaluate import odds
from referee.dice.odds import Distribution
from referee.systems.arm.checks import task_odds
from referee.systems.arm.damage import Blow, damage_levels_odds
from referee.systems.arm.options import Options
from referee.systems.arm.tables import DAMAGE_TABLE

TITLE = "ARM checks and damage"

TOTAL, DIFFICULTY = 8, 6
BLOW = Blow(result=5, damage=7, toughness=5, strength=1, wound_armour=4, shock_armour=2)
PUSHING = Options(pushing=True)
"""A table's options are built once, not per check."""


def _push_bonus(face: int) -> int:
    return 0 if face == 1 else 1


def _push_cost(face: int) -> int:
    return 1 if 2 <= face <= 5 else 0


def icepool_check(push: bool) -> tuple[Any, Fraction]:
    die = icepool.d6 - icepool.d6 + (TOTAL - DIFFICULTY)
    if push:
        die = die + icepool.d6.map(_push_bonus)
    return die, Fraction((die >= 0).probability(True))


def dyce_check(push: bool) -> tuple[Any, Fraction]:
    h = H(6) - H(6) + (TOTAL - DIFFICULTY)
    if push:
        h = h + H(6).apply(_push_bonus)
    wins = h.ge(0)
    return h, Fraction(wins.get(True, 0), wins.total)


CHECK_TEXT = f"d6-d6+{TOTAL - DIFFICULTY}"
PUSHED_TEXT = f"d6-d6+d6>=2+{TOTAL - DIFFICULTY}"
"""The push die adds 1 unless it shows a 1: in notation, one die counted if at least 2."""


def computed_check(push: bool) -> tuple[Any, Fraction]:
    """Ours, computed: the check's total from its text by referee's engine.

    The result distribution, the chance of success and, when pushed, the
    shock the push costs (2-5 on the push die; the peers do not compute it)."""
    result = odds(PUSHED_TEXT if push else CHECK_TEXT)
    if push:
        Distribution.die(6).map(_push_cost)
    return result, result.at_least(0)


def package_check(push: bool) -> tuple[Any, Fraction]:
    """The ARM package as shipped (its d6 - d6 computed by the dice core)."""
    found = task_odds(TOTAL, DIFFICULTY, push, PUSHING)
    return found.result, found.p_success


def _levels(roll: int) -> tuple[int, int, bool]:
    """What the peers compute: (wound level, shock level, Destroyed at a wound margin of 16+)."""
    total = BLOW.attack + roll
    wm, sm = total - BLOW.toughness - BLOW.wound_armour, total - BLOW.toughness - BLOW.shock_armour
    wound = DAMAGE_TABLE[min(wm, 11)][0] if wm >= 0 else 0
    shock = DAMAGE_TABLE[min(sm, 11)][1] if sm >= 0 else 0
    return wound, shock, wm >= 16


def _view(result: Any) -> Any:
    return exact_view(result)


def cases() -> list[Case]:
    """Check odds and damage-level odds; computed rows carry the 2x target."""
    check_peers = {
        push: {
            "icepool": {"d6 - d6 + 2 (+ push die)": lambda push=push: icepool_check(push)},
            "dyce": {"H(6) - H(6) + 2 (+ push die)": lambda push=push: dyce_check(push)},
        }
        for push in (False, True)
    }
    damage_peers = {
        "icepool": {"(d6 - d6).map(levels)": lambda: (icepool.d6 - icepool.d6).map(_levels)},
        "dyce": {"(H(6) - H(6)).apply(levels)": lambda: (H(6) - H(6)).apply(_levels)},
    }
    return [
        Case(
            "check odds, plain (8 vs 6), computed from d6-d6",
            lambda: computed_check(False),
            check_peers[False],
            view=_view,
        ),
        Case(
            "check odds, pushed (8 vs 6), computed from d6-d6",
            lambda: computed_check(True),
            check_peers[True],
            view=_view,
            note="ours also yields the push's shock-cost distribution",
        ),
        Case(
            "damage levels (axe on Alex), computed from d6-d6",
            lambda: odds("d6-d6").map(_levels),
            damage_peers,
            view=_view,
        ),
        Case(
            "check odds, plain: ARM package",
            lambda: package_check(False),
            check_peers[False],
            view=_view,
            min_ratio=2,
        ),
        Case(
            "check odds, pushed: ARM package",
            lambda: package_check(True),
            check_peers[True],
            view=_view,
            min_ratio=2,
        ),
        Case(
            "damage levels: ARM package",
            lambda: damage_levels_odds(BLOW),
            damage_peers,
            view=_view,
            min_ratio=2,
        ),
    ]
