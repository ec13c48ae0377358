"""Each action is declared once (issue 21): one table entry and its planner.

A throwaway wing, ``fake``, declares one action, ``flip``, with one entry in its table
and the planner beside it, and nothing else: the action reaches the ruleset's
``actions()``, ``action_name``, ``plan`` / ``resolve`` / ``odds``, the generic command
line (``actions``, ``act``, ``odds-of``), a live table and the HTTP API. Static checks
keep the four wings on that one shape.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import re
import sys
import typing
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

import click
import pytest
from click.testing import CliRunner

from referee.dice.evaluate import DieRoll
from referee.dice.odds import sum_of_dice
from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction, OddsTooComplex, Problem, RulesError
from referee.systems import SYSTEMS
from referee.systems.base import (
    TABLE,
    Action,
    ActionTable,
    Change,
    Dice,
    GameState,
    Outcome,
    Plan,
    Ruleset,
    Trace,
    declare,
    get,
    names,
    param,
)
from referee.systems.state import Decision

SYSTEMS_DIR = Path(__file__).resolve().parents[1] / "src" / "referee" / "systems"
WINGS = ("mnemonic", "mongrel", "mneme", "arm")

# ---------------------------------------------------------------------------
# a throwaway wing: one action, one table entry, one planner


@dataclass(frozen=True)
class Sheet:
    name: str


@dataclass(frozen=True)
class Seat:
    sheet: Sheet


@dataclass(frozen=True)
class State(GameState[Seat]):
    flips: int = 0


@dataclass(frozen=True)
class Options:
    lucky: int = 0


@dataclass(frozen=True)
class Flip(Action):
    """The referee rolls one die: a success on its highest face."""

    sides: int = param(2, "the die's faces", ge=2, le=6)
    heavy: bool = param(False, "too much work to plan")


def plan_flip(action: Flip, state: State, options: Options) -> Plan:
    """A die of ``sides`` faces; a five-sided die is refused (a rule's own error)."""
    if action.sides == 5:
        raise RulesError("no die has five faces")
    if action.heavy:
        raise OddsTooComplex("too much work")
    sides = action.sides

    def finish(face: int, trace: Trace) -> Outcome:
        return Outcome(
            "fake",
            "flip",
            faces=(DieRoll(face, sides),),
            result=face,
            success=face == sides,
            label=f"flip {state.flips + 1}: {face}",
            changes=(Change(TABLE, "flips", delta=1, reason="a flip"),),
        )

    die = Dice.roll(((1, sides),), sum, lambda: sum_of_dice(1, sides))
    return Plan.of(die, finish, success=lambda face: face == sides)


class FakeRules(Ruleset[Sheet, State, Options]):
    name = "fake"
    title = "Fake"
    sheet_type = Sheet
    state_type = State
    options_type = Options

    def table(self) -> ActionTable[State, Options]:
        return {"flip": declare(Flip, plan_flip)}

    def validate(self, sheet: Sheet, options: Options) -> tuple[Problem, ...]:
        return ()

    def seat(self, state: State, cid: str, sheet: Sheet, options: Options) -> State:
        return replace(state, characters={**state.characters, cid: Seat(sheet)})


FAKE = FakeRules()
MODULE = "referee_fake_wing_for_tests"


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The fake wing in the registry (``referee.systems.SYSTEMS``) for one test."""
    module = ModuleType(MODULE)
    module.__spec__ = ModuleSpec(MODULE, None)
    module.RULESET = FAKE  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, MODULE, module)
    monkeypatch.setitem(SYSTEMS, "fake", MODULE)
    names.cache_clear()
    from referee.cli.main import app

    monkeypatch.setattr(app, "commands", dict(app.commands))  # `referee fake` adds its group
    yield
    names.cache_clear()


# ---------------------------------------------------------------------------
# the ruleset derives everything from the one entry


def test_the_entry_reaches_actions_action_name_and_the_plan() -> None:
    assert FAKE.actions() == {"flip": Flip}
    assert set(FAKE.every_action()) == {"flip", "roll"}
    assert FAKE.action_name(Flip(3)) == "flip"
    assert FAKE.load_action("flip", {"sides": 4}) == Flip(4)
    state, options = FAKE.initial_state(Options()), Options()
    assert FAKE.odds(Flip(3), state, options).probabilities() == {
        1: Fraction(1, 3),
        2: Fraction(1, 3),
        3: Fraction(1, 3),
    }
    assert FAKE.chance(Flip(4), state, options) == Fraction(1, 4)
    assert FAKE.dice_for(Flip(6), state, options) == ((1, 6),)
    outcome = FAKE.resolve(Flip(3), state, ScriptedRoller([3]), options)
    assert (outcome.result, outcome.success, outcome.label) == (3, True, "flip 1: 3")
    assert FAKE.apply(state, outcome).flips == 1


def test_one_error_for_one_mistake_and_an_undeclared_action_is_refused() -> None:
    state, options = FAKE.initial_state(Options()), Options()
    with pytest.raises(IllegalAction, match=r"^no die has five faces$"):
        FAKE.resolve(Flip(5), state, ScriptedRoller([1]), options)
    with pytest.raises(IllegalAction, match=r"^no die has five faces$"):
        FAKE.odds(Flip(5), state, options)
    with pytest.raises(OddsTooComplex, match="too much work"):  # no refusal: its own kind
        FAKE.odds(Flip(3, heavy=True), state, options)

    @dataclass(frozen=True)
    class Dance(Action):
        pass

    with pytest.raises(IllegalAction, match="Fake has no action Dance"):
        FAKE.plan(Dance(), state, options)
    with pytest.raises(IllegalAction, match="no action 'dance'; known: flip, roll"):
        FAKE.load_action("dance", {})


# ---------------------------------------------------------------------------
# the edges: command line, live table, HTTP API


def test_the_generic_command_line_offers_the_action(registered: None) -> None:
    from referee.cli.presets import add_generic_commands

    assert get("fake") is FAKE
    group = click.Group("fake")
    add_generic_commands(group, "fake")
    runner = CliRunner()
    listed = runner.invoke(group, ["actions", "--json"])
    assert listed.exit_code == 0, listed.output
    fields = json.loads(listed.output)["flip"]
    assert [(f["name"], f.get("ge"), f.get("le")) for f in fields] == [
        ("sides", 2, 6),
        ("heavy", None, None),
    ]
    done = runner.invoke(group, ["act", "flip", "sides=3", "--faces", "2", "--json"])
    assert done.exit_code == 0, done.output
    out = json.loads(done.output)
    assert (out["result"], out["success"], out["label"]) == (2, False, "flip 1: 2")
    odds = runner.invoke(group, ["odds-of", "flip", "sides=4", "--json"])
    assert odds.exit_code == 0, odds.output
    assert json.loads(odds.output) == [{"outcome": n, "probability": "1/4"} for n in (1, 2, 3, 4)]
    from referee.cli.main import run

    assert run(["fake", "odds-of", "flip", "sides=2", "--json"]) == 0  # no preset module
    refused = runner.invoke(group, ["act", "flip", "sides=5"])
    assert refused.exit_code != 0 and "no die has five faces" in refused.output
    assert "Traceback" not in refused.output


def test_a_live_table_takes_the_action(registered: None, tmp_path: Path) -> None:
    from referee.table.service import TableService
    from referee.table.store import Store

    service = TableService(Store(f"sqlite:///{tmp_path / 'fake.db'}"))
    made = service.create("fake", "Fake night", "Ron")
    tid = made.table.id
    done = service.act(tid, "Ron", "flip", {"sides": 2}, faces=[2])
    outcome = done.event.payload["outcome"]
    assert isinstance(outcome, dict) and outcome["result"] == 2
    assert service.load(tid).state.flips == 1
    chosen, dist, chance, _wins = service.odds(tid, "Ron", "flip", {"sides": 6})
    assert chosen == Flip(6) and chance == Fraction(1, 6)
    assert dist.probabilities()[6] == Fraction(1, 6)
    with pytest.raises(IllegalAction, match="no die has five faces"):
        service.act(tid, "Ron", "flip", {"sides": 5})
    assert service.load(tid).state.flips == 1


@pytest.mark.filterwarnings("ignore:Using .httpx. with")
def test_the_http_api_takes_the_action_and_gives_its_odds(
    registered: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from fastapi.testclient import TestClient

    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.table.tokens import Tokens
    from referee.web.app import create_app

    # the odds in threads of this process, which knows the fake wing (fresh worker
    # processes would not: it is registered only for this test)
    monkeypatch.setattr(
        "referee.web.app.odds_pool", lambda _service, n: ThreadPoolExecutor(max_workers=n)
    )
    service = TableService(Store(f"sqlite:///{tmp_path / 'web.db'}"))
    with TestClient(create_app(service, tokens=Tokens(service.store))) as http:
        made = http.post("/api/tables", json={"game": "fake", "name": "Fake", "referee": "Ron"})
        assert made.status_code == 201, made.text
        tid = made.json()["table"]["id"]
        ron = {"authorization": f"Bearer {made.json()['token']}"}
        flip = {"action": "flip", "fields": {"sides": 3}}
        odds = http.post(f"/api/tables/{tid}/odds", json=flip, headers=ron)
        assert odds.status_code == 200, odds.text
        assert odds.json()["success"]["probability"] == "1/3"
        assert sum(Fraction(d["probability"]) for d in odds.json()["distribution"]) == 1
        done = http.post(f"/api/tables/{tid}/actions", json=flip, headers=ron)
        assert done.status_code == 201, done.text
        assert done.json()["event"]["payload"]["outcome"]["faces"]
        assert service.load(tid).state.flips == 1
        five = {"action": "flip", "fields": {"sides": 5}}
        refused = http.post(f"/api/tables/{tid}/actions", json=five, headers=ron)
        assert 400 <= refused.status_code < 500 and "no die has five faces" in refused.text


# ---------------------------------------------------------------------------
# the four wings keep the one shape


def test_no_wing_overrides_plan_or_types_a_planner_with_any() -> None:
    for wing in WINGS:
        ruleset = (SYSTEMS_DIR / wing / "ruleset.py").read_text(encoding="utf-8")
        assert "def plan(" not in ruleset, wing
        assert "def actions(" not in ruleset, wing
        assert "import_module" not in ruleset, wing
        assert re.search(r"^    def table\(self\) -> ActionTable\[", ruleset, re.M), wing
        assert "def table(" not in _actions(wing), wing  # the action types only
    for path in SYSTEMS_DIR.rglob("*.py"):
        assert "Callable[[Any" not in path.read_text(encoding="utf-8"), path


def test_every_wing_names_its_planners_plan_action() -> None:
    for wing in WINGS:
        rules = get(wing)
        for name, entry in rules.declared().items():
            planner = getattr(entry.planner, "rule", entry.planner)  # ARM's Pushable
            assert planner.__name__ == "plan_" + name.replace("-", "_"), (wing, name)
            first = next(iter(inspect.signature(planner).parameters))
            assert first == "action", (wing, name)  # one name for the action in every wing
        assert set(rules.actions()) == set(rules.declared())


def test_the_base_seats_lays_out_sheets_and_says_what_waits_for_every_wing() -> None:
    """No wing writes ``seat`` or ``sheet_view`` again (the base seats ``Seat.of(sheet)``
    and lays a sheet out with the wing's ``present.sheet_view``), nor the "Waiting for"
    rows (the base's ``waiting``)."""
    for wing in WINGS:
        rules = type(get(wing))
        assert "seat" not in rules.__dict__ and "sheet_view" not in rules.__dict__, wing
        assert "Waiting for" not in (SYSTEMS_DIR / wing / "ruleset.py").read_text("utf-8")
        assert callable(importlib.import_module(f"referee.systems.{wing}.state").Seat.of)
    arm = get("arm")
    options = arm.options_type()
    alex = arm.examples()["alex"]
    state = arm.seat(arm.initial_state(options), "alex", alex, options)
    hurt = replace(state.characters["alex"], wound=2)
    state = replace(state, characters={"alex": hurt})
    again = arm.seat(state, "alex", replace(alex, name="Alexandra"), options)
    assert again.characters["alex"].wound == 2  # reseated: what the table tracks stays
    assert again.characters["alex"].sheet.name == "Alexandra"
    held = replace(state, pending=(Decision("alex", "defend or take the blow?", ("defend", "x")),))
    assert arm.waiting(held, {"alex": "Alex"}) == [["Waiting for Alex", "defend or take the blow?"]]
    assert arm.waiting(held, {}, choices=True) == [
        ["Waiting for alex", "defend or take the blow? (defend or x)"]
    ]


def _actions(wing: str) -> str:
    return (SYSTEMS_DIR / wing / "actions.py").read_text(encoding="utf-8")


SHARED_ROLES = (
    "__init__.py",  # RULESET
    "actions.py",  # every action's type, once
    "builder.py",  # the guided character builder
    "checks.py",  # the game's rolls and their exact odds
    "options.py",  # the house rules
    "present.py",  # the sheet as people read it
    "ruleset.py",  # the contract: table(), every action declared once with its planner
    "sheet.py",  # Sheet: the stored character
    "state.py",  # Seat and State: what a table tracks
    "tables.py",  # the text's lists and numbers as data
    "variants.py",  # the check's variants the analysis compares
    "words.py",  # how an outcome, change, prompt and refusal reads, for every edge
    "data/examples",  # the example characters, read by the base
    "data/about.json",  # its summary and its tour (referee.systems.about)
    "data/bestiary.json",  # its adversaries and templates (referee.systems.bestiary)
    "difficulties.py",  # the difficulties its text names, for roll requests
)


def test_every_wing_has_the_files_of_the_shared_roles() -> None:
    for wing in WINGS:
        missing = [f for f in SHARED_ROLES if not (SYSTEMS_DIR / wing / f).exists()]
        assert missing == [], wing
        assert not (SYSTEMS_DIR / wing / "examples.py").exists(), wing  # loaded by the base
        stored = {p.name for p in (SYSTEMS_DIR / wing / "data").glob("*.json")}
        assert stored <= {"examples.json", "conflict.json", "about.json", "bestiary.json"}, wing


def test_every_wing_calls_its_records_sheet_and_seat() -> None:
    for wing in WINGS:
        rules = get(wing)
        sheet = importlib.import_module(f"referee.systems.{wing}.sheet")
        state = importlib.import_module(f"referee.systems.{wing}.state")
        assert rules.sheet_type is sheet.Sheet, wing
        assert rules.state_type is state.State, wing
        seat = typing.get_type_hints(state.State)["characters"]
        assert typing.get_args(seat) == (str, state.Seat), wing
        assert typing.get_type_hints(state.Seat)["sheet"] is sheet.Sheet, wing
        for gone in ("Character", "Fighter"):
            assert not hasattr(sheet, gone) and not hasattr(state, gone), (wing, gone)


def test_every_wing_loads_its_examples_through_the_base() -> None:
    for wing in WINGS:
        rules = get(wing)
        assert "examples" not in type(rules).__dict__, wing  # no wing loads its own
        assert "example" not in type(rules).__dict__, wing
        stored = sorted(p.stem for p in (SYSTEMS_DIR / wing / "data" / "examples").glob("*.json"))
        examples = rules.examples()
        assert sorted(examples) == stored and len(stored) >= 2, wing
        for cid, sheet in examples.items():
            assert isinstance(sheet, rules.sheet_type), (wing, cid)
            assert rules.example(cid.upper()) == sheet
            data = rules.example_data(cid)
            data.clear()  # the caller's own copy: the stored example is untouched
            assert rules.example(cid) == sheet
            assert rules.example_data(cid) == json.loads(
                (SYSTEMS_DIR / wing / "data" / "examples" / f"{cid}.json").read_text("utf-8")
            )
            assert rules.validate(sheet, rules.options_type()) == () or cid in rules.example_info()
        with pytest.raises(RulesError, match=r"unknown example character 'nobody'; known: "):
            rules.example("nobody")
    mongrel = get("mongrel")
    assert list(mongrel.examples()) == ["alwia", "vooruk", "giazza"]  # the index's order
    assert mongrel.example("Ahvia") == mongrel.example("alwia")  # the text's other spelling
    assert mongrel.example_info()["giazza"].where == "Mongrel: Examples of character creation"
    assert FAKE.examples() == {} and FAKE.example_info() == {}  # a wing with no data


def test_every_wing_declares_its_analysis_and_nothing_outside_systems_asks_which_game() -> None:
    from referee.analysis.model import ConflictModel
    from referee.analysis.scenario import Scenario, model_type

    for wing in WINGS:
        conflict = get(wing).conflict()
        assert conflict is not None, wing
        assert issubclass(model_type(wing), ConflictModel)
        assert Scenario.default(wing).seats == dict(conflict.seats)
        assert get(wing).variants() is not None, wing  # its check variants (issue 36)
    found = [
        f"{path.relative_to(SYSTEMS_DIR.parent)}:{line}"
        for path in (SYSTEMS_DIR.parent).rglob("*.py")
        if SYSTEMS_DIR not in path.parents
        for line in _asks_which_game(ast.parse(path.read_text(encoding="utf-8")), set(WINGS))
    ]
    assert found == []  # the command line's groups and tour too: each game's own about.json


def _asks_which_game(tree: ast.AST, games: set[str]) -> list[int]:
    """The lines where code names a game to branch on it or look something up by it: a
    comparison with a game's name (or a tuple of them), a ``case "arm":``, a dictionary
    keyed by a game's name, a ``.get("arm")`` or a ``[...]["arm"]``."""

    def named(node: ast.AST | None) -> bool:
        items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
        return any(isinstance(i, ast.Constant) and i.value in games for i in items)

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            hit = any(named(side) for side in (node.left, *node.comparators))
        elif isinstance(node, ast.MatchValue):
            hit = named(node.value)
        elif isinstance(node, ast.Dict):
            hit = any(named(key) for key in node.keys)
        elif isinstance(node, ast.Call):
            getter = isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            hit = getter and bool(node.args) and named(node.args[0])
        elif isinstance(node, ast.Subscript):
            hit = named(node.slice)
        else:
            hit = False
        if hit:
            found.append(getattr(node, "lineno", 0))
    return found


def test_the_guard_sees_game_names_as_keys_and_lookups() -> None:
    """The guard above finds each way of asking which game it is, and not a name used to
    ask the registry (``get("arm")``: the one place that knows the games)."""
    games = {"arm", "mongrel"}
    asked = [
        'if game == "arm": pass',
        'if game in ("mongrel", "x"): pass',
        'match game:\n    case "arm": pass',
        'SUCCESS = {"arm": 0}',
        'CURVES.get("mongrel")',
        'STATS["arm"]',
    ]
    for text in asked:
        assert _asks_which_game(ast.parse(text), games) == [1 + text.count("\n")], text
    assert _asks_which_game(ast.parse('get("arm"); x = {"game": "arm"}; y = "arm"'), games) == []


def test_a_preset_offers_every_plain_field_of_its_action(registered: None) -> None:
    """A preset declaring no flag still takes each field of its action as a flag named
    after it (a yes/no field either way), described by the field's doc, checked by the
    field's bounds, and named in a refusal as the user typed it."""
    from referee.cli.presets import Preset, PresetGroup

    group = PresetGroup("fake", [Preset("flip", "flip")], name="fake")
    runner = CliRunner()
    shown = runner.invoke(group, ["flip", "--help"], terminal_width=200).output
    assert re.search(r"--sides INTEGER +the die's faces \(default: 2\)", shown), shown
    assert re.search(r"--heavy / --no-heavy +too much work to plan", shown), shown
    done = runner.invoke(group, ["flip", "--sides", "3", "--faces", "3", "--json"])
    assert done.exit_code == 0, done.output
    assert (json.loads(done.output)["result"], json.loads(done.output)["success"]) == (3, True)
    assert runner.invoke(group, ["flip", "--no-heavy", "--faces", "1"]).exit_code == 0
    heavy = runner.invoke(group, ["flip", "--heavy", "--faces", "1"])
    assert heavy.exit_code != 0 and "too much work" in heavy.output
    refused = runner.invoke(group, ["flip", "--sides", "7"])
    assert refused.exit_code != 0 and "--sides" in refused.output and "7" in refused.output


def test_a_games_command_line_is_presets_over_its_wings_words() -> None:
    """Issues 21 and 35: each game's command-line module declares presets over the generic
    path (flags -> fields); its outcomes read in the wing's words, as the log does (no
    report.py of the command line's own); no game module keeps an undo stack or a script
    runner, and no module is kept short by switching the formatter off (its length is
    the code's)."""
    cli = SYSTEMS_DIR.parent / "cli"
    for game in WINGS:
        text = (cli / f"{game}.py").read_text()
        assert "Preset(" in text and "game_group(" in text, game
        assert not (SYSTEMS_DIR / game / "report.py").exists(), game
    assert not (cli / "mongrel_script.py").exists() and not (cli / "generic.py").exists()
    for path in SYSTEMS_DIR.parent.rglob("*.py"):
        assert "fmt: skip" not in path.read_text() and "fmt: off" not in path.read_text(), path
