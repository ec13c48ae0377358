"""A d6 - d6 roll at the table, and the push decided before, during or after it.

ARM 1.2, Pushing (optional): "If a character really needs a success, or a
better result, they may elect to push. You can only push once per d6-d6
roll": a third d6, 1 nothing, 2-5 +1 and one level of shock, 6 +1 free.

Every action that rolls d6 - d6 describes itself as a :class:`Check` (who may
push, which rolls fail, how a settled roll becomes an outcome, what its odds
report) and :func:`check_plan` turns it into a plan for the action's push
mode:

* ``never`` - two dice;
* ``always`` - a push declared before the roll: three dice at once;
* ``if-needed`` - the push die is rolled only when the roll needs it (the
  table's ``push_when_needed``), so the odds count its shock only then;
* ``ask`` - the push is the roller's decision after seeing the roll: a roll
  the table offers a push on (``push_offer``: a failure, or any roll) is
  *held*, and the rules wait for ``push`` or ``accept``, which settle it
  (:func:`settle_plan`). The held roll's action is settled exactly as it
  would have been, with the push added.

With pushing switched off every roll is ``never`` (asking for a push is
refused). The pusher's shock cost is a change on the pusher, capped at 5.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from referee.dice.evaluate import DieRoll
from referee.dice.odds import fraction_text
from referee.systems.arm.actions import Accept, Push, PushMode
from referee.systems.arm.checks import (
    Roll,
    if_needed_dice,
    needs_push,
    plain_dice,
    push_die,
    pushed_dice,
)
from referee.systems.arm.options import Options
from referee.systems.arm.state import HeldRoll, State, held_rolls
from referee.systems.arm.tables import LEVEL_CAP, PUSH_BONUS
from referee.systems.base import (
    TABLE,
    Action,
    ActionTable,
    Change,
    Dice,
    IllegalAction,
    JSONObject,
    Outcome,
    Plan,
    RulesError,
    Trace,
    apply_changes,
    dump_record,
    jsonable,
    load_record,
    probability_map,
)

if TYPE_CHECKING:
    from referee.dice.odds import Distribution


@dataclass(frozen=True)
class Rolled:
    """The faces of one settled d6 - d6 roll: plus, minus and the push die if pushed."""

    plus: int
    minus: int
    push: int | None = None

    @property
    def bonus(self) -> int:
        """What the push adds to the roll (0 unpushed or on a 1)."""
        return 0 if self.push is None else PUSH_BONUS[self.push][0]

    @property
    def cost(self) -> int:
        """The shock the push costs the pusher (1 on 2-5)."""
        return 0 if self.push is None else PUSH_BONUS[self.push][1]

    @property
    def value(self) -> int:
        """plus - minus + the push's bonus."""
        return self.plus - self.minus + self.bonus


@dataclass(frozen=True, order=True)
class Pushed:
    """What the odds of a roll that may be pushed report: its result and the push's shock."""

    result: Hashable
    shock: int


def score(report: object) -> int:
    """A check's result from what its odds report (the result, or the result and the
    push's shock: :class:`Pushed`)."""
    value = report.result if isinstance(report, Pushed) else report
    if not isinstance(value, int):
        raise RulesError(f"not a task's result: {report!r}")
    return value


def push_shock(report: object) -> int:
    """The shock a push cost in what the odds of a roll report (0 unpushed)."""
    return report.shock if isinstance(report, Pushed) else 0


def p_success(dist: Distribution[object], options: Options) -> Fraction:
    """The chance a check succeeds: a result of 1 or more, or 0 where the table lets a
    draw succeed (ARM 1.2, Task Resolution)."""
    return dist.map(score).probability_where(lambda r: r >= (0 if options.draw_succeeds else 1))


def task_odds_data(dist: Distribution[object], options: Options, shock: bool) -> JSONObject:
    """A check's odds: ``{"p_success", "result"}`` as fractions, and the push's ``shock``
    when asked (ARM 1.2, Task Resolution; Pushing)."""
    data: JSONObject = {"p_success": fraction_text(p_success(dist, options))}
    data["result"] = probability_map(dist.map(score))
    if shock:
        data["shock"] = probability_map(dist.map(push_shock))
    return data


@dataclass(frozen=True)
class Check:
    """One action's d6 - d6 roll, described for :func:`check_plan`.

    ``failed(roll)`` says whether a roll value (plus - minus [+ push]) fails
    (the push is offered or needed); ``describe(roll)`` gives the result and
    its label shown while a roll is held; ``settle`` builds the outcome of a
    settled roll (faces and push details are added by the plan); ``view``
    is what the odds report for a roll value.
    """

    name: str
    action: Action
    pusher: str | None
    mode: PushMode
    failed: Callable[[int], bool]
    describe: Callable[[int], tuple[int, str]]
    settle: Callable[[Rolled], Outcome]
    view: Callable[[int], Hashable]


