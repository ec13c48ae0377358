"""Damage: a blow against Toughness (+ armour) through the damage table.

ARM 1.2, Damage: blow result + damage value (+ strength mod) + d6 - d6 minus
the defender's Toughness and armour; a result of 0 or more is looked up for a
wound level and a shock level. Two armour values mean one roll and two
subtractions; a stunning attack moves a level from wound to shock; levels add
up and stop at 5 (Dead, Unconscious); 16 or more is Destroyed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from referee.dice.odds import Distribution
from referee.systems.arm.checks import MAX_VALUE, Roll, allowed, roll_odds, statistic
from referee.systems.arm.options import DEFAULT_OPTIONS, Options
from referee.systems.arm.tables import (
    DAMAGE_TABLE,
    LEVEL_CAP,
    SHOCK_LEVELS,
    WOUND_LEVELS,
)
from referee.systems.base import IllegalAction, Procedure, RulesError
from referee.systems.state import replaced


@dataclass(frozen=True)
class Blow:
    """The numbers of one landed blow.

    ``result`` is the successful attack's result, ``damage`` the weapon's
    damage value, ``strength`` a strength mod (0 when it does not apply),
    ``wound_armour`` / ``shock_armour`` the two armour values (equal for
    armour with one value), ``stun`` marks a stunning attack, ``ignore`` names
    a sort of damage the blow cannot do (a mental attack does no wounds).
    """

    result: int
    damage: int
    toughness: int
    strength: int = 0
    wound_armour: int = 0
    shock_armour: int = 0
    stun: bool = False
    ignore: Literal["wound", "shock"] | None = None

    def __post_init__(self) -> None:
        if self.ignore not in (None, "wound", "shock"):
            raise RulesError(f"a blow can ignore 'wound' or 'shock' damage, not {self.ignore!r}")
        for name in ("result", "damage", "toughness", "strength", "wound_armour", "shock_armour"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_VALUE:
                raise RulesError(f"blow {name} must be a whole number within +-{MAX_VALUE}")

    @property
    def attack(self) -> int:
        """Everything added before the dice: result + damage value + strength."""
        return self.result + self.damage + self.strength


@dataclass(frozen=True)
class Damage:
    """What a blow did: the rolled total, the margin over Toughness, both margins
    after armour and the two levels.

    A margin below 0 does nothing on its side; ``destroyed`` when the wound
    margin reaches the Destroyed threshold; ``push_cost`` is the shock a
    pushed damage roll cost the attacker (ARM 1.2, Pushing).
    """

    total: int
    margin: int
    wound_margin: int
    shock_margin: int
    wound: int
    shock: int
    destroyed: bool
    push_cost: int = 0

    @property
    def label(self) -> str:
        """ "Destroyed", or the wound and shock levels by name."""
        return _label(self.destroyed, self.wound, self.shock, " wound, ", " shock")


def _label(destroyed: bool, wound: int, shock: int, middle: str, end: str) -> str:
    if destroyed:
        return "Destroyed"
    return f"{WOUND_LEVELS[wound]}{middle}{SHOCK_LEVELS[shock]}{end}"


Levels = tuple[int, int, bool]
"""What a blow does to a condition: (wound level, shock level, Destroyed)."""


def damage_columns(shift: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The damage table's wound and shock columns by margin 0, 1, ..., with a stunning
    attack's ``shift`` applied: wound levels less ``shift`` (not below 0), shock levels
    plus ``shift`` (capped at 5)."""
    return (
        tuple(max(0, wound - shift) for wound, _ in DAMAGE_TABLE),
        tuple(min(LEVEL_CAP, shock + shift) for _, shock in DAMAGE_TABLE),
    )


COLUMNS = tuple(damage_columns(shift) for shift in range(LEVEL_CAP + 1))
""":func:`damage_columns` for every shift 0..5, made once (a stun shift past the levels
is read the same as 5)."""

_NOTHING = (0,) * len(DAMAGE_TABLE)


def guards(blow: Blow, options: Options) -> tuple[int, int]:
    """What the blow total must beat on each side: Toughness plus the wound (shock)
    armour, when the table counts armour (ARM 1.2, Damage: two subtractions)."""
    armour = options.armour_counts
    return (
        blow.toughness + (blow.wound_armour if armour else 0),
        blow.toughness + (blow.shock_armour if armour else 0),
    )


def levels_rule(blow: Blow, options: Options) -> Callable[[int], Levels]:
    """The rule: the d6 - d6 (+ push) roll -> (wound level, shock level, Destroyed).

    One roll, two subtractions (ARM 1.2, Damage): blow result + damage value
    (+ strength) + roll minus each side's guard (:func:`guards`); a margin of 0
    or more is read on the damage table (past its last row, the last row); a
    stunning attack moves ``stun_shift`` levels from wound to shock; a side the
    blow ignores does nothing, and a blow that does no wounds destroys nothing.
    """
    wound_guard, shock_guard = guards(blow, options)
    wound_base, shock_base = blow.attack - wound_guard, blow.attack - shock_guard
    wound_column, shock_column = COLUMNS[min(options.stun_shift, LEVEL_CAP) if blow.stun else 0]
    wounds = blow.ignore != "wound"
    if not wounds:
        wound_column = _NOTHING
    if blow.ignore == "shock":
        shock_column = _NOTHING
    destroyed_at = options.destroyed_at if wounds else None
    top = len(DAMAGE_TABLE) - 1

    def rule(roll: int) -> Levels:
        wm, sm = wound_base + roll, shock_base + roll
        return (
            (wound_column[wm] if wm < top else wound_column[top]) if wm >= 0 else 0,
            (shock_column[sm] if sm < top else shock_column[top]) if sm >= 0 else 0,
            destroyed_at is not None and wm >= destroyed_at,
        )

    return rule


