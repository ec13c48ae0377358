"""HP thresholds, conditions, the healing clock and medical care (Mneme CE ch. 7)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction, RulesError
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import (
    CareWard,
    FirstAid,
    PassTime,
    SetCare,
    Surgery,
    SurvivalRoll,
)
from referee.systems.mneme.checks import wound_penalty
from referee.systems.mneme.health import (
    condition,
    healing_rate,
    pass_time,
    targeted_effect,
    thresholds,
)
from referee.systems.mneme.medical import (
    care_capacity,
    first_aid_heal,
    first_aid_rounds_left,
    monitoring_capacity,
    patient_load,
    surgery_result,
)
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.state import State, seated

OPT = Options()
# HP 24: Seriously Wounded at 8, Critically at 16, Dying above 24
PC = Sheet(
    "Pat",
    {"Str": 7, "Dex": 9, "End": 8, "Int": 7, "Edu": 9, "Soc": 7},
    skills={"Medic": 1},
)


def hurt(damage: int, **kw: object) -> Sheet:
    return replace(PC, damage=damage, **kw)  # type: ignore[arg-type]


def alone(c: Sheet) -> State:
    return seated({"pc": c})


def test_hp_and_thresholds() -> None:
    assert PC.hp == 24
    t = thresholds(PC, OPT)
    assert (t.seriously, t.critically) == (8, 16)
    table = thresholds(PC, Options(hp_thresholds="table"))
    assert (table.seriously, table.critically) == (9, 18)
    expected = {
        0: "Unhurt",
        1: "Wounded",
        7: "Wounded",
        8: "Seriously Wounded",
        16: "Critically Wounded",
        24: "Critically Wounded",
        25: "Dying",
    }
    for damage, name in expected.items():
        assert condition(hurt(damage), OPT) == name


def test_wound_penalties_per_full_three_damage() -> None:
    assert [wound_penalty(d, OPT) for d in (0, 2, 3, 5, 6, 9)] == [0, 0, -1, -1, -2, -3]


def test_wound_penalty_applies_to_checks() -> None:
    out = RULESET.resolve(
        SurvivalRoll("pc", "dying"), alone(hurt(26)), ScriptedRoller([2, 2]), OPT
    )  # End 8 -> ChM 0; 26 damage -> -8
    assert out.details["modifier"] == -8 and out.label == "Dead"
    assert any(c.value == ["Dead"] for c in out.changes)


@pytest.mark.parametrize(
    ("condition_name", "activity", "care", "rate"),
    [
        ("Wounded", "moderate", "none", None),
        ("Wounded", "moderate", "light", (1, 3)),
        ("Wounded", "light", "none", (1, 2)),
        ("Wounded", "light", "light", (1, 1)),
        ("Wounded", "full_rest", "none", (1, 1)),
        ("Wounded", "full_rest", "light", (2, 1)),
        ("Seriously Wounded", "moderate", "moderate", None),
        ("Seriously Wounded", "light", "none", (1, 3)),
        ("Seriously Wounded", "light", "moderate", (1, 2)),
        ("Seriously Wounded", "full_rest", "none", (1, 2)),
        ("Seriously Wounded", "full_rest", "moderate", (1, 1)),
        ("Seriously Wounded", "full_rest", "light", (1, 2)),
        ("Critically Wounded", "full_rest", "none", (1, 7)),
        ("Critically Wounded", "full_rest", "serious", (1, 3)),
        ("Dying", "full_rest", "none", (1, 7)),
        ("Dying", "full_rest", "intensive", (1, 3)),
        ("Wounded", "strenuous", "light", None),
    ],
)
def test_the_whole_healing_table(
    condition_name: str, activity: str, care: str, rate: tuple[int, int] | None
) -> None:
    assert healing_rate(condition_name, activity, care) == rate


def test_immobile_characters_cannot_be_active() -> None:
    with pytest.raises(IllegalAction, match="immobile"):
        healing_rate("Critically Wounded", "light", "serious")


def test_clock_wounded_full_rest_light_care_two_a_day() -> None:
    r = pass_time(hurt(3), days=1, activity="full_rest", care="light", options=OPT)
    assert r.character.damage == 1 and r.healed == 2
    half = pass_time(hurt(3), hours=12, activity="full_rest", care="light", options=OPT)
    assert half.character.damage == 2 and half.character.healing_progress == 0


def test_clock_keeps_fractional_progress() -> None:
    one = pass_time(hurt(10), days=1, activity="light", options=OPT)  # Serious: 1 / 3 days
    assert one.character.damage == 10 and one.character.healing_progress == Fraction(1, 3)
    two = pass_time(one.character, days=2, activity="light", options=OPT)
    assert two.character.damage == 9 and two.character.healing_progress == 0
    hours = pass_time(hurt(10), hours=36, activity="light", options=OPT)
    assert hours.character.healing_progress == Fraction(1, 2)


def test_clock_changes_rate_with_condition() -> None:
    # 9 damage, light activity: 9 -> 8 takes 3 days (Serious), 8 -> 7 three more,
    # then Wounded heals 1 / 2 days: 7 -> 6 after two more days.
    r = pass_time(hurt(9), days=8, activity="light", options=OPT)
    assert r.character.damage == 6 and r.healed == 3


def test_strenuous_activity_loses_progress() -> None:
    partial = pass_time(hurt(10), days=1, activity="light", options=OPT).character
    lost = pass_time(partial, hours=1, activity="strenuous", options=OPT)
    assert lost.character.healing_progress == 0 and lost.character.damage == 10


def test_critically_wounded_heals_one_per_week_on_full_rest() -> None:
    r = pass_time(hurt(20), days=7, activity="full_rest", options=OPT)
    assert r.character.damage == 19
    cared = pass_time(hurt(20), days=7, activity="full_rest", care="serious", options=OPT)
    assert cared.character.damage == 18 and cared.character.healing_progress == Fraction(1, 3)


def test_bleeding_adds_a_point_a_minute_and_stops_healing() -> None:
    r = pass_time(hurt(10, conditions=("Bleeding",)), minutes=5, options=OPT)
    assert r.character.damage == 15 and r.bled == 5


def test_therapy_after_full_healing() -> None:
    pc = hurt(0, characteristic_damage={"Int": 2})
    r = pass_time(pc, days=4, therapy="Int", options=OPT)
    assert r.character.characteristic_damage == {"Int": 1} and r.character.therapy_days == 1
    r2 = pass_time(r.character, days=2, therapy="Int", options=OPT)
    assert r2.character.characteristic_damage == {}
    blocked = pass_time(
        hurt(1, characteristic_damage={"Int": 2}), days=0, hours=1, therapy="Int", options=OPT
    )
    assert blocked.therapy == 0


def test_clock_as_an_action() -> None:
    table = alone(hurt(3))
    care = RULESET.resolve(SetCare("pc", care="light"), table, ScriptedRoller([]), OPT)
    assert care.details["needs_care"] == "light" and care.details["cared"]
    table = RULESET.apply(table, care)
    out = RULESET.resolve(PassTime(days=1), table, ScriptedRoller([]), OPT)
    assert out.result == 1 and out.label == "Wounded"
    assert RULESET.apply(table, out).characters["pc"].sheet.damage == 1
    with pytest.raises(IllegalAction, match="days: must be"):
        PassTime(days=-1)
    with pytest.raises(IllegalAction, match="immobile"):
        RULESET.resolve(SetCare("pc", "light"), alone(hurt(20)), ScriptedRoller([]), OPT)


def test_first_aid() -> None:
    assert [first_aid_heal(e) for e in (-1, 0, 1, 3)] == [0, 1, 1, 3]
    # Edu 9 -> ChM +1, Medic 1: +2 against 8 on another (not seated: healing uncapped)
    out = RULESET.resolve(FirstAid("pc"), alone(PC), ScriptedRoller([5, 4]), OPT)
    assert out.target == 8 and out.result == 3 and out.details["healed"] == 3
    assert out.details["stabilises"].startswith("unknown")
    self_aid = FirstAid("pc", on_self=True)
    out = RULESET.resolve(self_aid, alone(hurt(5)), ScriptedRoller([5, 4]), OPT)
    assert out.target == 10 and out.details["healed"] == 1
    # with the patient known, first aid cannot heal damage that is not there
    unhurt = RULESET.resolve(self_aid, alone(PC), ScriptedRoller([5, 4]), OPT)
    assert unhurt.success and unhurt.details["healed"] == 0
    assert first_aid_rounds_left(30, 2, 30) == 27
    assert first_aid_rounds_left(27, -2, 30) == 28
    assert first_aid_rounds_left(30, -3, 30) == 30


def test_surgery() -> None:
    assert surgery_result(2, 1, 8, OPT).healed == 4
    botched = surgery_result(-6, 1, 8, OPT)  # 6 - Medic 1 = 5 left; 5 > 8 / 2
    assert botched.fail_effect_left == 5 and botched.harm == 10 and botched.minutes == 180
    assert surgery_result(-2, 1, 8, OPT).harm == 0
    # the remainder must exceed half End: 4 left against End 8 does no harm, 5 of End 9 does
    assert surgery_result(-5, 1, 8, OPT).harm == 0
    assert surgery_result(-6, 1, 9, OPT).harm == 10
    # Medic skill absorbs a small Fail Effect entirely: the base 30 minutes
    whole = surgery_result(-3, 3, 8, OPT)
    assert (whole.fail_effect_left, whole.minutes, whole.harm) == (0, 30, 0)
    literal = Options(surgery_time="times")
    assert surgery_result(-6, 1, 8, literal).minutes == 150  # x 5
    assert surgery_result(-2, 1, 8, literal).minutes == 30  # x 1
    with pytest.raises(IllegalAction, match="hospital"):
        RULESET.resolve(
            Surgery("pc", patient_end=8, patient_condition="Seriously Wounded", facility=False),
            alone(PC),
            ScriptedRoller([3, 3]),
            OPT,
        )
    # a seated patient: their End and condition, and the healing lands on their sheet
    table = seated({"doc": PC, "pat": hurt(12)})
    out = RULESET.resolve(Surgery("doc", "pat"), table, ScriptedRoller([5, 5]), OPT)
    assert (
        out.details["healed"] == 8 and RULESET.apply(table, out).characters["pat"].sheet.damage == 4
    )


def test_medical_care_capacity() -> None:
    assert [care_capacity(m, OPT) for m in (0, 1, 2)] == [8, 16, 32]
    # a Medic 2+ supervisor doubles the capacity of the medics they supervise
    assert care_capacity(0, OPT, supervisor_medic=2) == 16
    assert care_capacity(1, OPT, supervisor_medic=3) == 32
    assert care_capacity(0, OPT, supervisor_medic=1) == 8
    # conversions: 1 moderate = 2 light, 1 serious = 4, 1 intensive = 8
    assert patient_load(["Seriously Wounded"]) == 2 and patient_load(["Dying"]) == 8
    assert patient_load(["Critically Wounded"]) == 4 and patient_load(["Wounded"]) == 1
    ward = CareWard(conditions=("Dying", "Wounded"), supervisor_medic=2)
    out = RULESET.resolve(ward, State(), ScriptedRoller([]), OPT)
    assert (out.details["load"], out.details["capacity"], out.details["fits"]) == (9, 16, True)
    assert out.details["intensive_supervised"] and "supervision" not in out.details
    assert monitoring_capacity(1, OPT) == 64
    with pytest.raises(RulesError, match="Medic"):
        care_capacity(-1, OPT)
    assert monitoring_capacity(0, OPT) == 32
    assert patient_load(["Wounded", "Seriously Wounded", "Critically Wounded", "Dying"]) == 15
    alone_ = RULESET.resolve(CareWard(conditions=("Dying",)), State(), ScriptedRoller([]), OPT)
    assert (alone_.details["load"], alone_.details["capacity"]) == (8, 8)
    over = RULESET.resolve(
        CareWard(conditions=("Dying", "Wounded")), State(), ScriptedRoller([]), OPT
    )
    assert not over.details["fits"] and "exceeds the capacity" in over.label


def test_care_that_needs_supervision_says_so() -> None:
    """Issue 10, ch. 7 Intensive Care: "require Medic 2 character or AI sickbay
    supervision". A Medic 1 caregiver alone with a Dying patient is told so; a Medic 2
    caregiver, a Medic 2 supervisor or an AI sickbay supervise it."""
    dying = ("Dying",)
    lacking = RULESET.resolve(CareWard(conditions=dying, medic=1), State(), ScriptedRoller([]), OPT)
    assert lacking.details["intensive_supervised"] is False
    assert "Medic 2+" in lacking.details["supervision"]
    assert "without Medic 2+ supervision" in lacking.label
    for ward in (
        CareWard(conditions=dying, medic=2),
        CareWard(conditions=dying, supervisor_medic=2),
        CareWard(conditions=dying, ai_sickbay=True),
    ):
        out = RULESET.resolve(ward, State(), ScriptedRoller([]), OPT)
        assert out.details["intensive_supervised"] and "supervision" not in out.details
    # seated patients count by their condition
    table = seated({"pc": hurt(30), "pat": hurt(3)})
    out = RULESET.resolve(CareWard(patients=("pc", "pat")), table, ScriptedRoller([]), OPT)
    assert [p["care"] for p in out.details["patients"]] == ["intensive", "light"]


def test_intensive_care_and_massive_damage() -> None:
    # End 8 -> ChM 0; 3 damage -> -1: 12 - 1 = 11 >= 8
    ok = RULESET.resolve(
        SurvivalRoll("pc", "intensive"), alone(hurt(3)), ScriptedRoller([6, 6]), OPT
    )
    assert ok.success and ok.changes[0].delta == -2
    # wound penalties apply: 20 damage -> -6, so even 12 fails against 8
    # and a failure calls for a dying roll, rolled at once: 12 - 6 = 6 >= 4 survives it
    failed = RULESET.resolve(
        SurvivalRoll("pc", "intensive"), alone(hurt(20)), ScriptedRoller([6, 6, 6, 6]), OPT
    )
    assert not failed.success and failed.label == "Dying roll: Still alive"
    assert failed.details["dying_roll"]["effect"] == 2 and not failed.changes
    bad = RULESET.resolve(
        SurvivalRoll("pc", "intensive"), alone(hurt(20)), ScriptedRoller([1, 1, 2, 3]), OPT
    )
    assert bad.details["dying_roll_required"] is True
    assert bad.label == "Dying roll: Dead" and bad.changes[0].value == ["Dead"]
    massive = RULESET.resolve(
        SurvivalRoll("pc", "massive", damage_before=0), alone(hurt(30)), ScriptedRoller([1, 2]), OPT
    )
    assert massive.label == "Dead"


def test_targeted_damage() -> None:
    assert targeted_effect("limb", 8, 24) == "Crippled"
    assert targeted_effect("limb", 7, 24) is None
    # 1/10 of HP 24 is 2.4: exact fractions, no rounding down (issue 10)
    assert targeted_effect("head", 2, 24) is None
    assert targeted_effect("head", 3, 24) == "Stunned"
    assert targeted_effect("vitals", 3, 24) == "Bleeding"
    assert targeted_effect("extremity", 2, 24) is None


def test_surgery_and_clock_inputs_are_checked_before_any_roll() -> None:
    with pytest.raises(IllegalAction, match="patient_end: must be"):
        Surgery("pc", patient_end=-5, patient_condition="Seriously Wounded")
    with pytest.raises(RulesError, match="unknown condition"):
        fine = Surgery("pc", patient_end=8, patient_condition="Fine")  # type: ignore[arg-type]
        RULESET.resolve(fine, alone(PC), ScriptedRoller([]), OPT)
    with pytest.raises(RulesError, match="unknown activity"):
        pass_time(PC, days=1, activity="jog", options=OPT)
