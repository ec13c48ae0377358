"""The Mongrel character sheet as people read it (Mongrel, Character Creation).

The layout follows the text's creation chapter and its worked examples
("Alwia of House Mekag"...): who the character is (House, sex, age, form, Vow),
Identity (Man, Beast, Demon and the primary), the six attributes in their three
pairs that each sum to 8, Expertise by category (Sorcery, Tech, Bestial) with
levels and Areas, the Powers the Power Expertise is spread over, the derived
scores (Action Points, Wound Threshold, Infernal Resolve) and Credit with each
House (Character wealth and social status). Values are the sheet's as they are
now (creation plus character points, less voluntary lowering).
"""

from __future__ import annotations

from referee.systems.sheetview import Grid, Roll, Row, Section, SheetView, rolls

from .options import Options
from .sheet import (
    Sheet,
    action_points,
    attribute,
    credit,
    expertise_now,
    identity_now,
    infernal_resolve,
    terminal_damage,
    wound_threshold,
)
from .state import Seat
from .tables import AREAS, CATEGORY, EXPERTISE, IDENTITIES, PAIRS


def sheet_view(
    sheet: Sheet, seat: object | None, options: Options, state: object | None = None
) -> SheetView:
    """Alwia's, Vooruk's or any Mongrel sheet laid out as the text's examples of
    character creation list it (see the module text). ``seat`` (a :class:`Seat`)
    adds the Action Points and Resolve the table tracks now beside their maximums."""
    ident = identity_now(sheet)
    primary = sheet.identity.primary
    who = [
        Row("House", sheet.house),
        Row("Sex", sheet.sex),
        Row("Age", sheet.age),
    ]
    if sheet.form:
        who.append(Row("Form", sheet.form))
    if sheet.vow:
        who.append(Row("Vow", sheet.vow))
    if sheet.aliases:
        who.append(Row("Also called", ", ".join(sheet.aliases)))
    identity = Section(
        "Identity",
        tuple(
            Row(
                name.title(),
                str(ident.score(name)),
                "primary" if name == primary else "",
            )
            for name in IDENTITIES
        ),
        note=f"Primary: {primary.title()} ({CATEGORY[primary]} Expertise)",
    )
    pairs = Section(
        "Attributes",
        grid=Grid(
            ("First", "Second", "Sum"),
            tuple(
                (
                    f"{a.title()} {attribute(sheet, a)}{_changed(sheet, a)}",
                    f"{b.title()} {attribute(sheet, b)}{_changed(sheet, b)}",
                    str(attribute(sheet, a) + attribute(sheet, b)),
                )
                for a, b in PAIRS
            ),
            # each attribute a task rolls with (the Expertise chosen in the form)
            cell_rolls=tuple(
                (i, j, Roll("task", (("attribute", name),)))
                for i, pair in enumerate(PAIRS)
                for j, name in enumerate(pair)
            ),
        ),
        note="Each pair sums to 8",
    )
    levels = expertise_now(sheet)
    rows: list[tuple[str, ...]] = []
    order = (primary, *(i for i in ("demon", "man", "beast") if i != primary))
    for category_of in order:
        for name, level in levels.items():
            governing, area = EXPERTISE.get(name, (None, None))
            if governing == category_of:
                rows.append(
                    (name, str(level), CATEGORY[category_of], AREAS[area] if area else "Power")
                )
    rows += [
        (name, str(level), "other", "-")
        for name, level in levels.items()
        if EXPERTISE.get(name, (None, None))[0] is None
    ]
    expertise = Section(
        "Expertise",
        grid=Grid(
            ("Expertise", "Level", "Category", "Area"),
            tuple(rows),
            # a task with it; Occult is worked as sorcery (the occult action, ch. Sorcery)
            rolls=tuple(
                Roll("occult", ()) if r[0] == "Occult" else Roll("task", (("expertise", r[0]),))
                for r in rows
            ),
        ),
    )
    powers = Section(
        "Powers",
        grid=Grid(
            ("Power", "Points"),
            tuple((n, str(v)) for n, v in sheet.powers.items()),
            rolls=rolls("task", "power", sheet.powers),  # its points add dice to the task
        ),
        note="" if sheet.powers else "none",
    )
    fighter = seat if isinstance(seat, Seat) else None
    ap, ir = action_points(sheet), infernal_resolve(sheet)
    derived = Section(
        "Derived scores",
        (
            Row("Action Points", f"{fighter.ap} / {ap}" if fighter else str(ap), "= Speed"),
            Row("Wound Threshold", str(wound_threshold(sheet)), "Size + Physique"),
            Row("Terminal damage at", str(terminal_damage(sheet)), "3 × Size + Physique"),
            Row("Infernal Resolve", f"{fighter.ir} / {ir}" if fighter else str(ir), "= Spirit"),
        ),
    )
    accounts = credit(sheet)
    wealth = Section(
        "Credit",
        grid=Grid(
            ("House", "Credit"),
            tuple(
                (f"{house} (own House)" if house == sheet.house else house, str(value))
                for house, value in accounts.items()
            ),
        ),
        note=f"{sheet.character_points} character points unspent" if sheet.character_points else "",
    )
    notes = (sheet.notes,) if sheet.notes else ()
    return SheetView(
        sheet.name,
        (Section("Character", tuple(who)), identity, pairs, expertise, powers, derived, wealth),
        kind=f"{primary.title()}, House {sheet.house}",
        source="Mongrel, Character Creation",
        notes=notes,
    )


def _changed(sheet: Sheet, name: str) -> str:
    """`` (chosen 5, lowered 1)`` when an attribute differs from its creation value."""
    down, up = sheet.lowered.get(name, 0), sheet.raised.get(name, 0)
    if not down and not up:
        return ""
    parts = [f"chosen {sheet.attributes.get(name)}"]
    if down:
        parts.append(f"lowered {down}")
    if up:
        parts.append(f"raised {up}")
    return f" ({', '.join(parts)})"


__all__ = ["sheet_view"]
