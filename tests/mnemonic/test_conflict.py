"""Fussing and fighting: order of action, attacks, the opposed-rolls option."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from itertools import permutations, product
from math import prod

import pytest

from referee.dice.brute import brute_force
from referee.dice.odds import Distribution
from referee.dice.roller import ManualRoller, ScriptedRoller
from referee.errors import IllegalAction, OddsTooComplex
from referee.systems.base import Action, Outcome, Procedure
from referee.systems.mnemonic import RULESET
from referee.systems.mnemonic.actions import AgileOrder, Attack, Check, Contender
from referee.systems.mnemonic.checks import CheckResult, odds_data
from referee.systems.mnemonic.conflict import (
    defense_modifier,
    first_of,
    opposed_rule,
    rank,
    referee_order,
)
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.randomizers import pair_procedure
from referee.systems.mnemonic.state import State

OPPOSED = Options(opposed_rolls=True)


def resolve(
    action: Action,
    faces: Sequence[int],
    options: Options = Options(),  # noqa: B008
    deck: Deck = Deck(),  # noqa: B008
) -> Outcome:
    roller = ScriptedRoller(faces)
    out = RULESET.resolve(action, State(deck=deck), roller, options)
    roller.assert_exhausted()
    return out


def odds(
    action: Action,
    options: Options = Options(),  # noqa: B008
    deck: Deck = Deck(),  # noqa: B008
) -> Distribution[Hashable]:
    return RULESET.odds(action, State(deck=deck), options)


def agile(*people: Contender) -> AgileOrder:
    return AgileOrder(tuple(people))


def test_referee_order_with_simultaneous_groups() -> None:
    assert referee_order([["Ann"], ["Bo", "Cy"]]) == (("Ann",), ("Bo", "Cy"))
    with pytest.raises(IllegalAction, match="twice"):
        referee_order([["Ann"], ["Ann"]])


def test_agile_checks_most_successes_first_ties_together() -> None:
    people = agile(Contender("Ann", 6), Contender("Bo", 8, "Poor"), Contender("Cy", 4, "Fair"))
    # Ann 6-3 = 3 (4 Successes); Bo 8-2-3 = 3 (4 Successes); Cy 4-12+3 = -5
    out = resolve(people, [3, 2, 12])
    assert [c["total"] for c in out.items("checks")] == [3, 3, -5]
    assert out.details["order"] == [["Ann", "Bo"], ["Cy"]]
    assert out.label == "Ann & Bo then Cy"


def test_failed_initiative_checks_all_have_no_successes_and_act_together() -> None:
    """RULINGS.md: most Successes first, ties simultaneous; a failure has 0 Successes."""
    results = [("a", CheckResult(-4)), ("b", CheckResult(-1)), ("c", CheckResult(0))]
    assert rank(results) == (("c",), ("a", "b"))
    # Ann 6 - 12 = -6, Bo 6 - 8 = -2, Cy 6 - 6 = 0 (1 Success)
    out = resolve(agile(Contender("Ann", 6), Contender("Bo", 6), Contender("Cy", 6)), [12, 8, 6])
    assert out.details["order"] == [["Cy"], ["Ann", "Bo"]]


def test_option_rank_failures_fewest_failures_first() -> None:
    opts = Options(rank_failures=True)
    results = [("a", CheckResult(-4)), ("b", CheckResult(-1)), ("c", CheckResult(0))]
    assert rank(results, opts) == (("c",), ("b",), ("a",))
    people = agile(Contender("Ann", 6), Contender("Bo", 6), Contender("Cy", 6))
    assert resolve(people, [12, 8, 6], opts).details["order"] == [["Cy"], ["Bo"], ["Ann"]]


def test_agile_checks_share_the_deck() -> None:
    cards = Options(randomizer="cards")
    out = resolve(agile(Contender("Ann", 6), Contender("Bo", 6)), [1, 1], cards)
    assert [c["cards"] for c in out.items("checks")] == [[1], [1]]
    after = RULESET.apply(State(), out)
    assert after.deck.counts()[1] == 2  # both aces left the deck
    assert after.order == (("Ann", "Bo"),)


def test_first_odds_against_brute_force() -> None:
    a, b = Contender("Ann", 6), Contender("Bo", 7, -2)

    def who(faces: tuple[int, ...]) -> str:
        ta, tb = max(0, 6 - faces[0] + 1), max(0, 7 - faces[1] - 2 + 1)  # Successes
        return "Ann" if ta > tb else "Bo" if tb > ta else "simultaneous"

    first = odds(agile(a, b)).map(first_of)
    assert first == brute_force([(2, 12)], who)
    # both fail (Ann rolls 7+, Bo 6+): 6/12 * 7/12, plus equal Successes 5/144
    assert first.probability("simultaneous") == Fraction(42 + 5, 144)

    def by_total(faces: tuple[int, ...]) -> str:
        ta, tb = 6 - faces[0], 7 - faces[1] - 2
        return "Ann" if ta > tb else "Bo" if tb > ta else "simultaneous"

    ranked = odds(agile(a, b), Options(rank_failures=True)).map(first_of)
    assert ranked == brute_force([(2, 12)], by_total)
    cards = odds(agile(a, b), Options(randomizer="cards")).map(first_of)
    assert cards.probability("simultaneous") == Distribution.of(
        who((x, y))
        for i, x in enumerate(Deck().cards)
        for j, y in enumerate(Deck().cards)
        if i != j
    ).probability("simultaneous")


def test_attack_only_the_attacker_rolls_and_dodging_worsens_chances() -> None:
    out = resolve(Attack(aptitude=7, chances="Fair", defense=defense_modifier(1)), [9])
    # 7 - 9 + 3 - 3 = -2: the victim escapes unharmed
    assert out.result == -2 and out.details["hit"] is False
    assert "escapes unharmed" in out.label
    hit = resolve(Attack(aptitude=7, chances="Fair"), [4])
    assert hit.result == 6 and hit.details["successes"] == 7 and hit.label.startswith("hit")
    assert odds(Attack(aptitude=7, chances="Fair", defense=-3)) == odds(Check(7, 0))
    with pytest.raises(IllegalAction, match="defense: must be between -60 and 0"):
        Attack(aptitude=7, defense=3)


def test_opposed_rolls_subtract_the_defenders_successes() -> None:
    # attacker 8 - 3 = 5; defender 6 - 4 + 0 = 2 -> 3 Successes; 5 - 3 + 3 (Fair) = 5
    out = resolve(Attack(aptitude=8, chances="Fair", defender_aptitude=6), [3, 4], OPPOSED)
    assert out.details["defender_successes"] == 3
    assert out.result == 5 and out.details["successes"] == 6
    # a failed defence subtracts nothing: defender 6 - 10 = -4
    out = resolve(Attack(aptitude=8, defender_aptitude=6), [9, 10], OPPOSED)
    assert out.details["defender_successes"] == 0 and out.result == -1


def opposed_procedure(
    attacker: int,
    chances: int,
    defender: int,
    defender_chances: int,
    name: str,
    deck: Deck = Deck(),  # noqa: B008
) -> Procedure[tuple[int, int], CheckResult]:
    """The pair of randomizer values (one deck for cards) through the opposed rule."""
    pair = pair_procedure(name, deck)
    rule = opposed_rule(attacker, chances, defender, defender_chances)
    return Procedure(pair.groups, pair.read, pair.exact, rule)


@pytest.mark.slow
@pytest.mark.parametrize("randomizer", ["d12", "3d12", "verbal"])
def test_opposed_odds_against_brute_force(randomizer: str) -> None:
    proc = opposed_procedure(7, 3, 6, -3, randomizer)
    action = Attack(aptitude=7, chances=3, defender_aptitude=6, defender_chances=-3)
    opts = Options(randomizer=randomizer, opposed_rolls=True)
    assert odds(action, opts) == brute_force(proc.groups, proc.read).map(proc.rule)


def test_opposed_odds_with_cards_from_one_deck() -> None:
    action = Attack(aptitude=7, defender_aptitude=6)
    deck = Deck().without([3, 3, 10])
    proc = opposed_procedure(7, 0, 6, 0, "cards", deck)
    opts = Options(randomizer="cards", opposed_rolls=True)
    assert odds(action, opts, deck) == brute_force(proc.groups, proc.read).map(proc.rule)
    small = Deck((1, 3, 5, 6, 8, 8, 11))
    proc3 = opposed_procedure(7, 0, 6, 0, "3cards", small)
    three = Options(randomizer="3cards", opposed_rolls=True)
    assert odds(action, three, small) == brute_force(proc3.groups, proc3.read).map(proc3.rule)


def test_opposed_rolls_reduce_extreme_results() -> None:
    single = odds_data(odds(Check(7, 0)))
    opposed = odds_data(odds(Attack(aptitude=7, defender_aptitude=6), OPPOSED))
    assert max(map(int, opposed["successes"])) <= max(map(int, single["successes"]))


def test_opposed_hand_entered_cards() -> None:
    opts = Options(randomizer="cards", opposed_rolls=True)
    action = Attack(aptitude=7, defender_aptitude=6)
    faces = RULESET.hand_faces(action, State(), opts, cards=(2, 12))
    out = RULESET.resolve(action, State(), ManualRoller(faces), opts)
    assert out.manual and out.details["attacker_value"] == 2 and out.details["defender_value"] == 12
    assert RULESET.apply(State(), out).deck.counts()[12] == 3


def test_first_odds_when_the_first_check_empties_the_deck() -> None:
    people = agile(Contender("Ann", 6), Contender("Bo", 6))
    cards = Options(randomizer="cards")
    dist = odds(people, cards, Deck((2,))).map(first_of)
    # Ann surely draws the 2 (total 4); Bo draws from a fresh deck: ties on a 2 (4/48)
    assert dist.probability("simultaneous") == Fraction(4, 48)
    assert dist.probability("Bo") == Fraction(4, 48)  # only an Ace beats Ann
    out = resolve(people, [1, 48], cards, Deck((2,)))
    checks = out.items("checks")
    assert checks[1]["reshuffled"] is True and checks[1]["cards"] == [12]


def test_option_reshuffle_every_check() -> None:
    """Every check draws from a full deck: no card is missing however many were drawn."""
    opts = Options(reshuffle_every_check=True, randomizer="cards")
    deck = Deck().without([1, 1, 1, 1])  # no Aces left
    assert odds(Check(1), opts, deck).probability_where(
        lambda r: CheckResult(r).success
    ) == Fraction(4, 48)
    people = agile(Contender("Ann", 6), Contender("Bo", 6))
    checks = resolve(people, [1, 1], opts, deck).items("checks")
    # both draw position 1 of a full deck: an Ace each, though the deck had none
    assert [c["cards"] for c in checks] == [[1], [1]]
    assert [c["reshuffled"] for c in checks] == [True, True]
    # independent full decks: as two d12s
    assert odds(people, opts, deck) == odds(people)


def test_check_formula_plus_in_opposed_rolls_and_order() -> None:
    plus = Options(check_formula="plus", opposed_rolls=True)
    action = Attack(aptitude=8, chances="Fair", defender_aptitude=6)
    out = resolve(action, [10, 9], plus)
    # attacker 8 + 10 - 13 = 5; defender 6 + 9 - 13 = 2 -> 3 Successes; 5 - 3 + 3 = 5
    assert out.details["attacker_check"] == 5 and out.details["defender_successes"] == 3
    assert out.result == 5 and out.modifier_total == 5
    assert odds(action, plus) == odds(action, OPPOSED)
    people = agile(Contender("Ann", 6), Contender("Bo", 7, -2))
    assert odds(people, Options(check_formula="plus")) == odds(people)


def test_order_odds_of_three_against_brute_force() -> None:
    people = agile(Contender("Ann", 6), Contender("Bo", 8, "Poor"), Contender("Cy", 4, "Fair"))

    def order(faces: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
        results = [
            ("Ann", CheckResult(6 - faces[0])),
            ("Bo", CheckResult(8 - faces[1] - 3)),
            ("Cy", CheckResult(4 - faces[2] + 3)),
        ]
        return rank(results)

    dist = odds(people)
    assert dist == brute_force([(3, 12)], order)
    # all act together: all fail (Ann 7+: 6, Bo 6+: 7, Cy 8+: 5 faces of 12), or all
    # score s Successes alike (Ann 7 - s, Bo 6 - s, Cy 8 - s: s = 1..5)
    assert dist.probability((("Ann", "Bo", "Cy"),)) == Fraction(6 * 7 * 5 + 5, 12**3)
    # every rolled order is possible under the odds
    out = resolve(people, [3, 2, 12])
    assert dist.probability(tuple(tuple(g) for g in out.details["order"])) > 0


def test_order_odds_with_cards_follow_the_deck_and_are_bounded() -> None:
    cards = Options(randomizer="cards")
    a, b = Contender("Ann", 6), Contender("Bo", 7, -2)
    two = odds(agile(a, b), cards)
    first = two.map(first_of)
    assert two.probability((("Ann", "Bo"),)) == first.probability("simultaneous")
    assert two.probability((("Ann",), ("Bo",))) == first.probability("Ann")
    # a short deck: Ann takes the last card (a 2), Bo draws from a reshuffled deck
    assert odds(agile(a, b), cards, Deck((2,))).probability((("Ann", "Bo"),)) == Fraction(4, 48)
    three = agile(a, b, Contender("Cy", 5))
    with pytest.raises(OddsTooComplex, match=r"1\.\.2 characters with 3cards"):
        odds(three, Options(randomizer="3cards"))
    # resolving is never refused: four Agile checks drawing three cards each
    four = agile(*three.contenders, Contender("Di", 5))
    out = resolve(four, [1] * 12, Options(randomizer="3cards"))
    assert len(out.items("checks")) == 4


# ---------------------------------------------------------------------------
# An independent reader of "fussing and fighting", written from the text alone
# (and RULINGS.md for what the text leaves open); it imports none of the
# package's rules. Each randomizer falls every equally likely way; cards come
# from one 48-card deck without replacement.

TEXT_DECK = [value for value in range(1, 13) for _suit in "SHDC"]


def one_value(randomizer: str) -> list[int]:
    """Every equally likely number of one check with a die or the verbal methods."""
    numbers = range(1, 13)
    if randomizer == "d12":
        return list(numbers)
    if randomizer == "3d12":
        return [sorted(roll)[1] for roll in product(numbers, repeat=3)]
    if randomizer == "verbal":
        return [p + r if p + r <= 12 else p + r - 12 for p in numbers for r in numbers]
    return [
        p + r if pl == rl else 13 - (p + r)
        for p, pl, r, rl in product(range(1, 7), "AB", range(1, 7), "AB")
    ]


def values_of(randomizer: str, checks: int, deck: list[int]) -> Counter[tuple[int, ...]]:
    """How many equally likely ways each tuple of numbers for ``checks`` checks in a row
    comes up (dice and verbal numbers are independent; cards leave the deck)."""
    if randomizer == "cards":
        return Counter(permutations(deck, checks))
    if randomizer == "3cards":
        return Counter(
            tuple(sorted(hand[3 * i : 3 * i + 3])[1] for i in range(checks))
            for hand in permutations(deck, 3 * checks)
        )
    ways = Counter(one_value(randomizer))
    out: Counter[tuple[int, ...]] = Counter()
    for combo in product(ways, repeat=checks):
        out[combo] += prod(ways[v] for v in combo)
    return out


def successes(aptitude: int, value: int, chances: int) -> int:
    """The Successes of a check (0 when it fails): total + 1 when the total is 0 or more."""
    total = aptitude - value + chances
    return total + 1 if total >= 0 else 0


def shares(outcomes: Mapping[Hashable, int]) -> dict[Hashable, Fraction]:
    """Counted ways as probabilities."""
    total = sum(outcomes.values())
    return {o: Fraction(k, total) for o, k in outcomes.items() if k}


def count(
    values: Counter[tuple[int, ...]], read: Callable[[tuple[int, ...]], Hashable]
) -> Counter[Hashable]:
    """The ways of each reading of the numbers."""
    out: Counter[Hashable] = Counter()
    for v, ways in values.items():
        out[read(v)] += ways
    return out


def by_result(dist: Distribution[Hashable]) -> dict[Hashable, Fraction]:
    """The package's odds of check totals as (hit?, Successes or Failures)."""
    out: dict[Hashable, Fraction] = {}
    for total, p in dist.probabilities().items():
        assert isinstance(total, int)
        key = (True, total + 1) if total >= 0 else (False, -total)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def reading(total: int) -> tuple[bool, int]:
    return (True, total + 1) if total >= 0 else (False, -total)


