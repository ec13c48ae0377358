"""The Mnemonic check compared by randomizer (:mod:`referee.systems.variants`): the
check total (0 or more succeeds) for each of the six randomizers, at one Aptitude and
Chances; a curve sweeps the Aptitude (Player's Guide, Success Checks; Referee's Guide:
the randomizers)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.systems.base import Ruleset
from referee.systems.variants import CheckVariants, Params, Variant, Variants, chosen, number
from referee.systems.variants import whole as _int

from .actions import Check
from .options import Options
from .tables import RANDOMIZERS


def build(
    rules: Ruleset[Any, Any, Options], params: Params, x: int | None, options: Options
) -> Variants:
    """A Success Check at ``aptitude`` (default 6) and ``chances`` (0) with each of
    ``randomizers`` (default: all six)."""
    aptitude = _int(params, "aptitude", 6) if x is None else x
    chances = _int(params, "chances", 0)
    randomizers = chosen(params, "randomizers", RANDOMIZERS, "randomizer")
    out = tuple(
        Variant(r, Check(aptitude, chances), replace(options, randomizer=r)) for r in randomizers
    )
    return Variants(f"Mnemonic Success Check, Aptitude {aptitude}, Chances {chances}", out)


VARIANTS = CheckVariants[Options]("check total", "aptitude", range(0, 13), build, number)
