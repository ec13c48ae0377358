"""Exact odds: the Distribution API, polynomial pool methods against brute force
and against icepool, and sampling agreement."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from referee.dice.brute import brute_force
from referee.dice.evaluate import ODDS_BUDGET, cost, odds, roll
from referee.dice.notation import Expr, Pool, parse
from referee.dice.odds import (
    Distribution,
    count_successes,
    joint,
    keep_highest,
    keep_lowest,
    median_of,
    order_statistic,
    repeat_sum,
    sum_of_dice,
)
from referee.dice.roller import ScriptedRoller, SeededRoller
from referee.errors import DiceError, NotationError, OddsTooComplex, RulesError

# ---------------------------------------------------------------------------
# the Distribution API


def test_two_d6_probabilities_and_tails() -> None:
    d = sum_of_dice(2, 6)
    assert d.total == 36
    assert d.probability(7) == Fraction(1, 6)
    assert d.probability(13) == 0
    assert d.at_least(8) == Fraction(15, 36)
    assert d.at_most(4) == Fraction(6, 36)
    assert d.mean() == 7
    assert d.variance() == Fraction(35, 6)
    assert (d.min(), d.max()) == (2, 12)
    assert sum(d.probabilities().values()) == 1


def test_weights_are_integers_and_probabilities_are_fractions() -> None:
    d = odds("3d6kh2")
    assert all(isinstance(w, int) for _, w in d.items())
    assert all(isinstance(p, Fraction) for p in d.probabilities().values())


def test_map_bind_condition_and_arithmetic() -> None:
    d6 = Distribution.die(6)
    assert d6.map(lambda x: x >= 5).probability(True) == Fraction(1, 3)
    # bind: roll a d6, then that many d2 - the mean is 3.5 * 1.5
    chained = d6.bind(lambda n: sum_of_dice(n, 2))
    assert chained.mean() == Fraction(21, 4)
    assert d6.condition(lambda x: x > 4) == Distribution({5: 1, 6: 1})
    assert (d6 + 1).min() == 2 and (1 + d6).max() == 7
    assert (10 - d6).outcomes() == (4, 5, 6, 7, 8, 9)
    assert (d6 * 10).outcomes() == (10, 20, 30, 40, 50, 60)
    assert (d6 * 0).outcomes() == (0,)
    assert -d6 == Distribution.uniform(-6, -1)
    assert d6 - d6 == odds("d6-d6")
    assert repeat_sum(d6, 5) == sum_of_dice(5, 6)
    assert d6.clamp(2, 5).probability(2) == Fraction(1, 3)


@given(st.dictionaries(st.integers(-20, 20), st.integers(1, 9), min_size=1, max_size=12))
def test_map_keeps_each_weight_with_its_outcome_whatever_the_rule_order(
    weights: dict[int, int],
) -> None:
    """A decreasing rule (a target minus the roll) is reversed rather than sorted, a
    merging one adds weights: both give what counting outcome by outcome gives."""
    dist = Distribution(weights)
    for rule in (lambda x: 7 - x, lambda x: max(0, 3 - x), lambda x: x * x, lambda x: -x // 4):
        counted: dict[int, int] = {}
        for outcome, weight in weights.items():
            counted[rule(outcome)] = counted.get(rule(outcome), 0) + weight
        mapped = dist.map(rule)
        assert mapped.weights() == dict(sorted(counted.items()))
        assert list(mapped.outcomes()) == sorted(counted)


@given(
    st.dictionaries(st.integers(-20, 20), st.integers(1, 9), min_size=1, max_size=12),
    st.integers(-10, 60),
    st.sampled_from([1, -1]),
)
def test_relabel_reads_each_outcome_through_the_table_in_order(
    weights: dict[int, int], offset: int, sign: int
) -> None:
    """labels[offset + sign * x], counted outcome by outcome; an index off either end
    of the table is refused before anything is built (no negative index wraps)."""
    labels = [f"label {i}" for i in range(41)]
    dist = Distribution(weights)
    indices = [offset + sign * x for x in weights]
    if min(indices) < 0 or max(indices) >= len(labels):
        with pytest.raises(IndexError, match="outside 41 labels"):
            dist.relabel(offset, sign, labels)
        return
    relabelled = dist.relabel(offset, sign, labels)
    by_index = sorted((offset + sign * x, w) for x, w in weights.items())
    assert relabelled.weights() == {labels[i]: w for i, w in by_index}
    assert list(relabelled.outcomes()) == [labels[i] for i, _ in by_index]
    assert relabelled.total == dist.total


def test_relabel_refuses_a_sign_other_than_one_or_minus_one() -> None:
    with pytest.raises(DiceError, match="sign is \\+1 or -1, not 2"):
        Distribution.die(6).relabel(0, 2, list(range(20)))


def test_equality_is_by_probability_not_by_raw_weight() -> None:
    assert Distribution({1: 2, 2: 2}) == Distribution({1: 1, 2: 1})
    assert hash(Distribution({1: 2, 2: 2})) == hash(Distribution({1: 1, 2: 1}))
    assert Distribution({1: 2, 2: 2}).reduced().total == 2
    assert Distribution({1: 1, 2: 2}) != Distribution({1: 1, 2: 1})


def test_non_numeric_outcomes_and_joint() -> None:
    labels = Distribution.die(6).map(lambda x: "hit" if x > 3 else "miss")
    assert labels.probability("hit") == Fraction(1, 2)
    pair = joint(Distribution.die(2), Distribution.of(["a", "b", "b"]))
    assert pair.probability((2, "b")) == Fraction(1, 3)


@pytest.mark.parametrize(
    "bad",
    [{}, {1: 0}, {1: -1}, {1: 1.5}],
)
def test_invalid_weights_are_rejected(bad: dict[int, object]) -> None:
    with pytest.raises(DiceError):
        Distribution(bad)  # type: ignore[arg-type]


def test_huge_combinations_are_refused() -> None:
    wide = Distribution.uniform(0, 20_000)
    with pytest.raises(OddsTooComplex):
        wide.combine(wide, lambda a, b: (a, b))


# ---------------------------------------------------------------------------
# polynomial methods against brute-force enumeration


def _brute_expr(text: str) -> Distribution[int]:
    expr = parse(text)
    return brute_force(expr.dice(), lambda faces: roll(expr, ScriptedRoller(faces)).total)


SMALL = [
    "2d6",
    "3d6",
    "d6-d6",
    "3d6kh2",
    "3d6kl2",
    "4d6kh3",
    "5d4kh2",
    "4d5kl1",
    "3d6kh0",
    "3d6kl3",
    "3d12med",
    "5d6med",
    "d20med",
    "4d6>=3",
    "5d6<=2",
    "4d6>4",
    "4d6<2",
    "4d6=6",
    "2d4*d3",
    "-(d4+2)*2",
    "(2d3-1)*(d4-2)",
    "(d4-3)*-(d3-2)",
    "3d6-2",
    "2d6kh1+d4",
    # plain sums read straight from the text: rows of sums and counts
    "d6-d6+d6>=2+2",
    "2d4-d6>=3-1",
    "d6>=2+d4<2",
    "5-2d6>=7",
    "d4>=1-2d3",
    "3-2",
    "d3+d5-d7",
    "3d4kl2-d6>=4+2d3",
    "3d3med-d4+1",
]


@pytest.mark.parametrize("text", SMALL)
def test_exact_odds_match_brute_force(text: str) -> None:
    assert odds(text) == _brute_expr(text)


def _expand(d: Distribution[int]) -> list[int]:
    return [o for o, w in d.items() for _ in range(w)]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_pool_methods_on_uneven_distributions(n: int) -> None:
    d = Distribution({-2: 3, 0: 1, 5: 2, 7: 4})
    rolls = list(product(_expand(d), repeat=n))
    for k in range(n + 1):
        assert keep_highest(d, n, k) == Distribution.of(sum(sorted(r)[n - k :]) for r in rolls)
        assert keep_lowest(d, n, k) == Distribution.of(sum(sorted(r)[:k]) for r in rolls)
    for rank in range(1, n + 1):
        assert order_statistic(d, n, rank) == Distribution.of(
            sorted(r, reverse=True)[rank - 1] for r in rolls
        )
    assert count_successes(d, n, lambda x: x > 0) == Distribution.of(
        sum(x > 0 for x in r) for r in rolls
    )
    if n % 2:
        assert median_of(d, n) == order_statistic(d, n, (n + 1) // 2)


# ---------------------------------------------------------------------------
# against icepool, an independent reference


def _icepool(die: icepool.Die) -> Distribution[int]:
    return Distribution({int(o): int(q) for o, q in die.items()})


REFERENCE = [
    ("2d6", lambda: 2 @ icepool.d6),
    ("3d6kh2", lambda: icepool.d6.highest(3, 2)),
    ("3d6kl2", lambda: icepool.d6.lowest(3, 2)),
    ("d6-d6", lambda: icepool.d6 - icepool.d6),
    ("3d12med", lambda: icepool.d12.middle(3, 1)),
    ("8d6", lambda: 8 @ icepool.d6),
    ("10d6>=4", lambda: 10 @ (icepool.d6 >= 4)),
    ("6d10kh3", lambda: icepool.d10.highest(6, 3)),
    ("7d8kl2", lambda: icepool.d8.lowest(7, 2)),
    ("9d6med", lambda: icepool.d6.middle(9, 1)),
    ("20d6<=2", lambda: 20 @ (icepool.d6 <= 2)),
    ("(3d3-2)*10", lambda: (3 @ icepool.d3 - 2) * 10),
]


@pytest.mark.parametrize(("text", "reference"), REFERENCE, ids=[t for t, _ in REFERENCE])
def test_exact_odds_match_icepool(text: str, reference: object) -> None:
    assert odds(text) == _icepool(reference())  # type: ignore[operator]


# ---------------------------------------------------------------------------
# rolling agrees with the odds


@given(st.sampled_from(SMALL + [t for t, _ in REFERENCE]), st.integers(0, 2**32))
@settings(max_examples=150)
def test_rolled_values_lie_in_the_exact_support(text: str, seed: int) -> None:
    assert roll(text, SeededRoller(seed)).total in odds(text)


@pytest.mark.parametrize("text", ["3d6kh2", "3d12med", "2d6", "6d6>=5", "d6-d6"])
def test_sampled_frequencies_pass_chi_square_against_exact_odds(text: str) -> None:
    dist = odds(text)
    roller = SeededRoller(20261121)
    samples = 12_000
    counts = dict.fromkeys(dist.outcomes(), 0)
    for _ in range(samples):
        counts[roll(text, roller).total] += 1
    expected = [float(dist.probability(o)) * samples for o in dist.outcomes()]
    observed = [counts[o] for o in dist.outcomes()]
    assert chisquare(observed, expected).pvalue > 0.001


def _pairwise(a: dict[int, int], b: dict[int, int], sign: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for x, wx in a.items():
        for y, wy in b.items():
            out[x + sign * y] = out.get(x + sign * y, 0) + wx * wy
    return dict(sorted(out.items()))


_SMALL_WEIGHTS = st.one_of(
    st.dictionaries(st.integers(-6, 9), st.integers(1, 10**20), min_size=1, max_size=7),
    st.builds(
        lambda low, size, w: dict.fromkeys(range(low, low + size), w),  # a flat die
        st.integers(-5, 5),
        st.integers(1, 12),
        st.integers(1, 3),
    ),
)


@settings(max_examples=200)
@given(_SMALL_WEIGHTS, _SMALL_WEIGHTS)
def test_sums_and_differences_by_rows_are_the_pairwise_sums(
    a: dict[int, int], b: dict[int, int]
) -> None:
    # outcomes without gaps go as rows of coefficients (flat ones as a sliding
    # window), the others pair by pair: the same weights, in order, either way
    x, y = Distribution(a), Distribution(b)
    for found, sign in ((x + y, 1), (x - y, -1)):
        assert list(found.items()) == list(_pairwise(a, b, sign).items())
        assert found.total == x.total * y.total


def test_trusted_constructor_keeps_given_weights() -> None:
    d = Distribution.trusted({1: 2, 3: 1}, 3, ordered=True)
    assert d.total == 3 and d.probability(1) == Fraction(2, 3)
    assert Distribution.trusted({3: 1, 1: 2}).outcomes() == (1, 3)


@settings(max_examples=60)
@given(
    weights=st.dictionaries(st.integers(-5, 12), st.integers(1, 9), min_size=1, max_size=5),
    n=st.integers(0, 4),
    data=st.data(),
)
def test_keep_highest_and_lowest_on_any_distribution(
    weights: dict[int, int], n: int, data: st.DataObject
) -> None:
    keep = data.draw(st.integers(0, n))
    d = Distribution(weights)
    rolls = list(product(_expand(d), repeat=n))
    assert keep_highest(d, n, keep) == Distribution.of(sum(sorted(r)[n - keep :]) for r in rolls)
    assert keep_lowest(d, n, keep) == Distribution.of(sum(sorted(r)[:keep]) for r in rolls)


def test_keep_highest_refuses_runaway_work() -> None:
    with pytest.raises(OddsTooComplex):
        keep_highest(Distribution.uniform(0, 5000), 60, 30)


@pytest.mark.parametrize("n", [200, 500])
def test_keep_highest_of_large_pools_matches_closed_forms(n: int) -> None:
    # keep 1 is the highest roll; keep n-1 of d2 is the sum less the lowest die.
    # These once built every binomial row up to n (1000d1kh999 took seconds).
    assert keep_highest(Distribution.die(6), n, 1) == order_statistic(Distribution.die(6), n, 1)
    assert keep_lowest(Distribution.die(6), n, 1) == order_statistic(Distribution.die(6), n, n)
    twos = count_successes(Distribution.die(2), n, lambda x: x == 2)
    expected = twos.map(lambda k: 2 * n - 2 if k == n else n + k - 1)
    assert keep_highest(Distribution.die(2), n, n - 1) == expected
    assert odds(f"{n}d1kh{n - 1}") == Distribution.constant(n - 1)
    assert odds("1000d1kh999") == Distribution.constant(999)
    assert odds("1000d6kh1") == order_statistic(Distribution.die(6), 1000, 1)


@pytest.mark.parametrize(
    "text",
    # each passed an old estimate and took 2 to 11 seconds (measured); 1000d20
    # and 200d500 left this list when sums moved to the recurrence (20 ms, 80 ms)
    # (the last two: pairs of wide weights, hundreds of bits each, cost more)
    [
        "4d1000*4d1000",
        "2d1000*2d1000",
        "3d1000med*3d1000med*d18",
        "100d6-50d500",
        "50d20+900d1000>=661",
        "1000d1000",
        "100d100kh50",
        "1000d6kh998",
    ],
)
def test_odds_budget_refuses_what_was_measured_slow(text: str) -> None:
    assert cost(parse(text)) > ODDS_BUDGET
    with pytest.raises(OddsTooComplex, match="limit"):
        odds(text)


@pytest.mark.parametrize(
    "text",
    [
        "d1000*d1000",
        "1000d10",
        "120d1000",
        "4d1000+4d1000",
        "8d6",
        # cheap since the closed forms (each well under a second, measured)
        "1000d20",
        "200d500",
        "1000d6",
        "1000d1000kh1",
        "1000d1000kl1",
        "1000d6kh3",
        "1000d1000kh2",
    ],
)
def test_odds_budget_still_allows_what_is_quick(text: str) -> None:
    assert cost(parse(text)) <= ODDS_BUDGET


_TERM_TEXT = st.one_of(
    st.integers(0, 30).map(str),
    st.builds("{}d{}".format, st.integers(1, 12), st.sampled_from([1, 2, 3, 4, 6, 10, 100])),
    st.builds(
        "{}d{}{}{}".format,
        st.integers(1, 6),
        st.integers(1, 8),
        st.sampled_from([">=", "<=", ">", "<", "="]),
        st.integers(0, 9),
    ),
    st.builds("{0}d{1}kh{2}".format, st.integers(3, 5), st.integers(1, 6), st.integers(0, 3)),
    st.builds("{0}d{1}kl{2}".format, st.integers(3, 5), st.integers(1, 6), st.integers(0, 3)),
    st.builds("{}d{}med".format, st.sampled_from([1, 3, 5]), st.integers(1, 9)),
    st.sampled_from(["1000d1000", "100d6-50d500", "1000d6kh998", "120d1000"]),
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("+-"), _TERM_TEXT), min_size=1, max_size=4))
def test_a_plain_sum_from_its_text_is_the_sum_of_its_tree(terms: list[tuple[str, str]]) -> None:
    # the text is read into terms without a tree (notation.linear_terms); the
    # answer, to the weight, and any refusal are those of the parsed tree
    text = terms[0][1] + "".join(sign + term for sign, term in terms[1:])
    try:
        expected = odds(parse(text))
    except (NotationError, OddsTooComplex) as wrong:  # the same error, word for word
        with pytest.raises(type(wrong)) as caught:
            odds(text)
        assert str(caught.value) == str(wrong)
        return
    found = odds(text)
    assert found.weights() == expected.weights() and found.total == expected.total


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 64), st.integers(1, 64), st.booleans(), st.integers(0, 65)),
        min_size=1,
        max_size=8,
    )
)
def test_small_sums_skip_an_estimate_far_below_the_budget(
    parts: list[tuple[int, int, bool, int]],
) -> None:
    # odds() does not estimate a plain sum of added and counted dice within
    # SMALL_SUM dice times sides: its estimate is tens of thousands of steps at most
    from referee.dice.evaluate import SMALL_SUM, _sum_cost

    pools: dict[int, tuple[int, int]] = {}
    counted: list[tuple[int, Expr]] = []
    size = 0
    for count, sides, adds, target in parts:
        if size + count * sides > SMALL_SUM:
            break
        size += count * sides
        if adds:
            dice, _ = pools.get(sides, (0, 0))
            pools[sides] = (dice + count, 0)
        else:
            counted.append((1, Pool(count, sides, ">=", min(target, sides + 1))))
    assert _sum_cost((0, list(pools.items()), counted))[0] < ODDS_BUDGET // 100


def test_clamp_refuses_an_empty_range() -> None:
    # clamp(5, 3) once mapped 4 to 5 and 6 to 3: a mixture of two bounds
    with pytest.raises(DiceError, match="empty range"):
        Distribution.die(6).clamp(5, 3)
    assert Distribution.die(6).clamp(3, 3) == Distribution.constant(3)
    assert Distribution.die(6).clamp(low=5) == Distribution({5: 5, 6: 1})


@settings(max_examples=80)
@given(
    weights=st.dictionaries(st.integers(-20, 20), st.integers(1, 50), min_size=1, max_size=8),
    scale=st.integers(1, 7),
    data=st.data(),
)
def test_equality_and_hash_agree_whatever_the_scale_or_insertion_order(
    weights: dict[int, int], scale: int, data: st.DataObject
) -> None:
    d = Distribution(weights)
    shuffled = data.draw(st.permutations(list(weights.items())))
    scaled = Distribution([(o, w * scale) for o, w in shuffled])
    assert d == scaled and scaled == d and hash(d) == hash(scaled)
    assert d.probabilities() == scaled.probabilities()
    other = data.draw(st.sampled_from(list(weights)))
    bumped = Distribution({**weights, other: weights[other] + 1})
    if len(weights) > 1:
        assert bumped != d


@settings(max_examples=40)
@given(weights=st.dictionaries(st.integers(1, 8), st.integers(1, 9), min_size=1, max_size=5))
def test_bind_with_differing_totals_is_exact(weights: dict[int, int]) -> None:
    # each outcome x continues with a d(x): totals 1..8 differ, so weights are rescaled
    d = Distribution(weights)
    chained = d.bind(Distribution.die)
    expected = Distribution(
        {
            (x, f): w * (840 // x)  # 840 = lcm(1..8): every d(x) weighed alike
            for x, w in weights.items()
            for f in range(1, x + 1)
        }
    ).map(lambda pair: pair[1])
    assert chained == expected
    assert chained.total == sum(w for _, w in chained.items())
    assert chained.mean() == sum(Fraction(w, d.total) * Fraction(x + 1, 2) for x, w in d.items())


def test_the_estimate_itself_is_quick_for_trees_built_beyond_the_notation_bounds() -> None:
    # trees built in code skip parse()'s bounds; cost() once computed 6**n exactly
    huge = Pool(10**9, 6)
    assert cost(huge) > ODDS_BUDGET
    with pytest.raises(OddsTooComplex):
        odds(huge)


def test_order_statistics_refuse_outcomes_that_do_not_sort() -> None:
    mixed: Distribution[object] = Distribution({1: 1, "a": 1})
    with pytest.raises(DiceError, match="sorted"):
        order_statistic(mixed, 3, 2)  # type: ignore[type-var]
    with pytest.raises(DiceError, match="sorted"):
        keep_highest(mixed, 2, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad",
    [
        lambda: Distribution.die(0),
        lambda: Distribution.uniform(3, 2),
        lambda: Distribution.die(6).condition(lambda x: x > 6),
        lambda: sum_of_dice(-1, 6),
        lambda: repeat_sum(Distribution.die(6), -1),
        lambda: keep_highest(Distribution.die(6), 3, 4),
        lambda: keep_lowest(Distribution.die(6), 3, -1),
        lambda: order_statistic(Distribution.die(6), 3, 4),
        lambda: median_of(Distribution.die(6), 4),
    ],
)
def test_bad_requests_raise_the_rules_error_family(bad: object) -> None:
    # one error family for bad input: callers catch RulesError, never ValueError
    with pytest.raises(DiceError) as info:
        bad()  # type: ignore[operator]
    assert isinstance(info.value, RulesError)


@given(st.integers(-(10**30), 10**30), st.integers(1, 10**30))
def test_ratio_text_is_the_fraction_text_of_the_ratio(numerator: int, denominator: int) -> None:
    from referee.dice.odds import fraction_text, ratio_text

    assert ratio_text(numerator, denominator) == fraction_text(Fraction(numerator, denominator))


@pytest.mark.parametrize("text", ["2d6", "1d6-4", "2d6-1d20", "3d12med", "4d6kh3-10", "1d1-1"])
def test_the_odds_json_is_the_fractions_of_the_distribution(text: str) -> None:
    """distribution_data reads the integer weights; the figures are the Fractions'."""
    from referee.dice.odds import fraction_text
    from referee.dice.render import distribution_data

    dist = odds(text)
    outcomes = {str(o): fraction_text(p) for o, p in dist.probabilities().items()}
    expected = {"expression": text, "outcomes": outcomes, "mean": fraction_text(dist.mean())}
    assert distribution_data(text, dist) == expected


def test_ranges_split_outcomes_in_runs_of_one_length() -> None:
    """A table or chart of a wide distribution: at most ``most`` runs, each ``first..last``
    (a run of one: its own name); the CLI's table and the web's bars both read them."""
    from referee.dice.render import ranges

    runs = ranges(list(range(1, 11)), 4, str)
    assert [label for label, _ in runs] == ["1..3", "4..6", "7..9", "10"]
    assert [list(run) for _, run in runs][-1] == [10]
    assert [label for label, _ in ranges([5, 6], 40, str)] == ["5", "6"]
    assert ranges([], 4, str) == []
