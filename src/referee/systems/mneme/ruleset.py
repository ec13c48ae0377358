"""The Mneme CE :class:`~referee.systems.base.Ruleset`: actions, resolve, odds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.errors import Problem, RulesError
from referee.systems.base import Outcome
from referee.systems.mneme import clock as k
from referee.systems.mneme import resolve as r
from referee.systems.mneme import treatment as t
from referee.systems.mneme.actions import (
    Attack,
    Check,
    DyingRounds,
    FirstAid,
    PassTime,
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
        s = _state(state)
        if isinstance(action, Check):
            return r.resolve_check(action, s, roller, options)
        if isinstance(action, Attack):
            return r.resolve_attack(action, s, roller, options)
        if isinstance(action, TakeDamage):
            return r.resolve_take_damage(action, s, roller, options)
        if isinstance(action, SurvivalRoll):
            return t.resolve_survival(action, s, roller, options)
        if isinstance(action, FirstAid):
            return t.resolve_first_aid(action, s, roller, options)
        if isinstance(action, Surgery):
            return t.resolve_surgery(action, s, roller, options)
        if isinstance(action, PassTime):
            return k.resolve_pass_time(action, s, options, roller)
        if isinstance(action, DyingRounds):
            return k.resolve_dying_rounds(action, s, roller, options)
        if isinstance(action, Stimulant):
            return k.resolve_stimulant(action, s, options)
        raise RulesError(f"Mneme CE cannot resolve {type(action).__name__}")

    def odds(self, action: Any, state: Any, options: Any) -> Distribution[Any]:
        """Exact distribution: the Effect for checks and medical checks, damage dealt for
        attacks and damage rolls, the result label for survival rolls, Alive/Dead for
        dying rounds, and the condition the clock ends in (Dead if a dying roll fails)."""
        s = _state(state)
        if isinstance(action, Check):
            return r.check_odds(action, s, options)
        if isinstance(action, Attack):
            return r.attack_odds(action, s, options)
        if isinstance(action, TakeDamage):
            return r.take_damage_odds(action, options, s)
        if isinstance(action, SurvivalRoll):
            return t.survival_outcome_odds(action, s, options)
        if isinstance(action, FirstAid):
            return r.build(t.first_aid_check(action), s, options).procedure.odds()
        if isinstance(action, Surgery):
            return r.build(t.surgery_check(action), s, options).procedure.odds()
        if isinstance(action, PassTime):
            return k.pass_time_odds(action, s, options)
        if isinstance(action, DyingRounds):
            return k.dying_rounds_odds(action, s, options)
        if isinstance(action, Stimulant):
            return Distribution.constant(k.resolve_stimulant(action, s, options).label)
        raise RulesError(f"Mneme CE has no odds for {type(action).__name__}")


RULESET = MnemeRuleset()
