"""Stored records: loading and saving dataclasses as JSON, house-rule options and
action parameters with their documentation and bounds.

:func:`load_record` is the one door untrusted JSON comes in by: it names every
problem with its path (unknown keys included), migrates older schema versions,
and checks the bounds declared with :func:`param`. :func:`describe_fields`
turns a record type into the field list a form or a ``--help`` is built from,
and :func:`data_from_pairs` reads ``key=value`` text (the command line) into
the data :func:`load_record` takes.
"""

from __future__ import annotations

import json
import math
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import MISSING, field, fields, is_dataclass
from functools import cache
from typing import Any, TypeVar

from referee.errors import InvalidSheet, Problem, RulesError
from referee.systems.outcome import JSONObject, JSONValue, jsonable

T = TypeVar("T")

MAX_TEXT = 10_000
"""No text field of a record loaded from untrusted input may be longer than this."""


_ADAPTERS: dict[Any, Any] = {}


def _adapter(cls: Any) -> Any:
    """pydantic's validator for a record type, built once per type (building one costs
    milliseconds: a live table loads actions and outcomes on every command)."""
    found = _ADAPTERS.get(cls)
    if found is None:
        from pydantic import TypeAdapter

        found = _ADAPTERS[cls] = TypeAdapter(cls)
    return found


def _loc(loc: Sequence[Any]) -> str:
    return ".".join(str(p) for p in loc) or "(root)"


def load_record(cls: type[T], data: Any, *, rule: str = "record format") -> T:
    """Build a dataclass record from JSON-like data, reporting every problem.

    Unknown keys, missing fields and wrong types all become :class:`Problem`
    entries of one :class:`InvalidSheet` naming the field path. If ``cls``
    defines ``SCHEMA_VERSION`` and ``migrate(data, version)``, older records
    (``"schema"`` key) are migrated first.

    Example::

        >>> from dataclasses import dataclass
        >>> @dataclass(frozen=True)
        ... class Threat:
        ...     name: str = param(doc="who threatens")
        ...     dice: int = param(2, "dice rolled", ge=1, le=10)
        >>> load_record(Threat, {"name": "wolf", "dice": 3})
        Threat(name='wolf', dice=3)
        >>> load_record(Threat, {"name": "wolf", "dice": 30})
        Traceback (most recent call last):
        ...
        referee.errors.InvalidSheet: dice: must be between 1 and 10 (value: 30) [record format]
        >>> load_record(Threat, {"dice": "3"})
        Traceback (most recent call last):
        ...
        referee.errors.InvalidSheet: name: Field required [record format];
        dice: Input should be a valid integer (value: '3') [record format]
    """
    quick = _quick_reader(cls)
    if quick is not None:
        try:
            found: T = quick(data)
        except Exception:  # anything odd or wrong: the full path names it
            pass
        else:
            if not bound_problems(found, rule=rule):
                return found
    from pydantic import ValidationError

    if isinstance(data, Mapping):
        data = dict(data)
        current = getattr(cls, "SCHEMA_VERSION", None)
        version = data.pop("schema", current)
        if current is not None and version != current:
            migrate = getattr(cls, "migrate", None)
            if not isinstance(version, int) or migrate is None or version > current:
                raise InvalidSheet([Problem(rule, "schema", "unsupported schema version", version)])
            data = migrate(data, version)
    unknown = _unknown_keys(cls, data, (), rule) if is_dataclass(cls) else []
    adapter = _adapter(cls)
    try:
        record: T = adapter.validate_json(_as_json(data, rule), strict=True)
    except ValidationError as e:
        problems = [
            # a missing field's "input" is the whole record around it: no value to quote
            Problem(
                rule,
                _loc(err["loc"]),
                err["msg"],
                None if err.get("type") == "missing" else err.get("input"),
            )
            for err in e.errors(include_url=False)
        ]
        raise InvalidSheet(unknown + problems) from None
    except (ValueError, TypeError) as e:  # raised by a record's own __post_init__
        raise InvalidSheet([*unknown, Problem(rule, "(root)", str(e))]) from None
    if unknown:
        raise InvalidSheet(unknown)
    out_of_bounds = bound_problems(record, rule=rule)
    if out_of_bounds:
        raise InvalidSheet(out_of_bounds)
    return record


