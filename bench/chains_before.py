"""The exact chain's explore and solve as they were before issue 23 (commit e80c30c), kept
as the benchmark's reference: ``bench_chains.py`` times them beside today's in one run
and checks that both give the same fractions. Not used by referee itself.

Only the imports changed (absolute) and the two modules were joined; state keys come from
today's models (their ``freeze`` was made faster too, so this reference is a little faster
than the code it stands for: the figures measured before any change are in NOTES.md).
"""

# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.errors import IllegalAction
from referee.systems.base import Plan

from referee.analysis import budget as work
from referee.analysis.enumerate import LEAF_BUDGET, by_view, change_key, outcomes
from referee.analysis.errors import AnalysisError, ChainTooLarge
from referee.analysis.model import ConflictModel, Memo, Step

MAX_STATES = 20_000
"""The most states an exact chain explores by default."""

ESTIMATE_LIMIT = 10**14
"""A model whose own upper estimate of its states passes this is refused at once."""

Move = tuple[Fraction, Any, Memo, int]
"""One transition: probability, next state, next memo, rounds started."""


def transitions(
    model: ConflictModel,
    state: Any,
    memo: Memo,
    *,
    budget: int = LEAF_BUDGET,
    hints: dict[Hashable, Any] | None = None,
) -> list[Move]:
    """Every next node of ``(state, memo)`` with its exact probability (merged by
    equal changes and memo)."""
    step = model.next(state, memo)
    try:
        plan = model.plan(state, step.action)
        found = _found(model, step, plan, budget, hints)
    except IllegalAction as e:
        name = model.ruleset.action_name(step.action)
        raise AnalysisError(f"the policy chose {name}, which the rules refuse: {e}") from None
    applied: dict[Hashable, Any] = {}
    merged: dict[tuple[Hashable, Memo], Move] = {}
    for p, outcome in found:
        k = change_key(outcome)
        if k not in applied:
            applied[k] = model.ruleset.apply(state, outcome)
        new = applied[k]
        after = model.after(state, memo, step, outcome, new)
        key = (k, after)
        if key in merged:
            q, s, m, t = merged[key]
            merged[key] = (q + p, s, m, t)
        else:
            merged[key] = (p, new, after, step.ticks)
    return list(merged.values())


def _found(
    model: ConflictModel,
    step: Step,
    plan: Plan,
    budget: int,
    hints: dict[Hashable, Any] | None,
) -> list[tuple[Fraction, Any]]:
    """The step's outcomes: by the game's odds view where the model reads one back for
    this action, else by enumerating every face."""
    if plan.dice and model.viewed(step):
        return by_view(
            plan,
            lambda o: model.view(step, o),
            exchangeable=model.exchangeable,
            budget=budget,
            hints=hints,
        )
    return outcomes(plan, exchangeable=model.exchangeable, budget=budget)


@dataclass
class Chain:
    """The explored chain: node ``i`` is ``states[i]`` with ``memos[i]``; ``edges[i]``
    lists ``(probability, next node, ticks)``; ``verdicts[i]`` is set on end nodes."""

    model: ConflictModel
    states: list[Any] = field(default_factory=list)
    memos: list[Memo] = field(default_factory=list)
    verdicts: list[str | None] = field(default_factory=list)
    edges: list[list[tuple[Fraction, int, int]]] = field(default_factory=list)
    index: dict[Hashable, int] = field(default_factory=dict)

    def node(self, state: Any, memo: Memo) -> tuple[int, bool]:
        """The node of ``(state, memo)`` and whether it is new."""
        key = (self.model.key(state), memo)
        found = self.index.get(key)
        if found is not None:
            return found, False
        i = len(self.states)
        self.index[key] = i
        self.states.append(state)
        self.memos.append(memo)
        self.verdicts.append(self.model.verdict(state, memo))
        self.edges.append([])
        return i, True

    def __len__(self) -> int:
        return len(self.states)


def too_large(what: str, bound: int) -> ChainTooLarge:
    """The error for a chain over its bound."""
    return ChainTooLarge(
        f"{what} passes the exact chain's bound of {bound:,} states: "
        "simulate instead (--simulate), or raise --max-states"
    )


def explore(
    model: ConflictModel, *, max_states: int = MAX_STATES, budget: int = LEAF_BUDGET
) -> Chain:
    """Every node reachable from the model's start, with its exact transitions."""
    estimate = model.size_estimate()
    if estimate > ESTIMATE_LIMIT:
        raise too_large(f"the model's estimate of {estimate:,} states", ESTIMATE_LIMIT)
    chain = Chain(model)
    state, memo = model.start()
    first, _ = chain.node(state, memo)
    todo = [first]
    hints: dict[Hashable, Any] = {}
    while todo:
        i = todo.pop()
        work.check("the exact chain")
        if chain.verdicts[i] is not None:
            continue
        moves = transitions(model, chain.states[i], chain.memos[i], budget=budget, hints=hints)
        for p, new, after, ticks in moves:
            j, fresh = chain.node(new, after)
            if fresh:
                if len(chain) > max_states:
                    raise too_large(f"the conflict reached {len(chain):,} states; it", max_states)
                todo.append(j)
            chain.edges[i].append((p, j, ticks))
    return chain


