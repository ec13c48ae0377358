"""Mnemonic: exact Success Check odds for every randomizer (issue 6), dyce beside icepool.

Ours is the whole check (randomizer distribution mapped through the check
rule); the peers compute the randomizer's distribution and apply the same
total, so all yield the distribution of the check total. dyce has no deck of
cards: a single card from a deck is its count table; three cards dealt
without replacement have no dyce formulation (marked -).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
from dyce import H
from dyce.evaluation import expand

from harness import Case, exact_view
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


def _dyce_verbal_ab() -> Any:
    total = 2 @ H(6)
    return expand(lambda coin: total if coin.outcome == 1 else 13 - total, H(2))


DYCE: dict[str, Any] = {
    "d12": lambda: _total(H(12)),
    "3d12": lambda: _total(H(12).order_stat_for_n_at_pos(3, 1)),
    "cards": lambda: _total(H(dict.fromkeys(range(1, 13), 4))),
    "verbal": lambda: _total((H(12) + H(12)).apply(lambda s: s - 12 if s >= 13 else s)),
    "verbal-ab": lambda: _total(_dyce_verbal_ab()),
}


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

MID_DYCE: dict[str, Any] = {"cards": lambda: _total(H(MID_DECK.counts()))}


def _ours(randomizer: str, deck: Deck = Deck()) -> Any:  # noqa: B008 - an immutable value
    return lambda: check_odds(APTITUDE, CHANCES, deck=deck, randomizer=randomizer)


def _view(result: Any) -> Any:
    """Check totals and their exact probabilities (ours yields check results)."""
    if hasattr(result, "probabilities") and not hasattr(result, "denominator"):
        first = next(iter(result.outcomes()))
        if hasattr(first, "total"):
            probs: dict[int, Fraction] = {}
            for r, p in result.probabilities().items():
                probs[r.total] = probs.get(r.total, Fraction(0)) + p
            return probs
    return exact_view(result)


def _peers(name: str, ice: dict[str, Any], dy: dict[str, Any]) -> dict[str, Any]:
    peers: dict[str, Any] = {"icepool": {"deal / die": ice[name]}}
    if name in dy:
        peers["dyce"] = {"H": dy[name]}
    return peers


def cases() -> list[Case]:
    """Check odds for every randomizer: 30 µs each, the three-card median 0.5 ms;
    the card randomizers also from a deck part-way through play."""
    fresh = [
        Case(
            f"check odds, {name}",
            _ours(name),
            _peers(name, REFERENCES, DYCE),
            view=_view,
            target_us=500 if name == "3cards" else 30,
        )
        for name in REFERENCES
    ]
    mid = [
        Case(
            f"check odds, {name}, 30 cards left",
            _ours(name, MID_DECK),
            _peers(name, MID_REFERENCES, MID_DYCE),
            view=_view,
            target_us=500 if name == "3cards" else 30,
        )
        for name in MID_REFERENCES
    ]
    return fresh + mid