_Read = Callable[[object], Any]
"""A quick reader or writer of one type's values (:func:`_quick_reader`)."""


class _Slow(Exception):
    """Raised by a quick reader for data it does not vouch for: the full path decides."""


class _Unsupported(Exception):
    """A type the quick readers do not read: its records take the full path always."""


_QUICK: dict[Any, _Read | None] = {}
_I64 = 2**63


def _quick_reader(cls: Any) -> _Read | None:
    """A reader of ``cls`` from JSON-like data that gives exactly the record
    :func:`load_record`'s full path (pydantic, strict JSON mode) builds, for data that
    path accepts, and raises for anything else; ``None`` for a type it cannot read (a
    field of a type it does not know, a custom ``__init__``). Built once per type.

    It accepts only data whose every value has the exact JSON type its field declares (an
    ``int`` for ``int``, never a ``bool`` or a ``float``; a list for a tuple; an object
    for a record; one of a ``Literal``'s values), every key known and every required one
    given: so a live table reads an action once, with no JSON text made and parsed
    again. Whatever it refuses (or the record's own ``__post_init__`` refuses) goes down
    the full path, which names every problem as before."""
    if cls in _QUICK:
        return _QUICK[cls]
    try:
        reader: _Read | None = _record_reader(cls)
    except _Unsupported:
        reader = None
    except Exception:  # unresolved hints and the like: the full path
        reader = None
    if reader is not None:
        version = getattr(cls, "SCHEMA_VERSION", None)
        if version is not None:
            inner = reader

            def reader(data: Any) -> Any:
                if type(data) is dict and "schema" in data:
                    if data["schema"] != version or type(data["schema"]) is not int:
                        raise _Slow
                    data = {k: v for k, v in data.items() if k != "schema"}
                return inner(data)

    _QUICK[cls] = reader
    return reader


def _record_reader(cls: Any) -> _Read:
    """The quick reader of a dataclass record (see :func:`_quick_reader`)."""
    params = getattr(cls, "__dataclass_params__", None)
    if not isinstance(cls, type) or not is_dataclass(cls) or params is None or not params.init:
        raise _Unsupported
    if any(hasattr(cls, name) for name in ("__pydantic_config__", "__get_pydantic_core_schema__")):
        raise _Unsupported
    hints = _hints(cls)
    readers: dict[str, _Read] = {}
    required: set[str] = set()
    for f in fields(cls):
        if not f.init:
            raise _Unsupported
        readers[f.name] = _reader(hints[f.name])
        if f.default is MISSING and f.default_factory is MISSING:
            required.add(f.name)
    need = frozenset(required)

    def read(data: Any) -> Any:
        if type(data) is not dict or not need <= data.keys():
            raise _Slow
        given = {}
        for key, value in data.items():
            found = readers.get(key)
            if found is None:
                raise _Slow
            given[key] = found(value)
        return cls(**given)

    return read


def _plain(kind: type) -> _Read:
    """The quick reader of a value of exactly ``kind``."""
    if kind is str:

        def read_str(value: Any) -> Any:
            if type(value) is str and (value.isascii() or _utf8(value)):
                return value
            raise _Slow

        return read_str
    if kind is int:

        def read_int(value: Any) -> Any:
            if type(value) is int and -_I64 <= value < _I64:
                return value
            raise _Slow

        return read_int
    if kind is bool:

        def read_bool(value: Any) -> Any:
            if type(value) is bool:
                return value
            raise _Slow

        return read_bool
    if kind is float:

        def read_float(value: Any) -> Any:
            if type(value) is float and math.isfinite(value):
                return value
            raise _Slow

        return read_float
    if kind is type(None):

        def read_none(value: Any) -> Any:
            if value is None:
                return None
            raise _Slow

        return read_none
    raise _Unsupported


