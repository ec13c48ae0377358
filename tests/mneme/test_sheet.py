"""The Mneme CE sheet: load/save, derived values, validation naming every problem."""

from __future__ import annotations

from fractions import Fraction

import pytest

from referee.errors import InvalidSheet
from referee.systems.base import dump_record, load_record
from referee.systems.mneme import RULESET
from referee.systems.mneme import RULESET as MNEME
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet, characteristic_modifier

OPT = Options()


def test_characteristic_modifier() -> None:
    values = range(0, 18)
    expected = [-2] * 3 + [-1] * 3 + [0] * 3 + [1] * 3 + [2] * 3 + [3] * 3
    assert [characteristic_modifier(v) for v in values] == expected


def test_example_round_trips_and_is_valid() -> None:
    sheet = load_record(Sheet, MNEME.example_data("ada"))
    assert RULESET.validate(sheet, OPT) == ()
    again = load_record(Sheet, dump_record(sheet))
    assert again == sheet
    assert sheet.hp == 24


def test_competence_and_unskilled() -> None:
    sheet = load_record(Sheet, MNEME.example_data("ada"))
    assert sheet.competence("Dex", "Gun Combat", OPT) == 2
    assert sheet.competence("Dex", "Pilot", OPT) == 1 - 3
    assert sheet.competence("int", None, OPT) == 1


def test_validation_reports_every_problem() -> None:
    data = MNEME.example_data("ada")
    data["characteristics"] = {"Str": -1, "Dex": 9, "End": 8, "Int": 10, "Edu": 8, "Luck": 3}
    data["skills"] = {"Medic": -1}
    data["damage"] = -2
    data["conditions"] = ["Bleeding", "Sleepy"]
    data["weapons"] = [{"name": "X", "damage": "3d", "rate_of_attack": 0, "scale": "Q"}]
    data["armour"] = [{"name": "A", "rating": -1}]
    data["healing_progress"] = "3/2"
    sheet = load_record(Sheet, data)
    problems = RULESET.validate(sheet, OPT)
    fields = {p.field for p in problems}
    assert {
        "characteristics.Soc",
        "characteristics.Str",
        "characteristics.Luck",
        "skills.Medic",
        "damage",
        "conditions.1",
        "weapons.0.damage",
        "weapons.0.rate_of_attack",
        "weapons.0.scale",
        "armour.0.rating",
        "healing_progress",
    } <= fields
    assert all(p.rule.startswith("Mneme CE:") for p in problems)


def test_load_reports_wrong_types_with_paths() -> None:
    data = MNEME.example_data("ada")
    data["damage"] = "lots"
    data["extra"] = 1
    with pytest.raises(InvalidSheet) as e:
        load_record(Sheet, data)
    fields = {p.field for p in e.value.problems}
    assert "damage" in fields and "extra" in fields


def test_healing_progress_is_saved_exactly() -> None:
    sheet = load_record(Sheet, {**MNEME.example_data("ada"), "healing_progress": "1/3"})
    assert sheet.healing_progress == Fraction(1, 3)
    assert dump_record(sheet)["healing_progress"] == "1/3"
