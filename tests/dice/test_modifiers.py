"""Issue 25: the notation people already know (keep/drop, explode, reroll, clamps,
Fate, percentile, labels), with exact odds.

The exact odds are checked against a brute force written here from the rules as
the docs state them: every history a table could roll (each die's faces, its
rerolls and explosions) is enumerated with its probability, the pool's dice are
sorted and kept or counted, and the totals are tallied. Nothing here calls the
package's own per-die laws.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from referee.dice.evaluate import beyond_depth, check_faces, odds, roll
from referee.dice.notation import EXPLODE_DEPTH, Die, Labeled, Pool, die_problem, parse
from referee.dice.render import to_data, to_text
from referee.dice.roller import ScriptedRoller, SeededRoller
from referee.errors import DiceError, NotationError, OddsTooComplex

# ---------------------------------------------------------------------------
# the brute force: histories of one die, then every combination of dice

History = tuple[Fraction, list[int]]
"""A probability and the values of the rolls that count (a die's rolls, in order)."""


def _meets(value: int, op: str, target: int) -> bool:
    return {
        ">=": value >= target,
        "<=": value <= target,
        ">": value > target,
        "<": value < target,
        "=": value == target,
    }[op]


def _face(sides: int, reroll: str, cond: Callable[[int], bool]) -> Iterator[tuple[Fraction, int]]:
    """One roll's face after its rerolls: ro rerolls once; rr until the face fails the
    condition (a geometric series: k rerolled faces, then a face that stays)."""
    p = Fraction(1, sides)
    for f in range(1, sides + 1):
        if reroll == "ro":
            if cond(f):
                yield from ((p * p, g) for g in range(1, sides + 1))
            else:
                yield p, f
        elif reroll == "rr":
            hits = sum(cond(g) for g in range(1, sides + 1))
            if not cond(f):  # sum over k of (hits/sides)**k / sides
                yield p / (1 - Fraction(hits, sides)), f
        else:
            yield p, f


def _histories(
    sides: int,
    *,
    reroll: str = "",
    reroll_cond: Callable[[int], bool] = lambda f: False,
    explode: Callable[[int], bool] | None = None,
    depth: int = EXPLODE_DEPTH,
    value: Callable[[int], int] = lambda f: f,
) -> list[History]:
    """Every way one die can go: its faces (after rerolls), one more roll for each face
    that explodes, at most ``depth`` more; each roll worth ``value(face)``."""
    out: list[History] = []

    def go(prob: Fraction, rolls: list[int], extra: int) -> None:
        for p, f in _face(sides, reroll, reroll_cond):
            now = [*rolls, value(f)]
            if explode is not None and explode(f) and extra < depth:
                go(prob * p, now, extra + 1)
            else:
                out.append((prob * p, now))

    go(Fraction(1), [], 0)
    return out


def _pool(
    n: int, die: list[History], read: Callable[[list[list[int]]], int]
) -> dict[int, Fraction]:
    """The law of ``read(each die's rolls)`` over every combination of n dice."""
    law: dict[int, Fraction] = {}
    for combo in product(die, repeat=n):
        p = math.prod(h[0] for h in combo)
        x = read([h[1] for h in combo])
        law[x] = law.get(x, Fraction(0)) + p
    return law


def _keep(k: int, highest: bool = True) -> Callable[[list[list[int]]], int]:
    return lambda dice: sum(sorted((sum(d) for d in dice), reverse=highest)[:k])


def _sum(dice: list[list[int]]) -> int:
    return sum(sum(d) for d in dice)


def _law(text: str, **kw: int) -> dict[int, Fraction]:
    return {x: Fraction(p) for x, p in odds(text, **kw).probabilities().items()}


def _d(sides: int) -> list[History]:
    return _histories(sides)


def _fate() -> list[History]:
    return _histories(3, value=lambda f: f - 2)


def _cases() -> list[tuple[str, dict[str, int], Callable[[], dict[int, Fraction]]]]:
    six = lambda f: f == 6  # noqa: E731
    four = lambda f: f == 4  # noqa: E731
    return [
        ("4d6dl1", {}, lambda: _pool(4, _d(6), _keep(3))),
        ("4d6dh1", {}, lambda: _pool(4, _d(6), _keep(3, highest=False))),
        ("4d6k3", {}, lambda: _pool(4, _d(6), _keep(3))),
        ("2d20kh1", {}, lambda: _pool(2, _d(20), _keep(1))),
        (
            "3d6ro1",
            {},
            lambda: _pool(3, _histories(6, reroll="ro", reroll_cond=lambda f: f == 1), _sum),
        ),
        (
            "4d6rr1",
            {},
            lambda: _pool(4, _histories(6, reroll="rr", reroll_cond=lambda f: f == 1), _sum),
        ),
        (
            "3d6r<3",
            {},
            lambda: _pool(3, _histories(6, reroll="rr", reroll_cond=lambda f: f < 3), _sum),
        ),
        (
            "4d6ro1kh3",
            {},
            lambda: _pool(4, _histories(6, reroll="ro", reroll_cond=lambda f: f == 1), _keep(3)),
        ),
        (
            "3d6rr1dl1",
            {},
            lambda: _pool(3, _histories(6, reroll="rr", reroll_cond=lambda f: f == 1), _keep(2)),
        ),
        ("d6!", {}, lambda: _pool(1, _histories(6, explode=six), _sum)),
        ("3d6!", {"depth": 3}, lambda: _pool(3, _histories(6, explode=six, depth=3), _sum)),
        (
            "2d4x>=3",
            {"depth": 4},
            lambda: _pool(2, _histories(4, explode=lambda f: f >= 3, depth=4), _sum),
        ),
        (
            "2d6!5",
            {"depth": 3},
            lambda: _pool(2, _histories(6, explode=lambda f: f == 5, depth=3), _sum),
        ),
        ("2d4!!", {"depth": 4}, lambda: _pool(2, _histories(4, explode=four, depth=4), _sum)),
        (
            "(3d4!)kh1",
            {"depth": 3},
            lambda: _pool(3, _histories(4, explode=four, depth=3), _keep(1)),
        ),
        ("3d4!kh2", {"depth": 2}, lambda: _pool(3, _histories(4, explode=four, depth=2), _keep(2))),
        (
            "3d4!cs>=3",  # each roll counts on its own
            {"depth": 3},
            lambda: _pool(
                3,
                _histories(4, explode=four, depth=3),
                lambda ds: sum(v >= 3 for d in ds for v in d),
            ),
        ),
        (
            "3d4!!cs>=5",  # a compounded die is one die: its total is compared
            {"depth": 3},
            lambda: _pool(
                3, _histories(4, explode=four, depth=3), lambda ds: sum(sum(d) >= 5 for d in ds)
            ),
        ),
        (
            "2d4ro1!",
            {"depth": 2},
            lambda: _pool(
                2,
                _histories(4, reroll="ro", reroll_cond=lambda f: f == 1, explode=four, depth=2),
                _sum,
            ),
        ),
        ("3d6mi3", {}, lambda: _pool(3, _histories(6, value=lambda f: max(f, 3)), _sum)),
        ("3d6max4", {}, lambda: _pool(3, _histories(6, value=lambda f: min(f, 4)), _sum)),
        (
            "2d20mi5ma15",
            {},
            lambda: _pool(2, _histories(20, value=lambda f: min(max(f, 5), 15)), _sum),
        ),
        ("4dF", {}, lambda: _pool(4, _fate(), _sum)),
        ("4dF>=1", {}, lambda: _pool(4, _fate(), lambda ds: sum(sum(d) >= 1 for d in ds))),
        ("3dFkh2", {}, lambda: _pool(3, _fate(), _keep(2))),
        ("d%", {}, lambda: _pool(1, _d(100), _sum)),
        ("3d%kl1", {}, lambda: _pool(3, _d(100), _keep(1, highest=False))),
        ("2d6[fire]+1d4[cold]", {}, lambda: _pool(2, _d(6), _sum)),  # + d4: added below
        (
            "3d4!med",
            {"depth": 2},
            lambda: _pool(
                3, _histories(4, explode=four, depth=2), lambda ds: sorted(sum(d) for d in ds)[1]
            ),
        ),
    ]


def _plus_d4(law: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, p in law.items():
        for f in range(1, 5):
            out[x + f] = out.get(x + f, Fraction(0)) + p / 4
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("text", "kw", "brute"), _cases(), ids=[c[0] for c in _cases()])
def test_exact_odds_match_a_brute_force_of_every_history(
    text: str, kw: dict[str, int], brute: Callable[[], dict[int, Fraction]]
) -> None:
    expected = brute()
    if text.startswith("2d6[fire]"):
        expected = _plus_d4(expected)
    expected = {x: p for x, p in expected.items() if p}
    assert sum(expected.values()) == 1
    assert _law(text, **kw) == expected


def test_the_issues_forms_parse_and_print_back() -> None:
    spelled = {
        "4d6dl1": "4d6dl1",
        "4d6k3": "4d6kh3",
        "3d6!": "3d6!",
        "4d6ro1": "4d6ro1",
        "4d6rr1": "4d6rr1",
        "1d20mi10": "d20mi10",
        "4dF": "4dF",
        "d%": "d100",
        "4d6x": "4d6!",
        "4d6x>=5": "4d6!>=5",
        "3d6!!": "3d6!!",
        "d20min5max15": "d20mi5ma15",
        "10d6!cs>=5": "10d6!cs>=5",
        "10d6!>=5": "10d6!>=5",
        "(3d6!)kh1": "3d6!kh1",
        "2d6[fire]+1d4[cold]": "2d6[fire]+d4[cold]",
        "4d6r<3": "4d6rr<3",
        "4D6RO1KH3": "4d6ro1kh3",
    }
    for text, canonical in spelled.items():
        tree = parse(text)
        assert str(tree) == canonical, text
        assert parse(canonical) == tree, text


def test_what_the_trees_hold() -> None:
    assert parse("4d6ro1kh3") == Pool(4, 6, "kh", 3, 0, Die("ro", "=", 1))
    assert parse("10d6!>=5") == Pool(10, 6, die=Die(explode="!", explode_op=">=", explode_at=5))
    assert parse("10d6!cs>=5") == Pool(10, 6, ">=", 0, 5, Die(explode="!"))
    assert parse("4dF") == Pool(4, 3, die=Die(fate=True))
    label = parse("2d6[Fire Bolt]")
    assert isinstance(label, Labeled) and label.label == "Fire Bolt"


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("4d6r", "bare r", 3),
        ("d6!>=1", "every face", 5),
        ("d6rr<7", "never stop", 5),
        ("d6ro1ro2", "one reroll", 5),
        ("d6!!x", "one explosion", 4),
        ("d20mi15ma10", "above the maximum", 9),
        ("(2d6+1)kh1", "not a pool", 7),
        ("2d6[fire", "not closed", 3),
        ("4d6dl5", "drop count 5 is out of range 0..4", 5),
        ("4dF!", "unexpected !", 3),
        ("4d6kh2ro1", "unexpected ro", 6),
        ("d6mi7", "minimum 7 is out of range 1..6", 4),
    ],
)
def test_bad_forms_say_what_and_where(text: str, message: str, position: int) -> None:
    with pytest.raises(NotationError) as info:
        parse(text)
    assert message in str(info.value)
    assert info.value.position == position