def _utf8(text: str) -> bool:
    """Whether ``text`` is valid Unicode (no lone surrogate)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _json_types(hint: Any) -> frozenset[type]:
    """The Python types of the JSON values a quick reader of ``hint`` may accept."""
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return frozenset(type(a) for a in typing.get_args(hint))
    if origin is tuple:
        return frozenset((list, tuple))
    if isinstance(hint, type) and is_dataclass(hint):
        return frozenset((dict,))
    if hint in (str, int, bool, float, type(None)):
        return frozenset((hint,))
    raise _Unsupported


def _by_type(
    members: tuple[Any, ...],
    make: Callable[[object], _Read],
    types_of: Callable[[object], Iterable[type]],
) -> _Read:
    """A union's reader (or writer): each value goes to the member made for its exact
    type; a type two members could take is pydantic's choice, not guessed here."""
    by_type: dict[type, _Read | None] = {}
    for member in members:
        made = make(member)
        for kind in types_of(member):
            by_type[kind] = None if kind in by_type else made

    def by_kind(value: Any) -> Any:
        found = by_type.get(type(value))
        if found is None:
            raise _Slow
        return found(value)

    return by_kind


def _reader(hint: Any) -> _Read:
    """The quick reader of a value of type ``hint``; :class:`_Unsupported` for a type it
    does not know (``Any``, a dict, an enum, a list, a set...)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if isinstance(hint, type) and is_dataclass(hint):
        nested = _quick_reader(hint)
        if nested is None or getattr(hint, "SCHEMA_VERSION", None) is not None:
            raise _Unsupported
        return nested
    if origin is typing.Literal:
        if not all(type(a) in (str, int) for a in args):
            raise _Unsupported
        allowed = frozenset((type(a), a) for a in args)

        def read_literal(value: Any) -> Any:
            if (type(value), value) in allowed:
                return value
            raise _Slow

        return read_literal
    if origin in (typing.Union, types.UnionType):
        return _by_type(args, _reader, _json_types)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _reader(args[0])

            def read_items(value: Any) -> Any:
                if type(value) is list or type(value) is tuple:
                    return tuple([item(v) for v in value])
                raise _Slow

            return read_items
        if not args or args == ((),):
            raise _Unsupported
        each = tuple(_reader(a) for a in args)

        def read_fixed(value: Any) -> Any:
            if (type(value) is list or type(value) is tuple) and len(value) == len(each):
                return tuple([r(v) for r, v in zip(each, value, strict=True)])
            raise _Slow

        return read_fixed
    if isinstance(hint, type):
        return _plain(hint)
    raise _Unsupported


_DUMPERS: dict[Any, _Read | None] = {}


def _quick_dumper(cls: Any) -> _Read | None:
    """A writer of a record of type ``cls`` as the JSON-ready dict pydantic's
    ``dump_python(mode="json")`` makes (its fields in order, tuples as lists, records as
    dicts), for records whose every value has the exact type its field declares; it
    raises :class:`_Slow` for any other value (pydantic writes that one). ``None`` for a
    type :func:`_quick_reader` does not read. Built once per type."""
    if cls in _DUMPERS:
        return _DUMPERS[cls]
    try:
        found: _Read | None = _record_dumper(cls) if _quick_reader(cls) is not None else None
    except _Unsupported:
        found = None
    except Exception:  # unresolved hints and the like: pydantic writes it
        found = None
    _DUMPERS[cls] = found
    return found


def _record_dumper(cls: Any) -> _Read:
    hints = _hints(cls)
    writers = tuple((f.name, _dumper(hints[f.name])) for f in fields(cls))

    def write(record: Any) -> Any:
        if type(record) is not cls:
            raise _Slow
        return {name: w(getattr(record, name)) for name, w in writers}

    return write


def _python_types(hint: Any) -> frozenset[type]:
    """The Python types of the values of ``hint`` a quick writer writes."""
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return frozenset(type(a) for a in typing.get_args(hint))
    if origin is tuple:
        return frozenset((tuple,))
    if isinstance(hint, type) and is_dataclass(hint):
        return frozenset((hint,))
    if hint in (str, int, bool, float, type(None)):
        return frozenset((hint,))
    raise _Unsupported


def _dumper(hint: Any) -> _Read:
    """The quick writer of a value of type ``hint`` (see :func:`_quick_dumper`)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if isinstance(hint, type) and is_dataclass(hint):
        nested = _quick_dumper(hint)
        if nested is None or getattr(hint, "SCHEMA_VERSION", None) is not None:
            raise _Unsupported
        return nested
    if origin is typing.Literal:
        kinds = frozenset(type(a) for a in args)
        if not kinds <= {str, int}:
            raise _Unsupported
        return _same(kinds)
    if origin in (typing.Union, types.UnionType):
        return _by_type(args, _dumper, _python_types)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _dumper(args[0])

            def write_items(value: Any) -> Any:
                if type(value) is tuple:
                    return [item(v) for v in value]
                raise _Slow

            return write_items
        if not args or args == ((),):
            raise _Unsupported
        each = tuple(_dumper(a) for a in args)

        def write_fixed(value: Any) -> Any:
            if type(value) is tuple and len(value) == len(each):
                return [w(v) for w, v in zip(each, value, strict=True)]
            raise _Slow

        return write_fixed
    if hint is float:

        def write_float(value: Any) -> Any:
            if type(value) is float and math.isfinite(value):
                return value
            raise _Slow

        return write_float
    if hint in (str, int, bool, type(None)):
        return _same(frozenset((hint,)))
    raise _Unsupported


