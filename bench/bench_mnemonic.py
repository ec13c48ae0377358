"""Mnemonic: exact Success Check odds for every randomizer (issue 6).

Ours is the whole check (randomizer distribution mapped through the check
rule); the references compute the randomizer's distribution and apply the
same threshold, so both yield the distribution of the check total.
"""

from __future__ import annotations

from typing import Any

import icepool

from harness import Case
from referee.systems.mnemonic.checks import check_odds
from referee.systems.mnemonic.deck import Deck

TITLE = "Mnemonic Success Check odds"

APTITUDE, CHANCES = 7, 3


def _total(die: Any) -> Any:
    """icepool: the check total Aptitude - value + Chances."""
    return APTITUDE + CHANCES - die


def _ice_deck() -> Any:
    return icepool.Deck({v: 4 for v in range(1, 13)})


def _ice_verbal() -> Any:
    return (icepool.d12 + icepool.d12).map(lambda s: s - 12 if s >= 13 else s)


def _ice_verbal_ab() -> Any:
    total = icepool.d6 + icepool.d6
    return icepool.Die([total, 13 - total])


REFERENCES: dict[str, Any] = {
    "d12": lambda: _total(icepool.d12),
    "3d12": lambda: _total(icepool.d12.middle(3)),
    "cards": lambda: _total(_ice_deck().deal(1).sum()),
    "3cards": lambda: _total(_ice_deck().deal(3).middle(1).sum()),
    "verbal": lambda: _total(_ice_verbal()),
    "verbal-ab": lambda: _total(_ice_verbal_ab()),
}


MID_DECK = Deck().without([1, 1, 2, 5, 5, 5, 7, 9, 11, 12, 12, 12, 12, 3, 8, 10, 6, 4])
"""A deck part-way through play (30 cards left): odds of the next draw as it stands."""


def _ice_mid_deck() -> Any:
    return icepool.Deck(MID_DECK.counts())


MID_REFERENCES: dict[str, Any] = {
    "cards": lambda: _total(_ice_mid_deck().deal(1).sum()),
    "3cards": lambda: _total(_ice_mid_deck().deal(3).middle(1).sum()),
}


def _ours(randomizer: str, deck: Deck = Deck()) -> Any:  # noqa: B008 - an immutable value
    return lambda: check_odds(APTITUDE, CHANCES, deck=deck, randomizer=randomizer)


def same_as_icepool(randomizer: str, deck: Deck = Deck()) -> bool:  # noqa: B008
    """Ours and the reference agree on every total's probability."""
    from fractions import Fraction

    ours = {r.total: p for r, p in _ours(randomizer, deck)().probabilities().items()}
    ref = (REFERENCES if deck == Deck() else MID_REFERENCES)[randomizer]()
    theirs = {int(o): Fraction(int(q), ref.denominator()) for o, q in ref.items()}
    return ours == theirs


def cases() -> list[Case]:
    """Check odds for every randomizer: 30 µs each, the three-card median 0.5 ms;
    the card randomizers also from a deck part-way through play."""
    for name in REFERENCES:
        assert same_as_icepool(name), name
    for name in MID_REFERENCES:
        assert same_as_icepool(name, MID_DECK), name
    fresh = [
        Case(
            f"check odds, {name}",
            _ours(name),
            {"icepool": REFERENCES[name]},
            target_us=500 if name == "3cards" else 30,
        )
        for name in REFERENCES
    ]
    mid = [
        Case(
            f"check odds, {name}, 30 cards left",
            _ours(name, MID_DECK),
            {"icepool": MID_REFERENCES[name]},
            target_us=500 if name == "3cards" else 30,
        )
        for name in MID_REFERENCES
    ]
    return fresh + mid
