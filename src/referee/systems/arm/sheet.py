"""The stored ARM character and what is derived from it.

ARM 1.2, Stats / Situational Modifiers / Movement Rates / Character
Creation: a character is a log value per stat and per movement rate, a list
of signed, special and absolute mods, equipment, and present damage. Costs in
character points, stat + mod totals, weapon and armour values are derived;
:func:`validate` reports every broken rule of the setting's lists and limits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from referee.systems.arm.catalog import DEFAULT_SETTING, Armour, ModKind, Setting, Weapon
from referee.systems.arm.damage import Condition, NamedWound
from referee.systems.arm.options import DEFAULT_OPTIONS, Options
from referee.systems.arm.tables import LEVEL_CAP
from referee.systems.base import Problem, RulesError

RULE_STATS = "ARM: Stats"
RULE_MODS = "ARM: Situational Modifiers"
RULE_MOVE = "ARM: Movement Rates"
RULE_CREATE = "ARM: Character Creation"
RULE_DAMAGE = "ARM: Damage"
RULE_GEAR = "ARM: Combat (Melee)"


@dataclass(frozen=True)
class Mod:
    """A situational mod: ``"+1 Swords"`` is ``Mod("Swords", 1)``; ``"4 Large"`` is absolute."""

    name: str
    value: int
    kind: ModKind = "signed"


@dataclass(frozen=True)
class WeaponEntry:
    """A weapon carried: a setting weapon by name, or one with its own values.

    Values given here override the setting's (Alex's "Sword (6D/0A/-1P)").
    """

    name: str
    damage: int | None = None
    attack: int | None = None
    parry: int | None = None
    stun: bool | None = None
    strength: bool | None = None


@dataclass(frozen=True)
class ArmourEntry:
    """Armour worn: a setting armour by name, or with its own wound / shock values."""

    name: str
    wound: int | None = None
    shock: int | None = None


@dataclass(frozen=True)
class Sheet:
    """One ARM character as stored (nothing derived is stored)."""

    SCHEMA_VERSION: ClassVar[int] = 1
    name: str
    stats: dict[str, int]
    race: str = "human"
    kind: Literal["character", "premade", "template"] = "character"
    movement: dict[str, int] = field(default_factory=dict)
    mods: tuple[Mod, ...] = ()
    weapons: tuple[WeaponEntry, ...] = ()
    armour: ArmourEntry | None = None
    wound: int = 0
    shock: int = 0
    destroyed: bool = False
    wounds: tuple[NamedWound, ...] = ()
    chp: int | None = None
    notes: str = ""

    # -- derived ---------------------------------------------------------
    def stat(self, name: str) -> int:
        """A stat's log value; a clear error if the character has no such stat."""
        for key, value in self.stats.items():
            if key.lower() == name.strip().lower():
                return value
        raise RulesError(f"{self.name} has no stat {name!r}; stats: {', '.join(self.stats)}")

    def mod(self, name: str) -> int:
        """A mod's value (0 when the character lacks it)."""
        for m in self.mods:
            if m.name.lower() == name.strip().lower():
                return m.value
        return 0

    def has_mod(self, name: str) -> bool:
        """Whether the character has the mod (special mods gate whole activities)."""
        return any(m.name.lower() == name.strip().lower() for m in self.mods)

    def total(self, stat: str, *mods: str, extra: int = 0) -> int:
        """Stat + the named mods + ``extra`` (ARM 1.2, Task Resolution)."""
        return self.stat(stat) + sum(self.mod(m) for m in mods) + extra

    @property
    def condition(self) -> Condition:
        """Present wound and shock levels as a :class:`Condition`."""
        return Condition(self.wound, self.shock, self.destroyed, self.wounds)

    def weapon(self, name: str | None = None, setting: Setting = DEFAULT_SETTING) -> Weapon:
        """A carried weapon (the first if no name) with the setting's values filled in."""
        if not self.weapons:
            raise RulesError(f"{self.name} carries no weapon")
        melee = [w for w in self.weapons if not _carried_missile(w, setting)]
        entry = melee[0] if melee else self.weapons[0]
        if name is not None:
            found = [w for w in self.weapons if w.name.lower() == name.strip().lower()]
            if not found:
                raise RulesError(f"{self.name} carries no {name!r}")
            entry = found[0]
        return resolve_weapon(entry, setting)

    def armour_values(self, setting: Setting = DEFAULT_SETTING) -> tuple[int, int]:
        """(wound armour, shock armour); (0, 0) without armour."""
        if self.armour is None:
            return 0, 0
        a = resolve_armour(self.armour, setting)
        return a.wound, a.shock


