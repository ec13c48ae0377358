"""Time passing as Outcomes: the healing clock with its dying rolls, rounds passing for a
Dying character, stimulants, and applying an outcome's changes to a sheet (Mneme CE
ch. 7, Healing and Recovery; Dying; Critically Wounded).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from referee.dice.odds import Distribution
from referee.dice.roller import Roller, is_manual
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Change, Outcome
from referee.systems.mneme.actions import DyingRounds, PassTime, Stimulant
from referee.systems.mneme.dying import (
    MAX_ROUNDS,
    DyingRolls,
    alive_or_dead,
    roll_rounds,
    survival_probability,
)
from referee.systems.mneme.health import (
    ClockResult,
    condition,
    due_segments,
    pass_time,
    stabilised_rounds,
    with_condition,
)
from referee.systems.mneme.options import Options
from referee.systems.mneme.resolve import SYSTEM
from referee.systems.mneme.sheet import Character
from referee.systems.mneme.tables import BLEED_MINUTES, ROUNDS_PER_MINUTE


def _need(state: Character | None, what: str) -> Character:
    if state is None:
        raise RulesError(f"{what} needs a character sheet")
    return state


def _minutes(action: PassTime) -> int:
    return action.minutes + 60 * action.hours + 24 * 60 * action.days


def _clock(action: PassTime, c: Character, options: Options) -> ClockResult:
    return pass_time(
        c,
        days=action.days,
        hours=action.hours,
        minutes=action.minutes,
        activity=action.activity,
        care=action.care,
        therapy=action.therapy,
        supervised=action.supervised,
        options=options,
    )


def _dead_at(c: Character, rolls: DyingRolls) -> Character:
    """The character at the round the dying roll failed (bleeding stops there)."""
    damage = rolls.death_damage if rolls.death_damage is not None else c.damage
    dead = with_condition(replace(c, damage=damage), "Dead", True)
    return replace(with_condition(dead, "Stabilised", False), stabilised_minutes=0)


def run_clock(
    action: PassTime, state: Character, options: Options, roller: Roller | None
) -> tuple[Character, ClockResult, DyingRolls | None]:
    """The clock with its dying rolls: the pure clock first checks the span (and says how
    many rolls fall due); with ``action.dying_rolls`` and a roller they are rolled in
    order, and a failure is death at that round (ruling: the span's healing then never
    happens, and bleeding stops at death)."""
    result = _clock(action, state, options)
    if not (action.dying_rolls and roller is not None and result.dying_rolls_due):
        return result.character, result, None
    rounds = _minutes(action) * ROUNDS_PER_MINUTE
    rolls = roll_rounds(state, due_segments(state, rounds, options, action.care), roller, options)
    if rolls.survived:
        return result.character, result, rolls
    return _dead_at(state, rolls), result, rolls


def _rolls_data(rolls: DyingRolls | None) -> dict[str, Any]:
    if rolls is None:
        return {}
    return {
        "dying_rolls": {
            "rolled": rolls.rolled,
            "certain": rolls.certain,
            "survived": rolls.survived,
            "death_round": None if rolls.death_round is None else rolls.death_round + 1,
            "effects": list(rolls.efforts),
        }
    }


def sheet_changes(before: Character, after: Character, reason: str) -> tuple[Change, ...]:
    """The changes that turn one sheet into the other (damage, conditions, clocks)."""
    out = [Change("self", "damage", delta=after.damage - before.damage, reason=reason)]
    for gone in before.conditions:
        if gone not in after.conditions:
            out.append(Change("self", "conditions", value=f"-{gone}", reason=reason))
    for new in after.conditions:
        if new not in before.conditions:
            out.append(Change("self", "conditions", value=new, reason=reason))
    for name in ("healing_progress", "therapy_days", "stabilised_minutes"):
        if getattr(after, name) != getattr(before, name):
            out.append(Change("self", name, value=getattr(after, name), reason=reason))
    if after.characteristic_damage != before.characteristic_damage:
        out.append(Change("self", "characteristic_damage", value=after.characteristic_damage))
    return tuple(out)


def resolve_pass_time(
    action: PassTime, state: Character | None, options: Options, roller: Roller | None = None
) -> Outcome:
    """The clock (ch. 7, Healing and Recovery; Dying). Dice only for due dying rolls."""
    c = _need(state, "the clock")
    after, r, rolls = run_clock(action, c, options, roller)
    label = "Dead" if after.dead else condition(after, options)
    notes = list(r.notes)
    if rolls is not None and rolls.survived:
        notes.append(f"survived {rolls.rolled + rolls.certain} dying roll(s)")
    elif rolls is not None and rolls.death_round is not None:
        notes.append(f"died: the dying roll of round {rolls.death_round + 1} failed")
    details: dict[str, Any] = {
        "healed": r.healed if not after.dead else 0,
        "bled": r.bled,
        "therapy": r.therapy,
        "notes": notes,
        "damage": after.damage,
        "condition": label,
        "healing_progress": after.healing_progress,
        "stabilised_minutes": after.stabilised_minutes,
        "dying_rolls_due": r.dying_rolls_due,
        **_rolls_data(rolls),
    }
    return Outcome(
        SYSTEM,
        "pass-time",
        faces=rolls.faces if rolls is not None else (),
        result=after.damage,
        success=None if rolls is None else rolls.survived,
        label=label,
        changes=sheet_changes(c, after, "time passed"),
        details=details,
        manual=roller is not None and is_manual(roller),
        rolls=roller.records if roller is not None and rolls is not None else (),
    )


def apply_clock(
    action: PassTime, state: Character, options: Options, roller: Roller | None = None
) -> Character:
    """The character after the time passes (dying rolls made when a roller is given)."""
    return run_clock(action, state, options, roller)[0]


def pass_time_odds(
    action: PassTime, state: Character | None, options: Options
) -> Distribution[str]:
    """Exact distribution of the condition the character ends the span in: the clock's
    condition if every due dying roll succeeds, else Dead."""
    c = _need(state, "the clock")
    r = _clock(action, c, options)
    alive = condition(r.character, options)
    if not (action.dying_rolls and r.dying_rolls_due):
        return Distribution.constant(alive)
    rounds = _minutes(action) * ROUNDS_PER_MINUTE
    p = survival_probability(c, due_segments(c, rounds, options, action.care), options)
    return alive_or_dead(p).map(lambda x: alive if x == "Alive" else "Dead")


# ---------------------------------------------------------------------------
# rounds passing


def _check_rounds(action: DyingRounds, c: Character) -> None:
    if not 1 <= action.rounds <= MAX_ROUNDS:
        raise RulesError(f"rounds must be 1..{MAX_ROUNDS}, not {action.rounds}")
    if c.dead:
        raise IllegalAction(f"{c.name} is dead")


def _after_rounds(c: Character, rounds: int, options: Options) -> Character:
    """Bleeding (1 damage a minute) and stabilisation over ``rounds`` survived rounds."""
    minutes = rounds // ROUNDS_PER_MINUTE
    if "Bleeding" in c.conditions:
        c = replace(c, damage=c.damage + minutes // BLEED_MINUTES)
    if "Stabilised" in c.conditions:
        left = max(0, stabilised_rounds(c) - rounds) // ROUNDS_PER_MINUTE
        c = replace(c, stabilised_minutes=left)
        if not left:
            c = with_condition(c, "Stabilised", False)
    return c


def resolve_dying_rounds(
    action: DyingRounds, state: Character | None, roller: Roller, options: Options
) -> Outcome:
    """Rounds pass for a Dying character: each due dying roll is made until one fails
    (ch. 7, Dying: End vs 4, wound penalties; failure = dead)."""
    c = _need(state, "dying rolls")
    _check_rounds(action, c)
    rolls = roll_rounds(c, due_segments(c, action.rounds, options), roller, options)
    if rolls.survived:
        after = _after_rounds(c, action.rounds, options)
        label = f"Alive after {action.rounds} round(s)"
    else:
        assert rolls.death_round is not None
        after = _dead_at(c, rolls)
        label = f"Dead in round {rolls.death_round + 1}"
    return Outcome(
        SYSTEM,
        "dying-rounds",
        faces=rolls.faces,
        target=options.dying_difficulty,
        result=rolls.rolled,
        success=rolls.survived,
        label=label,
        changes=sheet_changes(c, after, "rounds passed"),
        details={"rounds": action.rounds, **_rolls_data(rolls), "damage": after.damage},
        manual=is_manual(roller),
        rolls=roller.records,
    )


def dying_rounds_odds(
    action: DyingRounds, state: Character | None, options: Options
) -> Distribution[str]:
    """Exact P(Alive / Dead) after the rounds: the product of each due roll's chance."""
    c = _need(state, "dying rolls")
    _check_rounds(action, c)
    return alive_or_dead(survival_probability(c, due_segments(c, action.rounds, options), options))


