"""The Mneme CE character sheet as people read it (Mneme CE ch. 2, Core Mechanics:
Characteristic Modifier and Skills; ch. 7, Outcomes: Armor, Character HP Thresholds).

The layout is the usual Mneme CE sheet: the six characteristics (physical Str,
Dex, End; mental Int, Edu, Soc; Psi when the character has it) each with its
Characteristic Modifier (ChM = value / 3 - 2, rounded down), the skills with
their levels, the weapons (damage, Rate of Attack, the skill used) and armour
(AR), then HP (Str + Dex + End) with the damage at which each Injury Condition
begins under the table's threshold option, and the damage taken so far.
"""

from __future__ import annotations

from referee.systems.sheetview import Grid, Roll, Row, Section, SheetView, rolls, signed

from .checks import wound_penalty
from .health import condition, thresholds
from .options import Options
from .sheet import Sheet
from .tables import CHARACTERISTICS, OPTIONAL_CHARACTERISTICS, PHYSICAL

_NAMES = {
    "Str": "Strength",
    "Dex": "Dexterity",
    "End": "Endurance",
    "Int": "Intelligence",
    "Edu": "Education",
    "Soc": "Social Standing",
    "Psi": "Psionic Strength",
}


def _scaled(text: str, scale: str) -> str:
    return f"{text} ({scale}-scale)" if scale else text


def sheet_view(
    sheet: Sheet, seat: object | None, options: Options, state: object | None = None
) -> SheetView:
    """Characteristics with ChM, skills with levels, weapons and armour, HP and the
    Seriously / Critically Wounded thresholds (the table's ``hp_thresholds`` option),
    damage and condition. The sheet stores its damage, so ``seat`` adds nothing here."""
    names: list[str] = [
        c for c in (*CHARACTERISTICS, *OPTIONAL_CHARACTERISTICS) if c in sheet.characteristics
    ]
    names += [c for c in sheet.characteristics if c not in names]
    best = max(names, key=sheet.modifier) if names else "Str"  # first of the highest ChM
    chars = Grid(
        ("Characteristic", "Value", "ChM"),
        tuple(
            (
                f"{_NAMES.get(c, c)} ({c})",
                _current(sheet, c),
                signed(sheet.modifier(c)),
            )
            for c in names
        ),
        rolls=rolls("check", "characteristic", names),  # a check with its ChM
    )
    skills = Grid(
        ("Skill", "Level"),
        tuple((name, str(level)) for name, level in sheet.skills.items()),
        # a check with the skill, opened with the characteristic it adds to already chosen
        # so its odds show at once: the text leaves the relevant one to the referee (ch. 2,
        # Competence), so the page starts at the sheet's highest ChM, changed in the form
        rolls=tuple(
            Roll("check", (("skill", skill), ("characteristic", best))) for skill in sheet.skills
        ),
    )
    weapons = Grid(
        ("Weapon", "Damage", "Rate of Attack", "Skill"),
        tuple(
            (
                w.name,
                _scaled(w.damage, w.scale),
                str(w.rate_of_attack),
                w.skill or "-",
            )
            for w in sheet.weapons
        ),
        rolls=rolls(
            "attack", "weapon", (w.name for w in sheet.weapons), aims=True
        ),  # an attack with it
    )
    armour = Grid(
        ("Armour", "AR"),
        tuple((a.name, _scaled(str(a.rating), a.scale)) for a in sheet.armour),
    )
    shields = Grid(
        ("Cover or shield", "Protection", "AR", "Hits"),
        tuple(
            (
                p.name,
                str(p.protection),
                str(p.armour),
                f"{p.hp - p.damage} / {p.hp}" if p.hp else "-",
            )
            for p in sheet.protection
        ),
    )
    t = thresholds(sheet, options)
    state = "Dead" if sheet.dead else condition(sheet, options)
    health = Section(
        "Hit Points",
        (
            Row("HP", str(sheet.hp), " + ".join(PHYSICAL)),
            Row("Seriously Wounded at", str(t.seriously), "damage"),
            Row("Critically Wounded at", str(t.critically), "damage"),
            Row("Dying past", str(t.hp), "damage"),
            Row("Damage", str(sheet.damage)),
            Row("Condition", state),
            Row("Wound penalty", signed(wound_penalty(sheet.damage, options))),
            *((Row("Conditions", ", ".join(sheet.conditions)),) if sheet.conditions else ()),
            *((Row("Exhaustion", str(sheet.exhaustion)),) if sheet.exhaustion else ()),
        ),
    )
    sections = (
        Section("Characteristics", grid=chars),
        Section("Skills", grid=skills, note="" if sheet.skills else "none"),
        Section("Weapons", grid=weapons, note="" if sheet.weapons else "none"),
        Section("Armour", grid=armour, note="" if sheet.armour else "none"),
        Section("Protection", grid=shields) if sheet.protection else Section("Protection"),
        health,
    )
    return SheetView(
        sheet.name,
        sections,
        kind="adversary" if sheet.adversary else "",
        source="Mneme CE ch. 2, Core Mechanics (ChM, skills); ch. 7, Outcomes (armor, HP)",
    )


def _current(sheet: Sheet, name: str) -> str:
    """A characteristic's value now, with the value before damage when it was hurt."""
    now = sheet.characteristic(name)
    full = sheet.characteristics[name]
    return str(now) if now == full else f"{now} (of {full})"


__all__ = ["sheet_view"]
