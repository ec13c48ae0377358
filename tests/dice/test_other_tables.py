"""Issue 40: what people type at other tables (Roll20, Foundry VTT, Avrae) is read or
refused with our spelling named, and docs/dice.md's table says which, row by row."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.cli.main import run
from referee.dice.notation import parse
from referee.errors import NotationError

DOCS = Path(__file__).resolve().parents[2] / "docs" / "dice.md"


def _table_rows() -> list[tuple[str, str, str]]:
    """``(typed, read or refused, spelling)`` of each row of "Typed at other tables"."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("### Typed at other tables") :]
    section = section[: section.index("\n\n", section.index("| you type |"))]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        typed = re.match(r"`([^`]*)`", cells[0])
        verdict = re.match(r"(read|refused): `([^`]*)`", cells[2])
        assert typed and verdict, line
        rows.append((typed.group(1), verdict.group(1), verdict.group(2)))
    return rows


ROWS = _table_rows()

# every form the issue lists, which the table must cover
ISSUE_FORMS = [
    "/r 1d20+5",
    "1d20adv",
    "{4d6kh3}",
    "[[1d20+5]]",
    "3d6 # stealth",
    "1d20+5 Stealth",
    "4d6d1",
    "d20ra1",
    "2d6+3 fire",
    "1d20cs>18",
    "4d6k h3",
    "1 0d6",
]


def test_the_table_covers_every_form_the_issue_lists() -> None:
    typed = {row[0] for row in ROWS}
    assert set(ISSUE_FORMS) <= typed
    assert {"/roll 1d20+5", "!r 1d20+5", "d20 adv"} <= typed


@pytest.mark.parametrize(("typed", "verdict", "spelling"), ROWS, ids=[r[0] for r in ROWS])
def test_each_row_of_the_docs_table_is_what_the_parser_does(
    typed: str, verdict: str, spelling: str
) -> None:
    if verdict == "read":
        tree = parse(typed)
        assert str(tree) == spelling
        assert parse(spelling) == tree
        return
    with pytest.raises(NotationError) as info:
        parse(typed)
    assert spelling in str(info.value)
    assert 0 <= info.value.position <= len(typed)


@pytest.mark.parametrize(
    ("typed", "position"),
    [
        ("1d20adv", 4),
        ("d20 adv", 4),
        ("{4d6kh3}", 0),
        ("[[1d20+5]]", 0),
        ("4d6d1", 3),
        ("d20ra1", 3),
        ("4d6k h3", 5),
        ("1 0d6", 2),
        ("/gmroll 1d20", 0),
    ],
)
def test_refusals_point_at_the_foreign_form(typed: str, position: int) -> None:
    with pytest.raises(NotationError) as info:
        parse(typed)
    assert info.value.position == position


def test_a_chat_command_is_dropped_and_positions_stay_those_typed() -> None:
    assert parse("/r 1d20+5") == parse("1d20+5")
    assert parse("  !ROLL 2d6") == parse("2d6")
    with pytest.raises(NotationError) as info:
        parse("/r 3d6kh")
    assert info.value.position == 8 and info.value.text == "/r 3d6kh"
    with pytest.raises(NotationError, match="empty"):
        parse("/r ")


def test_a_comment_is_the_whole_expressions_label() -> None:
    assert str(parse("3d6+2 # Stealth check")) == "(3d6+2)[Stealth check]"
    assert str(parse("d6[fire] #cold")) == "(d6[fire])[cold]"
    assert str(parse("2d6 #")) == "2d6"  # an empty comment is no label
    # '#' inside a label is the label's
    assert str(parse("d6[a#b]")) == "d6[a#b]"
    with pytest.raises(NotationError, match="cannot hold ']'") as info:
        parse("3d6 # a]b")
    assert info.value.position == 7
    with pytest.raises(NotationError):  # a comment ends the text: not inside parentheses
        parse("(3d6 # x)")


@pytest.mark.parametrize(
    ("typed", "written"),
    [
        ("1d20+5 Stealth", "(d20+5)[Stealth]"),
        ("1d20+5 dexterity save", "(d20+5)[dexterity save]"),  # 'd' starts the word
        ("d20 radiant", "d20[radiant]"),  # 'r' starts it
        ("4dF fire", "4dF[fire]"),
        ("d6 x fire", "d6![fire]"),  # 'x' is the notation's: the words start after it
        ("2d6+3 fire  and   ice", "(2d6+3)[fire and ice]"),
    ],
)
def test_plain_words_after_the_roll_are_its_label(typed: str, written: str) -> None:
    assert str(parse(typed)) == written


@pytest.mark.parametrize(
    "typed", ["4d6 kh", "d20 ra", "2d6 f", "3d6 min damage", "2d6 d1", "d20 e6", "2d6+"]
)
def test_notation_words_are_never_read_as_a_label(typed: str) -> None:
    with pytest.raises(NotationError):
        parse(typed)


def test_a_text_that_parses_is_never_reread_as_words() -> None:
    assert str(parse("d6 x")) == "d6!"
    assert str(parse("3d6 med")) == "3d6med"


def test_through_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["odds", "/r 1d20+5 Stealth", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert '"expression": "(d20+5)[Stealth]"' in out
    code = run(["odds", "1d20adv"])
    out, err = capsys.readouterr()
    assert code != 0 and "2d20kh1" in err and "Traceback" not in err
