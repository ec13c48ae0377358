"""Mnemonic's sheet laid out with its Primary Role, Talents and Life Roles (present.py)."""

from __future__ import annotations

from referee.systems.mnemonic.ruleset import RULESET, State
from referee.systems.mnemonic.sheet import Status

OPTS = RULESET.load_options({})


def test_the_boxer_reads_with_his_ratings() -> None:
    view = RULESET.sheet_view(RULESET.examples()["boxer"], None, OPTS)
    assert view.name == "Mickey Ruane"
    assert [s.title for s in view.sections] == ["Primary Role", "Talents", "Life Roles", "Status"]
    primary = view.section("Primary Role")
    assert primary.rows[0].value == "human, male, 34, broken nose"
    assert primary.note == (
        "Stands in for a Life Role at Moderately (+3) where it fits the task, "
        "Not At All (+0) where it does not"
    )
    talents = view.section("Talents").table()
    assert talents["Tough"] == ("Very", "+5")
    assert talents["Agile"] == ("Fairly", "+4")
    assert talents["Handy"] == ("Somewhat", "+2")
    assert len(talents) == 7
    assert view.section("Life Roles").table() == {
        "Professional Boxer": ("Very", "+5"),
        "Dock Worker": ("Moderately", "+3"),
    }


def test_the_frigate_and_a_seated_status() -> None:
    sheet = RULESET.examples()["frigate"]
    state = RULESET.seat(State(), "frigate", sheet, OPTS)
    seat = state.characters["frigate"]
    from dataclasses import replace

    hurt = replace(seat, status=Status("Hurt", None, 1))
    view = RULESET.sheet_view(sheet, hurt, OPTS)
    assert view.section("Talents").table()["Well-Armed"] == ("Fairly", "+4")
    assert view.section("Life Roles").table()["Sailors"] == ("Very", "+5")
    rows = {r.label: r.value for r in view.section("Status").rows}
    assert rows == {"Status": "Hurt", "Injuries": "1"}
    assert view.section("Talents").note == "From frigate"


def test_renamed_rating_levels_are_used() -> None:
    names = ("Zero", "One", "Two", "Three", "Four", "Five", "Six")
    opts = RULESET.load_options({"rating_names": list(names)})
    view = RULESET.sheet_view(RULESET.examples()["boxer"], None, opts)
    assert view.section("Talents").table()["Tough"] == ("Five", "+5")
