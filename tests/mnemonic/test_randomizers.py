"""Each randomizer's exact distribution against brute-force enumeration."""

from __future__ import annotations

from itertools import permutations

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.brute import brute_force
from referee.dice.odds import Distribution
from referee.errors import IllegalAction
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.randomizers import (
    pair_procedure,
    randomizer_odds,
    randomizer_procedure,
    read_median,
)


@pytest.mark.parametrize("name", ["d12", "3d12", "verbal", "verbal-ab", "cards"])
def test_exact_matches_brute_force(name: str) -> None:
    proc = randomizer_procedure(name)
    assert proc.exact() == brute_force(proc.groups, proc.read)


@pytest.mark.parametrize("name", ["d12", "3d12", "verbal", "verbal-ab", "cards", "3cards"])
def test_the_odds_shortcut_is_the_procedures_exact(name: str) -> None:
    """``randomizer_odds`` (the odds without building a procedure) counts by brute force
    what the procedure reads from every face, on a fresh deck and a short one."""
    for deck in (Deck(), Deck().without([1, 1, 5, 5, 5, 12, 9, 3, 3, 3, 3])):
        proc = randomizer_procedure(name, deck)
        if sum(count * sides for count, sides in proc.groups) < 150:  # small enough to count
            assert randomizer_odds(name, deck) == brute_force(proc.groups, proc.read)
        assert randomizer_odds(name, deck) == proc.exact()
    with pytest.raises(IllegalAction, match="the deck has 2 card"):
        randomizer_odds("3cards", Deck((4, 9)))


def test_three_cards_by_every_ordered_draw_without_replacement() -> None:
    deck = Deck()
    cards = deck.cards
    brute = Distribution.of(
        read_median((cards[i], cards[j], cards[k])) for i, j, k in permutations(range(48), 3)
    )
    assert randomizer_procedure("3cards", deck).exact() == brute
    # the same count through the roller's positions (draw 1 of 48, 1 of 47, 1 of 46)
    proc = randomizer_procedure("3cards", deck)
    assert proc.exact() == brute_force(proc.groups, proc.read)


def test_three_cards_from_a_depleted_deck() -> None:
    deck = Deck().without([1, 1, 1, 12, 6, 6, 7, 2, 2, 2, 2])
    cards = deck.cards
    brute = Distribution.of(
        read_median((cards[i], cards[j], cards[k]))
        for i, j, k in permutations(range(len(cards)), 3)
    )
    assert deck.median_of_three() == brute


def test_uniform_methods_are_uniform_and_all_symmetric() -> None:
    for name in ("d12", "verbal", "cards"):
        assert randomizer_procedure(name).exact() == Distribution.die(12)
    for name in ("3d12", "3cards", "verbal-ab"):
        d = randomizer_procedure(name).exact()
        assert d == d.map(lambda v: 13 - v)  # symmetric around 6.5 (COMPANION)


def test_against_icepool() -> None:
    def from_icepool(die: icepool.Die) -> Distribution[int]:  # type: ignore[type-arg]
        return Distribution({int(o): int(q) for o, q in die.items()})

    assert randomizer_procedure("d12").exact() == from_icepool(icepool.d12)
    assert randomizer_procedure("3d12").exact() == from_icepool(icepool.d12.middle(3))
    deck = icepool.Deck({v: 4 for v in range(1, 13)})
    assert randomizer_procedure("cards").exact() == from_icepool(deck.deal(1).sum())
    assert randomizer_procedure("3cards").exact() == from_icepool(deck.deal(3).middle(1).sum())


def test_pair_of_cards_comes_from_one_deck() -> None:
    deck = Deck().without([5, 5, 5, 9])
    proc = pair_procedure("cards", deck)
    cards = deck.cards
    brute = Distribution.of((cards[i], cards[j]) for i, j in permutations(range(len(cards)), 2))
    assert proc.exact() == brute == brute_force(proc.groups, proc.read)


