"""Big powers on GMP (the optional gmpy2) and on CPython give the same odds.

Every path that raises the powers of the highest or lowest roll, and of keep-k's
tails, is checked on both backends against an enumeration of every roll written
here (itertools.product, take the maximum or the kept dice, count). On small
dice the GMP path is forced by lowering the size from which it is used to zero;
on big dice the two backends are compared with each other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import product
from math import prod

import pytest

from referee.dice import bigint
from referee.dice.evaluate import odds
from referee.dice.odds import (
    Distribution,
    extreme_of_dice,
    keep_highest,
    keep_lowest,
    order_statistic,
)


@pytest.fixture(params=["gmp", "cpython", "no-gmpy2"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each backend in turn, GMP taken for powers of any size; ``no-gmpy2`` is
    the dice core as it runs where gmpy2 is not installed at all."""
    if request.param == "gmp":
        pytest.importorskip("gmpy2", reason="the fast extra (gmpy2) is not installed")
        monkeypatch.setattr(bigint, "GMP_FROM_BITS", 0)
    elif request.param == "cpython":
        monkeypatch.setattr(bigint, "enabled", False)
    else:
        monkeypatch.setattr(bigint, "_looked", True)
        monkeypatch.setattr(bigint, "_mpz", None)
    yield request.param


def _enumerate(
    faces: dict[int, int], n: int, read: str, keep: int = 1
) -> tuple[dict[int, int], int]:
    """Every roll of ``n`` dice with these face weights: the sum of the ``keep``
    highest (``read == "kh"``) or lowest (``"kl"``), weighted by the product of
    the faces' weights."""
    counts: Counter[int] = Counter()
    for roll in product(faces, repeat=n):
        ordered = sorted(roll, reverse=read == "kh")
        counts[sum(ordered[:keep])] += prod(faces[f] for f in roll)
    return dict(counts), sum(faces.values()) ** n


def _exact(d: Distribution[int]) -> tuple[dict[int, int], int]:
    return dict(d.items()), d.total


FAIR = [(1, 6), (2, 6), (3, 5), (4, 6), (5, 3), (3, 12), (6, 4), (2, 30), (7, 2)]


@pytest.mark.parametrize(("n", "sides"), FAIR)
def test_highest_and_lowest_of_fair_dice_match_enumeration(
    backend: str, n: int, sides: int
) -> None:
    die = {f: 1 for f in range(1, sides + 1)}
    assert _exact(extreme_of_dice(n, sides)) == _enumerate(die, n, "kh")
    assert _exact(extreme_of_dice(n, sides, highest=False)) == _enumerate(die, n, "kl")
    assert _exact(odds(f"{n}d{sides}kh1")) == _enumerate(die, n, "kh")
    assert _exact(keep_highest(Distribution.die(sides), n, 1)) == _enumerate(die, n, "kh")
    assert _exact(keep_lowest(Distribution.die(sides), n, 1)) == _enumerate(die, n, "kl")


UNEVEN = [{1: 3, 2: 5, 4: 1, 7: 8}, {-2: 2, 0: 6, 3: 4}, {5: 7}, {1: 1, 2: 2, 3: 4, 10: 8}]


@pytest.mark.parametrize("faces", UNEVEN)
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_highest_and_lowest_of_uneven_dice_match_enumeration(
    backend: str, faces: dict[int, int], n: int
) -> None:
    d = Distribution(faces)
    assert _exact(keep_highest(d, n, 1)) == _enumerate(faces, n, "kh")
    assert _exact(keep_lowest(d, n, 1)) == _enumerate(faces, n, "kl")


@pytest.mark.parametrize(("n", "sides", "keep"), [(3, 6, 2), (4, 6, 3), (5, 4, 2), (4, 8, 2)])
def test_keep_k_matches_enumeration(backend: str, n: int, sides: int, keep: int) -> None:
    die = {f: 1 for f in range(1, sides + 1)}
    assert _exact(keep_highest(Distribution.die(sides), n, keep)) == _enumerate(die, n, "kh", keep)
    assert _exact(keep_lowest(Distribution.die(sides), n, keep)) == _enumerate(die, n, "kl", keep)


def test_the_median_of_three_d12_matches_enumeration(backend: str) -> None:
    counts = Counter(sorted(r)[1] for r in product(range(1, 13), repeat=3))
    assert _exact(order_statistic(Distribution.die(12), 3, 2)) == (dict(counts), 12**3)


@pytest.mark.parametrize(("n", "sides"), [(1000, 1000), (300, 997), (2000, 6), (150, 1000)])
def test_gmp_and_cpython_agree_on_big_dice(
    monkeypatch: pytest.MonkeyPatch, n: int, sides: int
) -> None:
    pytest.importorskip("gmpy2", reason="the fast extra (gmpy2) is not installed")
    assert bigint.worth_it(n * sides.bit_length())
    fast = extreme_of_dice(n, sides), extreme_of_dice(n, sides, highest=False)
    uneven = Distribution({1: 3, 2: 5, 4: 1, 7: 8, 9: 2})
    fast_uneven = keep_highest(uneven, n, 1), keep_lowest(uneven, n, 1)
    monkeypatch.setattr(bigint, "enabled", False)
    assert (extreme_of_dice(n, sides), extreme_of_dice(n, sides, highest=False)) == fast
    assert (keep_highest(uneven, n, 1), keep_lowest(uneven, n, 1)) == fast_uneven
    highest = extreme_of_dice(n, sides)
    assert highest.total == sides**n
    assert highest.weight(sides) == sides**n - (sides - 1) ** n
    assert all(type(w) is int for _, w in highest.items())  # never a gmpy2 number


def test_powers_are_python_ints_on_either_backend(backend: str) -> None:
    got = bigint.powers([3, 10, 2**40 + 1], 50)
    assert got == [3**50, 10**50, (2**40 + 1) ** 50]
    assert {type(p) for p in got} == {int}
    assert bigint.power(7, 300) == 7**300
    assert type(bigint.power(7, 300)) is int


def test_the_backend_is_named(backend: str) -> None:
    name = bigint.backend()
    assert name.startswith("GMP") if backend == "gmp" else name == "CPython"
    if backend != "gmp":
        assert not bigint.worth_it(10**6)


def test_gmpy2_is_imported_only_for_big_powers() -> None:
    import subprocess
    import sys

    code = (
        "import sys, referee.dice as d; d.odds('3d12med+5'); d.odds('100d100kh1'); "
        "small = 'gmpy2' in sys.modules; d.odds('300d1000kh1'); "
        "print(small, 'gmpy2' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    try:
        import gmpy2  # noqa: F401
    except ImportError:
        assert out.stdout.split() == ["False", "False"]
    else:
        assert out.stdout.split() == ["False", "True"]
