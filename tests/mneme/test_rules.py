"""Mneme CE rules beyond the worked examples: stacking, stakes, stealth, time, targeting."""

from __future__ import annotations

from fractions import Fraction

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Modifier
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import Attack, Check, Surgery
from referee.systems.mneme.checks import stack
from referee.systems.mneme.damage import DamageSpec, Target
from referee.systems.mneme.effects import DISCREPANCIES, costly_success, stealth_skill, task_time
from referee.systems.mneme.health import movement
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Character

OPT = Options()
PC = Character(
    "Sly",
    {"Str": 7, "Dex": 9, "End": 8, "Int": 7, "Edu": 9, "Soc": 7},
    skills={"Recon": 0, "Streetwise": 2, "Stealth": 3, "Medic": 1},
)


def test_same_kind_modifiers_do_not_stack() -> None:
    scopes = [Modifier(1, "red dot", "equipment"), Modifier(2, "scope", "equipment")]
    cond = [Modifier(-1, "rain", "condition"), Modifier(-2, "dark", "condition")]
    applied, dropped = stack([*scopes, *cond, Modifier(-1, "wounds", "wound")], OPT)
    assert sum(m.value for m in applied) == 2 - 1 - 1
    assert {m.source for m in dropped} == {"red dot", "dark"}
    both = Options(stacking="best_bonus_worst_penalty")
    mixed = [Modifier(2, "scope", "equipment"), Modifier(-1, "broken", "equipment")]
    assert sum(m.value for m in stack(mixed, both)[0]) == 1
    assert sum(m.value for m in stack(mixed, OPT)[0]) == 2


def test_no_stakes_no_roll() -> None:
    out = RULESET.resolve(Check(stakes=False), None, ScriptedRoller([]), OPT)
    assert out.faces == () and out.label == "No roll: no stakes"
    with pytest.raises(RulesError):
        RULESET.odds(Check(stakes=False), None, OPT)


def test_costly_failure_and_costly_success_options() -> None:
    out = RULESET.resolve(Check(costly_failure=True), None, ScriptedRoller([2, 2]), OPT)
    assert out.details["costly_failure"] == 4 and out.label == "Costly Failure (degree 4)"
    with pytest.raises(IllegalAction):
        costly_success(2, Options(costly_success=False))


def test_stealth_uses_recon_or_streetwise_unless_stealth_allowed() -> None:
    assert stealth_skill(PC.skills, OPT) == "Streetwise"
    assert stealth_skill(PC.skills, Options(dedicated_stealth=True)) == "Stealth"
    out = RULESET.resolve(
        Check(characteristic="Dex", stealth=True), PC, ScriptedRoller([3, 3]), OPT
    )
    assert out.details["modifier"] == 1 + 2  # ChM(9) + Streetwise 2


def test_unskilled_penalty() -> None:
    out = RULESET.resolve(
        Check(characteristic="Dex", skill="Pilot"), PC, ScriptedRoller([3, 3]), OPT
    )
    assert out.details["modifier"] == 1 - 3
    assert "unskilled" in out.modifiers[0].source
    with pytest.raises(RulesError, match="unskilled"):
        RULESET.resolve(
            Check(characteristic="Dex", skill="Pilot"),
            PC,
            ScriptedRoller([3, 3]),
            Options(allow_unskilled=False),
        )


def test_check_reports_task_time() -> None:
    out = RULESET.resolve(Check(duration="1d6"), None, ScriptedRoller([5, 4]), OPT)
    assert out.details["median_time"] == 3 and out.details["time"] == 2  # SE 1
    pct = Options(time_rule="percentage")
    assert task_time(3, 2, pct) == Fraction(3, 4)
    assert task_time(3, -1, pct) == Fraction(9, 2)
    assert task_time(3, -3, pct) == Fraction(15, 2)
    assert task_time(3, 9, OPT) == 1  # at least one unit


