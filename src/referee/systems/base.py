"""The contract every game implements, and the pieces all four share.

A game package (``referee.systems.<name>``) exposes ``RULESET``, an instance of
its subclass of :class:`Ruleset`. The live table, the CLI, the web and the
analysis speak only this contract, so they treat every game alike:

* ``sheet_type`` and :meth:`Ruleset.validate` - the stored character record and
  every rule it breaks (as :class:`Problem` values, never only the first);
* ``options_type`` - the table's house rules, a frozen dataclass whose
  defaults are the rulings (principle 3);
* ``state_type`` and :meth:`Ruleset.initial_state` - what a table tracks
  (characters by id and the game's own counters), a frozen
  :class:`~referee.systems.state.GameState`;
* :meth:`Ruleset.table` - every action declared once, in the game's ``ruleset.py``:
  its name, its type (in the game's ``actions.py``: a frozen :class:`Action`
  dataclass of its inputs that names characters by id) and its planner
  (:func:`declare`), the one place a game says how the action resolves: a
  :class:`~referee.systems.plan.Plan` (a dice program and how its result becomes an
  :class:`Outcome`). :meth:`Ruleset.actions`,
  :meth:`Ruleset.action_name`, :meth:`Ruleset.plan` (and the one error,
  :class:`IllegalAction`, for an action the rules refuse), :meth:`Ruleset.resolve`
  and :meth:`Ruleset.odds` are derived from it here, once, for every game;
* :meth:`Ruleset.apply` - the outcome's changes folded into the state (pure).

The model is python-chess's variants: one base with neutral hook defaults,
each game overriding only what its rules need.
"""

from __future__ import annotations

import copy
import importlib
import re
import typing
from abc import ABC
from collections.abc import Hashable, Mapping
from dataclasses import MISSING, dataclass, fields, is_dataclass, replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar, cast

from referee.dice.odds import Distribution
from referee.dice.roller import Roller, is_manual
from referee.errors import (
    DiceError,
    IllegalAction,
    InvalidSheet,
    NotationError,
    OddsTooComplex,
    Problem,
    RulesError,
)
from referee.systems import SYSTEMS as SYSTEMS
from referee.systems.examples import package_data, shelf
from referee.systems.outcome import (
    TABLE,
    Change,
    JSONObject,
    JSONValue,
    Modifier,
    Outcome,
    jsonable,
    outcome_data,
    outcome_from_data,
    probability_map,
    problem_data,
    recorded,
)
from referee.systems.plan import Dice, Plan, Procedure, Trace
from referee.systems.records import (
    bound_problems,
    data_from_pairs,
    describe_fields,
    describe_options,
    dump_record,
    load_record,
    option,
    param,
)
from referee.systems.sheetview import SheetView
from referee.systems.state import Decision, GameState, apply_changes
from referee.systems.turns import Turns, TurnSeat

if TYPE_CHECKING:
    from referee.systems.bestiary import Entry
    from referee.systems.building import ExampleInfo, GameBuilder
    from referee.systems.variants import CheckVariants
    from referee.systems.words import Words

__all__ = [
    "ROLES",
    "TABLE",
    "Action",
    "ActionTable",
    "Change",
    "Conflict",
    "Decision",
    "Declared",
    "Dice",
    "DiceError",
    "GameState",
    "Helpless",
    "IllegalAction",
    "InvalidSheet",
    "JSONObject",
    "JSONValue",
    "Ladder",
    "Modifier",
    "NotationError",
    "OddsTooComplex",
    "Outcome",
    "Plan",
    "Planner",
    "Problem",
    "Procedure",
    "Role",
    "RulesError",
    "Ruleset",
    "Trace",
    "TurnSeat",
    "Turns",
    "Unknown",
    "Verdict",
    "apply_changes",
    "bound_problems",
    "data_from_pairs",
    "declare",
    "describe_fields",
    "describe_options",
    "dump_record",
    "get",
    "jsonable",
    "load_record",
    "names",
    "option",
    "outcome_data",
    "outcome_from_data",
    "param",
    "probability_map",
    "problem_data",
    "slug",
]

SheetT = TypeVar("SheetT")
StateT = TypeVar("StateT", bound=GameState[Any])
OptionsT = TypeVar("OptionsT")
ActionT = TypeVar("ActionT", bound="Action")
TableStateT = TypeVar("TableStateT")
TableOptionsT = TypeVar("TableOptionsT")
ActionC = TypeVar("ActionC", bound="Action", contravariant=True)
SC = TypeVar("SC", contravariant=True)
OC = TypeVar("OC", contravariant=True)


# ---------------------------------------------------------------------------
# how a character takes part in an action, and the conditions that forbid it

Role = Literal["act", "defend", "strike-back", "help", "respond", "recover", "target", "care"]
"""How a character an action names takes part in it:

* ``act`` - takes the action by choice (the ``actor`` unless declared otherwise);
* ``defend`` - answers an attack with a defence or resists (a parry, a Resist roll);
* ``strike-back`` - strikes back at another's failure (Mneme CE's threat);
* ``help`` - joins another's roll (ARM's group task);
* ``respond`` - a roll or choice that is no action: what befalls the character asks it
  (Mneme CE's dying roll, Mongrel's answer to a terminal hit, ARM's taking a blow);
* ``recover`` - recovers (Mongrel: the only action at 0 Action Points);
* ``target`` - is chosen as the object of another's action (attacked, hurt);
* ``care`` - is cared for or kept by the referee (first aid, the referee's records).
"""

