"""Mongrel's sheet laid out as the text's examples of character creation (present.py)."""

from __future__ import annotations

from referee.systems.mongrel.ruleset import RULESET
from referee.systems.mongrel.state import seat_of
from referee.systems.sheetview import SheetView

OPTS = RULESET.load_options({})


def _view(cid: str) -> SheetView:
    return RULESET.sheet_view(RULESET.examples()[cid], None, OPTS)


def test_alwia_reads_as_the_texts_example() -> None:
    view = _view("alwia")
    assert view.name == "Alwia" and view.kind == "Demon, House Mekag"
    assert [s.title for s in view.sections] == [
        "Character",
        "Identity",
        "Attributes",
        "Expertise",
        "Powers",
        "Derived scores",
        "Credit",
    ]
    assert view.section("Character").values() == {
        "House": "Mekag",
        "Sex": "female",
        "Age": "young",
        "Form": "human",
        "Also called": "Ahvia",
    }
    assert view.section("Identity").values() == {"Man": "2", "Beast": "0", "Demon": "4"}
    assert view.section("Identity").rows[2].note == "primary"
    # the three pairs, each summing to 8 (Spirit 6, Size 2, Beauty 5, Physique 3, Speed 6,
    # Social 2)
    assert view.section("Attributes").table() == {
        "Size 2": ("Spirit 6", "8"),
        "Physique 3": ("Beauty 5", "8"),
        "Speed 6": ("Social 2", "8"),
    }
    expertise = view.section("Expertise").table()
    assert expertise["Know"] == ("4", "Sorcery", "Awareness")
    assert expertise["Lie"] == ("4", "Sorcery", "Charisma")
    assert expertise["Diabolic Power"] == ("3", "Sorcery", "Power")
    assert expertise["Athletics"] == ("2", "Bestial", "Violence")
    assert expertise["Missile"] == ("1", "Tech", "Awareness")
    assert len(expertise) == 17
    # the primary Identity's category comes first
    grid = view.section("Expertise").grid
    assert grid is not None and grid.rows[0][2] == "Sorcery"
    assert view.section("Powers").table() == {"Wings": ("2",), "Inhuman Face": ("1",)}
    assert view.section("Derived scores").values() == {
        "Action Points": "6",
        "Wound Threshold": "5",
        "Terminal damage at": "9",
        "Infernal Resolve": "6",
    }
    credit = view.section("Credit").table()
    assert credit["Mekag (own House)"] == ("2",) and credit["Nuin"] == ("1",)


def test_a_seated_fighter_shows_what_is_left() -> None:
    sheet = RULESET.examples()["vooruk"]
    seat = seat_of(sheet)
    from dataclasses import replace

    view = RULESET.sheet_view(sheet, replace(seat, ap=1, ir=2), OPTS)
    rows = view.section("Derived scores").values()
    assert rows["Action Points"] == "1 / 3" and rows["Infernal Resolve"] == "2 / 3"
    assert view.section("Expertise").table()["Rend"] == ("6", "Bestial", "Violence")


def test_the_view_is_json_for_people() -> None:
    data = _view("giazza").data()
    assert data["name"] == "Giazza" and data["source"] == "Mongrel, Character Creation"
    text = str(data)
    assert "_" not in text.replace("Aggak-Ko", "")  # no field names
