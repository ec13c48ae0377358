"""The ARM character sheet as people read it (ARM 1.2, section 1: Stats, Situational
Modifiers, Movement Rates, Damage; section 2: Combat (Melee), whose example lists Alex,
Brad and Christine by stats, armour, weapon and mods).

An ARM sheet lists the six stats as log values, movement, the mods (signed ones
such as "+1 Swords", absolute ones such as "4 Large", special ones that open a
whole activity), the gear (each weapon's damage, attack and parry values, the
armour's wound and shock values) and the two damage tracks: the wound level
(Unharmed .. Dead) and the shock level (Unharmed .. Unconscious), with any named
wounds. Weapons and armour named from the setting show the setting's values.
"""

from __future__ import annotations

from referee.errors import RulesError
from referee.systems.sheetview import Grid, Row, Section, SheetView, rolls, signed

from .catalog import DEFAULT_SETTING
from .options import Options
from .sheet import Mod, Sheet, point_cost, resolve_armour, resolve_weapon
from .state import Seat, State


def _mod(m: Mod) -> tuple[str, str, str]:
    shown = signed(m.value) if m.kind == "signed" else str(m.value)
    return (m.name, shown, m.kind)


def sheet_view(
    sheet: Sheet, seat: object | None, options: Options, state: State | None = None
) -> SheetView:
    """Stats, movement, mods, gear, wounds and shock; with ``seat`` (a seated
    character) the levels the table tracks now, else the sheet's own; weapons and armour
    named from the table's setting (``state``: the referee's added weapons too), else the
    shipped one."""
    setting = DEFAULT_SETTING if state is None else state.setting
    stats = Section(
        "Stats",
        grid=Grid(
            ("Stat", "Value"),
            tuple((k, str(v)) for k, v in sheet.stats.items()),
            rolls=rolls("task", "stat", sheet.stats),  # a task with the stat
        ),
    )
    moves = Section(
        "Movement",
        grid=Grid(("Movement", "Value"), tuple((k, str(v)) for k, v in sheet.movement.items())),
    )
    mods = Section(
        "Mods",
        grid=Grid(("Mod", "Value", "Kind"), tuple(_mod(m) for m in sheet.mods)),
        note="" if sheet.mods else "none",
    )
    weapons: list[tuple[str, str, str, str, str]] = []
    for entry in sheet.weapons:
        missile = setting.ranged_weapon(entry.name)
        if missile is not None and entry.damage is None and setting.weapon(entry.name) is None:
            how = "aimed" if missile.aimed else "thrown"
            reach = "" if missile.max_range is None else f", range {missile.max_range}"
            note = f"{how}, accuracy {signed(missile.accuracy)}{reach}: shoot with it"
            weapons.append((missile.name, f"{missile.damage}D", "-", "-", note))
            continue
        try:
            w = resolve_weapon(entry, setting)
        except RulesError:
            weapons.append((entry.name, "?", "?", "?", "not in the setting"))
            continue
        extra = ", ".join(
            t for t, on in (("stuns", w.stun), ("no strength bonus", not w.strength)) if on
        )
        weapons.append(
            (w.name, f"{w.damage}D", f"{signed(w.attack)}A", f"{signed(w.parry)}P", extra)
        )
    armour_rows: tuple[tuple[str, str, str], ...] = ()
    if sheet.armour is not None:
        try:
            a = resolve_armour(sheet.armour, setting)
            armour_rows = ((a.name, str(a.wound), str(a.shock)),)
        except RulesError:
            armour_rows = ((sheet.armour.name, "?", "?"),)
    columns: tuple[str, ...] = ("Weapon", "Damage", "Attack", "Parry", "Notes")
    cells: tuple[tuple[str, ...], ...] = tuple(weapons)
    if not any(w[4] for w in weapons):  # no weapon stuns or goes without strength
        columns, cells = columns[:4], tuple(w[:4] for w in weapons)
    # a weapon attacks in melee (a missile weapon's shot is the shoot action: its range)
    gear = Section(
        "Gear",
        grid=Grid(
            columns, cells, rolls=rolls("attack", "weapon", (w[0] for w in weapons), aims=True)
        ),
        note="" if weapons else "no weapon",
    )
    armour = Section(
        "Armour",
        grid=Grid(("Armour", "Wound armour", "Shock armour"), armour_rows),
        note="" if armour_rows else "none",
    )
    condition = seat.condition if isinstance(seat, Seat) else sheet.condition
    damage_rows = [Row(label, value) for label, value in condition.rows()]
    costs = point_cost(sheet, setting)
    points = Section(
        "Character points",
        (
            Row("Stats", str(costs["stats"])),
            Row("Movement", str(costs["movement"])),
            Row("Mods", str(costs["mods"])),
            Row("Total", str(costs["total"])),
        ),
    )
    return SheetView(
        sheet.name,
        (
            stats,
            moves if sheet.movement else Section("Movement"),
            mods,
            gear,
            armour,
            Section("Wounds and shock", tuple(damage_rows)),
            points,
        ),
        kind=f"{sheet.race}, {sheet.kind}",
        source="ARM 1.2: Stats; Situational Modifiers; Movement Rates; Damage; Combat (Melee)",
        notes=(sheet.notes,) if sheet.notes else (),
    )


__all__ = ["sheet_view"]
