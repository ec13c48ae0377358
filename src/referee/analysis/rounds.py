"""A chain cut at its round starts, and the distribution of its rounds.

A round's actions that start no new round (a check, the damage it deals) are followed
through, so each node that starts a round has one row: where the round leads, as
``(ticks, node, weight)``, whole weights over one denominator (:func:`kernel`). The
solver reads those rows as a smaller chain of rounds (:mod:`.solve`), and
:func:`rounds_distribution` pushes the start's mass along them one round at a time.
Where a round has more ways out than the actions that make it (each of Mneme CE's two
attacks deals one of ~6 damages: ~39 ways out of a round, reached by ~13 edges), the
chain's own edges are pushed instead, as rows of the same form (:func:`by_edges`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import gcd

from .chain import Chain
from .errors import AnalysisError

Rows = dict[int, list[tuple[int, int, int]]]
"""Each node's ``[(ticks, node, weight)]`` (see :func:`kernel`)."""


@dataclass(frozen=True)
class Cut:
    """A chain's moves as rows, ``rows[i]`` lists ``(ticks, node, weight)``, each weight
    a whole number over ``scale``; a round takes at most ``per_round`` of its moves, and
    at most ``deepest`` of the chain's edges."""

    rows: Rows
    scale: int
    per_round: int
    deepest: int

    @property
    def size(self) -> int:
        """The rows' entries (the work of one push along them)."""
        return sum(map(len, self.rows.values()))


def kernel(chain: Chain) -> Cut:
    """For each node: where its actions lead before the next round starts, as
    ``[(ticks, node, weight)]`` (``ticks`` 0: the conflict ended first), every weight a
    whole number over the one returned denominator. Actions that start no round are
    followed through (they must not loop).

    Each edge's probability is a whole weight over ``scale`` (the least common multiple
    of the edges' denominators); a node whose actions are followed ``d`` deep has its
    weights over ``scale ** d``, and the rows are brought to the deepest one's at the end.
    A sure step (one edge, probability 1, no round started: ARM's blow taken, the next
    blow's turn) adds no depth: its node's row is the row of the node it leads to.
    """
    scale = _scale(chain)
    found_rows: dict[int, tuple[dict[tuple[int, int], int], int, int]] = {}
    visiting: set[int] = set()
    verdicts = chain.verdicts
    powers = [1]  # scale ** k, worked out once each

    def power(k: int) -> int:
        while len(powers) <= k:
            powers.append(powers[-1] * scale)
        return powers[k]

    def reach(i: int) -> tuple[dict[tuple[int, int], int], int, int]:
        """Node ``i``'s row as ``{(ticks, node): weight}`` over ``scale ** depth``, its
        depth and the most edges it follows."""
        found = found_rows.get(i)
        if found is not None:
            return found
        if i in visiting:
            raise AnalysisError("a loop that starts no round: the rounds cannot be counted")
        visiting.add(i)
        edges = chain.edges[i]
        if len(edges) == 1 and edges[0][0] == 1 and edges[0][2] == 0:
            j = edges[0][1]  # a sure step within the round: the row of where it leads
            if verdicts[j] is None:
                inner, d, hops = reach(j)
                found = found_rows[i] = (inner, d, hops + 1)
                visiting.discard(i)
                return found
        parts: list[tuple[int, dict[tuple[int, int], int], int]] = []
        depth = hops = 1
        for p, j, t in edges:
            w = p.numerator * (scale // p.denominator)
            if t > 0 or verdicts[j] is not None:
                parts.append((w, {(t, j): 1}, 0))
            else:
                inner, d, h = reach(j)
                parts.append((w, inner, d))
                depth = max(depth, d + 1)
                hops = max(hops, h + 1)
        out: dict[tuple[int, int], int] = {}
        for w, inner, d in parts:
            lift = w * power(depth - 1 - d)
            for key, q in inner.items():
                out[key] = out.get(key, 0) + lift * q
        visiting.discard(i)
        found = found_rows[i] = (out, depth, hops)
        return found

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
    deepest = max((found_rows[i][1] for i in starts), default=0)
    longest = max((found_rows[i][2] for i in starts), default=1)
    rows = {}
    for i in starts:
        moves, d, _ = found_rows[i]
        lift = power(deepest - d)
        rows[i] = [(t, j, w * lift) for (t, j), w in moves.items()]
    return Cut(rows, power(deepest), 1, longest)


def by_edges(chain: Chain, deepest: int) -> Cut:
    """The chain's own edges as rows (the nodes that are not ends); a round follows at
    most ``deepest`` of them (the :func:`kernel`'s ``deepest``)."""
    scale = _scale(chain)
    verdicts = chain.verdicts
    rows = {
        i: [(t, j, p.numerator * (scale // p.denominator)) for p, j, t in edges]
        for i, edges in enumerate(chain.edges)
        if verdicts[i] is None
    }
    return Cut(rows, scale, deepest, deepest)


def _scale(chain: Chain) -> int:
    """The least common multiple of the chain's edges' denominators."""
    scale = 1
    for edges in chain.edges:
        for p, _, _ in edges:
            scale = scale * p.denominator // gcd(scale, p.denominator)
    return scale


WORTH_DIVIDING = 1 << 32
"""The least factor shared by every weight that is worth dividing them all by (a few bits
shared is common; dividing them out costs a pass over every weight for nothing)."""


def rounds_distribution(
    chain: Chain, horizon: int, cut: Cut | None = None
) -> tuple[dict[int, Fraction], Fraction]:
    """P(the conflict ends after exactly k rounds) for k up to ``horizon``, and the
    probability that it lasts longer (or never ends).

    The chain is first cut at round starts (:func:`kernel`) unless a cut is given; the
    mass is then pushed along the cut's rows (one round at a time for the kernel's) in
    whole numbers over one common denominator, so no fraction is reduced until the end.
    """
    if chain.verdicts[0] is not None:
        return {0: Fraction(1)}, Fraction(0)
    if cut is None:
        cut = kernel(chain)
    weights, scale = cut.rows, cut.scale
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
        for nodes in mass.values():  # divide out what they all share, when it is much
            for m in nodes.values():
                common = gcd(common, m)
                if common < WORTH_DIVIDING:
                    break
            if common < WORTH_DIVIDING:
                break
        if common >= WORTH_DIVIDING:
            denominator //= common
            mass = {k: {i: m // common for i, m in nodes.items()} for k, nodes in mass.items()}
        if step > (horizon + 1) * cut.per_round:
            raise AnalysisError("the rounds did not settle: a loop that starts no round")
    return dict(sorted(dist.items())), beyond
