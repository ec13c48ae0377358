"""Dice notation: text -> an immutable expression tree.

Grammar (whitespace between tokens is ignored, not inside a number or a word; ASCII
letters are case-insensitive)::

    expr   := term (("+" | "-") term)*
    term   := factor ("*" factor)*
    factor := "-" factor | atom [LABEL]
    atom   := INT | pool | "(" expr ")" [select]     (select: on one pool only)
    pool   := [INT] "d" (INT | "%" | "F") mod* [select]
    mod    := ("ro" | "rr" | "r") cond  reroll once / until the face fails cond
            | ("!" | "x" | "!!") [cond] explode (compound: !!) on cond, else the top face
            | ("mi" | "min") INT        each roll worth at least INT
            | ("ma" | "max") INT        each roll worth at most INT
    cond   := [CMP] INT                 a face (equal) or a comparison
    select := ("kh" | "k") INT        keep the INT highest dice      3d6kh2
            | "kl" INT                keep the INT lowest dice       3d6kl2
            | "dh" INT | "dl" INT     drop the INT highest / lowest  4d6dl1
            | "med"                   the median of an odd pool      3d12med
            | ["cs"] CMP INT          count dice meeting a target    4d6>=3
    CMP    := ">=" | "<=" | ">" | "<" | "="
    LABEL  := "[" text "]"            kept in a roll, ignored by the odds

Each modifier at most once per pool, all before the selection; a comparison right
after ``!`` is the explosion's (``10d6!>=5``), so counting after a bare ``!`` is
written with ``cs`` (``10d6!cs>=5``). A bare ``r`` without a face is refused with an
error naming ``ro`` and ``rr`` (Foundry and Roll20 read it differently); ``r`` with a
face is Roll20's ``rr``. ``d%`` is ``d100``; ``dF`` a Fate die (:class:`Die`).

A leading chat command ``/r``, ``/roll``, ``!r`` or ``!roll`` is dropped; ``#`` starts a
comment, the whole expression's label, and so do plain words after a complete
expression (``1d20+5 Stealth``; the rule is in docs/dice.md). Other tools' forms
(``1d20adv``, ``{4d6}kh3``, ``[[1d20]]``, ``4d6d1``...) are refused naming ours.

``str()`` of a tree is its canonical notation, which parses back to an equal
tree (a text whose canonical form would be over :data:`MAX_LENGTH` is refused).
Untrusted input is bounded: at most :data:`MAX_LENGTH` characters,
:data:`MAX_DICE` dice in all, :data:`MAX_SIDES` sides per die and constants up
to :data:`MAX_CONSTANT`; anything beyond is a :class:`NotationError`.

The parser is written by hand (recursive descent over one regex scan): no
grammar is built at run time, a typical expression parses in a few
microseconds, and the last :data:`PARSE_CACHE_SIZE` texts are remembered. An
error names the position of the offending character or token and every
terminal that could have come there (the ones a grammar-driven LALR parser
would accept after the same prefix).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from itertools import product
from operator import itemgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.errors import NotationError

MAX_LENGTH = 200
MAX_DICE = 1000
MAX_SIDES = 1000
MAX_CONSTANT = 1_000_000

COMPARISONS = (">=", "<=", ">", "<", "=")

EXPLODE_DEPTH = 9
"""Extra rolls one die may make by exploding unless set otherwise (icepool's default
depth too); a roll that still meets the condition at the last of them counts at its
face, and the odds report how likely that was (:func:`referee.dice.beyond_depth`)."""

MAX_DEPTH = 100
"""The deepest explosion a tree may ask for."""


def _notation_error(
    message: str, *, text: str = "", position: int = 0, expected: str = ""
) -> NotationError:
    """The error to raise; :mod:`referee.errors` is imported on the first error only
    (it loads :mod:`dataclasses`, which a query that parses never needs)."""
    from referee.errors import NotationError

    return NotationError(message, text=text, position=position, expected=expected)


# ---------------------------------------------------------------------------
# the tree


class FrozenNodeError(AttributeError):
    """An attempt to change a node of an expression tree (they are immutable)."""


class _Node(tuple[object, ...]):
    """Immutable value objects: equal and hashed by their fields, in order.

    A node is a tuple of its fields (read by name through C-level getters), so
    making one is a single tuple allocation: parsing a typical expression costs
    a few microseconds. Written by hand rather than with :mod:`dataclasses`
    (which imports :mod:`inspect`): ``import referee.dice`` and a first answer
    then cost a fraction of the time. Equality (same class, same fields),
    hashing, ``repr``, pickling and refusing assignment behave as a frozen
    dataclass does; a node is never equal to a plain tuple.
    """

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _key(self) -> tuple[object, ...]:
        return tuple(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return False if isinstance(other, tuple) else NotImplemented
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return True if isinstance(other, tuple) else NotImplemented
        return tuple.__ne__(self, other)

    def _unordered(self, other: object) -> bool:
        return NotImplemented  # type: ignore[no-any-return]

    __lt__ = __le__ = __gt__ = __ge__ = _unordered  # nodes have no order (as before)

    def __hash__(self) -> int:
        return hash((self.__class__.__name__, *self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={v!r}" for f, v in zip(self._fields, self, strict=True))
        return f"{self.__class__.__name__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenNodeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenNodeError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return self.__class__, tuple(self)


_tuple_new = tuple.__new__


def _getters(*names: str) -> tuple[property, ...]:
    """Read-only properties reading a node's fields by position (C getters)."""
    return tuple(property(itemgetter(i), doc=f"The node's {name}.") for i, name in enumerate(names))


class Const(_Node):
    """An integer constant (non-negative; negation is :class:`Neg`)."""

    __slots__ = ()
    _fields = ("value",)
    __match_args__ = ("value",)
    precedence = 4
    if TYPE_CHECKING:
        value: int
    else:
        (value,) = _getters(*_fields)

    def __new__(cls, value: int) -> Const:
        if value < 0:
            raise ValueError("Const holds a non-negative value; use Neg for a minus sign")
        return _tuple_new(cls, (value,))

    def __str__(self) -> str:
        return str(self.value)

    def dice(self) -> tuple[tuple[int, int], ...]:
        """The ``(count, sides)`` groups this expression rolls, in order."""
        return ()


