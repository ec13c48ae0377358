"""Every Mnemonic action: a frozen dataclass of its inputs, naming characters by id.

Referee's Guide p. 1: a Success Check ("applying chances", from an Aptitude or
from a character's Talent and Life Role, "determining aptitude"), an attack
("attacking and dodging", with the opposed-rolls option), an injury check (the
COMPANION ruling), the order of action ("timing of actions": the referee's
order or Agile checks), and the referee's own: reshuffling the deck and
setting a character's Status.

The randomizer is never an action's choice: it is the table's (option
``randomizer``), since "everyone playing [should] use the same randomizer".
Cards drawn by hand and the numbers of a verbal method played live are not
fields either: they are the faces of the roll (see :mod:`.live`).

Chances are a number or a name on the Chances ladder (``"Good"``); an action
keeps the number, so a stored action reads back equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from referee.systems.base import Action, param
from referee.systems.mnemonic.aptitude import APTITUDE_MAX, chances_value, check_aptitude
from referee.systems.mnemonic.sheet import Status, check_status, check_worst
from referee.systems.mnemonic.tables import CHANCES_LIMIT

if TYPE_CHECKING:
    pass

Fallback = Literal["relevant", "irrelevant", "lucky"]
"""The stand-in for a Life Role when none fits ("determining aptitude"): the
Primary Role at Moderately, at Not At All, or the optional Talent Lucky."""

Worst = Literal["unconscious", "immobilized", "dead"]
"""What an injury leaves an inactive character (least to most severe)."""

CHANCES_DOC = (
    "Chances: a modifier -60..+60 (in-between values allowed) or a rating: Terrible -9, "
    "Bad -6, Poor -3, Moderate 0, Fair +3, Good +6, Great +9"
)
WORST_DOC = "unconscious, immobilized or dead"
FALLBACK_DOC = (
    "with no Life Role: relevant (Primary Role at Moderately), irrelevant (Not At All) or lucky"
)


def _normalise(record: object, chances: tuple[str, ...], aptitudes: tuple[str, ...]) -> None:
    """Chances names become their numbers; Aptitudes are checked with the rule's words."""
    for name in chances:
        object.__setattr__(record, name, chances_value(getattr(record, name)))
    for name in aptitudes:
        value = getattr(record, name)
        if isinstance(value, int):
            check_aptitude(value)


@dataclass(frozen=True)
class MnemonicAction(Action):
    """The base of Mnemonic's actions: Chances names are read as their modifiers."""

    CHANCES: ClassVar[tuple[str, ...]] = ()
    APTITUDES: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        _normalise(self, self.CHANCES, self.APTITUDES)
        super().__post_init__()


@dataclass(frozen=True)
class Check(MnemonicAction):
    """A Success Check from an Aptitude the referee gives ("applying chances")."""

    CHANCES: ClassVar[tuple[str, ...]] = ("chances",)
    APTITUDES: ClassVar[tuple[str, ...]] = ("aptitude",)

    aptitude: int = param(doc="Aptitude 0..12: a Talent plus a Life Role", ge=0, le=APTITUDE_MAX)
    chances: int | str = param(0, CHANCES_DOC)


@dataclass(frozen=True)
class SheetCheck(MnemonicAction):
    """A Success Check of a seated character: the Talent plus the Life Role the
    referee names, or a fallback when no Life Role fits ("determining aptitude")."""

    CHANCES: ClassVar[tuple[str, ...]] = ("chances",)

    actor: str = param(doc="the character making the check", ref="character")
    talent: str = param(doc="the Talent the referee names", sheet="talents")
    life_role: str | None = param(None, "the Life Role; none: the fallback", sheet="life_roles")
    fallback: Fallback = param("relevant", FALLBACK_DOC)
    chances: int | str = param(0, CHANCES_DOC)


@dataclass(frozen=True)
class Attack(MnemonicAction):
    """An attack ("attacking and dodging"): only the attacker rolls, and a defender
    making himself a harder target worsens the Chances (``defense``). With the
    opposed-rolls option the defender rolls too (``defender_*``) instead.

    The attacker's Aptitude is ``aptitude`` when given, else the ``actor``'s
    Talent (Dangerous unless named) and Life Role; the defender's likewise from
    ``defender_aptitude`` or the ``target``'s sheet (Agile unless named).
    """

    CHANCES: ClassVar[tuple[str, ...]] = ("chances", "defender_chances")
    APTITUDES: ClassVar[tuple[str, ...]] = ("aptitude", "defender_aptitude")

    actor: str | None = param(None, "the attacker", ref="character")
    target: str | None = param(None, "the one attacked", ref="character")
    aptitude: int | None = param(
        None,
        "the attacker's Aptitude given directly (else from the actor's sheet)",
        ge=0,
        le=APTITUDE_MAX,
    )
    talent: str = param("Dangerous", "the attacker's Talent (with an actor)", sheet="talents")
    life_role: str | None = param(
        None, "the attacker's Life Role; none: the fallback", sheet="life_roles"
    )
    fallback: Fallback = param("relevant", FALLBACK_DOC)
    chances: int | str = param(0, CHANCES_DOC)
    defense: int = param(
        0,
        "how much the defender's action worsens the Chances (0 or less; one step is -3)",
        ge=-CHANCES_LIMIT,
        le=0,
        decided_by="target",
        when="not opposed_rolls",
    )
    defender_aptitude: int | None = param(
        None,
        "opposed rolls: the defender's Aptitude (else from the target's sheet)",
        ge=0,
        le=APTITUDE_MAX,
        decided_by="target",
        when="opposed_rolls",
    )
    defender_talent: str = param(
        "Agile",
        "opposed rolls: the defender's Talent (with a target)",
        decided_by="target",
        when="opposed_rolls",
        sheet="talents",
    )
    defender_life_role: str | None = param(
        None,
        "opposed rolls: the defender's Life Role",
        decided_by="target",
        when="opposed_rolls",
        sheet="life_roles",
    )
    defender_fallback: Fallback = param(
        "relevant", "opposed rolls: " + FALLBACK_DOC, decided_by="target", when="opposed_rolls"
    )
    defender_chances: int | str = param(
        0, "opposed rolls: the defender's " + CHANCES_DOC, decided_by="target", when="opposed_rolls"
    )

    def roles(self) -> dict[str, str]:
        """As every action; a target who makes himself a harder target defends."""
        found = super().roles()
        if self.target is not None and self.defense and found.get(self.target) == "target":
            found[self.target] = "defend"
        return found


