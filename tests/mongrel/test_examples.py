"""Every worked example of the Mongrel text, dice scripted, every stated number asserted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.dice.roller import ScriptedRoller
from referee.systems.mongrel import RULESET
from referee.systems.mongrel import RULESET as MONGREL
from referee.systems.mongrel.actions import (
    AcceptFate,
    Attack,
    Check,
    SpendResolveToSurvive,
    StartConflict,
    TakeDamage,
    Task,
)
from referee.systems.mongrel.damage import Hit, take_damage, terminal_at
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.sheet import (
    action_points,
    infernal_resolve,
    level,
    terminal_damage,
    wound_threshold,
)
from referee.systems.mongrel.state import Seat, State


def test_ahvia_lies_effect_6() -> None:
    ahvia = MONGREL.example("Ahvia")
    roller = ScriptedRoller([6, 3, 1, 1])
    # 4d6 (Lie 4) against the listener's Social 3, rolling to equal or exceed it
    check = Check(level(ahvia, "Lie"), 3, "over", ahvia.identity.demon)
    out = RULESET.resolve(check, RULESET.initial_state(Options()), roller, Options())
    roller.assert_exhausted()
    assert check.dice == 4 and out.target == 3
    assert out.success is True
    assert out.details["successes"] == 2
    assert out.result == 6  # 2 dice + Demon 4


def test_ahvia_negotiates_effect_3() -> None:
    ahvia = MONGREL.example("Ahvia")
    roller = ScriptedRoller([5])
    check = Check(level(ahvia, "Negotiate"), 3, "over", ahvia.identity.man)
    out = RULESET.resolve(check, RULESET.initial_state(Options()), roller, Options())
    assert check.dice == 1
    assert out.details["successes"] == 1 and out.result == 3  # 1 die + Man 2


def test_vooruk_keeps_his_balance_effect_5() -> None:
    vooruk = MONGREL.example("Vooruk")
    roller = ScriptedRoller([4, 6, 6])
    # 3d6 (Balance 3) under his own Physique 7, modified to 5 by the conditions
    check = Check(
        level(vooruk, "Balance"),
        vooruk.attributes.physique,
        "under",
        vooruk.identity.beast,
        difficulty=2,
    )
    out = RULESET.resolve(check, RULESET.initial_state(Options()), roller, Options())
    assert check.dice == 3 and out.target == 5
    assert out.details["successes"] == 1 and out.result == 5  # 1 die + Beast 4


def _table(*ids: str) -> State:
    state = RULESET.initial_state(Options())
    for cid in ids:
        state = RULESET.seat(state, cid, MONGREL.example(cid), Options())
    return state


def _duel() -> State:
    state = _table("vooruk", "giazza")
    out = RULESET.resolve(StartConflict(), state, ScriptedRoller([]), Options())
    return RULESET.apply(state, out)


def _ap(c: State) -> tuple[int, int]:
    return c.characters["vooruk"].ap, c.characters["giazza"].ap


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
    after = RULESET.apply(c, out)
    assert out.success is hit and out.target == tn
    assert _ap(after) == ap
    assert after.characters["giazza"].damage == damage
    assert f"{mode} {tn}" in out.label
    assert after.order == ("giazza", "vooruk")


def _hits(sheet: str, *effects: int, options: Options | None = None) -> list[Seat]:
    """The character after each hit, applied through the ruleset (take-damage)."""
    opts = options or Options()
    state = _table(sheet)
    out: list[Seat] = []
    for e in effects:
        outcome = RULESET.resolve(TakeDamage(sheet, e), state, ScriptedRoller([]), opts)
        state = RULESET.apply(state, outcome)
        out.append(state.characters[sheet])
    return out


def test_giazza_hit_for_5_3_and_2_collapses() -> None:
    """Physique lowered by damage counts "for purposes of the Size/Physique table and
    also for target-numbers" (the default). Giazza: Size 4, Physique 6, AP 4."""
    five, eight, ten = _hits("giazza", 5, 3, 2)
    # 5: 4 fill the Size row, 1 more is within Physique 6 -> Physique 5, 1 extra AP lost
    assert (five.damage, five.physique, five.ap, five.collapsed) == (5, 5, 3, False)
    # 3 more: 4 past Size, within Physique 5 -> Physique 4, another AP
    assert (eight.damage, eight.physique, eight.ap, eight.collapsed) == (8, 4, 2, False)
    # 2 more: 6 past Size exceeds Physique 4 -> collapse, every AP lost
    assert (ten.damage, ten.physique, ten.ap, ten.collapsed) == (10, 4, 0, True)
    assert not ten.terminal  # terminal at 3 x 4 + 4 = 16
    # with the track keeping the sheet's Physique (the option off) he stands at 10
    kept = _hits("giazza", 5, 3, 2, options=Options(physique_shrinks_track=False))[-1]
    assert (kept.damage, kept.physique, kept.ap, kept.collapsed) == (10, 3, 1, False)


