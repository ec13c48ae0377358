"""ARM keeps the contract: every action type, generated against the example characters,
resolves, round-trips through JSON, applies the same live or replayed, and its odds sum to 1
and equal the brute force of the same dice program. Also the generic command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.roller import ScriptedRoller, SeededRoller
from referee.systems.arm import RULESET
from referee.systems.arm import actions as a
from referee.systems.arm.options import Options
from referee.systems.arm.sheet import Mod, Sheet
from referee.systems.arm.state import Attack, State, held_rolls
from referee.systems.base import Action, IllegalAction, Outcome
from referee.systems.conformance import check_action, replay

OPTIONS = Options(pushing=True, record_wounds=True)
FIGHTERS = ("alex", "brad", "christine")
MODS = {"alex": ("Swords",), "brad": ("Strength",), "christine": ("Rapiers",), "wizard": ()}
STATS = ("Fitness", "Dexterity", "Toughness", "Wit", "Charisma", "Willpower")
PUSH = st.sampled_from(["ask", "never", "always", "if-needed"])
MOD = st.integers(-3, 3)
WIZARD = Sheet(
    name="Wizard",
    stats=dict.fromkeys(STATS, 6),
    movement={"Run": 4, "Walk": 1},
    mods=(Mod("Magically Able", 1, "special"),),
)


def table(round_: int = 0) -> State:
    state = RULESET.initial_state(OPTIONS)
    for cid, sheet in RULESET.examples().items():
        state = RULESET.seat(state, cid, sheet, OPTIONS)
    state = RULESET.seat(state, "wizard", WIZARD, OPTIONS)
    return replace(state, round=round_)


def _pair(draw: st.DrawFn) -> tuple[str, str]:
    actor = draw(st.sampled_from(FIGHTERS))
    return actor, draw(st.sampled_from([c for c in FIGHTERS if c != actor]))


def _mods(draw: st.DrawFn, who: str) -> tuple[str, ...]:
    return tuple(draw(st.lists(st.sampled_from(MODS[who]), max_size=1))) if MODS[who] else ()


def _waiting(stage: str, kind: str = "melee") -> State:
    weapon = "Axe" if kind == "melee" else "Long bow"
    attack = Attack("brad", "alex", 2, weapon, kind, stage, dodgeable=kind == "melee")  # type: ignore[arg-type]
    state = replace(table(), attacks=(attack,))
    return RULESET.apply(state, _settle(state))


def _settle(state: State) -> Outcome:
    """An outcome whose only change is bringing ``pending`` up to date."""
    return RULESET.resolve(a.LogOf("1"), replace(state, pending=()), ScriptedRoller([]), OPTIONS)


def _held() -> State:
    state = table()
    out = RULESET.resolve(a.Task("brad", 12, "Fitness"), state, ScriptedRoller([1, 1]), OPTIONS)
    return RULESET.apply(state, out)


Build = Callable[[st.DrawFn], tuple[State, Action]]


@st.composite
def _task(draw: st.DrawFn) -> tuple[State, Action]:
    who = draw(st.sampled_from(FIGHTERS))
    melee = draw(st.sampled_from([None, "attack", "parry", "dodge"]))
    stat = None if melee else draw(st.sampled_from(STATS))
    return table(), a.Task(
        who,
        draw(st.integers(-5, 20)),
        stat,
        _mods(draw, who),
        modifier=draw(MOD),
        melee=melee,
        helper=draw(st.none() | st.integers(-5, 5)),
        push=draw(PUSH),
        round_action=draw(st.booleans()),
    )


@st.composite
def _contest(draw: st.DrawFn) -> tuple[State, Action]:
    actor, other = _pair(draw)
    stats = st.sampled_from(STATS)
    return table(), a.Contest(
        actor, other, draw(stats), draw(stats), modifier=draw(MOD), push=draw(PUSH)
    )


@st.composite
def _subtasks(draw: st.DrawFn) -> tuple[State, Action]:
    parts = draw(
        st.lists(
            st.builds(a.Subtask, st.sampled_from(STATS), st.integers(0, 12)), min_size=1, max_size=3
        )
    )
    return table(), a.Subtasks(draw(st.sampled_from(FIGHTERS)), tuple(parts))


@st.composite
def _group(draw: st.DrawFn) -> tuple[State, Action]:
    members = draw(st.permutations(FIGHTERS))
    k = draw(st.integers(1, 3))
    return table(), a.GroupTask(
        members[0], tuple(members[1:k]), draw(st.sampled_from(STATS)), push=draw(PUSH)
    )


@st.composite
def _melee(draw: st.DrawFn) -> tuple[State, Action]:
    actor, other = _pair(draw)
    kind = draw(st.sampled_from(["prepare", "circle", "attack"]))
    state = table(draw(st.integers(0, 2)))
    if kind == "prepare":
        return state, a.Prepare(actor)
    if kind == "circle":
        return state, a.Circle(actor, other, modifier=draw(MOD), push=draw(PUSH))
    style = draw(st.sampled_from(["normal", "berserk"]))
    return state, a.Attack(
        actor,
        other,
        style,
        draw(st.booleans()),
        draw(st.integers(-2, 2)),
        mods=_mods(draw, actor),
        push=draw(PUSH),
    )


@st.composite
def _defend(draw: st.DrawFn) -> tuple[State, Action]:
    how = draw(st.sampled_from(["dodge", "parry"]))
    return _waiting("incoming"), a.Defend(
        "alex",
        how=how,
        counter=draw(st.booleans()),
        prepared=draw(st.none() | st.booleans()),
        push=draw(PUSH),
    )


@st.composite
def _take_blow(draw: st.DrawFn) -> tuple[State, Action]:
    return _waiting("incoming"), a.TakeBlow("alex", draw(st.sampled_from([None, "brad"])))


@st.composite
def _strike(draw: st.DrawFn) -> tuple[State, Action]:
    kind = draw(st.sampled_from(["melee", "ranged"]))
    name = draw(st.sampled_from(["", "a gash"]))
    return _waiting("landed", kind), a.Strike(
        "brad", damage=draw(st.none() | st.integers(0, 12)), push=draw(PUSH), wound_name=name
    )


@st.composite
def _damage(draw: st.DrawFn) -> tuple[State, Action]:
    actor = draw(st.sampled_from([None, *FIGHTERS]))
    weapon = draw(st.sampled_from([None, "Fist", "Handgun"])) if actor else None
    return table(), a.Damage(
        draw(st.sampled_from(FIGHTERS)),
        draw(st.integers(0, 10)),
        actor,
        weapon,
        damage=draw(st.integers(0, 12)) if actor is None else None,
        stun=draw(st.none() | st.booleans()),
        ignore=draw(st.sampled_from([None, "wound", "shock"])),
        push=draw(PUSH) if actor else "ask",
    )


@st.composite
def _shoot(draw: st.DrawFn) -> tuple[State, Action]:
    actor, other = _pair(draw)
    weapon = draw(st.sampled_from(["Long bow", "Handgun", "Burst-laser rifle"]))
    return table(), a.Shoot(
        actor,
        weapon,
        draw(st.integers(-3, 12)),
        draw(st.none() | st.just(other)),
        cover=draw(MOD),
        push=draw(PUSH),
    )


@st.composite
def _thrown(draw: st.DrawFn) -> tuple[State, Action]:
    """A weapon the referee added to the table's setting, thrown (and dodged) in play."""
    state = table()
    kind = draw(st.sampled_from(["thrown", "aimed", "melee"]))
    ranged = kind != "melee"
    add = a.AddWeapon(
        "Spear",
        draw(st.integers(0, 12)),
        kind,  # type: ignore[arg-type]
        accuracy=draw(st.integers(-3, 20)) if ranged else 0,
        max_range=draw(st.none() | st.integers(0, 12)) if ranged else None,
        dodgeable=draw(st.none() | st.booleans()) if ranged else None,
        attack=0 if ranged else draw(st.integers(-2, 2)),
    )
    if draw(st.booleans()):
        return state, add
    state = RULESET.apply(state, RULESET.resolve(add, state, ScriptedRoller([]), OPTIONS))
    actor, other = _pair(draw)
    if not ranged:
        return state, a.Damage(other, draw(st.integers(0, 6)), actor, "Spear", push=draw(PUSH))
    return state, a.Shoot(actor, "Spear", draw(st.integers(-3, 12)), other, push=draw(PUSH))


