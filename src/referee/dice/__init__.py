"""Dice and exact odds: the game-agnostic foundation.

* :mod:`referee.dice.roller` - where faces come from (seeded, scripted, manual, system).
* :mod:`referee.dice.notation` - dice expressions as immutable trees.
* :mod:`referee.dice.evaluate` - the exact odds of an expression; :func:`check_cost`,
  the bound on an expression from outside; :func:`beyond_depth`.
* :mod:`referee.dice.faces` - one die with rerolls, explosions or clamps: its exact law.
* :mod:`referee.dice.rolling` - rolling an expression with a roller.
* :mod:`referee.dice.odds` - exact distributions with integer weights.
* :mod:`referee.dice.bigint` - big powers on GMP when the optional gmpy2 is installed.
* :mod:`referee.dice.render` - text and JSON views of results.

``import referee.dice`` loads only what exact odds need; the rolling names
(:func:`roll`, :class:`Rolled`, the rollers...) load on first use, so a
program that asks for odds never imports ``random``, ``secrets`` or
``dataclasses``.
"""

from typing import TYPE_CHECKING, Any

from referee.dice.evaluate import (
    ROLL_BUDGET,
    UNTRUSTED_BUDGET,
    beyond_depth,
    check_cost,
    odds,
)
from referee.dice.notation import EXPLODE_DEPTH, BinOp, Const, Die, Expr, Labeled, Neg, Pool, parse
from referee.dice.odds import Distribution

if TYPE_CHECKING:
    from referee.dice.roller import (
        ManualRoller,
        Roller,
        RollRecord,
        ScriptedRoller,
        SeededRoller,
        SystemRoller,
    )
    from referee.dice.rolling import DieRoll, Rolled, check_faces, check_faces_for, roll

_LAZY = {
    "DieRoll": "referee.dice.rolling",
    "Rolled": "referee.dice.rolling",
    "check_faces": "referee.dice.rolling",
    "check_faces_for": "referee.dice.rolling",
    "roll": "referee.dice.rolling",
    "ManualRoller": "referee.dice.roller",
    "Roller": "referee.dice.roller",
    "RollRecord": "referee.dice.roller",
    "ScriptedRoller": "referee.dice.roller",
    "SeededRoller": "referee.dice.roller",
    "SystemRoller": "referee.dice.roller",
}


def __getattr__(name: str) -> Any:
    """The rolling names, imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "EXPLODE_DEPTH",
    "ROLL_BUDGET",
    "UNTRUSTED_BUDGET",
    "BinOp",
    "Const",
    "Die",
    "DieRoll",
    "Distribution",
    "Expr",
    "Labeled",
    "ManualRoller",
    "Neg",
    "Pool",
    "RollRecord",
    "Rolled",
    "Roller",
    "ScriptedRoller",
    "SeededRoller",
    "SystemRoller",
    "beyond_depth",
    "check_cost",
    "check_faces",
    "check_faces_for",
    "odds",
    "parse",
    "roll",
]