@pytest.mark.parametrize("text", ["2d6-4dF", "4dF+d%-3", "d%-d%", "3dF-3dF", "2d3-2dF+1"])
def test_plain_sums_with_fate_and_percentile_dice_read_as_their_trees(text: str) -> None:
    # odds() reads a plain sum straight from the text; the tree must agree
    from referee.dice.evaluate import _odds

    assert odds(text) == _odds(parse(text))


def test_labels_keep_their_case_and_are_ignored_by_the_odds() -> None:
    assert odds("2d6[Fire]+1d4[cold]") == odds("2d6+d4")
    rolled = roll("2d6[Fire]+1d4[cold]", ScriptedRoller([6, 3, 4]))
    assert to_text(rolled) == "Fire: 2d6[6, 3] + cold: d4[4] = 13"
    assert to_data(rolled)["parts"][0]["label"] == "Fire"


# ---------------------------------------------------------------------------
# depth: the bound, and what is left beyond it


def test_beyond_depth_is_the_chance_a_die_would_explode_again() -> None:
    assert beyond_depth("d6!", depth=2) == Fraction(1, 6**3)
    assert beyond_depth("3d6!") == 1 - (1 - Fraction(1, 6**10)) ** 3
    assert beyond_depth("10d6!>=5+d4") == 1 - (1 - Fraction(1, 3**10)) ** 10
    assert beyond_depth("4d6kh3") == 0
    # the bounded odds count those rolls at the bound: the last roll at its face
    law = odds("d6!", depth=2)
    assert law.probability(18) == Fraction(1, 216)
    assert law.max() == 18


