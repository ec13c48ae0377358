"""One expression, two evaluations: roll it, or compute its exact odds.

:func:`odds` returns the exact :class:`~referee.dice.odds.Distribution` of an
expression; :func:`roll` (in :mod:`referee.dice.rolling`, re-exported here
with :class:`DieRoll`, :class:`Rolled`, :func:`check_faces` and
:func:`check_faces_for`) takes faces from a
:class:`~referee.dice.roller.Roller` and returns an immutable :class:`Rolled`
tree. Both walk the tree with the same meaning for every node, so a rolled
total always lies in the support of the odds. The rolling half loads on first
use: a program that only asks for odds never imports the rollers.
"""

from __future__ import annotations

from math import log2
from typing import TYPE_CHECKING, Any, cast

from referee.dice import faces
from referee.dice.faces import expected_draws
from referee.dice.notation import (
    COMPARISONS,
    EXPLODE_DEPTH,
    MAX_DEPTH,
    BinOp,
    Const,
    Die,
    Expr,
    Labeled,
    LinearTerm,
    Neg,
    Pool,
    compare,
    hit_range,
    linear_terms,
    map_pools,
    parse,
    pools_of,
    term_node,
)
from referee.dice.odds import (
    MEMO_FROM,
    Distribution,
    binomial_row,
    convolve,
    convolve_rows,
    count_of_dice,
    count_row,
    dense_row,
    extreme_of_dice,
    fair_counts,
    from_row,
    keep_highest,
    keep_lowest,
    keep_microseconds,
    median_of,
    median_of_dice,
    repeat_sum,
    shifted_sum_of_dice,
    sum_of_dice,
)

if TYPE_CHECKING:
    from fractions import Fraction

    from referee.dice.rolling import DieRoll as DieRoll
    from referee.dice.rolling import Rolled as Rolled
    from referee.dice.rolling import check_faces as check_faces
    from referee.dice.rolling import check_faces_for as check_faces_for
    from referee.dice.rolling import roll as roll
    from referee.errors import OddsTooComplex

_ROLLING = ("DieRoll", "Rolled", "check_faces", "check_faces_for", "roll")