class Die(_Node):
    """How each die of a pool is rolled, when it is not a plain fair die.

    * ``reroll``: ``""``, ``"ro"`` (reroll once) or ``"rr"`` (reroll until the
      face no longer meets the condition); the condition is ``reroll_op``
      (one of :data:`COMPARISONS`) against ``reroll_at``.
    * ``explode``: ``""``, ``"!"`` (a face meeting the condition rolls one more
      die, added; the extra rolls are dice of their own for counting) or
      ``"!!"`` (compounding: the extra rolls make one die); ``explode_op`` is
      ``""`` for the highest face, else a comparison against ``explode_at``.
    * ``low`` / ``high``: each roll's value is raised to ``low`` / lowered to
      ``high`` (``mi`` / ``ma``); 0 when absent.
    * ``fate``: a Fate (Fudge) die, a d3 read as -1, 0, +1 (no other modifier).
    * ``depth``: at most this many extra rolls per die by exploding
      (:data:`EXPLODE_DEPTH` unless set through ``odds(..., depth=)`` /
      ``roll(..., depth=)``; not part of the notation).
    """

    __slots__ = ()
    _fields = (
        "reroll",
        "reroll_op",
        "reroll_at",
        "explode",
        "explode_op",
        "explode_at",
        "low",
        "high",
        "fate",
        "depth",
    )
    __match_args__ = _fields
    if TYPE_CHECKING:
        reroll: str
        reroll_op: str
        reroll_at: int
        explode: str
        explode_op: str
        explode_at: int
        low: int
        high: int
        fate: bool
        depth: int
    else:
        (
            reroll,
            reroll_op,
            reroll_at,
            explode,
            explode_op,
            explode_at,
            low,
            high,
            fate,
            depth,
        ) = _getters(*_fields)

    def __new__(
        cls,
        reroll: str = "",
        reroll_op: str = "",
        reroll_at: int = 0,
        explode: str = "",
        explode_op: str = "",
        explode_at: int = 0,
        low: int = 0,
        high: int = 0,
        fate: bool = False,
        depth: int = EXPLODE_DEPTH,
    ) -> Die:
        node = _tuple_new(
            cls,
            (reroll, reroll_op, reroll_at, explode, explode_op, explode_at, low, high, fate, depth),
        )
        if not 0 <= depth <= MAX_DEPTH:
            raise ValueError(f"explosion depth {depth} is outside 0..{MAX_DEPTH}")
        if reroll not in ("", "ro", "rr") or (reroll and reroll_op not in COMPARISONS):
            raise ValueError(f"unknown reroll {reroll!r} {reroll_op!r}: {node!r}")
        if explode not in ("", "!", "!!") or (explode_op and explode_op not in COMPARISONS):
            raise ValueError(f"unknown explosion {explode!r} {explode_op!r}: {node!r}")
        if low < 0 or high < 0 or (low and high and low > high):
            raise ValueError(f"clamps out of order: {node!r}")
        if fate and (reroll or explode or low or high):
            raise ValueError("a Fate die takes no reroll, explosion or clamp")
        return node

    def text(self) -> str:
        """The modifiers as notation (``ro<3``, ``!``, ``!>=5``, ``mi3``...)."""
        out = ""
        if self.reroll:
            op = "" if self.reroll_op == "=" else self.reroll_op
            out += f"{self.reroll}{op}{self.reroll_at}"
        if self.explode:
            out += self.explode
            if self.explode_op:
                op = "" if self.explode_op == "=" else self.explode_op
                out += f"{op}{self.explode_at}"
        if self.low:
            out += f"mi{self.low}"
        if self.high:
            out += f"ma{self.high}"
        return out

    def rerolls(self, face: int) -> bool:
        """Does a roll showing ``face`` get rerolled?"""
        return bool(self.reroll) and compare(face, self.reroll_op, self.reroll_at)

    def explodes(self, face: int, sides: int) -> bool:
        """Does a roll showing ``face`` (after rerolls) roll one more die?"""
        if not self.explode:
            return False
        if not self.explode_op:
            return face == sides
        return compare(face, self.explode_op, self.explode_at)

    def value(self, face: int) -> int:
        """What a roll showing ``face`` is worth: Fate's -1/0/+1, clamped by ``mi``/``ma``."""
        if self.fate:
            return face - 2
        if self.low and face < self.low:
            return self.low
        if self.high and face > self.high:
            return self.high
        return face


def compare(value: int, op: str, target: int) -> bool:
    """``value op target`` for ``op`` in :data:`COMPARISONS`."""
    if op == ">=":
        return value >= target
    if op == "<=":
        return value <= target
    if op == ">":
        return value > target
    if op == "<":
        return value < target
    return value == target


def hit_range(op: str, target: int, sides: int) -> range:
    """The faces ``1..sides`` for which ``face op target`` holds (always consecutive)."""
    if op == ">=":
        return range(max(target, 1), sides + 1)
    if op == ">":
        return range(max(target + 1, 1), sides + 1)
    if op == "<=":
        return range(1, min(target, sides) + 1)
    if op == "<":
        return range(1, min(target - 1, sides) + 1)
    return range(target, target + 1) if 1 <= target <= sides else range(0)


FATE = Die(fate=True)
"""The die of ``dF``: a d3 read as -1, 0, +1."""


class Pool(_Node):
    """``count`` dice of ``sides`` sides, and what to do with them.

    ``select`` is one of ``"sum"`` (add them), ``"kh"`` / ``"kl"`` (keep the
    ``keep`` highest / lowest and add those), ``"dh"`` / ``"dl"`` (drop the
    ``keep`` highest / lowest and add the rest), ``"med"`` (the median die of an
    odd pool), or a comparison from :data:`COMPARISONS` (count the dice whose
    value compares true against ``target``). ``die`` says how each die is
    rolled (:class:`Die`: rerolls, explosions, clamps, Fate), ``None`` for a
    plain fair die.
    """

    __slots__ = ()
    _fields = ("count", "sides", "select", "keep", "target", "die")
    __match_args__ = ("count", "sides", "select", "keep", "target", "die")
    precedence = 4
    if TYPE_CHECKING:
        count: int  # type: ignore[assignment]  # the field shadows tuple.count
        sides: int
        select: str
        keep: int
        target: int
        die: Die | None
    else:
        count, sides, select, keep, target, die = _getters(*_fields)

    def __new__(
        cls,
        count: int,
        sides: int,
        select: str = "sum",
        keep: int = 0,
        target: int = 0,
        die: Die | None = None,
    ) -> Pool:
        if die is not None and not (die.fate or die.reroll or die.explode or die.low or die.high):
            die = None  # a die without modifiers is a plain die
        node = _tuple_new(cls, (count, sides, select, keep, target, die))
        if count < 1 or sides < 1:
            raise ValueError(f"a pool needs at least one die of at least one side: {node!r}")
        if select in SELECTS_KEEP and not 0 <= keep <= count:
            raise ValueError(f"cannot keep or drop {keep} of {count} dice")
        if select == "med" and count % 2 == 0:
            raise ValueError(f"the median needs an odd number of dice, not {count}")
        if select not in ("sum", "med", *SELECTS_KEEP, *COMPARISONS):
            raise ValueError(f"unknown pool selection {select!r}")
        if die is not None:
            problem = die_problem(die, sides)
            if problem:
                raise ValueError(problem)
        return node

    def __repr__(self) -> str:
        if self.die is None:  # the plain pool's repr, as before dice had modifiers
            return (
                f"Pool(count={self.count!r}, sides={self.sides!r}, select={self.select!r}, "
                f"keep={self.keep!r}, target={self.target!r})"
            )
        return _Node.__repr__(self)

    def __str__(self) -> str:
        die = self.die
        count = "" if self.count == 1 else self.count
        if die is not None and die.fate:
            base = f"{count}dF"
        else:
            base = f"{count}d{self.sides}" + ("" if die is None else die.text())
        if self.select == "sum":
            return base
        if self.select in SELECTS_KEEP:
            return f"{base}{self.select}{self.keep}"
        if self.select == "med":
            return f"{base}med"
        if die is not None and die.explode and not die.explode_op:
            base += "cs"  # 3d6!>=5 would read as the explosion's own range
        return f"{base}{self.select}{self.target}"

    def dice(self) -> tuple[tuple[int, int], ...]:
        """The ``(count, sides)`` groups this expression rolls, in order (before any
        reroll or explosion adds more)."""
        return ((self.count, self.sides),)

    def counts(self, face: int) -> bool:
        """For a counting pool: does ``face`` (a die's value) meet the target?"""
        return compare(face, self.select, self.target)

    def variable(self) -> bool:
        """Whether the number of dice rolled depends on the faces (rerolls, explosions)."""
        die = self.die
        return die is not None and bool(die.reroll or die.explode)


