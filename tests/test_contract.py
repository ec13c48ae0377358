"""The generic contract: dice programs, plans, state changes, outcomes as JSON, fields.

A two-rule test game (a 2d6 check against a target and a damage roll whose
number of dice follows the check's margin) exercises the base class's
derived ``resolve`` / ``odds`` / ``apply`` exactly as a real game does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import product
from typing import ClassVar, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution, sum_of_dice
from referee.dice.roller import ManualRoller, ScriptedRoller, SeededRoller
from referee.errors import DiceError, IllegalAction, InvalidSheet, RulesError
from referee.systems.base import (
    SYSTEMS,
    TABLE,
    Action,
    Change,
    Decision,
    Dice,
    GameState,
    Modifier,
    Outcome,
    Plan,
    Problem,
    Ruleset,
    Trace,
    apply_changes,
    data_from_pairs,
    describe_fields,
    get,
    outcome_data,
    outcome_from_data,
    param,
    slug,
)
from referee.systems.conformance import ContractBroken, check_action, replay
from referee.systems.tray import Roll

# ---------------------------------------------------------------------------
# a two-rule game for the tests


@dataclass(frozen=True)
class Sheet:
    name: str
    skill: int = 0


@dataclass(frozen=True)
class Seat:
    sheet: Sheet
    wounds: int = 0
    tags: Mapping[str, int] = field(default_factory=dict)
    kit: tuple[Sheet, ...] = ()


@dataclass(frozen=True)
class State(GameState[Seat]):
    round: int = 0


@dataclass(frozen=True)
class Options:
    target: int = 8


@dataclass(frozen=True)
class Strike(Action):
    actor: str = param(doc="who strikes", ref="character")
    victim: str = param(doc="who is struck", ref="character")
    bonus: int = param(0, "a bonus to the 2d6", ge=-4, le=4)


@dataclass(frozen=True)
class Yield(Action):
    actor: str = param(doc="who yields", ref="character")
    how: Literal["bow", "flee"] = param("bow", "the manner")


@dataclass(frozen=True)
class NextRound(Action):
    """The referee's."""

    moves_time: ClassVar[bool] = True


def _damage(margin: int) -> Dice[int]:
    n = max(0, min(margin, 2))
    return Dice.roll(((n, 3),), sum, lambda: sum_of_dice(n, 3))


class ToyRules(Ruleset[Sheet, State, Options]):
    name = "toy"
    title = "Toy"
    sheet_type = Sheet
    state_type = State
    options_type = Options

    def actions(self) -> Mapping[str, type[Action]]:
        return {"strike": Strike, "yield": Yield, "next-round": NextRound}

    def validate(self, sheet: Sheet, options: Options) -> tuple[Problem, ...]:
        return () if sheet.skill >= 0 else (Problem("toy", "skill", "negative", sheet.skill),)

    def seat(self, state: State, cid: str, sheet: Sheet, options: Options) -> State:
        chars = dict(state.characters)
        old = chars.get(cid)
        chars[cid] = Seat(sheet) if old is None else Seat(sheet, old.wounds, old.tags, old.kit)
        return State(chars, state.pending, state.round)

    def plan(self, action: Action, state: State, options: Options) -> Plan:
        if isinstance(action, NextRound):
            return Plan.fixed(
                Outcome("toy", "next-round", changes=(Change(TABLE, "round", delta=1),))
            )
        if isinstance(action, Yield):
            return Plan.fixed(Outcome("toy", "yield", label=action.how, changes=()))
        assert isinstance(action, Strike)
        skill = state.character(action.actor).sheet.skill + action.bonus
        state.character(action.victim)
        check = Dice.roll(((2, 6),), sum, lambda: sum_of_dice(2, 6)).map(lambda t: t + skill)
        program = check.bind(
            lambda total: _damage(total - options.target).map(lambda d: (total, d))
        )

        def finish(result: tuple[int, int], trace: Trace) -> Outcome:
            total, dealt = result
            faces = tuple(DieRoll(f, 6) for f in trace[0]) + tuple(
                DieRoll(f, 3) for t in trace[1:] for f in t
            )
            return Outcome(
                "toy",
                "strike",
                faces=faces,
                modifiers=(Modifier(skill, "skill"),),
                target=options.target,
                result=total,
                success=total >= options.target,
                changes=(Change(action.victim, "wounds", delta=dealt, reason="struck"),)
                if dealt
                else (),
                details={"dealt": dealt, "tuple": (1, 2), "fraction": Fraction(1, 3)},
            )

        return Plan.of(program, finish, view=lambda r: r[1])


