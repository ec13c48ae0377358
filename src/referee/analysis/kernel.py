"""The simulator's check kernel: many independent draws of one check, from the game's
exact odds, with numpy.

A check's exact distribution has integer weights over a total (36 for 2d6, 6^n for a
pool). :class:`CheckSampler` lays the outcomes out in a lookup table with one slot per
unit of weight and draws uniform integers below the total: every draw is exactly
distributed as the game's odds (no float rounding), and one draw is one small
integer and one table read. Totals too large for a table fall back to one uniform
float and a ``searchsorted`` over the cumulative weights. Draws run in fixed-size
chunks, so memory stays flat however many checks are asked for; nothing is
recorded per die.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from referee.dice.odds import Distribution

H = TypeVar("H", bound=Hashable)

TABLE_LIMIT = 1 << 20
"""The largest total weight laid out as a lookup table."""
CHUNK = 1 << 20
"""Draws made at once."""


class CheckSampler(Generic[H]):
    """Draws of one check's outcome (indices into :attr:`outcomes`)."""

    def __init__(self, dist: Distribution[H]) -> None:
        self.outcomes: tuple[H, ...] = dist.outcomes()
        weights = [dist.weight(o) for o in self.outcomes]
        self.total = dist.total
        self._lut: NDArray[np.int32] | None = None
        self._cum: NDArray[np.float64] | None = None
        if self.total <= TABLE_LIMIT:
            self._lut = np.repeat(np.arange(len(weights), dtype=np.int32), weights)
        else:
            acc = np.cumsum(np.asarray([float(w) for w in weights]))
            self._cum = acc / acc[-1]

    def draw(self, n: int, rng: np.random.Generator) -> NDArray[np.int32]:
        """``n`` outcome indices."""
        if self._lut is not None:
            kind = np.uint8 if self.total <= 256 else np.uint32
            picks = rng.integers(0, self.total, size=n, dtype=kind)
            drawn: NDArray[np.int32] = self._lut[picks]
            return drawn
        assert self._cum is not None
        found = np.searchsorted(self._cum, rng.random(n), side="right")
        return np.minimum(found, len(self.outcomes) - 1).astype(np.int32)

    def counts(self, n: int, rng: np.random.Generator, chunk: int = CHUNK) -> NDArray[np.int64]:
        """How often each outcome came up in ``n`` draws (chunked: flat memory)."""
        out = np.zeros(len(self.outcomes), dtype=np.int64)
        left = n
        while left > 0:
            size = min(chunk, left)
            out += np.bincount(self.draw(size, rng), minlength=len(self.outcomes))
            left -= size
        return out
