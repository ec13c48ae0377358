"""Whose turn it is in Mnemonic ("timing of actions"): the order of action in groups, the
members of a group acting simultaneously, and the group acting now; the referee moves on
with ``next-turn`` (after the last group, the first again: a new round)."""

from __future__ import annotations

from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.state import State
from referee.systems.turns import Turns, TurnSeat


def turns(state: State, options: Options) -> Turns:
    """The order of action (empty: none set), the group acting now and the next."""
    if not state.order:
        return Turns(what="Order of action")
    size = len(state.order)
    now_i = state.turn % size
    next_i = (now_i + 1) % size if size > 1 else None
    seats = []
    for i, group in enumerate(state.order):
        for cid in group:
            seat = state.characters.get(cid)
            if seat is None:  # a name the order holds but nobody seated (or not in this view)
                continue
            together = (
                " (together with "
                + ", ".join(
                    state.characters[c].sheet.name
                    for c in group
                    if c != cid and c in state.characters
                )
                + ")"
                if len(group) > 1
                else ""
            )
            seats.append(
                TurnSeat(
                    cid,
                    seat.sheet.name,
                    f"group {i + 1} of {size}{together}",
                    now=i == now_i,
                    next=i == next_i,
                    done=i < now_i,
                )
            )
    return Turns(
        running=True,
        round=state.turn // size + 1,
        what="Order of action",
        seats=tuple(seats),
        advance="next-turn",
        advance_words="Next in the order",
    )
