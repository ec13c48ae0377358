"""The Mneme CE check compared with Disadvantage, plain and with Advantage
(:mod:`referee.systems.variants`): the Effect (0 or more succeeds) of 2d6 plus a bonus
against one Difficulty; a curve sweeps the Difficulty (ch. 2, task checks)."""

from __future__ import annotations

from typing import Any

from referee.systems.base import Modifier, Ruleset
from referee.systems.variants import CheckVariants, Params, Variant, Variants, chosen, number
from referee.systems.variants import whole as _int

from .actions import Check
from .options import Options

LEVELS = ("disadvantage", "plain", "advantage")


def build(
    rules: Ruleset[Any, Any, Options], params: Params, x: int | None, options: Options
) -> Variants:
    """A check against ``difficulty`` (default 8) with ``bonus`` (0) at each of ``levels``
    (default: all three)."""
    difficulty = _int(params, "difficulty", 8) if x is None else x
    bonus = _int(params, "bonus", 0)
    levels = chosen(params, "levels", LEVELS, "level")
    mods = (Modifier(bonus, "bonus", "other"),) if bonus else ()
    out = tuple(
        Variant(
            level,
            Check(
                difficulty=difficulty,
                modifiers=mods,
                advantage=int(level == "advantage"),
                disadvantage=int(level == "disadvantage"),
            ),
            options,
        )
        for level in levels
    )
    return Variants(f"Mneme CE check, 2d6 {bonus:+d} against Difficulty {difficulty}", out)


VARIANTS = CheckVariants[Options]("Effect", "difficulty", range(2, 17), build, number)
