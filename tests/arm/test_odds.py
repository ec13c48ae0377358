"""Exact odds of checks and damage against brute force over the faces."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.brute import brute_force
from referee.dice.roller import ScriptedRoller
from referee.systems.arm.checks import (
    exact_plain,
    exact_pushed,
    read_plain,
    read_pushed,
    resolve_task,
    task_odds,
    task_procedure,
    whole_odds,
)
from referee.systems.arm.damage import Blow, damage_odds, damage_procedure, level_odds
from referee.systems.arm.options import Options
from referee.systems.base import IllegalAction, RulesError

PUSHING = Options(pushing=True)


def test_the_statistics_match_brute_force() -> None:
    assert exact_plain() == brute_force(((2, 6),), read_plain)
    assert exact_pushed() == brute_force(((3, 6),), read_pushed)


@pytest.mark.parametrize("push", [False, True])
@pytest.mark.parametrize(("total", "difficulty"), [(6, 6), (8, 4), (3, 11), (10, 1)])
def test_task_odds_against_brute_force(total: int, difficulty: int, push: bool) -> None:
    odds = task_odds(total, difficulty, push, PUSHING)
    groups = ((3, 6),) if push else ((2, 6),)

    def read(f: tuple[int, ...]) -> int:
        bonus = 1 if push and f[2] >= 2 else 0
        return total + f[0] - f[1] + bonus - difficulty

    brute = brute_force(groups, read)
    assert odds.result == brute
    assert odds.p_success == brute.at_least(0)
    if push:
        assert odds.shock.probability(1) == Fraction(4, 6)


def test_fifty_fifty_odds() -> None:
    odds = task_odds(6, 6)
    assert odds.p_success == Fraction(21, 36)
    assert odds.result.probability(0) == Fraction(6, 36)
    pushed = task_odds(6, 6, push=True, options=PUSHING)
    assert pushed.p_success == Fraction(21, 36) * Fraction(1, 6) + Fraction(26, 36) * Fraction(5, 6)
    assert task_odds(6, 6, options=Options(draw_succeeds=False)).p_success == Fraction(15, 36)


@settings(max_examples=50)
@given(
    st.integers(-20, 20),
    st.integers(-20, 20),
    st.booleans(),
    st.lists(st.integers(1, 6), min_size=3, max_size=3),
)
def test_a_roll_is_always_a_possible_outcome(
    total: int, difficulty: int, push: bool, faces: list[int]
) -> None:
    o = resolve_task(total, difficulty, ScriptedRoller(faces), push=push, options=PUSHING)
    assert o.result is not None
    assert task_odds(total, difficulty, push, PUSHING).result.probability(o.result) > 0
    assert (
        o.result
        == task_procedure(total, difficulty, push).apply(tuple(faces[: 3 if push else 2]))[0]
    )


def test_push_costs_shock_on_two_to_five_only() -> None:
    costs = {}
    for face in range(1, 7):
        o = resolve_task(
            6, 6, ScriptedRoller([3, 3, face]), push=True, options=PUSHING, actor="Brad"
        )
        costs[face] = (o.result, o.details["shock_cost"], len(o.changes))
    assert costs == {
        1: (0, 0, 0),
        2: (1, 1, 1),
        3: (1, 1, 1),
        4: (1, 1, 1),
        5: (1, 1, 1),
        6: (1, 0, 0),
    }
    o = resolve_task(6, 6, ScriptedRoller([3, 3, 4]), push=True, options=PUSHING, actor="Brad")
    assert (
        o.changes[0].target == "Brad" and o.changes[0].field == "shock" and o.changes[0].delta == 1
    )


def test_pushing_can_be_switched_off() -> None:
    with pytest.raises(IllegalAction, match="pushing"):
        task_odds(6, 6, push=True, options=Options(pushing=False))
    with pytest.raises(IllegalAction):
        resolve_task(6, 6, ScriptedRoller([1, 1, 1]), push=True, options=Options(pushing=False))


def test_subtasks_are_limited_by_the_worst() -> None:
    dist = whole_odds([(6, 4), (7, 6)])

    def read(f: tuple[int, ...]) -> int:
        return min(6 + f[0] - f[1] - 4, 7 + f[2] - f[3] - 6)

    assert dist == brute_force(((4, 6),), read)


BLOWS = [
    Blow(result=6, damage=4, toughness=5, wound_armour=4, shock_armour=2),
    Blow(result=5, damage=7, strength=1, toughness=5, wound_armour=4, shock_armour=2),
    Blow(result=3, damage=1, toughness=6, stun=True),
    Blow(result=12, damage=10, toughness=3),
]


@pytest.mark.parametrize("blow", BLOWS)
def test_damage_odds_against_brute_force(blow: Blow) -> None:
    procedure = damage_procedure(blow)
    brute = brute_force(procedure.groups, lambda f: procedure.rule(procedure.read(f)))
    assert damage_odds(blow) == brute
    levels = level_odds(blow)
    assert levels["wound"] == brute.map(lambda d: d.wound)
    assert levels["shock"] == brute.map(lambda d: d.shock)


def test_damage_table_readings() -> None:
    rule = damage_procedure(Blow(result=0, damage=0, toughness=0)).rule
    table = [(rule((m, 0)).wound, rule((m, 0)).shock) for m in range(0, 13)]
    assert table == [
        (0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 3), (3, 2),
        (3, 4), (4, 3), (4, 5), (5, 4), (5, 5), (5, 5),
    ]  # fmt: skip
    assert rule((-1, 0)).wound == 0 and rule((-1, 0)).shock == 0
    assert not rule((15, 0)).destroyed and rule((16, 0)).destroyed
    assert rule((16, 0)).label == "Destroyed"


def test_stun_moves_a_level_from_wound_to_shock() -> None:
    plain = damage_procedure(Blow(result=0, damage=0, toughness=0)).rule((4, 0))
    stun = damage_procedure(Blow(result=0, damage=0, toughness=0, stun=True)).rule((4, 0))
    assert (plain.wound, plain.shock) == (2, 1)
    assert (stun.wound, stun.shock) == (1, 2)
    capped = damage_procedure(Blow(result=0, damage=0, toughness=0, stun=True)).rule((9, 0))
    assert (capped.wound, capped.shock) == (3, 5)


def test_armour_can_be_ignored_by_option() -> None:
    blow = Blow(result=0, damage=0, toughness=0, wound_armour=4, shock_armour=2)
    with_armour = damage_procedure(blow).rule((4, 0))
    without = damage_procedure(blow, Options(armour_counts=False)).rule((4, 0))
    assert (with_armour.wound, with_armour.shock) == (0, 1)
    assert (without.wound, without.shock) == (2, 1)


@pytest.mark.parametrize("blow", BLOWS[:2])
def test_pushed_damage_odds_against_brute_force(blow: Blow) -> None:
    """A damage roll is a d6 - d6 roll, so it may be pushed once (ARM 1.2, Pushing)."""
    odds = damage_odds(blow, PUSHING, push=True)
    procedure = damage_procedure(blow, PUSHING, push=True)
    assert procedure.groups == ((3, 6),)

    def read(f: tuple[int, ...]) -> tuple[int, int]:
        total = blow.attack + f[0] - f[1] + (1 if f[2] >= 2 else 0)
        return total, 1 if 2 <= f[2] <= 5 else 0

    assert odds.map(lambda d: (d.total, d.push_cost)) == brute_force(((3, 6),), read)
    levels = level_odds(blow, PUSHING, push=True)
    assert levels["shock_cost"].probability(1) == Fraction(4, 6)
    assert levels["wound"] == odds.map(lambda d: d.wound)
    with pytest.raises(IllegalAction):
        damage_odds(blow, push=True)  # pushing is off by default


def test_alex_shrugs_off_the_rapier_unless_christine_pushes() -> None:
    """Round 3's rapier blow (7 against Toughness 5, chain 4/2) with a push die of 3."""
    from referee.systems.arm.damage import resolve_damage

    rapier = BLOWS[0]
    plain = resolve_damage(rapier, ScriptedRoller([2, 5]))
    assert (plain.details["total"], plain.details["wound"], plain.details["shock"]) == (7, 0, 1)
    pushed = resolve_damage(
        rapier, ScriptedRoller([2, 5, 3]), options=PUSHING, push=True, attacker="Christine"
    )
    d = pushed.details
    assert (d["total"], d["wound_margin"], d["shock_margin"]) == (8, -1, 1)
    assert (d["wound_label"], d["shock_label"], d["shock_cost"]) == ("Unharmed", "Unharmed", 1)
    assert [(c.target, c.field, c.delta) for c in pushed.changes] == [("Christine", "shock", 1)]


def test_a_blow_can_ignore_one_sort_of_damage() -> None:
    """A mental attack that cannot physically harm: shock only (ARM 1.2, Damage)."""
    mental = damage_procedure(Blow(result=0, damage=0, toughness=0, ignore="wound")).rule
    assert (mental((8, 0)).wound, mental((8, 0)).shock) == (0, 3)
    assert not mental((20, 0)).destroyed
    numbing = damage_procedure(Blow(result=0, damage=0, toughness=0, ignore="shock")).rule
    assert (numbing((8, 0)).wound, numbing((8, 0)).shock) == (4, 0)
    with pytest.raises(RulesError):
        Blow(result=0, damage=0, toughness=0, ignore="mind")  # type: ignore[arg-type]
