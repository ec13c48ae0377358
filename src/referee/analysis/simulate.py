"""Vectorised Monte Carlo of a conflict with numpy, on the game's own rules.

The simulator never rolls a rule of its own. It grows the same chain as the
exact analysis, lazily: the first time any run reaches a state, that state's
step is worked out exactly by the game (:func:`~.chain.transitions`: the plan's
outcomes and the game's ``apply``) and stored as a row of a flat table -
cumulative probabilities, next nodes, rounds. From then on every run in that
state moves with one uniform number: all runs of a batch step together with one
``numpy.searchsorted`` over the table. States whose step has too many face
combinations to list (three cards from a deck, many damage rolls) are *direct*:
each run there is resolved by the game's own ``resolve`` with a
:class:`NumpyRoller`, which draws from the same seeded generator family and keeps
no per-die record.

Every estimate carries a confidence interval (Wilson's for probabilities, the
normal one for means). Runs go in batches; after each batch the widest interval
of the win probabilities is compared with the requested ``precision`` and the
run stops early once it is met. A precision that ``max_runs`` cannot reach is
refused before any work. Results are reproducible: the seed fixes a
``SeedSequence``; the batch size is part of the recipe.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from referee.dice.roller import RollRecord

from . import budget as work
from .chain import transitions
from .enumerate import first_size
from .errors import AnalysisError, ChainTooLarge
from .model import VERDICT_CODES, ConflictModel, Memo

SIM_BUDGET = 5_000
"""Face combinations a state's step may have to be tabulated; beyond it runs are direct."""
MAX_RUNS = 10_000_000
BATCH = 20_000
MAX_STEPS = 2_000
"""Actions after which a run counts as unfinished (a stalemate the policies never leave)."""