def _same(kinds: frozenset[type]) -> _Read:
    """A writer of a value of one of ``kinds``, written as it is."""

    def write(value: Any) -> Any:
        if type(value) in kinds:
            return value
        raise _Slow

    return write


def build_record(cls: type[T], data: Mapping[str, Any], *, rule: str = "record format") -> T:
    """Build a record from data already typed by its reader (the command line's flags),
    without pydantic: nested records from mappings, lists as tuples, a ``Literal``'s
    choices and the declared bounds checked, every problem named
    (:class:`InvalidSheet`). Untrusted JSON goes through :func:`load_record` instead.

    Example::

        >>> from referee.systems.tray import Roll
        >>> build_record(Roll, {"dice": "2d6"})
        Roll(dice='2d6', label='')
    """
    problems = _unknown_keys(cls, data, (), rule)
    if problems:
        raise InvalidSheet(problems)
    record = _built(cls, data, (), rule)
    out_of_bounds = bound_problems(record, rule=rule)
    if out_of_bounds:
        raise InvalidSheet(out_of_bounds)
    return typing.cast(T, record)


def _built(hint: Any, value: Any, path: tuple[Any, ...], rule: str) -> Any:
    """``value`` as the type ``hint`` says, records and tuples made (see :func:`build_record`)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if isinstance(hint, type) and is_dataclass(hint) and isinstance(value, Mapping):
        hints = _hints(hint)
        made = {k: _built(hints[k], v, (*path, k), rule) for k, v in value.items()}
        try:
            return hint(**made)
        except TypeError as e:
            raise InvalidSheet([Problem(rule, _loc(path), str(e))]) from None
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if value is None or len(rest) != 1:
            return value
        return _built(rest[0], value, path, rule)
    if origin is typing.Literal and value not in args:
        known = ", ".join(map(str, args))
        raise InvalidSheet([Problem(rule, _loc(path), f"must be one of {known}", value)])
    if origin in (tuple, Sequence) and isinstance(value, list | tuple):
        item = args[0] if args else Any
        return tuple(_built(item, v, (*path, i), rule) for i, v in enumerate(value))
    return value


def _as_json(data: Any, rule: str) -> str:
    """``data`` as JSON text, for pydantic's strict JSON mode: a number is a number and
    text is text (``"7"`` is not 7, ``true`` is not 1), while JSON's lists and objects
    still read as tuples and records. A value JSON cannot hold (``NaN``, infinity, an
    object of no JSON type) is refused, named."""
    try:
        return json.dumps(data, allow_nan=False, ensure_ascii=False)
    except ValueError:
        raise InvalidSheet(
            [Problem(rule, "(root)", "numbers must be finite (no NaN or infinity)")]
        ) from None
    except TypeError as e:
        raise InvalidSheet([Problem(rule, "(root)", f"not JSON data: {e}")]) from None


def _nested(hint: Any, value: Any, path: tuple[Any, ...]) -> list[tuple[Any, tuple[Any, ...], Any]]:
    """``(dataclass type, path, data)`` for every record a field's data holds."""
    import collections.abc as abc
    import dataclasses
    import types
    import typing

    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return [(hint, path, value)]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return _nested(options[0], value, path) if len(options) == 1 else []
    if origin in (list, tuple, set, frozenset, abc.Sequence) and isinstance(value, list | tuple):
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            pairs = list(zip(args, value, strict=False))
        else:
            pairs = [(args[0] if args else Any, v) for v in value]
        out = []
        for i, (h, v) in enumerate(pairs):
            out += _nested(h, v, (*path, i))
        return out
    if origin in (dict, abc.Mapping) and isinstance(value, Mapping) and len(args) == 2:
        out = []
        for k, v in value.items():
            out += _nested(args[1], v, (*path, k))
        return out
    return []


