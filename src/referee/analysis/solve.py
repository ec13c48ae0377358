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
beyond it is reported as one tail probability. Where the chain cut at its round
starts (:mod:`.rounds`) is the smaller, that chain of rounds is the one solved:
only the start's value is asked for, and the rounds' rows lead to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd
from typing import Any

from . import budget as work
from .chain import Chain
from .collect import paused
from .errors import AnalysisError
from .rounds import Rows, by_edges, kernel, rounds_distribution

VERDICTS = ("a", "b", "draw", "endless")
HORIZON = 40
"""Rounds whose probability is given one by one (the rest: one tail)."""

Edge = tuple[Fraction, int, int]
"""``(probability, next node, rounds started)``."""


def components(edges: Sequence[Sequence[tuple[object, int, int]]]) -> list[list[int]]:
    """Strongly connected components of a graph given by its nodes' edges (each edge
    names the node it leads to second), each listed after every component it reaches."""
    n = len(edges)
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
            out_v = edges[v]
            if k < len(out_v):
                work.append((v, k + 1))
                w = out_v[k][1]
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

    The chain is first cut at its round starts (:func:`.rounds.kernel`): each round
    start's row says where its round leads (the next rounds' starts, or ends), and
    those rows are a smaller chain with the same answer at the start, solved here
    (:func:`_by_rounds`) and pushed forward for the rounds' distribution. A chain is
    solved node by node where its rounds have more ways out than its nodes have edges
    (Mneme CE: each round ends in any of ~39 damages, reached in two steps), and pushed
    edge by edge where its edges, times the most a round follows, are still fewer; it is
    solved node by node too where it has a stalemate (an endless fight reports the
    damage of the node where it is caught, which need not start a round).

    Components are solved last ones first. Each is first solved on its own, in
    small fractions: where its nodes leave to (``{exit: probability}``) and the
    rounds they start before leaving. Those small coefficients then weigh the exits'
    solved values, which carry the big numbers: one vector of whole numbers over one
    denominator per node (:class:`_Vec`), reduced once per node instead of once per
    operation. The cyclic garbage collector is held off meanwhile
    (:func:`~.collect.paused`).
    """
    with paused():
        return _solve(chain, horizon)


def _solve(chain: Chain, horizon: int) -> ExactResult:
    """:func:`solve`'s work."""
    model = chain.model
    fighters = model.fighters
    k_labels = len(VERDICTS)
    verdict = chain.verdicts[0]
    if verdict is not None:  # over before it began
        start = _end_values(chain, 0, verdict)
        rounds, beyond = {0: Fraction(1)}, Fraction(0)
    else:
        cut = kernel(chain)
        edges = sum(map(len, chain.edges))
        found = None
        if cut.size < edges:  # the chain of rounds is the smaller
            found = _by_rounds(chain, cut.rows, cut.scale)
        start = _by_nodes(chain) if found is None else found
        if edges * cut.deepest < cut.size:  # a round's edges, followed one by one
            cut = by_edges(chain, cut.deepest)
        rounds, beyond = rounds_distribution(chain, horizon, cut)
    row = start.fractions()
    probs = dict(zip(VERDICTS, row[:k_labels], strict=True))
    damage = dict(zip(fighters, row[k_labels:-1], strict=True))
    expected = row[-1] if probs["endless"] == 0 else None
    return ExactResult(
        model.describe(), len(chain), probs, damage, expected, rounds, beyond, horizon
    )


def _by_rounds(chain: Chain, rows: Rows, scale: int) -> _Vec | None:
    """The start's value by the chain of rounds (the kernel's rows as edges, the ends
    they reach as its ends), or ``None`` when that chain has a stalemate.

    A round start that only its own round comes back to (ARM: a round where nobody is
    hurt) is solved in the rows' whole weights: ``x = (sum of w x' + ticks) / (scale -
    w_back)``; a larger loop of rounds by :func:`_solve_component`, in fractions."""
    ids = [0]  # the round chain's nodes, as the chain's
    at = {0: 0}
    weighed: list[list[tuple[int, int, int]]] = []  # (weight, node, ticks), as edges are
    verdicts = chain.verdicts
    for i in ids:  # grows as the rows name new nodes
        out: list[tuple[int, int, int]] = []
        if verdicts[i] is None:
            for t, j, w in rows[i]:
                n = at.get(j)
                if n is None:
                    n = at[j] = len(ids)
                    ids.append(j)
                out.append((w, n, t))
            if sum(w for w, _, _ in out) != scale:  # a node with no way on: a stalemate
                return None
        weighed.append(out)
    width = _width(chain)
    value: list[_Vec | None] = [None] * len(ids)
    comps = components(weighed)
    needed = _entered(weighed, comps)
    for comp in comps:
        work.check("solving the exact chain")
        if len(comp) > 1:
            edges: list[list[Edge]] = [[] for _ in ids]  # in fractions, for its members
            for i in comp:
                edges[i] = [(Fraction(w, scale), n, t) for w, n, t in weighed[i]]
            if not _solve_component(edges, comp, value, needed, width):
                return None
            continue
        i = comp[0]
        verdict = verdicts[ids[i]]
        if verdict is not None:  # an end
            value[i] = _end_values(chain, ids[i], verdict)
            continue
        vec = _Vec.zero(width)
        back = ticks = 0
        for w, n, t in weighed[i]:
            if n == i:
                back += w
            else:
                vec.add_ratio(w, 1, _known(value, n))
            ticks += w * t
        if back == scale:  # nobody leaves: a stalemate
            return None
        vec.add_last(Fraction(ticks))
        vec.den *= scale - back
        value[i] = vec.reduced()
    return value[0]


