"""Renderers for rolled results and distributions, kept apart from the trees.

A :class:`~referee.dice.evaluate.Rolled` tree never formats itself; these
visitors turn it into plain text or JSON-ready data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.dice.notation import BinOp, Const, Neg, Pool
from referee.dice.odds import ratio_text

if TYPE_CHECKING:  # types only: the odds' JSON needs no rolling (and so no rollers)
    from referee.dice.evaluate import Rolled
    from referee.dice.odds import Distribution


def _dice_text(rolled: Rolled) -> str:
    shown = [str(d.face) if d.kept else f"({d.face})" for d in rolled.dice]
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
        data["dice"] = [{"face": d.face, "sides": d.sides, "kept": d.kept} for d in rolled.dice]
    if rolled.parts:
        data["parts"] = [to_data(p) for p in rolled.parts]
    return data


def distribution_data(expression: str, dist: Distribution[int]) -> dict[str, Any]:
    """The CLI's odds JSON: outcomes as reduced fractions, and the mean (from the
    integer weights: no Fraction is made)."""
    total = dist.total
    return {
        "expression": expression,
        "outcomes": {str(o): ratio_text(w, total) for o, w in dist.items()},
        "mean": ratio_text(sum(o * w for o, w in dist.items()), total),
    }
