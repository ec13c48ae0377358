"""The Ruleset contract: actions resolved against table state, odds from the same plan."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from referee.dice.roller import ManualRoller, ScriptedRoller
from referee.errors import IllegalAction, InvalidSheet, RulesError
from referee.systems.base import Ruleset, describe_options, dump_record, get, load_record
from referee.systems.mnemonic import RULESET
from referee.systems.mnemonic.actions import (
    AgileOrder,
    Attack,
    Check,
    Contender,
    Injury,
    RefereeOrder,
    Reshuffle,
    SheetCheck,
)
from referee.systems.mnemonic.checks import CheckResult
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.sheet import Sheet, Status
from referee.systems.mnemonic.state import Seat, State
from referee.systems.mnemonic.tables import DEFAULT_TALENTS

ANN = Sheet("Ann", "human", dict.fromkeys(DEFAULT_TALENTS, 3) | {"Tough": 4}, {"Sailor": 5})
STATE = RULESET.seat(State(), "ann", ANN, Options())


def _success(r: object) -> bool:
    assert isinstance(r, int)
    return CheckResult(r).success


def test_registered_with_every_action_named_in_one_style() -> None:
    assert get("mnemonic") is RULESET
    assert isinstance(RULESET, Ruleset)
    assert list(RULESET.actions()) == [
        "check",
        "sheet-check",
        "attack",
        "injury",
        "agile-order",
        "order",
        "next-turn",
        "reshuffle",
        "set-status",
    ]
    for name, kind in RULESET.actions().items():
        assert RULESET.action_type(name) is kind and kind.__doc__
    assert all(o["doc"] for o in describe_options(RULESET.options_type))


def test_sheet_check_resolves_and_odds_agree() -> None:
    action = SheetCheck("ann", "Agile", "Sailor", chances="Poor")
    assert action.chances == -3 and action.actors() == ("ann",)
    out = RULESET.resolve(action, STATE, ScriptedRoller([5]), Options())
    assert out.result == 3 + 5 - 5 - 3
    assert [m.kind for m in out.modifiers][:2] == ["talent", "life role"]
    dist = RULESET.odds(action, STATE, Options())
    assert dist.probability_where(_success) == Fraction(5, 12)


def test_card_check_reads_the_table_deck() -> None:
    deck = Deck().without([12] * 4)
    action, cards = Check(12, 0), Options(randomizer="cards")
    assert RULESET.odds(action, State(deck=deck), cards).probability_where(_success) == 1
    out = RULESET.resolve(action, State(deck=deck), ScriptedRoller([44]), cards)
    assert out.details["cards"] == [11]
    assert RULESET.apply(State(deck=deck), out).deck == deck.without([11])


def test_reshuffle_gives_a_fresh_deck() -> None:
    assert Reshuffle.referee_only
    out = RULESET.resolve(Reshuffle(), State(deck=Deck((1,))), ScriptedRoller([]), Options())
    assert RULESET.apply(State(deck=Deck((1,))), out).deck == Deck()
    assert RULESET.odds(Reshuffle(), STATE, Options()).probabilities() == {out.label: 1}


def test_attack_plain_and_opposed() -> None:
    plain = RULESET.resolve(
        Attack(aptitude=7, chances="Fair", defense=-3), STATE, ScriptedRoller([7]), Options()
    )
    assert plain.result == 0 and plain.details["hit"]
    opts = Options(opposed_rolls=True)
    opposed = RULESET.resolve(
        Attack(aptitude=7, chances="Fair", defender_aptitude=6), STATE, ScriptedRoller([7, 6]), opts
    )
    assert opposed.result == 7 - 7 - 1 + 3
    with pytest.raises(IllegalAction, match="instead of worsening"):
        RULESET.resolve(
            Attack(aptitude=7, defense=-3, defender_aptitude=6), STATE, ScriptedRoller([]), opts
        )
    with pytest.raises(IllegalAction, match="defender's Aptitude"):
        RULESET.odds(Attack(aptitude=7), STATE, opts)


def test_attack_between_seated_characters() -> None:
    """The attacker's Dangerous and the defender's Agile, from their sheets."""
    state = RULESET.seat(STATE, "bo", ANN, Options())
    action = Attack(actor="ann", target="bo", life_role="Sailor", chances="Fair")
    out = RULESET.resolve(action, state, ScriptedRoller([8]), Options())
    # Dangerous 3 + Sailor 5 - 8 + 3 = 3
    assert out.result == 3 and out.details["attacker"] == "ann" and out.details["target"] == "bo"
    opposed = RULESET.resolve(
        Attack(actor="ann", target="bo"), state, ScriptedRoller([2, 5]), Options(opposed_rolls=True)
    )
    # ann Dangerous 3 + Primary 3 - 2 = 4; bo Agile 3 + Primary 3 - 5 = 1 -> 2 Successes
    assert opposed.details["defender_successes"] == 2 and opposed.result == 2
    with pytest.raises(IllegalAction, match="give the attacker's Aptitude"):
        RULESET.odds(Attack(), state, Options())
    with pytest.raises(IllegalAction, match="no character 'zed'"):
        RULESET.odds(Attack(aptitude=5, target="zed"), state, Options())


def test_injury_of_a_table_character() -> None:
    out = RULESET.resolve(
        Injury("unconscious", victim="ann", chances="Fair"), STATE, ScriptedRoller([11]), Options()
    )
    # Tough 4 + Primary at Moderately 3 - 11 + 3 = -1
    assert out.result == -1 and {c.target for c in out.changes} == {"ann"}
    after = RULESET.apply(STATE, out)
    assert str(after.characters["ann"].status) == "inactive (unconscious)"
    assert after.characters["ann"].sheet == ANN  # the sheet is what the player chose
    with pytest.raises(IllegalAction, match="no character 'bob'"):
        RULESET.resolve(Injury("dead", victim="bob"), STATE, ScriptedRoller([1]), Options())


def test_order_referee_and_agile() -> None:
    out = RULESET.resolve(RefereeOrder((("ann",), ("bo",))), STATE, ScriptedRoller([]), Options())
    assert out.details["order"] == [["ann"], ["bo"]]
    assert RULESET.apply(STATE, out).order == (("ann",), ("bo",))
    action = AgileOrder((Contender("Ann", 6), Contender("Bo", 6)))
    out = RULESET.resolve(action, STATE, ScriptedRoller([5, 2]), Options())
    assert out.details["order"] == [["Bo"], ["Ann"]]
    dist = RULESET.odds(action, STATE, Options())  # the whole order, as resolve gives it
    # equal Successes: both roll the same value up to 6 (6 of 144), or both fail (6 x 6)
    assert dist.probability((("Ann", "Bo"),)) == Fraction(6 + 36, 144)
    assert dist.probability((("Bo",), ("Ann",))) == Fraction(51, 144)


def test_agile_check_of_a_seated_character_uses_its_sheet() -> None:
    action = AgileOrder((Contender("ann"), Contender("Bo", 6)))
    out = RULESET.resolve(action, STATE, ScriptedRoller([6, 6]), Options())
    # ann Agile 3 + Primary at Moderately 3 - 6 = 0 (1 Success); Bo 6 - 6 = 0
    assert out.details["order"] == [["ann", "Bo"]]


def test_order_and_the_initiative_option() -> None:
    """The referee decides the order and may call for Agile checks when uncertain (the
    text); a table whose option says every order comes from Agile checks refuses the
    referee's order."""
    agile = Options(initiative="agile")
    with pytest.raises(IllegalAction, match=r"initiative 'agile'.*agile-order"):
        RULESET.resolve(RefereeOrder((("ann",),)), STATE, ScriptedRoller([]), agile)
    action = AgileOrder((Contender("Ann", 6),))
    assert RULESET.resolve(action, STATE, ScriptedRoller([1]), Options()).label == "Ann"
    with pytest.raises(IllegalAction, match="twice"):
        RULESET.odds(RefereeOrder((("a",), ("a",))), STATE, Options())


