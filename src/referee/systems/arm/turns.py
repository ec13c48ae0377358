"""Whose turn it is in ARM (Combat, Rounds): the round, and each combatant's one action a
round (taken or not); the referee moves on with ``next-round``."""

from __future__ import annotations

from referee.systems.arm.options import Options
from referee.systems.arm.state import State
from referee.systems.turns import Turns, TurnSeat


def turns(state: State, options: Options) -> Turns:
    """Every combatant with what it has left of the round; while no round runs, the
    referee starts round 1. Anyone who has not acted may act now (the text sets no order
    within a round)."""
    seats = []
    for cid, seat in state.characters.items():
        acted = bool(seat.acted) and options.one_action_per_round
        if state.round:
            done = ", ".join(a.replace("-", " ") for a in seat.acted)
            left = f"acted ({done})" if seat.acted else "action left"
            if seat.prepared:
                left += "; prepared defence"
        else:
            left = ""
        seats.append(
            TurnSeat(cid, seat.sheet.name, left, now=bool(state.round) and not acted, done=acted)
        )
    running = state.round > 0
    return Turns(
        running=running,
        round=state.round or None,
        what="Round",
        seats=tuple(seats),
        note=f"rounds of {state.round_length}" if running else "",
        advance="next-round",
        advance_words=f"Start round {state.round + 1}",
    )