def push_mode(check: Check, options: Options) -> PushMode:
    """The push mode that applies: refused where the table or the roll cannot push."""
    mode = check.mode
    if mode in ("always", "if-needed"):
        if not options.pushing:
            raise IllegalAction("pushing is switched off for this table")
        if check.pusher is None:
            raise IllegalAction("only a character's roll can be pushed (name the actor)")
    if not options.pushing or check.pusher is None:
        return "never"
    return mode


def finished(check: Check, rolled: Rolled, faces: tuple[int, ...], state: State) -> Outcome:
    """The settled outcome with its faces, the dice details and the push's shock cost."""
    outcome = check.settle(rolled)
    details = {
        **outcome.details,
        "plus": rolled.plus,
        "minus": rolled.minus,
        "roll": rolled.plus - rolled.minus,
    }
    changes = outcome.changes
    if rolled.push is not None:
        details.update(push=rolled.push, push_bonus=rolled.bonus, shock_cost=rolled.cost)
        if rolled.cost and check.pusher is not None:
            before = state.character(check.pusher).shock
            delta = min(LEVEL_CAP, before + rolled.cost) - before
            if delta:
                push = Change(check.pusher, "shock", delta=delta, reason="push exertion")
                changes = _capped((push, *changes), check.pusher, before)
    return replace(
        outcome,
        faces=tuple(DieRoll(f, 6) for f in faces),
        details=details,
        changes=changes,
    )


def _capped(changes: tuple[Change, ...], cid: str, shock: int) -> tuple[Change, ...]:
    """``changes`` with ``cid``'s shock deltas trimmed so the level stops at 5 (a pusher
    hurting itself: the push's shock and the blow's add up to at most Unconscious)."""
    out: list[Change] = []
    for change in changes:
        if change.target == cid and change.field == "shock" and change.delta is not None:
            after = max(0, min(LEVEL_CAP, shock + change.delta))
            change = replace(change, delta=after - shock)
            shock = after
            if not change.delta:
                continue
        out.append(change)
    return tuple(out)


def held(check: Check, plus: int, minus: int, state: State) -> Outcome:
    """The outcome of a roll that waits for its roller's push decision."""
    assert check.pusher is not None
    result, label = check.describe(plus - minus)
    record = HeldRoll(
        actor=check.pusher,
        action=check.name,
        fields=json.dumps(dump_record(check.action), sort_keys=True),
        plus=plus,
        minus=minus,
        result=result,
        label=label,
    )
    return Outcome(
        system="arm",
        action=check.name,
        faces=(DieRoll(plus, 6), DieRoll(minus, 6)),
        result=result,
        label=f"{label}: push or accept?",
        changes=(
            Change(
                check.pusher, "held", value=jsonable(record), reason="waiting for a push decision"
            ),
        ),
        details={"plus": plus, "minus": minus, "roll": plus - minus, "waiting": True},
    )


def check_plan(check: Check, state: State, options: Options) -> Plan:
    """The plan of a check in its push mode (see the module text)."""
    mode = push_mode(check, options)

    def stands(r: Roll) -> bool:  # the chance of success counts the roll as it stands
        return not check.failed(r[0])

    if mode == "always":

        def always(result: Roll, trace: Trace) -> Outcome:
            f = trace[0]
            return finished(check, Rolled(f[0], f[1], f[2]), f, state)

        return Plan.of(pushed_dice(), always, lambda r: Pushed(check.view(r[0]), r[1]), stands)
    if mode == "if-needed":

        def if_needed(result: Roll, trace: Trace) -> Outcome:
            f = trace[0]
            extra = trace[1] if len(trace) > 1 else ()
            rolled = Rolled(f[0], f[1], extra[0] if extra else None)
            return finished(check, rolled, f + extra, state)

        dice = if_needed_dice(needs_push(check.failed, options))
        return Plan.of(dice, if_needed, lambda r: Pushed(check.view(r[0]), r[1]), stands)
    offer = check.failed if options.push_offer == "failure" else (lambda _roll: True)

    def plain(result: Roll, trace: Trace) -> Outcome:
        f = trace[0]
        if mode == "ask" and offer(result[0]):
            return held(check, f[0], f[1], state)
        return finished(check, Rolled(f[0], f[1]), f, state)

    def after(result: Roll, trace: Trace) -> State:
        f = trace[0]
        if mode == "ask" and offer(result[0]):
            return apply_changes(state, held(check, f[0], f[1], state).changes)
        # an unpushed roll: the settled outcome's own changes, as finished() keeps them
        return apply_changes(state, check.settle(Rolled(f[0], f[1])).changes)

    return Plan.of(plain_dice(), plain, lambda r: check.view(r[0]), stands, after)


