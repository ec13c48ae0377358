"""Guided character builders, described once for every game.

A game's ``builder`` module (``referee.systems.<game>.builder``) exposes
``BUILDER``, an instance of its subclass of :class:`GameBuilder`. It says three
things, each from the game's character creation chapter:

* :meth:`GameBuilder.spec` - the form: :class:`Section` values holding
  :class:`Field` values of five kinds (``text``, ``number``, ``choice``,
  ``multi`` and ``rows``), with their choices, bounds and the sheet path each
  fills, and the budgets the chapter sets (points to spend);
* :meth:`GameBuilder.assemble` - the answers made into a sheet (JSON, as
  :meth:`~referee.systems.base.Ruleset.load_sheet` reads it), the budgets as
  spent, the choices still legal after the answers so far, and the creation
  rules the answers break that the sheet alone cannot show;
* :meth:`GameBuilder.answers_of` - a sheet (the text's example) as answers, so
  a form can start from it.

:func:`check` runs the whole round once for every game: the answers' shape
against the spec (a wrong type or an unknown field is :class:`BadAnswers`, the
field named), their bounds and choices, the game's own assembly, and the
game's validator on the sheet made. Every problem is named by the builder
field it belongs to, so a page shows it next to that field.

The second half is how a table knows a seated character is one of the rule
text's examples (:func:`example_mark`): its sheet equals the example's, and
its findings are the discrepancies the game documents for it
(:meth:`~referee.systems.base.Ruleset.example_info`).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Final, Literal

from referee.errors import InvalidSheet, Problem, RulesError
from referee.systems.outcome import JSONObject, JSONValue, jsonable, problem_data

if TYPE_CHECKING:
    from referee.systems.base import Ruleset

Kind = Literal["text", "number", "choice", "multi", "rows"]
Answers = Mapping[str, JSONValue]

MAX_TEXT: Final = 200
"""Longest text answer (a name, a vow, a mod's name)."""
MAX_ROWS: Final = 40
"""Most rows a list field takes, whatever the game allows."""
MAX_NUMBER: Final = 10**6
"""Largest number an answer may hold (bounds are the game's; this is the payload's)."""


class BadAnswers(RulesError, ValueError):
    """Answers that do not fit the form's shape (an unknown field, a wrong type, too
    much): a malformed request, not a character that breaks a rule. ``field`` names
    where."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"answers.{where}: {message}")
        self.where = where


@dataclass(frozen=True)
class Choice:
    """One offered value of a ``choice`` or ``multi`` field, with its label for people."""

    value: JSONValue
    label: str


@dataclass(frozen=True)
class Field:
    """One question of a builder form.

    ``kind``: ``text`` (``low``/``high`` bound its length), ``number`` (an integer
    from ``low`` to ``high``), ``choice`` (one of ``choices``), ``multi`` (``low`` to
    ``high`` of ``choices``), ``rows`` (a list of rows, each answering ``columns``;
    ``low`` to ``high`` rows). ``sheet`` is the sheet path the field fills: the
    validator's findings at that path (or under it) are shown next to it.
    ``shown_when`` (a field key and a value) hides the field unless that field has
    that answer. ``required``: an empty answer is a problem.
    """

    key: str
    label: str
    kind: Kind
    help: str = ""
    choices: tuple[Choice, ...] = ()
    low: int | None = None
    high: int | None = None
    default: JSONValue = None
    required: bool = True
    columns: tuple[Field, ...] = ()
    sheet: str = ""
    rule: str = ""
    shown_when: tuple[str, JSONValue] | None = None


@dataclass(frozen=True)
class Section:
    """A step of the form: its title, what the rule text says of it, and its fields."""

    key: str
    title: str
    fields: tuple[Field, ...]
    help: str = ""
    rule: str = ""
    folded: bool = False


@dataclass(frozen=True)
class Budget:
    """Points the creation rules give to spend: ``spent`` of ``total`` over ``fields``.

    ``exact``: the rules want every point spent (a pair summing to 8), not merely no
    more than the total. ``field`` is where an overspent budget is reported.
    """

    key: str
    label: str
    total: int
    spent: int
    fields: tuple[str, ...]
    rule: str = ""
    exact: bool = False
    tally: bool = False
    """Not points to spend but a total the answers make (HP = Str + Dex + End): shown,
    never a problem."""

    @property
    def left(self) -> int:
        """Points still to spend (negative: overspent)."""
        return self.total - self.spent

    def problem(self) -> Problem | None:
        """The budget's broken rule, if any: overspent, or (exact) not all spent."""
        where = self.fields[0] if self.fields else ""
        if self.tally:
            return None
        if self.spent > self.total:
            over = self.spent - self.total
            return Problem(
                self.rule,
                where,
                f"{self.label}: {over} over ({self.spent} spent of {self.total})",
                self.spent,
            )
        if self.exact and self.spent < self.total:
            return Problem(
                self.rule,
                where,
                f"{self.label}: {self.left} still to spend ({self.spent} of {self.total})",
                self.spent,
            )
        return None


@dataclass(frozen=True)
class BuilderSpec:
    """A game's builder form: its sections, and the rule text's chapter it follows."""

    game: str
    title: str
    sections: tuple[Section, ...]
    rule: str = ""
    help: str = ""

    def fields(self) -> dict[str, Field]:
        """Every field by key, in form order."""
        return {f.key: f for s in self.sections for f in s.fields}


@dataclass(frozen=True)
class Draft:
    """What a game's :meth:`GameBuilder.assemble` makes of the answers.

    ``sheet`` is ``None`` when the answers are too incomplete to make one (the
    problems say what is missing). ``offered`` narrows a choice field's choices to the
    ones still legal after the other answers. ``problems`` name builder field keys.
    """

    sheet: JSONObject | None
    budgets: tuple[Budget, ...] = ()
    offered: Mapping[str, tuple[JSONValue, ...]] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True)
