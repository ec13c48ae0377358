"""First-aid stabilisation over time, intensive care, and dying rolls round by round
(Mneme CE ch. 7, First Aid; Intensive Care; Dying; Bleeding)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from referee.dice.roller import ScriptedRoller, SeededRoller
from referee.errors import IllegalAction, OddsTooComplex, RulesError
from referee.systems.base import Outcome
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import (
    FirstAid,
    PassRounds,
    PassTime,
    SetCare,
    SurvivalRoll,
)
from referee.systems.mneme.dying import p_survive_round
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet, validate
from referee.systems.mneme.state import State, seated

OPT = Options()
# HP 24; Edu 9 (+1) and Medic 1: first aid at +2
PC = Sheet("Pat", {"Str": 7, "Dex": 9, "End": 8, "Int": 7, "Edu": 9, "Soc": 7}, skills={"Medic": 1})
# HP 18 with End 14 (+2): at 19 or 20 damage the wound penalty is -6, so a dying roll
# 2d6 + 2 - 6 >= 4 needs 8+ on 2d6 (15/36); at 21 it is -7 (9+: 10/36)
TOUGH = Sheet("Tess", {"Str": 2, "Dex": 2, "End": 14, "Int": 7, "Edu": 7, "Soc": 7})


def hurt(c: Sheet, damage: int, *conditions: str, minutes: int = 0) -> Sheet:
    return replace(c, damage=damage, conditions=conditions, stabilised_minutes=minutes)


def alone(c: Sheet, care: str = "none") -> State:
    """The character seated alone as ``pc`` with that care."""
    table = seated({"pc": c})
    if care != "none":
        table = RULESET.apply(
            table,
            RULESET.resolve(SetCare("pc", care=care), table, ScriptedRoller([]), OPT),  # type: ignore[arg-type]
        )
    return table


def mine(out: Outcome) -> dict[str, Any]:
    """The lone character's details of a pass-time or pass-rounds outcome."""
    per = out.record("characters")["pc"]
    assert isinstance(per, dict)
    return per


def after(table: State, out: Outcome, cid: str = "pc") -> Sheet:
    return RULESET.apply(table, out).characters[cid].sheet


def p_2d6_at_least(n: int) -> Fraction:
    return Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if a + b >= n), 36)


def p_alive(table: State, rounds: int) -> Fraction:
    fates = RULESET.odds(PassRounds(rounds), table, OPT)
    return Fraction(fates.probability_where(lambda f: dict(f)["pc"] != "Dead"))


# -- first aid ---------------------------------------------------------------


def aid(patient: Sheet, faces: list[int], **kw: Any) -> tuple[State, Outcome]:
    table = seated({"medic": PC, "pat": patient})
    return table, RULESET.resolve(FirstAid("medic", "pat", **kw), table, ScriptedRoller(faces), OPT)


def test_first_aid_stabilises_a_dying_patient_for_end_hours() -> None:
    table, out = aid(hurt(PC, 30), [5, 4])
    # 9 + 2 = 11 vs 8: SE 3 heals 3 -> 27 > HP 24, still Dying: stabilised for End 8 hours
    assert out.details["healed"] == 3 and out.details["stabilised_minutes"] == 480
    assert out.label == "Healed 3; stabilised for 8 hours"
    patient = after(table, out, "pat")
    assert patient.damage == 27 and patient.conditions == ("Stabilised",)
    assert patient.stabilised_minutes == 480 and validate(patient, OPT) == ()


def test_first_aid_stabilises_only_the_dying() -> None:
    # healed out of Dying (26 - 3 = 23 <= 24): nothing to stabilise
    _, out = aid(hurt(PC, 26), [5, 4])
    assert not any("Stabilised" in str(c.value) for c in out.changes)
    _, seriously = aid(hurt(PC, 10), [5, 4])
    assert [c.field for c in seriously.changes] == ["sheet.damage"]


def test_first_aid_stops_bleeding() -> None:
    bleeding = hurt(PC, 10, "Bleeding")
    table, out = aid(bleeding, [4, 2])
    # 6 + 2 = 8 vs 8: SE 0 still heals the minimum 1, and the bleeding stops
    assert out.details["healed"] == 1 and out.details["bleeding_stopped"]
    patient = after(table, out, "pat")
    assert patient.damage == 9 and patient.conditions == ()
    _, failed = aid(bleeding, [1, 2])
    assert failed.changes == () and not failed.success


