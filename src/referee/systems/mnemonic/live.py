"""What a live table enters by hand: cards drawn from a real deck and the numbers of
a verbal method said aloud ("success check options", B and C).

Both are the faces of a roll, not fields of an action: an edge (the command
line, the web table) turns them into the faces the action's dice program reads
and resolves the action with a :class:`~referee.dice.roller.ManualRoller`, so
the outcome records them as typed in and runs through the same rule as a roll.

* Card values become positions among the cards left: the deck is the table's,
  reshuffled first where the rules would reshuffle it, and each check of the
  action draws in turn (an opposed attack's two hands as one draw, Agile
  checks one after another).
* Verbal numbers become the method's faces (:func:`.randomizers.spoken_faces`).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.errors import RulesError
from referee.systems.base import Action
from referee.systems.mnemonic.actions import AgileOrder, Attack, Check, Injury, SheetCheck
from referee.systems.mnemonic.checks import deck_for
from referee.systems.mnemonic.deck import CardError
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.randomizers import (
    cards_needed,
    check_randomizer,
    spoken_faces,
    uses_cards,
)
from referee.systems.mnemonic.state import State

Said = tuple[int | str, int | str]
"""The player's and the referee's numbers of a verbal method played live."""


def draws(action: Action, options: Options) -> tuple[int, ...]:
    """How ``action`` draws: one entry per draw, the number of checks it serves (an
    opposed attack's two checks are one draw; Agile checks draw one after another)."""
    if isinstance(action, Check | SheetCheck | Injury):
        return (1,)
    if isinstance(action, Attack):
        return (2,) if options.opposed_rolls else (1,)
    if isinstance(action, AgileOrder):
        return (1,) * len(action.contenders)
    return ()


def hand_faces(
    action: Action,
    state: State,
    options: Options,
    *,
    cards: Sequence[int] | None = None,
    said: Said | None = None,
) -> tuple[int, ...]:
    """The faces that make ``action`` draw exactly ``cards`` from the table's deck, or
    use the verbal numbers ``said``; :class:`RulesError` (:class:`CardError` for
    cards the deck cannot supply) says what does not fit."""
    name = check_randomizer(options.randomizer)
    plan = draws(action, options)
    if cards is not None and said is not None:
        raise RulesError("give card values or spoken numbers, not both")
    if said is not None:
        if plan != (1,):
            raise RulesError("spoken numbers are for one check at a time: enter them as faces")
        return spoken_faces(name, *said)
    if cards is None:
        return ()
    if not uses_cards(name):
        raise RulesError(f"card values are only for the card randomizers, not {name}")
    if not plan:
        raise RulesError("this action draws no cards")
    k = cards_needed(name)
    need = k * sum(plan)
    if len(cards) != need:
        checks = sum(plan)
        if checks == 1:
            raise CardError(f"{name} draws {need} card(s) here; {len(cards)} given")
        raise CardError(f"{checks} checks draw {need} card(s) with {name}; {len(cards)} given")
    faces: list[int] = []
    deck, at = state.deck, 0
    for checks in plan:
        ready, _ = deck_for(name, deck, options, checks)
        assert ready is not None
        hand = list(cards[at : at + k * checks])
        at += k * checks
        faces += ready.positions_of(hand)
        deck = ready.without(hand)
    return tuple(faces)
