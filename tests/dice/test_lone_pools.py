"""A lone pool with numbers added keeps the pool's own fast path.

``3d12med+5`` (Mnemonic's randomizer and a bonus) is built as the median of
fair dice with the 5 taken as the weights are written, like ``3d12med``; the
fair-dice order statistics (:func:`order_of_dice`) write the median of three
out. Every answer here is checked against an enumeration of every roll written
in this file (itertools.product, sort, read the kept dice, count), and against
the general path (the pool's distribution, then shifted).
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from math import prod

import pytest

from referee.dice.evaluate import ODDS_BUDGET, SMALL_SUM, cost, odds
from referee.dice.notation import Pool, parse
from referee.dice.odds import (
    Distribution,
    extreme_of_dice,
    median_of,
    median_of_dice,
    order_of_dice,
    order_statistic,
)


def _exact(d: Distribution[int]) -> tuple[dict[int, int], int]:
    return dict(d.items()), d.total


def _rolls(n: int, sides: int, read: str, keep: int = 1) -> Counter[int]:
    """Every roll of ``n`` dice read as ``kh``/``kl`` (the sum of ``keep`` dice),
    ``dh``/``dl`` (drop ``keep``) or ``med`` (the middle die)."""
    counts: Counter[int] = Counter()
    for roll in product(range(1, sides + 1), repeat=n):
        up = sorted(roll)
        if read == "med":
            value = up[n // 2]
        elif read == "kh":
            value = sum(up[n - keep :])
        elif read == "kl":
            value = sum(up[:keep])
        elif read == "dh":
            value = sum(up[: n - keep])
        else:  # dl
            value = sum(up[keep:])
        counts[value] += 1
    return counts


@pytest.mark.parametrize(
    ("text", "n", "sides", "read", "keep", "shift"),
    [
        ("3d12med", 3, 12, "med", 0, 0),
        ("3d12med+5", 3, 12, "med", 0, 5),
        ("3d12med-2", 3, 12, "med", 0, -2),
        ("5+3d12med", 3, 12, "med", 0, 5),
        ("3D12MED + 4 - 1", 3, 12, "med", 0, 3),
        ("5d6med+1", 5, 6, "med", 0, 1),
        ("1d20med+3", 1, 20, "med", 0, 3),
        ("4d6kh1+2", 4, 6, "kh", 1, 2),
        ("4d6kl1-3", 4, 6, "kl", 1, -3),
        ("4d6kh3+2", 4, 6, "kh", 3, 2),
        ("5d4kl2+7", 5, 4, "kl", 2, 7),
        ("4d6dl1+1", 4, 6, "dl", 1, 1),
        ("3d8dh1-1", 3, 8, "dh", 1, -1),
    ],
)
def test_a_lone_pool_with_numbers_matches_enumeration(
    text: str, n: int, sides: int, read: str, keep: int, shift: int
) -> None:
    expected = ({v + shift: c for v, c in sorted(_rolls(n, sides, read, keep).items())}, sides**n)
    assert _exact(odds(text)) == expected  # from the text
    assert _exact(odds(parse(text))) == expected  # from its tree
    # and the general path: the pool alone, then shifted
    pool = Pool(n, sides, "med") if read == "med" else Pool(n, sides, read, keep)
    assert _exact(odds(pool).shift(shift)) == expected
    assert list(odds(text).outcomes()) == sorted(expected[0])  # ascending, as every answer


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("sides", [1, 2, 5, 6])
@pytest.mark.parametrize("shift", [0, 4, -3])
def test_order_statistics_of_fair_dice_match_enumeration(n: int, sides: int, shift: int) -> None:
    rolls = list(product(range(1, sides + 1), repeat=n))
    for rank in range(1, n + 1):  # rank 1 is the highest
        counts = Counter(sorted(r, reverse=True)[rank - 1] + shift for r in rolls)
        expected = (dict(sorted(counts.items())), sides**n)
        assert _exact(order_of_dice(n, sides, rank, shift)) == expected
        general = order_statistic(Distribution.die(sides), n, rank).shift(shift)
        assert _exact(general) == expected
    if n % 2:
        assert median_of_dice(n, sides, shift) == order_of_dice(n, sides, (n + 1) // 2, shift)
    assert extreme_of_dice(n, sides, True, shift) == order_of_dice(n, sides, 1, shift)
    assert extreme_of_dice(n, sides, False, shift) == order_of_dice(n, sides, n, shift)


@pytest.mark.parametrize("sides", [1, 2, 3, 12, 20])
def test_the_median_of_three_fair_dice_matches_enumeration(sides: int) -> None:
    counts = Counter(sorted(r)[1] for r in product(range(1, sides + 1), repeat=3))
    expected = (dict(sorted(counts.items())), sides**3)
    assert _exact(median_of_dice(3, sides)) == expected
    # a fair die handed to the general functions (Mnemonic's randomizer) is seen
    assert _exact(median_of(Distribution.die(sides), 3)) == expected
    assert _exact(order_statistic(Distribution.die(sides), 3, 2)) == expected


@pytest.mark.parametrize("sides", [12, 100])
def test_the_written_out_median_agrees_with_the_binomial_tails(sides: int) -> None:
    # every face weighing 2 is the same die, not taken for a fair one: the tails'
    # answer, each weight 2**3 times the written-out one
    doubled = Distribution(dict.fromkeys(range(1, sides + 1), 2))
    tails = order_statistic(doubled, 3, 2)
    assert tails.total == (2 * sides) ** 3
    assert dict(tails.items()) == {x: 8 * w for x, w in median_of_dice(3, sides).items()}


@pytest.mark.parametrize(
    "faces",
    [
        {0: 1, 1: 1, 2: 1, 3: 1},  # fair, but numbered from 0
        {1: 1, 2: 1, 4: 1},  # a face missing
        {1: 1, 2: 3, 3: 1},  # uneven
        {2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1},
    ],
)
def test_the_median_of_three_of_other_dice_matches_enumeration(faces: dict[int, int]) -> None:
    counts: Counter[int] = Counter()
    for roll in product(faces, repeat=3):
        counts[sorted(roll)[1]] += prod(faces[f] for f in roll)
    d = Distribution(faces)
    assert _exact(median_of(d, 3)) == (dict(sorted(counts.items())), d.total**3)


def test_an_even_median_and_a_rank_outside_the_pool_are_refused() -> None:
    from referee.errors import DiceError

    with pytest.raises(DiceError, match="odd number of dice, not 4"):
        median_of_dice(4, 6)
    with pytest.raises(DiceError, match=r"rank 5 is outside 1\.\.4"):
        order_of_dice(4, 6, 5)
    with pytest.raises(DiceError, match="cannot roll 0d6"):
        order_of_dice(0, 6, 1)


def test_small_lone_pools_skip_an_estimate_far_below_the_budget() -> None:
    # odds() does not estimate a lone pool that keeps or takes the median within
    # SMALL_SUM dice times sides: every such pool is estimated under 1% of the budget
    worst = 0
    for n in range(1, SMALL_SUM + 1):
        for sides in range(1, SMALL_SUM // n + 1):
            pools = [Pool(n, sides, sel, k) for sel in ("kh", "kl") for k in range(1, n + 1)]
            if n % 2:
                pools.append(Pool(n, sides, "med"))
            worst = max(worst, *map(cost, pools))
    assert worst < ODDS_BUDGET // 20


def test_a_big_lone_pool_with_a_number_is_still_estimated_and_refused() -> None:
    from referee.errors import OddsTooComplex

    with pytest.raises(OddsTooComplex, match=r"^exact odds of 1000d1000kh500\+3 would take about"):
        odds("1000d1000kh500+3")


def test_small_rerolled_pools_skip_an_estimate_far_below_the_budget() -> None:
    # odds() does not estimate a lone sum of rerolled or clamped dice (no explosion)
    # within SMALL_SUM dice times sides: every such pool is estimated under 5% of the
    # budget, and its odds are those of the same pool within a sum (estimated)
    from referee.dice.notation import Die, die_problem

    worst = 0
    for n in range(1, SMALL_SUM + 1):
        for sides in (
            s for s in (1, 2, 3, 4, 6, 8, 10, 12, 20, 64, 100, 256) if n * s <= SMALL_SUM
        ):
            dice = [
                Die(reroll, op, at)
                for reroll in ("ro", "rr")
                for op in ("=", "<", ">=")
                for at in (1, sides // 2 + 1)
            ]
            dice += [Die(low=min(2, sides)), Die(high=1), Die("ro", "=", 1, low=1, high=sides)]
            pools = [Pool(n, sides, die=d) for d in dice if not die_problem(d, sides)]
            worst = max(worst, *map(cost, pools))
    assert worst < ODDS_BUDGET // 20
    for text in ("4d6rr1", "4d6ro<3", "3d8rr>=7", "2d10mi3", "5d4ro1ma3", "1d1ro1"):
        assert odds(text) == odds(f"{text}+0") == odds(f"{text}+d1-1")
