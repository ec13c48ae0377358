"""ARM's builder form (ARM 1.2, Character Creation): the chp budget at the text's
example costs (Fitness and Wit 10 chp a level, the other stats 5) and the human
limits (stats 3 to 9)."""

from __future__ import annotations

from typing import Any

from referee.systems import building
from referee.systems.arm.options import Options
from referee.systems.arm.sheet import validate
from referee.systems.base import get

STATS = ("Fitness", "Dexterity", "Toughness", "Wit", "Charisma", "Willpower")


def _alex(**more: Any) -> dict[str, Any]:
    """Alex of the melee example: 6/7/5/7/8/6 and +1 Swords."""
    return {
        "name": "Alex",
        "race": "human",
        "chp": 263,
        **{f"stat.{s}": v for s, v in zip(STATS, (6, 7, 5, 7, 8, 6), strict=True)},
        "mods": [{"name": "Swords", "value": 1, "kind": "signed"}],
        "weapons": [{"name": "Sword", "damage": 6, "attack": 0, "parry": -1}],
        "armour": "Chain",
        **more,
    }


def test_the_form_makes_a_sheet_that_validates() -> None:
    checked = building.check(get("arm"), _alex(), Options())
    assert checked.legal
    sheet = get("arm").load_sheet(checked.sheet)
    assert validate(sheet, Options()) == ()
    (chp,) = checked.budgets
    # 6 x 10 + 7 x 5 + 5 x 5 + 7 x 10 + 8 x 5 + 6 x 5 + 1 x 3 (a signed mod, 3 a level)
    assert chp.spent == 60 + 35 + 25 + 70 + 40 + 30 + 3 == 263 and chp.left == 0


def test_one_chp_over_is_refused() -> None:
    checked = building.check(get("arm"), _alex(chp=262), Options())
    assert not checked.legal
    assert [p.field for p in checked.problems] == ["chp"]  # said once, by the budget
    assert "1 over (263 spent of 262)" in checked.problems[0].message


def test_an_average_human_spends_the_starting_chp() -> None:
    answers = {"name": "Avery", "race": "human", "chp": 240}
    answers |= {f"stat.{s}": 6 for s in STATS}
    assert building.check(get("arm"), answers, Options()).legal
    answers["stat.Wit"] = 7  # Wit costs 10 a level
    checked = building.check(get("arm"), answers, Options())
    assert checked.budgets[0].left == -10 and not checked.legal
    answers["stat.Charisma"] = 4  # two levels of Charisma pay for it
    assert building.check(get("arm"), answers, Options()).legal


def test_human_limits_and_special_mods() -> None:
    checked = building.check(get("arm"), _alex(**{"stat.Fitness": 10, "chp": 400}), Options())
    assert [p.field for p in checked.problems] == ["stat.Fitness"]
    mods = [{"name": "Magically Able", "value": -11, "kind": "special"}]
    checked = building.check(get("arm"), _alex(mods=mods, chp=400), Options())
    assert any(p.field == "mods" and "start at -10" in p.message for p in checked.problems)
