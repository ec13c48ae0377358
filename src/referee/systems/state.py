"""What a table tracks, and how an outcome's changes are folded into it.

Every game's state is a frozen dataclass derived from :class:`GameState`: the
characters by id (each game's own record of a seated character: the sheet and
what the rules track about it) and whatever the game tracks for the whole
table (Mnemonic's deck, Mongrel's order, Mneme CE's clock). ``pending`` lists
the decisions the rules wait for (a Mongrel player choosing whether to spend
Infernal Resolve against a terminal hit).

:func:`apply_changes` is the one way a state changes: each
:class:`~referee.systems.outcome.Change` names a character id or ``"table"``
and a dotted field path (a segment is a field, a mapping's key, or a tuple's index);
a ``delta`` adds to a number, a ``value`` (JSON) is
converted to the field's declared type and replaces it. It is pure: it
returns a new state.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import cache
from operator import attrgetter
from typing import Any, Final, Generic, Literal, Protocol, TypeVar

from referee.errors import RulesError
from referee.systems.outcome import TABLE, Change, JSONValue
from referee.systems.records import param


class Named(Protocol):
    """A record with a name (every game's sheet: what a page and a recap call it)."""

    @property
    def name(self) -> str: ...


SheetC = TypeVar("SheetC", bound=Named, covariant=True)


class Seated(Protocol[SheetC]):
    """A seated character's record (every game's ``Seat``): its sheet, plus whatever the
    rules track about it at the table."""

    @property
    def sheet(self) -> SheetC: ...


C = TypeVar("C", bound=Seated[Named], covariant=True)
StateT = TypeVar("StateT", bound="GameState[Any]")


@dataclass(frozen=True)
class Decision:
    """A choice the rules wait for: ``actor`` (a character id) answers with one of the
    action names in ``choices``; ``prompt`` says what is being decided.

    ``holds`` says what waits for it: ``table`` - the actions that depend on it, and the
    table's time (a defence: nothing moves on past an attack in the air); ``actor`` -
    only its own character's other actions (a roll held for its roller's push decision:
    everyone else acts, and time advances)."""

    actor: str
    prompt: str
    choices: tuple[str, ...]
    holds: Literal["table", "actor"] = "table"


@dataclass(frozen=True)
class GameState(Generic[C]):
    """The base of every game's table state (see the module text): each seated record
    (``C``) is :class:`Seated`, a sheet with what the table tracks about it."""

    characters: Mapping[str, C] = param(factory=dict, doc="the seated characters by id")
    pending: tuple[Decision, ...] = param((), doc="decisions the rules wait for")

    def __init_subclass__(cls, **kwargs: object) -> None:
        """``class State(GameState[Seat])`` declares ``characters: Mapping[str, Seat]``
        itself, so loading a snapshot builds ``Seat`` records (a type variable would
        load as plain dicts)."""
        super().__init_subclass__(**kwargs)
        own = dict(inspect.get_annotations(cls))
        for base in cls.__dict__.get("__orig_bases__", ()):
            if typing.get_origin(base) is GameState and "characters" not in own:
                (record,) = typing.get_args(base)
                declared: object = Mapping[str, record]  # type: ignore[valid-type]
                cls.__annotations__ = {"characters": declared, **own}
                cls.characters = param(factory=dict, doc="the seated characters by id")

    def character(self, cid: str) -> C:
        """The character ``cid``; :class:`IllegalAction` naming the ids at the table."""
        from referee.errors import IllegalAction

        try:
            return self.characters[cid]
        except KeyError:
            known = ", ".join(self.characters) or "none"
            raise IllegalAction(f"no character {cid!r} at this table; known: {known}") from None


@cache
def _hints(cls: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _adapter(hint: Any) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(hint)


def _convert(value: JSONValue, hint: Any, where: str) -> object:
    from pydantic import ValidationError

    try:
        return _adapter(hint).validate_python(value)
    except ValidationError as e:
        first = e.errors(include_url=False)[0]
        raise RulesError(f"{where}: {first['msg']} (value {value!r})") from None


def _optional_inner(hint: Any) -> Any:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return hint


_SHAPES: dict[type, int] = {}
"""How :func:`_change_at` walks into a node of each type (see :func:`_shape`)."""
_MAPPING, _TUPLE, _RECORD, _OTHER = range(4)
_INNER: dict[Any, tuple[Any, Any, Any]] = {}
"""Per declared type: its optional's inner type, a mapping's value type, a tuple's item
type (read once per type: a chain applies changes by the thousand)."""
_PLAIN: Final = (int, str, float, bool)
"""Declared types a value of exactly that type converts to unchanged."""


def _shape(kind: type) -> int:
    """Whether nodes of type ``kind`` are mappings, tuples, records or other (in the
    order :func:`_change_at` tries them), found once per type."""
    found = _SHAPES.get(kind)
    if found is None:
        if issubclass(kind, Mapping):
            found = _MAPPING
        elif issubclass(kind, tuple):
            found = _TUPLE
        elif is_dataclass(kind):
            found = _RECORD
        else:
            found = _OTHER
        _SHAPES[kind] = found
    return found


def _inner(hint: Any) -> tuple[Any, Any, Any]:
    """``hint``'s optional's inner type, and that type's mapping value and tuple item
    types (``Any`` where it declares none)."""
    try:
        return _INNER[hint]
    except KeyError:
        pass
    except TypeError:  # an unhashable hint: worked out each time
        return _inner_of(hint)
    found = _INNER[hint] = _inner_of(hint)
    return found


def _inner_of(hint: Any) -> tuple[Any, Any, Any]:
    inner = _optional_inner(hint)
    args = typing.get_args(inner)
    return inner, args[1] if len(args) == 2 else Any, args[0] if args else Any


@cache
def _names(kind: type) -> frozenset[str]:
    return frozenset(f.name for f in fields(kind))


def _change_at(node: object, hint: Any, path: list[str], change: Change, where: str) -> object:
    """``node`` (of declared type ``hint``) with ``change`` applied at ``path``."""
    if not path:
        if change.delta is None:
            value = change.value
            if type(value) is hint and hint in _PLAIN:  # already what it converts to
                return value
            return _convert(value, hint, where)
        if not isinstance(node, int) or isinstance(node, bool):
            raise RulesError(f"{where}: cannot add {change.delta} to {node!r}")
        return node + change.delta
    key, rest = path[0], path[1:]
    kind: type = type(node)
    shape = _shape(kind)
    if shape == _MAPPING:
        assert isinstance(node, Mapping)
        value_hint = _inner(hint)[1]
        current = node.get(key, 0 if change.delta is not None and not rest else None)
        if current is None and rest:
            raise RulesError(f"{where}: no entry {key!r}")
        new = dict(node)
        new[key] = _change_at(current, value_hint, rest, change, f"{where}.{key}")
        return new
    if shape == _TUPLE and key.isdigit():
        assert isinstance(node, tuple)
        index = int(key)
        if index >= len(node):
            raise RulesError(f"{where}: no item {index} (it has {len(node)})")
        item_hint = _inner(hint)[2]
        items = list(node)
        items[index] = _change_at(node[index], item_hint, rest, change, f"{where}.{index}")
        return tuple(items)
    if shape != _OTHER and is_dataclass(node):  # a record (a tuple too, if it is one)
        names = _names(kind)
        if key not in names:
            known = ", ".join(sorted(names))
            raise RulesError(f"{where}: no field {key!r}; known: {known}")
        child_hint = _hints(kind)[key]
        child = _change_at(getattr(node, key), child_hint, rest, change, f"{where}.{key}")
        return _with(node, key, child)
    raise RulesError(f"{where}: {node!r} has no field {key!r}")


SCALARS: Final = (int, float, str, bool)


def tracked_fields(node: object, skip: frozenset[str] = frozenset()) -> list[str]:
    """The dotted paths of ``node``'s single values (numbers, words, yes/no, empty ones)
    through its records and keyed tables, not lists nor the names in ``skip``: what a
    referee's correction (:func:`apply_changes`) can sensibly name, in order."""
    out: list[str] = []

    def walk(value: object, path: str) -> None:
        if is_dataclass(value) and not isinstance(value, type):
            for f in fields(value):
                if f.name not in skip:
                    walk(getattr(value, f.name), f"{path}.{f.name}" if path else f.name)
        elif isinstance(value, Mapping):
            for key, item in value.items():
                if isinstance(key, str) and key not in skip:
                    walk(item, f"{path}.{key}" if path else key)
        elif (value is None or isinstance(value, SCALARS)) and path:
            out.append(path)

    walk(node, "")
    return out


def apply_changes(state: StateT, changes: Iterable[Change]) -> StateT:
    """``state`` with every change applied in order (a new state; the old one is untouched).

    :class:`RulesError` names the change that cannot apply (an unknown character
    or field, a value of the wrong type, a delta on something not a number).
    """
    for change in changes:
        path = [p for p in change.field.split(".") if p]
        if not path:
            raise RulesError(f"change {change}: no field named")
        if change.target == TABLE:
            state = typing.cast(
                StateT, _change_at(state, type(state), path, change, f"table.{change.field}")
            )
            continue
        if change.target not in state.characters:
            known = ", ".join(state.characters) or "none"
            raise RulesError(f"change {change}: no character {change.target!r}; known: {known}")
        who = state.characters[change.target]
        new_char = _change_at(who, type(who), path, change, change.target)
        characters = dict(state.characters)
        characters[change.target] = new_char
        state = _with(state, "characters", characters)
    return state


_Maker = tuple[dict[str, int], Callable[[object], tuple[object, ...]]]
_MAKERS: dict[type, _Maker | None] = {}


def _maker(kind: type) -> _Maker | None:
    """For the dataclass ``kind`` whose fields are all passed to its ``__init__`` by
    position (no ``InitVar``, ``ClassVar`` or keyword-only field): each field's place
    and a reader of every field at once; ``None`` otherwise (then
    :func:`dataclasses.replace` does the work). Looked up once per type."""
    try:
        return _MAKERS[kind]
    except KeyError:
        declared = getattr(kind, "__dataclass_fields__", {})
        own = fields(kind) if declared else ()
        made_init = getattr(getattr(kind, "__dataclass_params__", None), "init", False)
        plain = made_init and "__init__" in vars(kind) and bool(own)
        if plain:  # its __init__ takes exactly its fields, in order (a ClassVar is none)
            taken = list(inspect.signature(kind).parameters.values())
            plain = [p.name for p in taken] == [f.name for f in own] and all(
                p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in taken
            )
        found: _Maker | None = None
        if plain and own:
            names = tuple(f.name for f in own)
            if len(names) == 1:
                one = attrgetter(names[0])
                found = ({names[0]: 0}, lambda node: (one(node),))
            else:
                found = ({n: i for i, n in enumerate(names)}, attrgetter(*names))
        _MAKERS[kind] = found
        return found


def _with(node: Any, key: str, value: object) -> Any:
    """``dataclasses.replace(node, **{key: value})`` (see :func:`replaced`)."""
    return replaced(node, **{key: value})


R = TypeVar("R")


def replaced(node: R, **changes: object) -> R:
    """``dataclasses.replace(node, **changes)`` without looking the fields up each time
    (rules make new records by the hundred thousand in an exact chain): the same record,
    made by its ``__init__`` with the other fields as they are, passed by position; or,
    for a plain record (:func:`_copied`) holding nothing but its fields (no value cached
    beside them, which would go stale), its attributes copied with some put anew."""
    kind = type(node)
    names = _COPIED.get(kind)
    if names is None:
        names = _copied(kind, node)
    if names and len(node.__dict__) == len(names):  # its fields and nothing cached beside
        for key in changes:
            if key not in names:
                raise TypeError(f"{kind.__name__} has no field {key!r}")
        made: R = object.__new__(kind)
        inner = made.__dict__
        inner.update(node.__dict__)
        inner.update(changes)
        return made
    maker = _maker(kind)
    if maker is None:
        return replace(node, **changes)  # type: ignore[type-var]
    places, read = maker
    values = list(read(node))
    for key, value in changes.items():
        at = places.get(key)
        if at is None:
            raise TypeError(f"{kind.__name__} has no field {key!r}")
        values[at] = value
    made = kind(*values)
    return made


_COPIED: dict[type, frozenset[str]] = {}


def _copied(kind: type, node: object) -> frozenset[str]:
    """The field names of ``kind`` when a new record is the old one's attributes with
    some put anew (exactly what its ``__init__`` would make: a plain dataclass whose
    ``__init__`` takes every field, no ``__post_init__``, and ``node``, one of them,
    keeps exactly its fields in its ``__dict__``); empty otherwise. Looked up once per
    type."""
    found: frozenset[str] = frozenset()
    own = fields(kind) if is_dataclass(kind) else ()
    names = frozenset(f.name for f in own)
    if (
        _maker(kind) is not None
        and not hasattr(kind, "__post_init__")
        and all(f.init for f in own)
        and set(getattr(node, "__dict__", ())) == names
    ):
        found = names
    _COPIED[kind] = found
    return found
