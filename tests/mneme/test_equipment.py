"""Sheet weapons and worn armour in attacks and incoming damage; violent actions while
Critically Wounded and stimulants (Mneme CE ch. 7, Damage, Armor, Critically Wounded).
Characters are seated at a table and actions name them by id."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction, RulesError
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import (
    Attack,
    Check,
    CheckInputs,
    Mitigating,
    PassTime,
    SetCare,
    Stimulant,
    TakeDamage,
    Threat,
)
from referee.systems.mneme.damage import Target
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.state import State, seated

OPT = Options()
ADA = RULESET.examples()["ada"]  # HP 24, Flak Jacket AR 4, Broadsword 3d3-2 RoA 2, Shield


def table(**sheets: Sheet) -> State:
    return seated(sheets)


def test_attack_with_a_named_weapon_against_a_sheet() -> None:
    # Str 7 (ChM 0) + the broadsword's Melee 0 vs 8: [6, 3] = 9 -> SE 1 -> two rolls,
    # each 3d3-2 less the target's Flak Jacket 4 (the broadsword against armour)
    at = table(ada=ADA, foe=ADA)
    named = Attack("ada", "foe", CheckInputs(characteristic="Str"), weapon="broadsword")
    out = RULESET.resolve(named, at, ScriptedRoller([6, 3, 3, 3, 3, 2, 2, 1]), OPT)
    assert out.details["modifier"] == 0 and out.details["success_effect"] == 1
    assert out.details["weapon_rolls"]["raw"] == [7, 3]
    assert out.details["weapon_rolls"]["dealt"] == [3, 0] and out.details["damage_dealt"] == 3
    assert out.details["target"] == {"condition": "Wounded"}
    assert any("Melee" in m.source for m in out.modifiers)
    after = RULESET.apply(at, out)
    assert after.characters["foe"].sheet.damage == 3 and after.characters["ada"].sheet.damage == 0
    explicit = Attack(
        "ada",
        "foe",
        CheckInputs(characteristic="Str", skill="Melee"),
        damage="3d3-2",
        rate_of_attack=2,
        armour=Target(4),
    )
    assert RULESET.odds(named, at, OPT) == RULESET.odds(explicit, at, OPT)


def test_named_weapon_uses_its_rate_of_attack() -> None:
    # the automatic rifle (3d6-2, RoA 4) at Success Effect 2 makes three rolls
    check = CheckInputs(difficulty=12, characteristic="Dex", skill="Gun Combat")
    rifle = Attack("ada", check=check, weapon="Automatic Rifle")
    # Dex 9 (+1) + Gun Combat 1 = +2: [6, 6] = 14 vs 12
    out = RULESET.resolve(
        rifle, table(ada=ADA), ScriptedRoller([6, 6, 3, 4, 5, 6, 6, 1, 2, 2, 2]), OPT
    )
    assert out.details["weapon_rolls"]["raw"] == [10, 11, 4] and out.details["damage_dealt"] == 25


def test_unknown_weapon_and_character_are_clear_errors() -> None:
    at = table(ada=ADA)
    with pytest.raises(RulesError, match=r"no weapon 'Laser'.*Automatic Rifle, Broadsword"):
        RULESET.resolve(Attack("ada", weapon="Laser"), at, ScriptedRoller([3, 3]), OPT)
    with pytest.raises(RulesError, match="attacker's sheet"):
        RULESET.resolve(Attack(weapon="Broadsword"), at, ScriptedRoller([3, 3]), OPT)
    with pytest.raises(IllegalAction, match="no character 'bo' at this table; known: ada"):
        RULESET.resolve(Attack("bo", damage="1d6"), at, ScriptedRoller([3, 3]), OPT)


def test_incoming_named_weapon_and_worn_armour() -> None:
    # the flak jacket example: Fail Effect 3, three broadsword rolls against Armor 4,
    # i.e. 3d3-6 three times, the Flak Jacket taken from the victim's sheet
    at = table(ada=ADA, raider=RULESET.examples()["raider"])
    threat = Threat(weapon="Broadsword", attacker="raider", rate_of_attack=3)
    faces = [3, 3, 3, 2, 2, 2, 1, 1, 1]
    out = RULESET.resolve(TakeDamage("ada", 3, threat), at, ScriptedRoller(faces), OPT)
    assert out.details["damage_rolls"]["dealt"] == [3, 0, 0] and out.result == 3
    dist = RULESET.odds(TakeDamage("ada", 3, threat), at, OPT)
    explicit = TakeDamage(fail_effect=3, threat=Threat("3d3-2", rate_of_attack=3, armour=Target(4)))
    assert dist == RULESET.odds(explicit, State(), OPT)


def test_critically_wounded_are_out_until_a_stimulant() -> None:
    at = table(ada=replace(ADA, damage=16))  # >= 2 x 24 / 3
    attack = Attack(
        "ada", check=CheckInputs(characteristic="Str"), weapon="Broadsword", armour=Target(0)
    )
    with pytest.raises(IllegalAction, match="adrenaline shot or combat stimulant"):
        RULESET.resolve(attack, at, ScriptedRoller([6, 6, 1, 1, 1, 1, 1, 1]), OPT)
    shot = RULESET.resolve(Stimulant("ada"), at, ScriptedRoller([]), OPT)
    awake = RULESET.apply(at, shot)
    assert awake.characters["ada"].sheet.conditions == ("Awake",)
    # a violent action now causes Bleeding
    out = RULESET.resolve(attack, awake, ScriptedRoller([1, 1]), OPT)
    bleeding = RULESET.apply(awake, out).characters["ada"].sheet.conditions
    assert bleeding == ("Awake", "Bleeding")
    violent = RULESET.resolve(Check(violent=True, actor="ada"), awake, ScriptedRoller([4, 4]), OPT)
    assert [c.value for c in violent.changes if c.field == "sheet.conditions"] == [
        ["Awake", "Bleeding"]
    ]
    calm = RULESET.resolve(Check(actor="ada"), awake, ScriptedRoller([4, 4]), OPT)
    assert calm.changes == ()
    # the house rule: not out, but violence still makes them bleed
    lenient = Options(critically_wounded_out=False)
    out2 = RULESET.resolve(attack, at, ScriptedRoller([1, 1]), lenient)
    assert RULESET.apply(at, out2).characters["ada"].sheet.conditions == ("Bleeding",)


def test_stimulants_do_not_wake_the_dying_and_awake_ends_with_recovery() -> None:
    with pytest.raises(IllegalAction, match="Dying"):
        RULESET.resolve(
            Stimulant("ada"), table(ada=replace(ADA, damage=25)), ScriptedRoller([]), OPT
        )
    unhurt = RULESET.resolve(Stimulant("ada"), table(ada=ADA), ScriptedRoller([]), OPT)
    assert unhurt.changes == () and "no effect" in unhurt.label
    at = table(ada=replace(ADA, damage=16, conditions=("Awake",)))
    at = RULESET.apply(
        at, RULESET.resolve(SetCare("ada", care="serious"), at, ScriptedRoller([]), OPT)
    )
    # serious care at full rest heals 1 per 3 days: 15 is Seriously Wounded, Awake ends
    out = RULESET.resolve(PassTime(days=3), at, ScriptedRoller([]), OPT)
    after = RULESET.apply(at, out).characters["ada"].sheet
    assert after.conditions == () and out.result == 15 and after.damage == 15


def test_cover_from_the_sheet_takes_the_rolls_up_to_its_hp() -> None:
    # the shield example with Ada's own Shield (protection 2, AR 2, HP 10): Fail Effect 3,
    # the shield takes two 3d6 rolls, Ada one (through her Flak Jacket, AR 4)
    at = table(ada=ADA)
    threat = Threat("3d6", rate_of_attack=3, mitigating=Mitigating(cover_index=0))
    faces = [6, 6, 3, 4, 3, 2, 5, 5, 5]
    out = RULESET.resolve(TakeDamage("ada", 3, threat), at, ScriptedRoller(faces), OPT)
    assert out.details["mitigation"] == [3, 3, 1, 1]
    assert out.details["cover_rolls"]["dealt"] == [13, 7]  # 15 - 2, 9 - 2
    assert out.details["cover_damage"] == 10 and out.details["cover_destroyed"]
    assert out.details["damage_rolls"]["dealt"] == [11] and out.result == 11
    assert out.details["condition"] == "Seriously Wounded" and out.details["bleeding"]
    after = RULESET.apply(at, out)
    sheet = after.characters["ada"].sheet
    assert sheet.protection[0].damage == 10 and sheet.damage == 11
    assert sheet.conditions == ("Bleeding",)
    # a destroyed shield absorbs nothing: all three rolls reach Ada
    again = RULESET.resolve(TakeDamage("ada", 3, threat), after, ScriptedRoller([1] * 9), OPT)
    assert again.details["mitigation"] == [3, 3, 3, 3] and "cover_rolls" not in again.details
    with pytest.raises(RulesError, match="no protection object 4"):
        bad = Threat("3d6", mitigating=Mitigating(cover_index=4))
        RULESET.resolve(TakeDamage("ada", 1, bad), at, ScriptedRoller([1, 1, 1]), OPT)


def test_massive_damage_roll_uses_the_wounds_before_the_attack() -> None:
    # three rolls of 3d6+10 through the Flak Jacket: 24 + 21 + 9 = 54 > HP 24
    at = table(ada=ADA)
    threat = Threat("3d6+10", rate_of_attack=3)
    faces = [6, 6, 6, 5, 5, 5, 1, 1, 1, 4, 4]
    massive = TakeDamage("ada", 3, threat, massive_roll=True)
    out = RULESET.resolve(massive, at, ScriptedRoller(faces), OPT)
    assert out.result == 54 and out.details["massive_damage"]
    # End 8 (0), no wounds before the attack: 8 vs 8 survives, crippled
    assert out.details["massive_roll"]["roll"] == 8
    assert out.label == "54 damage; massive damage: Survived, crippled"
    assert RULESET.apply(at, out).characters["ada"].sheet.conditions == ("Bleeding", "Crippled")
    # counting the attack's own 54 damage (-18), the same dice are death
    after = Options(massive_damage_wounds="after")
    dead = RULESET.resolve(massive, at, ScriptedRoller(faces), after)
    assert dead.details["massive_roll"]["roll"] == -10 and dead.label.endswith("Dead")
    # without massive damage no roll is made (the scripted faces would be left over)
    small = RULESET.resolve(replace(massive, fail_effect=1), at, ScriptedRoller([1, 1, 1]), OPT)
    assert "massive_roll" not in small.details and small.result == 9
