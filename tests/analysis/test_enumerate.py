"""Enumerating a plan's outcomes through the game's own resolve, three ways that must
agree: every face sequence, sorted multisets (for games that declare their faces
exchangeable), and the odds-view shortcut with one outcome per value."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest

from referee.analysis.chain import transitions
from referee.analysis.enumerate import by_view, change_key, first_size, grouped, outcomes
from referee.analysis.errors import ChainTooLarge
from referee.analysis.model import ConflictModel
from referee.analysis.scenario import Scenario
from referee.systems.base import Outcome, Plan


def _by_changes(found: list[tuple[Fraction, Outcome]]) -> dict[Hashable, Fraction]:
    return {change_key(o): p for p, o in grouped(found)}


def _first_attack(game: str, **params: Any) -> tuple[ConflictModel, Any, Plan, Any]:
    sc = Scenario.default(game)
    sc.params.update(params)
    if game == "mneme":  # a knife-sized blade: every face can be listed in a test
        sc.overrides = {"ada": {"weapons.1.damage": "1d3"}}
    model = sc.model()
    state, memo = model.start()
    while True:  # to the first attack
        step = model.next(state, memo)
        if type(step.action).__name__ == "Attack":
            return model, state, model.plan(state, step.action), step
        (_, state, memo, _), *_ = transitions(model, state, memo)


@pytest.mark.slow
def test_outcomes_sum_to_one_and_match_the_games_odds() -> None:
    model, _state, plan, step = _first_attack("mongrel")
    found = outcomes(plan, exchangeable=False)
    assert sum(p for p, _ in found) == 1
    assert len(found) == 6 ** plan.dice[0][0]  # one entry per face sequence
    odds = plan.odds()
    seen: dict[Hashable, Fraction] = {}
    for p, o in found:
        v = model.view(step, o)
        seen[v] = seen.get(v, Fraction(0)) + p
    assert seen == odds.probabilities()


@pytest.mark.slow
@pytest.mark.parametrize("game", ["mongrel", "mnemonic"])
def test_exchangeable_multisets_give_the_same_changes(game: str) -> None:
    model, _state, plan, _ = _first_attack(game)
    assert model.exchangeable
    full = _by_changes(outcomes(plan, exchangeable=False))
    multisets = _by_changes(outcomes(plan, exchangeable=True))
    assert full == multisets


def test_three_d12_is_exchangeable_too() -> None:
    sc = Scenario.default("mnemonic")
    sc.options = {"randomizer": "3d12"}
    model = sc.model()
    assert model.exchangeable
    state, memo = model.start()
    plan = model.plan(state, model.next(state, memo).action)
    full = outcomes(plan, exchangeable=False)
    assert len(full) == 12**3
    assert _by_changes(full) == _by_changes(outcomes(plan, exchangeable=True))


@pytest.mark.parametrize("game", ["mongrel", "arm", "mneme"])
def test_the_odds_view_shortcut_equals_full_enumeration(game: str) -> None:
    model, _state, plan, step = _first_attack(game)
    assert model.viewed(step)
    full = _by_changes(outcomes(plan, exchangeable=model.exchangeable, budget=200_000))
    hints: dict[Hashable, Any] = {}
    quick = by_view(plan, lambda o: model.view(step, o), hints=hints)
    assert _by_changes(quick) == full
    again = by_view(plan, lambda o: model.view(step, o), hints=hints)  # from the hints
    assert _by_changes(again) == full


def test_arm_strike_view_equals_full_enumeration() -> None:
    model, state, _plan, _step = _first_attack("arm")
    moves = transitions(model, state, model.start()[1])
    for _p, new, memo, _t in moves:  # the blow that lands: christine takes it, brad strikes
        nxt = model.next(new, memo)
        if type(nxt.action).__name__ == "TakeBlow":
            (_, landed, memo2, _), *_ = transitions(model, new, memo)
            strike = model.next(landed, memo2)
            plan2 = model.plan(landed, strike.action)
            full = _by_changes(outcomes(plan2))

            def view(o: Outcome, step: Any = strike) -> Hashable:
                return model.view(step, o)

            assert _by_changes(by_view(plan2, view)) == full
            return
    raise AssertionError("no blow landed")


def test_too_many_faces_are_refused_before_resolving() -> None:
    _model, _state, plan, _ = _first_attack("mongrel")
    assert first_size(plan, exchangeable=False) == 6**6
    with pytest.raises(ChainTooLarge, match="simulate instead"):
        outcomes(plan, exchangeable=False, budget=1000)
