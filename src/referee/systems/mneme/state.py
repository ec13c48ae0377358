"""What a Mneme CE table tracks (ch. 7, Hit Points and Healing; companion facts, turn
economy).

Each seated character is a :class:`Seat`: their sheet - which stores the damage they
have taken, their conditions (Bleeding, Stabilised, Awake, Crippled...), the healing
progress and the damage their protection objects took - plus what the table tracks about
them in play: the activity and care they are under while time passes, the rounds gone of
their current minute (Bleeding and stabilisation count whole minutes), the actions left
this round and their Initiative. HP, the thresholds, the HP condition, wound penalties
and movement are derived from the sheet, never stored (principle 5).

The table itself tracks the clock (rounds elapsed, 10 a minute), the encounter's round
(0 when no encounter is under way) and its turn order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee.systems.base import GameState, param
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.tables import MINOR_ACTIONS, Activity, Care


@dataclass(frozen=True)
class Seat:
    """One seated character: the sheet and what the rules track about them in play."""

    sheet: Sheet = param(doc="the character's sheet (damage and conditions included)")
    activity: Activity = param("full_rest", "activity level while time passes")
    care: Care = param("none", "care level while time passes")
    supervised: bool = param(True, "intensive care under a Medic 2+ or AI sickbay")
    therapy: str | None = param(None, "a characteristic under therapy")
    minute_rounds: int = param(0, "rounds gone of the current minute (0-9)", ge=0, le=9)
    minor_left: int = param(MINOR_ACTIONS, "Minor actions left this round", ge=0)
    free_taken: int = param(0, "free actions taken this round", ge=0)
    initiative: int | None = param(None, "Initiative in this encounter")
    aim: int = param(0, "the Aim modifier built for the next attack (minor actions aiming)", ge=0)
    massive_before: int | None = param(
        None, "the damage before the attack whose massive damage awaits an End roll", ge=0
    )

    @staticmethod
    def of(sheet: Sheet) -> Seat:
        """A newly seated character: its sheet, nothing tracked yet."""
        return Seat(sheet)


Steps = tuple[tuple[str, ...], ...]
"""A turn order: steps of names, first step first; the names in one step are tied."""


@dataclass(frozen=True)
class State(GameState[Seat]):
    """A Mneme CE table: the seated characters, the clock and the encounter."""

    clock: int = param(0, "rounds elapsed at the table (6 seconds each, 10 a minute)", ge=0)
    round: int = param(0, "the encounter's round (0: no encounter)", ge=0)
    order: Steps = param((), "the encounter's turn order, tied names sharing a step")


def seated(sheets: Mapping[str, Sheet], **tracked: object) -> State:
    """A table with each sheet seated under its id (``{"ada": sheet}``); ``tracked`` sets
    the table's own fields (``round=1``)."""
    return State({cid: Seat(sheet) for cid, sheet in sheets.items()}, **tracked)  # type: ignore[arg-type]
