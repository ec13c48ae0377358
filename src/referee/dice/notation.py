"""Dice notation: text -> an immutable expression tree.

Grammar (whitespace is ignored, ASCII letters are case-insensitive)::

    expr   := term (("+" | "-") term)*
    term   := factor ("*" factor)*
    factor := "-" factor | atom
    atom   := INT | pool | "(" expr ")"
    pool   := [INT] "d" INT [select]
    select := "kh" INT        keep the INT highest dice      3d6kh2
            | "kl" INT        keep the INT lowest dice       3d6kl2
            | "med"           the median of an odd pool      3d12med
            | CMP INT         count dice meeting a target    4d6>=3
    CMP    := ">=" | "<=" | ">" | "<" | "="

``str()`` of a tree is its canonical notation, which parses back to an equal
tree. Untrusted input is bounded: at most :data:`MAX_LENGTH` characters,
:data:`MAX_DICE` dice in all, :data:`MAX_SIDES` sides per die and constants up
to :data:`MAX_CONSTANT`; anything beyond is a :class:`NotationError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Union

from referee.errors import NotationError

MAX_LENGTH = 200
MAX_DICE = 1000
MAX_SIDES = 1000
MAX_CONSTANT = 1_000_000

COMPARISONS = (">=", "<=", ">", "<", "=")


# ---------------------------------------------------------------------------
# the tree


@dataclass(frozen=True, slots=True)
class Const:
    """An integer constant (non-negative; negation is :class:`Neg`)."""

    value: int
    precedence: ClassVar[int] = 4

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError("Const holds a non-negative value; use Neg for a minus sign")

    def __str__(self) -> str:
        return str(self.value)

    def dice(self) -> tuple[tuple[int, int], ...]:
        """The ``(count, sides)`` groups this expression rolls, in order."""
        return ()


@dataclass(frozen=True, slots=True)
class Pool:
    """``count`` dice of ``sides`` sides, and what to do with them.

    ``select`` is one of ``"sum"`` (add them), ``"kh"`` / ``"kl"`` (keep the
    ``keep`` highest / lowest and add those), ``"med"`` (the median die of an
    odd pool), or a comparison from :data:`COMPARISONS` (count the dice whose
    face compares true against ``target``).
    """

    count: int
    sides: int
    select: str = "sum"
    keep: int = 0
    target: int = 0
    precedence: ClassVar[int] = 4

    def __post_init__(self) -> None:
        if self.count < 1 or self.sides < 1:
            raise ValueError(f"a pool needs at least one die of at least one side: {self!r}")
        if self.select in ("kh", "kl") and not 0 <= self.keep <= self.count:
            raise ValueError(f"cannot keep {self.keep} of {self.count} dice")
        if self.select == "med" and self.count % 2 == 0:
            raise ValueError(f"the median needs an odd number of dice, not {self.count}")
        if self.select not in ("sum", "kh", "kl", "med", *COMPARISONS):
            raise ValueError(f"unknown pool selection {self.select!r}")

    def __str__(self) -> str:
        base = f"{'' if self.count == 1 else self.count}d{self.sides}"
        if self.select == "sum":
            return base
        if self.select in ("kh", "kl"):
            return f"{base}{self.select}{self.keep}"
        if self.select == "med":
            return f"{base}med"
        return f"{base}{self.select}{self.target}"

    def dice(self) -> tuple[tuple[int, int], ...]:
        """The ``(count, sides)`` groups this expression rolls, in order."""
        return ((self.count, self.sides),)

    def counts(self, face: int) -> bool:
        """For a counting pool: does ``face`` meet the target?"""
        op, t = self.select, self.target
        if op == ">=":
            return face >= t
        if op == "<=":
            return face <= t
        if op == ">":
            return face > t
        if op == "<":
            return face < t
        return face == t


@dataclass(frozen=True, slots=True)
class Neg:
    """The negation of an expression."""

    operand: Expr
    precedence: ClassVar[int] = 3

    def __str__(self) -> str:
        inner = str(self.operand)
        if self.operand.precedence < self.precedence:
            inner = f"({inner})"
        return f"-{inner}"

    def dice(self) -> tuple[tuple[int, int], ...]:
        """The ``(count, sides)`` groups this expression rolls, in order."""
        return self.operand.dice()


@dataclass(frozen=True, slots=True)
class BinOp:
    """``left op right`` with ``op`` one of ``+``, ``-``, ``*``."""

    op: str
    left: Expr
    right: Expr

    def __post_init__(self) -> None:
        if self.op not in ("+", "-", "*"):
            raise ValueError(f"unknown operator {self.op!r}")

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


Expr = Union[Const, Pool, Neg, BinOp]  # noqa: UP007 - used at runtime in isinstance checks


# ---------------------------------------------------------------------------
# parsing

_GRAMMAR = r"""
?expr: term
     | expr "+" term   -> add
     | expr "-" term   -> sub
?term: factor
     | term "*" factor -> mul
?factor: atom
       | "-" factor    -> neg
?atom: INT             -> const
     | pool
     | "(" expr ")"
pool: [INT] DIE INT [select]
?select: KH INT   -> keep_high
       | KL INT   -> keep_low
       | MED      -> median
       | CMP INT  -> count
