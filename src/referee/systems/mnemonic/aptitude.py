"""Aptitude: one Talent plus one Life Role, with the text's fallbacks.

Referee's Guide p. 1, "determining aptitude": normally a Talent rating plus a
Life Role rating. When no Life Role fits, the Primary Role stands in - rated
Moderately (+3) when it naturally covers the task, Not At All (+0) when it
does not - or, with the optional Talent, Lucky's rating.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import IllegalAction, RulesError
from referee.systems.base import Modifier
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.sheet import Sheet
from referee.systems.mnemonic.tables import CHANCES, CHANCES_LIMIT, LUCKY, RATING_MAX

APTITUDE_MAX = 2 * RATING_MAX
"""A Talent and a Life Role of +6 each: Aptitude runs 0..12."""

FALLBACKS = ("relevant", "irrelevant", "lucky")
"""Second half of the Aptitude when no Life Role fits: the Primary Role when it
fits the task (Moderately), when it does not (Not At All), or Lucky."""


@dataclass(frozen=True)
class Aptitude:
    """An Aptitude and the ratings it was built from."""

    value: int
    parts: tuple[Modifier, ...]


def check_aptitude(value: int) -> int:
    """``value`` if it is a possible Aptitude 0..12; :class:`IllegalAction` otherwise."""
    if not 0 <= value <= APTITUDE_MAX:
        raise IllegalAction(
            f"Aptitude must be 0..{APTITUDE_MAX} (a Talent plus a Life Role), not {value}"
        )
    return value


def aptitude(
    sheet: Sheet,
    talent: str,
    life_role: str | None = None,
    *,
    fallback: str = "relevant",
    options: Options | None = None,
) -> Aptitude:
    """The Aptitude of ``sheet`` for a task using ``talent`` and ``life_role``.

    A Talent the sheet lacks may be stood for by a renamed one (option
    ``talent_stands_for``: the frigate's Well-Armed is Dangerous). Without a Life Role,
    ``fallback`` chooses the stand-in: ``"relevant"``
    (Primary Role at Moderately), ``"irrelevant"`` (Primary at Not At All) or
    ``"lucky"`` (the optional Talent Lucky).
    """
    options = options or Options()
    rating, used = sheet.talent(talent), talent
    for renamed, standard in () if rating is not None else options.talent_stands_for:
        if standard.lower() == talent.lower() and sheet.talent(renamed) is not None:
            rating, used = sheet.talent(renamed), f"{renamed} for {talent}"  # the text's frigate
            break
    if rating is None:
        raise IllegalAction(
            f"{sheet.name} has no Talent {talent!r}; has {', '.join(sheet.talents)}"
        )
    parts = [Modifier(rating, f"{used} ({options.rating_name(rating)})", "talent")]
    if life_role is not None:
        role = sheet.life_role(life_role)
        if role is None:
            have = ", ".join(sheet.life_roles) or "none"
            raise IllegalAction(f"{sheet.name} has no Life Role {life_role!r}; has {have}")
        parts.append(Modifier(role, f"{life_role} ({options.rating_name(role)})", "life role"))
    elif fallback in ("relevant", "irrelevant"):
        v = options.primary_relevant if fallback == "relevant" else options.primary_irrelevant
        parts.append(
            Modifier(v, f"Primary Role {sheet.primary_role} ({options.rating_name(v)})", "primary")
        )
    elif fallback == "lucky":
        if not options.use_lucky:
            raise IllegalAction("Lucky is not used at this table (option use_lucky)")
        luck = sheet.talent(LUCKY)
        if luck is None:
            raise IllegalAction(f"{sheet.name} has no Lucky rating")
        parts.append(Modifier(luck, f"{LUCKY} ({options.rating_name(luck)})", "lucky"))
    else:
        raise IllegalAction(f"unknown fallback {fallback!r}; known: {', '.join(FALLBACKS)}")
    value = sum(p.value for p in parts)
    return Aptitude(check_aptitude(value), tuple(parts))


def given_aptitude(value: int, whose: str = "Aptitude") -> Aptitude:
    """An Aptitude the referee gives as a number."""
    return Aptitude(value, (Modifier(value, whose, "aptitude"),))


def chances_value(chances: int | str) -> int:
    """A Chances modifier from a number (``4``, ``"+4"``, ``"-5"``) or a ladder name
    (``"Good"``); in-between values are allowed ("applying chances"), bounded to +-60."""
    if isinstance(chances, str):
        text = chances.strip()
        try:
            value = int(text)
        except ValueError:
            try:
                value = CHANCES.value(text)
            except RulesError:
                names = ", ".join(CHANCES.names())
                raise RulesError(
                    f"Chances {chances!r} is neither a number nor a rating ({names})"
                ) from None
    else:
        value = chances
    if not -CHANCES_LIMIT <= value <= CHANCES_LIMIT:
        raise IllegalAction(
            f"Chances modifier {value} is outside -{CHANCES_LIMIT}..+{CHANCES_LIMIT}"
        )
    return value
