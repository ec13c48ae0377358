"""The contract every game implements, and the pieces all four share.

A game package (``referee.systems.<name>``) exposes a module attribute
``RULESET`` satisfying :class:`Ruleset`. The live table, the CLI and the web
speak only this protocol, so they treat every game alike:

* ``sheet_type`` - the stored character record (a frozen dataclass) and
  ``validate(sheet, options)`` which reports *every* broken rule as a
  :class:`Problem`;
* ``options_type`` - the table's house rules, a frozen dataclass whose
  defaults are the rulings;
* ``actions()`` - the action types a player or referee can take;
* ``resolve(action, state, roller, options)`` -> :class:`Outcome`;
* ``odds(action, state, options)`` -> an exact
  :class:`~referee.dice.odds.Distribution` over what the same rule yields.

Principle 1 lives in :class:`Procedure`: a check is one rule function over a
dice statistic, evaluated either on rolled faces or on the statistic's exact
distribution, so odds shown before a roll cannot disagree with the roll.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from referee.dice.evaluate import DieRoll, check_faces_for
from referee.dice.odds import Distribution, fraction_text
from referee.dice.roller import Roller, RollRecord, is_manual
from referee.errors import (
    DiceError,
    IllegalAction,
    InvalidSheet,
    NotationError,
    OddsTooComplex,
    Problem,
    RulesError,
)

__all__ = [
    "Change",
    "DiceError",
    "IllegalAction",
    "InvalidSheet",
    "Ladder",
    "Modifier",
    "NotationError",
    "OddsTooComplex",
    "Outcome",
    "Problem",
    "Procedure",
    "RulesError",
    "Ruleset",
    "describe_options",
    "dump_record",
    "get",
    "load_record",
    "names",
    "option",
    "outcome_data",
    "probability_map",
    "problem_data",
]

S = TypeVar("S", bound=Hashable)
R = TypeVar("R", bound=Hashable)
T = TypeVar("T")


# ---------------------------------------------------------------------------
# outcome and its derivation


@dataclass(frozen=True, slots=True)
class Modifier:
    """A number added to a roll or a target, with where it came from.

    ``kind`` is the game's category (Mneme: ``"competence"``, ``"equipment"``,
    ``"condition"``...), used by the game's own stacking rules.
    """

    value: int
    source: str
    kind: str = "other"

    def __str__(self) -> str:
        return f"{self.value:+d} {self.source}"


@dataclass(frozen=True, slots=True)
class Change:
    """A change to the state that an outcome implies, as data.

    Rules never mutate anything: the table applies changes. ``delta`` adds to a
    numeric field; otherwise ``value`` replaces it.
    """

    target: str
    field: str
    delta: int | None = None
    value: Any = None
    reason: str = ""


@dataclass(frozen=True)
class Outcome:
    """An immutable resolved action carrying its whole derivation.

    ``faces`` holds every die (kept and dropped), ``modifiers`` each modifier
    with its source, ``target`` the number rolled against, ``result`` the
    game's effect or result, ``label`` its name on the game's ladder and
    ``changes`` the state changes it implies. ``details`` carries the game's
    other numbers (Successes, Fail Effect, damage rolls...). ``manual`` is
    true when the faces were rolled on physical dice and entered by hand.
    """

    system: str
    action: str
    faces: tuple[DieRoll, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    target: int | None = None
    result: int | None = None
    success: bool | None = None
    label: str = ""
    changes: tuple[Change, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    manual: bool = False
    rolls: tuple[RollRecord, ...] = ()

    def __post_init__(self) -> None:
        # sequences given as lists become tuples: an Outcome must not change after the fact
        for name in ("faces", "modifiers", "changes", "rolls"):
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))
        object.__setattr__(self, "details", MappingProxyType(dict(self.details)))

    @property
    def modifier_total(self) -> int:
        """The sum of all modifiers."""
        return sum(m.value for m in self.modifiers)


def _jsonable(value: Any) -> Any:
    from fractions import Fraction

    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _jsonable(getattr(value, f.name)) for f in fields(value)}
    return value


def outcome_data(outcome: Outcome) -> dict[str, Any]:
    """A JSON-ready view of an outcome (a renderer: the outcome never formats itself)."""
    return {
        "system": outcome.system,
        "action": outcome.action,
        "faces": [{"face": d.face, "sides": d.sides, "kept": d.kept} for d in outcome.faces],
        "modifiers": [
            {"value": m.value, "source": m.source, "kind": m.kind} for m in outcome.modifiers
        ],
        "target": outcome.target,
        "result": outcome.result,
        "success": outcome.success,
        "label": outcome.label,
        "changes": [_jsonable(c) for c in outcome.changes],
        "details": _jsonable(outcome.details),
        "manual": outcome.manual,
        "rolls": [r.to_dict() for r in outcome.rolls],
    }


def problem_data(problem: Problem) -> dict[str, Any]:
    """A JSON-ready view of one validator finding."""
    return {
        "rule": problem.rule,
        "field": problem.field,
        "message": problem.message,
        "value": _jsonable(problem.value),
    }


def probability_map(dist: Distribution[Any]) -> dict[str, str]:
    """``{"outcome": "num/den"}`` in outcome order, reduced fractions."""
    return {str(o): fraction_text(p) for o, p in dist.probabilities().items()}


# ---------------------------------------------------------------------------
# one rule, two evaluations


@dataclass(frozen=True)
class Procedure(Generic[S, R]):
    """A check written once: dice, a statistic of their faces, and a rule.

    * ``groups`` - the dice it needs, as ``(count, sides)`` (validates ``--faces``);
    * ``read`` - faces -> the statistic the rule needs (e.g. keep the two highest);
    * ``exact`` - the exact distribution of that statistic (a polynomial method);
    * ``rule`` - statistic -> result, a pure function.

    :meth:`roll` applies ``rule`` to rolled faces; :meth:`odds` maps ``rule``
    over ``exact()``. Tests compare ``exact()`` with brute force over ``read``.
    """

    groups: tuple[tuple[int, int], ...]
    read: Callable[[tuple[int, ...]], S]
    exact: Callable[[], Distribution[S]]
    rule: Callable[[S], R]

    def roll_faces(self, roller: Roller) -> tuple[int, ...]:
        """Roll every group in order and return the faces."""
        faces: list[int] = []
        for count, sides in self.groups:
            faces.extend(roller.roll(count, sides))
        return tuple(faces)

    def check_manual(self, faces: Sequence[int], what: str = "this check") -> None:
        """Validate hand-entered faces against ``groups`` (clear :class:`DiceError`)."""
        check_faces_for(self.groups, faces, what)

    def apply(self, faces: tuple[int, ...]) -> R:
        """The rule applied to given faces."""
        return self.rule(self.read(faces))

    def roll(self, roller: Roller) -> tuple[tuple[int, ...], R]:
        """Roll the dice and apply the rule: ``(faces, result)``.

        Hand-entered faces are checked first against the dice this check needs
        (the leading ones: a sequence of checks may share one manual roller;
        whoever made the roller reports faces left unused).
        """
        if is_manual(roller):
            remaining = getattr(roller, "remaining", None)
            if remaining is not None:
                need = sum(count for count, _ in self.groups)
                if len(remaining) < need:
                    self.check_manual(tuple(remaining))
                self.check_manual(tuple(remaining)[:need])
        faces = self.roll_faces(roller)
        return faces, self.apply(faces)

    def odds(self) -> Distribution[R]:
        """The exact distribution of the rule's result."""
        return self.exact().map(self.rule)