DIE: "d"
KH: "kh"
KL: "kl"
MED: "med"
CMP: ">=" | "<=" | ">" | "<" | "="
INT: /[0-9]+/
%ignore /\s+/
"""

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
    "MED": "'med'",
    "CMP": "a comparison (>=, <=, >, <, =)",
    "$END": "the end of the expression",
}


_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@lru_cache(maxsize=1)
def _parser() -> Any:
    from lark import Lark

    return Lark(_GRAMMAR, start="expr", parser="lalr", propagate_positions=False)


def _accepts(text: str, position: int) -> set[str]:
    """Every terminal the parser accepts after ``text[:position]``.

    The LALR error reports only what its state expects after default
    reductions ("d6)" would say just '+' or '-'); feeding the prefix to the
    interactive parser and asking it lists everything that could follow,
    including the end. Empty if the prefix itself does not parse.
    """
    from lark.exceptions import LarkError

    try:
        interactive = _parser().parse_interactive(text[:position])
        interactive.exhaust_lexer()
        return set(interactive.accepts())
    except LarkError:
        return set()


def _expected(names: Any) -> str:
    seen = sorted({_FRIENDLY.get(str(n), str(n)) for n in names})
    if not seen:
        return ""
    if len(seen) == 1:
        return seen[0]
    return ", ".join(seen[:-1]) + " or " + seen[-1]


class _Builder:
    """Turns lark's parse tree into :data:`Expr` nodes, enforcing the bounds."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.dice = 0

    def fail(self, message: str, position: int, expected: str = "") -> NotationError:
        return NotationError(message, text=self.text, position=position, expected=expected)

    def number(self, token: Any, what: str, low: int, high: int) -> int:
        raw = str(token)
        digits = raw.lstrip("0") or "0"  # leading zeros never make a number too long
        if len(digits) > 9 or not low <= int(digits) <= high:
            raise self.fail(
                f"{what} {raw} is out of range {low}..{high}",
                token.start_pos,
                f"a number from {low} to {high}",
            )
        return int(digits)

    def build(self, node: Any) -> Expr:
        from lark import Token

        if isinstance(node, Token):  # a bare INT at the top
            return Const(self.number(node, "constant", 0, MAX_CONSTANT))
        kind = node.data
        kids = node.children
        if kind == "const":
            return Const(self.number(kids[0], "constant", 0, MAX_CONSTANT))
        if kind in ("add", "sub", "mul"):
            op = {"add": "+", "sub": "-", "mul": "*"}[kind]
            return BinOp(op, self.build(kids[0]), self.build(kids[1]))
        if kind == "neg":
            return Neg(self.build(kids[0]))
        if kind == "pool":
            return self.pool(kids)
        raise self.fail(f"unexpected {kind}", 0)  # pragma: no cover - grammar is closed

    def pool(self, kids: list[Any]) -> Pool:
        count_tok, die_tok, sides_tok, select = kids
        count = 1 if count_tok is None else self.number(count_tok, "dice count", 1, MAX_DICE)
        sides = self.number(sides_tok, "sides", 1, MAX_SIDES)
        self.dice += count
        if self.dice > MAX_DICE:
            raise self.fail(
                f"too many dice: more than {MAX_DICE} in one expression", die_tok.start_pos
            )
        if select is None:
            return Pool(count, sides)
        kind = select.data
        args = select.children
        if kind in ("keep_high", "keep_low"):
            keep = self.number(args[1], "keep count", 0, count)
            return Pool(count, sides, "kh" if kind == "keep_high" else "kl", keep=keep)
        if kind == "median":
            if count % 2 == 0:
                where = 0 if count_tok is None else count_tok.start_pos
                raise self.fail(
                    f"the median needs an odd number of dice, not {count}",
                    where,
                    "an odd dice count",
                )
            return Pool(count, sides, "med")
        target = self.number(args[1], "target", 0, MAX_SIDES + 1)
        return Pool(count, sides, str(args[0]), target=target)


def parse(text: str) -> Expr:
    """Parse dice notation into an expression tree.

    Raises :class:`NotationError` with the position and what was expected, or
    when the expression exceeds a bound (length, dice, sides, constants).
    """
    if not isinstance(text, str):
        raise NotationError("dice notation must be text")
    if len(text) > MAX_LENGTH:
        raise NotationError(
            f"expression is {len(text)} characters long; at most {MAX_LENGTH}",
            text=text[:MAX_LENGTH],
            position=MAX_LENGTH,
        )
    if not text.strip():
        raise NotationError(
            "empty dice expression", text=text, position=0, expected="a number or dice such as 2d6"
        )
    # ASCII only: str.lower() maps e.g. the Kelvin sign to "k", so "3d6\u212ah2"
    # would be accepted, and some characters lower to two, shifting positions
    lowered = text.translate(_LOWER)
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    try:
        tree = _parser().parse(lowered)
    except UnexpectedCharacters as e:
        pos = e.pos_in_stream or 0
        raise NotationError(
            f"unexpected character {text[pos]!r}",
            text=text,
            position=pos,
            expected=_expected(_accepts(lowered, pos) or e.allowed),
        ) from None
    except UnexpectedToken as e:
        if e.token.type == "$END":
            raise NotationError(
                "expression ends too early",
                text=text,
                position=len(text),
                expected=_expected(_accepts(lowered, len(text)) or e.expected),
            ) from None
        raise NotationError(
            f"unexpected {e.token!s}",
            text=text,
            position=e.token.start_pos,
            expected=_expected(_accepts(lowered, e.token.start_pos) or e.expected),
        ) from None
    except UnexpectedEOF as e:  # pragma: no cover - LALR reports $END as a token
        raise NotationError(
            "expression ends too early",
            text=text,
            position=len(text),
            expected=_expected(e.expected),
        ) from None
    return _Builder(text).build(tree)


def canonical(text: str) -> str:
    """The canonical spelling of a dice expression."""
    return str(parse(text))
