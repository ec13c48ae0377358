"""Task resolution: exact odds against an independent reading of the text, the scoped
special cases, bounds."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.dice.brute import brute_force
from referee.dice.odds import Distribution
from referee.errors import RulesError
from referee.systems.mongrel import RULESET
from referee.systems.mongrel.actions import Check
from referee.systems.mongrel.checks import (
    CheckResult,
    check_odds,
    exact_stat,
    full_stat,
    meets,
    pool_procedure,
    procedure,
    read,
    target_number,
    zero_procedure,
)
from referee.systems.mongrel.options import Options


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("tn", [-1, 0, 1, 2, 3, 5, 6, 7, 8])
@pytest.mark.parametrize("mode", ["under", "over"])
def test_statistic_matches_brute_force(n: int, tn: int, mode: str) -> None:
    assert exact_stat(n, tn, mode) == brute_force(  # type: ignore[arg-type]
        [(n, 6)],
        lambda f: read(f, tn, mode),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("tn", [0, 3, 6, 7])
@pytest.mark.parametrize("mode", ["under", "over"])
def test_full_statistic_matches_brute_force(n: int, tn: int, mode: str) -> None:
    def triple(faces: tuple[int, ...]) -> tuple[int, int, int]:
        hits = sum(1 for f in faces if meets(f, tn, mode))  # type: ignore[arg-type]
        return hits, faces.count(6), faces.count(1)

    assert full_stat(n, tn, mode) == brute_force([(n, 6)], triple)  # type: ignore[arg-type]


# -- an independent reader of the rule, straight from the text ----------------------
#
# Mongrel, Task Resolution: roll Expertise d6; a die succeeds when at most one's own
# attribute (under) or at least a target's (over); Effect = succeeding dice + the
# Identity. The special cases, scoped as RULINGS.md reads them: half or more 1s fails
# a roll over TN 1 or less; half or more 6s fails a roll under TN 6 or more; half or
# more 6s succeeds with Effect 1 (no Identity) a roll over TN 7 or more. Zero
# Expertise: one die twice, each judged as a one-die roll, both must succeed,
# Effect 1. Nothing below imports the package's rule functions.


def text_pool(faces: tuple[int, ...], tn: int, mode: str, identity: int) -> tuple[bool, int]:
    """(success, Effect) of one roll, read from the text."""
    n = len(faces)
    if mode == "over" and tn <= 1 and 2 * faces.count(1) >= n:
        return False, 0
    if mode == "under" and tn >= 6 and 2 * faces.count(6) >= n:
        return False, 0
    if mode == "over" and tn >= 7:
        return (True, 1) if 2 * faces.count(6) >= n else (False, 0)
    hits = len([f for f in faces if (f <= tn if mode == "under" else f >= tn)])
    return (True, hits + identity) if hits else (False, 0)


def text_check(
    faces: tuple[int, ...], dice: int, tn: int, mode: str, identity: int
) -> tuple[bool, int]:
    """A check of ``dice`` d6 (0: one die twice) read from the text."""
    if dice == 0:
        both = all(text_pool((f,), tn, mode, 0)[0] for f in faces)
        return (True, 1) if both else (False, 0)
    return text_pool(faces, tn, mode, identity)


def text_odds(dice: int, tn: int, mode: str, identity: int) -> Distribution[tuple[bool, int]]:
    """Every face combination through the text's reader."""
    rolls = product(range(1, 7), repeat=dice or 2)
    return Distribution(Counter(text_check(f, dice, tn, mode, identity) for f in rolls))


def _seen(dist: Distribution[CheckResult]) -> Distribution[tuple[bool, int]]:
    return dist.map(lambda r: (r.success, r.effect if r.success else 0))


