"""Sheet weapons and worn armour in attacks and incoming damage; violent actions while
Critically Wounded and stimulants (Mneme CE ch. 7, Damage, Armor, Critically Wounded)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction, RulesError
from referee.systems.base import load_record
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import (
    Attack,
    Check,
    Mitigating,
    PassTime,
    Stimulant,
    TakeDamage,
    Threat,
)
from referee.systems.mneme.clock import apply_changes
from referee.systems.mneme.damage import DamageSpec, Target
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Character, example_data

OPT = Options()
ADA = load_record(Character, example_data())  # HP 24, Flak Jacket AR 4, Broadsword 3d3-2


def test_attack_with_a_named_weapon_against_a_sheet() -> None:
    # Str 7 (ChM 0) + the broadsword's Melee 0 vs 8: [6, 3] = 9 -> SE 1 -> two rolls,
    # each 3d3-2 less the target's Flak Jacket 4 (the broadsword against armour)
    named = Attack(Check(characteristic="Str"), "broadsword", target_sheet=ADA)
    out = RULESET.resolve(named, ADA, ScriptedRoller([6, 3, 3, 3, 3, 2, 2, 1]), OPT)
    assert out.details["modifier"] == 0 and out.details["success_effect"] == 1
    assert out.details["weapon_rolls"]["raw"] == [7, 3]
    assert out.details["weapon_rolls"]["dealt"] == [3, 0] and out.details["damage_dealt"] == 3
    assert out.details["target"] == {"condition": "Wounded"}
    assert any("Melee" in m.source for m in out.modifiers)
    explicit = Attack(
        Check(characteristic="Str", skill="Melee"), DamageSpec("3d3-2", rate_of_attack=1), Target(4)
    )
    assert RULESET.odds(named, ADA, OPT) == RULESET.odds(explicit, ADA, OPT)


def test_named_weapon_uses_its_rate_of_attack() -> None:
    # the automatic rifle (3d6-2, RoA 4) at Success Effect 2 makes three rolls
    rifle = Attack(
        Check(difficulty=12, characteristic="Dex", skill="Gun Combat"), "Automatic Rifle"
    )
    # Dex 9 (+1) + Gun Combat 1 = +2: [6, 6] = 14 vs 12
    out = RULESET.resolve(rifle, ADA, ScriptedRoller([6, 6, 3, 4, 5, 6, 6, 1, 2, 2, 2]), OPT)
    assert out.details["weapon_rolls"]["raw"] == [10, 11, 4] and out.details["damage_dealt"] == 25


def test_unknown_weapon_is_a_clear_error() -> None:
    with pytest.raises(RulesError, match=r"no weapon 'Laser'.*Automatic Rifle, Broadsword"):
        RULESET.resolve(Attack(Check(), "Laser"), ADA, ScriptedRoller([3, 3]), OPT)
    with pytest.raises(RulesError, match="attacker's sheet"):
        RULESET.resolve(Attack(Check(), "Broadsword"), None, ScriptedRoller([3, 3]), OPT)


def test_incoming_named_weapon_and_worn_armour() -> None:
    # the flak jacket example: Fail Effect 3, three broadsword rolls against Armor 4,
    # i.e. 3d3-6 three times, the Flak Jacket taken from the victim's sheet
    threat = Threat("Broadsword", attacker=ADA, rate_of_attack=3)
    faces = [3, 3, 3, 2, 2, 2, 1, 1, 1]
    out = RULESET.resolve(TakeDamage(3, threat), ADA, ScriptedRoller(faces), OPT)
    assert out.details["damage_rolls"]["dealt"] == [3, 0, 0] and out.result == 3
    dist = RULESET.odds(TakeDamage(3, threat), ADA, OPT)
    explicit = TakeDamage(3, Threat(DamageSpec("3d3-2", rate_of_attack=3), Target(4)))
    assert dist == RULESET.odds(explicit, None, OPT)


def test_critically_wounded_are_out_until_a_stimulant() -> None:
    critical = replace(ADA, damage=16)  # >= 2 x 24 / 3
    attack = Attack(Check(characteristic="Str"), "Broadsword", Target(0))
    with pytest.raises(IllegalAction, match="adrenaline shot or combat stimulant"):
        RULESET.resolve(attack, critical, ScriptedRoller([6, 6, 1, 1, 1, 1, 1, 1]), OPT)
    shot = RULESET.resolve(Stimulant(), critical, ScriptedRoller([]), OPT)
    awake = apply_changes(critical, shot.changes)
    assert awake.conditions == ("Awake",)
    # a violent action now causes Bleeding
    out = RULESET.resolve(attack, awake, ScriptedRoller([1, 1]), OPT)
    assert any(c.target == "self" and c.value == "Bleeding" for c in out.changes)
    violent = RULESET.resolve(Check(violent=True), awake, ScriptedRoller([4, 4]), OPT)
    assert [c.value for c in violent.changes] == ["Bleeding"]
    calm = RULESET.resolve(Check(), awake, ScriptedRoller([4, 4]), OPT)
    assert calm.changes == ()
    # the house rule: not out, but violence still makes them bleed
    lenient = Options(critically_wounded_out=False)
    out2 = RULESET.resolve(attack, critical, ScriptedRoller([1, 1]), lenient)
    assert any(c.value == "Bleeding" for c in out2.changes)


def test_stimulants_do_not_wake_the_dying_and_awake_ends_with_recovery() -> None:
    with pytest.raises(IllegalAction, match="Dying"):
        RULESET.resolve(Stimulant(), replace(ADA, damage=25), ScriptedRoller([]), OPT)
    unhurt = RULESET.resolve(Stimulant(), ADA, ScriptedRoller([]), OPT)
    assert unhurt.changes == () and "no effect" in unhurt.label
    awake = replace(ADA, damage=16, conditions=("Awake",))
    # serious care at full rest heals 1 per 3 days: 15 is Seriously Wounded, Awake ends
    out = RULESET.resolve(PassTime(days=3, care="serious"), awake, ScriptedRoller([]), OPT)
    assert apply_changes(awake, out.changes).conditions == () and out.result == 15


def test_cover_from_the_sheet_takes_the_rolls_up_to_its_hp() -> None:
    # the shield example with Ada's own Shield (protection 2, AR 2, HP 10): Fail Effect 3,
    # the shield takes two 3d6 rolls, Ada one (through her Flak Jacket, AR 4)
    threat = Threat(DamageSpec("3d6", rate_of_attack=3), mitigating=Mitigating(cover_index=0))
    faces = [6, 6, 3, 4, 3, 2, 5, 5, 5]
    out = RULESET.resolve(TakeDamage(3, threat), ADA, ScriptedRoller(faces), OPT)
    assert out.details["mitigation"] == [3, 3, 1, 1]
    assert out.details["cover_rolls"]["dealt"] == [13, 7]  # 15 - 2, 9 - 2
    assert out.details["cover_damage"] == 10 and out.details["cover_destroyed"]
    assert out.details["damage_rolls"]["dealt"] == [11] and out.result == 11
    assert out.details["condition"] == "Seriously Wounded" and out.details["bleeding"]
    after = apply_changes(ADA, out.changes)
    assert after.protection[0].damage == 10 and after.damage == 11
    assert after.conditions == ("Bleeding",)
    # a destroyed shield absorbs nothing: all three rolls reach Ada
    again = RULESET.resolve(TakeDamage(3, threat), after, ScriptedRoller([1] * 9), OPT)
    assert again.details["mitigation"] == [3, 3, 3, 3] and "cover_rolls" not in again.details
    with pytest.raises(RulesError, match="no protection object 4"):
        bad = Threat(DamageSpec("3d6"), mitigating=Mitigating(cover_index=4))
        RULESET.resolve(TakeDamage(1, bad), ADA, ScriptedRoller([1, 1, 1]), OPT)


def test_massive_damage_roll_uses_the_wounds_before_the_attack() -> None:
    # three rolls of 3d6+10 through the Flak Jacket: 24 + 21 + 9 = 54 > HP 24
    threat = Threat(DamageSpec("3d6+10", rate_of_attack=3))
    faces = [6, 6, 6, 5, 5, 5, 1, 1, 1, 4, 4]
    out = RULESET.resolve(TakeDamage(3, threat, massive_roll=True), ADA, ScriptedRoller(faces), OPT)
    assert out.result == 54 and out.details["massive_damage"]
    # End 8 (0), no wounds before the attack: 8 vs 8 survives, crippled
    assert out.details["massive_roll"]["roll"] == 8
    assert out.label == "54 damage; massive damage: Survived, crippled"
    assert apply_changes(ADA, out.changes).conditions == ("Bleeding", "Crippled")
    # counting the attack's own 54 damage (-18), the same dice are death
    after = Options(massive_damage_wounds="after")
    dead = RULESET.resolve(
        TakeDamage(3, threat, massive_roll=True), ADA, ScriptedRoller(faces), after
    )
    assert dead.details["massive_roll"]["roll"] == -10 and dead.label.endswith("Dead")
    # without massive damage no roll is made (the scripted faces would be left over)
    small = RULESET.resolve(
        TakeDamage(1, threat, massive_roll=True), ADA, ScriptedRoller([1, 1, 1]), OPT
    )
    assert "massive_roll" not in small.details and small.result == 9