def z_for(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence`` (0.999 -> 3.29)."""
    if not 0.5 <= confidence < 1:
        raise AnalysisError(f"confidence must be in [0.5, 1), not {confidence}")
    return math.sqrt(2) * _erfinv(confidence)


def _erfinv(y: float) -> float:
    """Inverse error function by Newton steps on :func:`math.erf`."""
    x = 0.0
    for _ in range(100):
        err = math.erf(x) - y
        x -= err / (2 / math.sqrt(math.pi) * math.exp(-x * x))
        if abs(err) < 1e-15:
            break
    return x


def wilson(successes: int, n: int, z: float) -> tuple[float, float]:
    """Wilson's score interval for a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # no rounding above 0 ...
    high = 1.0 if successes == n else min(1.0, centre + half)  # ... or below 1
    return low, high


def runs_needed(precision: float, z: float) -> int:
    """Runs that make the widest Wilson half-width (p = 1/2) at most ``precision``."""
    return math.ceil((z / (2 * precision)) ** 2)


class NumpyRoller:
    """Faces from a numpy generator for the game's ``resolve``; no audit record kept."""

    kind = "simulated"
    seed: int | None = None

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng

    def roll(self, n: int, sides: int) -> tuple[int, ...]:
        """``n`` faces of a ``sides``-sided die."""
        return tuple(int(f) for f in self._rng.integers(1, sides + 1, size=n))

    @property
    def records(self) -> tuple[RollRecord, ...]:
        """Nothing: a simulation keeps no per-die record."""
        return ()


@dataclass
class Estimate:
    """A simulated quantity: its estimate and confidence interval."""

    value: float
    low: float
    high: float

    def data(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}


@dataclass
class SimResult:
    """A conflict simulated ``runs`` times (see the module text)."""

    model: dict[str, Any]
    runs: int
    seed: int
    confidence: float
    p: dict[str, Estimate]
    damage: dict[str, Estimate]
    expected_rounds: Estimate
    rounds: dict[int, int]
    states: int
    direct_states: int
    stopped_early: bool
    seconds: float
    unfinished: int = 0
    asked: int = 0
    """The runs asked for, when the work budget stopped the simulation before them."""

    def data(self) -> dict[str, Any]:
        return {
            "method": "simulated",
            "model": self.model,
            "runs": self.runs,
            "seed": self.seed,
            "confidence": self.confidence,
            "p": {k: v.data() for k, v in self.p.items()},
            "damage": {k: v.data() for k, v in self.damage.items()},
            "expected_rounds": self.expected_rounds.data(),
            "rounds": {str(k): v for k, v in sorted(self.rounds.items())},
            "states": self.states,
            "direct_states": self.direct_states,
            "stopped_early": self.stopped_early,
            "unfinished": self.unfinished,
            "seconds": self.seconds,
            "asked": self.asked or self.runs,
        }


@dataclass
class Table:
    """The chain as far as the runs have gone: nodes, and the tabulated steps."""

    model: ConflictModel
    budget: int = SIM_BUDGET
    states: list[Any] = field(default_factory=list)
    memos: list[Memo] = field(default_factory=list)
    index: dict[Hashable, int] = field(default_factory=dict)
    verdict: list[int] = field(default_factory=list)
    damage: list[list[int]] = field(default_factory=list)
    start: list[int] = field(default_factory=list)  # -1 not expanded, -2 direct
    count: list[int] = field(default_factory=list)
    cum: list[float] = field(default_factory=list)
    target: list[int] = field(default_factory=list)
    ticks: list[int] = field(default_factory=list)
    hints: dict[Hashable, Any] = field(default_factory=dict)
    too_big: set[Any] = field(default_factory=set)
    _arrays: tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]] | None = None

    def node(self, state: Any, memo: Memo) -> int:
        """The node of ``(state, memo)``, added (not yet expanded) when new."""
        key = (self.model.key(state), memo)
        found = self.index.get(key)
        if found is not None:
            return found
        i = len(self.states)
        self.index[key] = i
        self.states.append(state)
        self.memos.append(memo)
        v = self.model.verdict(state, memo)
        self.verdict.append(-1 if v is None else VERDICT_CODES[v])
        self.damage.append([self.model.damage(state, c) for c in self.model.fighters])
        self.start.append(-1)
        self.count.append(0)
        return i

    def expand(self, i: int) -> None:
        """Tabulate node ``i``'s step, or mark it direct."""
        state, memo = self.states[i], self.memos[i]
        step = self.model.next(state, memo)
        plan = self.model.plan(state, step.action)
        if step.action in self.too_big or first_size(plan, self.model.exchangeable) > self.budget:
            self.start[i] = -2
            return
        try:
            moves = transitions(self.model, state, memo, budget=self.budget, hints=self.hints)
        except ChainTooLarge:
            self.too_big.add(step.action)  # the same action elsewhere is as big: go direct
            self.start[i] = -2
            return
        self.start[i] = len(self.target)
        self.count[i] = len(moves)
        acc = 0.0
        for p, new, after, t in moves:
            acc += float(p)
            self.cum.append(i + min(acc, 1.0))
            self.target.append(self.node(new, after))
            self.ticks.append(t)
        self.cum[-1] = i + 1.0  # rounding never leaves a gap at the top
        self._arrays = None

    def arrays(self) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]:
        """The table sorted by its keys ``node + cumulative probability`` (rows are added
        as runs reach states, in any order): one ``searchsorted`` finds every move."""
        if self._arrays is None:
            cum = np.asarray(self.cum, dtype=np.float64)
            order = np.argsort(cum, kind="stable")
            self._arrays = (
                cum[order],
                np.asarray(self.target, dtype=np.int64)[order],
                np.asarray(self.ticks, dtype=np.int64)[order],
            )
        return self._arrays


