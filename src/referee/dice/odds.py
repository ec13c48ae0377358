"""Exact probability distributions with integer weights.

A :class:`Distribution` maps each outcome to a positive integer weight; the
probability of an outcome is its weight over the total weight. Nothing inside
uses floats: probabilities leave as :class:`fractions.Fraction`. Distributions
are immutable values.

Pool operations use closed forms and polynomial methods, never enumeration
of ``s**n`` rolls:

* sums of dice: the coefficients of the die's polynomial raised to the n-th
  power, each from the few before it by the power's recurrence (Miller's
  recurrence; for a fair die a three-term form), memoised by die and count
  (:func:`sum_of_dice`, :func:`repeat_sum`);
* the highest or lowest of n rolls: ``F(x)**n - F(x-1)**n`` from the cumulative
  weights ``F``, one big power per outcome whatever n is (:func:`keep_highest`
  with ``keep=1``);
* keep the k highest / lowest: conditioning on the lowest kept value, whose
  ways are a binomial tail over the cumulative weights, with the polynomials
  of the dice above it packed into big integers (:func:`keep_highest`);
* any order statistic, e.g. the median of an odd pool: binomial tails
  (:func:`order_statistic`, :func:`median_of`);
* counting dice that meet a target: binomial counts (:func:`count_successes`).

Bad requests (a negative weight, a die with no sides, keeping more dice than
rolled, outcomes that cannot be sorted for an order statistic) raise
:class:`~referee.errors.DiceError`; work beyond the limits raises
:class:`~referee.errors.OddsTooComplex`.

Every operation works on a distribution of any integer outcomes, so the same
code serves "3d6 keep 2" and "six damage rolls of 3d6-2 keep the best three".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import accumulate, repeat
from math import comb, gcd, log2
from math import pow as float_pow
from operator import add, mul, sub
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from referee.dice import bigint

if TYPE_CHECKING:
    from fractions import Fraction

    from referee.errors import DiceError, OddsTooComplex

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


# Imported on first use: fractions loads decimal, and referee.errors loads
# dataclasses; a first exact answer needs neither (the import is most of its time).


def _dice_error(message: str) -> DiceError:
    from referee.errors import DiceError

    return DiceError(message)


def _too_complex(message: str) -> OddsTooComplex:
    from referee.errors import OddsTooComplex

    return OddsTooComplex(message)


_FRACTION: list[type[Fraction]] = []
"""The :class:`~fractions.Fraction` class once :func:`_fraction` has imported it."""


def _fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)``; :mod:`fractions` is imported on the first
    call, the class kept after it (an import statement on every probability was a
    fifth of a quick answer's time)."""
    if not _FRACTION:
        from fractions import Fraction

        _FRACTION.append(Fraction)
    return _FRACTION[0](numerator, denominator)


MAX_SUPPORT = 2_000_000
"""Scale of the largest pairwise combination: :meth:`Distribution.combine`,
:func:`convolve` and :func:`product_of` refuse more than ``50 * MAX_SUPPORT``
pairs of outcomes (a distribution itself may hold any number of outcomes)."""


