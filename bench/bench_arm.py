"""ARM: exact odds of a check (plain and pushed) and of a blow's damage levels."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
from dyce import H

from harness import Case
from referee.systems.arm.checks import task_odds
from referee.systems.arm.damage import Blow, damage_odds
from referee.systems.arm.options import Options
from referee.systems.arm.tables import DAMAGE_TABLE

TITLE = "ARM checks and damage"

TOTAL, DIFFICULTY = 8, 6
BLOW = Blow(result=5, damage=7, toughness=5, strength=1, wound_armour=4, shock_armour=2)


def _push_bonus(face: int) -> int:
    return 0 if face == 1 else 1


def icepool_check(push: bool) -> tuple[dict[int, int], Fraction]:
    die = icepool.d6 - icepool.d6 + (TOTAL - DIFFICULTY)
    if push:
        die = die + icepool.d6.map(_push_bonus)
    return dict(die.items()), Fraction((die >= 0).probability(True))


def dyce_check(push: bool) -> tuple[dict[int, int], Fraction]:
    h = H(6) - H(6) + (TOTAL - DIFFICULTY)
    if push:
        h = h + H(6).apply(_push_bonus)
    wins = h.ge(0)
    return dict(h.items()), Fraction(wins.get(True, 0), wins.total)


PUSHING = Options(pushing=True)
"""A table's options are built once, not per check."""


def ours_check(push: bool) -> tuple[dict[int, int], Fraction]:
    odds = task_odds(TOTAL, DIFFICULTY, push, PUSHING)
    return odds.result.weights(), odds.p_success


def _levels(roll: int) -> tuple[int, int]:
    total = BLOW.attack + roll
    wm, sm = total - BLOW.toughness - BLOW.wound_armour, total - BLOW.toughness - BLOW.shock_armour
    wound = DAMAGE_TABLE[min(wm, 11)][0] if wm >= 0 else 0
    shock = DAMAGE_TABLE[min(sm, 11)][1] if sm >= 0 else 0
    return wound, shock


def icepool_damage() -> Any:
    return (icepool.d6 - icepool.d6).map(_levels)


def ours_damage() -> Any:
    return damage_odds(BLOW).map(lambda d: (d.wound, d.shock))


def _verify() -> None:
    """The references compute the same numbers as ours (checked before timing)."""
    for push in (False, True):
        ours, p = ours_check(push)
        for name, ref in (("icepool", icepool_check), ("dyce", dyce_check)):
            weights, q = ref(push)
            scale = sum(weights.values()) // sum(ours.values())
            assert {k: v * scale for k, v in ours.items()} == weights, name
            assert p == q, name
    ref = icepool_damage()
    mine = ours_damage()
    assert {k: Fraction(v, ref.denominator()) for k, v in ref.items()} == mine.probabilities()


def cases() -> list[Case]:
    """Check odds (the issue: at most 20 µs each) and damage-level odds."""
    _verify()
    return [
        Case(
            "check odds, plain (8 vs 6)",
            lambda: ours_check(False),
            {"icepool": lambda: icepool_check(False), "dyce": lambda: dyce_check(False)},
            target_us=20,
        ),
        Case(
            "check odds, pushed (8 vs 6)",
            lambda: ours_check(True),
            {"icepool": lambda: icepool_check(True), "dyce": lambda: dyce_check(True)},
            target_us=20,
            note="ours also yields the push's shock-cost distribution",
        ),
        Case(
            "damage levels (axe on Alex)",
            ours_damage,
            {"icepool": icepool_damage},
        ),
    ]
