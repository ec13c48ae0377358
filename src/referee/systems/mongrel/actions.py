"""Every Mongrel action as a frozen dataclass naming characters by id.

An action with an ``actor`` is taken by (or for) that character; one without
is the referee's. The rules that decide whether an action is legal now and
what it does live in :mod:`.conflict`, :mod:`.wealth`, :mod:`.advancement`
and :mod:`.checks`; :class:`~.ruleset.MongrelRuleset` dispatches to them.

* Task resolution (Mongrel, Task Resolution): :class:`Check` (plain numbers),
  :class:`Task`.
* Complex task resolution: :class:`StartConflict`, :class:`EndConflict`,
  :class:`Advance`, :class:`Attack`, :class:`Occult`, :class:`Recover`,
  :class:`Wait`, :class:`SpendResolve`; Physical damage: :class:`TakeDamage`
  and the answers to a terminal hit, :class:`SpendResolveToSurvive` and
  :class:`AcceptFate`; Infernal Resolve and Fatigue: :class:`Rest`,
  :class:`VowRefresh`.
* Sorcery from plain numbers: :class:`OccultRoll`.
* Character wealth: :class:`Buy`, :class:`BuyRoll`, :class:`SacrificeCredit`,
  :class:`DeclinePurchase`, :class:`TransferCredit`.
* Character points: :class:`AwardPoints`, :class:`RaiseExpertise`,
  :class:`RaiseIdentity`, :class:`RaiseAttribute`; the referee's
  :class:`ApproveSheet`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from referee.errors import IllegalAction, RulesError
from referee.systems.base import Action, Problem, param

from .checks import Mode, check_bounds, target_number
from .options import ResistMode
from .tables import MAX_DICE, MAX_DIFFICULTY, MAX_SCORE, MAX_TN, MIN_TN, IdentityName

if TYPE_CHECKING:
    pass

ExpertiseName = Literal[
    "Know",
    "Resist",
    "Burn",
    "Chill",
    "Lie",
    "Occult",
    "Diabolic Power",
    "Missile",
    "Melee",
    "Bureaucrat",
    "Convince",
    "Negotiate",
    "Information",
    "Repair",
    "Borg Power",
    "Stalk",
    "Sense",
    "Athletics",
    "Balance",
    "Rend",
    "Threaten",
    "Seduce",
    "Animal Power",
]
"""The Expertise catalogue (Mongrel, Expertise); the same names as ``tables.EXPERTISE``."""

AttributeName = Literal["size", "spirit", "physique", "beauty", "speed", "social"]
HouseName = Literal["Aggak-Ko", "Mekag", "Druinar", "Esseth", "Sfere", "Repta", "Nuin"]

MAX_BONUS = 10
"""Bound on a weapon's or armour's points (the text leaves their values to playtesting)."""


def _fuelled(resolve: int) -> None:
    """Occult needs Resolve spent first (Sorcery Expertise): the text's own message."""
    if resolve < 1:
        raise IllegalAction("Occult needs at least 1 Infernal Resolve spent before the roll")


# -- task resolution ----------------------------------------------------------


@dataclass(frozen=True)
class Check(Action):
    """A task roll from plain numbers (the referee's dice tool): ``dice`` d6 against
    ``tn``, under (one's own attribute) or over (a target's), Effect + ``identity``.
    ``dice`` 0 is the zero-Expertise roll. Mongrel, Task Resolution."""

    referee_only: ClassVar[bool] = True

    dice: int = param(1, "dice in the pool (the Expertise); 0 = zero Expertise", ge=0, le=MAX_DICE)
    tn: int = param(3, "the attribute rolled against, before any Modifier", ge=MIN_TN, le=MAX_TN)
    mode: Mode = param("under", "under: one's own attribute; over: a target's")
    identity: int = param(0, "the governing Identity score, added to Effect", ge=0, le=20)
    difficulty: int = param(
        0, "a Modifier 0-4 that always makes the roll harder", ge=0, le=MAX_DIFFICULTY
    )

    def __post_init__(self) -> None:
        try:  # the wing's own messages first ("dice must be 0..40 (Expertise)")
            check_bounds(self.dice, self.tn, self.mode, self.identity)
            target_number(self.tn, self.mode, self.difficulty)
        except RulesError as e:
            raise IllegalAction(str(e)) from None
        super().__post_init__()