# ---------------------------------------------------------------------------
# ladders and presets


@dataclass(frozen=True)
class Ladder:
    """Named steps on a numeric scale (a result ladder, difficulty presets).

    ``steps`` are ``(lowest value, label)`` in ascending order; a value takes
    the label of the highest step at or below it (values below the first step
    take the first label).
    """

    steps: tuple[tuple[int, str], ...]

    def __post_init__(self) -> None:
        values = [v for v, _ in self.steps]
        if not values or values != sorted(values) or len(set(values)) != len(values):
            raise ValueError("ladder steps must be strictly ascending and not empty")

    def label(self, value: int) -> str:
        """The label for ``value``."""
        chosen = self.steps[0][1]
        for lowest, name in self.steps:
            if value >= lowest:
                chosen = name
            else:
                break
        return chosen

    def value(self, name: str) -> int:
        """The value of a named step (case-insensitive); :class:`RulesError` if unknown."""
        for v, label in self.steps:
            if label.lower() == name.lower():
                return v
        known = ", ".join(label for _, label in self.steps)
        raise RulesError(f"unknown step {name!r}; known: {known}")

    def names(self) -> tuple[str, ...]:
        """The labels in ascending order."""
        return tuple(label for _, label in self.steps)


# ---------------------------------------------------------------------------
# records: loading, saving, options


def _loc(loc: Sequence[Any]) -> str:
    return ".".join(str(p) for p in loc) or "(root)"


