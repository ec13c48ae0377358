"""Mneme CE rules beyond the worked examples: stacking, stakes, stealth, time, targeting."""

from __future__ import annotations

from fractions import Fraction

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Modifier
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import (
    Attack,
    Check,
    CheckInputs,
    Mitigating,
    Surgery,
    TakeDamage,
    Threat,
)
from referee.systems.mneme.checks import stack
from referee.systems.mneme.damage import DamageSpec, Target
from referee.systems.mneme.effects import costly_success, stealth_skill, task_time
from referee.systems.mneme.health import movement, targeted_effect
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.state import State, seated

OPT = Options()
EMPTY = State()
PC = Sheet(
    "Sly",
    {"Str": 7, "Dex": 9, "End": 8, "Int": 7, "Edu": 9, "Soc": 7},
    skills={"Recon": 0, "Streetwise": 2, "Stealth": 3, "Medic": 1},
)
TABLE = seated({"sly": PC})


def test_same_kind_modifiers_do_not_stack() -> None:
    scopes = [Modifier(1, "red dot", "equipment"), Modifier(2, "scope", "equipment")]
    cond = [Modifier(-1, "rain", "condition"), Modifier(-2, "dark", "condition")]
    applied, dropped = stack([*scopes, *cond, Modifier(-1, "wounds", "wound")], OPT)
    # two sights: the better; two different conditions add up (issue 10); wounds apply
    assert sum(m.value for m in applied) == 2 - 1 - 2 - 1
    assert {m.source for m in dropped} == {"red dot"}
    both = Options(stacking="best_bonus_worst_penalty")
    mixed = [Modifier(2, "scope", "equipment"), Modifier(-1, "broken", "equipment")]
    assert sum(m.value for m in stack(mixed, both)[0]) == 1
    assert sum(m.value for m in stack(mixed, OPT)[0]) == 2


def test_no_stakes_no_roll() -> None:
    out = RULESET.resolve(Check(stakes=False), EMPTY, ScriptedRoller([]), OPT)
    assert out.faces == () and out.label == "No roll: no stakes"
    assert RULESET.odds(Check(stakes=False), EMPTY, OPT).probability(out.label) == 1


def test_costly_failure_and_costly_success_options() -> None:
    out = RULESET.resolve(Check(costly_failure=True), EMPTY, ScriptedRoller([2, 2]), OPT)
    assert out.details["costly_failure"] == 4 and out.label == "Costly Failure (degree 4)"
    with pytest.raises(IllegalAction):
        costly_success(2, Options(costly_success=False))
    with pytest.raises(IllegalAction, match="option costly_success"):
        RULESET.odds(Check(costly_success=True), EMPTY, Options(costly_success=False))


def test_costly_success_label_reflects_mitigation() -> None:
    """Issue 10: a failure by 2 taken as a Costly Success costs a Fail Effect of 7; with
    Mitigating Factors (conditions 3, cover 2, skill 2) it is reduced to 0: no harm; with
    conditions 3 alone, to 4. The label says what is left."""
    failed = [3, 3]  # 6 vs 8: failure by 2
    whole = Check(costly_success=True, mitigating=Mitigating(3, 2, 2))
    out = RULESET.resolve(whole, EMPTY, ScriptedRoller(failed), OPT)
    assert out.success and out.details["mitigation"] == [7, 4, 2, 0]
    assert out.label == "Costly Success (Fail Effect 7, mitigated to 0: no harm)"
    part = Check(costly_success=True, mitigating=Mitigating(conditions=3, skill=0))
    out = RULESET.resolve(part, EMPTY, ScriptedRoller(failed), OPT)
    assert out.label == "Costly Success (Fail Effect 7, mitigated to 4)"
    plain = RULESET.resolve(Check(costly_success=True), EMPTY, ScriptedRoller(failed), OPT)
    assert plain.label == "Costly Success (Fail Effect 7)"
    # in an attack, the Fail Effect strikes back through the mitigation
    threat = Threat(damage="1d6", mitigating=Mitigating(conditions=5, skill=0))
    attack = Attack(check=CheckInputs(costly_success=True), damage="1d6", threat=threat)
    out = RULESET.resolve(attack, EMPTY, ScriptedRoller([3, 3, 4, 1, 1]), OPT)
    assert out.label == "Costly Success (Fail Effect 7, mitigated to 2): 4 damage; took 2 damage"


