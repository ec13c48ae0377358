"""One die with modifiers: the exact law of what it is worth.

A pool whose dice reroll, explode, clamp or are Fate dice
(:class:`~referee.dice.notation.Die`) is, for the odds, ``n`` independent
copies of one die's value: this module gives that value's exact distribution,
and the pool's methods in :mod:`referee.dice.odds` (sums, keep / drop,
medians, counts) take it from there.

Every roll of a die goes through the same steps, the ones :mod:`referee.dice.rolling`
takes at the table:

1. the face is rolled; ``ro`` rerolls it once if it meets the condition,
   ``rr`` until it does not (exactly: the faces that do not meet it, equally likely);
2. ``!`` / ``!!``: a face meeting the explosion's condition (the highest face
   by default) rolls one more die, which goes through the same steps; at most
   ``depth`` extra rolls per die (:data:`EXPLODE_DEPTH` unless set), the last
   one counted at its face;
3. ``mi`` / ``ma`` raise / lower each roll's value; a Fate die's d3 reads -1, 0, +1.

With ``!`` the die's rolls are separate dice for counting successes
(``10d6!cs>=5`` counts each roll that shows 5 or more); with ``!!`` they make
one die. For keeping, dropping and the median a die and its explosions are one
die in both cases. The probability that some die would have exploded beyond the
depth (the part of the real, unbounded odds the bounded ones do not follow) is
:func:`beyond_depth`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.dice.notation import EXPLODE_DEPTH, MAX_DEPTH, Die, compare, hit_range

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["EXPLODE_DEPTH", "MAX_DEPTH"]  # re-exported from the notation

Weights = dict[int, int]


def face_weights(sides: int, die: Die) -> tuple[Weights, int]:
    """``({face: weight}, total)`` of one roll after its rerolls (before its value).

    ``ro``: a face that does not meet the condition comes up directly (weight
    ``sides``) or after a reroll (weight ``hits``, the faces that do); every face
    can come up after a reroll. ``rr``: only the faces that do not meet it.
    """
    faces = range(1, sides + 1)
    if not die.reroll:
        return dict.fromkeys(faces, 1), sides
    hit = hit_range(die.reroll_op, die.reroll_at, sides)
    hits = len(hit)
    if die.reroll == "rr":
        kept = {f: 1 for f in faces if f not in hit}
        return kept, len(kept)
    return {f: hits + (0 if f in hit else sides) for f in faces}, sides * sides


def _split(sides: int, die: Die) -> tuple[Weights, Weights, int]:
    """``(stop, go, total)``: weights of the faces that end a die's rolls and of those
    that explode (rolling one more die), by face, and their total."""
    weights, total = face_weights(sides, die)
    stop: Weights = {}
    go: Weights = {}
    for face, w in weights.items():
        (go if die.explodes(face, sides) else stop)[face] = w
    return stop, go, total


def _convolve(a: Weights, b: Weights) -> Weights:
    out: Weights = {}
    get = out.get
    pairs = list(b.items())
    for x, wa in a.items():
        for y, wb in pairs:
            out[x + y] = get(x + y, 0) + wa * wb
    return out


def _chain(stop: Weights, go: Weights, total: int, depth: int) -> tuple[Weights, int]:
    """The sum over a die's rolls: ``k`` exploding rolls then one that stops, for
    ``k < depth``, or ``depth`` exploding rolls and any last roll. Weights over
    ``total ** (depth + 1)``."""
    out: Weights = {}
    prefix: Weights = {0: 1}  # the k exploding rolls so far
    last = dict(stop)
    for face, w in go.items():
        last[face] = last.get(face, 0) + w
    for k in range(depth + 1):
        if not prefix:
            break
        scale = total ** (depth - k)
        for value, w in _convolve(prefix, stop if k < depth else last).items():
            out[value] = out.get(value, 0) + w * scale
        if k < depth:
            prefix = _convolve(prefix, go)
    return {v: w for v, w in sorted(out.items()) if w}, total ** (depth + 1)


def _valued(weights: Weights, die: Die) -> Weights:
    out: Weights = {}
    for face, w in weights.items():
        v = die.value(face)
        out[v] = out.get(v, 0) + w
    return out


def die_weights(sides: int, die: Die) -> tuple[Weights, int]:
    """``({value: weight}, total)``: what one die is worth (all its rolls added)."""
    if not die.explode:
        weights, total = face_weights(sides, die)
        return dict(sorted(_valued(weights, die).items())), total
    stop, go, total = _split(sides, die)
    return _chain(_valued(stop, die), _valued(go, die), total, die.depth)


def hits_weights(sides: int, die: Die, op: str, target: int) -> tuple[Weights, int]:
    """``({hits: weight}, total)``: how many of one ``!`` die's rolls have a value
    ``op`` ``target`` (each roll counts on its own)."""
    stop, go, total = _split(sides, die)

    def hits(weights: Weights) -> Weights:
        out: Weights = {}
        for face, w in weights.items():
            h = int(compare(die.value(face), op, target))
            out[h] = out.get(h, 0) + w
        return out

    return _chain(hits(stop), hits(go), total, die.depth)


def explode_chance(sides: int, die: Die) -> tuple[int, int]:
    """``(go, total)``: the weight of a roll that explodes, over a roll's total."""
    _, go, total = _split(sides, die)
    return sum(go.values()), total


def beyond_die(sides: int, die: Die) -> tuple[int, int]:
    """``(weight, total)``: the chance that one die's last allowed roll still explodes
    (``p ** (depth + 1)``), which the bounded odds count at its face."""
    if not die.explode:
        return 0, 1
    go, total = explode_chance(sides, die)
    return go ** (die.depth + 1), total ** (die.depth + 1)


def expected_draws(sides: int, die: Die | None) -> float:
    """The expected number of faces one die draws from a roller (rerolls and
    explosions included): what rolling it costs."""
    if die is None or not (die.reroll or die.explode):
        return 1.0
    faces = range(1, sides + 1)
    hits = sum(1 for f in faces if die.rerolls(f)) if die.reroll else 0
    # rr: a geometric number of draws; ro: one more draw when the first hits
    per_roll = sides / (sides - hits) if die.reroll == "rr" else 1 + hits / sides
    if not die.explode:
        return per_roll
    go, total = explode_chance(sides, die)
    p = go / total
    rolls = sum(p**k for k in range(die.depth + 1))  # 1 + p + ... + p**depth rolls
    return per_roll * rolls


def beyond_fraction(weight: int, total: int) -> Fraction:
    """``Fraction(weight, total)`` (imported on use)."""
    from fractions import Fraction

    return Fraction(weight, total)
