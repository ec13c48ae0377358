"""Every worked example of the Mneme CE texts (ch. 2 core mechanics, ch. 7 outcomes)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from referee.dice.evaluate import odds
from referee.dice.odds import Distribution, keep_highest
from referee.dice.roller import ScriptedRoller
from referee.systems.base import Modifier
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import (
    Attack,
    Check,
    CheckInputs,
    Mitigating,
    TakeDamage,
    Threat,
)
from referee.systems.mneme.damage import (
    DamageSpec,
    Target,
    damage_odds,
    dealt,
    per_roll_odds,
    roll_count,
)
from referee.systems.mneme.effects import (
    combined_difficulty,
    costly_success,
    median_duration,
    mitigate,
    task_time,
)
from referee.systems.mneme.options import Options
from referee.systems.mneme.scale import armour_notation, damage_notation, hp_notation, points
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.state import State, seated
from referee.systems.mneme.tables import DIFFICULTY, PRINTED_ODDS

OPT = Options()
EMPTY = State()

EXACT = {
    3: Fraction(35, 36),
    4: Fraction(33, 36),
    5: Fraction(30, 36),
    6: Fraction(26, 36),
    7: Fraction(21, 36),
    8: Fraction(15, 36),
    9: Fraction(10, 36),
    10: Fraction(6, 36),
    11: Fraction(3, 36),
    12: Fraction(1, 36),
    13: Fraction(0),
    14: Fraction(0),
    15: Fraction(0),
    16: Fraction(0),
}


@pytest.mark.parametrize("difficulty", sorted(EXACT))
def test_difficulty_table_odds(difficulty: int) -> None:
    """Ch. 2, Difficulty Number Table: exact odds with no modifiers, and the printed %."""
    p = RULESET.odds(Check(difficulty=difficulty), EMPTY, OPT).at_least(0)
    assert p == EXACT[difficulty]
    printed = PRINTED_ODDS[difficulty]
    if printed == "N/A":
        assert p == 0
    else:
        assert f"{float(p) * 100:.2f}" == printed


def test_difficulty_names() -> None:
    assert [DIFFICULTY.value(n) for n in DIFFICULTY.names()] == [4, 6, 8, 10, 12, 14]
    assert DIFFICULTY.names()[2] == "Challenging"
    assert Check().difficulty == 8


def test_fail_effect_example() -> None:
    """Ch. 2: Difficulty 8, Dice Roll 5 -> a Fail Effect of degree 3."""
    roller = ScriptedRoller([2, 3])
    out = RULESET.resolve(Check(difficulty=8), EMPTY, roller, OPT)
    roller.assert_exhausted()
    assert out.details["roll"] == 5 and out.result == -3
    assert out.details["fail_effect"] == 3 and out.success is False
    assert out.label == "Fail Effect 3"


def test_mitigation_example() -> None:
    """Ch. 2 / ch. 7: 2d6+4 against 13, a roll of 6 -> 7 -> 4 -> 2 -> 0, Ordinary Failure."""
    check = Check(
        difficulty=13,
        modifiers=(Modifier(4, "attack modifiers", "competence"),),
        mitigating=Mitigating(conditions=3, cover=2, skill=2),
    )
    roller = ScriptedRoller([1, 1])
    out = RULESET.resolve(check, EMPTY, roller, OPT)
    assert out.details["roll"] == 6
    assert out.details["fail_effect"] == 7
    assert out.details["mitigation"] == [7, 4, 2, 0]
    assert out.label == "Ordinary Failure"
    m = mitigate(7, 3, 2, 2)
    assert m.steps == (7, 4, 2, 0) and m.ordinary_failure and m.cover_absorbed == 2


def test_costly_success_example() -> None:
    """Ch. 2 / ch. 7: a failure by 2 taken as a Costly Success costs a Fail Effect of 7."""
    assert costly_success(2, OPT) == 7
    out = RULESET.resolve(
        Check(difficulty=8, costly_success=True), EMPTY, ScriptedRoller([3, 3]), OPT
    )
    assert out.result == -2 and out.success is True
    assert out.details["costly_success"] == {"fail_effect": 7, "success_effect": 0}


def test_automatic_rifle_success_effect_2() -> None:
    """Ch. 7: Difficulty 12, Dice Result 14 -> SE 2 -> three 3d6-2 rolls at RoA 4."""
    check = CheckInputs(difficulty=12, modifiers=(Modifier(2, "skill", "competence"),))
    attack = Attack(check=check, damage="3d6-2", rate_of_attack=4)
    roller = ScriptedRoller([6, 6, 3, 4, 5, 6, 6, 1, 2, 2, 2])
    out = RULESET.resolve(attack, EMPTY, roller, OPT)
    roller.assert_exhausted()
    assert out.details["roll"] == 14 and out.details["success_effect"] == 2
    rolls = out.details["weapon_rolls"]
    assert rolls["raw"] == [10, 11, 4] and rolls["kept"] == [True, True, True]
    assert out.details["damage_dealt"] == 25
    assert roll_count(2, 4, OPT) == (3, 3)  # "deals 3d6-2 damage 3 times"


def test_broadsword_against_armour_3() -> None:
    """Ch. 7: SE 1 -> two 3d3-2 broadsword rolls; against Armor 3, two sets of 3d3-5."""
    attack = Attack(check=CheckInputs(difficulty=8), damage="3d3-2", armour=Target(armour=3))
    roller = ScriptedRoller([4, 5, 3, 3, 3, 1, 1, 2])
    out = RULESET.resolve(attack, EMPTY, roller, OPT)
    rolls = out.details["weapon_rolls"]
    assert out.details["success_effect"] == 1 and len(rolls["raw"]) == 2
    assert rolls["raw"] == [7, 2] and rolls["dealt"] == [4, 0]
    per_roll = odds("3d3-5").clamp(low=0)
    # two independent sets of 3d3-5 (damage never negative), given SE 1
    assert roll_count(1, None, OPT) == (2, 2)
    assert keep_highest(per_roll, 2, 2) == _damage_given(DamageSpec("3d3-2"), 1, Target(3))


def _damage_given(spec: DamageSpec, se: int, target: Target, options: Options = OPT) -> Any:
    """The damage an attack deals at a known Success Effect."""
    rolls, keep = roll_count(se, spec.rate_of_attack, options)
    return damage_odds(spec, rolls, target, effect_degree=se, options=options, keep=keep)


def test_automatic_rifle_success_effect_3_rate_3_armour_5() -> None:
    """Ch. 7, Example: Success Effect Damage Rolls: "A Success Effect of 3 results in three
    (3) 3d6 automatic rifle damage rolls (if RoA is 3). Against an Armor of 5, roll three
    (3) sets of 3d6-5." The Effect does not exceed the RoA, so three rolls are made, all
    counting: mean 3 x E[max(0, 3d6 - 5)] = 16.57 (not four rolls keeping three, 19.55)."""
    check = CheckInputs(difficulty=8, modifiers=(Modifier(3, "skill", "competence"),))
    attack = Attack(check=check, damage="3d6", rate_of_attack=3, armour=Target(armour=5))
    faces = [4, 4, 6, 6, 6, 1, 1, 1, 5, 5, 5]  # check (SE 3), then three 3d6
    roller = ScriptedRoller(faces)
    out = RULESET.resolve(attack, EMPTY, roller, OPT)
    roller.assert_exhausted()
    rolls = out.details["weapon_rolls"]
    assert out.details["success_effect"] == 3
    assert rolls["raw"] == [18, 3, 15] and rolls["dealt"] == [13, 0, 10]
    assert rolls["kept"] == [True, True, True] and out.details["damage_dealt"] == 23
    assert roll_count(3, 3, OPT) == (3, 3)
    given = _damage_given(DamageSpec("3d6", rate_of_attack=3), 3, Target(5))
    assert given == keep_highest(odds("3d6-5").clamp(low=0), 3, 3)
    assert f"{float(given.mean()):.2f}" == "16.57"
    # the rulings' prose as an option: four rolls, the three highest kept
    prose = Options(rate_of_attack_rule="rolls_exceed")
    assert roll_count(3, 3, prose) == (4, 3)
    four = _damage_given(DamageSpec("3d6", rate_of_attack=3), 3, Target(5), prose)
    assert f"{float(four.mean()):.2f}" == "19.55"


@pytest.mark.parametrize(
    ("effect", "rate", "success", "made", "kept"),
    [
        (2, 4, True, 3, 3),  # automatic rifle SE 2, RoA 4: "3d6-2 damage 3 times"
        (1, None, True, 2, 2),  # broadsword SE 1: "two (2) 3d3-2 rolls"
        (3, 3, True, 3, 3),  # automatic rifle SE 3, RoA 3: "three (3) ... rolls"
        (3, 2, False, 3, 2),  # FE 3, RoA 2: "3 rolls ... the Two highest"
        (3, 3, False, 3, 3),  # FE 3, RoA 3 or greater: "3 Attacks"
        (3, 9, False, 3, 3),
        (1, 4, False, 1, 1),  # "A Fail Effect of -1 results in 1 Damage roll"
        (2, 4, False, 2, 2),  # "-2 results in 2 Damage rolls"
        (4, 3, True, 5, 3),  # an Effect exceeding the RoA: all rolls made, RoA kept
    ],
)
def test_damage_roll_counts_of_every_example(
    effect: int, rate: int | None, success: bool, made: int, kept: int
) -> None:
    """Ch. 7, Damage Rolls and Weapons with Limited Rate of Attack, example by example."""
    assert roll_count(effect, rate, OPT, success=success) == (made, kept)


def test_rate_of_attack_2_fail_effect_3() -> None:
    """Ch. 7: Fail Effect 3 with RoA 2 -> three rolls, the two highest count."""
    threat = Threat(damage="3d6", rate_of_attack=2)
    roller = ScriptedRoller([1, 1, 1, 6, 6, 6, 3, 3, 3])
    out = RULESET.resolve(TakeDamage(fail_effect=3, threat=threat), EMPTY, roller, OPT)
    rolls = out.details["damage_rolls"]
    assert rolls["raw"] == [3, 18, 9] and rolls["kept"] == [False, True, True]
    assert out.result == 27
    dist = RULESET.odds(TakeDamage(fail_effect=3, threat=threat), EMPTY, OPT)
    assert dist == keep_highest(odds("3d6"), 3, 2)


def test_flak_jacket() -> None:
    """Ch. 7: Fail Effect 3, broadsword 3d3-2 from three attackers, Flak Jacket AR 4 ->
    the adversaries roll 3d3-6 three times."""
    threat = Threat(damage="3d3-2", rate_of_attack=3, armour=Target(armour=4))
    roller = ScriptedRoller([3, 3, 3, 2, 2, 2, 1, 1, 1])
    out = RULESET.resolve(TakeDamage(fail_effect=3, threat=threat), EMPTY, roller, OPT)
    rolls = out.details["damage_rolls"]
    assert [r - 4 for r in rolls["raw"]] == [3, 0, -3]  # 3d3-6 three times
    assert rolls["dealt"] == [3, 0, 0] and out.result == 3
    three = keep_highest(odds("3d3-6").clamp(low=0), 3, 3)
    assert RULESET.odds(TakeDamage(fail_effect=3, threat=threat), EMPTY, OPT) == three


def test_shield_protection_2_absorbs_two_of_three_rolls() -> None:
    """Ch. 7: Fail Effect 3 behind a Shield of protection 2: the shield takes two 3d6
    attacks and the PC one."""
    threat = Threat(damage="3d6", rate_of_attack=3, mitigating=Mitigating(cover=2))
    roller = ScriptedRoller([6, 5, 4, 3, 3, 3, 2, 1, 1])
    out = RULESET.resolve(TakeDamage(fail_effect=3, threat=threat), EMPTY, roller, OPT)
    roller.assert_exhausted()
    assert out.details["mitigation"] == [3, 3, 1, 1]
    assert out.details["cover_rolls"]["raw"] == [15, 9]
    assert out.details["damage_rolls"]["raw"] == [4]
    assert out.result == 4 and out.details["cover_damage"] == 24
    # the PC's exact odds: the one 3d6 attack left after the shield took two
    assert RULESET.odds(TakeDamage(fail_effect=3, threat=threat), EMPTY, OPT) == odds("3d6")


@pytest.mark.parametrize(("effect", "seconds"), [(0, 3), (1, 2), (-1, 4), (-3, 6)])
def test_one_d6_second_action(effect: int, seconds: int) -> None:
    """Ch. 2, Time and Checks: a 1d6-second action."""
    median = median_duration("1d6")
    assert median == 3
    assert task_time(median, effect, OPT) == seconds


def test_athletic_attack_combined_difficulty() -> None:
    """Ch. 2, Combined Difficulties: ChM 1, Attack 0, no Athletics -> Difficulty 9 at Cmp 1."""
    assert combined_difficulty(8, ["Melee", "Athletics"], {"Melee": 0}) == (9, ("Athletics",))
    assert combined_difficulty(8, ["Melee", "Athletics"], {"Melee": 0, "Athletics": 0})[0] == 8
    pc = Sheet(
        "Jumper",
        {"Str": 7, "Dex": 9, "End": 8, "Int": 7, "Edu": 7, "Soc": 7},
        skills={"Melee": 0},
    )
    check = Check(characteristic="Dex", combined_skills=("Melee", "Athletics"), actor="pc")
    out = RULESET.resolve(check, seated({"pc": pc}), ScriptedRoller([4, 4]), OPT)
    assert out.target == 9 and out.details["modifier"] == 1
    assert out.details["roll"] == 9 and out.success is True
    skilled = Sheet(pc.name, pc.characteristics, skills={"Melee": 0, "Athletics": 0})
    table = seated({"pc": skilled})
    assert RULESET.resolve(check, table, ScriptedRoller([4, 4]), OPT).target == 8


@pytest.mark.parametrize(("degree", "faces"), [(1, [2, 3, 4]), (2, [2, 3, 4, 6, 6, 6])])
def test_fail_effect_gives_one_damage_roll_per_point(degree: int, faces: list[int]) -> None:
    """Ch. 7, Damage Rolls: a Fail Effect of -1 is one damage roll against the PC, -2 two."""
    threat = Threat(damage="3d6", rate_of_attack=4)
    roller = ScriptedRoller(faces)
    out = RULESET.resolve(TakeDamage(fail_effect=degree, threat=threat), EMPTY, roller, OPT)
    roller.assert_exhausted()
    assert len(out.details["damage_rolls"]["raw"]) == degree
    assert out.result == sum(faces)


@pytest.mark.parametrize("rate", [3, 4, 6])
def test_fail_effect_3_with_rate_of_attack_3_or_more_is_three_attacks(rate: int) -> None:
    """Ch. 7, Weapons with Limited Rate of Attack: Fail Effect 3 -> the PC suffers 3 attacks
    when the weapon's Rate of Attack is 3 or greater."""
    threat = Threat(damage="3d6", rate_of_attack=rate)
    roller = ScriptedRoller([1, 1, 1, 6, 6, 6, 3, 3, 3])
    action = TakeDamage(fail_effect=3, threat=threat)
    out = RULESET.resolve(action, EMPTY, roller, OPT)
    assert out.details["damage_rolls"]["kept"] == [True, True, True]
    assert out.result == 3 + 18 + 9
    assert RULESET.odds(action, EMPTY, OPT) == keep_highest(odds("3d6"), 3, 3)


