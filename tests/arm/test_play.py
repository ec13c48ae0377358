"""Play at a table: the round, circling, counter-blows, pushing after the roll, group efforts,
subtasks, named wounds, ranged shots and magic, each with the text's numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.roller import ScriptedRoller
from referee.systems.arm import RULESET
from referee.systems.arm import actions as a
from referee.systems.arm.combat import may_defend, round_problems
from referee.systems.arm.options import Options
from referee.systems.arm.rolls import Pushed
from referee.systems.arm.scale import group_log
from referee.systems.arm.sheet import Mod, Sheet
from referee.systems.base import Action, IllegalAction, Outcome

STATS = {"Fitness": 6, "Dexterity": 6, "Toughness": 6, "Wit": 6, "Charisma": 6, "Willpower": 6}


class Table:
    def __init__(self, options: Options | None = None, **extra: Sheet) -> None:
        self.options = options or Options()
        self.state = RULESET.initial_state(self.options)
        for cid, sheet in {**RULESET.examples(), **extra}.items():
            self.state = RULESET.seat(self.state, cid, sheet, self.options)

    def do(self, action: Action, *faces: int) -> Outcome:
        roller = ScriptedRoller(faces)
        outcome = RULESET.resolve(action, self.state, roller, self.options)
        roller.assert_exhausted()
        self.state = RULESET.apply(self.state, outcome)
        return outcome

    def refuses(self, action: Action, match: str) -> None:
        with pytest.raises(IllegalAction, match=match):
            RULESET.odds(action, self.state, self.options)


# ---------------------------------------------------------------------------
# the 2-second round and one action per round (ARM 1.2, Combat (Melee))


def test_the_round_is_two_seconds_and_each_combatant_acts_once() -> None:
    t = Table()
    assert (t.state.round, t.state.round_length) == (0, "2s")
    assert t.do(a.NextRound()).label == "round 1"
    t.do(a.Attack("brad", "alex"), 1, 6)  # a miss: 8 - 5 - 4 = -1
    t.refuses(a.Attack("brad", "christine"), "one action per round")
    t.refuses(a.Move("brad"), "one action per round")
    # both attack in the same round: neither gets a defence roll
    t.do(a.Attack("alex", "brad"), 6, 1)
    assert t.state.attacks[0].stage == "landed"
    t.do(a.Strike("alex"), 1, 1)
    t.do(a.NextRound(length="10min"))
    assert (t.state.round, t.state.round_length) == (2, "10min")
    assert all(seat.acted == () for seat in t.state.characters.values())
    # without a round running there is no one-action rule
    t.do(a.EndCombat())
    t.do(a.Attack("brad", "alex"), 1, 6)
    t.do(a.Attack("brad", "christine"), 1, 6)


def test_circling_prepares_a_defence_so_circle_then_defend_is_allowed() -> None:
    """'An opponent may circle (automatically preparing a defense)': after circling,
    Christine still defends, at the prepared 2 + the attack's result, and her circling's
    +1 to attack next round stands."""
    assert may_defend(["circle"]) and may_defend(["prepare"]) and not may_defend(["attack"])
    assert round_problems({"Christine": ["circle", "defend"], "Alex": ["attack"]}) == ()
    assert [p.field for p in round_problems({"C": ["circle", "defend", "defend"]})] == ["C"]
    t = Table()
    t.do(a.NextRound())
    circle = t.do(a.Circle("christine", "alex"), 3, 1)  # Wit 6 + 2 against Wit 7: +1
    assert circle.success and t.state.characters["christine"].prepared
    t.do(a.Attack("alex", "christine"), 4, 1)  # Fitness 6 + 3 - 4: result 5
    assert [(d.actor, d.choices) for d in t.state.pending] == [
        ("christine", ("defend", "take-blow"))
    ]
    parry = t.do(a.Defend("christine", how="parry", mods=("Rapiers",)), 3, 3)
    assert parry.target == 2 + 5  # prepared: 2, not 4
    assert parry.details["prepared"] is True
    assert parry.details["base"] == 7 + 2 + 1  # Fitness, Rapiers, the rapier's parry
    assert t.state.characters["christine"].acted == ("circle", "defend")
    t.do(a.NextRound())
    lunge = t.do(a.Attack("christine", "alex", mods=("Rapiers",)), 1, 1)
    assert ("circling", 1) in [(m.source, m.value) for m in lunge.modifiers]
    assert lunge.details["base"] == 7 + 2 + 1 + 1


def test_a_counter_blow_defends_at_six_then_strikes_back() -> None:
    t = Table()
    t.do(a.NextRound())
    t.do(a.Attack("brad", "christine"), 3, 3)  # result 4
    t.refuses(a.Attack("christine", "brad", style="counter-blow"), "waiting for Christine")
    counter = t.do(a.Defend("christine", counter=True), 6, 1)
    assert counter.target == 6 + 4 and counter.result == 7 + 5 - 10
    back = t.do(a.Attack("christine", "brad", style="counter-blow"), 4, 4)
    assert back.target == 4 and t.state.attacks[0].stage == "landed"  # Brad attacked: no defence
    assert t.state.characters["christine"].acted == ("counter-defence", "counter-blow")
    t.do(a.Strike("christine"), 3, 3)
    t.do(a.NextRound())
    t.do(a.Attack("alex", "brad"), 3, 3)
    t.do(a.TakeBlow("brad"))
    t.do(a.Strike("alex"), 1, 6)
    t.refuses(a.Attack("brad", "alex", style="counter-blow"), "follows a counter-blow defence")


def test_a_berserk_attack_costs_the_next_round() -> None:
    """Berserker attack 3 (the +1), and -2 to any action next round."""
    t = Table()
    t.do(a.NextRound())
    rush = t.do(a.Attack("brad", "alex", style="berserk"), 3, 3)
    assert rush.target == 3 and t.state.characters["brad"].next_penalty == -2
    t.do(a.TakeBlow("alex"))
    t.do(a.Strike("brad"), 1, 6)
    t.do(a.NextRound())
    task = t.do(a.Task("brad", 6, "Fitness"), 3, 3)
    assert task.details["base"] == 8 - 2 and ("penalty this round", -2) in [
        (m.source, m.value) for m in task.modifiers
    ]
    t.do(a.NextRound())
    assert t.state.characters["brad"].penalty == 0


# ---------------------------------------------------------------------------
# pushing, decided after the roll (ARM 1.2, Pushing)


def test_pushing_when_needed_counts_the_shock_only_when_needed() -> None:
    """Total 8 against 6: 'if a character really needs a success' - the push is made only
    on a failed roll, so it costs shock 1/9 of the time for the same 65/72 success as
    pushing every roll (which costs 2/3)."""
    opts = Options(pushing=True)
    t = Table(opts, x=Sheet(name="x", stats={}))
    task = a.Task("x", 6, total=8)
    needed = RULESET.odds(a.Task("x", 6, total=8, push="if-needed"), t.state, opts)
    every = RULESET.odds(a.Task("x", 6, total=8, push="always"), t.state, opts)
    for dist in (needed, every):
        assert dist.probability_where(lambda o: o.result >= 0) == Fraction(65, 72)  # type: ignore[attr-defined]
    assert needed.probability_where(lambda o: o.shock == 1) == Fraction(1, 9)  # type: ignore[attr-defined]
    assert every.probability_where(lambda o: o.shock == 1) == Fraction(2, 3)  # type: ignore[attr-defined]
    assert RULESET.odds(task, t.state, opts).probability_where(lambda r: r >= 0) == Fraction(5, 6)  # type: ignore[operator]
    # rolling when needed: a good roll rolls two dice, a failed one the push die too
    assert t.do(a.Task("x", 6, total=8, push="if-needed"), 4, 4).details.get("push") is None
    pushed = t.do(a.Task("x", 6, total=8, push="if-needed"), 1, 4, 2)
    assert (pushed.result, pushed.details["shock_cost"]) == (0, 1)
    assert t.state.characters["x"].shock == 1
    saveable = Options(pushing=True, push_when_needed="saveable")
    hopeless = RULESET.resolve(
        a.Task("x", 6, total=8, push="if-needed"), t.state, ScriptedRoller([1, 6]), saveable
    )
    assert hopeless.result == -3 and "push" not in hopeless.details


def test_the_push_decision_after_a_failed_defence() -> None:
    """Alex dodges Christine's lunge and fails by one: he may push that roll."""
    opts = Options(pushing=True)
    t = Table(opts)
    t.do(a.Attack("christine", "alex", mods=("Rapiers",)), 3, 4)  # result 5 (no circling)
    t.do(a.Accept("christine"))  # her hit is offered a push too (a better result): kept
    failed = t.do(a.Defend("alex", prepared=True), 4, 4)  # 6 + 0 against 7: -1
    assert failed.details["waiting"] and failed.result == -1
    assert (t.state.pending[0].actor, t.state.pending[0].choices) == ("alex", ("push", "accept"))
    dodged = t.do(a.Push("alex"), 6)
    assert (dodged.action, dodged.result, dodged.success) == ("defend", 0, True)
    assert t.state.attacks == () and t.state.pending == ()
    assert t.state.characters["alex"].shock == 0  # a 6 costs nothing
    assert Pushed(0, 1) in RULESET.odds(a.Defend("alex", push="always"), _incoming(), opts)