def p_survive(character: Character, rounds: int, options: Options) -> Fraction:
    """P(a character survives the next ``rounds`` rounds of dying rolls)."""
    return survival_probability(character, due_segments(character, rounds, options), options)


# ---------------------------------------------------------------------------
# stimulants


def resolve_stimulant(action: Stimulant, state: Character | None, options: Options) -> Outcome:
    """An adrenaline shot or combat stimulant wakes a Critically Wounded character, who
    is otherwise out (ch. 7, Critically Wounded: Special Conditions). Ruling: it cannot
    wake a Dying character (Unconscious and immobile), and does nothing to one not out."""
    c = _need(state, "a stimulant")
    if c.dead:
        raise IllegalAction(f"{c.name} is dead")
    cond = condition(c, options)
    if cond == "Dying":
        raise IllegalAction(
            f"{c.name} is Dying: Unconscious and immobile, a stimulant cannot wake them"
        )
    changes: tuple[Change, ...] = ()
    if cond != "Critically Wounded":
        label = f"{c.name} is not out: the {action.kind} has no effect"
    elif "Awake" in c.conditions:
        label = f"{c.name} is already awake"
    else:
        label = f"{c.name} is awake (a violent action will cause Bleeding)"
        changes = (Change("self", "conditions", value="Awake", reason=action.kind),)
    return Outcome(SYSTEM, "stimulant", label=label, changes=changes, details={"condition": cond})


