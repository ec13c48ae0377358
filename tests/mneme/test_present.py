"""Mneme CE's sheet: characteristics with ChM, skills, weapons, armour, HP (present.py)."""

from __future__ import annotations

from dataclasses import replace

from referee.systems.mneme.ruleset import RULESET

OPTS = RULESET.load_options({})


def test_ada_reads_as_a_mneme_sheet() -> None:
    view = RULESET.sheet_view(RULESET.examples()["ada"], None, OPTS)
    assert view.name == "Ada Vance"
    # Str 7 Dex 9 End 8 Int 10 Edu 8 Soc 6; ChM = value // 3 - 2
    assert view.section("Characteristics").table() == {
        "Strength (Str)": ("7", "+0"),
        "Dexterity (Dex)": ("9", "+1"),
        "Endurance (End)": ("8", "+0"),
        "Intelligence (Int)": ("10", "+1"),
        "Education (Edu)": ("8", "+0"),
        "Social Standing (Soc)": ("6", "+0"),
    }
    assert view.section("Skills").table() == {
        "Gun Combat": ("1",),
        "Melee": ("0",),
        "Medic": ("1",),
        "Recon": ("1",),
        "Athletics": ("0",),
    }
    weapons = view.section("Weapons").table()
    assert weapons["Automatic Rifle"] == ("3d6-2", "4", "-")
    assert weapons["Broadsword"] == ("3d3-2", "2", "Melee")
    assert view.section("Armour").table() == {"Flak Jacket": ("4",)}
    assert view.section("Protection").table() == {"Shield": ("2", "2", "10 / 10")}
    hp = view.section("Hit Points").values()
    assert hp["HP"] == "24"  # 7 + 9 + 8
    assert hp["Seriously Wounded at"] == "8" and hp["Critically Wounded at"] == "16"
    assert hp["Damage"] == "0" and hp["Condition"] == "Unhurt"


def test_damage_and_the_threshold_option_show() -> None:
    ada = replace(RULESET.examples()["ada"], damage=10, characteristic_damage={"Str": 2})
    view = RULESET.sheet_view(ada, None, RULESET.load_options({"hp_thresholds": "table"}))
    assert view.section("Characteristics").table()["Strength (Str)"] == ("5 (of 7)", "-1")
    hp = view.section("Hit Points").values()
    # the HP threshold table: the best physical characteristic (Dex 9) and twice it
    assert hp["HP"] == "24" and hp["Seriously Wounded at"] == "9"
    assert hp["Critically Wounded at"] == "18" and hp["Damage"] == "10"
    assert hp["Condition"] == "Seriously Wounded" and hp["Wound penalty"] == "-3"
