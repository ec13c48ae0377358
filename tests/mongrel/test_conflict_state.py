"""Hypothesis state machine over a Mongrel table: random legal and illegal actions.

AP and Infernal Resolve never go below 0, the order holds only living fighters,
a refused action changes nothing, terminal hits wait for their victim's answer,
and the table rebuilt from the stored outcomes (JSON) equals the live one.
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from referee.dice.roller import SeededRoller
from referee.errors import IllegalAction
from referee.systems.base import Action, Outcome
from referee.systems.conformance import replay
from referee.systems.mongrel import RULESET
from referee.systems.mongrel import RULESET as MONGREL
from referee.systems.mongrel.actions import (
    AcceptFate,
    Advance,
    Attack,
    EndConflict,
    Occult,
    Recover,
    Rest,
    SpendResolve,
    SpendResolveToSurvive,
    StartConflict,
    TakeDamage,
    Task,
    VowRefresh,
    Wait,
)
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.state import State

IDS = tuple(MONGREL.examples())
EXPERTISE = ("Rend", "Melee", "Burn", "Chill", "Threaten", "Missile")


class TableMachine(RuleBasedStateMachine):
    """Random actions against the three example characters."""

    start_state: State
    state: State
    outcomes: list[Outcome]
    roller: SeededRoller
    options: Options

    @initialize(
        seed=st.integers(0, 10_000),
        variant=st.booleans(),
        shrinks=st.booleans(),
        resist_mode=st.sampled_from(["subtract", "cancel"]),
        resist_costs_ap=st.booleans(),
    )
    def start(
        self, seed: int, variant: bool, shrinks: bool, resist_mode: str, resist_costs_ap: bool
    ) -> None:
        self.roller = SeededRoller(seed)
        self.options = Options(
            refresh_variant=variant,
            physique_shrinks_track=shrinks,
            resist_mode=resist_mode,  # type: ignore[arg-type]
            resist_costs_ap=resist_costs_ap,
        )
        state = RULESET.initial_state(self.options)
        for cid in IDS:
            state = RULESET.seat(state, cid, MONGREL.example(cid), self.options)
        self.start_state = state
        self.state = state
        self.outcomes = []
        self._try(StartConflict())

    def _try(self, action: Action) -> None:
        before = self.state
        try:
            outcome = RULESET.resolve(action, before, self.roller, self.options)
        except IllegalAction:
            assert self.state is before
            return
        self.state = RULESET.apply(before, outcome)
        self.outcomes.append(outcome)

    def _next(self) -> str | None:
        if self.state.pending:
            return self.state.pending[0].actor
        return self.state.next

    @rule(victim=st.sampled_from(IDS), expertise=st.sampled_from(EXPERTISE), defend=st.booleans())
    def attack(self, victim: str, expertise: str, defend: bool) -> None:
        who = self._next()
        if who is not None:
            self._try(Attack(who, victim, expertise, defend=defend))  # type: ignore[arg-type]

    @rule(
        victim=st.none() | st.sampled_from(IDS),
        resolve=st.integers(1, 4),
        resist=st.booleans(),
        scope=st.integers(0, 4),
    )
    def occult(self, victim: str | None, resolve: int, resist: bool, scope: int) -> None:
        who = self._next()
        if who is not None:
            before = self.state.characters[who].ir
            n = len(self.outcomes)
            self._try(Occult(who, resolve, victim, resist, range_modifier=scope))
            if len(self.outcomes) > n:
                assert self.state.characters[who].ir == before - resolve

    @rule(
        expertise=st.sampled_from(("Sense", "Know", "Athletics", "Negotiate")),
        mode=st.sampled_from(("under", "over")),
        tn=st.none() | st.integers(0, 8),
    )
    def task(self, expertise: str, mode: str, tn: int | None) -> None:
        who = self._next()
        if who is not None:
            self._try(Task(who, expertise, tn=tn, mode=mode))  # type: ignore[arg-type]

    @rule(victim=st.sampled_from(IDS), effect=st.integers(0, 12))
    def hurt(self, victim: str, effect: int) -> None:
        self._try(TakeDamage(victim, effect))

    @rule(survive=st.booleans())
    def answer(self, survive: bool) -> None:
        if self.state.pending:
            who = self.state.pending[0].actor
            self._try(SpendResolveToSurvive(who) if survive else AcceptFate(who))
            assert not self.state.pending or self.state.pending[0].actor != who

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
        who = self._next()
        if who is not None:
            self._try(Recover(who))

    @rule()
    def wait(self) -> None:
        who = self._next()
        if who is not None:
            self._try(Wait(who))

    @rule(who=st.sampled_from(IDS), points=st.integers(1, 3))
    def spend(self, who: str, points: int) -> None:
        self._try(SpendResolve(who, points))

    @rule()
    def end_and_restart(self) -> None:
        self._try(EndConflict())
        self._try(StartConflict())

    @rule(who=st.sampled_from(IDS))
    def out_of_turn(self, who: str) -> None:
        if self.state.order and who != self.state.next:
            try:
                RULESET.odds(Recover(who), self.state, self.options)
            except IllegalAction:
                pass
            else:  # pragma: no cover - would be a bug
                raise AssertionError("acting out of turn was allowed")

    @rule()
    def rebuild_from_stored_outcomes(self) -> None:
        assert replay(RULESET, self.start_state, self.outcomes) == self.state

    @invariant()
    def never_negative(self) -> None:
        for f in self.state.characters.values():
            assert f.ap >= 0 and f.ir >= 0 and f.damage >= 0

    @invariant()
    def capped_ap_while_resolve_is_exhausted(self) -> None:
        for f in self.state.characters.values():
            if f.exhausted:  # Resolve at 0: AP maximum 1 until it refreshes
                assert f.ir == 0 and f.ap <= 1

    @invariant()
    def order_holds_living_fighters_once(self) -> None:
        order = self.state.order
        assert len(set(order)) == len(order)
        assert all(not self.state.characters[c].dead for c in order)

    @invariant()
    def decisions_wait_on_living_terminal_characters(self) -> None:
        for d in self.state.pending:
            f = self.state.characters[d.actor]
            assert not f.dead and (f.terminal or d.choices[0] == "sacrifice-credit")


TableMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=30)
TestTable = TableMachine.TestCase
