"""Every worked example of ARM 1.2, with the example's dice and every number it states."""

from __future__ import annotations

from decimal import Decimal

import pytest

from referee.dice.roller import ScriptedRoller
from referee.systems.arm import RULESET
from referee.systems.arm import RULESET as ARM
from referee.systems.arm import actions as a
from referee.systems.arm.combat import (
    may_defend,
    melee_difficulty,
    melee_total,
    round_problems,
)
from referee.systems.arm.damage import Condition, accumulate
from referee.systems.arm.options import Options
from referee.systems.arm.scale import (
    convert,
    log_of,
    measure_of,
    round_log,
)
from referee.systems.arm.sheet import Sheet, point_cost
from referee.systems.arm.state import State
from referee.systems.arm.tables import SHOCK_LEVELS, WOUND_LEVELS
from referee.systems.base import Action, IllegalAction, Outcome

# ---------------------------------------------------------------------------
# Scale


def test_measure_of_minus_three_is_a_quarter() -> None:
    assert measure_of(-3) == Decimal("0.25")


def test_log_of_1342_is_16() -> None:
    assert log_of(1342) == 16


CHART = {
    -40: "0.00000001",
    -35: "0.0000001",
    -30: "0.000001",
    -25: "0.00001",
    -20: "0.0001",
    -15: "0.001",
    -10: "0.01",
    -5: "0.1",
    0: "1",
    1: "1.5",
    2: "2.5",
    3: "4",
    4: "6",
    5: "10",
    10: "100",
    15: "1000",
    20: "10000",
    25: "100000",
    30: "1000000",
    35: "10000000",
    40: "100000000",
    45: "1000000000",
}


@pytest.mark.parametrize(("log", "measure"), CHART.items())
def test_the_whole_chart_both_ways(log: int, measure: str) -> None:
    assert measure_of(log) == Decimal(measure)
    assert log_of(Decimal(measure)) == log


def test_every_log_on_the_chart_is_a_decade_times_a_step() -> None:
    steps = [Decimal(s) for s in ("1", "1.5", "2.5", "4", "6")]
    for log in range(-40, 50):
        decade, step = divmod(log, 5)
        assert measure_of(log) == steps[step] * Decimal(10) ** decade
        assert log_of(measure_of(log)) == log


def test_the_exact_method_agrees_with_the_chart_within_rounding() -> None:
    for log in range(-40, 50):
        exact = measure_of(log, "exact")
        assert log_of(exact, "exact") == log
        assert abs(float(exact) / float(measure_of(log)) - 1) < 0.07


def test_corven_sprints_100_feet_per_three_second_round() -> None:
    assert measure_of(5) == 10  # about 10 metres per second
    feet_per_second = convert(5, "m/s", "ft/s")
    assert feet_per_second == 8
    assert log_of(3) == 2
    per_round = convert(5, "m/s", "ft/round", round_log=round_log("3s"))
    assert per_round == 10 == feet_per_second + 2
    assert measure_of(per_round) == 100


def test_starship_decius_accelerates_0_06_million_km_per_hour_per_hour() -> None:
    assert convert(3, "m/s/s", "km/s/s") == -12
    assert convert(3, "m/s/s", "1e6km/s/s") == -42
    assert convert(3, "m/s/s", "1e6km/h/s") == -24
    result = convert(3, "m/s/s", "1e6km/h/h")
    assert result == -6 == -42 + 18 + 18
    assert convert(3, "m/s^2", "1e6km/h^2") == -6
    assert measure_of(result) == Decimal("0.06")


def test_the_examples_in_the_damage_section_add_levels() -> None:
    moderate_then_severe = accumulate(Condition(wound=2), 3, 0)
    assert moderate_then_severe.wound == 5 and WOUND_LEVELS[5] == "Dead"
    dazed_then_giddy = accumulate(Condition(shock=1), 0, 2)
    assert dazed_then_giddy.shock == 3 and SHOCK_LEVELS[3] == "Reeling"