def test_pair_of_three_card_medians_on_a_small_deck() -> None:
    deck = Deck((1, 2, 2, 5, 7, 9, 12, 12))
    proc = pair_procedure("3cards", deck)
    assert proc.exact() == brute_force(proc.groups, proc.read)


@pytest.mark.parametrize("name", ["d12", "verbal-ab"])
def test_pair_of_dice_is_independent(name: str) -> None:
    proc = pair_procedure(name)
    one = randomizer_procedure(name).exact()
    assert proc.exact() == one.combine(one, lambda a, b: (a, b))
    if name == "d12":
        assert proc.exact() == brute_force(proc.groups, proc.read)


@settings(max_examples=60)
@given(st.lists(st.integers(min_value=1, max_value=48), min_size=1, max_size=48))
def test_a_deck_never_yields_a_card_twice_before_a_reshuffle(picks: list[int]) -> None:
    """Card checks at one table, each drawing the position picked among the cards left."""
    from referee.dice.roller import ScriptedRoller
    from referee.systems.mnemonic import RULESET
    from referee.systems.mnemonic.actions import Check
    from referee.systems.mnemonic.options import Options
    from referee.systems.mnemonic.state import State

    opts, state = Options(randomizer="cards", reshuffle_when_short=False), State()
    drawn: list[int] = []
    for p in picks:
        if not state.deck.cards:
            break
        out = RULESET.resolve(Check(6), state, ScriptedRoller([min(p, len(state.deck))]), opts)
        drawn += out.details["cards"]
        state = RULESET.apply(state, out)
        # every card drawn so far is out of the deck: no value more than four times
        assert all(drawn.count(v) + state.deck.cards.count(v) == 4 for v in range(1, 13))
    assert len(drawn) + len(state.deck) == 48


@settings(max_examples=30)
@given(st.integers(min_value=0, max_value=2**32))
def test_a_seeded_deck_drawn_out_gives_every_card_once(seed: int) -> None:
    """Sixteen three-card checks draw the whole deck; the seventeenth reshuffles it."""
    from referee.dice.roller import SeededRoller
    from referee.systems.mnemonic import RULESET
    from referee.systems.mnemonic.actions import Check
    from referee.systems.mnemonic.options import Options
    from referee.systems.mnemonic.state import State

    opts, state, roller = Options(randomizer="3cards"), State(), SeededRoller(seed)
    values: list[int] = []
    for _ in range(16):
        out = RULESET.resolve(Check(6), state, roller, opts)
        values += out.details["cards"]
        state = RULESET.apply(state, out)
    assert sorted(values) == sorted(Deck().cards) and len(state.deck) == 0
    assert RULESET.resolve(Check(6), state, roller, opts).details["reshuffled"] is True


def test_spoken_numbers_become_the_faces_of_the_verbal_methods() -> None:
    from referee.errors import RulesError
    from referee.systems.mnemonic.randomizers import read_verbal, read_verbal_ab, spoken_faces

    assert spoken_faces("verbal", 8, "9") == (8, 9) and read_verbal((8, 9)) == 5
    assert spoken_faces("verbal-ab", "3a", " 5B ") == (3, 1, 5, 2)
    assert read_verbal_ab((3, 1, 5, 2)) == 5  # A and B differ: 13 - 8
    assert read_verbal_ab(spoken_faces("verbal-ab", "3B", "5B")) == 8  # same letter: the sum
    for args, msg in [
        (("verbal", 13, 1), "player: the number must be 1..12"),
        (("verbal", 1, "x"), "referee: 'x' is not a number"),
        (("verbal-ab", "7A", "1B"), "player: the number must be 1..6"),
        (("verbal-ab", "4", "1B"), "a number 1..6 and a letter"),
        (("d12", 1, 2), "only|for the verbal randomizers"),
    ]:
        with pytest.raises(RulesError, match=msg):
            spoken_faces(*args)


def test_deck_knows_the_cards_out_of_it() -> None:
    deck = Deck().without([5, 1, 5])
    assert deck.drawn() == (1, 5, 5) and Deck().without(deck.drawn()) == deck
    assert Deck().drawn() == () and Deck(()).drawn() == Deck().cards