ROLES: Mapping[str, str] = {
    "act": "act",
    "defend": "defend",
    "strike-back": "strike back",
    "help": "help",
    "respond": "respond",
    "recover": "recover",
    "target": "be chosen as a target",
    "care": "be cared for",
}
"""Each :data:`Role` as a refusal says it ("cannot strike back")."""


@dataclass(frozen=True)
class Helpless:
    """A condition a game's text says leaves a character unable to do some things: its
    name in the game's words (``"Dead"``, ``"Dying"``, ``"inactive (unconscious)"``), the
    :data:`Role` s a character in it may still take (everything else is refused before
    any die), the section of the text that says so, and what ends it, if the text says."""

    condition: str
    allows: frozenset[str]
    rule: str = ""
    until: str = ""
    """What ends it, if the text says (said with every refusal)."""

    def __post_init__(self) -> None:
        unknown = set(self.allows) - set(ROLES)
        if unknown:
            raise ValueError(f"unknown roles {sorted(unknown)}; known: {', '.join(ROLES)}")

    def forbids(self, role: str) -> bool:
        """Whether a character in this condition is refused ``role``."""
        return role not in self.allows

    def refusal(self, name: str, role: str) -> str:
        """The refusal in the game's words: ``"Brad is Dead and cannot act"``."""
        until = f" (until {self.until})" if self.until else ""
        return f"{name} is {self.condition} and cannot {ROLES.get(role, role)}{until}"


# ---------------------------------------------------------------------------
# actions


@dataclass(frozen=True)
class Action:
    """The base of every action: a frozen dataclass of the action's inputs.

    A field named ``actor`` is the id of the character taking the action (a
    player may take it for a character they own); an action without one, or
    with ``referee_only`` set, is the referee's (passing time, reshuffling the
    deck). Fields are declared with :func:`param` so their meaning and bounds
    are known to forms and the command line; the bounds are checked here
    whenever an action is built.
    """

    referee_only: ClassVar[bool] = False
    free: ClassVar[bool] = False
    """A free action (the dice tray's roll): anyone but an observer takes it, it changes
    nothing, and no decision the rules wait for holds it up."""
    reads: ClassVar[tuple[str, ...] | None] = None
    """The fields naming the characters whose sheets the action's odds read (``None``:
    every character it names); a table tells a player what a preview depends on from it
    (:meth:`Ruleset.sheets_read`)."""
    moves_time: ClassVar[bool] = False
    """An action that moves the table's time or turn on (a new round, rounds or hours
    passing, a new turn order): it waits for every decision the rules wait for, since
    the decision belongs to the moment it leaves."""

    def __post_init__(self) -> None:
        problems = bound_problems(self, rule=type(self).__name__)
        if problems:
            raise IllegalAction("; ".join(str(p) for p in problems), tuple(problems))

    def actors(self) -> tuple[str, ...]:
        """The ids of the characters who take this action (empty: the referee's)."""
        actor = getattr(self, "actor", None)
        return (actor,) if isinstance(actor, str) else ()

    def characters(self) -> tuple[str, ...]:
        """Every character this action involves: its actors and every character a field
        names (declared ``param(ref="character")``, in the action or in a record it holds,
        such as a Mneme CE threat's attacker), each once, in field order."""
        found = list(self.actors())
        for record, name in _naming(self):
            value = getattr(record, name)
            for cid in (value,) if isinstance(value, str) else value or ():
                if isinstance(cid, str) and cid and cid not in found:
                    found.append(cid)
        return tuple(found)

    def nested_choices(self) -> dict[str, tuple[str, ...]]:
        """The fields of the records this action holds that are a character's choice
        (``param(decided_by=...)`` inside, say, a threat) and hold a value other than their
        default, by their dotted path, each with the characters whose choice it is: a
        player gives them only for characters they own (left at the default, the owner's
        own default applies; nobody is asked)."""
        out: dict[str, tuple[str, ...]] = {}
        for path, record in _held_records(self):
            for name, by, default in _decided_fields(type(record)):
                who = getattr(record, by)
                ids = (who,) if isinstance(who, str) and who else ()
                if ids and getattr(record, name) != default:
                    out[f"{path}.{name}"] = ids
        return out

    def referee_fields(self) -> tuple[str, ...]:
        """The fields (dotted paths inside held records) declared ``param(referee=True)``
        (the GM's modifier) that hold a value other than their default: a player's such
        value waits for the referee's approval."""
        out: list[str] = []
        for path, record in (("", self), *_held_records(self)):
            for f in fields(record):  # type: ignore[arg-type]
                if not f.metadata.get("referee"):
                    continue
                default = f.default_factory() if f.default_factory is not MISSING else f.default
                if getattr(record, f.name) != default:
                    out.append(f"{path}.{f.name}" if path else f.name)
        return tuple(out)

    def roles(self) -> dict[str, str]:
        """How each character this action names takes part (:data:`Role`), by id: a field
        declared ``param(role=...)`` says it; otherwise the ``actor`` acts and any other
        field naming characters makes them a ``target``. The first role a character is
        given stands. An action whose roles hang on its other fields overrides this."""
        found: dict[str, str] = {}
        for name, role in _role_fields(type(self)):
            value = getattr(self, name)
            for cid in (value,) if isinstance(value, str) else value or ():
                if isinstance(cid, str) and cid:
                    found.setdefault(cid, role)
        return found

    def decisions(self) -> dict[str, tuple[str, ...]]:
        """The fields given a value other than their default that are another character's
        choice (declared ``param(decided_by=...)``), each with the characters whose choice
        it is: a player may give them only for characters they own."""
        return {k: ids for k, (ids, given) in self.deciders().items() if given}

    def deciders(self) -> dict[str, tuple[tuple[str, ...], bool]]:
        """Every field that is a character's choice (``param(decided_by=...)``) and names
        one: the characters whose choice it is, and whether the field holds a value other
        than its default."""
        out: dict[str, tuple[tuple[str, ...], bool]] = {}
        for name, by, default in _decided_fields(type(self)):
            who = getattr(self, by)
            ids = (
                (who,)
                if isinstance(who, str)
                else tuple(w for w in who or () if isinstance(w, str))
            )
            if ids:
                out[name] = (ids, getattr(self, name) != default)
        return out