def test_character_creation_prices() -> None:
    from referee.systems.arm.catalog import DEFAULT_SETTING

    assert 6 * DEFAULT_SETTING.stat_cost("Fitness") == 60
    assert 8 * DEFAULT_SETTING.stat_cost("Willpower") == 40
    alex = ARM.example("alex")
    assert point_cost(alex)["stats"] == 60 + 35 + 25 + 70 + 40 + 30


def test_the_result_ladder() -> None:
    """Task Resolution: -5 or less ... 5 or more, each result with its meaning."""
    from referee.systems.arm.tables import RESULT_LADDER

    expected = {
        -9: "Complete failure",
        -5: "Complete failure",
        -4: "Bad failure",
        -3: "Bad failure",
        -2: "Partial failure",
        -1: "Partial failure",
        0: "Draw",
        1: "Unconvincing success",
        2: "Unconvincing success",
        3: "Definite success",
        4: "Definite success",
        5: "Astonishing success",
        12: "Astonishing success",
    }
    assert {r: RESULT_LADDER.label(r) for r in expected} == expected


def test_subtasks_and_an_optional_research_task() -> None:
    """The programming example: the whole is the worst subtask; research helps, never limits."""
    from referee.systems.arm.checks import helper_bonus

    opts = Options()
    coder = Sheet(name="Coder", stats={"Wit": 7, "Dexterity": 6})
    state = RULESET.seat(RULESET.initial_state(opts), "coder", coder, opts)
    parts = (a.Subtask("Wit", 5), a.Subtask("Wit", 6), a.Subtask("Dexterity", 3))
    whole = _roll(a.Subtasks("coder", parts), state, [2, 1, 3, 3, 4, 3], opts)
    analysis, coding, debugging = (p["result"] for p in whole.details["parts"])  # type: ignore[index]
    assert (analysis, coding, debugging) == (3, 1, 4)
    assert whole.result == 1 == min(analysis, coding, debugging)
    research = 3
    assert helper_bonus(research, large_effect=True) == 3  # the result, if positive
    assert helper_bonus(-2, large_effect=True) == 0
    assert helper_bonus(research, large_effect=False) == 1  # small effect: +1 on a success
    assert helper_bonus(0, large_effect=False) == 1 and helper_bonus(-1, large_effect=False) == 0
    helped = _roll(a.Task("coder", 6, "Wit", helper=research), state, [1, 1], opts)
    assert helped.details["base"] == 7 + 3


def test_round_lengths_of_any_size() -> None:
    """Rounds: a 10-minute skirmish, a half-second race turn, 2-second melee rounds."""
    assert round_log("10min") == log_of(10) + 9 == 14
    assert round_log("0.5s") == log_of(0.5) == -1
    assert round_log("2s") == log_of(2) == 2
    assert round_log("1h") == 18 and round_log("1day") == 25
    assert convert(5, "m/s", "m/round", round_log=round_log("3s")) == 7  # Corven, metres per 3 s
    assert measure_of(7) == 25


def test_a_push_adds_half_again() -> None:
    """Pushing a movement rate: +1 on the log is about 50% more (1 -> 1.5)."""
    assert measure_of(1) / measure_of(0) == Decimal("1.5")
    assert measure_of(6) / measure_of(5) == Decimal("1.5")


def test_human_racial_limits_and_stat_prices() -> None:
    """Character Creation: humans 3-9 in every stat, Run 2-6, Walk -2-4, Climb -3-3, Swim -4-3."""
    from referee.systems.arm.catalog import DEFAULT_SETTING, HUMAN, STATS, Range
    from referee.systems.arm.sheet import Sheet, validate

    assert all(HUMAN.stats[s] == Range(3, 9) for s in STATS) and len(STATS) == 6
    assert HUMAN.movement == {
        "Run": Range(2, 6),
        "Walk": Range(-2, 4),
        "Climb": Range(-3, 3),
        "Swim": Range(-4, 3),
    }
    assert [DEFAULT_SETTING.stat_cost(s) for s in STATS] == [10, 5, 5, 10, 5, 5]
    fit_six = Sheet(name="A", stats={"Fitness": 6})
    will_eight = Sheet(name="B", stats={"Willpower": 8})
    assert point_cost(fit_six)["stats"] == 60 and point_cost(will_eight)["stats"] == 40
    average = Sheet(name="Average", stats=dict.fromkeys(STATS, 6), movement={"Swim": -4})
    assert validate(average) == ()
    edges = Sheet(name="Edge", stats={**dict.fromkeys(STATS, 3), "Wit": 9, "Charisma": 2})
    assert [p.field for p in validate(edges)] == ["stats.Charisma"]