def __getattr__(name: str) -> Any:
    """The rolling names, loaded from :mod:`referee.dice.rolling` on first use."""
    if name in _ROLLING:
        from referee.dice import rolling

        return getattr(rolling, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _too_complex(message: str) -> OddsTooComplex:
    from referee.errors import OddsTooComplex  # on first refusal: it loads dataclasses

    return OddsTooComplex(message)


ODDS_BUDGET = 20_000_000
"""Estimated elementary steps an exact distribution may take (about a second)."""

_UNITS_PER_MICROSECOND = 20
"""Cost units in a microsecond: :data:`ODDS_BUDGET` is about a second of work."""

_PRODUCT_WEIGHT = 8
"""How many convolution steps one pair of a product ``X * Y`` costs (measured)."""


def as_expr(expression: Expr | str, depth: int = EXPLODE_DEPTH) -> Expr:
    """Accept either a parsed tree or notation text; explosions bounded at ``depth``.

    Anything else (``None``, a number) is a :class:`NotationError` naming its type,
    as :func:`parse` refuses what is not text.
    """
    if isinstance(expression, str):
        expr = parse(expression)
    elif isinstance(expression, (Const, Pool, Neg, BinOp, Labeled)):
        expr = expression
    else:
        from referee.errors import NotationError

        raise NotationError(
            "a dice expression must be notation text or a parsed expression, not "
            f"{type(expression).__name__}",
            expected="text such as 2d6",
        )
    return expr if depth == EXPLODE_DEPTH else with_depth(expr, depth)


def with_depth(expr: Expr, depth: int) -> Expr:
    """The same tree with every exploding die bounded at ``depth`` extra rolls."""
    if not 0 <= depth <= MAX_DEPTH:
        raise _depth_error(depth)

    def bound(pool: Pool) -> Pool:
        die = pool.die
        if die is None or not die.explode or die.depth == depth:
            return pool
        bounded = Die(
            reroll=die.reroll,
            reroll_op=die.reroll_op,
            reroll_at=die.reroll_at,
            explode=die.explode,
            explode_op=die.explode_op,
            explode_at=die.explode_at,
            low=die.low,
            high=die.high,
            fate=die.fate,
            depth=depth,
        )
        return Pool(pool.count, pool.sides, pool.select, pool.keep, pool.target, bounded)

    return map_pools(expr, bound)


def _depth_error(depth: int) -> Exception:
    from referee.errors import DiceError

    return DiceError(f"explosion depth {depth} is outside 0..{MAX_DEPTH}")


# ---------------------------------------------------------------------------
# exact odds


def _span(expr: Expr) -> tuple[int, int]:
    """Lowest and highest possible value of an expression (for cost estimates)."""
    if isinstance(expr, Const):
        return expr.value, expr.value
    if isinstance(expr, Pool):
        n, s = expr.count, expr.sides
        lo, hi = (1, s) if expr.die is None else _die_span(s, expr.die)
        if expr.select == "sum":
            return n * lo, n * hi
        if expr.select in ("kh", "kl"):
            return expr.keep * lo, expr.keep * hi
        if expr.select in ("dh", "dl"):
            return (n - expr.keep) * lo, (n - expr.keep) * hi
        if expr.select == "med":
            return lo, hi
        if expr.die is not None and expr.die.explode == "!":  # every roll may count
            return 0, n * (expr.die.depth + 1)
        return 0, n
    if isinstance(expr, Labeled):
        return _span(expr.operand)
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


def _die_span(sides: int, die: Die) -> tuple[int, int]:
    """Lowest and highest value of one die with modifiers (all its rolls added)."""
    if die.fate:
        return -1, 1
    low = max(1, die.low)
    high = min(sides, die.high) if die.high else sides
    if die.explode:
        return low, high * (die.depth + 1)
    return low, high


def cost(expr: Expr) -> int:
    """A count of the elementary steps :func:`odds` will take (it errs high): about
    :data:`_UNITS_PER_MICROSECOND` a microsecond on the machine it was fitted on."""
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
    if select in ("dh", "dl"):
        select, keep = ("kl" if select == "dh" else "kh"), n - keep
    if select in ("kh", "kl") and keep == n:
        select = "sum"
    if select == "sum":  # the three-term recurrence: half the coefficients
        steps = n * (s - 1) / 2
        return steps * (0.25 + bits / 2500 + steps / 50000) + 2
    if select in ("kh", "kl"):
        return keep_microseconds(s, s - 1, n, keep, bits)
    if select == "med":  # Horner's rule on the tail polynomial: half the pool's degrees,
        # whose coefficients (two binomials and a power each) cost more with n
        return (n // 2 + 1) * (s * (0.12 + bits / 12000) + 5 + n / 30) + 2
    return 0.2 * (n + s) + 2


def _modified_microseconds(expr: Pool) -> float:
    """Estimated time of a pool whose dice have modifiers: one die's law (its
    explosion's chain of convolutions), then the pool's method on that law, costed
    as :func:`keep_microseconds` and :func:`_pool_microseconds` cost a die's."""
    die = cast("Die", expr.die)
    n, s, select, keep = expr.count, expr.sides, expr.select, expr.keep
    if die.fate:
        if select == "sum":
            return _pool_microseconds(n, 3, "sum", 0)
        return _pool_microseconds(n, 3, select, keep)
    lo, hi = _die_span(s, die)
    span = hi - lo
    outcomes = span + 1
    chain = 2.0 * s
    die_bits = log2(s) + 1
    if die.explode:
        go = sum(1 for f in range(1, s + 1) if die.explodes(f, s))
        rolls = die.depth + 1
        # prefix (k * go outcomes) times go, and times the stopping faces, per level
        chain = sum((k * go + 1) * s for k in range(rolls)) * (0.3 + rolls * die_bits / 2000)
        die_bits *= rolls
    if die.reroll:
        die_bits *= 2
    bits = n * die_bits
    if select in ("dh", "dl"):
        select, keep = ("kl" if select == "dh" else "kh"), n - keep
    if select in ("kh", "kl") and keep == n:
        select = "sum"
    if select == "sum":  # Miller's recurrence: each coefficient from every outcome
        size = n * span + 1  # (small-by-big steps: about 0.15 + bits / 60000 us each)
        return chain + size * outcomes * (0.3 + bits / 30000) + 2
    if select in ("kh", "kl"):  # twice the plain die's estimate (an explosion's law
        # has unequal weights: 1000d100!kh1 ran 1.3 times the single estimate)
        return chain + 2 * keep_microseconds(outcomes, span, n, keep, bits)
    if select == "med":
        return chain + (n // 2 + 1) * (outcomes * (0.12 + bits / 12000) + 5 + n / 30) + 2
    if die.explode == "!":  # hits per die over depth + 1 rolls, then their sum
        rolls = die.depth + 1
        return chain + n * rolls * rolls * (0.3 + bits / 2500) + 2
    return chain + (n + outcomes) * (1 + bits / 2500) + 2


def _pool_cost(expr: Pool) -> int:
    if expr.die is not None:
        us = _modified_microseconds(expr)
    else:
        us = _pool_microseconds(expr.count, expr.sides, expr.select, expr.keep)
    return int(us * _UNITS_PER_MICROSECOND) + 1


def _cost(expr: Expr) -> tuple[int, int]:
    """``(cost, bits)``: estimated steps, and the bit length of the total weight."""
    if isinstance(expr, Const):
        return 1, 0
    if isinstance(expr, Pool):
        # at least the bits of s**n, without computing it (the pair costs below
        # were fitted with this bound)
        bits = expr.count * (expr.sides - 1).bit_length()
        if expr.die is not None and expr.die.explode:
            bits *= expr.die.depth + 1
        return _pool_cost(expr), bits
    if isinstance(expr, Labeled):
        return _cost(expr.operand)
    if isinstance(expr, BinOp) and expr.op == "*":
        (ca, ba), (cb, bb) = _cost(expr.left), _cost(expr.right)
        la = _span(expr.left)
        lb = _span(expr.right)
        # products scatter into many distinct outcomes (4d1000*4d1000 has 3.7
        # million), each pair costing several times a convolution step
        pairs = (la[1] - la[0] + 1) * (lb[1] - lb[0] + 1) * _pair_units(ba, bb)
        return ca + cb + pairs * _PRODUCT_WEIGHT, ba + bb
    return _sum_cost(_terms(expr))


_Terms = tuple[int, list[tuple[int, tuple[int, int]]], list[tuple[int, Expr]]]
"""A sum as (constant, {sides: (dice, dice subtracted)} items, other signed terms)."""


def _is_sum(expr: Expr) -> bool:
    while isinstance(expr, Labeled):
        expr = expr.operand
    return isinstance(expr, Neg) or (isinstance(expr, BinOp) and expr.op != "*")


def _sum_cost(terms: _Terms) -> tuple[int, int]:
    """What :func:`_sum_odds` does: each part, then one convolution after another."""
    _, pools, others = terms
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
    elif isinstance(expr, Labeled):
        _flatten(expr.operand, sign, out)
    else:
        out.append((sign, expr))


def _terms(expr: Expr) -> _Terms:
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
        elif isinstance(term, Pool) and term.select == "sum" and term.die is None:
            count, negated = pools.get(term.sides, (0, 0))
            pools[term.sides] = (count + term.count, negated + (term.count if sign < 0 else 0))
        else:
            others.append((sign, term))
    return offset, list(pools.items()), others


def _sum_odds(terms: _Terms) -> Distribution[int]:
    """Odds of a sum of terms: grouped fair dice, constants as one shift.

    Small parts without gaps (every sum of fewer than :data:`MEMO_FROM` outcomes,
    and every other term whose outcomes are consecutive: counts, kept dice)
    are added as rows of coefficients (:func:`convolve_rows`), the constant
    folded into the lowest outcome, one distribution built at the end.
    """
    offset, pools, others = terms
    if len(pools) == 1 and not others:  # one sum of dice and a constant: built in place
        sides, (count, negated) = pools[0]
        return shifted_sum_of_dice(count, sides, offset - negated * (sides + 1))
    if not pools and len(others) == 1 and others[0][0] > 0 and isinstance(others[0][1], Pool):
        return _pool_odds(others[0][1], offset)  # a lone pool and a constant
    found = [(sign, _odds(term)) for sign, term in others]
    if not pools and not found:  # numbers only
        return Distribution.constant(offset)
    if not pools and len(found) == 1:  # one term and a constant
        sign, d = found[0]
        return (-d if sign < 0 else d).shift(offset)
    rows = [dense_row(d) for _, d in found]
    if all(count * (sides - 1) < MEMO_FROM for sides, (count, _) in pools) and all(
        row is not None for row in rows
    ):
        parts = [
            (sign, *cast("tuple[int, list[int]]", row), d.total)
            for (sign, d), row in zip(found, rows, strict=True)
        ]
        return _rows_sum(offset, pools, parts)
    dists: list[Distribution[int]] = []
    for sides, (count, negated) in pools:
        dists.append(sum_of_dice(count, sides))
        offset -= negated * (sides + 1)
    for sign, d in found:
        dists.append(-d if sign < 0 else d)
    result = dists[0]
    for d in dists[1:]:
        result = convolve(result, d)
    return result.shift(offset)


_Row = tuple[int, int, list[int], int]
"""A part of a sum as a row: ``(sign, lowest outcome, weights of it and each next
integer, total weight)``."""


def _rows_sum(
    low: int, pools: list[tuple[int, tuple[int, int]]], rows: list[_Row]
) -> Distribution[int]:
    """``low`` plus small sums of fair dice (``pools`` as in :data:`_Terms`) plus
    ``rows``: every part a row of coefficients (:func:`fair_counts`, signed rows
    reversed), multiplied together (:func:`convolve_rows`), one distribution built
    from the product. At least one part."""
    acc: list[int] | None = None
    total = 1
    for sides, (count, negated) in pools:
        counts = fair_counts(count, sides)
        acc = counts if acc is None else convolve_rows(acc, counts)
        low += count - negated * (sides + 1)
        total *= sides**count
    for sign, first, weights, weight in rows:
        if sign < 0:
            weights.reverse()
            first = -(first + len(weights) - 1)
        acc = weights if acc is None else convolve_rows(acc, weights)
        low += first
        total *= weight
    return from_row(low, cast("list[int]", acc), total)


def _pool_odds(expr: Pool, shift: int = 0) -> Distribution[int]:
    """A pool's odds plus ``shift`` (the numbers added to a lone pool): the highest,
    lowest and median of fair dice take the shift as they are built, the rest
    are shifted once made."""
    if expr.die is not None:
        return _modified_odds(expr, expr.die).shift(shift)
    return _fair_pool_odds(expr.select, expr.count, expr.sides, expr.keep, expr.target, shift)


def _fair_pool_odds(
    sel: str, n: int, s: int, keep: int, target: int, shift: int
) -> Distribution[int]:
    """:func:`_pool_odds` of a pool of fair dice, from its parts."""
    if sel == "dh" or sel == "dl":
        sel, keep = ("kl" if sel == "dh" else "kh"), n - keep
    if sel == "med":
        return median_of_dice(n, s, shift)
    if sel == "kh" or sel == "kl":
        if keep == 1:
            return extreme_of_dice(n, s, sel == "kh", shift)
        if sel == "kh":
            return keep_highest(Distribution.die(s), n, keep).shift(shift)
        return keep_lowest(Distribution.die(s), n, keep).shift(shift)
    if sel == "sum":
        return shifted_sum_of_dice(n, s, shift)
    return count_of_dice(n, s, sel, target).shift(shift)


def _odds(expr: Expr) -> Distribution[int]:
    if isinstance(expr, Const):
        return Distribution.constant(expr.value)
    if isinstance(expr, Pool):
        return _pool_odds(expr)
    if isinstance(expr, Labeled):
        return _odds(expr.operand)
    if isinstance(expr, BinOp) and expr.op == "*":
        return _odds(expr.left) * _odds(expr.right)
    return _sum_odds(_terms(expr))


def _modified_odds(pool: Pool, die: Die) -> Distribution[int]:
    """A pool of dice with modifiers: one die's exact law (:mod:`referee.dice.faces`),
    then the pool's selection on ``n`` independent copies of it."""
    n, s, select, keep = pool.count, pool.sides, pool.select, pool.keep
    if die.fate and select == "sum":  # nd3 - 2n
        return shifted_sum_of_dice(n, 3, -2 * n)
    if select == "sum" and die.reroll == "rr" and not (die.explode or die.low or die.high):
        hit = hit_range(die.reroll_op, die.reroll_at, s)
        if hit and (hit.start == 1 or hit.stop == s + 1):  # the faces left are consecutive
            low = hit.stop if hit.start == 1 else 1
            return shifted_sum_of_dice(n, s - len(hit), n * (low - 1))
    if select in COMPARISONS and die.explode == "!":  # each roll counts on its own
        weights, total = faces.hits_weights(s, die, select, pool.target)
        return repeat_sum(Distribution.trusted(weights, total, ordered=True), n)
    weights, total = faces.die_weights(s, die)
    values = list(weights)
    if (
        select == "sum"
        and len(set(weights.values())) == 1
        and values[-1] - values[0] == len(values) - 1
    ):
        # equally likely consecutive values (a clamp-free rr, say): a fair die shifted
        return shifted_sum_of_dice(n, len(values), n * (values[0] - 1))
    one = Distribution.trusted(weights, total, ordered=True)
    if select == "sum":
        return repeat_sum(one, n)
    if select in ("dh", "dl"):
        select, keep = ("kl" if select == "dh" else "kh"), n - keep
    if select == "kh":
        return keep_highest(one, n, keep)
    if select == "kl":
        return keep_lowest(one, n, keep)
    if select == "med":
        return median_of(one, n)
    op, target = select, pool.target
    hits = sum(w for v, w in weights.items() if compare(v, op, target))
    return from_row(0, binomial_row(n, hits, total - hits), total**n)


def odds(expression: Expr | str, *, depth: int = EXPLODE_DEPTH) -> Distribution[int]:
    """The exact distribution of an expression's total.

    Exploding dice explode at most ``depth`` times each (:data:`EXPLODE_DEPTH`
    unless set): the answer is the exact law of the roll :func:`roll` makes with
    the same depth, and :func:`beyond_depth` is the probability that a die would
    have gone on exploding. Raises :class:`OddsTooComplex` at once (before
    computing) when the estimated work exceeds :data:`ODDS_BUDGET`. A text that
    is a plain sum (``2d6+1``, ``d6-d6``, ``d6-d6+d6>=2+2``) is read straight
    into its terms (:func:`~referee.dice.notation.linear_terms`), without a tree.

    Example::

        >>> two = odds("2d6")
        >>> two.probability(7), two.at_least(10), two.mean()
        (Fraction(1, 6), Fraction(1, 6), Fraction(7, 1))
        >>> odds("4d6>=5")  # how many of four dice show 5 or 6
        Distribution({0: 256, 1: 512, 2: 384, 3: 128, 4: 16}, total=1296)
    """
    if isinstance(expression, str):
        found = linear_terms(expression)
        if found is not None:
            return _linear_odds(expression, found)
    expr = as_expr(expression, depth)
    if (
        type(expr) is Pool
        and expr.select == "sum"
        and expr.die is not None
        and not expr.die.explode
        and expr.count * expr.sides <= SMALL_SUM
    ):  # a small pool of rerolled or clamped dice (4d6rr1): under 5% of the budget (tested)
        return _modified_odds(expr, expr.die)
    terms = _terms(expr) if _is_sum(expr) else None  # a sum's terms, read once
    estimate = cost(expr) if terms is None else _sum_cost(terms)[0]
    if estimate > ODDS_BUDGET:
        raise _refusal(expr, estimate)
    return _odds(expr) if terms is None else _sum_odds(terms)


UNTRUSTED_BUDGET = 4_000_000
"""Estimated steps (:func:`cost`) allowed for an expression from outside (a web
request): about 0.2 s of work by the estimate, which errs high, so under 0.4 s
of CPU on the machine it was fitted on. :data:`ODDS_BUDGET` (about a second)
stays the bound for the command line and for the games' own expressions."""

ROLL_BUDGET = 20_000
"""Expected faces drawn (rerolls and explosions included) that rolling an
expression from outside may take: a few milliseconds of rolling."""

TRUSTED_ROLL_BUDGET = 200_000
"""Expected faces drawn that :func:`roll` accepts from any caller."""


def roll_cost(expr: Expr) -> float:
    """The expected number of faces rolling ``expr`` draws (rerolls and explosions
    included; an explosion at most ``depth`` extra rolls a die)."""
    if isinstance(expr, Const):
        return 0.0
    if isinstance(expr, Pool):
        return expr.count * expected_draws(expr.sides, expr.die)
    if isinstance(expr, (Neg, Labeled)):
        return roll_cost(expr.operand)
    return roll_cost(expr.left) + roll_cost(expr.right)


def draws_over(expr: Expr, limit: int) -> str:
    """Why rolling ``expr`` is refused when it is expected to draw more than ``limit``
    faces (:func:`roll_cost`), or ``""`` when it is not: the one rule behind both the
    outsider's bound (:func:`check_cost`) and every roll's (``rolling.roll``)."""
    draws = roll_cost(expr)
    if draws <= limit:
        return ""
    return f"rolling {expr} would draw about {draws:,.0f} dice on average (limit {limit:,})"


def check_cost(
    expression: Expr | str,
    *,
    depth: int = EXPLODE_DEPTH,
    budget: int = UNTRUSTED_BUDGET,
    roll_budget: int = ROLL_BUDGET,
) -> None:
    """Refuse, before any work, an expression too costly to answer for an outsider.

    The one check to make on an untrusted dice expression before asking its odds,
    previewing or rolling it: parses it (a :class:`NotationError` if it does not),
    then raises :class:`OddsTooComplex` naming the limit when the estimated work of
    its exact odds (:func:`cost`, which errs high) exceeds ``budget``
    (:data:`UNTRUSTED_BUDGET`) or the faces it is expected to draw when rolled
    (:func:`roll_cost`: deep explosions, rerolls until a rare face) exceed
    ``roll_budget`` (:data:`ROLL_BUDGET`). The same bound serves odds, preview and
    roll: an expression that passes can be asked for all three.

    Example::

        >>> check_cost("30d10kh15")  # passes: returns None
        >>> check_cost("1000d1000")
        Traceback (most recent call last):
        ...
        referee.errors.OddsTooComplex: exact odds of 1000d1000 would take about 142,120,915 steps...
    """
    expr = as_expr(expression, depth)
    too_many = draws_over(expr, roll_budget)
    if too_many:
        raise _too_complex(f"{too_many}; use fewer dice or a likelier reroll condition")
    estimate = _sum_cost(_terms(expr))[0] if _is_sum(expr) else cost(expr)
    if estimate > budget:
        raise _too_complex(
            f"exact odds of {expr} would take about {estimate:,} steps "
            f"(limit {budget:,} for an expression from outside); use fewer dice or sides"
        )


def beyond_depth(expression: Expr | str, *, depth: int = EXPLODE_DEPTH) -> Fraction:
    """The probability that some die of the expression would explode more than
    ``depth`` times: the part of the unbounded odds that :func:`odds` (and a roll
    with the same depth) counts at the bound instead. 0 without exploding dice.

    The dice are independent, so it is ``1 - prod((1 - p_i ** (depth + 1)) ** n_i)``
    over the exploding pools (``p_i`` the chance one roll explodes), whatever the
    arithmetic around them.

    Example::

        >>> beyond_depth("d6!")  # a d6 showing 6 ten times running
        Fraction(1, 60466176)
        >>> beyond_depth("2d6")
        Fraction(0, 1)
    """
    from fractions import Fraction

    expr = as_expr(expression, depth)
    stays = Fraction(1)
    for pool in pools_of(expr):
        if pool.die is not None and pool.die.explode:
            weight, total = faces.beyond_die(pool.sides, pool.die)
            stays *= (1 - Fraction(weight, total)) ** pool.count
    return 1 - stays


def explodes(expression: Expr | str) -> bool:
    """Whether the expression has exploding dice (so :func:`beyond_depth` can be above 0)."""
    expr = as_expr(expression)
    return any(p.die is not None and p.die.explode for p in pools_of(expr))


def _refusal(expr: Expr, estimate: int) -> OddsTooComplex:
    return _too_complex(
        f"exact odds of {expr} would take about {estimate:,} steps "
        f"(limit {ODDS_BUDGET:,}); use fewer dice or sides"
    )


SMALL_SUM = 256
"""Dice times sides, over the pools of a plain sum of added and counted dice, or of
a lone pool that keeps or takes the median, up to which :func:`odds` skips the
estimate: such a sum or pool is estimated at a few tens of thousands of steps at
most, far inside :data:`ODDS_BUDGET` (tested), and takes microseconds, less than
estimating it."""


def _linear_odds(text: str, found: list[LinearTerm]) -> Distribution[int]:
    """:func:`odds` of a plain sum from its terms: what :func:`_terms` reads from the
    tree (dice of the same sides grouped, numbers as one offset), then the same
    estimate and the same sum.

    A small sum (:data:`SMALL_SUM`) of added and counted dice is added up at once
    as rows (:func:`_rows_sum`, :func:`~referee.dice.odds.count_row`), without
    expression nodes or an estimate; a lone pool that keeps, counts or takes the
    median is estimated and computed as its own node, as :func:`odds` does a tree.
    """
    first = found[0]
    if (
        (first[1] == "med" or first[1] == "kh" or first[1] == "kl")
        and first[2] * first[3] <= SMALL_SUM
        and (len(found) == 1 or (len(found) == 2 and not found[1][1]))
    ):  # a small lone pool that keeps or takes the median, perhaps and a number: at once
        shift = found[1][0] * found[1][2] if len(found) == 2 else 0
        return _fair_pool_odds(first[1], first[2], first[3], first[4], 0, shift)
    offset = 0
    pools: dict[int, tuple[int, int]] = {}
    others: list[LinearTerm] = []
    size = 0
    counted = True
    for term in found:
        sign, select, count, sides, _, _ = term
        if not select:
            offset += sign * count
            continue
        size += count * sides
        if select == "fate":  # sign * (count d3 - 2 count)
            offset -= sign * 2 * count
            select = "sum"
        if select == "sum":
            dice, negated = pools.get(sides, (0, 0))
            pools[sides] = (dice + count, negated + count if sign < 0 else negated)
        else:
            counted = counted and select in COMPARISONS
            others.append(term)
    grouped = list(pools.items())
    if not others:
        if not grouped:
            return Distribution.constant(offset)
        if len(grouped) == 1 and size <= SMALL_SUM:
            sides, (count, negated) = grouped[0]
            return shifted_sum_of_dice(count, sides, offset - negated * (sides + 1))
    elif len(others) == 1 and not grouped and others[0][0] > 0 and not counted:
        # one pool that keeps or takes the median, and numbers: as its tree, the
        # numbers' sum taken as the pool's odds are built (counted dice are rows)
        node = cast("Pool", term_node(others[0]))
        if size > SMALL_SUM:  # (a small pool is estimated at under 1% of the budget)
            estimate = cost(node)
            if estimate > ODDS_BUDGET:  # named as the parser reads it, numbers and all
                raise _refusal(node if len(found) == 1 else parse(text), estimate)
        return _pool_odds(node, offset)
    if (
        counted
        and size <= SMALL_SUM
        and all(count * (sides - 1) < MEMO_FROM for sides, (count, _) in grouped)
    ):
        rows = [
            (sign, 0, count_row(count, sides, select, target), sides**count)
            for sign, select, count, sides, _, target in others
        ]
        return _rows_sum(offset, grouped, rows)
    nodes: list[tuple[int, Expr]] = [(term[0], term_node(term)) for term in others]
    terms = (offset, grouped, nodes)
    estimate = _sum_cost(terms)[0]
    if estimate > ODDS_BUDGET:
        raise _refusal(parse(text), estimate)
    return _sum_odds(terms)
