"""The stored Mneme CE character and its derived values.

Stored: characteristics, skills, damage taken, characteristic damage, the
conditions damage alone does not determine, healing progress, and equipment
(weapons, armour, cover and protection objects). Derived (never stored):
characteristic modifiers, Competence, HP, the HP condition, wound penalties.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

from referee.dice.notation import parse
from referee.errors import NotationError, Problem, RulesError
from referee.systems.mneme.options import Options
from referee.systems.mneme.tables import (
    CHARACTERISTICS,
    OPTIONAL_CHARACTERISTICS,
    PHYSICAL,
    SCALES,
    STORED_CONDITIONS,
)

MAX_VALUE = 99
"""Bound on characteristics and skill levels from untrusted sheets."""
MAX_DAMAGE = 1_000_000
MAX_RATE_OF_ATTACK = 50


@dataclass(frozen=True)
class Weapon:
    """A weapon: damage expression (``3d3-2``), its scale and Rate of Attack (ch. 7)."""

    name: str
    damage: str
    scale: str = ""
    rate_of_attack: int = 1
    skill: str = ""


@dataclass(frozen=True)
class Armour:
    """Worn armour: its rating (AR) and scale (ch. 7, Armor, Armor Scale)."""

    name: str
    rating: int
    scale: str = ""


@dataclass(frozen=True)
class Protection:
    """Cover or a protection object (shield, cinder blocks): ch. 7, Fail Effect and Damage
    to Protection. ``protection`` is the Difficulty it adds and the Fail Effect it can
    absorb; ``armour`` and ``hp`` are its own AR and Hits, ``damage`` what it has taken.
    """

    name: str
    protection: int
    hp: int = 0
    armour: int = 0
    damage: int = 0
    scale: str = ""


@dataclass(frozen=True)
class Sheet:
    """A Mneme CE character as stored (schema version 1)."""

    SCHEMA_VERSION: ClassVar[int] = 1

    name: str
    characteristics: dict[str, int]
    skills: dict[str, int] = field(default_factory=dict)
    damage: int = 0
    characteristic_damage: dict[str, int] = field(default_factory=dict)
    conditions: tuple[str, ...] = ()
    healing_progress: Fraction = Fraction(0)
    therapy_days: int = 0
    stabilised_minutes: int = 0
    weapons: tuple[Weapon, ...] = ()
    armour: tuple[Armour, ...] = ()
    protection: tuple[Protection, ...] = ()
    scale: str = ""
    exhaustion: int = 0
    """Damage from exhaustion (ch. 7: psionics falls under the exhaustion rules; it can
    make the character Wounded); it heals at the Wounded rates, restoring Psi with it."""
    exhaustion_progress: Fraction = Fraction(0)
    adversary: bool = False
    """An adversary, the referee's: it makes no rolls against the PCs (ch. 2, Referee
    Doesn't Roll), which roll against it instead."""

    # -- derived ---------------------------------------------------------
    def characteristic(self, name: str) -> int:
        """The characteristic's current value (after characteristic damage)."""
        key = canonical_characteristic(name)
        if key not in self.characteristics:
            raise RulesError(f"{self.name} has no characteristic {key}")
        return self.characteristics[key] - self.characteristic_damage.get(key, 0)

    def modifier(self, name: str) -> int:
        """Characteristic modifier (ChM) of the current value (ch. 2)."""
        return characteristic_modifier(self.characteristic(name))

    def skill(self, name: str) -> int | None:
        """The skill level, or ``None`` when the character lacks the skill."""
        for key, level in self.skills.items():
            if key.lower() == name.lower():
                return level
        return None

    def competence(self, characteristic: str, skill: str | None, options: Options) -> int:
        """Competence (Cmp) = ChM + skill level; unskilled takes the penalty (ch. 2)."""
        chm = self.modifier(characteristic)
        if skill is None:
            return chm
        level = self.skill(skill)
        if level is None:
            if not options.allow_unskilled:
                raise RulesError(f"{self.name} lacks {skill} and unskilled rolls are not allowed")
            return chm + options.unskilled_penalty
        return chm + level

    @property
    def hp(self) -> int:
        """HP = Str + Dex + End (ch. 7, Hit Points)."""
        return sum(self.characteristics.get(c, 0) for c in PHYSICAL)

    @property
    def best_physical(self) -> int:
        """The highest physical characteristic (the threshold table's variant)."""
        return max(self.characteristics.get(c, 0) for c in PHYSICAL)

    @property
    def dead(self) -> bool:
        """Whether the character is dead."""
        return "Dead" in self.conditions


