"""Whose turn it is, the same shape for every game.

Each game's ``turns.py`` reads its own state (Mnemonic's order of action, Mongrel's
conflict order and Action Points, Mneme CE's turn order and action budget, ARM's
rounds) into a :class:`Turns`; a table shows it once, generically, and the referee
moves it on with the one action it names (:attr:`Turns.advance`), taken like any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TurnSeat:
    """One character in the turn order: ``cid`` (its id at the table), ``name``,
    ``left`` (what it has left this turn or round, in the game's words: ``"3 of 4 AP"``),
    and whether it acts ``now``, ``next``, or is ``done`` for the round."""

    cid: str
    name: str
    left: str = ""
    now: bool = False
    next: bool = False
    done: bool = False


@dataclass(frozen=True)
class Turns:
    """A table's turns as one viewer's state holds them.

    ``running``: a conflict, encounter or round is under way; ``round`` its number
    (``None`` where the game counts none); ``what`` names it in the game's words
    (``"Conflict"``, ``"Round"``); ``seats`` the characters in acting order; ``note`` a
    line more (how the order was set). ``advance`` is the action (with ``advance_fields``)
    the referee takes to move the turn on, ``advance_words`` its button's words; ``None``
    where nothing moves it now."""

    running: bool = False
    round: int | None = None
    what: str = ""
    seats: tuple[TurnSeat, ...] = ()
    note: str = ""
    advance: str | None = None
    advance_fields: Mapping[str, str | int] = field(default_factory=dict)
    advance_words: str = ""

    @property
    def now(self) -> tuple[TurnSeat, ...]:
        """The characters acting now."""
        return tuple(s for s in self.seats if s.now)

    @property
    def next(self) -> tuple[TurnSeat, ...]:
        """The characters acting next."""
        return tuple(s for s in self.seats if s.next)