# ---------------------------------------------------------------------------
# The melee example: Alex, Brad and Christine, round by round.
# The narrative's values are used (axe damage 7, Brad's Willpower 6); the
# table's values are tested after it (see discrepancies.py).


def _roll(action: Action, state: State, faces: list[int], options: Options) -> Outcome:
    """Resolve ``action`` with exactly the example's faces."""
    roller = ScriptedRoller(faces)
    outcome = RULESET.resolve(action, state, roller, options)
    roller.assert_exhausted()
    return outcome


def _task(
    total: int, difficulty: int, plus: int, minus: int, options: Options | None = None
) -> tuple[int, int, str, bool]:
    """A check of ``total`` (stat + mods) through the ruleset: (total rolled, result, label,
    success)."""
    opts = options or Options()
    state = RULESET.seat(RULESET.initial_state(opts), "x", Sheet(name="x", stats={}), opts)
    o = _roll(a.Task("x", difficulty, total=total), state, [plus, minus], opts)
    assert o.result is not None and o.success is not None
    return o.details["total"], o.result, o.label, o.success  # type: ignore[return-value]


def test_the_example_characters_match_their_table() -> None:
    alex, brad, christine = ARM.example("alex"), ARM.example("brad"), ARM.example("christine")
    assert [alex.stat(s) for s in ("Fitness", "Dexterity", "Toughness")] == [6, 7, 5]
    assert [alex.stat(s) for s in ("Wit", "Charisma", "Willpower")] == [7, 8, 6]
    assert [brad.stat(s) for s in ("Fitness", "Dexterity", "Toughness")] == [8, 5, 8]
    assert [brad.stat(s) for s in ("Wit", "Charisma", "Willpower")] == [4, 5, 7]
    assert [christine.stat(s) for s in ("Fitness", "Dexterity", "Toughness")] == [7, 7, 6]
    assert [christine.stat(s) for s in ("Wit", "Charisma", "Willpower")] == [6, 7, 5]
    assert alex.armour_values() == (4, 2) and brad.armour_values() == (0, 0)
    assert christine.armour_values() == (2, 0)
    sword, axe, rapier = alex.weapon(), brad.weapon(), christine.weapon()
    assert (sword.damage, sword.attack, sword.parry) == (6, 0, -1)
    assert (axe.damage, axe.attack, axe.parry) == (8, 0, -3)
    assert (rapier.damage, rapier.attack, rapier.parry) == (4, 1, 1)
    assert alex.mod("Swords") == 1 and brad.mod("Strength") == 1 and christine.mod("Rapiers") == 2


def test_round_one_brad_charges_and_alex_dives_under_the_axe() -> None:
    brad, alex = ARM.example("brad"), ARM.example("alex")
    difficulty = melee_difficulty("attack")
    assert difficulty == 4
    assert melee_total(brad, "attack") == (8, ())  # the axe's attack modifier is 0
    total, result, label, success = _task(brad.total("Fitness"), difficulty, 3, 5)
    assert (total, result, success) == (6, 2, True)
    assert label == "Unconvincing success"
    dodge = melee_difficulty("prepared defence", attack_result=result)
    assert dodge == 4 == 2 + 2
    total, dodged, label, success = _task(alex.total("Fitness"), dodge, 4, 1)
    assert (total, dodged, success) == (9, 5, True)
    assert label == "Astonishing success"