def load_record(cls: type[T], data: Any, *, rule: str = "record format") -> T:
    """Build a dataclass record from JSON-like data, reporting every problem.

    Unknown keys, missing fields and wrong types all become :class:`Problem`
    entries of one :class:`InvalidSheet` naming the field path. If ``cls``
    defines ``SCHEMA_VERSION`` and ``migrate(data, version)``, older records
    (``"schema"`` key) are migrated first.
    """
    from pydantic import TypeAdapter, ValidationError

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
    adapter: Any = TypeAdapter(cls)
    try:
        record: T = adapter.validate_python(data)
    except ValidationError as e:
        problems = [
            Problem(rule, _loc(err["loc"]), err["msg"], err.get("input"))
            for err in e.errors(include_url=False)
        ]
        raise InvalidSheet(unknown + problems) from None
    except (ValueError, TypeError) as e:  # raised by a record's own __post_init__
        raise InvalidSheet([*unknown, Problem(rule, "(root)", str(e))]) from None
    if unknown:
        raise InvalidSheet(unknown)
    return record


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
    import typing

    if not isinstance(data, Mapping):
        return []
    names = {f.name for f in fields(cls)}
    problems = [
        Problem(rule, _loc((*path, k)), "unknown field", data[k]) for k in data if k not in names
    ]
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # unresolved forward references: skip the nested check
        return problems
    for name in (k for k in data if k in names):  # data order: problems in a stable order
        for sub, sub_path, value in _nested(hints.get(name), data[name], (*path, name)):
            problems += _unknown_keys(sub, value, sub_path, rule)
    return problems


def dump_record(record: Any) -> dict[str, Any]:
    """A JSON-ready dict of a dataclass record, with ``"schema"`` when versioned."""
    from pydantic import TypeAdapter

    data: dict[str, Any] = TypeAdapter(type(record)).dump_python(record, mode="json")
    version = getattr(type(record), "SCHEMA_VERSION", None)
    if version is not None:
        data = {"schema": version, **data}
    return data


def option(
    default: Any = MISSING, doc: str = "", *, factory: Callable[[], Any] | None = None
) -> Any:
    """Declare one house-rule option: its default (the product's ruling) and its meaning.

    Use as a dataclass field of a game's frozen ``Options``:
    ``costly_success: bool = option(True, "Allow Costly Success.")``; give
    ``factory`` instead of ``default`` for mutable-looking defaults.
    """
    if factory is not None:
        return field(default_factory=factory, metadata={"doc": doc})
    return field(default=default, metadata={"doc": doc})


def describe_options(options_type: type[Any]) -> list[dict[str, Any]]:
    """Each house-rule option: name, default and the ``doc`` from its field metadata."""
    out = []
    for f in fields(options_type):
        default: Any = f.default
        if f.default_factory is not MISSING:
            default = f.default_factory()
        doc = f.metadata.get("doc", "")
        out.append({"name": f.name, "default": _jsonable(default), "doc": doc})
    return out


# ---------------------------------------------------------------------------
# the protocol and the registry


@runtime_checkable
class Ruleset(Protocol):
    """What every game package offers (module attribute ``RULESET``)."""

    name: str
    title: str
    sheet_type: type[Any]
    options_type: type[Any]

    def validate(self, sheet: Any, options: Any) -> tuple[Problem, ...]:
        """Every rule the sheet breaks (empty when it is legal)."""
        ...

    def actions(self) -> Mapping[str, type[Any]]:
        """Action name -> action type (a frozen dataclass of its inputs)."""
        ...

    def resolve(self, action: Any, state: Any, roller: Roller, options: Any) -> Outcome:
        """Resolve one action against the state with dice from ``roller``."""
        ...

    def odds(self, action: Any, state: Any, options: Any) -> Distribution[Any]:
        """The exact distribution of what :meth:`resolve` can yield."""
        ...


SYSTEMS: dict[str, str] = {
    "mnemonic": "referee.systems.mnemonic",
    "mongrel": "referee.systems.mongrel",
    "mneme": "referee.systems.mneme",
    "arm": "referee.systems.arm",
}
"""Game name -> the package that implements it (imported on first use)."""


def names() -> tuple[str, ...]:
    """The games whose packages are installed, in registry order."""
    from importlib.util import find_spec

    return tuple(n for n, mod in SYSTEMS.items() if find_spec(mod) is not None)


def get(name: str) -> Ruleset:
    """The ruleset registered as ``name``; :class:`RulesError` listing the known ones."""
    key = name.strip().lower()
    if key not in SYSTEMS or key not in names():
        raise RulesError(f"unknown game {name!r}; known: {', '.join(names()) or 'none'}")
    module = importlib.import_module(SYSTEMS[key])
    ruleset: Ruleset = module.RULESET
    return ruleset
