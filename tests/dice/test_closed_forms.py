"""The closed forms against independent methods: sums by recurrence, the highest and
lowest roll from F(x)**n, keep-k of many dice, and the memo of sums.

Every reference here is written without the module's methods: enumeration of
every roll, a fold of pairwise maxima, a dynamic programme over the kept dice,
or plain repeated convolution of weight lists.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.brute import brute_force
from referee.dice.evaluate import odds, roll
from referee.dice.notation import BinOp, Const, Expr, Neg, Pool, parse
from referee.dice.odds import (
    Distribution,
    keep_highest,
    keep_lowest,
    order_statistic,
    repeat_sum,
    sum_of_dice,
)
from referee.dice.roller import ScriptedRoller

# the module, not the `odds` function that referee.dice re-exports under its name
odds_module = importlib.import_module("referee.dice.odds")


def _weights(d: Distribution[int]) -> dict[int, int]:
    """Outcome -> weight, scaled to the total so distributions compare exactly."""
    return dict(d.items())


def _convolved(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for x, wx in a.items():
        for y, wy in b.items():
            out[x + y] = out.get(x + y, 0) + wx * wy
    return out


def _folded_sum(weights: dict[int, int], n: int) -> dict[int, int]:
    """n copies added one at a time: the plainest possible reference."""
    out = {0: 1}
    for _ in range(n):
        out = _convolved(out, weights)
    return out


def _folded_max(weights: dict[int, int], n: int, pick: object = max) -> dict[int, int]:
    """The highest (or lowest) of n rolls as a fold of pairwise maxima."""
    out = dict(weights)
    for _ in range(n - 1):
        nxt: dict[int, int] = {}
        for x, wx in out.items():
            for y, wy in weights.items():
                m = pick(x, y)  # type: ignore[operator]
                nxt[m] = nxt.get(m, 0) + wx * wy
        out = nxt
    return out


def _top_k_programme(weights: dict[int, int], n: int, keep: int) -> dict[int, int]:
    """Sum of the ``keep`` highest of n rolls by a dynamic programme over the
    sorted tuple of the best ``keep`` faces so far (no polynomial anywhere)."""
    states: dict[tuple[int, ...], int] = {(): 1}
    for _ in range(n):
        nxt: dict[tuple[int, ...], int] = {}
        for state, w in states.items():
            for face, wf in weights.items():
                best = tuple(sorted((*state, face), reverse=True)[:keep])
                nxt[best] = nxt.get(best, 0) + w * wf
        states = nxt
    out: dict[int, int] = {}
    for state, w in states.items():
        out[sum(state)] = out.get(sum(state), 0) + w
    return out


def _enumerated(weights: dict[int, int], n: int, read: object) -> dict[int, int]:
    """Every sequence of n rolls, read by ``read`` (faces repeated by weight)."""
    faces = [x for x, w in weights.items() for _ in range(w)]
    out: dict[int, int] = {}
    for sequence in product(faces, repeat=n):
        v = read(sequence)  # type: ignore[operator]
        out[v] = out.get(v, 0) + 1
    return out


@contextmanager
def _setting(name: str, value: int) -> Iterator[None]:
    """Force one of the module's method thresholds (to test both sides of it)."""
    old = getattr(odds_module, name)
    setattr(odds_module, name, value)
    odds_module.clear_caches()
    try:
        yield
    finally:
        setattr(odds_module, name, old)
        odds_module.clear_caches()


# ---------------------------------------------------------------------------
# sums of fair dice: the three-term recurrence


@pytest.mark.parametrize("sides", range(1, 9))
@pytest.mark.parametrize("n", range(0, 9))
def test_fair_sums_match_repeated_convolution(n: int, sides: int) -> None:
    d = sum_of_dice(n, sides)
    assert _weights(d) == _folded_sum(dict.fromkeys(range(1, sides + 1), 1), n)
    assert d.total == sides**n


@pytest.mark.parametrize(("n", "sides"), [(60, 7), (37, 20), (13, 100), (150, 2)])
def test_larger_fair_sums_match_repeated_convolution(n: int, sides: int) -> None:
    assert _weights(sum_of_dice(n, sides)) == _folded_sum(dict.fromkeys(range(1, sides + 1), 1), n)


