"""How each action resolves against the table's state: the rules of play, one function each.

Every planner takes the action, the state and the options and returns a
:class:`~referee.systems.arm.rolls.Check` (an action that rolls d6 - d6 and may
be pushed) or a :class:`~referee.systems.base.Plan` (nothing to roll, or dice
of its own). State changes are :class:`~referee.systems.base.Change` values:
deltas for levels and penalties, values for the round's records. This module
holds the shared pieces (totals, the one-action rule, task-like checks) and
the tasks, movement and magic; :mod:`.fight` the melee, ranged and damage
rolls; :mod:`.upkeep` the referee's actions and the look-ups. Sections cited
are ARM 1.2's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from referee.dice.evaluate import DieRoll
from referee.systems.arm import actions as a
from referee.systems.arm.checks import (
    Roll,
    helper_bonus,
    plain_dice,
    push_die,
    succeeded,
    task_procedure,
)
from referee.systems.arm.combat import (
    may_defend,
    may_take,
    melee_modifiers,
)
from referee.systems.arm.magic import soul_difficulty, soul_move_metres, spell_named
from referee.systems.arm.options import Options
from referee.systems.arm.rolls import Check, Pushed, Rolled, push_shock
from referee.systems.arm.scale import (
    convert,
    group_log,
    measure_of,
    number,
    round_log,
)
from referee.systems.arm.state import Seat, State
from referee.systems.arm.tables import (
    LEVEL_CAP,
    RESULT_LADDER,
    SHOCK_LEVELS,
    SOUL_MOD,
    WOUND_LEVELS,
)
from referee.systems.base import (
    Action,
    Change,
    Dice,
    IllegalAction,
    Modifier,
    Outcome,
    Plan,
    RulesError,
    Trace,
    probability_map,
)
from referee.systems.outcome import JSONValue

if TYPE_CHECKING:
    from referee.dice.odds import Distribution

Planned = Check | Plan
"""What a planner returns: a pushable d6 - d6 check, or a plan of its own."""


@dataclass(frozen=True, order=True)
class Levels:
    """What the odds of a damage roll report: the levels the blow does."""

    wound: int
    shock: int
    destroyed: bool

    @property
    def label(self) -> str:
        """The levels in the text's words (ARM 1.2, Damage): "no harm", or the wound and
        shock levels, and Destroyed."""
        if not (self.wound or self.shock or self.destroyed):
            return "no harm"
        top = len(WOUND_LEVELS) - 1
        parts = [
            f"wound {WOUND_LEVELS[min(self.wound, top)]}" if self.wound else "",
            f"shock {SHOCK_LEVELS[min(self.shock, top)]}" if self.shock else "",
            "Destroyed" if self.destroyed else "",
        ]
        return ", ".join(p for p in parts if p)


def levels(report: object) -> Levels:
    """A blow's levels from what its odds report (the levels, or with a push's shock)."""
    value = report.result if isinstance(report, Pushed) else report
    if not isinstance(value, Levels):
        raise RulesError(f"not a blow's levels: {report!r}")
    return value


def blow_odds(dist: Distribution[object], pushed: bool) -> dict[str, dict[str, str]]:
    """A blow's odds: the exact chance of each wound level, shock level and of Destroyed
    (and of the push's shock, ``shock_cost``, when pushed; ARM 1.2, Damage)."""
    hurt = dist.map(levels)
    found = {
        "wound": probability_map(hurt.map(lambda x: x.wound)),
        "shock": probability_map(hurt.map(lambda x: x.shock)),
        "destroyed": probability_map(hurt.map(lambda x: x.destroyed)),
    }
    if pushed:
        found["shock_cost"] = probability_map(dist.map(push_shock))
    return found


# ---------------------------------------------------------------------------
# totals (ARM 1.2, Stats, Situational Modifiers, Task Resolution)


def stat_value(seat: Seat, name: str) -> int:
    """A stat of the seated character (any case); refused if it has none."""
    for key, value in seat.sheet.stats.items():
        if key.lower() == name.strip().lower():
            return value
    known = ", ".join(seat.sheet.stats) or "none"
    raise IllegalAction(f"{seat.sheet.name} has no stat {name!r}; stats: {known}")


def total_of(
    seat: Seat,
    stat: str,
    mods: tuple[str, ...] = (),
    helps: tuple[str, ...] = (),
    hinders: tuple[str, ...] = (),
    *,
    penalty: bool = True,
) -> tuple[int, list[Modifier]]:
    """Stat + the named mods (absolute mods by how they count) + this round's penalty.

    A mod the character lacks is refused; signed and special mods add their
    value; an absolute mod adds when it helps and subtracts when it hinders.
    """
    parts = [Modifier(stat_value(seat, stat), stat, "stat")]
    by_name = {m.name.lower(): m for m in seat.sheet.mods}
    for names, sign in ((mods, 0), (helps, 1), (hinders, -1)):
        for name in names:
            mod = by_name.get(name.strip().lower())
            if mod is None:
                raise IllegalAction(f"{seat.sheet.name} has no mod {name!r}")
            if (mod.kind == "absolute") != (sign != 0):
                why = "an absolute mod helps or hinders" if sign == 0 else "not an absolute mod"
                raise IllegalAction(f"{mod.name}: {why} (use mods for signed and special mods)")
            value = mod.value * (sign or 1)
            parts.append(Modifier(value, mod.name, "mod"))
    if penalty and seat.penalty:
        parts.append(Modifier(seat.penalty, "penalty this round", "situation"))
    return sum(m.value for m in parts), parts


def add(parts: list[Modifier], value: int, source: str, kind: str = "situation") -> None:
    """Append a modifier to a total's parts (a zero adds nothing)."""
    if value:
        parts.append(Modifier(value, source, kind))


def sum_of(parts: list[Modifier]) -> int:
    """The total of the parts."""
    return sum(m.value for m in parts)


def fixed(name: str, label: str, changes: list[Change], **details: JSONValue) -> Plan:
    """A plan with nothing to roll: one outcome with these changes."""
    return Plan.fixed(Outcome("arm", name, label=label, changes=tuple(changes), details=details))


# ---------------------------------------------------------------------------
# the round (ARM 1.2, Combat (Melee): one action per round)


def in_round(state: State, options: Options) -> bool:
    """Whether the one-action rule applies: a round is running and the table uses it."""
    return state.round > 0 and options.one_action_per_round


def take_turn(state: State, cid: str, kind: str, options: Options) -> Change:
    """The change recording ``kind`` as ``cid``'s action this round, refused if the
    one-action rule forbids it while a round runs."""
    seat = state.character(cid)
    if in_round(state, options) and not may_take(seat.acted, kind):
        done = ", ".join(seat.acted)
        raise IllegalAction(
            f"{cid} has used this round's action ({done}): one action per round "
            "(circling or a prepared defence may still defend; a counter-blow follows a defence)"
        )
    return Change(cid, "acted", value=[*seat.acted, kind], reason="this round's action")


def can_defend(state: State, cid: str, options: Options) -> bool:
    """Whether ``cid`` can still dodge or parry: in no condition that forbids a defence
    (Dead, Unconscious, Destroyed: :mod:`.conditions`), and (in a round) not having used
    the round's action, unless prepared or circling."""
    from referee.systems.arm.conditions import helpless

    seat = state.character(cid)
    found = helpless(seat, options)
    if found is not None and found.forbids("defend"):
        return False
    return not in_round(state, options) or may_defend(seat.acted)


# ---------------------------------------------------------------------------
# task-like checks


def task_check(
    name: str,
    action: Action,
    actor: str,
    parts: list[Modifier],
    difficulty: int,
    options: Options,
    mode: a.PushMode,
    *,
    details: dict[str, JSONValue] | None = None,
    then: Callable[[int, bool], tuple[Change, ...]] = lambda _result, _ok: (),
    more: Callable[[int, bool], dict[str, JSONValue]] = lambda _result, _ok: {},
) -> Check:
    """A check of total (the sum of ``parts``) + d6 - d6 against ``difficulty``.

    ``then(result, success)`` gives the state changes of a settled roll and
    ``more`` its extra details. ARM 1.2, Task Resolution: result = total +
    d6 - d6 - difficulty, read on the result ladder.
    """
    total = sum_of(parts)
    task_procedure(total, difficulty)  # bounds: a clear error for nonsense numbers
    base = total - difficulty

    def failed(roll: int) -> bool:
        return not succeeded(base + roll, options)

    def describe(roll: int) -> tuple[int, str]:
        return base + roll, RESULT_LADDER.label(base + roll)

    def settle(rolled: Rolled) -> Outcome:
        result = base + rolled.value
        ok = succeeded(result, options)
        return Outcome(
            system="arm",
            action=name,
            modifiers=tuple(parts),
            target=difficulty,
            result=result,
            success=ok,
            label=RESULT_LADDER.label(result),
            changes=then(result, ok),
            details={
                "base": total,
                "total": total + rolled.value,
                "difficulty": difficulty,
                **(details or {}),
                **more(result, ok),
            },
        )

    return Check(name, action, actor, mode, failed, describe, settle, lambda roll: base + roll)


def plan_task(action: a.Task, state: State, options: Options) -> Check:
    """ARM 1.2, Task Resolution: stat + mods (or the given total) + d6 - d6 - difficulty;
    a melee roll adds the weapon's attack or parry modifier and the situation's."""
    seat = state.character(action.actor)
    if action.total is not None:
        if (
            action.stat is not None
            or action.mods
            or action.helps
            or action.hinders
            or action.melee
            or action.situations
        ):
            raise IllegalAction("give the total, or the stat and mods, not both")
        parts = [Modifier(action.total, "total", "stat")]
        add(parts, seat.penalty, "penalty this round")
    else:
        if action.stat is None and action.melee is None:
            raise IllegalAction("give the stat rolled (or the total)")
        parts = total_of(seat, action.stat or "Fitness", action.mods, action.helps, action.hinders)[
            1
        ]
    if action.melee is None and (action.weapon is not None or action.situations):
        raise IllegalAction("weapon and situations go with a melee roll")
    if action.melee is not None:
        parts += melee_modifiers(
            seat.sheet,
            action.melee,
            weapon=action.weapon,
            circled="circled" in action.situations,
            standstill="standstill" in action.situations,
            after_berserk="after-berserk" in action.situations,
            setting=state.setting,
            options=options,
        )
    add(parts, action.modifier, "GM's modifier", "other")
    if action.helper is not None:
        bonus = helper_bonus(action.helper, action.helper_effect == "large", options)
        add(parts, bonus, f"helper task ({action.helper_effect} effect)", "other")
    turn = (take_turn(state, action.actor, "other", options),) if action.round_action else ()
    return task_check(
        "task",
        action,
        action.actor,
        parts,
        action.difficulty,
        options,
        action.push,
        then=lambda _r, _ok: turn,
    )


def plan_contest(
    action: a.Contest, state: State, options: Options, resist: int | None = None
) -> Check:
    """ARM 1.2, Task Resolution: against someone, the difficulty is the stat the other
    uses with its mods (plus the GM's modifiers). ``resist`` in place of the opponent's
    stat and mods: what a preview tries for a sheet its asker may not see."""
    if action.opponent == action.actor:
        raise IllegalAction("a contest is against someone else")
    parts = total_of(state.character(action.actor), action.stat, action.mods)[1]
    add(parts, action.modifier, "GM's modifier", "other")
    if resist is None:
        resist = total_of(
            state.character(action.opponent),
            action.opponent_stat,
            action.opponent_mods,
            penalty=False,
        )[0]
    difficulty = resist + action.opponent_modifier
    turn = (take_turn(state, action.actor, "other", options),) if action.round_action else ()
    return task_check(
        "contest",
        action,
        action.actor,
        parts,
        difficulty,
        options,
        action.push,
        details={"opponent": action.opponent, "resist": resist},
        then=lambda _r, _ok: turn,
    )


def plan_subtasks(action: a.Subtasks, state: State, options: Options) -> Plan:
    """ARM 1.2, Task Resolution: the whole activity is only as good as its worst subtask.

    Each subtask is its own d6 - d6 roll (not pushed here: push a subtask by
    rolling it as a task)."""
    if not 1 <= len(action.parts) <= 12:
        raise IllegalAction("between 1 and 12 subtasks, please")
    seat = state.character(action.actor)
    numbers: list[tuple[int, int]] = []
    for part in action.parts:
        total = total_of(seat, part.stat, part.mods)[0] + part.modifier
        task_procedure(total, part.difficulty)
        numbers.append((total, part.difficulty))

    def score(i: int, stat: Roll) -> int:
        return numbers[i][0] + stat[0] - numbers[i][1]

    def worse(i: int) -> Callable[[tuple[int, Roll]], int]:
        return lambda pair: min(pair[0], score(i, pair[1]))

    dice: Dice[int] = plain_dice().map(lambda stat: score(0, stat))
    for i in range(1, len(numbers)):
        dice = dice.pair(plain_dice()).map(worse(i))

    def finish(worst: int, trace: Trace) -> Outcome:
        rows: list[JSONValue] = []
        for (total, difficulty), part, faces in zip(numbers, action.parts, trace, strict=True):
            result = total + faces[0] - faces[1] - difficulty
            rows.append(
                {
                    "stat": part.stat,
                    "base": total,
                    "difficulty": difficulty,
                    "plus": faces[0],
                    "minus": faces[1],
                    "result": result,
                    "label": RESULT_LADDER.label(result),
                }
            )
        return Outcome(
            system="arm",
            action="subtasks",
            faces=tuple(DieRoll(f, 6) for faces in trace for f in faces),
            result=worst,
            success=succeeded(worst, options),
            label=RESULT_LADDER.label(worst),
            details={"parts": rows, "worst": worst},
        )

    return Plan.of(dice, finish)


def plan_group_task(action: a.GroupTask, state: State, options: Options) -> Check:
    """ARM 1.2, Task Resolution, group efforts: the members' stat + mods combine on the
    log scale (see :func:`~referee.systems.arm.scale.group_log`); the result depends on
    the values taking part, never on who is named first."""
    members = (action.actor, *action.helpers)
    if len(set(members)) != len(members):
        raise IllegalAction("each member takes part once (the actor is not a helper)")
    values = []
    for cid in members:
        seat = state.character(cid)
        had = tuple(m for m in action.mods if seat.sheet.has_mod(m))
        values.append(total_of(seat, action.stat, had, penalty=False)[0])
    combined, how = group_log(
        values, method=options.log_method, count=options.group_count, way=options.group_method
    )
    parts = [Modifier(combined, f"group of {len(members)} ({how})", "stat")]
    add(parts, action.modifier, "GM's modifier", "other")
    return task_check(
        "group-task",
        action,
        action.actor,
        parts,
        action.difficulty,
        options,
        action.push,
        details={"members": list(members), "values": values, "combined": combined, "method": how},
    )


# ---------------------------------------------------------------------------
# movement (ARM 1.2, Movement Rates, Pushing, Rounds)


def plan_move(action: a.Move, state: State, options: Options) -> Plan:
    """Moving needs no roll: the rate (a log speed) plus the round's log is the distance
    per round. A push (one push die) adds +1 to the rate's log for the round. A
    character whose sheet has no such rate just moves (the round's action), with no
    distance worked out."""
    if action.rate is not None:
        rate = action.rate
    elif action.actor is not None:
        movement = state.character(action.actor).sheet.movement
        if action.mode not in movement:
            if action.push:
                known = ", ".join(movement) or "none"
                raise IllegalAction(
                    f"{action.actor} has no movement rate {action.mode!r}; rates: {known}"
                )
            turn = take_turn(state, action.actor, "move", options)
            return fixed("move", f"{action.actor} moves ({action.mode})", [turn], mode=action.mode)
        rate = movement[action.mode]
    else:
        raise IllegalAction("give the rate, or the character moving")
    length = action.round_length or state.round_length
    method = options.log_method
    rounds = round_log(length, method)
    unit = f"{action.unit}/round"
    convert(rate, action.source, unit, round_log=rounds, method=method)  # refuse bad units now
    changes: tuple[Change, ...] = ()
    if action.actor is not None:
        changes = (take_turn(state, action.actor, "move", options),)

    def outcome(pushed: Rolled | None, faces: tuple[int, ...]) -> Outcome:
        moved = rate + (pushed.bonus if pushed else 0)
        found = convert(moved, action.source, unit, round_log=rounds, method=method)
        details: dict[str, JSONValue] = {
            "rate": rate,
            "round": length,
            "distance_log": found,
            "distance": number(measure_of(found, method)),
            "unit": action.unit,
        }
        extra = changes
        if pushed is not None:
            details.update(push=pushed.push, shock_cost=pushed.cost, pushed_rate=moved)
            if pushed.cost and action.actor is not None:
                before = state.character(action.actor).shock
                delta = min(LEVEL_CAP, before + pushed.cost) - before
                if delta:
                    exertion = Change(action.actor, "shock", delta=delta, reason="push exertion")
                    extra = (exertion, *extra)
        return Outcome(
            system="arm",
            action="move",
            faces=tuple(DieRoll(f, 6) for f in faces),
            result=moved,
            success=True if pushed is None else moved > rate,
            label=f"rate {moved}: about {details['distance']} {action.unit} per {length} round",
            changes=extra,
            details=details,
        )

    if not action.push:
        return Plan.fixed(outcome(None, ()), rate)
    if not options.pushing:
        raise IllegalAction("pushing is switched off for this table")

    def finish(_stat: Roll, trace: Trace) -> Outcome:
        return outcome(Rolled(0, 0, trace[0][0]), trace[0])

    return Plan.of(push_die(), finish, lambda r: Pushed(rate + r[0], r[1]))


# ---------------------------------------------------------------------------
# magic (ARM 1.2, Magic)


def plan_cast(action: a.Cast, state: State, options: Options) -> Check:
    """A set spell: Wit or Willpower (as the spell allows) + mods against its difficulty.
    A spell that is flung (the fire-ball) is then ready in the caster's hand."""
    seat = state.character(action.actor)
    spell = spell_named(state.setting, action.spell)
    if action.stat not in spell.stats:
        raise IllegalAction(
            f"{spell.name} is cast with {' or '.join(spell.stats)}, not {action.stat}"
        )
    turn = take_turn(state, action.actor, "cast", options)
    parts = total_of(seat, action.stat, action.mods)[1]
    add(parts, action.modifier, "GM's modifier", "other")

    def then(_result: int, ok: bool) -> tuple[Change, ...]:
        if ok and spell.accuracy is not None:
            return (turn, Change(action.actor, "readied", value=spell.name, reason="spell cast"))
        return (turn,)

    return task_check(
        "cast",
        action,
        action.actor,
        parts,
        spell.difficulty,
        options,
        action.push,
        details={"spell": spell.name, "damage": spell.damage, "accuracy": spell.accuracy},
        then=then,
    )


def plan_soul_magic(action: a.SoulMagic, state: State, options: Options) -> Check:
    """The soul world: Willpower + Magically Able against move 4, shape 6, transmute
    7-9, imbue 8/10/12. A Move's result is the log distance moved in one second."""
    seat = state.character(action.actor)
    if not seat.sheet.has_mod(SOUL_MOD):
        raise IllegalAction(f"soul-world magic needs the special mod {SOUL_MOD!r}")
    mods = (SOUL_MOD, *(m for m in action.mods if m.lower() != SOUL_MOD.lower()))
    parts = total_of(seat, "Willpower", mods)[1]
    add(parts, action.modifier, "GM's modifier", "other")
    turn = take_turn(state, action.actor, "other", options)

    def more(result: int, _ok: bool) -> dict[str, JSONValue]:
        if action.operation != "move":
            return {}
        return {"metres": number(soul_move_metres(result, options.log_method))}

    return task_check(
        "soul-magic",
        action,
        action.actor,
        parts,
        soul_difficulty(action.operation),
        options,
        action.push,
        details={"operation": action.operation},
        then=lambda _r, _ok: (turn,),
        more=more,
    )
