"""Exact answers from an explored chain, as fractions.

The chain may loop (a Mongrel miss and recovery, an ARM round where nobody is
hurt), so the absorption probabilities come from linear equations, solved
exactly. The graph is cut into strongly connected components (Tarjan) and each
component is solved on its own, last ones first: damage only grows, so most
components are one node (with, at most, a self-loop) and the rest are a round
that can come back to its start. A component is solved in two layers: its own
loops in the edges' small fractions (:func:`_solve_component`), then its
nodes' values as whole-number vectors over one denominator each (:class:`_Vec`),
which carry the big numbers and are reduced once per node. A component nobody
can leave and which is not an end is a stalemate: its verdict is ``"endless"``.

Quantities solved for every node at once (one vector each): the probability of
each verdict, each fighter's final damage, and the expected number of rounds.
The distribution of rounds is pushed forward exactly up to a horizon; what lies
beyond it is reported as one tail probability.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd
from typing import Any

from . import budget as work
from .chain import Chain
from .collect import paused
from .errors import AnalysisError

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


def _eliminate(
    rows: list[dict[int, Fraction]], rhs: list[dict[int, Fraction]]
) -> list[dict[int, Fraction]]:
    """Solve ``rows · x = rhs`` exactly (sparse rows, several right-hand sides kept
    sparse: ``rhs[r]`` maps a right-hand side's column to its entry)."""
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
        prhs = {c: v * inv for c, v in rhs[col].items()}
        rows[col], rhs[col] = prow, prhs
        for r in range(m):
            if r == col:
                continue
            factor = rows[r].get(col)
            if not factor:
                continue
            _axpy(rows[r], factor, prow)
            _axpy(rhs[r], factor, prhs)
    return rhs


def _axpy(row: dict[int, Fraction], factor: Fraction, other: dict[int, Fraction]) -> None:
    """``row -= factor * other`` (sparse: zeros dropped)."""
    for c, v in other.items():
        nv = row.get(c, 0) - factor * v
        if nv:
            row[c] = nv
        else:
            row.pop(c, None)


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
    """The exact result of an explored chain.

    Components are solved last ones first. Each is first solved on its own, in
    small fractions: where its nodes leave to (``{exit: probability}``) and the
    rounds they start before leaving (:func:`_leaving`). Those small coefficients
    then weigh the exits' solved values, which carry the big numbers: one vector of
    whole numbers over one denominator per node (:class:`_Vec`), reduced once per
    node instead of once per operation. The cyclic garbage collector is held off
    meanwhile (:func:`~.collect.paused`).
    """
    with paused():
        return _solve(chain, horizon)


def _solve(chain: Chain, horizon: int) -> ExactResult:
    """:func:`solve`'s work."""
    model = chain.model
    fighters = model.fighters
    k_labels = len(VERDICTS)
    value: list[_Vec | None] = [None] * len(chain)
    comps = components(chain)
    needed = _entered(chain, comps)
    for comp in comps:
        work.check("solving the exact chain")
        first = comp[0]
        if len(comp) == 1 and chain.verdicts[first] is not None:  # an end: no edges
            value[first] = _end_values(chain, first, chain.verdicts[first] or "draw")
            continue
        if len(comp) == 1 and _solve_alone(chain, first, value):
            continue
        if not _solve_component(chain, comp, value, needed):  # nobody leaves: a stalemate
            for i in comp:
                value[i] = _end_values(chain, i, "endless")
    start = value[0]
    assert start is not None
    row = start.fractions()
    probs = dict(zip(VERDICTS, row[:k_labels], strict=True))
    damage = dict(zip(fighters, row[k_labels:-1], strict=True))
    expected = row[-1] if probs["endless"] == 0 else None
    rounds, beyond = rounds_distribution(chain, horizon)
    return ExactResult(
        model.describe(), len(chain), probs, damage, expected, rounds, beyond, horizon
    )


class _Vec:
    """A vector of fractions as whole numerators over one common denominator."""

    __slots__ = ("den", "nums")

    def __init__(self, nums: list[int], den: int) -> None:
        self.nums, self.den = nums, den

    @staticmethod
    def zero(width: int) -> _Vec:
        return _Vec([0] * width, 1)

    def add(self, p: Fraction, other: _Vec) -> None:
        """``self += p * other``."""
        den = p.denominator * other.den
        g = gcd(self.den, den)
        mine, theirs = den // g, self.den // g  # what each side's numerators are scaled by
        scale = p.numerator * theirs
        if mine != 1:
            self.nums = [a * mine + scale * b for a, b in zip(self.nums, other.nums, strict=True)]
        else:
            self.nums = [a + scale * b for a, b in zip(self.nums, other.nums, strict=True)]
        self.den *= mine

    def add_last(self, x: Fraction) -> None:
        """``self[-1] += x``."""
        if not x:
            return
        g = gcd(self.den, x.denominator)
        mine = x.denominator // g
        if mine != 1:
            self.nums = [a * mine for a in self.nums]
            self.den *= mine
        self.nums[-1] += x.numerator * (self.den // x.denominator)

    def reduced(self) -> _Vec:
        g = self.den
        for a in self.nums:
            if g == 1:
                break
            g = gcd(g, a)
        if g > 1:
            return _Vec([a // g for a in self.nums], self.den // g)
        return self

    def fractions(self) -> list[Fraction]:
        return [Fraction(a, self.den) for a in self.nums]


def _solve_alone(chain: Chain, i: int, value: list[_Vec | None]) -> bool:
    """Set the value of node ``i``, a component of its own, when none of its edges comes
    back to it (the most common node: damage only grows): its exits' values weighed by
    their probabilities, plus the rounds it starts. ``False`` (nothing set) otherwise."""
    edges = chain.edges[i]
    if not edges or any(j == i for _, j, _ in edges):
        return False
    vec = _Vec.zero(len(VERDICTS) + len(chain.model.fighters) + 1)
    ticks = Fraction(0)
    for p, j, t in edges:
        if t:
            ticks += p * t
        vj = value[j]
        assert vj is not None
        vec.add(p, vj)
    vec.add_last(ticks)
    value[i] = vec.reduced()
    return True


def _entered(chain: Chain, comps: list[list[int]]) -> list[bool]:
    """Whether each node's value is read: the start's, and those of nodes entered from
    outside their own component (the rest are read only inside it, as it is solved)."""
    where = [0] * len(chain)
    for n, comp in enumerate(comps):
        for i in comp:
            where[i] = n
    needed = [False] * len(chain)
    needed[0] = True
    for i, edges in enumerate(chain.edges):
        mine = where[i]
        for _, j, _ in edges:
            if where[j] != mine:
                needed[j] = True
    return needed


def _solve_component(
    chain: Chain, comp: list[int], value: list[_Vec | None], needed: list[bool]
) -> bool:
    """Set the values of a component's nodes from the values of the nodes it leaves to;
    ``False`` (and nothing set) when nobody can leave it (a stalemate).

    A depth-first walk from the component's root finds the nodes that close its loops
    (the targets of its back edges: a round's start, a node's own self-loop). Without
    the edges into them the component is acyclic, so every node is, in reverse
    topological order, a known vector plus small multiples of those loop nodes. The
    loop nodes' own equations, in small fractions, are solved last, and each node's
    value follows by substitution, for the nodes whose value is read outside the
    component (``needed``: the others are left unset).
    """
    members = set(comp)
    edges = chain.edges
    if not any(j not in members for i in comp for _, j, _ in edges[i]):
        return False
    root = comp[-1]  # Tarjan's root: the first node reached
    order: list[int] = []  # postorder of the walk
    loops: set[int] = set()
    state: dict[int, int] = {root: 1}  # 1: on the walk's path, 2: done
    walk: list[tuple[int, int]] = [(root, 0)]
    while walk:
        i, k = walk.pop()
        out = edges[i]
        while k < len(out):
            j = out[k][1]
            k += 1
            if j not in members:
                continue
            seen = state.get(j)
            if seen is None:
                walk.append((i, k))
                walk.append((j, 0))
                state[j] = 1
                break
            if seen == 1:
                loops.add(j)
        else:
            state[i] = 2
            order.append(i)
    width = len(VERDICTS) + len(chain.model.fighters) + 1
    known: dict[int, tuple[_Vec, dict[int, Fraction]]] = {}
    for i in order:  # every member reached, successors (but loop nodes) first
        vec = _Vec.zero(width)
        coef: dict[int, Fraction] = {}
        ticks = Fraction(0)
        for p, j, t in edges[i]:
            if t:
                ticks += p * t
            if j not in members:
                vj = value[j]
                assert vj is not None
                vec.add(p, vj)
            elif j in loops:
                coef[j] = coef.get(j, Fraction(0)) + p
            else:
                inner, inner_coef = known[j]
                vec.add(p, inner)
                for f, q in inner_coef.items():
                    coef[f] = coef.get(f, Fraction(0)) + p * q
        vec.add_last(ticks)
        known[i] = (vec.reduced(), {f: q for f, q in coef.items() if q})
    if loops:
        idx = {f: r for r, f in enumerate(loops)}
        rows = []
        for f in loops:
            row = {idx[f]: Fraction(1)}
            for g, q in known[f][1].items():
                row[idx[g]] = row.get(idx[g], Fraction(0)) - q
            rows.append({c: v for c, v in row.items() if v})
        inverse = _eliminate(rows, [{r: Fraction(1)} for r in range(len(rows))])
        for f, r in idx.items():
            acc = _Vec.zero(width)
            for g, c in idx.items():
                weight = inverse[r].get(c)
                if weight:
                    acc.add(weight, known[g][0])
            value[f] = acc.reduced()
    for i in order:
        if i in loops or not needed[i]:
            continue
        vec, coef = known[i]
        if coef:
            acc = _Vec.zero(width)
            acc.add(Fraction(1), vec)
            for f, q in coef.items():
                vf = value[f]
                assert vf is not None
                acc.add(q, vf)
            vec = acc.reduced()
        value[i] = vec
    return True


def _end_values(chain: Chain, i: int, verdict: str) -> _Vec:
    model = chain.model
    labels = [int(v == verdict) for v in VERDICTS]
    damages = [int(model.damage(chain.states[i], c)) for c in model.fighters]
    return _Vec([*labels, *damages, 0], 1)


def _round_kernel(chain: Chain) -> tuple[dict[int, list[tuple[int, int, int]]], int]:
    """For each node: where its actions lead before the next round starts, as
    ``[(ticks, node, weight)]`` (``ticks`` 0: the conflict ended first), every weight a
    whole number over the one returned denominator. Actions that start no round are
    followed through (they must not loop).

    Each edge's probability is a whole weight over ``scale`` (the least common multiple
    of the edges' denominators); a node whose actions are followed ``d`` deep has its
    weights over ``scale ** d``, and the rows are brought to the deepest one's at the end.
    """
    scale = 1
    for edges in chain.edges:
        for p, _, _ in edges:
            scale = scale * p.denominator // gcd(scale, p.denominator)
    kernel: dict[int, tuple[dict[tuple[int, int], int], int]] = {}
    visiting: set[int] = set()
    verdicts = chain.verdicts
    powers = [1]  # scale ** k, worked out once each

    def power(k: int) -> int:
        while len(powers) <= k:
            powers.append(powers[-1] * scale)
        return powers[k]

    def reach(i: int) -> tuple[dict[tuple[int, int], int], int]:
        found = kernel.get(i)
        if found is not None:
            return found
        if i in visiting:
            raise AnalysisError("a loop that starts no round: the rounds cannot be counted")
        visiting.add(i)
        parts: list[tuple[int, dict[tuple[int, int], int], int]] = []
        depth = 1
        for p, j, t in chain.edges[i]:
            w = p.numerator * (scale // p.denominator)
            if t > 0 or verdicts[j] is not None:
                parts.append((w, {(t, j): 1}, 0))
            else:
                inner, d = reach(j)
                parts.append((w, inner, d))
                depth = max(depth, d + 1)
        out: dict[tuple[int, int], int] = {}
        for w, inner, d in parts:
            lift = w * power(depth - 1 - d)
            for key, q in inner.items():
                out[key] = out.get(key, 0) + lift * q
        visiting.discard(i)
        kernel[i] = (out, depth)
        return kernel[i]

    stack = [0]
    seen = {0}
    while stack:
        i = stack.pop()
        if verdicts[i] is not None:
            continue
        for _, j in reach(i)[0]:
            if j not in seen:
                seen.add(j)
                stack.append(j)
    starts = [i for i in seen if verdicts[i] is None]  # the rows the rounds need
    deepest = max((kernel[i][1] for i in starts), default=0)
    rows = {}
    for i in starts:
        moves, d = kernel[i]
        lift = power(deepest - d)
        rows[i] = [(t, j, w * lift) for (t, j), w in moves.items()]
    return rows, power(deepest)


def rounds_distribution(chain: Chain, horizon: int) -> tuple[dict[int, Fraction], Fraction]:
    """P(the conflict ends after exactly k rounds) for k up to ``horizon``, and the
    probability that it lasts longer (or never ends).

    The chain is first cut at round starts (:func:`_round_kernel`); the mass is then
    pushed one round at a time in whole numbers over one common denominator, so no
    fraction is reduced until the end.
    """
    if chain.verdicts[0] is not None:
        return {0: Fraction(1)}, Fraction(0)
    weights, scale = _round_kernel(chain)
    verdicts = chain.verdicts
    ends: dict[int, list[tuple[int, int]]] = {}  # node -> [(ticks, weight)] into any end
    goes: dict[int, list[tuple[int, list[tuple[int, int]]]]] = {}  # node -> ticks -> moves
    for i, row in weights.items():
        into: dict[int, int] = {}
        on: dict[int, list[tuple[int, int]]] = {}
        for t, j, w in row:
            if verdicts[j] is not None:  # which end does not matter here: summed
                into[t] = into.get(t, 0) + w
            else:
                on.setdefault(t, []).append((j, w))
        ends[i], goes[i] = list(into.items()), list(on.items())
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
                for t, w in ends[i]:
                    k = ticks + t
                    if k > horizon:
                        over += m * w
                    else:
                        done[k] = done.get(k, 0) + m * w
                for t, moves in goes[i]:
                    k = ticks + t
                    if k > horizon:
                        over += m * sum(w for _, w in moves)
                        continue
                    bucket = nxt.get(k)
                    if bucket is None:
                        bucket = nxt[k] = {}
                    get = bucket.get
                    for j, w in moves:
                        bucket[j] = get(j, 0) + m * w
        for k, m in done.items():
            dist[k] = dist.get(k, Fraction(0)) + Fraction(m, denominator)
        beyond += Fraction(over, denominator)
        mass = nxt  # every surviving weight carries the same denominator: kept whole
        common = denominator
        for nodes in mass.values():  # divide out what they all share
            for m in nodes.values():
                common = gcd(common, m)
                if common == 1:
                    break
        if common > 1:
            denominator //= common
            mass = {k: {i: m // common for i, m in nodes.items()} for k, nodes in mass.items()}
        if step > horizon + 1:
            raise AnalysisError("the rounds did not settle: a loop that starts no round")
    return dict(sorted(dist.items())), beyond
