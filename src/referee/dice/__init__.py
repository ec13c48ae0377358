"""Dice and exact odds: the game-agnostic foundation.

* :mod:`referee.dice.roller` - where faces come from (seeded, scripted, manual, system).
* :mod:`referee.dice.notation` - dice expressions as immutable trees.
* :mod:`referee.dice.evaluate` - rolling an expression, or its exact odds.
* :mod:`referee.dice.odds` - exact distributions with integer weights.
* :mod:`referee.dice.render` - text and JSON views of results.
"""

from referee.dice.evaluate import DieRoll, Rolled, check_faces, check_faces_for, odds, roll
from referee.dice.notation import BinOp, Const, Expr, Neg, Pool, parse
from referee.dice.odds import Distribution
from referee.dice.roller import (
    ManualRoller,
    Roller,
    RollRecord,
    ScriptedRoller,
    SeededRoller,
    SystemRoller,
)

__all__ = [
    "BinOp",
    "Const",
    "DieRoll",
    "Distribution",
    "Expr",
    "ManualRoller",
    "Neg",
    "Pool",
    "RollRecord",
    "Rolled",
    "Roller",
    "ScriptedRoller",
    "SeededRoller",
    "SystemRoller",
    "check_faces",
    "check_faces_for",
    "odds",
    "parse",
    "roll",
]
