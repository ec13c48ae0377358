"""A referee's setting as data: stats, movement, mods, gear, spells, races, costs.

ARM fixes no lists (ARM 1.2, Character Creation: "there are no set lists of
mods"), so every list the rules consult lives in a :class:`Setting`. The
:data:`DEFAULT_SETTING` holds the examples the text gives: the six stats, the
human racial limits, the suggested costs per level, the melee and ranged
weapon tables, the armour table and the fire-ball.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeVar

from referee.errors import Problem

ModKind = Literal["signed", "special", "absolute"]
T = TypeVar("T")


@dataclass(frozen=True)
class Range:
    """Inclusive limits of a stat or movement rate for a race."""

    low: int
    high: int

    def __contains__(self, value: int) -> bool:
        """Whether ``value`` lies within the limits."""
        return self.low <= value <= self.high


@dataclass(frozen=True)
class Race:
    """Racial limits on stats and movement rates (ARM 1.2, Character Creation)."""

    name: str
    stats: dict[str, Range] = field(default_factory=dict)
    movement: dict[str, Range] = field(default_factory=dict)


@dataclass(frozen=True)
class ModDef:
    """A mod in the referee's list: its kind and its price.

    Signed mods cost ``per_level`` times their value (negative values give
    points back); special mods cost ``base`` for the ``minimum`` value plus
    ``per_level`` per level above it and may not go below ``minimum``;
    absolute mods cost ``per_level`` times the size of their value.
    """

    name: str
    kind: ModKind = "signed"
    per_level: int = 3
    base: int = 0
    minimum: int | None = None


@dataclass(frozen=True)
class Weapon:
    """A melee weapon or attack: damage value, attack and parry modifiers, stun.

    ``strength`` says whether a strength mod adds to the damage value.
    """

    name: str
    damage: int
    attack: int = 0
    parry: int = 0
    stun: bool = False
    strength: bool = True


@dataclass(frozen=True)
class RangedWeapon:
    """A missile weapon: damage value, accuracy, maximum range as a log distance.

    ``range_stat`` names a stat added to ``max_range`` (the long bow's FIT+7);
    ``aimed`` picks Dexterity (aimed) or Fitness (thrown); ``dodgeable`` marks
    slow missiles such as stones and spears. ``max_range`` ``None`` = unlimited.
    """

    name: str
    damage: int
    accuracy: int
    max_range: int | None
    range_stat: str | None = None
    aimed: bool = True
    dodgeable: bool = False
    strength: bool = False


@dataclass(frozen=True)
class Armour:
    """Armour values: ``wound`` (the table's Normal) and ``shock`` (its Stun)."""

    name: str
    wound: int
    shock: int


@dataclass(frozen=True)
class Spell:
    """A set spell: the stat that casts it, its casting difficulty, its effect."""

    name: str
    difficulty: int
    stats: tuple[str, ...] = ("Wit", "Willpower")
    accuracy: int | None = None
    damage: int | None = None
    max_range: int | None = None
    dodgeable: bool = False
    radius_m: float | None = None
    group: str = ""
    notes: str = ""


@dataclass(frozen=True)
class Setting:
    """Everything a campaign defines; loadable from JSON like a sheet."""

    SCHEMA_VERSION: ClassVar[int] = 1
    name: str
    stats: tuple[str, ...]
    movement: tuple[str, ...] = ()
    stat_costs: dict[str, int] = field(default_factory=dict)
    default_stat_cost: int = 5
    movement_cost: int = 0
    mods: tuple[ModDef, ...] = ()
    default_mod_cost: int = 3
    special_minimum: int = -10
    weapons: tuple[Weapon, ...] = ()
    ranged: tuple[RangedWeapon, ...] = ()
    armour: tuple[Armour, ...] = ()
    spells: tuple[Spell, ...] = ()
    races: tuple[Race, ...] = ()
    strength_mod: str = "Strength"

    def lines(self) -> list[str]:
        """The setting in words: its stats and movement rates, each weapon's and armour's
        values (ARM 1.2, Combat (Melee); Damage)."""
        said = [f"{self.name}: stats {', '.join(self.stats)}; movement {', '.join(self.movement)}"]
        for w in self.weapons:
            stun = " (stun)" if w.stun else ""
            said.append(
                f"  {w.name}: damage {w.damage}{stun}, attack {w.attack:+d}, parry {w.parry:+d}"
            )
        return said + [
            f"  {a.name}: wound armour {a.wound}, shock armour {a.shock}" for a in self.armour
        ]

    def weapon(self, name: str) -> Weapon | None:
        """The melee weapon called ``name`` (case-insensitive), if listed."""
        return _find(self.weapons, name)

    def ranged_weapon(self, name: str) -> RangedWeapon | None:
        """The ranged weapon called ``name``, if listed."""
        return _find(self.ranged, name)

    def armour_named(self, name: str) -> Armour | None:
        """The armour called ``name``, if listed."""
        return _find(self.armour, name)

    def spell(self, name: str) -> Spell | None:
        """The spell called ``name``, if listed."""
        return _find(self.spells, name)

    def race(self, name: str) -> Race | None:
        """The race called ``name``, if listed."""
        return _find(self.races, name)

    def mod(self, name: str) -> ModDef | None:
        """The mod called ``name``, if listed."""
        return _find(self.mods, name)

    def stat_cost(self, stat: str) -> int:
        """Character points per level of ``stat``."""
        return self.stat_costs.get(stat, self.default_stat_cost)


def _find(items: tuple[T, ...], name: str) -> T | None:
    key = name.strip().lower()
    for item in items:
        if getattr(item, "name", "").lower() == key:
            return item
    return None


STATS = ("Fitness", "Dexterity", "Toughness", "Wit", "Charisma", "Willpower")
MOVEMENT = ("Run", "Walk", "Climb", "Swim")

HUMAN = Race(
    name="human",
    stats={s: Range(3, 9) for s in STATS},
    movement={
        "Run": Range(2, 6),
        "Walk": Range(-2, 4),
        "Climb": Range(-3, 3),
        "Swim": Range(-4, 3),
    },
)

DEFAULT_SETTING = Setting(
    name="ARM 1.2 examples",
    stats=STATS,
    movement=MOVEMENT,
    stat_costs={"Fitness": 10, "Wit": 10},
    default_stat_cost=5,
    mods=(ModDef("Magically Able", "special", per_level=10, base=10, minimum=-10),),
    weapons=(
        Weapon("Fist", 1, 0, -1, stun=True),
        Weapon("Trained Fist", 3, 0, 0, stun=True),
        Weapon("Kick", 4, -1, -2, stun=True),
        Weapon("Club (50cm)", 3, 0, 0, stun=True),
        Weapon("Knife (20cm)", 5, 0, -1),
        Weapon("Sword (100cm)", 7, -1, -1),
        Weapon("Sword (150cm)", 8, -2, -2),
        Weapon("Rapier", 4, 1, 1),
        Weapon("Axe (90cm)", 8, 0, -3),
        Weapon("Shield (50cm)", 0, -1, 3, stun=True),
    ),
    ranged=(
        RangedWeapon("Long bow", 5, 15, 7, range_stat="Fitness"),
        RangedWeapon("Handgun", 7, 17, 12),
        RangedWeapon("Burst-laser rifle", 10, 20, 15),
    ),
    armour=(Armour("Leather", 2, 0), Armour("Chain", 4, 2), Armour("Plate", 7, 4)),
    spells=(
        Spell(
            "Fire-ball",
            7,
            accuracy=20,
            damage=12,
            max_range=None,
            dodgeable=False,
            radius_m=1.0,
            group="fire",
            notes="miscast: may explode in the caster's hand or fizzle",
        ),
    ),
    races=(HUMAN,),
)
"""The text's examples as a shipped setting (costs for mods are the product's guess)."""


def setting_problems(setting: Setting) -> tuple[Problem, ...]:
    """Every inconsistency in a setting: duplicates, empty or inverted limits, bad values."""
    rule = "ARM: Character Creation"
    problems: list[Problem] = []
    if not setting.stats:
        problems.append(Problem(rule, "stats", "a setting needs at least one stat"))
    for label, names in (("stats", setting.stats), ("movement", setting.movement)):
        if len({n.lower() for n in names}) != len(names):
            problems.append(Problem(rule, label, "a name is listed twice", list(names)))
    lists: tuple[tuple[str, tuple[Any, ...]], ...] = (
        ("mods", setting.mods),
        ("weapons", setting.weapons),
        ("ranged", setting.ranged),
        ("armour", setting.armour),
        ("spells", setting.spells),
        ("races", setting.races),
    )
    for label, items in lists:
        seen: set[str] = set()
        for i, item in enumerate(items):
            key = item.name.strip().lower()
            if not key or key in seen:
                problems.append(
                    Problem(rule, f"{label}.{i}.name", "empty or repeated name", item.name)
                )
            seen.add(key)
    for i, race in enumerate(setting.races):
        for part, known in (("stats", setting.stats), ("movement", setting.movement)):
            for name, limits in getattr(race, part).items():
                where = f"races.{i}.{part}.{name}"
                if name not in known:
                    problems.append(
                        Problem(rule, where, f"not a {part} entry of this setting", name)
                    )
                if limits.low > limits.high:
                    problems.append(
                        Problem(rule, where, "lowest above highest", [limits.low, limits.high])
                    )
    for i, armour in enumerate(setting.armour):
        if armour.wound < 0 or armour.shock < 0:
            problems.append(
                Problem("ARM: Damage", f"armour.{i}", "armour values are never negative")
            )
    for i, mod in enumerate(setting.mods):
        if mod.per_level < 0 or mod.base < 0:
            problems.append(Problem(rule, f"mods.{i}", "costs are never negative", mod.name))
    return tuple(problems)
