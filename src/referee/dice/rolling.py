"""Rolling an expression: faces from a roller, read the way :func:`~referee.dice.evaluate.odds`
reads the tree.

:func:`roll` takes faces from a :class:`~referee.dice.roller.Roller` and
returns an immutable :class:`Rolled` tree (every face, kept and dropped, and
each node's total). Kept apart from the exact odds so that a program asking
only for odds never loads the rollers (``random``, ``secrets``) or
:mod:`dataclasses`; :mod:`referee.dice.evaluate` re-exports these names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.dice.evaluate import TRUSTED_ROLL_BUDGET, as_expr, draws_over
from referee.dice.notation import EXPLODE_DEPTH, Const, Die, Expr, Labeled, Neg, Pool
from referee.dice.roller import Roller, ScriptedRoller, _is_face
from referee.errors import DiceError


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One roll of a die: its face, its sides, and whether it counts toward the total.

    ``face`` is what the roller drew (``1..sides``: a Fate die is a d3), ``value``
    what it is worth when that differs (a Fate die's -1/0/+1, a face raised by
    ``mi`` or lowered by ``ma``). ``rerolled``: a face that ``ro`` / ``rr`` set
    aside (never counted); ``exploded``: this roll was added because the roll
    before it exploded (``!``, ``!!``).
    """

    face: int
    sides: int
    kept: bool = True
    value: int | None = None
    rerolled: bool = False
    exploded: bool = False

    @property
    def worth(self) -> int:
        """What the roll is worth: ``value`` when set, else the face."""
        return self.face if self.value is None else self.value


@dataclass(frozen=True, slots=True)
class Rolled:
    """The result of rolling one node of an expression tree."""

    expr: Expr
    total: int
    dice: tuple[DieRoll, ...] = ()
    parts: tuple[Rolled, ...] = ()

    def faces(self) -> tuple[int, ...]:
        """Every face rolled in this subtree, in rolling order."""
        own = tuple(d.face for d in self.dice)
        return own + tuple(f for p in self.parts for f in p.faces())


# ---------------------------------------------------------------------------
# rolling


MAX_DRAWS = 10 * TRUSTED_ROLL_BUDGET
"""Faces one roll may draw in all: a roll whose rerolls run past it stops with a
:class:`DiceError` (after :func:`roll` has checked that it expects at most
:data:`~referee.dice.evaluate.TRUSTED_ROLL_BUDGET`, so this never happens in practice)."""