TOY = ToyRules()


def _table() -> State:
    state = TOY.initial_state(Options())
    state = TOY.seat(state, "ann", Sheet("Ann", 2), Options())
    return TOY.seat(state, "bob", Sheet("Bob"), Options())


# ---------------------------------------------------------------------------
# dice programs


def test_dice_program_sample_and_exact_odds_agree_with_brute_force() -> None:
    program = Dice.roll(((2, 6),), sum, lambda: sum_of_dice(2, 6)).bind(
        lambda t: _damage(t - 8).map(lambda d: (t, d))
    )
    trace: list[tuple[int, ...]] = []
    assert program.sample(ScriptedRoller([6, 4, 3, 1]), trace) == (10, 4)
    assert trace == [(6, 4), (3, 1)]
    exact = program.odds()
    assert exact == program.brute()
    # hand count: P(damage 0) = P(2d6 <= 8) = 26/36; a margin of 1 adds one d3, 2+ two
    dealt = exact.map(lambda r: r[1])
    assert dealt.probability(0) == Fraction(26, 36)
    assert dealt.probability(6) == Fraction(6, 36) * Fraction(1, 9)
    assert program.first_dice() == ((2, 6),)


def test_pair_rolls_both_in_order_and_multiplies_odds() -> None:
    a = Dice.roll(((1, 4),), sum, lambda: Distribution.die(4))
    b = Dice.roll(((1, 6),), sum, lambda: Distribution.die(6))
    trace: list[tuple[int, ...]] = []
    assert a.pair(b).sample(ScriptedRoller([2, 5]), trace) == (2, 5)
    assert trace == [(2,), (5,)]
    assert a.pair(b).odds().probability((2, 5)) == Fraction(1, 24)
    assert Dice.pure(3).pair(b).first_dice() == ((1, 6),)


def test_a_plan_whose_value_alone_decides_the_state_answers_each_value_unrolled() -> None:
    """``Plan.of(..., decided=...)``: the state after each reported value without a roll,
    the same as settling any faces that report it; ``then`` folds it like a roll's."""
    two = Dice.roll(((2, 6),), sum, lambda: sum_of_dice(2, 6))

    def after(total: int, _trace: Trace) -> str:
        return "hit" if total >= 8 else "miss"

    def toy(_total: int, _trace: Trace) -> Outcome:
        return Outcome("toy", "x")

    plan = Plan.of(two, toy, after=after, decided=lambda t: after(int(str(t)), ()))
    assert plan.decides
    for faces in product(range(1, 7), repeat=2):
        found = plan.settle(ScriptedRoller(list(faces)))
        assert found is not None and plan.decided(found[0]) == found[1]
    assert [plan.decided(v) for v in (2, 7, 8, 12)] == ["miss", "miss", "hit", "hit"]
    loud = plan.then(lambda o: o, lambda s: s.upper())
    assert loud.decides and loud.decided(9) == "HIT"
    assert not plan.then(lambda o: o).decides  # no lean fold: no lean path at all
    plain = Plan.of(two, toy, after=after)
    assert plain.settles and not plain.decides and plain.decided(4) is None


def test_hand_entered_faces_are_checked_against_each_roll() -> None:
    program = Dice.roll(((2, 6),), sum, lambda: sum_of_dice(2, 6))
    with pytest.raises(DiceError, match="impossible on a d6"):
        program.sample(ManualRoller([7, 1]), [])