def _unknown_keys(cls: Any, data: Any, path: tuple[Any, ...], rule: str) -> list[Problem]:
    """Keys in ``data`` that no field of the dataclass ``cls`` (or nested ones) accepts."""

    if not isinstance(data, Mapping):
        return []
    names = {f.name for f in fields(cls)}
    problems = [
        Problem(rule, _loc((*path, k)), "unknown field", data[k]) for k in data if k not in names
    ]
    try:
        hints = _hints(cls)
    except Exception:  # unresolved forward references: skip the nested check
        return problems
    for name in (k for k in data if k in names):  # data order: problems in a stable order
        for sub, sub_path, value in _nested(hints.get(name), data[name], (*path, name)):
            problems += _unknown_keys(sub, value, sub_path, rule)
    return problems


def dump_record(record: Any) -> dict[str, Any]:
    """A JSON-ready dict of a dataclass record, with ``"schema"`` when versioned.

    Example::

        >>> from referee.systems.tray import Roll
        >>> dump_record(Roll(dice="2d6+1", label="fall"))
        {'dice': '2d6+1', 'label': 'fall'}
    """
    quick = _quick_dumper(type(record))
    data: dict[str, Any] | None = None
    if quick is not None:
        try:
            data = quick(record)
        except _Slow:
            data = None
    if data is None:
        data = _adapter(type(record)).dump_python(record, mode="json")
    version = getattr(type(record), "SCHEMA_VERSION", None)
    if version is not None:
        data = {"schema": version, **data}
    return data


def option(
    default: Any = MISSING,
    doc: str = "",
    *,
    factory: Callable[[], Any] | None = None,
    one_of: tuple[str, ...] | None = None,
) -> Any:
    """Declare one house-rule option: its default (the product's ruling) and its meaning.

    Use as a dataclass field of a game's frozen ``Options``:
    ``costly_success: bool = option(True, "Allow Costly Success.")``; give
    ``factory`` instead of ``default`` for mutable-looking defaults; ``one_of`` lists the
    values a choice may take (:func:`check_one_of` holds the options to them).

    Example::

        >>> from dataclasses import dataclass
        >>> @dataclass(frozen=True)
        ... class Options:
        ...     costly_success: bool = option(True, "Allow Costly Success.")
        >>> describe_options(Options)
        [{'name': 'costly_success', 'default': True, 'doc': 'Allow Costly Success.'}]
    """
    meta = {"doc": doc} if one_of is None else {"doc": doc, "one_of": one_of}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


