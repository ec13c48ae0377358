"""Psionic Strength and exhaustion (Mneme CE ch. 7, Healing and Mental Characteristics;
Injury Conditions: Wounded).

Psionic Points are spent from Psionic Strength (the optional Psi characteristic) as Psi
damage, which lowers the Psi modifier of later checks. Using psionics falls under the
exhaustion rules, each point equal to an hour of moderate activity: the character takes
exhaustion damage (``psionic_exhaustion`` per point), which "can be considered Wounded".
That damage heals at the Wounded rates of the healing table as time passes
(:func:`~referee.systems.mneme.health.recover_exhaustion`), and Psionic Strength comes
back with it; therapy is for the other mental characteristics.
"""

from __future__ import annotations

from dataclasses import replace

from referee.errors import IllegalAction
from referee.systems.base import Outcome, Plan
from referee.systems.mneme.actions import UsePsionics
from referee.systems.mneme.changes import Changes
from referee.systems.mneme.equipment import violent_bleeds
from referee.systems.mneme.health import condition
from referee.systems.mneme.options import Options
from referee.systems.mneme.state import State

PSI = "Psi"


def plan_psionics(action: UsePsionics, state: State, options: Options) -> Plan:
    """Spend ``points`` of Psionic Strength: Psi damage +points, exhaustion damage +points x
    ``psionic_exhaustion``. Refused without Psi, beyond the Psionic Strength left, and for
    a character who cannot act (dead, Dying, out). The odds report the Psi left (certain)."""
    sheet = state.character(action.actor).sheet
    violent_bleeds(sheet, options)  # the dead, the Dying and those out cannot act
    if PSI not in sheet.characteristics:
        raise IllegalAction(f"{sheet.name} has no Psionic Strength (no Psi characteristic)")
    left = sheet.characteristic(PSI)
    if action.points > left:
        raise IllegalAction(
            f"{sheet.name} has {left} Psionic Point(s) left of Psi "
            f"{sheet.characteristics[PSI]}: {action.points} cannot be spent"
        )
    spent = dict(sheet.characteristic_damage)
    spent[PSI] = spent.get(PSI, 0) + action.points
    exhaustion = sheet.exhaustion + action.points * options.psionic_exhaustion
    changes = Changes(state)
    why = f"{action.points} Psionic Point(s)" + (f" on {action.power}" if action.power else "")
    changes.set(action.actor, "sheet.characteristic_damage", spent, why)
    changes.set(action.actor, "sheet.exhaustion", exhaustion, f"{why}: exhaustion")
    after = replace(sheet, characteristic_damage=spent, exhaustion=exhaustion)
    cond = condition(after, options)
    now = left - action.points
    outcome = Outcome(
        "mneme",
        "psionics",
        result=now,
        success=True,
        label=(
            f"{sheet.name} spends {action.points} Psionic Point(s): Psi {left} -> {now}; "
            f"exhaustion {sheet.exhaustion} -> {exhaustion} ({cond})"
        ),
        changes=changes.build(),
        details={
            "points": action.points,
            "psi_before": left,
            "psi_after": now,
            "psi_modifier": after.modifier(PSI),
            "moderate_activity_hours": action.points,
            "exhaustion": exhaustion,
            "condition": cond,
            "power": action.power,
        },
    )
    return Plan.fixed(outcome, value=now)
