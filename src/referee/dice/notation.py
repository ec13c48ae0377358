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

The parser is written by hand (recursive descent over one regex scan): no
grammar is built at run time, a typical expression parses in a few
microseconds, and the last :data:`PARSE_CACHE_SIZE` texts are remembered. An
error names the position of the offending character or token and every
terminal that could have come there (the ones a grammar-driven LALR parser
would accept after the same prefix).
"""

from __future__ import annotations

import re
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.errors import NotationError

MAX_LENGTH = 200
MAX_DICE = 1000
MAX_SIDES = 1000
MAX_CONSTANT = 1_000_000

COMPARISONS = (">=", "<=", ">", "<", "=")


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


class Pool(_Node):
    """``count`` dice of ``sides`` sides, and what to do with them.

    ``select`` is one of ``"sum"`` (add them), ``"kh"`` / ``"kl"`` (keep the
    ``keep`` highest / lowest and add those), ``"med"`` (the median die of an
    odd pool), or a comparison from :data:`COMPARISONS` (count the dice whose
    face compares true against ``target``).
    """

    __slots__ = ()
    _fields = ("count", "sides", "select", "keep", "target")
    __match_args__ = ("count", "sides", "select", "keep", "target")
    precedence = 4
    if TYPE_CHECKING:
        count: int  # type: ignore[assignment]  # the field shadows tuple.count
        sides: int
        select: str
        keep: int
        target: int
    else:
        count, sides, select, keep, target = _getters(*_fields)

    def __new__(
        cls, count: int, sides: int, select: str = "sum", keep: int = 0, target: int = 0
    ) -> Pool:
        node = _tuple_new(cls, (count, sides, select, keep, target))
        if count < 1 or sides < 1:
            raise ValueError(f"a pool needs at least one die of at least one side: {node!r}")
        if select in ("kh", "kl") and not 0 <= keep <= count:
            raise ValueError(f"cannot keep {keep} of {count} dice")
        if select == "med" and count % 2 == 0:
            raise ValueError(f"the median needs an odd number of dice, not {count}")
        if select not in ("sum", "kh", "kl", "med", *COMPARISONS):
            raise ValueError(f"unknown pool selection {select!r}")
        return node

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


Expr = Const | Pool | Neg | BinOp
"""Any node of an expression tree (a union usable in ``isinstance`` checks)."""


# ---------------------------------------------------------------------------
# parsing: a hand-written recursive-descent parser over one regex scan

_TOKEN = re.compile(r"\s*([0-9]+|kh|kl|med|>=|<=|[-+*()d<>=]|\Z|.)", re.DOTALL)
"""One token after any whitespace: a number, a word or symbol, the end of the
text (empty), or any other single character (which the parser reports)."""

_KINDS = {
    "d": "DIE",
    "kh": "KH",
    "kl": "KL",
    "med": "MED",
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
"""Each token's terminal name (a number is ``INT``; anything else is not a token)."""

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

# What may come next, by where the parser stands. Together they are exactly the
# terminals t for which "text so far + t" begins some valid expression.
_START = frozenset({"INT", "DIE", "LPAR", "MINUS"})
"""Where an operand begins: after an operator, '(' or a unary minus, or at the start."""
_NUMBER = frozenset({"INT"})
"""After 'd', 'kh', 'kl' or a comparison."""
_OPERATORS = frozenset({"STAR", "PLUS", "MINUS"})
"""After any complete operand (plus ')' inside parentheses, or the end outside)."""
_AFTER_CONSTANT = frozenset({"DIE"})
"""A number just read may still be the count of a pool."""
_AFTER_POOL = frozenset({"KH", "KL", "MED", "CMP"})
"""A pool without a selection may still take one."""
_NOTHING: frozenset[str] = frozenset()