class Checked:
    """A builder round's answer: the sheet made, every problem by field, the budgets."""

    sheet: JSONObject | None
    problems: tuple[Problem, ...]
    budgets: tuple[Budget, ...]
    offered: Mapping[str, tuple[JSONValue, ...]]

    @property
    def legal(self) -> bool:
        """A sheet was made and it breaks no rule."""
        return self.sheet is not None and not self.problems

    def data(self) -> JSONObject:
        """As JSON for the page."""
        return {
            "legal": self.legal,
            "sheet": self.sheet,
            "problems": [problem_data(p) for p in self.problems],
            "budgets": [budget_data(b) for b in self.budgets],
            "offered": {k: list(v) for k, v in self.offered.items()},
        }


class GameBuilder(ABC):
    """One game's builder (see the module text); each game's ``builder.BUILDER``."""

    @abstractmethod
    def spec(self, options: Any) -> BuilderSpec:
        """The form under the table's ``options``."""

    @abstractmethod
    def assemble(self, answers: Answers, options: Any) -> Draft:
        """The sheet the answers make, their budgets and what is still legal. The
        answers have the spec's shape (checked by :func:`check`); a missing answer is
        ``None``."""

    @abstractmethod
    def answers_of(self, sheet: JSONObject, options: Any) -> dict[str, JSONValue]:
        """A sheet (JSON) as answers to this form, as near as the form can say it."""


# ---------------------------------------------------------------------------
# the round


def game_builder(game: str) -> GameBuilder | None:
    """The game's ``builder.BUILDER``, or ``None`` if its package has none."""
    from referee.systems import SYSTEMS

    module_name = f"{SYSTEMS.get(game, 'referee.systems.' + game)}.builder"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name == module_name:
            return None
        raise
    found = getattr(module, "BUILDER", None)
    return found if isinstance(found, GameBuilder) else None