def test_targeted_attack() -> None:
    attack = Attack(Check(), DamageSpec("2d6"), Target(), location="head", target_hp=24)
    out = RULESET.resolve(attack, None, ScriptedRoller([4, 4, 1, 1]), OPT)
    assert out.details["targeted"] == {"location": "head", "effect": "Stunned"}
    with pytest.raises(RulesError, match="target_hp"):
        RULESET.resolve(
            Attack(Check(), DamageSpec("2d6"), location="head"),
            None,
            ScriptedRoller([4, 4, 1, 1]),
            OPT,
        )


def test_attack_failure_with_costly_success_still_hits() -> None:
    attack = Attack(Check(costly_success=True), DamageSpec("1d6"))
    out = RULESET.resolve(attack, None, ScriptedRoller([3, 3, 5]), OPT)
    assert out.success and out.details["damage_dealt"] == 5
    assert out.details["costly_success"]["fail_effect"] == 7


def test_movement_by_condition() -> None:
    assert movement("Wounded") == (1, True)
    assert movement("Seriously Wounded") == (Fraction(3, 4), False)
    assert movement("Critically Wounded") == (0, False)


def test_surgery_odds_and_discrepancies_are_listed() -> None:
    dist = RULESET.odds(Surgery(8, "Seriously Wounded"), PC, OPT)
    assert dist.at_least(0) == Fraction(26, 36)  # Edu 9 (+1) + Medic 1 vs 8 -> 2d6 >= 6
    assert len(DISCREPANCIES) >= 5


def test_bad_options_are_refused() -> None:
    with pytest.raises(RulesError):
        Options(hp_thresholds="vibes")
    with pytest.raises(RulesError):
        Options(max_net_advantage=9)


def test_sheet_equipment_as_damage_sources_and_targets() -> None:
    from referee.systems.base import load_record
    from referee.systems.mneme.damage import weapon_spec, worn_armour
    from referee.systems.mneme.sheet import example_data

    sheet = load_record(Character, example_data())
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

    threat = Threat(DamageSpec("3d3-2", rate_of_attack=1), rate_of_attack=1 + 1)
    faces = [1, 1, 1, 3, 3, 3, 2, 2, 2, 3, 2, 1]  # raw 1, 7, 4, 4
    out = RULESET.resolve(TakeDamage(4, threat), None, ScriptedRoller(faces), OPT)
    rolls = out.details["damage_rolls"]
    assert rolls["raw"] == [1, 7, 4, 4] and rolls["kept"] == [False, True, True, False]
    assert out.result == 11
    assert RULESET.odds(TakeDamage(4, threat), None, OPT) == keep_highest(odds("3d3-2"), 4, 2)


def test_minimum_one_damage_per_roll_at_success_effect_six() -> None:
    """Ch. 7, Armor: a hit at Effect 6+ inflicts at least 1 through any armour: a 1d3
    weapon at SE 6 against AR 10 makes seven rolls of 1 each; at SE 5, six rolls of 0."""
    knife = DamageSpec("1d3")
    hit6 = Attack(Check(difficulty=6), knife, Target(armour=10))
    out = RULESET.resolve(hit6, None, ScriptedRoller([6, 6, 1, 2, 3, 1, 2, 3, 1]), OPT)
    assert out.details["success_effect"] == 6 and out.details["weapon_rolls"]["dealt"] == [1] * 7
    assert out.details["damage_dealt"] == 7
    hit5 = Attack(Check(difficulty=7), knife, Target(armour=10))
    out5 = RULESET.resolve(hit5, None, ScriptedRoller([6, 6, 1, 2, 3, 1, 2, 3]), OPT)
    assert out5.details["success_effect"] == 5 and out5.details["damage_dealt"] == 0


def test_condition_presets_modify_the_difficulty() -> None:
    """Companion facts: concealment / cover partial, mostly, full = +1 / +2 / +4; ranged
    attack in close quarters +2; outnumbered +1 / +2 / +3; superior firepower +1..+3 and
    position +1..+2; a leading '-' is the PC's own edge."""
    from referee.systems.mneme.effects import condition_difficulty, with_conditions

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
    assert with_conditions(8, ["concealment:mostly", "-outnumbered:minor"])[0] == 9
    with pytest.raises(RulesError, match="does not stack"):
        with_conditions(8, ["cover:full", "Cover:partial"])
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
