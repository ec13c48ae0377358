"""The Ruleset contract for ARM: registry, actions, pushing, the round and the state."""

from __future__ import annotations

from fractions import Fraction

import pytest

from referee.dice.roller import ManualRoller, ScriptedRoller
from referee.systems.arm import RULESET
from referee.systems.arm import RULESET as ARM
from referee.systems.arm import actions as a
from referee.systems.arm.options import Options
from referee.systems.arm.rolls import Pushed
from referee.systems.arm.sheet import Sheet
from referee.systems.arm.state import State
from referee.systems.base import IllegalAction, RulesError, Ruleset, describe_options, get

PUSHING = Options(pushing=True)


def _table(options: Options = PUSHING) -> State:
    state = RULESET.initial_state(options)
    for cid, sheet in RULESET.examples().items():
        state = RULESET.seat(state, cid, sheet, options)
    return RULESET.seat(state, "x", Sheet(name="x", stats={}), options)


def test_registered_and_typed() -> None:
    assert get("arm") is RULESET and isinstance(RULESET, Ruleset)
    names = set(RULESET.actions())
    assert {"task", "attack", "defend", "circle", "strike", "damage", "push", "accept"} <= names
    assert {"next-round", "subtasks", "record-wound", "shoot", "cast", "group-task"} <= names
    assert all(n == n.lower() and " " not in n and "_" not in n for n in names)
    assert {o["name"] for o in describe_options(RULESET.options_type)} >= {"pushing", "log_method"}
    assert RULESET.validate(ARM.example("alex"), Options()) == ()
    assert set(RULESET.examples()) == {"alex", "brad", "christine"}


def test_pushing_is_off_until_the_referee_allows_it() -> None:
    task = a.Task("x", 6, total=8, push="always")
    with pytest.raises(IllegalAction, match="pushing is switched off"):
        RULESET.resolve(task, _table(Options()), ManualRoller([6, 1, 4]), Options())
    # asking (the default) simply never pushes at a table without pushing
    out = RULESET.resolve(
        a.Task("x", 6, total=8), _table(Options()), ScriptedRoller([1, 6]), Options()
    )
    assert out.result == -3 and not out.changes


def test_a_declared_push_resolves_and_its_odds_agree() -> None:
    task = a.Task("brad", 6, "Fitness", push="always")
    o = RULESET.resolve(task, _table(), ManualRoller([6, 1, 4]), PUSHING)
    assert o.result == 8 and o.manual
    assert [(c.target, c.field, c.delta) for c in o.changes] == [("brad", "shock", 1)]
    dist = RULESET.odds(task, _table(), PUSHING)
    assert dist.probability(Pushed(8, 1)) == Fraction(4, 216)
    assert dist.probability(Pushed(8, 0)) == Fraction(1, 216)


def test_a_failed_roll_waits_for_the_push_decision() -> None:
    """ARM 1.2, Pushing: the push is decided after the roll, if a success is really needed."""
    state = _table()
    roll = RULESET.resolve(a.Task("brad", 6, "Fitness"), state, ScriptedRoller([1, 4]), PUSHING)
    assert roll.result == -1 and roll.details["waiting"] and roll.success is None
    state = RULESET.apply(state, roll)
    held = state.characters["brad"].held
    assert held is not None and held.result == -1 and state.held is None
    assert [(d.actor, d.choices, d.holds) for d in state.pending] == [
        ("brad", ("push", "accept"), "actor")
    ]
    # the held roll holds only its roller: Brad's next roll waits, Alex rolls, time moves
    with pytest.raises(IllegalAction, match="waiting for Brad"):
        RULESET.resolve(a.Task("brad", 6, "Wit"), state, ScriptedRoller([1, 1]), PUSHING)
    RULESET.resolve(a.Task("alex", 6, "Wit"), state, ScriptedRoller([1, 1]), PUSHING)
    RULESET.resolve(a.NextRound(), state, ScriptedRoller([]), PUSHING)
    with pytest.raises(IllegalAction, match=r"no roll of alex's waits .*waiting: brad"):
        RULESET.resolve(a.Push("alex"), state, ScriptedRoller([3]), PUSHING)
    pushed = RULESET.resolve(a.Push("brad"), state, ScriptedRoller([3]), PUSHING)
    assert (pushed.result, pushed.success, pushed.label) == (0, True, "Draw")
    assert (pushed.details["plus"], pushed.details["minus"], pushed.details["push"]) == (1, 4, 3)
    after = RULESET.apply(state, pushed)
    assert after.characters["brad"].held is None and after.pending == ()
    assert after.characters["brad"].shock == 1
    kept = RULESET.resolve(a.Accept("brad"), state, ScriptedRoller([]), PUSHING)
    assert (kept.result, kept.success) == (-1, False) and not kept.faces
    assert RULESET.apply(state, kept).characters["brad"].shock == 0
    # a success is held too by default ("or a better result"), not with push_offer = failure
    assert RULESET.resolve(
        a.Task("brad", 6, "Fitness"), _table(), ScriptedRoller([4, 4]), PUSHING
    ).details["waiting"]
    failures = Options(pushing=True, push_offer="failure")
    ok = RULESET.resolve(a.Task("brad", 6, "Fitness"), _table(), ScriptedRoller([4, 4]), failures)
    assert ok.success and "waiting" not in ok.details


