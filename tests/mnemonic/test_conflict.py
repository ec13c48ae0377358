"""Fussing and fighting: order of action, attacks, the opposed-rolls option."""

from __future__ import annotations

from fractions import Fraction

import pytest

from referee.dice.brute import brute_force
from referee.dice.odds import Distribution
from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction, RulesError
from referee.systems.mnemonic.checks import CheckResult, check_odds, odds_data
from referee.systems.mnemonic.conflict import (
    Contender,
    agile_order,
    attack,
    attack_odds,
    defense_modifier,
    first_odds,
    opposed_attack,
    opposed_odds,
    opposed_procedure,
    rank,
    referee_order,
)
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.options import Options


def test_referee_order_with_simultaneous_groups() -> None:
    assert referee_order([["Ann"], ["Bo", "Cy"]]) == (("Ann",), ("Bo", "Cy"))
    with pytest.raises(IllegalAction, match="twice"):
        referee_order([["Ann"], ["Ann"]])


def test_agile_checks_most_successes_first_ties_together() -> None:
    people = [Contender("Ann", 6), Contender("Bo", 8, "Poor"), Contender("Cy", 4, "Fair")]
    # Ann 6-3 = 3 (4 Successes); Bo 8-2-3 = 3 (4 Successes); Cy 4-12+3 = -5
    out, checks = agile_order(people, ScriptedRoller([3, 2, 12]))
    assert [c.result for c in checks] == [3, 3, -5]
    assert out.details["order"] == [["Ann", "Bo"], ["Cy"]]
    assert out.label == "Ann & Bo then Cy"


def test_failed_initiative_checks_all_have_no_successes_and_act_together() -> None:
    """RULINGS.md: most Successes first, ties simultaneous; a failure has 0 Successes."""
    results = [("a", CheckResult(-4)), ("b", CheckResult(-1)), ("c", CheckResult(0))]
    assert rank(results) == (("c",), ("a", "b"))
    people = [Contender("Ann", 6), Contender("Bo", 6), Contender("Cy", 6)]
    # Ann 6 - 12 = -6, Bo 6 - 8 = -2, Cy 6 - 6 = 0 (1 Success)
    out, _ = agile_order(people, ScriptedRoller([12, 8, 6]))
    assert out.details["order"] == [["Cy"], ["Ann", "Bo"]]


def test_option_rank_failures_fewest_failures_first() -> None:
    opts = Options(rank_failures=True)
    results = [("a", CheckResult(-4)), ("b", CheckResult(-1)), ("c", CheckResult(0))]
    assert rank(results, opts) == (("c",), ("b",), ("a",))
    people = [Contender("Ann", 6), Contender("Bo", 6), Contender("Cy", 6)]
    out, _ = agile_order(people, ScriptedRoller([12, 8, 6]), options=opts)
    assert out.details["order"] == [["Cy"], ["Bo"], ["Ann"]]


def test_agile_checks_share_the_deck() -> None:
    people = [Contender("Ann", 6), Contender("Bo", 6)]
    out, checks = agile_order(people, ScriptedRoller([1, 1]), deck=Deck(), randomizer="cards")
    assert checks[0].details["cards"] == [1] and checks[1].details["cards"] == [1]
    assert out.changes[0].value.counts()[1] == 2  # both aces left the deck


def test_first_odds_against_brute_force() -> None:
    a, b = Contender("Ann", 6), Contender("Bo", 7, -2)

    def who(faces: tuple[int, ...]) -> str:
        ta, tb = max(0, 6 - faces[0] + 1), max(0, 7 - faces[1] - 2 + 1)  # Successes
        return "Ann" if ta > tb else "Bo" if tb > ta else "simultaneous"

    assert first_odds(a, b) == brute_force([(2, 12)], who)
    # both fail (Ann rolls 7+, Bo 6+): 6/12 * 7/12, plus equal Successes 5/144
    assert first_odds(a, b).probability("simultaneous") == Fraction(42 + 5, 144)

    def by_total(faces: tuple[int, ...]) -> str:
        ta, tb = 6 - faces[0], 7 - faces[1] - 2
        return "Ann" if ta > tb else "Bo" if tb > ta else "simultaneous"

    ranked = first_odds(a, b, options=Options(rank_failures=True))
    assert ranked == brute_force([(2, 12)], by_total)
    cards = first_odds(a, b, randomizer="cards")
    assert cards.probability("simultaneous") == Distribution.of(
        who((x, y))
        for i, x in enumerate(Deck().cards)
        for j, y in enumerate(Deck().cards)
        if i != j
    ).probability("simultaneous")