def _shape(f: Field, value: JSONValue, where: str) -> JSONValue:
    """``value`` if it has ``f``'s shape, else :class:`BadAnswers`; ``None`` is no
    answer."""
    if value is None:
        return None
    if f.kind == "text" or (f.kind == "choice" and isinstance(value, str)):
        if not isinstance(value, str):
            raise BadAnswers(where, f"{f.label}: give text, not {type(value).__name__}")
        if len(value) > MAX_TEXT:
            raise BadAnswers(where, f"{f.label}: at most {MAX_TEXT} characters")
        return value
    if f.kind == "number":
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadAnswers(where, f"{f.label}: give a whole number, not {value!r}")
        if abs(value) > MAX_NUMBER:
            raise BadAnswers(where, f"{f.label}: a number from -{MAX_NUMBER} to {MAX_NUMBER}")
        return value
    if f.kind == "choice":
        if isinstance(value, dict | float):
            raise BadAnswers(where, f"{f.label}: give one of the offered values")
        return value
    if f.kind == "multi":
        if not isinstance(value, list) or len(value) > max(len(f.choices), 1):
            raise BadAnswers(where, f"{f.label}: give a list of the offered values")
        if any(not isinstance(v, str | int) or isinstance(v, bool) for v in value):
            raise BadAnswers(where, f"{f.label}: give a list of the offered values")
        return value
    # rows
    limit = min(f.high if f.high is not None else MAX_ROWS, MAX_ROWS)
    if not isinstance(value, list):
        raise BadAnswers(where, f"{f.label}: give a list of rows")
    if len(value) > limit:
        raise BadAnswers(where, f"{f.label}: at most {limit} rows")
    columns = {c.key: c for c in f.columns}
    rows: list[JSONValue] = []
    for i, row in enumerate(value):
        if not isinstance(row, dict):
            raise BadAnswers(f"{where}.{i}", f"{f.label}: each row is an object")
        for k in row:
            if k not in columns:
                known = ", ".join(columns)
                raise BadAnswers(f"{where}.{i}.{k}", f"not a column of {f.label} ({known})")
        rows.append({k: _shape(c, row.get(k), f"{where}.{i}.{k}") for k, c in columns.items()})
    return rows


def _bounds(f: Field, value: JSONValue, where: str) -> list[Problem]:
    """The problems of one shaped answer against its field's bounds and choices."""
    rule = f.rule
    if value is None or value == "" or value == []:
        if f.required and f.kind not in ("rows", "multi"):
            return [Problem(rule, where, f"{f.label}: give a value")]
        if f.required and f.kind == "multi" and f.low:
            return [Problem(rule, where, f"{f.label}: choose {f.low}", value)]
        if f.kind == "rows" and f.low:
            return [Problem(rule, where, f"{f.label}: at least {f.low} row(s)", value)]
        return []
    if f.kind == "text" and f.high is not None and len(str(value)) > f.high:
        return [Problem(rule, where, f"{f.label}: at most {f.high} characters", value)]
    too_low = f.low is not None and isinstance(value, int) and value < f.low
    too_high = f.high is not None and isinstance(value, int) and value > f.high
    if f.kind == "number" and (too_low or too_high):
        return [Problem(rule, where, f"{f.label}: from {f.low} to {f.high}", value)]
    offered = [c.value for c in f.choices]
    if f.kind == "choice" and f.choices and value not in offered:
        return [Problem(rule, where, f"{f.label}: not one of the choices", value)]
    if f.kind == "multi" and isinstance(value, list):
        out = [
            Problem(rule, where, f"{f.label}: {v!r} is not one of the choices", v)
            for v in value
            if v not in offered
        ]
        if len(set(map(str, value))) != len(value):
            out.append(Problem(rule, where, f"{f.label}: a choice is taken twice", value))
        lo, hi = f.low or 0, f.high if f.high is not None else len(offered)
        if not lo <= len(value) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            out.append(Problem(rule, where, f"{f.label}: choose {want}", len(value)))
        return out
    if f.kind == "rows" and isinstance(value, list):
        out = []
        if f.low is not None and len(value) < f.low:
            out.append(Problem(rule, where, f"{f.label}: at least {f.low} row(s)", len(value)))
        for i, row in enumerate(value):
            if isinstance(row, dict):
                for c in f.columns:
                    out += _bounds(c, row.get(c.key), f"{where}.{i}.{c.key}")
        return out
    return []


