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

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.errors import IllegalAction
from referee.systems.base import Change, Modifier, Outcome, Procedure
from referee.systems.mnemonic.aptitude import Aptitude, aptitude, check_aptitude
from referee.systems.mnemonic.checks import (
    CheckResult,
    Said,
    chances_value,
    check_procedure,
    check_rule,
    deck_for,
    success_check,
)
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.randomizers import check_randomizer
from referee.systems.mnemonic.sheet import Character, Status
from referee.systems.mnemonic.tables import INACTIVE, INACTIVE_OUTCOMES, LUCKY


def check_worst(worst: str) -> str:
    """``worst`` if it is an inactive outcome; :class:`IllegalAction` otherwise."""
    key = worst.strip().lower()
    if key not in INACTIVE_OUTCOMES:
        raise IllegalAction(
            f"the worst outcome must be one of {', '.join(INACTIVE_OUTCOMES)}, not {worst!r}"
        )
    return key


def injury_chances(chances: int | str, status: Status, options: Options) -> int:
    """The Chances of staying active, worsened per earlier injury."""
    return chances_value(chances) - options.injury_step * status.injuries


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


def injury_rule(
    aptitude: int, chances: int, status: Status, worst: str, options: Options
) -> Callable[[int], Status]:
    """The injury check as a function of the randomizer value -> the new Status."""

    check = check_rule(aptitude, chances, options.check_formula)

    def rule(value: int) -> Status:
        return status_after(status, worst, check(value), options)

    return rule


def resisting_aptitude(
    victim: Character, *, life_role: str | None = None, talent: str | None = None, options: Options
) -> Aptitude:
    """A relevant Life Role (or the Primary at Moderately) plus the best Talent
    (Lucky aside) unless the referee names another."""
    if talent is None:
        talent, _ = victim.best_talent(exclude=(LUCKY,))
        if not talent:
            raise IllegalAction(f"{victim.name} has no Talent to resist with")
    return aptitude(victim, talent, life_role, fallback="relevant", options=options)


def injury(
    aptitude: int | Aptitude,
    chances: int | str,
    worst: str,
    roller: Roller,
    *,
    status: Status | None = None,
    victim: str = "victim",
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
    cards: Sequence[int] | None = None,
    said: Said | None = None,
) -> Outcome:
    """Resolve an injury check: the victim's new Status is in ``changes`` and ``details``."""
    options = options or Options()
    status = status or Status()
    worst = check_worst(worst)
    penalty = -options.injury_step * status.injuries
    extra = (
        (
            Modifier(
                penalty,
                f"{status.injuries} earlier injur{'y' if status.injuries == 1 else 'ies'}",
                "injuries",
            ),
        )
        if penalty
        else ()
    )
    out = success_check(
        aptitude,
        chances,
        roller,
        options=options,
        deck=deck,
        randomizer=randomizer,
        cards=cards,
        said=said,
        action=f"injury check for {victim}",
        extra=extra,
    )
    new = status_after(status, worst, CheckResult(out.result or 0), options)
    details: dict[str, Any] = dict(out.details)
    details.update(worst=worst, status=str(new), status_before=str(status), injuries=new.injuries)
    return replace(
        out,
        label=f"{out.label}: {new}",
        changes=(
            *out.changes,
            Change(victim, "status", value=new, reason=f"injury ({worst} at worst)"),
        ),
        details=details,
    )


def injury_procedure(
    aptitude: int,
    chances: int | str,
    worst: str,
    status: Status,
    randomizer: str,
    options: Options,
    deck: Deck | None = None,
) -> Procedure[int, Status]:
    """The injury check as one procedure (statistic: the randomizer value)."""
    base = check_procedure(check_aptitude(aptitude), 0, randomizer, deck)
    rule = injury_rule(
        aptitude, injury_chances(chances, status, options), status, check_worst(worst), options
    )
    return Procedure(base.groups, base.read, base.exact, rule)


def injury_odds(
    aptitude: int,
    chances: int | str,
    worst: str,
    *,
    status: Status | None = None,
    options: Options | None = None,
    deck: Deck | None = None,
    randomizer: str | None = None,
) -> Distribution[Status]:
    """Exact distribution of the victim's new Status."""
    options = options or Options()
    name = check_randomizer(randomizer or options.randomizer)
    deck, _ = deck_for(name, deck, options)
    return injury_procedure(
        aptitude, chances, worst, status or Status(), name, options, deck
    ).odds()
