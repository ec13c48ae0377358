"""The Mongrel task roll compared by pool size (:mod:`referee.systems.variants`): the
Effect (0 is a failure) of each pool rolled under or over one target number; a curve
sweeps the target number (Mongrel, Task resolution)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from referee.errors import RulesError
from referee.systems.base import Ruleset
from referee.systems.variants import CheckVariants, Params, Variant, Variants, listed, number
from referee.systems.variants import whole as _int

from .actions import Check
from .options import Options

MODES = ("under", "over")


def build(
    rules: Ruleset[Any, Any, Options], params: Params, x: int | None, options: Options
) -> Variants:
    """A task roll against ``tn`` (default 4) with ``identity`` (0) for each pool of
    ``dice`` (default 1 to 6) in each of ``modes`` (default: under and over)."""
    tn = _int(params, "tn", 4) if x is None else x
    identity = _int(params, "identity", 0)
    modes = listed(params, "modes", MODES)
    dice = [int(d) for d in listed(params, "dice", ("1", "2", "3", "4", "5", "6"))]
    out = []
    for mode in modes:
        if mode not in MODES:
            raise RulesError(f"mode must be under or over, not {mode!r}")
        for n in dice:
            action = Check(n, tn, mode, identity)  # type: ignore[arg-type]
            out.append(Variant(f"{n}d6 {mode}", action, options))
    return Variants(f"Mongrel task roll against TN {tn} (Identity {identity})", tuple(out))


def effect(value: Hashable) -> int:
    """The Effect of a task roll."""
    return number(getattr(value, "effect", 0))


VARIANTS = CheckVariants[Options]("Effect", "tn", range(1, 8), build, effect)
