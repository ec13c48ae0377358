"""Success Check scenarios for every randomizer, odds against brute force, bad input."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.brute import brute_force
from referee.dice.roller import ManualRoller, ScriptedRoller, SeededRoller
from referee.errors import DiceError, IllegalAction, RulesError
from referee.systems.base import Outcome
from referee.systems.mnemonic import RULESET
from referee.systems.mnemonic.actions import Check
from referee.systems.mnemonic.checks import (
    RESULT_SPAN,
    CheckResult,
    chances_value,
    check_odds,
    check_procedure,
    check_rule,
    odds_data,
    success_check,
)
from referee.systems.mnemonic.deck import CardError, Deck
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.randomizers import randomizer_odds
from referee.systems.mnemonic.state import State
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
    assert change.target == "table" and change.field == "deck"
    after = RULESET.apply(State(deck=deck), out).deck
    assert len(after) == 47 and after.counts()[12] == 3


def test_three_cards_from_a_table_deck_in_turn() -> None:
    opts = Options(randomizer="3cards")
    state = State()
    first = RULESET.resolve(Check(6), state, ScriptedRoller([1, 1, 1]), opts)
    assert first.details["cards"] == [1, 1, 1] and first.details["value"] == 1
    state = RULESET.apply(state, first)
    assert state.deck.counts()[1] == 1
    second = RULESET.resolve(Check(6), state, ScriptedRoller([1, 1, 1]), opts)
    assert second.details["cards"] == [1, 2, 2] and second.details["value"] == 2


def _by_hand(cards: list[int], randomizer: str, deck: Deck = Deck()) -> Outcome:  # noqa: B008
    """A check with card values drawn at a real table, as every edge enters them."""
    opts, state = Options(randomizer=randomizer), State(deck=deck)
    faces = RULESET.hand_faces(Check(6), state, opts, cards=tuple(cards))
    return RULESET.resolve(Check(6), state, ManualRoller(faces), opts)


def test_hand_entered_cards_must_still_be_in_the_deck() -> None:
    deck = Deck().without([7, 7, 7, 7])
    with pytest.raises(CardError, match=r"card 1 \(7\) is not in the deck"):
        _by_hand([7], "cards", deck)
    with pytest.raises(CardError, match=r"card 3 .* not in the deck"):
        _by_hand([5, 5, 5], "3cards", Deck().without([5, 5]))
    with pytest.raises(CardError, match="draws 3 card"):
        _by_hand([5], "3cards")
    out = _by_hand([12, 1, 3], "3cards")
    assert out.manual and out.details["value"] == 3 and out.details["cards"] == [12, 1, 3]
    with pytest.raises(RulesError, match="only for the card randomizers"):
        RULESET.hand_faces(Check(6), State(), Options(), cards=(5,))


def test_hand_entered_cards_after_an_automatic_reshuffle() -> None:
    """A short deck is reshuffled before the draw: the cards typed in come from the full deck."""
    out = _by_hand([12, 12, 12], "3cards", Deck((4, 9)))
    assert out.details["reshuffled"] is True and out.details["deck_left"] == 45


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


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 12), max_size=40))
def test_a_decks_counts_are_its_cards_counted_and_not_part_of_its_value(
    taken: list[int],
) -> None:
    """The counts a deck keeps (made once, with the deck) are its cards counted, in
    value order; the deck's JSON, equality and hash are its cards alone."""
    from referee.systems.outcome import jsonable

    left = list(Deck().cards)
    for v in taken:
        if v in left:
            left.remove(v)
    deck = Deck(tuple(reversed(left)))  # any order in: sorted on the way
    assert deck.counts() == dict(sorted(Counter(left).items()))
    assert jsonable(deck) == {"cards": sorted(left)}
    assert deck == Deck(tuple(left)) and hash(deck) == hash(Deck(tuple(left)))
    deck.counts()[1] = 99  # a copy: the deck is unchanged
    assert deck.counts() == dict(sorted(Counter(left).items()))


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