RANDOMIZERS = ("d12", "3d12", "cards", "3cards", "verbal", "verbal-ab")


@pytest.mark.parametrize("randomizer", RANDOMIZERS)
@pytest.mark.parametrize(("aptitude", "chances", "steps"), [(7, 3, 0), (7, 3, 1), (9, 0, 3)])
def test_attack_against_the_texts_reading(
    randomizer: str, aptitude: int, chances: int, steps: int
) -> None:
    """ "If the intended victim is doing something that would make him a more difficult
    target his opponent's Chances rating is worsened" - one step of the ladder each."""
    worse = chances - 3 * steps
    reader = shares(
        count(values_of(randomizer, 1, TEXT_DECK), lambda v: reading(aptitude - v[0] + worse))
    )
    action = Attack(aptitude=aptitude, chances=chances, defense=defense_modifier(steps))
    assert by_result(odds(action, Options(randomizer=randomizer))) == reader


SMALL_DECK = [1, 2, 2, 5, 7, 9, 12, 12]


@pytest.mark.parametrize("randomizer", RANDOMIZERS)
@pytest.mark.parametrize(
    ("attacker", "chances", "defender", "defender_chances"), [(7, 3, 6, -3), (8, 0, 9, 3)]
)
def test_opposed_rolls_against_the_texts_reading(
    randomizer: str, attacker: int, chances: int, defender: int, defender_chances: int
) -> None:
    """ "Have both the attacker and the target roll and subtract the target's total
    Successes from the attacker's, then apply the attacker's Chances" (RULINGS.md:
    the attacker's check result, before Chances, minus the defender's Successes)."""
    deck = SMALL_DECK if randomizer == "3cards" else TEXT_DECK

    def attack(values: tuple[int, ...]) -> tuple[bool, int]:
        va, vd = values
        return reading(attacker - va - successes(defender, vd, defender_chances) + chances)

    reader = shares(count(values_of(randomizer, 2, deck), attack))
    action = Attack(
        aptitude=attacker,
        chances=chances,
        defender_aptitude=defender,
        defender_chances=defender_chances,
    )
    opts = Options(randomizer=randomizer, opposed_rolls=True)
    assert by_result(odds(action, opts, Deck(tuple(deck)))) == reader


