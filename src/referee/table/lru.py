"""A dictionary that keeps its most recently used entries, up to a number.

The service caches every table it folds (and each participant's view of it); on
a server open to anyone those caches must not grow with every table ever made.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    """At most ``size`` entries; reading or writing one makes it the newest, and the
    oldest goes when a new one would pass the size. Not locked: its owner locks."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"an LRU holds at least one entry, not {size}")
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The entry under ``key`` (now the newest), or None."""
        value = self._data.get(key)
        if value is not None:
            self._data.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.size:
            self._data.popitem(last=False)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def pop(self, key: K, default: V | None = None) -> V | None:
        """Remove and return the entry under ``key`` (``default`` if there is none)."""
        return self._data.pop(key, default)
