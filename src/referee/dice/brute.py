"""Brute-force enumeration: the independent check on every exact method.

Enumerates every sequence of faces for small dice groups. It is exponential on
purpose: tests compare it with the polynomial methods in
:mod:`referee.dice.odds` and with each game's odds.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import product
from typing import TypeVar

from referee.dice.odds import Distribution

S = TypeVar("S", bound=Hashable)

MAX_SEQUENCES = 3_000_000


def all_faces(groups: Sequence[tuple[int, int]]) -> list[tuple[int, ...]]:
    """Every face sequence for ``(count, sides)`` groups, in rolling order."""
    ranges = [range(1, sides + 1) for count, sides in groups for _ in range(count)]
    size = 1
    for r in ranges:
        size *= len(r)
    if size > MAX_SEQUENCES:
        raise ValueError(f"{size} sequences is too many to enumerate")
    return list(product(*ranges))


def brute_force(
    groups: Sequence[tuple[int, int]], read: Callable[[tuple[int, ...]], S]
) -> Distribution[S]:
    """The distribution of ``read(faces)`` over every equally likely face sequence."""
    return Distribution.of(read(f) for f in all_faces(groups))