def check_one_of(record: object) -> None:
    """:class:`RulesError` for the first field of ``record`` declared ``option(one_of=...)``
    whose value is none of those."""
    for f in fields(record):  # type: ignore[arg-type]
        allowed = f.metadata.get("one_of")
        if allowed is not None and getattr(record, f.name) not in allowed:
            raise RulesError(f"{f.name} must be one of {allowed}")


def describe_options(options_type: type[Any]) -> list[dict[str, Any]]:
    """Each house-rule option: name, default and the ``doc`` from its field metadata.

    Example::

        >>> [o["name"] for o in describe_options(get("mongrel").options_type)][:2]
        ['refresh_variant', 'refresh_amount']
    """
    out = []
    for f in fields(options_type):
        default: Any = f.default
        if f.default_factory is not MISSING:
            default = f.default_factory()
        doc = f.metadata.get("doc", "")
        out.append({"name": f.name, "default": jsonable(default), "doc": doc})
    return out


def option_kinds(options_type: Any) -> dict[str, JSONObject]:
    """Each house-rule option's type as :func:`describe_fields` describes a field's
    (``{"type": "boolean"}``, a choice of its ``one_of`` values, a list of pairs...), by
    name: what a form's control for it is."""
    hints = _hints(options_type)
    out: dict[str, JSONObject] = {}
    for f in fields(options_type):
        kind = _kind(hints[f.name])
        allowed = f.metadata.get("one_of")
        if allowed is not None:
            kind = {**kind, "type": "choice", "choices": [jsonable(a) for a in allowed]}
        out[f.name] = kind
    return out


def param(
    default: Any = MISSING,
    doc: str = "",
    *,
    ge: int | None = None,
    le: int | None = None,
    ref: str | None = None,
    factory: Callable[[], Any] | None = None,
    decided_by: str | None = None,
    main: bool = False,
    referee: bool = False,
    role: str | None = None,
    when: str | None = None,
    sheet: str | None = None,
) -> Any:
    """Declare one field of an action: its default, its meaning and its bounds.

    ``ge`` / ``le`` bound a number (or each number of a tuple) and are checked
    whenever the record is built; ``ref="character"`` says the value is a
    character id of the table's state (a form offers the characters).
    ``decided_by`` names the field holding the character(s) whose choice this field
    is (a target's defence, an opponent's resisting stat): at a table, only their
    owner or the referee may give it a value other than its default.
    ``main`` marks one of the action's most-used options: a form shows it beside the
    required fields, before the rest (folded under "more").
    ``referee`` marks a value the referee gives (the GM's modifier): at a table, a
    player's value other than the default waits for the referee's approval.
    ``role`` says how the character a field names takes part (:data:`referee.systems.
    base.Role`: ``act``, ``defend``, ``target``...), which a condition may forbid.
    ``when`` names the house-rule option the field matters under (``"opposed_rolls"``, or
    ``"not opposed_rolls"`` for one that matters only with it off): a form leaves it out
    otherwise (the rules still read whatever is sent). ``sheet`` names the key of a
    character's sheet whose names the field takes (``"talents"``): a form offers those of
    the character it concerns (the ``decided_by`` one's, else the actor's), starting at the
    default when they have it, else at their first.
    """
    # not "ge"/"le": pydantic would read those keys as its own constraints and apply them
    # to every member of a union (``int | str`` fails); the bounds are checked here instead
    meta = {
        "doc": doc,
        "lowest": ge,
        "highest": le,
        "ref": ref,
        "decided_by": decided_by,
        "main": main or None,
        "referee": referee or None,
        "role": role,
        "when": when,
        "sheet": sheet,
    }
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


