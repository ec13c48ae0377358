"""The Mongrel :class:`~referee.systems.base.Ruleset`: checks and conflict actions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution
from referee.dice.roller import Roller, is_manual
from referee.errors import IllegalAction, Problem
from referee.systems.base import Change, Modifier, Outcome, Procedure

from . import conflict as cf
from .checks import CheckResult, Mode, difficulty_modifiers, procedure, target_number
from .options import Options
from .sheet import Sheet, validate
from .sorcery import OccultResult


@dataclass(frozen=True)
class Check:
    """One task roll: ``dice`` (Expertise) d6 against an attribute, under or over.

    ``difficulty`` is a Modifier (0-4) that always makes the roll harder;
    ``power`` adds a Power's dice when it augments an appropriate Expertise.
    """

    dice: int
    tn: int
    mode: Mode = "under"
    identity: int = 0
    difficulty: int = 0
    power: int = 0
    label: str = "check"


def check_outcome(
    action: Check, faces: tuple[int, ...], result: CheckResult, manual: bool, rolls: Any = ()
) -> Outcome:
    """The :class:`Outcome` of a resolved check (faces, modifiers, target, Effect)."""
    mods = difficulty_modifiers(action.mode, action.difficulty)
    if action.power:
        mods = (*mods, Modifier(action.power, "Power augmenting the Expertise", "dice"))
    tn = target_number(action.tn, action.mode, action.difficulty)
    label = ("success" if result.success else "failure") + (
        f" ({result.special})" if result.special else ""
    )
    return Outcome(
        system="mongrel",
        action=action.label,
        faces=tuple(DieRoll(f, 6, True) for f in faces),
        modifiers=mods,
        target=tn,
        result=result.effect,
        success=result.success,
        label=label,
        details={
            "successes": result.successes,
            "effect": result.effect,
            "special": result.special,
            "mode": action.mode,
            "dice": action.dice + action.power,
            "identity": action.identity,
        },
        manual=manual,
        rolls=tuple(rolls),
    )


def _proc(action: Check) -> Procedure[Any, CheckResult]:
    tn = target_number(action.tn, action.mode, action.difficulty)
    return procedure(action.dice + action.power, tn, action.mode, action.identity)


def _fighter_changes(before: cf.Conflict, after: cf.Conflict) -> tuple[Change, ...]:
    out = []
    for f in after.fighters:
        old = before.fighter(f.id).body
        for fld in fields(f.body):
            a, b = getattr(old, fld.name), getattr(f.body, fld.name)
            if a != b:
                delta = b - a if isinstance(a, int) and not isinstance(a, bool) else None
                out.append(Change(f.id, fld.name, delta, b if delta is None else None))
    return tuple(out)


@dataclass(frozen=True)
class MongrelRuleset:
    """Mongrel (Ron Edwards, 2003)."""

    name: str = "mongrel"
    title: str = "Mongrel"
    sheet_type: type[Any] = Sheet
    options_type: type[Any] = Options

    def validate(self, sheet: Any, options: Any) -> tuple[Problem, ...]:
        """Every creation rule the sheet breaks that no approval covers."""
        return validate(sheet, options)

    def actions(self) -> Mapping[str, type[Any]]:
        """``check`` and every conflict action."""
        return {"check": Check, **cf.ACTIONS}

    def resolve(self, action: Any, state: Any, roller: Roller, options: Any) -> Outcome:
        """A check (state ignored) or a conflict action applied to ``state`` (a Conflict)."""
        if isinstance(action, Check):
            faces, result = _proc(action).roll(roller)
            return check_outcome(action, faces, result, is_manual(roller), roller.records)
        if not isinstance(state, cf.Conflict):
            raise IllegalAction("conflict actions need a Conflict as state")
        after = state.apply(action, roller, options)
        entry = after.log[-1]
        res = entry.result
        details: dict[str, Any] = {
            "order": list(after.order),
            "hours": entry.hours,
            "elapsed_hours": after.hours,
        }
        if isinstance(res, OccultResult):
            details["working"] = res.working.data()
            details["resist"] = None if res.resist is None else res.resist.data()
            details["net_effect"] = res.effect
        return Outcome(
            system="mongrel",
            action=type(action).__name__.lower(),
            faces=tuple(DieRoll(f, 6, True) for f in entry.faces),
            modifiers=entry.modifiers,
            target=entry.target,
            result=None if res is None else res.effect,
            success=None if res is None else res.success,
            label=entry.summary,
            changes=_fighter_changes(state, after),
            details=details,
            manual=is_manual(roller),
            rolls=roller.records,
        )

    def odds(self, action: Any, state: Any, options: Any) -> Distribution[Any]:
        """Exact odds of a check, of an attack's roll, or of an Occult working
        (an :class:`OccultResult`: working, Resist and net Effect) in the given conflict."""
        if isinstance(action, Check):
            return _proc(action).odds()
        if isinstance(action, cf.Occult) and isinstance(state, cf.Conflict):
            return cf.occult_plan(state, action, options or Options()).procedure.odds()
        if isinstance(action, cf.Attack) and isinstance(state, cf.Conflict):
            return cf.attack_plan(state, action).procedure.odds()
        if isinstance(action, cf.Task) and isinstance(state, cf.Conflict):
            return cf.task_plan(state, action).procedure.odds()
        raise IllegalAction(f"no odds for {type(action).__name__}")


RULESET = MongrelRuleset()