def _direct(table: Table, i: int, roller: NumpyRoller) -> tuple[int, int]:
    """One run from node ``i`` by the game's own resolve: the next node and rounds."""
    model = table.model
    state, memo = table.states[i], table.memos[i]
    step = model.next(state, memo)
    outcome = model.plan(state, step.action).resolve(roller)
    new = model.ruleset.apply(state, outcome)
    return table.node(new, model.after(state, memo, step, outcome, new)), step.ticks


def run_batch(
    table: Table, size: int, rng: np.random.Generator, roller: NumpyRoller
) -> tuple[NDArray[np.int64], NDArray[np.int64], int]:
    """``size`` whole conflicts from the start: final nodes, rounds, and how many did not
    finish within :data:`MAX_STEPS` actions."""
    start = table.node(*table.model.start())
    cur = np.full(size, start, dtype=np.int64)
    rounds = np.zeros(size, dtype=np.int64)
    active = np.arange(size)
    steps = 0
    verdict = np.asarray(table.verdict, dtype=np.int64)
    while active.size and steps < MAX_STEPS:
        work.check("the simulation")
        steps += 1
        nodes = cur[active]
        for i in np.unique(nodes).tolist():
            if table.start[i] == -1:
                table.expand(i)
        starts = np.asarray(table.start, dtype=np.int64)[nodes]
        tab = starts >= 0
        if tab.any():
            cum, target, ticks = table.arrays()
            moving = active[tab]
            u = rng.random(moving.size)
            pos = np.searchsorted(cum, cur[moving] + u, side="right")
            cur[moving] = target[pos]
            rounds[moving] += ticks[pos]
        if not tab.all():
            for run in active[~tab].tolist():
                work.check("the simulation")
                j, t = _direct(table, int(cur[run]), roller)
                cur[run] = j
                rounds[run] += t
        verdict = np.asarray(table.verdict, dtype=np.int64)
        active = active[verdict[cur[active]] < 0]
    return cur, rounds, int(active.size)