def _incoming() -> object:
    t = Table(Options(pushing=True))
    t.do(a.Attack("christine", "alex", mods=("Rapiers",)), 3, 4)
    t.do(a.Accept("christine"))
    return t.state


def test_a_push_costs_shock_only_up_to_unconscious() -> None:
    opts = Options(pushing=True)
    t = Table(opts)
    t.do(a.TakeDamage("brad", shock=4))  # Fainting: the push's shock takes him to 5
    out = t.do(a.Task("brad", 6, "Fitness", push="always"), 3, 3, 3)
    assert out.details["shock_cost"] == 1
    assert t.state.characters["brad"].shock == 5
    t.do(a.TakeDamage("brad", shock=3))  # levels stop at Unconscious
    assert t.state.characters["brad"].shock == 5
    # and Unconscious, he pushes no more: he takes no action at all (issue 41)
    with pytest.raises(IllegalAction, match="Brad is Unconscious and cannot act"):
        t.do(a.Task("brad", 6, "Fitness", push="always"), 3, 3, 3)


# ---------------------------------------------------------------------------
# group efforts (ARM 1.2, Task Resolution)


def test_a_pair_at_six() -> None:
    """Two people at log 6: the shortcut adds the log of 2 (2), so 8; adding the measures
    (15 + 15 = 30) gives log 7 by the chart (and 8 by the exact formula)."""
    assert group_log([6, 6]) == (8, "lowest log + log of 2")
    assert group_log([6, 6], way="sum") == (7, "sum of measures")
    assert group_log([6, 6], way="sum", method="exact")[0] == 8
    assert group_log([6, 6], count="helpers")[0] == 6  # the text's 'other helpers'