# ---------------------------------------------------------------------------
# applying changes


def apply_changes(
    character: Character, changes: Iterable[Change], target: str = "self"
) -> Character:
    """The sheet after an outcome's changes aimed at ``target`` ('self', 'patient',
    'target'): damage deltas (never below 0), conditions added (``"X"``) or removed
    (``"-X"``), and fields set by value. Damage to ``protection.N`` goes to the sheet's
    own protection object N."""
    c = character
    for ch in changes:
        if target == "self" and ch.target.startswith("protection.") and ch.field == "damage":
            c = _damage_protection(c, ch)
            continue
        if ch.target != target:
            continue
        if ch.field == "damage" and ch.delta is not None:
            c = replace(c, damage=max(0, c.damage + ch.delta))
        elif ch.field == "conditions" and isinstance(ch.value, str):
            name = ch.value.removeprefix("-")
            c = with_condition(c, name, not ch.value.startswith("-"))
        elif ch.field in ("stabilised_minutes", "healing_progress", "therapy_days"):
            c = replace(c, **{ch.field: ch.value})
        elif ch.field == "characteristic_damage":
            c = replace(c, characteristic_damage=dict(ch.value))
        else:
            raise RulesError(f"cannot apply a change to {ch.field!r}")
    return c


def _damage_protection(c: Character, ch: Change) -> Character:
    """Damage a cover or protection object on the sheet took."""
    index = int(ch.target.removeprefix("protection."))
    if not 0 <= index < len(c.protection) or ch.delta is None:
        raise RulesError(f"{c.name} has no protection object {index}")
    objs = list(c.protection)
    objs[index] = replace(objs[index], damage=max(0, objs[index].damage + ch.delta))
    return replace(c, protection=tuple(objs))
