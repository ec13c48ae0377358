"""Dice notation: grammar, canonical form, errors with positions, bounds."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.evaluate import odds, roll
from referee.dice.notation import (
    _TOKEN,
    MAX_DICE,
    MAX_LENGTH,
    MAX_SIDES,
    BinOp,
    Const,
    Expr,
    FrozenNodeError,
    Neg,
    Pool,
    canonical,
    parse,
)
from referee.dice.roller import SeededRoller
from referee.errors import NotationError, OddsTooComplex


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("7", Const(7)),
        ("2d6", Pool(2, 6)),
        ("d20", Pool(1, 20)),
        ("1d20", Pool(1, 20)),
        ("3d6kh2", Pool(3, 6, "kh", keep=2)),
        ("3d6kl2", Pool(3, 6, "kl", keep=2)),
        ("3d12med", Pool(3, 12, "med")),
        ("4d6>=3", Pool(4, 6, ">=", target=3)),
        ("4d6<=3", Pool(4, 6, "<=", target=3)),
        ("5d10>7", Pool(5, 10, ">", target=7)),
        ("5d10<2", Pool(5, 10, "<", target=2)),
        ("5d10=10", Pool(5, 10, "=", target=10)),
        ("d6-d6", BinOp("-", Pool(1, 6), Pool(1, 6))),
        ("3d6-2", BinOp("-", Pool(3, 6), Const(2))),
        ("(3d3-2)*10", BinOp("*", BinOp("-", Pool(3, 3), Const(2)), Const(10))),
        ("-d4", Neg(Pool(1, 4))),
        ("1-2-3", BinOp("-", BinOp("-", Const(1), Const(2)), Const(3))),
        ("1-(2-3)", BinOp("-", Const(1), BinOp("-", Const(2), Const(3)))),
        ("2+3*4", BinOp("+", Const(2), BinOp("*", Const(3), Const(4)))),
    ],
)
def test_parse(text: str, tree: Expr) -> None:
    assert parse(text) == tree
    assert parse(str(tree)) == tree


@pytest.mark.parametrize(
    ("text", "canon"),
    [
        ("1d20", "d20"),
        (" 2 d6 + 1 ", "2d6+1"),
        ("2D6KH1", "2d6kh1"),
        ("(2d6)", "2d6"),
        ("((1+2))+3", "1+2+3"),
        ("1+(2+3)", "1+(2+3)"),
        ("2*(3+4)", "2*(3+4)"),
        ("3--2", "3-(-2)"),
        ("-(1+2)", "-(1+2)"),
    ],
)
def test_canonical_spelling(text: str, canon: str) -> None:
    assert canonical(text) == canon


@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [
        ("3d6kh", 5, "a number"),
        ("3d6ro", 5, "a comparison (>=, <=, >, <, =) or a number"),
        ("2d", 2, "a number"),
        ("(1+2", 4, "')'"),
        ("1+*2", 2, "a number"),
        ("x", 0, "a number"),
        ("2d6 + y", 6, "'('"),
        ("3d6kh4", 5, ""),
        ("d0", 1, ""),
        ("2d6med", 0, "an odd dice count"),
        ("", 0, "2d6"),
    ],
)
def test_errors_name_the_position_and_what_was_expected(
    text: str, position: int, expected: str
) -> None:
    with pytest.raises(NotationError) as info:
        parse(text)
    assert info.value.position == position
    assert expected in info.value.expected
    assert f"position {position}" in str(info.value)


def test_bounds_are_clear_errors_returned_at_once() -> None:
    attacks = [
        "1" * (MAX_LENGTH + 1),
        f"{MAX_DICE + 1}d6",
        f"d{MAX_SIDES + 1}",
        "600d6+600d6",
        "9" * 50,
        "(" * 150 + "1" + ")" * 49,
    ]
    for text in attacks:
        start = time.perf_counter()
        with pytest.raises(NotationError):
            parse(text)
        assert time.perf_counter() - start < 1.0  # generous: a hang would be minutes


def test_odds_refuse_work_beyond_the_budget_before_starting() -> None:
    with pytest.raises(OddsTooComplex, match="limit"):
        odds("100d100kh50")
    with pytest.raises(OddsTooComplex):
        odds("500d1000*500d1000")


# ---------------------------------------------------------------------------
# Hypothesis: round trips and "rolls or raises NotationError"

pools = st.one_of(
    st.builds(Pool, st.integers(1, 6), st.integers(1, 12)),
    st.integers(1, 6).flatmap(
        lambda n: st.builds(
            Pool,
            st.just(n),
            st.integers(1, 12),
            st.sampled_from(["kh", "kl"]),
            st.integers(0, n),
        )
    ),
    st.builds(Pool, st.sampled_from([1, 3, 5]), st.integers(1, 12), st.just("med")),
    st.builds(
        lambda n, s, op, t: Pool(n, s, op, target=t),
        st.integers(1, 6),
        st.integers(1, 12),
        st.sampled_from([">=", "<=", ">", "<", "="]),
        st.integers(0, 13),
    ),
)
leaves = st.one_of(st.builds(Const, st.integers(0, 20)), pools)
trees: st.SearchStrategy[Expr] = st.recursive(
    leaves,
    lambda kids: st.one_of(
        st.builds(Neg, kids),
        st.builds(BinOp, st.sampled_from(["+", "-", "*"]), kids, kids),
    ),
    max_leaves=6,
)


@given(trees)
def test_canonical_text_parses_back_to_an_equal_tree(tree: Expr) -> None:
    text = str(tree)
    if len(text) <= MAX_LENGTH:
        assert parse(text) == tree
        assert str(parse(text)) == text


@given(st.text(alphabet="0123456789d+-*()khlmedD<>= ", max_size=40))
def test_any_text_either_rolls_or_raises_notation_error(text: str) -> None:
    try:
        expr = parse(text)
    except NotationError as e:
        assert 0 <= e.position <= len(text)
        return
    total = roll(expr, SeededRoller(0)).total
    try:
        dist = odds(expr)
    except OddsTooComplex:
        return
    assert total in dist


@pytest.mark.parametrize(
    ("text", "canonical_form"),
    [("0000000003d6", "3d6"), ("0000000000001", "1"), ("d6\n", "d6"), ("2d6\r\n+ 1", "2d6+1")],
)
def test_leading_zeros_and_any_whitespace_are_accepted(text: str, canonical_form: str) -> None:
    assert str(parse(text)) == canonical_form


def test_only_ascii_letters_fold_case() -> None:
    # str.lower() turns the Kelvin sign into "k": it must not pass for "kh"
    with pytest.raises(NotationError) as info:
        parse("3d6\u212ah2")
    assert info.value.position == 3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d6>=1002", "a number from 0 to 1001"),
        ("3d6kh4", "a number from 0 to 3"),
        ("1234567890", "a number from 0 to 1000000"),
        ("0d6", "a number from 1 to 1000"),
    ],
)
def test_out_of_range_numbers_say_what_was_expected(text: str, expected: str) -> None:
    with pytest.raises(NotationError) as info:
        parse(text)
    assert info.value.expected == expected


@pytest.mark.parametrize(
    ("text", "position", "must_list"),
    [
        # the LALR state after default reductions listed only '+' or '-' here
        ("d6)", 2, ["'*'", "'kh'", "the end of the expression"]),
        ("2d6>=3)", 6, ["'*'", "'+'", "the end of the expression"]),
        ("(d6", 3, ["')'", "'*'", "'kh'"]),
    ],
)
def test_errors_list_everything_that_could_follow(
    text: str, position: int, must_list: list[str]
) -> None:
    with pytest.raises(NotationError) as info:
        parse(text)
    assert info.value.position == position
    for item in must_list:
        assert item in info.value.expected


@settings(max_examples=300)
@given(
    st.text(
        alphabet=st.one_of(
            st.sampled_from("0123456789dDkKhHlLmMeE+-*()<>=% \t\n"), st.characters()
        ),
        max_size=60,
    )
)
def test_any_unicode_text_parses_or_raises_notation_error_with_a_valid_position(
    text: str,
) -> None:
    try:
        expr = parse(text)
    except NotationError as e:
        assert 0 <= e.position <= len(text)
        return
    assert parse(str(expr)) == expr


# ---------------------------------------------------------------------------
# the hand-written parser: what could follow, caching, nesting, the node classes


@pytest.mark.parametrize(
    ("text", "position", "expected"),
    [
        # after a number: it may still be a pool's count
        ("3x", 1, "'*', '+', '-', 'd', a label such as [fire] or the end of the expression"),
        ("(3", 2, "')', '*', '+', '-', 'd' or a label such as [fire]"),
        # after a pool with its selection, nothing more for the pool
        # (modifiers come before the selection)
        ("2d6kh2x", 6, "'*', '+', '-', a label such as [fire] or the end of the expression"),
        ("(2d6>=3", 7, "')', '*', '+', '-' or a label such as [fire]"),
        # after a closing parenthesis
        (
            "(d6)d",
            4,
            "'*', '+', '-', 'cs', 'dh', 'dl', 'k', 'kh', 'kl', 'med', "
            "a comparison (>=, <=, >, <, =), a label such as [fire] or the end of the expression",
        ),
        # where an operand begins
        ("-", 1, "'(', '-', 'd' or a number"),
        ("2*", 2, "'(', '-', 'd' or a number"),
        ("3d6>=", 5, "a number"),
        ("d", 1, "'%', 'F' or a number"),
    ],
)
def test_what_could_follow_is_listed_exactly(text: str, position: int, expected: str) -> None:
    with pytest.raises(NotationError) as info:
        parse(text)
    assert info.value.position == position
    assert info.value.expected == expected


def test_a_syntax_error_anywhere_is_reported_before_a_bound() -> None:
    # the count is out of range, but the text does not parse at all: that comes first
    with pytest.raises(NotationError, match="ends too early"):
        parse("0d6+")
    with pytest.raises(NotationError, match="dice count 0"):
        parse("0d6+1")


def test_parsed_expressions_are_cached_and_shared() -> None:
    assert parse("3d6kh2+1") is parse("3d6kh2+1")
    with pytest.raises(NotationError, match="must be text"):
        parse(["2d6"])  # type: ignore[arg-type]


def test_nesting_up_to_the_length_limit_parses() -> None:
    depth = (MAX_LENGTH - 1) // 2
    text = "(" * depth + "1" + ")" * depth
    assert parse(text) == Const(1)
    assert parse("-" * (MAX_LENGTH - 2) + "d6").dice() == ((1, 6),)
    assert str(parse("-(" * 66 + "1" + ")" * 66)) == "-" * 66 + "1"


@settings(max_examples=200)
@given(trees, st.data())
def test_any_whitespace_between_tokens_parses_to_the_same_tree(
    tree: Expr, data: st.DataObject
) -> None:
    tokens = [t for t in re.findall(r"[0-9]+|kh|kl|med|>=|<=|[-+*()d<>=]", str(tree))]
    gaps = data.draw(
        st.lists(
            st.sampled_from(["", " ", "\t", "\n ", "\u3000"]),
            min_size=len(tokens) + 1,
            max_size=len(tokens) + 1,
        )
    )
    text = gaps[0] + "".join(t + g for t, g in zip(tokens, gaps[1:], strict=True))
    if len(text) <= MAX_LENGTH:
        assert parse(text) == tree


def test_nodes_are_immutable_values() -> None:
    import pickle

    node = BinOp("+", Pool(3, 6, "kh", keep=2), Neg(Const(1)))
    with pytest.raises(AttributeError):
        node.op = "-"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del node.left  # type: ignore[misc]
    assert node == BinOp("+", Pool(3, 6, "kh", 2), Neg(Const(1)))
    assert hash(node) == hash(BinOp("+", Pool(3, 6, "kh", 2), Neg(Const(1))))
    assert node != Pool(3, 6) and Const(1) != Neg(Const(1))
    assert pickle.loads(pickle.dumps(node)) == node
    assert repr(Pool(2, 6)) == "Pool(count=2, sides=6, select='sum', keep=0, target=0)"
    with pytest.raises(ValueError):
        Pool(3, 6, "kh", keep=4)
    match node:
        case BinOp("+", Pool(count, sides), _):
            assert (count, sides) == (3, 6)
        case _:
            raise AssertionError("nodes support pattern matching")
    # a node is a tuple of its fields inside, but never a plain tuple's equal, nor ordered
    plain = (2, 6, "sum", 0, 0)
    assert Pool(2, 6) != plain and plain != Pool(2, 6)
    assert not Pool(2, 6) == plain  # noqa: SIM201 - the == path itself
    assert Const(3) != Pool(3, 1) and Neg(Const(1)) != (Const(1),)
    assert len({Const(1), Const(1), Neg(Const(1))}) == 2
    with pytest.raises(TypeError):
        _ = Pool(2, 6) < Pool(3, 6)  # type: ignore[operator]
    with pytest.raises(FrozenNodeError):
        Pool(2, 6).count = 3  # type: ignore[misc]


def test_importing_the_dice_package_for_odds_loads_no_rolling_machinery() -> None:
    import subprocess
    import sys

    code = (
        "import sys, referee.dice; referee.dice.odds('3d6kh2+1'); "
        "print([m for m in ('dataclasses', 'random', 'secrets', 'fractions', 'referee.errors')"
        " if m in sys.modules]); "
        "print(referee.dice.roll('2d6', referee.dice.SeededRoller(1)).total)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded, total = out.stdout.split("\n")[:2]
    assert loaded == "[]"
    assert 2 <= int(total) <= 12


_PIECES = [*"0123456789dkhlme+-<>= ", "kh", "med", "d6", "\u3000"]


@settings(max_examples=400)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
def test_the_one_pool_fast_path_builds_what_the_parser_builds(text: str) -> None:
    from referee.dice.notation import _Parser, _simple

    simple = _simple(text)
    if simple is None:
        return
    tokens = _TOKEN.findall(text)
    parser = _Parser(tokens)
    assert parser.sum(0) == simple and parser.problem is None


@pytest.mark.parametrize(
    "text", ["2d6", " 3 d 6 kh 2 ", "4d6>=5", "d20+3", "2d6-03", "3d12med", "d6-d6", "2d6+d4-1-1"]
)
def test_the_fast_path_takes_the_commonest_expressions(text: str) -> None:
    from referee.dice.notation import _simple

    assert _simple(text.lower()) == parse(text)


_QUICK_PIECES = [*"0123456789d+-<>=", "ro", "rr", "r", "d6", "d1", "1000", "1001", "10000000"]


@settings(max_examples=600)
@given(st.lists(st.sampled_from(_QUICK_PIECES), max_size=10).map("".join))
def test_the_quick_path_builds_what_the_parser_builds(text: str) -> None:
    """A pool, a reroll and a number read whole (``4d6rr1``, ``2d6+3``): the parser's
    tree, and nothing the parser refuses (a bound, a reroll of every face)."""
    from referee.dice.notation import _Parser, _quick

    quick = _quick(text)
    if quick is None:
        return
    parser = _Parser(_TOKEN.findall(text))
    assert parser.sum(0) == quick and parser.problem is None
    assert parser.tokens[parser.i] == ""  # the whole text read


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("2d6+3", "BinOp"),
        ("4d6rr1", "Pool"),
        ("4D6RO<=2-1", "BinOp"),
        ("d20", "Pool"),
        ("1d1rr1", None),  # every face rerolled: the parser refuses it, naming why
        ("2d6rr8", None),  # a face no d6 shows: the parser names the bound
        ("1001d6", None),
        ("2d6+1000001", None),
        ("2d6 + 3", None),  # spaces: the parser reads it
    ],
)
def test_the_quick_path_takes_the_commonest_texts(text: str, kind: str | None) -> None:
    from referee.dice.notation import _quick

    found = _quick(text.lower())
    assert (type(found).__name__ if found is not None else None) == kind
    if found is not None:
        assert found == parse(text)


_LONE_PIECES = [*"0123456789d+-", "kh", "kl", "med", "d6", "1000", "1001", "10000000"]


@settings(max_examples=600)
@given(st.lists(st.sampled_from(_LONE_PIECES), max_size=10).map("".join))
def test_a_lone_pool_reads_as_the_term_scan_reads_it(text: str) -> None:
    """``3d12med``, ``100d100kh1+2``: read at once, the terms of the scan."""
    from referee.dice.notation import _LONE, _linear_terms, _lone_terms, linear_terms

    match = _LONE.fullmatch(text)
    if match is None:
        return
    assert _lone_terms(*match.groups()) == _linear_terms(text) == linear_terms(text)
