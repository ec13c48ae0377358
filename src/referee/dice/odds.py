"""Exact probability distributions with integer weights.

A :class:`Distribution` maps each outcome to a positive integer weight; the
probability of an outcome is its weight over the total weight. Nothing inside
uses floats: probabilities leave as :class:`fractions.Fraction`. Distributions
are immutable values.

Pool operations use polynomial methods, never enumeration of ``s**n`` rolls:

* sums of dice: sliding-window convolution (:func:`sum_of_dice`, :func:`repeat_sum`);
* keep highest / lowest: conditioning on the lowest kept value, with the
  polynomials packed into big integers (:func:`keep_highest`);
* any order statistic, e.g. the median of an odd pool: multinomial counts
  (:func:`order_statistic`, :func:`median_of`);
* counting dice that meet a target: binomial counts (:func:`count_successes`).

Every operation works on a distribution of any integer outcomes, so the same
code serves "3d6 keep 2" and "six damage rolls of 3d6-2 keep the best three".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from itertools import accumulate
from math import comb, gcd
from operator import sub
from typing import Any, Generic, TypeVar

from referee.errors import OddsTooComplex

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

MAX_SUPPORT = 2_000_000
"""The largest number of distinct outcomes a distribution may hold."""


def _sort_key(x: Any) -> Any:
    return x


class Distribution(Generic[T]):
    """An immutable finite distribution: outcomes with positive integer weights.

    Build one with :meth:`from_weights`, :meth:`of`, :meth:`die`,
    :meth:`constant`, or from another by :meth:`map`, :meth:`bind`, ``+``,
    ``-`` and ``*``. Two distributions are equal when they give every outcome
    the same probability (weights need not be reduced).
    """

    __slots__ = ("_total", "_weights")

    _weights: dict[T, int]
    _total: int

    def __init__(self, weights: Mapping[T, int] | Iterable[tuple[T, int]]) -> None:
        items = weights.items() if isinstance(weights, Mapping) else weights
        clean: dict[T, int] = {}
        for outcome, weight in items:
            if not isinstance(weight, int) or isinstance(weight, bool):
                raise TypeError(f"weight of {outcome!r} must be an int, not {weight!r}")
            if weight < 0:
                raise ValueError(f"weight of {outcome!r} is negative ({weight})")
            if weight:
                clean[outcome] = clean.get(outcome, 0) + weight
        if not clean:
            raise ValueError("a distribution needs at least one outcome with positive weight")
        self._weights = _ordered(clean)
        self._total = sum(clean.values())

    @classmethod
    def _raw(
        cls, weights: dict[T, int], total: int | None = None, ordered: bool = False
    ) -> Distribution[T]:
        """Trusted constructor: ``weights`` is clean and owned (``ordered``: already sorted)."""
        self = object.__new__(cls)
        self._weights = weights if ordered else _ordered(weights)
        self._total = sum(weights.values()) if total is None else total
        return self

    # -- construction ---------------------------------------------------
    @classmethod
    def trusted(
        cls, weights: dict[T, int], total: int | None = None, *, ordered: bool = False
    ) -> Distribution[T]:
        """A distribution from weights the caller guarantees: positive ints, owned.

        The fast path for rules that build closed-form distributions: no
        checking, and no sorting when ``ordered`` says the keys are ascending.
        ``total`` must be the sum of the weights when given.
        """
        return cls._raw(weights, total, ordered)

    @classmethod
    def from_weights(cls, weights: Mapping[T, int]) -> Distribution[T]:
        """A distribution from explicit integer weights."""
        return cls(weights)

    @classmethod
    def of(cls, outcomes: Iterable[T]) -> Distribution[T]:
        """Equally likely outcomes (repeats add weight)."""
        counts: dict[T, int] = {}
        for o in outcomes:
            counts[o] = counts.get(o, 0) + 1
        return cls(counts)

    @staticmethod
    def constant(value: U) -> Distribution[U]:
        """The distribution that is always ``value``."""
        return Distribution._raw({value: 1}, 1)

    @staticmethod
    def die(sides: int) -> Distribution[int]:
        """One fair die numbered ``1..sides``."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        return Distribution._raw(dict.fromkeys(range(1, sides + 1), 1), sides, ordered=True)

    @staticmethod
    def uniform(low: int, high: int) -> Distribution[int]:
        """Every integer from ``low`` to ``high`` inclusive, equally likely."""
        if high < low:
            raise ValueError(f"empty range {low}..{high}")
        return Distribution._raw(
            dict.fromkeys(range(low, high + 1), 1), high - low + 1, ordered=True
        )

    # -- inspection -----------------------------------------------------
    @property
    def total(self) -> int:
        """The sum of all weights (the denominator of every probability)."""
        return self._total

    def weights(self) -> dict[T, int]:
        """A copy of the outcome -> weight mapping, in outcome order."""
        return dict(self._weights)

    def weight(self, outcome: T) -> int:
        """The weight of ``outcome`` (0 if impossible)."""
        return self._weights.get(outcome, 0)

    def outcomes(self) -> tuple[T, ...]:
        """The possible outcomes, sorted when they can be."""
        return tuple(self._weights)

    def items(self) -> Iterator[tuple[T, int]]:
        """``(outcome, weight)`` pairs in outcome order."""
        return iter(self._weights.items())

    def __len__(self) -> int:
        return len(self._weights)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._weights

    def __iter__(self) -> Iterator[T]:
        return iter(self._weights)

    def probability(self, outcome: T) -> Fraction:
        """P(X = outcome)."""
        return Fraction(self._weights.get(outcome, 0), self._total)

    def probabilities(self) -> dict[T, Fraction]:
        """Every outcome's probability, in outcome order."""
        t = self._total
        return {o: Fraction(w, t) for o, w in self._weights.items()}

    def probability_where(self, predicate: Callable[[T], bool]) -> Fraction:
        """P(predicate(X))."""
        return Fraction(sum(w for o, w in self._weights.items() if predicate(o)), self._total)

    def at_least(self: Distribution[Any], value: Any) -> Fraction:
        """P(X >= value)."""
        return Fraction(sum(w for o, w in self._weights.items() if o >= value), self._total)

    def at_most(self: Distribution[Any], value: Any) -> Fraction:
        """P(X <= value)."""
        return Fraction(sum(w for o, w in self._weights.items() if o <= value), self._total)

    def mean(self: Distribution[Any]) -> Fraction:
        """The expected value (numeric outcomes only)."""
        return Fraction(sum(o * w for o, w in self._weights.items()), self._total)

    def variance(self: Distribution[Any]) -> Fraction:
        """The variance (numeric outcomes only)."""
        m = self.mean()
        return Fraction(sum(w * (o - m) ** 2 for o, w in self._weights.items()), self._total)

    def min(self: Distribution[Any]) -> Any:
        """The smallest outcome."""
        return min(self._weights)

    def max(self: Distribution[Any]) -> Any:
        """The largest outcome."""
        return max(self._weights)

    def reduced(self) -> Distribution[T]:
        """The same distribution with weights divided by their common factor."""
        g = 0
        for w in self._weights.values():
            g = gcd(g, w)
            if g == 1:
                return self
        reduced = {o: w // g for o, w in self._weights.items()}
        return Distribution._raw(reduced, self._total // g, ordered=True)

    # -- transformation -------------------------------------------------
    def map(self, f: Callable[[T], U]) -> Distribution[U]:
        """The distribution of ``f(X)``: apply a rule to every outcome."""
        out: dict[U, int] = {}
        for o, w in self._weights.items():
            k = f(o)
            out[k] = out.get(k, 0) + w
        return Distribution._raw(out, self._total)

    def bind(self, f: Callable[[T], Distribution[U]]) -> Distribution[U]:
        """Chain a dependent step: for each outcome ``x``, continue with ``f(x)``."""
        parts = [(w, f(o)) for o, w in self._weights.items()]
        common = 1
        for _, d in parts:
            common = common * d._total // gcd(common, d._total)
        out: dict[U, int] = {}
        for w, d in parts:
            scale = w * (common // d._total)
            for o, dw in d._weights.items():
                out[o] = out.get(o, 0) + scale * dw
        return Distribution._raw(out, self._total * common)

    def condition(self, predicate: Callable[[T], bool]) -> Distribution[T]:
        """The distribution given that ``predicate`` holds."""
        kept = {o: w for o, w in self._weights.items() if predicate(o)}
        if not kept:
            raise ValueError("conditioning on an impossible event")
        return Distribution._raw(kept)

    def combine(self, other: Distribution[U], f: Callable[[T, U], Any]) -> Distribution[Any]:
        """The distribution of ``f(X, Y)`` for independent ``X`` (self) and ``Y``."""
        _check_pairs(len(self._weights), len(other._weights))
        out: dict[Any, int] = {}
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                k = f(a, b)
                out[k] = out.get(k, 0) + wa * wb
        return Distribution._raw(out, self._total * other._total)

    # -- arithmetic on integer outcomes ---------------------------------
    def __add__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        if isinstance(other, int):
            return self.shift(other)
        return convolve(self, other)

    def __radd__(self: Distribution[int], other: int) -> Distribution[int]:
        return self.shift(other)

    def __neg__(self: Distribution[int]) -> Distribution[int]:
        items = reversed(self._weights.items())
        return Distribution._raw({-o: w for o, w in items}, self._total, ordered=True)

    def __sub__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        if isinstance(other, int):
            return self.shift(-other)
        return convolve(self, -other)

    def __rsub__(self: Distribution[int], other: int) -> Distribution[int]:
        return (-self).shift(other)

    def __mul__(self: Distribution[int], other: Distribution[int] | int) -> Distribution[int]:
        if isinstance(other, int):
            if other == 0:
                return Distribution._raw({0: self._total}, self._total)
            return Distribution._raw({o * other: w for o, w in self._weights.items()}, self._total)
        return product_of(self, other)

    def __rmul__(self: Distribution[int], other: int) -> Distribution[int]:
        return self * other

    def shift(self: Distribution[int], k: int) -> Distribution[int]:
        """The distribution of ``X + k``."""
        if k == 0:
            return self
        return Distribution._raw(
            {o + k: w for o, w in self._weights.items()}, self._total, ordered=True
        )

    def clamp(
        self: Distribution[int], low: int | None = None, high: int | None = None
    ) -> Distribution[int]:
        """The distribution of ``X`` limited to ``low..high``."""
        if low is not None and high is not None and low > high:
            raise ValueError(f"cannot clamp to the empty range {low}..{high}")

        def f(x: int) -> int:
            if low is not None and x < low:
                return low
            if high is not None and x > high:
                return high
            return x

        return self.map(f)

    # -- equality and display ------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        if self._weights.keys() != other._weights.keys():
            return False
        t1, t2 = self._total, other._total
        return all(w * t2 == other._weights[o] * t1 for o, w in self._weights.items())

    def __hash__(self) -> int:
        r = self.reduced()
        return hash(frozenset(r._weights.items()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{o!r}: {w}" for o, w in list(self._weights.items())[:12])
        more = ", ..." if len(self._weights) > 12 else ""
        return f"Distribution({{{shown}{more}}}, total={self._total})"


# ---------------------------------------------------------------------------
# helpers


def _ordered(weights: dict[T, int]) -> dict[T, int]:
    try:
        keys = sorted(weights, key=_sort_key)
    except TypeError:
        return weights
    if list(weights) == keys:
        return weights
    return {k: weights[k] for k in keys}


def _check_pairs(a: int, b: int) -> None:
    if a * b > 50 * MAX_SUPPORT:
        raise OddsTooComplex(f"combining {a} by {b} outcomes is too much work for exact odds")


def convolve(a: Distribution[int], b: Distribution[int]) -> Distribution[int]:
    """The distribution of ``X + Y`` for independent integer ``X``, ``Y``."""
    aw, bw = a._weights, b._weights
    if len(aw) < len(bw):
        aw, bw = bw, aw
    _check_pairs(len(aw), len(bw))
    out: dict[int, int] = {}
    get = out.get
    for y, wy in bw.items():
        for x, wx in aw.items():
            k = x + y
            out[k] = get(k, 0) + wx * wy
    return Distribution._raw(out, a._total * b._total)


def product_of(a: Distribution[int], b: Distribution[int]) -> Distribution[int]:
    """The distribution of ``X * Y`` for independent integer ``X``, ``Y``."""
    aw, bw = a._weights, b._weights
    if len(aw) < len(bw):
        aw, bw = bw, aw
    _check_pairs(len(aw), len(bw))
    out: dict[int, int] = {}
    get = out.get
    for y, wy in bw.items():
        for x, wx in aw.items():
            k = x * y
            out[k] = get(k, 0) + wx * wy
    return Distribution._raw(out, a._total * b._total)


def sum_of_dice(n: int, sides: int) -> Distribution[int]:
    """``n`` fair dice of ``sides`` sides added together (sliding-window convolution)."""
    if n < 0 or sides < 1:
        raise ValueError(f"cannot roll {n}d{sides}")
    if n == 0:
        return Distribution._raw({0: 1}, 1)
    # counts[i] = ways to make (i + k) with k dice; grow one die at a time. Each
    # new count is a window sum of `sides` old ones: a difference of prefix
    # sums, computed by accumulate and map in C rather than a Python loop.
    counts = [1] * sides
    pad = [0] * (sides - 1)
    for _ in range(2, n + 1):
        prefix = [0, *accumulate(counts + pad)]
        counts = prefix[1:sides] + list(map(sub, prefix[sides:], prefix[: len(prefix) - sides]))
    weights = dict(zip(range(n, n * sides + 1), counts, strict=True))
    return Distribution._raw(weights, sides**n, ordered=True)


def repeat_sum(d: Distribution[int], n: int) -> Distribution[int]:
    """The sum of ``n`` independent copies of ``d`` (binary powering)."""
    if n < 0:
        raise ValueError(f"cannot add {n} copies")
    result: Distribution[int] = Distribution._raw({0: 1}, 1)
    base = d
    while n:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


MAX_PACKED_WORK = 500_000_000
"""Estimated bit operations :func:`keep_highest` may spend (about a second)."""


def _unpack(packed: int, slots: int, width_bytes: int) -> list[int]:
    """The coefficients of a packed polynomial, lowest degree first."""
    raw = packed.to_bytes(slots * width_bytes, "little")
    return [
        int.from_bytes(raw[i * width_bytes : (i + 1) * width_bytes], "little") for i in range(slots)
    ]


def _require_ordered(d: Distribution[Any]) -> None:
    """Order statistics need outcomes that sort; say so instead of answering wrongly."""
    try:
        sorted(d._weights)
    except TypeError:
        raise TypeError("order statistics need outcomes that can be sorted") from None


def keep_highest(d: Distribution[int], n: int, keep: int) -> Distribution[int]:
    """The sum of the ``keep`` highest of ``n`` independent rolls of ``d``.

    Conditions on the lowest kept value ``v``: ``j < keep`` rolls lie above it
    (their sum is the ``j``-th power of the polynomial of the outcomes above
    ``v``), at least ``keep - j`` of the other rolls equal ``v`` and the rest
    lie below. Polynomials with non-negative integer coefficients are packed
    into single integers (Kronecker substitution), so each convolution is one
    big-integer multiplication done in C.
    """
    if not 0 <= keep <= n:
        raise ValueError(f"cannot keep {keep} of {n} dice")
    _require_ordered(d)
    total = d._total**n
    if keep == 0:
        return Distribution._raw({0: total}, total, ordered=True)
    items = list(d._weights.items())  # ascending outcomes
    low = items[0][0]
    span = items[-1][0] - low
    width_bytes = (total.bit_length() + 8) // 8 + 1
    bits = 8 * width_bytes
    slots = keep * span + 1
    work = slots * bits * (n if keep == n else len(items) * keep)
    if work > MAX_PACKED_WORK:
        raise OddsTooComplex(
            f"keeping {keep} of {n} rolls over {len(items)} outcomes is too much work "
            "for exact odds"
        )
    if keep == n:
        poly = 0
        for x, w in items:
            poly |= w << (bits * (x - low))
        coefficients = _unpack(poly**n, slots, width_bytes)
    else:
        acc = 0
        above = 0  # the packed polynomial of the outcomes above v
        below = d._total
        for x, w in reversed(items):
            below -= w
            shift = bits * (x - low)
            power = 1  # above ** j
            for j in range(keep):
                if j:
                    if not above:
                        break
                    power *= above
                rest = n - j
                need = keep - j
                # ways for `rest` rolls at or below x with at least `need` equal
                # to x: a binomial tail, summed from whichever end is shorter
                # (both ends are O(1) terms when keeping all but a few dice)
                if need <= rest - need + 1:
                    ways = (w + below) ** rest - sum(
                        comb(rest, e) * w**e * below ** (rest - e) for e in range(need)
                    )
                else:
                    ways = sum(
                        comb(rest, e) * w**e * below ** (rest - e) for e in range(need, rest + 1)
                    )
                if ways:
                    acc += (comb(n, j) * ways * power) << (shift * need)
            above += w << shift
        coefficients = _unpack(acc, slots, width_bytes)
    base = keep * low
    weights = {base + i: c for i, c in enumerate(coefficients) if c}
    return Distribution._raw(weights, total, ordered=True)


def keep_lowest(d: Distribution[int], n: int, keep: int) -> Distribution[int]:
    """The sum of the ``keep`` lowest of ``n`` independent rolls of ``d``."""
    return -keep_highest(-d, n, keep)


def order_statistic(d: Distribution[T], n: int, rank: int) -> Distribution[T]:
    """The ``rank``-th highest (1 = highest) of ``n`` independent rolls of ``d``.

    With ``F`` the weight at or below ``v``, the ``rank``-th highest is at most
    ``v`` exactly when at least ``n - rank + 1`` rolls are: a binomial tail.
    Each outcome's weight is the difference of consecutive tails.
    """
    if not 1 <= rank <= n:
        raise ValueError(f"rank {rank} is outside 1..{n}")
    _require_ordered(d)
    total = d._total
    need = n - rank + 1
    terms = [(comb(n, j), j, n - j) for j in range(need, n + 1)]
    out: dict[T, int] = {}
    at_or_below = 0
    previous = 0
    for v, w in d._weights.items():
        at_or_below += w
        above = total - at_or_below
        tail = sum([c * at_or_below**j * above**k for c, j, k in terms])
        if tail != previous:
            out[v] = tail - previous
        previous = tail
    return Distribution._raw(out, total**n, ordered=True)  # in the input's (sorted) order


def median_of(d: Distribution[T], n: int) -> Distribution[T]:
    """The middle roll of an odd number ``n`` of independent rolls of ``d``."""
    if n < 1 or n % 2 == 0:
        raise ValueError(f"the median needs an odd number of dice, not {n}")
    return order_statistic(d, n, (n + 1) // 2)


def count_successes(
    d: Distribution[T], n: int, predicate: Callable[[T], bool]
) -> Distribution[int]:
    """How many of ``n`` independent rolls of ``d`` satisfy ``predicate`` (binomial counts)."""
    p = sum(w for o, w in d._weights.items() if predicate(o))
    q = d._total - p
    out = {k: comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)}
    return Distribution._raw({k: w for k, w in out.items() if w}, d._total**n, ordered=True)


def joint(*dists: Distribution[Any]) -> Distribution[tuple[Any, ...]]:
    """The joint distribution of independent variables, as tuples of outcomes."""
    result: Distribution[tuple[Any, ...]] = Distribution._raw({(): 1}, 1)
    for d in dists:
        result = result.combine(d, lambda t, x: (*t, x))
    return result


def fraction_text(p: Fraction) -> str:
    """A probability as ``"num/den"`` in lowest terms (``"1/1"``, ``"0/1"`` included)."""
    return f"{p.numerator}/{p.denominator}"