def test_ahvia_is_killed_by_nine_points() -> None:
    ahvia = MONGREL.example("Ahvia")
    assert (ahvia.attributes.size, ahvia.attributes.physique) == (2, 3)
    assert terminal_damage(ahvia) == 9 and wound_threshold(ahvia) == 5
    (eight,) = _hits("alwia", 8)
    assert eight.collapsed and eight.ap == 0 and not eight.terminal and not eight.dead
    state = _table("alwia")
    out = RULESET.resolve(TakeDamage("alwia", 9), state, ScriptedRoller([]), Options())
    nine = RULESET.apply(state, out)
    assert nine.characters["alwia"].terminal and not nine.characters["alwia"].dead
    assert [d.choices for d in nine.pending] == [("spend-resolve-to-survive", "accept-fate")]
    # she may expend 1 Infernal Resolve to avoid dying: full AP, still terminal
    saved = RULESET.resolve(SpendResolveToSurvive("alwia"), nine, ScriptedRoller([]), Options())
    f = RULESET.apply(nine, saved).characters["alwia"]
    assert not f.dead and f.terminal and f.ir == 5 and f.ap == 6
    assert saved.label.startswith("terminal hit; 1 Infernal Resolve spent")
    died = RULESET.resolve(AcceptFate("alwia"), nine, ScriptedRoller([]), Options())
    assert RULESET.apply(nine, died).characters["alwia"].dead
    # with no Resolve to spare, death
    broke = replace(state, characters={"alwia": replace(state.characters["alwia"], ir=1)})
    out = RULESET.resolve(TakeDamage("alwia", 9), broke, ScriptedRoller([]), Options())
    assert RULESET.apply(broke, out).characters["alwia"].dead


def test_damage_track_zones() -> None:
    f = _table("alwia").characters["alwia"]  # Size 2, Physique 3, AP 6
    o = Options()
    two, _ = take_damage(f, Hit(2), o)
    assert (two.damage, two.ap, two.physique_loss) == (2, 6, 0)  # the Size row only
    three, _ = take_damage(two, Hit(1), o)
    assert (three.ap, three.physique_loss, three.collapsed) == (5, 1, False)
    assert three.physique == 2
    six, _ = take_damage(three, Hit(3), o)  # past Size + Physique
    assert six.collapsed and six.ap == 0
    again, terminal = take_damage(six, Hit(1), o)
    assert terminal and again.terminal and not again.dead  # the player chooses
    # weapons add, armour subtracts, shunting to Beauty keeps one point permanent
    shunted, _ = take_damage(f, Hit(3, weapon=1, armor=2, shunt_to_beauty=2), o)
    assert shunted.damage == 0 and shunted.beauty_loss == 2 and shunted.beauty_permanent == 1


def test_example_derived_scores() -> None:
    for name, ap, ir in (("alwia", 6, 6), ("vooruk", 3, 3), ("giazza", 4, 4)):
        sheet = MONGREL.example(name)
        assert action_points(sheet) == ap and infernal_resolve(sheet) == ir


def test_a_power_augments_an_appropriate_expertise() -> None:
    from referee.errors import IllegalAction

    c = _table("alwia")
    # Wings (2 points of Diabolic Power) add two dice to Athletics 2
    out = RULESET.resolve(
        Task("alwia", "Athletics", power="Wings"), c, ScriptedRoller([1, 2, 3, 4]), Options()
    )
    assert [d.face for d in out.faces] == [1, 2, 3, 4]
    with pytest.raises(IllegalAction, match="no power"):
        RULESET.odds(Task("alwia", "Athletics", power="Tail"), c, Options())


def test_damage_options() -> None:
    f = _table("alwia").characters["alwia"]
    once = Options(ap_loss_once=True)
    three, _ = take_damage(f, Hit(3), once)
    four, _ = take_damage(three, Hit(1), once)
    assert (three.ap, four.ap) == (5, 5)  # only the crossing hit costs the extra AP
    assert take_damage(three, Hit(1), Options())[0].ap == 4
    # the track shrinks by default: Physique 3 -> 2 lowers the terminal point to 8
    shrunk, _ = take_damage(f, Hit(3), Options())
    assert terminal_at(shrunk, Options()) == 8
    assert take_damage(shrunk, Hit(5), Options())[1]
    kept = Options(physique_shrinks_track=False)
    assert terminal_at(shrunk, kept) == 9 and not take_damage(shrunk, Hit(5), kept)[1]


def test_credit_follows_social_4_to_5() -> None:
    """The text's Credit example: Social 4, own-House Credit 2; Social 5 makes it 3."""
    from referee.systems.mongrel.advancement import raise_attribute
    from referee.systems.mongrel.sheet import attribute, credit, starting_credit

    giazza = MONGREL.example("giazza")  # Social 4, House Nuin
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

    ahvia, vooruk, ghiazza = (
        MONGREL.example("Ahvia"),
        MONGREL.example("Vooruk"),
        MONGREL.example("Ghiazza"),
    )
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
