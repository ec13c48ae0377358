"""One rule, two evaluations (principle 1): what an action rolls, written once.

* :class:`Procedure` - one check: dice, the statistic of their faces a rule
  reads, that statistic's exact distribution, and the rule.
* :class:`Dice` - a small program of rolls: a procedure, a fixed value, a map
  over a result, or a roll whose dice depend on an earlier result (``bind``:
  Mneme CE's damage rolls follow the Success Effect, a Mnemonic card draw the
  deck). It has two meanings, given here once: :meth:`Dice.sample` rolls it
  with a roller and records the faces of every roll; :meth:`Dice.odds` is the
  exact distribution of its result.
* :class:`Plan` - a game's answer to "resolve this action": a dice program and
  how its result and faces become an :class:`~referee.systems.outcome.Outcome`.
  :meth:`Plan.resolve` and :meth:`Plan.odds` both come from the same program,
  so odds shown before a roll cannot disagree with the roll.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, Protocol, TypeAlias, TypeVar, cast

from referee.dice.evaluate import check_faces_for
from referee.dice.odds import Distribution
from referee.dice.roller import Roller, is_manual
from referee.errors import OddsTooComplex
from referee.systems.outcome import Outcome

S = TypeVar("S", bound=Hashable)
R = TypeVar("R", bound=Hashable)
U = TypeVar("U", bound=Hashable)
T = TypeVar("T")

Groups: TypeAlias = tuple[tuple[int, int], ...]
"""Dice as ``(count, sides)`` groups, rolled in order."""

Trace: TypeAlias = tuple[tuple[int, ...], ...]
"""The faces of every roll a :class:`Dice` program made, one tuple per procedure rolled."""

BRUTE_LIMIT = 200_000
"""The most face combinations :meth:`Dice.brute` enumerates (a test oracle, not a service)."""


@dataclass(frozen=True)
class Procedure(Generic[S, R]):
    """A check written once: dice, a statistic of their faces, and a rule.

    * ``groups`` - the dice it needs, as ``(count, sides)`` (validates ``--faces``);
    * ``read`` - faces -> the statistic the rule needs (e.g. keep the two highest);
    * ``exact`` - the exact distribution of that statistic (a polynomial method);
    * ``rule`` - statistic -> result, a pure function.

    :meth:`roll` applies ``rule`` to rolled faces; :meth:`odds` maps ``rule``
    over ``exact()``. Tests compare ``exact()`` with brute force over ``read``.
    """

    groups: Groups
    read: Callable[[tuple[int, ...]], S]
    exact: Callable[[], Distribution[S]]
    rule: Callable[[S], R]

    def roll_faces(self, roller: Roller) -> tuple[int, ...]:
        """Roll every group in order and return the faces."""
        faces: list[int] = []
        for count, sides in self.groups:
            faces.extend(roller.roll(count, sides))
        return tuple(faces)

    def check_manual(self, faces: Sequence[int], what: str = "this check") -> None:
        """Validate hand-entered faces against ``groups`` (clear :class:`DiceError`)."""
        check_faces_for(self.groups, faces, what)

    def apply(self, faces: tuple[int, ...]) -> R:
        """The rule applied to given faces."""
        return self.rule(self.read(faces))

    def roll(self, roller: Roller) -> tuple[tuple[int, ...], R]:
        """Roll the dice and apply the rule: ``(faces, result)``.

        Hand-entered faces are checked first against the dice this check needs
        (the leading ones: a sequence of checks may share one manual roller;
        whoever made the roller reports faces left unused).
        """
        if is_manual(roller):
            remaining = getattr(roller, "remaining", None)
            if remaining is not None:
                need = sum(count for count, _ in self.groups)
                if len(remaining) < need:
                    self.check_manual(tuple(remaining))
                self.check_manual(tuple(remaining)[:need])
        faces = self.roll_faces(roller)
        return faces, self.apply(faces)

    def odds(self) -> Distribution[R]:
        """The exact distribution of the rule's result: the rule mapped over ``exact()``,
        or, for a rule that is a :class:`BulkRule`, its own ``over`` (the same map
        applied to the whole distribution at once)."""
        found: Distribution[R] | None = self.__dict__.get("_odds")
        if found is None:  # worked out once per procedure: its parts are pure
            over = getattr(self.rule, "over", None)
            if over is not None:
                found = cast("BulkRule[S, R]", self.rule).over(self.exact())
            else:
                found = self.exact().map(self.rule)
            self.__dict__["_odds"] = found
        return found


class BulkRule(Protocol[S, R]):
    """A rule that can also apply itself to a whole distribution (a shift, or a
    one-to-one relabelling): ``over(d)`` must equal ``d.map(rule)``, only cheaper."""

    def __call__(self, stat: S, /) -> R: ...

    def over(self, stats: Distribution[S], /) -> Distribution[R]: ...


def _identity(value: S) -> S:
    return value


class Dice(Generic[R]):
    """A program of rolls with a result of type ``R`` (build with the static methods)."""

    __slots__ = ()

    @staticmethod
    def of(procedure: Procedure[S, R]) -> Dice[R]:
        """Roll one procedure: its result is the rule over the faces."""
        return _Roll(procedure)

    @staticmethod
    def roll(
        groups: Groups,
        read: Callable[[tuple[int, ...]], S],
        exact: Callable[[], Distribution[S]],
    ) -> Dice[S]:
        """Roll ``groups``; the result is ``read(faces)``, whose exact distribution is
        ``exact()``."""
        return _Roll(Procedure(groups, read, exact, _identity))

    @staticmethod
    def pure(value: R) -> Dice[R]:
        """Nothing to roll: the result is ``value``."""
        return _Pure(value)

    def map(self, f: Callable[[R], U]) -> Dice[U]:
        """The same rolls; the result passed through ``f``."""
        return _Map(self, f)

    def bind(self, f: Callable[[R], Dice[U]]) -> Dice[U]:
        """Roll this, then the program ``f(result)`` (dice that depend on a result)."""
        return _Bind(self, f)

    def pair(self, other: Dice[U]) -> Dice[tuple[R, U]]:
        """Both programs, this one first; the result is the pair of results."""
        return _Pair(self, other)

    def remembered(self) -> Dice[R]:
        """The same program, its exact odds worked out once (for a program many plans
        share: programs are pure, so their odds never change)."""
        return _Remembered(self)

    def sample(self, roller: Roller, trace: list[tuple[int, ...]]) -> R:
        """Roll with ``roller``; append each procedure's faces to ``trace``."""
        raise NotImplementedError

    def odds(self) -> Distribution[R]:
        """The exact distribution of the result."""
        raise NotImplementedError

    def brute(self) -> Distribution[R]:
        """The distribution by enumerating every face of every roll through ``read`` and
        ``rule`` (no polynomial method): the oracle that :meth:`odds` is tested against.
        :class:`OddsTooComplex` past :data:`BRUTE_LIMIT` face combinations."""
        raise NotImplementedError

    def first_dice(self) -> Groups:
        """The dice rolled first (what a player at a real table rolls before anything
        else is known); empty when the program rolls nothing."""
        raise NotImplementedError