def test_stabilisation_uses_current_end() -> None:
    weak = replace(hurt(PC, 30), characteristic_damage={"End": 2})  # End 6 -> 6 hours
    _, out = aid(weak, [5, 4])
    assert out.details["stabilised_minutes"] == 360


def test_stabilised_sheet_must_say_how_long() -> None:
    problems = validate(hurt(PC, 27, "Stabilised"), OPT)
    assert [p.field for p in problems] == ["stabilised_minutes"]
    assert [p.field for p in validate(hurt(PC, 27, minutes=5), OPT)] == ["stabilised_minutes"]


# -- the clock counts the stabilisation down -----------------------------------


def test_clock_counts_stabilisation_down() -> None:
    stable = alone(hurt(PC, 27, "Stabilised", minutes=480))
    out = RULESET.resolve(PassTime(hours=7), stable, ScriptedRoller([]), OPT)
    assert mine(out)["stabilised_minutes"] == 60 and mine(out)["dying_rolls_due"] == 0
    assert out.label == "Dying" and out.success is None
    assert RULESET.apply(stable, out).clock == 7 * 60 * 10  # rounds at the table
    # exactly 8 hours: it runs out as the span ends, no roll yet
    ends = RULESET.resolve(PassTime(hours=8), stable, ScriptedRoller([]), OPT)
    sheet = after(stable, ends)
    assert sheet.conditions == () and sheet.stabilised_minutes == 0
    assert any("stabilisation ran out" in n for n in mine(ends)["notes"])
    # 9 hours, rolls only noted: the last hour's 600 rounds each need a dying roll
    noted = RULESET.resolve(PassTime(hours=9, dying_rolls=False), stable, ScriptedRoller([]), OPT)
    assert mine(noted)["dying_rolls_due"] == 600
    assert "600 dying roll(s) due, one per round from round 4801" in mine(noted)["notes"][0]


def test_clock_rolls_the_dying_rolls_when_stabilisation_runs_out() -> None:
    # Pat at 27: 2d6 + 0 - 9 >= 4 is impossible, so the first due roll (round 4801) kills
    stable = alone(hurt(PC, 27, "Stabilised", minutes=480))
    out = RULESET.resolve(PassTime(hours=9), stable, ScriptedRoller([]), OPT)
    assert out.label == "Dead" and mine(out)["dying_rolls"]["death_round"] == 4801
    assert after(stable, out).conditions == ("Dead",)
    # Tess at 19 rolls 8+ to live: 8 lives, 7 dies in the second round
    tess = alone(hurt(TOUGH, 19, "Stabilised", minutes=1))
    rolled = RULESET.resolve(PassTime(minutes=2), tess, ScriptedRoller([6, 2, 6, 1]), OPT)
    assert mine(rolled)["dying_rolls"]["death_round"] == 12
    assert mine(rolled)["dying_rolls"]["effects"] == [0, -1] and rolled.label == "Dead"
    survived = RULESET.resolve(PassTime(minutes=1), alone(hurt(TOUGH, 19)), SeededRoller(1), OPT)
    assert mine(survived)["dying_rolls_due"] == 10


def test_clock_odds_come_from_the_dying_rule() -> None:
    tess = alone(hurt(TOUGH, 19, "Stabilised", minutes=1))
    dist = RULESET.odds(PassTime(minutes=2), tess, OPT)
    # 10 due rounds at 19 damage, each 15/36
    assert dist.probability((("pc", "Dying"),)) == Fraction(15, 36) ** 10
    assert dist.probability((("pc", "Dead"),)) == 1 - Fraction(15, 36) ** 10


def test_intensive_care_replaces_the_dying_rolls_and_heals_one_per_three_days() -> None:
    tess = alone(hurt(TOUGH, 19), care="intensive")
    out = RULESET.resolve(PassTime(days=3), tess, ScriptedRoller([]), OPT)
    assert mine(out)["dying_rolls_due"] == 0 and out.result == 18 and mine(out)["healed"] == 1
    six = RULESET.resolve(PassTime(days=6), tess, ScriptedRoller([]), OPT)
    assert six.result == 17
    # without intensive care, full rest heals a Dying character 1 per 7 days (rolls noted)
    slow = RULESET.resolve(
        PassTime(days=7, dying_rolls=False), alone(hurt(TOUGH, 19)), ScriptedRoller([]), OPT
    )
    assert slow.result == 18 and mine(slow)["dying_rolls_due"] == 7 * 24 * 60 * 10
    unsup = alone(hurt(TOUGH, 19))
    care = RULESET.resolve(
        SetCare("pc", care="intensive", supervised=False), unsup, ScriptedRoller([]), OPT
    )
    assert "End rolls at 8 are due" in care.label and "supervision" in care.details
    unsup = RULESET.apply(unsup, care)
    out = RULESET.resolve(PassTime(days=1), unsup, ScriptedRoller([]), OPT)
    assert any("unsupervised intensive care" in n for n in mine(out)["notes"])


