"""The Ruleset contract: actions resolved against table state, odds from the same rules."""

from __future__ import annotations

from fractions import Fraction

import pytest

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction
from referee.systems.base import Ruleset, describe_options, get
from referee.systems.mnemonic import RULESET
from referee.systems.mnemonic.conflict import Contender
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.ruleset import (
    Attack,
    Check,
    Injury,
    Order,
    Reshuffle,
    SheetCheck,
    TableState,
)
from referee.systems.mnemonic.sheet import Character
from referee.systems.mnemonic.tables import DEFAULT_TALENTS

ANN = Character("Ann", "human", dict.fromkeys(DEFAULT_TALENTS, 3) | {"Tough": 4}, {"Sailor": 5})
STATE = TableState(characters={"Ann": ANN})


def test_registered_and_protocol() -> None:
    assert get("mnemonic") is RULESET
    assert isinstance(RULESET, Ruleset)
    assert set(RULESET.actions()) == {
        "check",
        "sheet-check",
        "attack",
        "injury",
        "order",
        "reshuffle",
    }
    names = {o["name"] for o in describe_options(RULESET.options_type)}
    assert {"randomizer", "use_lucky", "creation", "opposed_rolls", "degree_labels"} <= names
    assert all(o["doc"] for o in describe_options(RULESET.options_type))


def test_sheet_check_resolves_and_odds_agree() -> None:
    action = SheetCheck("Ann", "Agile", "Sailor", chances="Poor")
    out = RULESET.resolve(action, STATE, ScriptedRoller([5]), Options())
    assert out.result == 3 + 5 - 5 - 3
    assert [m.kind for m in out.modifiers][:2] == ["talent", "life role"]
    dist = RULESET.odds(action, STATE, Options())
    assert dist.probability_where(lambda r: r.success) == Fraction(5, 12)


def test_card_check_reads_the_table_deck() -> None:
    deck = Deck().without([12] * 4)
    action = Check(12, 0, randomizer="cards")
    assert RULESET.odds(action, TableState(deck=deck), Options()).probability_where(
        lambda r: r.success
    ) == Fraction(1)
    out = RULESET.resolve(action, TableState(deck=deck), ScriptedRoller([44]), Options())
    assert out.details["cards"] == [11]


def test_reshuffle_gives_a_fresh_deck() -> None:
    out = RULESET.resolve(Reshuffle(), TableState(deck=Deck((1,))), ScriptedRoller([]), Options())
    assert out.changes[0].value == Deck()


def test_attack_plain_and_opposed() -> None:
    plain = RULESET.resolve(Attack(7, "Fair", defense=-3), STATE, ScriptedRoller([7]), Options())
    assert plain.result == 0 and plain.details["hit"]
    opts = Options(opposed_rolls=True)
    opposed = RULESET.resolve(
        Attack(7, "Fair", defender_aptitude=6), STATE, ScriptedRoller([7, 6]), opts
    )
    assert opposed.result == 7 - 7 - 1 + 3
    with pytest.raises(IllegalAction, match="instead of worsening"):
        RULESET.resolve(
            Attack(7, 0, defense=-3, defender_aptitude=6), STATE, ScriptedRoller([]), opts
        )
    with pytest.raises(IllegalAction, match="defender's Aptitude"):
        RULESET.odds(Attack(7, 0), STATE, opts)


def test_injury_of_a_table_character() -> None:
    out = RULESET.resolve(
        Injury("Ann", "unconscious", "Fair"), STATE, ScriptedRoller([11]), Options()
    )
    # Tough 4 + Primary at Moderately 3 - 11 + 3 = -1
    assert out.result == -1 and out.changes[-1].target == "Ann"
    assert str(out.changes[-1].value) == "inactive (unconscious)"
    with pytest.raises(IllegalAction, match="no character 'Bob'"):
        RULESET.resolve(Injury("Bob", "dead"), STATE, ScriptedRoller([1]), Options())


def test_order_referee_and_agile() -> None:
    out = RULESET.resolve(Order(groups=(("Ann",), ("Bo",))), STATE, ScriptedRoller([]), Options())
    assert out.details["order"] == [["Ann"], ["Bo"]]
    agile = Options(initiative="agile")
    action = Order(contenders=(Contender("Ann", 6), Contender("Bo", 6)))
    out = RULESET.resolve(action, STATE, ScriptedRoller([5, 2]), agile)
    assert out.details["order"] == [["Bo"], ["Ann"]]
    dist = RULESET.odds(action, STATE, agile)  # the whole order, as resolve gives it
    # equal Successes: both roll the same value up to 6 (6 of 144), or both fail (6 x 6)
    assert dist.probability((("Ann", "Bo"),)) == Fraction(6 + 36, 144)
    assert dist.probability((("Bo",), ("Ann",))) == Fraction(51, 144)