def damage_rule(blow: Blow, options: Options) -> Callable[[Roll], Damage]:
    """The rule: the (d6 - d6 [+ push], push cost) roll -> :class:`Damage`: the
    margins over :func:`guards` and the levels of :func:`levels_rule`."""
    levels = levels_rule(blow, options)
    wound_guard, shock_guard = guards(blow, options)
    attack, toughness = blow.attack, blow.toughness

    def rule(stat: Roll) -> Damage:
        total = attack + stat[0]
        wound, shock, destroyed = levels(stat[0])
        return Damage(
            total,
            total - toughness,
            total - wound_guard,
            total - shock_guard,
            wound,
            shock,
            destroyed,
            stat[1],
        )

    return rule


def damage_procedure(
    blow: Blow, options: Options | None = None, push: bool = False
) -> Procedure[Roll, Damage]:
    """The damage roll as a procedure over d6 - d6 (with the push die when pushed).

    A damage roll is a d6 - d6 roll, so the attacker may push it once where
    the table allows pushing (ARM 1.2, Pushing).
    """
    opts = allowed(options, push)
    return Procedure(*statistic(push), damage_rule(blow, opts))


def damage_odds(
    blow: Blow, options: Options | None = None, push: bool = False
) -> Distribution[Damage]:
    """Exact distribution of what a blow does, every number of it (same rule as the roll)."""
    return damage_procedure(blow, options, push).odds()


def damage_levels_odds(
    blow: Blow, options: Options | None = None, push: bool = False
) -> Distribution[Levels]:
    """Exact distribution of the levels a blow deals: (wound, shock, Destroyed).

    The designer's question ("how often does this axe put Alex down?"): the
    same :func:`levels_rule` as the roll, mapped over the d6 - d6 (+ push)
    roll's values, with no :class:`Damage` record built per outcome.
    """
    return roll_odds(push).map(levels_rule(blow, allowed(options, push)))


# ---------------------------------------------------------------------------
# the condition of a character and how damage accumulates


@dataclass(frozen=True)
class NamedWound:
    """One recorded wound ("shattered left ankle") and its level."""

    description: str
    level: int

    @property
    def label(self) -> str:
        """The wound and its level by name."""
        return f"{self.description} ({WOUND_LEVELS[self.level]})"


@dataclass(frozen=True)
class Condition:
    """Present wound and shock levels (0..5), Destroyed, and any named wounds."""

    wound: int = 0
    shock: int = 0
    destroyed: bool = False
    wounds: tuple[NamedWound, ...] = ()

    @property
    def label(self) -> str:
        """The condition by name."""
        return _label(self.destroyed, self.wound, self.shock, ", ", "")

    def rows(self) -> list[tuple[str, str]]:
        """The condition as (label, value) rows, as a sheet or the table shows it: the
        wound and shock levels by name and number, Destroyed, each named wound."""
        rows = [
            ("Wound", f"{WOUND_LEVELS[self.wound]} ({self.wound})"),
            ("Shock", f"{SHOCK_LEVELS[self.shock]} ({self.shock})"),
        ]
        if self.destroyed:
            rows.append(("Destroyed", "yes"))
        return rows + [(f"Wound {i + 1}", w.label) for i, w in enumerate(self.wounds)]


def accumulate(condition: Condition, wound: int, shock: int, destroyed: bool = False) -> Condition:
    """Add new levels to the present ones, capped at 5 (2 + 3 -> Dead; 1 + 2 -> Reeling)."""
    if min(wound, shock) < 0:
        raise RulesError("damage levels are never negative")
    return replaced(
        condition,
        wound=min(LEVEL_CAP, condition.wound + wound),
        shock=min(LEVEL_CAP, condition.shock + shock),
        destroyed=condition.destroyed or destroyed,
    )


def record_wound(
    condition: Condition, description: str, level: int, options: Options | None = None
) -> Condition:
    """Record a named wound; a character carries at most ``max_wounds`` of them."""
    opts = options or DEFAULT_OPTIONS
    if not opts.record_wounds:
        raise IllegalAction("named wounds are not recorded at this table (record_wounds is off)")
    if not 1 <= level <= LEVEL_CAP:
        raise RulesError(f"a wound's level is 1..{LEVEL_CAP}, not {level}")
    if not description.strip():
        raise RulesError("a named wound needs a description")
    if len(condition.wounds) >= opts.max_wounds:
        raise IllegalAction(f"a character has at most {opts.max_wounds} recorded wounds")
    return replace(condition, wounds=(*condition.wounds, NamedWound(description.strip(), level)))
