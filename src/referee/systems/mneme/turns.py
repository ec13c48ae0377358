"""Whose turn it is in a Mneme CE encounter (ch. 6, Initiative; companion facts, turn
economy): the round, the turn order by Initiative (tied characters share a step) and each
character's Minor actions left; the referee moves on with a round passing
(``pass-rounds``), which restores every budget."""

from __future__ import annotations

from referee.systems.mneme.options import Options
from referee.systems.mneme.state import State
from referee.systems.mneme.tables import MINOR_ACTIONS
from referee.systems.turns import Turns, TurnSeat


def turns(state: State, options: Options) -> Turns:
    """The encounter's order; the first step with an action left acts now, the one after
    it next. Outside an encounter: nothing running, a round passing still offered."""
    if not state.round:
        return Turns(
            what="Encounter",
            advance="pass-rounds",
            advance_fields={"rounds": 1},
            advance_words="A round passes",
        )
    steps = [[cid for cid in step if cid in state.characters] for step in state.order]
    busy = [i for i, step in enumerate(steps) if any(state.characters[c].minor_left for c in step)]
    now_i = busy[0] if busy else None
    next_i = busy[1] if len(busy) > 1 else None
    seats = []
    for i, step in enumerate(steps):
        for cid in step:
            seat = state.characters[cid]
            initiative = "" if seat.initiative is None else f"Initiative {seat.initiative}; "
            seats.append(
                TurnSeat(
                    cid,
                    seat.sheet.name,
                    f"{initiative}{seat.minor_left} of {MINOR_ACTIONS} Minor actions",
                    now=i == now_i,
                    next=i == next_i,
                    done=not seat.minor_left,
                )
            )
    return Turns(
        running=True,
        round=state.round,
        what="Encounter",
        seats=tuple(seats),
        advance="pass-rounds",
        advance_fields={"rounds": 1},
        advance_words=f"Start round {state.round + 1}",
    )
