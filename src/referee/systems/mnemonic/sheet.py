"""The stored Mnemonic character and its validation.

Sources: Referee's Guide p. 1 ("unusual primary roles", "creation
considerations", "determining aptitude") and the Player's Guide facts in the
product's COMPANION notes (ratings +0..+6, the Primary Role, Status).

The sheet stores what the player chose: the Primary Role (a descriptor, rated
only when it stands in for a Life Role), the Talent ratings, the Life Role
ratings and the current Status. Everything else is derived.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.errors import IllegalAction, Problem
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.tables import (
    FINE,
    INACTIVE,
    INACTIVE_OUTCOMES,
    LUCKY,
    RATING_MAX,
    RATING_MIN,
)
from referee.systems.records import param


@dataclass(frozen=True)
class Status:
    """Health Status: ``Fine``, the injured label (default ``Hurt``) or ``inactive``
    with what the character is (unconscious, immobilized, dead); ``injuries`` counts
    the injuries suffered so far (each worsens the next injury check)."""

    condition: str = param(FINE, "Fine, the injured label (Hurt) or inactive")
    inactive_as: str | None = param(
        None, "what an inactive character is: unconscious, immobilized or dead"
    )
    injuries: int = param(0, "injuries suffered so far (each worsens the next injury check)")

    @property
    def active(self) -> bool:
        """False when the character is unconscious, immobilized or dead."""
        return self.condition != INACTIVE

    def __str__(self) -> str:
        return f"inactive ({self.inactive_as})" if not self.active else self.condition


@dataclass(frozen=True)
class Sheet:
    """A Mnemonic character: a person, an animal, or a vehicle, army or nation.

    ``talent_list`` names the Talent list in the table's options the character
    uses ("standard" = the table's ordinary list; e.g. "frigate").
    """

    SCHEMA_VERSION: ClassVar[int] = 1

    name: str
    primary_role: str
    talents: Mapping[str, int]
    life_roles: Mapping[str, int] = field(default_factory=dict)
    talent_list: str = "standard"
    status: Status = field(default_factory=Status)
    notes: str = ""

    def talent(self, name: str) -> int | None:
        """The rating of a Talent (case-insensitive), or ``None``."""
        return _lookup(self.talents, name)

    def life_role(self, name: str) -> int | None:
        """The rating of a Life Role (case-insensitive), or ``None``."""
        return _lookup(self.life_roles, name)

    def best_talent(self, *, exclude: tuple[str, ...] = (LUCKY,)) -> tuple[str, int]:
        """The highest-rated Talent (first listed on ties), Lucky excluded by default."""
        rated = [(n, v) for n, v in self.talents.items() if n not in exclude]
        if not rated:
            return ("", 0)
        return max(rated, key=lambda nv: nv[1])


def _lookup(ratings: Mapping[str, int], name: str) -> int | None:
    if name in ratings:
        return ratings[name]
    low = name.strip().lower()
    for k, v in ratings.items():
        if k.lower() == low:
            return v
    return None


def _rule(section: str) -> str:
    return f"Mnemonic: {section}"


def _check_ratings(
    where: str, ratings: Mapping[str, int], options: Options, section: str
) -> list[Problem]:
    problems = []
    seen: dict[str, str] = {}
    for name, value in ratings.items():
        path = f"{where}.{name}"
        if not name.strip():
            problems.append(Problem(_rule(section), path, "a name must not be blank", name))
        low = name.strip().lower()
        if low in seen:
            problems.append(
                Problem(
                    _rule(section), path, f"same name as {seen[low]!r} (case-insensitive)", name
                )
            )
        seen[low] = name
        if not RATING_MIN <= value <= RATING_MAX:
            top = options.rating_name(RATING_MAX)
            problems.append(
                Problem(
                    _rule("Ratings"),
                    path,
                    f"ratings run from +0 ({options.rating_name(0)}) to +6 ({top})",
                    value,
                )
            )
    return problems


def expected_talents(sheet: Sheet, options: Options) -> tuple[str, ...] | None:
    """The Talents the sheet must rate under ``options`` (``None``: unknown list)."""
    listed = options.talent_list(sheet.talent_list)
    if listed is None:
        return None
    return (*listed, LUCKY) if options.use_lucky and LUCKY not in listed else listed


def creation_balance(sheet: Sheet, options: Options) -> int:
    """Raises minus drops from the common starting level, over every Talent
    ("creation considerations"); the trade policy needs it <= 0, free-raises
    <= the number of free raises."""
    return sum(v - options.starting_level for v in sheet.talents.values())


def validate(sheet: Sheet, options: Options) -> tuple[Problem, ...]:
    """Every rule the sheet breaks under the table's ``options`` (empty when legal)."""
    problems: list[Problem] = []
    if not sheet.name.strip():
        problems.append(
            Problem(_rule("Characters"), "name", "a character needs a name", sheet.name)
        )
    if not sheet.primary_role.strip():
        problems.append(
            Problem(
                _rule("Primary Role"),
                "primary_role",
                "the Primary Role (what the character is) must be described",
                sheet.primary_role,
            )
        )
    problems += _check_ratings("talents", sheet.talents, options, "Talents")
    problems += _check_ratings("life_roles", sheet.life_roles, options, "Life Roles")
    problems += _check_talent_list(sheet, options)
    problems += _check_creation(sheet, options)
    problems += status_problems(sheet.status)
    return tuple(problems)


def _check_talent_list(sheet: Sheet, options: Options) -> list[Problem]:
    expected = expected_talents(sheet, options)
    section = "creation considerations"
    if expected is None:
        known = ", ".join(["standard", *(n for n, _ in options.talent_lists)])
        return [
            Problem(
                _rule(section),
                "talent_list",
                f"no such Talent list at this table; known: {known}",
                sheet.talent_list,
            )
        ]
    problems = []
    for name in expected:
        if sheet.talent(name) is None:
            problems.append(
                Problem(_rule(section), f"talents.{name}", "this Talent must be rated", None)
            )
    wanted = {n.lower() for n in expected}
    for name, value in sheet.talents.items():
        if name.strip().lower() in wanted:
            continue
        why = (
            "Lucky is not used at this table (option use_lucky)"
            if name.strip().lower() == LUCKY.lower()
            else f"not on the {sheet.talent_list!r} Talent list ({', '.join(expected)})"
        )
        problems.append(Problem(_rule(section), f"talents.{name}", why, value))
    return problems


def _check_creation(sheet: Sheet, options: Options) -> list[Problem]:
    if options.creation == "free":
        return []
    balance = creation_balance(sheet, options)
    allowed = options.free_raises if options.creation == "free-raises" else 0
    if balance <= allowed:
        return []
    start = f"{options.starting_level:+d} ({options.rating_name(options.starting_level)})"
    free = f" beyond {allowed} free raise(s)" if allowed else ""
    return [
        Problem(
            _rule("creation considerations"),
            "talents",
            f"Talents start at {start}; {balance - allowed} raise(s){free} are not paid "
            "for by drops",
            balance,
        )
    ]


def status_problems(status: Status, where: str = "status") -> list[Problem]:
    """Every way ``status`` is impossible (negative injuries, an inactive character
    without an inactive outcome, a blank condition...)."""
    rule = _rule("Status")
    problems = []
    if status.injuries < 0:
        problems.append(Problem(rule, f"{where}.injuries", "cannot be negative", status.injuries))
    if status.condition == INACTIVE:
        if status.inactive_as not in INACTIVE_OUTCOMES:
            problems.append(
                Problem(
                    rule,
                    f"{where}.inactive_as",
                    f"an inactive character is one of {', '.join(INACTIVE_OUTCOMES)}",
                    status.inactive_as,
                )
            )
    elif status.inactive_as is not None:
        problems.append(
            Problem(
                rule,
                f"{where}.inactive_as",
                "only an inactive character has this",
                status.inactive_as,
            )
        )
    if not status.condition.strip():
        problems.append(Problem(rule, f"{where}.condition", "must not be blank", status.condition))
    return problems


def sheet_summary(sheet: Sheet, options: Options) -> dict[str, Any]:
    """Derived view: each rating with its level name, and the Status in words."""
    return {
        "name": sheet.name,
        "primary_role": sheet.primary_role,
        "talents": {n: f"{options.rating_name(v)} (+{v})" for n, v in sheet.talents.items()},
        "life_roles": {n: f"{options.rating_name(v)} (+{v})" for n, v in sheet.life_roles.items()},
        "status": str(sheet.status),
    }


def summary_lines(summary: Mapping[str, Any]) -> list[str]:
    """A character (:func:`sheet_summary`) in lines: name, Primary Role, Status, ratings."""
    lines = [f"{summary['name']} - {summary['primary_role']} ({summary['status']})"]
    for title in ("talents", "life_roles"):
        rows = ", ".join(f"{n} {v}" for n, v in summary[title].items()) or "none"
        lines.append(f"  {title.replace('_', ' ').title()}: {rows}")
    return lines


MAX_INJURIES = 100
"""Bound on an entered number of earlier injuries (untrusted input)."""


def check_worst(worst: str) -> str:
    """``worst`` if it is an inactive outcome; :class:`IllegalAction` otherwise."""
    key = worst.strip().lower()
    if key not in INACTIVE_OUTCOMES:
        raise IllegalAction(
            f"the worst outcome must be one of {', '.join(INACTIVE_OUTCOMES)}, not {worst!r}"
        )
    return key


def check_status(status: Status) -> Status:
    """``status`` if it is a possible Status; :class:`IllegalAction` naming what is wrong."""
    problems = status_problems(status)
    if status.injuries > MAX_INJURIES:
        raise IllegalAction(f"at most {MAX_INJURIES} earlier injuries, not {status.injuries}")
    if problems:
        raise IllegalAction("; ".join(str(p) for p in problems))
    return status
