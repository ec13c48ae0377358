"""Conflict rules one by one: order, advancing, recovery, fatigue, Resolve."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.mongrel.conflict import (
    Advance,
    Attack,
    Conflict,
    Fighter,
    Recover,
    Rest,
    SpendResolve,
    VowRefresh,
    Wait,
    initial_order,
)
from referee.systems.mongrel.damage import lose_resolve
from referee.systems.mongrel.examples import example
from referee.systems.mongrel.options import Options

NO_DICE = ScriptedRoller([])


def _three() -> Conflict:
    names = ("alwia", "giazza", "vooruk")
    return Conflict.start([Fighter.from_sheet(example(n)) for n in names], NO_DICE)


def test_order_beast_then_man_then_demon_then_coin() -> None:
    assert _three().order == ("vooruk", "giazza", "alwia")  # Beast 4, 1, 0
    a = Fighter.from_sheet(example("giazza"), "a")
    b = Fighter.from_sheet(example("giazza"), "b")
    assert initial_order((a, b), ScriptedRoller([2])) == ("b", "a")
    assert initial_order((a, b), ScriptedRoller([1])) == ("a", "b")


def test_advance_costs_1_ap_and_takes_the_next_action() -> None:
    c = _three().apply(Advance("alwia"), NO_DICE)
    assert c.order[0] == "alwia" and c.fighter("alwia").body.ap == 5
    c = c.apply(Wait("alwia"), NO_DICE)
    assert c.order == ("vooruk", "giazza", "alwia")
    with pytest.raises(IllegalAction, match="not next"):
        c.apply(Recover("alwia"), NO_DICE)


def test_recovery_from_zero_and_to_maximum() -> None:
    c = _three()
    v = c.fighter("vooruk")
    c = c._put(replace(v, body=replace(v.body, ap=0)))
    with pytest.raises(IllegalAction, match="only action is to recover"):
        c.apply(Attack("vooruk", "giazza", "Rend"), NO_DICE)
    c = c.apply(Recover("vooruk"), NO_DICE)
    assert c.fighter("vooruk").body.ap == 1
    c = c._put(replace(c.fighter("vooruk"), body=replace(c.fighter("vooruk").body, ap=1)))
    c = replace(c, order=("vooruk", "giazza", "alwia"))
    c = c.apply(Recover("vooruk"), NO_DICE)
    assert c.fighter("vooruk").body.ap == 3


def test_fatigue_limits_full_refreshes_to_physique_per_hour() -> None:
    c = _three()
    v = c.fighter("vooruk")
    tired = replace(v, body=replace(v.body, ap=1), refreshes=7)  # Physique 7 used up
    c = c._put(tired).apply(Recover("vooruk"), NO_DICE)
    assert c.fighter("vooruk").body.ap == 2
    rested = c.apply(Rest("vooruk", 1), NO_DICE)
    assert rested.fighter("vooruk").refreshes == 0


def test_a_fatigued_refresh_yields_one_point_but_never_past_the_maximum() -> None:
    c = _three()
    v = c.fighter("vooruk")  # AP 3 of 3, Physique 7
    full = c._put(replace(v, refreshes=7)).apply(Recover("vooruk"), NO_DICE)
    assert full.fighter("vooruk").body.ap == 3  # one point, but the maximum is 3
    two = replace(v, body=replace(v.body, ap=2), refreshes=7)
    assert c._put(two).apply(Recover("vooruk"), NO_DICE).fighter("vooruk").body.ap == 3


def test_fatigue_also_limits_the_refresh_variant() -> None:
    opts = Options(refresh_variant=True)
    c = _three()
    v = c.fighter("vooruk")
    fresh = c._put(replace(v, body=replace(v.body, ap=2))).apply(Recover("vooruk"), NO_DICE, opts)
    assert fresh.fighter("vooruk").body.ap == 5 and fresh.fighter("vooruk").refreshes == 1
    tired = replace(v, body=replace(v.body, ap=2), refreshes=7)  # Physique 7 refreshes used
    after = c._put(tired).apply(Recover("vooruk"), NO_DICE, opts)
    assert after.fighter("vooruk").body.ap == 3 and after.fighter("vooruk").refreshes == 7


def test_refresh_variant_goes_above_the_maximum_but_not_when_full() -> None:
    opts = Options(refresh_variant=True)
    c = _three()
    with pytest.raises(IllegalAction, match="full up"):
        c.apply(Recover("vooruk"), NO_DICE, opts)
    v = c.fighter("vooruk")
    c = c._put(replace(v, body=replace(v.body, ap=2))).apply(Recover("vooruk"), NO_DICE, opts)
    assert c.fighter("vooruk").body.ap == 5


def test_resolve_for_ap_and_collapse_at_zero() -> None:
    c = _three().apply(SpendResolve("giazza", 2), NO_DICE)
    g = c.fighter("giazza").body
    assert (g.ap, g.ir) == (6, 2)
    c = c.apply(SpendResolve("giazza", 2), NO_DICE)
    g = c.fighter("giazza").body
    assert g.ir == 0 and g.collapsed and g.ap == 0 and g.effective_ap_max == 1
    c = c.apply(VowRefresh("giazza"), NO_DICE)
    assert c.fighter("giazza").body.ir == 4 and c.fighter("giazza").body.ap_cap is None


def test_chill_drains_resolve_and_collapsed_cannot_defend() -> None:
    body = Fighter.from_sheet(example("vooruk")).body
    drained = lose_resolve(body, 5)
    assert drained.ir == 0 and drained.collapsed and drained.ap_cap == 1
    c = _three()
    g = c.fighter("giazza")
    c = c._put(replace(g, body=replace(g.body, collapsed=True, ap=0)))
    with pytest.raises(IllegalAction, match="cannot defend"):
        c.apply(Attack("vooruk", "giazza", "Rend", defend=True), NO_DICE)
    # any hit on a collapsed character is terminal: Giazza spends 1 Resolve to live
    hit = c.apply(Attack("vooruk", "giazza", "Rend"), ScriptedRoller([1, 1, 1, 1, 1, 1]))
    body = hit.fighter("giazza").body
    assert body.terminal and not body.dead and body.ir == 3 and body.ap == 4