@st.composite
def _move(draw: st.DrawFn) -> tuple[State, Action]:
    if draw(st.booleans()):
        return table(), a.Move(
            "wizard", draw(st.sampled_from(["Run", "Walk"])), push=draw(st.booleans())
        )
    return table(), a.Move(rate=draw(st.integers(-5, 10)), unit="ft", push=draw(st.booleans()))


@st.composite
def _magic(draw: st.DrawFn) -> tuple[State, Action]:
    if draw(st.booleans()):
        stat = draw(st.sampled_from(["Wit", "Willpower"]))
        return table(), a.Cast("wizard", "Fire-ball", stat, push=draw(PUSH))
    operation = draw(st.sampled_from(["move", "shape", "transmute", "imbue complex"]))
    return table(), a.SoulMagic("wizard", operation, push=draw(PUSH))  # type: ignore[arg-type]


@st.composite
def _decision(draw: st.DrawFn) -> tuple[State, Action]:
    return _held(), draw(st.sampled_from([a.Push("brad"), a.Accept("brad")]))


@st.composite
def _referee(draw: st.DrawFn) -> tuple[State, Action]:
    who = draw(st.sampled_from(FIGHTERS))
    action = draw(
        st.sampled_from(
            [
                a.NextRound(),
                a.NextRound("3s"),
                a.EndCombat(),
                a.LoseAction(who),
                a.ImposePenalty(who, draw(MOD), draw(st.sampled_from(["now", "next"]))),
                a.TakeDamage(who, draw(st.integers(0, 5)), draw(st.integers(0, 5))),
                a.Recover(who, draw(st.integers(0, 5)), draw(st.integers(0, 5))),
                a.RecordWound(who, "a broken rib", draw(st.integers(1, 5))),
            ]
        )
    )
    return table(draw(st.integers(0, 3))), action