def test_round_two_the_demon_trick_and_christine_circles() -> None:
    alex, brad, christine = ARM.example("alex"), ARM.example("brad"), ARM.example("christine")
    narrative_willpower = 6
    assert brad.stat("Willpower") == 7  # the narrative subtracts 6
    total, result, label, success = _task(alex.total("Charisma"), narrative_willpower, 2, 2)
    assert (total, result, success) == (8, 2, True)
    total, result, label, success = _task(alex.total("Charisma"), christine.stat("Willpower"), 2, 6)
    assert (total, result, success) == (4, -1, False)
    assert label == "Partial failure"
    wit = alex.stat("Wit")  # circling: Wit against Wit
    total, result, label, success = _task(christine.total("Wit"), wit, 2, 1)
    assert (total, result) == (7, 0)
    assert label == "Draw" and success  # the GM rules the draw a success
    strict = _task(6, 7, 2, 1, Options(draw_succeeds=False))
    assert strict[1] == 0 and strict[3] is False
    assert not round_problems({"Alex": ["other"], "Brad": ["other"], "Christine": ["circle"]})


def test_round_two_with_brads_table_willpower() -> None:
    alex, brad = ARM.example("alex"), ARM.example("brad")
    total, result, _, success = _task(alex.total("Charisma"), brad.stat("Willpower"), 2, 2)
    assert (total, result, success) == (8, 1, True)


def _round_three(axe_damage: int) -> tuple[Condition, list[object]]:
    alex, brad, christine = ARM.example("alex"), ARM.example("brad"), ARM.example("christine")
    seen: list[object] = []
    attack_total, extra = melee_total(christine, "attack", "Rapiers", circled=True)
    assert attack_total == 7 + 2 + 1 + 1
    assert [(m.value, m.source) for m in extra] == [(1, "Rapier attack"), (1, "circling")]
    total, hit, _, success = _task(attack_total, melee_difficulty("attack"), 3, 4)
    seen += [total, hit, success]
    dodge = melee_difficulty("prepared defence", attack_result=hit)
    assert melee_total(alex, "dodge") == (6, ())  # a dodge adds no weapon
    total, dodged, _, success = _task(alex.total("Fitness"), dodge, 4, 3)
    seen += [dodge, total, dodged, success]
    opts = Options()
    state = RULESET.initial_state(opts)
    for cid, sheet in (("alex", alex), ("brad", brad), ("christine", christine)):
        state = RULESET.seat(state, cid, sheet, opts)
    rapier = a.Damage("alex", hit, "christine")  # the rapier's 4 from Christine's sheet
    o = _roll(rapier, state, [2, 5], opts)
    state = RULESET.apply(state, o)
    d = o.details
    seen += [d["total"], d["margin"], d["wound_margin"], d["shock_margin"], d["wound"], d["shock"]]
    # Brad: Alex has used his action dodging, so no defence; a moving target.
    assert not may_defend(["defend"])
    total, hit, _, success = _task(brad.total("Fitness"), melee_difficulty("attack moving"), 6, 3)
    seen += [total, hit, success]
    o = _roll(a.Damage("alex", hit, "brad", damage=axe_damage), state, [2, 2], opts)
    state = RULESET.apply(state, o)
    d = o.details
    seen += [d["total"], d["margin"], d["wound_margin"], d["shock_margin"], d["wound"], d["shock"]]
    seen += [d["wound_label"], d["shock_label"]]
    return state.characters["alex"].condition, seen


def test_round_three_christine_lunges_brad_swings() -> None:
    condition, seen = _round_three(axe_damage=7)  # the narrative's value
    assert seen == [
        10, 6, True,  # Christine: total 10, result 6
        8, 7, -1, False,  # Alex: difficulty 2 + 6, total 7, fails
        7, 2, -2, 0, 0, 1,  # rapier: 4 + 6 + (2 - 5) = 7; 7 - 5 = 2; no wound; shock 0 -> Dazed
        11, 5, True,  # Brad: 8 + 6 - 3 = 11, against 6: 5
        13, 8, 4, 6, 2, 2,  # axe: 5 + 7 + 1 + 0 = 13; 8; 4 -> Moderate; 6 -> Giddy
        "Moderate", "Giddy",
    ]  # fmt: skip
    assert condition == Condition(wound=2, shock=3)
    assert condition.label == "Moderate, Reeling"