# -- intensive care rolls --------------------------------------------------------


def test_supervised_intensive_care_needs_no_roll() -> None:
    for action in (
        SurvivalRoll("pc", "intensive", supervisor_medic=2),
        SurvivalRoll("pc", "intensive", ai_sickbay=True),
    ):
        out = RULESET.resolve(action, alone(hurt(PC, 27)), ScriptedRoller([]), OPT)
        assert out.success is None and out.faces == () and out.changes == ()
        assert RULESET.odds(action, alone(hurt(PC, 27)), OPT).probability(out.label) == 1
    # Medic 1, or Medic 2 without tools: the patient rolls
    for action in (
        SurvivalRoll("pc", "intensive", supervisor_medic=1),
        SurvivalRoll("pc", "intensive", supervisor_medic=2, equipped=False),
    ):
        out = RULESET.resolve(action, alone(hurt(PC, 3)), ScriptedRoller([6, 3]), OPT)
        assert out.target == 8 and out.label == "Healed 2" and out.changes[0].delta == -2


def test_intensive_care_odds() -> None:
    # Pat at 3 damage: 2d6 - 1 >= 8 heals 2 (10/36); else the dying roll 2d6 - 1 >= 4 (30/36)
    dist = RULESET.odds(SurvivalRoll("pc", "intensive"), alone(hurt(PC, 3)), OPT)
    assert dist.probability("Healed 2") == Fraction(10, 36)
    assert dist.probability("Dying roll: Still alive") == Fraction(26, 36) * Fraction(30, 36)
    assert dist.probability("Dying roll: Dead") == Fraction(26, 36) * Fraction(6, 36)


# -- rounds passing ---------------------------------------------------------------


def test_each_round_probability_is_the_end_roll() -> None:
    assert p_survive_round(TOUGH, 19, OPT) == p_2d6_at_least(8) == Fraction(5, 12)
    assert p_survive_round(TOUGH, 21, OPT) == p_2d6_at_least(9)
    assert p_survive_round(PC, 25, OPT) == p_2d6_at_least(12)  # 2d6 + 0 - 8 >= 4


def test_dying_rounds_roll_until_one_fails() -> None:
    tess = alone(hurt(TOUGH, 19))
    out = RULESET.resolve(PassRounds(5), tess, ScriptedRoller([6, 2, 6, 1]), OPT)
    assert out.label == "Dead in round 2" and out.result == 2 and out.success is False
    assert after(tess, out).dead
    alive = RULESET.resolve(PassRounds(2), tess, ScriptedRoller([6, 6, 4, 4]), OPT)
    assert alive.success and alive.label == "Alive after 2 round(s)"


def test_exact_odds_of_surviving_n_rounds() -> None:
    assert p_alive(alone(hurt(TOUGH, 19)), 3) == Fraction(125, 1728)
    # bleeding: +1 damage a minute; round 21 is at 21 damage (-7: 9+ to live)
    bleeding = alone(hurt(TOUGH, 19, "Bleeding"))
    assert p_alive(bleeding, 21) == Fraction(5, 12) ** 20 * Fraction(10, 36)
    # a stabilised character rolls nothing until it runs out (1 minute = 10 rounds)
    assert p_alive(alone(hurt(TOUGH, 19, "Stabilised", minutes=1)), 12) == Fraction(5, 12) ** 2
    # not Dying: nothing is due
    assert p_alive(alone(hurt(TOUGH, 5)), 100) == 1
    with pytest.raises(OddsTooComplex):
        RULESET.odds(PassRounds(20_000), alone(hurt(TOUGH, 19)), OPT)
    # Pat at 27 cannot make 4 with 2d6 - 9: certain death, however long the span
    dist = RULESET.odds(PassTime(days=3), alone(hurt(PC, 27)), OPT)
    assert dist.probability((("pc", "Dead"),)) == 1