def _wounded() -> tuple[State, Action]:
    state = table()
    state = RULESET.apply(
        state,
        RULESET.resolve(a.RecordWound("alex", "ankle", 2), state, ScriptedRoller([]), OPTIONS),
    )
    return state, a.RemoveWound("alex", 0)


@st.composite
def _look_up(draw: st.DrawFn) -> tuple[State, Action]:
    return table(), draw(
        st.sampled_from(
            [
                a.LogOf(str(draw(st.integers(1, 10**6)))),
                a.MeasureOf(draw(st.integers(-40, 40))),
                a.Convert(draw(st.integers(-20, 20)), "m/s", "ft/round", "3s"),
                a.Difficulty("melee", "prepared defence", attack_result=draw(st.integers(0, 8))),
                a.Difficulty("ranged", distance=draw(st.integers(-3, 12)), moving=True),
                a.GroupLog(tuple(draw(st.lists(st.integers(0, 12), min_size=1, max_size=5)))),
            ]
        )
    )


BUILDERS: dict[str, st.SearchStrategy[tuple[State, Action]]] = {
    "task": _task(),
    "contest": _contest(),
    "subtasks": _subtasks(),
    "group-task": _group(),
    "melee": _melee(),
    "defend": _defend(),
    "take-blow": _take_blow(),
    "strike": _strike(),
    "damage": _damage(),
    "shoot": _shoot(),
    "add-weapon": _thrown(),
    "move": _move(),
    "magic": _magic(),
    "push-accept": _decision(),
    "referee": _referee(),
    "remove-wound": st.deferred(lambda: st.just(_wounded())),
    "look-up": _look_up(),
}


def test_every_action_type_is_generated() -> None:
    covered = {
        "task", "contest", "subtasks", "group-task", "prepare", "circle", "attack", "defend",
        "take-blow", "strike", "damage", "shoot", "move", "cast", "soul-magic", "push", "accept",
        "next-round", "end-combat", "lose-action", "impose-penalty", "take-damage", "recover",
        "record-wound", "remove-wound", "log-of", "measure-of", "convert", "difficulty",
        "group-log", "add-weapon",
    }  # fmt: skip
    assert covered == set(RULESET.actions())


