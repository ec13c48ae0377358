"""Aiming, a temporary modifier (Mneme CE ch. 2, Modifiers to Rolls: "Some Modifiers are
Temporary (e.g., Aim Modifier increases as minor actions are used)").

A character aims by spending Minor actions of the round; each adds ``aim_step`` to the
Aim modifier kept on their seat, up to ``aim_max`` (the text gives no numbers: both are
options). Their next attack adds it as an action modifier (the kind the text says players
track) and spends it. Being temporary, it is lost when they take damage, when they do
anything else but aim or attack (a free action excepted), and when the encounter ends.
"""

from __future__ import annotations

from dataclasses import replace

from referee.errors import IllegalAction
from referee.systems.base import Action, Change, Modifier, Outcome, Plan
from referee.systems.mneme.actions import Aim, Attack, SpendAction
from referee.systems.mneme.budget import MAX_FREE, ActionBudget
from referee.systems.mneme.changes import Changes
from referee.systems.mneme.equipment import violent_bleeds
from referee.systems.mneme.options import Options
from referee.systems.mneme.state import Seat, State
from referee.systems.mneme.tables import MINOR_ACTIONS

SOURCE = "aim"
KIND = "action"
"""The Aim modifier is an action modifier: of one kind only the most favourable applies."""


def aim_modifier(seat: Seat | None) -> Modifier | None:
    """The Aim modifier a seated character's next attack adds, if they have aimed."""
    if seat is None or not seat.aim:
        return None
    return Modifier(seat.aim, SOURCE, KIND)


def plan_aim(action: Aim, state: State, options: Options) -> Plan:
    """Spend ``count`` Minor actions aiming: the Aim modifier grows by ``aim_step`` each,
    up to ``aim_max``; refused beyond it, or without the Minor actions left this round.
    The odds report the Aim modifier reached (certain)."""
    seat = state.character(action.actor)
    name = seat.sheet.name
    violent_bleeds(seat.sheet, options)  # the dead, the Dying and those out cannot aim
    if options.aim_step == 0:
        raise IllegalAction("aiming adds nothing at this table (option aim_step 0)")
    new = seat.aim + action.count * options.aim_step
    if new > options.aim_max:
        more = (options.aim_max - seat.aim) // options.aim_step
        raise IllegalAction(
            f"{name}'s aim is +{seat.aim} and can build to +{options.aim_max} at most "
            f"(+{options.aim_step} a Minor action): {more} more Minor action(s) of aiming "
            "at most"
        )
    before = ActionBudget(min(seat.minor_left, MINOR_ACTIONS), min(seat.free_taken, MAX_FREE))
    try:
        budget = before.spend("minor", action.count)
    except IllegalAction as e:
        raise IllegalAction(f"{name}, round {state.round or 1}: {e}") from None
    changes = Changes(state)
    changes.set(action.actor, "minor_left", budget.minor_left, "Minor actions spent aiming")
    changes.set(action.actor, "aim", new, f"aimed for {action.count} Minor action(s)")
    outcome = Outcome(
        "mneme",
        "aim",
        result=new,
        success=True,
        label=f"{name} aims: +{new} on the next attack ({budget.minor_left} Minor left)",
        changes=changes.build(),
        details={"aim": new, "spent": action.count, "minor_left": budget.minor_left},
    )
    return Plan.fixed(outcome, value=new)


def _breaks_aim(action: Action) -> bool:
    """Whether ``action`` is something else than aiming or attacking (a free action is
    not: it takes no time from the aim)."""
    if isinstance(action, Aim | Attack):
        return False
    return not (isinstance(action, SpendAction) and action.kind == "free")


def lose_aim(action: Action, state: State, outcome: Outcome, options: Options) -> Outcome:
    """``outcome`` with the aim it breaks lost: the actor's on another action (option
    ``aim_lost_on_other_action``), anyone's who takes damage (``aim_lost_on_damage``).
    An aim the outcome already sets (an attack spending it) is left to it."""
    lost: dict[str, str] = {}
    actor = getattr(action, "actor", None)
    if options.aim_lost_on_other_action and isinstance(actor, str) and _breaks_aim(action):
        seat = state.characters.get(actor)
        if seat is not None and seat.aim:
            lost[actor] = "another action breaks the aim"
    if options.aim_lost_on_damage:
        for c in outcome.changes:
            seat = state.characters.get(c.target)
            hurt = c.field == "sheet.damage" and c.delta is not None and c.delta > 0
            if hurt and seat is not None and seat.aim:
                lost.setdefault(c.target, "damage breaks the aim")
    already = {c.target for c in outcome.changes if c.field == "aim"}
    extra = tuple(
        Change(cid, "aim", value=0, reason=why) for cid, why in lost.items() if cid not in already
    )
    if not extra:
        return outcome
    details = {**outcome.details, "aim_lost": [c.target for c in extra]}
    return replace(outcome, changes=(*outcome.changes, *extra), details=details)