_DECIDED: dict[object, tuple[tuple[str, str, Any], ...]] = {}


def _decided_fields(cls: type) -> tuple[tuple[str, str, Any], ...]:
    """``(field, deciding field, default)`` for every field of ``cls`` declared with
    ``decided_by`` (a required field has no default: any value is a choice); read once
    per action type."""
    found = _DECIDED.get(cls)
    if found is None:
        out = []
        for f in fields(cls):
            by = f.metadata.get("decided_by")
            if by:
                default = f.default_factory() if f.default_factory is not MISSING else f.default
                out.append((f.name, str(by), default))
        found = _DECIDED[cls] = tuple(out)
    return found


def _held_records(action: object) -> list[tuple[str, object]]:
    """The records an action's fields hold (a threat, a check's inputs), by field path,
    nested ones too."""
    out: list[tuple[str, object]] = []
    todo: list[tuple[str, object]] = [("", action)]
    while todo:
        path, record = todo.pop()
        for name in _record_fields(type(record)):
            value = getattr(record, name)
            if is_dataclass(value) and not isinstance(value, type):
                where = f"{path}.{name}" if path else name
                out.append((where, value))
                todo.append((where, value))
    return out


_RECORD_FIELDS: dict[object, tuple[str, ...]] = {}


def _record_fields(cls: type) -> tuple[str, ...]:
    """The fields of ``cls`` that may hold a record (any but plain numbers, text and
    flags); read once per type."""
    found = _RECORD_FIELDS.get(cls)
    if found is None:
        plain = {"int", "str", "bool", "float", "int | None", "str | None", "bool | None"}
        found = _RECORD_FIELDS[cls] = tuple(
            f.name for f in fields(cls) if str(f.type) not in plain and not f.name.startswith("_")
        )
    return found


def _naming(action: Action) -> list[tuple[object, str]]:
    """``(record, field)`` for every field naming characters, in the action and in the
    records it holds."""
    found: list[tuple[object, str]] = [(action, n) for n in _character_fields(type(action))]
    for _, record in _held_records(action):
        found += [(record, n) for n in _character_fields(type(record))]
    return found


_NAMING: dict[object, tuple[str, ...]] = {}


def _character_fields(cls: type) -> tuple[str, ...]:
    """The fields of ``cls`` that name characters (``param(ref="character")``); read once
    per action type."""
    found = _NAMING.get(cls)
    if found is None:
        found = _NAMING[cls] = tuple(
            f.name for f in fields(cls) if f.metadata.get("ref") == "character"
        )
    return found


_ROLES: dict[object, tuple[tuple[str, str], ...]] = {}


def _role_fields(cls: type[Action]) -> tuple[tuple[str, str], ...]:
    """``(field, role)`` for the actor and every field of ``cls`` naming characters, the
    actor first; read once per action type."""
    found = _ROLES.get(cls)
    if found is None:
        out: list[tuple[str, str]] = []
        for f in fields(cls):
            ref, role = f.metadata.get("ref"), f.metadata.get("role")
            if f.name == "actor":
                out.insert(0, (f.name, str(role or "act")))
            elif ref == "character" or role:
                out.append((f.name, str(role or "target")))
        found = _ROLES[cls] = tuple(out)
    return found


def slug(name: str) -> str:
    """A character id from a name: lower case, runs of other characters as ``-``.

    Example::

        >>> slug("Mickey Ruane")
        'mickey-ruane'
        >>> slug("  Sister Margaret's Ghost!")
        'sister-margaret-s-ghost'
    """
    text = re.sub(r"[^a-z0-9]+", "-", name.strip().lower()).strip("-")
    return text or "character"


@dataclass(frozen=True)
class Ladder:
    """Named steps on a numeric scale (a result ladder, difficulty presets).

    ``steps`` are ``(lowest value, label)`` in ascending order; a value takes
    the label of the highest step at or below it (values below the first step
    take the first label).

    Example::

        >>> ladder = Ladder(((0, "Failure"), (5, "Success"), (10, "Triumph")))
        >>> ladder.label(7), ladder.label(-2), ladder.value("triumph")
        ('Success', 'Failure', 10)
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
# the one table of actions


class Planner(Protocol[ActionC, SC, OC]):
    """The rule that plans one action type: ``planner(action, state, options)`` is the
    action's :class:`Plan`, or :class:`RulesError` if the rules refuse it now."""

    def __call__(self, action: ActionC, state: SC, options: OC, /) -> Plan: ...


@dataclass(frozen=True)
class Declared(Generic[TableStateT, TableOptionsT]):
    """One action as a game declares it (:func:`declare`): its type and its planner."""

    kind: type[Action]
    planner: Planner[Action, TableStateT, TableOptionsT]


def declare(
    kind: type[ActionT], planner: Planner[ActionT, TableStateT, TableOptionsT]
) -> Declared[TableStateT, TableOptionsT]:
    """The table entry for the action type ``kind`` planned by ``planner`` (a planner
    of that very type: the type checker holds the two together). The base calls the
    planner only with an action of exactly ``kind`` (:meth:`Ruleset.plan`)."""
    return Declared(kind, cast("Planner[Action, TableStateT, TableOptionsT]", planner))


