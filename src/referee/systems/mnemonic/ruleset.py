"""The Mnemonic :class:`~referee.systems.base.Ruleset`: actions, resolve and odds.

The table state a Mnemonic action needs is the deck (for the card
randomizers) and the characters by name. Rules never mutate it: outcomes carry
the new deck and Status as :class:`~referee.systems.base.Change` values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.errors import IllegalAction, Problem
from referee.systems.base import Change, Outcome
from referee.systems.mnemonic.aptitude import Aptitude, aptitude
from referee.systems.mnemonic.checks import SYSTEM, check_odds, success_check
from referee.systems.mnemonic.conflict import (
    Contender,
    agile_order,
    attack,
    attack_odds,
    opposed_attack,
    opposed_odds,
    order_odds,
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


@dataclass(frozen=True, kw_only=True)
class Live:
    """What a check may take from a live table: ``randomizer`` overrides the
    table's; ``cards`` are card values drawn by hand; ``said`` the player's and
    the referee's numbers of a verbal method (e.g. ``("4A", "5B")``)."""

    randomizer: str | None = None
    cards: tuple[int, ...] | None = None
    said: tuple[int | str, int | str] | None = None


@dataclass(frozen=True)
class Check(Live):
    """A Success Check from a given Aptitude (0..12) and Chances (number or rating name)."""

    aptitude: int
    chances: int | str = 0


@dataclass(frozen=True)
class SheetCheck(Live):
    """A Success Check of a character: Talent plus Life Role, or a fallback
    (``relevant`` / ``irrelevant`` Primary Role, ``lucky``) when no Life Role fits."""

    character: str
    talent: str
    life_role: str | None = None
    fallback: str = "relevant"
    chances: int | str = 0


@dataclass(frozen=True)
class Attack(Live):
    """An attack; ``defense`` (<= 0) is how much the defender's action worsens the
    Chances. With the opposed-rolls option the defender's Aptitude and Chances are
    used instead."""

    aptitude: int
    chances: int | str = 0
    defense: int = 0
    defender_aptitude: int | None = None
    defender_chances: int | str = 0


@dataclass(frozen=True)
class Injury(Live):
    """An injury check for a character at the table; ``worst`` is the referee's
    choice of unconscious / immobilized / dead, ``chances`` of remaining active."""

    victim: str
    worst: str
    chances: int | str = 0
    life_role: str | None = None
    talent: str | None = None


@dataclass(frozen=True)
class Order:
    """Order of action: ``groups`` in the referee's order, or Agile checks of
    ``contenders`` (when the table's initiative option is ``agile``)."""

    groups: tuple[tuple[str, ...], ...] = ()
    contenders: tuple[Contender, ...] = ()


@dataclass(frozen=True)
class Reshuffle:
    """The referee reshuffles every card back into the deck."""


class _Table(TypedDict):
    """The table inputs every check function takes."""

    options: Options
    deck: Deck
    randomizer: str | None


def _table(live: Live, st: TableState, opts: Options) -> _Table:
    return {"options": opts, "deck": st.deck, "randomizer": live.randomizer}


Resolver = Callable[[Roller], Outcome]
OddsOf = Callable[[], Distribution[Any]]


def _no_odds(action: Any) -> OddsOf:
    def odds() -> Distribution[Any]:
        raise IllegalAction(f"no odds for {type(action).__name__} (nothing random to compute)")

    return odds


def _check(
    apt: int | Aptitude, chances: int | str, live: Live, st: TableState, opts: Options, name: str
) -> tuple[Resolver, OddsOf]:
    value = apt.value if isinstance(apt, Aptitude) else apt
    table = _table(live, st, opts)
    return (
        lambda r: success_check(
            apt, chances, r, cards=live.cards, said=live.said, action=name, **table
        ),
        lambda: check_odds(value, chances, **table),
    )


