"""ARM's sheet: stats, mods, gear, wounds and shock (present.py)."""

from __future__ import annotations

from pathlib import Path

from referee.systems.arm.ruleset import RULESET
from referee.systems.arm.state import Seat

OPTS = RULESET.load_options({})


def test_alex_reads_as_an_arm_sheet() -> None:
    view = RULESET.sheet_view(RULESET.examples()["alex"], None, OPTS)
    assert view.name == "Alex" and view.kind == "human, premade"
    assert view.section("Stats").table() == {
        "Fitness": ("6",),
        "Dexterity": ("7",),
        "Toughness": ("5",),
        "Wit": ("7",),
        "Charisma": ("8",),
        "Willpower": ("6",),
    }
    assert view.section("Mods").table() == {"Swords": ("+1", "signed")}
    # "Sword (6D/0A/-1P)"
    assert view.section("Gear").table() == {"Sword": ("6D", "+0A", "-1P")}
    assert view.section("Armour").table() == {"Chain": ("4", "2")}
    assert view.section("Wounds and shock").values() == {
        "Wound": "Unharmed (0)",
        "Shock": "Unharmed (0)",
    }


def test_a_seated_character_shows_the_tracked_levels() -> None:
    sheet = RULESET.examples()["christine"]
    hurt = Seat(sheet, wound=1, shock=3)
    view = RULESET.sheet_view(sheet, hurt, OPTS)
    assert view.section("Wounds and shock").values() == {
        "Wound": "Light (1)",
        "Shock": "Reeling (3)",
    }
    assert view.section("Gear").table()["Rapier"] == ("4D", "+1A", "+1P")
    assert view.section("Armour").table() == {"Leather": ("2", "0")}
    assert view.section("Mods").table() == {"Rapiers": ("+2", "signed")}


def test_a_stunning_weapon_is_noted() -> None:
    from dataclasses import replace

    from referee.systems.arm.sheet import WeaponEntry

    alex = RULESET.examples()["alex"]
    armed = replace(alex, weapons=(*alex.weapons, WeaponEntry("Club (50cm)")))
    grid = RULESET.sheet_view(armed, None, OPTS).section("Gear").table()
    assert grid["Sword"] == ("6D", "+0A", "-1P", "")
    assert grid["Club (50cm)"] == ("3D", "+0A", "+0P", "stuns")


def test_a_weapon_the_referee_added_to_the_table_reads_with_its_values(tmp_path: Path) -> None:
    """A weapon carried by name alone is looked up in the table's own setting, where the
    referee's additions are (add-weapon), not only in the text's examples: the card shows
    its values, not '?' (a sheet outside a table still reads against the examples)."""
    from dataclasses import replace

    from referee.systems.arm.sheet import WeaponEntry
    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.web.views import seats

    service = TableService(Store(f"sqlite:///{tmp_path / 'w.db'}"))
    tid = service.create("arm", "Spears", "Ron").table.id
    alex = RULESET.examples()["alex"]
    spear = replace(alex, weapons=(*alex.weapons, WeaponEntry("Boar spear")))
    service.add_character(tid, RULESET.dump_sheet(spear), cid="alex", force=True)
    alone = RULESET.sheet_view(spear, None, OPTS).section("Gear").table()
    assert alone["Boar spear"][:3] == ("?", "?", "?")
    service.act(tid, "Ron", "add-weapon", {"name": "Boar spear", "damage": 5, "kind": "melee"})
    (seat,) = seats(service.load(tid))
    assert seat.view is not None
    gear = {row[0]: row[1:] for row in seat.view.section("Gear").grid.rows}  # type: ignore[union-attr]
    assert gear["Boar spear"][:3] == ("5D", "+0A", "+0P")
