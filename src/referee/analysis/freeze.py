"""A hashable key for a game's state, so an exact chain can tell two states apart.

Game states are frozen dataclasses, but they hold mappings (the characters by id)
and a sheet each. :func:`freeze` turns any such value into nested tuples. A sheet
is large and, in most games, never changes in a fight; Mneme CE keeps the damage
on it, so every hit makes a new sheet object. Records (frozen dataclasses: seats,
sheets, decisions) are therefore keyed by value once per object: ``sheets`` (one
per chain) remembers each record object's key and holds the object, so its
identity is never reused. Game records are immutable (rules are pure), so a
record's key never goes stale.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

SheetKeys = dict[int, tuple[object, Hashable]]

_ATOMS = frozenset({type(None), bool, int, str, float})
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _names(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type (``None``: not a dataclass), looked up once."""
    try:
        return _FIELDS[kind]
    except KeyError:
        found = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else None
        _FIELDS[kind] = found
        return found


def _record(value: Any, names: tuple[str, ...], sheets: SheetKeys | None) -> Hashable:
    return (type(value).__name__, *[freeze(getattr(value, n), sheets) for n in names])


def freeze(value: Any, sheets: SheetKeys | None = None) -> Hashable:
    """``value`` as a hashable key: dataclasses and mappings become sorted tuples (a
    record is ``(type name, *field keys)``, its fields in declared order)."""
    kind = type(value)
    if kind in _ATOMS:
        atom: Hashable = value
        return atom
    names = _names(kind)
    if names is not None:
        if sheets is not None:
            found = sheets.get(id(value))
            if found is None:
                found = (value, _record(value, names, sheets))
                sheets[id(value)] = found
            return found[1]
        return _record(value, names, sheets)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), freeze(v, sheets)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple([freeze(v, sheets) for v in value])
    if isinstance(value, set | frozenset):
        return tuple(sorted(freeze(v, sheets) for v in value))  # type: ignore[type-var]
    if isinstance(value, Hashable):
        return value
    raise TypeError(f"cannot key a {type(value).__name__} value")
