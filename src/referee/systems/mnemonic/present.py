"""The Mnemonic character sheet as people read it (Referee's Guide p. 1, "unusual primary
roles" and "determining aptitude"; the Player's Guide facts on ratings and Status).

A Mnemonic character is its Primary Role (what it is: a person, an animal, a
frigate), its Talents (the "hardware", rated +0..+6 by level name) and its Life
Roles (what it has learned to do, rated the same way), and its health Status.
Aptitude is one Talent plus one Life Role, so the sheet shows each rating both as
the level's name and as its number.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.systems.sheetview import Grid, Row, Section, SheetView, rolls, signed

from .options import Options
from .sheet import Sheet


def _ratings(ratings: Mapping[str, int], options: Options, heading: str, field: str) -> Grid:
    # each rating rolls a Success Check with it (sheet-check's talent or life_role)
    return Grid(
        (heading, "Rating", "Value"),
        tuple((name, options.rating_name(v), signed(v)) for name, v in ratings.items()),
        rolls=rolls("sheet-check", field, ratings),
    )


def sheet_view(
    sheet: Sheet, seat: object | None, options: Options, state: object | None = None
) -> SheetView:
    """The Primary Role (with the ratings it stands in for a Life Role at under the
    table's options), the Talents and the Life Roles with their ratings (named levels
    under the table's ``rating_names`` and their values), and the Status: the Status the
    table tracks when ``seat`` is given, else the sheet's."""
    status = getattr(seat, "status", None) or sheet.status
    listed = "the table's standard list" if sheet.talent_list == "standard" else sheet.talent_list
    fits, not_fits = options.primary_relevant, options.primary_irrelevant
    primary = Section(
        "Primary Role",
        (Row("What it is", sheet.primary_role),),
        note=f"Stands in for a Life Role at {options.rating_name(fits)} ({signed(fits)}) "
        f"where it fits the task, {options.rating_name(not_fits)} ({signed(not_fits)}) "
        "where it does not",
    )
    talents = Section(
        "Talents", grid=_ratings(sheet.talents, options, "Talent", "talent"), note=f"From {listed}"
    )
    roles = Section(
        "Life Roles",
        grid=_ratings(sheet.life_roles, options, "Life Role", "life_role"),
        note="" if sheet.life_roles else "none",
    )
    health = Section(
        "Status",
        (Row("Status", str(status)), Row("Injuries", str(status.injuries))),
    )
    return SheetView(
        sheet.name,
        (primary, talents, roles, health),
        kind="",  # the Primary Role is the sheet's first box
        source="Mnemonic, Referee's Guide: unusual primary roles; determining aptitude",
        notes=(sheet.notes,) if sheet.notes else (),
    )


__all__ = ["sheet_view"]