def test_a_roll_explodes_like_a_table_up_to_the_same_bound() -> None:
    sixes = ScriptedRoller([6, 6, 6, 6, 6])
    rolled = roll("d6!", sixes, depth=3)
    assert rolled.total == 24 and rolled.faces() == (6, 6, 6, 6)
    assert sixes.remaining == (6,)
    assert to_text(rolled) == "d6![6!6!6!6] = 24"
    rolled = roll("2d6!", ScriptedRoller([6, 2, 5]))
    assert rolled.total == 13 and [d.exploded for d in rolled.dice] == [False, True, False]


def test_rerolled_faces_are_kept_in_the_derivation_but_never_counted() -> None:
    rolled = roll("3d6ro1", ScriptedRoller([1, 1, 4, 1, 5]))
    assert rolled.total == 1 + 4 + 5
    assert [(d.face, d.rerolled, d.kept) for d in rolled.dice] == [
        (1, True, False),
        (1, False, True),  # ro rerolls once: a second 1 stays
        (4, False, True),
        (1, True, False),
        (5, False, True),
    ]
    assert to_text(rolled) == "3d6ro1[~1 1, 4, ~1 5] = 10"
    until = roll("2d6rr<3", ScriptedRoller([1, 2, 2, 6, 3]))
    assert until.total == 9 and to_text(until) == "2d6rr<3[~1 ~2 ~2 6, 3] = 9"