@pytest.mark.parametrize(
    ("randomizer", "people"),
    [
        ("d12", ((6, 0), (8, -3), (4, 3))),
        ("3d12", ((6, 0), (7, -2))),
        ("verbal", ((5, 0), (5, 0), (9, -6))),
        ("verbal-ab", ((6, 0), (7, -2))),
        ("cards", ((6, 0), (8, -3), (4, 3))),
        ("3cards", ((6, 0), (7, -2))),
    ],
)
def test_agile_order_against_the_texts_reading(
    randomizer: str, people: tuple[tuple[int, int], ...]
) -> None:
    """ "Have them perform Success Checks using Agile to see who goes first"
    (RULINGS.md: most Successes first; equal Successes act simultaneously)."""
    names = [f"c{i}" for i in range(len(people))]
    deck = SMALL_DECK if randomizer == "3cards" else TEXT_DECK

    def order(values: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
        got = {n: successes(a, v, c) for n, (a, c), v in zip(names, people, values, strict=True)}
        levels = sorted(set(got.values()), reverse=True)
        return tuple(tuple(n for n in names if got[n] == s) for s in levels)

    reader = shares(count(values_of(randomizer, len(people), deck), order))
    action = AgileOrder(tuple(Contender(n, a, c) for n, (a, c) in zip(names, people, strict=True)))
    assert odds(action, Options(randomizer=randomizer), Deck(tuple(deck))).probabilities() == reader


def test_the_frigate_attacks_with_well_armed_for_dangerous() -> None:
    """ "In the example Sturdy is basically Tough, Well-Armed is Dangerous": the frigate
    (Well-Armed Fairly +4, no Dangerous) attacks the boxer with the attack's Dangerous
    stood for by Well-Armed, plus its Primary Role at Moderately (+3): Aptitude 7; the
    d12 shows 3, 7 - 3 = 4, a hit with 5 Successes. With the option emptied, the sheet
    has no Dangerous and the attack is refused before any die is drawn."""
    table = State()
    for cid, sheet in RULESET.examples().items():
        table = RULESET.seat(table, cid, sheet, Options())
    swing = Attack(actor="frigate", target="boxer")
    out = RULESET.resolve(swing, table, ScriptedRoller([3]), Options())
    assert (out.details["aptitude"], out.result, out.details["successes"]) == (7, 4, 5)
    assert out.modifiers[0].source == "Well-Armed for Dangerous (Fairly)"
    roller = ScriptedRoller([3])
    with pytest.raises(IllegalAction, match="Swiftsure has no Talent 'Dangerous'"):
        RULESET.resolve(swing, table, roller, Options(talent_stands_for=()))
    assert list(roller.remaining) == [3]


def test_a_stands_for_pair_must_name_two_talents() -> None:
    """A house rule pairing a blank Talent is refused when the options are made, named."""
    from referee.errors import RulesError

    with pytest.raises(RulesError, match="talent_stands_for pairs must name two Talents"):
        Options(talent_stands_for=(("", "Dangerous"),))
    with pytest.raises(RulesError, match="talent_stands_for"):
        RULESET.load_options({"talent_stands_for": [["Well-Armed", " "]]})
