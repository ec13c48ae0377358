"""House Credit and buying (Mongrel, Character wealth and social status).

Accounts start at Social with one's own House and 1 with each other House.
Buying rolls the Expertise (usually Negotiate): per RULINGS a die counts if it
exceeds the seller's Social and is at most the buyer's Credit, and any such die
buys the item; if no die exceeds the Social but some die is within the
Credit, the item can still be had by giving the seller 1 Credit. Transfers
between accounts cost 2 for each 1 received; own-House Credit follows
changes of Social.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.dice.odds import Distribution
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Procedure

from .tables import HOUSES, MAX_DICE, MAX_SCORE, MAX_TN

BuyStat = tuple[int, int, int]
"""(dice in the window Social < face ≤ Credit, dice above Social, dice within Credit)."""


@dataclass(frozen=True, slots=True)
class Purchase:
    """A buying roll's result: ``"bought"``, ``"sacrifice"`` (1 Credit to the seller), ``"no"``."""

    result: str

    @property
    def acquired(self) -> bool:
        """Whether the item is bought outright."""
        return self.result == "bought"


def _classes(social: int, credit: int) -> list[BuyStat]:
    return [(int(social < f <= credit), int(f > social), int(f <= credit)) for f in range(1, 7)]


def buy_rule(stat: BuyStat) -> Purchase:
    """The buying rule over the statistic (RULINGS, Buying)."""
    window, above, within = stat
    if window:
        return Purchase("bought")
    if not above and within:
        return Purchase("sacrifice")
    return Purchase("no")


def buy_procedure(dice: int, seller_social: int, credit: int) -> Procedure[BuyStat, Purchase]:
    """A buying roll of ``dice`` d6 against a seller's Social and one's own Credit."""
    if not 1 <= dice <= MAX_DICE:
        raise RulesError(f"dice must be 1..{MAX_DICE}, not {dice}")
    if not 0 <= seller_social <= MAX_TN:
        raise RulesError(f"the seller's Social must be 0..{MAX_TN}, not {seller_social}")
    if not 0 <= credit <= MAX_SCORE:
        raise RulesError(f"Credit must be 0..{MAX_SCORE}, not {credit}")
    classes = _classes(seller_social, credit)

    def read(faces: tuple[int, ...]) -> BuyStat:
        picked = [classes[f - 1] for f in faces]
        return (sum(p[0] for p in picked), sum(p[1] for p in picked), sum(p[2] for p in picked))

    def exact() -> Distribution[BuyStat]:
        kinds: dict[BuyStat, int] = {}
        for c in classes:
            kinds[c] = kinds.get(c, 0) + 1
        out: dict[BuyStat, int] = {(0, 0, 0): 1}
        for _ in range(dice):
            nxt: dict[BuyStat, int] = {}
            for s, w in out.items():
                for k, kw in kinds.items():
                    key = (s[0] + k[0], s[1] + k[1], s[2] + k[2])
                    nxt[key] = nxt.get(key, 0) + w * kw
            out = nxt
        return Distribution(out)

    return Procedure(((dice, 6),), read, exact, buy_rule)


def _check_house(house: str) -> None:
    if house not in HOUSES:
        raise RulesError(f"unknown House {house!r}; known: {', '.join(HOUSES)}")


def transfer(credit: dict[str, int], source: str, dest: str, received: int) -> dict[str, int]:
    """Move Credit between House accounts at 2:1 (2 paid per 1 received)."""
    _check_house(source)
    _check_house(dest)
    if source == dest or received < 1:
        raise IllegalAction("a transfer needs two different accounts and at least 1 received")
    cost = 2 * received
    if credit.get(source, 0) < cost:
        raise IllegalAction(f"{source} account holds {credit.get(source, 0)}; {cost} needed")
    out = dict(credit)
    out[source] -= cost
    out[dest] = out.get(dest, 0) + received
    return out


def sacrifice(credit: dict[str, int], house: str) -> dict[str, int]:
    """Give the seller 1 Credit from one account (the buying rule's fallback)."""
    _check_house(house)
    if credit.get(house, 0) < 1:
        raise IllegalAction(f"no Credit left with {house}")
    return {**credit, house: credit[house] - 1}


def social_changed(credit: dict[str, int], own_house: str, old: int, new: int) -> dict[str, int]:
    """Own-House Credit moves with Social (Social 4 -> 5 raises Credit 2 -> 3)."""
    _check_house(own_house)
    return {**credit, own_house: max(0, credit.get(own_house, 0) + new - old)}


def window_probability(dice: int, seller_social: int, credit: int) -> Distribution[str]:
    """The exact odds of each buying result."""
    return buy_procedure(dice, seller_social, credit).odds().map(lambda p: p.result)
