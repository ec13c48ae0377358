"""What a resolved action leaves behind: an immutable :class:`Outcome` and its JSON.

An outcome carries its whole derivation (principle 2): the dice faces, kept
and dropped, every modifier with its source, the target, the result and its
label, the state changes it implies as :class:`Change` data, and the roller's
records of exactly the rolls this outcome made. Everything in it is JSON-ready
so a table can store an outcome in an event and load it back equal
(:func:`outcome_data` and :func:`outcome_from_data`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import Field, dataclass, field, fields, is_dataclass, make_dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, TypeAlias, TypeVar, get_type_hints

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution, fraction_text
from referee.dice.roller import RollRecord
from referee.errors import Problem, RulesError

JSONValue: TypeAlias = (
    bool | int | float | str | Sequence["JSONValue"] | Mapping[str, "JSONValue"] | None
)
"""A value that JSON can carry (sequences become lists, mappings objects)."""

H = TypeVar("H", bound=Hashable)

JSONObject: TypeAlias = dict[str, JSONValue]
"""A JSON object as loaded (``json.loads`` of an object)."""


def jsonable(value: object) -> JSONValue:
    """``value`` in plain JSON form: lists for sequences, string keys, dataclasses as
    objects of their fields, fractions as ``"num/den"`` text.

    Raises :class:`RulesError` for anything JSON cannot carry (a set's order is
    not defined, so a set becomes a sorted list).
    """
    kind = type(value)  # the common cases by their exact type first: a live table's hot path
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return value  # type: ignore[return-value]
    if kind is dict:
        return {str(k): jsonable(v) for k, v in value.items()}  # type: ignore[attr-defined]
    if kind is list or kind is tuple:
        return [jsonable(v) for v in value]  # type: ignore[attr-defined]
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, set | frozenset):
        return [jsonable(v) for v in sorted(value, key=repr)]
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in fields(value)}
    raise RulesError(f"{type(value).__name__} cannot be stored as JSON: {value!r}")


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


TABLE = "table"
"""The :attr:`Change.target` of a change to the table itself rather than a character."""


@dataclass(frozen=True, slots=True)
class Change:
    """A change to the state that an outcome implies, as data.

    Rules never mutate anything: :meth:`~referee.systems.base.Ruleset.apply`
    folds changes into the state. ``target`` is a character id of the state or
    :data:`TABLE`; ``field`` a dotted path inside it (``"body.damage"``; a
    segment inside a mapping is a key). ``delta`` adds to a number; otherwise
    ``value`` (JSON, converted to the field's type) replaces it.
    """

    target: str
    field: str
    delta: int | None = None
    value: JSONValue = None
    reason: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", jsonable(self.value))

    def __str__(self) -> str:
        what = f"{self.delta:+d}" if self.delta is not None else f"= {self.value!r}"
        why = f" ({self.reason})" if self.reason else ""
        return f"{self.target}.{self.field} {what}{why}"


@dataclass(frozen=True)
class Outcome:
    """An immutable resolved action carrying its whole derivation.

    ``faces`` holds every die (kept and dropped), ``modifiers`` each modifier
    with its source, ``target`` the number rolled against, ``result`` the
    game's effect or result, ``label`` its name on the game's ladder and
    ``changes`` the state changes it implies. ``details`` carries the game's
    other numbers (Successes, Fail Effect, damage rolls...) as JSON. ``manual``
    is true when the faces were rolled on physical dice and entered by hand;
    ``rolls`` are the roller's records of this outcome's rolls only.
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
    details: Mapping[str, JSONValue] = field(default_factory=dict)
    manual: bool = False
    rolls: tuple[RollRecord, ...] = ()

    def __post_init__(self) -> None:
        # sequences given as lists become tuples: an Outcome must not change after the fact
        for name in ("faces", "modifiers", "changes", "rolls"):
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))
        plain = jsonable(self.details)
        if not isinstance(plain, dict):
            raise RulesError("an outcome's details must be a mapping")
        object.__setattr__(self, "details", MappingProxyType(plain))

    @property
    def modifier_total(self) -> int:
        """The sum of all modifiers."""
        return sum(m.value for m in self.modifiers)

    def _detail(self, key: str, kinds: type | tuple[type, ...], what: str) -> JSONValue:
        value = self.details.get(key)
        wrong_bool = isinstance(value, bool) and bool not in _as_tuple(kinds)
        if not isinstance(value, kinds) or wrong_bool:
            raise RulesError(
                f"{self.system} {self.action}: detail {key!r} is not {what}: {value!r}"
            )
        return value

    def number(self, key: str) -> int:
        """The whole-number detail ``key`` (:class:`RulesError` if absent or not a number)."""
        value = self._detail(key, int, "a whole number")
        assert isinstance(value, int)
        return value

    def text(self, key: str) -> str:
        """The text detail ``key``."""
        value = self._detail(key, str, "text")
        assert isinstance(value, str)
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        """The true/false detail ``key`` (``default`` when absent)."""
        if key not in self.details:
            return default
        value = self._detail(key, bool, "true or false")
        return value is True

    def items(self, key: str) -> list[JSONValue]:
        """The list detail ``key`` (empty when absent)."""
        if key not in self.details:
            return []
        value = self._detail(key, list, "a list")
        assert isinstance(value, list)
        return value

    def record(self, key: str) -> dict[str, JSONValue]:
        """The object detail ``key`` (empty when absent)."""
        if key not in self.details:
            return {}
        value = self._detail(key, dict, "an object")
        assert isinstance(value, dict)
        return value


