"""Exact odds against brute-force enumeration (Mneme CE checks and damage)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.brute import brute_force
from referee.dice.evaluate import odds
from referee.dice.odds import Distribution, keep_highest, keep_lowest
from referee.dice.roller import SeededRoller
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import Attack, Check
from referee.systems.mneme.checks import check_procedure, dice_distribution, net_advantage
from referee.systems.mneme.damage import DamageSpec, Target, damage_odds, dealt
from referee.systems.mneme.options import Options
from referee.systems.mneme.resolve import condition_odds
from referee.systems.mneme.sheet import Character

OPT = Options()


@pytest.mark.parametrize("steps", [-2, -1, 0, 1, 2])
def test_check_procedure_matches_brute_force(steps: int) -> None:
    proc = check_procedure(3, 9, steps)
    assert proc.exact() == brute_force(proc.groups, proc.read)
    assert proc.odds() == brute_force(proc.groups, proc.apply)


def test_fast_three_dice_paths_equal_the_general_ones() -> None:
    d6 = Distribution.die(6)
    assert dice_distribution(1) == keep_highest(d6, 3, 2)
    assert dice_distribution(-1) == keep_lowest(d6, 3, 2)


def test_advantage_cancels_one_for_one_and_caps_at_one_step() -> None:
    assert net_advantage(2, 1, OPT) == 1
    assert net_advantage(1, 1, OPT) == 0
    assert net_advantage(3, 0, OPT) == 1
    assert net_advantage(0, 2, OPT) == -1
    assert net_advantage(3, 0, Options(max_net_advantage=2)) == 2


def test_advantage_improves_the_odds() -> None:
    plain = RULESET.odds(Check(), None, OPT).at_least(0)
    adv = RULESET.odds(Check(advantage=1), None, OPT).at_least(0)
    dis = RULESET.odds(Check(disadvantage=1), None, OPT).at_least(0)
    assert dis < plain < adv
    assert plain == Fraction(5, 12)


def _per_roll_read(expr_dice: int, sides: int, const: int, armour: int, keep: int, rolls: int):
    def read(faces: tuple[int, ...]) -> int:
        values = []
        for i in range(rolls):
            raw = sum(faces[i * expr_dice : (i + 1) * expr_dice]) + const
            values.append(max(0, raw - armour))
        return sum(sorted(values, reverse=True)[:keep])

    return read


@pytest.mark.parametrize(
    ("rolls", "rate", "armour"), [(1, None, 0), (2, 1, 3), (3, 2, 4), (3, None, 5), (4, 3, 2)]
)
def test_damage_odds_match_brute_force(rolls: int, rate: int | None, armour: int) -> None:
    spec = DamageSpec("2d3-2", rate_of_attack=rate)
    exact = damage_odds(spec, rolls, Target(armour=armour), options=OPT)
    keep = rolls if rate is None else min(rate, rolls)
    brute = brute_force(((2 * rolls, 3),), _per_roll_read(2, 3, -2, armour, keep, rolls))
    assert exact == brute


def test_minimum_damage_at_effect_six() -> None:
    spec = DamageSpec("1d6")
    at5 = damage_odds(spec, 1, Target(armour=10), effect_degree=5, options=OPT)
    at6 = damage_odds(spec, 1, Target(armour=10), effect_degree=6, options=OPT)
    assert at5 == Distribution.constant(0)
    assert at6 == Distribution.constant(1)


def test_scale_arithmetic_and_immunity() -> None:
    # D 3d3 = 3d3 x 10; DAR 2 = 20 AR; a vehicle of scale D ignores scale-1 damage
    assert dealt(6, "D", Target(armour=2, armour_scale="D"), 0) == 40
    assert dealt(12, "", Target(scale="D"), 0) == 0
    assert dealt(5, "H", Target(armour=9, armour_scale="H", scale="D"), 0) == 0
    # H 10 - HAR 9 = 100 HP, which a D-scale target counts as 10 DHP
    assert dealt(10, "H", Target(armour=9, armour_scale="H", scale="D"), 1) == 10
    # K 5d6-4 rolling 20 against a D target with DAR 2: 20,000 - 20 = 19,980 HP = 1,998 DHP
    assert dealt(20, "K", Target(armour=2, armour_scale="D", scale="D"), 0) == 1998
    # armour below the wearer's scale: D 3 against AR 5 on a D target: 25 HP -> 2 DHP
    assert dealt(3, "D", Target(armour=5, scale="D"), 0) == 2
    dist = damage_odds(DamageSpec("3d3", scale="D"), 1, Target(), options=OPT)
    assert dist == odds("3d3") * 10


def test_attack_odds_equal_brute_force_over_check_and_damage() -> None:
    """Attack odds bind damage to the check's Effect; brute force over a bounded case."""
    attack = Attack(Check(difficulty=11), DamageSpec("1d3", rate_of_attack=2), Target(armour=1))
    exact = RULESET.odds(attack, None, OPT)

    def read(faces: tuple[int, ...]) -> int:
        effect = faces[0] + faces[1] - 11
        if effect < 0:
            return 0
        n = effect + 1
        vals = sorted((max(0, f - 1) for f in faces[2 : 2 + n]), reverse=True)
        return sum(vals[:2])

    # at most SE 1 -> 2 damage rolls; enumerate 2d6 and two d3 (unused dice are uniform)
    assert exact == brute_force(((2, 6), (2, 3)), read)


