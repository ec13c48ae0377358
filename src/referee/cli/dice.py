"""``referee roll`` and ``referee odds``, with no click, and the console script's front door.

A one-off ``referee odds 2d6`` should start about as fast as the interpreter (click alone
costs twice its start): :func:`main` reads the plain forms of these two commands itself
and hands every other command line, help included, to click (:mod:`referee.cli.main`),
whose ``roll`` and ``odds`` call the same functions here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from referee.cli.text import Console

if TYPE_CHECKING:
    from referee.dice.roller import Roller

console = Console()

MAX_ROWS = 60
"""A text table shows at most this many rows; wider distributions are grouped."""

DEPTH = 9
"""Extra rolls one exploding die may make by default (``--depth``)."""


def emit_json(data: Any, file: TextIO | None = None) -> None:
    """Write JSON to ``file`` or stdout (keys unsorted: their order is part of the meaning)."""
    import json

    (file or sys.stdout).write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def faces_option(text: str | None) -> tuple[int, ...] | None:
    """Parse a ``--faces`` value (``"6,3,1,1"``); ``None`` when not given."""
    from referee.dice.roller import parse_faces

    return None if text is None else parse_faces(text)


def make_roller(faces: Sequence[int] | None, seed: int | None) -> Roller:
    """Hand-entered faces, else a seeded roller, else the system roller."""
    from referee.dice.roller import ManualRoller, SeededRoller, SystemRoller

    if faces is not None:
        return ManualRoller(faces)
    return SystemRoller() if seed is None else SeededRoller(seed)


def roll(expression: str, seed: int | None, faces: str | None, depth: int, as_json: bool) -> None:
    """Roll a dice expression: every face (dropped ones in parentheses) and the total."""
    from referee.dice.evaluate import as_expr, check_faces
    from referee.dice.evaluate import roll as roll_expr
    from referee.dice.render import to_data, to_text

    expr = as_expr(expression, depth)
    hand = faces_option(faces)
    if hand is not None:
        check_faces(expr, hand)
    roller = make_roller(hand, seed)
    rolled = roll_expr(expr, roller)
    manual = hand is not None
    if as_json:
        extra = {"roller": roller.kind, "seed": None if manual else seed, "manual": manual}
        emit_json(to_data(rolled) | extra)
    else:
        console.print(to_text(rolled) + (" (faces entered by hand)" if manual else ""))


def odds(expression: str, depth: int, as_json: bool) -> None:
    """Show the exact distribution of a dice expression, with at-least / at-most columns.

    With exploding dice, also the probability that a die would explode more than
    --depth times (those rolls are counted at the bound).
    """
    from referee.dice.evaluate import as_expr, beyond_depth, explodes
    from referee.dice.evaluate import odds as exact
    from referee.dice.render import distribution_data

    expr = as_expr(expression, depth)
    dist = exact(expr)
    beyond = (depth, beyond_depth(expr)) if explodes(expr) else None
    if as_json:
        emit_json(distribution_data(str(expr), dist, beyond))
        return
    show_distribution(str(expr), dist)
    if beyond is not None:
        p = beyond[1]
        console.print(
            f"beyond depth {depth}: p = {p.numerator}/{p.denominator} "
            f"({float(p):.3g}; counted at the bound)"
        )


def show_distribution(title: str, dist: Any, *, value_header: str = "value") -> None:
    """Render an integer distribution as a text table with a bar per outcome.

    With more than :data:`MAX_ROWS` outcomes, consecutive outcomes are grouped into
    ranges (``lo..hi``) of equal count, each with its exact summed probability:
    a row per outcome made ``referee odds 20d1000`` print 19,981 rows for 9 s.
    """
    from fractions import Fraction

    from referee.dice.render import ranges

    items = list(dist.probabilities().items())
    runs = ranges(items, MAX_ROWS, lambda item: str(item[0]))
    sums = [sum((p for _, p in run), Fraction(0)) for _, run in runs]
    size = len(runs[0][1])
    grouped = f"   ({len(items):,} outcomes in ranges of {size})" if size > 1 else ""
    rows: list[list[str]] = []
    below = Fraction(0)
    for (label, _), p in zip(runs, sums, strict=True):
        bar = "█" * max(1, round(30 * p / max(sums))) if p else ""
        percents = (f"{float(x) * 100:.2f}" for x in (p, 1 - below, below + p))
        rows.append([label, f"{p.numerator}/{p.denominator}", *percents, bar])
        below += p
    head = f"{title}   mean {float(dist.mean()):.4g}{grouped}"
    columns = [value_header, "exact", "%", "at least", "at most", ""]
    justify = ["right"] * 5 + ["left"]
    console.print(
        dict(title=head, title_justify="left", columns=columns, rows=rows, justify=justify)
    )


_FLAGS = {"odds": ("--depth",), "roll": ("--depth", "--seed", "--faces")}
"""The valued flags of the plain forms :func:`plain` reads (``--json`` besides)."""


def plain(argv: Sequence[str]) -> dict[str, Any] | None:
    """``referee odds|roll EXPR [flags]`` read without click, or None for anything else
    (help, a flag given twice or without its value, a number that is not one): click
    then reads it and says what is wrong."""
    if len(argv) < 2 or argv[0] not in _FLAGS:
        return None
    got: dict[str, Any] = {"as_json": False}
    loose: list[str] = []
    words = iter(argv[1:])
    for word in words:
        name, eq, value = word.partition("=")
        if word == "--json":
            got["as_json"] = True
        elif name in _FLAGS[argv[0]] and name[2:] not in got:
            got[name[2:]] = value if eq else next(words, None)
        elif word.startswith("-") or loose:
            return None
        else:
            loose.append(word)
    try:
        depth = int(got.pop("depth", DEPTH))
        seed = None if got.get("seed") is None else int(got.pop("seed"))
    except (TypeError, ValueError):
        return None
    if len(loose) != 1 or None in got.values() or not 0 <= depth <= 100:
        return None
    out = {"expression": loose[0], "depth": depth, "as_json": got["as_json"]}
    return out if argv[0] == "odds" else out | {"seed": seed, "faces": got.get("faces")}


def main() -> None:
    """The ``referee`` console script: the plain dice commands here, the rest by click."""
    from referee.cli.screens import stored_screen
    from referee.cli.text import help_width

    screen = stored_screen(sys.argv[1:], help_width())
    if screen is not None:  # a help screen at the usual width: printed as stored
        try:
            sys.stdout.write(screen)
            sys.stdout.flush()
        except BrokenPipeError:  # referee --help | head -1
            from referee.cli.main import quiet_pipe

            sys.exit(quiet_pipe())
        sys.exit(0)
    found = plain(sys.argv[1:])
    if found is None:
        from referee.cli.main import main as full

        full()
        return
    try:
        (odds if sys.argv[1] == "odds" else roll)(**found)
        sys.stdout.flush()
    except BrokenPipeError:
        from referee.cli.main import quiet_pipe

        sys.exit(quiet_pipe())
    except Exception as e:
        from referee.errors import RulesError  # only now: a clean run never needs it

        if not isinstance(e, RulesError):
            raise
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
    sys.exit(0)
