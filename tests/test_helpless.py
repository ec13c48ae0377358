"""Those the text makes helpless do not act, in every game (issue 41).

For every condition a game declares helpless (``Ruleset.conditions``), and every action
of the game with that character in each place it can take (actor, target, defender,
helper, the threat striking back...), the action is refused before a die is drawn when
the condition forbids that part, and its odds are refused alike; the refusal names the
character and the condition in the game's words. The conditions are built here from the
texts' own numbers (ARM wound level 5, Mneme CE damage above HP...), never through the
package's condition function.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import MISSING, fields, replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice.roller import ScriptedRoller
from referee.errors import IllegalAction, OddsTooComplex, RulesError
from referee.systems.base import Action, Ruleset, get

Setter = Callable[[Any], Any]
"""A seated record put into one condition."""


def _mneme_dead(seat: Any) -> Any:
    return replace(seat, sheet=replace(seat.sheet, conditions=("Dead",)))


def _mneme_dying(seat: Any) -> Any:  # ch. 7: damage > HP
    return replace(seat, sheet=replace(seat.sheet, damage=seat.sheet.hp + 1))


def _mneme_out(seat: Any) -> Any:  # ch. 7: damage >= 2/3 HP (rounded down), not above HP
    return replace(seat, sheet=replace(seat.sheet, damage=(2 * seat.sheet.hp) // 3))


def _mnemonic(outcome: str) -> Setter:
    from referee.systems.mnemonic.sheet import Status

    return lambda seat: replace(seat, status=Status("inactive", outcome, 1))


CONDITIONS: Mapping[str, Mapping[str, Setter]] = {
    "mnemonic": {
        "inactive (dead)": _mnemonic("dead"),
        "inactive (immobilized)": _mnemonic("immobilized"),
        "inactive (unconscious)": _mnemonic("unconscious"),
    },
    "mongrel": {
        "dead": lambda seat: replace(seat, dead=True, ap=0),
        "collapsed": lambda seat: replace(seat, collapsed=True, ap=0),
    },
    "mneme": {
        "Dead": _mneme_dead,
        "Dying (Unconscious and Immobile)": _mneme_dying,
        "Critically Wounded and out": _mneme_out,
    },
    "arm": {
        "Destroyed": lambda seat: replace(seat, destroyed=True),
        "Dead": lambda seat: replace(seat, wound=5),
        "Unconscious": lambda seat: replace(seat, shock=5),
    },
}
"""Each game's helpless conditions, each built from the text's numbers."""

PAIRS = {
    "mnemonic": ("boxer", "frigate"),
    "mongrel": ("vooruk", "giazza"),
    "mneme": ("raider", "ada"),
    "arm": ("brad", "alex"),
}
"""The character put into the condition, and another who is well."""

REQUIRED: Mapping[str, Mapping[str, Mapping[str, Any]]] = {
    "mnemonic": {
        "sheet-check": {"talent": "Tough"},
        "injury": {"worst": "dead"},
        "set-status": {},
    },
    "mongrel": {
        "task": {"expertise": "Rend"},
        "attack": {"expertise": "Rend"},
        "take-damage": {"effect": 1},
        "buy": {"seller_social": 2},
        "transfer-credit": {"source": "Aggak-Ko", "dest": "Mekag"},
        "raise-expertise": {"expertise": "Rend"},
        "raise-identity": {"identity": "beast"},
        "raise-attribute": {"attribute": "speed"},
        "approve-sheet": {"reason": "ruled"},
    },
    "mneme": {"attack": {"weapon": "Broadsword"}},
    "arm": {
        "subtasks": {"parts": ()},
        "record-wound": {"description": "a shattered ankle"},
    },
}
"""Fields an action needs besides the characters it names."""


def _character_fields(kind: type[Action]) -> list[str]:
    return [
        f.name for f in fields(kind) if f.metadata.get("ref") == "character" or f.name == "actor"
    ]


def _build(game: str, name: str, kind: type[Action], given: Mapping[str, Any]) -> Action:
    """``kind`` with ``given`` and what it needs besides (the well partner elsewhere)."""
    well = PAIRS[game][1]
    kwargs: dict[str, Any] = dict(REQUIRED[game].get(name, {}))
    for f in fields(kind):
        if f.name in given or f.name in kwargs:
            continue
        required = f.default is MISSING and f.default_factory is MISSING
        if required and f.name in _character_fields(kind):
            kwargs[f.name] = (well,) if "tuple" in str(f.type) else well
    return kind(**{**kwargs, **given})


def cases(game: str) -> Iterator[tuple[str, Action]]:
    """Every action of ``game`` with the helpless character in each place it names one,
    and the variants whose roles hang on other fields."""
    rules = get(game)
    x, well = PAIRS[game]
    for name, kind in rules.actions().items():
        for field_name in _character_fields(kind):
            is_tuple = any(f.name == field_name and "tuple" in str(f.type) for f in fields(kind))
            try:
                yield name, _build(game, name, kind, {field_name: (x,) if is_tuple else x})
            except (RulesError, TypeError):  # a combination the action itself refuses
                continue
    if game == "mneme":
        from referee.systems.mneme.actions import (
            Attack,
            Check,
            CheckInputs,
            InitiativePC,
            RollInitiative,
            TakeDamage,
            Threat,
        )

        threat = Threat(weapon="Broadsword", attacker=x)
        yield "attack", Attack(well, x, CheckInputs(), weapon="Broadsword", threat=threat)
        yield "check", Check(actor=well, threat=threat)
        yield "take-damage", TakeDamage(well, 2, threat)
        yield "initiative", RollInitiative((InitiativePC(x),))
    if game == "mnemonic":
        from referee.systems.mnemonic.actions import AgileOrder, Attack, Contender

        yield "attack", Attack(well, x, defense=-3)
        yield "agile-order", AgileOrder((Contender(x),))
    if game == "mongrel":
        from referee.systems.mongrel.actions import Attack, Occult

        yield "attack", Attack(well, x, "Rend", defend=True)
        yield "occult", Occult(well, target=x, resist=True)


def table(game: str, condition: str) -> tuple[Ruleset[Any, Any, Any], Any, Any]:
    rules = get(game)
    options = rules.options_type()
    state = rules.initial_state(options)
    for cid in PAIRS[game]:
        state = rules.seat(state, cid, rules.examples()[cid], options)
    x = PAIRS[game][0]
    seats = dict(state.characters)
    seats[x] = CONDITIONS[game][condition](seats[x])
    return rules, options, replace(state, characters=seats)


ALL = [(g, c, n, a) for g in CONDITIONS for c in CONDITIONS[g] for n, a in cases(g)]


def test_every_declared_condition_is_covered_and_every_action_is_tried() -> None:
    for game, built in CONDITIONS.items():
        rules = get(game)
        assert [h.condition for h in rules.conditions()] == list(built)
        tried = {n for g, _, n, _ in ALL if g == game}
        named = {n for n, k in rules.actions().items() if _character_fields(k)}
        assert named <= tried, named - tried


def test_the_conditions_are_the_ones_the_package_sees() -> None:
    """The states built here from the texts' numbers are the package's conditions."""
    for game, built in CONDITIONS.items():
        for condition in built:
            rules, options, state = table(game, condition)
            found = rules.helpless(state, PAIRS[game][0], options)
            assert found is not None and found.condition == condition
            assert rules.helpless(state, PAIRS[game][1], options) is None


@settings(max_examples=400, deadline=None)
@given(case=st.sampled_from(ALL))
def test_a_helpless_character_takes_no_part_the_condition_forbids(
    case: tuple[str, str, str, Action],
) -> None:
    game, condition, _name, action = case
    rules, options, state = table(game, condition)
    x = PAIRS[game][0]
    role = action.roles().get(x)
    declared = {h.condition: h for h in rules.conditions()}[condition]
    roller = ScriptedRoller([1] * 200)
    who = state.characters[x].sheet.name
    words = f"{who} is {condition} and cannot"
    if role is not None and declared.forbids(role):
        with pytest.raises(IllegalAction, match=words.replace("(", r"\(").replace(")", r"\)")):
            rules.resolve(action, state, roller, options)
        assert not roller.records  # before any die
        with pytest.raises(IllegalAction, match="cannot"):
            rules.odds(action, state, options)
    else:  # allowed by the condition: another rule may refuse, never this one
        try:
            rules.odds(action, state, options)
        except OddsTooComplex:  # too much work for exact odds is no refusal
            pass
        except (IllegalAction, RulesError) as e:
            assert words not in str(e)


def test_the_actors_of_every_game_are_refused_in_every_condition() -> None:
    """Whatever the condition, an actor who acts is refused: "every action by" them."""
    for game in CONDITIONS:
        for condition in CONDITIONS[game]:
            declared = {h.condition: h for h in get(game).conditions()}[condition]
            for role in ("act", "defend", "strike-back", "help"):
                assert declared.forbids(role), (game, condition, role)