def test_shield_covering_the_whole_fail_effect_takes_all_three_rolls() -> None:
    """Ch. 7, Example: Shield Taking Damage: behind cover that absorbs the whole Fail Effect
    of 3, all three 3d6 damage rolls go to the Shield or Cinder Blocks, none to the PC."""
    threat = Threat(damage="3d6", rate_of_attack=3, mitigating=Mitigating(cover=3))
    roller = ScriptedRoller([6, 5, 4, 3, 3, 3, 2, 1, 1])
    action = TakeDamage(fail_effect=3, threat=threat)
    out = RULESET.resolve(action, EMPTY, roller, OPT)
    roller.assert_exhausted()
    assert out.details["mitigation"] == [3, 3, 0, 0]
    assert out.details["cover_rolls"]["raw"] == [15, 9, 4]
    assert out.details["damage_rolls"]["raw"] == [] and out.result == 0
    assert out.details["cover_damage"] == 28
    assert RULESET.odds(action, EMPTY, OPT) == Distribution.constant(0)


@pytest.mark.parametrize(
    ("text", "expression", "scale", "factor"),
    [("D 3d3", "3d3", "D", 10), ("H 2d6-2", "2d6-2", "H", 100), ("K 5d6-4", "5d6-4", "K", 1000)],
)
def test_damage_scale_notation(text: str, expression: str, scale: str, factor: int) -> None:
    """Ch. 7, Damage Scale: D 3d3 = 3d3 x 10, H 2d6-2 = (2d6-2) x 100, K 5d6-4 =
    (5d6-4) x 1,000 (in plain points against a default-scale target)."""
    assert damage_notation(text) == (expression, scale)
    spec = DamageSpec(expression, scale=scale)
    assert per_roll_odds(spec, Target(), options=OPT) == odds(expression).map(
        lambda x: max(0, x) * factor
    )
    faces = {"D": [3, 2, 1], "H": [6, 5], "K": [1, 2, 3, 4, 5]}[scale]
    action = TakeDamage(fail_effect=1, threat=Threat(damage=text))
    out = RULESET.resolve(action, EMPTY, ScriptedRoller(faces), OPT)
    raw = sum(faces) - {"D": 0, "H": 2, "K": 4}[scale]
    assert out.result == raw * factor  # 60, 900, 11,000


