"""Each game's worked examples read as the text tells them (issue 35): the examples' own
dice (the ones tests/<game>/test_examples.py scripts), said in the game's words."""

from __future__ import annotations

from typing import Any

from referee.dice.roller import ScriptedRoller
from referee.systems.base import get, outcome_data
from referee.systems.outcome import Outcome
from referee.systems.words import OutcomeWords


def _said(game: str, outcome: Outcome, action: Any, names: dict[str, str]) -> OutcomeWords:
    rules = get(game)
    fields = rules.action_data(action)
    return rules.words(names).outcome(outcome_data(outcome), rules.action_name(action), fields)


def test_arm_brad_charges_and_alex_dives_under_the_axe() -> None:
    from tests.arm.test_examples import Table

    from referee.systems.arm import actions as a

    t = Table()
    t.do(a.NextRound())
    t.do(a.Prepare("alex"))
    names = {"alex": "Alex", "brad": "Brad", "christine": "Christine"}
    charge = a.Attack("brad", "alex")
    said = _said("arm", t.do(charge, 3, 5), charge, names)
    assert said.sentence == "Brad attacks Alex: Unconvincing success"
    assert [g.text for g in said.dice] == ["plus die 3", "minus die 5"]
    assert said.numbers == ("8 + 3 - 5 = 6 against difficulty 4: result +2",)
    assert said.waiting == (
        "Alex decides: Brad attacks Alex (result +2): defend, or take the blow",
    )
    dive = a.Defend("alex")  # difficulty 2 + Brad's 2
    said = _said("arm", t.do(dive, 4, 1), dive, names)
    assert said.sentence == "Alex defends: Astonishing success"
    assert [g.text for g in said.dice] == ["plus die 4", "minus die 1"]
    assert said.numbers == ("6 + 4 - 1 = 9 against difficulty 4: result +5",)
    assert "No attack waits any more" in said.changes


def test_mneme_a_dice_roll_of_5_against_8_is_a_fail_effect_of_3() -> None:
    """Ch. 2: Difficulty 8, Dice Roll 5."""
    from referee.systems.mneme import RULESET
    from referee.systems.mneme.actions import Check
    from referee.systems.mneme.options import Options
    from referee.systems.mneme.state import State

    check = Check(difficulty=8)
    out = RULESET.resolve(check, State(), ScriptedRoller([2, 3]), Options())
    said = _said("mneme", out, check, {})
    assert said.sentence == "Check: Fail Effect 3"
    assert [g.text for g in said.dice] == ["check dice 2, 3"]
    assert said.numbers == ("Dice Roll 5 +0 = Dice Result 5 against difficulty 8: Effect -3",)


def test_mneme_the_automatic_rifle_at_success_effect_2() -> None:
    """Ch. 7: Difficulty 12, Dice Result 14: three 3d6-2 rolls."""
    from tests.mneme.test_examples import EMPTY, OPT, Attack, CheckInputs

    from referee.systems.base import Modifier
    from referee.systems.mneme import RULESET

    check = CheckInputs(difficulty=12, modifiers=(Modifier(2, "skill", "competence"),))
    attack = Attack(check=check, damage="3d6-2", rate_of_attack=4)
    out = RULESET.resolve(attack, EMPTY, ScriptedRoller([6, 6, 3, 4, 5, 6, 6, 1, 2, 2, 2]), OPT)
    said = _said("mneme", out, attack, {})
    assert said.sentence == "Attack: Success Effect 2: 25 damage"
    assert [g.text for g in said.dice] == [
        "check dice 6, 6",
        "damage dice 3, 4, 5, 6, 6, 1, 2, 2, 2",
    ]
    assert said.numbers == (
        "Dice Roll 12 +2 = Dice Result 14 against difficulty 12: Effect +2",
        "25 damage dealt",
    )


def test_mongrel_vooruk_rends_giazza_who_defends() -> None:
    """Giazza defends: Rend over his Physique 6, a hit of Effect 5."""
    from tests.mongrel.test_examples import _duel

    from referee.systems.mongrel import RULESET
    from referee.systems.mongrel.actions import Attack
    from referee.systems.mongrel.options import Options

    c = _duel()
    attack = Attack("vooruk", "giazza", "Rend", defend=True)
    out = RULESET.resolve(attack, c, ScriptedRoller([6, 1, 1, 1, 1, 1]), Options())
    said = _said("mongrel", out, attack, {"vooruk": "Vooruk", "giazza": "Giazza"})
    assert (
        said.sentence == "Vooruk attacks Giazza with Rend: hit, Effect 5, damage 0 to 5 (success)"
    )
    assert [g.text for g in said.dice] == ["check dice 6, 1, 1, 1, 1, 1"]
    assert said.numbers == ("target 6, rolled over, 1 die succeeds: Effect 5",)
    assert said.changes == (
        "Vooruk spends 1 AP",
        "Giazza spends 2 AP",
        "Giazza takes 5 damage",
        "Giazza loses 1 Physique",
        "The order of action: Giazza, Vooruk",
    )


def test_mnemonic_a_full_check_adds_chances() -> None:
    """Aptitude 7, a d12 showing 9, Chances Fair: 7 - 9 + 3 = 1, 2 Successes."""
    from referee.systems.mnemonic import RULESET
    from referee.systems.mnemonic.actions import Check
    from referee.systems.mnemonic.options import Options
    from referee.systems.mnemonic.state import State

    check = Check(7, "Fair")
    out = RULESET.resolve(check, State(), ScriptedRoller([9]), Options(degree_labels=True))
    said = _said("mnemonic", out, check, {})
    assert said.sentence == "A check: 2 Successes (Fair)"
    assert [g.text for g in said.dice] == ["randomizer die 9"]
    assert said.numbers == ("randomizer 9 against Aptitude 7, chances +3",)


def test_mneme_initiative_says_who_acts_first() -> None:
    """Ch. 7, Initiative: the order of action, highest first, each with their initiative."""
    from referee.systems.mneme import RULESET
    from referee.systems.mneme.actions import RollInitiative as Initiative
    from referee.systems.mneme.options import Options

    opts = Options()
    state = RULESET.initial_state(opts)
    for cid in ("ada", "tess"):
        state = RULESET.seat(state, cid, RULESET.examples()[cid], opts)
    action = Initiative()
    out = RULESET.resolve(action, state, ScriptedRoller([6, 4, 1, 2]), opts)
    said = _said("mneme", out, action, {"ada": "Ada Vance", "tess": "Tess"})
    assert said.changes[0] == "Ada Vance (12) acts first, then Tess (1)"
    assert [g.text for g in said.dice] == ["initiative dice 6, 4, 1, 2"]
