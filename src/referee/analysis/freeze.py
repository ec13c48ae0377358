"""A hashable key for a game's state, so an exact chain can tell two states apart.

Game states are frozen dataclasses, but they hold mappings (the characters by id)
and a sheet each. :func:`freeze` turns any such value into nested tuples; a
character's sheet is keyed by identity (sheets do not change in a fight, and a
change to one makes a new object, so identity is a safe, cheap key).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

_SHEETS = ("sheet",)
"""Field names whose values are keyed by identity (large, unchanged records)."""


def freeze(value: Any) -> Hashable:
    """``value`` as a hashable key: dataclasses and mappings become sorted tuples."""
    if value is None or isinstance(value, bool | int | str | float):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        parts: list[Hashable] = [type(value).__name__]
        for f in fields(value):
            item = getattr(value, f.name)
            parts.append(("id", id(item)) if f.name in _SHEETS else freeze(item))
        return tuple(parts)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, set | frozenset):
        return tuple(sorted(freeze(v) for v in value))  # type: ignore[type-var]
    if isinstance(value, Hashable):
        return value
    raise TypeError(f"cannot key a {type(value).__name__} value")