def _known(value: list[_Vec | None], i: int) -> _Vec:
    """The value of node ``i``, solved before it is read."""
    found = value[i]
    assert found is not None
    return found


def _by_nodes(chain: Chain) -> _Vec:
    """The start's value solved node by node, stalemates as ``"endless"`` ends."""
    ends = [None if v is None else _end_values(chain, i, v) for i, v in enumerate(chain.verdicts)]
    found = _solve_graph(
        chain.edges, ends, _width(chain), lambda i: _end_values(chain, i, "endless")
    )
    assert found is not None
    return found


def _width(chain: Chain) -> int:
    """A value's entries: each verdict's probability, each fighter's damage, the rounds."""
    return len(VERDICTS) + len(chain.model.fighters) + 1


def _solve_graph(
    edges: Sequence[Sequence[Edge]],
    ends: Sequence[_Vec | None],
    width: int,
    endless: Callable[[int], _Vec] | None,
) -> _Vec | None:
    """The value of node 0 of a graph whose ``ends`` are known: components last ones
    first. A component nobody leaves is a stalemate, its nodes valued by ``endless``
    (``None``: give up, returning ``None``)."""
    value: list[_Vec | None] = [None] * len(edges)
    comps = components(edges)
    needed = _entered(edges, comps)
    for comp in comps:
        work.check("solving the exact chain")
        first = comp[0]
        if len(comp) == 1 and ends[first] is not None:  # an end: no edges
            value[first] = ends[first]
            continue
        if len(comp) == 1 and _solve_alone(edges, first, value, width):
            continue
        if not _solve_component(edges, comp, value, needed, width):  # nobody leaves
            if endless is None:
                return None
            for i in comp:
                value[i] = endless(i)
    return value[0]


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
        self.add_ratio(p.numerator, p.denominator, other)

    def add_ratio(self, num: int, den: int, other: _Vec, ticks: int = 0) -> None:
        """``self += num / den * (other + ticks * the last unit vector)`` (an edge's
        probability times the value it leads to, and the rounds it starts)."""
        oden = other.den
        den *= oden
        g = gcd(self.den, den)
        mine, theirs = den // g, self.den // g  # what each side's numerators are scaled by
        scale = num * theirs
        if mine != 1:
            nums = [a * mine + scale * b for a, b in zip(self.nums, other.nums, strict=True)]
        else:
            nums = [a + scale * b for a, b in zip(self.nums, other.nums, strict=True)]
        if ticks:
            nums[-1] += scale * ticks * oden
        self.nums = nums
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


def _solve_alone(
    edges: Sequence[Sequence[Edge]], i: int, value: list[_Vec | None], width: int
) -> bool:
    """Set the value of node ``i``, a component of its own, when none of its edges comes
    back to it (the most common node: damage only grows): its exits' values weighed by
    their probabilities, plus the rounds it starts. ``False`` (nothing set) otherwise."""
    out = edges[i]
    if not out or any(j == i for _, j, _ in out):
        return False
    vec = _Vec.zero(width)
    for p, j, t in out:
        vj = value[j]
        assert vj is not None
        vec.add_ratio(p.numerator, p.denominator, vj, t)
    value[i] = vec.reduced()
    return True


def _entered(
    edges: Sequence[Sequence[tuple[object, int, int]]], comps: list[list[int]]
) -> list[bool]:
    """Whether each node's value is read: the start's, and those of nodes entered from
    outside their own component (the rest are read only inside it, as it is solved)."""
    where = [0] * len(edges)
    for n, comp in enumerate(comps):
        for i in comp:
            where[i] = n
    needed = [False] * len(edges)
    needed[0] = True
    for i, out in enumerate(edges):
        mine = where[i]
        for _, j, _ in out:
            if where[j] != mine:
                needed[j] = True
    return needed


def _solve_component(
    edges: Sequence[Sequence[Edge]],
    comp: list[int],
    value: list[_Vec | None],
    needed: list[bool],
    width: int,
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
    known: dict[int, tuple[_Vec, dict[int, Fraction]]] = {}
    for i in order:  # every member reached, successors (but loop nodes) first
        vec = _Vec.zero(width)
        coef: dict[int, Fraction] = {}
        ticks = Fraction(0)  # of the edges into loop nodes (the others' go with them)
        for p, j, t in edges[i]:
            if j not in members:
                vj = value[j]
                assert vj is not None
                vec.add_ratio(p.numerator, p.denominator, vj, t)
            elif j in loops:
                coef[j] = coef.get(j, Fraction(0)) + p
                if t:
                    ticks += p * t
            else:
                inner, inner_coef = known[j]
                vec.add_ratio(p.numerator, p.denominator, inner, t)
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