def test_round_three_with_the_tables_axe_damage_8() -> None:
    assert ARM.example("brad").weapon().damage == 8
    condition, seen = _round_three(axe_damage=8)
    assert seen[-8:] == [14, 9, 5, 7, 2, 4, "Moderate", "Fainting"]
    assert condition.label == "Moderate, Unconscious"


def test_the_unit_table_is_the_log_of_each_unit_in_metres_and_seconds() -> None:
    """Rounds: every 'to standard' entry is the table-method log of the unit's size."""
    from referee.systems.arm.tables import LENGTH_UNITS, TIME_UNITS

    metres = {"km": 1000, "m": 1, "cm": 0.01, "mm": 0.001, "in": 0.0254, "ft": 0.3048}
    metres["mi"] = 1609.344
    seconds = {"s": 1, "min": 60, "h": 3600, "day": 86400, "week": 604800, "year": 31557600}
    assert {u: log_of(v) for u, v in metres.items()} == dict(LENGTH_UNITS)
    assert {u: log_of(v) for u, v in seconds.items()} == dict(TIME_UNITS)
    assert dict(LENGTH_UNITS) == {
        "km": 15,
        "m": 0,
        "cm": -10,
        "mm": -15,
        "in": -8,
        "ft": -3,
        "mi": 16,
    }
    assert dict(TIME_UNITS) == {"s": 0, "min": 9, "h": 18, "day": 25, "week": 29, "year": 37}
    # from standard to a unit is the opposite sign; per a time unit reverses it again
    assert convert(0, "m", "km") == -15 and convert(0, "m/s", "m/min") == 9


# ---------------------------------------------------------------------------
# The melee example as a sequence of actions on one table (the package's premades)


class Table:
    """A table seating the example's three fighters; each step rolls the example's faces."""

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or Options()
        self.state = RULESET.initial_state(self.options)
        for cid, sheet in RULESET.examples().items():
            self.state = RULESET.seat(self.state, cid, sheet, self.options)

    def do(self, action: Action, *faces: int) -> Outcome:
        outcome = _roll(action, self.state, list(faces), self.options)
        self.state = RULESET.apply(self.state, outcome)
        return outcome

    def waiting(self) -> list[tuple[str, tuple[str, ...]]]:
        return [(d.actor, d.choices) for d in self.state.pending]

    def levels(self, cid: str) -> tuple[int, int]:
        seat = self.state.characters[cid]
        return seat.wound, seat.shock


def _numbers(o: Outcome) -> tuple[object, ...]:
    return (o.details["base"], o.details["total"], o.target, o.result, o.label, o.success)


