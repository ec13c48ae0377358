"""First-aid stabilisation over time, intensive care, and dying rolls round by round
(Mneme CE ch. 7, First Aid; Intensive Care; Dying; Bleeding)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from referee.dice.roller import ScriptedRoller, SeededRoller
from referee.errors import IllegalAction, OddsTooComplex, RulesError
from referee.systems.base import Outcome
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import DyingRounds, FirstAid, PassTime, SurvivalRoll
from referee.systems.mneme.clock import apply_changes, p_survive
from referee.systems.mneme.dying import p_survive_round
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Character, validate

OPT = Options()
# HP 24; Edu 9 (+1) and Medic 1: first aid at +2
PC = Character(
    "Pat", {"Str": 7, "Dex": 9, "End": 8, "Int": 7, "Edu": 9, "Soc": 7}, skills={"Medic": 1}
)
# HP 18 with End 14 (+2): at 19 or 20 damage the wound penalty is -6, so a dying roll
# 2d6 + 2 - 6 >= 4 needs 8+ on 2d6 (15/36); at 21 it is -7 (9+: 10/36)
TOUGH = Character("Tess", {"Str": 2, "Dex": 2, "End": 14, "Int": 7, "Edu": 7, "Soc": 7})


def hurt(c: Character, damage: int, *conditions: str, minutes: int = 0) -> Character:
    return replace(c, damage=damage, conditions=conditions, stabilised_minutes=minutes)


def p_2d6_at_least(n: int) -> Fraction:
    return Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if a + b >= n), 36)


# -- first aid ---------------------------------------------------------------


def test_first_aid_stabilises_a_dying_patient_for_end_hours() -> None:
    patient = hurt(PC, 30)
    out = RULESET.resolve(FirstAid(patient=patient), PC, ScriptedRoller([5, 4]), OPT)
    # 9 + 2 = 11 vs 8: SE 3 heals 3 -> 27 > HP 24, still Dying: stabilised for End 8 hours
    assert out.details["healed"] == 3 and out.details["stabilised_minutes"] == 480
    assert out.label == "Healed 3; stabilised for 8 hours"
    after = apply_changes(patient, out.changes, "patient")
    assert after.damage == 27 and after.conditions == ("Stabilised",)
    assert after.stabilised_minutes == 480 and validate(after, OPT) == ()


def test_first_aid_stabilises_only_the_dying() -> None:
    # healed out of Dying (26 - 3 = 23 <= 24): nothing to stabilise
    out = RULESET.resolve(FirstAid(patient=hurt(PC, 26)), PC, ScriptedRoller([5, 4]), OPT)
    assert not any(c.value == "Stabilised" for c in out.changes)
    seriously = RULESET.resolve(FirstAid(patient=hurt(PC, 10)), PC, ScriptedRoller([5, 4]), OPT)
    assert [c.field for c in seriously.changes] == ["damage"]


def test_first_aid_stops_bleeding() -> None:
    bleeding = hurt(PC, 10, "Bleeding")
    out = RULESET.resolve(FirstAid(patient=bleeding), PC, ScriptedRoller([4, 2]), OPT)
    # 6 + 2 = 8 vs 8: SE 0 still heals the minimum 1, and the bleeding stops
    assert out.details["healed"] == 1 and out.details["bleeding_stopped"]
    after = apply_changes(bleeding, out.changes, "patient")
    assert after.damage == 9 and after.conditions == ()
    failed = RULESET.resolve(FirstAid(patient=bleeding), PC, ScriptedRoller([1, 2]), OPT)
    assert failed.changes == () and not failed.success


def test_stabilisation_uses_current_end() -> None:
    weak = replace(hurt(PC, 30), characteristic_damage={"End": 2})  # End 6 -> 6 hours
    out = RULESET.resolve(FirstAid(patient=weak), PC, ScriptedRoller([5, 4]), OPT)
    assert out.details["stabilised_minutes"] == 360


def test_stabilised_sheet_must_say_how_long() -> None:
    problems = validate(hurt(PC, 27, "Stabilised"), OPT)
    assert [p.field for p in problems] == ["stabilised_minutes"]
    assert [p.field for p in validate(hurt(PC, 27, minutes=5), OPT)] == ["stabilised_minutes"]


# -- the clock counts the stabilisation down -----------------------------------


def test_clock_counts_stabilisation_down() -> None:
    stable = hurt(PC, 27, "Stabilised", minutes=480)
    out = RULESET.resolve(PassTime(hours=7), stable, ScriptedRoller([]), OPT)
    assert out.details["stabilised_minutes"] == 60 and out.details["dying_rolls_due"] == 0
    assert out.label == "Dying" and out.success is None
    # exactly 8 hours: it runs out as the span ends, no roll yet
    ends = RULESET.resolve(PassTime(hours=8), stable, ScriptedRoller([]), OPT)
    after = apply_changes(stable, ends.changes)
    assert after.conditions == () and after.stabilised_minutes == 0
    assert any("stabilisation ran out" in n for n in ends.details["notes"])
    # 9 hours, rolls only noted: the last hour's 600 rounds each need a dying roll
    noted = RULESET.resolve(PassTime(hours=9, dying_rolls=False), stable, ScriptedRoller([]), OPT)
    assert noted.details["dying_rolls_due"] == 600
    assert "600 dying roll(s) due, one per round from round 4801" in noted.details["notes"][0]


def test_clock_rolls_the_dying_rolls_when_stabilisation_runs_out() -> None:
    # Pat at 27: 2d6 + 0 - 9 >= 4 is impossible, so the first due roll (round 4801) kills
    stable = hurt(PC, 27, "Stabilised", minutes=480)
    out = RULESET.resolve(PassTime(hours=9), stable, ScriptedRoller([]), OPT)
    assert out.label == "Dead" and out.details["dying_rolls"]["death_round"] == 4801
    assert apply_changes(stable, out.changes).conditions == ("Dead",)
    # Tess at 19 rolls 8+ to live: 8 lives, 7 dies in the second round
    tess = hurt(TOUGH, 19, "Stabilised", minutes=1)
    rolled = RULESET.resolve(PassTime(minutes=2), tess, ScriptedRoller([6, 2, 6, 1]), OPT)
    assert rolled.details["dying_rolls"]["death_round"] == 12
    assert rolled.details["dying_rolls"]["effects"] == [0, -1] and rolled.label == "Dead"
    survived = RULESET.resolve(PassTime(minutes=1, days=0), hurt(TOUGH, 19), SeededRoller(1), OPT)
    assert survived.details["dying_rolls_due"] == 10


def test_clock_odds_come_from_the_dying_rule() -> None:
    tess = hurt(TOUGH, 19, "Stabilised", minutes=1)
    dist = RULESET.odds(PassTime(minutes=2), tess, OPT)
    # 10 due rounds at 19 damage, each 15/36
    assert dist.probability("Dying") == Fraction(15, 36) ** 10
    assert dist.probability("Dead") == 1 - Fraction(15, 36) ** 10


def test_intensive_care_replaces_the_dying_rolls_and_heals_one_per_three_days() -> None:
    tess = hurt(TOUGH, 19)
    out = RULESET.resolve(PassTime(days=3, care="intensive"), tess, ScriptedRoller([]), OPT)
    assert out.details["dying_rolls_due"] == 0 and out.result == 18 and out.details["healed"] == 1
    six = RULESET.resolve(PassTime(days=6, care="intensive"), tess, ScriptedRoller([]), OPT)
    assert six.result == 17
    # without intensive care, full rest heals a Dying character 1 per 7 days (rolls noted)
    slow = RULESET.resolve(PassTime(days=7, dying_rolls=False), tess, ScriptedRoller([]), OPT)
    assert slow.result == 18 and slow.details["dying_rolls_due"] == 7 * 24 * 60 * 10
    unsup = RULESET.resolve(
        PassTime(days=1, care="intensive", supervised=False), tess, ScriptedRoller([]), OPT
    )
    assert any("unsupervised intensive care" in n for n in unsup.details["notes"])


# -- intensive care rolls --------------------------------------------------------


def test_supervised_intensive_care_needs_no_roll() -> None:
    for action in (
        SurvivalRoll("intensive", supervisor_medic=2),
        SurvivalRoll("intensive", ai_sickbay=True),
    ):
        out = RULESET.resolve(action, hurt(PC, 27), ScriptedRoller([]), OPT)
        assert out.success is None and out.faces == () and out.changes == ()
        assert RULESET.odds(action, hurt(PC, 27), OPT).probability(out.label) == 1
    # Medic 1, or Medic 2 without tools: the patient rolls
    for action in (
        SurvivalRoll("intensive", supervisor_medic=1),
        SurvivalRoll("intensive", supervisor_medic=2, equipped=False),
    ):
        out = RULESET.resolve(action, hurt(PC, 3), ScriptedRoller([6, 3]), OPT)
        assert out.target == 8 and out.label == "Healed 2" and out.changes[0].delta == -2


def test_intensive_care_odds() -> None:
    # Pat at 3 damage: 2d6 - 1 >= 8 heals 2 (10/36); else the dying roll 2d6 - 1 >= 4 (30/36)
    dist = RULESET.odds(SurvivalRoll("intensive"), hurt(PC, 3), OPT)
    assert dist.probability("Healed 2") == Fraction(10, 36)
    assert dist.probability("Dying roll: Still alive") == Fraction(26, 36) * Fraction(30, 36)
    assert dist.probability("Dying roll: Dead") == Fraction(26, 36) * Fraction(6, 36)


# -- rounds passing ---------------------------------------------------------------


def test_each_round_probability_is_the_end_roll() -> None:
    assert p_survive_round(TOUGH, 19, OPT) == p_2d6_at_least(8) == Fraction(5, 12)
    assert p_survive_round(TOUGH, 21, OPT) == p_2d6_at_least(9)
    assert p_survive_round(PC, 25, OPT) == p_2d6_at_least(12)  # 2d6 + 0 - 8 >= 4


def test_dying_rounds_roll_until_one_fails() -> None:
    tess = hurt(TOUGH, 19)
    out = RULESET.resolve(DyingRounds(5), tess, ScriptedRoller([6, 2, 6, 1]), OPT)
    assert out.label == "Dead in round 2" and out.result == 2 and out.success is False
    assert apply_changes(tess, out.changes).dead
    alive = RULESET.resolve(DyingRounds(2), tess, ScriptedRoller([6, 6, 4, 4]), OPT)
    assert alive.success and alive.label == "Alive after 2 round(s)"


def test_exact_odds_of_surviving_n_rounds() -> None:
    tess = hurt(TOUGH, 19)
    dist = RULESET.odds(DyingRounds(3), tess, OPT)
    assert dist.probability("Alive") == Fraction(125, 1728)
    # bleeding: +1 damage a minute; round 21 is at 21 damage (-7: 9+ to live)
    bleeding = hurt(TOUGH, 19, "Bleeding")
    assert p_survive(bleeding, 21, OPT) == Fraction(5, 12) ** 20 * Fraction(10, 36)
    # a stabilised character rolls nothing until it runs out (1 minute = 10 rounds)
    assert p_survive(hurt(TOUGH, 19, "Stabilised", minutes=1), 12, OPT) == Fraction(5, 12) ** 2
    # not Dying: nothing is due
    assert p_survive(hurt(TOUGH, 5), 100, OPT) == 1
    with pytest.raises(OddsTooComplex):
        RULESET.odds(DyingRounds(20_000), tess, OPT)
    # Pat at 27 cannot make 4 with 2d6 - 9: certain death, however long the span
    assert RULESET.odds(PassTime(days=3), hurt(PC, 27), OPT).probability("Dead") == 1


def test_rolled_rounds_are_possible_under_the_odds() -> None:
    tess = hurt(TOUGH, 19)
    dist = RULESET.odds(DyingRounds(4), tess, OPT)
    for seed in range(20):
        out = RULESET.resolve(DyingRounds(4), tess, SeededRoller(seed), OPT)
        assert dist.probability("Alive" if out.success else "Dead") > 0


def test_dead_characters_roll_no_more() -> None:
    with pytest.raises(IllegalAction):
        RULESET.resolve(DyingRounds(1), hurt(TOUGH, 19, "Dead"), ScriptedRoller([]), OPT)


def test_first_aid_as_a_thirty_round_task() -> None:
    patient = hurt(PC, 30)

    def aid(rounds_left: int, faces: list[int]) -> Outcome:
        action = FirstAid(patient=patient, rounds_left=rounds_left)
        return RULESET.resolve(action, PC, ScriptedRoller(faces), OPT)

    # 30 rounds to go: [5, 4] = 11 vs 8, SE 3: the round passes and 3 more are cut -> 26
    first = RULESET.resolve(
        FirstAid(patient=patient, rounds_left=30), PC, ScriptedRoller([5, 4]), OPT
    )
    assert first.details["rounds_left"] == 26 and first.changes == ()
    assert first.label == "Success Effect 3: 26 round(s) of first aid left"
    # a Fail Effect of 3 ([1, 2] + 2 = 5) loses 3 rounds of progress: 26 - 1 + 3 = 28
    lost = RULESET.resolve(
        FirstAid(patient=patient, rounds_left=26), PC, ScriptedRoller([1, 2]), OPT
    )
    assert lost.details["rounds_left"] == 28
    # never more than the whole task
    reset = RULESET.resolve(
        FirstAid(patient=patient, rounds_left=30), PC, ScriptedRoller([1, 1]), OPT
    )
    assert reset.details["rounds_left"] == 30
    # the last rounds: SE 3 finishes 4 rounds; its Effect heals and stabilises
    done = RULESET.resolve(
        FirstAid(patient=patient, rounds_left=4), PC, ScriptedRoller([5, 4]), OPT
    )
    assert done.details["rounds_left"] == 0 and done.details["healed"] == 3
    assert done.details["stabilised_minutes"] == 480
    with pytest.raises(RulesError, match="rounds_left"):
        RULESET.resolve(FirstAid(rounds_left=31), PC, ScriptedRoller([5, 4]), OPT)


@pytest.mark.parametrize("damage", [0, 3, 9, 20, 27])
def test_rolled_survival_results_are_possible_under_the_odds(damage: int) -> None:
    for kind in ("dying", "massive", "intensive"):
        action = SurvivalRoll(kind)
        dist = RULESET.odds(action, hurt(PC, damage), OPT)
        assert sum(dist.probabilities().values()) == 1
        for seed in range(10):
            out = RULESET.resolve(action, hurt(PC, damage), SeededRoller(seed), OPT)
            assert dist.probability(out.label) > 0, (kind, out.label)


def test_bleeding_into_certain_death_keeps_the_rolls_made() -> None:
    """Pat (End 8, HP 24) Dying and Bleeding at 26: -8, so each roll needs 12 (1/36) for a
    minute of 10 rounds; at 27 (-9) 2d6 cannot make 4 and death is certain. The ten
    rolls survived are still reported."""
    from referee.systems.mneme.dying import roll_rounds, survival_probability
    from referee.systems.mneme.health import due_segments

    pat = hurt(PC, 26, "Bleeding")
    segments = list(due_segments(pat, 20, OPT))
    assert [(s.damage, s.rounds) for s in segments] == [(26, 10), (27, 10)]
    rolls = roll_rounds(pat, segments, ScriptedRoller([6, 6] * 10), OPT)
    assert not rolls.survived and rolls.rolled == 10 and rolls.death_round == 10
    assert rolls.efforts == (0,) * 10 and rolls.death_damage == 27
    assert survival_probability(pat, segments, OPT) == 0
    assert p_survive_round(pat, 26, OPT) == Fraction(1, 36)
