"""Mongrel keeps the contract: every action type, generated against the text's example
characters, resolves, round-trips JSON, applies like its stored outcome and has odds
equal to the brute force of its own dice; a table rebuilt by replay equals the live one;
the generic command line (`actions`, `act`, `odds-of`) drives the game."""

from __future__ import annotations

import json
import types
import typing
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.cli.main import run
from referee.dice.roller import ScriptedRoller, SeededRoller
from referee.errors import IllegalAction
from referee.systems.base import Action
from referee.systems.conformance import check_action, replay
from referee.systems.mongrel import RULESET
from referee.systems.mongrel.actions import (
    Attack,
    Buy,
    StartConflict,
    TakeDamage,
)
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.state import State

OPTS = Options()
IDS = ("alwia", "vooruk", "giazza")
POWERS = ("Wings", "Inhuman Face", "Animal legs", "Implanted weapon")


def _seated() -> State:
    state = RULESET.initial_state(OPTS)
    for cid, sheet in RULESET.examples().items():
        state = RULESET.seat(state, cid, replace(sheet, character_points=30), OPTS)
    return state


def _then(state: State, action: Action, faces: tuple[int, ...] = ()) -> State:
    return RULESET.apply(state, RULESET.resolve(action, state, ScriptedRoller(list(faces)), OPTS))


def _scenes() -> dict[str, State]:
    fresh = _seated()
    fight = _then(fresh, StartConflict())  # vooruk > giazza > alwia
    hurt = _then(_then(fight, TakeDamage("giazza", 5)), TakeDamage("alwia", 3))
    hurt = replace(
        hurt,
        characters={
            **hurt.characters,
            "vooruk": replace(hurt.characters["vooruk"], ap=1),
            "alwia": replace(hurt.characters["alwia"], ir=2, refreshes=3),
        },
    )
    down = _then(fight, TakeDamage("giazza", 11))  # collapsed
    terminal = _then(down, Attack("vooruk", "giazza", "Rend"), (1, 1, 1, 1, 1, 1))
    buying = _then(fresh, Buy("giazza", seller_social=5), (2,))
    assert terminal.pending and buying.pending
    return {
        "fresh": fresh,
        "fight": fight,
        "hurt": hurt,
        "terminal": terminal,
        "buying": buying,
    }


SCENES = _scenes()


def _ints(name: str, lo: int | None, hi: int | None) -> st.SearchStrategy[int]:
    """Small numbers: pools stay enumerable for the brute-force oracle."""
    small = {"dice": (0, 5), "resist_dice": (0, 2), "tn": (-1, 8), "resist_tn": (0, 7)}
    a, b = small.get(name, (lo if lo is not None else 0, (lo or 0) + 8))
    lo2 = max(a, lo) if lo is not None else a
    hi2 = min(b, hi) if hi is not None else b
    return st.integers(lo2, max(lo2, hi2))


ATTACKS = ("Rend", "Melee", "Missile", "Burn", "Chill", "Threaten", "Lie")
TASKS = ("Sense", "Stalk", "Know", "Athletics", "Balance", "Lie", "Negotiate", "Seduce")
SMALL = st.sampled_from((0, 0, 0, 1, 2))
OVERRIDES: dict[tuple[str, str], st.SearchStrategy[Any]] = {
    ("Attack", "expertise"): st.sampled_from(ATTACKS),
    ("Task", "expertise"): st.sampled_from(TASKS),
    ("Buy", "expertise"): st.sampled_from(("Negotiate", "Convince", "Lie", "Seduce")),
    ("Attack", "weapon"): SMALL,
    ("Attack", "armor"): SMALL,
    ("Attack", "shunt_to_beauty"): SMALL,
    ("TakeDamage", "shunt_to_beauty"): SMALL,
    ("Attack", "target"): st.sampled_from(IDS),
}


def _value(name: str, hint: Any, meta: Any, state: State) -> st.SearchStrategy[Any]:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = next(a for a in args if a is not type(None))
        return st.none() | _value(name, inner, meta, state)
    if origin is typing.Literal:
        return st.sampled_from(args)
    if meta.get("ref") == "character":
        first = [state.pending[0].actor] if state.pending else list(state.order[:1])
        return st.sampled_from(first) | st.sampled_from(IDS) if first else st.sampled_from(IDS)
    if hint is bool:
        return st.booleans()
    if hint is int:
        return _ints(name, meta.get("lowest"), meta.get("highest"))
    if name == "power":
        return st.sampled_from(POWERS)
    if name == "fighters":
        return st.lists(st.sampled_from(IDS), unique=True, max_size=3).map(tuple)
    if name == "fields":  # an approval's field paths: every open problem
        return st.just(())
    if hint is str:
        return st.sampled_from(("as printed", "x"))
    raise AssertionError(f"no strategy for {name}: {hint}")


@st.composite
def actions(draw: st.DrawFn, kind: type[Action], state: State) -> Action:
    hints = typing.get_type_hints(kind)
    data = {}
    for f in fields(kind):
        strategy = OVERRIDES.get((kind.__name__, f.name))
        if strategy is None:
            strategy = _value(f.name, hints[f.name], f.metadata, state)
        data[f.name] = draw(strategy)
    try:
        return kind(**data)
    except IllegalAction:
        assume(False)
        raise


