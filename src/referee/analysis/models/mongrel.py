"""A Mongrel conflict (complex task resolution) as a chain over the game's own state.

The conflict starts with the game's ``start-conflict`` (Beast, Man, Demon, a coin
for ties); then the character at the front of the order acts, as its policy says:

* ``attack`` - attack on every turn with an Action Point; never defend;
* ``defend`` - hold an Action Point to defend: attack only with 2 AP or more,
  defend whenever attacked with an AP left (and not collapsed);
* ``balanced`` - attack with any AP, and defend whenever able.

With 0 AP the only action is to recover (the text). A terminal hit waits for the
victim's choice: it spends Infernal Resolve to survive (the game offers the
choice only when that can save it). The attack is the fighter's best physical
attack Expertise (Rend, Melee, Missile, Burn) unless ``weapons`` names one.
Mongrel has no rounds: the unit counted is the action. The conflict ends when a
side is dead (``until="dead"``) or collapsed (``until="collapsed"``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from math import factorial
from typing import Any, ClassVar

from referee.systems.base import Outcome
from referee.systems.mongrel.actions import (
    Attack,
    Recover,
    SpendResolveToSurvive,
    StartConflict,
)
from referee.systems.mongrel.checks import CheckResult
from referee.systems.mongrel.state import Seat, State
from referee.systems.mongrel.tables import PHYSICAL_ATTACKS

from ..errors import AnalysisError
from ..model import ConflictModel, Memo, Scope, Step

UNTIL = ("dead", "collapsed")


@dataclass
class MongrelConflict(ConflictModel):
    """Two sides of Mongrel fighters (see the module text)."""

    weapons: Mapping[str, str] = field(default_factory=dict)
    until: str = "dead"
    POLICIES: ClassVar[tuple[str, ...]] = ("attack", "defend", "balanced")
    POLICY_WORDS: ClassVar[Mapping[str, str]] = {
        "attack": "attacks with every Action Point and never defends",
        "defend": "keeps an Action Point to defend with",
        "balanced": "attacks with any Action Point and defends when able",
    }

    def __post_init__(self) -> None:
        self.exchangeable = True  # a pool's faces count, their order never matters
        self.unit = "action"
        super().__post_init__()
        if self.until not in UNTIL:
            raise AnalysisError(f"until must be one of {', '.join(UNTIL)}, not {self.until!r}")
        for cid in self.fighters:
            self.weapon(cid)

    def weapon(self, cid: str) -> str:
        """The attacking Expertise of ``cid``."""
        f: Seat = self.state.characters[cid]
        chosen = self.weapons.get(cid)
        if chosen is not None:
            if chosen not in PHYSICAL_ATTACKS:
                known = ", ".join(sorted(PHYSICAL_ATTACKS))
                raise AnalysisError(f"{cid}: {chosen!r} is not a physical attack ({known})")
            return chosen
        return max(sorted(PHYSICAL_ATTACKS), key=f.level)

    def out(self, state: Any, cid: str) -> bool:
        f: Seat = state.characters[cid]
        if self.until == "collapsed":
            return f.dead or f.collapsed or f.terminal
        return f.dead

    def stopped(self, state: Any, cid: str) -> bool:
        """Only :meth:`out`: a collapsed fighter is no longer stopped in Mongrel, who
        recovers an Action Point (Complex task resolution 6, the one action the
        collapse leaves) and fights on; the policy makes them recover."""
        return bool(self.out(state, cid))

    def damage(self, state: Any, cid: str) -> int:
        f: Seat = state.characters[cid]
        return f.damage

    def next(self, state: Any, memo: Memo) -> Step:
        s: State = state
        if s.pending:
            return Step(self.act(SpendResolveToSurvive, s.pending[0].actor))
        if not s.order:
            return Step(StartConflict(self.fighters))
        cid = s.order[0]
        me = s.characters[cid]
        policy = self.policy(cid)
        need = 2 if policy == "defend" else 1
        target = next((t for t in self.opponents(cid) if not s.characters[t].dead), None)
        if me.ap < need or target is None:
            return Step(self.act(Recover, cid), 1)
        them = s.characters[target]
        defend = self.policy(target) != "attack" and them.ap >= 1 and not them.collapsed
        expertise: Any = self.weapon(cid)
        return Step(self.act(Attack, cid, target, expertise, defend=defend), 1)

    def viewed(self, step: Step) -> bool:
        """An attack's odds are its :class:`~referee.systems.mongrel.checks.CheckResult`,
        which decides everything the attack changes (its damage, AP, the order)."""
        return isinstance(step.action, Attack)

    def view(self, step: Step, outcome: Outcome) -> Hashable:
        d = outcome.details
        return CheckResult(
            bool(d["success"]), int(str(d["successes"])), int(str(d["effect"])), str(d["special"])
        )

    def scope(self, state: Any, memo: Memo, step: Step) -> Scope | None:
        """Recovering (complex task resolution, step 6) and spending Resolve to survive a
        terminal hit read and write the actor's own seat, the order, what the table waits
        for and the clock's hours (the fatigue count): the other fighters' seats play no
        part. An attack reads and writes both sides: nothing is shared."""
        action = step.action
        if isinstance(action, Recover | SpendResolveToSurvive):
            return Scope((action.actor,), ("order", "pending", "hours"))
        return None

    def size_estimate(self) -> int:
        size = factorial(len(self.fighters)) * 2
        for cid in self.fighters:
            f: Seat = self.state.characters[cid]
            track = 3 * f.size + f.base_physique + 20
            size *= (f.ap_max + 4) * (f.ir_max + 1) * track * (f.base_physique + 1) ** 2 * 8
        return size
