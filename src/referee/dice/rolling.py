"""Rolling an expression: faces from a roller, read the way :func:`~referee.dice.evaluate.odds`
reads the tree.

:func:`roll` takes faces from a :class:`~referee.dice.roller.Roller` and
returns an immutable :class:`Rolled` tree (every face, kept and dropped, and
each node's total). Kept apart from the exact odds so that a program asking
only for odds never loads the rollers (``random``, ``secrets``) or
:mod:`dataclasses`; :mod:`referee.dice.evaluate` re-exports these names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.dice.evaluate import as_expr
from referee.dice.notation import Const, Expr, Neg, Pool
from referee.dice.roller import Roller, _is_face
from referee.errors import DiceError


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die: its face, its sides, and whether it counts toward the total."""

    face: int
    sides: int
    kept: bool = True


@dataclass(frozen=True, slots=True)
class Rolled:
    """The result of rolling one node of an expression tree."""

    expr: Expr
    total: int
    dice: tuple[DieRoll, ...] = ()
    parts: tuple[Rolled, ...] = ()

    def faces(self) -> tuple[int, ...]:
        """Every face rolled in this subtree, in rolling order."""
        own = tuple(d.face for d in self.dice)
        return own + tuple(f for p in self.parts for f in p.faces())


# ---------------------------------------------------------------------------
# rolling


def _select(pool: Pool, faces: tuple[int, ...]) -> tuple[int, tuple[bool, ...]]:
    """Apply a pool's selection to rolled faces: (total, kept flags)."""
    n = len(faces)
    if pool.select == "sum":
        return sum(faces), (True,) * n
    if pool.select in ("kh", "kl"):
        sign = -1 if pool.select == "kh" else 1
        order = sorted(range(n), key=lambda i: (sign * faces[i], i))
        chosen = set(order[: pool.keep])
        kept = tuple(i in chosen for i in range(n))
        return sum(f for f, k in zip(faces, kept, strict=True) if k), kept
    if pool.select == "med":
        order = sorted(range(n), key=lambda i: (faces[i], i))
        mid = order[n // 2]
        return faces[mid], tuple(i == mid for i in range(n))
    kept = tuple(pool.counts(f) for f in faces)
    return sum(kept), kept


def _roll(expr: Expr, roller: Roller) -> Rolled:
    if isinstance(expr, Const):
        return Rolled(expr, expr.value)
    if isinstance(expr, Pool):
        faces = roller.roll(expr.count, expr.sides)
        total, kept = _select(expr, faces)
        dice = tuple(DieRoll(f, expr.sides, k) for f, k in zip(faces, kept, strict=True))
        return Rolled(expr, total, dice)
    if isinstance(expr, Neg):
        inner = _roll(expr.operand, roller)
        return Rolled(expr, -inner.total, parts=(inner,))
    left = _roll(expr.left, roller)
    right = _roll(expr.right, roller)
    if expr.op == "+":
        total = left.total + right.total
    elif expr.op == "-":
        total = left.total - right.total
    else:
        total = left.total * right.total
    return Rolled(expr, total, parts=(left, right))


def roll(expression: Expr | str, roller: Roller) -> Rolled:
    """Roll an expression with ``roller`` and return the full result tree."""
    return _roll(as_expr(expression), roller)


def check_faces(expression: Expr | str, faces: Sequence[int]) -> None:
    """Check hand-entered faces against the dice an expression needs.

    Raises :class:`DiceError` naming the expected count or the impossible face.
    """
    expr = as_expr(expression)
    check_faces_for(expr.dice(), faces, str(expr))


def check_faces_for(
    groups: Sequence[tuple[int, int]], faces: Sequence[int], what: str = "this roll"
) -> None:
    """Check faces against ``(count, sides)`` groups; a clear :class:`DiceError` if wrong."""
    need = sum(c for c, _ in groups)
    described = " + ".join(f"{c}d{s}" for c, s in groups) or "no dice"
    if len(faces) != need:
        raise DiceError(f"{what} needs {need} faces ({described}); {len(faces)} given")
    i = 0
    for count, sides in groups:
        for _ in range(count):
            if not _is_face(faces[i], sides):
                raise DiceError(f"face {i + 1} is {faces[i]}, impossible on a d{sides}")
            i += 1
