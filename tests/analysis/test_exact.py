"""Exact conflict chains against independent brute force written here from the texts.

Each oracle reads the rule text (ARM 1.2, Combat (Melee) and Damage; Mnemonic,
"attacking and dodging" and the COMPANION injury ruling) and enumerates the dice
itself; only the characters' numbers come from the example sheets (data, not rules).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from referee.analysis.chain import explore
from referee.analysis.errors import AnalysisError, ChainTooLarge
from referee.analysis.scenario import Scenario
from referee.analysis.solve import solve
from referee.systems.base import get

D6_MINUS_D6 = [a - b for a, b in product(range(1, 7), repeat=2)]


def _p(event: list[bool]) -> Fraction:
    return Fraction(sum(event), len(event))


# ARM 1.2, Damage: "Result Wound Shock" - 0: Unharmed/Dazed, 1: Light/Unharmed, 2: Light/
# Dazed, 3: Light/Giddy, 4: Moderate/Dazed, 5: Moderate/Reeling, 6: Severe/Giddy, 7: Severe/
# Fainting, 8: Mortal/Reeling, 9: Mortal/Unconscious, 10: Dead/Fainting, 11+: Dead/Unconscious
TEXT_TABLE = [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 3), (3, 2), (3, 4), (4, 3), (4, 5)]
TEXT_TABLE += [(5, 4), (5, 5)]


def _levels(margin: int) -> tuple[int, int]:
    return (0, 0) if margin < 0 else TEXT_TABLE[min(margin, 11)]


def _arm_swing(attacker: str, defender: str, mod: str | None) -> Fraction:
    """P(one undefended swing does at least one level): ARM 1.2 - attack Fitness + mods +
    the weapon's attack + d6-d6 against 4 (0 or more hits); the blow is that result + the
    damage value (+ the Strength mod) + d6-d6, one roll and two subtractions: Toughness +
    wound armour read for the wound column, Toughness + shock armour for the shock one."""
    sheets = get("arm").examples()
    a, d = sheets[attacker], sheets[defender]
    weapon = a.weapon()
    mods = {m.name: m.value for m in a.mods}
    total = a.stats["Fitness"] + weapon.attack + (mods[mod] if mod else 0)
    strength = mods.get("Strength", 0) if weapon.strength else 0
    wound_armour, shock_armour = d.armour_values()
    hits = []
    for roll in D6_MINUS_D6:
        result = total + roll - 4
        for blow in D6_MINUS_D6:
            total_blow = result + weapon.damage + strength + blow
            wound = _levels(total_blow - d.stats["Toughness"] - wound_armour)[0]
            shock = _levels(total_blow - d.stats["Toughness"] - shock_armour)[1]
            hits.append(result >= 0 and max(wound, shock) >= 1)
    return _p(hits)


def test_arm_first_blood_matches_the_text_by_hand() -> None:
    sc = Scenario.default("arm")
    sc.params = {"threshold": 1, "mods": {"brad": [], "christine": ["Rapiers"]}}
    result = solve(explore(sc.model()), horizon=6)
    pa = _arm_swing("brad", "christine", None)
    pb = _arm_swing("christine", "brad", "Rapiers")
    keep_going = (1 - pa) * (1 - pb)
    assert result.p["a"] == pa / (1 - keep_going)
    assert result.p["b"] == (1 - pa) * pb / (1 - keep_going)
    assert result.p["draw"] == 0 and result.p["endless"] == 0
    assert result.expected_rounds == 1 / (1 - keep_going)
    for k in range(1, 7):
        assert result.rounds[k] == keep_going ** (k - 1) * (1 - keep_going)
    assert result.rounds_beyond == keep_going**6


def _mnemonic_oracle() -> tuple[Fraction, Fraction]:
    """Two boxers trade attacks with a d12, the first boxer swinging first in each round:
    an attack succeeds when Aptitude (Dangerous + Professional Boxer) - d12 >= 0; a hit
    calls an injury check at the Primary Role (Moderately, 3) + the best Talent, one step
    (3) worse per earlier injury; a failed check leaves the victim inactive.

    Returns P(the first boxer wins) and the expected number of rounds, solved exactly
    over (injuries of each, who swings); two misses in a row loop back, which the two
    equations of each pair of states close.
    """
    sheet = get("mnemonic").examples()["boxer"]
    attack = sheet.talents["Dangerous"] + sheet.life_roles["Professional Boxer"]
    resist = 3 + max(sheet.talents.values())
    hit = Fraction(sum(attack - d >= 0 for d in range(1, 13)), 12)
    miss = 1 - hit

    def stays(injuries: int) -> Fraction:
        return Fraction(sum(resist - d - 3 * injuries >= 0 for d in range(1, 13)), 12)

    top = next(k for k in range(40) if stays(k) == 0)
    w: dict[tuple[int, int, int], Fraction] = {}
    r: dict[tuple[int, int, int], Fraction] = {}
    for total in range(2 * top, -1, -1):
        for i in range(top + 1):
            j = total - i
            if not 0 <= j <= top:
                continue
            # first boxer swings at (i, j, 0); the second at (i, j, 1)
            a = hit * (1 - stays(j)) + hit * stays(j) * w.get((i, j + 1, 1), Fraction(0))
            b = hit * stays(i) * w.get((i + 1, j, 0), Fraction(0))
            x = (a + miss * b) / (1 - miss * miss)
            w[(i, j, 0)], w[(i, j, 1)] = x, b + miss * x
            ra = 1 + hit * stays(j) * r.get((i, j + 1, 1), Fraction(0))
            rb = hit * stays(i) * r.get((i + 1, j, 0), Fraction(0))
            y = (ra + miss * rb) / (1 - miss * miss)
            r[(i, j, 0)], r[(i, j, 1)] = y, rb + miss * y
    return w[(0, 0, 0)], r[(0, 0, 0)]


def test_mnemonic_fight_matches_an_independent_reading() -> None:
    result = solve(explore(Scenario.default("mnemonic").model()))
    p_first, rounds = _mnemonic_oracle()
    assert result.p["a"] == p_first
    assert result.p["b"] == 1 - p_first
    assert result.expected_rounds == rounds


def test_probabilities_add_up_and_damage_is_the_games_measure() -> None:
    result = solve(explore(Scenario.default("mnemonic").model()))
    assert sum(result.p.values()) == 1
    assert sum(result.rounds.values()) + result.rounds_beyond == 1
    assert all(v >= 0 for v in result.damage.values())


def test_a_chain_over_its_bound_is_refused_with_the_way_out() -> None:
    with pytest.raises(ChainTooLarge, match="simulate instead"):
        explore(Scenario.default("mongrel").model(), max_states=50)


def test_bad_policies_and_characters_fail_before_any_work() -> None:
    sc = Scenario.default("mongrel")
    sc.policies = {"vooruk": "run-away"}
    with pytest.raises(AnalysisError, match=r"unknown policy 'run-away'.*attack, defend"):
        sc.model()
    sc = Scenario.default("arm")
    sc.a = ("nobody",)
    with pytest.raises(AnalysisError, match="unknown character 'nobody'"):
        sc.model()
    sc = Scenario.default("arm")
    sc.params = {"threshold": 9}
    with pytest.raises(AnalysisError, match="threshold"):
        sc.model()
    sc = Scenario.default("mongrel")
    sc.params = {"speed": 3}
    with pytest.raises(AnalysisError, match="unknown parameter"):
        sc.model()


@pytest.mark.slow
@pytest.mark.parametrize("game", ["arm", "mneme", "mnemonic", "mongrel"])
def test_every_games_default_fight_is_answered_exactly(game: str) -> None:
    """The default table of ``referee analyze conflict GAME`` (and the analysis page) is a
    fight the rules allow: Mneme CE's is studied with the referee rolling the raider's
    attacks, which the text otherwise folds into the PC's own roll."""
    result = solve(explore(Scenario.default(game).model()))
    assert result.states > 1 and sum(result.p.values()) == 1
    if game == "mneme":
        assert Scenario.default(game).options == {"adversary_attacks": "referee_rolls"}
