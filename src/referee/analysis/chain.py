"""The reachable part of a conflict's Markov chain, built from the game's own rules.

:func:`transitions` is one step: the model's policy names the action, the game
plans it, :func:`~.enumerate.outcomes` lists every outcome with its exact
probability, and the game's ``apply`` folds each into the next state. :func:`explore`
walks every state reachable from the start, refusing a chain whose estimate or
whose discovered states pass the bound (an error naming the way out: simulate).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import partial
from typing import Any

from referee.errors import IllegalAction
from referee.systems.base import Outcome, Plan
from referee.systems.state import replaced

from . import budget as work
from .collect import paused
from .enumerate import LEAF_BUDGET, by_view, change_key, outcomes, settled
from .errors import AnalysisError, ChainTooLarge
from .freeze import freeze, record_fields
from .model import ConflictModel, Memo, Scope, Step

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
    lean: bool = True,
) -> list[Move]:
    """Every next node of ``(state, memo)`` with its exact probability (merged by
    equal changes and memo, or by equal next states on the lean path)."""
    step = model.next(state, memo)
    if lean:
        plan = _lean_plan(model, state, memo, step)
        if plan is not None:
            after = plan[1]
            return [
                (p, new, after, ticks)
                for p, _, new, ticks in _lean_moves(model, step, plan[0], budget, hints)
            ]
    return _moves(model, state, memo, step, budget, hints)


def _lean_plan(
    model: ConflictModel, state: Any, memo: Memo, step: Step
) -> tuple[Plan, Memo] | None:
    """The step's plan and the memo after it, when the chain may take its lean path: the
    game's plan gives the state after a roll without building the outcome
    (:meth:`Plan.settle`), the model reads the step's outcomes by the odds' value
    (:meth:`ConflictModel.viewed`) and its memo reads no outcome
    (:meth:`ConflictModel.step_memo`)."""
    if not model.viewed(step):
        return None
    after = model.step_memo(state, memo, step)
    if after is None:
        return None
    try:
        plan = model.plan(state, step.action)
    except IllegalAction as e:
        name = model.ruleset.action_name(step.action)
        raise AnalysisError(f"the policy chose {name}, which the rules refuse: {e}") from None
    return (plan, after[0]) if plan.settles and plan.dice else None


def _lean_moves(
    model: ConflictModel,
    step: Step,
    plan: Plan,
    budget: int,
    hints: dict[Hashable, Any] | None,
) -> list[tuple[Fraction, Hashable, Any, int]]:
    """The step's moves by the plan's lean path: ``(probability, key, next state,
    ticks)``, merged by equal next states (the memo after the step is one for all)."""
    merged: dict[Hashable, list[Any]] = {}
    for p, new in settled(plan, exchangeable=model.exchangeable, budget=budget, hints=hints):
        key = model.key(new)
        found = merged.get(key)
        if found is None:
            merged[key] = [p, new]
        else:
            found[0] += p
    return [(p, key, new, step.ticks) for key, (p, new) in merged.items()]


def _planned(
    model: ConflictModel,
    state: Any,
    step: Step,
    budget: int,
    hints: dict[Hashable, Any] | None,
) -> list[tuple[Fraction, Outcome]]:
    """The step's outcomes in ``state`` with their probabilities (a refusal of the rules
    named as the policy's mistake)."""
    try:
        plan = model.plan(state, step.action)
        return _found(model, step, plan, budget, hints)
    except IllegalAction as e:
        name = model.ruleset.action_name(step.action)
        raise AnalysisError(f"the policy chose {name}, which the rules refuse: {e}") from None