SELECTS_KEEP = ("kh", "kl", "dh", "dl")
"""Selections that keep or drop ``keep`` dice."""


def die_problem(die: Die, sides: int) -> str:
    """Why ``die`` cannot be rolled on ``sides`` sides (``""`` when it can)."""
    if die.fate:
        return "" if sides == 3 else "a Fate die is a d3 read as -1, 0, +1"
    if die.reroll == "rr" and len(hit_range(die.reroll_op, die.reroll_at, sides)) == sides:
        op = "" if die.reroll_op == "=" else die.reroll_op
        return f"rr{op}{die.reroll_at} rerolls every face of a d{sides}: it would never stop"
    if not die.explode:
        return ""
    # the faces a roll can stop on: those a reroll until (rr) leaves, else every face
    left = [f for f in range(1, sides + 1) if not (die.reroll == "rr" and die.rerolls(f))]
    if all(die.explodes(f, sides) for f in left):
        if len(left) < sides:
            op = "" if die.reroll_op == "=" else die.reroll_op
            return (
                f"after rr{op}{die.reroll_at} every face a d{sides} can stop on explodes: "
                "it would never stop"
            )
        return f"the explosion takes every face of a d{sides}: it would never stop"
    return ""


class Labeled(_Node):
    """An expression with a label in square brackets (``2d6[fire]``): kept in the
    roll's derivation, ignored by the odds."""

    __slots__ = ()
    _fields = ("operand", "label")
    __match_args__ = ("operand", "label")
    precedence = 4
    if TYPE_CHECKING:
        operand: Expr
        label: str
    else:
        operand, label = _getters(*_fields)

    def __new__(cls, operand: Expr, label: str) -> Labeled:
        if "]" in label:  # it would close the label early; a "[" inside is plain text
            raise ValueError(f"a label cannot hold a closing square bracket: {label!r}")
        return _tuple_new(cls, (operand, label))

    def __str__(self) -> str:
        inner = str(self.operand)
        # a label on a labelled term is written on its parentheses: (d6[a])[b]
        if self.operand.precedence < self.precedence or isinstance(self.operand, Labeled):
            inner = f"({inner})"
        return f"{inner}[{self.label}]"

    def dice(self) -> tuple[tuple[int, int], ...]:
        """The ``(count, sides)`` groups this expression rolls, in order."""
        return self.operand.dice()


class Neg(_Node):
    """The negation of an expression."""

    __slots__ = ()
    _fields = ("operand",)
    __match_args__ = ("operand",)
    precedence = 3
    if TYPE_CHECKING:
        operand: Expr
    else:
        (operand,) = _getters(*_fields)

    def __new__(cls, operand: Expr) -> Neg:
        return _tuple_new(cls, (operand,))

    def __str__(self) -> str:
        inner = str(self.operand)
        if self.operand.precedence < self.precedence:
            inner = f"({inner})"
        return f"-{inner}"

    def dice(self) -> tuple[tuple[int, int], ...]:
        """The ``(count, sides)`` groups this expression rolls, in order."""
        return self.operand.dice()


class BinOp(_Node):
    """``left op right`` with ``op`` one of ``+``, ``-``, ``*``."""

    __slots__ = ()
    _fields = ("op", "left", "right")
    __match_args__ = ("op", "left", "right")
    if TYPE_CHECKING:
        op: str
        left: Expr
        right: Expr
    else:
        op, left, right = _getters(*_fields)

    def __new__(cls, op: str, left: Expr, right: Expr) -> BinOp:
        if op not in ("+", "-", "*"):
            raise ValueError(f"unknown operator {op!r}")
        return _tuple_new(cls, (op, left, right))

    @property
    def precedence(self) -> int:
        """2 for ``*``, 1 for ``+`` and ``-``."""
        return 2 if self.op == "*" else 1

    def __str__(self) -> str:
        p = self.precedence
        left = str(self.left)
        if self.left.precedence < p:
            left = f"({left})"
        right = str(self.right)
        if self.right.precedence <= p or isinstance(self.right, Neg):
            right = f"({right})"
        return f"{left}{self.op}{right}"

    def dice(self) -> tuple[tuple[int, int], ...]:
        """The ``(count, sides)`` groups this expression rolls, in order."""
        return self.left.dice() + self.right.dice()


Expr = Const | Pool | Neg | BinOp | Labeled
"""Any node of an expression tree (a union usable in ``isinstance`` checks)."""


# ---------------------------------------------------------------------------
# parsing: a hand-written recursive-descent parser over one regex scan

_TOKEN = re.compile(
    r"\s*([0-9]+|kh|kl|k|dh|dl|d|med|min|max|mi|ma|ro|rr|r|cs|!!|!|x|f|%|\[[^\]]*\]?"
    r"|>=|<=|[-+*()<>=]|#.*|\Z|.)",
    re.DOTALL,
)
"""One token after any whitespace: a number, a word or symbol, a label in square
brackets, a comment (``#`` to the end of the text), the end of the text (empty), or
any other single character (which the parser reports)."""

_KINDS = {
    "d": "DIE",
    "kh": "KH",
    "kl": "KL",
    "k": "K",
    "dh": "DH",
    "dl": "DL",
    "med": "MED",
    "cs": "CS",
    "ro": "RO",
    "rr": "RR",
    "r": "R",
    "!": "BANG",
    "x": "BANG",
    "!!": "BANGBANG",
    "mi": "MI",
    "min": "MI",
    "ma": "MA",
    "max": "MA",
    "f": "FATE",
    "%": "PERCENT",
    ">=": "CMP",
    "<=": "CMP",
    ">": "CMP",
    "<": "CMP",
    "=": "CMP",
    "+": "PLUS",
    "-": "MINUS",
    "*": "STAR",
    "(": "LPAR",
    ")": "RPAR",
    "": "$END",
}
"""Each token's terminal name (a number is ``INT``, a label ``LABEL``; anything else
is not a token)."""

_FRIENDLY = {
    "INT": "a number",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "STAR": "'*'",
    "LPAR": "'('",
    "RPAR": "')'",
    "DIE": "'d'",
    "KH": "'kh'",
    "KL": "'kl'",
    "K": "'k'",
    "DH": "'dh'",
    "DL": "'dl'",
    "MED": "'med'",
    "CS": "'cs'",
    "RO": "'ro'",
    "RR": "'rr'",
    "BANG": "'!'",
    "BANGBANG": "'!!'",
    "MI": "'mi'",
    "MA": "'ma'",
    "FATE": "'F'",
    "PERCENT": "'%'",
    "LABEL": "a label such as [fire]",
    "CMP": "a comparison (>=, <=, >, <, =)",
    "$END": "the end of the expression",
}

