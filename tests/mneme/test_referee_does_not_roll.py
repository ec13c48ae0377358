"""The referee doesn't roll (issue 22, item 3; Mneme CE ch. 2, Referee Doesn't Roll and
Importance of Effects; ch. 7, Damage Rolls).

"Any Risk or Threat or Challenge to the PC is the PC rolling against a Difficulty", and
"the negative outcomes of rolls, Fail Effects, is how to determine if Adversaries
successfully Attack and make Damage Rolls against the PC". By default an adversary's
attack on a PC is the Fail Effect of the PC's own roll; the referee's attack roll is the
option ``adversary_attacks='referee_rolls'``.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import Attack, Check, CheckInputs, Threat
from referee.systems.mneme.options import Options
from referee.systems.mneme.state import seated

OPT = Options()
ROLLS = Options(adversary_attacks="referee_rolls")
TABLE = seated(dict(RULESET.examples()))  # ada (PC), raider (an adversary), tess (PC)
SWING = Attack("raider", "ada", CheckInputs(characteristic="Str"), weapon="Broadsword")


def test_an_adversary_attack_roll_on_a_pc_is_refused_before_any_die() -> None:
    roller = ScriptedRoller([1, 1])
    with pytest.raises(IllegalAction, match="the referee doesn't roll") as refused:
        RULESET.resolve(SWING, TABLE, roller, OPT)
    assert "Fail Effect of Ada Vance's own roll" in str(refused.value)
    assert "threat.attacker=raider" in str(refused.value)
    assert not roller.records and list(roller.remaining) == [1, 1]
    with pytest.raises(IllegalAction, match="the referee doesn't roll"):
        RULESET.odds(SWING, TABLE, OPT)
    # with no target named it is refused too (it could only be at a PC)
    with pytest.raises(IllegalAction, match="the referee doesn't roll"):
        RULESET.odds(Attack("raider", None, damage="3d3-2", target_hp=20), TABLE, OPT)


def test_the_referees_roll_is_a_named_option() -> None:
    # Str 9 (ChM +1) + Melee 1 = +2 against 8: [1, 1] + 2 = 4, Fail Effect 4
    out = RULESET.resolve(SWING, TABLE, ScriptedRoller([1, 1]), ROLLS)
    assert (out.result, out.success) == (-4, False)
    assert [m.value for m in out.modifiers] == [2]
    # its odds are given too: no hit (a miss, or every roll stopped by the Flak Jacket)
    # is at least the 10/36 of missing, 2d6 + 2 < 8
    misses = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + 2 < 8)
    assert RULESET.odds(SWING, TABLE, ROLLS).probability(0) >= Fraction(misses, 36)


def test_the_attack_is_the_fail_effect_of_the_pcs_roll() -> None:
    """The text's armour example: a Fail Effect of 3, adversaries allowing 3 attacks with a
    3d3-2 broadsword, against a Flak Jacket of 4: the adversaries "roll 3d3-6 three
    times". Ada (Str 7: ChM 0, Melee 0) meets the raiders' swings at 8: [2, 3] = 5, Fail
    Effect 3; Melee 0 mitigates nothing; three rolls: 3+3+3-6 = 3, 2+2+2-6 = 0, 1+1+1-6 = 0."""
    threat = Threat(weapon="Broadsword", attacker="raider", rate_of_attack=3)
    meet = Check(characteristic="Str", skill="Melee", actor="ada", threat=threat)
    faces = [2, 3, 3, 3, 3, 2, 2, 2, 1, 1, 1]
    out = RULESET.resolve(meet, TABLE, ScriptedRoller(faces), OPT)
    assert (out.result, out.success, out.label) == (-3, False, "Fail Effect 3; took 3 damage")
    incoming = out.details["incoming"]
    assert incoming["fail_effect"] == 3 and incoming["mitigation"] == [3, 3, 3, 3]
    assert incoming["damage_rolls"]["raw"] == [7, 4, 1]
    assert incoming["damage_rolls"]["dealt"] == [3, 0, 0]
    assert RULESET.apply(TABLE, out).character("ada").sheet.damage == 3
    # a success: no damage roll at all (the faces after the check are never drawn)
    ok = RULESET.resolve(meet, TABLE, ScriptedRoller([4, 4]), OPT)
    assert (ok.result, ok.label, "incoming" not in ok.details) == (0, "Success Effect 0", True)
    # the odds are the check's: 2d6 + 0 >= 8, counted over the faces
    hits = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b >= 8)
    assert RULESET.chance(meet, TABLE, OPT) == Fraction(hits, 36) == Fraction(5, 12)
    effects = RULESET.odds(meet, TABLE, OPT)
    for effect in range(-6, 5):
        n = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b - 8 == effect)
        assert effects.probability(effect) == Fraction(n, 36)
    # the threat carries its own Mitigating Factors; the check's are refused beside it
    from referee.systems.mneme.actions import Mitigating

    both = Check(actor="ada", threat=threat, mitigating=Mitigating(conditions=1))
    with pytest.raises(IllegalAction, match=r"threat\.mitigating"):
        RULESET.odds(both, TABLE, OPT)


def test_a_pc_attacking_still_rolls_and_adversaries_may_fight_each_other() -> None:
    rifle = Attack("ada", "raider", CheckInputs(characteristic="Dex"), weapon="Automatic Rifle")
    RULESET.odds(rifle, TABLE, OPT)
    table = seated({"raider": RULESET.examples()["raider"], "other": RULESET.examples()["raider"]})
    RULESET.odds(Attack("raider", "other", CheckInputs(), weapon="Broadsword"), table, OPT)


def test_a_failed_attack_on_an_adversary_is_struck_back_by_its_weapon() -> None:
    """ "The adversaries' attacks are the PCs' Fail Effects": Ada swings her broadsword at
    the raider (no characteristic, Melee 0: 2d6 + 0 against 8) and rolls [3, 3] = 6, Fail
    Effect 2. Naming no threat, the raider's first weapon strikes back (option
    ``strike_back``): its Broadsword 3d3-2 at Rate of Attack 2, two rolls for Fail Effect
    2, each less Ada's Flak Jacket 4: 3+3+3-2-4 = 3 and 1+2+3-2-4 = 0, 3 damage. With the
    option off, or where the referee rolls, the miss strikes nothing."""
    swing = Attack("ada", "raider", CheckInputs(), weapon="Broadsword")
    out = RULESET.resolve(swing, TABLE, ScriptedRoller([3, 3, 3, 3, 3, 1, 2, 3]), OPT)
    assert (out.result, out.success) == (-2, False)
    incoming = out.details["incoming"]
    assert incoming["fail_effect"] == 2
    assert incoming["damage_rolls"]["raw"] == [7, 4]
    assert incoming["damage_rolls"]["dealt"] == [3, 0]
    assert [(c.target, c.field, c.delta) for c in out.changes] == [("ada", "sheet.damage", 3)]
    for quiet in (Options(strike_back=False), ROLLS):
        missed = RULESET.resolve(swing, TABLE, ScriptedRoller([3, 3]), quiet)
        assert (missed.result, missed.changes) == (-2, ())
    # a threat the attack names is its own: the raider's rifle, 3d6-2, at Rate of Attack 1
    rifle = Threat(weapon="Automatic Rifle", attacker="raider", rate_of_attack=1)
    named = RULESET.resolve(
        Attack("ada", "raider", CheckInputs(), weapon="Broadsword", threat=rifle),
        TABLE,
        ScriptedRoller([3, 3, 6, 6, 6, 1, 1, 1]),
        OPT,
    )
    assert named.details["incoming"]["damage_rolls"]["raw"] == [16, 1]  # 6+6+6-2, 1+1+1-2
    assert named.changes[0].delta == 16 - 4  # the highest one kept, less AR 4
    # one roll of 12 reaches Ada's Seriously Wounded threshold (24 HP: 8): she Bleeds
    assert named.changes[1].value == ["Bleeding"]


def test_the_odds_of_what_an_attack_on_an_adversary_costs() -> None:
    """``report="taken"``: the damage Ada takes back from her swing at the raider, by
    counting from the text. 2d6 + 0 against 8: a success (8+) costs nothing; a failure of
    Fail Effect F brings F rolls of the raider's broadsword 3d3-2, the highest two kept
    (Rate of Attack 2), each less her Flak Jacket 4 (none below 0; at Fail Effect 6 or
    more, at least 1 each)."""
    from collections import Counter

    d3 = range(1, 4)
    per_roll = Counter(a + b + c - 2 for a, b, c in product(d3, d3, d3))  # raw, of 27
    taken: Counter[int] = Counter()
    for a, b in product(range(1, 7), repeat=2):
        fail = 8 - (a + b)
        if fail <= 0:
            taken[0] += 27**6  # every count over one common denominator, 36 * 27**6
            continue
        floor = 1 if fail >= 6 else 0
        for raws in product(per_roll, repeat=fail):
            weight = 1
            for raw in raws:
                weight *= per_roll[raw]
            kept = sorted(raws, reverse=True)[:2]
            taken[sum(max(floor, raw - 4) for raw in kept)] += weight * 27 ** (6 - fail)
    whole = 36 * 27**6
    expected = {t: Fraction(n, whole) for t, n in taken.items()}
    swing = Attack("ada", "raider", CheckInputs(), weapon="Broadsword", report="taken")
    assert RULESET.odds(swing, TABLE, OPT).probabilities() == expected
    assert expected[0] > Fraction(15, 36)  # at least every success costs nothing
    # asking other odds changes no roll: the same faces give the same outcome
    faces = [3, 3, 3, 3, 3, 1, 2, 3]
    read = [
        RULESET.resolve(replace(swing, report=r), TABLE, ScriptedRoller(faces), OPT)
        for r in ("taken", "damage")
    ]
    assert read[0].changes == read[1].changes and read[0].details == read[1].details
    # where the referee rolls, nothing strikes back: the odds are 0 for certain
    assert RULESET.odds(swing, TABLE, ROLLS).probabilities() == {0: Fraction(1)}
