"""The card randomizer's deck: an immutable value carried as table state.

Referee's Guide p. 1, "success check options" (B, Playing Cards): a poker
deck without kings and jokers (48 cards, four of each value 1..12). Cards are
drawn without replacement, so a table keeps one deck across checks until the
referee reshuffles it (COMPANION ruling). A draw asks the roller for a
position ``roller.roll(1, cards_left)`` among the remaining cards
(:func:`.randomizers.drawn_cards`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import comb

from referee.dice.odds import Distribution
from referee.errors import IllegalAction, RulesError
from referee.systems.mnemonic.tables import CARD_COPIES, CARD_NAMES, CARD_VALUES


class CardError(RulesError):
    """Card values entered by hand that the deck cannot supply."""


@dataclass(frozen=True)
class Deck:
    """The cards still in the deck, as a sorted tuple of values (order is irrelevant:
    every remaining card is equally likely to be drawn next).

    The count of each value is kept beside the cards (counted once, when the deck is
    made and checked, not on every odds query); it is derived, so it is not a field:
    equality, hashing and the deck's JSON are its cards alone.
    """

    cards: tuple[int, ...] = tuple(v for v in CARD_VALUES for _ in range(CARD_COPIES))

    def __post_init__(self) -> None:
        counts = Counter(self.cards)
        bad = [v for v in counts if v not in CARD_VALUES or counts[v] > CARD_COPIES]
        if bad:
            raise CardError(
                f"a deck holds four cards of each value 1..12; impossible cards: {sorted(bad)}"
            )
        if list(self.cards) != sorted(self.cards):
            object.__setattr__(self, "cards", tuple(sorted(self.cards)))
        self.__dict__["counted"] = dict(sorted(counts.items()))

    def __len__(self) -> int:
        return len(self.cards)

    def counts(self) -> dict[int, int]:
        """Cards left of each value, ascending (values with none left are omitted)."""
        counted: dict[int, int] = self.__dict__["counted"]
        return dict(counted)

    def drawn(self) -> tuple[int, ...]:
        """The card values out of the deck since the last reshuffle (sorted); a full
        deck less these is this deck, so ``Deck().without(d.drawn()) == d``."""
        left = Counter(self.cards)
        return tuple(v for v in CARD_VALUES for _ in range(CARD_COPIES - left[v]))

    def without(self, values: tuple[int, ...] | list[int]) -> Deck:
        """The deck after the given card values left it; :class:`CardError` if one is not in it."""
        left = list(self.cards)
        for i, v in enumerate(values, start=1):
            if v not in left:
                raise CardError(_missing(i, v, left))
            left.remove(v)
        return Deck(tuple(left))

    def positions_of(self, values: tuple[int, ...] | list[int]) -> tuple[int, ...]:
        """The roller faces (1-based positions, one draw after another) that draw ``values``.

        Lets hand-entered card values run through the same draw as a roller;
        :class:`CardError` names the first value no longer in the deck.
        """
        left = list(self.cards)
        faces = []
        for i, v in enumerate(values, start=1):
            if v not in left:
                raise CardError(_missing(i, v, left))
            at = left.index(v)
            faces.append(at + 1)
            del left[at]
        return tuple(faces)

    def next_card(self) -> Distribution[int]:
        """The exact distribution of the next card's value."""
        n = len(self.cards)
        if not n:
            raise IllegalAction("the deck is empty: reshuffle it")
        # the counts of a sorted tuple: positive ints, values ascending
        return Distribution.trusted(dict(self.__dict__["counted"]), n, ordered=True)

    def median_of_three(self) -> Distribution[int]:
        """The exact distribution of the middle value of the next three cards.

        Counts the 3-card subsets of the remaining cards by the median's value:
        one card of value v with one lower and one higher, two of v with any
        other, or three of v (ordered draws count every subset 3! times alike).
        """
        n = len(self.cards)
        if n < 3:
            raise IllegalAction(f"the deck has {n} card(s) left, 3 needed: reshuffle it")
        counts = Counter(self.cards)
        weights: dict[int, int] = {}
        below = 0
        for v in sorted(counts):
            c = counts[v]
            above = n - below - c
            w = c * below * above + comb(c, 2) * (below + above) + comb(c, 3)
            if w:
                weights[v] = w
            below += c
        return Distribution(weights)

    def hands(self, k: int) -> Distribution[tuple[int, ...]]:
        """The exact distribution of the sorted values of the next ``k`` cards (k <= 6)."""
        if not 0 <= k <= 6:
            raise ValueError("at most six cards at once")
        if k > len(self.cards):
            raise IllegalAction(f"the deck has {len(self.cards)} card(s) left, {k} needed")
        items = sorted(Counter(self.cards).items())
        out: dict[tuple[int, ...], int] = {}

        def walk(i: int, need: int, hand: tuple[int, ...], ways: int) -> None:
            if need == 0:
                out[hand] = out.get(hand, 0) + ways
                return
            if i == len(items):
                return
            v, c = items[i]
            for m in range(min(c, need), -1, -1):
                walk(i + 1, need - m, hand + (v,) * m, ways * comb(c, m))

        walk(0, k, (), 1)
        return Distribution(out)


def _missing(i: int, value: int, left: list[int]) -> str:
    if value not in CARD_VALUES:
        return f"card {i} ({value}) is impossible: values run Ace 1 ... Queen 12, no kings"
    have = ", ".join(f"{card_name(k)}x{n}" for k, n in sorted(Counter(left).items()))
    return (
        f"card {i} ({card_name(value)}) is not in the deck "
        f"({len(left)} cards left: {have or 'none'})"
    )


def card_name(value: int) -> str:
    """A card value as players call it (1 -> "Ace", 11 -> "Jack", 12 -> "Queen")."""
    return CARD_NAMES.get(value, str(value))