def simulate(
    model: ConflictModel,
    *,
    runs: int = 100_000,
    seed: int = 0,
    precision: float | None = None,
    confidence: float = 0.999,
    max_runs: int = MAX_RUNS,
    batch: int = BATCH,
    progress: bool = False,
    on_batch: Callable[[int], None] | None = None,
    budget: int = SIM_BUDGET,
    table: Table | None = None,
    fit_budget: bool = False,
) -> SimResult:
    """Simulate ``model``'s conflict ``runs`` times (or until ``precision`` is met).

    ``precision`` is the widest half-width wanted for the win probabilities at
    ``confidence``; unreachable within ``max_runs`` it is refused at once. ``budget``:
    the face combinations a state's step may have to be tabulated (0: every run is
    resolved directly by the game). ``table`` reuses the states tabulated by an earlier
    simulation of the same model (the numbers do not change; only the time).
    ``fit_budget``: under a work budget (:mod:`.budget`), stop when it is spent and keep
    the batches done until then (the batch under way is dropped; the result says how
    many runs were asked). The first batch must fit, else :class:`~.budget.WorkLimit`.
    The runs done depend on the machine's speed; the numbers of a given count do not.
    """
    z = z_for(confidence)
    if runs < 1 or batch < 1:
        raise AnalysisError("runs and batch must be at least 1")
    if runs > max_runs:
        raise AnalysisError(f"{runs:,} runs asked; at most {max_runs:,} (max_runs)")
    target_runs = runs
    if precision is not None:
        if not 0 < precision < 0.5:
            raise AnalysisError(f"precision must be in (0, 0.5), not {precision}")
        need = runs_needed(precision, z)
        if need > max_runs:
            raise AnalysisError(
                f"precision {precision} at {confidence:.1%} may need {need:,} runs; at most "
                f"{max_runs:,}: ask for less precision or raise max_runs"
            )
        target_runs = need
    began = time.perf_counter()
    seq = np.random.SeedSequence(seed)
    child_steps, child_direct = seq.spawn(2)
    rng = np.random.Generator(np.random.PCG64(child_steps))
    roller = NumpyRoller(np.random.Generator(np.random.PCG64(child_direct)))
    if table is None or table.model is not model:
        table = Table(model, budget)
    fighters = model.fighters
    counts = np.zeros(len(VERDICT_CODES), dtype=np.int64)
    dmg_sum = np.zeros(len(fighters))
    dmg_sq = np.zeros(len(fighters))
    rounds_hist: dict[int, int] = {}
    r_sum = 0.0
    r_sq = 0.0
    done = 0
    unfinished = 0
    early = False
    limited = False
    bar = _Progress(target_runs) if progress else None
    try:
        while done < target_runs:
            size = min(batch, target_runs - done)
            try:
                cur, rounds, left = run_batch(table, size, rng, roller)
            except work.WorkLimit:
                if not (fit_budget and done):
                    raise
                limited = True  # the batch under way is dropped: whole batches only
                break
            unfinished += left
            verdict = np.asarray(table.verdict, dtype=np.int64)[cur]
            verdict[verdict < 0] = VERDICT_CODES["endless"]  # never ended within MAX_STEPS
            counts += np.bincount(verdict, minlength=len(VERDICT_CODES))
            dmg = np.asarray(table.damage, dtype=np.float64)[cur]
            dmg_sum += dmg.sum(axis=0)
            dmg_sq += (dmg * dmg).sum(axis=0)
            r_sum += float(rounds.sum())
            r_sq += float((rounds * rounds).sum())
            for k, c in zip(*np.unique(rounds, return_counts=True), strict=True):
                rounds_hist[int(k)] = rounds_hist.get(int(k), 0) + int(c)
            done += size
            if bar is not None:
                bar.advance(size)
            if on_batch is not None:
                on_batch(done)
            if precision is not None and done < target_runs:
                widest = max(
                    (h - lo) / 2 for lo, h in (wilson(int(c), done, z) for c in counts[:3])
                )
                if widest <= precision:
                    early = True
                    break
    finally:
        if bar is not None:
            bar.close()
    names = list(VERDICT_CODES)
    p = {
        name: Estimate(int(counts[k]) / done, *wilson(int(counts[k]), done, z))
        for k, name in enumerate(names)
    }
    damage = {c: _mean(dmg_sum[k], dmg_sq[k], done, z) for k, c in enumerate(fighters)}
    return SimResult(
        model.describe(),
        done,
        seed,
        confidence,
        p,
        damage,
        _mean(r_sum, r_sq, done, z),
        rounds_hist,
        len(table.states),
        sum(1 for s in table.start if s == -2),
        early,
        time.perf_counter() - began,
        unfinished,
        target_runs if limited else 0,
    )


def _mean(total: float, squares: float, n: int, z: float) -> Estimate:
    mean = total / n
    var = max(0.0, squares / n - mean * mean) * n / max(1, n - 1)
    half = z * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half)


class _Progress:
    """A one-line progress bar on stderr for long runs (a terminal's only): how many runs
    are done, at most ten redraws a second, gone when the runs end."""

    WIDTH: Final = 30

    def __init__(self, total: int) -> None:
        self.total = max(1, total)
        self.done = 0
        self.began = time.monotonic()
        self.drawn = 0.0
        self.live = sys.stderr.isatty()

    def advance(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if self.live and now - self.drawn >= 0.1:
            self.drawn = now
            part = min(1.0, self.done / self.total)
            full = round(part * self.WIDTH)
            left = (now - self.began) * (1 - part) / part if part else 0.0
            bar = "#" * full + "-" * (self.WIDTH - full)
            sys.stderr.write(
                f"\rsimulating [{bar}] {self.done:,}/{self.total:,} runs, ~{left:.0f} s left"
            )
            sys.stderr.flush()

    def close(self) -> None:
        if self.live and self.drawn:
            sys.stderr.write("\r\033[K")  # the line cleared: the result follows
            sys.stderr.flush()
