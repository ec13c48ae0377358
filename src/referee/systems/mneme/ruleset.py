"""The Mneme CE :class:`~referee.systems.base.Ruleset`: actions, resolve, odds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.errors import Problem, RulesError
from referee.systems.base import Outcome
from referee.systems.mneme import budget as b
from referee.systems.mneme import clock as k
from referee.systems.mneme import initiative as i
from referee.systems.mneme import resolve as r
from referee.systems.mneme import treatment as t
from referee.systems.mneme.actions import (
    Attack,
    Check,
    DyingRounds,
    FirstAid,
    PassTime,
    RollInitiative,
    SpendAction,
    Stimulant,
    Surgery,
    SurvivalRoll,
    TakeDamage,
)
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Character, validate

ACTIONS: Mapping[str, type[Any]] = {
    "check": Check,
    "attack": Attack,
    "take-damage": TakeDamage,
    "survival": SurvivalRoll,
    "first-aid": FirstAid,
    "surgery": Surgery,
    "pass-time": PassTime,
    "dying-rounds": DyingRounds,
    "stimulant": Stimulant,
    "initiative": RollInitiative,
    "spend-action": SpendAction,
}


def _state(state: Any) -> Character | None:
    if state is None or isinstance(state, Character):
        return state
    raise RulesError(f"Mneme CE state must be a Character or None, not {type(state).__name__}")


class MnemeRuleset:
    """Mneme CE (chapters 2 and 7 of the combat rules)."""

    name = "mneme"
    title = "Mneme CE"
    sheet_type = Character
    options_type = Options

    def validate(self, sheet: Any, options: Any) -> tuple[Problem, ...]:
        """Every rule the sheet breaks."""
        return validate(sheet, options)

    def actions(self) -> Mapping[str, type[Any]]:
        """Action name -> action type."""
        return ACTIONS

    def resolve(self, action: Any, state: Any, roller: Roller, options: Any) -> Outcome:
        """Resolve one action with dice from ``roller``."""
        rule = _RESOLVE.get(type(action))
        if rule is None:
            raise RulesError(f"Mneme CE cannot resolve {type(action).__name__}")
        return rule(action, _state(state), roller, options)

    def odds(self, action: Any, state: Any, options: Any) -> Distribution[Any]:
        """Exact distribution: the Effect for checks and medical checks, damage dealt for
        attacks and damage rolls, the result label for survival rolls, Alive/Dead for
        dying rounds, the condition the clock ends in (Dead if a dying roll fails), the
        turn order (steps of tied names) for Initiative, and the Minor actions left after
        spending actions."""
        rule = _ODDS.get(type(action))
        if rule is None:
            raise RulesError(f"Mneme CE has no odds for {type(action).__name__}")
        return rule(action, _state(state), options)


_RESOLVE: Mapping[type[Any], Callable[[Any, Character | None, Roller, Options], Outcome]] = {
    Check: r.resolve_check,
    Attack: r.resolve_attack,
    TakeDamage: r.resolve_take_damage,
    SurvivalRoll: t.resolve_survival,
    FirstAid: t.resolve_first_aid,
    Surgery: t.resolve_surgery,
    PassTime: lambda a, s, roller, o: k.resolve_pass_time(a, s, o, roller),
    DyingRounds: k.resolve_dying_rounds,
    Stimulant: lambda a, s, _roller, o: k.resolve_stimulant(a, s, o),
    RollInitiative: i.resolve_initiative,
    SpendAction: lambda a, _s, _roller, _o: b.spend_outcome(a.kind, a.count, a.budget),
}
"""Action type -> the rule that resolves it with dice."""

_ODDS: Mapping[type[Any], Callable[[Any, Character | None, Options], Distribution[Any]]] = {
    Check: r.check_odds,
    Attack: r.attack_odds,
    TakeDamage: lambda a, s, o: r.take_damage_odds(a, o, s),
    SurvivalRoll: t.survival_outcome_odds,
    FirstAid: lambda a, s, o: r.build(t.first_aid_check(a), s, o).procedure.odds(),
    Surgery: lambda a, s, o: r.build(t.surgery_check(a), s, o).procedure.odds(),
    PassTime: k.pass_time_odds,
    DyingRounds: k.dying_rounds_odds,
    Stimulant: lambda a, s, o: Distribution.constant(k.resolve_stimulant(a, s, o).label),
    RollInitiative: lambda a, _s, o: i.order_odds(a, o),
    SpendAction: lambda a, _s, _o: Distribution.constant(
        b.after(a.kind, a.count, a.budget).minor_left
    ),
}
"""Action type -> the exact odds of the same rule."""


RULESET = MnemeRuleset()
