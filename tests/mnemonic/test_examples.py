"""Every worked example and stated number of Mnemonic's Referee's Guide p. 1."""

from __future__ import annotations

import pytest

from referee.dice.roller import ScriptedRoller
from referee.systems.mnemonic.aptitude import aptitude
from referee.systems.mnemonic.checks import CheckResult, chances_value, success_check
from referee.systems.mnemonic.deck import Deck, card_name
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.randomizers import (
    read_median,
    verbal_ab_value,
    verbal_value,
)
from referee.systems.mnemonic.sheet import Sheet, validate
from referee.systems.mnemonic.tables import (
    CHANCES,
    DEFAULT_TALENTS,
    FRIGATE_EQUIVALENTS,
    FRIGATE_TALENTS,
)


def test_chances_ladder_is_the_texts() -> None:
    assert CHANCES.steps == (
        (-9, "Terrible"),
        (-6, "Bad"),
        (-3, "Poor"),
        (0, "Moderate"),
        (3, "Fair"),
        (6, "Good"),
        (9, "Great"),
    )
    # in-between values are allowed: "a -4 or -5 modifier", "+7 or +8"
    assert [chances_value(v) for v in ("-4", "-5", "+7", "+8")] == [-4, -5, 7, 8]


@pytest.mark.parametrize(
    ("total", "success", "successes", "failures", "degree"),
    [
        (-9, False, 0, 9, "Terrible"),  # "9 Failures is Terrible"
        (5, True, 6, 0, "Great"),  # "6 Successes is Great"
        (0, True, 1, 0, "Moderate"),  # "1 Success is Moderate"; zero succeeds
        (-1, False, 0, 1, "Poor"),  # failures are not adjusted
    ],
)
def test_successes_failures_and_degree_examples(
    total: int, success: bool, successes: int, failures: int, degree: str
) -> None:
    r = CheckResult(total)
    assert (r.success, r.successes, r.failures, r.degree) == (success, successes, failures, degree)


def test_default_talent_list_and_frigate_example() -> None:
    assert DEFAULT_TALENTS == (
        "Agile",
        "Dangerous",
        "Disciplined",
        "Handy",
        "Influential",
        "Smart",
        "Tough",
    )
    assert FRIGATE_TALENTS == ("Fast", "Maneuverable", "Sturdy", "Well-Armed")
    assert FRIGATE_EQUIVALENTS == {"Sturdy": "Tough", "Well-Armed": "Dangerous"}
    frigate = Sheet(
        "HMS Example",
        "18th-century frigate",
        {"Fast": 4, "Maneuverable": 3, "Sturdy": 5, "Well-Armed": 5},
        {"Cannoneers": 4, "Navigators": 3, "Boarders": 2, "Sailors": 5},
        talent_list="frigate",
    )
    assert validate(frigate, Options()) == ()


def test_primary_role_fallback_adds_moderately_plus_three() -> None:
    runner = Sheet("Ann", "healthy human", dict.fromkeys(DEFAULT_TALENTS, 2) | {"Agile": 4})
    apt = aptitude(runner, "Agile", fallback="relevant")
    assert apt.value == 4 + 3
    sub = aptitude(runner, "Smart", fallback="irrelevant")  # nuclear submarine: Not At All
    assert sub.value == 2 + 0
    assert "Moderately" in apt.parts[1].source and "Not At All" in sub.parts[1].source


def test_lucky_stands_in_for_the_life_role() -> None:
    opts = Options(use_lucky=True)
    lucky = Sheet("Lu", "human", dict.fromkeys(DEFAULT_TALENTS, 3) | {"Lucky": 5})
    assert validate(lucky, opts) == ()
    assert aptitude(lucky, "Handy", fallback="lucky", options=opts).value == 8


def test_three_dice_median_and_repeated_result() -> None:
    assert read_median((2, 9, 5)) == 5
    assert read_median((7, 3, 7)) == 7  # a result appearing twice is the one chosen


def test_cards_ace_jack_queen_and_no_kings() -> None:
    deck = Deck()
    assert len(deck) == 48
    assert deck.counts() == dict.fromkeys(range(1, 13), 4)
    assert (card_name(1), card_name(11), card_name(12)) == ("Ace", "Jack", "Queen")


def test_verbal_method_wraps_at_thirteen() -> None:
    assert verbal_value(5, 7) == 12
    assert verbal_value(6, 7) == 1
    assert verbal_value(12, 12) == 12
    assert verbal_value(1, 1) == 2


def test_verbal_ab_letters() -> None:
    assert verbal_ab_value(4, "A", 5, "A") == 9  # same letters: the sum
    assert verbal_ab_value(4, "B", 5, "B") == 9
    assert verbal_ab_value(4, "A", 5, "B") == 4  # different: 13 - 9
    assert verbal_ab_value(6, "B", 6, "A") == 1


def test_a_full_check_adds_chances_to_the_check_result() -> None:
    # Aptitude 7 (Fairly Tough + Somewhat Boxer), a d12 showing 9, Chances Fair:
    # 7 - 9 = -2, plus 3 = 1 -> 2 Successes.
    roller = ScriptedRoller([9])
    out = success_check(7, "Fair", roller, options=Options(degree_labels=True))
    roller.assert_exhausted()
    assert out.details["check_result"] == -2
    assert out.result == 1 and out.success is True
    assert out.details["successes"] == 2 and out.details["failures"] == 0
    assert out.label == "2 Successes (Fair)"


def test_three_cards_select_the_middle_value() -> None:
    """ "Draw three cards and select the middle value" - a Queen, an Ace and a 7 give 7;
    the three cards leave the table's deck."""
    from referee.dice.roller import ManualRoller
    from referee.systems.mnemonic import RULESET
    from referee.systems.mnemonic.actions import Check
    from referee.systems.mnemonic.state import State

    opts = Options(randomizer="3cards")
    faces = RULESET.hand_faces(Check(7), State(), opts, cards=(12, 1, 7))
    out = RULESET.resolve(Check(7), State(), ManualRoller(faces), opts)
    assert out.details["value"] == 7 and out.details["cards"] == [12, 1, 7]
    assert [f.kept for f in out.faces] == [False, False, True]
    assert RULESET.apply(State(), out).deck.drawn() == (1, 7, 12)


def test_the_frigate_fights_as_a_character() -> None:
    """ "A character can be a vehicle": the text's frigate attacks with Well-Armed (its
    Dangerous) and its Cannoneers; a Very Sturdy ship resists injury with Sturdy."""
    from referee.systems.mnemonic import RULESET
    from referee.systems.mnemonic.actions import Attack, Injury
    from referee.systems.mnemonic.state import State

    ship = RULESET.examples()["frigate"]
    state = RULESET.seat(State(), "swiftsure", ship, Options())
    broadside = Attack(actor="swiftsure", talent="Well-Armed", life_role="Cannoneers")
    out = RULESET.resolve(broadside, state, ScriptedRoller([5]), Options())
    assert out.result == 4 + 4 - 5 and out.details["hit"] is True
    hit = Injury("dead", victim="swiftsure", talent="Sturdy", chances="Poor")
    out = RULESET.resolve(hit, state, ScriptedRoller([4]), Options())
    # Sturdy 3 + the Primary Role at Moderately 3 - 4 - 3 = -1: the ship is lost
    assert out.result == -1 and out.details["status"] == "inactive (dead)"
