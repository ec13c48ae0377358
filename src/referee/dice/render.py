"""Renderers for rolled results and distributions, kept apart from the trees.

A :class:`~referee.dice.evaluate.Rolled` tree never formats itself; these
visitors turn it into plain text or JSON-ready data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from referee.dice.notation import BinOp, Const, Labeled, Neg, Pool
from referee.dice.odds import ratio_text

if TYPE_CHECKING:  # types only: the odds' JSON needs no rolling (and so no rollers)
    from referee.dice.evaluate import Rolled
    from referee.dice.odds import Distribution

T = TypeVar("T")


def _die_text(face: int, value: int | None, fate: bool) -> str:
    if fate and value is not None:
        return {-1: "-", 0: "0", 1: "+"}[value]
    return str(face) if value is None else f"{face}->{value}"


def _dice_text(rolled: Rolled) -> str:
    """Each die with all its rolls: a rerolled face struck out with ``~`` before the
    face that replaced it, an explosion joined to the roll before it by ``!``, dice
    that do not count in parentheses."""
    fate = isinstance(rolled.expr, Pool) and rolled.expr.die is not None and rolled.expr.die.fate
    shown: list[str] = []
    before = None
    for d in rolled.dice:
        text = _die_text(d.face, d.value, fate)
        if d.rerolled:
            text = f"~{text}"
        elif not d.kept:
            text = f"({text})"
        if before is not None and before.rerolled:
            shown[-1] += " " + text
        elif before is not None and d.exploded:
            shown[-1] += "!" + text
        else:
            shown.append(text)
        before = d
    return "[" + ", ".join(shown) + "]"


def _text(rolled: Rolled, parent: int) -> str:
    e = rolled.expr
    if isinstance(e, Const):
        return str(e.value)
    if isinstance(e, Pool):
        return f"{e}{_dice_text(rolled)}"
    if isinstance(e, Neg):
        inner = _text(rolled.parts[0], e.precedence)
        return f"-{inner}"
    if isinstance(e, Labeled):
        return f"{e.label}: {_text(rolled.parts[0], e.precedence)}"
    assert isinstance(e, BinOp)
    left = _text(rolled.parts[0], e.precedence)
    right = _text(rolled.parts[1], e.precedence + 1)
    body = f"{left} {e.op} {right}"
    return f"({body})" if e.precedence < parent else body


def to_text(rolled: Rolled) -> str:
    """``3d6kh2[6, 4, (1)] + 2 = 12``: dropped or uncounted dice in parentheses."""
    return f"{_text(rolled, 0)} = {rolled.total}"


def to_data(rolled: Rolled) -> dict[str, Any]:
    """A JSON-ready tree: expression, total, dice (face, sides, kept) and parts."""
    data: dict[str, Any] = {"expression": str(rolled.expr), "total": rolled.total}
    if rolled.dice:
        data["dice"] = [
            _die_data(d.face, d.sides, d.kept, d.value, d.rerolled, d.exploded) for d in rolled.dice
        ]
    if isinstance(rolled.expr, Labeled):
        data["label"] = rolled.expr.label
    if rolled.parts:
        data["parts"] = [to_data(p) for p in rolled.parts]
    return data


def _die_data(
    face: int, sides: int, kept: bool, value: int | None, rerolled: bool, exploded: bool
) -> dict[str, Any]:
    data: dict[str, Any] = {"face": face, "sides": sides, "kept": kept}
    if value is not None:
        data["value"] = value
    if rerolled:
        data["rerolled"] = True
    if exploded:
        data["exploded"] = True
    return data


def distribution_data(
    expression: str, dist: Distribution[int], beyond: tuple[int, Any] | None = None
) -> dict[str, Any]:
    """The CLI's odds JSON: outcomes as reduced fractions, and the mean (from the
    integer weights: no Fraction is made). ``beyond``: ``(depth, probability)`` for
    an expression with exploding dice, given as ``{"depth": 9, "p": "num/den"}``
    under ``"beyond_depth"``: the chance a die would have exploded past the depth."""
    total = dist.total
    data: dict[str, Any] = {
        "expression": expression,
        "outcomes": {str(o): ratio_text(w, total) for o, w in dist.items()},
        "mean": ratio_text(sum(o * w for o, w in dist.items()), total),
    }
    if beyond is not None:
        depth, p = beyond
        data["beyond_depth"] = {"depth": depth, "p": ratio_text(p.numerator, p.denominator)}
    return data


def ranges(
    items: Sequence[T], most: int, name: Callable[[T], str]
) -> list[tuple[str, Sequence[T]]]:
    """``items`` (a distribution's outcomes, in order) in at most ``most`` runs of one
    length, each with its label: its item's ``name``, or ``first..last``. A table or a
    chart of a wide distribution shows one row or bar per run."""
    size = max(1, -(-len(items) // most))
    runs = [items[i : i + size] for i in range(0, len(items), size)]
    return [(name(r[0]) + (f"..{name(r[-1])}" if len(r) > 1 else ""), r) for r in runs]