class _Roll(Dice[R]):
    __slots__ = ("procedure",)

    def __init__(self, procedure: Procedure[S, R]) -> None:
        self.procedure: Procedure[Hashable, R] = procedure  # type: ignore[assignment]

    def sample(self, roller: Roller, trace: list[tuple[int, ...]]) -> R:
        faces, result = self.procedure.roll(roller)
        trace.append(faces)
        return result

    def odds(self) -> Distribution[R]:
        return self.procedure.odds()

    def brute(self) -> Distribution[R]:
        from referee.dice.brute import brute_force

        size = 1
        for count, sides in self.procedure.groups:
            size *= sides**count
        if size > BRUTE_LIMIT:
            raise OddsTooComplex(f"{size:,} face combinations to enumerate; at most {BRUTE_LIMIT}")
        return brute_force(self.procedure.groups, self.procedure.apply)

    def first_dice(self) -> Groups:
        return self.procedure.groups


class _Remembered(Dice[R]):
    __slots__ = ("_odds", "inner")

    def __init__(self, inner: Dice[R]) -> None:
        self.inner = inner
        self._odds: Distribution[R] | None = None

    def sample(self, roller: Roller, trace: list[tuple[int, ...]]) -> R:
        return self.inner.sample(roller, trace)

    def odds(self) -> Distribution[R]:
        if self._odds is None:
            self._odds = self.inner.odds()
        return self._odds

    def brute(self) -> Distribution[R]:
        return self.inner.brute()

    def first_dice(self) -> Groups:
        return self.inner.first_dice()