def resolve_weapon(entry: WeaponEntry, setting: Setting = DEFAULT_SETTING) -> Weapon:
    """The weapon's values: the entry's own, else the setting's entry of that name."""
    base = setting.weapon(entry.name)
    if base is None and entry.damage is None:
        if _carried_missile(entry, setting):
            raise RulesError(
                f"{entry.name} is a thrown or aimed weapon, not a melee one: shoot with it"
            )
        raise RulesError(f"weapon {entry.name!r} is not in the setting and has no damage value")
    return Weapon(
        name=entry.name,
        damage=entry.damage if entry.damage is not None else base.damage,  # type: ignore[union-attr]
        attack=_pick(entry.attack, base.attack if base else 0),
        parry=_pick(entry.parry, base.parry if base else 0),
        stun=_pick(entry.stun, base.stun if base else False),
        strength=_pick(entry.strength, base.strength if base else True),
    )


def _carried_missile(entry: WeaponEntry, setting: Setting) -> bool:
    """Whether a carried weapon is one of the setting's thrown or aimed weapons (a bow, a
    spear the referee added as thrown) with no melee values of its own: it is shot with
    ``shoot`` by its name (ARM 1.2, Combat (Ranged)), never swung."""
    return (
        setting.weapon(entry.name) is None
        and entry.damage is None
        and setting.ranged_weapon(entry.name) is not None
    )


def resolve_armour(entry: ArmourEntry, setting: Setting = DEFAULT_SETTING) -> Armour:
    """The armour's values: the entry's own, else the setting's."""
    base = setting.armour_named(entry.name)
    if base is None and (entry.wound is None or entry.shock is None):
        raise RulesError(f"armour {entry.name!r} is not in the setting and lacks its values")
    return Armour(
        entry.name,
        entry.wound if entry.wound is not None else base.wound,  # type: ignore[union-attr]
        entry.shock if entry.shock is not None else base.shock,  # type: ignore[union-attr]
    )


def _pick(own: Any, default: Any) -> Any:
    return default if own is None else own


# ---------------------------------------------------------------------------
# character points (ARM 1.2, Character Creation)


def mod_cost(mod: Mod, setting: Setting = DEFAULT_SETTING) -> int:
    """Character points for one mod.

    Signed: value x cost per level (negative values give points back).
    Special: the entry cost at the lowest value plus a cost per level above it.
    Absolute: the size of the value x cost per level (symmetrical).
    """
    listed = setting.mod(mod.name)
    per = listed.per_level if listed else setting.default_mod_cost
    if mod.kind == "special":
        floor = listed.minimum if listed and listed.minimum is not None else setting.special_minimum
        base = listed.base if listed else 0
        return base + (mod.value - floor) * per
    if mod.kind == "absolute":
        return abs(mod.value) * per
    return mod.value * per


def point_cost(sheet: Sheet, setting: Setting = DEFAULT_SETTING) -> dict[str, int]:
    """Character points spent, by part: stats, movement, mods and the total."""
    stats = sum(v * setting.stat_cost(k) for k, v in sheet.stats.items())
    movement = sum(v * setting.movement_cost for v in sheet.movement.values())
    mods = sum(mod_cost(m, setting) for m in sheet.mods)
    return {"stats": stats, "movement": movement, "mods": mods, "total": stats + movement + mods}


# ---------------------------------------------------------------------------
# validation


def validate(
    sheet: Sheet, options: Options | None = None, setting: Setting = DEFAULT_SETTING
) -> tuple[Problem, ...]:
    """Every rule the sheet breaks against the setting's lists, limits and costs."""
    opts = options or DEFAULT_OPTIONS
    problems: list[Problem] = []
    race = setting.race(sheet.race)
    if race is None:
        known = ", ".join(r.name for r in setting.races) or "none"
        problems.append(Problem(RULE_CREATE, "race", f"unknown race (known: {known})", sheet.race))
    problems += _stats(sheet, setting, race)
    problems += _mods(sheet, setting)
    problems += _gear(sheet, setting)
    problems += _damage(sheet, opts)
    if sheet.chp is not None:
        spent = point_cost(sheet, setting)["total"]
        if spent > sheet.chp:
            problems.append(
                Problem(
                    RULE_CREATE, "chp", f"costs {spent} chp, more than the {sheet.chp} given", spent
                )
            )
    return tuple(problems)


def _stats(sheet: Sheet, setting: Setting, race: Any) -> Iterable[Problem]:
    for stat in setting.stats:
        if stat not in sheet.stats:
            yield Problem(RULE_STATS, f"stats.{stat}", "missing stat")
    parts = (
        ("stats", RULE_STATS, "a stat", sheet.stats, setting.stats),
        ("movement", RULE_MOVE, "a movement rate", sheet.movement, setting.movement),
    )
    for part, rule, what, values, known in parts:
        limits = getattr(race, part) if race is not None else {}
        for name, value in values.items():
            where = f"{part}.{name}"
            if name not in known:
                yield Problem(rule, where, f"not {what} of this setting", value)
            elif name in limits and value not in limits[name]:
                r = limits[name]
                yield Problem(
                    RULE_CREATE, where, f"outside the {race.name} limits {r.low} to {r.high}", value
                )


