"""The odds of a conflict action are those of the very roll it makes."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import pytest

from referee.dice.odds import Distribution
from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.base import Action
from referee.systems.mongrel import RULESET
from referee.systems.mongrel import RULESET as MONGREL
from referee.systems.mongrel.actions import Attack, Task
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.state import State

OPTS = Options()


def _duel() -> State:
    state = RULESET.initial_state(OPTS)
    for cid in ("alwia", "vooruk"):
        state = RULESET.seat(state, cid, MONGREL.example(cid), OPTS)
    return replace(state, order=("alwia", "vooruk"))


def _resolved(action: Action, state: State, n: int) -> Distribution[tuple[bool, int]]:
    """Every face of ``n`` dice through RULESET.resolve: (success, Effect)."""
    return Distribution.of(
        (bool(o.success), o.result or 0)
        for o in (
            RULESET.resolve(action, state, ScriptedRoller(list(f)), OPTS)
            for f in product(range(1, 7), repeat=n)
        )
    )


@pytest.mark.parametrize(
    ("action", "dice"),
    [
        (Attack("alwia", "vooruk", "Rend", defend=True, power="Wings"), 3),  # 1 + 2 over 7
        (Attack("alwia", "vooruk", "Chill", difficulty=2), 1),  # 1 die under Spirit 6 - 2
        (Task("alwia", "Athletics", power="Wings"), 4),  # 2 + 2 dice under Physique 3
        (Task("alwia", "Know", tn=2, mode="over"), 4),
        (Task("alwia", "Lie", target="vooruk"), 4),  # over Vooruk's Social 5
    ],
)
def test_odds_equal_the_rolls(action: Attack | Task, dice: int) -> None:
    c = _duel()
    exact = RULESET.odds(action, c, OPTS).map(lambda r: (r.success, r.effect if r.success else 0))
    assert exact == _resolved(action, c, dice)
    assert RULESET.dice_for(action, c, OPTS) == ((dice, 6),)


def test_power_and_difficulty_are_recorded_as_modifiers() -> None:
    out = RULESET.resolve(
        Attack("alwia", "vooruk", "Rend", power="Wings", difficulty=1),
        _duel(),
        ScriptedRoller([1, 1, 1]),
        OPTS,
    )
    assert [(m.value, m.kind) for m in out.modifiers] == [(-1, "difficulty"), (2, "dice")]
    assert out.details["hours"] == 0


def test_an_expertise_without_a_default_attribute_must_name_one() -> None:
    c = _duel()
    with pytest.raises(IllegalAction, match="no default attribute"):
        RULESET.odds(Task("alwia", "Repair"), c, OPTS)
    done = RULESET.resolve(
        Task("alwia", "Repair", attribute="speed"), c, ScriptedRoller([1, 1]), OPTS
    )
    assert done.success and done.result == 1  # zero Expertise: 1 die twice, Effect 1
    know = RULESET.resolve(Task("alwia", "Know"), c, ScriptedRoller([6, 6, 6, 1]), OPTS)
    assert not know.success  # under Spirit 6: half or more 6s fail


def test_outcome_target_and_the_rushed_and_discombobulated_states() -> None:
    c = _duel()
    out = RULESET.resolve(
        Attack("alwia", "vooruk", "Rend", defend=True), c, ScriptedRoller([1]), OPTS
    )
    assert out.target == 7  # over Vooruk's Physique
    v = RULESET.apply(c, out).characters["vooruk"]
    assert v.ap == 2 and v.condition == "" and not v.rushed
    assert replace(v, ap=1).rushed and replace(v, ap=1).condition == "rushed"
    assert replace(v, ap=0).discombobulated and replace(v, ap=0).condition == "discombobulated"
    assert replace(v, ap=0, collapsed=True).condition == "collapsed"