class Distribution(Generic[T]):
    """An immutable finite distribution: outcomes with positive integer weights.

    Build one with :meth:`from_weights`, :meth:`of`, :meth:`die`,
    :meth:`constant`, or from another by :meth:`map`, :meth:`bind`, ``+``,
    ``-`` and ``*``. Two distributions are equal when they give every outcome
    the same probability (weights need not be reduced).

    Example::

        >>> d6 = Distribution.die(6)
        >>> d6 + d6 == odds("2d6")
        True
        >>> Distribution.die(4).map(lambda x: 2 * x)
        Distribution({2: 1, 4: 1, 6: 1, 8: 1}, total=4)
        >>> (d6 + d6).probability_where(lambda total: total >= 10)
        Fraction(1, 6)
    """

    __slots__ = ("_total", "_weights")

    _weights: dict[T, int]
    _total: int

    def __init__(self, weights: Mapping[T, int] | Iterable[tuple[T, int]]) -> None:
        if isinstance(weights, Mapping):
            values = weights.values()
            # the common case checked in C: every weight a positive int (not a bool)
            if values and set(map(type, values)) == {int} and min(values) > 0:
                clean_copy = dict(weights)
                self._weights = _ordered(clean_copy)
                self._total = sum(values)
                return
        items = weights.items() if isinstance(weights, Mapping) else weights
        clean: dict[T, int] = {}
        for outcome, weight in items:
            if not isinstance(weight, int) or isinstance(weight, bool):
                raise _dice_error(f"weight of {outcome!r} must be an int, not {weight!r}")
            if weight < 0:
                raise _dice_error(f"weight of {outcome!r} is negative ({weight})")
            if weight:
                clean[outcome] = clean.get(outcome, 0) + weight
        if not clean:
            raise _dice_error("a distribution needs at least one outcome with positive weight")
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
            raise _dice_error(f"a die needs at least one side, not {sides}")
        return Distribution._raw(dict.fromkeys(range(1, sides + 1), 1), sides, ordered=True)

    @staticmethod
    def uniform(low: int, high: int) -> Distribution[int]:
        """Every integer from ``low`` to ``high`` inclusive, equally likely."""
        if high < low:
            raise _dice_error(f"empty range {low}..{high}")
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
        return _fraction(self._weights.get(outcome, 0), self._total)

    def probabilities(self) -> dict[T, Fraction]:
        """Every outcome's probability, in outcome order (each a reduced fraction: its
        estimated time is spent from a request's budget, :func:`limited_work`)."""
        from fractions import Fraction

        t = self._total
        n, bits = len(self._weights), t.bit_length()
        if n * bits > 1_000_000:  # many fractions of big numbers: a greatest common divisor each
            _afford(n * (0.5 + 6 * (bits / 1000) ** 1.5), f"the exact chances of {n:,} outcomes")
        return {o: Fraction(w, t) for o, w in self._weights.items()}

    def probability_where(self, predicate: Callable[[T], bool]) -> Fraction:
        """P(predicate(X))."""
        return _fraction(sum(w for o, w in self._weights.items() if predicate(o)), self._total)

    def at_least(self: Distribution[Any], value: Any) -> Fraction:
        """P(X >= value)."""
        return _fraction(sum([w for o, w in self._weights.items() if o >= value]), self._total)

    def at_most(self: Distribution[Any], value: Any) -> Fraction:
        """P(X <= value)."""
        return _fraction(sum([w for o, w in self._weights.items() if o <= value]), self._total)

    def mean(self: Distribution[Any]) -> Fraction:
        """The expected value (numeric outcomes only)."""
        return _fraction(sum(o * w for o, w in self._weights.items()), self._total)

    def variance(self: Distribution[Any]) -> Fraction:
        """The variance (numeric outcomes only)."""
        m = self.mean()
        return _fraction(sum(w * (o - m) ** 2 for o, w in self._weights.items()), self._total)

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
        weights = self._weights
        keys = list(map(f, weights))
        values: Iterable[int] = weights.values()
        first, last = keys[0], keys[-1]
        # a decreasing rule (a target minus a roll): reverse instead of sorting later
        if isinstance(first, int) and isinstance(last, int) and first > last:
            keys.reverse()
            values = list(weights.values())[::-1]
        out = dict(zip(keys, values, strict=True))
        if len(out) < len(keys):  # outcomes merged: add their weights
            out = {}
            get = out.get
            for k, w in zip(keys, values, strict=True):
                out[k] = get(k, 0) + w
        return Distribution._raw(out, self._total)

    def bind(self, f: Callable[[T], Distribution[U]]) -> Distribution[U]:
        """Chain a dependent step: for each outcome ``x``, continue with ``f(x)``."""
        parts = [(w, f(o)) for o, w in self._weights.items()]
        _check_pairs(1, sum(len(d._weights) for _, d in parts))
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
            raise _dice_error("conditioning on an impossible event")
        return Distribution._raw(kept)

    def combine(self, other: Distribution[U], f: Callable[[T, U], Any]) -> Distribution[Any]:
        """The distribution of ``f(X, Y)`` for independent ``X`` (self) and ``Y``."""
        _check_pairs(len(self._weights), len(other._weights))
        out: dict[Any, int] = {}
        get = out.get
        pairs = list(other._weights.items())
        for a, wa in self._weights.items():
            for b, wb in pairs:
                k = f(a, b)
                out[k] = get(k, 0) + wa * wb
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
        return difference(self, other)

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

    def relabel(
        self: Distribution[int], offset: int, sign: int, labels: Sequence[U]
    ) -> Distribution[U]:
        """The distribution of ``labels[offset + sign * X]``, ``sign`` +1 or -1.

        A one-to-one relabelling of integer outcomes through a table (a game's
        interned results, say), so no outcomes merge and their order is kept
        (reversed for -1). One dict built in a comprehension: no Python call per
        outcome. :class:`IndexError` names the first index outside ``labels``
        before anything is built (no negative index wraps around).
        """
        weights = self._weights
        first, last = next(iter(weights)), next(reversed(weights))
        if sign == -1:
            low, high = offset - last, offset - first
        elif sign == 1:
            low, high = offset + first, offset + last
        else:
            raise _dice_error(f"a relabelling's sign is +1 or -1, not {sign!r}")
        if low < 0 or high >= len(labels):
            raise IndexError(f"table indices {low}..{high} fall outside {len(labels)} labels")
        if sign == -1:
            out = {labels[offset - x]: w for x, w in reversed(weights.items())}
        else:
            out = {labels[offset + x]: w for x, w in weights.items()}
        return Distribution._raw(out, self._total, ordered=True)

    def clamp(
        self: Distribution[int], low: int | None = None, high: int | None = None
    ) -> Distribution[int]:
        """The distribution of ``X`` limited to ``low..high``."""
        if low is not None and high is not None and low > high:
            raise _dice_error(f"cannot clamp to the empty range {low}..{high}")

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


_NO_ORDER = (vars(object)["__lt__"], vars(object)["__gt__"])
"""What a type inherits when it defines no ordering (``<`` and ``>`` of ``object``)."""


def _ordered(weights: dict[T, int]) -> dict[T, int]:
    """``weights`` with its outcomes in ascending order, when they can be compared.

    Outcomes whose type defines no ordering (a rule's frozen result record)
    keep their order without a sort attempted and refused.
    """
    keys = list(weights)
    if len(keys) < 2:
        return weights
    if not isinstance(keys[0], int):  # ints (and their subclasses) always compare
        kind = type(keys[0])
        if (getattr(kind, "__lt__", None), getattr(kind, "__gt__", None)) == _NO_ORDER:
            return weights
    try:
        ordered: list[T] = sorted(cast("list[Any]", keys))
    except TypeError:
        return weights
    if ordered == keys:
        return weights
    if ordered[0] == keys[-1] and ordered == keys[::-1]:  # a decreasing rule: reverse
        return dict(zip(ordered, reversed(weights.values()), strict=True))
    return {outcome: weights[outcome] for outcome in ordered}


def _check_pairs(a: int, b: int) -> None:
    if a * b > 50 * MAX_SUPPORT:
        raise _too_complex(f"combining {a} by {b} outcomes is too much work for exact odds")
    if _BUDGET.get() is not None:
        _afford(a * b / PAIRS_PER_MICROSECOND, f"combining {a} by {b} outcomes")


def convolve(a: Distribution[int], b: Distribution[int]) -> Distribution[int]:
    """The distribution of ``X + Y`` for independent integer ``X``, ``Y``.

    Outcomes without gaps (dice, sums, counts) go as rows of coefficients
    (:func:`convolve_rows`); others pair every outcome with every outcome.
    """
    aw, bw = a._weights, b._weights
    if len(aw) < len(bw):
        aw, bw = bw, aw
    _check_pairs(len(aw), len(bw))
    first = dense_row(a)
    second = dense_row(b) if first is not None else None
    if first is not None and second is not None:
        return from_row(
            first[0] + second[0], convolve_rows(first[1], second[1]), a._total * b._total
        )
    out: dict[int, int] = {}
    get = out.get
    for y, wy in bw.items():
        for x, wx in aw.items():
            k = x + y
            out[k] = get(k, 0) + wx * wy
    return Distribution._raw(out, a._total * b._total)