def test_stealth_uses_recon_or_streetwise_unless_stealth_allowed() -> None:
    assert stealth_skill(PC.skills, OPT) == "Streetwise"
    assert stealth_skill(PC.skills, Options(dedicated_stealth=True)) == "Stealth"
    out = RULESET.resolve(
        Check(characteristic="Dex", stealth=True, actor="sly"), TABLE, ScriptedRoller([3, 3]), OPT
    )
    assert out.details["modifier"] == 1 + 2  # ChM(9) + Streetwise 2


def test_unskilled_penalty() -> None:
    pilot = Check(characteristic="Dex", skill="Pilot", actor="sly")
    out = RULESET.resolve(pilot, TABLE, ScriptedRoller([3, 3]), OPT)
    assert out.details["modifier"] == 1 - 3
    assert "unskilled" in out.modifiers[0].source
    with pytest.raises(RulesError, match="unskilled"):
        RULESET.resolve(pilot, TABLE, ScriptedRoller([3, 3]), Options(allow_unskilled=False))


def test_check_reports_task_time() -> None:
    out = RULESET.resolve(Check(duration="1d6"), EMPTY, ScriptedRoller([5, 4]), OPT)
    assert out.details["median_time"] == 3 and out.details["time"] == "2/1"  # SE 1
    pct = Options(time_rule="percentage")
    assert task_time(3, 2, pct) == Fraction(3, 4)
    assert task_time(3, -1, pct) == Fraction(9, 2)
    assert task_time(3, -3, pct) == Fraction(15, 2)
    assert task_time(3, 9, OPT) == 1  # at least one unit


def test_targeted_attack() -> None:
    attack = Attack(damage="2d6", location="head", target_hp=24)
    out = RULESET.resolve(attack, EMPTY, ScriptedRoller([4, 4, 1, 2]), OPT)
    assert out.details["targeted"] == {"location": "head", "effect": "Stunned"}  # 3 >= 2.4
    with pytest.raises(IllegalAction, match="target_hp"):
        RULESET.resolve(
            Attack(damage="2d6", location="head"), EMPTY, ScriptedRoller([4, 4, 1, 1]), OPT
        )


@pytest.mark.parametrize(
    ("location", "damage", "hp", "effect"),
    [
        ("limb", 8, 25, None),  # 8 < 25/3: no rounding down to 8
        ("limb", 9, 25, "Crippled"),
        ("limb", 8, 24, "Crippled"),  # exactly 1/3
        ("extremity", 2, 24, None),  # 2 < 24/10
        ("extremity", 3, 24, "Crippled"),
        ("extremity", 3, 30, "Crippled"),  # exactly 1/10
        ("head", 2, 24, None),
        ("head", 3, 24, "Stunned"),
        ("vitals", 2, 20, "Bleeding"),
        ("vitals", 0, 0, None),  # no damage, no effect
    ],
)
def test_targeted_damage_thresholds_compare_exact_fractions(
    location: str, damage: int, hp: int, effect: str | None
) -> None:
    """Issue 10, ch. 7 Targeted Damage: limbs >= 1/3 HP, extremities, head and vitals
    >= 1/10 HP, compared exactly: 8 damage at HP 25 does not cripple a limb; 2 at HP 24
    does not cripple an extremity."""
    assert targeted_effect(location, damage, hp) == effect


def test_targeted_attack_on_a_seated_target_uses_its_hp() -> None:
    """A limb hit of 8 against the Raider (HP 25) does not cripple; 9 does, and the
    target's sheet gains the condition."""
    raider = RULESET.examples()["raider"]
    table = seated({"raider": raider})
    attack = Attack(target="raider", damage="8", location="limb", armour=Target())
    out = RULESET.resolve(attack, table, ScriptedRoller([4, 4]), OPT)
    assert raider.hp == 25 and out.details["targeted"]["effect"] is None
    hit = RULESET.resolve(
        Attack(target="raider", damage="9", location="limb", armour=Target()),
        table,
        ScriptedRoller([4, 4]),
        OPT,
    )
    assert hit.details["targeted"]["effect"] == "Crippled"
    assert "Crippled" in RULESET.apply(table, hit).characters["raider"].sheet.conditions


