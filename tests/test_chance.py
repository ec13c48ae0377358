"""Every game's chance of success, before the roll, against a count written from the text.

``Ruleset.chance`` comes from the same plan as the roll; these counts come from the
rule texts directly (enumerate the dice, apply the text's arithmetic, count).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from referee.systems.base import get


def _count(sides: int, n: int, ok: object) -> Fraction:
    rolls = list(product(range(1, sides + 1), repeat=n))
    return Fraction(sum(1 for r in rolls if ok(r)), len(rolls))  # type: ignore[operator]


def _chance(game: str, action: str, fields: dict[str, object], seat: str | None = None) -> object:
    rules = get(game)
    options = rules.options_type()
    state = rules.initial_state(options)
    if seat is not None:
        state = rules.seat(state, seat, rules.examples()[seat], options)
    return rules.chance(rules.load_action(action, fields), state, options)


def test_mneme_check_succeeds_when_2d6_plus_modifier_reaches_the_difficulty() -> None:
    # ch. 2: 2d6 + modifiers against the Difficulty; the roll reaching it succeeds
    assert _chance("mneme", "check", {"difficulty": 8}) == _count(6, 2, lambda r: sum(r) >= 8)


def test_arm_task_succeeds_on_a_result_of_zero_or_more() -> None:
    # Task Resolution: total + d6 - d6 - difficulty; 0 (a draw) or more succeeds
    got = _chance("arm", "task", {"actor": "brad", "total": 8, "difficulty": 6}, seat="brad")
    assert got == _count(6, 2, lambda r: 8 + r[0] - r[1] - 6 >= 0) == Fraction(5, 6)


def test_mnemonic_check_succeeds_when_aptitude_minus_the_d12_is_not_negative() -> None:
    # applying chances: Aptitude - d12 (COMPANION ruling) + Chances; zero or more succeeds
    got = _chance("mnemonic", "check", {"aptitude": 6, "chances": 3})
    assert got == _count(12, 1, lambda r: 6 - r[0] + 3 >= 0) == Fraction(3, 4)


def test_mongrel_check_succeeds_when_any_die_rolls_under_the_attribute() -> None:
    # a roll-under pool succeeds when some die is at or under the target (TN 4, 3 dice)
    got = _chance("mongrel", "check", {"dice": 3, "tn": 4})
    assert got == _count(6, 3, lambda r: any(f <= 4 for f in r)) == Fraction(26, 27)


def test_an_action_with_no_success_has_no_chance() -> None:
    assert _chance("mnemonic", "reshuffle", {}) is None
