"""The dice tray: a free roll of any dice, at every game's table, defined once.

Players expect to roll dice that no rule asked for (a random encounter, a bet, a
house rule the game does not know) in the notation they type elsewhere. ``roll``
is that action, the same in every game: its ``dice`` field takes the project's
dice notation (``3d6+2``, ``4d6kh3``, ``2d6!``, ``4dF``, ``d%``...; see
docs/dice.md), its odds are the exact distribution of the total, and its roll
records every face. It changes nothing at the table, so no pending decision of
the game holds it up, and anyone but an observer may roll it (``free``).

An expression from outside is costed before anything rolls it or asks its odds
(:func:`referee.dice.check_cost`): too costly, it is refused with the limit named,
before a die is drawn.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar

from referee.dice import check_cost, odds, parse
from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.systems.base import Action, param
from referee.systems.outcome import Outcome
from referee.systems.plan import Plan

MAX_LABEL = 200
"""The longest label a roll may carry."""


@dataclass(frozen=True)
class Roll(Action):
    """A free roll of any dice (the dice tray): the total of ``dice`` in the notation.

    Example::

        >>> get("arm").action_type("roll") is Roll  # every game's table has the tray
        True
        >>> Roll(dice="2d6+1", label="fall").actors()  # nobody's action: anyone may roll
        ()
    """

    free: ClassVar[bool] = True

    dice: str = param(doc="dice in the notation: 3d6+2, 4d6kh3, 2d6!, 4dF, d%...")
    label: str = param("", "what the roll is for (shown in the log)")

    def __post_init__(self) -> None:
        super().__post_init__()
        if len(self.label) > MAX_LABEL:
            from referee.errors import IllegalAction

            raise IllegalAction(f"label: at most {MAX_LABEL} characters")


def roll_plan(action: Roll, system: str) -> Plan:
    """The plan of a free roll: refused before any die when the notation is wrong or too
    costly; its odds are the total's exact distribution, its outcome the total with
    every face (rerolled, exploded and dropped ones marked)."""
    check_cost(action.dice)
    expr = parse(action.dice)
    text = str(expr)
    said = f"{action.label}: " if action.label.strip() else ""

    def resolve(roller: Roller) -> Outcome:
        from referee.dice.rolling import roll

        rolled = roll(expr, roller)
        faces = _all_dice(rolled)
        return Outcome(
            system,
            "roll",
            faces=faces,
            result=rolled.total,
            label=f"{said}{text} = {rolled.total}",
            details={"dice": text},
        )

    def exact() -> Distribution[Hashable]:
        return odds(expr).map(lambda total: total)

    groups = tuple(expr.dice())
    return Plan(resolve, exact, exact, groups)


def _all_dice(rolled: object) -> tuple:  # type: ignore[type-arg]
    """Every die of a roll's tree, in the order drawn."""
    from referee.dice.rolling import DieRoll, Rolled

    assert isinstance(rolled, Rolled)
    out: list[DieRoll] = list(rolled.dice)
    for part in rolled.parts:
        out.extend(_all_dice(part))
    return tuple(out)