@pytest.mark.parametrize(
    ("text", "value", "scale", "plain"),
    [("DAR 2", 2, "D", 20), ("HAR 9", 9, "H", 900), ("KAR 3", 3, "K", 3000)],
)
def test_armour_scale_notation(text: str, value: int, scale: str, plain: int) -> None:
    """Ch. 7, Armor Scale: DAR 2 = 20 AR, HAR 9 = 900 AR, KAR 3 = 3,000 AR."""
    assert armour_notation(text) == (value, scale)
    assert points(value, scale) == plain
    # one more point of the armour's own scale gets through as one point of that scale
    assert dealt(value + 1, scale, Target(value, scale), 0) == points(1, scale)
    assert dealt(value, scale, Target(value, scale), 0) == 0
    # plain damage is taken off in points when armour immunity is off: plain + 5 -> 5
    assert dealt(plain + 5, "", Target(value, scale), 0, armour_immunity=False) == 5
    # and with the text's scale immunity (the default), armour of a scale ignores it
    assert dealt(plain + 5, "", Target(value, scale), 0) == 0


@pytest.mark.parametrize(
    ("text", "value", "scale", "plain"),
    [("20 DHP", 20, "D", 200), ("3 HHP", 3, "H", 300), ("67 KHP", 67, "K", 67_000)],
)
def test_hit_point_scale_notation(text: str, value: int, scale: str, plain: int) -> None:
    """Ch. 7, Hit Point Scale: 20 DHP = 200 HP, 3 HHP = 300 HP, 67 KHP = 67,000 HP; damage
    of that many plain points, at the target's own scale, is exactly its HP."""
    assert hp_notation(text) == (value, scale)
    assert points(value, scale) == plain
    raw = plain // points(1, scale)  # the same damage written at the target's scale
    assert dealt(raw, scale, Target(scale=scale), 0) == value


def test_twenty_dhp_take_h_2_as_200_hp() -> None:
    """Ch. 7, Hit Point Scale: 20 DHP = 200 HP, so H 2 (200 HP) is all 20 DHP of a D-scale
    target, and D-scale damage of 21 (210 HP) is more than its HP."""
    assert dealt(2, "H", Target(scale="D"), 0) == 20
    assert dealt(21, "D", Target(scale="D"), 0) == 21
    assert dealt(19, "", Target(scale="D"), 0) == 0  # scale immunity: plain damage ignored
