"""Conflict rules one by one: order, advancing, recovery, fatigue, Resolve, terminal choices."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.base import Action, Decision, Outcome
from referee.systems.mongrel import RULESET
from referee.systems.mongrel import RULESET as MONGREL
from referee.systems.mongrel.actions import (
    AcceptFate,
    Advance,
    Attack,
    EndConflict,
    Recover,
    Rest,
    SpendResolve,
    SpendResolveToSurvive,
    StartConflict,
    TakeDamage,
    Task,
    VowRefresh,
    Wait,
)
from referee.systems.mongrel.damage import RULE_ZERO_RESOLVE, lose_resolve
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.state import State

OPTS = Options()


def _table(*ids: str, order: tuple[str, ...] | None = None) -> State:
    state = RULESET.initial_state(OPTS)
    for cid in ids:
        state = RULESET.seat(state, cid, MONGREL.example(cid), OPTS)
    return state if order is None else replace(state, order=order)


def _three() -> State:
    return _do(_table("alwia", "giazza", "vooruk"), StartConflict())[1]


def _put(state: State, cid: str, **values: Any) -> State:
    return replace(
        state, characters={**state.characters, cid: replace(state.characters[cid], **values)}
    )


def _do(
    state: State, action: Action, faces: tuple[int, ...] = (), options: Options = OPTS
) -> tuple[Outcome, State]:
    roller = ScriptedRoller(list(faces))
    out = RULESET.resolve(action, state, roller, options)
    roller.assert_exhausted()
    return out, RULESET.apply(state, out)


def test_order_beast_then_man_then_demon_then_coin() -> None:
    assert _three().order == ("vooruk", "giazza", "alwia")  # Beast 4, 1, 0
    twins = RULESET.seat(_table("giazza"), "b", MONGREL.example("giazza"), OPTS)
    out, after = _do(twins, StartConflict(), (2,))  # a coin (a d2) for two tied
    assert after.order == ("b", "giazza") and out.details["order"] == ["b", "giazza"]
    assert _do(twins, StartConflict(), (1,))[1].order == ("giazza", "b")
    odds = RULESET.odds(StartConflict(), twins, OPTS)
    assert odds.probabilities() == {("giazza", "b"): 0.5, ("b", "giazza"): 0.5}
    running = r"^a conflict is running \(Vooruk > Giazza > Alwia\); end it first$"  # by name
    with pytest.raises(IllegalAction, match=running):
        RULESET.odds(StartConflict(), _three(), OPTS)
    assert _do(_three(), EndConflict())[1].order == ()


def test_only_those_named_take_part() -> None:
    state = _do(_table("alwia", "giazza", "vooruk"), StartConflict(("alwia", "giazza")))[1]
    assert state.order == ("giazza", "alwia")
    with pytest.raises(IllegalAction, match="not in a conflict"):
        RULESET.odds(Attack("vooruk", "giazza", "Rend"), state, OPTS)
    # outside the conflict a task needs no turn and costs nothing
    out, after = _do(state, Task("vooruk", "Sense"), (1, 1))
    assert out.success and after.order == state.order


def test_advance_costs_1_ap_and_takes_the_next_action() -> None:
    _, c = _do(_three(), Advance("alwia"))
    assert c.order[0] == "alwia" and c.characters["alwia"].ap == 5
    _, c = _do(c, Wait("alwia"))
    assert c.order == ("vooruk", "giazza", "alwia")
    with pytest.raises(IllegalAction, match="not next"):
        RULESET.odds(Recover("alwia"), c, OPTS)


def test_recovery_from_zero_and_to_maximum() -> None:
    c = _put(_three(), "vooruk", ap=0)
    with pytest.raises(IllegalAction, match="only action is to recover"):
        RULESET.odds(Attack("vooruk", "giazza", "Rend"), c, OPTS)
    _, c = _do(c, Recover("vooruk"))
    assert c.characters["vooruk"].ap == 1
    c = replace(_put(c, "vooruk", ap=1), order=("vooruk", "giazza", "alwia"))
    _, c = _do(c, Recover("vooruk"))
    assert c.characters["vooruk"].ap == 3


def test_fatigue_limits_full_refreshes_to_physique_per_hour() -> None:
    c = _put(_three(), "vooruk", ap=1, refreshes=7)  # Physique 7 used up
    _, c = _do(c, Recover("vooruk"))
    assert c.characters["vooruk"].ap == 2
    _, rested = _do(c, Rest("vooruk", 1))
    assert rested.characters["vooruk"].refreshes == 0 and rested.hours == 1


def test_a_fatigued_refresh_yields_one_point_but_never_past_the_maximum() -> None:
    full = _do(_put(_three(), "vooruk", refreshes=7), Recover("vooruk"))[1]
    assert full.characters["vooruk"].ap == 3  # one point, but the maximum is 3
    two = _put(_three(), "vooruk", ap=2, refreshes=7)
    assert _do(two, Recover("vooruk"))[1].characters["vooruk"].ap == 3


def test_fatigue_also_limits_the_refresh_variant() -> None:
    opts = Options(refresh_variant=True)
    fresh = _do(_put(_three(), "vooruk", ap=2), Recover("vooruk"), options=opts)[1]
    assert fresh.characters["vooruk"].ap == 5 and fresh.characters["vooruk"].refreshes == 1
    tired = _put(_three(), "vooruk", ap=2, refreshes=7)
    after = _do(tired, Recover("vooruk"), options=opts)[1].characters["vooruk"]
    assert after.ap == 3 and after.refreshes == 7


def test_refresh_variant_goes_above_the_maximum_but_not_when_full() -> None:
    opts = Options(refresh_variant=True)
    with pytest.raises(IllegalAction, match="full up"):
        RULESET.odds(Recover("vooruk"), _three(), opts)
    after = _do(_put(_three(), "vooruk", ap=2), Recover("vooruk"), options=opts)[1]
    assert after.characters["vooruk"].ap == 5


def test_resolve_for_ap_and_collapse_at_zero_names_the_rule() -> None:
    _, c = _do(_three(), SpendResolve("giazza", 2))
    g = c.characters["giazza"]
    assert (g.ap, g.ir) == (6, 2)
    out, c = _do(c, SpendResolve("giazza", 2))
    g = c.characters["giazza"]
    assert g.ir == 0 and g.collapsed and g.ap == 0 and g.effective_ap_max == 1
    # the rule that collapses him is stated in the outcome (Sorcery Expertise)
    assert out.details["rule"] == RULE_ZERO_RESOLVE and "If Infernal Resolve hits 0" in out.text(
        "rule"
    )
    assert "collapses (AP 0, maximum 1)" in out.label
    _, c = _do(c, VowRefresh("giazza"))
    assert c.characters["giazza"].ir == 4 and not c.characters["giazza"].exhausted
    # the option off: spending the last point only empties Resolve
    off = Options(zero_ir_collapse_on_spend=False)
    g2 = _do(_three(), SpendResolve("giazza", 4), options=off)[1].characters["giazza"]
    assert (g2.ir, g2.ap, g2.collapsed) == (0, 8, False)


def test_chill_drains_resolve_and_collapsed_cannot_defend() -> None:
    drained = lose_resolve(_table("vooruk").characters["vooruk"], 5)
    assert drained.ir == 0 and drained.collapsed and drained.exhausted
    c = _put(_three(), "giazza", collapsed=True, ap=0)
    with pytest.raises(IllegalAction, match="cannot defend"):
        RULESET.odds(Attack("vooruk", "giazza", "Rend", defend=True), c, OPTS)


def test_a_hit_on_a_collapsed_character_asks_whether_to_spend_resolve() -> None:
    """Terminal damage: the player 'may expend one point of Infernal Resolve to avoid
    dying' - a choice per hit, waited for as a decision, never taken automatically."""
    c = _put(_three(), "giazza", collapsed=True, ap=0)
    out, hit = _do(c, Attack("vooruk", "giazza", "Rend"), (1, 1, 1, 1, 1, 1))
    g = hit.characters["giazza"]
    assert g.terminal and not g.dead and g.ir == 4  # nothing spent yet
    assert hit.pending == (
        Decision("giazza", hit.pending[0].prompt, ("spend-resolve-to-survive", "accept-fate")),
    )
    assert "terminal hit: Giazza chooses" in out.label
    # nothing else happens until Giazza answers; nobody answers for him
    with pytest.raises(IllegalAction, match="Giazza is collapsed and cannot act"):
        RULESET.odds(Wait("giazza"), hit, OPTS)  # collapsed, he may only recover (issue 41)
    with pytest.raises(IllegalAction, match="waiting for Giazza"):
        RULESET.odds(SpendResolveToSurvive("vooruk"), hit, OPTS)
    saved_out, saved = _do(hit, SpendResolveToSurvive("giazza"))
    g = saved.characters["giazza"]
    assert g.terminal and not g.dead and g.ir == 3 and g.ap == 4 and not g.collapsed
    assert saved.pending == () and "terminal hit; 1 Infernal Resolve spent" in saved_out.label
    died_out, died = _do(hit, AcceptFate("giazza"))
    assert died.characters["giazza"].dead and "giazza" not in died.order
    assert died.pending == () and "dies" in died_out.label
    with pytest.raises(IllegalAction, match="no terminal hit"):
        RULESET.odds(SpendResolveToSurvive("giazza"), saved, OPTS)