def test_deck_and_table_state_round_trip_through_json() -> None:
    """A live table stores the deck as plain JSON and gets the same deck back."""
    import json

    from referee.errors import RulesError
    from referee.systems.base import dump_record, load_record

    deck = Deck().without([12, 12, 1])
    text = json.dumps(dump_record(deck))
    back = load_record(Deck, json.loads(text))
    assert back == deck and len(back) == 45 and back.counts()[12] == 2
    state = TableState(deck=deck, characters={"Ann": ANN})
    assert load_record(TableState, json.loads(json.dumps(dump_record(state)))) == state
    with pytest.raises(RulesError, match="impossible cards: \\[13\\]"):
        load_record(Deck, {"cards": [13]})
    with pytest.raises(RulesError, match="impossible cards: \\[1\\]"):
        load_record(Deck, {"cards": [1] * 5})


def test_reshuffle_then_odds_of_the_next_draw() -> None:
    """Odds read the deck as it stands; after the Reshuffle action they are a fresh deck's."""
    deck = Deck().without([1, 1, 1, 1, 2, 2, 2, 2])  # no Aces or 2s left: 40 cards
    action = Check(2, 0, randomizer="cards")
    assert RULESET.odds(action, TableState(deck=deck), Options()).probability_where(
        lambda r: r.success
    ) == Fraction(0)
    out = RULESET.resolve(Reshuffle(), TableState(deck=deck), ScriptedRoller([]), Options())
    fresh = TableState(deck=out.changes[0].value)
    assert RULESET.odds(action, fresh, Options()).probability_where(
        lambda r: r.success
    ) == Fraction(8, 48)


def test_verbal_numbers_played_live_through_the_ruleset() -> None:
    """The player's and the referee's numbers are inputs at a live table."""
    action = Check(6, 0, randomizer="verbal-ab", said=("4A", "5b"))
    out = RULESET.resolve(action, STATE, ScriptedRoller([]), Options())
    # different letters: 13 - (4 + 5) = 4; 6 - 4 = 2 -> 3 Successes
    assert out.details["value"] == 4 and out.result == 2 and out.manual
    assert out.details["numbers"] == "player 4A, referee 5B"
    out = RULESET.resolve(
        SheetCheck("Ann", "Tough", "Sailor", randomizer="verbal", said=("8", "9")),
        STATE,
        ScriptedRoller([]),
        Options(),
    )
    # 8 + 9 = 17 -> 5; Tough 4 + Sailor 5 - 5 = 4
    assert out.details["value"] == 5 and out.result == 4
    hit = RULESET.resolve(
        Attack(7, "Fair", randomizer="verbal", said=("12", "12")),
        STATE,
        ScriptedRoller([]),
        Options(),
    )
    assert hit.details["value"] == 12 and hit.result == -2 and not hit.details["hit"]


def test_actions_load_from_stored_json() -> None:
    from referee.systems.base import dump_record, load_record

    action = Attack(7, "Fair", defense=-3, randomizer="cards", cards=(12,))
    assert load_record(Attack, dump_record(action)) == action
    check = load_record(Check, {"aptitude": 5, "said": ["3", 4], "randomizer": "verbal"})
    assert check == Check(5, randomizer="verbal", said=("3", 4))


def test_resolve_and_odds_refuse_the_same_inputs() -> None:
    opts = Options(opposed_rolls=True)
    bad = Attack(7, 0, defense=-3, defender_aptitude=6)
    for call in (
        lambda: RULESET.resolve(bad, STATE, ScriptedRoller([]), opts),
        lambda: RULESET.odds(bad, STATE, opts),
    ):
        with pytest.raises(IllegalAction, match="instead of worsening"):
            call()
    with pytest.raises(IllegalAction, match="no odds for Reshuffle"):
        RULESET.odds(Reshuffle(), STATE, Options())


def test_every_option_is_documented_with_its_name() -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs/mnemonic.md").read_text()
    for opt in describe_options(Options):
        assert f"| `{opt['name']}` |" in page, opt["name"]


def test_order_refuses_the_other_initiative_method() -> None:
    agile = Options(initiative="agile")
    with pytest.raises(IllegalAction, match=r"is 'agile'.*give contenders, not groups"):
        RULESET.resolve(Order(groups=(("Ann",),)), STATE, ScriptedRoller([]), agile)
    action = Order(contenders=(Contender("Ann", 6),))
    with pytest.raises(IllegalAction, match=r"is 'referee'.*give groups, not contenders"):
        RULESET.resolve(action, STATE, ScriptedRoller([]), Options())
    with pytest.raises(IllegalAction, match="is 'referee'"):
        RULESET.odds(action, STATE, Options())