def test_condition_odds() -> None:
    pc = Character("T", {"Str": 6, "Dex": 6, "End": 6, "Int": 6, "Edu": 6, "Soc": 6})
    dist = condition_odds(Distribution.uniform(0, 20), pc, OPT)  # HP 18: 6 / 12
    assert dist.probability("Unhurt") == Fraction(1, 21)
    assert dist.probability("Wounded") == Fraction(5, 21)
    assert dist.probability("Seriously Wounded") == Fraction(6, 21)
    assert dist.probability("Critically Wounded") == Fraction(7, 21)
    assert dist.probability("Dying") == Fraction(2, 21)


@settings(max_examples=60)
@given(
    modifier=st.integers(-6, 6),
    difficulty=st.integers(2, 16),
    adv=st.integers(0, 2),
    dis=st.integers(0, 2),
    seed=st.integers(0, 10_000),
)
def test_rolled_effect_lies_in_the_odds(
    modifier: int, difficulty: int, adv: int, dis: int, seed: int
) -> None:
    from referee.systems.base import Modifier

    check = Check(difficulty, (Modifier(modifier, "m"),), adv, dis)
    out = RULESET.resolve(check, None, SeededRoller(seed), OPT)
    dist = RULESET.odds(check, None, OPT)
    assert out.result in dist
    assert out.success == (out.result is not None and out.result >= 0)


def test_huge_damage_odds_are_refused_not_hung() -> None:
    from referee.errors import OddsTooComplex

    with pytest.raises(OddsTooComplex):
        damage_odds(DamageSpec("10d10", rate_of_attack=30), 60, Target(), options=OPT)
    with pytest.raises(OddsTooComplex):
        damage_odds(DamageSpec("1d6"), 61, Target(), options=OPT)


def test_bleeding_and_massive_damage_odds_match_every_rolled_outcome() -> None:
    """Ch. 7, Bleeding (one roll >= HP/3) and Massive Damage (> HP in one attack): the odds
    equal the share of all face combinations whose resolved outcome says so."""
    import itertools

    from referee.dice.roller import ScriptedRoller
    from referee.systems.mneme.actions import TakeDamage, Threat
    from referee.systems.mneme.damage import per_roll_odds
    from referee.systems.mneme.resolve import bleeding_odds, massive_damage_odds

    frail = Character("Frail", {"Str": 2, "Dex": 2, "End": 11, "Int": 7, "Edu": 7, "Soc": 7})
    assert frail.hp == 15  # Seriously Wounded (and Bleeding) from 5; massive above 15
    spec = DamageSpec("1d6", rate_of_attack=3)
    for rolls in (2, 3):
        bleed = massive = 0
        combos = list(itertools.product(range(1, 7), repeat=rolls))
        for faces in combos:
            action = TakeDamage(rolls, Threat(spec, Target()))
            out = RULESET.resolve(action, frail, ScriptedRoller(list(faces)), OPT)
            bleed += bool(out.details.get("bleeding"))
            massive += bool(out.details.get("massive_damage"))
        per = per_roll_odds(spec, Target(), options=OPT)
        assert bleeding_odds(per, rolls, frail, OPT) == Fraction(bleed, len(combos))
        dist = damage_odds(spec, rolls, Target(), options=OPT)
        assert massive_damage_odds(dist, frail) == Fraction(massive, len(combos))
    assert bleeding_odds(per, 2, frail, OPT) == Fraction(5, 9)  # 1 - (4/6)^2
    three = damage_odds(spec, 3, Target(), options=OPT)
    assert massive_damage_odds(three, frail) == Fraction(10, 216)  # 16, 17 or 18 on 3d6


def test_armour_of_a_scale_ignores_lesser_damage_by_option() -> None:
    """Ch. 7, Scale Immunity lists armour: DAR 2 on an ordinary character ignores plain
    5d6 (default); with armour_scale_immunity off it is 20 AR off each roll."""
    spec = DamageSpec("5d6")
    dar2 = Target(armour=2, armour_scale="D")
    assert damage_odds(spec, 1, dar2, options=OPT) == Distribution.constant(0)
    off = Options(armour_scale_immunity=False)
    assert damage_odds(spec, 1, dar2, options=off) == odds("5d6-20").clamp(low=0)
    # damage of the armour's own scale still goes through: D 3 against DAR 2 -> 10 HP
    assert damage_odds(DamageSpec("3", scale="D"), 1, dar2, options=OPT) == Distribution.constant(
        10
    )


def test_whole_attack_bleeding_odds_match_every_rolled_attack() -> None:
    """Attack at 11 (SE 0 or 1 -> one or two 1d3 rolls) against a target of HP 6
    (Bleeding from one roll of 2+): the odds equal the share of all 2d6 + 2d3 faces whose
    resolved attack makes the target bleed."""
    import itertools

    from referee.dice.roller import ScriptedRoller
    from referee.systems.mneme.resolve import attack_bleeding_odds

    frail = Character("Frail", {"Str": 2, "Dex": 2, "End": 2, "Int": 7, "Edu": 7, "Soc": 7})
    attack = Attack(Check(difficulty=11), DamageSpec("1d3"), Target(), target_sheet=frail)
    bled = total = 0
    for faces in itertools.product(range(1, 7), range(1, 7), range(1, 4), range(1, 4)):
        out = RULESET.resolve(attack, None, ScriptedRoller(list(faces)), OPT)
        bled += bool(out.details.get("target", {}).get("bleeding"))
        total += 1
    exact = attack_bleeding_odds(attack, None, frail, OPT)
    assert exact == Fraction(bled, total)
    # by hand: SE 0 (2/36) -> 2/3; SE 1 (1/36) -> 1 - (1/3)^2 = 8/9
    assert exact == Fraction(2, 36) * Fraction(2, 3) + Fraction(1, 36) * Fraction(8, 9)
