"""Mnemonic's builder form: legal sheets, and the creation policies' raises budget
("creation considerations": a common starting level, raises paid by drops, or a few
free raises first - the text's example is three)."""

from __future__ import annotations

from typing import Any

from referee.systems import building
from referee.systems.base import get
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.sheet import validate

TALENTS = ("Agile", "Dangerous", "Disciplined", "Handy", "Influential", "Smart", "Tough")


def _answers(*ratings: int, **more: Any) -> dict[str, Any]:
    return {
        "name": "Nell",
        "primary_role": "human, female, 28",
        "talent_list": "standard",
        **{f"talent.standard.{t}": v for t, v in zip(TALENTS, ratings, strict=True)},
        "life_roles": [{"role": "Sailor", "rating": 4}],
        **more,
    }


def test_the_form_makes_a_sheet_that_validates() -> None:
    checked = building.check(get("mnemonic"), _answers(4, 2, 3, 3, 3, 5, 3), Options())
    assert checked.legal and checked.budgets == ()  # the default policy is free
    sheet = get("mnemonic").load_sheet(checked.sheet)
    assert validate(sheet, Options()) == ()
    assert sheet.life_roles == {"Sailor": 4} and sheet.talents["Smart"] == 5


def test_trade_refuses_one_raise_not_paid_for() -> None:
    """Trade: every Talent starts at Moderately (+3); a raise needs a drop."""
    trade = Options(creation="trade")
    paid = building.check(get("mnemonic"), _answers(4, 2, 3, 3, 3, 3, 3), trade)
    assert paid.legal and paid.budgets[0].spent == 0
    unpaid = building.check(get("mnemonic"), _answers(4, 3, 3, 3, 3, 3, 3), trade)
    assert not unpaid.legal
    (budget,) = unpaid.budgets
    assert (budget.spent, budget.total, budget.left) == (1, 0, -1)
    assert any(
        p.field == "talent.standard.Agile" and "1 over (1 spent of 0)" in p.message
        for p in unpaid.problems
    )


def test_three_free_raises_and_not_a_fourth() -> None:
    """Free raises: the text's example lets the first three raises cost nothing."""
    free = Options(creation="free-raises", free_raises=3)
    three = building.check(get("mnemonic"), _answers(4, 4, 4, 3, 3, 3, 3), free)
    assert three.legal and three.budgets[0].left == 0
    four = building.check(get("mnemonic"), _answers(4, 4, 4, 4, 3, 3, 3), free)
    assert not four.legal and four.budgets[0].left == -1


def test_ratings_run_from_not_at_all_to_extremely() -> None:
    checked = building.check(get("mnemonic"), _answers(7, 2, 3, 3, 3, 5, 3), Options())
    assert [p.field for p in checked.problems] == ["talent.standard.Agile"]
    spec = get("mnemonic").builder().spec(Options())  # type: ignore[union-attr]
    agile = spec.fields()["talent.standard.Agile"]
    labels = [c.label for c in agile.choices]
    assert (labels[0], labels[-1]) == ("Not At All (+0)", "Extremely (+6)")


def test_a_frigate_uses_its_own_talent_list() -> None:
    answers = {
        "name": "Swiftsure",
        "primary_role": "18th-century frigate",
        "talent_list": "frigate",
        **{f"talent.frigate.{t}": 4 for t in ("Fast", "Maneuverable", "Sturdy", "Well-Armed")},
    }
    checked = building.check(get("mnemonic"), answers, Options())
    assert checked.legal and checked.sheet is not None
    assert checked.sheet["talents"] == dict.fromkeys(
        ("Fast", "Maneuverable", "Sturdy", "Well-Armed"), 4
    )
