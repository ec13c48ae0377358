"""House Credit and buying (Mongrel, Character wealth and social status).

Accounts start at Social with one's own House and 1 with each other House.
Buying rolls the Expertise (usually Negotiate): per RULINGS a die counts if it
exceeds the seller's Social and is at most the buyer's Credit, and any such die
buys the item; if no die exceeds the Social but some die is within the
Credit, the item can still be had by giving the seller 1 Credit - the buyer's
choice (a pending decision: ``sacrifice-credit`` or ``decline-purchase``).

With zero Expertise the zero-Expertise rule applies (Task Resolution: "roll 1
die twice"): each roll is judged as a one-die buying roll, and the item is
bought only when both rolls buy it; when both rolls are within the Credit but
not both above the Social ("succeeds at the Credit but fails against the
Social") it can be had for 1 Credit. Transfers between accounts cost 2 for
each 1 received; own-House Credit follows changes of Social.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.dice.odds import Distribution
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Decision, Dice, Outcome, Plan, Procedure, Trace

from .actions import (
    SACRIFICE_CHOICES,
    Buy,
    BuyRoll,
    DeclinePurchase,
    SacrificeCredit,
    TransferCredit,
)
from .options import Options
from .scene import SYSTEM, Scene, d6
from .sheet import credit as accounts
from .state import State
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


def zero_buy_rule(stat: BuyStat) -> Purchase:
    """Zero Expertise: the statistic counts the two rolls that buy (``window``) and that
    are within the Credit; both must buy, or both be within the Credit for a sacrifice."""
    window, _, within = stat
    if window == 2:
        return Purchase("bought")
    if within == 2:
        return Purchase("sacrifice")
    return Purchase("no")


def buy_procedure(dice: int, seller_social: int, credit: int) -> Procedure[BuyStat, Purchase]:
    """A buying roll of ``dice`` d6 (0: the zero-Expertise roll, one die twice) against a
    seller's Social and one's own Credit."""
    if not 0 <= dice <= MAX_DICE:
        raise RulesError(f"dice must be 0..{MAX_DICE}, not {dice}")
    if not 0 <= seller_social <= MAX_TN:
        raise RulesError(f"the seller's Social must be 0..{MAX_TN}, not {seller_social}")
    if not 0 <= credit <= MAX_SCORE:
        raise RulesError(f"Credit must be 0..{MAX_SCORE}, not {credit}")
    classes = _classes(seller_social, credit)
    rolled = dice if dice else 2

    def read(faces: tuple[int, ...]) -> BuyStat:
        picked = [classes[f - 1] for f in faces]
        return (sum(p[0] for p in picked), sum(p[1] for p in picked), sum(p[2] for p in picked))

    def exact() -> Distribution[BuyStat]:
        kinds: dict[BuyStat, int] = {}
        for c in classes:
            kinds[c] = kinds.get(c, 0) + 1
        out: dict[BuyStat, int] = {(0, 0, 0): 1}
        for _ in range(rolled):
            nxt: dict[BuyStat, int] = {}
            for s, w in out.items():
                for k, kw in kinds.items():
                    key = (s[0] + k[0], s[1] + k[1], s[2] + k[2])
                    nxt[key] = nxt.get(key, 0) + w * kw
            out = nxt
        return Distribution(out)

    return Procedure(((rolled, 6),), read, exact, buy_rule if dice else zero_buy_rule)


def _check_house(house: str) -> None:
    if house not in HOUSES:
        raise IllegalAction(f"unknown House {house!r}; known: {', '.join(HOUSES)}")


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


# -- plans -------------------------------------------------------------------------


def plan_buy_roll(action: BuyRoll, state: State, options: Options) -> Plan:
    """A buying roll from plain numbers; the odds are of its result."""
    proc = buy_procedure(action.dice, action.social, action.credit)

    def finish(p: Purchase, trace: Trace) -> Outcome:
        return Outcome(
            SYSTEM,
            "buy-roll",
            faces=d6(trace),
            result=None,
            success=p.acquired,
            label=p.result,
            details={
                "result": p.result,
                "dice": action.dice,
                "social": action.social,
                "credit": action.credit,
            },
        )

    return Plan.of(Dice.of(proc), finish, view=lambda p: p.result)


def plan_buy(action: Buy, state: State, options: Options) -> Plan:
    """A character buys: its Expertise against the seller's Social and its Credit."""
    f = state.living(action.actor)
    house = action.house or f.sheet.house
    _check_house(house)
    credit = accounts(f.sheet).get(house, 0)
    dice = f.level(action.expertise)
    proc = buy_procedure(dice, action.seller_social, credit)

    def finish(p: Purchase, trace: Trace) -> Outcome:
        sc = Scene(state)
        label = {
            "bought": f"{f.name} buys it",
            "sacrifice": f"{f.name} can have it by giving the seller 1 {house} Credit",
            "no": f"{f.name} cannot buy it",
        }[p.result]
        if p.result == "sacrifice":
            sc.wait_for(
                Decision(
                    action.actor,
                    f"give the seller 1 Credit with {house} ({credit} held) for the item?",
                    SACRIFICE_CHOICES,
                )
            )
        return Outcome(
            SYSTEM,
            "buy",
            faces=d6(trace),
            success=p.acquired,
            label=label,
            changes=sc.changes("buy"),
            details={
                "result": p.result,
                "house": house,
                "credit": credit,
                "dice": dice,
                "seller_social": action.seller_social,
                "zero_expertise": dice == 0,
            },
        )

    return Plan.of(Dice.of(proc), finish, view=lambda p: p.result)


def _sheet_plan(state: State, cid: str, name: str, label: str, credit: dict[str, int]) -> Plan:
    f = state.character(cid)
    sc = Scene(state)
    sc.put(cid, replace(f, sheet=replace(f.sheet, credit=credit)))
    if name in SACRIFICE_CHOICES:
        sc.answered(cid, *SACRIFICE_CHOICES)
    return Plan.fixed(
        Outcome(SYSTEM, name, label=label, changes=sc.changes(name), details={"credit": credit})
    )


def plan_sacrifice_credit(action: SacrificeCredit, state: State, options: Options) -> Plan:
    """Give the seller 1 Credit (answers a pending buying decision, or stands alone)."""
    f = state.character(action.actor)
    house = action.house or f.sheet.house
    after = sacrifice(accounts(f.sheet), house)
    return _sheet_plan(
        state,
        action.actor,
        "sacrifice-credit",
        f"{f.name} gives the seller 1 {house} Credit",
        after,
    )


def plan_decline_purchase(action: DeclinePurchase, state: State, options: Options) -> Plan:
    """Keep the Credit and go without the item."""
    f = state.character(action.actor)
    if not any(d.actor == action.actor and d.choices == SACRIFICE_CHOICES for d in state.pending):
        raise IllegalAction(f"{f.name} has no purchase waiting for a decision")
    sc = Scene(state)
    sc.answered(action.actor, *SACRIFICE_CHOICES)
    label = f"{f.name} keeps the Credit and goes without"
    return Plan.fixed(Outcome(SYSTEM, "decline-purchase", label=label, changes=sc.changes()))


def plan_transfer_credit(action: TransferCredit, state: State, options: Options) -> Plan:
    """Move Credit at 2:1 between one's accounts."""
    f = state.character(action.actor)
    after = transfer(accounts(f.sheet), action.source, action.dest, action.received)
    moved = f"{2 * action.received} {action.source} Credit"
    label = f"{f.name} moves {moved} for {action.received} {action.dest}"
    return _sheet_plan(state, action.actor, "transfer-credit", label, after)
