"""The numbers Mongrel's odds read from a sheet another participant may not see.

A task over another character's attribute, and an attack the target defends, roll over
the target's attribute (Mongrel, Task Resolution; Complex task resolution, step 3). A
player whose preview reads a sheet they may not see is shown the chance for each value
the rules allow instead: every attribute is made in a pair that sums to 8 (Mongrel,
Attributes), so 0 to 8.
"""

from __future__ import annotations

from referee.systems.base import Action, Plan, Unknown
from referee.systems.mongrel.actions import Attack, Task
from referee.systems.mongrel.conflict import plan_task
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.state import State
from referee.systems.mongrel.tables import default_attribute

ATTRIBUTES = tuple(range(9))
"""An attribute as made: one of a pair that sums to 8 (Mongrel, Attributes)."""

ALLOWED = "an attribute as made, 0 to 8 (Mongrel, Attributes)"


def unknown(action: Action, state: State, options: Options) -> Unknown | None:
    """The target's attribute a task or a defended attack rolls over, per value: the roll
    is the actor's own task over that number (see the module text); ``None`` for any
    other action."""
    over_target = isinstance(action, Task) and action.target is not None and action.tn is None
    if not (over_target or (isinstance(action, Attack) and action.defend)):
        return None
    assert isinstance(action, Task | Attack) and action.target is not None
    target = action.target
    attribute = default_attribute(action.expertise, action.attribute)

    def over(value: int) -> Plan:
        task = Task(
            actor=action.actor,
            expertise=action.expertise,
            attribute=action.attribute,
            tn=value,
            mode="over",
            difficulty=action.difficulty,
            power=action.power,
        )
        return plan_task(task, state, options)

    return Unknown(target, attribute.capitalize(), ATTRIBUTES, over, ALLOWED)