@pytest.mark.parametrize("formula", ["minus", "plus"])
@pytest.mark.parametrize("randomizer", ["d12", "3d12", "verbal", "verbal-ab", "cards"])
@pytest.mark.parametrize(("aptitude", "chances"), [(0, -60), (7, 3), (12, 60), (0, 0)])
def test_the_rule_over_a_whole_distribution_is_the_rule_on_each_value(
    formula: str, randomizer: str, aptitude: int, chances: int
) -> None:
    """CheckRule.over (the odds) gives what calling the rule value by value gives
    (the roll), down to the result type, at the extremes of valid input."""
    rule = check_rule(aptitude, chances, formula)
    values = randomizer_odds(randomizer)
    over = rule.over(values)
    counted: dict[int, int] = {}
    for value, weight in values.items():
        counted[rule(value)] = counted.get(rule(value), 0) + weight
    assert over.weights() == dict(sorted(counted.items()))
    assert all(type(r) is CheckResult for r in over.outcomes())
    assert (
        check_odds(aptitude, chances, randomizer=randomizer, options=Options(check_formula=formula))
        == over
    )


def test_the_rule_over_results_beyond_the_table_still_counts_them() -> None:
    """A rule built past the valid inputs' span falls back to calling it per value."""
    rule = check_rule(RESULT_SPAN + 5, 0)
    over = rule.over(randomizer_odds("d12"))
    assert over.outcomes() == tuple(CheckResult(RESULT_SPAN + 5 - v) for v in range(12, 0, -1))
    assert all(type(r) is CheckResult for r in over.outcomes())


def test_check_formula_plus_on_a_rolled_face() -> None:
    plus = Options(check_formula="plus")
    out = success_check(7, "Fair", ScriptedRoller([9]), options=plus)
    # 7 + 9 - 13 = 3, plus Fair 3 = 6 -> 7 Successes (minus would give 7 - 9 + 3 = 1)
    assert out.details["check_result"] == 3 and out.result == 6 and out.details["successes"] == 7
    assert out.modifier_total == out.result
    assert success_check(7, "Fair", ScriptedRoller([9])).modifier_total == 1
    with pytest.raises(RulesError, match="check_formula must be one of minus, plus"):
        Options(check_formula="times")


# ---------------------------------------------------------------------------
# An independent reader of the Success Check, written from the text alone
# (Referee's Guide p. 1, "applying chances" and "success check options", with
# the COMPANION ruling check result = Aptitude - randomizer value). It imports
# nothing of the package's rules: it enumerates every equally likely way the
# randomizer can fall, reads the number as the text says, and counts.

TEXT_DECK = [value for value in range(1, 13) for _suit in "SHDC"]
"""A poker deck, aces as ones, jacks as elevens, queens as twelves; kings and jokers out."""


def middle(values: tuple[int, ...]) -> int:
    """ "Select the median result, that is, the middle number." """
    return sorted(values)[1]


def text_values(randomizer: str, deck: list[int]) -> list[int]:
    """Every equally likely randomizer number, one entry per way it can come up."""
    numbers = range(1, 13)
    if randomizer == "d12":
        return list(numbers)
    if randomizer == "3d12":
        return [middle(roll) for roll in product(numbers, repeat=3)]
    if randomizer == "cards":
        return list(deck)
    if randomizer == "3cards":
        return [middle(hand) for hand in permutations(deck, 3)]
    if randomizer == "verbal":  # added; 13 or more: subtract 12
        return [p + r if p + r <= 12 else p + r - 12 for p in numbers for r in numbers]
    assert randomizer == "verbal-ab"  # same letters: the total; different: 13 - the total
    return [
        p + r if pl == rl else 13 - (p + r)
        for p, pl, r, rl in product(range(1, 7), "AB", range(1, 7), "AB")
    ]


def text_result(aptitude: int, value: int, chances: int) -> tuple[str, int]:
    """ "If the total is zero or a positive number the action has succeeded; increase
    the result by one ... If the final number is negative ... the number of Failures." """
    total = aptitude - value + chances
    return ("Success", total + 1) if total >= 0 else ("Failure", -total)


def text_odds(results: list[tuple[str, int]]) -> dict[str, object]:
    """The reader's counts in the shape of the package's odds report."""
    counts = Counter(results)
    n = len(results)

    def share(k: int) -> str:
        f = Fraction(k, n)
        return f"{f.numerator}/{f.denominator}"

    wins = sum(k for (kind, _), k in counts.items() if kind == "Success")
    return {
        "p_success": share(wins),
        "successes": {
            str(c): share(k) for (kind, c), k in sorted(counts.items()) if kind == "Success"
        },
        "failures": {
            str(c): share(k) for (kind, c), k in sorted(counts.items()) if kind == "Failure"
        },
    }