@dataclass(frozen=True)
class Injury(MnemonicAction):
    """An injury check (COMPANION): the victim's Chances of remaining active, and the
    worst the injury can do. A seated ``victim`` resists with a relevant Life Role
    (rare) or the Primary Role at Moderately, plus its best Talent, and its Status
    is the table's; otherwise give the resisting ``aptitude`` and the victim's
    current ``status``."""

    CHANCES: ClassVar[tuple[str, ...]] = ("chances",)
    APTITUDES: ClassVar[tuple[str, ...]] = ("aptitude",)

    worst: Worst = param(doc="the worst outcome: " + WORST_DOC)
    victim: str | None = param(None, "the injured character", ref="character", role="respond")
    chances: int | str = param(0, "Chances of remaining active: " + CHANCES_DOC)
    aptitude: int | None = param(
        None,
        "the resisting Aptitude given directly (else from the victim's sheet)",
        ge=0,
        le=APTITUDE_MAX,
    )
    life_role: str | None = param(
        None, "a Life Role relevant to resisting (rare)", sheet="life_roles"
    )
    talent: str | None = param(
        None, "the Talent resisting; none: the best (usually Tough)", sheet="talents"
    )
    status: Status | None = param(
        None, "the current Status of a victim not seated (a seated victim's is the table's)"
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "worst", check_worst(self.worst))
        if self.status is not None:
            check_status(self.status)
        super().__post_init__()


@dataclass(frozen=True)
class Contender:
    """One character checking Agile for the order of action: a seated character's id
    (its Aptitude from its sheet) or any name with its Aptitude given."""

    name: str = param(doc="a seated character's id, or the name of another", ref="character")
    aptitude: int | None = param(
        None, "the Agile Aptitude given directly (else from the sheet)", ge=0, le=APTITUDE_MAX
    )
    chances: int | str = param(0, CHANCES_DOC)
    talent: str = param(
        "Agile", "the Talent checked (a frigate might use Maneuverable)", sheet="talents"
    )
    life_role: str | None = param(
        None, "a Life Role that fits; none: the Primary at Moderately", sheet="life_roles"
    )

    def __post_init__(self) -> None:
        _normalise(self, ("chances",), ("aptitude",))


@dataclass(frozen=True)
class AgileOrder(MnemonicAction):
    """The order of action by Success Checks using Agile ("timing of actions"): most
    Successes act first; equal numbers act simultaneously."""

    moves_time: ClassVar[bool] = True

    contenders: tuple[Contender, ...] = param(doc="the characters checking, in the order they draw")

    def roles(self) -> dict[str, str]:
        """Each contender checks Agile: they act (a name not seated is no one's)."""
        return {c.name: "act" for c in self.contenders}


@dataclass(frozen=True)
class RefereeOrder(MnemonicAction):
    """The referee's order of action ("timing of actions"): groups in turn, each
    acting simultaneously."""

    moves_time: ClassVar[bool] = True

    referee_only: ClassVar[bool] = True

    groups: tuple[tuple[str, ...], ...] = param(
        doc="groups in order, first to act first; the members of a group act simultaneously"
    )


@dataclass(frozen=True)
class NextTurn(MnemonicAction):
    """The referee moves the order of action on: the next group acts (after the last,
    the first again, a new round)."""

    referee_only: ClassVar[bool] = True


@dataclass(frozen=True)
class Reshuffle(MnemonicAction):
    """The referee reshuffles every card back into the deck (48 cards)."""

    referee_only: ClassVar[bool] = True


@dataclass(frozen=True)
class SetStatus(MnemonicAction):
    """The referee sets a character's Status (recovery, a ruling, a correction)."""

    referee_only: ClassVar[bool] = True

    target: str = param(doc="the character", ref="character", role="care")
    condition: str = param("Fine", "Fine, the injured label (Hurt) or inactive")
    inactive_as: Worst | None = param(None, "an inactive character: " + WORST_DOC)
    injuries: int | None = param(None, "injuries so far (none: unchanged)", ge=0, le=100)

    def __post_init__(self) -> None:
        check_status(Status(self.condition, self.inactive_as, self.injuries or 0))
        super().__post_init__()