class _Pure(Dice[R]):
    __slots__ = ("value",)

    def __init__(self, value: R) -> None:
        self.value = value

    def sample(self, roller: Roller, trace: list[tuple[int, ...]]) -> R:
        return self.value

    def odds(self) -> Distribution[R]:
        return Distribution.constant(self.value)

    def brute(self) -> Distribution[R]:
        return Distribution.constant(self.value)

    def first_dice(self) -> Groups:
        return ()


class _Map(Dice[U], Generic[R, U]):
    __slots__ = ("f", "inner")

    def __init__(self, inner: Dice[R], f: Callable[[R], U]) -> None:
        self.inner, self.f = inner, f

    def sample(self, roller: Roller, trace: list[tuple[int, ...]]) -> U:
        return self.f(self.inner.sample(roller, trace))

    def odds(self) -> Distribution[U]:
        return self.inner.odds().map(self.f)

    def brute(self) -> Distribution[U]:
        return self.inner.brute().map(self.f)

    def first_dice(self) -> Groups:
        return self.inner.first_dice()


class _Bind(Dice[U], Generic[R, U]):
    __slots__ = ("f", "inner")

    def __init__(self, inner: Dice[R], f: Callable[[R], Dice[U]]) -> None:
        self.inner, self.f = inner, f

    def sample(self, roller: Roller, trace: list[tuple[int, ...]]) -> U:
        return self.f(self.inner.sample(roller, trace)).sample(roller, trace)

    def odds(self) -> Distribution[U]:
        return self.inner.odds().bind(lambda r: self.f(r).odds())

    def brute(self) -> Distribution[U]:
        return self.inner.brute().bind(lambda r: self.f(r).brute())

    def first_dice(self) -> Groups:
        return self.inner.first_dice()


class _Pair(Dice[tuple[R, U]], Generic[R, U]):
    __slots__ = ("first", "second")

    def __init__(self, first: Dice[R], second: Dice[U]) -> None:
        self.first, self.second = first, second

    def sample(self, roller: Roller, trace: list[tuple[int, ...]]) -> tuple[R, U]:
        a = self.first.sample(roller, trace)
        return a, self.second.sample(roller, trace)

    def odds(self) -> Distribution[tuple[R, U]]:
        return self.first.odds().combine(self.second.odds(), lambda a, b: (a, b))

    def brute(self) -> Distribution[tuple[R, U]]:
        return self.first.brute().combine(self.second.brute(), lambda a, b: (a, b))

    def first_dice(self) -> Groups:
        return self.first.first_dice() or self.second.first_dice()


Finish: TypeAlias = Callable[[R, Trace], Outcome]
"""How a plan's result and the faces of each roll become an outcome."""