from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd
from typing import Any


VERDICTS = ("a", "b", "draw", "endless")
HORIZON = 40
"""Rounds whose probability is given one by one (the rest: one tail)."""


def components(chain: Chain) -> list[list[int]]:
    """Strongly connected components, each listed after every component it reaches."""
    n = len(chain)
    index = [-1] * n
    low = [0] * n
    on = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work: list[tuple[int, int]] = [(root, 0)]
        while work:
            v, k = work.pop()
            if k == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on[v] = True
            edges = chain.edges[v]
            if k < len(edges):
                work.append((v, k + 1))
                w = edges[k][1]
                if index[w] == -1:
                    work.append((w, 0))
                elif on[w]:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on[w] = False
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return out


def _eliminate(rows: list[dict[int, Fraction]], rhs: list[list[Fraction]]) -> list[list[Fraction]]:
    """Solve ``rows · x = rhs`` (sparse rows, several right-hand sides) exactly."""
    m = len(rows)
    for col in range(m):
        work.check("solving the exact chain")
        pivot = next((r for r in range(col, m) if rows[r].get(col)), None)
        if pivot is None:
            raise AnalysisError("a singular chain: a loop the conflict can never leave")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rhs[col], rhs[pivot] = rhs[pivot], rhs[col]
        inv = 1 / rows[col][col]
        prow = {c: v * inv for c, v in rows[col].items()}
        prhs = [v * inv for v in rhs[col]]
        rows[col], rhs[col] = prow, prhs
        for r in range(m):
            if r == col:
                continue
            factor = rows[r].get(col)
            if not factor:
                continue
            row = rows[r]
            for c, v in prow.items():
                nv = row.get(c, Fraction(0)) - factor * v
                if nv:
                    row[c] = nv
                else:
                    row.pop(c, None)
            rhs[r] = [a - factor * b for a, b in zip(rhs[r], prhs, strict=True)]
    return rhs


@dataclass
class ExactResult:
    """A conflict's exact outcome (see the module text)."""

    model: dict[str, Any]
    states: int
    p: dict[str, Fraction]
    damage: dict[str, Fraction]
    expected_rounds: Fraction | None
    rounds: dict[int, Fraction] = field(default_factory=dict)
    rounds_beyond: Fraction = Fraction(0)
    horizon: int = HORIZON

    def data(self) -> dict[str, Any]:
        """JSON: fractions as ``"num/den"`` with a float beside each."""

        def frac(x: Fraction) -> dict[str, Any]:
            return {"exact": f"{x.numerator}/{x.denominator}", "value": float(x)}

        return {
            "method": "exact",
            "model": self.model,
            "states": self.states,
            "p": {k: frac(v) for k, v in self.p.items()},
            "damage": {k: frac(v) for k, v in self.damage.items()},
            "expected_rounds": None if self.expected_rounds is None else frac(self.expected_rounds),
            "rounds": {str(k): frac(v) for k, v in self.rounds.items()},
            "rounds_beyond": frac(self.rounds_beyond),
            "horizon": self.horizon,
        }


def solve(chain: Chain, *, horizon: int = HORIZON) -> ExactResult:
    """The exact result of an explored chain."""
    model = chain.model
    fighters = model.fighters
    k_labels = len(VERDICTS)
    width = k_labels + len(fighters) + 1  # verdicts, damages, rounds
    value: list[list[Fraction] | None] = [None] * len(chain)
    for comp in components(chain):
        work.check("solving the exact chain")
        members = set(comp)
        exits = any(j not in members for i in comp for _, j, _ in chain.edges[i])
        ended = [i for i in comp if chain.verdicts[i] is not None]
        if ended:  # an end node is alone in its component (it has no edges)
            i = ended[0]
            value[i] = _end_values(chain, i, chain.verdicts[i] or "draw")
            continue
        if not exits:  # nobody ever leaves: a stalemate
            for i in comp:
                value[i] = _end_values(chain, i, "endless")
            continue
        pos = {i: r for r, i in enumerate(comp)}
        rows: list[dict[int, Fraction]] = []
        rhs: list[list[Fraction]] = []
        for i in comp:
            row: dict[int, Fraction] = {pos[i]: Fraction(1)}
            b = [Fraction(0)] * width
            for p, j, ticks in chain.edges[i]:
                if j in members:
                    row[pos[j]] = row.get(pos[j], Fraction(0)) - p
                else:
                    vj = value[j]
                    assert vj is not None
                    for c in range(width):
                        b[c] += p * vj[c]
                b[-1] += p * ticks
            rows.append({c: v for c, v in row.items() if v})
            rhs.append(b)
        if len(comp) == 1:
            only = rows[0][0]
            value[comp[0]] = [x / only for x in rhs[0]]
        else:
            solved = _eliminate(rows, rhs)
            for i, r in pos.items():
                value[i] = solved[r]
    start = value[0]
    assert start is not None
    probs = dict(zip(VERDICTS, start[:k_labels], strict=True))
    damage = dict(zip(fighters, start[k_labels:-1], strict=True))
    expected = start[-1] if probs["endless"] == 0 else None
    rounds, beyond = rounds_distribution(chain, horizon)
    return ExactResult(
        model.describe(), len(chain), probs, damage, expected, rounds, beyond, horizon
    )