def test_rounds_compose_one_at_a_time() -> None:
    """Passing a round ten times is passing ten rounds: a Bleeding character takes the
    minute's point at the tenth round either way (the seat keeps the rounds gone of the
    current minute)."""
    start = alone(hurt(TOUGH, 3, "Bleeding"))
    table = start
    for _ in range(10):
        table = RULESET.apply(table, RULESET.resolve(PassRounds(), table, ScriptedRoller([]), OPT))
    at_once = RULESET.apply(start, RULESET.resolve(PassRounds(10), start, ScriptedRoller([]), OPT))
    assert table == at_once and table.characters["pc"].sheet.damage == 4
    assert table.clock == 10 and table.characters["pc"].minute_rounds == 0
    nine = RULESET.apply(start, RULESET.resolve(PassRounds(9), start, ScriptedRoller([]), OPT))
    assert nine.characters["pc"].sheet.damage == 3 and nine.characters["pc"].minute_rounds == 9


def test_rolled_rounds_are_possible_under_the_odds() -> None:
    tess = alone(hurt(TOUGH, 19))
    dist = RULESET.odds(PassRounds(4), tess, OPT)
    for seed in range(20):
        out = RULESET.resolve(PassRounds(4), tess, SeededRoller(seed), OPT)
        fate = "Dying" if out.success else "Dead"
        assert dist.probability((("pc", fate),)) > 0


def test_dead_characters_roll_no_more() -> None:
    dead = alone(hurt(TOUGH, 19, "Dead"))
    with pytest.raises(IllegalAction, match="dead"):
        RULESET.resolve(PassRounds(1, who=("pc",)), dead, ScriptedRoller([]), OPT)
    out = RULESET.resolve(PassRounds(1), dead, ScriptedRoller([]), OPT)
    assert out.label == "1 round(s) pass" and out.details["characters"] == {}


def test_first_aid_as_a_thirty_round_task() -> None:
    patient = hurt(PC, 30)

    def step(rounds_left: int, faces: list[int]) -> Outcome:
        return aid(patient, faces, rounds_left=rounds_left)[1]

    # 30 rounds to go: [5, 4] = 11 vs 8, SE 3: the round passes and 3 more are cut -> 26
    first = step(30, [5, 4])
    assert first.details["rounds_left"] == 26 and first.changes == ()
    assert first.label == "Success Effect 3: 26 round(s) of first aid left"
    # a Fail Effect of 3 ([1, 2] + 2 = 5) loses 3 rounds of progress: 26 - 1 + 3 = 28
    assert step(26, [1, 2]).details["rounds_left"] == 28
    # never more than the whole task
    assert step(30, [1, 1]).details["rounds_left"] == 30
    # the last rounds: SE 3 finishes 4 rounds; its Effect heals and stabilises
    done = step(4, [5, 4])
    assert done.details["rounds_left"] == 0 and done.details["healed"] == 3
    assert done.details["stabilised_minutes"] == 480
    with pytest.raises(RulesError, match="rounds_left"):
        step(31, [5, 4])


@pytest.mark.parametrize("damage", [0, 3, 9, 20, 27])
def test_rolled_survival_results_are_possible_under_the_odds(damage: int) -> None:
    for kind in ("dying", "massive", "intensive"):
        before = 0 if kind == "massive" else None  # standing alone: the damage before the hit
        action = SurvivalRoll("pc", kind, damage_before=before)  # type: ignore[arg-type]
        table = alone(hurt(PC, damage))
        dist = RULESET.odds(action, table, OPT)
        assert sum(dist.probabilities().values()) == 1
        for seed in range(10):
            out = RULESET.resolve(action, table, SeededRoller(seed), OPT)
            assert dist.probability(out.label) > 0, (kind, out.label)


def test_bleeding_into_certain_death_keeps_the_rolls_made() -> None:
    """Pat (End 8, HP 24) Dying and Bleeding at 26: -8, so each roll needs 12 (1/36) for a
    minute of 10 rounds; at 27 (-9) 2d6 cannot make 4 and death is certain. The ten
    rolls survived are still reported."""
    pat = alone(hurt(PC, 26, "Bleeding"))
    out = RULESET.resolve(PassRounds(20), pat, ScriptedRoller([6, 6] * 10), OPT)
    rolls = mine(out)["dying_rolls"]
    assert not rolls["survived"] and rolls["rolled"] == 10 and rolls["death_round"] == 11
    assert rolls["effects"] == [0] * 10 and mine(out)["damage"] == 27
    assert p_alive(pat, 20) == 0
    assert p_survive_round(PC, 26, OPT) == Fraction(1, 36)