# ---------------------------------------------------------------------------
# the base class


def test_resolve_records_only_its_own_rolls_and_manual_faces() -> None:
    roller = ScriptedRoller([1, 1, 6, 5, 2, 3])
    roller.roll(2, 6)  # somebody else's roll on the same roller
    out = TOY.resolve(Strike(actor="ann", victim="bob"), _table(), roller, Options())
    assert out.result == 13 and out.success is True and out.details["dealt"] == 5
    assert [r.faces for r in out.rolls] == [(6, 5), (2, 3)] and not out.manual
    hand = TOY.resolve(Strike("ann", "bob"), _table(), ManualRoller([1, 2]), Options())
    assert hand.manual and hand.result == 5 and not hand.changes


def test_apply_folds_changes_and_replay_from_json_is_equal() -> None:
    state = _table()
    roller = SeededRoller(5)
    outs = [TOY.resolve(Strike("ann", "bob", bonus=4), state, roller, Options()) for _ in range(4)]
    outs.append(TOY.resolve(NextRound(), state, roller, Options()))
    live = state
    for o in outs:
        live = TOY.apply(live, o)
    assert live == replay(TOY, state, outs)
    assert live.round == 1
    assert live.characters["bob"].wounds == sum(o.number("dealt") for o in outs[:4])


def test_outcome_json_round_trip_normalises_details() -> None:
    out = TOY.resolve(Strike("ann", "bob"), _table(), ScriptedRoller([6, 6, 3, 3]), Options())
    assert out.details["tuple"] == [1, 2] and out.details["fraction"] == "1/3"
    data = json.loads(json.dumps(outcome_data(out)))
    assert outcome_from_data(data) == out
    with pytest.raises(InvalidSheet, match=r"faces\.0\.face"):
        outcome_from_data({**data, "faces": [{"face": "x", "sides": 6}]})
    with pytest.raises(InvalidSheet, match="unknown field"):
        outcome_from_data({**data, "extra": 1})


def test_outcome_detail_accessors_name_a_wrong_type() -> None:
    out = Outcome("toy", "x", details={"n": 3, "t": "a", "b": True, "l": [1]})
    assert (out.number("n"), out.text("t"), out.flag("b"), out.items("l")) == (3, "a", True, [1])
    assert out.items("missing") == [] and out.record("missing") == {} and not out.flag("no")
    with pytest.raises(RulesError, match="'b' is not a whole number"):
        out.number("b")


def test_conformance_check_passes_for_every_action() -> None:
    state = _table()
    for action in (Strike("ann", "bob"), Yield("bob", "flee"), NextRound()):
        check_action(TOY, state, action, Options(), seed=3)


def test_conformance_check_catches_odds_that_disagree_with_the_roll() -> None:
    class Broken(ToyRules):
        def plan(self, action: Action, state: State, options: Options) -> Plan:
            good = super().plan(action, state, options)
            return Plan(
                good.resolve, lambda: Distribution.constant(0), good.brute, good.dice
            )  # odds from another rule

    with pytest.raises(ContractBroken, match="odds differ from brute force"):
        check_action(Broken(), _table(), Strike("ann", "bob"), Options())


def test_unknown_action_type_and_name_are_illegal() -> None:
    @dataclass(frozen=True)
    class Dance(Action):
        actor: str = "ann"

    with pytest.raises(IllegalAction, match="Toy has no action Dance"):
        TOY.resolve(Dance(), _table(), SeededRoller(1), Options())
    with pytest.raises(IllegalAction, match="no action 'dance'; known: strike, yield, next-round"):
        TOY.load_action("dance", {})
    with pytest.raises(IllegalAction, match="no character 'zed'"):
        TOY.odds(Strike("zed", "bob"), _table(), Options())


