"""Sheet equipment in actions: a weapon named on the attacker's sheet, the armour worn on
the target's sheet (Mneme CE ch. 7, Damage, Armor), and the Critically Wounded rules for
violent actions (ch. 7, Critically Wounded: Special Conditions)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.errors import IllegalAction, RulesError
from referee.systems.base import Change
from referee.systems.mneme.actions import Attack, Check, Mitigating, Threat
from referee.systems.mneme.damage import DamageSpec, Target, weapon_spec, worn_armour
from referee.systems.mneme.health import condition
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Character, Protection, weapon


def attack_weapon(action: Attack, state: Character | None) -> tuple[DamageSpec, Check]:
    """The attack's damage source and its check: a named weapon comes from the attacker's
    sheet, and its skill is rolled when the check names a characteristic but no skill."""
    if isinstance(action.weapon, DamageSpec):
        return action.weapon, action.check
    if state is None:
        raise RulesError(f"weapon {action.weapon!r} is named, so the attacker's sheet is needed")
    w = weapon(state, action.weapon)
    check = action.check
    if check.characteristic and not check.skill and not check.combined_skills and w.skill:
        check = replace(check, skill=w.skill)
    return weapon_spec(w), check


def attack_target(action: Attack) -> Target:
    """What the attack's damage rolls hit: the given target, else the armour worn on the
    target's sheet (the best piece, at its scale), else no armour."""
    if action.target is not None:
        return action.target
    if action.target_sheet is not None:
        return worn_armour(action.target_sheet)
    return Target()


def attack_target_hp(action: Attack) -> int | None:
    """The target's HP for targeted damage: given, or from the target's sheet."""
    if action.target_hp is not None:
        return action.target_hp
    return action.target_sheet.hp if action.target_sheet is not None else None


def threat_damage(threat: Threat) -> DamageSpec:
    """The damage of the rolls a Fail Effect brings: given, or a weapon named on the
    attacker's sheet; ``threat.rate_of_attack`` (the adversaries' summed RoA) overrides."""
    if isinstance(threat.damage, DamageSpec):
        spec = threat.damage
    else:
        if threat.attacker is None:
            raise RulesError(
                f"weapon {threat.damage!r} is named, so the attacker's sheet is needed"
            )
        spec = weapon_spec(weapon(threat.attacker, threat.damage))
    if threat.rate_of_attack is not None:
        spec = DamageSpec(spec.expression, spec.scale, threat.rate_of_attack)
    return spec


def threat_armour(threat: Threat, state: Character | None) -> Target:
    """The character's protection against the rolls: given, else the armour worn on the
    character's sheet, else none."""
    if threat.armour is not None:
        return threat.armour
    return worn_armour(state) if state is not None else Target()


@dataclass(frozen=True)
class Cover:
    """The cover against one Fail Effect: its protection value (the Fail Effect it can
    absorb), its own AR, and the HP it has left (``None``: not tracked)."""

    protection: int
    armour: Target
    hp_left: int | None
    where: str


def cover_for(threat: Threat, state: Character | None) -> Cover:
    """The cover a Fail Effect meets (ch. 7, Fail Effect and Damage to Protection).

    With ``mitigating.cover_index`` the sheet's protection object supplies what the
    threat leaves out: its protection value when ``mitigating.cover`` is 0, its AR and
    scale when ``cover_armour`` is ``None``, and its HP left (a destroyed object, with no
    HP left, protects no more: a ruling)."""
    mit: Mitigating = threat.mitigating
    obj: Protection | None = None
    if mit.cover_index is not None:
        if state is None:
            raise RulesError("cover_index names a protection object, so the sheet is needed")
        if not 0 <= mit.cover_index < len(state.protection):
            raise RulesError(
                f"{state.name} has no protection object {mit.cover_index} "
                f"({len(state.protection)} on the sheet)"
            )
        obj = state.protection[mit.cover_index]
    where = "cover" if mit.cover_index is None else f"protection.{mit.cover_index}"
    armour = threat.cover_armour
    if armour is None:
        armour = Target(obj.armour, obj.scale, obj.scale) if obj is not None else Target()
    if obj is None:
        return Cover(mit.cover, armour, None, where)
    hp_left = max(0, obj.hp - obj.damage) if obj.hp > 0 else None
    value = mit.cover or obj.protection
    if hp_left == 0:
        value = 0
    return Cover(value, armour, hp_left, where)


def violent_action(state: Character | None, options: Options) -> tuple[Change, ...]:
    """A violent action by a character (ch. 7, Critically Wounded; Dying).

    A Dying character is Unconscious and immobile: no violent action. A Critically
    Wounded character is out until an adrenaline shot or combat stimulant wakes them
    (``Awake``; option ``critically_wounded_out``), and a violent action then makes them
    Bleed. Returns the changes (Bleeding) the action causes.
    """
    if state is None:
        return ()
    cond = condition(state, options)
    if cond == "Dying":
        raise IllegalAction(f"{state.name} is Dying: Unconscious and immobile")
    if cond != "Critically Wounded":
        return ()
    if options.critically_wounded_out and "Awake" not in state.conditions:
        raise IllegalAction(
            f"{state.name} is Critically Wounded and out; an adrenaline shot or combat "
            "stimulant can awaken them"
        )
    if "Bleeding" in state.conditions:
        return ()
    return (
        Change(
            "self",
            "conditions",
            value="Bleeding",
            reason="a violent action while Critically Wounded causes Bleeding",
        ),
    )
