"""The reachable part of a conflict's Markov chain, built from the game's own rules.

:func:`transitions` is one step: the model's policy names the action, the game
plans it, :func:`~.enumerate.outcomes` lists every outcome with its exact
probability, and the game's ``apply`` folds each into the next state. :func:`explore`
walks every state reachable from the start, refusing a chain whose estimate or
whose discovered states pass the bound (an error naming the way out: simulate).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.errors import IllegalAction
from referee.systems.base import Plan

from . import budget as work
from .enumerate import LEAF_BUDGET, by_view, change_key, outcomes
from .errors import AnalysisError, ChainTooLarge
from .model import ConflictModel, Memo, Step

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
