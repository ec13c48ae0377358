"""Whose turn it is in a Mongrel conflict (Complex task resolution): the order of action,
next first, and each fighter's Action Points left; the referee moves it on by letting the
one at the front wait (to the back of the order, ``wait``). With no conflict under way, the
referee starts one in one click (``start-conflict``: every living seated character)."""

from __future__ import annotations

from referee.systems.mongrel.options import Options
from referee.systems.mongrel.state import State
from referee.systems.turns import Turns, TurnSeat


def turns(state: State, options: Options) -> Turns:
    """The conflict's order (empty: no conflict) with each fighter's AP; the front acts now,
    the second next."""
    if not state.order:
        if not state.characters:
            return Turns(what="Conflict")
        return Turns(
            what="Conflict",
            advance="start-conflict",
            advance_words="Start a conflict (everyone seated)",
        )
    seats = []
    for i, cid in enumerate(state.order):
        seat = state.characters.get(cid)
        if seat is None:  # not seated in this view
            continue
        seats.append(
            TurnSeat(
                cid,
                seat.name,
                f"{seat.ap} of {seat.effective_ap_max} AP",
                now=i == 0,
                next=i == 1,
            )
        )
    return Turns(
        running=True,
        what="Conflict",
        seats=tuple(seats),
        advance="wait",
        advance_fields={"actor": state.order[0]},
        advance_words=f"{seats[0].name if seats else state.order[0]} waits: next to act",
    )
