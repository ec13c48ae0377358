"""Sheet equipment in actions: a weapon named on a sheet, the armour a character wears,
cover behind a protection object (Mneme CE ch. 7, Damage, Armor, Fail Effect and Damage
to Protection), the defender's skill as the last defence (ch. 2, Skill Checks), and the
Critically Wounded rules for violent actions (ch. 7, Critically Wounded)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import IllegalAction, RulesError
from referee.systems.mneme.actions import Mitigating
from referee.systems.mneme.damage import DamageSpec, Target, as_scale, weapon_spec, worn_armour
from referee.systems.mneme.health import condition
from referee.systems.mneme.options import Options
from referee.systems.mneme.scale import damage_notation
from referee.systems.mneme.sheet import Protection, Sheet, weapon


def damage_source(
    damage: str, weapon_name: str, rate: int | None, owner: Sheet | None
) -> DamageSpec:
    """The damage of one roll: a weapon on ``owner``'s sheet (its damage, scale and Rate
    of Attack), or a damage expression with an optional scale prefix (``D 3d3``);
    ``rate`` overrides the weapon's Rate of Attack (the adversaries' summed RoA)."""
    if weapon_name and damage:
        raise RulesError("give a damage expression or a weapon, not both")
    if weapon_name:
        if owner is None:
            raise RulesError(f"weapon {weapon_name!r} is named, so the attacker's sheet is needed")
        spec = weapon_spec(weapon(owner, weapon_name))
        if rate is not None:
            spec = DamageSpec(spec.expression, spec.scale, rate)
        return spec
    if not damage.strip():
        raise RulesError("give a damage expression (e.g. 3d6-2) or a weapon")
    expression, scale = damage_notation(damage)
    return DamageSpec(expression, scale, rate)


def weapon_skill(weapon_name: str, owner: Sheet | None) -> str:
    """The skill of a weapon on the sheet ('' when none is named or the weapon has none)."""
    if not weapon_name or owner is None:
        return ""
    return weapon(owner, weapon_name).skill


def armour_of(given: Target | None, victim: Sheet | None) -> Target:
    """What damage rolls hit: the armour given, else what the victim wears, else none."""
    if given is not None:
        return given
    return worn_armour(victim) if victim is not None else Target()


def defence_skill(victim: Sheet | None, skill: str | None) -> int:
    """The defender's skill as the last defence against a Fail Effect (ch. 2: "In combat,
    Skills are the last Defense Modifier if they are Relevant"): their level in the failed
    check's skill, else the best level among the skills of the weapons they carry (a
    ruling); unskilled, or without a sheet, 0."""
    if victim is None:
        return 0
    if skill:
        return max(0, victim.skill(skill) or 0)
    levels = [victim.skill(w.skill) for w in victim.weapons if w.skill]
    return max((lv for lv in levels if lv is not None), default=0)


@dataclass(frozen=True)
class Cover:
    """The cover against one Fail Effect: its protection value (the Fail Effect it can
    absorb), its own AR, the HP it has left (``None``: not tracked) and which of the
    victim's protection objects it is (``None``: cover not on the sheet)."""

    protection: int
    armour: Target
    hp_left: int | None
    index: int | None


def cover_for(mitigating: Mitigating, cover_armour: Target | None, victim: Sheet | None) -> Cover:
    """The cover a Fail Effect meets (ch. 7, Fail Effect and Damage to Protection).

    With ``mitigating.cover_index`` the sheet's protection object supplies what is left
    out: its protection value when ``mitigating.cover`` is 0, its AR and scale when
    ``cover_armour`` is none, and its HP left (a destroyed object, with no HP left,
    protects no more: a ruling)."""
    obj: Protection | None = None
    index = mitigating.cover_index
    if index is not None:
        if victim is None:
            raise RulesError("cover_index names a protection object, so the sheet is needed")
        if not 0 <= index < len(victim.protection):
            raise RulesError(
                f"{victim.name} has no protection object {index} "
                f"({len(victim.protection)} on the sheet)"
            )
        obj = victim.protection[index]
    armour = cover_armour
    if armour is None:
        armour = (
            Target(obj.armour, as_scale(obj.scale), as_scale(obj.scale))
            if obj is not None
            else Target()
        )
    if obj is None:
        return Cover(mitigating.cover, armour, None, None)
    hp_left = max(0, obj.hp - obj.damage) if obj.hp > 0 else None
    value = mitigating.cover or obj.protection
    if hp_left == 0:
        value = 0
    return Cover(value, armour, hp_left, index)


def violent_bleeds(sheet: Sheet | None, options: Options) -> bool:
    """A violent action by a character (ch. 7, Critically Wounded; Dying): whether it
    makes them Bleed.

    A Dying character is Unconscious and immobile: no violent action. A Critically
    Wounded character is out until an adrenaline shot or combat stimulant wakes them
    (``Awake``; option ``critically_wounded_out``), and a violent action then makes them
    Bleed. :class:`IllegalAction` when the character cannot act.
    """
    if sheet is None:
        return False
    cond = condition(sheet, options)
    if sheet.dead:
        raise IllegalAction(f"{sheet.name} is dead")
    if cond == "Dying":
        raise IllegalAction(f"{sheet.name} is Dying: Unconscious and immobile")
    if cond != "Critically Wounded":
        return False
    if options.critically_wounded_out and "Awake" not in sheet.conditions:
        raise IllegalAction(
            f"{sheet.name} is Critically Wounded and out; an adrenaline shot or combat "
            "stimulant can awaken them"
        )
    return "Bleeding" not in sheet.conditions
