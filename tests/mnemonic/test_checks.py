"""Success Check scenarios for every randomizer, odds against brute force, bad input."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.brute import brute_force
from referee.dice.roller import ManualRoller, ScriptedRoller, SeededRoller
from referee.errors import DiceError, IllegalAction, RulesError
from referee.systems.mnemonic.checks import (
    CheckResult,
    chances_value,
    check_odds,
    check_procedure,
    odds_data,
    success_check,
)
from referee.systems.mnemonic.deck import CardError, Deck
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.tables import RANDOMIZERS


@pytest.mark.parametrize(
    ("randomizer", "faces", "value"),
    [
        ("d12", [8], 8),
        ("3d12", [2, 11, 8], 8),
        ("verbal", [9, 7], 4),
        ("verbal-ab", [3, 1, 5, 2], 5),  # 3A + 5B: different letters, 13 - 8
        ("verbal-ab", [3, 2, 5, 2], 8),  # 3B + 5B: the sum
    ],
)
def test_scripted_checks(randomizer: str, faces: list[int], value: int) -> None:
    roller = ScriptedRoller(faces)
    out = success_check(6, "Poor", roller, randomizer=randomizer)
    roller.assert_exhausted()
    assert out.details["value"] == value
    assert out.result == 6 - value - 3
    assert out.success is (out.result >= 0)
    assert [f.face for f in out.faces] == faces


def test_three_d12_marks_the_median_kept() -> None:
    out = success_check(6, 0, ScriptedRoller([2, 11, 8]), randomizer="3d12")
    assert [f.kept for f in out.faces] == [False, False, True]


def test_card_draw_uses_positions_and_returns_the_new_deck() -> None:
    deck = Deck()
    out = success_check(9, "Moderate", ScriptedRoller([48]), deck=deck, randomizer="cards")
    assert out.details["cards"] == [12] and out.details["value"] == 12
    assert out.result == -3 and out.details["failures"] == 3
    (change,) = out.changes
    assert change.field == "deck" and len(change.value) == 47
    assert change.value.counts()[12] == 3


def test_three_cards_from_a_table_deck_in_turn() -> None:
    deck = Deck()
    first = success_check(6, 0, ScriptedRoller([1, 1, 1]), deck=deck, randomizer="3cards")
    assert first.details["cards"] == [1, 1, 1] and first.details["value"] == 1
    deck = first.changes[0].value
    assert deck.counts()[1] == 1
    second = success_check(6, 0, ScriptedRoller([1, 1, 1]), deck=deck, randomizer="3cards")
    assert second.details["cards"] == [1, 2, 2] and second.details["value"] == 2


def test_hand_entered_cards_must_still_be_in_the_deck() -> None:
    deck = Deck().without([7, 7, 7, 7])
    with pytest.raises(CardError, match=r"card 1 \(7\) is not in the deck"):
        success_check(6, 0, SeededRoller(1), deck=deck, randomizer="cards", cards=[7])
    with pytest.raises(CardError, match=r"card 3 .* not in the deck"):
        success_check(
            6, 0, SeededRoller(1), deck=Deck().without([5, 5]), randomizer="3cards", cards=[5, 5, 5]
        )
    with pytest.raises(CardError, match="draws 3 card"):
        success_check(6, 0, SeededRoller(1), randomizer="3cards", cards=[5])
    out = success_check(6, 0, SeededRoller(1), randomizer="3cards", cards=[12, 1, 3])
    assert out.manual and out.details["value"] == 3 and out.details["cards"] == [12, 1, 3]


def test_short_deck_is_reshuffled_or_refused() -> None:
    short = Deck((4, 9))
    out = success_check(6, 0, SeededRoller(3), deck=short, randomizer="3cards")
    assert out.details["reshuffled"] is True and out.details["deck_left"] == 45
    with pytest.raises(IllegalAction, match="reshuffle"):
        success_check(
            6,
            0,
            SeededRoller(3),
            deck=short,
            randomizer="3cards",
            options=Options(reshuffle_when_short=False),
        )


def test_manual_faces_are_validated() -> None:
    with pytest.raises(DiceError, match="needs 3 faces"):
        success_check(6, 0, ManualRoller([4, 5]), randomizer="3d12")
    with pytest.raises(DiceError, match="impossible on a d6"):
        success_check(6, 0, ManualRoller([7, 1, 2, 1]), randomizer="verbal-ab")
    with pytest.raises(DiceError, match="impossible on a d2"):
        success_check(6, 0, ManualRoller([3, 3, 2, 1]), randomizer="verbal-ab")
    out = success_check(6, 0, ManualRoller([4]), randomizer="d12")
    assert out.manual is True


@pytest.mark.parametrize("randomizer", [r for r in RANDOMIZERS if r != "3cards"])
@pytest.mark.parametrize(("aptitude", "chances"), [(0, -9), (6, 0), (7, 3), (12, 9), (4, -4)])
def test_odds_match_brute_force_of_the_same_rule(
    randomizer: str, aptitude: int, chances: int
) -> None:
    proc = check_procedure(aptitude, chances, randomizer, Deck())
    brute = brute_force(proc.groups, proc.read).map(proc.rule)
    assert check_odds(aptitude, chances, randomizer=randomizer) == brute


def test_three_card_check_odds_match_brute_force() -> None:
    proc = check_procedure(7, 0, "3cards", Deck())
    assert check_odds(7, 0, randomizer="3cards") == brute_force(proc.groups, proc.read).map(
        proc.rule
    )


def test_d12_odds_by_hand() -> None:
    data = odds_data(check_odds(7, "Fair", randomizer="d12"))
    # 7 - v + 3 >= 0 for v <= 10
    assert data["p_success"] == "5/6"
    assert data["successes"] == {str(n): "1/12" for n in range(1, 11)}
    assert data["failures"] == {"1": "1/12", "2": "1/12"}


def test_median_of_three_d12_by_hand() -> None:
    # P(median <= 6) = P(at least two of three <= 6) = 1/2
    assert odds_data(check_odds(6, 0, randomizer="3d12"))["p_success"] == "1/2"
    # P(median = 1) = (1 + 3*11)/1728 = 34/1728
    d = check_odds(6, 0, randomizer="3d12")
    assert d.probability(CheckResult(5)) == Fraction(34, 1728)


def test_card_odds_follow_the_deck() -> None:
    deck = Deck().without([1, 1, 1, 1, 2, 2, 2, 2])  # 40 cards, no 1s or 2s
    data = odds_data(check_odds(2, 0, deck=deck, randomizer="cards"))
    assert data["p_success"] == "0/1"
    assert odds_data(check_odds(3, 0, deck=deck, randomizer="cards"))["p_success"] == "1/10"


@pytest.mark.parametrize(("text", "value"), [("Good", 6), ("terrible", -9), ("+4", 4), ("-5", -5)])
def test_chances_names_and_numbers(text: str, value: int) -> None:
    assert chances_value(text) == value


@pytest.mark.parametrize("bad", ["Awful", "1e3", "", "+999"])
def test_bad_chances_are_clear_errors(bad: str) -> None:
    with pytest.raises(RulesError):
        chances_value(bad)


@pytest.mark.parametrize("aptitude", [-1, 13, 10**9])
def test_aptitude_is_bounded(aptitude: int) -> None:
    with pytest.raises(IllegalAction, match=r"Aptitude must be 0\.\.12"):
        check_odds(aptitude, 0)


def test_unknown_randomizer() -> None:
    with pytest.raises(RulesError, match="unknown randomizer 'd20'"):
        check_odds(6, 0, randomizer="d20")


def test_table_randomizer_option_is_used() -> None:
    out = success_check(6, 0, ScriptedRoller([1, 12, 5]), options=Options(randomizer="3d12"))
    assert out.details["randomizer"] == "3d12" and out.details["value"] == 5


@settings(max_examples=80)
@given(
    st.integers(min_value=0, max_value=12),
    st.integers(min_value=-12, max_value=12),
    st.sampled_from(RANDOMIZERS),
    st.lists(st.integers(min_value=1, max_value=12), max_size=40),
    st.integers(min_value=0, max_value=2**16),
)
def test_every_rolled_result_is_possible_under_the_odds(
    aptitude: int, chances: int, randomizer: str, drawn: list[int], seed: int
) -> None:
    deck = Deck()
    for v in drawn:  # a deck part-way through play
        if v in deck.cards:
            deck = deck.without([v])
    out = success_check(aptitude, chances, SeededRoller(seed), deck=deck, randomizer=randomizer)
    dist = check_odds(aptitude, chances, deck=deck, randomizer=randomizer)
    assert dist.probability(CheckResult(out.result or 0)) > 0
    assert out.details["successes"] == max(0, (out.result or 0) + 1)


def test_check_result_is_a_sound_int() -> None:
    """CheckResult is an int subclass for speed: it must behave as its total everywhere."""
    import json
    import pickle

    r = CheckResult(0)
    assert r == 0 and hash(r) == hash(0) and {r: "x"}[0] == "x"
    assert json.dumps({"total": r}) == '{"total": 0}'
    assert pickle.loads(pickle.dumps(r)) == r and isinstance(
        pickle.loads(pickle.dumps(r)), CheckResult
    )
    assert sorted([CheckResult(2), CheckResult(-3), CheckResult(0)]) == [-3, 0, 2]
    # a total of 0 is a success with 1 Success although the int is falsy: read .success
    assert r.success and r.successes == 1 and r.failures == 0 and not bool(r)
    assert CheckResult(-1).failures == 1 and CheckResult(5).successes == 6
    # equal totals are one outcome of a distribution, whichever type built them
    dist = check_odds(7, 0, randomizer="d12")
    assert dist.probability(CheckResult(0)) == dist.probability(0) == Fraction(1, 12)
    assert all(type(r) is CheckResult for r, _ in dist.items())


def test_degree_thresholds_are_an_option() -> None:
    """The ruling's labels by default; a referee may set other thresholds."""
    ruling = Options(degree_labels=True)
    assert [CheckResult(t).degree_in(ruling) for t in (-9, -4, -3, 0, 1, 3, 5)] == [
        "Terrible",
        "Bad",
        "Poor",
        "Moderate",
        "Fair",
        "Good",
        "Great",
    ]
    own = Options(
        degree_labels=True,
        success_degrees=((1, "Moderate"), (4, "Fair"), (7, "Good"), (10, "Great")),
        failure_degrees=((1, "Poor"), (6, "Bad"), (9, "Terrible")),
    )
    out = success_check(7, "Fair", ScriptedRoller([9]), options=own)  # 2 Successes
    assert out.label == "2 Successes (Moderate)" and out.details["degree"] == "Moderate"
    assert CheckResult(-9).degree_in(own) == "Terrible" and CheckResult(-7).degree_in(own) == "Bad"
    with pytest.raises(RulesError, match="success_degrees must start at 1"):
        Options(success_degrees=((2, "Fair"), (1, "Moderate")))


@pytest.mark.parametrize("randomizer", RANDOMIZERS)
def test_check_formula_plus_reads_faces_the_other_way_with_the_same_odds(
    randomizer: str,
) -> None:
    """COMPANION ruling: Aptitude - value; Aptitude + value - 13 gives the same odds."""
    plus = Options(check_formula="plus")
    assert check_odds(7, 2, options=plus, randomizer=randomizer) == check_odds(
        7, 2, randomizer=randomizer
    )


def test_check_formula_plus_on_a_rolled_face() -> None:
    plus = Options(check_formula="plus")
    out = success_check(7, "Fair", ScriptedRoller([9]), options=plus)
    # 7 + 9 - 13 = 3, plus Fair 3 = 6 -> 7 Successes (minus would give 7 - 9 + 3 = 1)
    assert out.details["check_result"] == 3 and out.result == 6 and out.details["successes"] == 7
    assert out.modifier_total == out.result
    assert success_check(7, "Fair", ScriptedRoller([9])).modifier_total == 1
    with pytest.raises(RulesError, match="check_formula must be one of minus, plus"):
        Options(check_formula="times")