def test_attack_failure_with_costly_success_still_hits() -> None:
    attack = Attack(check=CheckInputs(costly_success=True), damage="1d6")
    out = RULESET.resolve(attack, EMPTY, ScriptedRoller([3, 3, 5]), OPT)
    assert out.success and out.details["damage_dealt"] == 5
    assert out.details["costly_success"]["fail_effect"] == 7


def test_movement_by_condition() -> None:
    assert movement("Wounded") == (1, True)
    assert movement("Seriously Wounded") == (Fraction(3, 4), False)
    assert movement("Critically Wounded") == (0, False)


def test_surgery_odds() -> None:
    surgery = Surgery("sly", patient_end=8, patient_condition="Seriously Wounded")
    dist = RULESET.odds(surgery, TABLE, OPT)
    assert dist.at_least(0) == Fraction(26, 36)  # Edu 9 (+1) + Medic 1 vs 8 -> 2d6 >= 6


def test_bad_options_are_refused() -> None:
    with pytest.raises(RulesError):
        Options(hp_thresholds="vibes")
    with pytest.raises(RulesError):
        Options(max_net_advantage=9)


def test_sheet_equipment_as_damage_sources_and_targets() -> None:
    from referee.systems.base import load_record
    from referee.systems.mneme import RULESET as MNEME
    from referee.systems.mneme.damage import weapon_spec, worn_armour

    sheet = load_record(Sheet, MNEME.example_data("ada"))
    rifle = weapon_spec(sheet.weapons[0])
    assert rifle == DamageSpec("3d6-2", "", 4)
    assert worn_armour(sheet) == Target(4, "", "")


def test_every_option_is_documented() -> None:
    from dataclasses import fields
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "mneme.md"
    text = page.read_text(encoding="utf-8")
    for f in fields(Options):
        assert f"`{f.name}`" in text, f.name
        assert f.metadata.get("doc")


def test_modifier_kinds_are_compared_without_case() -> None:
    """'Equipment' and 'equipment' are one kind: a +1 and a +2 sight give +2."""
    sights = [Modifier(1, "red dot", "Equipment"), Modifier(2, "scope", "equipment ")]
    applied, dropped = stack(sights, OPT)
    assert [m.source for m in applied] == ["scope"] and [m.source for m in dropped] == ["red dot"]


def test_incoming_rolls_are_capped_by_the_adversaries_summed_rate_of_attack() -> None:
    """Ch. 7, Damage Rolls: one roll per point of Fail Effect, up to the sum of the
    adversaries' Rates of Attack: two broadswordsmen (RoA 1 each) against a Fail Effect of
    4 make four 3d3-2 rolls, and the two highest land."""
    from referee.dice.evaluate import odds
    from referee.dice.odds import keep_highest
    from referee.systems.mneme.actions import TakeDamage, Threat

    threat = Threat(damage="3d3-2", rate_of_attack=1 + 1)
    faces = [1, 1, 1, 3, 3, 3, 2, 2, 2, 3, 2, 1]  # raw 1, 7, 4, 4
    action = TakeDamage(fail_effect=4, threat=threat)
    out = RULESET.resolve(action, EMPTY, ScriptedRoller(faces), OPT)
    rolls = out.details["damage_rolls"]
    assert rolls["raw"] == [1, 7, 4, 4] and rolls["kept"] == [False, True, True, False]
    assert out.result == 11
    assert RULESET.odds(action, EMPTY, OPT) == keep_highest(odds("3d3-2"), 4, 2)


