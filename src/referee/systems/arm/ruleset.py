"""The :class:`~referee.systems.base.Ruleset` for ARM 1.2.

Actions are frozen dataclasses of their inputs; ``resolve`` rolls them and
``odds`` gives the exact distribution of the same rule (principle 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.systems.arm.checks import (
    movement_push_odds,
    resolve_movement_push,
    resolve_task,
    task_odds,
)
from referee.systems.arm.damage import Blow, Condition, damage_odds, resolve_damage
from referee.systems.arm.options import Options
from referee.systems.arm.sheet import Sheet, validate
from referee.systems.base import Outcome, Problem, RulesError


@dataclass(frozen=True)
class Task:
    """A check: stat + mods (``total``) against ``difficulty``, optionally pushed."""

    total: int
    difficulty: int
    push: bool = False
    actor: str = "actor"


@dataclass(frozen=True)
class Strike:
    """The damage of a landed blow against ``target``'s present condition.

    ``push`` pushes the damage roll; its shock cost falls on ``attacker``.
    """

    blow: Blow
    target: str = "defender"
    push: bool = False
    attacker: str = "attacker"


@dataclass(frozen=True)
class MovementPush:
    """A push on a movement rate for one round (no roll is needed to move)."""

    rate: int
    actor: str = "actor"


class ArmRuleset:
    """ARM: Advanced Role-Playing Mechanics 1.2 (R. E. Bridson, 1993)."""

    name = "arm"
    title = "ARM: Advanced Role-Playing Mechanics 1.2"
    sheet_type = Sheet
    options_type = Options

    def validate(self, sheet: Any, options: Any) -> tuple[Problem, ...]:
        """Every rule the sheet breaks against the shipped setting."""
        return validate(sheet, options)

    def actions(self) -> Mapping[str, type[Any]]:
        """``task`` (a check), ``strike`` (a damage roll), ``movement push``."""
        return {"task": Task, "strike": Strike, "movement push": MovementPush}

    def resolve(self, action: Any, state: Any, roller: Roller, options: Any) -> Outcome:
        """Roll a task or a strike; ``state`` may map names to :class:`Condition` or sheets."""
        if isinstance(action, Task):
            return resolve_task(
                action.total,
                action.difficulty,
                roller,
                push=action.push,
                options=options,
                actor=action.actor,
            )
        if isinstance(action, Strike):
            return resolve_damage(
                action.blow,
                roller,
                options=options,
                condition=_condition(state, action.target),
                target=action.target,
                push=action.push,
                attacker=action.attacker,
            )
        if isinstance(action, MovementPush):
            return resolve_movement_push(action.rate, roller, options=options, actor=action.actor)
        raise RulesError(f"ARM has no action {type(action).__name__}")

    def odds(self, action: Any, state: Any, options: Any) -> Distribution[Any]:
        """Task: the result distribution. Strike: the distribution of :class:`Damage`."""
        if isinstance(action, Task):
            return task_odds(action.total, action.difficulty, action.push, options).result
        if isinstance(action, Strike):
            return damage_odds(action.blow, options, action.push)
        if isinstance(action, MovementPush):
            return movement_push_odds(action.rate, options)
        raise RulesError(f"ARM has no action {type(action).__name__}")


def _condition(state: Any, name: str) -> Condition | None:
    if not isinstance(state, Mapping) or name not in state:
        return None
    found = state[name]
    if isinstance(found, Condition):
        return found
    if isinstance(found, Sheet):
        return found.condition
    return None


RULESET = ArmRuleset()