def test_attack_only_the_attacker_rolls_and_dodging_worsens_chances() -> None:
    out = attack(7, "Fair", ScriptedRoller([9]), defense=defense_modifier(1))
    # 7 - 9 + 3 - 3 = -2: the victim escapes unharmed
    assert out.result == -2 and out.details["hit"] is False
    assert "escapes unharmed" in out.label
    hit = attack(7, "Fair", ScriptedRoller([4]))
    assert hit.result == 6 and hit.details["successes"] == 7 and hit.label.startswith("hit")
    assert attack_odds(7, "Fair", defense=-3) == check_odds(7, 0)
    with pytest.raises(IllegalAction):
        attack(7, 0, ScriptedRoller([4]), defense=3)


def test_opposed_rolls_subtract_the_defenders_successes() -> None:
    # attacker 8 - 3 = 5; defender 6 - 4 + 0 = 2 -> 3 Successes; 5 - 3 + 3 (Fair) = 5
    out = opposed_attack(8, "Fair", 6, 0, ScriptedRoller([3, 4]))
    assert out.details["defender_successes"] == 3
    assert out.result == 5 and out.details["successes"] == 6
    # a failed defence subtracts nothing: defender 6 - 10 = -4
    out = opposed_attack(8, 0, 6, 0, ScriptedRoller([9, 10]))
    assert out.details["defender_successes"] == 0 and out.result == -1


@pytest.mark.parametrize("randomizer", ["d12", "3d12", "verbal"])
def test_opposed_odds_against_brute_force(randomizer: str) -> None:
    proc = opposed_procedure(7, 3, 6, -3, randomizer)
    assert opposed_odds(7, 3, 6, -3, randomizer=randomizer) == brute_force(
        proc.groups, proc.read
    ).map(proc.rule)


def test_opposed_odds_with_cards_from_one_deck() -> None:
    deck = Deck().without([3, 3, 10])
    proc = opposed_procedure(7, 0, 6, 0, "cards", deck)
    assert opposed_odds(7, 0, 6, 0, deck=deck, randomizer="cards") == brute_force(
        proc.groups, proc.read
    ).map(proc.rule)
    small = Deck((1, 3, 5, 6, 8, 8, 11))
    proc3 = opposed_procedure(7, 0, 6, 0, "3cards", small)
    assert opposed_odds(7, 0, 6, 0, deck=small, randomizer="3cards") == brute_force(
        proc3.groups, proc3.read
    ).map(proc3.rule)


def test_opposed_rolls_reduce_extreme_results() -> None:
    single = odds_data(check_odds(7, 0))
    opposed = odds_data(opposed_odds(7, 0, 6, 0))
    assert max(map(int, opposed["successes"])) <= max(map(int, single["successes"]))


def test_opposed_hand_entered_cards() -> None:
    out = opposed_attack(7, 0, 6, 0, ScriptedRoller([]), randomizer="cards", cards=[2, 12])
    assert out.manual and out.details["attacker_value"] == 2 and out.details["defender_value"] == 12
    assert out.changes[0].value.counts()[12] == 3


def test_first_odds_when_the_first_check_empties_the_deck() -> None:
    a, b = Contender("Ann", 6), Contender("Bo", 6)
    deck = Deck((2,))
    dist = first_odds(a, b, deck=deck, randomizer="cards")
    # Ann surely draws the 2 (total 4); Bo draws from a fresh deck: ties on a 2 (4/48)
    assert dist.probability("simultaneous") == Fraction(4, 48)
    assert dist.probability("Bo") == Fraction(4, 48)  # only an Ace beats Ann
    _, checks = agile_order([a, b], ScriptedRoller([1, 48]), deck=deck, randomizer="cards")
    assert checks[1].details["reshuffled"] is True and checks[1].details["cards"] == [12]