def test_fate_and_clamped_dice_show_their_values() -> None:
    fate = roll("4dF", ScriptedRoller([1, 2, 3, 3]))
    assert fate.total == 1 and to_text(fate) == "4dF[-, 0, +, +] = 1"
    assert [d.worth for d in fate.dice] == [-1, 0, 1, 1]
    clamped = roll("2d20mi10", ScriptedRoller([3, 17]))
    assert clamped.total == 27 and to_text(clamped) == "2d20mi10[3->10, 17] = 27"


def test_counting_with_explosions_counts_every_roll() -> None:
    rolled = roll("3d6!cs>=5", ScriptedRoller([6, 5, 2, 6, 1]))
    # 6 (hit, explodes) 5 (hit); 2; 6 (hit, explodes) 1
    assert rolled.total == 3
    compounded = roll("3d6!!cs>=8", ScriptedRoller([6, 5, 2, 6, 1]))
    assert compounded.total == 1  # 11 counts, 2 and 7 do not


def test_faces_replay_the_roll_and_hand_entered_faces_are_checked() -> None:
    roller = SeededRoller(11)
    for text in ("6d6rr<3!", "4d6ro1kh3", "10d6!cs>=5", "3d6!!", "4dF", "2d6[a]+d4!"):
        rolled = roll(text, roller)
        again = roll(text, ScriptedRoller(rolled.faces()))
        assert again == rolled
        check_faces(text, rolled.faces())
    check_faces("3d6!ro1", [1, 6, 6, 2, 1, 1, 5])
    with pytest.raises(DiceError, match="needs more faces"):
        check_faces("3d6!", [6, 2])
    with pytest.raises(DiceError, match="1 more than it rolls"):
        check_faces("3d6!", [6, 2, 3, 4, 5])
    with pytest.raises(DiceError, match="impossible on a d6"):
        check_faces("2d6!", [7, 1])


def test_rolling_a_reroll_until_a_rare_face_is_refused_before_a_die_is_drawn() -> None:
    roller = SeededRoller(1)
    with pytest.raises(DiceError, match="limit 200,000"):
        roll("1000d1000rr<1000", roller)
    assert roller.records == ()


# ---------------------------------------------------------------------------
# rolled against the odds: support and frequencies (a chi-square test at a fixed seed)

FORMS = [
    "4d6dl1",
    "4d6ro1",
    "4d6rr1",
    "3d6!",
    "10d6!>=5",
    "10d6!cs>=5",
    "4dF",
    "d%",
    "4d6ro1kh3",
    "(3d6!)kh1",
    "3d6!!cs>=8",
    "d20mi10",
    "2d6[fire]+1d4[cold]",
    "3d8rr<3ma6",
]