def test_a_pending_decision_holds_up_only_what_depends_on_it() -> None:
    """A decision holds up its own character, actions on it, the wrong answerer and time
    moving on; other characters' actions and free rolls go on (issue 19, defect 4)."""
    state = _table()
    state = TOY.seat(state, "carl", Sheet("Carl", 1), Options())
    waiting = replace(state, pending=(Decision("bob", "bow or flee?", ("yield",)),))
    with pytest.raises(IllegalAction, match=r"waiting for Bob: bow or flee\? \(answer with yield"):
        TOY.resolve(NextRound(), waiting, SeededRoller(1), Options())
    with pytest.raises(IllegalAction, match="as Bob"):
        TOY.resolve(Yield("ann"), waiting, SeededRoller(1), Options())  # not ann's to answer
    for involving_bob in (Strike("ann", "bob"), Strike("bob", "carl")):
        with pytest.raises(IllegalAction, match="waiting for Bob"):
            TOY.resolve(involving_bob, waiting, SeededRoller(1), Options())
    assert Strike("ann", "bob").characters() == ("ann", "bob")
    hit = TOY.resolve(Strike("ann", "carl"), waiting, ScriptedRoller([6, 6, 3, 3]), Options())
    assert hit.result == 14  # 12 + Ann's skill 2; the 2d3 of damage roll too
    assert [f for r in hit.rolls for f in r.faces] == [6, 6, 3, 3]
    assert TOY.resolve(Roll("2d6"), waiting, ScriptedRoller([2, 5]), Options()).result == 7
    TOY.resolve(Yield("bob"), waiting, SeededRoller(1), Options())


def test_unseat_removes_the_character_and_its_decisions() -> None:
    state = State(_table().characters, (Decision("bob", "?", ("yield",)),))
    after = TOY.unseat(state, "bob")
    assert list(after.characters) == ["ann"] and after.pending == ()
    with pytest.raises(IllegalAction, match="no character 'bob'"):
        TOY.unseat(after, "bob")


def test_action_bounds_are_checked_on_build_and_load() -> None:
    with pytest.raises(IllegalAction, match="bonus: must be between -4 and 4"):
        Strike("ann", "bob", bonus=5)
    with pytest.raises(IllegalAction, match="bonus: must be between -4 and 4"):
        TOY.load_action("strike", {"actor": "ann", "victim": "bob", "bonus": 9})
    with pytest.raises(InvalidSheet, match="how"):
        TOY.load_action("yield", {"actor": "ann", "how": "grovel"})


# ---------------------------------------------------------------------------
# state changes


def test_apply_changes_paths_mappings_values_and_errors() -> None:
    state = _table()
    state = apply_changes(
        state,
        [
            Change("bob", "tags.bleeding", delta=2),
            Change("bob", "tags.bleeding", delta=1),
            Change("ann", "sheet.skill", value=4),
            Change(TABLE, "pending", value=[{"actor": "ann", "prompt": "?", "choices": ["x"]}]),
        ],
    )
    assert state.characters["bob"].tags == {"bleeding": 3}
    assert state.characters["ann"].sheet.skill == 4
    assert state.pending == (Decision("ann", "?", ("x",)),)
    with pytest.raises(RulesError, match="no character 'zed'"):
        apply_changes(state, [Change("zed", "wounds", delta=1)])
    with pytest.raises(RulesError, match="no field 'hp'"):
        apply_changes(state, [Change("ann", "hp", delta=1)])
    with pytest.raises(RulesError, match=r"ann\.sheet\.name: cannot add"):
        apply_changes(state, [Change("ann", "sheet.name", delta=1)])
    with pytest.raises(RulesError, match=r"ann\.wounds"):
        apply_changes(state, [Change("ann", "wounds", value="many")])
    kitted = apply_changes(state, [Change("ann", "kit", value=[{"name": "rope"}, {"name": "axe"}])])
    kitted = apply_changes(kitted, [Change("ann", "kit.1.skill", delta=2)])
    assert kitted.characters["ann"].kit == (Sheet("rope"), Sheet("axe", 2))
    with pytest.raises(RulesError, match=r"no item 5 \(it has 2\)"):
        apply_changes(kitted, [Change("ann", "kit.5.skill", delta=1)])


