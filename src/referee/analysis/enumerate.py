"""Every outcome of a plan with its exact probability, by driving the game's own
``resolve`` over every face combination (the :meth:`Plan.brute` idea, one level up).

A plan's :meth:`~referee.systems.plan.Plan.odds` reports a *view* of the result
(the Effect, the levels a blow does); an exact chain needs the whole outcome -
its changes - to build the next state with the game's own ``apply``. So
:func:`outcomes` resolves the plan with a :class:`PathRoller` that hands out a
given prefix of faces and, at the first roll beyond it, stops the plan with
:class:`NeedDice` naming the dice asked for. A depth-first walk then tries every
face combination of that roll, re-running the plan each time: dice that depend
on earlier faces (a push die, damage rolls after a hit) are found as they are
asked for. Nothing of a rule is written here; the rules run as they would at the
table, only the faces are chosen.

``exchangeable=True`` declares that the outcome's *changes* do not depend on the
order of the faces within one roll call (a Mongrel pool: only counts matter).
Each call of ``n`` dice is then enumerated as the sorted multisets of faces with
their multinomial weights (462 instead of 46,656 for six d6). Tests check the
declaration against the full enumeration for each game that makes it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from fractions import Fraction
from itertools import combinations_with_replacement, product
from math import comb, factorial
from typing import Any, TypeVar

from referee.dice.odds import Distribution
from referee.dice.roller import RollRecord
from referee.systems.base import Outcome, Plan

from . import budget as work
from .errors import ChainTooLarge
from .freeze import freeze

LEAF_BUDGET = 50_000
"""The most face combinations one plan may be enumerated over (per state of a chain)."""


class NeedDice(BaseException):
    """Raised by :class:`PathRoller` when the plan asks for dice beyond its prefix."""

    def __init__(self, count: int, sides: int) -> None:
        super().__init__(count, sides)
        self.count, self.sides = count, sides


class PathRoller:
    """A roller that replays ``prefix`` (one tuple of faces per roll call) and then
    stops the plan with :class:`NeedDice`. It keeps no record of the faces."""

    kind = "enumerated"
    seed: int | None = None

    def __init__(self, prefix: tuple[tuple[int, ...], ...]) -> None:
        self._prefix = prefix
        self._at = 0

    def roll(self, n: int, sides: int) -> tuple[int, ...]:
        """The next prefix entry, or :class:`NeedDice`."""
        if self._at < len(self._prefix):
            faces = self._prefix[self._at]
            self._at += 1
            if len(faces) != n or any(not 1 <= f <= sides for f in faces):
                raise RuntimeError(f"the plan asked for {n}d{sides} where {faces} was rolled")
            return faces
        raise NeedDice(n, sides)

    @property
    def records(self) -> tuple[RollRecord, ...]:
        """Nothing: enumeration keeps no audit record."""
        return ()


def _faces(n: int, sides: int, exchangeable: bool) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every face tuple of one roll call with its weight (out of ``sides ** n``)."""
    if not exchangeable or n < 2:
        for faces in product(range(1, sides + 1), repeat=n):
            yield faces, 1
        return
    top = factorial(n)
    for faces in combinations_with_replacement(range(1, sides + 1), n):
        weight = top
        for f in set(faces):
            weight //= factorial(faces.count(f))
        yield faces, weight


def call_size(n: int, sides: int, exchangeable: bool) -> int:
    """How many face tuples :func:`_faces` yields for one call."""
    return comb(n + sides - 1, n) if exchangeable and n >= 2 else sides**n


def first_size(plan: Plan, exchangeable: bool) -> int:
    """The face combinations of the dice a plan rolls first (known before any work)."""
    size = 1
    for count, sides in plan.dice:
        size *= call_size(count, sides, exchangeable)
    return size


def outcomes(
    plan: Plan, *, exchangeable: bool = False, budget: int = LEAF_BUDGET
) -> list[tuple[Fraction, Outcome]]:
    """Every outcome of ``plan`` with its exact probability (one entry per face path).

    :class:`ChainTooLarge` when the plan's first dice alone, or the walk so far,
    pass ``budget`` face combinations.
    """
    if first_size(plan, exchangeable) > budget:
        raise ChainTooLarge(
            f"one step rolls {first_size(plan, exchangeable):,} face combinations "
            f"(bound {budget:,}): simulate instead"
        )
    found: list[tuple[Fraction, Outcome]] = []
    stack: list[tuple[tuple[tuple[int, ...], ...], Fraction]] = [((), Fraction(1))]
    leaves = 0
    while stack:
        prefix, p = stack.pop()
        work.check("enumerating one step's dice")
        try:
            outcome = plan.resolve(PathRoller(prefix))
        except NeedDice as need:
            total = need.sides**need.count
            for faces, weight in _faces(need.count, need.sides, exchangeable):
                stack.append(((*prefix, faces), p * Fraction(weight, total)))
            leaves += call_size(need.count, need.sides, exchangeable)
            if leaves > budget:
                raise ChainTooLarge(
                    f"one step rolls more than {budget:,} face combinations: simulate instead"
                ) from None
            continue
        found.append((p, outcome))
    return found


def change_key(outcome: Outcome) -> Hashable:
    """What an outcome does to the state, as a key (outcomes that change nothing alike
    are merged before the game's ``apply`` runs): each change's target, field, delta,
    value (JSON, keyed by :func:`json_key`) and reason."""
    return tuple(
        [(c.target, c.field, c.delta, json_key(c.value), c.reason) for c in outcome.changes]
    )


def json_key(value: object) -> Hashable:
    """A JSON value as a hashable key: lists become tuples, objects sorted tuples of
    ``(key, value)``."""
    if isinstance(value, list | tuple):
        return tuple([json_key(v) for v in value])
    if isinstance(value, dict):
        return tuple(sorted((str(k), json_key(v)) for k, v in value.items()))
    return freeze(value)