def test_the_melee_example_as_actions_on_a_table() -> None:
    """Alex, Brad and Christine, three rounds, every number the narrative states."""
    t = Table()
    # Round 1: Brad charges; Alex saw it coming and prepares to dive under the axe.
    t.do(a.NextRound())
    t.do(a.Prepare("alex"))
    brad = t.do(a.Attack("brad", "alex"), 3, 5)
    assert _numbers(brad) == (8, 6, 4, 2, "Unconvincing success", True)
    assert t.waiting() == [("alex", ("defend", "take-blow"))]
    alex = t.do(a.Defend("alex"), 4, 1)  # difficulty 2 + Brad's 2
    assert _numbers(alex) == (6, 9, 4, 5, "Astonishing success", True)
    assert t.state.attacks == () and t.waiting() == []
    t.do(a.Move("christine"))  # she runs carefully towards Alex
    assert t.state.characters["christine"].acted == ("move",)
    # Round 2: "AAHH!! A DEMON!!" - Charisma against Willpower (the narrative's 6 for Brad).
    t.do(a.NextRound())
    demon = t.do(a.Contest("alex", "brad", opponent_modifier=-1, round_action=True), 2, 2)
    assert _numbers(demon) == (8, 8, 6, 2, "Unconvincing success", True)
    t.do(a.LoseAction("brad"))  # Brad whips around looking for the demon instead of attacking
    with pytest.raises(IllegalAction, match="one action per round"):
        RULESET.plan(a.Attack("brad", "alex"), t.state, t.options)
    fooled = t.do(a.Contest("alex", "christine"), 2, 6)
    assert _numbers(fooled) == (8, 4, 5, -1, "Partial failure", False)
    circle = t.do(a.Circle("christine", "alex"), 2, 1)
    assert _numbers(circle) == (6, 7, 7, 0, "Draw", True)  # the GM counts the draw
    assert circle.details["next_attack_bonus"] == 1
    assert t.state.characters["christine"].found == "alex"
    # Round 3: Christine lunges (+1 from circling), Alex dodges and fails; Brad swings.
    t.do(a.NextRound())
    assert t.state.round == 3 and t.state.characters["christine"].weakness == "alex"
    t.do(a.Prepare("alex"))  # he means to dodge under any blows and run for the door
    lunge = t.do(a.Attack("christine", "alex", mods=("Rapiers",)), 3, 4)
    assert [(m.value, m.source) for m in lunge.modifiers] == [
        (7, "Fitness"),
        (2, "Rapiers"),
        (1, "Rapier attack"),
        (1, "circling"),
    ]
    assert _numbers(lunge) == (11, 10, 4, 6, "Astonishing success", True)
    dodge = t.do(a.Defend("alex"), 4, 3)
    assert _numbers(dodge) == (6, 7, 8, -1, "Partial failure", False)
    assert t.waiting() == [("christine", ("strike",))]
    rapier = t.do(a.Strike("christine"), 2, 5).details
    assert (rapier["total"], rapier["margin"]) == (7, 2)  # 4 + 6 + (2 - 5); minus Toughness 5
    assert (rapier["wound_margin"], rapier["shock_margin"]) == (-2, 0)  # chain blocks 4 / 2
    assert (rapier["wound_label"], rapier["shock_label"]) == ("Unharmed", "Dazed")
    assert t.levels("alex") == (0, 1)
    axe = t.do(a.Attack("brad", "alex", moving=True), 6, 3)  # a moving target: 6
    assert _numbers(axe) == (8, 11, 6, 5, "Astonishing success", True)
    assert t.waiting() == [("brad", ("strike",))]  # Alex used his action: no defence
    blow = t.do(a.Strike("brad", damage=7), 2, 2).details  # the narrative's axe (7)
    assert (blow["total"], blow["margin"]) == (13, 8)  # 5 + 7 + Strength 1 + (2 - 2); - 5
    assert (blow["wound_margin"], blow["wound_label"]) == (4, "Moderate")
    assert (blow["shock_margin"], blow["shock_label"]) == (6, "Giddy")
    assert t.levels("alex") == (2, 3) and blow["condition"] == "Moderate, Reeling"
    # The GM rules that Reeling Alex takes -2 on all actions next round.
    t.do(a.ImposePenalty("alex", -2))
    t.do(a.NextRound())
    assert t.state.characters["alex"].penalty == -2
    tracker = RULESET.tracker(t.state, t.options)["characters"]
    assert ["Wound", "Moderate (2)"] in tracker["alex"] and ["Shock", "Reeling (3)"] in tracker[
        "alex"
    ]


def test_the_melee_example_with_the_sheets_values() -> None:
    """Brad's sheet Willpower 7 (result 1, still fooled) and axe 8 (14: Fainting, not Giddy)."""
    t = Table()
    assert t.do(a.Contest("alex", "brad"), 2, 2).result == 1
    t.do(a.Attack("brad", "alex", moving=True), 6, 3)
    t.do(a.TakeBlow("alex"))
    blow = t.do(a.Strike("brad"), 2, 2).details
    assert (blow["total"], blow["wound_label"], blow["shock_label"]) == (14, "Moderate", "Fainting")
    assert t.levels("alex") == (2, 4)
