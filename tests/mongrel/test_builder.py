"""The builder offers only legal choices: every path through it validates."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import IllegalAction
from referee.systems.mongrel.builder import Builder
from referee.systems.mongrel.validation import problems


@settings(max_examples=60)
@given(st.data())
def test_any_path_of_offered_choices_validates(data: st.DataObject) -> None:
    b = Builder()
    while b.step is not None:
        opts = b.options()
        assert opts, b.step
        b = b.choose(data.draw(st.sampled_from(opts), label=b.step))
    assert problems(b.sheet("Test", "to my House")) == ()


def test_steps_offer_the_rules_choices() -> None:
    b = Builder()
    assert (6, 0, 0) not in b.options() and (2, 0, 4) in b.options()
    b = b.choose((2, 0, 4))
    assert b.options() == ("demon",)
    b = b.choose("demon").choose("human").choose("female").choose("old")
    assert b.options() == ((1, 7), (2, 6), (3, 5))  # Spirit above Size, Size on the table
    b = b.choose((2, 6)).choose((5, 3))  # female with Physique 5 > Beauty 3: ignored
    assert b.options() == ((0, 4), (1, 4), (2, 4), (3, 4))  # old + ignored
    with pytest.raises(IllegalAction, match="not a legal choice"):
        b.choose((3, 5))
    with pytest.raises(IllegalAction, match="not finished"):
        b.sheet("x")


def test_attributes_may_be_lowered_after_choosing() -> None:
    from referee.systems.mongrel.sheet import attribute

    b = Builder().choose((2, 0, 4)).choose("demon").choose("human").choose("female")
    b = b.choose("old").choose((2, 6)).choose((5, 3)).choose((1, 4))  # Speed already 1
    assert b.step == "lower_size" and b.options() == (0, 1)  # Size 2 goes down to 1
    for amount in (0, 0, 0, 2, 1, 0):  # Beauty 3 -> 1, Speed 1 -> 0
        b = b.choose(amount)
    assert b.step == "step2"
    while b.step is not None:
        b = b.choose(b.options()[0])
    sheet = b.sheet("Low")
    assert sheet.lowered == {"beauty": 2, "speed": 4}  # 3 for old + ignored, 1 chosen
    assert attribute(sheet, "beauty") == 1 and attribute(sheet, "speed") == 0
    assert problems(sheet) == ()


# -- issue 22, item 7: Size and Physique stay on the Size/Physique table (1 to 7) ---------


def _text_pairs(primary: str) -> dict[str, set[tuple[int, int]]]:
    """The text's attribute pairs, enumerated independently: each pair sums to 8; Man:
    Size = Spirit = 4, Beast: Size > Spirit, Demon: Spirit > Size; Size and Physique are
    rows / columns of the Size/Physique table, which runs 1 to 7."""
    table = range(1, 8)
    size_spirit = {
        (size, 8 - size)
        for size in table
        if (primary == "man" and size == 4)
        or (primary == "beast" and size > 8 - size)
        or (primary == "demon" and 8 - size > size)
    }
    return {"size_spirit": size_spirit, "physique_beauty": {(p, 8 - p) for p in table}}


@pytest.mark.parametrize(
    ("identity", "primary"), [((4, 1, 1), "man"), ((1, 4, 1), "beast"), ((1, 1, 4), "demon")]
)
def test_the_builder_keeps_size_and_physique_on_the_table(
    identity: tuple[int, int, int], primary: str
) -> None:
    """Mongrel, Physical damage: the table runs 1 to 7, so neither 0 (any hit terminal)
    nor 8 is offered, and lowering stops at 1."""
    b = Builder().choose(identity).choose(primary)
    b = b.choose(b.options()[0]).choose("male").choose("adult")
    wanted = _text_pairs(primary)
    assert set(b.options()) == wanted["size_spirit"]
    size, _spirit = max(b.options())
    b = b.choose(max(b.options()))
    assert set(b.options()) == wanted["physique_beauty"]
    assert (0, 8) not in b.options() and (8, 0) not in b.options()
    b = b.choose((7, 1)).choose(b.options()[0])
    assert b.step == "lower_size" and b.options() == tuple(range(size))  # down to 1
    b = b.choose(size - 1).choose(0)
    assert b.step == "lower_physique" and b.options() == tuple(range(7))  # 7 down to 1
    b = b.choose(6)
    while b.step is not None:
        b = b.choose(b.options()[-1])
    sheet = b.sheet("Slight")
    from referee.systems.mongrel.sheet import attribute

    assert (attribute(sheet, "size"), attribute(sheet, "physique")) == (1, 1)
    assert problems(sheet) == ()


def _giazza() -> object:
    from referee.systems.mongrel import RULESET as MONGREL

    return MONGREL.example("giazza")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"attributes": {"size": 0, "spirit": 8}}, "attributes.size"),
        ({"attributes": {"physique": 0, "beauty": 8}}, "attributes.physique"),
        ({"attributes": {"physique": 8, "beauty": 0}}, "attributes.physique"),
        ({"lowered": {"size": 4}}, "lowered.size"),
        ({"lowered": {"physique": 6}}, "lowered.physique"),
        ({"raised": {"physique": 2}}, "raised.physique"),
    ],
)
def test_the_validator_keeps_size_and_physique_on_the_table(
    change: dict[str, dict[str, int]], field: str
) -> None:
    """Giazza (Size 4, Physique 6) made to leave the table: the validator names the rule."""
    from dataclasses import replace

    from referee.systems.mongrel.sheet import Sheet

    sheet = _giazza()
    assert isinstance(sheet, Sheet)
    edits: dict[str, object] = {}
    for key, values in change.items():
        if key == "attributes":
            edits[key] = replace(sheet.attributes, **values)
        else:
            edits[key] = values
    found = [p for p in problems(replace(sheet, **edits)) if "Size/Physique" in p.rule]  # type: ignore[arg-type]
    assert [p.field for p in found] == [field]
    assert [p for p in problems(sheet) if "Size/Physique" in p.rule] == []


def test_raising_size_or_physique_past_the_table_is_refused() -> None:
    from dataclasses import replace

    from referee.errors import InvalidSheet
    from referee.systems.mongrel.advancement import raise_attribute
    from referee.systems.mongrel.sheet import Sheet

    sheet = _giazza()
    assert isinstance(sheet, Sheet)
    rich = replace(sheet, character_points=100, raised={"physique": 1})  # Physique 7
    with pytest.raises(InvalidSheet, match="runs to 7"):
        raise_attribute(rich, "physique", ("physique",))


# -- the page's form (referee.systems.building) ---------------------------------------

from referee.systems import building  # noqa: E402
from referee.systems.base import get  # noqa: E402
from referee.systems.mongrel.builder import BUILDER  # noqa: E402
from referee.systems.mongrel.options import Options  # noqa: E402

FORM: dict[str, object] = {
    "name": "Kesh",
    "man": 2,
    "beast": 1,
    "demon": 3,
    "primary": "demon",
    "form": "human",
    "sex": "male",
    "age": "adult",
    "house": "Mekag",
    "size": 3,
    "spirit": 5,
    "physique": 4,
    "beauty": 4,
    "speed": 4,
    "social": 4,
    "step2": ["Know", "Lie"],
    "step3": ["Burn", "Melee"],
    "step4": ["Chill", "Stalk"],
    "power.demon.Wings": 1,
}


def _check(**change: object) -> building.Checked:
    return building.check(get("mongrel"), {**FORM, **change}, Options())


def test_the_form_makes_a_sheet_that_validates() -> None:
    checked = _check()
    assert checked.legal and checked.problems == ()
    sheet = get("mongrel").load_sheet(checked.sheet)
    assert problems(sheet) == ()
    assert sheet.expertise["Diabolic Power"] == 1 and sheet.powers == {"Wings": 1}


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_every_path_the_builder_offers_is_a_legal_form(data: st.DataObject) -> None:
    b = Builder()
    while b.step is not None:
        b = b.choose(data.draw(st.sampled_from(b.options()), label=b.step))
    sheet = b.sheet("Path", "a vow")
    answers = BUILDER.answers_of(get("mongrel").dump_sheet(sheet), Options())
    checked = building.check(get("mongrel"), answers, Options())
    assert checked.legal, checked.problems


def _over(checked: building.Checked, field: str) -> list[str]:
    return [p.message for p in checked.problems if p.field == field]


def test_identity_points_are_six() -> None:
    """Character Creation, Identity: 6 points; a seventh is refused."""
    checked = _check(demon=4)
    assert "Identity points: 1 over (7 spent of 6)" in _over(checked, "man")
    assert not checked.legal and checked.sheet is None
    assert _check(demon=2).budgets[0].left == 1 and not _check(demon=2).legal


def test_each_attribute_pair_sums_to_eight() -> None:
    """Character Creation, Attributes: Size + Spirit, Physique + Beauty, Speed + Social = 8."""
    for first, value in (("size", 4), ("physique", 5), ("speed", 5)):
        checked = _check(**{first: value})
        assert any("1 over (9 spent of 8)" in m for m in _over(checked, first)), first
        assert not checked.legal


def test_power_points_are_the_power_expertise_level() -> None:
    """Character Creation, Powers: Diabolic Power 1 (step 1) buys one point of powers."""
    checked = _check(**{"power.demon.Tail": 1})
    field = "power.demon.Inhuman (waist down)"
    assert any("1 over (2 spent of 1)" in m for m in _over(checked, field))
    # step 3 raises Diabolic Power by 2: three points, one spent
    raised = _check(step3=["Burn", "Diabolic Power"], step4=["Chill", "Melee"])
    power = next(b for b in raised.budgets if b.key == "powers")
    assert (power.total, power.spent, power.left) == (3, 1, 2) and not raised.legal
    assert "2 still to spend" in _over(raised, field)[0]


def test_a_choice_the_rules_do_not_offer_is_named() -> None:
    checked = _check(primary="man")  # Demon 3 is the highest
    assert checked.offered["primary"] == ("demon",)
    assert any("highest" in p.message for p in checked.problems if p.field == "primary")
    checked = _check(step3=["Know", "Burn"])  # Know was raised in step 2
    assert [p.field for p in checked.problems] == ["step3"]