def recorded(outcome: Outcome, rolls: Sequence[RollRecord], manual: bool) -> Outcome:
    """``outcome`` with the roller's records of its rolls and whether its faces came by
    hand: ``dataclasses.replace`` without checking the details again (they were made
    plain JSON when ``outcome`` was made; every resolved action passes here)."""
    new = object.__new__(type(outcome))
    new.__dict__.update(outcome.__dict__, rolls=tuple(rolls), manual=manual)
    return new


def _as_tuple(kinds: type | tuple[type, ...]) -> tuple[type, ...]:
    return kinds if isinstance(kinds, tuple) else (kinds,)


def outcome_data(outcome: Outcome) -> JSONObject:
    """A JSON-ready view of an outcome (a renderer: the outcome never formats itself).

    :func:`outcome_from_data` reads it back into an equal outcome.
    """
    return {
        "system": outcome.system,
        "action": outcome.action,
        "faces": [_face_data(d) for d in outcome.faces],
        "modifiers": [
            {"value": m.value, "source": m.source, "kind": m.kind} for m in outcome.modifiers
        ],
        "target": outcome.target,
        "result": outcome.result,
        "success": outcome.success,
        "label": outcome.label,
        "changes": [
            {
                "target": c.target,
                "field": c.field,
                "delta": c.delta,
                "value": c.value,
                "reason": c.reason,
            }
            for c in outcome.changes
        ],
        "details": dict(outcome.details),
        "manual": outcome.manual,
        "rolls": [
            {"faces": list(r.faces), "sides": r.sides, "kind": r.kind, "seed": r.seed}
            for r in outcome.rolls
        ],
    }


def _face_data(d: DieRoll) -> JSONObject:
    """One die as JSON: face, sides, kept, and what the notation's modifiers added only
    where they apply (a Fate die's or clamped face's ``value``, ``rerolled``,
    ``exploded``), so a plain die's record is what it always was."""
    out: JSONObject = {"face": d.face, "sides": d.sides, "kept": d.kept}
    if d.value is not None:
        out["value"] = d.value
    if d.rerolled:
        out["rerolled"] = True
    if d.exploded:
        out["exploded"] = True
    return out


def _face(f: dict[str, Any]) -> DieRoll:
    """A die :func:`_face_data` wrote."""
    return DieRoll(
        f["face"],
        f["sides"],
        f["kept"],
        f.get("value"),
        f.get("rerolled", False),
        f.get("exploded", False),
    )


def outcome_from_data(data: JSONValue, *, trusted: bool = False) -> Outcome:
    """The :class:`Outcome` that :func:`outcome_data` wrote; :class:`RulesError` naming
    the first field that is missing or of the wrong type.

    ``trusted`` skips the field-by-field validation for data this program wrote
    itself and whose integrity is checked another way (a table's hash chain):
    folding a long log is then several times faster.
    """
    from referee.systems.records import load_record

    if trusted and isinstance(data, dict):
        return _trusted_outcome(data)

    loaded = load_record(_StoredOutcome, data, rule="stored outcome")
    stored = {f.name: getattr(loaded, f.name) for f in fields(loaded)}
    changes = tuple(Change(c.target, c.field, c.delta, c.value, c.reason) for c in loaded.changes)
    return Outcome(**{**stored, "changes": changes})


def _trusted_outcome(d: dict[str, Any]) -> Outcome:
    return Outcome(
        system=d["system"],
        action=d["action"],
        faces=tuple(_face(f) for f in d["faces"]),
        modifiers=tuple(Modifier(m["value"], m["source"], m["kind"]) for m in d["modifiers"]),
        target=d["target"],
        result=d["result"],
        success=d["success"],
        label=d["label"],
        changes=tuple(
            Change(c["target"], c["field"], c["delta"], c["value"], c["reason"])
            for c in d["changes"]
        ),
        details=d["details"],
        manual=d["manual"],
        rolls=tuple(
            RollRecord(tuple(r["faces"]), r["sides"], r["kind"], r["seed"]) for r in d["rolls"]
        ),
    )


# the stored shape, for validation only (load_record reports every problem with its path):
# an outcome's own fields, where a change's value and the details are any JSON (pydantic
# cannot read the recursive JSONValue); Change and Outcome check them when the outcome is built


@dataclass(frozen=True)
class _Change:
    target: str
    field: str
    delta: int | None = None
    value: Any = None  # any JSON: checked by Change itself
    reason: str = ""


def _stored_shape(cls: type[Any], **as_json: object) -> type[Any]:
    """A record of ``cls``'s fields and defaults, the ones in ``as_json`` typed as given."""
    hints = get_type_hints(cls)
    return make_dataclass(
        f"Stored{cls.__name__}",
        [(f.name, as_json.get(f.name, hints[f.name]), _default(f)) for f in fields(cls)],
        frozen=True,
    )


def _default(f: Field[Any]) -> Any:
    """A new field with ``f``'s default or factory (a field object belongs to one class)."""
    return field(default=f.default, default_factory=f.default_factory)


_StoredOutcome = _stored_shape(Outcome, changes=tuple[_Change, ...], details=dict[str, Any])


def problem_data(problem: Problem) -> JSONObject:
    """A JSON-ready view of one validator finding."""
    return {
        "rule": problem.rule,
        "field": problem.field,
        "message": problem.message,
        "value": jsonable(problem.value),
    }


def probability_map(dist: Distribution[H]) -> dict[str, str]:
    """``{"outcome": "num/den"}`` in outcome order, reduced fractions."""
    return {str(o): fraction_text(p) for o, p in dist.probabilities().items()}
