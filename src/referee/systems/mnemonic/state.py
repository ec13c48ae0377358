"""What a Mnemonic table tracks: each character's Status, the deck, the order of action.

Stored, not derived (principle 5): only what changes in play. A seated
character is its sheet (what the player chose) and its current Status and
injuries, which start as the sheet's and then follow the injury checks. The
table keeps one deck for the card randomizers ("success check options", B:
cards are drawn without replacement until the referee reshuffles, COMPANION)
and the order of action ("timing of actions").

The deck is stored as the cards left (a value), so a stored state always
holds a possible deck; an outcome that draws carries the deck it leaves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.systems.base import GameState, param
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.sheet import Sheet, Status


@dataclass(frozen=True)
class Seat:
    """A character at the table: its sheet and the Status the table tracks."""

    sheet: Sheet
    status: Status = field(default_factory=Status)

    @staticmethod
    def of(sheet: Sheet) -> Seat:
        """A newly seated character, at its sheet's Status."""
        return Seat(sheet, sheet.status)


@dataclass(frozen=True)
class State(GameState[Seat]):
    """A Mnemonic table: the characters by id, the deck and the order of action."""

    deck: Deck = param(factory=Deck, doc="the cards left in the table's deck")
    order: tuple[tuple[str, ...], ...] = param(
        (), doc="the order of action: groups in turn, each acting simultaneously"
    )
    turn: int = param(
        0, doc="turns taken in the order of action (the group acting is turn mod groups)", ge=0
    )