@settings(max_examples=60)
@given(st.lists(st.integers(-8, 14), min_size=1, max_size=7), st.randoms(use_true_random=False))
def test_a_group_effort_depends_only_on_who_takes_part(values: list[int], rnd: object) -> None:
    shuffled = list(values)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    for way in ("shortcut", "sum"):
        for count in ("total", "helpers"):
            first = group_log(values, way=way, count=count)  # type: ignore[arg-type]
            assert group_log(shuffled, way=way, count=count) == first  # type: ignore[arg-type]


def test_a_group_task_is_the_same_whoever_rolls_for_it() -> None:
    extra = {
        f"p{i}": Sheet(name=f"P{i}", stats={**STATS, "Fitness": v}) for i, v in enumerate((6, 7, 7))
    }
    t = Table(**extra)
    orders = [("p0", ("p1", "p2")), ("p1", ("p2", "p0")), ("p2", ("p0", "p1"))]
    dists = [
        RULESET.odds(a.GroupTask(who, rest, difficulty=9), t.state, t.options)
        for who, rest in orders
    ]
    assert dists[0] == dists[1] == dists[2]
    out = t.do(a.GroupTask("p2", ("p1", "p0"), difficulty=9), 3, 3)
    assert out.details["combined"] == 6 + 2 and out.details["values"] == [7, 7, 6]  # 6 + log 3
    t.refuses(a.GroupTask("p0", ("p0",)), "once")


# ---------------------------------------------------------------------------
# subtasks, helper tasks, contests (ARM 1.2, Task Resolution)


def test_a_program_is_only_as_good_as_its_worst_subtask() -> None:
    coder = Sheet(name="Coder", stats=STATS, mods=(Mod("Programming", 2),))
    t = Table(coder=coder)
    parts = (
        a.Subtask("Wit", 4, ("Programming",)),  # analysis: 8 against 4
        a.Subtask("Wit", 5, ("Programming",)),  # coding
        a.Subtask("Dexterity", 4),  # debugging
    )
    out = t.do(a.Subtasks("coder", parts), 3, 2, 1, 4, 5, 5)
    assert [p["result"] for p in out.details["parts"]] == [5, 0, 2]  # type: ignore[index]
    assert (out.result, out.label, out.success) == (0, "Draw", True)
    research = t.do(a.Task("coder", 8, "Wit", ("Programming",), helper=3), 1, 1)
    assert research.details["base"] == 8 + 3  # a large-effect helper adds its result


# ---------------------------------------------------------------------------
# damage, named wounds (ARM 1.2, Damage)


def test_named_wounds_at_most_five() -> None:
    t = Table(Options(record_wounds=True))
    t.refuses(a.RecordWound("alex", "  "), "description")
    for i in range(4):
        t.do(a.RecordWound("alex", f"cut {i}", 1))
    t.do(a.Attack("brad", "alex"), 6, 1)
    t.do(a.TakeBlow("alex"))
    t.do(a.Strike("brad", wound_name="shattered shoulder"), 4, 1)
    wounds = t.state.characters["alex"].wounds
    assert len(wounds) == 5 and wounds[-1].description == "shattered shoulder"
    assert wounds[-1].level == t.state.characters["alex"].wound
    t.refuses(a.RecordWound("alex", "one too many"), "at most 5")
    t.do(a.RemoveWound("alex", 0))
    assert t.state.characters["alex"].wounds[0].description == "cut 1"
    Table().refuses(a.RecordWound("alex", "ankle"), "not recorded")