def _moves(
    model: ConflictModel,
    state: Any,
    memo: Memo,
    step: Step,
    budget: int,
    hints: dict[Hashable, Any] | None,
) -> list[Move]:
    """:func:`transitions` for a step already chosen."""
    found = _planned(model, state, step, budget, hints)
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
    lists ``(probability, next node, ticks)``; ``verdicts[i]`` is set on end nodes;
    ``keys[i]`` is the model's key of ``states[i]``."""

    model: ConflictModel
    states: list[Any] = field(default_factory=list)
    memos: list[Memo] = field(default_factory=list)
    verdicts: list[str | None] = field(default_factory=list)
    edges: list[list[tuple[Fraction, int, int]]] = field(default_factory=list)
    index: dict[Hashable, int] = field(default_factory=dict)
    keys: list[Hashable] = field(default_factory=list)

    def node(self, state: Any, memo: Memo) -> tuple[int, bool]:
        """The node of ``(state, memo)`` and whether it is new."""
        return self.keyed(self.model.key(state), memo, lambda: state)

    def keyed(self, key: Hashable, memo: Memo, state: Callable[[], Any]) -> tuple[int, bool]:
        """The node of the state keyed ``key`` with ``memo`` and whether it is new (the
        state is made, by ``state()``, only for a new node)."""
        found = self.index.get((key, memo))
        if found is not None:
            return found, False
        i = len(self.states)
        self.index[(key, memo)] = i
        made = state()
        self.states.append(made)
        self.memos.append(memo)
        self.keys.append(key)
        self.verdicts.append(self.model.verdict(made, memo))
        self.edges.append([])
        return i, True

    def __len__(self) -> int:
        return len(self.states)


def too_large(what: str, bound: int) -> ChainTooLarge:
    """The error for a chain over its bound."""
    return ChainTooLarge(
        f"{what} passes the exact chain's bound of {bound:,} states: "
        "simulate instead, or raise the bound"
    )


def explore(
    model: ConflictModel,
    *,
    max_states: int = MAX_STATES,
    budget: int = LEAF_BUDGET,
    share: bool = True,
    lean: bool = True,
) -> Chain:
    """Every node reachable from the model's start, with its exact transitions.

    Where the model names a step's :meth:`~.model.ConflictModel.scope`, nodes that agree
    on it share the step's outcomes (:class:`_Shared`); ``share=False`` resolves every
    node's step itself (the reference the sharing is tested against). Where the game's
    plan gives the state after a roll directly (:func:`_lean_plan`), no outcome is built;
    ``lean=False`` builds and applies every outcome (the reference the lean path is
    tested against). The cyclic garbage collector is held off meanwhile
    (:func:`~.collect.paused`).
    """
    with paused():
        return _explore(model, max_states, budget, share, lean)


def _explore(model: ConflictModel, max_states: int, budget: int, share: bool, lean: bool) -> Chain:
    """:func:`explore`'s walk."""
    estimate = model.size_estimate()
    if estimate > ESTIMATE_LIMIT:
        raise too_large(f"the model's estimate of {estimate:,} states", ESTIMATE_LIMIT)
    chain = Chain(model)
    state, memo = model.start()
    first, _ = chain.node(state, memo)
    todo = [first]
    hints: dict[Hashable, Any] = {}
    shared = _Shared(model, budget, hints, lean)
    while todo:
        i = todo.pop()
        work.check("the exact chain")
        if chain.verdicts[i] is not None:
            continue
        state, memo = chain.states[i], chain.memos[i]
        step = model.next(state, memo)
        scope = model.scope(state, memo, step) if share else None
        lean_plan = _lean_plan(model, state, memo, step) if lean and scope is None else None
        if lean_plan is not None:
            plan, after = lean_plan
            found = [
                (p, chain.keyed(key, after, partial(_same, new)), ticks)
                for p, key, new, ticks in _lean_moves(model, step, plan, budget, hints)
            ]
        elif scope is None:
            found = [
                (p, chain.node(new, after), ticks)
                for p, new, after, ticks in _moves(model, state, memo, step, budget, hints)
            ]
        else:
            found = shared.moves(chain, i, step, scope)
        for p, (j, fresh), ticks in found:
            if fresh:
                if len(chain) > max_states:
                    raise too_large(f"the conflict reached {len(chain):,} states; it", max_states)
                todo.append(j)
            chain.edges[i].append((p, j, ticks))
    return chain


@dataclass
class _Entry:
    """One shared outcome of a step: its probability and change key, and the scope of
    the state it leads to, as keys (to find a node) and as objects (to make one). Found
    by the lean path, it has no outcome and its key is the scope it leads to."""

    p: Fraction
    outcome: Outcome | None
    ck: Hashable
    seat_keys: dict[str, Hashable]
    seats: dict[str, Any]
    field_keys: tuple[Hashable, ...]
    field_values: dict[str, Any]


