"""Mneme CE's sheet: characteristics with ChM, skills, weapons, armour, HP (present.py)."""

from __future__ import annotations

from dataclasses import replace

from referee.systems.mneme.ruleset import RULESET
from referee.systems.sheetview import SheetView

OPTS = RULESET.load_options({})


def _grid(view: SheetView, title: str) -> dict[str, tuple[str, ...]]:
    grid = view.section(title).grid
    assert grid is not None
    return {row[0]: row[1:] for row in grid.rows}


def _rows(view: SheetView, title: str) -> dict[str, str]:
    return {r.label: r.value for r in view.section(title).rows}


def test_ada_reads_as_a_mneme_sheet() -> None:
    view = RULESET.sheet_view(RULESET.examples()["ada"], None, OPTS)
    assert view.name == "Ada Vance"
    # Str 7 Dex 9 End 8 Int 10 Edu 8 Soc 6; ChM = value // 3 - 2
    assert _grid(view, "Characteristics") == {
        "Strength (Str)": ("7", "+0"),
        "Dexterity (Dex)": ("9", "+1"),
        "Endurance (End)": ("8", "+0"),
        "Intelligence (Int)": ("10", "+1"),
        "Education (Edu)": ("8", "+0"),
        "Social Standing (Soc)": ("6", "+0"),
    }
    assert _grid(view, "Skills") == {
        "Gun Combat": ("1",),
        "Melee": ("0",),
        "Medic": ("1",),
        "Recon": ("1",),
        "Athletics": ("0",),
    }
    weapons = _grid(view, "Weapons")
    assert weapons["Automatic Rifle"] == ("3d6-2", "4", "-")
    assert weapons["Broadsword"] == ("3d3-2", "2", "Melee")
    assert _grid(view, "Armour") == {"Flak Jacket": ("4",)}
    assert _grid(view, "Protection") == {"Shield": ("2", "2", "10 / 10")}
    hp = _rows(view, "Hit Points")
    assert hp["HP"] == "24"  # 7 + 9 + 8
    assert hp["Seriously Wounded at"] == "8" and hp["Critically Wounded at"] == "16"
    assert hp["Damage"] == "0" and hp["Condition"] == "Unhurt"


def test_damage_and_the_threshold_option_show() -> None:
    ada = replace(RULESET.examples()["ada"], damage=10, characteristic_damage={"Str": 2})
    view = RULESET.sheet_view(ada, None, RULESET.load_options({"hp_thresholds": "table"}))
    assert _grid(view, "Characteristics")["Strength (Str)"] == ("5 (of 7)", "-1")
    hp = _rows(view, "Hit Points")
    # the HP threshold table: the best physical characteristic (Dex 9) and twice it
    assert hp["HP"] == "24" and hp["Seriously Wounded at"] == "9"
    assert hp["Critically Wounded at"] == "18" and hp["Damage"] == "10"
    assert hp["Condition"] == "Seriously Wounded" and hp["Wound penalty"] == "-3"
