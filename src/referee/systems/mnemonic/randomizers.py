"""The Success Check randomizers: each gives a number 1..12 (Referee's Guide p. 1,
"success check options").

Every randomizer is a :class:`~referee.systems.base.Procedure` whose statistic
is the randomizer value, so rolling and exact odds share one reading of the
faces (principle 1):

* ``d12`` - one twelve-sided die (the standard);
* ``3d12`` - the median of three d12 (A, Three Dice);
* ``cards`` - one card from the table's deck (B, Playing Cards); the roller
  gives the card's position among those left;
* ``3cards`` - the middle value of three cards drawn one after another;
* ``verbal`` - the player's and the referee's numbers 1..12, added, minus 12
  when the sum is 13 or more (C, Verbal);
* ``verbal-ab`` - numbers 1..6 and letters A/B (faces 1 = A, 2 = B) in the
  order player number, player letter, referee number, referee letter; the sum
  when the letters match, 13 minus the sum when they differ.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.dice.odds import Distribution, median_of
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Procedure
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.tables import RANDOMIZERS
from referee.systems.plan import Groups

LETTERS = {1: "A", 2: "B"}
"""Verbal A/B letters as faces."""


def _identity(value: int) -> int:
    return value


def check_randomizer(name: str) -> str:
    """``name`` if it is a known randomizer; a clear :class:`RulesError` otherwise."""
    key = name.strip().lower()
    if key not in RANDOMIZERS:
        raise RulesError(f"unknown randomizer {name!r}; known: {', '.join(RANDOMIZERS)}")
    return key


def uses_cards(name: str) -> bool:
    """True for the randomizers that draw from the table's deck."""
    return name in ("cards", "3cards")


_CARDS_NEEDED = {"cards": 1, "3cards": 3}


def cards_needed(name: str) -> int:
    """How many cards one check draws (0 for dice and verbal methods)."""
    return _CARDS_NEEDED.get(name, 0)


# -- readings of the faces (the rule's statistic) ---------------------------


def read_d12(faces: tuple[int, ...]) -> int:
    """One d12: its face."""
    return faces[0]


def read_median(faces: tuple[int, ...]) -> int:
    """The middle of three values (a value appearing twice is the middle)."""
    a, b, c = faces
    return sorted((a, b, c))[1]


def verbal_value(player: int, referee: int) -> int:
    """The verbal method: the sum, less 12 when it is 13 or more."""
    total = player + referee
    return total - 12 if total >= 13 else total


def read_verbal(faces: tuple[int, ...]) -> int:
    """Faces (player's number, referee's number)."""
    return verbal_value(faces[0], faces[1])


def verbal_ab_value(player: int, player_letter: str, referee: int, referee_letter: str) -> int:
    """The A/B variant: the sum on matching letters, 13 minus the sum otherwise."""
    total = player + referee
    return total if player_letter == referee_letter else 13 - total


def read_verbal_ab(faces: tuple[int, ...]) -> int:
    """Faces (player number, player letter, referee number, referee letter); 1 = A, 2 = B."""
    n1, l1, n2, l2 = faces
    return verbal_ab_value(n1, LETTERS[l1], n2, LETTERS[l2])


def spoken_faces(name: str, player: int | str, referee: int | str) -> tuple[int, ...]:
    """The faces of a verbal method played live, from the numbers said at the table.

    ``verbal``: each a number 1..12 (``8``, ``"8"``); ``verbal-ab``: a number
    1..6 with a letter (``"4A"``, ``"5b"``). The player's choice comes first, as
    the player reveals first ("success check options", C). A clear
    :class:`RulesError` names a bad entry.
    """
    key = check_randomizer(name)
    if key not in ("verbal", "verbal-ab"):
        raise RulesError(f"numbers said aloud are for the verbal randomizers, not {key}")
    top = 6 if key == "verbal-ab" else 12
    faces: list[int] = []
    for who, said in (("player", player), ("referee", referee)):
        text = str(said).strip().upper()
        letter = 0
        if key == "verbal-ab":
            if len(text) < 2 or text[-1] not in "AB":
                raise RulesError(f"{who}: a number 1..6 and a letter, e.g. 4A; not {said!r}")
            text, letter = text[:-1], (1 if text[-1] == "A" else 2)
        try:
            number = int(text)
        except ValueError:
            raise RulesError(f"{who}: {said!r} is not a number") from None
        if not 1 <= number <= top:
            raise RulesError(f"{who}: the number must be 1..{top}, not {number}")
        faces += [number, letter] if letter else [number]
    return tuple(faces)


def drawn_cards(deck: Deck, faces: tuple[int, ...]) -> tuple[tuple[int, ...], Deck]:
    """The card values that positions ``faces`` draw in turn, and the deck afterwards."""
    cards = list(deck.cards)
    values = tuple(cards.pop(i - 1) for i in faces)
    return values, Deck(tuple(cards))


# -- exact distributions -------------------------------------------------


def d12_exact() -> Distribution[int]:
    """One d12."""
    return Distribution.die(12)


def median_d12_exact() -> Distribution[int]:
    """Median of three d12 (multinomial order statistic)."""
    return median_of(Distribution.die(12), 3)