def difference(a: Distribution[int], b: Distribution[int]) -> Distribution[int]:
    """The distribution of ``X - Y`` for independent integer ``X``, ``Y``: :func:`convolve`
    with ``-Y``, whose row is ``Y``'s reversed."""
    first = dense_row(a)
    second = dense_row(b) if first is not None else None
    if first is None or second is None:
        return convolve(a, -b)
    _check_pairs(len(a._weights), len(b._weights))
    low_b, row_b = second
    row_b.reverse()
    low = first[0] - (low_b + len(row_b) - 1)
    return from_row(low, convolve_rows(first[1], row_b), a._total * b._total)


def dense_row(d: Distribution[Any]) -> tuple[int, list[int]] | None:
    """``(low, weights)`` when the outcomes of ``d`` are exactly the integers ``low``,
    ``low + 1``, ... with none missing, else None: ``d`` as the coefficients of a
    polynomial, ``weights[i]`` the weight of ``low + i`` (a new list)."""
    weights = d._weights
    keys = list(weights)
    low = keys[0]
    if type(low) is not int or keys != list(range(low, low + len(keys))):
        return None
    return low, list(weights.values())


def from_row(low: int, row: list[int], total: int) -> Distribution[int]:
    """The distribution giving ``low + i`` the weight ``row[i]`` (zeros left out).

    ``row`` holds non-negative ints, not all zero, summing to ``total``.
    """
    weights = dict(enumerate(row, low))  # outcome low + i: row[i]
    if 0 in row:
        weights = {x: w for x, w in weights.items() if w}
    return Distribution._raw(weights, total, ordered=True)


def convolve_rows(a: list[int], b: list[int]) -> list[int]:
    """The coefficients of the product of two polynomials, lowest degree first.

    ``X + Y`` on rows of weights (:func:`dense_row`). One pass per coefficient of
    the shorter row: a multiple of the longer added into a slice of the result,
    the multiplications and additions done by ``map`` in C, no dictionary
    lookups. A flat row (a fair die) is a sliding window over the other row:
    the difference of its prefix sums ``width`` apart, two passes in all.
    """
    if len(a) < len(b):
        a, b = b, a
    if b.count(b[0]) != len(b) and a.count(a[0]) == len(a):
        a, b = b, a  # the flat one as the window
    width = len(b)
    w = b[0]
    if width == 1:
        return [x * w for x in a]
    if b.count(w) == width:
        prefix = list(accumulate(a + [0] * (width - 1)))
        out = list(map(sub, prefix, [0] * width + prefix[:-width]))
        return out if w == 1 else [x * w for x in out]
    size = len(a)
    out = [0] * (size + width - 1)
    for j, w in enumerate(b):
        out[j : j + size] = map(add, out[j : j + size], map(mul, a, repeat(w)))
    return out


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


# ---------------------------------------------------------------------------
# memo of sums


class _Memo:
    """A bounded memo of computed distributions, least recently used dropped first.

    Sized by the bits of the weights it holds, so a few wide results cannot
    fill memory; a result bigger than a quarter of the budget is not kept.
    ``cache_clear`` empties it (the benchmarks clear it for cold timings).
    A plain dict keeps insertion order: a hit is moved to the end, the
    first key is the least recently used.
    """

    def __init__(self, budget_bits: int) -> None:
        self._data: dict[Hashable, tuple[Distribution[Any], int]] = {}
        self._bits = 0
        self._budget = budget_bits

    def get(self, key: Hashable) -> Distribution[Any] | None:
        """The distribution stored under ``key``, if any (now the most recent)."""
        found = self._data.pop(key, None)
        if found is None:
            return None
        self._data[key] = found
        return found[0]

    def put(self, key: Hashable, value: Distribution[Any]) -> None:
        """Keep ``value`` under ``key``, dropping the least recently used past the budget."""
        size = len(value._weights) * max(64, value._total.bit_length())
        if 4 * size > self._budget or key in self._data:
            return
        self._data[key] = (value, size)
        self._bits += size
        while self._bits > self._budget:
            oldest = next(iter(self._data))
            self._bits -= self._data.pop(oldest)[1]

    def cache_clear(self) -> None:
        """Forget everything."""
        self._data.clear()
        self._bits = 0


SUM_MEMO_BITS = 1 << 28
"""Weight bits the memo of sums may hold (32 MB)."""

_SUMS = _Memo(SUM_MEMO_BITS)
"""Sums already computed, keyed by the die (its sides, or its exact weights) and the count."""


def clear_caches() -> None:
    """Forget every memoised sum (parsed expressions are cached in :mod:`notation`)."""
    _SUMS.cache_clear()


# ---------------------------------------------------------------------------
# sums: the n-th power of a die's polynomial


def sum_of_dice(n: int, sides: int) -> Distribution[int]:
    """``n`` fair dice of ``sides`` sides added together (memoised by ``(sides, n)``).

    The ways to roll ``n + m`` are the coefficients ``c[m]`` of
    ``(1 + x + ... + x**(s-1))**n = ((1 - x**s) / (1 - x))**n``. Its logarithmic
    derivative gives each from three earlier ones::

        (m+1) c[m+1] = (m+n) c[m] + (m+1-s-n*s) c[m+1-s] + (n*s-n+s-m) c[m-s]

    so each coefficient costs three multiplications by small numbers and one
    exact division, and only half are computed (the counts are symmetric):
    O(n * s) big-integer steps in all. Squaring the packed polynomial
    repeatedly would cost big-by-big multiplications of the whole polynomial,
    which CPython does by Karatsuba: 2.9 s for 1000d6 against 2 ms here.
    """
    return shifted_sum_of_dice(n, sides, 0)


MEMO_FROM = 64
"""Sums with fewer outcomes than this are recomputed rather than memoised (as quick)."""


def shifted_sum_of_dice(n: int, sides: int, shift: int) -> Distribution[int]:
    """:func:`sum_of_dice` plus the constant ``shift``, built in place when small."""
    if n < 0 or sides < 1:
        raise _dice_error(f"cannot roll {n}d{sides}")
    low = n + shift
    size = n * (sides - 1) + 1
    if size < MEMO_FROM:
        weights = dict(enumerate(fair_counts(n, sides), low))
        return Distribution._raw(weights, sides**n, ordered=True)
    key = (sides, n)
    found = _SUMS.get(key)
    if found is None:
        _afford(fair_counts_microseconds(n, sides), f"the sum of {n}d{sides}")
        counts = fair_counts(n, sides)
        found = Distribution._raw(dict(enumerate(counts, n)), sides**n, ordered=True)
        _SUMS.put(key, found)
    return found.shift(shift)


