"""A Mnemonic fight to Incapacitation ("fussing and fighting") as a chain over the game's
own state.

The fighters take turns, side a's first, one attack each per round (the
referee's order: the text lets the referee set it). An attack is the game's
``attack`` (only the attacker rolls; a seated attacker uses Dangerous and its
``life_roles`` entry, else the fallback); a success calls for the game's
``injury`` check on the victim, with the referee's ``worst`` outcome and
``injury_chances`` of staying active (each earlier injury makes it a step worse:
the game's rule). A fighter is out when it is inactive (unconscious,
immobilized or dead). Policies:

* ``attack`` - attack on every turn;
* ``dodge`` - attack on every turn while making itself a harder target: attacks
  on it are one Chances step (-3) worse, and so are its own (its attention is
  divided - the model's reading of "doing something that would make him a more
  difficult target").

The table's randomizer decides the dice. With the card randomizers the deck is
part of the state, so the exact chain is refused by its bound: simulate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.systems.base import Outcome
from referee.systems.mnemonic.actions import Attack, Injury
from referee.systems.mnemonic.state import Seat

from ..errors import AnalysisError
from ..model import ConflictModel, Memo, Step

WORST = ("unconscious", "immobilized", "dead")
EXCHANGEABLE = ("d12", "3d12")
"""Randomizers whose faces within one roll can be taken in any order (tested)."""
STEP = -3
"""One Chances step."""


@dataclass
class MnemonicFight(ConflictModel):
    """Two sides of Mnemonic characters trading attacks (see the module text)."""

    worst: str = "unconscious"
    chances: int = 0
    injury_chances: int = 0
    life_roles: Mapping[str, str] = field(default_factory=dict)
    POLICIES: ClassVar[tuple[str, ...]] = ("attack", "dodge")
    POLICY_WORDS: ClassVar[Mapping[str, str]] = {
        "attack": "attacks on every turn",
        "dodge": "attacks while making themselves a harder target",
    }

    def __post_init__(self) -> None:
        # one d12, or the middle of three: the order of the faces never matters
        self.exchangeable = self.options.randomizer in EXCHANGEABLE
        super().__post_init__()
        if self.worst not in WORST:
            raise AnalysisError(f"worst must be one of {', '.join(WORST)}, not {self.worst!r}")
        for cid, role in self.life_roles.items():
            if cid not in self.fighters:
                raise AnalysisError(f"a Life Role for {cid!r}, who is not in the conflict")
            sheet = self.state.characters[cid].sheet
            if role not in sheet.life_roles:
                known = ", ".join(sheet.life_roles) or "none"
                raise AnalysisError(f"{cid} has no Life Role {role!r} (roles: {known})")

    def start(self) -> tuple[Any, Memo]:
        first = self.first
        return self.state, ("turn", self.fighters.index(first) if first in self.fighters else 0)

    def out(self, state: Any, cid: str) -> bool:
        seat: Seat = state.characters[cid]
        return not seat.status.active

    def damage(self, state: Any, cid: str) -> int:
        seat: Seat = state.characters[cid]
        return int(seat.status.injuries)

    def next(self, state: Any, memo: Memo) -> Step:
        assert isinstance(memo, tuple)
        if memo[0] == "injure":
            return Step(
                Injury(self.worst, victim=memo[1], chances=self.injury_chances)  # type: ignore[arg-type]
            )
        turn = memo[1]
        order = self.fighters
        for k in range(len(order)):
            cid = order[(turn + k) % len(order)]
            if self.stopped(state, cid):
                continue
            target = next((t for t in self.opponents(cid) if not self.stopped(state, t)), None)
            if target is None:
                break
            chances = self.chances + (STEP if self.policy(cid) == "dodge" else 0)
            defense = STEP if self.policy(target) == "dodge" else 0
            at = (turn + k) % len(order)
            ticks = 1 if turn == 0 or at < turn else 0  # the turn came round: a new round
            return Step(
                Attack(
                    actor=cid,
                    target=target,
                    life_role=self.life_roles.get(cid),
                    chances=chances,
                    defense=defense,
                ),
                ticks,
            )
        raise AnalysisError("no fighter can act")  # the verdict ends the fight first

    def after(self, state: Any, memo: Memo, step: Step, outcome: Outcome, new: Any) -> Memo:
        assert isinstance(memo, tuple)
        order = self.fighters
        if isinstance(step.action, Attack):
            actor = step.action.actor
            nxt = (order.index(str(actor)) + 1) % len(order)
            if outcome.success:
                return ("injure", step.action.target, nxt)
            return ("turn", nxt)
        return ("turn", memo[2])

    def size_estimate(self) -> int:
        deck = 5**12 if "card" in str(self.options.randomizer) else 1
        size: int = (4 * 12) ** len(self.fighters) * len(self.fighters) * 3 * deck
        return size