def package_odds(aptitude: int, chances: int, randomizer: str, deck: Deck) -> dict[str, object]:
    opts = Options(randomizer=randomizer)
    data = odds_data(RULESET.odds(Check(aptitude, chances), State(deck=deck), opts))
    assert data == odds_data(check_odds(aptitude, chances, options=opts, deck=deck))
    return data


def _sorted_by_count(data: dict[str, object]) -> dict[str, object]:
    out = dict(data)
    for key in ("successes", "failures"):
        part = data[key]
        assert isinstance(part, dict)
        out[key] = dict(sorted(part.items(), key=lambda kv: int(kv[0])))
    return out


PART_WAY = [1, 1, 2, 5, 5, 5, 7, 9, 11, 12, 12, 12, 12, 3, 8, 10, 6, 4]
"""Cards out of the deck part-way through play (30 left)."""


@pytest.mark.parametrize("randomizer", RANDOMIZERS)
@pytest.mark.parametrize(("aptitude", "chances"), [(0, -9), (7, 3), (6, 0), (12, 9), (4, -4)])
def test_every_randomizer_against_the_texts_reading(
    randomizer: str, aptitude: int, chances: int
) -> None:
    reader = text_odds(
        [text_result(aptitude, v, chances) for v in text_values(randomizer, TEXT_DECK)]
    )
    assert _sorted_by_count(package_odds(aptitude, chances, randomizer, Deck())) == reader


@pytest.mark.parametrize("randomizer", ["cards", "3cards"])
@pytest.mark.parametrize(("aptitude", "chances"), [(7, 3), (2, 0), (9, -6)])
def test_card_draws_from_a_deck_part_way_through_play(
    randomizer: str, aptitude: int, chances: int
) -> None:
    left = list(TEXT_DECK)
    for card in PART_WAY:
        left.remove(card)
    deck = Deck().without(PART_WAY)
    reader = text_odds([text_result(aptitude, v, chances) for v in text_values(randomizer, left)])
    assert _sorted_by_count(package_odds(aptitude, chances, randomizer, deck)) == reader


@settings(max_examples=40)
@given(
    st.integers(min_value=0, max_value=12),
    st.integers(min_value=-15, max_value=15),
    st.sampled_from(RANDOMIZERS),
    st.lists(st.integers(min_value=0, max_value=47), min_size=20, max_size=45, unique=True),
)
def test_any_check_against_the_texts_reading(
    aptitude: int, chances: int, randomizer: str, out: list[int]
) -> None:
    """Any Aptitude, Chances and randomizer, with cards from a deck missing 20..45 cards."""
    left = [card for i, card in enumerate(TEXT_DECK) if i not in out]
    deck = Deck(tuple(left))
    reader = text_odds([text_result(aptitude, v, chances) for v in text_values(randomizer, left)])
    assert _sorted_by_count(package_odds(aptitude, chances, randomizer, deck)) == reader


@pytest.mark.parametrize("randomizer", RANDOMIZERS)
def test_every_rolled_check_reads_as_the_text_says(randomizer: str) -> None:
    """A resolved check's faces, read by the text, give the outcome's Successes/Failures."""
    opts = Options(randomizer=randomizer)
    state = State()
    for seed in range(30):
        out = RULESET.resolve(Check(7, 3), state, SeededRoller(seed), opts)
        shown = [f.face for f in out.faces]
        value = middle(tuple(shown)) if len(shown) == 3 else out.details["value"]
        if randomizer == "verbal":
            p, r = shown
            value = p + r if p + r <= 12 else p + r - 12
        if randomizer == "verbal-ab":
            p, pl, r, rl = shown
            value = p + r if pl == rl else 13 - (p + r)
        if randomizer in ("d12", "cards"):
            (value,) = shown
        kind, n = text_result(7, value, 3)
        assert (out.details["successes"], out.details["failures"]) == (
            (n, 0) if kind == "Success" else (0, n)
        )
        state = RULESET.apply(state, out)