@given(st.lists(st.tuples(st.sampled_from(["ann", "bob"]), st.integers(-5, 5)), max_size=12))
def test_deltas_commute_so_skipping_one_equals_never_having_it(
    deltas: list[tuple[str, int]],
) -> None:
    changes = [Change(who, "wounds", delta=d) for who, d in deltas]
    forward = apply_changes(_table(), changes)
    backward = apply_changes(_table(), list(reversed(changes)))
    assert forward == backward


# ---------------------------------------------------------------------------
# fields: forms and the command line


def test_describe_fields_gives_types_defaults_bounds_and_references() -> None:
    desc = {d["name"]: d for d in describe_fields(Strike)}
    assert desc["actor"] == {
        "name": "actor",
        "type": "string",
        "required": True,
        "doc": "who strikes",
        "ref": "character",
    }
    assert desc["bonus"]["ge"] == -4 and desc["bonus"]["le"] == 4 and desc["bonus"]["default"] == 0
    assert describe_fields(Yield)[1]["choices"] == ["bow", "flee"]


def test_key_value_words_become_typed_action_data() -> None:
    data = data_from_pairs(Strike, ["actor=ann", "victim=bob", "bonus=-2"])
    assert TOY.load_action("strike", data) == Strike("ann", "bob", -2)
    with pytest.raises(RulesError, match="bonus: 'x' is not a whole number"):
        data_from_pairs(Strike, ["bonus=x"])
    with pytest.raises(RulesError, match="speed: unknown field; known: actor, bonus, victim"):
        data_from_pairs(Strike, ["speed=1"])
    with pytest.raises(RulesError, match="write each field as key=value"):
        data_from_pairs(Strike, ["actor"])
    with pytest.raises(RulesError, match="how: 'grovel' is not one of bow, flee"):
        data_from_pairs(Yield, ["how=grovel"])


def test_slug_makes_ids_from_names() -> None:
    assert slug("  Giazza the Red ") == "giazza-the-red"
    assert slug("¡¡") == "character"


def test_brute_oracle_enumerates_every_face() -> None:
    program = Dice.roll(((2, 4),), max, lambda: Distribution.of(max(f) for f in _faces(4)))
    assert program.odds() == program.brute()


def _faces(sides: int) -> list[tuple[int, int]]:
    return list(product(range(1, sides + 1), repeat=2))


def test_the_neutral_tracker_and_sheet_read_in_words() -> None:
    rules = ToyRules()
    options = Options()
    state = rules.seat(State(), "ann", Sheet("Ann", 2), options)
    tracked = rules.tracker(state, options)
    assert tracked["table"] == [["Pending", []], ["Round", 0]]
    rows = dict(tracked["characters"]["ann"])  # type: ignore[call-overload,index]
    assert rows["Wounds"] == 0 and "Sheet" not in rows and "sheet" not in rows
    view = rules.sheet_view(Sheet("Ann", 2), None, options)
    assert view.name == "Ann"
    assert [(r.label, r.value) for r in view.sections[0].rows] == [("Skill", "2")]


@pytest.mark.parametrize("game", SYSTEMS)
def test_a_verdict_fails_a_sheet_on_what_validate_finds(game: str) -> None:
    """``verdict`` (what ``validate`` commands print) refuses a sheet on exactly the rules
    ``validate`` (what a table checks) finds broken, for every example of every game."""
    rules = get(game)
    options = rules.options_type()
    for sheet in rules.examples().values():
        verdict = rules.verdict(sheet, options)
        assert verdict.problems == rules.validate(sheet, options)
        if game == "arm":  # the cost in character points, legal or not
            assert verdict.data["chp"]["total"] > 0 and verdict.summary.endswith(" chp")