def test_minimum_one_damage_per_roll_at_success_effect_six() -> None:
    """Ch. 7, Armor: a hit at Effect 6+ inflicts at least 1 through any armour: a 1d3
    weapon at SE 6 against AR 10 makes seven rolls of 1 each; at SE 5, six rolls of 0."""
    hit6 = Attack(check=CheckInputs(difficulty=6), damage="1d3", armour=Target(armour=10))
    out = RULESET.resolve(hit6, EMPTY, ScriptedRoller([6, 6, 1, 2, 3, 1, 2, 3, 1]), OPT)
    assert out.details["success_effect"] == 6 and out.details["weapon_rolls"]["dealt"] == [1] * 7
    assert out.details["damage_dealt"] == 7
    hit5 = Attack(check=CheckInputs(difficulty=7), damage="1d3", armour=Target(armour=10))
    out5 = RULESET.resolve(hit5, EMPTY, ScriptedRoller([6, 6, 1, 2, 3, 1, 2, 3]), OPT)
    assert out5.details["success_effect"] == 5 and out5.details["damage_dealt"] == 0


def test_condition_presets_modify_the_difficulty() -> None:
    """Companion facts: concealment / cover partial, mostly, full = +1 / +2 / +4; ranged
    attack in close quarters +2; outnumbered +1 / +2 / +3; superior firepower +1..+3 and
    position +1..+2; a leading '-' is the PC's own edge."""
    from referee.systems.mneme.effects import condition_difficulty

    def with_conditions(difficulty: int, presets: list[str], options: Options = OPT) -> int:
        check = Check(difficulty=difficulty, conditions=tuple(presets))
        return RULESET.resolve(check, EMPTY, ScriptedRoller([1, 1]), options).target or 0

    expected = {
        "concealment:partial": 1,
        "concealment:mostly": 2,
        "concealment:full": 4,
        "cover:partial": 1,
        "cover:mostly": 2,
        "cover:full": 4,
        "close quarters:ranged": 2,
        "outnumbered:minor": 1,
        "outnumbered:significant": 2,
        "outnumbered:overwhelming": 3,
        "superior firepower:3": 3,
        "superior position:2": 2,
        "-superior firepower:1": -1,
    }
    for preset, change in expected.items():
        assert condition_difficulty(preset)[1] == change
    assert with_conditions(8, ["concealment:mostly", "-outnumbered:minor"]) == 9
    # one condition named twice counts once, the most favourable (issue 10: as numbers do)
    assert with_conditions(8, ["cover:full", "Cover:partial"]) == 9
    one_kind = Options(condition_stacking="one_kind")
    assert with_conditions(8, ["concealment:mostly", "-outnumbered:minor"], one_kind) == 7
    with pytest.raises(RulesError, match="known"):
        condition_difficulty("superior position:3")


def test_task_time_bounds_its_unit() -> None:
    with pytest.raises(RulesError, match="unit of 1"):
        task_time(3, 0, OPT, unit=0)
    with pytest.raises(RulesError, match="unit of 1"):
        task_time(3, 0, OPT, unit=10**12)
    # a 30-second median counted in 10-second units: SE 1 -> 20 s, never below one unit
    assert task_time(30, 1, OPT, unit=10) == 20
    assert task_time(30, 5, OPT, unit=10) == 10


def test_conditions_stack_one_way_by_number_and_by_preset() -> None:
    """Issue 10: condition modifiers given by number and by preset follow one rule.
    Different conditions add up (-1 rain and -2 dark: -3, as concealment:partial +1 and
    outnumbered:significant +2 make the Difficulty 3 harder); one condition twice counts
    once, the most favourable; option condition_stacking='one_kind': only one applies."""
    numbers = (Modifier(-1, "rain", "condition"), Modifier(-2, "dark", "condition"))
    applied, dropped = stack(numbers, OPT)
    assert sum(m.value for m in applied) == -3 and dropped == ()
    by_number = RULESET.odds(Check(modifiers=numbers), EMPTY, OPT)
    presets = Check(conditions=("concealment:partial", "outnumbered:significant"))
    assert RULESET.odds(presets, EMPTY, OPT) == by_number.shift(0)
    twice = (Modifier(-1, "rain", "condition"), Modifier(-2, "Rain", "condition"))
    assert sum(m.value for m in stack(twice, OPT)[0]) == -1
    one_kind = Options(condition_stacking="one_kind")
    assert sum(m.value for m in stack(numbers, one_kind)[0]) == -1
    mixed = Check(modifiers=numbers[:1], conditions=("concealment:mostly",))
    out = RULESET.resolve(mixed, EMPTY, ScriptedRoller([4, 4]), one_kind)
    assert out.target == 8 and out.details["modifier"] == -1  # only rain -1 applies
    out = RULESET.resolve(mixed, EMPTY, ScriptedRoller([4, 4]), OPT)
    assert out.target == 10 and out.details["modifier"] == -1


