"""The stored Mongrel character and its derived scores (Mongrel, Character Creation).

A sheet stores what the player chose (principle 5): Identity, attributes *as
chosen* plus how much each was lowered afterwards, Expertise levels, Power
allocations, House, sex, age and Vow. Derived scores (Action Points, Wound
Threshold, Infernal Resolve, starting Credit) are pure functions. The rules a
sheet must satisfy live in :mod:`.validation`; the ruleset's ``validate`` is the entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .tables import HOUSES, POWER, IdentityName


@dataclass(frozen=True)
class Identity:
    """Man, Beast and Demon scores and the chosen primary (Mongrel, Identity)."""

    man: int
    beast: int
    demon: int
    primary: IdentityName

    def score(self, name: str) -> int:
        """The score of the Identity ``name`` ("man", "beast" or "demon")."""
        value: int = getattr(self, name)
        return value


@dataclass(frozen=True)
class Attributes:
    """The six attributes (Mongrel, Attributes)."""

    size: int
    spirit: int
    physique: int
    beauty: int
    speed: int
    social: int

    def get(self, name: str) -> int:
        """The attribute ``name``."""
        value: int = getattr(self, name)
        return value


@dataclass(frozen=True)
class CreationSteps:
    """The Expertises chosen in creation steps 2, 3 and 4 (two each), when recorded."""

    step2: tuple[str, ...]
    step3: tuple[str, ...]
    step4: tuple[str, ...]

    def by_step(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each step's name (``"step2"``...) with its Expertises, in order."""
        return (("step2", self.step2), ("step3", self.step3), ("step4", self.step4))


@dataclass(frozen=True)
class Approval:
    """A referee's approval of a broken rule, with the reason (kept on the sheet)."""

    rule: str
    field: str
    reason: str
    by: str = ""


@dataclass(frozen=True)
class Sheet:
    """A Mongrel character as stored.

    ``attributes`` are the values as chosen; ``lowered`` how much each was
    voluntarily lowered afterwards (RULINGS: the creation rules apply to the
    chosen values); ``raised`` what character points added later. In the same
    way ``identity`` and ``expertise`` keep the values from creation and
    ``identity_raised`` / ``expertise_raised`` what character points changed
    (an Identity lowered to pay for another shows as -1), so the creation
    rules stay checkable after advancement; play reads :func:`identity_now`
    and :func:`level`.
    ``expertise`` maps catalogue names to levels (absent = 0);
    ``powers`` maps each power bought with the Power Expertise to its points.
    ``credit`` holds House Credit accounts once play has changed them.
    """

    SCHEMA_VERSION: ClassVar[int] = 1

    name: str
    house: str
    sex: str
    age: str
    identity: Identity
    attributes: Attributes
    expertise: dict[str, int]
    powers: dict[str, int] = field(default_factory=dict)
    form: str = ""
    vow: str = ""
    lowered: dict[str, int] = field(default_factory=dict)
    raised: dict[str, int] = field(default_factory=dict)
    identity_raised: dict[str, int] = field(default_factory=dict)
    expertise_raised: dict[str, int] = field(default_factory=dict)
    steps: CreationSteps | None = None
    credit: dict[str, int] | None = None
    character_points: int = 0
    approvals: tuple[Approval, ...] = ()
    aliases: tuple[str, ...] = ()
    notes: str = ""

    @staticmethod
    def migrate(data: dict[str, Any], version: int) -> dict[str, Any]:
        """Bring an older stored record to the current schema (none older exist yet)."""
        return data


def attribute(sheet: Sheet, name: str) -> int:
    """An attribute now: as chosen, less voluntary lowering, plus character-point raises."""
    return sheet.attributes.get(name) - sheet.lowered.get(name, 0) + sheet.raised.get(name, 0)


def level(sheet: Sheet, expertise: str) -> int:
    """An Expertise level now: from creation plus character-point raises (0 when absent)."""
    return sheet.expertise.get(expertise, 0) + sheet.expertise_raised.get(expertise, 0)


def expertise_now(sheet: Sheet) -> dict[str, int]:
    """Every Expertise level now (creation plus raises), absent ones left out."""
    names = dict.fromkeys([*sheet.expertise, *sheet.expertise_raised])
    return {e: level(sheet, e) for e in names if level(sheet, e)}


def identity_now(sheet: Sheet) -> Identity:
    """The Identity scores now: from creation plus character-point changes."""
    i, up = sheet.identity, sheet.identity_raised
    return Identity(
        i.man + up.get("man", 0),
        i.beast + up.get("beast", 0),
        i.demon + up.get("demon", 0),
        i.primary,
    )


def action_points(sheet: Sheet) -> int:
    """Starting and maximum Action Points = Speed (Mongrel, Derived scores)."""
    return attribute(sheet, "speed")


def wound_threshold(sheet: Sheet) -> int:
    """Damage beyond Size + Physique collapses the character (RULINGS, damage track)."""
    return attribute(sheet, "size") + attribute(sheet, "physique")


def terminal_damage(sheet: Sheet) -> int:
    """Damage at or past 3 × Size + Physique is terminal (Ahvia: 9)."""
    return 3 * attribute(sheet, "size") + attribute(sheet, "physique")


def infernal_resolve(sheet: Sheet) -> int:
    """Infernal (Dark) Resolve = Spirit (Mongrel, Derived scores)."""
    return attribute(sheet, "spirit")


def power_expertise(sheet: Sheet) -> str:
    """The Power Expertise the primary Identity allows."""
    return POWER[sheet.identity.primary]


def starting_credit(sheet: Sheet) -> dict[str, int]:
    """Own House = Social, every other House 1 (Mongrel, Character wealth)."""
    social = attribute(sheet, "social")
    return {h: (social if h == sheet.house else 1) for h in HOUSES}


def credit(sheet: Sheet) -> dict[str, int]:
    """The sheet's Credit accounts (starting accounts when none are stored)."""
    return dict(sheet.credit) if sheet.credit is not None else starting_credit(sheet)


def derived(sheet: Sheet) -> dict[str, int]:
    """Every derived score, by name."""
    return {
        "action_points": action_points(sheet),
        "wound_threshold": wound_threshold(sheet),
        "terminal_damage": terminal_damage(sheet),
        "infernal_resolve": infernal_resolve(sheet),
    }


def accounts_line(sheet: Sheet) -> str:
    """``Giazza (Nuin): Aggak-Ko 1, Mekag 2, ...``: each House Credit account."""
    shown = ", ".join(f"{h} {v}" for h, v in credit(sheet).items())
    return f"{sheet.name} ({sheet.house}): {shown}"


def points_line(before: Sheet, after: Sheet, raised: str) -> str:
    """``Giazza: social; character points 20 -> 0``."""
    points = f"{before.character_points} -> {after.character_points}"
    return f"{after.name}: {raised}; character points {points}"