class _Shared:
    """The steps found once per scope (see :meth:`~.model.ConflictModel.scope`).

    A node's key is its state's record key: ``(type name, *field keys)``, the seats a
    sorted tuple of ``(id, seat key)``. A step's outcomes are keyed by the action and the
    scope's part of the node's key; each outcome keeps the scope's part of the state it
    leads to, both as keys (to find an existing node without making its state) and as
    objects (to make a new node's state).
    """

    def __init__(
        self, model: ConflictModel, budget: int, hints: dict[Hashable, Any], lean: bool = True
    ) -> None:
        self.model, self.budget, self.hints, self.lean = model, budget, hints, lean
        self.actions: dict[int, tuple[object, Hashable]] = {}  # id -> (action, its key)
        self.found: dict[Hashable, list[_Entry]] = {}
        self.layout: dict[str, int] = {}
        # a memo that may read the outcome or the new state keeps every outcome apart
        self.plain_after = type(model).after is ConflictModel.after

    def _layout(self, state: Any) -> dict[str, int]:
        if not self.layout:
            self.layout = {f.name: 1 + n for n, f in enumerate(fields(state))}
        return self.layout

    def moves(
        self, chain: Chain, i: int, step: Step, scope: Scope
    ) -> list[tuple[Fraction, tuple[int, bool], int]]:
        """The edges of node ``i``, whose step ``step`` reads and writes ``scope``."""
        model = self.model
        state, memo, key = chain.states[i], chain.memos[i], chain.keys[i]
        layout = self._layout(state)
        if not isinstance(key, tuple) or len(key) != len(layout) + 1:
            raise AnalysisError("a model that shares steps keys its states as records")
        at_seats = layout["characters"]
        seats = dict(key[at_seats])
        action = self.actions.get(id(step.action))
        if action is None:  # a model makes each action once (ConflictModel.act)
            action = self.actions[id(step.action)] = (step.action, freeze(step.action))
        where = (
            action[1],
            scope,
            tuple(seats[c] for c in scope.seats),
            tuple(key[layout[f]] for f in scope.fields),
        )
        entries = self.found.get(where)
        if entries is None:
            entries = self._find(state, memo, step, scope)
            self.found[where] = entries
        ticks = step.ticks
        seats_key = key[at_seats]
        places = [layout[f] for f in scope.fields]
        index = chain.index
        if self.plain_after or all(e.outcome is None for e in entries):
            # one memo after the step, and entries told apart by their changes: an edge each
            after: Memo = None
            if entries and entries[0].outcome is None:  # found by the lean path
                lean = model.step_memo(state, memo, step)
                assert lean is not None
                after = lean[0]
            out: list[tuple[Fraction, tuple[int, bool], int]] = []
            for e in entries:
                new_key = self._moved(key, seats_key, at_seats, places, e)
                found = index.get((new_key, after))
                if found is not None:
                    out.append((e.p, (found, False), ticks))
                else:
                    out.append((e.p, chain.keyed(new_key, after, partial(_graft, state, e)), ticks))
            return out
        merged: dict[tuple[Hashable, Memo], tuple[Fraction, tuple[int, bool]]] = {}
        lean_memo: tuple[Memo] | None = None
        for e in entries:
            after = None
            if e.outcome is None:  # found by the lean path: one memo after the step
                if lean_memo is None:
                    lean_memo = model.step_memo(state, memo, step)
                    assert lean_memo is not None
                after = lean_memo[0]
            else:
                after = model.after(state, memo, step, e.outcome, _graft(state, e))
            at = (e.ck, after)
            if at in merged:
                q, j = merged[at]
                merged[at] = (q + e.p, j)
                continue
            new_key = self._moved(key, seats_key, at_seats, places, e)
            made = chain.keyed(new_key, after, partial(_graft, state, e))
            merged[at] = (e.p, made)
        return [(p, j, ticks) for p, j in merged.values()]

    @staticmethod
    def _moved(
        key: tuple[Hashable, ...],
        seats_key: tuple[tuple[str, Hashable], ...],
        at_seats: int,
        places: list[int],
        e: _Entry,
    ) -> tuple[Hashable, ...]:
        """The key of the state ``e`` leads to from the state keyed ``key``: its seats and
        fields in the scope replaced by ``e``'s."""
        new_key = list(key)
        mine = e.seat_keys
        new_key[at_seats] = tuple([(c, mine.get(c, k)) for c, k in seats_key])
        for n, at in enumerate(places):
            new_key[at] = e.field_keys[n]
        return tuple(new_key)

    def _find(self, state: Any, memo: Memo, step: Step, scope: Scope) -> list[_Entry]:
        """The step's outcomes in ``state``, each with the scope it leads to (checked: the
        changes write nothing outside it); by the lean path where it is open (entries
        without an outcome, told apart by the scope they lead to)."""
        model = self.model
        layout = self._layout(state)
        lean = _lean_plan(model, state, memo, step) if self.lean else None
        if lean is not None:
            return self._settled(state, step, scope, lean[0])
        groups: dict[Hashable, _Entry] = {}
        out: list[_Entry] = []
        for p, outcome in _planned(model, state, step, self.budget, self.hints):
            ck = change_key(outcome)
            if self.plain_after and ck in groups:
                groups[ck].p += p
                continue
            new = model.ruleset.apply(state, outcome)
            _check_scope(state, new, scope, model.ruleset.action_name(step.action))
            new_key = model.key(new)
            assert isinstance(new_key, tuple)
            seat_keys = dict(new_key[layout["characters"]])
            entry = _Entry(
                p,
                outcome,
                ck,
                {c: seat_keys[c] for c in scope.seats},
                {c: new.characters[c] for c in scope.seats},
                tuple(new_key[layout[f]] for f in scope.fields),
                {f: getattr(new, f) for f in scope.fields},
            )
            groups.setdefault(ck, entry)
            out.append(entry)
        return out

    def _settled(self, state: Any, step: Step, scope: Scope, plan: Plan) -> list[_Entry]:
        """:meth:`_find` by the plan's lean path."""
        model = self.model
        layout = self._layout(state)
        at_seats = layout["characters"]
        groups: dict[Hashable, _Entry] = {}
        found = settled(plan, exchangeable=model.exchangeable, budget=self.budget, hints=self.hints)
        for p, made in found:
            new: Any = made  # a state of the model's game
            _check_scope(state, new, scope, model.ruleset.action_name(step.action))
            new_key = model.key(new)
            assert isinstance(new_key, tuple)
            seat_keys = dict(new_key[at_seats])
            mine = {c: seat_keys[c] for c in scope.seats}
            field_keys = tuple(new_key[layout[f]] for f in scope.fields)
            ck = (tuple(mine.values()), field_keys)
            if ck in groups:
                groups[ck].p += p
                continue
            seats = {c: new.characters[c] for c in scope.seats}
            values = {f: getattr(new, f) for f in scope.fields}
            groups[ck] = _Entry(p, None, ck, mine, seats, field_keys, values)
        return list(groups.values())


def _same(state: Any) -> Any:
    return state


def _graft(state: Any, entry: _Entry) -> Any:
    """``state`` with the scope of the state ``entry`` leads to put in."""
    characters = dict(state.characters)
    characters.update(entry.seats)
    return replaced(state, characters=characters, **entry.field_values)


def _check_scope(state: Any, new: Any, scope: Scope, action: str) -> None:
    """Refuse a scope that misses what the step's changes wrote."""
    if set(new.characters) != set(state.characters):
        raise AnalysisError(f"the model's scope of {action}: the seats changed")
    for cid, seat in state.characters.items():
        if cid not in scope.seats and new.characters[cid] is not seat:
            raise AnalysisError(f"the model's scope of {action} misses {cid}, which it changes")
    for name in record_fields(type(state)) or ():
        if name == "characters" or name in scope.fields:
            continue
        if getattr(new, name) is not getattr(state, name):
            raise AnalysisError(f"the model's scope of {action} misses {name}, which it changes")
