"""Hypothesis state machine over a conflict: AP never below 0, order legal, undo restores."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from referee.dice.roller import SeededRoller
from referee.errors import IllegalAction
from referee.systems.mongrel.conflict import (
    Action,
    Advance,
    Attack,
    Conflict,
    Fighter,
    Occult,
    Recover,
    Rest,
    SpendResolve,
    Task,
    VowRefresh,
    Wait,
)
from referee.systems.mongrel.examples import EXAMPLES, example
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.script import run_script, to_script

IDS = EXAMPLES
EXPERTISE = ("Rend", "Melee", "Burn", "Chill", "Threaten", "Missile")


class ConflictMachine(RuleBasedStateMachine):
    """Random legal and illegal actions against the three example characters."""

    conflict: Conflict
    roller: SeededRoller
    options: Options

    @initialize(
        seed=st.integers(0, 10_000),
        variant=st.booleans(),
        resist_mode=st.sampled_from(["subtract", "cancel"]),
        resist_costs_ap=st.booleans(),
    )
    def start(self, seed: int, variant: bool, resist_mode: str, resist_costs_ap: bool) -> None:
        self.roller = SeededRoller(seed)
        self.options = Options(
            refresh_variant=variant,
            resist_mode=resist_mode,  # type: ignore[arg-type]
            resist_costs_ap=resist_costs_ap,
        )
        fighters = [Fighter.from_sheet(example(n)) for n in IDS]
        self.conflict = Conflict.start(fighters, self.roller)

    def _try(self, action: Action) -> None:
        before = self.conflict
        try:
            after = before.apply(action, self.roller, self.options)
        except IllegalAction:
            assert self.conflict is before
            return
        assert after.undo() is before
        assert after.undo() == before
        assert after.hours == before.hours + after.log[-1].hours
        self.conflict = after

    @rule(victim=st.sampled_from(IDS), expertise=st.sampled_from(EXPERTISE), defend=st.booleans())
    def attack(self, victim: str, expertise: str, defend: bool) -> None:
        who = self.conflict.next
        if who is not None:
            self._try(Attack(who, victim, expertise, defend=defend))

    @rule(
        victim=st.none() | st.sampled_from(IDS),
        resolve=st.integers(0, 4),
        resist=st.booleans(),
        scope=st.integers(0, 4),
    )
    def occult(self, victim: str | None, resolve: int, resist: bool, scope: int) -> None:
        who = self.conflict.next
        if who is not None:
            before = self.conflict.fighter(who).body.ir
            self._try(Occult(who, resolve, victim, resist, range_modifier=scope))
            if self.conflict.log and self.conflict.log[-1].action == Occult(
                who, resolve, victim, resist, range_modifier=scope
            ):
                assert self.conflict.fighter(who).body.ir == before - resolve

    @rule(
        expertise=st.sampled_from(("Sense", "Know", "Athletics", "Negotiate")),
        mode=st.sampled_from(("under", "over")),
        tn=st.none() | st.integers(0, 8),
    )
    def task(self, expertise: str, mode: str, tn: int | None) -> None:
        who = self.conflict.next
        if who is not None:
            self._try(Task(who, expertise, tn=tn, mode=mode))  # type: ignore[arg-type]

    @rule(who=st.sampled_from(IDS))
    def vow(self, who: str) -> None:
        self._try(VowRefresh(who))

    @rule(who=st.sampled_from(IDS), hours=st.integers(1, 3))
    def rest(self, who: str, hours: int) -> None:
        self._try(Rest(who, hours))

    @rule(who=st.sampled_from(IDS))
    def advance(self, who: str) -> None:
        self._try(Advance(who))

    @rule()
    def recover(self) -> None:
        if self.conflict.next is not None:
            self._try(Recover(self.conflict.next))

    @rule()
    def wait(self) -> None:
        if self.conflict.next is not None:
            self._try(Wait(self.conflict.next))

    @rule(who=st.sampled_from(IDS), points=st.integers(1, 3))
    def spend(self, who: str, points: int) -> None:
        self._try(SpendResolve(who, points))

    @rule(who=st.sampled_from(IDS))
    def out_of_turn(self, who: str) -> None:
        if who != self.conflict.next:
            before = self.conflict
            try:
                before.apply(Recover(who), self.roller, self.options)
            except IllegalAction:
                pass
            else:  # pragma: no cover - would be a bug
                raise AssertionError("acting out of turn was allowed")

    @rule()
    def store_and_reload(self) -> None:
        c = self.conflict
        back = run_script(to_script(c, self.options))
        assert (back.fighters, back.order, back.hours, back.log) == (
            c.fighters,
            c.order,
            c.hours,
            c.log,
        )
        if c.previous is not None:
            assert back.undo().fighters == c.previous.fighters

    @rule()
    def undo(self) -> None:
        if self.conflict.previous is not None:
            prev = self.conflict.previous
            self.conflict = self.conflict.undo()
            assert self.conflict is prev

    @invariant()
    def ap_never_negative(self) -> None:
        for f in self.conflict.fighters:
            assert f.body.ap >= 0
            assert f.body.ir >= 0

    @invariant()
    def capped_ap_after_resolve_exhausted(self) -> None:
        for f in self.conflict.fighters:
            if f.body.ap_cap is not None:  # Resolve at 0: AP maximum 1 until it refreshes
                assert f.body.ir == 0 and f.body.ap <= 1

    @invariant()
    def order_is_the_living_fighters(self) -> None:
        living = {f.id for f in self.conflict.fighters if not f.body.dead}
        assert sorted(self.conflict.order) == sorted(living)


ConflictMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=30)
TestConflict = ConflictMachine.TestCase