@dataclass(frozen=True)
class Task(Action):
    """A task by a character: the Expertise's dice under its own attribute, over
    another character's attribute (``target``) or against a given ``tn``. In a
    conflict only the character at the front of the order with an AP may act."""

    actor: str = param(doc="who acts", ref="character")
    expertise: ExpertiseName = param(doc="the Expertise rolled", sheet="expertise")
    attribute: AttributeName | None = param(
        None, "the attribute rolled against (default: the Expertise's)"
    )
    target: str | None = param(
        None, "roll over this character's attribute instead of under one's own", ref="character"
    )
    tn: int | None = param(None, "a target number instead of an attribute", ge=MIN_TN, le=MAX_TN)
    mode: Mode = param("under", "with tn: under or over it")
    difficulty: int = param(0, "a Modifier 0-4 making it harder", ge=0, le=MAX_DIFFICULTY)
    power: str | None = param(None, "a Power whose points add dice to the Expertise")


# -- complex task resolution --------------------------------------------------


@dataclass(frozen=True)
class StartConflict(Action):
    """Begin complex task resolution: order by Beast, then Man, then Demon; a coin
    (a die for more than two) breaks remaining ties."""

    moves_time: ClassVar[bool] = True

    fighters: tuple[str, ...] = param(
        (), "the characters taking part (empty: every living seated character)"
    )


@dataclass(frozen=True)
class EndConflict(Action):
    """End complex task resolution (Action Points stay as they are: they never refresh
    by themselves)."""


@dataclass(frozen=True)
class Advance(Action):
    """Spend 1 AP to move to the front of the order, at any time."""

    actor: str = param(doc="who moves to the front", ref="character")


@dataclass(frozen=True)
class Attack(Action):
    """An attack by the character at the front of the order. A target who ``defend``s
    pays 1 AP and makes the attacker pay 1 AP and roll over the target's attribute;
    otherwise the attacker rolls under his own."""

    actor: str = param(doc="the attacker", ref="character")
    target: str = param(doc="the character attacked", ref="character")
    expertise: ExpertiseName = param(
        doc="the attacking Expertise (Rend, Melee, Burn, Chill...)", sheet="expertise"
    )
    defend: bool = param(False, "the target spends 1 AP to defend", decided_by="target")
    attribute: AttributeName | None = param(
        None, "the attribute rolled against (default: the Expertise's)"
    )
    difficulty: int = param(0, "a Modifier 0-4 making it harder", ge=0, le=MAX_DIFFICULTY)
    weapon: int = param(0, "the weapon's bonus to a physical hit's Effect", ge=0, le=MAX_BONUS)
    armor: int = param(
        0, "the target's armour, taken off a physical hit's Effect", ge=0, le=MAX_BONUS
    )
    shunt_to_beauty: int = param(
        0,
        "points of a physical hit the target shunts to Beauty",
        ge=0,
        le=MAX_SCORE,
        decided_by="target",
    )
    power: str | None = param(None, "a Power whose points add dice to the Expertise")

    def roles(self) -> dict[str, str]:
        """As every action; a target who defends spends an AP to defend."""
        return _defending(super().roles(), self.target, self.defend)


@dataclass(frozen=True)
class Occult(Action):
    """An Occult working: ``resolve`` Infernal Resolve spent before the roll (each point
    beyond the first +1 Effect), one hour per die rolled. With a ``target`` it drains
    that character's Infernal Resolve; the target may ``resist``."""

    actor: str = param(doc="the sorcerer", ref="character")
    resolve: int = param(
        1, "Infernal Resolve spent before the roll (at least 1)", ge=1, le=MAX_SCORE
    )
    target: str | None = param(None, "the character attacked (none: a working)", ref="character")
    resist: bool = param(
        False, "the target resists (Resist under its own Spirit)", decided_by="target"
    )
    attribute: AttributeName | None = param(
        None, "the sorcerer's attribute rolled under (default Spirit)"
    )
    tn: int | None = param(
        None, "without a target: a target number when mimicking another Expertise", ge=0, le=MAX_TN
    )
    mode: Mode = param("under", "with tn: under or over it")
    range_modifier: int = param(0, "Modifier for long range", ge=0, le=MAX_DIFFICULTY)
    scale_modifier: int = param(
        0, "Modifier for a large area or time-scale", ge=0, le=MAX_DIFFICULTY
    )
    difficulty: int = param(0, "any other Modifier", ge=0, le=MAX_DIFFICULTY)
    power: str | None = param(None, "a Power whose points add dice to Occult")

    def __post_init__(self) -> None:
        _fuelled(self.resolve)
        super().__post_init__()

    def roles(self) -> dict[str, str]:
        """As every action; a target who resists defends (Resist)."""
        return _defending(super().roles(), self.target, self.resist)


@dataclass(frozen=True)
class Recover(Action):
    """Recover Action Points (takes the action): +1 from 0, else back to the maximum."""

    actor: str = param(doc="who recovers", ref="character", role="recover")