@pytest.mark.parametrize("kind", list(BUILDERS))
@settings(max_examples=25)
@given(data=st.data())
def test_every_action_keeps_the_contract(kind: str, data: st.DataObject) -> None:
    state, action = data.draw(BUILDERS[kind])
    seed = data.draw(st.integers(0, 10_000))
    try:
        check_action(RULESET, state, action, OPTIONS, seed=seed)
    except IllegalAction as e:  # only what the rules refuse for a stated reason
        assert any(
            why in str(e)
            for why in (
                "reaches log distance",
                "one action per round",
                "counter-blow",
                "a missile can only be dodged",
                "named wounds",
                "out of range",
                "has used this round's action",
            )
        ), str(e)


# ---------------------------------------------------------------------------
# a sequence of outcomes, replayed from the start


def _candidates(state: State) -> list[Action]:
    for held in held_rolls(state):
        return [a.Push(held.actor), a.Accept(held.actor)]
    for attack in state.attacks:
        if attack.stage == "incoming":
            return [a.Defend(attack.target), a.TakeBlow(attack.target)]
        return [a.Strike(attack.attacker, push="if-needed"), a.Strike(attack.attacker)]
    found: list[Action] = [a.NextRound(), a.TakeDamage("alex", 1, 1), a.Recover("alex", 1, 1)]
    for actor in FIGHTERS:
        for other in FIGHTERS:
            if actor != other:
                found += [a.Attack(actor, other), a.Circle(actor, other, push="if-needed")]
        found += [a.Prepare(actor), a.Task(actor, 7, "Wit"), a.Move(actor)]
    return found


@settings(max_examples=30)
@given(st.lists(st.integers(0, 1000), min_size=1, max_size=14), st.integers(0, 10_000))
def test_applying_outcomes_equals_replaying_them(picks: list[int], seed: int) -> None:
    start = table()
    state, outcomes = start, []
    roller = SeededRoller(seed)
    for pick in picks:
        options = _candidates(state)
        action = options[pick % len(options)]
        try:
            outcome = RULESET.resolve(action, state, roller, OPTIONS)
        except IllegalAction:
            continue
        outcomes.append(outcome)
        state = RULESET.apply(state, outcome)
    assert replay(RULESET, start, outcomes) == state
    assert RULESET.load_state(json.loads(json.dumps(RULESET.dump_state(state)))) == state


# ---------------------------------------------------------------------------
# the generic command line


def test_generic_act_odds_of_and_actions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from referee.cli.main import run

    seats = ["--seat", "brad=example:brad", "--seat", "alex=example:alex"]
    saved = tmp_path / "table.json"
    attack = ["arm", "act", "attack", "actor=brad", "target=alex", *seats, "--faces", "6,1"]
    code = run([*attack, "--save", str(saved), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and (data["result"], data["label"]) == (9, "Astonishing success")
    state = json.loads(saved.read_text(encoding="utf-8"))
    assert state["pending"][0]["actor"] == "alex"
    code = run(
        ["arm", "act", "take-blow", "actor=alex", "--state", str(saved), "--save", str(saved)]
    )
    assert code == 0 and "Alex takes the blow" in capsys.readouterr().out
    code = run(
        ["arm", "act", "strike", "actor=brad", "--state", str(saved), "--faces", "2,2", "--json"]
    )
    blow = json.loads(capsys.readouterr().out)
    assert code == 0 and blow["details"]["total"] == 9 + 8 + 1
    code = run(
        ["arm", "odds-of", "task", "actor=brad", "stat=Fitness", "difficulty=8", *seats, "--json"]
    )
    rows = json.loads(capsys.readouterr().out)
    assert code == 0 and {r["outcome"] for r in rows} == set(range(-5, 6))
    code = run(["arm", "odds-of", "circle", "actor=alex", "target=brad", "push=if-needed", *seats])
    assert code == 1 and "pushing is switched off" in capsys.readouterr().err
    assert run(["arm", "actions", "--json"]) == 0
    described = json.loads(capsys.readouterr().out)
    assert set(described) == set(RULESET.every_action())
    fields = {f["name"]: f for f in described["defend"]}
    assert fields["how"]["choices"] == ["dodge", "parry"] and fields["actor"]["ref"] == "character"