def fair_counts_microseconds(n: int, s: int) -> float:
    """Estimated time of :func:`fair_counts` (fitted to timed runs; it errs high): one
    step per outcome up to the middle, each on numbers of about ``n log2 s`` bits
    (1000d20: 9,500 steps on 4,300 bits, about 20 ms; estimated 23)."""
    bits = n * log2(max(s, 2))
    return n * (s - 1) / 2 * (0.3 + bits / 2000) + 2


def fair_counts(n: int, s: int) -> list[int]:
    """Coefficients of ``(1 + x + ... + x**(s-1))**n`` by the three-term recurrence."""
    if n == 1:  # one die is flat, two a triangle
        return [1] * s
    if n == 2:
        return [*range(1, s), *range(s, 0, -1)]
    top = n * (s - 1)
    c = [0] * (top + 1)
    c[0] = 1
    half = top // 2
    ns = n * s
    for m in range(half):
        v = (m + n) * c[m]
        j = m + 1 - s
        if j >= 0:
            v += (j - ns) * c[j]
            if j:
                v += (ns - n + s - m) * c[j - 1]
        c[m + 1] = v // (m + 1)
    if top:
        c[half + 1 :] = c[top - half - 1 :: -1]  # c[m] = c[top - m]
    return c


PACKED_POWER_BITS = 1 << 14
"""Below this many bits (coefficients times their width), a sum of copies is one
big-integer power of the packed polynomial; above, the recurrence is quicker."""


def repeat_sum(d: Distribution[int], n: int) -> Distribution[int]:
    """The sum of ``n`` independent copies of ``d`` (memoised by ``d``'s weights and ``n``).

    Integer outcomes: the coefficients of the n-th power of ``d``'s polynomial
    ``a[0] + a[1] x + ...`` (outcomes shifted to start at 0), either as one
    big-integer power of the packed polynomial (small results) or by Miller's
    recurrence ``m a[0] q[m] = sum over k of ((n+1) k - m) a[k] q[m-k]``, which
    costs one small-by-big multiplication per outcome of ``d`` per
    coefficient. Other outcomes: binary powering with :func:`convolve`.
    """
    if n < 0:
        raise _dice_error(f"cannot add {n} copies")
    if n == 0:
        return Distribution._raw({0: 1}, 1)
    if n == 1:
        return d
    items = tuple(d._weights.items())
    key = (items, n)
    found = _SUMS.get(key)
    if found is not None:
        return found
    if all(type(o) is int for o, _ in items):
        result = _power_sum(sorted(items), n, d._total**n)
    else:
        result = Distribution._raw({0: 1}, 1)
        base = d
        while n:
            if n & 1:
                result = convolve(result, base)
            n >>= 1
            if n:
                base = convolve(base, base)
    _SUMS.put(key, result)
    return result


def _power_sum(items: list[tuple[int, int]], n: int, total: int) -> Distribution[int]:
    """The n-th power of the polynomial of ascending integer ``items``; weights sum to ``total``."""
    low = items[0][0]
    span = items[-1][0] - low
    size = n * span + 1
    width_bytes = (total.bit_length() + 8) // 8
    if size * width_bytes * 8 <= PACKED_POWER_BITS:
        bits = 8 * width_bytes
        poly = 0
        for x, w in items:
            poly |= w << (bits * (x - low))
        counts = _unpack(poly**n, size, width_bytes)
    else:
        terms = [(x - low, w) for x, w in items[1:]]
        estimate = size * len(terms) * (0.3 + total.bit_length() / 2500)
        _afford(estimate, f"adding {n} rolls of {len(items)} outcomes")
        a0 = items[0][1]
        counts = [0] * size
        counts[0] = a0**n
        n1 = n + 1
        for m in range(1, size):
            acc = 0
            for k, w in terms:
                if k > m:
                    break
                acc += (n1 * k - m) * w * counts[m - k]
            counts[m] = acc // (m * a0)
    base = n * low
    weights = {base + i: c for i, c in enumerate(counts) if c}
    return Distribution._raw(weights, total, ordered=True)


# ---------------------------------------------------------------------------
# keep highest / lowest

MAX_MICROSECONDS = 5_000_000
"""Estimated time past which :func:`keep_highest` and :func:`repeat_sum` refuse.

Expressions typed by users meet the tighter budget of
:func:`referee.dice.evaluate.odds` first; this stops runaway work in
distributions built in code. A caller answering someone else (the web's odds) sets
a tighter ceiling for its own context with :func:`limited_work`."""

PAIRS_PER_MICROSECOND = 5
"""Outcome pairs :func:`convolve` and friends combine in a microsecond, at most (it errs
high: big weights take longer), to turn a time ceiling into a count of pairs."""

_BUDGET: ContextVar[list[float] | None] = ContextVar("referee_work_budget", default=None)
"""``[microseconds left, microseconds given]`` of the innermost :func:`limited_work`."""


@contextmanager
def limited_work(microseconds: float) -> Iterator[None]:
    """Within the block (this thread or task only), every costly step of exact odds
    spends its estimated time from ``microseconds``, and a step that would overdraw it
    is refused before it starts (:class:`OddsTooComplex`, naming the limit): what a
    server sets around the odds it computes for a request, so that whatever a game
    builds from an outsider's input stays within the request's time, all steps
    together."""
    token = _BUDGET.set([float(microseconds), float(microseconds)])
    try:
        yield
    finally:
        _BUDGET.reset(token)


def _afford(estimate: float, what: str) -> None:
    """Spend ``estimate`` microseconds of the request's budget on a step (``what``), or
    refuse it; with no budget set, refuse only a step past :data:`MAX_MICROSECONDS`."""
    budget = _BUDGET.get()
    if budget is None:
        if estimate > MAX_MICROSECONDS:
            raise _too_complex(f"{what} is too much work for exact odds")
        return
    if estimate > budget[0]:
        from referee.errors import OverBudget

        raise OverBudget(
            f"{what} is too much work for exact odds (about {estimate / 1000:,.0f} ms, and "
            f"{budget[0] / 1000:,.0f} ms are left of the {budget[1] / 1000:,.0f} ms a request "
            "may take)"
        )
    budget[0] -= estimate