def verbal_exact() -> Distribution[int]:
    """Both numbers uniform on 1..12: the wrapped sum, by counting the 144 pairs."""
    weights: dict[int, int] = {}
    for s in range(2, 25):
        ways = s - 1 if s <= 13 else 25 - s
        v = s - 12 if s >= 13 else s
        weights[v] = weights.get(v, 0) + ways
    return Distribution(weights)


def verbal_ab_exact() -> Distribution[int]:
    """Numbers uniform on 1..6 and letters on A/B: half the time the 2d6 sum, half 13 - it."""
    weights: dict[int, int] = {}
    for s in range(2, 13):
        ways = 2 * (s - 1 if s <= 7 else 13 - s)  # two matching and two differing letter pairs
        weights[s] = weights.get(s, 0) + ways
        weights[13 - s] = weights.get(13 - s, 0) + ways
    return Distribution(weights)


_Dice = tuple[Groups, Callable[[tuple[int, ...]], int], Callable[[], Distribution[int]]]
_DICE: dict[str, _Dice] = {
    "d12": (((1, 12),), read_d12, d12_exact),
    "3d12": (((3, 12),), read_median, median_d12_exact),
    "verbal": (((1, 12), (1, 12)), read_verbal, verbal_exact),
    "verbal-ab": (((1, 6), (1, 2), (1, 6), (1, 2)), read_verbal_ab, verbal_ab_exact),
}
"""The dice randomizers: the dice rolled, the value read from their faces, its exact
distribution."""


def randomizer_odds(name: str, deck: Deck | None = None) -> Distribution[int]:
    """The exact distribution of the randomizer's value 1..12 (for cards, the next draw
    from ``deck`` as it stands, a full deck when none is given): what
    :func:`randomizer_procedure`'s ``exact`` gives, without building the procedure."""
    dice = _DICE.get(name)  # a name as the options spell it, without normalizing it
    if dice is None:
        name = check_randomizer(name)
        dice = _DICE.get(name)
    if dice is not None:
        return dice[2]()
    deck = Deck() if deck is None else deck
    need = _CARDS_NEEDED[name]
    _enough_cards(deck, need)
    return deck.next_card() if need == 1 else deck.median_of_three()


def _enough_cards(deck: Deck, k: int) -> None:
    if len(deck.cards) < k:
        raise IllegalAction(f"the deck has {len(deck)} card(s) left, {k} needed: reshuffle it")


def randomizer_procedure(name: str, deck: Deck | None = None) -> Procedure[int, int]:
    """The randomizer as a procedure whose statistic and result are its value 1..12.

    Card randomizers need the table's ``deck`` as it currently stands.
    """
    key = check_randomizer(name)
    dice = _DICE.get(key)
    if dice is not None:
        groups, read, exact = dice
        return Procedure(groups, read, exact, _identity)
    return _card_procedure(Deck() if deck is None else deck, cards_needed(key))


def _card_procedure(deck: Deck, k: int) -> Procedure[int, int]:
    _enough_cards(deck, k)
    n = len(deck)
    groups = tuple((1, n - i) for i in range(k))
    if k == 1:

        def read1(faces: tuple[int, ...]) -> int:
            return drawn_cards(deck, faces)[0][0]

        return Procedure(groups, read1, deck.next_card, _identity)

    def read3(faces: tuple[int, ...]) -> int:
        return read_median(drawn_cards(deck, faces)[0])

    return Procedure(groups, read3, deck.median_of_three, _identity)


def pair_procedure(
    name: str, deck: Deck | None = None
) -> Procedure[tuple[int, int], tuple[int, int]]:
    """Two checks in a row (attacker then defender): the pair of randomizer values.

    Dice and verbal values are independent; cards come from one deck, so the
    second check draws from what the first left (exact odds by the value
    multisets of the first hand, :meth:`Deck.hands`).
    """
    key = check_randomizer(name)
    if not uses_cards(key):
        one = randomizer_procedure(key)
        width = sum(count for count, _ in one.groups)

        def read(faces: tuple[int, ...]) -> tuple[int, int]:
            return one.read(faces[:width]), one.read(faces[width:])

        def exact() -> Distribution[tuple[int, int]]:
            d = one.exact()
            return d.combine(d, lambda a, b: (a, b))

        return Procedure(one.groups * 2, read, exact, _identity_pair)
    deck = Deck() if deck is None else deck
    k = cards_needed(key)
    n = len(deck)
    if n < 2 * k:
        raise IllegalAction(f"the deck has {n} card(s) left, {2 * k} needed: reshuffle it")
    groups = tuple((1, n - i) for i in range(2 * k))

    def pick(hand: tuple[int, ...]) -> int:
        return hand[0] if k == 1 else read_median(hand)

    def read_cards(faces: tuple[int, ...]) -> tuple[int, int]:
        values, _ = drawn_cards(deck, faces)
        return pick(values[:k]), pick(values[k:])

    def exact_cards() -> Distribution[tuple[int, int]]:
        def second(hand: tuple[int, ...]) -> Distribution[tuple[int, int]]:
            rest = deck.without(hand)
            after = rest.next_card() if k == 1 else rest.median_of_three()
            first = pick(hand)
            return after.map(lambda v: (first, v))

        return deck.hands(k).bind(second)

    return Procedure(groups, read_cards, exact_cards, _identity_pair)


def _identity_pair(pair: tuple[int, int]) -> tuple[int, int]:
    return pair