def _select(pool: Pool, faces: tuple[int, ...]) -> tuple[int, tuple[bool, ...]]:
    """Apply a pool's selection to rolled faces (or dice values): (total, kept flags)."""
    n = len(faces)
    if pool.select == "sum":
        return sum(faces), (True,) * n
    if pool.select in ("kh", "kl", "dh", "dl"):
        sign = -1 if pool.select in ("kh", "dl") else 1
        keep = pool.keep if pool.select in ("kh", "kl") else n - pool.keep
        order = sorted(range(n), key=lambda i: (sign * faces[i], i))
        chosen = set(order[:keep])
        kept = tuple(i in chosen for i in range(n))
        return sum(f for f, k in zip(faces, kept, strict=True) if k), kept
    if pool.select == "med":
        order = sorted(range(n), key=lambda i: (faces[i], i))
        mid = order[n // 2]
        return faces[mid], tuple(i == mid for i in range(n))
    kept = tuple(pool.counts(f) for f in faces)
    return sum(kept), kept


class _Draws:
    """Counts the faces a roll draws, against :data:`MAX_DRAWS`."""

    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = MAX_DRAWS

    def take(self, roller: Roller, sides: int) -> int:
        self.left -= 1
        if self.left < 0:
            raise DiceError(f"this roll drew more than {MAX_DRAWS:,} dice; stopped")
        return roller.roll(1, sides)[0]


_Chain = list[tuple[int, int, bool, bool]]
"""One die's rolls: ``(face, value, rerolled, exploded)`` in the order drawn."""


def _roll_die(sides: int, die: Die, roller: Roller, draws: _Draws) -> _Chain:
    """One die rolled as a table rolls it (:mod:`referee.dice.faces`): its face, rerolled
    by ``ro`` once or by ``rr`` until it no longer meets the condition, then (``!``,
    ``!!``) one more die for each roll that explodes, at most ``die.depth`` more."""
    chain: _Chain = []
    extra = 0
    while True:
        face = draws.take(roller, sides)
        if die.reroll:
            while die.rerolls(face):
                chain.append((face, die.value(face), True, extra > 0))
                face = draws.take(roller, sides)
                if die.reroll == "ro":
                    break
        chain.append((face, die.value(face), False, extra > 0))
        if extra < die.depth and die.explodes(face, sides):
            extra += 1
            continue
        return chain


def _roll_modified(pool: Pool, die: Die, roller: Roller, draws: _Draws) -> Rolled:
    """A pool with modifiers: each die rolled in turn (all its rolls before the next
    die), then the selection over the dice's values."""
    sides = pool.sides
    if die.fate or not (die.reroll or die.explode):
        chains = [[(f, die.value(f), False, False)] for f in roller.roll(pool.count, sides)]
    else:
        chains = [_roll_die(sides, die, roller, draws) for _ in range(pool.count)]
    if pool.select in (">=", "<=", ">", "<", "=") and die.explode == "!":
        # every roll is a die of its own for counting
        dice = tuple(
            DieRoll(f, sides, not r and pool.counts(v), _shown(f, v), r, x)
            for chain in chains
            for f, v, r, x in chain
        )
        return Rolled(pool, sum(d.kept for d in dice), dice)
    values = tuple(sum(v for _, v, r, _ in chain if not r) for chain in chains)
    total, kept = _select(pool, values)
    dice = tuple(
        DieRoll(f, sides, k and not r, _shown(f, v), r, x)
        for chain, k in zip(chains, kept, strict=True)
        for f, v, r, x in chain
    )
    return Rolled(pool, total, dice)


def _shown(face: int, value: int) -> int | None:
    return None if value == face else value


def _roll(expr: Expr, roller: Roller, draws: _Draws) -> Rolled:
    if isinstance(expr, Const):
        return Rolled(expr, expr.value)
    if isinstance(expr, Pool):
        if expr.die is not None:
            return _roll_modified(expr, expr.die, roller, draws)
        faces = roller.roll(expr.count, expr.sides)
        total, kept = _select(expr, faces)
        dice = tuple(DieRoll(f, expr.sides, k) for f, k in zip(faces, kept, strict=True))
        return Rolled(expr, total, dice)
    if isinstance(expr, Neg):
        inner = _roll(expr.operand, roller, draws)
        return Rolled(expr, -inner.total, parts=(inner,))
    if isinstance(expr, Labeled):
        inner = _roll(expr.operand, roller, draws)
        return Rolled(expr, inner.total, parts=(inner,))
    left = _roll(expr.left, roller, draws)
    right = _roll(expr.right, roller, draws)
    if expr.op == "+":
        total = left.total + right.total
    elif expr.op == "-":
        total = left.total - right.total
    else:
        total = left.total * right.total
    return Rolled(expr, total, parts=(left, right))


def roll(expression: Expr | str, roller: Roller, *, depth: int = EXPLODE_DEPTH) -> Rolled:
    """Roll an expression with ``roller`` and return the full result tree.

    Every face drawn is in the tree, in the order drawn (a die's rerolls and
    explosions before the next die), so the faces replay the roll exactly.
    Exploding dice explode at most ``depth`` times each, as :func:`odds` counts
    them. Refused before any die is drawn (:class:`DiceError`) when it is expected
    to draw more than :data:`~referee.dice.evaluate.TRUSTED_ROLL_BUDGET` faces.

    Example::

        >>> rolled = roll("3d6kh2+1", SeededRoller(7))
        >>> rolled.total
        8
        >>> [(d.face, d.kept) for d in rolled.parts[0].dice]
        [(3, True), (2, False), (4, True)]
        >>> roll("4d6>=5", ScriptedRoller([6, 5, 2, 1])).total  # two dice succeed
        2
    """
    expr = as_expr(expression, depth)
    too_many = draws_over(expr, TRUSTED_ROLL_BUDGET)
    if too_many:
        raise DiceError(too_many)
    return _roll(expr, roller, _Draws())


def _variable(expr: Expr) -> bool:
    """Whether the number of faces a roll draws depends on the faces."""
    if isinstance(expr, Pool):
        return expr.variable()
    if isinstance(expr, (Neg, Labeled)):
        return _variable(expr.operand)
    if isinstance(expr, Const):
        return False
    return _variable(expr.left) or _variable(expr.right)


def check_faces(
    expression: Expr | str, faces: Sequence[int], *, depth: int = EXPLODE_DEPTH
) -> None:
    """Check hand-entered faces against the dice an expression needs.

    Raises :class:`DiceError` naming the expected count or the impossible face.
    With rerolls or explosions the count depends on the faces: they are read in
    the order a table rolls them (each die, then its rerolls and explosions, then
    the next die) and must be exactly what the roll draws.

    Example::

        >>> check_faces("2d6", [3, 4])  # right: returns None
        >>> check_faces("2d6", [3, 7])
        Traceback (most recent call last):
        ...
        referee.errors.DiceError: face 2 is 7, impossible on a d6
        >>> check_faces("2d6", [3])
        Traceback (most recent call last):
        ...
        referee.errors.DiceError: 2d6 needs 2 faces (2d6); 1 given
    """
    expr = as_expr(expression, depth)
    if not _variable(expr):
        check_faces_for(expr.dice(), faces, str(expr))
        return
    script = ScriptedRoller(faces)
    try:
        _roll(expr, script, _Draws())
    except DiceError as error:
        if script.remaining:  # a face the die cannot show
            raise DiceError(f"{expr}: {error}") from None
        raise DiceError(
            f"{expr} needs more faces than the {len(faces)} given: a roll still rerolls or "
            "explodes after the last (faces go die by die, each with its rerolls and "
            "explosions)"
        ) from None
    left = script.remaining
    if left:
        raise DiceError(
            f"{expr} needs {len(faces) - len(left)} faces with these rolls; "
            f"{len(faces)} given ({len(left)} more than it rolls)"
        )


def check_faces_for(
    groups: Sequence[tuple[int, int]], faces: Sequence[int], what: str = "this roll"
) -> None:
    """Check faces against ``(count, sides)`` groups; a clear :class:`DiceError` if wrong."""
    need = sum(c for c, _ in groups)
    described = " + ".join(f"{c}d{s}" for c, s in groups) or "no dice"
    if len(faces) != need:
        raise DiceError(f"{what} needs {need} faces ({described}); {len(faces)} given")
    i = 0
    for count, sides in groups:
        for _ in range(count):
            if not _is_face(faces[i], sides):
                raise DiceError(f"face {i + 1} is {faces[i]}, impossible on a d{sides}")
            i += 1