def test_deck_and_table_state_round_trip_through_json() -> None:
    """A live table stores the deck as plain JSON and gets the same deck back."""
    deck = Deck().without([12, 12, 1])
    back = load_record(Deck, json.loads(json.dumps(dump_record(deck))))
    assert back == deck and len(back) == 45 and back.counts()[12] == 2
    state = State({"ann": Seat(ANN, Status("Hurt", None, 1))}, deck=deck, order=(("ann", "bo"),))
    assert RULESET.load_state(json.loads(json.dumps(RULESET.dump_state(state)))) == state
    with pytest.raises(RulesError, match="impossible cards: \\[13\\]"):
        load_record(Deck, {"cards": [13]})
    with pytest.raises(RulesError, match="impossible cards: \\[1\\]"):
        RULESET.load_state({"deck": {"cards": [1] * 5}})


def test_reshuffle_then_odds_of_the_next_draw() -> None:
    """Odds read the deck as it stands; after the Reshuffle action they are a fresh deck's."""
    deck = Deck().without([1, 1, 1, 1, 2, 2, 2, 2])  # no Aces or 2s left: 40 cards
    action, cards = Check(2, 0), Options(randomizer="cards")
    assert RULESET.odds(action, State(deck=deck), cards).probability_where(_success) == 0
    out = RULESET.resolve(Reshuffle(), State(deck=deck), ScriptedRoller([]), cards)
    fresh = RULESET.apply(State(deck=deck), out)
    assert RULESET.odds(action, fresh, cards).probability_where(_success) == Fraction(8, 48)


