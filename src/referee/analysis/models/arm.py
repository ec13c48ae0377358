"""An ARM melee (ARM 1.2, Combat (Melee)) as a chain over the game's own state.

Each round starts with the referee's ``next-round``; then the fighters act in
side order (a first: the text has no initiative rule, so the model fixes one).
The policy of each fighter:

* ``attack`` - attack on its turn; never spend its action on a defence (it
  takes the blow), so both sides swing every round;
* ``defend`` - when attacked before it has acted this round, dodge (or parry,
  when its weapon's parry modifier is positive), which uses its action for the
  round; otherwise attack on its turn.

An attack that hits waits for the target's defence (the game decides whether it
still may), a blow that lands is struck at once (the game's damage roll). The
attack adds the fighter's mods named for its weapon ("+1 Swords" for a sword;
``mods`` overrides). A fighter is out when its wound or shock level reaches
``threshold`` (5: Dead or Unconscious) or it is destroyed. Pushing follows the
table's options (``push``: never, always or if-needed).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.systems.arm.actions import Attack, Defend, NextRound, Strike, TakeBlow
from referee.systems.arm.play import Levels, can_defend
from referee.systems.arm.state import Seat, State
from referee.systems.base import Outcome
from referee.systems.state import replaced

from ..errors import AnalysisError
from ..freeze import freeze
from ..model import ConflictModel, Memo, Scope, Step

PUSHES = ("never", "always", "if-needed")


def weapon_mods(seat: Seat) -> tuple[str, ...]:
    """The signed mods named for the fighter's weapon ("Swords" for "Sword (100cm)")."""
    if not seat.sheet.weapons:
        return ()
    stem = seat.sheet.weapon().name.split()[0].lower()
    return tuple(
        m.name for m in seat.sheet.mods if m.kind != "absolute" and m.name.lower().startswith(stem)
    )


@dataclass
class ArmMelee(ConflictModel):
    """Two sides of ARM fighters in melee (see the module text)."""

    threshold: int = 5
    push: str = "never"
    mods: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    POLICIES: ClassVar[tuple[str, ...]] = ("attack", "defend")
    POLICY_WORDS: ClassVar[Mapping[str, str]] = {
        "attack": "attacks every round and never defends",
        "defend": "dodges or parries a blow that comes before they act",
    }

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 1 <= self.threshold <= 5:
            raise AnalysisError(f"threshold must be a level 1..5, not {self.threshold}")
        if self.push not in PUSHES:
            raise AnalysisError(f"push must be one of {', '.join(PUSHES)}, not {self.push!r}")
        if self.push != "never" and not self.options.pushing:
            raise AnalysisError("pushing is switched off at this table (option pushing)")
        for cid in self.fighters:
            if not self.state.characters[cid].sheet.weapons:
                raise AnalysisError(f"{cid} carries no weapon")
        self._mods = {
            cid: self.mods[cid] if cid in self.mods else weapon_mods(self.state.characters[cid])
            for cid in self.fighters
        }

    def key(self, state: Any) -> Hashable:
        """The round number only matters as 'a round is running' (the one-action rule)."""
        s: State = state
        at_most_one = s if s.round <= 1 else replaced(s, round=1)
        return freeze(at_most_one, self.sheet_keys)

    def out(self, state: Any, cid: str) -> bool:
        seat: Seat = state.characters[cid]
        return seat.destroyed or max(seat.wound, seat.shock) >= self.threshold

    def damage(self, state: Any, cid: str) -> int:
        seat: Seat = state.characters[cid]
        return int(seat.wound + seat.shock)

    def fighter_mods(self, cid: str) -> tuple[str, ...]:
        """The mods ``cid`` attacks with (read once from the sheet it was seated with)."""
        return self._mods[cid]

    def next(self, state: Any, memo: Memo) -> Step:
        s: State = state
        push: Any = self.push
        for attack in s.attacks:
            if attack.stage == "landed":
                return Step(self.act(Strike, attack.attacker, attack.target, push=push))
            if self.policy(attack.target) == "defend" and not s.characters[attack.target].acted:
                seat = s.characters[attack.target]
                how: Any = "parry" if seat.sheet.weapon().parry > 0 else "dodge"
                return Step(self.act(Defend, attack.target, attack.attacker, how=how, push=push))
            return Step(self.act(TakeBlow, attack.target, attack.attacker))
        if s.round > 0:
            for cid in self.fighters:
                seat = s.characters[cid]
                if seat.acted or self.stopped(s, cid):
                    continue
                target = next((t for t in self.opponents(cid) if not self.stopped(s, t)), None)
                if target is None:
                    continue
                return Step(self.act(Attack, cid, target, mods=self.fighter_mods(cid), push=push))
        return Step(self.act(NextRound), 1)

    def viewed(self, step: Step) -> bool:
        """Unpushed rolls: the odds report the result (attack, defence) or the levels a
        blow does (strike), which decide the changes."""
        return self.push == "never" and isinstance(step.action, Attack | Defend | Strike)

    def view(self, step: Step, outcome: Outcome) -> Hashable:
        if isinstance(step.action, Strike):
            d = outcome.details
            return Levels(int(str(d["wound"])), int(str(d["shock"])), d["destroyed"] is True)
        return outcome.result

    def scope(self, state: Any, memo: Memo, step: Step) -> Scope | None:
        """What the game's melee steps read and write (ARM 1.2, Combat (Melee); Damage).

        Unpushed, a blow's damage roll (``strike``) reads the blow waiting in the
        table's attacks, the target's seat (its levels add up) and the hitter's sheet,
        which a fight never changes (so the hitter's levels and round are not read); taking
        the blow reads only the attacks. An attack reads and writes the attacker's seat
        (its levels, this round's actions, a weakness found) and reads of the target
        only what decides whether it may still defend (out of the fight, this round's
        actions: :func:`~referee.systems.arm.play.can_defend`) and whether a round runs.
        All three rewrite the attacks and what the table waits for (``pending``, derived
        from the attacks and the held roll). A pushed roll also reads the pusher's shock:
        nothing is shared then."""
        if self.push != "never":
            return None
        table = ("attacks", "held", "pending", "setting")
        action = step.action
        if isinstance(action, Attack):
            reads = (state.round > 0, can_defend(state, action.target, self.options))
            return Scope((action.actor,), table, reads)
        if isinstance(action, Strike):
            waiting = state.attacks
            blow = next(
                (x for x in waiting if x.stage == "landed" and x.attacker == action.actor),
                None,
            )
            return None if blow is None else Scope((blow.target,), table)
        if isinstance(action, TakeBlow):
            return Scope((), table)
        return None

    def size_estimate(self) -> int:
        size: int = (37 * 8 * 4 * 4) ** len(self.fighters)
        return size
