"""The ARM task compared by push (:mod:`referee.systems.variants`): the result (0 or
more succeeds) never pushed, always pushed and pushed when needed, at one total and
difficulty, rolled by the text's Alex at a table that pushes; a curve sweeps total -
difficulty (ARM 1.2, Tasks; Pushing)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from referee.systems.base import Action, Ruleset
from referee.systems.variants import CheckVariants, Params, Variant, Variants, chosen, number
from referee.systems.variants import whole as _int

from .actions import Task
from .options import Options

PUSHES = ("never", "always", "if-needed")
ROLLER = "alex"
"""The example character who rolls the compared task (any sheet would do: the task
gives its total)."""


def build(
    rules: Ruleset[Any, Any, Options], params: Params, x: int | None, options: Options
) -> Variants:
    """A task of ``total`` (default 6) against ``difficulty`` (6) with each of ``pushes``
    (default: all three)."""
    difficulty = _int(params, "difficulty", 6)
    total = _int(params, "total", 6) if x is None else difficulty + x
    pushes = chosen(params, "pushes", PUSHES, "push")
    opts = replace(options, pushing=True)
    state = rules.seat(rules.initial_state(opts), "roller", rules.examples()[ROLLER], opts)
    out = []
    for push in pushes:
        action: Action = Task("roller", difficulty, total=total, push=push)  # type: ignore[arg-type]
        out.append(Variant(f"push {push}", action, opts, state))
    return Variants(f"ARM task, total {total} against difficulty {difficulty}", tuple(out))


def result(value: Hashable) -> int:
    """The result of a task (a pushed roll's odds report the roll: its result)."""
    return number(getattr(value, "result", value))


VARIANTS = CheckVariants[Options]("result", "total - difficulty", range(-7, 8), build, result)
