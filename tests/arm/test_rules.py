"""Sheets, point costs, scale edge cases, combat and magic helpers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.systems.arm import RULESET as ARM
from referee.systems.arm.catalog import DEFAULT_SETTING
from referee.systems.arm.combat import (
    dodge_missile_difficulty,
    in_range,
    max_range,
    may_defend,
    melee_difficulty,
    ranged_difficulty,
    ranged_stat,
    round_problems,
)
from referee.systems.arm.damage import Condition, NamedWound, accumulate, record_wound
from referee.systems.arm.magic import soul_difficulty, spell_named
from referee.systems.arm.options import Options
from referee.systems.arm.scale import convert, group_log, log_of, measure_of, parse_unit
from referee.systems.arm.sheet import (
    Mod,
    Sheet,
    WeaponEntry,
    mod_cost,
    point_cost,
    template_problems,
    validate,
)
from referee.systems.base import IllegalAction, InvalidSheet, RulesError, load_record

STATS = dict.fromkeys(DEFAULT_SETTING.stats, 6)


def test_the_premades_validate() -> None:
    for name in ("alex", "brad", "christine"):
        assert validate(ARM.example(name)) == ()


def test_validation_names_every_problem() -> None:
    sheet = Sheet(
        name="Bad",
        stats={**{k: 6 for k in list(STATS)[:5]}, "Fitness": 10, "Luck": 4},
        race="human",
        movement={"Run": 7, "Fly": 2},
        mods=(
            Mod("Magically Able", -12, "special"),
            Mod("Large", -1, "absolute"),
            Mod("Swords", 1),
            Mod("swords", 2),
            Mod("Strength", 1, "special"),
        ),
        wound=6,
        wounds=tuple(NamedWound(f"w{i}", 1) for i in range(6)),
        chp=10,
    )
    fields = [p.field for p in validate(sheet)]
    assert fields == [
        "stats.Willpower",
        "stats.Fitness",
        "stats.Luck",
        "movement.Run",
        "movement.Fly",
        "mods.0.value",
        "mods.1.value",
        "mods.3",
        "wound",
        "wounds",
        "chp",
    ]
    unknown = Sheet(name="X", stats=STATS, race="elf")
    assert [p.field for p in validate(unknown)] == ["race"]


def test_point_costs() -> None:
    sheet = Sheet(
        name="Costed",
        stats=STATS,
        movement={"Run": 4},
        mods=(
            Mod("Short-Sighted", -3),
            Mod("Large", 4, "absolute"),
            Mod("Magically Able", -8, "special"),
        ),
    )
    cost = point_cost(sheet)
    assert cost["stats"] == 6 * 10 + 6 * 10 + 4 * 6 * 5
    assert mod_cost(Mod("Short-Sighted", -3)) == -9
    assert mod_cost(Mod("Large", 4, "absolute")) == mod_cost(Mod("Small", 4, "absolute")) == 12
    assert mod_cost(Mod("Magically Able", -8, "special")) == 10 + 2 * 10
    assert cost["total"] == cost["stats"] + cost["mods"]


def test_templates_fix_stats_and_mods() -> None:
    template = Sheet(name="Fencer", stats=STATS, kind="template", mods=(Mod("Rapiers", 2),))
    ok = Sheet(name="Ann", stats=STATS, mods=(Mod("Rapiers", 2), Mod("Empathic", 1)))
    assert template_problems(template, ok) == ()
    bad = Sheet(name="Bo", stats={**STATS, "Wit": 7})
    assert [p.field for p in template_problems(template, bad)] == ["stats.Wit", "mods"]


def test_load_record_reports_bad_json_fields() -> None:
    with pytest.raises(InvalidSheet) as e:
        load_record(Sheet, {"name": "X", "stats": {"Fitness": "high"}, "colour": 1})
    fields = {p.field for p in e.value.problems}
    assert "colour" in fields and "stats.Fitness" in fields


def test_scale_errors_and_ties() -> None:
    assert [log_of(x) for x in (2, 5, 8, 9.9)] == [2, 4, 5, 5]
    assert log_of(0.25) == -3 and log_of(0.06) == -6
    for bad in (0, -1, "x"):
        with pytest.raises(RulesError):
            log_of(bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        measure_of(5000)
    with pytest.raises(RulesError, match="unknown unit"):
        parse_unit("furlong")
    with pytest.raises(RulesError, match="different kinds"):
        convert(1, "m", "s")
    with pytest.raises(RulesError, match="round length"):
        convert(1, "m/s", "m/round")
    assert convert(0, "h", "min") == 9
    assert convert(0, "mi", "km") == 1


def test_group_efforts() -> None:
    assert group_log([6, 6]) == (8, "lowest log + log of 2")
    assert group_log([6, 6], count="helpers")[0] == 6
    assert group_log([3, 9])[0] == log_of(measure_of(3) + measure_of(9))
    with pytest.raises(RulesError):
        group_log([])


def test_melee_table() -> None:
    assert melee_difficulty("attack", size=4) == 0
    assert melee_difficulty("attack moving", size=-1) == 7
    assert melee_difficulty("defend", attack_result=3) == 7
    assert melee_difficulty("counter-blow defence", attack_result=3) == 9
    assert melee_difficulty("berserk attack") == 3
    with pytest.raises(RulesError):
        melee_difficulty("defend")
    with pytest.raises(RulesError):
        melee_difficulty("joust")
    assert not may_defend(["attack"]) and may_defend([])
    assert round_problems({"A": ["defend", "counter-blow"], "B": ["attack"]}) == ()
    assert [p.field for p in round_problems({"A": ["attack", "defend"], "B": ["dance"]})] == [
        "A",
        "B[0]",
    ]


def test_ranged_rules() -> None:
    bow = DEFAULT_SETTING.ranged_weapon("Long bow")
    assert bow is not None and max_range(bow, {"Fitness": 6}) == 13
    assert in_range(bow, 13, {"Fitness": 6}) and not in_range(bow, 14, {"Fitness": 6})
    assert ranged_stat(bow) == "Dexterity"
    assert ranged_difficulty(10) == 24
    assert ranged_difficulty(-3, moving=True, cover=2) == 8
    with pytest.raises(IllegalAction):
        dodge_missile_difficulty(bow, 3)
    from dataclasses import replace

    spear = replace(bow, name="Spear", dodgeable=True, aimed=False)
    assert dodge_missile_difficulty(spear, 3) == 7
    assert dodge_missile_difficulty(spear, 3, prepared=True) == 5
    assert (
        dodge_missile_difficulty(spear, 3, prepared=True, options=Options(ranged_prepared_dodge=6))
        == 9
    )


def test_magic() -> None:
    fireball = spell_named(DEFAULT_SETTING, "fire-ball")
    assert (fireball.difficulty, fireball.accuracy, fireball.damage) == (7, 20, 12)
    assert in_range(fireball, 1000) and not fireball.dodgeable
    assert fireball.stats == ("Wit", "Willpower")
    assert [
        soul_difficulty(o) for o in ("move", "shape", "transmute similar", "imbue conditional")
    ] == [4, 6, 7, 12]


def test_named_wounds() -> None:
    opts = Options(record_wounds=True)
    c = Condition()
    for i in range(5):
        c = record_wound(c, f"wound {i}", 1, opts)
    with pytest.raises(IllegalAction, match="at most 5"):
        record_wound(c, "one too many", 1, opts)
    with pytest.raises(IllegalAction):
        record_wound(Condition(), "ankle", 2)
    assert accumulate(Condition(4, 4), 3, 3).label == "Dead, Unconscious"


def _base(sheet: Sheet, action: object) -> int:
    """The stat + mods (+ modifiers) a check of ``sheet`` (seated as "x") rolls with."""
    from referee.dice.roller import ScriptedRoller
    from referee.systems.arm import RULESET

    opts = Options()
    state = RULESET.seat(RULESET.initial_state(opts), "x", sheet, opts)
    out = RULESET.resolve(action, state, ScriptedRoller([1, 1]), opts)  # type: ignore[arg-type]
    return out.number("base")


def test_situational_mods() -> None:
    """Signed mods add; an absolute mod adds when it helps and subtracts when it hinders."""
    from referee.systems.arm.actions import SoulMagic, Task

    giant = Sheet(
        name="Giant",
        stats=STATS,
        mods=(
            Mod("Large", 4, "absolute"),
            Mod("Short-Sighted", -3),
            Mod("Magically Able", 1, "special"),
        ),
    )
    assert _base(giant, Task("x", stat="Fitness", helps=("Large",))) == 10  # climbing a wall
    assert _base(giant, Task("x", stat="Fitness", hinders=("Large",))) == 2  # dodging gunfire
    assert _base(giant, Task("x", stat="Wit", mods=("Short-Sighted",))) == 3
    assert _base(giant, SoulMagic("x", "shape")) == 7  # Willpower + Magically Able
    with pytest.raises(IllegalAction, match="Magically Able"):
        _base(ARM.example("brad"), SoulMagic("x", "shape"))
    with pytest.raises(IllegalAction, match="absolute"):
        _base(giant, Task("x", stat="Fitness", mods=("Large",)))
    with pytest.raises(IllegalAction, match="not an absolute mod"):
        _base(giant, Task("x", stat="Fitness", helps=("Short-Sighted",)))
    with pytest.raises(IllegalAction, match="no mod 'Luck'"):
        _base(giant, Task("x", stat="Fitness", mods=("Luck",)))


def test_movement_push() -> None:
    from referee.dice.roller import ScriptedRoller
    from referee.systems.arm import RULESET
    from referee.systems.arm.actions import Move

    allowed = Options(pushing=True)
    corven = Sheet(name="Corven", stats=STATS, movement={"Run": 5})
    state = RULESET.seat(RULESET.initial_state(allowed), "corven", corven, allowed)
    pushed = [
        RULESET.resolve(Move("corven", push=True), state, ScriptedRoller([f]), allowed)
        for f in (1, 3, 6)
    ]
    assert [(o.result, o.details["shock_cost"]) for o in pushed] == [(5, 0), (6, 1), (6, 0)]
    assert [(c.target, c.field) for c in pushed[1].changes] == [
        ("corven", "shock"),
        ("corven", "acted"),
    ]
    with pytest.raises(IllegalAction):
        RULESET.resolve(Move("corven", push=True), state, ScriptedRoller([3]), Options())


def test_blows_from_sheets() -> None:
    from referee.systems.arm.actions import Shoot
    from referee.systems.arm.combat import melee_blow

    blow = melee_blow(ARM.example("brad"), ARM.example("alex"), 5)
    assert (blow.damage, blow.strength, blow.toughness, blow.wound_armour, blow.shock_armour) == (
        8,
        1,
        5,
        4,
        2,
    )
    assert blow.attack == 14
    rapier = melee_blow(ARM.example("christine"), ARM.example("alex"), 6)
    assert rapier.attack == 10 and rapier.strength == 0
    fist = melee_blow(
        Sheet(name="F", stats=STATS, weapons=(WeaponEntry("Fist"),)), ARM.example("brad"), 1
    )
    assert fist.stun and fist.damage == 1
    gun = DEFAULT_SETTING.ranged_weapon("Handgun")
    assert gun is not None and _base(ARM.example("alex"), Shoot("x", "Handgun")) == 7 + 17


@settings(max_examples=100)
@given(st.integers(-200, 200), st.sampled_from(["table", "exact"]))
def test_logs_and_measures_round_trip(log: int, method: str) -> None:
    assert log_of(measure_of(log, method), method) == log  # type: ignore[arg-type]


@settings(max_examples=100)
@given(
    st.integers(-60, 60),
    st.sampled_from(["m", "ft", "km", "mi", "in"]),
    st.sampled_from(["s", "min", "h", "day"]),
)
def test_unit_conversions_invert(log: int, length: str, time: str) -> None:
    there = convert(log, "m/s", f"{length}/{time}")
    assert convert(there, f"{length}/{time}", "m/s") == log
    accel = convert(log, "m/s/s", f"{length}/{time}/{time}")
    assert accel == log - 2 * (convert(0, "s", time)) + convert(0, "m", length)


def test_setting_problems() -> None:
    from dataclasses import replace

    from referee.systems.arm.catalog import Armour, Race, Range, setting_problems

    assert setting_problems(DEFAULT_SETTING) == ()
    broken = replace(
        DEFAULT_SETTING,
        stats=("Fitness", "fitness"),
        armour=(Armour("Hide", -1, 0), Armour("hide", 1, 1)),
        races=(Race("troll", stats={"Luck": Range(5, 3)}),),
    )
    assert [p.field for p in setting_problems(broken)] == [
        "stats",
        "armour.1.name",
        "races.0.stats.Luck",
        "races.0.stats.Luck",
        "armour.0",
    ]


def test_melee_totals_parry_standstill_and_berserk() -> None:
    """Weapon attack / parry columns, standstill +2, circling +1, berserk -2 next action."""
    from referee.systems.arm.combat import melee_modifiers, melee_total

    alex, brad, christine = ARM.example("alex"), ARM.example("brad"), ARM.example("christine")
    assert melee_total(alex, "parry")[0] == 6 - 1  # his sword parries at -1
    assert melee_total(brad, "parry")[0] == 8 - 3  # the axe parries at -3
    assert melee_total(christine, "parry", "Rapiers")[0] == 7 + 2 + 1
    assert melee_total(alex, "dodge", standstill=True)[0] == 6 + 2
    assert melee_total(brad, "attack", after_berserk=True)[0] == 8 - 2
    assert melee_total(brad, "dodge", after_berserk=True)[0] == 8 - 2
    fencer = Sheet(name="F", stats=STATS, weapons=(WeaponEntry("Sword (150cm)"),))
    assert melee_total(fencer, "attack")[0] == 6 - 2
    assert melee_total(fencer, "parry", standstill=True)[0] == 6 - 2 + 2
    house = Options(circling_bonus=2, standstill_defence_bonus=3, berserk_penalty=-1)
    assert melee_total(christine, "attack", circled=True, options=house)[0] == 7 + 1 + 2
    assert sum(m.value for m in melee_modifiers(alex, "dodge", standstill=True, options=house)) == 3
    for bad in (
        {"role": "feint"},
        {"role": "dodge", "weapon": "Sword"},
        {"role": "parry", "circled": True},
        {"role": "attack", "standstill": True},
    ):
        with pytest.raises(RulesError):
            melee_modifiers(alex, **bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="carries no weapon"):
        melee_total(Sheet(name="N", stats=STATS), "attack")


def _shot(shooter: Sheet, weapon: str, distance: int, **more: int) -> tuple[int, int]:
    """(total, difficulty) of a shot by ``shooter`` through the ruleset."""
    from referee.dice.roller import ScriptedRoller
    from referee.systems.arm import RULESET
    from referee.systems.arm.actions import Cast, Shoot

    opts = Options()
    state = RULESET.seat(RULESET.initial_state(opts), "x", shooter, opts)
    if DEFAULT_SETTING.spell(weapon) is not None:
        state = RULESET.apply(
            state, RULESET.resolve(Cast("x", weapon), state, ScriptedRoller([6, 1]), opts)
        )
    out = RULESET.resolve(Shoot("x", weapon, distance, **more), state, ScriptedRoller([1, 1]), opts)  # type: ignore[arg-type]
    assert out.target is not None
    return out.number("base"), out.target


def test_a_shot_totals_difficulty_range_and_blow() -> None:
    """Combat (Ranged): Dexterity + accuracy against 4 + twice the log distance; FIT+7 range."""
    from referee.systems.arm.combat import ranged_blow

    alex, brad = ARM.example("alex"), ARM.example("brad")
    bow = DEFAULT_SETTING.ranged_weapon("Long bow")
    gun = DEFAULT_SETTING.ranged_weapon("Handgun")
    laser = DEFAULT_SETTING.ranged_weapon("Burst-laser rifle")
    assert bow is not None and gun is not None and laser is not None
    assert [(w.damage, w.accuracy, w.max_range) for w in (bow, gun, laser)] == [
        (5, 15, 7),
        (7, 17, 12),
        (10, 20, 15),
    ]
    assert bow.range_stat == "Fitness" and gun.range_stat is None
    # 100 metres is log 10: Alex (Dexterity 7) with a long bow, range 6 + 7 = 13
    assert _shot(alex, "Long bow", log_of(100)) == (7 + 15, 4 + 2 * 10)
    assert _shot(alex, "Long bow", 10, moving=True, size=1, cover=2, weather=1) == (
        22,
        6 - 1 + 20 + 3,
    )
    assert _shot(alex, "Handgun", -2) == (7 + 17, 4)  # a negative distance counts as 0
    with pytest.raises(IllegalAction, match="reaches log distance 13"):
        _shot(alex, "Long bow", 14)
    assert _shot(brad, "Long bow", 15)[0] == 5 + 15  # Brad's Fitness 8 carries the bow to 15
    with pytest.raises(IllegalAction):
        _shot(alex, "Handgun", 13)
    blow = ranged_blow(alex, brad, bow, 3)
    assert (blow.attack, blow.toughness, blow.wound_armour) == (3 + 5, 8, 0)
    # the fire-ball: flung (Fitness) at +20, unlimited range, damage 12
    fireball = spell_named(DEFAULT_SETTING, "Fire-ball")
    assert _shot(alex, "Fire-ball", 30) == (6 + 20, 4 + 60)
    fire = ranged_blow(alex, ARM.example("christine"), fireball, 2)
    assert (fire.attack, fire.toughness, fire.wound_armour, fire.shock_armour) == (14, 6, 2, 0)
    assert fireball.radius_m == 1.0


def test_a_soul_move_result_is_a_distance_per_second() -> None:
    from decimal import Decimal

    from referee.systems.arm.magic import soul_move_metres

    assert soul_move_metres(0) == 1 and soul_move_metres(5) == 10
    assert soul_move_metres(3) == 4 and soul_move_metres(-1) == 0
    assert soul_move_metres(2, "exact") == Decimal("2.51189")
