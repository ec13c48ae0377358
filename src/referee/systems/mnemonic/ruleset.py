"""The Mnemonic :class:`~referee.systems.base.Ruleset`: actions, resolve and odds.

The table state a Mnemonic action needs is the deck (for the card
randomizers) and the characters by name. Rules never mutate it: outcomes carry
the new deck and Status as :class:`~referee.systems.base.Change` values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.errors import IllegalAction, Problem
from referee.systems.base import Change, Outcome
from referee.systems.mnemonic.aptitude import aptitude
from referee.systems.mnemonic.checks import SYSTEM, check_odds, success_check
from referee.systems.mnemonic.conflict import (
    Contender,
    agile_order,
    attack,
    attack_odds,
    first_odds,
    opposed_attack,
    opposed_odds,
    referee_order,
)
from referee.systems.mnemonic.deck import Deck
from referee.systems.mnemonic.health import injury, injury_odds, resisting_aptitude
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.sheet import Character, Status, validate


@dataclass(frozen=True)
class TableState:
    """What Mnemonic rules read from the table: the deck and the characters."""

    deck: Deck = field(default_factory=Deck)
    characters: Mapping[str, Character] = field(default_factory=dict)

    def character(self, name: str) -> Character:
        """The character called ``name``; :class:`IllegalAction` if absent."""
        try:
            return self.characters[name]
        except KeyError:
            known = ", ".join(self.characters) or "none"
            raise IllegalAction(f"no character {name!r} at this table; known: {known}") from None


@dataclass(frozen=True)
class Check:
    """A Success Check from a given Aptitude (0..12) and Chances (number or rating name).

    ``cards`` are card values drawn by hand; ``randomizer`` overrides the table's.
    """

    aptitude: int
    chances: int | str = 0
    randomizer: str | None = None
    cards: tuple[int, ...] | None = None


@dataclass(frozen=True)
class SheetCheck:
    """A Success Check of a character: Talent plus Life Role, or a fallback
    (``relevant`` / ``irrelevant`` Primary Role, ``lucky``) when no Life Role fits."""

    character: str
    talent: str
    life_role: str | None = None
    fallback: str = "relevant"
    chances: int | str = 0
    randomizer: str | None = None
    cards: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Attack:
    """An attack; ``defense`` (<= 0) is how much the defender's action worsens the
    Chances. With the opposed-rolls option the defender's Aptitude and Chances are
    used instead."""

    aptitude: int
    chances: int | str = 0
    defense: int = 0
    defender_aptitude: int | None = None
    defender_chances: int | str = 0
    randomizer: str | None = None
    cards: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Injury:
    """An injury check for a character at the table; ``worst`` is the referee's
    choice of unconscious / immobilized / dead, ``chances`` of remaining active."""

    victim: str
    worst: str
    chances: int | str = 0
    life_role: str | None = None
    talent: str | None = None
    randomizer: str | None = None
    cards: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Order:
    """Order of action: ``groups`` in the referee's order, or Agile checks of
    ``contenders`` (when the table's initiative option is ``agile``)."""

    groups: tuple[tuple[str, ...], ...] = ()
    contenders: tuple[Contender, ...] = ()


@dataclass(frozen=True)
class Reshuffle:
    """The referee reshuffles every card back into the deck."""


class MnemonicRuleset:
    """Mnemonic (Alpha-Zulu Games): Referee's Guide p. 1 and the Player's Guide facts."""

    name = "mnemonic"
    title = "Mnemonic (Alpha-Zulu Games)"
    sheet_type = Character
    options_type = Options

    def validate(self, sheet: Any, options: Any) -> tuple[Problem, ...]:
        """Every rule the character breaks."""
        return validate(sheet, options)

    def actions(self) -> Mapping[str, type[Any]]:
        """The actions a Mnemonic table offers."""
        return {
            "check": Check,
            "sheet-check": SheetCheck,
            "attack": Attack,
            "injury": Injury,
            "order": Order,
            "reshuffle": Reshuffle,
        }

    def resolve(self, action: Any, state: Any, roller: Roller, options: Any) -> Outcome:
        """Resolve one action against the table state."""
        st: TableState = state if isinstance(state, TableState) else TableState()
        opts: Options = options
        if isinstance(action, Check):
            return success_check(
                action.aptitude,
                action.chances,
                roller,
                options=opts,
                deck=st.deck,
                randomizer=action.randomizer,
                cards=action.cards,
            )
        if isinstance(action, SheetCheck):
            who = st.character(action.character)
            apt = aptitude(
                who, action.talent, action.life_role, fallback=action.fallback, options=opts
            )
            return success_check(
                apt,
                action.chances,
                roller,
                options=opts,
                deck=st.deck,
                randomizer=action.randomizer,
                cards=action.cards,
                action=f"{who.name}: {action.talent} check",
            )
        if isinstance(action, Attack):
            if opts.opposed_rolls:
                if action.defense:
                    raise IllegalAction(
                        "with opposed rolls the defender rolls instead of worsening the Chances"
                    )
                if action.defender_aptitude is None:
                    raise IllegalAction("opposed rolls need the defender's Aptitude")
                return opposed_attack(
                    action.aptitude,
                    action.chances,
                    action.defender_aptitude,
                    action.defender_chances,
                    roller,
                    options=opts,
                    deck=st.deck,
                    randomizer=action.randomizer,
                    cards=action.cards,
                )
            return attack(
                action.aptitude,
                action.chances,
                roller,
                defense=action.defense,
                options=opts,
                deck=st.deck,
                randomizer=action.randomizer,
                cards=action.cards,
            )
        if isinstance(action, Injury):
            victim = st.character(action.victim)
            apt = resisting_aptitude(
                victim, life_role=action.life_role, talent=action.talent, options=opts
            )
            return injury(
                apt,
                action.chances,
                action.worst,
                roller,
                status=victim.status,
                victim=victim.name,
                options=opts,
                deck=st.deck,
                randomizer=action.randomizer,
                cards=action.cards,
            )
        if isinstance(action, Order):
            if opts.initiative == "agile":
                outcome, _ = agile_order(action.contenders, roller, options=opts, deck=st.deck)
                return outcome
            groups = referee_order(action.groups)
            return Outcome(
                system=SYSTEM,
                action="order of action",
                label=" then ".join(" & ".join(g) for g in groups),
                details={"order": [list(g) for g in groups]},
            )
        if isinstance(action, Reshuffle):
            return Outcome(
                system=SYSTEM,
                action="reshuffle",
                label="the deck is reshuffled (48 cards)",
                changes=(Change("table", "deck", value=Deck(), reason="reshuffle"),),
            )
        raise IllegalAction(f"unknown Mnemonic action {type(action).__name__}")

    def odds(self, action: Any, state: Any, options: Any) -> Distribution[Any]:
        """Exact distribution of what :meth:`resolve` yields (for cards: the deck as it stands)."""
        st: TableState = state if isinstance(state, TableState) else TableState()
        opts: Options = options
        if isinstance(action, Check):
            return check_odds(
                action.aptitude,
                action.chances,
                options=opts,
                deck=st.deck,
                randomizer=action.randomizer,
            )
        if isinstance(action, SheetCheck):
            who = st.character(action.character)
            apt = aptitude(
                who, action.talent, action.life_role, fallback=action.fallback, options=opts
            )
            return check_odds(
                apt.value, action.chances, options=opts, deck=st.deck, randomizer=action.randomizer
            )
        if isinstance(action, Attack):
            if opts.opposed_rolls:
                if action.defender_aptitude is None:
                    raise IllegalAction("opposed rolls need the defender's Aptitude")
                return opposed_odds(
                    action.aptitude,
                    action.chances,
                    action.defender_aptitude,
                    action.defender_chances,
                    options=opts,
                    deck=st.deck,
                    randomizer=action.randomizer,
                )
            return attack_odds(
                action.aptitude,
                action.chances,
                defense=action.defense,
                options=opts,
                deck=st.deck,
                randomizer=action.randomizer,
            )
        if isinstance(action, Injury):
            victim = st.character(action.victim)
            apt = resisting_aptitude(
                victim, life_role=action.life_role, talent=action.talent, options=opts
            )
            return injury_odds(
                apt.value,
                action.chances,
                action.worst,
                status=victim.status,
                options=opts,
                deck=st.deck,
                randomizer=action.randomizer,
            )
        if isinstance(action, Order) and opts.initiative == "agile" and len(action.contenders) == 2:
            a, b = action.contenders
            return first_odds(a, b, options=opts, deck=st.deck)
        raise IllegalAction(f"no odds for {type(action).__name__} (nothing random to compute)")


RULESET = MnemonicRuleset()

__all__ = ["RULESET", "Status"]