def bound_problems(record: object, path: str = "", rule: str = "bounds") -> list[Problem]:
    """Every field of ``record`` (and nested records) outside its declared ``ge``/``le``."""
    problems: list[Problem] = []
    if isinstance(record, type):
        return problems
    bounds = _BOUNDS.get(type(record))
    if bounds is None:
        if not is_dataclass(record):
            return problems
        bounds = _BOUNDS[type(record)] = tuple(
            (f.name, f.metadata.get("lowest"), f.metadata.get("highest")) for f in fields(record)
        )
    for name, lo, hi in bounds:
        value = getattr(record, name)
        kind = type(value)
        if kind is int:  # the common cases first, as quickly as they go
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                problems.append(
                    Problem(rule, f"{path}{name}", f"must be {_span_text(lo, hi)}", value)
                )
            continue
        if kind is str:
            if len(value) > MAX_TEXT:
                problems.append(
                    Problem(rule, f"{path}{name}", f"longer than {MAX_TEXT} characters")
                )
            continue
        if value is None or kind is bool or kind is float:
            continue
        where = f"{path}{name}"
        numbers = value if isinstance(value, tuple) else (value,)
        for v in numbers:
            number = isinstance(v, int) and not isinstance(v, bool)
            if number and ((lo is not None and v < lo) or (hi is not None and v > hi)):
                problems.append(Problem(rule, where, f"must be {_span_text(lo, hi)}", v))
                break
        if isinstance(value, str) and len(value) > MAX_TEXT:
            problems.append(Problem(rule, where, f"longer than {MAX_TEXT} characters"))
        if is_dataclass(value):
            problems += bound_problems(value, f"{where}.", rule)
        elif isinstance(value, tuple):
            for i, item in enumerate(value):
                problems += bound_problems(item, f"{where}.{i}.", rule)
    return problems


_BOUNDS: dict[type, tuple[tuple[str, Any, Any], ...]] = {}
"""Each record type's fields with their declared bounds, read once per type."""


