"""Task resolution: exact odds against brute force, the scoped special cases, bounds."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.dice.brute import brute_force
from referee.errors import RulesError
from referee.systems.mongrel.checks import (
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


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("tn", [0, 1, 3, 6, 7])
@pytest.mark.parametrize("mode", ["under", "over"])
def test_result_odds_match_brute_force(n: int, tn: int, mode: str) -> None:
    proc = pool_procedure(n, tn, mode, identity=2)  # type: ignore[arg-type]
    assert proc.odds() == brute_force([(n, 6)], proc.apply)


@pytest.mark.parametrize("tn", [0, 1, 2, 4, 6, 7])
@pytest.mark.parametrize("mode", ["under", "over"])
def test_zero_expertise_matches_brute_force(tn: int, mode: str) -> None:
    proc = zero_procedure(tn, mode)  # type: ignore[arg-type]
    assert proc.odds() == brute_force([(2, 6)], proc.apply)


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