def test_levels_add_and_stop_at_five() -> None:
    """'A moderately wounded character (2) who took a severe wound (3) would be dead';
    'a dazed (1) character who took a giddy blow (2) would be Reeling'."""
    t = Table()
    t.do(a.TakeDamage("alex", wound=2, shock=1))
    after = t.do(a.TakeDamage("alex", wound=3, shock=2))
    assert after.label == "alex: Dead, Reeling"
    t.do(a.TakeDamage("alex", shock=4))
    assert (t.state.characters["alex"].wound, t.state.characters["alex"].shock) == (5, 5)
    t.do(a.Recover("alex", wound=1, shock=9 - 4))
    assert (t.state.characters["alex"].wound, t.state.characters["alex"].shock) == (4, 0)


def test_a_mental_blow_and_a_stunning_fist() -> None:
    t = Table()
    mental = t.do(a.Damage("brad", 3, damage=6, ignore="wound"), 6, 1)  # 3 + 6 + 5 - 8 = 6
    assert (mental.details["wound"], mental.details["shock_label"]) == (0, "Giddy")
    fist = t.do(a.Damage("christine", 1, "brad", weapon="Fist"), 6, 1)  # 1 + 1 + 1 + 5 - 6 = 2
    assert fist.details["shock_margin"] == 2 and fist.details["wound_margin"] == 0
    assert (fist.details["wound"], fist.details["shock"]) == (0, 2)  # (0, 1) moved to shock


# ---------------------------------------------------------------------------
# ranged combat and magic (ARM 1.2, Combat (Ranged), Magic)


def test_a_long_bow_shot_at_100_metres() -> None:
    """Dexterity 7 + accuracy 15 against 4 + twice log 10; the long bow reaches FIT + 7."""
    t = Table()
    shot = t.do(a.Shoot("alex", "Long bow", 10, target="brad"), 5, 3)
    assert (shot.details["base"], shot.target, shot.result) == (22, 24, 0)
    assert t.state.attacks[0].stage == "landed"  # arrows cannot be dodged
    arrow = t.do(a.Strike("alex"), 3, 3).details
    assert arrow["total"] == 0 + 5 and arrow["margin"] == 5 - 8
    t.refuses(a.Shoot("alex", "Long bow", 14), "reaches log distance 13")
    assert RULESET.plan(a.Shoot("brad", "Long bow", 15), t.state, t.options) is not None


def test_the_fire_ball_is_cast_then_flung() -> None:
    wizard = Sheet(name="W", stats=STATS, mods=(Mod("Magically Able", 1, "special"),))
    t = Table(wizard=wizard)
    t.refuses(a.Shoot("wizard", "Fire-ball", 20, target="brad"), "cast it first")
    t.refuses(a.Cast("wizard", "Fire-ball", "Charisma"), "Wit or Willpower")
    cast = t.do(a.Cast("wizard", "Fire-ball"), 4, 3)
    assert (cast.target, cast.result) == (7, 0) and t.state.characters["wizard"].readied
    t.do(a.NextRound())
    t.do(a.Cast("wizard", "Fire-ball"), 6, 1)
    fling = t.do(a.Shoot("wizard", "Fire-ball", 20, target="brad"), 6, 1)  # in the same round
    assert (fling.details["base"], fling.target) == (6 + 20, 4 + 40)
    assert t.state.characters["wizard"].readied == ""
    t.do(a.NextRound())
    soul = t.do(a.SoulMagic("wizard", "move"), 6, 1)  # Willpower 6 + 1 + 5 - 4 = 8
    assert (soul.result, soul.details["metres"]) == (8, 40)
    Table().refuses(a.SoulMagic("alex", "move"), "Magically Able")


def test_a_push_and_the_blow_it_pushes_stop_at_unconscious_together() -> None:
    """A character who pushes a blow on itself: the exertion and the blow add to 5 at most."""
    t = Table(Options(pushing=True))
    out = t.do(a.Damage("alex", 10, "alex", damage=5, push="always"), 6, 1, 3)
    assert out.details["shock_cost"] == 1 and t.state.characters["alex"].shock == 5
    assert sum(c.delta or 0 for c in out.changes if c.field == "shock") == 5


def test_a_refusal_names_the_characters_by_their_names() -> None:
    """A refusal is read by people: it names the characters as their sheets do, never by
    their ids (ARM 1.2, Combat (Melee): the GM takes a round's action away once)."""
    t = Table()
    t.do(a.NextRound())
    t.do(a.LoseAction("brad"))
    t.refuses(a.LoseAction("brad"), "^Brad has already lost this round's action$")
    t.refuses(a.RemoveWound("brad", 3), "^Brad has 0 named wound")