def _span_text(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"between {lo} and {hi}"
    return f"at least {lo}" if lo is not None else f"at most {hi}"


# ---------------------------------------------------------------------------
# describing a record's fields (forms, help)


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _kind(hint: Any) -> JSONObject:
    """A form-ready description of one type."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        inner: JSONObject = _kind(rest[0]) if len(rest) == 1 else {"type": "json"}
        if type(None) in args:
            inner["optional"] = True
        return inner
    if origin is typing.Literal:
        return {"type": "choice", "choices": [jsonable(a) for a in args]}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is float:
        return {"type": "number"}
    if hint is str:
        return {"type": "string"}
    if isinstance(hint, type) and is_dataclass(hint):
        return {"type": "object", "fields": describe_fields(hint)}
    if origin is tuple and args and Ellipsis not in args:  # a pair: one control a place
        return {"type": "tuple", "items": [_kind(a) for a in args]}
    if origin in (tuple, list, Sequence) and args:
        return {"type": "list", "items": _kind(args[0])}
    return {"type": "json"}


def describe_fields(cls: Any) -> list[JSONObject]:
    """Each field of a record type: name, type, default, doc, bounds, reference.

    Example::

        >>> from referee.systems.tray import Roll
        >>> [(f["name"], f["type"], f.get("required", False)) for f in describe_fields(Roll)]
        [('dice', 'string', True), ('label', 'string', False)]
    """
    out: list[JSONObject] = []
    hints = _hints(cls)
    for f in fields(cls):
        desc: JSONObject = {"name": f.name, **_kind(hints[f.name])}
        if f.default is not MISSING:
            desc["default"] = jsonable(f.default)
        elif f.default_factory is not MISSING:
            desc["default"] = jsonable(f.default_factory())
        else:
            desc["required"] = True
        for key, meta in (
            ("doc", "doc"),
            ("ge", "lowest"),
            ("le", "highest"),
            ("ref", "ref"),
            ("decided_by", "decided_by"),
            ("main", "main"),
            ("when", "when"),
            ("sheet", "sheet"),
        ):
            if f.metadata.get(meta) not in (None, ""):
                desc[key] = f.metadata[meta]
        out.append(desc)
    return out


# ---------------------------------------------------------------------------
# key=value text (the command line) -> record data

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _coerce(text: str, hint: Any, key: str) -> JSONValue:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if type(None) in args and text.strip().lower() in ("none", "null", ""):
            return None
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return _coerce(text, rest[0], key)
        for option in rest:  # e.g. int | str: the first reading that works
            try:
                return _coerce(text, option, key)
            except RulesError:
                continue
        return text
    if origin is typing.Literal:
        for choice in args:
            if str(choice) == text:
                return typing.cast(JSONValue, choice)
        known = ", ".join(str(a) for a in args)
        raise RulesError(f"{key}: {text!r} is not one of {known}")
    if hint is bool:
        low = text.strip().lower()
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise RulesError(f"{key}: {text!r} is not true or false")
    if hint is int:
        try:
            return int(text)
        except ValueError:
            raise RulesError(f"{key}: {text!r} is not a whole number") from None
    if hint is str:
        return text
    if origin in (tuple, list, Sequence) and args:
        if text.lstrip().startswith("["):
            return _json(text, key)
        parts = [p.strip() for p in text.split(",") if p.strip()]
        item = args[0]
        return [_coerce(p, item, f"{key}[{i}]") for i, p in enumerate(parts)]
    return _json(text, key)


def _json(text: str, key: str) -> JSONValue:
    try:
        value: JSONValue = json.loads(text)
    except json.JSONDecodeError as e:
        raise RulesError(f"{key}: not valid JSON ({e.msg})") from None
    return value


def data_from_pairs(cls: Any, pairs: Sequence[str]) -> JSONObject:
    """Read ``key=value`` words into record data for :func:`load_record`.

    Each value is read as its field's type (``true``/``false``, whole numbers,
    comma-separated lists, ``none`` for an optional field, JSON for anything
    else); a dotted key (``threat.damage=2d6``) fills a nested record.
    :class:`RulesError` names the first word that cannot be read.

    Example::

        >>> from referee.systems.tray import Roll
        >>> data_from_pairs(Roll, ["dice=4d6kh3", "label=strength"])
        {'dice': '4d6kh3', 'label': 'strength'}
        >>> load_record(Roll, data_from_pairs(Roll, ["dice=4d6kh3"]))
        Roll(dice='4d6kh3', label='')
    """
    data: JSONObject = {}
    for word in pairs:
        key, sep, text = word.partition("=")
        key = key.strip()
        if not sep or not key:
            raise RulesError(f"{word!r}: write each field as key=value")
        target: Any = cls
        node: JSONObject = data
        parts = key.split(".")
        for depth, part in enumerate(parts):
            names = {f.name for f in fields(target)}
            if part not in names:
                where = ".".join(parts[: depth + 1])
                known = ", ".join(sorted(names))
                raise RulesError(f"{where}: unknown field; known: {known}")
            hint = _hints(target)[part]
            if depth == len(parts) - 1:
                node[part] = _coerce(text, hint, key)
                break
            inner = _dataclass_in(hint)
            if inner is None:
                raise RulesError(f"{'.'.join(parts[: depth + 1])}: has no fields")
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise RulesError(f"{key}: set both as a value and by its fields")
            node, target = child, inner
    return data


def _dataclass_in(hint: Any) -> type[Any] | None:
    if isinstance(hint, type) and is_dataclass(hint):
        return hint
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        found = [a for a in typing.get_args(hint) if isinstance(a, type) and is_dataclass(a)]
        return found[0] if len(found) == 1 else None
    return None