def grouped(
    found: list[tuple[Fraction, Outcome]],
    key: Callable[[Outcome], Hashable] = change_key,
) -> list[tuple[Fraction, Outcome]]:
    """Outcomes with equal keys merged (the first one kept, probabilities summed), in the
    order first seen."""
    merged: dict[Hashable, tuple[Fraction, Outcome]] = {}
    for p, outcome in found:
        k = key(outcome)
        if k in merged:
            q, first = merged[k]
            merged[k] = (q + p, first)
        else:
            merged[k] = (p, outcome)
    return list(merged.values())


T = TypeVar("T")


def settled(
    plan: Plan,
    *,
    exchangeable: bool = False,
    budget: int = LEAF_BUDGET,
    seed: int = 0,
    hints: dict[Hashable, Any] | None = None,
) -> list[tuple[Fraction, object]]:
    """:func:`by_view` by the plan's lean path (:meth:`~referee.systems.plan.Plan.settle`):
    for each value the odds report, its exact probability and the state the outcome's
    changes lead to, found without building any outcome. The plan's own reported value
    is the view (what :func:`by_view` reads back from an outcome); ``hints`` are shared
    with :func:`by_view`."""

    if plan.decides:  # each reported value decides the state after it: no roll to find
        return [(p, plan.decided(v)) for v, p in _chances(plan.odds(), plan, hints)]

    def run(roller: PathRoller) -> tuple[Hashable, object]:
        found = plan.settle(roller)
        if found is None:
            raise RuntimeError("the plan has no lean path (Plan.settles)")
        return found

    return _per_value(plan, run, exchangeable, budget, seed, hints)


def by_view(
    plan: Plan,
    view: Callable[[Outcome], Hashable],
    *,
    exchangeable: bool = False,
    budget: int = LEAF_BUDGET,
    seed: int = 0,
    hints: dict[Hashable, Any] | None = None,
) -> list[tuple[Fraction, Outcome]]:
    """Every outcome of ``plan`` with its exact probability, when the plan's odds view
    determines the outcome's changes: the probabilities are the game's exact
    :meth:`~referee.systems.plan.Plan.odds`, and one outcome per view value is found
    by resolving face paths in a shuffled order until every value is met.

    ``view(outcome)`` reads the value the odds report back from an outcome (the
    game's own result record, not a rule). A value never met within ``budget`` face
    paths raises :class:`ChainTooLarge`; tests compare this against :func:`outcomes`.

    ``hints`` (shared across the states of one chain) remembers the face paths that
    met each value for the same dice and odds, and tries them first: most states
    of a chain roll the same few checks, so one resolve per value usually suffices.
    """

    def run(roller: PathRoller) -> tuple[Hashable, Outcome]:
        outcome = plan.resolve(roller)
        return view(outcome), outcome

    return _per_value(plan, run, exchangeable, budget, seed, hints)


def _per_value(
    plan: Plan,
    run: Callable[[PathRoller], tuple[Hashable, T]],
    exchangeable: bool,
    budget: int,
    seed: int,
    hints: dict[Hashable, Any] | None,
) -> list[tuple[Fraction, T]]:
    """One result of ``run`` (a roll's reported value and what it found) per value of the
    plan's odds, with the value's exact probability (see :func:`by_view`)."""
    import random

    odds = plan.odds()
    wanted = set(odds.outcomes())
    met: dict[Hashable, T] = {}
    paths: list[tuple[tuple[int, ...], ...]] = []
    memo_key: Hashable = (plan.dice, tuple(odds.items()))
    known = hints.get(memo_key, []) if hints is not None else []
    for prefix in known:
        try:
            v, found = run(PathRoller(prefix))
        except NeedDice:
            continue
        if v in wanted and v not in met:
            met[v] = found
            paths.append(prefix)
    rng = random.Random(seed)
    stack: list[tuple[tuple[int, ...], ...]] = [] if len(met) == len(wanted) else [()]
    tried = 0
    while stack and len(met) < len(wanted):
        prefix = stack.pop()
        work.check("finding one step's results")
        try:
            v, found = run(PathRoller(prefix))
        except NeedDice as need:
            children = [f for f, _ in _faces(need.count, need.sides, exchangeable)]
            rng.shuffle(children)
            stack.extend((*prefix, faces) for faces in children)
            continue
        tried += 1
        if tried > budget:
            break
        if v not in wanted:
            raise RuntimeError(f"an outcome's view {v!r} is not among the plan's odds")
        if v not in met:
            met[v] = found
            paths.append(prefix)
    if hints is not None:
        hints[memo_key] = paths
    missing = wanted - set(met)
    if missing:
        raise ChainTooLarge(
            f"{len(missing)} of the step's {len(wanted)} results not met within "
            f"{budget:,} face paths: simulate instead"
        )
    return [(p, met[v]) for v, p in _chances(odds, plan, hints, memo_key)]


def _chances(
    odds: Distribution[Hashable],
    plan: Plan,
    hints: dict[Hashable, Any] | None,
    memo_key: Hashable = None,
) -> list[tuple[Hashable, Fraction]]:
    """Each value of ``odds`` (the plan's) with its exact probability, the fractions made
    once per chain for the same dice and odds (``memo_key``, made here if not given)."""
    if hints is None:
        return [(v, odds.probability(v)) for v in odds.outcomes()]
    at = ("chances", (plan.dice, tuple(odds.items())) if memo_key is None else memo_key)
    chances: list[tuple[Hashable, Fraction]] | None = hints.get(at)
    if chances is None:
        chances = [(v, odds.probability(v)) for v in odds.outcomes()]
        hints[at] = chances
    return chances
