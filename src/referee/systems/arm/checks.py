"""Task resolution: stat + mods + d6 - d6 - difficulty, with the optional push.

ARM 1.2, Task Resolution: the result is the log of how well the attempt went,
read on :data:`~referee.systems.arm.tables.RESULT_LADDER`. ARM 1.2, Pushing:
a third d6 adds +1 on 2-6 and costs one level of shock on 2-5.

The check is one :class:`~referee.systems.base.Procedure`: its statistic is
``(roll, shock cost)`` where ``roll`` = plus die - minus die (+ push bonus),
so rolling and exact odds share :func:`task_rule`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution
from referee.dice.roller import Roller, is_manual
from referee.systems.arm.options import DEFAULT_OPTIONS, Options
from referee.systems.arm.tables import (
    DIFFICULTY_MODIFIERS,
    DIFFICULTY_PRESETS,
    PUSH_BONUS,
    RESULT_LADDER,
)
from referee.systems.base import Change, IllegalAction, Modifier, Outcome, Procedure, RulesError

Roll = tuple[int, int]
"""The statistic a check reads: (d6 - d6 + push bonus, shock the push cost)."""

MAX_VALUE = 10_000
"""Totals and difficulties beyond +-10000 are refused as nonsense input."""


def read_plain(faces: tuple[int, ...]) -> Roll:
    """Plus die minus minus die; no shock."""
    return faces[0] - faces[1], 0


def read_pushed(faces: tuple[int, ...]) -> Roll:
    """Plus die minus minus die plus the push die's bonus, and its shock cost."""
    bonus, cost = PUSH_BONUS[faces[2]]
    return faces[0] - faces[1] + bonus, cost


_D6_MINUS_D6 = (0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1, 0)
"""Ways for d6 - d6 to equal i - 6 (i = 0..12): the shape of the roll, not a memo."""


def exact_plain() -> Distribution[Roll]:
    """d6 - d6 in closed form: weight 6 - |d| for d in -5..5 (total 36)."""
    w = _D6_MINUS_D6
    return Distribution.trusted({(d, 0): w[d + 6] for d in range(-5, 6)}, 36, ordered=True)


def exact_pushed() -> Distribution[Roll]:
    """d6 - d6 with a push die: 1 -> +0 free, 2-5 -> +1 costing shock, 6 -> +1 free.

    Closed form over 216 sequences: ``(r, 0)`` has weight w(r) (push 1) + w(r - 1)
    (push 6) and ``(r, 1)`` weight 4 w(r - 1), where w(d) = 6 - |d| on -5..5.
    """
    w = _D6_MINUS_D6
    weights: dict[Roll, int] = {}
    for r in range(-5, 7):
        below = w[r + 5]  # w(r - 1), shifted: w[i] = weight of d6 - d6 = i - 6
        weights[(r, 0)] = w[r + 6] + below
        if below:
            weights[(r, 1)] = 4 * below
    return Distribution.trusted(weights, 216, ordered=True)


def allowed(options: Options | None, push: bool) -> Options:
    """The table's options (the rulings if none), refusing a push where pushing is off.

    ARM 1.2, Pushing (Optional rule): a push is possible only at a table that uses it.
    """
    opts = options or DEFAULT_OPTIONS
    if push and not opts.pushing:
        raise IllegalAction("pushing is switched off for this table")
    return opts


def statistic(
    push: bool,
) -> tuple[
    tuple[tuple[int, int], ...],
    Callable[[tuple[int, ...]], Roll],
    Callable[[], Distribution[Roll]],
]:
    """The dice, reader and exact distribution of a d6 - d6 roll, pushed or not.

    Every d6 - d6 roll (a task, a damage roll) may be pushed once (ARM 1.2, Pushing).
    """
    if push:
        return ((3, 6),), read_pushed, exact_pushed
    return ((2, 6),), read_plain, exact_plain