ActionTable = Mapping[str, Declared[TableStateT, TableOptionsT]]
"""A game's actions: name (lower case, words joined by ``-``) -> :class:`Declared`."""


# ---------------------------------------------------------------------------
# what the analysis reads


@dataclass(frozen=True)
class Conflict:
    """How the analysis studies a fight in this game: its conflict model, named by a
    dotted path (``"referee.analysis.models.mongrel:MongrelConflict"``, resolved by
    :mod:`referee.analysis.scenario`: the rules never import the analysis above them),
    and the default table: two seats (id -> ``"example:<id>"`` or a sheet), one a side,
    the model's parameters for them, and the house rules the fight is studied under."""

    model: str
    seats: Mapping[str, JSONValue]
    params: Mapping[str, JSONValue] = param(factory=dict, doc="the model's parameters")
    options: Mapping[str, JSONValue] = param(factory=dict, doc="the table's house rules")


def _conflict(data: object, where: str) -> Conflict:
    """A :class:`Conflict` from its JSON; :class:`RulesError` naming what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("model"), str):
        raise RulesError(f"{where}: an object with the model's dotted path expected")
    seats, params, options = data.get("seats"), data.get("params", {}), data.get("options", {})
    objects = all(isinstance(x, dict) for x in (seats, params, options))
    if not objects or set(data) - _CONFLICT:
        known = ", ".join(sorted(_CONFLICT))
        raise RulesError(f"{where}: 'seats', 'params' and 'options' are objects; keys: {known}")
    return Conflict(data["model"], seats, params, options)  # type: ignore[arg-type]


_CONFLICT = {"model", "seats", "params", "options"}


@dataclass(frozen=True)
class Unknown:
    """A number an action's odds read from one character's sheet, for a participant who may
    not see that sheet: whose it is, what it is in the game's words ("Wit, with the mods
    named"), the values the rules allow (from the text), and the action's plan with each
    value in place of the sheet's (:meth:`Ruleset.unknown`). A preview shows the chance for
    every value instead of the one the sheet holds; the plan for a value reads nothing
    else of that sheet."""

    character: str
    what: str
    values: tuple[int, ...]
    plan: typing.Callable[[int], Plan]
    allowed: str = ""
    """Where the values come from, in words ("a human's stat, ARM: Stats")."""


@dataclass(frozen=True)
class Verdict:
    """What checking a sheet finds: the ``problems`` that make it illegal (none: legal),
    and what the game says of it besides: ``summary`` after "valid", ``lines`` shown in
    place of the problems one a line, ``data`` beside ``valid`` and ``problems`` in JSON."""

    problems: tuple[Problem, ...]
    summary: str = ""
    lines: tuple[str, ...] = ()
    data: JSONObject = param(factory=dict, doc="more of the verdict, as JSON")


# ---------------------------------------------------------------------------
# the contract

_TYPES = ("sheet_type", "state_type", "options_type")


class Ruleset(ABC, Generic[SheetT, StateT, OptionsT]):
    """One game's rules behind one contract (see the module text).

    A game subclass sets ``name``, ``title``, ``sheet_type``, ``state_type`` and
    ``options_type`` and declares its actions in :meth:`table` (their types in its
    ``actions.py``); everything else is derived from the game's files by their roles
    (``sheet.validate``, ``state.Seat.of``, ``present.sheet_view``...) or has a neutral
    default.

    Example::

        A whole check, as a table makes it: ARM's example character Brad tries a Fitness
        task against difficulty 6.

        >>> arm = get("arm")
        >>> options = arm.options_type()  # the house rules at their defaults
        >>> state = arm.seat(arm.initial_state(options), "brad", arm.examples()["brad"], options)
        >>> task = arm.load_action("task", {"actor": "brad", "stat": "Fitness", "difficulty": 6})
        >>> arm.chance(task, state, options)  # exact, before any die is drawn
        Fraction(5, 6)
        >>> outcome = arm.resolve(task, state, SeededRoller(1), options)
        >>> [d.face for d in outcome.faces], outcome.result, outcome.label, outcome.success
        ([2, 5], -1, 'Partial failure', False)
    """

    name: ClassVar[str]
    title: ClassVar[str]
    sheet_type: type[SheetT]
    state_type: type[StateT]
    options_type: type[OptionsT]

    def __init_subclass__(cls, **kwargs: object) -> None:
        """``class Game(Ruleset[Sheet, State, Options])`` sets ``sheet_type``,
        ``state_type`` and ``options_type`` from its parameters (unless it sets them)."""
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            args = typing.get_args(base)
            if typing.get_origin(base) is Ruleset and all(isinstance(a, type) for a in args):
                for attr, arg in zip(
                    ("sheet_type", "state_type", "options_type"), args, strict=True
                ):
                    if attr not in cls.__dict__:
                        setattr(cls, attr, arg)

    # -- what a game must say ------------------------------------------------

    def validate(
        self, sheet: SheetT, options: OptionsT, state: StateT | None = None
    ) -> tuple[Problem, ...]:
        """Every rule the sheet breaks (empty when it is legal) at a table with these house
        rules (``options``) and this ``state`` (what the table adds to the rules: ARM's
        setting with the referee's added weapons; ``None``: no table, the game's own
        lists): the game's ``sheet.validate(sheet, options)``, unless the game's lists
        live in the state (ARM overrides it)."""
        found: tuple[Problem, ...] = self._wing("sheet").validate(sheet, options)
        return found

    def table(self) -> ActionTable[StateT, OptionsT]:
        """Every action of the game, declared once: name (lower case, words joined by
        ``-``) -> its type (the game's ``actions.py``) and its planner (:func:`declare`).
        Each game declares it in its ``ruleset.py``, where the planners are imported: they
        import the action types, and nothing in the game imports the table, so no import
        loops back. None by default."""
        return {}

    def seat(self, state: StateT, cid: str, sheet: SheetT, options: OptionsT) -> StateT:
        """``state`` with the character ``cid`` seated from ``sheet``: a new one as the
        game's ``Seat.of(sheet)`` (its ``state.py``: what a fresh seat tracks, from the
        sheet), a seated one with its sheet replaced, keeping what the table tracks."""
        old = state.characters.get(cid)
        new = self._wing("state").Seat.of(sheet) if old is None else replace(old, sheet=sheet)
        return replace(state, characters={**state.characters, cid: new})

    # -- neutral defaults ----------------------------------------------------

    def _wing(self, role: str) -> Any:
        """The game's module for a shared role (``actions``, ``sheet``: the same file
        names in every game's package)."""
        return importlib.import_module(f"{self.package()}.{role}")

    def after_plan(self, action: Action, state: StateT, options: OptionsT, plan: Plan) -> Plan:
        """``plan`` with what the game does around every action's plan (Mneme CE's lost
        aim, ARM's decisions waited for); unchanged by default."""
        return plan

    def conditions(self) -> tuple[Helpless, ...]:
        """Every condition the game's text makes helpless, with what it still allows: the
        ``CONDITIONS`` of the game's ``conditions.py`` (none by default)."""
        found: tuple[Helpless, ...] = getattr(self._conditions_wing(), "CONDITIONS", ())
        return found

    def helpless(self, state: StateT, cid: str, options: OptionsT) -> Helpless | None:
        """The condition of :meth:`conditions` the seated character ``cid`` is in now
        (``None``: none, or not seated): the game's ``conditions.helpless(seat, options)``."""
        seat = state.characters.get(cid)
        wing = self._conditions_wing()
        if seat is None or wing is None:
            return None
        found: Helpless | None = wing.helpless(seat, options)
        return found

    def can(self, state: StateT, cid: str | None, role: str, options: OptionsT) -> bool:
        """Whether the character ``cid`` may take part in ``role`` now (one not seated,
        or none, may: the rules know nothing that stops them)."""
        if cid is None:
            return True
        found = self.helpless(state, cid, options)
        return found is None or not found.forbids(role)

    def check_helpless(self, action: Action, state: StateT, options: OptionsT) -> None:
        """Refuse, before any die, an action that asks a character what their condition
        forbids (:meth:`helpless`, :meth:`Action.roles`), naming the condition in the
        game's words."""
        if not state.characters:
            return
        for cid, role in action.roles().items():
            found = self.helpless(state, cid, options)
            if found is not None and found.forbids(role):
                name = str(state.characters[cid].sheet.name)
                raise IllegalAction(found.refusal(name, role))

    def _conditions_wing(self) -> Any:
        """The game's ``conditions`` module, or ``None`` if it has none."""
        return self._optional_wing("conditions")

    def _optional_wing(self, role: str) -> Any:
        """The game's module for a role not every game has (``conditions``,
        ``variants``), or ``None`` if it has none; looked up once."""
        key = f"_{role}_module"
        found = self.__dict__.get(key, MISSING)
        if found is MISSING:
            from importlib.util import find_spec

            name = f"{self.package()}.{role}"
            found = importlib.import_module(name) if find_spec(name) is not None else None
            self.__dict__[key] = found
        return found

    def variants(self) -> CheckVariants[OptionsT] | None:
        """How the analysis compares variants of the game's check
        (:mod:`referee.systems.variants`): the ``VARIANTS`` of the game's ``variants.py``,
        or ``None`` if it has none."""
        found: CheckVariants[OptionsT] | None = getattr(
            self._optional_wing("variants"), "VARIANTS", None
        )
        return found

    def package(self) -> str:
        """The game's package (where its ``data/`` lives): the one the ruleset's class is
        defined in."""
        return type(self).__module__.rpartition(".")[0] or type(self).__module__

    def conflict(self) -> Conflict | None:
        """The game's conflict model for the analysis and its default table, from the
        package's ``data/conflict.json`` (``None``: the game has no analysis)."""
        found = self.__dict__.get("_conflict", MISSING)
        if found is MISSING:
            data = package_data(self.package(), "conflict.json")
            found = None if data is None else _conflict(data, f"{self.name} data/conflict.json")
            self.__dict__["_conflict"] = found
        return cast("Conflict | None", found)

    def examples(self) -> Mapping[str, SheetT]:
        """The example characters by id (seated at demo tables), each a stored sheet in
        the package's ``data/examples/`` (:mod:`referee.systems.examples`)."""
        found: dict[str, SheetT] | None = self.__dict__.get("_examples")
        if found is None:
            ids = shelf(self.package()).sheets
            found = self.__dict__["_examples"] = {k: self.example(k) for k in ids}
        return dict(found)

    def example(self, name: str) -> SheetT:
        """The example character called ``name`` (its id or another spelling the text
        uses); :class:`RulesError` listing the known ones."""
        return self.load_sheet(self.example_data(name))

    def example_data(self, name: str) -> JSONObject:
        """The stored sheet (JSON) of the example character called ``name`` (a copy of
        its own: the caller may change it)."""
        books = shelf(self.package())
        return copy.deepcopy(dict(books.sheets[books.key(name)]))

    def builder(self) -> GameBuilder | None:
        """The game's guided character builder (its package's ``builder.BUILDER``, see
        :mod:`referee.systems.building`), or ``None``."""
        from referee.systems.building import game_builder

        return game_builder(self.name)

    def bestiary(self) -> Mapping[str, Entry]:
        """The game's adversaries and templates by id (:mod:`referee.systems.bestiary`):
        the package's ``data/bestiary.json``, each entry's sheet the game's own."""
        from referee.systems.bestiary import bestiary

        return bestiary(self.package()).entries

    def adversary(self, name: str) -> Entry:
        """The bestiary's entry called ``name`` (its id or name); :class:`RulesError`
        listing the known ones."""
        from referee.systems.bestiary import bestiary

        return bestiary(self.package()).entry(name)

    def example_info(self) -> Mapping[str, ExampleInfo]:
        """Where each of :meth:`examples` comes from (the rule text's section, or the
        package) and its documented discrepancies, by id
        (:func:`referee.systems.building.example_mark`): the package's
        ``data/examples.json``."""
        return shelf(self.package()).info

    def initial_state(self, options: OptionsT) -> StateT:
        """The state of a new table: nobody seated, nothing tracked yet."""
        return self.state_type()

    def unseat(self, state: StateT, cid: str) -> StateT:
        """``state`` without the character ``cid`` (and the decisions it owed)."""
        state.character(cid)
        characters = {k: v for k, v in state.characters.items() if k != cid}
        pending = tuple(d for d in state.pending if d.actor != cid)
        return replace(state, characters=characters, pending=pending)

    def apply(self, state: StateT, outcome: Outcome) -> StateT:
        """The outcome's changes folded into ``state`` (pure; the same for a replayed
        outcome loaded from JSON)."""
        return apply_changes(state, outcome.changes)

    def sheet_view(
        self, sheet: SheetT, seat: object | None, options: OptionsT, state: StateT | None = None
    ) -> SheetView:
        """The sheet laid out as the game's own character sheet, for people
        (:mod:`referee.systems.sheetview`); ``seat`` is the character's record at a table
        (what play tracks about it), or ``None`` for a sheet not seated, and ``state`` the
        table's state (what the table adds to the rules: ARM's setting of weapons), if any.
        It is the ``sheet_view(sheet, seat, options, state)`` of the game's ``present.py``;
        a game without one lists the sheet's fields in words."""
        present = self._optional_wing("present")
        if present is None:
            return self._neutral_view(sheet)
        found: SheetView = present.sheet_view(sheet, seat, options, state)
        return found

    def _neutral_view(self, sheet: SheetT) -> SheetView:
        """The sheet's fields in words (:func:`~referee.systems.sheetview.neutral_view`)."""
        from referee.systems.sheetview import neutral_view

        data = self.dump_sheet(sheet)
        return neutral_view(str(data.get("name") or "character"), data)

    def sheet_view_safe(
        self, sheet: SheetT, seat: object | None, options: OptionsT, state: StateT | None = None
    ) -> SheetView:
        """:meth:`sheet_view`, or the neutral listing of the sheet's fields if the game's
        layout cannot read this sheet (one the referee seated although it breaks rules):
        a page shows every seated sheet, never an error instead."""
        try:
            return self.sheet_view(sheet, seat, options, state)
        except (RulesError, KeyError, TypeError, ValueError, IndexError):
            return self._neutral_view(sheet)

    def words(self, names: Mapping[str, str] | None = None) -> Words:
        """How the game's outcomes, changes, prompts and refusals read, with the
        characters' ``names`` by id: the ``WORDS`` of the game's ``words.py``
        (:mod:`referee.systems.words`), or the plain default."""
        from importlib.util import find_spec

        from referee.systems.words import WORDS

        name = f"{self.package()}.words"
        found = importlib.import_module(name) if find_spec(name) is not None else None
        voice: Words = getattr(found, "WORDS", WORDS)
        return voice.with_names(names)

    def sheet_summary(self, sheet: SheetT, options: OptionsT) -> str:
        """What a legal sheet's check says of it besides ``valid`` (Mneme CE: its HP, damage
        and condition); empty by default."""
        return ""

    def referees(self, sheet: SheetT) -> bool:
        """Whether the rules make this character the referee's to run, never a player's
        (Mneme CE's adversaries, ch. 2): a demo table seats it with no player. False by
        default."""
        return False

    def verdict(self, sheet: SheetT, options: OptionsT) -> Verdict:
        """A sheet's check: the rules it breaks (:meth:`validate`), a legal one's
        :meth:`sheet_summary`. A game that says more of a sheet overrides it (an override
        may take more inputs by keyword: ARM's setting and template)."""
        problems = self.validate(sheet, options)
        return Verdict(problems, "" if problems else self.sheet_summary(sheet, options))

    def turns(self, state: StateT, options: OptionsT) -> Turns:
        """Whose turn it is (:class:`~referee.systems.turns.Turns`): each game's
        ``turns.py``; nothing running by default."""
        return Turns()

    def tracker(self, state: StateT, options: OptionsT) -> JSONObject:
        """What a table shows of the state: ``{"table": [[label, value]...],
        "characters": {id: [[label, value]...]}}``, labels in words. The default lists every
        field but the sheet (which :meth:`sheet_view` lays out, and which a table may keep
        to its player)."""
        from referee.systems.sheetview import words

        data = self.dump_state(state)
        characters = data.pop("characters", {})
        rows = {
            cid: [[words(k), v] for k, v in fields_.items() if k != "sheet"]
            if isinstance(fields_, dict)
            else []
            for cid, fields_ in (characters.items() if isinstance(characters, dict) else [])
        }
        table = [[words(k), v] for k, v in data.items() if k != "schema"]
        return {"table": table, "characters": rows}

    def waiting(
        self, state: StateT, names: Mapping[str, str], *, choices: bool = False
    ) -> list[JSONValue]:
        """The tracker's rows for what the rules wait for: ``["Waiting for <name>",
        prompt]`` for each pending decision, the actor by name (``names``: id -> name),
        the prompt followed by its ``choices`` ("(defend or take-blow)") if asked."""
        rows: list[JSONValue] = []
        for d in state.pending:
            shown = f"{d.prompt} ({' or '.join(d.choices)})" if choices else d.prompt
            rows.append([f"Waiting for {names.get(d.actor, d.actor)}", shown])
        return rows

    # -- derived once, for every game ----------------------------------------

    def declared(self) -> ActionTable[StateT, OptionsT]:
        """:meth:`table`, read once."""
        found: ActionTable[StateT, OptionsT] | None = self.__dict__.get("_table")
        if found is None:
            found = self.__dict__["_table"] = self.table()
        return found

    def actions(self) -> Mapping[str, type[Action]]:
        """Action name (lower case, words joined by ``-``) -> action type, from
        :meth:`table`."""
        return {name: entry.kind for name, entry in self.declared().items()}

    def plan(self, action: Action, state: StateT, options: OptionsT) -> Plan:
        """What ``action`` rolls in ``state`` and how the result becomes an outcome, by its
        planner in :meth:`table` (then :meth:`after_plan`); :class:`IllegalAction` if the
        rules do not allow it now: one error for one mistake, whatever rule refused it
        (:class:`OddsTooComplex`, too much work to plan exactly, keeps its kind)."""
        entry = self.declared().get(self.action_name(action))
        if entry is None or entry.kind is not type(action):
            raise IllegalAction(f"{self.title} has no action {type(action).__name__}")
        try:
            plan = entry.planner(action, state, options)
        except (IllegalAction, OddsTooComplex):  # too much work is no refusal: its own kind
            raise
        except RulesError as e:  # a bound or a rule the action would break
            raise IllegalAction(str(e)) from None
        return self.after_plan(action, state, options, plan)

    def every_action(self) -> Mapping[str, type[Action]]:
        """The game's :meth:`actions` and the ones every table has, defined once for all
        games (the dice tray's ``roll``, :mod:`referee.systems.tray`)."""
        found = self.__dict__.get("_every")
        if found is None:
            from referee.systems.tray import Roll

            found = self.__dict__["_every"] = {**self.actions(), "roll": Roll}
        return found

    def action_name(self, action: Action) -> str:
        """The name :meth:`every_action` gives ``action``'s type; :class:`IllegalAction` if
        none."""
        names = self.__dict__.get("_names")
        if names is None:  # built once: the odds path asks this on every call
            names = {kind: name for name, kind in self.every_action().items()}
            self.__dict__["_names"] = names
        found: str | None = names.get(type(action))
        if found is None:
            raise IllegalAction(f"{self.title} has no action {type(action).__name__}")
        return found

    def action_type(self, name: str) -> type[Action]:
        """The action type called ``name``; :class:`IllegalAction` listing the known names."""
        found = self.every_action().get(name.strip().lower())
        if found is None:
            known = ", ".join(self.every_action())
            raise IllegalAction(f"{self.title} has no action {name!r}; known: {known}")
        return found

    def load_action(self, name: str, data: JSONValue) -> Action:
        """An action from JSON-like data, every wrong field named (:class:`InvalidSheet`)."""
        kind = self.action_type(name)
        return load_record(kind, data, rule=f"{self.name} {name}")

    def action_data(self, action: Action) -> JSONObject:
        """``action`` as JSON (what :meth:`load_action` reads back)."""
        return dump_record(action)

    def check_pending(self, action: Action, state: StateT) -> None:
        """Refuse an action that depends on a decision the rules wait for; everything else
        goes on while a player decides.

        An action depends on a decision when it would answer it but is taken by another
        character than the one it waits for (the referee's, with no actor, answers for
        anyone); when it involves the waiting character (as actor or in a field naming
        characters: :meth:`Action.characters`) without answering; or when it moves the
        table's time or turn on (``moves_time``). Other characters' actions, the
        referee's plain rolls and free rolls go on. A decision that holds only its actor
        (``Decision.holds``) refuses that character's own other actions, nothing else.
        """
        if not state.pending:
            return
        name = self.action_name(action)
        actors = action.actors()
        asked = [d for d in state.pending if name in d.choices]
        if any(not actors or d.actor in actors for d in asked):
            return  # it answers a decision
        involved = set(action.characters())
        names = {
            cid: str(getattr(getattr(seat, "sheet", None), "name", "") or cid)
            for cid, seat in state.characters.items()
        }
        say = self.words(names).refusal
        for d in state.pending:
            who = names.get(d.actor, d.actor)
            choices = " or ".join(c.replace("-", " ") for c in d.choices)
            if d.holds == "actor":
                if d.actor in actors:
                    raise IllegalAction(
                        say(f"waiting for {who}: {d.prompt} (answer with {choices} as {who} first)")
                    )
                continue
            if d in asked or action.moves_time or d.actor in involved:
                raise IllegalAction(
                    say(f"waiting for {who}: {d.prompt} (answer with {choices} as {who})")
                )

    def planned(self, action: Action, state: StateT, options: OptionsT) -> Plan:
        """:meth:`plan` after the checks every action passes: it is one of this game's
        actions, nobody it names is asked what their condition forbids
        (:meth:`check_helpless`), and it answers the decision the rules wait for, if any."""
        self.action_name(action)
        if action.free:  # the dice tray's roll: the same at every table, held up by nothing
            from referee.systems.tray import Roll, roll_plan

            assert isinstance(action, Roll)
            return roll_plan(action, self.name)
        self.check_helpless(action, state, options)
        self.check_pending(action, state)
        return self.plan(action, state, options)

    def sheets_read(self, action: Action, options: OptionsT) -> tuple[str, ...]:
        """The characters whose sheets ``action``'s odds read: those its ``reads`` fields
        name, else every character it names (a game whose answer turns on its house
        rules overrides this). A player's preview of an action that reads a sheet they may
        not see says so instead of a number."""
        if action.reads is None:
            return action.characters()
        found: list[str] = []
        for name in action.reads:
            value = getattr(action, name, None)
            for cid in (value,) if isinstance(value, str) else value or ():
                if isinstance(cid, str) and cid and cid not in found:
                    found.append(cid)
        return tuple(found)

    def unknown(self, action: Action, state: StateT, options: OptionsT) -> Unknown | None:
        """The one number ``action``'s odds read from a sheet another may not see, with the
        plan for each value the rules allow (the game's ``unknowns.py``), or ``None`` where
        the game declares none for this action (a preview then says only whose sheet the
        chance depends on). Called only where that sheet is hidden from the one asking."""
        package = type(self).__module__.rpartition(".")[0]
        try:
            found = importlib.import_module(f"{package}.unknowns")
        except ModuleNotFoundError:
            return None
        declared = getattr(found, "unknown", None)
        return cast("Unknown | None", declared(action, state, options)) if declared else None

    def waits_for_roller(self, action: Action, state: StateT, options: OptionsT) -> bool:
        """Whether ``action``'s roll may wait for its own roller's decision once it is seen
        (ARM's push decided after the roll). A table refuses such a roll made blind (its
        roller could not see what they decide on) before any die. Default: never."""
        return False

    def resolve(self, action: Action, state: StateT, roller: Roller, options: OptionsT) -> Outcome:
        """Resolve ``action`` with dice from ``roller``; the outcome records exactly the
        rolls it made and whether the faces were entered by hand."""
        plan = self.planned(action, state, options)
        before = len(roller.records)
        outcome = plan.resolve(roller)
        manual = outcome.manual or is_manual(roller)  # a plan may know faces came by hand
        return recorded(outcome, roller.records[before:], manual)

    def odds(self, action: Action, state: StateT, options: OptionsT) -> Distribution[Hashable]:
        """The exact distribution of what :meth:`resolve` reports, from the same plan."""
        return self.planned(action, state, options).odds()

    def chance(self, action: Action, state: StateT, options: OptionsT) -> Fraction | None:
        """The exact chance that ``action`` succeeds, where its rules say what success is
        (``None`` for an action that neither succeeds nor fails, such as the turn order)."""
        return self.planned(action, state, options).chance()

    def dice_for(
        self, action: Action, state: StateT, options: OptionsT
    ) -> tuple[tuple[int, int], ...]:
        """The dice a player at a real table rolls first for ``action``."""
        return self.planned(action, state, options).dice

    # -- records -------------------------------------------------------------

    def load_sheet(self, data: JSONValue) -> SheetT:
        """A character sheet from JSON, every problem named."""
        return load_record(self.sheet_type, data, rule=f"{self.name} sheet")

    def dump_sheet(self, sheet: SheetT) -> JSONObject:
        """A sheet as JSON."""
        return dump_record(sheet)

    def load_options(self, data: JSONValue) -> OptionsT:
        """House-rule options from JSON (missing ones take their defaults)."""
        return load_record(self.options_type, data, rule=f"{self.name} options")

    def dump_options(self, options: OptionsT) -> JSONObject:
        """Options as JSON."""
        return dump_record(options)

    def load_state(self, data: JSONValue) -> StateT:
        """A table state from JSON (a snapshot)."""
        return load_record(self.state_type, data, rule=f"{self.name} state")

    def dump_state(self, state: StateT) -> JSONObject:
        """A table state as JSON (a snapshot)."""
        return dump_record(state)