# What may come next, by where the parser stands. Together they are exactly the
# terminals t for which "text so far + t" begins some valid expression.
_START = frozenset({"INT", "DIE", "LPAR", "MINUS"})
"""Where an operand begins: after an operator, '(' or a unary minus, or at the start."""
_NUMBER = frozenset({"INT"})
"""After 'kh', 'kl', 'mi', 'ma' or a comparison."""
_SIDES = frozenset({"INT", "FATE", "PERCENT"})
"""After 'd': the sides, 'F' (Fate) or '%' (percentile)."""
_CONDITION = frozenset({"INT", "CMP"})
"""After 'ro' or 'rr': a face, or a comparison and a face."""
_OPERATORS = frozenset({"STAR", "PLUS", "MINUS"})
"""After any complete operand (plus ')' inside parentheses, or the end outside)."""
_AFTER_CONSTANT = frozenset({"DIE", "LABEL"})
"""A number just read may still be the count of a pool, or take a label."""
_SELECTIONS = frozenset({"KH", "KL", "K", "DH", "DL", "MED", "CMP", "CS"})
"""What picks or counts a pool's dice."""
_MODIFIERS = {"RO": "reroll", "RR": "reroll", "BANG": "explode", "BANGBANG": "explode"}
_MODIFIERS.update({"MI": "low", "MA": "high"})
"""A die's modifiers, by the slot each fills (each at most once, before a selection)."""
_AFTER_GROUP = _SELECTIONS | {"LABEL"}
"""After ')': a selection (when the group is one pool) or a label."""
_LABEL = frozenset({"LABEL"})
_NOTHING: frozenset[str] = frozenset()

_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

_SELECT_WORD = {"kh": "kh", "k": "kh", "kl": "kl", "dh": "dh", "dl": "dl"}
"""The selection each keep / drop word makes (``k`` is short for ``kh``)."""


def _pool(
    count: int,
    sides: int,
    select: str = "sum",
    keep: int = 0,
    target: int = 0,
    die: Die | None = None,
) -> Pool:
    """A :class:`Pool` the parser has already checked (skips the constructor's checks)."""
    return _tuple_new(Pool, (count, sides, select, keep, target, die))


def _const(value: int) -> Const:
    """A :class:`Const` the parser has already checked (a non-negative number)."""
    return _tuple_new(Const, (value,))


def _binop(op: str, left: Expr, right: Expr) -> BinOp:
    """A :class:`BinOp` whose operator the parser read (skips the constructor's check)."""
    return _tuple_new(BinOp, (op, left, right))


PARSE_CACHE_SIZE = 1024
"""Parsed expressions kept (least recently used dropped first); trees are immutable."""


def _expected(names: frozenset[str]) -> str:
    seen = sorted({_FRIENDLY[n] for n in names})
    if not seen:
        return ""
    if len(seen) == 1:
        return seen[0]
    return ", ".join(seen[:-1]) + " or " + seen[-1]


class _Syntax(Exception):
    """Internal: token ``index`` is not allowed where it stands; ``expected`` is what is."""

    def __init__(self, index: int, expected: frozenset[str]) -> None:
        self.index = index
        self.expected = expected


class _Refusal(Exception):
    """Internal: the text is well formed up to token ``index`` but means nothing we roll
    (a bare ``r``, a modifier twice, a selection on a group that is not a pool)."""

    def __init__(self, index: int, message: str, expected: str = "") -> None:
        self.index = index
        self.message = message
        self.expected = expected


def _is_int(tok: str) -> bool:
    return "0" <= tok[:1] <= "9"