def shaped(spec: BuilderSpec, answers: object) -> dict[str, JSONValue]:
    """Every field's answer (``None`` where none was given) after the shape checks;
    :class:`BadAnswers` naming the first field that does not fit."""
    if not isinstance(answers, Mapping):
        raise BadAnswers("", "answers are an object of field: value")
    fields_ = spec.fields()
    for key in answers:
        if key not in fields_:
            raise BadAnswers(str(key), f"not a field of the {spec.title} builder")
    return {k: _shape(f, answers.get(k), k) for k, f in fields_.items()}


def _visible(f: Field, answers: Mapping[str, JSONValue]) -> bool:
    return f.shown_when is None or answers.get(f.shown_when[0]) == f.shown_when[1]


def field_of(spec: BuilderSpec, sheet_path: str) -> str:
    """The builder field a sheet path belongs to: the field whose ``sheet`` is the path
    or its longest prefix (``""`` when none: a problem of the whole sheet)."""
    best, length = "", -1
    for f in spec.fields().values():
        s = f.sheet
        if s and (sheet_path == s or sheet_path.startswith(s + ".")) and len(s) > length:
            best, length = f.key, len(s)
    return best


def check(ruleset: Ruleset[Any, Any, Any], answers: object, options: Any) -> Checked:
    """One round of a game's builder: the answers' shape (:class:`BadAnswers`), bounds
    and choices, the game's assembly and budgets, and the game's validator on the sheet
    made; every problem named by its builder field."""
    builder = ruleset.builder()
    if builder is None:
        raise RulesError(f"{ruleset.title} has no character builder")
    spec = builder.spec(options)
    given = shaped(spec, answers)
    problems: list[Problem] = []
    for key, f in spec.fields().items():
        if _visible(f, given):
            problems += _bounds(f, given[key], key)
    draft = builder.assemble(given, options)
    problems += draft.problems
    spent = [p for b in draft.budgets if (p := b.problem()) is not None]
    problems += spent
    said = {p.field for p in problems}  # a field the form already faults: said once
    sheet = draft.sheet
    if sheet is not None:
        try:
            loaded = ruleset.load_sheet(sheet)
        except InvalidSheet as e:
            found = e.problems
        else:
            found = tuple(ruleset.validate(loaded, options))
        for p in found:
            where = field_of(spec, p.field)
            if where not in said:
                problems.append(Problem(p.rule, where, p.message, jsonable(p.value)))
    unique: list[Problem] = []
    for p in problems:
        if p not in unique:
            unique.append(p)
    return Checked(sheet, tuple(unique), draft.budgets, draft.offered)


def spec_data(spec: BuilderSpec) -> JSONObject:
    """The form as JSON for the page."""

    def field_data(f: Field) -> JSONObject:
        out: JSONObject = {
            "key": f.key,
            "label": f.label,
            "kind": f.kind,
            "help": f.help,
            "required": f.required,
            "default": f.default,
            "low": f.low,
            "high": f.high,
            "rule": f.rule,
            "sheet": f.sheet,
        }
        if f.choices:
            out["choices"] = [{"value": c.value, "label": c.label} for c in f.choices]
        if f.columns:
            out["columns"] = [field_data(c) for c in f.columns]
        if f.shown_when is not None:
            out["shown_when"] = {"field": f.shown_when[0], "value": f.shown_when[1]}
        return out

    return {
        "game": spec.game,
        "title": spec.title,
        "rule": spec.rule,
        "help": spec.help,
        "sections": [
            {
                "key": s.key,
                "title": s.title,
                "help": s.help,
                "rule": s.rule,
                "folded": s.folded,
                "fields": [field_data(f) for f in s.fields],
            }
            for s in spec.sections
        ],
    }


def budget_data(b: Budget) -> JSONObject:
    """A budget as JSON: what is spent, what is left, and whether it is within the rule."""
    return {
        "key": b.key,
        "label": b.label,
        "total": b.total,
        "spent": b.spent,
        "left": b.left,
        "exact": b.exact,
        "tally": b.tally,
        "fields": list(b.fields),
        "rule": b.rule,
        "ok": b.problem() is None,
    }


def number(answers: Answers, key: str, default: int = 0) -> int:
    """An answer as a whole number (``default`` when missing)."""
    value = answers.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def text(answers: Answers, key: str, default: str = "") -> str:
    """An answer as text (``default`` when missing)."""
    value = answers.get(key)
    return value if isinstance(value, str) else default


