"""One expression, two evaluations: roll it, or compute its exact odds.

:func:`roll` takes faces from a :class:`~referee.dice.roller.Roller` and
returns an immutable :class:`Rolled` tree (every face, kept and dropped, and
each node's total). :func:`odds` returns the exact
:class:`~referee.dice.odds.Distribution` of the same expression. Both walk the
tree with the same meaning for every node, so a rolled total always lies in
the support of the odds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import log2
from math import pow as float_pow

from referee.dice.notation import BinOp, Const, Expr, Neg, Pool, parse
from referee.dice.odds import (
    Distribution,
    convolve,
    count_successes,
    keep_highest,
    keep_lowest,
    keep_microseconds,
    median_of,
    sum_of_dice,
)
from referee.dice.roller import Roller, _is_face
from referee.errors import DiceError, OddsTooComplex

ODDS_BUDGET = 20_000_000
"""Estimated elementary steps an exact distribution may take (about a second)."""

_UNITS_PER_MICROSECOND = 20
"""Cost units in a microsecond: :data:`ODDS_BUDGET` is about a second of work."""

_PRODUCT_WEIGHT = 8
"""How many convolution steps one pair of a product ``X * Y`` costs (measured)."""


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


def as_expr(expression: Expr | str) -> Expr:
    """Accept either a parsed tree or notation text."""
    return parse(expression) if isinstance(expression, str) else expression


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


# ---------------------------------------------------------------------------
# exact odds


def _span(expr: Expr) -> tuple[int, int]:
    """Lowest and highest possible value of an expression (for cost estimates)."""
    if isinstance(expr, Const):
        return expr.value, expr.value
    if isinstance(expr, Pool):
        n, s = expr.count, expr.sides
        if expr.select == "sum":
            return n, n * s
        if expr.select in ("kh", "kl"):
            return expr.keep, expr.keep * s
        if expr.select == "med":
            return 1, s
        return 0, n
    if isinstance(expr, Neg):
        lo, hi = _span(expr.operand)
        return -hi, -lo
    a, b = _span(expr.left), _span(expr.right)
    if expr.op == "+":
        return a[0] + b[0], a[1] + b[1]
    if expr.op == "-":
        return a[0] - b[1], a[1] - b[0]
    corners = [x * y for x in a for y in b]
    return min(corners), max(corners)


def cost(expr: Expr) -> int:
    """A rough count of the elementary steps :func:`odds` will take."""
    return _cost(expr)[0]


def _pair_units(bits_a: int, bits_b: int) -> int:
    """Cost units (about 75 ns) of one pair of a convolution whose weights have these bits.

    Measured: about 100 ns for small weights, then linear in the bits (adding)
    and quadratic for thousands of bits (multiplying).
    """
    ns = 100 + 45 * (bits_a + bits_b) // 100 + bits_a * bits_b // 4000
    return max(1, ns // 75)


def _pool_microseconds(n: int, s: int, select: str, keep: int) -> float:
    """Estimated time of one pool's exact odds, fitted to timed runs of each method.

    ``bits`` is the size of the counts (``log2(s**n)``); every method's step
    costs more as its numbers grow, and the big-integer products grow faster
    than linearly (Karatsuba). Keep highest / lowest is estimated by
    :func:`~referee.dice.odds.keep_microseconds`, which its own guard uses too.
    """
    bits = n * log2(s) if s > 1 else 0.0
    if select in ("kh", "kl") and keep == n:
        select = "sum"
    if select == "sum":  # the three-term recurrence: half the coefficients
        steps = n * (s - 1) / 2
        return steps * (0.25 + bits / 2500 + steps / 50000) + 2
    if select in ("kh", "kl"):
        return keep_microseconds(s, s - 1, n, keep, bits)
    if select == "med":  # binomial tails: half the pool's terms per outcome
        return s * (n // 2 + 1) * (0.5 + float_pow(bits / 900, 1.3)) + 2
    return 0.2 * (n + s) + 2


def _pool_cost(expr: Pool) -> int:
    us = _pool_microseconds(expr.count, expr.sides, expr.select, expr.keep)
    return int(us * _UNITS_PER_MICROSECOND) + 1


def _cost(expr: Expr) -> tuple[int, int]:
    """``(cost, bits)``: estimated steps, and the bit length of the total weight."""
    if isinstance(expr, Const):
        return 1, 0
    if isinstance(expr, Pool):
        # at least the bits of s**n, without computing it (the pair costs below
        # were fitted with this bound)
        return _pool_cost(expr), expr.count * (expr.sides - 1).bit_length()
    if isinstance(expr, BinOp) and expr.op == "*":
        (ca, ba), (cb, bb) = _cost(expr.left), _cost(expr.right)
        la = _span(expr.left)
        lb = _span(expr.right)
        # products scatter into many distinct outcomes (4d1000*4d1000 has 3.7
        # million), each pair costing several times a convolution step
        pairs = (la[1] - la[0] + 1) * (lb[1] - lb[0] + 1) * _pair_units(ba, bb)
        return ca + cb + pairs * _PRODUCT_WEIGHT, ba + bb
    # a sum: what _sum_odds computes, each part then one convolution after another
    _, pools, others = _terms(expr)
    parts = [
        (
            int(_pool_microseconds(count, sides, "sum", 0) * _UNITS_PER_MICROSECOND) + 1,
            count * (sides - 1).bit_length(),
            count * (sides - 1) + 1,
        )
        for sides, (count, _) in pools
    ]
    for _, term in others:
        low, high = _span(term)
        parts.append((*_cost(term), high - low + 1))
    if not parts:
        return 1, 0
    total, bits, width = parts[0]
    for c, b, w in parts[1:]:
        total += c + width * w * _pair_units(bits, b)
        bits += b
        width += w - 1
    return total, bits


def _flatten(expr: Expr, sign: int, out: list[tuple[int, Expr]]) -> None:
    """The signed terms of a sum: ``a - (b + -c)`` gives ``+a, -b, +c``."""
    if isinstance(expr, BinOp) and expr.op != "*":
        _flatten(expr.left, sign, out)
        _flatten(expr.right, sign if expr.op == "+" else -sign, out)
    elif isinstance(expr, Neg):
        _flatten(expr.operand, -sign, out)
    else:
        out.append((sign, expr))


def _terms(
    expr: Expr,
) -> tuple[int, list[tuple[int, tuple[int, int]]], list[tuple[int, Expr]]]:
    """A sum as ``(constant, pools, others)``.

    Plain sums of dice with the same sides, added or subtracted, are one sum:
    a sum of fair dice is symmetric, so ``-(mdS)`` has the distribution of
    ``mdS - m(S+1)`` and ``ndS - mdS`` is ``(n+m)dS - m(S+1)``. ``pools`` maps
    sides to ``(dice, dice subtracted)``; constants add into one offset;
    ``others`` are the remaining signed terms.
    """
    flat: list[tuple[int, Expr]] = []
    _flatten(expr, 1, flat)
    offset = 0
    pools: dict[int, tuple[int, int]] = {}
    others: list[tuple[int, Expr]] = []
    for sign, term in flat:
        if isinstance(term, Const):
            offset += sign * term.value
        elif isinstance(term, Pool) and term.select == "sum":
            count, negated = pools.get(term.sides, (0, 0))
            pools[term.sides] = (count + term.count, negated + (term.count if sign < 0 else 0))
        else:
            others.append((sign, term))
    return offset, list(pools.items()), others


def _sum_odds(expr: Expr) -> Distribution[int]:
    """Odds of a sum of terms: grouped fair dice, constants as one shift."""
    offset, pools, others = _terms(expr)
    parts: list[Distribution[int]] = []
    for sides, (count, negated) in pools:
        parts.append(sum_of_dice(count, sides))
        offset -= negated * (sides + 1)
    for sign, term in others:
        d = _odds(term)
        parts.append(-d if sign < 0 else d)
    if not parts:
        return Distribution.constant(offset)
    result = parts[0]
    for d in parts[1:]:
        result = convolve(result, d)
    return result.shift(offset)


def _odds(expr: Expr) -> Distribution[int]:
    if isinstance(expr, Const):
        return Distribution.constant(expr.value)
    if isinstance(expr, Pool):
        n, s, sel = expr.count, expr.sides, expr.select
        if sel == "sum":
            return sum_of_dice(n, s)
        if sel == "kh":
            return keep_highest(Distribution.die(s), n, expr.keep)
        if sel == "kl":
            return keep_lowest(Distribution.die(s), n, expr.keep)
        if sel == "med":
            return median_of(Distribution.die(s), n)
        return count_successes(Distribution.die(s), n, expr.counts)
    if isinstance(expr, BinOp) and expr.op == "*":
        return _odds(expr.left) * _odds(expr.right)
    return _sum_odds(expr)


def odds(expression: Expr | str) -> Distribution[int]:
    """The exact distribution of an expression's total.

    Raises :class:`OddsTooComplex` at once (before computing) when the estimated
    work exceeds :data:`ODDS_BUDGET`.
    """
    expr = as_expr(expression)
    estimate = cost(expr)
    if estimate > ODDS_BUDGET:
        raise OddsTooComplex(
            f"exact odds of {expr} would take about {estimate:,} steps "
            f"(limit {ODDS_BUDGET:,}); use fewer dice or sides"
        )
    return _odds(expr)