# the 0.999 quantile of chi-square, by degrees of freedom (scipy.stats.chi2.ppf)
_CRITICAL = {
    1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32, 8: 26.12,
    9: 27.88, 10: 29.59, 11: 31.26, 12: 32.91, 13: 34.53, 14: 36.12, 15: 37.70,
    16: 39.25, 17: 40.79, 18: 42.31, 19: 43.82, 20: 45.31, 21: 46.80, 22: 48.27,
    23: 49.73, 24: 51.18, 25: 52.62, 26: 54.05, 27: 55.48, 28: 56.89, 29: 58.30,
    30: 59.70,
}  # fmt: skip


def _chi_square(law: dict[int, Fraction], counts: dict[int, int], n: int) -> tuple[float, int]:
    """The statistic over bins of consecutive outcomes, each expecting at least 5."""
    bins: list[tuple[float, int]] = []
    expected, seen = 0.0, 0
    for x in sorted(law):
        expected += float(law[x]) * n
        seen += counts.get(x, 0)
        if expected >= 5:
            bins.append((expected, seen))
            expected, seen = 0.0, 0
    if bins and expected:
        e, s = bins.pop()
        bins.append((e + expected, s + seen))
    stat = sum((s - e) ** 2 / e for e, s in bins)
    return stat, len(bins) - 1


@pytest.mark.parametrize("text", FORMS)
def test_rolls_lie_in_the_support_and_match_the_odds(text: str) -> None:
    law = _law(text)
    roller = SeededRoller(2026)
    n = 3000
    counts: dict[int, int] = {}
    for _ in range(n):
        total = roll(text, roller).total
        assert total in law
        counts[total] = counts.get(total, 0) + 1
    stat, df = _chi_square(law, counts, n)
    assert df >= 1
    assert stat < _CRITICAL[min(df, 30)] * (1 if df <= 30 else df / 30), (stat, df)


# ---------------------------------------------------------------------------
# every tree with modifiers prints as text that parses back to it

_CMP = st.sampled_from([">=", "<=", ">", "<", "="])


@st.composite
def _modified_pools(draw: st.DrawFn) -> Pool:
    sides = draw(st.integers(2, 12))
    n = draw(st.integers(1, 5))
    if draw(st.booleans()):
        die = Die(fate=True)
        sides = 3
    else:
        reroll = draw(st.sampled_from(["", "ro", "rr"]))
        explode = draw(st.sampled_from(["", "!", "!!"]))
        explode_op = draw(st.sampled_from(["", ">=", "<=", ">", "<", "="])) if explode else ""
        low = draw(st.integers(0, sides))
        high = draw(st.integers(0, sides))
        if low and high and low > high:
            low, high = high, low
        die = Die(
            reroll,
            draw(_CMP) if reroll else "",
            draw(st.integers(0, sides + 1)) if reroll else 0,
            explode,
            explode_op,
            draw(st.integers(0, sides + 1)) if explode_op else 0,
            low,
            high,
        )
    assume(die_problem(die, sides) == "")
    select = draw(st.sampled_from(["sum", "kh", "kl", "dh", "dl", "med", ">=", "<", "="]))
    if select == "med" and n % 2 == 0:
        select = "sum"
    keep = draw(st.integers(0, n)) if select in ("kh", "kl", "dh", "dl") else 0
    target = draw(st.integers(0, sides + 1)) if select in (">=", "<", "=") else 0
    return Pool(n, sides, select, keep, target, die)


@settings(max_examples=300)
@given(_modified_pools(), st.booleans())
def test_modified_pools_print_back_to_the_same_tree(pool: Pool, labelled: bool) -> None:
    tree = Labeled(pool, "Fire 2") if labelled else pool
    assert parse(str(tree)) == tree


@settings(max_examples=300)
@given(st.text(alphabet="0123456789d+-*()khlmeiaD<>=!xrocsfF%[] ", max_size=30))
def test_any_text_with_modifiers_rolls_within_its_odds_or_is_refused_clearly(text: str) -> None:
    try:
        expr = parse(text)
    except NotationError as e:
        assert 0 <= e.position <= len(text)
        return
    assert parse(str(expr)) == expr
    try:
        law = odds(expr)
    except OddsTooComplex:
        return
    try:
        total = roll(expr, SeededRoller(0)).total
    except DiceError as e:  # a roll expected to draw too many dice, refused before drawing
        assert "would draw" in str(e)
        return
    assert total in law