def _legal(action: Action, state: State) -> bool:
    try:
        RULESET.odds(action, state, OPTS)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("name", list(RULESET.actions()))
@settings(max_examples=20, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data(), seed=st.integers(0, 999))
def test_every_action_keeps_the_contract(name: str, data: st.DataObject, seed: int) -> None:
    kind = RULESET.action_type(name)
    legal = []
    for scene in SCENES.values():
        action = data.draw(actions(kind, scene))
        if _legal(action, scene):
            legal.append((scene, action))
    assume(legal)
    state, action = data.draw(st.sampled_from(legal))
    check_action(RULESET, state, action, OPTS, seed)


def test_every_action_type_is_reachable_from_the_scenes() -> None:
    """Each action has at least one legal instance in the scenes the property test uses."""
    reachable = {
        "check": RULESET.load_action("check", {"dice": 2}),
        "task": RULESET.load_action("task", {"actor": "vooruk", "expertise": "Rend"}),
        "buy": RULESET.load_action("buy", {"actor": "vooruk", "seller_social": 3}),
    }
    for name, action in reachable.items():
        assert any(_legal(action, s) for s in SCENES.values()), name


@settings(max_examples=30)
@given(
    seed=st.integers(0, 10_000),
    picks=st.lists(st.tuples(st.integers(0, 11), st.sampled_from(IDS)), max_size=25),
)
def test_replaying_stored_outcomes_rebuilds_the_table(
    seed: int, picks: list[tuple[int, str]]
) -> None:
    start = SCENES["fight"]
    roller = SeededRoller(seed)
    state, outcomes = start, []
    for choice, other in picks:
        who = state.pending[0].actor if state.pending else (state.next or other)
        candidates: list[Action] = [
            RULESET.load_action("attack", {"actor": who, "target": other, "expertise": "Rend"}),
            RULESET.load_action("attack", {"actor": who, "target": other, "expertise": "Chill"}),
            RULESET.load_action("occult", {"actor": who, "target": other, "resist": True}),
            RULESET.load_action("recover", {"actor": who}),
            RULESET.load_action("wait", {"actor": who}),
            RULESET.load_action("advance", {"actor": other}),
            RULESET.load_action("spend-resolve-to-survive", {"actor": who}),
            RULESET.load_action("accept-fate", {"actor": who}),
            RULESET.load_action("take-damage", {"victim": other, "effect": 6}),
            RULESET.load_action("rest", {"actor": other}),
            RULESET.load_action("spend-resolve", {"actor": other}),
            RULESET.load_action("task", {"actor": who, "expertise": "Sense"}),
        ]
        try:
            outcome = RULESET.resolve(candidates[choice], state, roller, OPTS)
        except IllegalAction:
            continue
        outcomes.append(outcome)
        state = RULESET.apply(state, outcome)
    assert replay(RULESET, start, outcomes) == state


# -- the generic command line ---------------------------------------------------------


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_generic_actions_lists_every_action(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "mongrel", "actions", "--json")
    listed = json.loads(out)
    assert code == 0 and list(listed) == list(RULESET.every_action())
    attack = {f["name"]: f for f in listed["attack"]}
    assert attack["actor"]["ref"] == "character" and attack["difficulty"]["le"] == 4
    assert "Rend" in attack["expertise"]["choices"]


def test_generic_act_and_odds_of(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    seats = ["--seat", "vooruk=example:vooruk", "--seat", "giazza=example:giazza"]
    saved = tmp_path / "table.json"
    code, out, err = _run(
        capsys, "mongrel", "act", "start-conflict", *seats, "--save", str(saved), "--json"
    )
    assert code == 0, err
    assert json.loads(out)["details"]["order"] == ["vooruk", "giazza"]
    attack = ["actor=vooruk", "target=giazza", "expertise=Rend", "defend=true"]
    code, out, err = _run(
        capsys, "mongrel", "act", "attack", *attack, "--state", str(saved),
        "--faces", "6,1,1,1,1,1", "--save", str(saved), "--json",
    )  # fmt: skip
    assert code == 0, err
    outcome = json.loads(out)
    assert outcome["success"] is True and outcome["result"] == 5  # one 6 over 6 + Beast 4
    table = RULESET.load_state(json.loads(saved.read_text()))
    giazza = table.characters["giazza"]
    assert (giazza.damage, giazza.ap) == (5, 2) and table.order == ("giazza", "vooruk")
    code, out, _ = _run(
        capsys, "mongrel", "odds-of", "check", "dice=4", "tn=3", "mode=over", "identity=4",
        "--json",
    )  # fmt: skip
    rows = {json.dumps(r["outcome"]["effect"]): r["probability"] for r in json.loads(out)}
    assert code == 0 and rows["6"] == "8/27"  # Ahvia's Lie: Effect 6
    code, _, err = _run(capsys, "mongrel", "act", "attack", *attack, *seats)
    assert code == 1 and "not in a conflict" in err
