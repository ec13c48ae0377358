"""Checks that a game keeps the contract, for its tests (and for anyone adding a game).

:func:`check_action` takes one action in one state and asserts what every
game promises: the action resolves with a seeded roller; its outcome survives
JSON unchanged; applying the stored outcome gives the same state as applying
the live one; the state survives JSON; the odds are a distribution summing to
1 that equals the brute-force enumeration of the same dice program (where the
dice are few enough to enumerate); the outcome records only its own rolls.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from referee.dice.roller import SeededRoller
from referee.errors import OddsTooComplex
from referee.systems.base import Action, Outcome, Ruleset, outcome_data, outcome_from_data


class ContractBroken(AssertionError):
    """A game broke the contract (the message says how)."""


def _expect(ok: bool, message: str) -> None:
    if not ok:
        raise ContractBroken(message)


def check_action(
    ruleset: Ruleset[Any, Any, Any],
    state: Any,
    action: Action,
    options: Any,
    seed: int = 0,
    *,
    brute: bool = True,
) -> tuple[Outcome, Any]:
    """Resolve ``action`` and check the contract; returns ``(outcome, state after)``."""
    name = ruleset.action_name(action)
    again = ruleset.load_action(name, json.loads(json.dumps(ruleset.action_data(action))))
    _expect(again == action, f"{name}: the action does not survive JSON: {action!r} -> {again!r}")
    roller = SeededRoller(seed)
    roller.roll(1, 6)  # an earlier roll on the same roller must not leak into the outcome
    outcome = ruleset.resolve(action, state, roller, options)
    _expect(
        list(outcome.rolls) == list(roller.records[1:]),
        f"{name}: the outcome's rolls are not exactly its own",
    )
    stored = outcome_from_data(json.loads(json.dumps(outcome_data(outcome))))
    _expect(stored == outcome, f"{name}: the outcome does not survive JSON")
    after = ruleset.apply(state, outcome)
    _expect(ruleset.apply(state, stored) == after, f"{name}: replaying the stored outcome differs")
    loaded = ruleset.load_state(json.loads(json.dumps(ruleset.dump_state(after))))
    _expect(loaded == after, f"{name}: the state after it does not survive JSON")
    dist = ruleset.odds(action, state, options)
    _expect(sum(dist.probabilities().values(), Fraction(0)) == 1, f"{name}: odds do not sum to 1")
    if brute:
        plan = ruleset.plan(action, state, options)
        try:
            oracle = plan.brute()
        except OddsTooComplex:
            oracle = None
        _expect(oracle is None or oracle == dist, f"{name}: odds differ from brute force")
    return outcome, after


def replay(ruleset: Ruleset[Any, Any, Any], start: Any, outcomes: Sequence[Outcome]) -> Any:
    """The state after applying each outcome's JSON form in turn (a table's fold)."""
    state = start
    for outcome in outcomes:
        state = ruleset.apply(
            state, outcome_from_data(json.loads(json.dumps(outcome_data(outcome))))
        )
    return state
