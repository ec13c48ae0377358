"""Every worked example of the Mongrel text, dice scripted, every stated number asserted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.dice.roller import ScriptedRoller
from referee.systems.mongrel import RULESET
from referee.systems.mongrel.conflict import Attack, Conflict, Fighter
from referee.systems.mongrel.damage import Hit, take_damage
from referee.systems.mongrel.examples import example
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.ruleset import Check
from referee.systems.mongrel.sheet import (
    action_points,
    infernal_resolve,
    level,
    terminal_damage,
    wound_threshold,
)


def test_ahvia_lies_effect_6() -> None:
    ahvia = example("Ahvia")
    roller = ScriptedRoller([6, 3, 1, 1])
    # 4d6 (Lie 4) against the listener's Social 3, rolling to equal or exceed it
    check = Check(level(ahvia, "Lie"), 3, "over", ahvia.identity.demon)
    out = RULESET.resolve(check, None, roller, Options())
    roller.assert_exhausted()
    assert check.dice == 4 and out.target == 3
    assert out.success is True
    assert out.details["successes"] == 2
    assert out.result == 6  # 2 dice + Demon 4


def test_ahvia_negotiates_effect_3() -> None:
    ahvia = example("Ahvia")
    roller = ScriptedRoller([5])
    check = Check(level(ahvia, "Negotiate"), 3, "over", ahvia.identity.man)
    out = RULESET.resolve(check, None, roller, Options())
    assert check.dice == 1
    assert out.details["successes"] == 1 and out.result == 3  # 1 die + Man 2


def test_vooruk_keeps_his_balance_effect_5() -> None:
    vooruk = example("Vooruk")
    roller = ScriptedRoller([4, 6, 6])
    # 3d6 (Balance 3) under his own Physique 7, modified to 5 by the conditions
    check = Check(
        level(vooruk, "Balance"),
        vooruk.attributes.physique,
        "under",
        vooruk.identity.beast,
        difficulty=2,
    )
    out = RULESET.resolve(check, None, roller, Options())
    assert check.dice == 3 and out.target == 5
    assert out.details["successes"] == 1 and out.result == 5  # 1 die + Beast 4


def _duel() -> Conflict:
    fighters = [Fighter.from_sheet(example("Vooruk")), Fighter.from_sheet(example("Giazza"))]
    return Conflict.start(fighters, ScriptedRoller([]))


def _ap(c: Conflict) -> tuple[int, int]:
    return c.fighter("vooruk").body.ap, c.fighter("giazza").body.ap


@pytest.mark.parametrize(
    ("defend", "faces", "hit", "mode", "tn", "ap", "damage"),
    [
        # Giazza does not defend: Rend under Vooruk's own Physique 7. A hit costs
        # Vooruk nothing (Giazza's AP loss is the damage passing his Size 4).
        (False, [1, 2, 3, 4, 5, 6], True, "under", 7, (3, 3), 10),
        (False, [6, 6, 6, 1, 2, 3], False, "under", 7, (2, 4), 0),  # miss: 1 AP
        # Giazza defends (1 AP), forcing Vooruk to spend 1: Rend over Giazza's Physique 6
        (True, [6, 1, 1, 1, 1, 1], True, "over", 6, (2, 2), 5),  # hit: nothing further
        (True, [5, 1, 1, 1, 1, 1], False, "over", 6, (1, 3), 0),  # miss: 1 AP more
    ],
)
def test_vooruk_attacks_giazza(
    defend: bool,
    faces: list[int],
    hit: bool,
    mode: str,
    tn: int,
    ap: tuple[int, int],
    damage: int,
) -> None:
    c = _duel()
    assert c.order == ("vooruk", "giazza")  # Beast 4 before Beast 1
    assert _ap(c) == (3, 4)
    roller = ScriptedRoller(faces)
    out = RULESET.resolve(Attack("vooruk", "giazza", "Rend", defend=defend), c, roller, Options())
    roller.assert_exhausted()
    after = c.apply(Attack("vooruk", "giazza", "Rend", defend=defend), ScriptedRoller(faces))
    assert out.success is hit
    assert after.log[-1].result is not None and after.log[-1].result.success is hit
    assert _ap(after) == ap
    assert after.fighter("giazza").body.damage == damage
    assert f"{mode} {tn}" in after.log[-1].summary
    assert after.order == ("giazza", "vooruk")
    assert after.undo() == c


def test_ahvia_is_killed_by_nine_points() -> None:
    ahvia = example("Ahvia")
    assert (ahvia.attributes.size, ahvia.attributes.physique) == (2, 3)
    assert terminal_damage(ahvia) == 9 and wound_threshold(ahvia) == 5
    body = Fighter.from_sheet(ahvia).body
    dead = take_damage(body, Hit(9), Options(), spend_resolve=False)
    assert dead.terminal and dead.dead
    eight = take_damage(body, Hit(8), Options(), spend_resolve=False)
    assert eight.collapsed and eight.ap == 0 and not eight.terminal and not eight.dead
    # spending 1 Infernal Resolve avoids death: full AP, still terminal
    saved = take_damage(body, Hit(9), Options(), spend_resolve=True)
    assert not saved.dead and saved.terminal and saved.ir == 5 and saved.ap == 6
    # with no Resolve left, death
    assert take_damage(replace(body, ir=0), Hit(9), Options()).dead


def test_damage_track_zones() -> None:
    body = Fighter.from_sheet(example("Ahvia")).body  # Size 2, Physique 3, AP 6
    two = take_damage(body, Hit(2), Options())
    assert (two.damage, two.ap, two.physique_loss) == (2, 6, 0)  # the Size row only
    three = take_damage(two, Hit(1), Options())
    assert (three.ap, three.physique_loss, three.collapsed) == (5, 1, False)
    assert three.current_physique == 2
    six = take_damage(three, Hit(3), Options())  # past Size + Physique = 5
    assert six.collapsed and six.ap == 0
    hit_again = take_damage(six, Hit(1), Options(), spend_resolve=False)
    assert hit_again.terminal and hit_again.dead
    # weapons add, armour subtracts, shunting to Beauty keeps one point permanent
    shunted = take_damage(body, Hit(3, weapon=1, armor=2, shunt_to_beauty=2), Options())
    assert shunted.damage == 0 and shunted.beauty_loss == 2 and shunted.beauty_permanent == 1


def test_example_derived_scores() -> None:
    for name, ap, ir in (("alwia", 6, 6), ("vooruk", 3, 3), ("giazza", 4, 4)):
        sheet = example(name)
        assert action_points(sheet) == ap and infernal_resolve(sheet) == ir


def test_a_power_augments_an_appropriate_expertise() -> None:
    from referee.systems.mongrel.conflict import Task

    c = Conflict.start([Fighter.from_sheet(example("Ahvia"))], ScriptedRoller([]))
    # Wings (2 points of Diabolic Power) add two dice to Athletics 2
    after = c.apply(Task("alwia", "Athletics", power="Wings"), ScriptedRoller([1, 2, 3, 4]))
    assert after.log[-1].faces == (1, 2, 3, 4)
    from referee.errors import IllegalAction

    with pytest.raises(IllegalAction, match="no power"):
        c.apply(Task("alwia", "Athletics", power="Tail"), ScriptedRoller([]))


def test_damage_options() -> None:
    body = Fighter.from_sheet(example("Ahvia")).body
    three = take_damage(body, Hit(3), Options(ap_loss_once=True))
    four = take_damage(three, Hit(1), Options(ap_loss_once=True))
    assert (three.ap, four.ap) == (5, 5)  # only the crossing hit costs the extra AP
    assert take_damage(three, Hit(1), Options()).ap == 4
    # with the track shrinking, Physique 3 -> 2 lowers the terminal point to 8
    shrunk = take_damage(body, Hit(3), Options(physique_shrinks_track=True))
    assert shrunk.terminal_at(Options(physique_shrinks_track=True)) == 8
    assert take_damage(shrunk, Hit(5), Options(physique_shrinks_track=True), False).dead


def test_credit_follows_social_4_to_5() -> None:
    """The text's Credit example: Social 4, own-House Credit 2; Social 5 makes it 3."""
    from referee.systems.mongrel.advancement import raise_attribute
    from referee.systems.mongrel.sheet import attribute, credit, starting_credit

    giazza = example("giazza")  # Social 4, House Nuin
    assert attribute(giazza, "social") == 4 and giazza.house == "Nuin"
    spent = {**starting_credit(giazza), "Nuin": 2}  # reduced through events in play
    before = replace(giazza, credit=spent, character_points=20)
    after = raise_attribute(before, "social", {"social"})
    assert attribute(after, "social") == 5 and after.character_points == 0  # 4 × 5
    assert credit(after)["Nuin"] == 3
    assert {h: v for h, v in credit(after).items() if h != "Nuin"} == {
        h: 1 for h in credit(after) if h != "Nuin"
    }  # Credit with the other Houses does not follow Social
    # accounts never changed by play are the starting ones: Social itself
    fresh = raise_attribute(replace(giazza, character_points=20), "social", {"social"})
    assert credit(fresh)["Nuin"] == 5