def _end_values(chain: Chain, i: int, verdict: str) -> list[Fraction]:
    model = chain.model
    labels = [Fraction(int(v == verdict)) for v in VERDICTS]
    damages = [Fraction(model.damage(chain.states[i], c)) for c in model.fighters]
    return [*labels, *damages, Fraction(0)]


def _round_kernel(chain: Chain) -> dict[int, dict[tuple[int, int], Fraction]]:
    """For each node: where its actions lead before the next round starts, as
    ``{(ticks, node): probability}`` (``ticks`` 0: the conflict ended first). Actions
    that start no round are followed through (they must not loop)."""
    kernel: dict[int, dict[tuple[int, int], Fraction]] = {}
    visiting: set[int] = set()

    def reach(i: int) -> dict[tuple[int, int], Fraction]:
        found = kernel.get(i)
        if found is not None:
            return found
        if i in visiting:
            raise AnalysisError("a loop that starts no round: the rounds cannot be counted")
        visiting.add(i)
        out: dict[tuple[int, int], Fraction] = {}
        for p, j, t in chain.edges[i]:
            if t > 0 or chain.verdicts[j] is not None:
                out[(t, j)] = out.get((t, j), Fraction(0)) + p
            else:
                for key, q in reach(j).items():
                    out[key] = out.get(key, Fraction(0)) + p * q
        visiting.discard(i)
        kernel[i] = out
        return out

    stack = [0]
    seen = {0}
    while stack:
        i = stack.pop()
        if chain.verdicts[i] is not None:
            continue
        for (_, j), _p in reach(i).items():
            if j not in seen:
                seen.add(j)
                stack.append(j)
    return kernel


def rounds_distribution(chain: Chain, horizon: int) -> tuple[dict[int, Fraction], Fraction]:
    """P(the conflict ends after exactly k rounds) for k up to ``horizon``, and the
    probability that it lasts longer (or never ends).

    The chain is first cut at round starts (:func:`_round_kernel`); the mass is then
    pushed one round at a time in whole numbers over one common denominator, so no
    fraction is reduced until the end.
    """
    if chain.verdicts[0] is not None:
        return {0: Fraction(1)}, Fraction(0)
    kernel = _round_kernel(chain)
    scale = 1
    for moves in kernel.values():
        for p in moves.values():
            scale = scale * p.denominator // gcd(scale, p.denominator)
    weights = {
        i: [(t, j, int(p * scale)) for (t, j), p in moves.items()] for i, moves in kernel.items()
    }
    dist: dict[int, Fraction] = {}
    beyond = Fraction(0)
    mass: dict[int, dict[int, int]] = {0: {0: 1}}  # ticks -> node -> weight over scale**step
    step = 0
    denominator = 1
    while mass:
        step += 1
        denominator *= scale
        nxt: dict[int, dict[int, int]] = {}
        over = 0
        done: dict[int, int] = {}
        for ticks, nodes in mass.items():
            for i, m in nodes.items():
                for t, j, w in weights[i]:
                    k = ticks + t
                    if k > horizon:
                        over += m * w
                    elif chain.verdicts[j] is not None:
                        done[k] = done.get(k, 0) + m * w
                    else:
                        row = nxt.setdefault(k, {})
                        row[j] = row.get(j, 0) + m * w
        for k, m in done.items():
            dist[k] = dist.get(k, Fraction(0)) + Fraction(m, denominator)
        beyond += Fraction(over, denominator)
        mass = nxt  # every surviving weight carries the same denominator: kept whole
        if step > horizon + 1:
            raise AnalysisError("the rounds did not settle: a loop that starts no round")
    return dict(sorted(dist.items())), beyond