class _Parser:
    """Recursive descent over the scanned tokens, building :data:`Expr` nodes.

    ``sum`` reads ``product (("+" | "-") product)*`` and ``*`` chains in one
    loop, ``operand`` reads unary minuses and an atom; each parenthesis level
    costs two stack frames, so the longest allowed text nests safely. A token
    the grammar does not allow raises :class:`_Syntax` at once. A number out of
    range is only noted (the first one): a syntax error anywhere in the text
    is reported before it, as the grammar-then-bounds order always did.
    """

    __slots__ = ("dice", "i", "problem", "tokens")

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.i = 0
        self.dice = 0
        self.problem: tuple[str, int, str] | None = None

    def sum(self, depth: int) -> Expr:
        """An expression up to ')' (inside parentheses) or the end of the text."""
        tokens = self.tokens
        total: Expr | None = None
        op = ""
        product, after = self.operand(depth)
        while True:
            tok = tokens[self.i]
            if tok == "*":
                self.i += 1
                right, after = self.operand(depth)
                product = _binop("*", product, right)
            elif tok == "+" or tok == "-":
                self.i += 1
                total = product if total is None else _binop(op, total, product)
                op = tok
                product, after = self.operand(depth)
            elif tok == (")" if depth else "") or (not depth and tok[:1] == "#"):
                return product if total is None else _binop(op, total, product)
            else:
                closer = "RPAR" if depth else "$END"
                raise _Syntax(self.i, _OPERATORS | after | {closer})

    def operand(self, depth: int) -> tuple[Expr, frozenset[str]]:
        """``-``* then a number, a pool or a parenthesised expression, and a label.

        Returns the node and what else may follow it besides operators.
        """
        tokens = self.tokens
        i = self.i
        tok = tokens[i]
        negations = 0
        while tok == "-":
            negations += 1
            i += 1
            tok = tokens[i]
        node: Expr
        if tok == "(":
            self.i = i + 1
            node = self.sum(depth + 1)
            self.i += 1  # the ')'
            after = _AFTER_GROUP
            if tokens[self.i] in _SELECT_WORD or tokens[self.i] in ("med", "cs", *COMPARISONS):
                node, after = self.group_selection(node, self.i)
        elif tok == "d" or _is_int(tok):
            node, after = self.atom(i)
        else:
            raise _Syntax(i, _START)
        if tokens[self.i][:1] == "[":
            node = self.label(node, self.i)
            after = _NOTHING
        while negations:
            node = Neg(node)
            negations -= 1
        return node, after

    def label(self, node: Expr, i: int) -> Labeled:
        """The label at token ``i`` on ``node``."""
        tok = self.tokens[i]
        if not tok.endswith("]") or len(tok) < 2:
            raise _Refusal(i, "a label is not closed", "']'")
        self.i = i + 1
        return _tuple_new(Labeled, (node, tok[1:-1].strip()))

    def group_selection(self, node: Expr, i: int) -> tuple[Expr, frozenset[str]]:
        """A selection after a parenthesised group: ``(3d6!)kh1`` is ``3d6!kh1``."""
        if not (isinstance(node, Pool) and node.select == "sum"):
            raise _Refusal(
                i,
                f"{self.tokens[i]} picks dice from one pool; ({node}) is not a pool of dice",
                "an operator or the end of the expression",
            )
        select, keep, target, i = self.selection(i, node.count)
        self.i = i
        return _pool(node.count, node.sides, select, keep, target, node.die), _LABEL

    def selection(self, i: int, count: int) -> tuple[str, int, int, int]:
        """The selection starting at token ``i``: ``(select, keep, target, next index)``."""
        tokens = self.tokens
        tok = tokens[i]
        if tok in _SELECT_WORD:
            if not _is_int(tokens[i + 1]):
                raise _Syntax(i + 1, _NUMBER)
            keep = self.number(i + 1, "keep count" if tok[0] == "k" else "drop count", 0, count)
            return _SELECT_WORD[tok], keep, 0, i + 2
        if tok == "med":
            if count % 2 == 0:
                self.note(
                    f"the median needs an odd number of dice, not {count}",
                    i,
                    "an odd dice count",
                )
            return "med", 0, 0, i + 1
        if tok == "cs":
            i += 1
            if tokens[i] not in COMPARISONS:
                raise _Syntax(i, frozenset({"CMP"}))
        op = tokens[i]
        if not _is_int(tokens[i + 1]):
            raise _Syntax(i + 1, _NUMBER)
        target = self.number(i + 1, "target", 0, MAX_SIDES + 1)
        return op, 0, target, i + 2

    def condition(self, i: int, sides: int) -> tuple[str, int, int]:
        """A face condition at token ``i``: ``N`` (equal) or a comparison and ``N``."""
        tokens = self.tokens
        tok = tokens[i]
        op = "="
        if tok in COMPARISONS:
            op = tok
            i += 1
            tok = tokens[i]
            if not "0" <= tok[:1] <= "9":
                raise _Syntax(i, _NUMBER)
        elif not "0" <= tok[:1] <= "9":
            raise _Syntax(i, _CONDITION)
        value = int(tok)
        if value > sides + 1:
            value = self.number(i, "face", 0, sides + 1)
        return op, value, i + 1

    def atom(self, i: int) -> tuple[Expr, frozenset[str]]:
        """A constant or a pool starting at token ``i`` (a number or 'd')."""
        tokens = self.tokens
        count = 1
        count_at = -1
        if tokens[i] != "d":
            if tokens[i + 1] != "d":
                self.i = i + 1
                return _const(self.number(i, "constant", 0, MAX_CONSTANT)), _AFTER_CONSTANT
            count_at = i
            count = self.number(i, "dice count", 1, MAX_DICE)
            i += 1
        die_at = i
        tok = tokens[i + 1]
        fate = False
        if tok == "%":
            sides = 100
        elif tok == "f":
            sides, fate = 3, True
        elif _is_int(tok):
            sides = self.number(i + 1, "sides", 1, MAX_SIDES)
        else:
            raise _Syntax(i + 1, _SIDES)
        self.dice += count
        if self.dice > MAX_DICE:
            self.note(f"too many dice: more than {MAX_DICE} in one expression", die_at, "")
        i += 2
        die = FATE if fate else None
        if not fate and tokens[i] in ("ro", "rr", "r", "!", "x", "!!", "mi", "min", "ma", "max"):
            die, i = self.modifiers(i, sides)
        tok = tokens[i]
        if tok == "d" and _is_int(tokens[i + 1]):  # Roll20's and Foundry's drop lowest
            raise _Refusal(
                i,
                f"d{tokens[i + 1]} after a pool drops the lowest dice on Roll20 and Foundry; "
                f"here write {_pool(count, sides, 'sum', 0, 0, die)}dl{int(tokens[i + 1])} "
                "(a d starts a pool)",
                "'dl' or 'dh' and a number",
            )
        if tok in _SELECT_WORD or tok in ("med", "cs", *COMPARISONS):
            if tok == "med" and count % 2 == 0:
                self.note(
                    f"the median needs an odd number of dice, not {count}",
                    count_at,
                    "an odd dice count",
                )
                self.i = i + 1
                return _pool(count, sides, "sum", 0, 0, die), _LABEL
            select, keep, target, i = self.selection(i, count)
            self.i = i
            return _pool(count, sides, select, keep, target, die), _LABEL
        self.i = i
        if fate:
            after = _AFTER_FATE
        elif die is None:
            after = _AFTER_PLAIN
        else:
            after = _AFTER_MODIFIED[
                bool(die.reroll), bool(die.explode), bool(die.low), bool(die.high)
            ]
        return _pool(count, sides, "sum", 0, 0, die), after

    def modifiers(self, i: int, sides: int) -> tuple[Die, int]:
        """Rerolls, an explosion and clamps from token ``i``, each at most once."""
        tokens = self.tokens
        reroll = reroll_op = explode = explode_op = ""
        reroll_at = explode_at = low = high = 0
        while True:
            tok = tokens[i]
            if tok == "ro" or tok == "rr" or tok == "r":
                if reroll:
                    raise _Refusal(i, f"a pool takes one reroll; {tok} is a second")
                if tok == "r":
                    after = tokens[i + 1]
                    if after == "a":
                        raise _Refusal(
                            i,
                            "ra is Avrae's reroll and add (the new die is added, the old one "
                            "kept), which has no spelling here: ro1 rerolls a 1 once and keeps "
                            "the new face, !1 adds a die on a 1",
                            "'ro' or 'rr' and a face",
                        )
                    if not ("0" <= after[:1] <= "9" or after in COMPARISONS):
                        raise _Refusal(
                            i,
                            "a bare r rerolls 1s once on Foundry but repeatedly on Roll20: "
                            "write ro1 to reroll once or rr1 to reroll until the face is not a 1",
                            "'ro' or 'rr' and a face",
                        )
                    tok = "rr"
                reroll = tok
                reroll_op, reroll_at, i = self.condition(i + 1, sides)
            elif tok == "!" or tok == "x" or tok == "!!":
                if explode:
                    raise _Refusal(i, f"a pool takes one explosion; {tok} is a second")
                explode = "!!" if tok == "!!" else "!"
                i += 1
                tok = tokens[i]
                if "0" <= tok[:1] <= "9" or tok in COMPARISONS:
                    explode_op, explode_at, i = self.condition(i, sides)
            elif tok == "mi" or tok == "min" or tok == "ma" or tok == "max":
                what = "minimum" if tok[1] == "i" else "maximum"
                if low if what == "minimum" else high:
                    raise _Refusal(i, f"a pool takes one {what}; {tok} is a second")
                if not "0" <= tokens[i + 1][:1] <= "9":
                    raise _Syntax(i + 1, _NUMBER)
                value = self.number(i + 1, what, 1, sides)
                if what == "minimum":
                    low = value
                else:
                    high = value
                i += 2
            else:
                break
        if low and high and low > high:
            raise _Refusal(i - 1, f"the minimum {low} is above the maximum {high}")
        fields = (reroll, reroll_op, reroll_at, explode, explode_op, explode_at, low, high)
        die = _tuple_new(Die, (*fields, False, EXPLODE_DEPTH))
        if reroll == "rr" or explode:  # only these can go on for ever
            problem = die_problem(die, sides)
            if problem:
                raise _Refusal(i - 1, problem)
        return die, i

    def number(self, index: int, what: str, low: int, high: int) -> int:
        """The number at token ``index``; out of ``low..high`` it is noted and ``low`` used."""
        raw = self.tokens[index]
        value = int(raw)  # at most MAX_LENGTH digits; leading zeros are fine
        if low <= value <= high:
            return value
        self.note(
            f"{what} {raw} is out of range {low}..{high}", index, f"a number from {low} to {high}"
        )
        return low

    def note(self, message: str, index: int, expected: str) -> None:
        """Keep the first bound broken (reported if the whole text parses)."""
        if self.problem is None:
            self.problem = (message, index, expected)


