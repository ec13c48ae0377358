"""Credit, buying, character points and sorcery."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.dice.brute import brute_force
from referee.errors import IllegalAction, InvalidSheet
from referee.systems.mongrel.advancement import (
    award,
    raise_attribute,
    raise_expertise,
    raise_identity,
)
from referee.systems.mongrel.examples import example
from referee.systems.mongrel.sheet import credit, identity_now, level
from referee.systems.mongrel.sorcery import occult_hours, occult_procedure
from referee.systems.mongrel.wealth import buy_procedure, sacrifice, social_changed, transfer


def test_starting_credit_is_social_at_home_and_1_elsewhere() -> None:
    v = credit(example("vooruk"))
    assert v["Mekag"] == 5 and v["Nuin"] == 1 and len(v) == 7


def test_buying_window_and_sacrifice() -> None:
    proc = buy_procedure(2, seller_social=3, credit=5)
    assert proc.apply((4, 1)).result == "bought"
    assert proc.apply((2, 1)).result == "sacrifice"
    assert proc.apply((6, 6)).result == "no"
    for dice in (1, 2, 3):
        for social, cr in ((3, 5), (5, 2), (0, 6)):
            p = buy_procedure(dice, social, cr)
            assert p.odds() == brute_force([(dice, 6)], p.apply)


def test_transfers_cost_two_for_one_and_home_credit_follows_social() -> None:
    c = credit(example("vooruk"))
    moved = transfer(c, "Mekag", "Nuin", 2)
    assert moved["Mekag"] == 1 and moved["Nuin"] == 3
    with pytest.raises(IllegalAction, match="6 needed"):
        transfer(c, "Mekag", "Nuin", 3)
    # the text's example: Social 4 -> 5 with home Credit 2 raises it to 3
    assert social_changed({"Nuin": 2, "Mekag": 1}, "Nuin", 4, 5) == {"Nuin": 3, "Mekag": 1}
    assert sacrifice(c, "Mekag")["Mekag"] == 4


def test_character_point_costs() -> None:
    assert award(2, vow_risk=True) == 3
    g = replace(example("giazza"), character_points=30)
    up = raise_expertise(g, "Melee", {"Melee"})
    assert level(up, "Melee") == 5 and up.character_points == 10  # 4 × 5
    assert up.expertise["Melee"] == 4 and up.expertise_raised == {"Melee": 1}
    zero = raise_expertise(g, "Stalk", {"Stalk"})
    assert zero.character_points == 25  # from 0 costs as from 1
    ident = raise_identity(g, "beast", {"beast"}, reduce="man")
    now = identity_now(ident)
    assert (now.beast, now.man, ident.character_points) == (2, 4, 28)  # 1 × 2
    with pytest.raises(IllegalAction, match="not used"):
        raise_expertise(g, "Melee", set())
    with pytest.raises(InvalidSheet, match="Size and Spirit"):
        raise_attribute(g, "size", {"size"})
    speed = raise_attribute(g, "speed", {"speed"})  # adult: any values
    assert speed.character_points == 10 and speed.raised == {"speed": 1}


def test_occult_spends_resolve_before_the_roll() -> None:
    proc = occult_procedure(2, 3, "over", identity=4, resolve_spent=3, resolve_available=6)
    assert proc.apply((3, 1)).effect == 1 + 4 + 2
    assert occult_hours(2) == 2
    with pytest.raises(IllegalAction, match="at least 1"):
        occult_procedure(2, 3, "over", 4, 0, 6)
    with pytest.raises(IllegalAction, match="cannot spend"):
        occult_procedure(2, 3, "over", 4, 7, 6)


def test_untrusted_numbers_are_bounded() -> None:
    from referee.errors import RulesError

    with pytest.raises(RulesError, match="Credit must be"):
        buy_procedure(2, seller_social=3, credit=-5)
    with pytest.raises(RulesError, match="Social must be"):
        buy_procedure(2, seller_social=10**9, credit=3)
    with pytest.raises(RulesError, match="Resolve spent must be"):
        occult_procedure(2, 3, "over", 4, 10**5, 10**5)
    # Credit above 6 is like 6: every die is within it
    assert buy_procedure(1, 0, 99).odds() == buy_procedure(1, 0, 6).odds()


def test_an_improved_character_still_meets_the_creation_rules() -> None:
    from referee.systems.mongrel.conflict import Fighter
    from referee.systems.mongrel.validation import R_POINTS, build, problems

    g = example("giazza")
    levels = build("man", ("Melee", "Bureaucrat"), ("Sense", "Athletics"), ("Lie", "Balance"))
    legal = replace(g, expertise={k: v for k, v in levels.items() if v}, character_points=40)
    assert problems(legal) == ()
    up = raise_identity(raise_expertise(legal, "Melee", {"Melee"}), "beast", {"beast"})
    assert up.character_points == 40 - 20 - 5  # Melee 4 × 5, Beast 1 × 5 (nothing lowered)
    assert problems(up) == ()  # the raises are kept apart from the creation values
    fighter = Fighter.from_sheet(up)  # play uses the values now
    assert fighter.expertise["Melee"] == 5 and (fighter.man, fighter.beast) == (5, 2)
    bad = replace(
        up, expertise_raised={"Melee": -1, "Animal Power": 1}, identity_raised={"demon": -1}
    )
    assert {p.field for p in problems(bad) if p.rule == R_POINTS} >= {
        "expertise_raised.Melee",
        "identity_raised.demon",
    }
    assert "expertise_raised.Animal Power" in {p.field for p in problems(bad)}
