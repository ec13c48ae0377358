"""The error hierarchy shared by every layer.

Every error the rules raise is a :class:`RulesError`; each subclass says what
went wrong and where, so the CLI and web can show one clear line instead of a
traceback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.problems import Problem as Problem


class RulesError(Exception):
    """Base class of every error raised for bad input or an illegal request."""


ODD_INPUT = (ValueError, TypeError, KeyError, IndexError, ArithmeticError, AttributeError)
"""What a game's code may raise on input its checks did not foresee: an edge that answers
someone else (the web's odds, imports, analyses) turns these into a refusal naming
them, never a 500."""


class NotationError(RulesError):
    """A dice expression that cannot be parsed or exceeds a bound.

    ``position`` is the 0-based character index of the problem and
    ``expected`` names what would have been accepted there.
    """

    def __init__(self, message: str, *, text: str = "", position: int = 0, expected: str = ""):
        self.text = text
        self.position = position
        self.expected = expected
        where = f" at position {position}"
        hint = f" (expected {expected})" if expected else ""
        super().__init__(f"{message}{where}{hint}")


class DiceError(RulesError):
    """A roller cannot supply the faces asked for (script exhausted, bad face)."""


class OddsTooComplex(RulesError):
    """An exact distribution would take too long to compute for untrusted input."""


class OverBudget(OddsTooComplex):
    """A step of exact odds would overdraw the work a request was given
    (:func:`referee.dice.odds.limited_work`): with a larger budget it may be computed."""


class IllegalAction(RulesError):
    """An action the rules do not allow in the current state; ``problems`` names the
    fields out of their bounds when that is why."""

    def __init__(self, message: str, problems: tuple[Problem, ...] = ()):
        super().__init__(message)
        self.problems = problems


class InvalidSheet(RulesError):
    """A sheet or record that breaks one or more rules; ``problems`` lists them all."""

    def __init__(self, problems: tuple[Problem, ...] | list[Problem]):
        self.problems = tuple(problems)
        lines = "; ".join(str(p) for p in self.problems) or "invalid sheet"
        super().__init__(lines)

    @property
    def rule(self) -> str:
        """The rule broken first (for callers that want one)."""
        return self.problems[0].rule if self.problems else ""

    @property
    def field(self) -> str:
        """The field of the first problem."""
        return self.problems[0].field if self.problems else ""

    @property
    def value(self) -> Any:
        """The offending value of the first problem."""
        return self.problems[0].value if self.problems else None


def __getattr__(name: str) -> Any:
    """``Problem`` loads on first use (:mod:`referee.problems`): the dataclass machinery it
    needs is a fifth of the command line's start, and most commands never report one."""
    if name == "Problem":
        from referee.problems import Problem

        return Problem
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