# ---------------------------------------------------------------------------
# the registry

# The registry, SYSTEMS (game name -> package), lives in referee.systems.


@cache
def names() -> tuple[str, ...]:
    """The games whose packages are installed, in registry order (looked up once).

    Example::

        >>> names()
        ('mnemonic', 'mongrel', 'mneme', 'arm')
    """
    from importlib.util import find_spec

    return tuple(n for n, mod in SYSTEMS.items() if find_spec(mod) is not None)


def get(name: str) -> Ruleset[Any, Any, Any]:
    """The ruleset registered as ``name``; :class:`RulesError` listing the known ones.

    The registry holds games of different sheet, state and options types, so it
    returns them with those parameters open; each game's own ``RULESET`` is
    fully typed.

    Example::

        >>> get("Mongrel").title
        'Mongrel'
        >>> get("dnd")
        Traceback (most recent call last):
        ...
        referee.errors.RulesError: unknown game 'dnd'; known: mnemonic, mongrel, mneme, arm
    """
    key = name.strip().lower()
    found = _LOADED.get(SYSTEMS.get(key, ""))
    if found is not None:
        return found
    if key not in SYSTEMS or key not in names():
        raise RulesError(f"unknown game {name!r}; known: {', '.join(names()) or 'none'}")
    module = importlib.import_module(SYSTEMS[key])
    ruleset: Ruleset[Any, Any, Any] = module.RULESET
    _LOADED[SYSTEMS[key]] = ruleset
    return ruleset


_LOADED: dict[str, Ruleset[Any, Any, Any]] = {}
"""Each game found by :func:`get`, by its module (every log entry's words ask for their
game: the import machinery once, not per entry)."""