_AFTER_FATE = _SELECTIONS | _LABEL
"""After Fate dice: a selection or a label (they take no modifier)."""
_AFTER_PLAIN = _AFTER_FATE | frozenset(_MODIFIERS)
"""After a plain pool: a selection, a label or any modifier."""
_AFTER_MODIFIED = {
    used: _AFTER_FATE
    | {
        kind
        for kind, slot in _MODIFIERS.items()
        if not used[("reroll", "explode", "low", "high").index(slot)]
    }
    for used in product((False, True), repeat=4)
}
"""After a pool with some modifiers (keyed by which of reroll, explode, low, high it
has): a selection, a label or a modifier it does not have yet."""


_TERM = re.compile(
    r"([-+]?)\s*(?:([0-9]*)\s*d\s*([0-9]+|%|f)\s*"
    r"(?:(kh|kl)\s*([0-9]+)\s*|(med)\s*|(>=|<=|>|<|=)\s*([0-9]+)\s*)?"
    r"|([0-9]+)\s*)|(.)",
    re.DOTALL,
)
"""One term of a plain sum and its sign, its parts captured, or (last group) any
other single character. Every position of a text matches one or the other, so
``findall`` reads a text from end to end without skipping: a text is a plain sum
when no character is left over."""

LinearTerm = tuple[int, str, int, int, int, int]
"""One term of a plain sum: ``(sign, select, count, sides, keep, target)``, ``sign``
1 or -1, ``select`` as in :class:`Pool` or ``"fate"`` (``count`` Fate dice added);
a number has ``select`` ``""`` and its value in ``count``."""


def _linear_terms(lowered: str) -> list[LinearTerm] | None:
    """The terms of a plain sum of pools and numbers within every bound, else None.

    The commonest expressions: terms joined by ``+`` and ``-`` (``2d6``,
    ``3d6kh2+1``, ``d6-d6``), without parentheses, unary minus or ``*``. Anything
    else (a bound broken, an error to report) is left to the parser.
    """
    terms: list[LinearTerm] = []
    dice = 0
    for (
        sign_text,
        count_text,
        sides_text,
        kind,
        keep_text,
        med,
        op,
        target_text,
        number,
        other,
    ) in _TERM.findall(lowered):
        if other or bool(sign_text) != bool(terms):  # only the first term is unsigned
            return None
        sign = -1 if sign_text == "-" else 1
        if number:
            value = int(number)
            if value > MAX_CONSTANT:
                return None
            terms.append((sign, "", value, 0, 0, 0))
            continue
        count = int(count_text) if count_text else 1
        dice += count
        if sides_text == "f":  # Fate dice: a sum only here (a selection goes to the parser)
            if kind or med or op or count < 1 or dice > MAX_DICE:
                return None
            terms.append((sign, "fate", count, 3, 0, 0))
            continue
        sides = 100 if sides_text == "%" else int(sides_text)
        if count < 1 or dice > MAX_DICE or not 1 <= sides <= MAX_SIDES:
            return None
        if kind:
            keep = int(keep_text)
            if keep > count:
                return None
            terms.append((sign, kind, count, sides, keep, 0))
        elif med:
            if not count % 2:
                return None
            terms.append((sign, "med", count, sides, 0, 0))
        elif op:
            target = int(target_text)
            if target > MAX_SIDES + 1:
                return None
            terms.append((sign, op, count, sides, 0, target))
        else:
            terms.append((sign, "sum", count, sides, 0, 0))
    return terms or None


def linear_terms(text: str) -> list[LinearTerm] | None:
    """The terms of ``text`` when it is a plain sum the parser would accept, else None.

    What :func:`parse` reads first, without building a tree: the parts of
    ``2d6``, ``d6-d6+d6>=2+2`` or ``3d6kh2+1``, each signed, numbers included.
    ``None`` for anything else (parentheses, ``*``, a unary minus, an error or
    a broken bound), which :func:`parse` then reads or reports.
    """
    if len(text) > MAX_LENGTH:
        return None
    lowered = text.lower() if text.isascii() else text.translate(_LOWER)
    match = _LONE.fullmatch(lowered)
    if match is not None:  # one pool, perhaps keeping or the median, perhaps +- a number
        return _lone_terms(*match.groups())
    return _linear_terms(lowered) if _MODIFIER_CHARS.isdisjoint(lowered) else None


_LONE = re.compile(r"([0-9]*)d([0-9]+)(?:(kh|kl)([0-9]+)|(med))?(?:([-+])([0-9]+))?", re.ASCII)
"""A lone pool of dice without spaces, perhaps keeping some or their median, perhaps plus
or minus a number (``3d12med``, ``100d100kh1``, ``d20+5``): read at once, without the
term-by-term scan of :func:`_linear_terms`."""


def _lone_terms(
    count_text: str,
    sides_text: str,
    kind: str | None,
    keep_text: str | None,
    med: str | None,
    sign: str | None,
    number: str | None,
) -> list[LinearTerm] | None:
    """:func:`_linear_terms` of a text :data:`_LONE` matched (the same terms, the same
    bounds: the tests compare them)."""
    count = int(count_text) if count_text else 1
    sides = int(sides_text)
    if not (1 <= count <= MAX_DICE and 1 <= sides <= MAX_SIDES):
        return None
    if kind:
        keep = int(keep_text)  # type: ignore[arg-type]
        if keep > count:
            return None
        terms: list[LinearTerm] = [(1, kind, count, sides, keep, 0)]
    elif med:
        if not count % 2:
            return None
        terms = [(1, "med", count, sides, 0, 0)]
    else:
        terms = [(1, "sum", count, sides, 0, 0)]
    if sign:
        value = int(number)  # type: ignore[arg-type]
        if value > MAX_CONSTANT:
            return None
        terms.append((-1 if sign == "-" else 1, "", value, 0, 0, 0))
    return terms


def _simple(lowered: str) -> Expr | None:
    """The tree of a plain sum of pools and numbers within every bound, else None.

    The same tree the parser builds (left-associative); anything else (a
    bound broken, an error to report, parentheses, ``*``) is left to the parser.
    """
    terms = _linear_terms(lowered)
    if terms is None:
        return None
    tree: Expr | None = None
    for term in terms:
        node = term_node(term)
        tree = node if tree is None else _binop("-" if term[0] < 0 else "+", tree, node)
    return tree


_QUICK = re.compile(
    r"([0-9]*)d([0-9]+)(?:(ro|rr)(>=|<=|>|<|=)?([0-9]+))?(?:([-+])([0-9]+))?", re.ASCII
)
"""The commonest texts in one piece, without spaces: a pool of dice, perhaps with a
reroll, perhaps plus or minus a number (``2d6``, ``2d6+3``, ``4d6rr1``, ``d20-1``)."""


def _quick(lowered: str) -> Expr | None:
    """The tree of a text :data:`_QUICK` reads whole, within every bound, else None: the
    tree the parser builds (the tests compare them), without its tokens."""
    match = _QUICK.fullmatch(lowered)
    if match is None:
        return None
    count_text, sides_text, reroll, op, at_text, sign, number = match.groups()
    count = int(count_text) if count_text else 1
    sides = int(sides_text)
    if not (1 <= count <= MAX_DICE and 1 <= sides <= MAX_SIDES):
        return None  # the parser names the bound
    die = None
    if reroll:
        at = int(at_text)
        if at > sides + 1:
            return None
        die = _tuple_new(Die, (reroll, op or "=", at, "", "", 0, 0, 0, False, EXPLODE_DEPTH))
        if reroll == "rr" and die_problem(die, sides):
            return None
    pool = _tuple_new(Pool, (count, sides, "sum", 0, 0, die))
    if not sign:
        return pool
    value = int(number)
    if value > MAX_CONSTANT:
        return None
    return _tuple_new(BinOp, (sign, pool, _tuple_new(Const, (value,))))