def characteristic_modifier(value: int) -> int:
    """ChM = floor(value / 3) - 2 (Mneme CE ch. 2, Characteristic Modifier)."""
    return value // 3 - 2


def canonical_characteristic(name: str) -> str:
    """``"str"`` / ``"STR"`` -> ``"Str"``; a :class:`RulesError` for unknown names."""
    for c in (*CHARACTERISTICS, *OPTIONAL_CHARACTERISTICS):
        if c.lower() == name.strip().lower():
            return c
    raise RulesError(
        f"unknown characteristic {name!r}; known: "
        + ", ".join((*CHARACTERISTICS, *OPTIONAL_CHARACTERISTICS))
    )


# ---------------------------------------------------------------------------
# validation

RULE_CHAR = "Mneme CE: Characteristics"
RULE_SKILL = "Mneme CE: Skills"
RULE_HP = "Mneme CE: Hit Points"
RULE_EQUIP = "Mneme CE: Damage, Armor and Scale"
RULE_COVER = "Mneme CE: Fail Effect and Damage to Protection"
RULE_COND = "Mneme CE: Injury Conditions"


def _scale_problem(where: str, scale: str) -> list[Problem]:
    if scale not in SCALES:
        return [Problem(RULE_EQUIP, where, "scale must be '', 'D', 'H' or 'K'", scale)]
    return []


def _damage_problem(where: str, text: str) -> list[Problem]:
    try:
        parse(text)
    except NotationError as e:
        return [Problem(RULE_EQUIP, where, f"not a damage expression: {e}", text)]
    return []


def _stabilised_problems(sheet: Sheet) -> list[Problem]:
    """First aid stabilises a Dying character for End hours: the sheet keeps the minutes
    left with the condition (ch. 7, Dying: Stabilization)."""
    left = sheet.stabilised_minutes
    marked = "Stabilised" in sheet.conditions
    if left < 0:
        return [Problem(RULE_COND, "stabilised_minutes", "cannot be negative", left)]
    if marked and left == 0:
        return [
            Problem(
                RULE_COND,
                "stabilised_minutes",
                "Stabilised needs the minutes of stabilisation left (End hours from first aid)",
                left,
            )
        ]
    if left and not marked:
        return [
            Problem(
                RULE_COND,
                "stabilised_minutes",
                "minutes of stabilisation left without the Stabilised condition",
                left,
            )
        ]
    return []


def weapon(sheet: Sheet, name: str) -> Weapon:
    """The sheet's weapon of that name (case-insensitive), or a :class:`RulesError`."""
    for w in sheet.weapons:
        if w.name.strip().lower() == name.strip().lower():
            return w
    known = ", ".join(w.name for w in sheet.weapons) or "none"
    raise RulesError(f"{sheet.name} has no weapon {name!r} (weapons: {known})")