@dataclass(frozen=True)
class Wait(Action):
    """Let the next character act: go to the back of the order without acting."""

    actor: str = param(doc="who waits", ref="character")


@dataclass(frozen=True)
class SpendResolve(Action):
    """Spend Infernal Resolve for Action Points 1:1 (not an action)."""

    actor: str = param(doc="who spends", ref="character", role="recover")
    points: int = param(1, "Infernal Resolve spent", ge=1, le=MAX_SCORE)


@dataclass(frozen=True)
class TakeDamage(Action):
    """Physical damage from anything but an attack roll (a fall, a fire): the Effect
    goes on the Size/Physique track like a hit's."""

    victim: str = param(doc="who is hurt", ref="character")
    effect: int = param(doc="the damage's Effect", ge=0, le=MAX_SCORE)
    weapon: int = param(0, "points added to the Effect", ge=0, le=MAX_BONUS)
    armor: int = param(0, "armour taken off the Effect", ge=0, le=MAX_BONUS)
    shunt_to_beauty: int = param(
        0, "points the victim shunts to Beauty", ge=0, le=MAX_SCORE, decided_by="victim"
    )


@dataclass(frozen=True)
class SpendResolveToSurvive(Action):
    """Answer a terminal hit: expend 1 Infernal Resolve to avoid dying (full AP
    recovery; still terminal)."""

    actor: str = param(
        doc="the character who took terminal damage", ref="character", role="respond"
    )


@dataclass(frozen=True)
class AcceptFate(Action):
    """Answer a terminal hit: spend nothing, and die."""

    actor: str = param(
        doc="the character who took terminal damage", ref="character", role="respond"
    )


@dataclass(frozen=True)
class Rest(Action):
    """An hour or more of rest or calm activity: Infernal Resolve refreshes; enough hours
    restore full AP refreshes (Fatigue). The clock advances."""

    actor: str = param(doc="who rests", ref="character", role="recover")
    hours: int = param(1, "hours of rest", ge=1, le=24)


@dataclass(frozen=True)
class VowRefresh(Action):
    """Circumstances in direct opposition to the Vow refresh Infernal Resolve to full."""

    actor: str = param(doc="whose Vow is opposed", ref="character", role="care")


# -- sorcery from plain numbers ----------------------------------------------------


@dataclass(frozen=True)
class OccultRoll(Action):
    """An Occult attack from plain numbers (the referee's tool): the working under the
    sorcerer's Spirit, optionally resisted."""

    referee_only: ClassVar[bool] = True

    dice: int = param(1, "Occult Expertise (+ Power dice); 0 = zero Expertise", ge=0, le=MAX_DICE)
    tn: int = param(6, "the sorcerer's own Spirit (rolled under)", ge=MIN_TN, le=MAX_TN)
    resolve: int = param(
        1,
        "Infernal Resolve spent before the roll (1 or more; each beyond the first: +1 Effect)",
        ge=1,
        le=MAX_SCORE,
    )
    identity: int = param(0, "the sorcerer's Demon, added to Effect", ge=0, le=20)
    range_modifier: int = param(0, "long-range Modifier 0-4", ge=0, le=MAX_DIFFICULTY)
    scale_modifier: int = param(0, "large area / time-scale Modifier 0-4", ge=0, le=MAX_DIFFICULTY)
    difficulty: int = param(0, "any other Modifier 0-4 (the three add up)", ge=0, le=MAX_DIFFICULTY)
    resist_dice: int | None = param(
        None, "the target resists: its Resist (0 = zero)", ge=0, le=MAX_DICE
    )
    resist_tn: int | None = param(None, "the resisting target's own Spirit", ge=MIN_TN, le=MAX_TN)
    resist_identity: int = param(0, "the resisting target's Demon", ge=0, le=20)
    resist_mode: ResistMode | None = param(
        None, "subtract (the ruling's default) or cancel (none: the table's option)"
    )

    def __post_init__(self) -> None:
        _fuelled(self.resolve)
        if (self.resist_dice is None) != (self.resist_tn is None):
            raise IllegalAction("resist_dice and resist_tn go together")
        super().__post_init__()


# -- wealth -------------------------------------------------------------------


@dataclass(frozen=True)
class Buy(Action):
    """Roll to buy: the Expertise's dice against the seller's Social and one's own Credit
    with a House. Within the Credit but not above the Social, the item can still be had
    for 1 Credit (a decision: sacrifice-credit or decline-purchase)."""

    actor: str = param(doc="the buyer", ref="character")
    seller_social: int = param(doc="the seller's Social", ge=0, le=MAX_TN)
    house: HouseName | None = param(None, "the House account used (default: one's own)")
    expertise: ExpertiseName = param("Negotiate", "the Expertise rolled", sheet="expertise")


