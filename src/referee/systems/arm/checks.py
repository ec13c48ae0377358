"""Task resolution: stat + mods + d6 - d6 - difficulty, with the optional push.

ARM 1.2, Task Resolution: the result is the log of how well the attempt went,
read on :data:`~referee.systems.arm.tables.RESULT_LADDER`. ARM 1.2, Pushing:
a third d6 adds +1 on 2-6 and costs one level of shock on 2-5, once per
d6 - d6 roll, "if a character really needs a success, or a better result".

Every roll is a :class:`~referee.systems.base.Dice` program over the
statistic ``(roll, shock cost)`` where ``roll`` = plus die - minus die (+ push
bonus), read from the faces and with a closed-form exact distribution. Three
ways to push: never; declared before the roll (:func:`pushed_dice`, three dice
at once); or when needed, decided after seeing the roll
(:func:`if_needed_dice`: the push die is rolled only when the plain roll
needs it), whose odds are :func:`push_when_needed_odds`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from referee.dice.evaluate import odds
from referee.dice.odds import Distribution
from referee.systems.arm.options import DEFAULT_OPTIONS, Options
from referee.systems.arm.tables import (
    DIFFICULTY_MODIFIERS,
    DIFFICULTY_PRESETS,
    PUSH_BONUS,
)
from referee.systems.base import Dice, IllegalAction, Procedure, RulesError

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


def _d6_minus_d6() -> Distribution[int]:
    """The plus die minus the minus die, computed by the dice core from the rule's own
    notation (ARM 1.2, Task Resolution: every check rolls d6 - d6)."""
    return odds("d6-d6")


def exact_plain() -> Distribution[Roll]:
    """d6 - d6 with no push: ``(roll, shock cost 0)``, in the order of the rolls."""
    rolls = _d6_minus_d6()
    pairs = {(roll, 0): weight for roll, weight in rolls.items()}
    return Distribution.trusted(pairs, rolls.total, ordered=True)


def exact_pushed() -> Distribution[Roll]:
    """d6 - d6 with a push die: 1 -> +0 free, 2-5 -> +1 costing shock, 6 -> +1 free."""
    return _d6_minus_d6().combine(exact_push_die(), lambda d, p: (d + p[0], p[1]))


def roll_odds(push: bool) -> Distribution[int]:
    """The value of a d6 - d6 roll alone (with the push die's bonus when pushed), for
    rules that read nothing else of it."""
    if push:
        return _d6_minus_d6() + exact_push_die().map(lambda p: p[0])
    return _d6_minus_d6()


def read_push_die(faces: tuple[int, ...]) -> Roll:
    """The push die alone: (bonus, shock cost) = 1 -> (0, 0), 2-5 -> (1, 1), 6 -> (1, 0)."""
    return PUSH_BONUS[faces[0]]


def exact_push_die() -> Distribution[Roll]:
    """The push die's (bonus, cost): (0, 0) 1/6, (1, 1) 4/6, (1, 0) 1/6."""
    return Distribution.trusted({(0, 0): 1, (1, 0): 1, (1, 1): 4}, 6, ordered=True)


def plain_dice() -> Dice[Roll]:
    """One d6 - d6 roll, unpushed: plus die then minus die."""
    return Dice.roll(((2, 6),), read_plain, exact_plain)


def pushed_dice() -> Dice[Roll]:
    """A d6 - d6 roll pushed before it is made: plus, minus and the push die together."""
    return Dice.roll(((3, 6),), read_pushed, exact_pushed)


def push_die() -> Dice[Roll]:
    """The third d6 of a push decided after the roll: (bonus, shock cost)."""
    return Dice.roll(((1, 6),), read_push_die, exact_push_die)


def if_needed_dice(needs: Callable[[int], bool]) -> Dice[Roll]:
    """A d6 - d6 roll pushed only when ``needs(roll)``: the push die follows the roll.

    This is the push as the text describes it, decided after the roll
    ("if a character really needs a success"): its exact odds count the push
    die, and its shock cost, only on the rolls that call for it.
    """

    def then(stat: Roll) -> Dice[Roll]:
        if not needs(stat[0]):
            return Dice.pure(stat)
        return push_die().map(lambda pushed: (stat[0] + pushed[0], pushed[1]))

    return plain_dice().bind(then)


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


def difficulty_of(text: str) -> int:
    """A difficulty as typed: a number, or a preset of the guide by name (``50/50``,
    ``very tough``; ARM 1.2, Task Resolution)."""
    return int(text) if text.strip().lstrip("+-").isdigit() else difficulty_named(text)


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


def needs_push(failed: Callable[[int], bool], options: Options) -> Callable[[int], bool]:
    """When "push when needed" pushes a roll, given whether a roll value fails.

    ``push_when_needed="failure"`` (default) pushes every failed roll;
    ``"saveable"`` only a failure that the +1 turns into a success.
    """
    if options.push_when_needed == "saveable":
        return lambda roll: failed(roll) and not failed(roll + 1)
    return failed


def push_when_needed_odds(total: int, difficulty: int, options: Options | None = None) -> TaskOdds:
    """Exact odds of a check whose roller pushes only when the roll needs it.

    The roll is made; only if it fails (or, with ``push_when_needed=
    "saveable"``, fails by exactly one) is the push die rolled. Total 8
    against 6: success 65/72 (the same as pushing every roll), but the push
    costs shock only 1/9 of the time (2/3 when every roll is pushed).
    """
    opts = allowed(options, True)
    task_procedure(total, difficulty)
    base = total - difficulty
    threshold = 0 if opts.draw_succeeds else 1

    def failed(roll: int) -> bool:
        return base + roll < threshold

    exact = if_needed_dice(needs_push(failed, opts)).odds()
    result = exact.map(lambda stat: base + stat[0])
    return TaskOdds(
        result,
        result.probability_where(lambda r: r >= threshold),
        exact.map(lambda stat: stat[1]),
    )


# ---------------------------------------------------------------------------
# subtasks and helper tasks (ARM 1.2, Task Resolution)


def helper_bonus(result: int, large_effect: bool, options: Options | None = None) -> int:
    """What an unnecessary helper task adds to the main task's total.

    Large effect: its result when positive. Small effect: +1 if it succeeded.
    """
    if large_effect:
        return max(0, result)
    return 1 if succeeded(result, options or DEFAULT_OPTIONS) else 0