def validate(sheet: Sheet, options: Options) -> tuple[Problem, ...]:
    """Every rule the sheet breaks (empty when legal)."""
    p: list[Problem] = []
    if not sheet.name.strip():
        p.append(Problem(RULE_CHAR, "name", "a character needs a name", sheet.name))
    known = (*CHARACTERISTICS, *OPTIONAL_CHARACTERISTICS)
    for c in CHARACTERISTICS:
        if c not in sheet.characteristics:
            p.append(Problem(RULE_CHAR, f"characteristics.{c}", "missing characteristic"))
    for c, v in sheet.characteristics.items():
        if c not in known:
            p.append(Problem(RULE_CHAR, f"characteristics.{c}", "unknown characteristic", c))
        elif not 0 <= v <= MAX_VALUE:
            p.append(Problem(RULE_CHAR, f"characteristics.{c}", f"must be 0..{MAX_VALUE}", v))
    for c, v in sheet.characteristic_damage.items():
        where = f"characteristic_damage.{c}"
        if c not in known or c not in sheet.characteristics:
            p.append(Problem(RULE_CHAR, where, "damage to a characteristic the sheet lacks", c))
        elif v < 0:
            p.append(Problem(RULE_CHAR, where, "characteristic damage cannot be negative", v))
        elif v > sheet.characteristics[c]:
            p.append(Problem(RULE_CHAR, where, "exceeds the characteristic", v))
    for s, level in sheet.skills.items():
        if not s.strip():
            p.append(Problem(RULE_SKILL, "skills", "a skill needs a name", s))
        if not 0 <= level <= MAX_VALUE:
            p.append(Problem(RULE_SKILL, f"skills.{s}", f"level must be 0..{MAX_VALUE}", level))
    if not 0 <= sheet.damage <= MAX_DAMAGE:
        p.append(Problem(RULE_HP, "damage", "damage must be 0 or more", sheet.damage))
    for i, cond in enumerate(sheet.conditions):
        if cond not in STORED_CONDITIONS:
            p.append(
                Problem(
                    RULE_COND,
                    f"conditions.{i}",
                    "unknown condition (stored ones: " + ", ".join(STORED_CONDITIONS) + ")",
                    cond,
                )
            )
    if not 0 <= sheet.healing_progress < 1:
        p.append(
            Problem(
                RULE_HP,
                "healing_progress",
                "must be a fraction of a point in [0, 1)",
                str(sheet.healing_progress),
            )
        )
    p += _stabilised_problems(sheet)
    if not 0 <= sheet.exhaustion <= MAX_DAMAGE:
        p.append(Problem(RULE_HP, "exhaustion", "must be 0 or more", sheet.exhaustion))
    if not 0 <= sheet.exhaustion_progress < 1:
        p.append(
            Problem(
                RULE_HP,
                "exhaustion_progress",
                "must be a fraction of a point in [0, 1)",
                str(sheet.exhaustion_progress),
            )
        )
    if sheet.therapy_days < 0:
        p.append(Problem(RULE_HP, "therapy_days", "cannot be negative", sheet.therapy_days))
    p += _scale_problem("scale", sheet.scale)
    for i, w in enumerate(sheet.weapons):
        base = f"weapons.{i}"
        p += _damage_problem(f"{base}.damage", w.damage)
        p += _scale_problem(f"{base}.scale", w.scale)
        if not 1 <= w.rate_of_attack <= MAX_RATE_OF_ATTACK:
            p.append(
                Problem(
                    RULE_EQUIP,
                    f"{base}.rate_of_attack",
                    f"Rate of Attack must be 1..{MAX_RATE_OF_ATTACK}",
                    w.rate_of_attack,
                )
            )
    for i, a in enumerate(sheet.armour):
        if a.rating < 0:
            p.append(Problem(RULE_EQUIP, f"armour.{i}.rating", "AR cannot be negative", a.rating))
        p += _scale_problem(f"armour.{i}.scale", a.scale)
    for i, cov in enumerate(sheet.protection):
        base = f"protection.{i}"
        for name, v in (
            ("protection", cov.protection),
            ("hp", cov.hp),
            ("armour", cov.armour),
            ("damage", cov.damage),
        ):
            if v < 0:
                p.append(Problem(RULE_COVER, f"{base}.{name}", "cannot be negative", v))
        p += _scale_problem(f"{base}.scale", cov.scale)
    return tuple(p)
