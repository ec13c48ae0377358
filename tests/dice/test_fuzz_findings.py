"""Issue 40, what a differential fuzz against icepool found: each finding fails before
the fix, and the property behind the first two (canonical text parses back to the
same tree, at every explosion depth) is checked on generated texts."""

from __future__ import annotations

from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli.main import run
from referee.dice.evaluate import as_expr, beyond_depth, check_cost, odds, with_depth
from referee.dice.notation import MAX_DEPTH, MAX_LENGTH, Die, Labeled, Pool, parse
from referee.dice.odds import Distribution, keep_highest, keep_lowest
from referee.errors import NotationError

# ---------------------------------------------------------------------------
# 1. a label holding '[' crashed when the tree was rebuilt at another depth


@pytest.mark.parametrize("depth", [0, 3, 9, 100])
def test_a_label_holding_an_open_bracket_is_kept_at_every_depth(depth: int) -> None:
    tree = as_expr("d6[a[b]", depth)
    assert tree == Labeled(Pool(1, 6), "a[b")
    assert str(tree) == "d6[a[b]"
    assert odds("d6[a[b]", depth=depth).total == 6


def test_the_command_line_answers_a_label_holding_an_open_bracket(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["odds", "d6[a[b]", "--depth", "3"]) == 0
    assert run(["roll", "d6[a[b]", "--seed", "1", "--depth", "0"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "a[b: d6[" in out


def test_a_label_still_refuses_a_closing_bracket() -> None:
    with pytest.raises(ValueError, match="closing square bracket"):
        Labeled(Pool(1, 6), "a]b")


# ---------------------------------------------------------------------------
# 2. canonical text that did not parse back


def test_a_label_on_a_labelled_group_is_written_with_its_parentheses() -> None:
    tree = parse("(d6[a])[b]")
    assert str(tree) == "(d6[a])[b]"
    assert parse(str(tree)) == tree == Labeled(Labeled(Pool(1, 6), "a"), "b")


def test_a_text_written_back_longer_than_the_bound_is_refused_at_once() -> None:
    text = "+".join(["3--2"] * 40)
    assert len(text) == 199
    with pytest.raises(NotationError, match="written back as 279 characters"):
        parse(text)
    shorter = "+".join(["3--2"] * 28)  # 139 typed, 195 written back
    assert parse(str(parse(shorter))) == parse(shorter)


# every kind of piece the grammar reads, alone or in any order: most joins do not
# parse; the ones that do must come back from their canonical text
_PIECES = [
    *"0123456789",
    "d",
    "d6",
    "2d6",
    "d%",
    "dF",
    "kh",
    "k",
    "kl",
    "dl",
    "dh",
    "med",
    "ro",
    "rr",
    "r",
    "!",
    "!!",
    "x",
    "mi",
    "ma",
    "min",
    "cs",
    ">=",
    "<",
    "=",
    ">",
    "+",
    "-",
    "*",
    "(",
    ")",
    " ",
    "[a]",
    "[a[b]",
    "[x y]",
    "#c",
    " fire",
    " Stealth",
    "/r ",
    "!r ",
    "--",
]


def _roundtrip(text: str, depth: int) -> None:
    try:
        tree = as_expr(text, depth)
    except NotationError:
        return
    written = str(tree)
    assert len(written) <= MAX_LENGTH
    again = as_expr(written, depth)
    assert again == tree, (text, written)
    assert str(again) == written


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=14).map("".join),
    st.integers(0, MAX_DEPTH),
)
def test_every_accepted_text_comes_back_from_its_canonical_form_at_every_depth(
    text: str, depth: int
) -> None:
    _roundtrip(text, depth)
    _roundtrip(text, 9)


_terms = st.tuples(
    st.sampled_from(["", "2", "3", "10"]),
    st.sampled_from(["d2", "d6", "d20", "d%", "dF"]),
    st.sampled_from(["", "ro1", "rr1", "r<3", "!", "x>=5", "!!", "mi2", "ma5", "rr<6!"]),
    st.sampled_from(["", "kh1", "k2", "kl1", "dl1", "med", ">=4", "cs>=5", "d1", "adv"]),
    st.sampled_from(["", "", "[a]", "[a[b]", "[x y]", "[]", "[c]"]),
).map("".join) | st.sampled_from(["0", "7", "-3", "(2d6)", "(d6[a])", "(3d6!)kh1", "--2"])
_operators = st.sampled_from(["+", "-", "*", "+-", "--", " + "])
_texts = st.builds(
    lambda head, first, rest, group, label, tail: (
        head
        + ("(" if group else "")
        + first
        + "".join(op + term for op, term in rest)
        + (")" if group else "")
        + (label if group else "")
        + tail
    ),
    st.sampled_from(["", "", "/r ", "!roll ", "/gmroll "]),
    _terms,
    st.lists(st.tuples(_operators, _terms), max_size=4),
    st.booleans(),
    st.sampled_from(["", "[g]", "[g[h]"]),
    st.sampled_from(["", "", " # stealth", " #", " Stealth check", " fire", " kh"]),
)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(_texts, st.integers(0, MAX_DEPTH))
def test_every_accepted_expression_comes_back_from_its_canonical_form_at_every_depth(
    text: str, depth: int
) -> None:
    _roundtrip(text, depth)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["3--2", "d%", "1*-2", "d%r1k1", "2d6#a", "d6[a]"]), min_size=1)
    .map("+".join)
    .filter(lambda t: len(t) <= MAX_LENGTH)
)
def test_long_texts_are_accepted_only_when_written_back_within_the_bound(text: str) -> None:
    _roundtrip(text, 9)