def test_option_reshuffle_every_check() -> None:
    """Every check draws from a full deck: no card is missing however many were drawn."""
    opts = Options(reshuffle_every_check=True, randomizer="cards")
    deck = Deck().without([1, 1, 1, 1])  # no Aces left
    assert check_odds(1, 0, options=opts, deck=deck).probability_where(
        lambda r: r.success
    ) == Fraction(4, 48)
    out = agile_order(
        [Contender("Ann", 6), Contender("Bo", 6)], ScriptedRoller([1, 1]), options=opts, deck=deck
    )[1]
    # both draw position 1 of a full deck: an Ace each, though the deck had none
    assert [c.details["cards"] for c in out] == [[1], [1]]
    assert out[0].details["reshuffled"] is True and out[1].details["reshuffled"] is True
    a, b = Contender("Ann", 6), Contender("Bo", 6)
    # independent full decks: as two d12s
    assert first_odds(a, b, options=opts, deck=deck) == first_odds(a, b, randomizer="d12")


def test_check_formula_plus_in_opposed_rolls_and_order() -> None:
    from referee.systems.mnemonic.conflict import opposed_attack, opposed_odds
    from referee.systems.mnemonic.health import injury

    plus = Options(check_formula="plus")
    out = opposed_attack(8, "Fair", 6, 0, ScriptedRoller([10, 9]), options=plus)
    # attacker 8 + 10 - 13 = 5; defender 6 + 9 - 13 = 2 -> 3 Successes; 5 - 3 + 3 = 5
    assert out.details["attacker_check"] == 5 and out.details["defender_successes"] == 3
    assert out.result == 5 and out.modifier_total == 5
    assert opposed_odds(8, "Fair", 6, 0, options=plus) == opposed_odds(8, "Fair", 6, 0)
    a, b = Contender("Ann", 6), Contender("Bo", 7, -2)
    assert first_odds(a, b, options=plus) == first_odds(a, b)
    hurt = injury(8, 0, "dead", ScriptedRoller([2]), options=plus)  # 8 + 2 - 13 = -3
    assert hurt.result == -3 and str(hurt.changes[-1].value) == "inactive (dead)"


def test_order_odds_of_three_against_brute_force() -> None:
    from referee.systems.mnemonic.conflict import order_odds

    people = [Contender("Ann", 6), Contender("Bo", 8, "Poor"), Contender("Cy", 4, "Fair")]

    def order(faces: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
        results = [
            ("Ann", CheckResult(6 - faces[0])),
            ("Bo", CheckResult(8 - faces[1] - 3)),
            ("Cy", CheckResult(4 - faces[2] + 3)),
        ]
        return rank(results)

    dist = order_odds(people)
    assert dist == brute_force([(3, 12)], order)
    # all act together: all fail (Ann 7+: 6, Bo 6+: 7, Cy 8+: 5 faces of 12), or all
    # score s Successes alike (Ann 7 - s, Bo 6 - s, Cy 8 - s: s = 1..5)
    assert dist.probability((("Ann", "Bo", "Cy"),)) == Fraction(6 * 7 * 5 + 5, 12**3)
    # every rolled order is possible under the odds
    out, _ = agile_order(people, ScriptedRoller([3, 2, 12]))
    assert dist.probability(tuple(tuple(g) for g in out.details["order"])) > 0


def test_order_odds_with_cards_follow_the_deck_and_match_two_way_odds() -> None:
    from referee.systems.mnemonic.conflict import order_odds

    a, b = Contender("Ann", 6), Contender("Bo", 7, -2)
    two = order_odds([a, b], randomizer="cards")
    first = first_odds(a, b, randomizer="cards")
    assert two.probability((("Ann", "Bo"),)) == first.probability("simultaneous")
    assert two.probability((("Ann",), ("Bo",))) == first.probability("Ann")
    # a short deck: Ann takes the last card (a 2), Bo draws from a reshuffled deck
    short = order_odds([a, b], randomizer="cards", deck=Deck((2,)))
    assert short.probability((("Ann", "Bo"),)) == Fraction(4, 48)
    three = [a, b, Contender("Cy", 5)]
    ordered = Distribution.of(
        rank(
            [
                ("Ann", CheckResult(6 - x)),
                ("Bo", CheckResult(7 - y - 2)),
                ("Cy", CheckResult(5 - z)),
            ]
        )
        for i, x in enumerate(Deck().cards)
        for j, y in enumerate(Deck().cards)
        for m, z in enumerate(Deck().cards)
        if len({i, j, m}) == 3
    )
    assert order_odds(three, randomizer="cards") == ordered
    with pytest.raises(RulesError, match=r"1\.\.2 different characters with 3cards"):
        order_odds(three, randomizer="3cards")