def term_node(term: LinearTerm) -> Const | Pool:
    """The node of a term that :func:`linear_terms` read (its bounds already checked)."""
    _, select, count, sides, keep, target = term
    if select == "fate":
        return _pool(count, 3, "sum", 0, 0, FATE)
    return _pool(count, sides, select, keep, target) if select else _const(count)


_MODIFIER_CHARS = frozenset("!xr[c")
"""Letters of forms a plain sum never holds (``!``, ``x``, ``ro``/``rr``, labels,
``cs``): a text with one goes straight to the parser."""


def _position(lowered: str, index: int) -> int:
    """Where token ``index`` starts (scanned again: positions cost only on errors)."""
    if index < 0:
        return 0
    for n, match in enumerate(_TOKEN.finditer(lowered)):
        if n == index:
            return match.start(1)
    raise AssertionError("token index beyond the scan")  # pragma: no cover


def parse(text: str) -> Expr:
    """Parse dice notation into an expression tree.

    Raises :class:`NotationError` with the position and everything that could
    have come there, or when the expression exceeds a bound (length, dice,
    sides, constants). The last :data:`PARSE_CACHE_SIZE` texts parsed are
    remembered.

    Example::

        >>> parse("3d6kh2+1")
        BinOp(op='+', left=Pool(count=3, sides=6, select='kh', keep=2, target=0),
              right=Const(value=1))
        >>> str(parse("4d6 >= 5"))
        '4d6>=5'
        >>> parse("3d6k")
        Traceback (most recent call last):
        ...
        referee.errors.NotationError: expression ends too early at position 4 (expected a number)
    """
    if not isinstance(text, str):
        raise _notation_error("dice notation must be text")
    return _parse(text)


@lru_cache(maxsize=PARSE_CACHE_SIZE)
def _parse(text: str) -> Expr:
    if len(text) > MAX_LENGTH:
        raise _notation_error(
            f"expression is {len(text)} characters long; at most {MAX_LENGTH}",
            text=text[:MAX_LENGTH],
            position=MAX_LENGTH,
        )
    # ASCII only: str.lower() maps e.g. the Kelvin sign to "k", so "3d6\u212ah2"
    # would be accepted, and some characters lower to two, shifting positions
    lowered = text.lower() if text.isascii() else text.translate(_LOWER)
    quick = _quick(lowered)
    if quick is not None:
        return quick
    if _MODIFIER_CHARS.isdisjoint(lowered):  # rerolls, explosions, labels: the parser's
        simple = _simple(lowered)
        if simple is not None:
            return simple
    typed = text
    start = lowered.lstrip()[:1]
    command = _COMMAND.match(lowered) if start == "/" or start == "!" else None
    if command is not None:  # a chat command before the roll: /r, /roll, !r, !roll
        if command.group(2) not in ("r", "roll"):
            raise _command_refusal(text, command)
        blank = " " * command.end()  # dropped, every position kept
        text, lowered = blank + text[command.end() :], blank + lowered[command.end() :]
    try:
        tree = _read(text, lowered)
    except _Failure as failure:
        labeled = _words_label(text, lowered)
        if labeled is None:
            message, expected = _explain(text, lowered, failure)
            raise _notation_error(
                message, text=typed, position=failure.position, expected=expected
            ) from None
        tree = labeled
    if len(text) > MAX_LENGTH // 3:  # canonical forms grow at most threefold (tested)
        written = str(tree)
        if len(written) > MAX_LENGTH:
            raise _notation_error(
                f"expression is written back as {len(written)} characters ({written[:40]}...); "
                f"at most {MAX_LENGTH}, so it could not be read again: write fewer terms",
                text=typed,
                position=0,
            )
    return tree


class _Failure(Exception):
    """Internal: a text that does not parse, with what the error will say."""

    def __init__(self, message: str, position: int, expected: str, syntax: bool) -> None:
        self.message = message
        self.position = position
        self.expected = expected
        self.syntax = syntax


def _read(text: str, lowered: str) -> Expr:
    """The tree of ``text`` (``lowered`` its ASCII lower case), with its comment as a
    label; raises :class:`_Failure` naming the position."""
    if "[" in lowered or "#" in lowered:  # labels and comments keep the case they were typed in
        tokens = [
            text[m.start(1) : m.end(1)] if m.group(1)[:1] in ("[", "#") else m.group(1)
            for m in _TOKEN.finditer(lowered)
        ]
    else:
        tokens = _TOKEN.findall(lowered)
    if not tokens[0]:  # nothing but whitespace
        raise _Failure("empty dice expression", 0, "a number or dice such as 2d6", True)
    parser = _Parser(tokens)
    try:
        tree = parser.sum(0)
    except _Syntax as error:
        tok = tokens[error.index]
        expected = _expected(error.expected)
        if tok == "":
            raise _Failure("expression ends too early", len(text), expected, True) from None
        position = _position(lowered, error.index)
        if tok in _KINDS or "0" <= tok[0] <= "9":
            message = f"unexpected {tok}"
        else:
            message = f"unexpected character {text[position]!r}"
        raise _Failure(message, position, expected, True) from None
    except _Refusal as refusal:
        position = _position(lowered, refusal.index)
        raise _Failure(refusal.message, position, refusal.expected, False) from None
    if parser.problem is not None:
        message, index, expected = parser.problem
        raise _Failure(message, _position(lowered, index), expected, False)
    comment = tokens[parser.i]
    if comment:  # '#' and the rest of the text: the whole expression's label
        words = comment[1:].split()
        if "]" in comment:
            position = _position(lowered, parser.i) + comment.index("]")
            raise _Failure("a comment becomes a label, which cannot hold ']'", position, "", False)
        if words:
            tree = _tuple_new(Labeled, (tree, " ".join(words)))
    return tree


_COMMAND = re.compile(r"\s*([/!])([a-z]+)(?![a-z])")
"""A chat command before the roll (Roll20's and Foundry's ``/r``, Avrae's ``!r``)."""


def _command_refusal(text: str, command: re.Match[str]) -> NotationError:
    written = _suggest(text[command.end() :])
    suggestion = f": write {written} alone or after /r" if written else ""
    word = command.group(1) + command.group(2)
    return _notation_error(
        f"{word} is a chat command, not dice; only /r, /roll, !r and !roll are read before "
        f"a roll (and dropped){suggestion}",
        text=text,
        position=command.start(1),
        expected="dice notation such as 2d6",
    )


LABEL_STOP_WORDS = frozenset(
    {
        # the notation's own words
        *("d", "k", "kh", "kl", "dh", "dl", "med", "mi", "min", "ma", "max"),
        *("ro", "rr", "r", "cs", "x", "f", "df"),
        # other tools' modifiers and flags: read as a label they would change nothing
        *("adv", "dis", "advantage", "disadvantage", "ra", "e", "p", "pl", "ph", "l", "h"),
        *("xo", "cf", "sf", "ms", "s", "sa", "sd", "m", "mt", "even", "odd"),
    }
)
"""Words that never start a label of plain words (``2d6+3 fire``): the notation's own
and the modifiers of Roll20, Foundry and Avrae, so that ``4d6 kh`` or ``d20 ra`` is an
error that says what is missing, not a silent label."""

