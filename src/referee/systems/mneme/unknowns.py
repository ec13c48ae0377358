"""The numbers Mneme CE's odds read from a sheet another participant may not see.

An attack's damage rolls each lose the armour the target wears (ch. 7, Damage Rolls,
Armor). A player whose preview reads a target's sheet they may not see is shown the odds
for each armour rating instead. The text sets no highest rating; the preview tries AR 0
to 10 of the target's own scale (a ruling, docs/mneme.md). An attack at a targeted
location (which reads the target's Hits) or struck back by the target's own weapon is not
tried per value.
"""

from __future__ import annotations

from dataclasses import replace

from referee.systems.base import Action, Plan, Unknown
from referee.systems.mneme.actions import Attack
from referee.systems.mneme.damage import Target
from referee.systems.mneme.options import Options
from referee.systems.mneme.resolve import plan_attack
from referee.systems.mneme.state import State

RATINGS = tuple(range(11))
"""The armour ratings a preview tries: AR 0 to 10 (the text sets no highest)."""

ALLOWED = "armour ratings 0 to 10 (Mneme CE ch. 7, Armor)"


def unknown(action: Action, state: State, options: Options) -> Unknown | None:
    """The target's worn armour of an attack, per rating (see the module text); ``None``
    for any other action, or where the armour is given."""
    if not (
        isinstance(action, Attack)
        and action.target is not None
        and action.armour is None
        and action.location is None
        and (action.threat is None or action.threat.attacker != action.target)
    ):
        return None
    attack = action

    def armoured(value: int) -> Plan:
        return plan_attack(replace(attack, armour=Target(value)), state, options)

    return Unknown(action.target, "armour", RATINGS, armoured, ALLOWED)