def test_a_thousand_d6_is_exact_and_symmetric() -> None:
    d = odds("1000d6")
    weights = _weights(d)
    assert sum(weights.values()) == 6**1000
    assert all(weights[3500 + k] == weights[3500 - k] for k in range(2501))
    # the centre coefficient from the textbook inclusion-exclusion formula
    from math import comb

    t = 3500 - 1000  # faces counted from 0
    centre = sum((-1) ** k * comb(1000, k) * comb(t - 6 * k + 999, 999) for k in range(t // 6 + 1))
    assert weights[3500] == centre


# ---------------------------------------------------------------------------
# sums of any distribution: Miller's recurrence and the packed power


@settings(max_examples=60, deadline=None)
@given(
    weights=st.dictionaries(st.integers(-6, 9), st.integers(1, 12), min_size=1, max_size=6),
    n=st.integers(0, 9),
    packed=st.booleans(),
)
def test_repeat_sum_of_any_distribution_matches_repeated_convolution(
    weights: dict[int, int], n: int, packed: bool
) -> None:
    # both methods, whichever the size would choose
    with _setting("PACKED_POWER_BITS", 10**9 if packed else 0):
        result = repeat_sum(Distribution(weights), n)
    assert _weights(result) == _folded_sum(weights, n)


def test_repeat_sum_of_non_integer_outcomes_falls_back_to_convolution() -> None:
    halves = Distribution({0.5: 1, 1.5: 1})  # type: ignore[dict-item]
    assert repeat_sum(halves, 3) == Distribution({1.5: 1, 2.5: 3, 3.5: 3, 4.5: 1})  # type: ignore[arg-type]


def test_keep_all_of_many_is_the_sum() -> None:
    per = sum_of_dice(3, 6).shift(-2).clamp(low=0)
    assert _weights(keep_highest(per, 40, 40)) == _folded_sum(_weights(per), 40)


# ---------------------------------------------------------------------------
# the highest and lowest roll: F(x)**n - F(x-1)**n


@settings(max_examples=60, deadline=None)
@given(
    weights=st.dictionaries(st.integers(-9, 9), st.integers(1, 30), min_size=1, max_size=7),
    n=st.integers(1, 40),
    split=st.booleans(),
)
def test_highest_and_lowest_of_any_distribution_match_folded_maxima(
    weights: dict[int, int], n: int, split: bool
) -> None:
    # with and without building powers from the powers of factors
    with _setting("SPLIT_POWERS_FROM", 1 if split else 10**9):
        d = Distribution(weights)
        assert _weights(keep_highest(d, n, 1)) == _folded_max(weights, n)
        assert _weights(keep_lowest(d, n, 1)) == _folded_max(weights, n, min)
        assert _weights(order_statistic(d, n, 1)) == _folded_max(weights, n)
        assert _weights(order_statistic(d, n, n)) == _folded_max(weights, n, min)


@pytest.mark.parametrize(("n", "sides"), [(100, 100), (60, 1000), (1000, 6), (333, 37)])
def test_highest_of_many_many_sided_dice(n: int, sides: int) -> None:
    d = odds(f"{n}d{sides}kh1")
    # weight of x is x**n - (x-1)**n, written out
    assert _weights(d) == {x: x**n - (x - 1) ** n for x in range(1, sides + 1)}
    low = odds(f"{n}d{sides}kl1")
    assert _weights(low) == {
        x: (sides - x + 1) ** n - (sides - x) ** n for x in range(1, sides + 1)
    }


def test_thousand_d_thousand_keep_highest_one() -> None:
    d = odds("1000d1000kh1")
    assert d.total == 1000**1000
    assert d.weight(1) == 1
    assert d.weight(1000) == 1000**1000 - 999**1000
    assert sum(w for _, w in d.items()) == d.total


def test_the_power_table_shares_factors_exactly() -> None:
    values = list(range(1, 1200))
    assert odds_module._powers(values, 300) == {c: c**300 for c in values}
    assert odds_module._powers([7, 12, 49, 1001], 50) == {c: c**50 for c in (7, 12, 49, 1001)}


@pytest.mark.parametrize("n", [1, 23, 24, 25, 100, 1000])
def test_odd_powers_and_face_differences_are_exact(n: int) -> None:
    # odd multiples of 3 come from 3**n times a smaller power; even faces are shifts
    for top in (*range(1, 40), 999, 1000):
        assert odds_module._odd_powers(top, n) == [m**n for m in range(1, top + 1, 2)]
        differences, total = odds_module._face_differences(top, n)
        assert differences == [x**n - (x - 1) ** n for x in range(1, top + 1)]
        assert total == top**n


# ---------------------------------------------------------------------------
# keep k of many: binomial tails over the cumulative weights


@settings(max_examples=50, deadline=None)
@given(
    weights=st.dictionaries(st.integers(-4, 8), st.integers(1, 9), min_size=1, max_size=5),
    n=st.integers(2, 12),
    data=st.data(),
)
def test_keep_k_spread_and_packed_agree_with_a_dynamic_programme(
    weights: dict[int, int], n: int, data: st.DataObject
) -> None:
    keep = data.draw(st.integers(1, n))
    reference = _top_k_programme(weights, n, keep)
    d = Distribution(weights)
    for bits in (0, 10**9):  # force spreading, then packing
        with _setting("PACKED_KEEP_BITS", bits):
            assert _weights(keep_highest(d, n, keep)) == reference
            lowest = keep_lowest(d, n, keep)
            negated = {
                -x: w
                for x, w in _top_k_programme({-x: w for x, w in weights.items()}, n, keep).items()
            }
            assert _weights(lowest) == negated


@pytest.mark.parametrize(
    ("n", "sides", "keep"), [(200, 6, 3), (120, 10, 2), (60, 6, 5), (40, 20, 3), (300, 2, 7)]
)
def test_keep_k_of_many_matches_a_dynamic_programme(n: int, sides: int, keep: int) -> None:
    die = dict.fromkeys(range(1, sides + 1), 1)
    assert _weights(odds(f"{n}d{sides}kh{keep}")) == _top_k_programme(die, n, keep)
    low = {-x: w for x, w in _top_k_programme({-x: 1 for x in die}, n, keep).items()}
    assert _weights(odds(f"{n}d{sides}kl{keep}")) == low


def test_keep_three_of_a_thousand_d6_by_enumeration_of_the_top() -> None:
    # 1000d6kh3 against the programme over the best three faces (56 states)
    die = dict.fromkeys(range(1, 7), 1)
    assert _weights(odds("1000d6kh3")) == _top_k_programme(die, 1000, 3)


@pytest.mark.parametrize(("n", "keep"), [(3, 2), (4, 3), (5, 2), (4, 1)])
def test_small_keeps_by_enumeration(n: int, keep: int) -> None:
    die = dict.fromkeys(range(1, 7), 1)
    top = _enumerated(die, n, lambda r: sum(sorted(r)[n - keep :]))
    assert _weights(odds(f"{n}d6kh{keep}")) == top


# ---------------------------------------------------------------------------
# the memo of sums


def test_sums_are_memoised_by_die_and_count_and_can_be_cleared() -> None:
    odds_module.clear_caches()
    first = sum_of_dice(100, 6)
    assert sum_of_dice(100, 6) is first
    per = Distribution({0: 3, 1: 2, 4: 1})
    again = repeat_sum(per, 50)
    assert repeat_sum(Distribution({0: 3, 1: 2, 4: 1}), 50) is again
    # a distribution equal in probability but with other weights is a different key
    assert repeat_sum(Distribution({0: 6, 1: 4, 4: 2}), 50) is not again
    odds_module.clear_caches()
    assert sum_of_dice(100, 6) is not first
    assert sum_of_dice(100, 6) == first


def test_the_memo_is_bounded_by_the_bits_it_holds() -> None:
    memo = odds_module._Memo(budget_bits=20_000)
    for n in range(1, 60):
        memo.put(("d6", n), sum_of_dice(n, 6))
    held = [key for key in memo._data]
    assert memo._bits <= 20_000
    assert ("d6", 1) not in held  # the least recently used went first
    assert memo.get(held[-1]) is not None
    memo.cache_clear()
    assert memo.get(held[-1]) is None


# ---------------------------------------------------------------------------
# whole expressions: folded sums, shifts and every pool method against enumeration

_small_pools = st.one_of(
    st.builds(Pool, st.integers(1, 2), st.integers(1, 4)),
    st.integers(1, 3).flatmap(
        lambda n: st.builds(
            Pool, st.just(n), st.integers(2, 4), st.sampled_from(["kh", "kl"]), st.integers(0, n)
        )
    ),
    st.builds(Pool, st.sampled_from([1, 3]), st.integers(2, 4), st.just("med")),
    st.builds(
        lambda n, s, op, t: Pool(n, s, op, target=t),
        st.integers(1, 3),
        st.integers(2, 4),
        st.sampled_from([">=", "<=", ">", "<", "="]),
        st.integers(0, 5),
    ),
)
_small_trees: st.SearchStrategy[Expr] = st.recursive(
    st.one_of(st.builds(Const, st.integers(0, 5)), _small_pools),
    lambda kids: st.one_of(
        st.builds(Neg, kids), st.builds(BinOp, st.sampled_from(["+", "-", "-", "*"]), kids, kids)
    ),
    max_leaves=5,
)


@settings(max_examples=150, deadline=None)
@given(_small_trees)
def test_any_small_expression_matches_enumeration(tree: Expr) -> None:
    if sum(n for n, _ in tree.dice()) > 6:
        return
    expected = brute_force(tree.dice(), lambda faces: roll(tree, ScriptedRoller(faces)).total)
    assert odds(tree) == expected


@pytest.mark.parametrize(
    "text", ["d6-d6", "2d6-3d6+d4-2", "d6-(d6-d6)", "-d8-d8+10", "2d4-d4+3d4kh1", "-(2d3)", "5-d6"]
)
def test_folded_sums_match_enumeration(text: str) -> None:
    tree = parse(text)
    expected = brute_force(tree.dice(), lambda faces: roll(tree, ScriptedRoller(faces)).total)
    assert odds(text) == expected


# ---------------------------------------------------------------------------
# order statistics: the tail polynomial by Horner's rule


def _binomial_tails(weights: dict[int, int], n: int, rank: int) -> dict[int, int]:
    """The rank-th highest by the binomial tail written out per outcome (the old method)."""
    from math import comb

    total = sum(weights.values())
    need = n - rank + 1
    out: dict[int, int] = {}
    below = 0
    previous = 0
    for v in sorted(weights):
        below += weights[v]
        tail = sum(comb(n, j) * below**j * (total - below) ** (n - j) for j in range(need, n + 1))
        if tail != previous:
            out[v] = tail - previous
        previous = tail
    return out


@settings(max_examples=60, deadline=None)
@given(
    weights=st.dictionaries(st.integers(-9, 9), st.integers(1, 30), min_size=1, max_size=7),
    n=st.integers(1, 30),
    data=st.data(),
)
def test_order_statistics_match_the_tails_written_out(
    weights: dict[int, int], n: int, data: st.DataObject
) -> None:
    rank = data.draw(st.integers(1, n))
    assert _weights(order_statistic(Distribution(weights), n, rank)) == _binomial_tails(
        weights, n, rank
    )


@pytest.mark.parametrize(("n", "sides"), [(3, 12), (9, 6), (101, 20), (51, 100)])
def test_medians_match_the_tails_written_out(n: int, sides: int) -> None:
    die = dict.fromkeys(range(1, sides + 1), 1)
    assert _weights(odds(f"{n}d{sides}med")) == _binomial_tails(die, n, (n + 1) // 2)


@pytest.mark.parametrize("op", [">=", "<=", ">", "<", "="])
def test_counting_dice_by_arithmetic_matches_counting_faces(op: str) -> None:
    from referee.dice.odds import count_of_dice, count_successes

    for sides in range(1, 8):
        for n in range(0, 7):
            for target in range(-1, sides + 3):
                pool = Pool(max(n, 1), sides, op, target=max(target, 0))
                by_faces = count_successes(Distribution.die(sides), n, pool.counts)
                assert count_of_dice(n, sides, op, max(target, 0)) == by_faces, (n, sides, target)
