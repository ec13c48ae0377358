"""The numbers Mnemonic's odds read from a sheet another participant may not see.

With the opposed-rolls option the defender rolls an Agile check against the attack, from
their Aptitude: a Talent plus a Life Role, each 0 to +6, so 0 to 12 (Mnemonic, Aptitude;
attacking and dodging). A player whose preview reads a defender's sheet they may not see
is shown the chance for each Aptitude instead. Without the option only the attacker
rolls, and the preview reads no other sheet.
"""

from __future__ import annotations

from dataclasses import replace

from referee.systems.base import Action, Plan, Unknown
from referee.systems.mnemonic.actions import Attack
from referee.systems.mnemonic.aptitude import APTITUDE_MAX
from referee.systems.mnemonic.conflict import plan_attack
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.state import State

APTITUDES = tuple(range(APTITUDE_MAX + 1))
"""An Aptitude: a Talent plus a Life Role, 0 to 12 (Mnemonic, Aptitude)."""

ALLOWED = "an Aptitude, a Talent plus a Life Role, 0 to 12 (Mnemonic, Aptitude)"


def unknown(action: Action, state: State, options: Options) -> Unknown | None:
    """The defender's Aptitude of an opposed attack, per value (see the module text);
    ``None`` for any other action, or where the Aptitude is given."""
    if not (
        isinstance(action, Attack)
        and options.opposed_rolls
        and action.target is not None
        and action.defender_aptitude is None
    ):
        return None
    attack = action

    def defended(value: int) -> Plan:
        return plan_attack(replace(attack, defender_aptitude=value), state, options)

    return Unknown(action.target, "Aptitude", APTITUDES, defended, ALLOWED)