def test_a_held_attack_settles_into_the_melee_sequence() -> None:
    """A pushed attack that turns a miss into a hit then waits for the defence."""
    state = _table()
    miss = RULESET.resolve(a.Attack("brad", "alex"), state, ScriptedRoller([1, 6]), PUSHING)
    state = RULESET.apply(state, miss)
    assert state.attacks == () and state.characters["brad"].held is not None
    hit = RULESET.resolve(a.Push("brad"), state, ScriptedRoller([6]), PUSHING)
    state = RULESET.apply(state, hit)
    assert hit.result == 0 and state.attacks[0].result == 0
    assert [(d.actor, d.choices) for d in state.pending] == [("alex", ("defend", "take-blow"))]


def test_a_pushed_blow_costs_the_attacker() -> None:
    blow = a.Damage("alex", 5, "brad", damage=7, push="always")
    hit = RULESET.resolve(blow, _table(), ScriptedRoller([2, 2, 5]), PUSHING)
    assert hit.details["total"] == 14 and hit.details["shock_label"] == "Fainting"
    assert ("brad", "shock", 1) in [(c.target, c.field, c.delta) for c in hit.changes]
    odds = RULESET.odds(blow, _table(), PUSHING)
    assert odds.total == 216
    assert odds.map(lambda p: p.shock).probability(1) == Fraction(4, 6)  # type: ignore[attr-defined]


def test_a_movement_push() -> None:
    move = a.Move(rate=5, push=True, round_length="3s", unit="ft")
    push = RULESET.odds(move, _table(), PUSHING)
    assert push.probability(Pushed(6, 1)) == Fraction(4, 6)
    o = RULESET.resolve(move, _table(), ScriptedRoller([6]), PUSHING)
    assert (o.result, o.details["distance"]) == (6, 150)


def test_the_state_survives_json_and_replays() -> None:
    state = _table()
    state = RULESET.apply(
        state, RULESET.resolve(a.Attack("brad", "alex"), state, ScriptedRoller([6, 1]), PUSHING)
    )
    assert state.characters["brad"].held is not None  # Brad's hit: his to push or accept
    assert RULESET.load_state(RULESET.dump_state(state)) == state
    state = RULESET.apply(
        state, RULESET.resolve(a.Accept("brad"), state, ScriptedRoller([]), PUSHING)
    )
    data = RULESET.dump_state(state)
    assert RULESET.load_state(data) == state
    assert data["attacks"][0]["stage"] == "incoming"  # type: ignore[index]


def test_end_combat_is_always_allowed_and_clears_the_round() -> None:
    state = _table()
    state = RULESET.apply(state, RULESET.resolve(a.NextRound(), state, ScriptedRoller([]), PUSHING))
    state = RULESET.apply(
        state, RULESET.resolve(a.Attack("brad", "alex"), state, ScriptedRoller([6, 1]), PUSHING)
    )
    assert state.pending
    end = RULESET.resolve(a.EndCombat(), state, ScriptedRoller([]), PUSHING)
    after = RULESET.apply(state, end)
    assert after.round == 0 and after.attacks == () and after.pending == ()
    assert after.characters["brad"].acted == ()


@pytest.mark.parametrize(
    "bad",
    [
        {"log_method": "slide rule"},
        {"group_count": "everyone"},
        {"group_method": "vote"},
        {"push_offer": "never"},
        {"push_when_needed": "always"},
        {"pushing": "yes"},
        {"stun_shift": -1},
        {"stun_shift": 9},
        {"max_wounds": 10**9},
        {"destroyed_at": -5},
        {"circling_bonus": 2.5},
        {"berserk_penalty": True},
    ],
)
def test_options_refuse_values_the_rules_cannot_use(bad: dict[str, object]) -> None:
    with pytest.raises(RulesError, match="option"):
        Options(**bad)  # type: ignore[arg-type]


def test_every_option_is_documented_with_its_default() -> None:
    """docs/arm.md's option table names every field of Options with its default."""
    from dataclasses import fields
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "arm.md").read_text(encoding="utf-8")
    rows = {
        line.split("|")[1].strip(" `"): line.split("|")[2].strip(" `")
        for line in docs.splitlines()
        if line.startswith("| `")
    }
    for f in fields(Options):
        assert f.metadata["doc"]
        default = str(f.default).lower() if isinstance(f.default, bool) else str(f.default)
        assert rows.get(f.name, "").replace("−", "-") == default, f.name


def test_a_held_roll_is_accepted_by_its_rollers_next_roll_when_the_table_says_so() -> None:
    """Option accept_on_next (issue 32): moving on to another roll is electing not to push."""
    options = Options(pushing=True, accept_on_next=True)
    state = _table()
    first = RULESET.resolve(a.Task("brad", 6, "Fitness"), state, ScriptedRoller([1, 4]), options)
    state = RULESET.apply(state, first)
    assert state.characters["brad"].held is not None
    # Brad's Fitness 8: 8 + 1 - 4 - 6 = -1 held; his next roll accepts it (no shock) first
    second = RULESET.resolve(
        a.Task("brad", 6, "Fitness", push="never"), state, ScriptedRoller([6, 1]), options
    )
    accepted = {"action": "task", "result": -1, "label": "Partial failure"}
    assert second.details["accepted"] == accepted
    assert (second.result, second.success) == (7, True)  # 8 + 6 - 1 - 6
    after = RULESET.apply(state, second)
    assert after.characters["brad"].held is None and after.pending == ()
    # without the option the next roll waits, as before
    with pytest.raises(IllegalAction, match="waiting for Brad"):
        RULESET.resolve(a.Task("brad", 6, "Fitness"), state, ScriptedRoller([6, 1]), PUSHING)
