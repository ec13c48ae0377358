"""A hashable key for a game's state, so an exact chain can tell two states apart.

Game states are frozen dataclasses, but they hold mappings (the characters by id)
and a sheet each. :func:`freeze` turns any such value into nested tuples. A sheet
is large and, in most games, never changes in a fight; Mneme CE keeps the damage
on it, so every hit makes a new sheet object. Records (frozen dataclasses: seats,
sheets, decisions) are therefore keyed by value once per object: ``sheets`` (one
per chain, a :class:`SheetKeys`) remembers each record object's key and holds the
object, so its identity is never reused. Game records are immutable (rules are
pure), so a record's key never goes stale.

With ``sheets``, a record *inside* the value is keyed by a small number: equal
records (by value) get the same number, so a state's key is a short tuple, quick to
hash and compare, however large its sheets.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import fields, is_dataclass
from operator import attrgetter
from typing import Any


class SheetKeys:
    """The keys of one chain's records: by object (``id``: the object, its key, its
    number), the numbers of the keys met so far, and the keys of the containers inside
    records, by object (``id``: the object, its key)."""

    __slots__ = ("by_id", "containers", "numbers")

    def __init__(self) -> None:
        self.by_id: dict[int, tuple[object, Hashable, int]] = {}
        self.numbers: dict[Hashable, int] = {}
        self.containers: dict[int, tuple[object, Hashable]] = {}

    def entry(self, value: Any, names: tuple[str, ...]) -> tuple[object, Hashable, int]:
        """``value``'s key and number, worked out once per object."""
        found = self.by_id.get(id(value))
        if found is None:
            kind = type(value)
            got = _getter(kind, names)(value)
            key = (kind.__name__, *[v if type(v) in _ATOMS else _inner(v, self) for v in got])
            number = self.numbers.setdefault(key, len(self.numbers))
            found = (value, key, number)
            self.by_id[id(value)] = found
        return found


ATOMS = frozenset({type(None), bool, int, str, float})
"""The types a key holds as they are."""
_ATOMS = ATOMS
_FIELDS: dict[type, tuple[str, ...] | None] = {}


_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def _getter(kind: type, names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function reading the fields ``names`` of a ``kind`` record at once, as a tuple."""
    found = _GETTERS.get(kind)
    if found is None:
        if len(names) == 1:
            one = attrgetter(names[0])
            found = lambda value: (one(value),)  # noqa: E731
        elif names:
            found = attrgetter(*names)
        else:
            found = lambda _value: ()  # noqa: E731
        _GETTERS[kind] = found
    return found


def record_fields(kind: type) -> tuple[str, ...] | None:
    """The field names of a dataclass type (``None``: not a dataclass), looked up once."""
    try:
        return _FIELDS[kind]
    except KeyError:
        found = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else None
        _FIELDS[kind] = found
        return found


def freeze(value: Any, sheets: SheetKeys | None = None) -> Hashable:
    """``value`` as a hashable key: dataclasses and mappings become sorted tuples (a
    record is ``(type name, *field keys)``, its fields in declared order). With
    ``sheets``, the records inside ``value`` are keyed by their numbers."""
    kind = type(value)
    if kind in _ATOMS:
        atom: Hashable = value
        return atom
    names = record_fields(kind)
    if names is not None:
        if sheets is not None:
            return sheets.entry(value, names)[1]
        return (kind.__name__, *[freeze(getattr(value, n)) for n in names])
    return _container(value, sheets)


def _inner(value: Any, sheets: SheetKeys) -> Hashable:
    """A value inside a record: a record by its number; a container (a sheet's table of
    skills, its list of weapons) keyed once per object, as a record is (a new record
    made by ``replace`` shares its unchanged containers with the old one)."""
    kind = type(value)
    if kind in _ATOMS:
        atom: Hashable = value
        return atom
    names = record_fields(kind)
    if names is not None:
        return sheets.entry(value, names)[2]
    found = sheets.containers.get(id(value))
    if found is None:
        found = (value, _container(value, sheets))
        sheets.containers[id(value)] = found
    return found[1]


def _container(value: Any, sheets: SheetKeys | None) -> Hashable:
    kind = type(value)
    if sheets is not None and (kind is dict or kind is tuple):  # a state's own, at once
        if kind is tuple:
            return tuple([v if type(v) in _ATOMS else _inner(v, sheets) for v in value])
        pairs = [(str(k), v if type(v) in _ATOMS else _inner(v, sheets)) for k, v in value.items()]
        pairs.sort()
        return tuple(pairs)

    def key(v: Any) -> Hashable:
        return freeze(v) if sheets is None else _inner(v, sheets)

    if isinstance(value, Mapping):
        return tuple(sorted((str(k), key(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple([key(v) for v in value])
    if isinstance(value, set | frozenset):
        return tuple(sorted(key(v) for v in value))  # type: ignore[type-var]
    if isinstance(value, Hashable):
        return value
    raise TypeError(f"cannot key a {type(value).__name__} value")