# ---------------------------------------------------------------------------
# 3. dice that never end were accepted


@pytest.mark.parametrize(
    "text", ["d2rr1!", "d6rr<6!", "d6rr<5!>=5", "4d6rr<6!!", "d6rr<=5!6", "d6rr<6!>=5"]
)
def test_a_reroll_that_leaves_only_exploding_faces_is_refused(text: str) -> None:
    with pytest.raises(NotationError, match="it would never stop"):
        parse(text)


def test_the_die_itself_refuses_it_too() -> None:
    never = Die(reroll="rr", reroll_op="=", reroll_at=1, explode="!")
    with pytest.raises(ValueError, match="never stop"):
        Pool(1, 2, die=never)


@pytest.mark.parametrize("text", ["d6rr<5!", "d6rr1!", "d2ro1!", "d6rr>3!<=2"])
def test_a_reroll_that_leaves_a_face_that_stops_is_accepted(text: str) -> None:
    dist = odds(text)
    assert sum(dist.probabilities().values()) == 1
    assert beyond_depth(text) < 1


# ---------------------------------------------------------------------------
# 4. keep highest / lowest of many two-sided dice: the binomial count


def test_keep_500_of_1000_two_sided_dice_is_the_binomial_count() -> None:
    n, k = 1000, 500
    high: dict[int, int] = {}
    low: dict[int, int] = {}
    for twos in range(n + 1):  # C(n, twos) rolls show this many 2s
        ways = comb(n, twos)
        kept_twos = min(twos, k)  # the highest k: as many 2s as there are, up to k
        high[k + kept_twos] = high.get(k + kept_twos, 0) + ways
        ones = n - twos
        kept_ones = min(ones, k)  # the lowest k: 1s first
        value = kept_ones + 2 * (k - kept_ones)
        low[value] = low.get(value, 0) + ways
    assert odds("1000d2kh500").weights() == high
    assert odds("1000d2kl500").weights() == low
    check_cost("1000d2kh500")  # and now from outside too


def _brute_keep(weights: dict[int, int], n: int, keep: int, highest: bool) -> dict[int, int]:
    from itertools import product

    out: dict[int, int] = {}
    for roll in product(weights, repeat=n):
        ways = 1
        for face in roll:
            ways *= weights[face]
        value = sum(sorted(roll, reverse=highest)[:keep])
        out[value] = out.get(value, 0) + ways
    return out


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.integers(-4, 9), st.integers(1, 5), min_size=2, max_size=4),
    st.integers(1, 5),
    st.data(),
)
def test_keep_of_any_weighted_die_matches_a_count_of_every_roll(
    weights: dict[int, int], n: int, data: st.DataObject
) -> None:
    keep = data.draw(st.integers(0, n))
    die = Distribution.from_weights(weights)
    assert keep_highest(die, n, keep).weights() == _brute_keep(weights, n, keep, True)
    assert keep_lowest(die, n, keep).weights() == _brute_keep(weights, n, keep, False)


# ---------------------------------------------------------------------------
# 5. small: non-text expressions, and spaces inside a word or a number


@pytest.mark.parametrize(
    "call",
    [
        lambda: odds(None),  # type: ignore[arg-type]
        lambda: check_cost(5),  # type: ignore[arg-type]
        lambda: beyond_depth(None),  # type: ignore[arg-type]
        lambda: with_depth(as_expr(None), 3),  # type: ignore[arg-type]
    ],
)
def test_what_is_not_an_expression_is_a_notation_error(call: object) -> None:
    with pytest.raises(NotationError, match="must be notation text or a parsed expression"):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(
    ("text", "position", "meant"), [("4d6k h3", 5, "4d6kh3"), ("1 0d6", 2, "10d6")]
)
def test_a_space_inside_a_word_or_number_is_refused_naming_what_was_meant(
    text: str, position: int, meant: str
) -> None:
    with pytest.raises(NotationError, match="a space cannot go inside") as info:
        parse(text)
    assert info.value.position == position
    assert f"did you mean {meant}?" in str(info.value)


def test_spaces_between_the_parts_are_still_ignored() -> None:
    assert parse("4d6 kh3") == parse("4d6kh3") == parse(" 4 d 6 kh 3 ")
    assert parse("10 d6 ! >= 5") == parse("10d6!>=5")
