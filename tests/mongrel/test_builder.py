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
    assert b.options() == ((0, 8), (1, 7), (2, 6), (3, 5))  # Spirit above Size
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
    assert b.step == "lower_size" and b.options() == (0, 1, 2)
    for amount in (0, 0, 0, 2, 1, 0):  # Beauty 3 -> 1, Speed 1 -> 0
        b = b.choose(amount)
    assert b.step == "step2"
    while b.step is not None:
        b = b.choose(b.options()[0])
    sheet = b.sheet("Low")
    assert sheet.lowered == {"beauty": 2, "speed": 4}  # 3 for old + ignored, 1 chosen
    assert attribute(sheet, "beauty") == 1 and attribute(sheet, "speed") == 0
    assert problems(sheet) == ()