class Plan:
    """An action ready to resolve: one dice program, read two ways.

    Build it with :meth:`of` (a program, how its result becomes an outcome, and
    which part of the result the odds report) or :meth:`fixed` (nothing to
    roll). :meth:`resolve` samples the program; :meth:`odds` computes the exact
    distribution of the same program, so the two cannot drift.
    """

    __slots__ = ("_brute", "_chance", "_decided", "_odds", "_resolve", "_settle", "_wins", "dice")

    def __init__(
        self,
        resolve: Callable[[Roller], Outcome],
        odds: Callable[[], Distribution[Hashable]],
        brute: Callable[[], Distribution[Hashable]],
        dice: Groups,
        chance: Callable[[], Fraction] | None = None,
        wins: Callable[[Hashable], bool | None] | None = None,
        settle: Callable[[Roller], tuple[Hashable, object]] | None = None,
        decided: Callable[[Hashable], object] | None = None,
    ) -> None:
        self._resolve, self._odds, self._brute, self.dice = resolve, odds, brute, dice
        self._chance, self._wins, self._settle = chance, wins, settle
        self._decided = decided

    @staticmethod
    def of(
        dice: Dice[R],
        finish: Callable[[R, Trace], Outcome],
        view: Callable[[R], Hashable] = _identity,
        success: Callable[[R], bool] | None = None,
        after: Callable[[R, Trace], object] | None = None,
        decided: Callable[[Hashable], object] | None = None,
    ) -> Plan:
        """A plan from a dice program: ``finish(result, trace)`` builds the outcome of a
        roll; the odds are the distribution of ``view(result)``; ``success(result)``, when
        given, says which results succeed (for :meth:`chance`). ``after(result, trace)``,
        when given, is the state the outcome's changes lead to, worked out by the same rule
        without building the outcome (see :meth:`settle`). ``decided(value)``, given where
        the value the odds report alone decides the state after the roll, is that state,
        found without rolling (see :meth:`decided`)."""

        def resolve(roller: Roller) -> Outcome:
            trace: list[tuple[int, ...]] = []
            result = dice.sample(roller, trace)
            return finish(result, tuple(trace))

        settle: Callable[[Roller], tuple[Hashable, object]] | None = None
        if after is not None:
            lean = after

            def settle(roller: Roller) -> tuple[Hashable, object]:
                trace: list[tuple[int, ...]] = []
                result = dice.sample(roller, trace)
                return view(result), lean(result, tuple(trace))

        def odds() -> Distribution[Hashable]:
            found = dice.odds()
            if view is _identity:  # the same distribution: no copy of it
                return cast("Distribution[Hashable]", found)
            return found.map(view)

        if success is None:
            return Plan(
                resolve,
                odds,
                lambda: dice.brute().map(view),
                dice.first_dice(),
                settle=settle,
                decided=decided,
            )
        verdicts: dict[Hashable, bool | None] = {}

        def wins(reported: Hashable) -> bool | None:
            if not verdicts:  # once: each reported value, from the results that report it
                for result, _ in dice.odds().items():
                    seen, ok = view(result), success(result)
                    verdicts[seen] = ok if verdicts.get(seen, ok) == ok else None
            return verdicts.get(reported)

        return Plan(
            resolve,
            odds,
            lambda: dice.brute().map(view),
            dice.first_dice(),
            lambda: dice.odds().probability_where(success),
            wins,
            settle,
            decided,
        )

    @staticmethod
    def fixed(outcome: Outcome, value: Hashable = None) -> Plan:
        """A plan with nothing to roll: always ``outcome``; its odds are ``value`` for
        certain (the label when no value is given)."""
        certain: Hashable = outcome.label if value is None else value
        known = None if outcome.success is None else Fraction(int(outcome.success))
        return Plan(
            lambda _roller: outcome,
            lambda: Distribution.constant(certain),
            lambda: Distribution.constant(certain),
            (),
            None if known is None else lambda: known,
        )

    def resolve(self, roller: Roller) -> Outcome:
        """Roll the program and build the outcome."""
        return self._resolve(roller)

    def settle(self, roller: Roller) -> tuple[Hashable, object] | None:
        """Roll the program and give what :meth:`odds` reports of the roll and the state
        the outcome's changes lead to, without building the outcome (its text, its JSON,
        its changes): the same as ``ruleset.apply(state, resolve(roller))`` for the same
        faces, at a fraction of the work. ``None`` when the plan offers no such path (an
        exact chain then resolves and applies the outcome)."""
        if self._settle is None:
            return None
        return self._settle(roller)

    def decided(self, reported: Hashable) -> object | None:
        """The state after a roll that :meth:`odds` reports as ``reported``, where the
        value alone decides it (the plan's rule reads no face beyond it): the same as
        :meth:`settle` gives for any faces rolling that value, without rolling. ``None``
        when the value does not decide it (see :attr:`decides`)."""
        if self._decided is None:
            return None
        return self._decided(reported)

    @property
    def decides(self) -> bool:
        """Whether :meth:`decided` gives the state after each reported value."""
        return self._decided is not None

    @property
    def settles(self) -> bool:
        """Whether :meth:`settle` gives the state after a roll."""
        return self._settle is not None

    def then(
        self, after: Callable[[Outcome], Outcome], lean: Callable[[T], T] | None = None
    ) -> Plan:
        """The same plan whose outcome passes through ``after`` (a game adding what every
        outcome implies, e.g. the decisions the state after it waits for); the odds and
        the chance stay the same. ``lean``, given where this plan has a lean path
        (:meth:`settle`), does the same to the state after a roll (without it the new
        plan has none)."""
        inner = self._resolve
        settle: Callable[[Roller], tuple[Hashable, object]] | None = None
        first = self._settle
        if lean is not None and first is not None:
            fold = lean

            def settle(roller: Roller) -> tuple[Hashable, object]:
                reported, state = first(roller)
                return reported, fold(cast(T, state))

        decided: Callable[[Hashable], object] | None = None
        known = self._decided
        if lean is not None and known is not None:
            folded = lean

            def decided(reported: Hashable) -> object:
                return folded(cast(T, known(reported)))

        return Plan(
            lambda r: after(inner(r)),
            self._odds,
            self._brute,
            self.dice,
            self._chance,
            self._wins,
            settle,
            decided,
        )

    def odds(self) -> Distribution[Hashable]:
        """The exact distribution of what :meth:`resolve` reports."""
        return self._odds()

    def brute(self) -> Distribution[Hashable]:
        """The same distribution by enumerating faces (a test oracle for :meth:`odds`)."""
        return self._brute()

    def chance(self) -> Fraction | None:
        """The chance of success, when the plan says what succeeds or its odds do (every
        outcome a true/false or a value with a true/false ``success``); else ``None``."""
        if self._chance is not None:
            return self._chance()
        dist = self.odds()
        won = 0
        for outcome, weight in dist.items():  # whole weights: one fraction, not one each
            flag = success_of(outcome)
            if flag is None:
                return None
            won += weight if flag else 0
        if not len(dist):
            return None
        return Fraction(won, dist.total)

    def succeeds(self, reported: Hashable) -> bool | None:
        """Whether a value :meth:`odds` reports is a success: the plan's word where it says
        what succeeds (a number every roll reporting it succeeds with, or fails with; a
        value some rolls succeed with and others fail: ``None``), else the value's own
        (true/false, or a true/false ``success``). A chart colours its bars by it."""
        if self._wins is not None:
            return self._wins(reported)
        return success_of(reported)


def success_of(outcome: object) -> bool | None:
    """Whether an odds outcome says it is a success: a true/false, or a value (or JSON
    object) with a true/false ``success``; else ``None``."""
    if isinstance(outcome, bool):
        return outcome
    flag = (
        outcome.get("success")
        if isinstance(outcome, Mapping)
        else getattr(outcome, "success", None)
    )
    return flag if isinstance(flag, bool) else None
