"""What a Mongrel table tracks (Mongrel, Complex task resolution; Physical damage; Fatigue).

A seated character is a :class:`Seat`: the stored :class:`~.sheet.Sheet` plus
what play changes - current Action Points, Infernal Resolve, damage on the
Size/Physique track, Physique and Beauty lost to it, the collapsed / terminal /
dead stages, an exhausted Resolve (AP maximum 1) and full AP refreshes this
hour (Fatigue). Everything else (AP maximum = Speed, Infernal Resolve maximum =
Spirit, Identity, Expertise, the current Physique) is derived from the sheet
(principle 5).

The table (:class:`State`) keeps the conflict's order of action - empty when
no complex task resolution is running - and the hours elapsed (Occult
workings and rest take time; there are no rounds).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.errors import IllegalAction
from referee.systems.base import GameState, param

from .sheet import (
    Identity,
    Sheet,
    action_points,
    attribute,
    identity_now,
    infernal_resolve,
    level,
)
from .tables import ATTRIBUTES, EXPERTISE


@dataclass(frozen=True)
class Seat:
    """A seated character: the sheet and what the rules track about it in play."""

    sheet: Sheet
    ap: int = param(doc="current Action Points", ge=0)
    ir: int = param(doc="current Infernal Resolve", ge=0)
    damage: int = param(0, "physical damage on the Size/Physique track", ge=0)
    physique_loss: int = param(0, "Physique lost to damage (target numbers, the track)", ge=0)
    beauty_loss: int = param(0, "Beauty lost to damage shunted onto it", ge=0)
    beauty_permanent: int = param(0, "of which permanent (1 point per shunt)", ge=0)
    exhausted: bool = param(False, "Infernal Resolve hit 0: AP maximum 1 until it refreshes")
    collapsed: bool = param(False, "collapsed: AP lost; ends when an AP is recovered")
    terminal: bool = param(False, "took terminal damage (dies when Resolve reaches 0)")
    dead: bool = param(False, "dead")
    refreshes: int = param(0, "full AP refreshes in the current hour (Fatigue)", ge=0)
    refresh_hour: int = param(0, "the hour those refreshes were counted in", ge=0)

    # -- derived from the sheet ------------------------------------------------

    @property
    def name(self) -> str:
        """The character's name."""
        return self.sheet.name

    @property
    def ap_max(self) -> int:
        """The Action Point maximum: Speed (Mongrel, Derived scores)."""
        return action_points(self.sheet)

    @property
    def effective_ap_max(self) -> int:
        """The AP maximum now: 1 while Infernal Resolve is exhausted."""
        return min(self.ap_max, 1) if self.exhausted else self.ap_max

    @property
    def ir_max(self) -> int:
        """Infernal Resolve's full value: Spirit (Mongrel, Derived scores)."""
        return infernal_resolve(self.sheet)

    @property
    def size(self) -> int:
        """Size (the damage track's row)."""
        return attribute(self.sheet, "size")

    @property
    def base_physique(self) -> int:
        """Physique before damage."""
        return attribute(self.sheet, "physique")

    @property
    def physique(self) -> int:
        """Physique after damage (target numbers; the track under the default options)."""
        return max(0, self.base_physique - self.physique_loss)

    @property
    def beauty(self) -> int:
        """Beauty after damage shunted onto it."""
        return max(0, attribute(self.sheet, "beauty") - self.beauty_loss)

    @property
    def identity(self) -> Identity:
        """Man, Beast and Demon now."""
        return identity_now(self.sheet)

    @property
    def rushed(self) -> bool:
        """AP 1: rushed, slightly off-balance (no game penalty; Complex task resolution)."""
        return self.ap == 1

    @property
    def discombobulated(self) -> bool:
        """AP 0: discombobulated, stressed and fatigued (no game penalty)."""
        return self.ap == 0

    @property
    def condition(self) -> str:
        """The most serious stage the character is in, as a word ('' when none)."""
        for word in ("dead", "terminal", "collapsed", "discombobulated", "rushed"):
            if getattr(self, word):
                return word
        return ""

    def attr(self, name: str) -> int:
        """An attribute now (Physique and Beauty after damage)."""
        if name == "physique":
            return self.physique
        if name == "beauty":
            return self.beauty
        if name not in ATTRIBUTES:
            raise IllegalAction(f"unknown attribute {name!r}; known: {', '.join(ATTRIBUTES)}")
        return attribute(self.sheet, name)

    def level(self, expertise: str) -> int:
        """An Expertise level now (0 when the character has none)."""
        return level(self.sheet, expertise)

    def dice(self, expertise: str, power: str | None) -> int:
        """Dice for an Expertise, plus a named power's points when it augments it."""
        dice = self.level(expertise)
        if power is None:
            return dice
        if power not in self.sheet.powers:
            known = ", ".join(self.sheet.powers) or "none"
            raise IllegalAction(f"{self.name} has no power {power!r} (powers: {known})")
        return dice + self.sheet.powers[power]

    def governing(self, expertise: str) -> int:
        """The Identity score governing an Expertise (added to Effect)."""
        return self.identity.score(EXPERTISE[expertise][0])

    @staticmethod
    def of(sheet: Sheet) -> Seat:
        """A newly seated character (:func:`seat_of`); one joins a conflict when the next
        one starts."""
        return seat_of(sheet)


def seat_of(sheet: Sheet) -> Seat:
    """A fresh fighter: AP = Speed, Infernal Resolve = Spirit, no damage."""
    return Seat(sheet, action_points(sheet), infernal_resolve(sheet))


def rank(f: Seat) -> tuple[int, int, int]:
    """The order key: highest Beast first, then Man, then Demon (Complex task resolution 1)."""
    i = f.identity
    return (-i.beast, -i.man, -i.demon)


@dataclass(frozen=True)
class State(GameState[Seat]):
    """A Mongrel table: the seated characters, the conflict's order and the clock."""

    order: tuple[str, ...] = param(
        (), doc="the conflict's order of action, next first (empty: no conflict running)"
    )
    hours: int = param(0, "hours elapsed (Occult workings and rest take time)", ge=0)

    @property
    def next(self) -> str | None:
        """Who acts next in the conflict (``None`` when none is running)."""
        return self.order[0] if self.order else None

    def living(self, cid: str) -> Seat:
        """The character ``cid``, refused if dead."""
        f = self.character(cid)
        if f.dead:
            raise IllegalAction(f"{f.name} is dead")
        return f

    def in_conflict(self, cid: str) -> bool:
        """Whether ``cid`` takes part in the running conflict."""
        return cid in self.order