_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _pool(count: int, sides: int, select: str = "sum", keep: int = 0, target: int = 0) -> Pool:
    """A :class:`Pool` the parser has already checked (skips the constructor's checks)."""
    return _tuple_new(Pool, (count, sides, select, keep, target))


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
            elif tok == (")" if depth else ""):
                return product if total is None else _binop(op, total, product)
            else:
                closer = "RPAR" if depth else "$END"
                raise _Syntax(self.i, _OPERATORS | after | {closer})

    def operand(self, depth: int) -> tuple[Expr, frozenset[str]]:
        """``-``* then a number, a pool or a parenthesised expression.

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
            after = _NOTHING
        elif tok == "d" or "0" <= tok[:1] <= "9":
            node, after = self.atom(i)
        else:
            raise _Syntax(i, _START)
        while negations:
            node = Neg(node)
            negations -= 1
        return node, after

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
        if not "0" <= tokens[i + 1][:1] <= "9":
            raise _Syntax(i + 1, _NUMBER)
        sides = self.number(i + 1, "sides", 1, MAX_SIDES)
        self.dice += count
        if self.dice > MAX_DICE:
            self.note(f"too many dice: more than {MAX_DICE} in one expression", die_at, "")
        i += 2
        select = tokens[i]
        node: Pool
        if select == "kh" or select == "kl":
            if not "0" <= tokens[i + 1][:1] <= "9":
                raise _Syntax(i + 1, _NUMBER)
            keep = self.number(i + 1, "keep count", 0, count)
            node = _pool(count, sides, select, keep)
            i += 2
        elif select == "med":
            if count % 2 == 0:
                self.note(
                    f"the median needs an odd number of dice, not {count}",
                    count_at,
                    "an odd dice count",
                )
                node = Pool(count, sides)  # never returned: the note is raised
            else:
                node = _pool(count, sides, "med")
            i += 1
        elif select in COMPARISONS:
            if not "0" <= tokens[i + 1][:1] <= "9":
                raise _Syntax(i + 1, _NUMBER)
            target = self.number(i + 1, "target", 0, MAX_SIDES + 1)
            node = _pool(count, sides, select, 0, target)
            i += 2
        else:
            self.i = i
            return _pool(count, sides), _AFTER_POOL
        self.i = i
        return node, _NOTHING

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


_TERM = re.compile(
    r"([-+]?)\s*(?:([0-9]*)\s*d\s*([0-9]+)\s*"
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
1 or -1, ``select`` as in :class:`Pool`; a number has ``select`` ``""`` and its
value in ``count``."""


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
        sides = int(sides_text)
        dice += count
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
    return _linear_terms(text.lower() if text.isascii() else text.translate(_LOWER))


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


def term_node(term: LinearTerm) -> Const | Pool:
    """The node of a term that :func:`linear_terms` read (its bounds already checked)."""
    _, select, count, sides, keep, target = term
    return _pool(count, sides, select, keep, target) if select else _const(count)


def _position(lowered: str, index: int) -> int:
    """Where token ``index`` starts (scanned again: positions cost only on errors)."""
    if index < 0:
        return 0
    for n, match in enumerate(_TOKEN.finditer(lowered)):
        if n == index:
            return match.start(1)
    raise AssertionError("token index beyond the scan")  # pragma: no cover


def _syntax_error(text: str, lowered: str, tokens: list[str], error: _Syntax) -> NotationError:
    expected = _expected(error.expected)
    tok = tokens[error.index]
    if tok == "":
        return _notation_error(
            "expression ends too early", text=text, position=len(text), expected=expected
        )
    position = _position(lowered, error.index)
    if tok in _KINDS or "0" <= tok[0] <= "9":
        message = f"unexpected {tok}"
    else:
        message = f"unexpected character {text[position]!r}"
    return _notation_error(message, text=text, position=position, expected=expected)


def parse(text: str) -> Expr:
    """Parse dice notation into an expression tree.

    Raises :class:`NotationError` with the position and everything that could
    have come there, or when the expression exceeds a bound (length, dice,
    sides, constants). The last :data:`PARSE_CACHE_SIZE` texts parsed are
    remembered.
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
    simple = _simple(lowered)
    if simple is not None:
        return simple
    tokens = _TOKEN.findall(lowered)
    if not tokens[0]:  # nothing but whitespace
        raise _notation_error(
            "empty dice expression", text=text, position=0, expected="a number or dice such as 2d6"
        )
    parser = _Parser(tokens)
    try:
        tree = parser.sum(0)
    except _Syntax as error:
        raise _syntax_error(text, lowered, tokens, error) from None
    if parser.problem is not None:
        message, index, expected = parser.problem
        position = _position(lowered, index)
        raise _notation_error(message, text=text, position=position, expected=expected)
    return tree


def canonical(text: str) -> str:
    """The canonical spelling of a dice expression."""
    return str(parse(text))
