"""Issue 22, item 2: by default a push is offered after any d6 - d6 roll of the character's
own, the attacker's damage roll included (ARM 1.2, Pushing: "If a character really needs a
success, or a better result, they may elect to push. You can only push once per d6-d6
roll"; Damage and Combat (Melee): the damage of a landed blow is a d6 - d6 roll)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from referee.dice.roller import ScriptedRoller
from referee.systems.arm import RULESET
from referee.systems.arm import actions as a
from referee.systems.arm.options import Options
from referee.systems.arm.play import Levels
from referee.systems.arm.rolls import Pushed
from referee.systems.arm.state import State, held_rolls
from referee.systems.base import Action, IllegalAction, Outcome

PUSHING = Options(pushing=True)  # the text's optional rule switched on, every other default

# The damage table as the text prints it: result -> (wound level, shock level); 11+ is the
# last row, and a wound result of 16 or more is Destroyed.
TEXT_DAMAGE = {
    0: (0, 1),
    1: (1, 0),
    2: (1, 1),
    3: (1, 2),
    4: (2, 1),
    5: (2, 3),
    6: (3, 2),
    7: (3, 4),
    8: (4, 3),
    9: (4, 5),
    10: (5, 4),
    11: (5, 5),
}


def _table() -> State:
    state = RULESET.initial_state(PUSHING)
    for cid, sheet in RULESET.examples().items():
        state = RULESET.seat(state, cid, sheet, PUSHING)
    return state


def _do(state: State, action: Action, *faces: int) -> tuple[State, Outcome]:
    roller = ScriptedRoller(faces)
    out = RULESET.resolve(action, state, roller, PUSHING)
    roller.assert_exhausted()
    return RULESET.apply(state, out), out


def test_the_default_offers_a_push_after_any_roll() -> None:
    assert Options().push_offer == "any"
    # Brad's charge (the example's first swing): Fitness 8 + 3 - 5 = 6 against 4, result 2
    state, hit = _do(_table(), a.Attack("brad", "alex"), 3, 5)
    assert (hit.result, hit.details["waiting"]) == (2, True)  # a success, yet offered
    assert [(d.actor, d.choices) for d in state.pending] == [("brad", ("push", "accept"))]
    # he wants a better result: the push die 4 adds +1 and costs him a level of shock
    state, pushed = _do(state, a.Push("brad"), 4)
    assert (pushed.result, pushed.success, pushed.details["shock_cost"]) == (3, True, 1)
    assert state.characters["brad"].shock == 1 and state.attacks[0].result == 3
    # Alex's dodge is his own roll: offered too, even though it succeeds (6 + 4 - 1 - 5 = 4)
    state, dodge = _do(state, a.Defend("alex", prepared=True), 4, 1)
    assert (dodge.result, dodge.details["waiting"]) == (4, True)
    state, kept = _do(state, a.Accept("alex"))
    assert (kept.result, kept.success, kept.details["blow"]) == (4, True, "avoided")
    # a table may keep the narrower reading: only a failed roll is offered
    narrow = Options(pushing=True, push_offer="failure")
    out = RULESET.resolve(a.Attack("brad", "alex"), _table(), ScriptedRoller([3, 5]), narrow)
    assert "waiting" not in out.details and out.result == 2


def _landed() -> State:
    """The example's third round: Brad's axe (result 5 against a moving Alex) lands."""
    state, hit = _do(_table(), a.Attack("brad", "alex", moving=True), 6, 3)
    assert hit.result == 5
    state, _ = _do(state, a.Accept("brad"))
    state, _ = _do(state, a.TakeBlow("alex"))
    return state


def _brute_force_push(result: int, damage: int, strength: int, roll: int) -> Counter[Pushed]:
    """Every face of the push die on a damage roll of ``roll`` (plus - minus): 1 adds
    nothing, 2-5 add 1 and cost the pusher a level of shock, 6 adds 1 for free; Alex's
    Toughness 5, chain 4 (wound) / 2 (shock)."""
    out: Counter[Pushed] = Counter()
    for die in range(1, 7):
        bonus, cost = (0, 0) if die == 1 else (1, 1) if die <= 5 else (1, 0)
        total = result + damage + strength + roll + bonus
        wound_margin, shock_margin = total - 5 - 4, total - 5 - 2
        wound = TEXT_DAMAGE[min(wound_margin, 11)][0] if wound_margin >= 0 else 0
        shock = TEXT_DAMAGE[min(shock_margin, 11)][1] if shock_margin >= 0 else 0
        out[Pushed(Levels(wound, shock, wound_margin >= 16), cost)] += 1
    return out


def test_the_attackers_damage_roll_is_offered_a_push() -> None:
    """The example's axe blow: 5 + 7 + 1 (Strength) + 2 - 2 = 13; wound side 13 - 5 - 4 = 4
    (Moderate), shock side 13 - 5 - 2 = 6 (Giddy). It is Brad's roll, so he may push it."""
    state = _landed()
    state, held = _do(state, a.Strike("brad", damage=7), 2, 2)
    assert held.details["waiting"] and held.result == 4
    assert (state.pending[0].actor, state.pending[0].choices) == ("brad", ("push", "accept"))
    with pytest.raises(IllegalAction, match=r"no roll of alex's waits .*waiting: brad"):
        RULESET.odds(a.Push("alex"), state, PUSHING)  # not the defender's roll
    odds = RULESET.odds(a.Push("brad"), state, PUSHING)
    brute = _brute_force_push(5, 7, 1, 0)
    assert odds.total == 6 and sum(brute.values()) == 6
    assert {k: odds.probability(k) for k in brute} == {k: Fraction(n, 6) for k, n in brute.items()}
    after, kept = _do(state, a.Accept("brad"))
    assert (kept.details["total"], kept.details["wound_label"], kept.details["shock_label"]) == (
        13,
        "Moderate",
        "Giddy",
    )
    assert (after.characters["alex"].wound, after.characters["alex"].shock) == (2, 2)
    assert after.attacks == () and after.pending == ()
    after, pushed = _do(state, a.Push("brad"), 3)  # +1 for a level of shock on Brad
    assert (pushed.details["total"], pushed.details["shock_label"]) == (14, "Fainting")
    assert after.characters["brad"].shock == 1 and after.characters["alex"].shock == 4


def test_a_blow_by_the_numbers_is_pushed_only_by_a_named_attacker() -> None:
    """A fall or a trap (no actor) is nobody's own roll: nothing is offered."""
    state, fall = _do(_table(), a.Damage("alex", 3, damage=6), 2, 2)
    assert "waiting" not in fall.details and not held_rolls(state)
    _, blow = _do(_table(), a.Damage("alex", 3, "brad", damage=6), 2, 2)
    assert blow.details["waiting"]
