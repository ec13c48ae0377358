"""The odds of a conflict action come from the same check the action rolls."""

from __future__ import annotations

import pytest

from referee.dice.brute import brute_force
from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.mongrel import RULESET
from referee.systems.mongrel.conflict import Attack, Conflict, Fighter, Task
from referee.systems.mongrel.examples import example
from referee.systems.mongrel.options import Options


def _duel() -> Conflict:
    fs = (Fighter.from_sheet(example("alwia")), Fighter.from_sheet(example("vooruk")))
    return Conflict(fs, ("alwia", "vooruk"))


@pytest.mark.parametrize(
    "action",
    [
        Attack("alwia", "vooruk", "Rend", defend=True, power="Wings"),  # 1 + 2 dice over 7
        Attack("alwia", "vooruk", "Chill", difficulty=2),  # 1 die under Spirit 6 - 2
        Task("alwia", "Athletics", power="Wings"),  # 2 + 2 dice under Physique 3
        Task("alwia", "Know", tn=2, mode="over"),
    ],
)
def test_odds_equal_the_rolls(action: Attack | Task) -> None:
    c = _duel()
    dist = RULESET.odds(action, c, Options())
    entry = c.apply(action, ScriptedRoller([3] * 8)).log[-1]
    groups = ((len(entry.faces), 6),)
    assert dist == brute_force(
        groups, lambda f: c.apply(action, ScriptedRoller(list(f))).log[-1].result
    )


def test_power_and_difficulty_are_recorded_as_modifiers() -> None:
    out = RULESET.resolve(
        Attack("alwia", "vooruk", "Rend", power="Wings", difficulty=1),
        _duel(),
        ScriptedRoller([1, 1, 1]),
        Options(),
    )
    assert [(m.value, m.kind) for m in out.modifiers] == [(-1, "difficulty"), (2, "dice")]
    assert out.details["hours"] == 0


def test_an_expertise_without_a_default_attribute_must_name_one() -> None:
    c = _duel()
    with pytest.raises(IllegalAction, match="no default attribute"):
        c.apply(Task("alwia", "Repair"), ScriptedRoller([]))
    done = c.apply(Task("alwia", "Repair", attribute="speed"), ScriptedRoller([1, 1]))
    r = done.log[-1].result
    assert r is not None and r.success and r.effect == 1  # zero Expertise: 1 die twice
    know = c.apply(Task("alwia", "Know"), ScriptedRoller([6, 6, 6, 1]))  # under Spirit 6
    assert know.log[-1].result is not None and not know.log[-1].result.success  # half 6s fail


def test_outcome_target_and_the_rushed_and_discombobulated_states() -> None:
    c = _duel()
    out = RULESET.resolve(
        Attack("alwia", "vooruk", "Rend", defend=True), c, ScriptedRoller([1]), Options()
    )
    assert out.target == 7  # over Vooruk's Physique
    after = c.apply(Attack("alwia", "vooruk", "Rend", defend=True), ScriptedRoller([1]))
    v = after.fighter("vooruk").body
    assert v.ap == 2 and v.condition == "" and not v.rushed
    from dataclasses import replace

    assert replace(v, ap=1).rushed and replace(v, ap=1).condition == "rushed"
    assert replace(v, ap=0).discombobulated and replace(v, ap=0).condition == "discombobulated"
    assert replace(v, ap=0, collapsed=True).condition == "collapsed"
