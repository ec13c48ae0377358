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
from typing import Any

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution
from referee.dice.roller import Roller, is_manual
from referee.systems.arm.checks import MAX_VALUE, exact_plain, read_plain
from referee.systems.arm.options import Options
from referee.systems.arm.tables import (
    DAMAGE_TABLE,
    LEVEL_CAP,
    SHOCK_LEVELS,
    WOUND_LEVELS,
)
from referee.systems.base import Change, IllegalAction, Outcome, Procedure, RulesError


@dataclass(frozen=True)
class Blow:
    """The numbers of one landed blow.

    ``result`` is the successful attack's result, ``damage`` the weapon's
    damage value, ``strength`` a strength mod (0 when it does not apply),
    ``wound_armour`` / ``shock_armour`` the two armour values (equal for
    armour with one value), ``stun`` marks a stunning attack.
    """

    result: int
    damage: int
    toughness: int
    strength: int = 0
    wound_armour: int = 0
    shock_armour: int = 0
    stun: bool = False

    def __post_init__(self) -> None:
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
    margin reaches the Destroyed threshold.
    """

    total: int
    margin: int
    wound_margin: int
    shock_margin: int
    wound: int
    shock: int
    destroyed: bool

    @property
    def label(self) -> str:
        """ "Destroyed", or the wound and shock levels by name."""
        if self.destroyed:
            return "Destroyed"
        return f"{WOUND_LEVELS[self.wound]} wound, {SHOCK_LEVELS[self.shock]} shock"


def table_levels(margin: int) -> tuple[int, int]:
    """The damage table: a margin of 0 or more -> (wound, shock); below 0 -> (0, 0)."""
    if margin < 0:
        return 0, 0
    return DAMAGE_TABLE[min(margin, len(DAMAGE_TABLE) - 1)]


def damage_rule(blow: Blow, options: Options) -> Callable[[tuple[int, int]], Damage]:
    """The rule: the d6 - d6 roll -> :class:`Damage` (one roll, two subtractions)."""
    armour = options.armour_counts
    wound_guard = blow.toughness + (blow.wound_armour if armour else 0)
    shock_guard = blow.toughness + (blow.shock_armour if armour else 0)
    shift = options.stun_shift if blow.stun else 0
    toughness = blow.toughness
    attack = blow.attack

    def rule(stat: tuple[int, int]) -> Damage:
        total = attack + stat[0]
        wm, sm = total - wound_guard, total - shock_guard
        wound = table_levels(wm)[0]
        shock = table_levels(sm)[1]
        if shift and wm >= 0:
            wound = max(0, wound - shift)
        if shift and sm >= 0:
            shock = min(LEVEL_CAP, shock + shift)
        return Damage(total, total - toughness, wm, sm, wound, shock, wm >= options.destroyed_at)

    return rule


def damage_procedure(
    blow: Blow, options: Options | None = None
) -> Procedure[tuple[int, int], Damage]:
    """The damage roll as a procedure over d6 - d6."""
    return Procedure(((2, 6),), read_plain, exact_plain, damage_rule(blow, options or Options()))


def damage_odds(blow: Blow, options: Options | None = None) -> Distribution[Damage]:
    """Exact distribution of what a blow does (same rule as the roll)."""
    return damage_procedure(blow, options).odds()


def level_odds(blow: Blow, options: Options | None = None) -> dict[str, Distribution[Any]]:
    """Exact wound-level, shock-level and destroyed distributions of a blow."""
    dist = damage_odds(blow, options)
    return {
        "wound": dist.map(lambda d: d.wound),
        "shock": dist.map(lambda d: d.shock),
        "destroyed": dist.map(lambda d: d.destroyed),
    }


# ---------------------------------------------------------------------------
# the condition of a character and how damage accumulates


@dataclass(frozen=True)
class NamedWound:
    """One recorded wound ("shattered left ankle") and its level."""

    description: str
    level: int


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
        if self.destroyed:
            return "Destroyed"
        return f"{WOUND_LEVELS[self.wound]}, {SHOCK_LEVELS[self.shock]}"


def accumulate(condition: Condition, wound: int, shock: int, destroyed: bool = False) -> Condition:
    """Add new levels to the present ones, capped at 5 (2 + 3 -> Dead; 1 + 2 -> Reeling)."""
    if min(wound, shock) < 0:
        raise RulesError("damage levels are never negative")
    return replace(
        condition,
        wound=min(LEVEL_CAP, condition.wound + wound),
        shock=min(LEVEL_CAP, condition.shock + shock),
        destroyed=condition.destroyed or destroyed,
    )


def record_wound(
    condition: Condition, description: str, level: int, options: Options | None = None
) -> Condition:
    """Record a named wound; a character carries at most ``max_wounds`` of them."""
    opts = options or Options()
    if not opts.record_wounds:
        raise IllegalAction("named wounds are not recorded at this table (record_wounds is off)")
    if not 1 <= level <= LEVEL_CAP:
        raise RulesError(f"a wound's level is 1..{LEVEL_CAP}, not {level}")
    if not description.strip():
        raise RulesError("a named wound needs a description")
    if len(condition.wounds) >= opts.max_wounds:
        raise IllegalAction(f"a character has at most {opts.max_wounds} recorded wounds")
    return replace(condition, wounds=(*condition.wounds, NamedWound(description.strip(), level)))


def resolve_damage(
    blow: Blow,
    roller: Roller,
    *,
    options: Options | None = None,
    condition: Condition | None = None,
    target: str = "defender",
) -> Outcome:
    """Roll the damage of one blow; the outcome carries the levels and the new condition."""
    opts = options or Options()
    procedure = damage_procedure(blow, opts)
    faces, damage = procedure.roll(roller)
    before = condition or Condition()
    after = accumulate(before, damage.wound, damage.shock, damage.destroyed)
    changes = tuple(
        Change(target, name, delta=delta, reason="damage")
        for name, delta in (
            ("wound", after.wound - before.wound),
            ("shock", after.shock - before.shock),
        )
        if delta
    )
    if damage.destroyed and not before.destroyed:
        changes += (Change(target, "destroyed", value=True, reason="damage 16+"),)
    return Outcome(
        system="arm",
        action="damage",
        faces=tuple(DieRoll(f, 6) for f in faces),
        target=blow.toughness,
        result=damage.wound_margin,
        success=damage.wound_margin >= 0 or damage.shock_margin >= 0,
        label=damage.label,
        changes=changes,
        details={
            "total": damage.total,
            "margin": damage.margin,
            "wound_margin": damage.wound_margin,
            "shock_margin": damage.shock_margin,
            "wound": damage.wound,
            "shock": damage.shock,
            "wound_label": WOUND_LEVELS[damage.wound],
            "shock_label": SHOCK_LEVELS[damage.shock],
            "destroyed": damage.destroyed,
            "condition": after.label,
            "condition_wound": after.wound,
            "condition_shock": after.shock,
        },
        manual=is_manual(roller),
        rolls=roller.records[-1:],
    )