def test_skill_is_the_last_defence_from_the_defenders_sheet() -> None:
    """Issue 10, ch. 2 Skill Checks ("in combat, Skills are the last Defense Modifier") and
    Mitigating Factors: the defender's skill comes from their sheet. Ada (Melee 0) and a
    veteran with Melee 2 take a Fail Effect of 3 from broadswords (RoA 3): Ada takes three
    rolls, the veteran one; a named skill is used, and an explicit number overrides."""
    ada = RULESET.examples()["ada"]
    veteran = Sheet(
        "Vet",
        dict(ada.characteristics),
        skills={"Melee": 2, "Gun Combat": 1},
        weapons=ada.weapons,
    )
    table = seated({"ada": ada, "vet": veteran})
    threat = Threat(damage="3d3-2", rate_of_attack=3, armour=Target())
    ada_hit = RULESET.resolve(TakeDamage("ada", 3, threat), table, ScriptedRoller([2] * 9), OPT)
    assert ada_hit.details["mitigation"] == [3, 3, 3, 3]
    vet_hit = RULESET.resolve(TakeDamage("vet", 3, threat), table, ScriptedRoller([2] * 3), OPT)
    assert vet_hit.details["mitigation"] == [3, 3, 3, 1] and vet_hit.result == 4
    gun = TakeDamage("vet", 3, threat, skill="Gun Combat")
    assert RULESET.resolve(gun, table, ScriptedRoller([2] * 6), OPT).details["mitigation"][-1] == 2
    given = Threat(damage="3d3-2", armour=Target(), mitigating=Mitigating(skill=0))
    out = RULESET.resolve(TakeDamage("vet", 3, given), table, ScriptedRoller([2] * 9), OPT)
    assert out.details["mitigation"][-1] == 3
    # in an attack, the attack's own skill defends against what strikes back
    attack = Attack(
        "vet",
        check=CheckInputs(characteristic="Str"),
        weapon="Broadsword",
        threat=Threat(damage="3d3-2", rate_of_attack=3, armour=Target()),
    )
    # 1 + 1 + Str 7 (0) + Melee 2 = 4 vs 8: Fail Effect 4, Melee 2 leaves two rolls
    missed = RULESET.resolve(attack, table, ScriptedRoller([1, 1, *[2] * 6]), OPT)
    assert missed.details["incoming"]["mitigation"] == [4, 4, 4, 2]


def test_seriously_wounded_movement_is_reported() -> None:
    """Issue 10, ch. 7 Seriously Wounded: 3/4 speed and no Dash, in the outcome and the
    tracker; worse conditions are immobile."""
    ada = RULESET.examples()["ada"]  # HP 24: Seriously Wounded from 8
    table = seated({"ada": ada})
    hit = TakeDamage("ada", 1, Threat(damage="10", armour=Target()))
    out = RULESET.resolve(hit, table, ScriptedRoller([]), OPT)
    assert out.details["condition"] == "Seriously Wounded"
    assert out.details["movement"] == {"speed": "3/4", "dash": False}
    rows = dict(RULESET.tracker(RULESET.apply(table, out), OPT)["characters"]["ada"])
    assert rows["Movement"] == "3/4 speed, no Dash"
    worse = RULESET.resolve(
        TakeDamage("ada", 1, Threat(damage="17", armour=Target())), table, ScriptedRoller([]), OPT
    )
    assert worse.details["movement"] == {"speed": "0/1", "dash": False}
