"""Powers of big integers on GMP, when the optional ``gmpy2`` is installed.

The highest of many big dice is a list of powers ``x**n`` of thousands of bits
(``1000d1000kh1``: a thousand of 10,000 bits), and raising them is nearly all
of its time. CPython multiplies such numbers with Karatsuba on 30-bit digits;
GMP, reached through ``gmpy2`` (the ``fast`` extra: ``pip install
referee[fast]``), does the same powers about ten times quicker. The numbers
handed back are always plain Python ``int``: GMP's are converted as they
leave, so nothing outside the dice core ever sees another integer type.

Without ``gmpy2`` every caller falls back to CPython's own ``pow``, with the
same results (the tests compare both paths with a brute force). Converting a
number to GMP and back costs more than it saves below about a thousand bits,
so the callers ask :func:`worth_it` first.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from itertools import repeat

GMP_FROM_BITS = 1200
"""From this size of the largest power (in bits), GMP's powers pay for the
conversions to and from it (measured: ``Nd1000kh1`` breaks even near N = 100,
1,000 bits, and is 1.2x quicker at 1,500 bits and 2.5x at 10,000)."""

enabled = True
"""Whether GMP is used when installed (the tests turn it off to check the
pure-Python path on the same cases)."""

_mpz: Callable[[int], int] | None = None
_looked = False


def gmp() -> Callable[[int], int] | None:
    """``gmpy2.mpz``, imported on first use, or None if gmpy2 is not installed
    (or :data:`enabled` is off). Typed as a map to int: an ``mpz`` takes part in
    arithmetic like one, and every caller converts it back with ``int``."""
    global _mpz, _looked
    if not enabled:
        return None
    if not _looked:
        _looked = True
        try:
            _mpz = importlib.import_module("gmpy2").mpz
        except ImportError:
            _mpz = None
    return _mpz


def backend() -> str:
    """What raises the big powers: ``"GMP <version> (gmpy2 <version>)"`` or
    ``"CPython"`` (the bench records it beside its figures)."""
    if gmp() is None:
        return "CPython"
    gmpy2 = importlib.import_module("gmpy2")
    return f"{gmpy2.mp_version()} (gmpy2 {gmpy2.version()})"


def worth_it(bits: int) -> bool:
    """Whether powers of about ``bits`` bits are quicker on GMP (and it is there)."""
    return bits >= GMP_FROM_BITS and gmp() is not None


def powers(bases: Iterable[int], n: int) -> list[int]:
    """``[b**n for b in bases]`` as Python ints, raised on GMP if installed."""
    mpz = gmp()
    if mpz is None:
        return list(map(pow, bases, repeat(n)))
    return list(map(int, map(pow, map(mpz, bases), repeat(n))))


def power(base: int, n: int) -> int:
    """``base**n`` as a Python int, raised on GMP if installed."""
    mpz = gmp()
    return pow(base, n) if mpz is None else int(pow(mpz(base), n))