def settle_plan(check: Check, record: HeldRoll, push: bool, state: State, options: Options) -> Plan:
    """Settle a held roll: ``push`` rolls the push die, otherwise the roll stands.

    ``check`` is the held action described against the state before its roll
    (``state``); the outcome also clears the held roll.
    """
    legacy = state.held is not None and state.held == record  # an older table's one slot
    clear = Change(TABLE if legacy else record.actor, "held", value=None, reason="push decided")

    def done(outcome: Outcome) -> Outcome:
        return replace(outcome, changes=(*outcome.changes, clear))

    value = record.plus - record.minus
    if not push:
        outcome = done(finished(check, Rolled(record.plus, record.minus), (), state))
        return Plan.fixed(outcome, check.view(value))
    if not options.pushing:
        raise IllegalAction("pushing is switched off for this table")

    def pushed(result: Roll, trace: Trace) -> Outcome:
        rolled = Rolled(record.plus, record.minus, trace[0][0])
        return done(finished(check, rolled, trace[0], state))

    dice: Dice[Roll] = push_die()
    return Plan.of(
        dice,
        pushed,
        lambda r: Pushed(check.view(value + r[0]), r[1]),
        lambda r: not check.failed(value + r[0]),
    )


# ---------------------------------------------------------------------------
# the actions that roll d6 - d6, and the push decided after the roll

A = TypeVar("A", bound=Action)
AC = TypeVar("AC", bound=Action, contravariant=True)


class RollRule(Protocol[AC]):
    """The rule of an action that rolls d6 - d6: the action described as a :class:`Check`
    (:class:`IllegalAction` or another rules error if the rules refuse it now)."""

    def __call__(self, action: AC, state: State, options: Options, /) -> Check: ...


@dataclass(frozen=True)
class Pushable(Generic[A]):
    """A planner of an action that rolls d6 - d6, declared as ``declare(Task,
    Pushable(plan_task))``: its plan is :func:`check_plan` of the action's :class:`Check`
    in the table's push mode, refused while the roller's own roll waits for its push
    decision (each roller one roll at a time; an older table's one held roll holds every
    roll, as it did). :func:`plan_push` and :func:`plan_accept` settle a held roll
    through ``rule``."""

    rule: RollRule[A]

    def __call__(self, action: A, state: State, options: Options, /) -> Plan:
        check = self.rule(action, state, options)
        record = state.held
        if record is None and check.pusher is not None and check.pusher in state.characters:
            record = state.character(check.pusher).held
        if record is not None:
            raise IllegalAction(
                f"waiting for {record.actor}: {record.actor}'s {record.action} roll waits for "
                f"push or accept before another roll (answer with push or accept as "
                f"{record.actor})"
            )
        return check_plan(check, state, options)


SettleRule = Callable[[Push | Accept, State, Options, ActionTable[State, Options]], Plan]
"""How a held roll is settled (:func:`plan_push`, :func:`plan_accept`), given the table."""


@dataclass(frozen=True)
class Settles:
    """The planner of ``push`` or ``accept``, declared as ``declare(Push,
    Settles(plan_push, table))``: ``rule`` settles the held roll through the action table
    that declared the held roll's action, which ``table`` gives (the ruleset's own, read
    when a roll is settled: this module never imports the ruleset)."""

    rule: SettleRule
    table: Callable[[], ActionTable[State, Options]]

    def __call__(self, action: Push | Accept, state: State, options: Options, /) -> Plan:
        return self.rule(action, state, options, self.table())


def plan_push(
    action: Push | Accept, state: State, options: Options, table: ActionTable[State, Options]
) -> Plan:
    """Push the held roll: the push die is rolled and the roll settled (ARM 1.2, Pushing)."""
    return _settle(action.actor, True, state, options, table)


def plan_accept(
    action: Push | Accept, state: State, options: Options, table: ActionTable[State, Options]
) -> Plan:
    """Accept the held roll as it stands (ARM 1.2, Pushing)."""
    return _settle(action.actor, False, state, options, table)


def _settle(
    actor: str, push: bool, state: State, options: Options, table: ActionTable[State, Options]
) -> Plan:
    """The held roll settled by its roller: its action described again against the state
    before the roll, as the action's own :class:`Pushable` rule in ``table`` describes it."""
    record = state.held
    if record is None and actor in state.characters:
        record = state.character(actor).held
    if record is None:
        waiting = [h.actor for h in held_rolls(state)]
        if waiting:
            raise IllegalAction(
                f"no roll of {actor}'s waits for a push decision (waiting: {', '.join(waiting)})"
            )
        raise IllegalAction("no roll is waiting for a push decision")
    if actor != record.actor:
        raise IllegalAction(f"the roll waiting is {record.actor}'s to push or accept")
    if state.held is not None:
        before = replace(state, held=None)
    else:
        seats = dict(state.characters)
        seats[actor] = replace(seats[actor], held=None)
        before = replace(state, characters=seats)
    entry = table.get(record.action)
    if entry is None:
        raise IllegalAction(f"no action {record.action!r} holds a roll to settle")
    original = load_record(entry.kind, json.loads(record.fields), rule="held roll")
    planner = entry.planner
    if not isinstance(planner, Pushable):
        raise IllegalAction(f"a {record.action} roll cannot be pushed")
    check = planner.rule(original, before, options)
    return settle_plan(check, record, push, before, options)