def _mods(sheet: Sheet, setting: Setting) -> Iterable[Problem]:
    seen: set[str] = set()
    for i, mod in enumerate(sheet.mods):
        where = f"mods.{i}"
        key = mod.name.strip().lower()
        if not key:
            yield Problem(RULE_MODS, f"{where}.name", "a mod needs a name", mod.name)
        if key in seen:
            yield Problem(RULE_MODS, where, "mod listed twice", mod.name)
        seen.add(key)
        listed = setting.mod(mod.name)
        if listed is not None and listed.kind != mod.kind:
            yield Problem(
                RULE_MODS, f"{where}.kind", f"the setting lists it as {listed.kind}", mod.kind
            )
        if mod.kind == "special":
            floor = (
                listed.minimum if listed and listed.minimum is not None else setting.special_minimum
            )
            if mod.value < floor:
                yield Problem(
                    RULE_CREATE, f"{where}.value", f"special mods start at {floor}", mod.value
                )
        if mod.kind == "absolute" and mod.value < 0:
            yield Problem(
                RULE_MODS,
                f"{where}.value",
                "an absolute mod has no sign (it is never a disadvantage)",
                mod.value,
            )


def _gear(sheet: Sheet, setting: Setting) -> Iterable[Problem]:
    for i, w in enumerate(sheet.weapons):
        if setting.weapon(w.name) is None and w.damage is None and not _carried_missile(w, setting):
            yield Problem(
                RULE_GEAR, f"weapons.{i}", "not in the setting and no damage value given", w.name
            )
    if sheet.armour is not None:
        a = sheet.armour
        if setting.armour_named(a.name) is None and (a.wound is None or a.shock is None):
            yield Problem(
                RULE_DAMAGE, "armour", "not in the setting and its values not given", a.name
            )
        for part in ("wound", "shock"):
            value = getattr(a, part)
            if value is not None and value < 0:
                yield Problem(
                    RULE_DAMAGE, f"armour.{part}", "armour values are never negative", value
                )


def _damage(sheet: Sheet, options: Options) -> Iterable[Problem]:
    for part in ("wound", "shock"):
        value = getattr(sheet, part)
        if not 0 <= value <= LEVEL_CAP:
            yield Problem(RULE_DAMAGE, part, f"levels run 0 to {LEVEL_CAP}", value)
    if len(sheet.wounds) > options.max_wounds:
        yield Problem(
            RULE_DAMAGE,
            "wounds",
            f"at most {options.max_wounds} recorded wounds",
            len(sheet.wounds),
        )
    for i, w in enumerate(sheet.wounds):
        if not 1 <= w.level <= LEVEL_CAP:
            yield Problem(
                RULE_DAMAGE, f"wounds.{i}.level", f"a wound's level is 1 to {LEVEL_CAP}", w.level
            )


def template_problems(template: Sheet, sheet: Sheet) -> tuple[Problem, ...]:
    """What a character fleshed out from a template changed that the template fixed.

    A template fixes its stats and its mods; the player adds mods and details.
    """
    problems: list[Problem] = []
    if template.kind != "template":
        problems.append(Problem(RULE_CREATE, "kind", "not a template", template.kind))
    for stat, value in template.stats.items():
        if sheet.stats.get(stat) != value:
            problems.append(
                Problem(
                    RULE_CREATE,
                    f"stats.{stat}",
                    f"the template fixes it at {value}",
                    sheet.stats.get(stat),
                )
            )
    for mod in template.mods:
        if not sheet.has_mod(mod.name) or sheet.mod(mod.name) != mod.value:
            problems.append(
                Problem(
                    RULE_CREATE,
                    "mods",
                    f"the template fixes {mod.value:+d} {mod.name}",
                    sheet.mod(mod.name),
                )
            )
    return tuple(problems)


def stand_in(toughness: int, armour: str | None, wound: int, shock: int) -> Sheet:
    """A defender known only by numbers: its Toughness, armour (one value, or
    ``wound/shock`` as ``4/2``) and present wound and shock levels (0 to 5, Unharmed to
    Dead / Unconscious; ARM 1.2, Damage). :class:`RulesError` names a wrong one."""
    parts = (armour or "0").split("/")
    if len(parts) > 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise RulesError(f"--armour is a number or wound/shock, not {armour!r}")
    if not (0 <= wound <= LEVEL_CAP and 0 <= shock <= LEVEL_CAP):
        raise RulesError(f"--wound, --shock: each a level 0 to {LEVEL_CAP}, not {wound}, {shock}")
    worn = None if armour is None else ArmourEntry("armour", int(parts[0]), int(parts[-1]))
    return Sheet("the defender", {"Toughness": toughness}, wound=wound, shock=shock, armour=worn)