def _attack(action: Attack, st: TableState, opts: Options) -> tuple[Resolver, OddsOf]:
    table = _table(action, st, opts)
    if not opts.opposed_rolls:
        return (
            lambda r: attack(
                action.aptitude,
                action.chances,
                r,
                defense=action.defense,
                cards=action.cards,
                said=action.said,
                **table,
            ),
            lambda: attack_odds(action.aptitude, action.chances, defense=action.defense, **table),
        )
    if action.defense:
        raise IllegalAction(
            "with opposed rolls the defender rolls instead of worsening the Chances"
        )
    if action.said is not None:
        raise IllegalAction("opposed rolls take two checks' numbers: enter them as faces")
    if action.defender_aptitude is None:
        raise IllegalAction("opposed rolls need the defender's Aptitude")
    sides = (action.aptitude, action.chances, action.defender_aptitude, action.defender_chances)
    return (
        lambda r: opposed_attack(*sides, r, cards=action.cards, **table),
        lambda: opposed_odds(*sides, **table),
    )


def _injury(action: Injury, st: TableState, opts: Options) -> tuple[Resolver, OddsOf]:
    victim = st.character(action.victim)
    apt = resisting_aptitude(victim, life_role=action.life_role, talent=action.talent, options=opts)
    table = _table(action, st, opts)
    return (
        lambda r: injury(
            apt,
            action.chances,
            action.worst,
            r,
            status=victim.status,
            victim=victim.name,
            cards=action.cards,
            said=action.said,
            **table,
        ),
        lambda: injury_odds(apt.value, action.chances, action.worst, status=victim.status, **table),
    )


def _order(action: Order, st: TableState, opts: Options) -> tuple[Resolver, OddsOf]:
    agile = opts.initiative == "agile"
    if action.groups if agile else action.contenders:
        given, wanted = ("groups", "contenders") if agile else ("contenders", "groups")
        raise IllegalAction(
            f"this table's order of action is {opts.initiative!r} (option initiative): "
            f"give {wanted}, not {given}"
        )
    if agile:
        return (
            lambda r: agile_order(action.contenders, r, options=opts, deck=st.deck)[0],
            lambda: order_odds(action.contenders, options=opts, deck=st.deck),
        )
    groups = referee_order(action.groups)
    done = Outcome(
        system=SYSTEM,
        action="order of action",
        label=" then ".join(" & ".join(g) for g in groups),
        details={"order": [list(g) for g in groups]},
    )
    return (lambda r: done, _no_odds(action))


def _plan(action: Any, state: Any, options: Any) -> tuple[Resolver, OddsOf]:
    """How an action is resolved and what its exact odds are, from one reading of
    its inputs, so :meth:`MnemonicRuleset.resolve` and :meth:`~.odds` cannot drift."""
    st: TableState = state if isinstance(state, TableState) else TableState()
    opts: Options = options
    if isinstance(action, Check):
        return _check(action.aptitude, action.chances, action, st, opts, "check")
    if isinstance(action, SheetCheck):
        who = st.character(action.character)
        apt = aptitude(who, action.talent, action.life_role, fallback=action.fallback, options=opts)
        return _check(apt, action.chances, action, st, opts, f"{who.name}: {action.talent} check")
    if isinstance(action, Attack):
        return _attack(action, st, opts)
    if isinstance(action, Injury):
        return _injury(action, st, opts)
    if isinstance(action, Order):
        return _order(action, st, opts)
    if isinstance(action, Reshuffle):
        done = Outcome(
            system=SYSTEM,
            action="reshuffle",
            label="the deck is reshuffled (48 cards)",
            changes=(Change("table", "deck", value=Deck(), reason="reshuffle"),),
        )
        return (lambda r: done, _no_odds(action))
    raise IllegalAction(f"unknown Mnemonic action {type(action).__name__}")


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
        return _plan(action, state, options)[0](roller)

    def odds(self, action: Any, state: Any, options: Any) -> Distribution[Any]:
        """Exact distribution of what :meth:`resolve` yields (for cards: the deck as it stands)."""
        return _plan(action, state, options)[1]()


RULESET = MnemonicRuleset()

__all__ = ["RULESET", "Status"]