def test_verbal_numbers_played_live_through_the_ruleset() -> None:
    """The player's and the referee's numbers are the faces of a live verbal check."""
    ab, verbal = Options(randomizer="verbal-ab"), Options(randomizer="verbal")
    faces = RULESET.hand_faces(Check(6), STATE, ab, said=("4A", "5b"))
    out = RULESET.resolve(Check(6), STATE, ManualRoller(faces), ab)
    # different letters: 13 - (4 + 5) = 4; 6 - 4 = 2 -> 3 Successes
    assert out.details["value"] == 4 and out.result == 2 and out.manual
    assert out.details["numbers"] == "player 4A, referee 5B"
    action = SheetCheck("ann", "Tough", "Sailor")
    faces = RULESET.hand_faces(action, STATE, verbal, said=("8", "9"))
    out = RULESET.resolve(action, STATE, ManualRoller(faces), verbal)
    # 8 + 9 = 17 -> 5; Tough 4 + Sailor 5 - 5 = 4
    assert out.details["value"] == 5 and out.result == 4
    hit = Attack(aptitude=7, chances="Fair")
    faces = RULESET.hand_faces(hit, STATE, verbal, said=("12", "12"))
    out = RULESET.resolve(hit, STATE, ManualRoller(faces), verbal)
    assert out.details["value"] == 12 and out.result == -2 and not out.details["hit"]
    with pytest.raises(RulesError, match="one check at a time"):
        RULESET.hand_faces(
            Attack(aptitude=7, defender_aptitude=5),
            STATE,
            Options(randomizer="verbal", opposed_rolls=True),
            said=("1", "2"),
        )


def test_actions_load_from_stored_json() -> None:
    action = Attack(aptitude=7, chances="Fair", defense=-3)
    assert action.chances == 3
    assert RULESET.load_action("attack", RULESET.action_data(action)) == action
    check = RULESET.load_action("check", {"aptitude": 5, "chances": "Good"})
    assert check == Check(5, 6)
    with pytest.raises(RulesError, match="neither a number nor a rating"):
        RULESET.load_action("check", {"aptitude": 5, "chances": "Awful"})
    with pytest.raises(InvalidSheet, match="worst"):
        RULESET.load_action("injury", {"worst": "maimed"})
    with pytest.raises(IllegalAction, match=r"Aptitude must be 0\.\.12"):
        Check(13)


def test_resolve_and_odds_refuse_the_same_inputs() -> None:
    opts = Options(opposed_rolls=True)
    bad = Attack(aptitude=7, defense=-3, defender_aptitude=6)
    for call in (
        lambda: RULESET.resolve(bad, STATE, ScriptedRoller([]), opts),
        lambda: RULESET.odds(bad, STATE, opts),
    ):
        with pytest.raises(IllegalAction, match="instead of worsening"):
            call()


def test_examples_and_seating_keep_the_tracked_status() -> None:
    examples = RULESET.examples()
    assert set(examples) == {"boxer", "frigate"}
    assert all(RULESET.validate(sheet, Options()) == () for sheet in examples.values())
    hurt = State({"mick": Seat(examples["boxer"], Status("Hurt", None, 1))})
    again = RULESET.seat(hurt, "mick", examples["boxer"], Options())
    assert again.characters["mick"].status == Status("Hurt", None, 1)
    fresh = RULESET.seat(State(), "mick", examples["boxer"], Options())
    assert fresh.characters["mick"].status == examples["boxer"].status


def test_tracker_shows_what_a_referee_wants_to_see() -> None:
    state = State(
        {"ann": Seat(ANN, Status("inactive", "unconscious", 2))},
        deck=Deck().without([12, 1]),
        order=(("ann", "bo"), ("cy",)),
    )
    shown = RULESET.tracker(state, Options(randomizer="cards"))
    assert shown["table"] == [
        ["Randomizer", "cards"],
        ["Deck", "46 cards left; drawn: Ace, Queen"],
        ["Order of action", "Ann & bo then cy"],
    ]
    rows = dict(shown["characters"]["ann"])
    assert rows["Status"] == "inactive (unconscious)" and rows["Injuries"] == 2
    # the ratings are the sheet's (present.py), which the table may keep to its player
    assert "Talents" not in rows and "Life Roles" not in rows
    assert RULESET.tracker(State(), Options())["table"] == [["Randomizer", "d12"]]


def test_every_option_is_documented_with_its_name() -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs/mnemonic.md").read_text()
    for opt in describe_options(Options):
        assert f"| `{opt['name']}` |" in page, opt["name"]
