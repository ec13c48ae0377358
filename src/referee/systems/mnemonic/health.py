"""Injuries and Status (Player's Guide facts and the product's ruling, COMPANION).

After a successful attack the referee picks the worst the injury could do
(unconscious, immobilized or dead) and a Chances rating for the victim
remaining active. The victim checks with a relevant Life Role (rare) or the
Primary Role at Moderately, plus the best Talent (usually Tough). Ruling:
failure leaves the victim inactive with the chosen outcome; success keeps
the victim active with Status "Hurt"; each earlier injury makes the Chances
one step worse. Label and step are options.

Ruling where the texts are silent: an already inactive victim stays inactive;
a failed check makes the outcome the more severe of the old and the new.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from referee.dice.odds import fraction_text
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Modifier, Outcome, Plan
from referee.systems.changes import diff
from referee.systems.mnemonic.aptitude import Aptitude, aptitude, chances_value, given_aptitude
from referee.systems.mnemonic.checks import SYSTEM, CheckResult, prepare_check
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.sheet import (
    Sheet,
    Status,
    check_status,
    check_worst,
)
from referee.systems.mnemonic.state import State
from referee.systems.mnemonic.tables import FINE, INACTIVE, INACTIVE_OUTCOMES, LUCKY

if TYPE_CHECKING:
    from referee.dice.odds import Distribution
    from referee.systems.mnemonic.actions import Injury, SetStatus


def parse_status(
    text: str | None, injuries: int | None = None, options: Options | None = None
) -> Status:
    """A Status as a referee writes it: ``Fine``, ``Hurt`` (the table's injured
    label), ``inactive (unconscious)`` or just ``dead``; ``injuries`` earlier
    injuries (default: none when Fine, one otherwise). No text: the injured label
    after an earlier injury, else Fine."""
    options = options or Options()
    if text is None:
        text = options.injured_label if injuries else FINE
    said = text.strip()
    low = said.lower()
    inner = low.removeprefix(INACTIVE).strip().strip("()").strip()
    if inner in INACTIVE_OUTCOMES:
        condition, inactive_as = INACTIVE, inner
    elif low == FINE.lower():
        condition, inactive_as = FINE, None
    elif low == options.injured_label.lower():
        condition, inactive_as = options.injured_label, None
    else:
        known = [FINE, options.injured_label, *(f"inactive ({o})" for o in INACTIVE_OUTCOMES)]
        raise RulesError(f"unknown Status {text!r}; known: {', '.join(known)}")
    count = injuries if injuries is not None else (0 if condition == FINE else 1)
    return check_status(Status(condition, inactive_as, count))


def status_after(status: Status, worst: str, result: CheckResult, options: Options) -> Status:
    """The victim's new Status after the injury check."""
    count = status.injuries + 1
    if result.success:
        if not status.active:
            return Status(INACTIVE, status.inactive_as, count)
        return Status(options.injured_label, None, count)
    if not status.active and status.inactive_as in INACTIVE_OUTCOMES:
        old = INACTIVE_OUTCOMES.index(status.inactive_as)
        worst = INACTIVE_OUTCOMES[max(old, INACTIVE_OUTCOMES.index(worst))]
    return Status(INACTIVE, worst, count)


def resisting_aptitude(
    victim: Sheet, *, life_role: str | None = None, talent: str | None = None, options: Options
) -> Aptitude:
    """A relevant Life Role (or the Primary at Moderately) plus the best Talent
    (Lucky aside) unless the referee names another."""
    if talent is None:
        talent, _ = victim.best_talent(exclude=(LUCKY,))
        if not talent:
            raise IllegalAction(f"{victim.name} has no Talent to resist with")
    return aptitude(victim, talent, life_role, fallback="relevant", options=options)


def injury_plan(
    resist: Aptitude,
    chances: int,
    worst: str,
    status: Status,
    deck: Deck | None,
    options: Options,
    *,
    victim: str | None = None,
    name: str = "victim",
) -> Plan:
    """An injury check: the victim's new Status. ``victim`` is the id of a seated
    character (the outcome then changes its Status); ``name`` is how it is called.
    The odds are of the new Status (as text, e.g. ``"inactive (dead)"``)."""
    worst = check_worst(worst)
    check_status(status)
    penalty = -options.injury_step * status.injuries
    extra: tuple[Modifier, ...] = ()
    if penalty:
        earlier = f"{status.injuries} earlier injur{'y' if status.injuries == 1 else 'ies'}"
        extra = (Modifier(penalty, earlier, "injuries"),)
    check = prepare_check(
        resist, chances, options, deck, action=f"injury check for {name}", extra=extra
    )

    def injured(out: Outcome, result: CheckResult) -> Outcome:
        new = status_after(status, worst, result, options)
        reason = f"injury ({worst} at worst)"
        changes = out.changes
        if victim is not None:
            changes += tuple(diff(victim, status, new, reason, at="status"))
        details = dict(out.details)
        details.update(
            worst=worst, status=str(new), status_before=str(status), injuries=new.injuries
        )
        if victim is not None:
            details["victim"] = victim
        return replace(out, label=f"{out.label}: {new}", changes=changes, details=details)

    return check.plan(injured, lambda r: str(status_after(status, worst, r, options)))


# -- the actions' planners ---------------------------------------------------


def plan_injury(action: Injury, state: State, options: Options) -> Plan:
    """An injury check for a seated victim (at the Status the table tracks) or for one
    the referee describes by its resisting Aptitude and Status (Mnemonic, injury)."""
    chances = chances_value(action.chances)
    if action.victim is None:
        if action.aptitude is None:
            raise IllegalAction("give the victim's id at the table or the resisting Aptitude")
        resist = given_aptitude(action.aptitude, "resisting Aptitude")
        status = action.status or Status()
        return injury_plan(resist, chances, action.worst, status, state.deck, options)
    seat = state.character(action.victim)
    if action.status is not None:
        raise IllegalAction(
            f"the table tracks {action.victim}'s Status ({seat.status}): do not give it"
        )
    if action.aptitude is not None:
        resist = given_aptitude(action.aptitude, "resisting Aptitude")
    else:
        resist = resisting_aptitude(
            seat.sheet, life_role=action.life_role, talent=action.talent, options=options
        )
    return injury_plan(
        resist,
        chances,
        action.worst,
        seat.status,
        state.deck,
        options,
        victim=action.victim,
        name=seat.sheet.name,
    )


def plan_set_status(action: SetStatus, state: State, options: Options) -> Plan:
    """The referee's ruling on a character's Status, with no roll."""
    before = state.character(action.target).status
    injuries = before.injuries if action.injuries is None else action.injuries
    after = Status(action.condition, action.inactive_as, injuries)
    done = Outcome(
        system=SYSTEM,
        action="set status",
        label=f"{action.target}: {after}",
        changes=tuple(diff(action.target, before, after, "the referee's ruling", at="status")),
        details={"target": action.target, "status": str(after), "injuries": injuries},
    )
    return Plan.fixed(done)


def status_odds(dist: Distribution[Hashable]) -> dict[str, Any]:
    """An injury's odds: ``{"status": {new Status: p}}``."""
    return {"status": {str(s): fraction_text(p) for s, p in dist.probabilities().items()}}