@pytest.mark.parametrize("dice", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("tn", [-1, 0, 1, 2, 3, 5, 6, 7, 8])
@pytest.mark.parametrize("mode", ["under", "over"])
def test_check_odds_agree_with_the_text(dice: int, tn: int, mode: str) -> None:
    for identity in (0, 3):
        expected = text_odds(dice, tn, mode, identity)
        assert _seen(check_odds(dice, tn, mode, identity)) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("dice", "tn", "mode", "difficulty"),
    [
        (3, 7, "under", 2),
        (4, 3, "over", 1),
        (2, 6, "under", 4),
        (0, 5, "over", 2),
        (5, 4, "over", 3),
    ],
)
def test_ruleset_odds_of_a_check_agree_with_the_text(
    dice: int, tn: int, mode: str, difficulty: int
) -> None:
    """A Modifier makes a roll harder: the TN drops under, rises over (RULINGS)."""
    harder = tn - difficulty if mode == "under" else tn + difficulty
    action = Check(dice, tn, mode, 4, difficulty)  # type: ignore[arg-type]
    state = RULESET.initial_state(Options())
    assert _seen(RULESET.odds(action, state, Options())) == text_odds(dice, harder, mode, 4)


def test_the_text_reader_reproduces_the_worked_examples() -> None:
    assert text_check((6, 3, 1, 1), 4, 3, "over", 4) == (True, 6)  # Ahvia lies
    assert text_check((5,), 1, 3, "over", 2) == (True, 3)  # Ahvia negotiates
    assert text_check((4, 6, 6), 3, 5, "under", 4) == (True, 5)  # Vooruk's balance


def test_special_cases_are_scoped() -> None:
    # half or more 1s fails only a roll-over against TN 1 or less
    assert not pool_procedure(4, 1, "over").apply((1, 1, 5, 6)).success
    assert pool_procedure(4, 3, "over").apply((6, 3, 1, 1)).successes == 2
    # half or more 6s fails a roll-under against TN 6+
    assert not pool_procedure(2, 6, "under").apply((6, 2)).success
    assert pool_procedure(3, 6, "under", 1).apply((6, 2, 3)).effect == 4
    # half or more 6s succeeds with Effect 1 against TN 7+, no Identity
    r = pool_procedure(3, 7, "over", 4).apply((6, 6, 1))
    assert r.success and r.effect == 1
    assert not pool_procedure(3, 7, "over", 4).apply((6, 5, 1)).success


def test_zero_expertise_needs_two_passes_and_gives_effect_1() -> None:
    proc = procedure(0, 4, "under", identity=5)
    assert proc.apply((2, 4)).effect == 1 and proc.apply((2, 4)).success
    assert not proc.apply((5, 1)).success
    # each roll is judged as a one-die pool: a lone 6 fails a roll-under against 6
    assert not procedure(0, 6, "under").apply((6, 1)).success
    assert check_odds(0, 3, "over").probability(zero_procedure(3, "over").apply((3, 3))) == (
        Fraction(4, 6) ** 2
    )


def test_modifiers_make_rolls_harder() -> None:
    assert target_number(7, "under", 2) == 5
    assert target_number(3, "over", 2) == 5
    with pytest.raises(RulesError, match="0 to 4"):
        target_number(3, "over", 5)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((41, 3, "under"), "dice must be"),
        ((2, 99, "under"), "target number"),
        ((2, 3, "up"), "mode"),
    ],
)
def test_bounds(args: tuple[int, int, str], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        procedure(*args)  # type: ignore[arg-type]


@given(
    faces=st.lists(st.integers(1, 6), min_size=0, max_size=8),
    tn=st.integers(-2, 9),
    mode=st.sampled_from(["under", "over"]),
    identity=st.integers(0, 6),
)
def test_every_rolled_result_is_possible_under_the_odds(
    faces: list[int], tn: int, mode: str, identity: int
) -> None:
    dice = len(faces)
    proc = procedure(dice, tn, mode, identity)  # type: ignore[arg-type]
    rolled = tuple(faces) if dice else (3, 4)  # zero Expertise: one die twice
    result = proc.apply(rolled)
    assert check_odds(dice, tn, mode, identity).probability(result) > 0  # type: ignore[arg-type]


def test_effect_odds_are_the_checks_effects_for_every_pool() -> None:
    """The Effect read off the binomial row equals the check's result mapped to its Effect
    (0 for a failure) in every mode, TN and Identity, special cases included."""
    from referee.systems.mongrel.checks import check_odds, effect_odds

    for dice in range(0, 7):
        for tn in range(0, 9):
            for mode in ("under", "over"):
                for identity in (0, 3):
                    mapped = check_odds(dice, tn, mode, identity).map(
                        lambda r: r.effect if r.success else 0
                    )
                    assert effect_odds(dice, tn, mode, identity) == mapped, (dice, tn, mode)
