"""Game-agnostic helpers written for Mneme CE that belong in ``referee.dice`` (for the lead).

:func:`keep_highest_sum` computes the same distribution as
:func:`referee.dice.odds.keep_highest` (the sum of the ``keep`` highest of ``n``
independent rolls of an integer distribution) several times faster, by doing
all polynomial arithmetic as single big-integer multiplications (Kronecker
substitution): a polynomial with non-negative integer coefficients is packed
into one integer with a fixed number of bits per coefficient, so Python's C
multiplication does the convolutions.
"""

from __future__ import annotations

from math import comb

from referee.dice.odds import Distribution
from referee.errors import OddsTooComplex

MAX_WORK = 500_000_000
"""Estimated bit-operations budget (about a second); beyond it :class:`OddsTooComplex`."""


def _unpack(packed: int, slots: int, width_bytes: int) -> list[int]:
    """Coefficients of a packed polynomial (lowest degree first)."""
    raw = packed.to_bytes(slots * width_bytes, "little")
    return [
        int.from_bytes(raw[i * width_bytes : (i + 1) * width_bytes], "little") for i in range(slots)
    ]


def keep_highest_sum(d: Distribution[int], n: int, keep: int) -> Distribution[int]:
    """The sum of the ``keep`` highest of ``n`` independent rolls of ``d``.

    Conditions on the smallest kept value ``v``: ``j < keep`` rolls lie above it
    (their sum is the ``j``-th power of the polynomial of the outcomes above
    ``v``), at least ``keep - j`` rolls equal ``v`` and the rest lie below.
    """
    if not 0 <= keep <= n:
        raise ValueError(f"cannot keep {keep} of {n} rolls")
    total = d.total**n
    if keep == 0:
        return Distribution({0: total})
    items = list(d.items())  # ascending outcomes
    low = items[0][0]
    span = items[-1][0] - low
    width_bytes = (total.bit_length() + 8) // 8 + 1
    bits = 8 * width_bytes
    slots = keep * span + 1
    work = slots * bits * (n if keep == n else len(items) * keep)
    if work > MAX_WORK:
        raise OddsTooComplex(
            f"keeping {keep} of {n} rolls over {len(items)} outcomes is too much work "
            "for exact odds; use fewer rolls"
        )
    if keep == n:
        poly = 0
        for x, w in items:
            poly |= w << (bits * (x - low))
        coeffs = _unpack(poly**n, slots, width_bytes)
    else:
        acc = 0
        above = 0  # packed polynomial of the outcomes above v
        below = d.total
        binom = [[comb(r, e) for e in range(r + 1)] for r in range(n + 1)]
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
                # P(at least `need` of `rest` rolls equal x, the others below x), as weights
                row = binom[rest]
                scalar = (w + below) ** rest - sum(
                    row[e] * w**e * below ** (rest - e) for e in range(need)
                )
                if scalar:
                    acc += (binom[n][j] * scalar * power) << (shift * need)
            above += w << shift
        coeffs = _unpack(acc, slots, width_bytes)
    base = keep * low
    return Distribution({base + i: c for i, c in enumerate(coeffs) if c})