_WORD_GAP = re.compile(r"\s+(?=\S)")


def _plain_word(word: str) -> bool:
    """Letters (and ``'`` or ``-`` inside), not one of :data:`LABEL_STOP_WORDS`."""
    return (
        word[0].isalpha()
        and all(c.isalpha() or c in "'-" for c in word)
        and word.translate(_LOWER) not in LABEL_STOP_WORDS
    )


def _words_label(text: str, lowered: str) -> Expr | None:
    """Avrae's plain words after a roll (``1d20+5 Stealth``) as its label: the first
    gap after which the text is words starting with a plain word (:func:`_plain_word`)
    and before which the text parses. ``None`` when there is none."""
    if "#" in lowered:
        return None  # a comment is the label; words before it are an error
    for gap in _WORD_GAP.finditer(text):
        words = text[gap.end() :].split()
        if not _plain_word(words[0]) or any("]" in w or "[" in w for w in words):
            continue
        try:
            tree = _read(text[: gap.start()], lowered[: gap.start()])
        except _Failure:
            continue
        return _tuple_new(Labeled, (tree, " ".join(words)))
    return None


_ADVANTAGE = re.compile(r"(adv|dis)(?:antage|advantage)?(?![a-z])")


def _explain(text: str, lowered: str, failure: _Failure) -> tuple[str, str]:
    """``(message, expected)`` for a text that does not parse: another tool's spelling
    named with ours when the failure is one (:func:`_foreign`), else the failure's."""
    found = _foreign(text, lowered, failure) if failure.syntax else None
    return found if found is not None else (failure.message, failure.expected)


def _tree_of(text: str) -> Expr | None:
    """The tree of ``text`` (no chat command, no words label), or ``None``."""
    try:
        return _read(text, text.translate(_LOWER))
    except _Failure:
        return None


def _suggest(text: str) -> str:
    """The canonical spelling of ``text``, or ``""`` when it does not parse."""
    tree = _tree_of(text)
    return "" if tree is None else str(tree)


def _foreign(text: str, lowered: str, failure: _Failure) -> tuple[str, str] | None:
    """``(message, expected)`` when the syntax error at ``failure.position`` is a form
    Roll20, Foundry or Avrae spell differently, naming our spelling; else ``None``."""
    at = failure.position
    here = lowered[at:]
    before = lowered[:at]
    after_pool = "'dl'" in failure.expected  # a pool's selection could come here
    advantage = _ADVANTAGE.match(here)
    if advantage:
        keep = "kh1" if advantage.group(1) == "adv" else "kl1"
        word = "advantage" if keep == "kh1" else "disadvantage"
        tree = _tree_of(text[:at]) if before.strip() else None
        pools = pools_of(tree)
        written = f"2d20{keep}"
        if tree is not None and pools == [Pool(1, 20)]:  # one d20: its advantage in place
            written = str(_swap_pool(tree, _pool(2, 20, keep[:2], 1)))
        return (
            f"{here[: advantage.end()]} is Avrae's {word}: write {written} "
            f"(the {'higher' if keep == 'kh1' else 'lower'} of two d20s)",
            f"'{keep[:2]}' after a pool, as in 2d20{keep}",
        )
    if here.startswith("{"):
        inside = text.translate(str.maketrans("{}", "()"))
        if "," in text:
            return (
                "{...} with commas is a set of rolls on Roll20 and Foundry, which has no "
                "spelling here: roll each expression on its own",
                "a number, dice or '('",
            )
        written = _suggest(inside)
        hint = f": write {written}" if written else ": write (...) instead"
        return (f"{{...}} groups are Roll20's and Foundry's{hint}", "'(' for a group")
    if here.startswith("[["):
        inside = text.replace("[[", "(").replace("]]", ")")
        written = _suggest(inside)
        hint = f": write {written}" if written else ""
        return (f"[[...]] is Roll20's inline roll; the roll is typed alone here{hint}", "")
    explode = re.match(r"e\s*(>=|<=|>|<|=)?\s*([0-9]+)", here) if after_pool else None
    if explode:
        op = explode.group(1) or ""
        return (
            f"e{op}{explode.group(2)} is Avrae's explosion: here write "
            f"!{op}{explode.group(2)} (! or x with the same face or range)",
            "'!' or 'x'",
        )
    drop = re.match(r"p([lh]?)\s*([0-9]+)", here) if after_pool else None
    if drop:
        which = {"l": "lowest", "h": "highest"}.get(drop.group(1), "")
        if which:
            return (
                f"p{drop.group(1)}{drop.group(2)} is Avrae's drop {which}: here write "
                f"d{drop.group(1)}{drop.group(2)}",
                "'dl' or 'dh'",
            )
        return ("p drops dice by a selector on Avrae: here write dl or dh and a number", "")
    if before.endswith("!") and here.startswith("p"):
        return ("penetrating dice (!p) have no spelling here: write ! to explode", "")
    if before.endswith("x") and here.startswith("o"):
        return (
            "xo (explode once) is Foundry's: write x and set the depth to 1 "
            "(--depth 1 on the command line, depth=1 from Python)",
            "",
        )
    gap = len(before) - len(before.rstrip())
    if gap and at - gap > 0:  # a space just before: was it inside a word or a number?
        left, right = before[at - gap - 1], here[:1]
        joined = text[: at - gap] + text[at:]
        # letters either side (4d6k h3), or digits of a dice count (1 0d6)
        count = re.match(r"[0-9]+\s*d", here) is not None
        same = (left.isdigit() and count) or (left.isalpha() and right.isalpha())
        written = _suggest(joined) if same else ""
        if written:
            return (
                f"{failure.message}: a space cannot go inside a number or a word "
                f"(did you mean {written}?)",
                failure.expected,
            )
    return None


def pools_of(tree: Expr | None) -> list[Pool]:
    """The pools of a tree, left to right (none for ``None``)."""
    if isinstance(tree, Pool):
        return [tree]
    if isinstance(tree, (Neg, Labeled)):
        return pools_of(tree.operand)
    if isinstance(tree, BinOp):
        return pools_of(tree.left) + pools_of(tree.right)
    return []


def map_pools(tree: Expr, change: Callable[[Pool], Pool]) -> Expr:
    """``tree`` with every pool replaced by ``change(pool)`` (the rest kept as it is)."""
    if isinstance(tree, Pool):
        return change(tree)
    if isinstance(tree, Neg):
        return Neg(map_pools(tree.operand, change))
    if isinstance(tree, Labeled):
        return Labeled(map_pools(tree.operand, change), tree.label)
    if isinstance(tree, BinOp):
        return BinOp(tree.op, map_pools(tree.left, change), map_pools(tree.right, change))
    return tree


def _swap_pool(tree: Expr, pool: Pool) -> Expr:
    """``tree`` with its one pool replaced by ``pool``."""
    return map_pools(tree, lambda _old: pool)


def canonical(text: str) -> str:
    """The canonical spelling of a dice expression."""
    return str(parse(text))