def keep_microseconds(outcomes: int, span: int, n: int, keep: int, bits: float) -> float:
    """Estimated time of :func:`keep_highest` (fitted to timed runs; it errs high).

    ``outcomes`` distinct values spread over ``span``, ``n`` rolls, ``bits`` the
    size of the total weight ``total**n``. Every method's step costs more as its
    numbers grow, the big-integer products faster than linearly (Karatsuba).
    """
    if keep == 0:
        return 1.0
    if outcomes == 2 and keep != n:  # the binomial count: n small steps (_keep_two)
        return n * (0.3 + bits / 2000) + 2
    powers = outcomes * (0.3 + float_pow(bits / 2500, 1.5))  # one power per cumulative weight
    if keep == 1 or keep == n:
        return powers + 2
    # the binomial tails: for each value, keep steps of Pascal's rule on numbers of up
    # to ``bits`` bits (_tail_ways; measured 0.5 us at 400 bits, 4.9 us at 10,000)
    tails = outcomes * keep * (0.3 + bits / 2200)
    if bits <= PACKED_KEEP_BITS:  # whole packed polynomials per value and kept count
        size = keep * span * (bits + 16)
        return tails + outcomes * keep * (1 + float_pow(size / 4000, 1.35)) + 2
    # spread: a big scalar times each small coefficient, plus the small packed powers
    size = keep * span * (keep * bits / n + 8)
    spread = 0.35 * outcomes * span * keep * keep / 2
    return powers + tails + spread + outcomes * keep * float_pow(size / 4000, 1.35) + 2


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
        raise _dice_error("order statistics need outcomes that can be sorted") from None


PACKED_KEEP_BITS = 192
"""Up to this many bits in the total weight, :func:`keep_highest` packs the whole
sum into one integer (:func:`_keep_packed`); above, it spreads (:func:`_keep`)."""

SPLIT_POWERS_FROM = 24
"""Exponent from which :func:`_powers` shares work between even and odd bases."""


def _powers(values: list[int], n: int) -> dict[int, int]:
    """``{c: c**n}`` for positive ``values`` (see :func:`_power_list`)."""
    return dict(zip(values, _power_list(values, n), strict=True))


def _power_list(values: list[int], n: int) -> list[int]:
    """``[c**n for c in values]`` for positive ``values``, sharing work between them.

    ``(2**k * m)**n`` is ``m**n`` shifted left by ``k*n`` bits: every even base
    costs a shift of its odd part's power, computed once. The faces of a die,
    ``1..X``, are done by slices: the odd powers in one pass
    (:func:`_odd_powers`), then each power of two's multiples as shifts of them.
    Powers of more than :data:`~referee.dice.bigint.GMP_FROM_BITS` bits are
    raised on GMP when it is installed (:mod:`referee.dice.bigint`).
    """
    big = bool(values) and bigint.worth_it(n * max(values).bit_length())
    if n < SPLIT_POWERS_FROM and not big:
        return list(map(pow, values, repeat(n)))
    top = len(values)
    if values[0] == 1 and values[-1] == top:  # 1, 2, ..., top
        odd = _odd_powers(top, n)
        out = [0] * top
        out[0::2] = odd
        k = 1
        while (1 << k) <= top:
            step = 1 << k
            slots = range(step - 1, top, 2 * step)
            out[step - 1 :: 2 * step] = [p << (k * n) for p in odd[: len(slots)]]
            k += 1
        return out
    memo: dict[int, int] = {}
    if big:  # every odd part's power at once, on GMP
        odd_parts = dict.fromkeys(c >> ((c & -c).bit_length() - 1) for c in values)
        memo = dict(zip(odd_parts, bigint.powers(odd_parts, n), strict=True))
    found = []
    for c in values:
        shift = (c & -c).bit_length() - 1
        m = c >> shift
        p = memo.get(m)
        if p is None:
            p = memo[m] = m**n
        found.append(p << (shift * n) if shift else p)
    return found