def push_details(face: int, cost: int) -> dict[str, object]:
    """What an outcome records of a push: the push die, its bonus and its shock cost."""
    return {"push": face, "push_bonus": PUSH_BONUS[face][0], "shock_cost": cost}


def push_changes(actor: str, cost: int) -> tuple[Change, ...]:
    """The pusher's extra level of shock from the exertion (none on a 1 or a 6)."""
    return (Change(actor, "shock", delta=cost, reason="push exertion"),) if cost else ()


def task_rule(total: int, difficulty: int) -> Callable[[Roll], Roll]:
    """The rule: ``(roll, cost) -> (total + roll - difficulty, cost)``."""
    base = total - difficulty

    def rule(stat: Roll) -> Roll:
        return base + stat[0], stat[1]

    return rule


def _bounded(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be a whole number, not {value!r}")
    if abs(value) > MAX_VALUE:
        raise RulesError(f"{name} {value} is out of range (-{MAX_VALUE}..{MAX_VALUE})")
    return value


def task_procedure(total: int, difficulty: int, push: bool = False) -> Procedure[Roll, Roll]:
    """The check as a procedure: 2d6 (plus, minus) or 3d6 with the push die."""
    _bounded("total", total)
    _bounded("difficulty", difficulty)
    return Procedure(*statistic(push), task_rule(total, difficulty))


def succeeded(result: int, options: Options) -> bool:
    """Whether a result succeeds: 0 or more (a draw counts unless the option says not)."""
    return result >= 0 if options.draw_succeeds else result > 0


def difficulty_named(name: str) -> int:
    """A difficulty preset by name (trivial 1, simple 4, 50/50 6, tough 8, very tough 11)."""
    return _preset(DIFFICULTY_PRESETS, name, "difficulty")


def modifier_named(name: str) -> int:
    """The same guide as an extra modifier (trivial -5, simple -2, 50/50 0, tough +2,
    very tough +5), for the GM's adjustments to an opposed difficulty (ARM 1.2,
    Task Resolution)."""
    return _preset(DIFFICULTY_MODIFIERS, name, "modifier")


def _preset(table: Mapping[str, int], name: str, what: str) -> int:
    key = name.strip().lower()
    if key not in table:
        raise RulesError(f"unknown {what} {name!r}; known: {', '.join(table)}")
    return table[key]


@dataclass(frozen=True)
class TaskOdds:
    """Exact odds of one check: the result distribution, success and push shock."""

    result: Distribution[int]
    p_success: Fraction
    shock: Distribution[int]


def task_odds(
    total: int, difficulty: int, push: bool = False, options: Options | None = None
) -> TaskOdds:
    """Exact odds of ``total + d6 - d6 (+ push) - difficulty`` through :func:`task_rule`.

    One pass over the statistic's exact distribution applies the procedure's
    rule and gathers the result and the push's shock cost together.
    """
    opts = allowed(options, push)
    procedure = task_procedure(total, difficulty, push)
    rule = procedure.rule
    exact = procedure.exact()
    results: dict[int, int] = {}
    shock: dict[int, int] = {}
    get_result, get_shock = results.get, shock.get
    for stat, weight in exact.items():
        result, cost = rule(stat)
        results[result] = get_result(result, 0) + weight
        shock[cost] = get_shock(cost, 0) + weight
    threshold = 0 if opts.draw_succeeds else 1
    wins = sum(w for r, w in results.items() if r >= threshold)
    return TaskOdds(
        Distribution.trusted(results, exact.total, ordered=True),
        Fraction(wins, exact.total),
        Distribution.trusted(shock, exact.total),
    )


def resolve_task(
    total: int,
    difficulty: int,
    roller: Roller,
    *,
    push: bool = False,
    options: Options | None = None,
    modifiers: Sequence[Modifier] = (),
    actor: str = "actor",
    action: str = "task",
) -> Outcome:
    """Roll one check. ``total`` is stat + mods; ``modifiers`` (already in it) are recorded.

    ``details["total"]`` is the text's total (stat + mods + dice), ``result``
    the total minus the difficulty, ``label`` its ladder name, and a
    push that costs shock adds one level to the actor's shock as a change.
    """
    opts = allowed(options, push)
    procedure = task_procedure(total, difficulty, push)
    faces, (result, cost) = procedure.roll(roller)
    dice = tuple(DieRoll(f, 6) for f in faces)
    details: dict[str, object] = {
        "base": total,
        "plus": faces[0],
        "minus": faces[1],
        "roll": faces[0] - faces[1],
        "total": result + difficulty,
        "difficulty": difficulty,
    }
    changes: tuple[Change, ...] = ()
    if push:
        details.update(push_details(faces[2], cost))
        changes = push_changes(actor, cost)
    return Outcome(
        system="arm",
        action=action,
        faces=dice,
        modifiers=tuple(modifiers),
        target=difficulty,
        result=result,
        success=succeeded(result, opts),
        label=RESULT_LADDER.label(result),
        changes=changes,
        details=details,
        manual=is_manual(roller),
        rolls=roller.records[-1:],
    )


# ---------------------------------------------------------------------------
# subtasks and helper tasks (ARM 1.2, Task Resolution)


def whole_result(subtask_results: Sequence[int]) -> int:
    """A task split into subtasks is only as good as its worst subtask."""
    if not subtask_results:
        raise RulesError("a task needs at least one subtask result")
    return min(subtask_results)


def whole_odds(subtasks: Sequence[tuple[int, int]]) -> Distribution[int]:
    """Exact odds of the worst of several subtasks, each ``(total, difficulty)``."""
    if not 1 <= len(subtasks) <= 12:
        raise RulesError("between 1 and 12 subtasks, please")
    dists = [task_odds(t, d).result for t, d in subtasks]
    out = dists[0]
    for d in dists[1:]:
        out = out.combine(d, min)
    return out


def helper_bonus(result: int, large_effect: bool, options: Options | None = None) -> int:
    """What an unnecessary helper task adds to the main task's total.

    Large effect: its result when positive. Small effect: +1 if it succeeded.
    """
    if large_effect:
        return max(0, result)
    return 1 if succeeded(result, options or DEFAULT_OPTIONS) else 0


def resolve_movement_push(
    rate: int,
    roller: Roller,
    *,
    options: Options | None = None,
    actor: str = "actor",
) -> Outcome:
    """Push a movement rate for one round: the push die alone (ARM 1.2, Pushing).

    Moving needs no roll; a push adds +1 to the rate's log on 2-6 and costs a
    level of shock on 2-5. The outcome's ``result`` is the round's rate.
    """
    allowed(options, push=True)
    _bounded("movement rate", rate)
    procedure = movement_push_procedure(rate)
    faces, (new_rate, cost) = procedure.roll(roller)
    changes = push_changes(actor, cost)
    return Outcome(
        system="arm",
        action="movement push",
        faces=(DieRoll(faces[0], 6),),
        target=None,
        result=new_rate,
        success=new_rate > rate,
        label=f"rate {new_rate}",
        changes=changes,
        details={"rate": rate, "push": faces[0], "shock_cost": cost},
        manual=is_manual(roller),
        rolls=roller.records[-1:],
    )


def _push_face(faces: tuple[int, ...]) -> int:
    return faces[0]


def _push_die() -> Distribution[int]:
    return Distribution.die(6)


def movement_push_procedure(rate: int) -> Procedure[int, Roll]:
    """The movement push: push die -> (rate for the round, shock cost)."""
    _bounded("movement rate", rate)

    def rule(face: int) -> Roll:
        bonus, cost = PUSH_BONUS[face]
        return rate + bonus, cost

    return Procedure(((1, 6),), _push_face, _push_die, rule)


def movement_push_odds(rate: int, options: Options | None = None) -> Distribution[Roll]:
    """Exact odds of a movement push: ``(rate for the round, shock cost)``."""
    allowed(options, push=True)
    return movement_push_procedure(rate).odds()