def test_terminal_with_one_resolve_left_dies_without_asking() -> None:
    """Expending the last point reaches 0, which kills a terminal character: no choice."""
    c = _put(_three(), "giazza", collapsed=True, ap=0, ir=1)
    out, hit = _do(c, TakeDamage("giazza", 1))
    assert hit.characters["giazza"].dead and hit.pending == ()
    assert "expending 1 would reach 0" in out.label
    assert hit.order == ("vooruk", "alwia")


def test_the_dead_cannot_act_or_be_attacked() -> None:
    c = _put(_three(), "giazza", dead=True)
    c = replace(c, order=("vooruk", "alwia"))
    with pytest.raises(IllegalAction, match="Giazza is dead"):
        RULESET.odds(Attack("vooruk", "giazza", "Rend"), c, OPTS)
    with pytest.raises(IllegalAction, match="Giazza is dead"):
        RULESET.odds(Rest("giazza"), c, OPTS)


def test_the_tracker_shows_what_a_referee_needs() -> None:
    c = _put(_three(), "giazza", collapsed=True, ap=0)
    _, hit = _do(c, Attack("vooruk", "giazza", "Rend"), (1, 1, 1, 1, 1, 1))
    shown = RULESET.tracker(hit, OPTS)
    table = dict(shown["table"])  # type: ignore[arg-type]
    assert table["Conflict order"] == "Giazza > Alwia > Vooruk"
    assert table["Next to act"] == "Giazza"
    assert "spend-resolve-to-survive or accept-fate" in table["Waiting for Giazza"]
    giazza = dict(shown["characters"]["giazza"])  # type: ignore[call-overload,index]
    assert giazza["Action Points"] == "0 / 4" and giazza["Infernal Resolve"] == "4 / 4"
    assert giazza["Damage"] == "10 (collapses past 9; terminal at 17)"
    assert giazza["Condition"] == "Terminal" and giazza["Physique"] == "5 (6 less 1 lost)"