def _odd_powers(top: int, n: int) -> list[int]:
    """``[m**n for m in range(1, top + 1, 2)]`` (``m**n`` at index ``m >> 1``).

    An odd multiple of 3 takes ``3**n * (m // 3)**n``, the smaller power
    already in the list: CPython multiplies a power of 3 (a few dozen digits
    for the exponents that matter) into a longer number about a fifth
    quicker than it raises ``m`` by squaring, measured at ``n`` 30 to 1000.
    (Other factors are left to :func:`pow`: a power of 5 or more is long enough
    that the product costs as much as the squarings.)
    """
    if bigint.worth_it(n * top.bit_length()):
        return bigint.powers(range(1, top + 1, 2), n)
    if n < SPLIT_POWERS_FROM or top < 9:
        return list(map(pow, range(1, top + 1, 2), repeat(n)))
    three = 3**n
    odd = [1, three]  # 1**n, 3**n
    append = odd.append
    for m in range(5, top + 1, 2):
        append(three * odd[m // 6] if m % 3 == 0 else pow(m, n))
    return odd


def _face_differences(top: int, n: int) -> tuple[list[int], int]:
    """``([x**n - (x-1)**n for x in 1..top], top**n)``: the highest of ``n`` dice.

    The powers of :func:`_power_list`'s faces, made in one ascending pass and
    dropped once subtracted: only the odd powers up to ``top // 2`` are kept
    (the even faces are shifts of them, the odd multiples of 3 above take
    their factor's power, as in :func:`_odd_powers`). Holding a fraction of
    the numbers at once keeps the big-integer work in the processor's cache,
    and ``top**n`` is the last power, not a further one.
    """
    big = bigint.worth_it(n * top.bit_length())
    if n < SPLIT_POWERS_FROM and not big:
        powers = list(map(pow, range(1, top + 1), repeat(n)))
        return list(map(sub, powers, [0, *powers[:-1]])), powers[-1]
    if big:  # on GMP: every odd power is raised, none is made from a smaller one
        return _face_differences_gmp(top, n)
    kept = _odd_powers(top // 2, n)  # m**n for odd m <= top // 2
    three = 3**n
    out = [0] * top
    previous = 0
    for x in range(1, top + 1):
        if not x & 1:
            k = (x & -x).bit_length() - 1
            p = kept[x >> (k + 1)] << (k * n)
        elif x <= top // 2:
            p = kept[x >> 1]
        elif x % 3 == 0:
            p = three * kept[x // 6]  # (x // 3) is odd and at most top // 3
        else:
            p = pow(x, n)
        out[x - 1] = p - previous
        previous = p
    return out, previous


def _face_differences_gmp(top: int, n: int) -> tuple[list[int], int]:
    """:func:`_face_differences` with the odd powers raised on GMP
    (:func:`referee.dice.bigint.powers`): an even face is still a shift of its
    odd part's power, made by CPython on the converted number, which is
    quicker than converting every power (a conversion costs about a third of
    a power on GMP at 10,000 bits)."""
    half = top // 2
    kept = bigint.powers(range(1, half + 1, 2), n)  # m**n for odd m <= top // 2
    above = iter(bigint.powers(range((half + 1) | 1, top + 1, 2), n))  # odd m above
    out = [0] * top
    previous = 0
    for x in range(1, top + 1):
        if not x & 1:
            k = (x & -x).bit_length() - 1
            p = kept[x >> (k + 1)] << (k * n)
        elif x <= half:
            p = kept[x >> 1]
        else:
            p = next(above)
        out[x - 1] = p - previous
        previous = p
    return out, previous


def _cumulative(weights: Iterable[int]) -> list[int]:
    return list(accumulate(weights))


def _highest(items: list[tuple[T, int]], n: int) -> dict[T, int]:
    """The highest of ``n`` rolls: ``F(x)**n - F(x-)**n`` for ascending ``items``.

    ``F(x)`` is the weight at or below ``x``: all ``n`` rolls are at most ``x``
    in ``F(x)**n`` ways. One power per outcome, whatever ``n``.
    """
    powers = _power_list(_cumulative(w for _, w in items), n)
    differences = map(sub, powers, [0, *powers[:-1]])
    return dict(zip([x for x, _ in items], differences, strict=True))


def _lowest(items: list[tuple[T, int]], n: int) -> dict[T, int]:
    """The lowest of ``n`` rolls, from the weights at or above each outcome."""
    powers = _power_list(_cumulative(w for _, w in reversed(items)), n)
    powers.reverse()  # ascending outcomes: G(x)**n, decreasing
    differences = map(sub, powers, [*powers[1:], 0])
    return dict(zip([x for x, _ in items], differences, strict=True))


def extreme_of_dice(n: int, sides: int, highest: bool = True, shift: int = 0) -> Distribution[int]:
    """The highest (or lowest) of ``n`` fair dice, plus ``shift``: ``x**n - (x-1)**n``
    ways for ``x``.

    :func:`keep_highest` with ``keep=1`` on a die, without building the die.
    """
    if n < 1 or sides < 1:
        raise _dice_error(f"cannot roll {n}d{sides}")
    differences, total = _face_differences(sides, n)
    if not highest:  # the lowest is x -> sides + 1 - x
        differences.reverse()
    return Distribution._raw(dict(enumerate(differences, 1 + shift)), total, ordered=True)


def order_of_dice(n: int, sides: int, rank: int, shift: int = 0) -> Distribution[int]:
    """The ``rank``-th highest of ``n`` fair dice, plus ``shift``.

    :func:`order_statistic` on a die, without building the die; the median of
    three (Mnemonic's randomizer) is written out: ``x`` is the middle die when
    all three show it (1 way), two do (``3 * (sides - 1)``), or one does with one
    die below and one above (``6 * (x - 1) * (sides - x)``). The highest and
    lowest are :func:`extreme_of_dice`.
    """
    if n < 1 or sides < 1:
        raise _dice_error(f"cannot roll {n}d{sides}")
    if rank == 1 or rank == n:
        return extreme_of_dice(n, sides, rank == 1, shift)
    if n == 3 and rank == 2:
        low, high, ways = 1 + shift, sides + shift, 3 * sides - 2
        return Distribution._raw(
            {x: ways + 6 * (x - low) * (high - x) for x in range(low, high + 1)},
            sides * sides * sides,
            ordered=True,
        )
    return order_statistic(Distribution.die(sides), n, rank).shift(shift)


def keep_highest(d: Distribution[int], n: int, keep: int) -> Distribution[int]:
    """The sum of the ``keep`` highest of ``n`` independent rolls of ``d``.

    ``keep == n`` is a sum (:func:`repeat_sum`) and ``keep == 1`` the highest
    roll (:func:`_highest`). Otherwise it conditions on the lowest kept value
    ``v``: ``j < keep`` rolls lie above it (their sum is the ``j``-th power of
    the polynomial of the outcomes above ``v``) and of the other ``n - j``
    rolls, all at most ``v``, at least ``keep - j`` equal ``v``: a binomial
    tail over the cumulative weights, ``F**r`` less the ways with fewer
    copies of ``v``. The powers ``F**r`` for the few exponents ``r`` needed come
    from one power of each cumulative weight and small multiplications.
    Polynomials with non-negative integer coefficients are packed into single
    integers (Kronecker substitution), so each convolution is one
    big-integer multiplication done in C.
    """
    if not 0 <= keep <= n:
        raise _dice_error(f"cannot keep {keep} of {n} dice")
    _require_ordered(d)
    total = d._total**n
    if keep == 0:
        return Distribution._raw({0: total}, total, ordered=True)
    if keep == n:
        return repeat_sum(d, n)
    items = list(d._weights.items())  # ascending outcomes
    if keep == 1:
        return Distribution._raw(_highest(items, n), total, ordered=True)
    if len(items) == 2:  # a coin (1000d2kh500): the binomial count of high rolls
        return Distribution._raw(_keep_two(items, n, keep), total, ordered=True)
    low = items[0][0]
    span = items[-1][0] - low
    _afford(
        keep_microseconds(len(items), span, n, keep, total.bit_length()),
        f"keeping {keep} of {n} rolls over {len(items)} outcomes",
    )
    if total.bit_length() <= PACKED_KEEP_BITS:
        weights = _keep_packed(items, n, keep, total)
    else:
        weights = _keep(items, n, keep)
    return Distribution._raw(weights, total, ordered=True)


def _keep_two(items: list[tuple[int, int]], n: int, keep: int) -> dict[int, int]:
    """The ``keep`` highest of ``n`` rolls with two outcomes ``lo < hi``: with ``h``
    rolls showing ``hi`` (``C(n, h) * w_hi**h * w_lo**(n - h)`` ways) the kept sum is
    ``keep * lo + min(h, keep) * (hi - lo)``. Each count comes from the one before by
    a small multiplication and an exact division: ``n`` steps in all."""
    (lo, w_lo), (hi, w_hi) = items
    step = hi - lo
    out: dict[int, int] = {}
    ways = w_lo**n  # h = 0
    top = keep * hi
    for h in range(n + 1):
        value = keep * lo + h * step if h < keep else top
        out[value] = out.get(value, 0) + ways
        if h < n:
            ways = ways * (n - h) * w_hi // ((h + 1) * w_lo)
    return out


def _tail_ways(
    at_most: int, below: int, weight: int, first_powers: dict[int, int], n: int, keep: int
) -> list[int]:
    """``ways[j]`` for ``j < keep``: the ways for ``rest = n - j`` rolls at or below a
    value ``x`` (``at_most`` weight) to have at least ``need = keep - j`` equal to ``x``
    (``weight``), the others below it (``below``).

    With ``d = n - keep`` (fixed for every ``j``), that is at most ``d`` rolls below
    ``x``: ``U(r) = sum(C(r, m) * below**m * weight**(r - m) for m <= d)``. Going from
    ``r = d + 1`` (``at_most**(d+1) - below**(d+1)``, from ``first_powers``) up to
    ``n``, ``U(r + 1) = at_most * U(r) - C(r, d) * below**(d + 1) * weight**(r - d)``
    (Pascal's rule), the subtracted term itself updated by a small multiplication
    and an exact division: ``keep`` cheap steps instead of a tail sum of powers for
    each ``j``.
    """
    d = n - keep
    ways = [0] * keep
    u = first_powers[at_most] - first_powers[below]
    v = (d + 1) * first_powers[below] * weight  # C(d + 1, d) * below**(d+1) * weight
    ways[keep - 1] = u
    for r in range(d + 1, n):
        u = at_most * u - v
        ways[n - r - 1] = u
        if r + 1 < n:  # the next subtracted term (not needed after the last)
            v = v * (r + 1) * weight // (r + 1 - d)
    return ways


def _keep(items: list[tuple[int, int]], n: int, keep: int) -> dict[int, int]:
    """Weights of the sum of the ``keep`` highest of ``n`` rolls, ``1 < keep < n``.

    For each lowest kept value ``v`` (descending) and each number ``j < keep``
    of rolls above it, the scalar ``C(n, j) * ways`` (a big number: the other
    rolls) multiplies the coefficients of ``above**j`` (small numbers: the
    sums of ``j`` rolls above ``v``, packed at the width their largest count
    needs), and each product lands on the coefficient of its total. Keeping
    the big scalars out of the packed polynomials keeps every packed product
    small, whatever ``n``.
    """
    low = items[0][0]
    span = items[-1][0] - low
    cumulative = _cumulative(w for _, w in items)
    first_powers = _powers(cumulative, n - keep + 1)
    first_powers[0] = 0
    out = [0] * (keep * span + 1)
    width = ((cumulative[-1] ** (keep - 1)).bit_length() + 8) // 8
    bits = 8 * width
    above = 0  # the packed polynomial of the outcomes above v, exponent x - low
    nearest = 0  # the exponent of the lowest outcome above v
    for index in range(len(items) - 1, -1, -1):
        x, w = items[index]
        at_most = cumulative[index]
        below = at_most - w
        offset = x - low
        power = 1  # above ** j
        tails = _tail_ways(at_most, below, w, first_powers, n, keep)
        for j in range(keep):
            if j:
                if not above:
                    break
                power *= above
            need = keep - j
            ways = tails[j]
            if not ways:
                continue
            if not j:
                out[keep * offset] += ways
                continue
            scale = comb(n, j) * ways
            lowest = j * nearest
            counts = _unpack(power >> (bits * lowest), j * span - lowest + 1, width)
            base = need * offset + lowest
            for t, count in enumerate(counts):
                if count:
                    out[base + t] += scale * count
        above += w << (bits * offset)
        nearest = offset
    base = keep * low
    return {base + i: c for i, c in enumerate(out) if c}


def _keep_packed(items: list[tuple[int, int]], n: int, keep: int, total: int) -> dict[int, int]:
    """:func:`_keep` for small totals: the whole sum as one packed polynomial.

    When every count fits in a few machine words, multiplying the scalar
    ``C(n, j) * ways`` into the packed ``above**j`` and adding the product,
    shifted, into one packed accumulator is a handful of big-integer
    operations done in C, quicker than spreading the coefficients one by one.
    """
    low = items[0][0]
    span = items[-1][0] - low
    width = (total.bit_length() + 8) // 8 + 1
    bits = 8 * width
    acc = 0
    above = 0  # the packed polynomial of the outcomes above v
    below = sum(w for _, w in items)
    first = n - keep + 1
    for x, w in reversed(items):
        below -= w
        shift = bits * (x - low)
        power = 1  # above ** j
        powers = {w + below: (w + below) ** first, below: below**first}
        tails = _tail_ways(w + below, below, w, powers, n, keep)
        for j in range(keep):
            if j:
                if not above:
                    break
                power *= above
            need = keep - j
            ways = tails[j]
            if ways:
                acc += (comb(n, j) * ways * power) << (shift * need)
        above += w << shift
    base = keep * low
    return {base + i: c for i, c in enumerate(_unpack(acc, keep * span + 1, width)) if c}


def keep_lowest(d: Distribution[int], n: int, keep: int) -> Distribution[int]:
    """The sum of the ``keep`` lowest of ``n`` independent rolls of ``d``."""
    if keep == 1 and n > 1:
        _require_ordered(d)
        return Distribution._raw(_lowest(list(d._weights.items()), n), d._total**n, ordered=True)
    return -keep_highest(-d, n, keep)


def order_statistic(d: Distribution[T], n: int, rank: int) -> Distribution[T]:
    """The ``rank``-th highest (1 = highest) of ``n`` independent rolls of ``d``.

    With ``F`` the weight at or below ``v``, the ``rank``-th highest is at most
    ``v`` exactly when at least ``n - rank + 1`` rolls are: a binomial tail,
    which is a polynomial in ``F``. Each outcome's weight is the difference of
    consecutive tails. The highest and the lowest take :func:`_highest` and
    :func:`_lowest`.
    """
    if not 1 <= rank <= n:
        raise _dice_error(f"rank {rank} is outside 1..{n}")
    _require_ordered(d)
    if rank == 1 or rank == n:
        items = list(d._weights.items())
        ends = _highest(items, n) if rank == 1 else _lowest(items, n)
        return Distribution._raw(ends, d._total**n, ordered=True)
    total = d._total
    if n == 3 and _is_fair_die(d):  # the median of three, written out
        return cast("Distribution[T]", order_of_dice(3, total, 2))
    need = n - rank + 1
    # The tail sum(C(n,j) F**j (T-F)**(n-j), j >= need) is a polynomial in F:
    # F**need * sum(a[k] F**(k-need)) with a[k] = (-1)**(k-need) C(n,k)
    # C(k-1,need-1) T**(n-k), evaluated by Horner's rule (small-by-big steps).
    coefficients = [
        (-1) ** (k - need) * comb(n, k) * comb(k - 1, need - 1) * total ** (n - k)
        for k in range(n, need - 1, -1)
    ]
    out: dict[T, int] = {}
    previous = 0
    f = 0
    for v, w in d._weights.items():
        f += w
        value = 0
        for a in coefficients:
            value = value * f + a
        tail = value * f**need
        if tail != previous:
            out[v] = tail - previous
        previous = tail
    return Distribution._raw(out, total**n, ordered=True)  # in the input's (sorted) order


def _is_fair_die(d: Distribution[Any]) -> bool:
    """Whether ``d`` is a fair die numbered ``1..sides`` (every weight 1, the
    outcomes the integers 1 to the number of them)."""
    weights = d._weights
    total = d._total
    if total != len(weights):  # positive weights adding up to their number: all 1
        return False
    first = next(iter(weights))
    return type(first) is int and min(weights) == 1 and max(weights) == total


def median_of(d: Distribution[T], n: int) -> Distribution[T]:
    """The middle roll of an odd number ``n`` of independent rolls of ``d``."""
    if n < 1 or n % 2 == 0:
        raise _dice_error(f"the median needs an odd number of dice, not {n}")
    return order_statistic(d, n, (n + 1) // 2)


def median_of_dice(n: int, sides: int, shift: int = 0) -> Distribution[int]:
    """The middle die of an odd number ``n`` of fair dice, plus ``shift``
    (:func:`median_of` on a die, by :func:`order_of_dice`)."""
    if n < 1 or n % 2 == 0:
        raise _dice_error(f"the median needs an odd number of dice, not {n}")
    return order_of_dice(n, sides, (n + 1) // 2, shift)


def count_successes(
    d: Distribution[T], n: int, predicate: Callable[[T], bool]
) -> Distribution[int]:
    """How many of ``n`` independent rolls of ``d`` satisfy ``predicate`` (binomial counts)."""
    p = sum(w for o, w in d._weights.items() if predicate(o))
    q = d._total - p
    out = {k: comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)}
    return Distribution._raw({k: w for k, w in out.items() if w}, d._total**n, ordered=True)


def count_of_dice(n: int, sides: int, op: str, target: int) -> Distribution[int]:
    """How many of ``n`` fair dice show a face ``op`` ``target`` (``>=``, ``<=``, ``>``,
    ``<``, ``=``): :func:`count_successes` on a die, the faces counted by arithmetic
    and each binomial term from the one before (:func:`count_row`)."""
    if n < 0 or sides < 1:
        raise _dice_error(f"cannot roll {n}d{sides}")
    return from_row(0, count_row(n, sides, op, target), sides**n)


def count_row(n: int, sides: int, op: str, target: int) -> list[int]:
    """The ways ``0, 1, ..., n`` of ``n`` fair dice show a face ``op`` ``target``.

    :func:`count_of_dice` as a row of weights (:func:`dense_row`): binomial terms
    ``C(n, k) hits**k misses**(n-k)``, each from the one before; a row with
    zeros when every face counts or none does.
    """
    if op == ">=":
        hits = sides - max(target, 1) + 1
    elif op == ">":
        hits = sides - max(target + 1, 1) + 1
    elif op == "<=":
        hits = min(target, sides)
    elif op == "<":
        hits = min(target - 1, sides)
    elif op == "=":
        hits = 1 if 1 <= target <= sides else 0
    else:
        raise _dice_error(f"unknown comparison {op!r}")
    hits = max(hits, 0)
    return binomial_row(n, hits, sides - hits)


def binomial_row(n: int, hits: int, misses: int) -> list[int]:
    """``C(n, k) hits**k misses**(n-k)`` for ``k = 0..n``: the ways ``k`` of ``n`` dice
    land among ``hits`` of ``hits + misses`` equally weighted faces, each term from the
    one before (a row with zeros when every face hits or none does)."""
    if not hits or not misses:
        row = [0] * (n + 1)
        row[n if hits else 0] = (hits + misses) ** n
        return row
    row = []
    w = misses**n
    for k in range(n + 1):
        row.append(w)
        w = w * (n - k) * hits // ((k + 1) * misses)
    return row


def joint(*dists: Distribution[Any]) -> Distribution[tuple[Any, ...]]:
    """The joint distribution of independent variables, as tuples of outcomes."""
    result: Distribution[tuple[Any, ...]] = Distribution._raw({(): 1}, 1)
    for d in dists:
        result = result.combine(d, lambda t, x: (*t, x))
    return result


def fraction_text(p: Fraction) -> str:
    """A probability as ``"num/den"`` in lowest terms (``"1/1"``, ``"0/1"`` included)."""
    return f"{p.numerator}/{p.denominator}"


def ratio_text(numerator: int, denominator: int) -> str:
    """``fraction_text(Fraction(numerator, denominator))`` without importing
    :mod:`fractions` (and :mod:`decimal` with it): a command that prints odds as JSON
    needs no Fraction. ``denominator`` is positive (a total weight)."""
    g = gcd(numerator, denominator)
    return f"{numerator // g}/{denominator // g}"
