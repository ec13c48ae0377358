"""The simulator against the exact chains: every exact value inside the 99.9 % interval,
over several seeds; reproducible; early stop; bad requests refused before any work."""

from __future__ import annotations

import time
from functools import cache

import pytest

from referee.analysis.chain import explore
from referee.analysis.errors import AnalysisError
from referee.analysis.scenario import Scenario
from referee.analysis.simulate import SimResult, Table, runs_needed, simulate, wilson, z_for
from referee.analysis.solve import ExactResult, solve


@cache
def _exact(game: str) -> ExactResult:
    return solve(explore(Scenario.default(game).model()))


def _inside(exact: ExactResult, sim: SimResult) -> None:
    for key in ("a", "b", "draw"):
        est = sim.p[key]
        assert est.low <= float(exact.p[key]) <= est.high, (key, exact.p[key], est)
    assert exact.expected_rounds is not None
    er = sim.expected_rounds
    assert er.low <= float(exact.expected_rounds) <= er.high
    for cid, value in exact.damage.items():
        d = sim.damage[cid]
        assert d.low <= float(value) <= d.high, (cid, value, d)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mnemonic_exact_values_lie_inside_the_intervals(seed: int) -> None:
    sim = simulate(Scenario.default("mnemonic").model(), runs=20_000, seed=seed)
    _inside(_exact("mnemonic"), sim)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12])
def test_mongrel_exact_values_lie_inside_the_intervals(seed: int) -> None:
    sim = simulate(Scenario.default("mongrel").model(), runs=20_000, seed=seed)
    _inside(_exact("mongrel"), sim)


@pytest.mark.slow
def test_runs_resolved_directly_by_the_game_agree_with_the_chain_too() -> None:
    sim = simulate(Scenario.default("mnemonic").model(), runs=3000, seed=5, budget=0)
    assert sim.direct_states > 0  # budget 0: no step is tabulated
    _inside(_exact("mnemonic"), sim)


def test_the_same_seed_gives_the_same_numbers() -> None:
    model = Scenario.default("mnemonic").model
    one = simulate(model(), runs=5000, seed=7).data()
    two = simulate(model(), runs=5000, seed=7).data()
    other = simulate(model(), runs=5000, seed=8).data()
    m = model()
    table = Table(m)
    simulate(m, runs=3000, seed=1, table=table)  # tabulates part of the chain first
    reused = simulate(m, runs=5000, seed=7, table=table).data()
    for d in (one, two, other, reused):
        d.pop("seconds")
        d.pop("states")
    assert one == two == reused
    assert one != other


@pytest.mark.slow
def test_card_decks_are_simulated_reproducibly() -> None:
    sc = Scenario.default("mnemonic")
    sc.options = {"randomizer": "3cards"}
    one = simulate(sc.model(), runs=200, seed=3)
    two = simulate(sc.model(), runs=200, seed=3)
    assert one.direct_states > 0  # three cards from a deck: too many to list, resolved
    assert one.p["a"] == two.p["a"] and one.rounds == two.rounds


def test_precision_stops_early_and_is_met() -> None:
    model = Scenario.default("mnemonic").model()
    sim = simulate(model, runs=1, precision=0.02, seed=4, batch=500)
    assert sim.stopped_early
    widest = max((sim.p[k].high - sim.p[k].low) / 2 for k in ("a", "b", "draw"))
    assert widest <= 0.02
    assert sim.runs < runs_needed(0.02, z_for(0.999))


def test_unreachable_precision_is_refused_at_once() -> None:
    began = time.perf_counter()
    with pytest.raises(AnalysisError, match=r"may need .* runs"):
        simulate(Scenario.default("mongrel").model(), precision=1e-6)
    with pytest.raises(AnalysisError, match="precision must be"):
        simulate(Scenario.default("mongrel").model(), precision=0)
    with pytest.raises(AnalysisError, match="confidence"):
        simulate(Scenario.default("mongrel").model(), confidence=1.0)
    assert time.perf_counter() - began < 5


def test_wilson_interval_brackets_the_proportion() -> None:
    z = z_for(0.999)
    assert abs(z - 3.2905) < 1e-3
    low, high = wilson(0, 100, z)
    assert low == 0 and 0 < high < 0.2
    low, high = wilson(50, 100, z)
    assert low < 0.5 < high


def test_the_check_kernel_draws_the_games_exact_odds() -> None:
    import numpy as np

    from referee.analysis.compare import compare
    from referee.analysis.kernel import CheckSampler

    dist = compare("mneme", {"difficulty": 8}).series["plain"]  # 2d6 - 8
    sampler = CheckSampler(dist)
    assert sampler.total == 36
    n = 400_000
    counts = sampler.counts(n, np.random.default_rng(1), chunk=50_000)
    assert counts.sum() == n
    z = z_for(0.999)
    for outcome, c in zip(sampler.outcomes, counts.tolist(), strict=True):
        low, high = wilson(c, n, z)
        assert low <= float(dist.probability(outcome)) <= high
    big = compare("mongrel", {"tn": 4, "dice": "6", "modes": "over"}).series["6d6 over"]
    assert CheckSampler(big).draw(10, np.random.default_rng(2)).shape == (10,)


@pytest.mark.slow
def test_a_mongrel_defence_policy_exact_and_simulated_agree() -> None:
    sc = Scenario.default("mongrel")
    sc.policies = {"vooruk": "defend", "giazza": "balanced"}
    sc.params = {"until": "collapsed"}
    exact = solve(explore(sc.model()))
    assert exact.p["a"] + exact.p["b"] == 1
    _inside(exact, simulate(sc.model(), runs=20_000, seed=21))