@dataclass(frozen=True)
class BuyRoll(Action):
    """A buying roll from plain numbers (the referee's tool)."""

    referee_only: ClassVar[bool] = True

    dice: int = param(1, "dice of the buying Expertise (0 = zero Expertise)", ge=0, le=MAX_DICE)
    social: int = param(3, "the seller's Social", ge=0, le=MAX_TN)
    credit: int = param(3, "the buyer's Credit with the House", ge=0, le=MAX_SCORE)


@dataclass(frozen=True)
class SacrificeCredit(Action):
    """Give a seller 1 Credit from one House account (the buying rule's fallback)."""

    actor: str = param(doc="who pays", ref="character")
    house: HouseName | None = param(None, "the account (default: one's own House)")


@dataclass(frozen=True)
class DeclinePurchase(Action):
    """Answer a buying roll that needs a Credit sacrifice: keep the Credit, go without."""

    actor: str = param(doc="the buyer", ref="character")


@dataclass(frozen=True)
class TransferCredit(Action):
    """Move Credit between one's House accounts at 2:1 (2 paid per 1 received)."""

    actor: str = param(doc="whose accounts", ref="character")
    source: HouseName = param(doc="the account paying 2 per point")
    dest: HouseName = param(doc="the account receiving")
    received: int = param(1, "points received", ge=1, le=MAX_SCORE)


# -- character points -----------------------------------------------------------


@dataclass(frozen=True)
class AwardPoints(Action):
    """A session's character points: 1-2 for playing, +1 for risk taken for the Vow."""

    target: str = param(doc="who is awarded", ref="character", role="care")
    points: int = param(1, "1 or 2, by the session's length and intensity", ge=1, le=2)
    vow_risk: bool = param(False, "put themselves at risk conforming to their Vow (+1)")

    def __post_init__(self) -> None:
        if self.points not in (1, 2):
            raise IllegalAction("a session awards 1 or 2 points")
        super().__post_init__()


@dataclass(frozen=True)
class RaiseExpertise(Action):
    """+1 Expertise for its current level x 5 points (0 costs as 1)."""

    actor: str = param(doc="whose Expertise", ref="character")
    expertise: ExpertiseName = param(doc="the Expertise raised", sheet="expertise")
    used: bool = param(False, "it was used, successfully or not, in the previous session")


@dataclass(frozen=True)
class RaiseIdentity(Action):
    """+1 Identity: level x 2 points if ``reduce`` drops by 1, else level x 5."""

    actor: str = param(doc="whose Identity", ref="character")
    identity: IdentityName = param(doc="the Identity raised")
    reduce: IdentityName | None = param(None, "another Identity lowered by 1 (cost x2, not x5)")
    used: bool = param(False, "it was used in the previous session")


@dataclass(frozen=True)
class RaiseAttribute(Action):
    """+1 attribute for level x 5 points, within the primary / sex / age rules."""

    actor: str = param(doc="whose attribute", ref="character")
    attribute: AttributeName = param(doc="the attribute raised")
    used: bool = param(False, "it was used in the previous session")


@dataclass(frozen=True)
class ApproveSheet(Action):
    """The referee approves rules a seated character's sheet breaks, with the reason
    (kept on the sheet; approved problems no longer fail validation)."""

    target: str = param(doc="whose sheet", ref="character", role="care")
    reason: str = param(doc="why the referee allows it (recorded)")
    fields: tuple[str, ...] = param((), "the problems' field paths (empty: every open problem)")
    by: str = param("", "who approved it")

    def __post_init__(self) -> None:
        if not self.reason.strip():
            why = Problem("Mongrel: referee approval", "reason", "must say why", self.reason)
            raise IllegalAction("an approval must say why (reason)", (why,))
        super().__post_init__()


def _defending(roles: dict[str, str], target: str | None, defends: bool) -> dict[str, str]:
    """``roles`` with a target who defends (or resists) defending (Physical damage: "a
    collapsed character cannot defend")."""
    if target is not None and defends and roles.get(target) == "target":
        roles[target] = "defend"
    return roles


TERMINAL_CHOICES: tuple[str, ...] = ("spend-resolve-to-survive", "accept-fate")
"""The answers to a terminal hit (Mongrel, Physical damage)."""

SACRIFICE_CHOICES: tuple[str, ...] = ("sacrifice-credit", "decline-purchase")
"""The answers to a buying roll within the Credit but not above the Social."""