def rows(answers: Answers, key: str) -> list[dict[str, JSONValue]]:
    """A rows answer as a list of objects (empty when missing)."""
    value = answers.get(key)
    return [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def picks(answers: Answers, key: str) -> list[str]:
    """A multi-choice answer as a list of text (empty when missing)."""
    value = answers.get(key)
    return [str(v) for v in value] if isinstance(value, list) else []


NAME_LENGTH = 64
"""The longest name a form takes (a character's, a weapon's, a skill's)."""


def named(key: str, label: str, *, rule: str = "", sheet: str = "") -> Field:
    """A required name: text of 1 to :data:`NAME_LENGTH` characters."""
    return Field(key, label, "text", low=1, high=NAME_LENGTH, sheet=sheet, rule=rule)


def listing(
    key: str, label: str, most: int, columns: tuple[Field, ...], *, rule: str, help: str = ""
) -> Field:
    """The rows of the sheet's list ``key`` (its skills, weapons, Life Roles): none to
    ``most`` rows, each answering ``columns``."""
    return Field(
        key,
        label,
        "rows",
        help=help,
        low=0,
        high=most,
        required=False,
        columns=columns,
        sheet=key,
        rule=rule,
    )


def choices(values: Sequence[str], labels: Mapping[str, str] | None = None) -> tuple[Choice, ...]:
    """Choices whose labels are their values (or ``labels[value]``)."""
    return tuple(Choice(v, (labels or {}).get(v, v)) for v in values)


# ---------------------------------------------------------------------------
# the text's example characters


@dataclass(frozen=True)
class ExampleNote:
    """A documented discrepancy of one of the example characters: what the text says,
    and what the product rules. ``fields`` are the sheet paths where the validator
    reports it (empty: the validator finds nothing there; the note explains)."""

    note: str
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class ExampleInfo:
    """Where an example character comes from: the rule text (``from_text``, ``where``
    citing its section) or the package, and its documented discrepancies."""

    from_text: bool
    where: str
    notes: tuple[ExampleNote, ...] = ()


@dataclass(frozen=True)
class ExampleMark:
    """A seated character that is the example ``example``: where it comes from, the
    findings its notes document, and the findings beyond them (still a warning)."""

    example: str
    info: ExampleInfo
    documented: tuple[JSONObject, ...]
    beyond: tuple[JSONObject, ...]


@cache
def _example_sheets(game: str) -> dict[str, str]:
    """Each example's sheet as canonical JSON text, by id (computed once per game)."""
    import json

    from referee.systems.base import get

    rules = get(game)
    return {
        cid: json.dumps(rules.dump_sheet(sheet), sort_keys=True)
        for cid, sheet in rules.examples().items()
    }


def which_example(ruleset: Ruleset[Any, Any, Any], sheet: JSONObject | None) -> str | None:
    """The id of the example whose sheet ``sheet`` is exactly (``None``: not one)."""
    if sheet is None:
        return None
    import json

    try:
        known = _example_sheets(ruleset.name)
    except RulesError:
        return None
    text_ = json.dumps(sheet, sort_keys=True)
    return next((cid for cid, s in known.items() if s == text_), None)


PACKAGE_EXAMPLE: Final = ExampleInfo(False, "")
"""An example the package made, with nothing more to say of where it comes from."""


def example_mark(
    ruleset: Ruleset[Any, Any, Any], sheet: JSONObject | None, findings: Sequence[JSONObject]
) -> ExampleMark | None:
    """How a table shows a seated character that is one of the game's examples:
    ``None`` unless its sheet is exactly an example's (an edited example is a character
    like any other). Its findings at the fields its documented notes name are
    documented; the rest are ``beyond``."""
    cid = which_example(ruleset, sheet)
    if cid is None:
        return None
    info = ruleset.example_info().get(cid, PACKAGE_EXAMPLE)
    covered = {f for n in info.notes for f in n.fields}
    documented = tuple(f for f in findings if f.get("field") in covered)
    beyond = tuple(f for f in findings if f.get("field") not in covered)
    return ExampleMark(cid, info, documented, beyond)
