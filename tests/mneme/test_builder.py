"""Mneme CE's builder form: legal sheets within the usual ranges. The seeds hold no
creation chapter and so no point budget: the limits are the ranges (characteristics
2-15, skills 0-3), and HP = Str + Dex + End is shown as it follows (ch. 7)."""

from __future__ import annotations

from typing import Any

from referee.systems import building
from referee.systems.base import get
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import validate

CHARS = ("Str", "Dex", "End", "Int", "Edu", "Soc")


def _answers(**more: Any) -> dict[str, Any]:
    return {
        "name": "Ola",
        **{f"char.{c}": v for c, v in zip(CHARS, (7, 9, 8, 10, 8, 6), strict=True)},
        "skills": [{"skill": "Gun Combat", "level": 1}, {"skill": "Melee", "level": 0}],
        "weapons": [{"name": "Automatic Rifle", "damage": "3d6-2", "rate_of_attack": 4}],
        "armour": [{"name": "Flak Jacket", "rating": 4}],
        **more,
    }


def test_the_form_makes_a_sheet_that_validates() -> None:
    checked = building.check(get("mneme"), _answers(), Options())
    assert checked.legal
    sheet = get("mneme").load_sheet(checked.sheet)
    assert validate(sheet, Options()) == ()
    assert sheet.hp == 24 and sheet.skills == {"Gun Combat": 1, "Melee": 0}
    (hp,) = checked.budgets
    assert hp.tally and hp.total == 24 and hp.problem() is None


def test_characteristics_stay_in_their_usual_range() -> None:
    for value in (1, 16):
        checked = building.check(get("mneme"), _answers(**{"char.Str": value}), Options())
        assert [p.field for p in checked.problems] == ["char.Str"]
        assert "from 2 to 15" in checked.problems[0].message
    edge = building.check(get("mneme"), _answers(**{"char.Str": 15, "char.Dex": 2}), Options())
    assert edge.legal and edge.budgets[0].total == 15 + 2 + 8


def test_a_skill_level_past_three_and_a_bad_damage_are_named() -> None:
    checked = building.check(
        get("mneme"),
        _answers(
            skills=[{"skill": "Medic", "level": 4}],
            weapons=[{"name": "Club", "damage": "three dice", "rate_of_attack": 1}],
        ),
        Options(),
    )
    fields = sorted(p.field for p in checked.problems)
    assert fields == ["skills.0.level", "weapons"]  # the validator's weapons.0.damage
    assert not checked.legal
