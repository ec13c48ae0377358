"""Issue 41: a Dying or Critically Wounded (out) adversary does not strike back (ch. 7,
Fail Effect: "Adversaries who can attack back deal damage based on the Fail Effect
degree"; Dying: "Dying Characters are Unconscious and Immobile"; Critically Wounded: "A
character who is Out is helpless")."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.mneme import RULESET
from referee.systems.mneme.actions import Attack, CheckInputs, Stimulant, SurvivalRoll, Threat
from referee.systems.mneme.options import Options
from referee.systems.mneme.state import seated

OPT = Options()
SWING = Attack("ada", "raider", CheckInputs(), weapon="Broadsword")


def _raider_at(damage: int) -> object:
    sheets = dict(RULESET.examples())
    sheets["raider"] = replace(sheets["raider"], damage=damage)  # the raider's HP is 25
    return seated(sheets)


@pytest.mark.parametrize("damage", [26, 17], ids=["dying", "critically-wounded"])
def test_a_helpless_raider_does_not_strike_back(damage: int) -> None:
    """Ada (no characteristic, Melee 0: 2d6 against 8) rolls [1, 2] = 3, Fail Effect 5.
    Against a raider Dying (26 of 25) or Critically Wounded and out (17 >= 16), no strike
    comes back: no damage roll is drawn and Ada takes nothing (on main she took 6)."""
    table = _raider_at(damage)
    roller = ScriptedRoller([1, 2, 3, 3, 3, 3, 3, 3])
    out = RULESET.resolve(SWING, table, roller, OPT)
    assert (out.result, out.success, out.label) == (-5, False, "Fail Effect 5")
    assert "incoming" not in out.details and out.changes == ()
    assert len(roller.records) == 1  # the check's 2d6 alone
    # and its odds: what Ada takes back is 0 whatever she rolls
    taken = RULESET.odds(replace(SWING, report="taken"), table, OPT)
    assert taken.probability(0) == 1


def test_an_unhurt_raider_still_strikes_back_and_the_odds_differ() -> None:
    """The control: an unhurt raider strikes back on a failure, so P(0 taken) < 1: at
    least every success costs nothing (2d6 >= 8, 15 of 36 faces)."""
    table = _raider_at(0)
    taken = RULESET.odds(replace(SWING, report="taken"), table, OPT)
    successes = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b >= 8)
    assert Fraction(successes, 36) <= taken.probability(0) < 1


def test_a_named_threat_from_a_helpless_adversary_is_refused_before_any_die() -> None:
    table = _raider_at(26)
    threat = Threat(weapon="Broadsword", attacker="raider")
    roller = ScriptedRoller([1, 2])
    with pytest.raises(IllegalAction, match=r"Raider is Dying .* cannot strike back"):
        RULESET.resolve(replace(SWING, threat=threat), table, roller, OPT)
    assert not roller.records


def test_the_helpless_raider_acts_not_but_rolls_to_survive_and_may_be_treated() -> None:
    table = _raider_at(26)
    with pytest.raises(IllegalAction, match=r"Raider is Dying .* cannot act"):
        RULESET.odds(Attack("raider", "ada", CheckInputs(), weapon="Broadsword"), table, OPT)
    RULESET.odds(SurvivalRoll("raider"), table, OPT)  # the dying roll is no action
    out = _raider_at(17)  # out: a stimulant wakes them, then they act again
    woken = RULESET.apply(out, RULESET.resolve(Stimulant("raider"), out, ScriptedRoller([]), OPT))
    assert RULESET.helpless(woken, "raider", OPT) is None


def test_the_option_critically_wounded_out_leaves_them_acting() -> None:
    """With ``critically_wounded_out`` off the referee judges: Critically Wounded is no
    helpless condition, and the raider strikes back."""
    table = _raider_at(17)
    awake = Options(critically_wounded_out=False)
    assert RULESET.helpless(table, "raider", awake) is None
    assert RULESET.odds(replace(SWING, report="taken"), table, awake).probability(0) < 1
