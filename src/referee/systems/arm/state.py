"""What an ARM table tracks in play: each character's damage and round, and the table's round.

ARM 1.2, Damage: every character carries a wound level and a shock level
(0..5, adding up and stopping at Dead / Unconscious), whether it was
Destroyed, and optionally up to five named wounds. ARM 1.2, Combat (Melee):
rounds are 2 seconds long (the GM picks any length, ARM 1.2, Rounds) and each
combatant has one action per round (except a counter-blow), so the round
tracks who has acted, who prepared a defence (circling prepares one
automatically), who found a weakness by circling (+1 to attack next round)
and who owes a penalty next round (after a berserk attack). The table keeps
the round number and length, the attacks waiting for a defence or a damage
roll, a roll waiting for its push decision (ARM 1.2, Pushing), and its own
setting: the weapons, armour and spells play consults (ARM 1.2, Character
Creation: the referee keeps the lists), the text's examples until the referee
adds to them.

Stored vs derived (principle 5): the decisions the rules wait for
(``pending``) are derived from the attacks and the held roll by
:func:`decisions`; the ruleset writes them with every outcome that changes
either.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from referee.systems.arm.catalog import DEFAULT_SETTING, Setting
from referee.systems.arm.damage import Condition, NamedWound
from referee.systems.arm.sheet import Sheet
from referee.systems.base import Decision, GameState, param

__all__ = ["Attack", "HeldRoll", "Seat", "State", "decisions", "held_rolls"]


@dataclass(frozen=True)
class HeldRoll:
    """A d6 - d6 roll waiting for its roller's push decision (ARM 1.2, Pushing).

    ``action`` and ``fields`` (the action as JSON text) say what was rolled, so
    the roll settles exactly as that action would with the push added.
    """

    actor: str
    action: str
    fields: str
    plus: int
    minus: int
    result: int
    label: str


@dataclass(frozen=True)
class Seat:
    """One seated character: the sheet and what the rules track about it in play."""

    sheet: Sheet
    wound: int = param(0, "present wound level 0..5 (Unharmed .. Dead)", ge=0, le=5)
    shock: int = param(0, "present shock level 0..5 (Unharmed .. Unconscious)", ge=0, le=5)
    destroyed: bool = param(False, "destroyed outright (a wound margin of 16 or more)")
    wounds: tuple[NamedWound, ...] = param((), "named wounds (at most five)")
    acted: tuple[str, ...] = param((), "the actions taken this round")
    prepared: bool = param(False, "a prepared defence this round (prepared or circling)")
    weakness: str = param("", "the opponent whose weakness was found: +1 to attack them now")
    found: str = param("", "the opponent whose weakness was found this round (for the next)")
    penalty: int = param(0, "modifier to every action this round (after a berserk attack)")
    next_penalty: int = param(0, "modifier to every action next round")
    readied: str = param("", "a set spell cast and held ready to fling (the fire-ball)")
    held: HeldRoll | None = param(None, "this character's roll waiting for its push decision")

    @property
    def condition(self) -> Condition:
        """The present wound and shock levels as a :class:`Condition`."""
        return Condition(self.wound, self.shock, self.destroyed, self.wounds)

    @staticmethod
    def of(sheet: Sheet) -> Seat:
        """A newly seated character, with the damage its sheet records."""
        return Seat(sheet, sheet.wound, sheet.shock, sheet.destroyed, sheet.wounds)


@dataclass(frozen=True)
class Attack:
    """An attack that hit its roll and waits: for the target's defence, or for its damage.

    ``stage`` is ``incoming`` (the target may still dodge or parry) or
    ``landed`` (the attacker rolls damage with ``strike``). ``kind`` is a melee
    blow (the attacker's ``weapon``) or a ranged shot (a ranged weapon or a
    spell of the setting). ``dodgeable`` is false for missiles too fast to dodge.
    """

    attacker: str
    target: str
    result: int
    weapon: str
    kind: Literal["melee", "ranged"] = "melee"
    stage: Literal["incoming", "landed"] = "incoming"
    dodgeable: bool = True


@dataclass(frozen=True)
class State(GameState[Seat]):
    """An ARM table: the characters by id, the round, waiting attacks and a held roll."""

    characters: Mapping[str, Seat] = param(factory=dict, doc="the seated characters by id")
    round: int = param(0, "the round number (0: no round is running)", ge=0)
    round_length: str = param("2s", "how long a round lasts (melee: 2 seconds)")
    attacks: tuple[Attack, ...] = param((), "attacks waiting for a defence or damage")
    held: HeldRoll | None = param(
        None,
        "a roll waiting for its push decision, as tables before 0.3 kept it (one for the "
        "whole table); a held roll is now its roller's (``Seat.held``)",
    )
    setting: Setting = param(
        doc="the table's setting: the weapons, armour and spells play consults (the text's "
        "examples until the referee adds to it)",
        factory=lambda: DEFAULT_SETTING,
    )


def held_rolls(state: State) -> tuple[HeldRoll, ...]:
    """Every roll waiting for its roller's push decision: an older table's one held roll,
    then each character's, in seating order."""
    own = tuple(seat.held for seat in state.characters.values() if seat.held is not None)
    return own if state.held is None else (state.held, *own)


def _name(state: State, cid: str) -> str:
    """A character's name for a prompt (its id if it is not seated)."""
    seat = state.characters.get(cid)
    return seat.sheet.name if seat is not None and seat.sheet.name else cid


def decisions(state: State) -> tuple[Decision, ...]:
    """What the rules wait for, in order: each held roll's push decision (which holds only
    its roller: everyone else acts and time advances; an older table's one held roll
    holds the table, as it did), then each attack's defence (incoming) or damage roll
    (landed)."""
    found: list[Decision] = []

    def name(cid: str) -> str:
        return _name(state, cid)

    for held in held_rolls(state):
        found.append(
            Decision(
                held.actor,
                f"{name(held.actor)}'s {held.action.replace('-', ' ')} roll: result "
                f"{held.result:+d} ({held.label}); "
                "push it (a third d6) or accept it",
                ("push", "accept"),
                "table" if held is state.held else "actor",
            )
        )
    for a in state.attacks:
        if a.stage == "incoming":
            found.append(
                Decision(
                    a.target,
                    f"{name(a.attacker)} attacks {name(a.target)} (result {a.result:+d}): "
                    "defend, or take the blow",
                    ("defend", "take-blow"),
                )
            )
        else:
            found.append(
                Decision(
                    a.attacker,
                    f"{name(a.attacker)}'s blow lands on {name(a.target)} "
                    f"(result {a.result:+d}): roll damage",
                    ("strike",),
                )
            )
    return tuple(found)
