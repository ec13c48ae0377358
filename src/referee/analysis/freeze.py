"""A hashable key for a game's state, so an exact chain can tell two states apart.

Game states are frozen dataclasses, but they hold mappings (the characters by id)
and a sheet each. :func:`freeze` turns any such value into nested tuples. A sheet
is large and, in most games, never changes in a fight; Mneme CE keeps the damage
on it, so every hit makes a new sheet object. Sheets are therefore keyed by value,
once per object: ``sheets`` (one per chain) remembers each sheet object's key
(and holds the object, so its identity is never reused).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

_SHEETS = ("sheet",)
"""Field names whose values are keyed once per object."""

SheetKeys = dict[int, tuple[object, Hashable]]


def freeze(value: Any, sheets: SheetKeys | None = None) -> Hashable:
    """``value`` as a hashable key: dataclasses and mappings become sorted tuples."""
    if value is None or isinstance(value, bool | int | str | float):
        return value
    if is_dataclass(value) and not isinstance(value, type):
        parts: list[Hashable] = [type(value).__name__]
        for f in fields(value):
            item = getattr(value, f.name)
            if f.name in _SHEETS and sheets is not None:
                found = sheets.get(id(item))
                if found is None:
                    found = (item, freeze(item, sheets))
                    sheets[id(item)] = found
                parts.append(found[1])
            else:
                parts.append(freeze(item, sheets))
        return tuple(parts)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), freeze(v, sheets)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(freeze(v, sheets) for v in value)
    if isinstance(value, set | frozenset):
        return tuple(sorted(freeze(v, sheets) for v in value))  # type: ignore[type-var]
    if isinstance(value, Hashable):
        return value
    raise TypeError(f"cannot key a {type(value).__name__} value")