def test_identity_examples_set_the_body_forms() -> None:
    """Ahvia: Demon primary with Man above Beast, so a humanoid body (and wings);
    Vooruk: Beast primary, a lion-like quadruped; Ghiazza: Man primary, human."""
    from referee.systems.mongrel.validation import R_FORM, form_choices, problems

    ahvia, vooruk, ghiazza = example("Ahvia"), example("Vooruk"), example("Ghiazza")
    assert ahvia.identity.primary == "demon" and ahvia.identity.man > ahvia.identity.beast == 0
    assert form_choices(ahvia.identity) == ("human",) and ahvia.powers["Wings"] == 2
    assert vooruk.identity.primary == "beast" and "quadruped" in form_choices(vooruk.identity)
    assert ghiazza.identity.primary == "man" and ghiazza.identity.demon == 0
    assert form_choices(ghiazza.identity) == ("human",)
    for sheet in (ahvia, vooruk, ghiazza):
        assert R_FORM not in {p.rule for p in problems(sheet)}
    # a Primary-Demon's form follows its higher other Identity; a tie leaves the choice
    assert form_choices(replace(ahvia.identity, man=0, beast=2)) == ("quadruped", "primate", "bird")
    assert "human" in form_choices(replace(ahvia.identity, man=1, beast=1))
