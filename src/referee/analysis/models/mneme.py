"""A Mneme CE exchange of attacks until an HP threshold, as a chain over the game's own
state (ch. 7, Outcomes: Damage; Hit Points).

The fighters take turns, side a's first, each making the game's ``attack`` with
its weapon (``weapons``; default the first on its sheet) on a check of
``characteristic`` plus the weapon's skill against ``difficulty`` (the game adds
Competence, wound penalties and, for a Critically Wounded attacker, Bleeding).
A hit brings the weapon's damage rolls (Success Effect + 1, Rate of Attack,
armour per roll: the game's rules). The exchange ends when a side reaches the
HP condition ``until`` (``Seriously Wounded``, ``Critically Wounded`` or
``Dying``), read by the game's own ``condition_for``.

Policies:

* ``attack`` - attack on every turn; a miss costs the attacker nothing (two
  characters who both roll: what a referee does when adversaries are played as
  characters);
* ``fail-effect`` - the PC rules of ch. 7: only this character rolls, and on a
  failure the opponent's weapon strikes it once per point of Fail Effect (the
  attack's ``threat``). A side with this policy never takes its own turn.

A fighter given no policy takes the one the table's rules give it: an adversary
facing a PC where the referee doesn't roll (ch. 2; the option ``adversary_attacks``
left at its default) strikes only through the PC's Fail Effects, ``fail-effect``;
anyone else, ``attack``.

Exact chains read the game's odds of the damage dealt, with whether one roll made
the target Bleed where one can (the attack's ``wound`` report): those decide every
change. With ``fail-effect``, the odds of the pair (damage dealt, damage struck back:
the attack's ``exchange`` report) when one roll can make neither side Bleed; otherwise
every face is enumerated, which a big weapon quickly takes past the bound: simulate
then.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.systems.base import Outcome
from referee.systems.mneme.actions import Attack, AttackReport, CheckInputs, DamageRolls, Threat
from referee.systems.mneme.damage import Wound
from referee.systems.mneme.health import bleeds_from, condition_for, thresholds
from referee.systems.mneme.state import Seat

from ..errors import AnalysisError
from ..model import ConflictModel, Memo, Step

CONDITIONS = ("Wounded", "Seriously Wounded", "Critically Wounded", "Dying")


@dataclass
class MnemeExchange(ConflictModel):
    """Mneme CE characters trading attacks (see the module text)."""

    until: str = "Critically Wounded"
    weapons: Mapping[str, str] = field(default_factory=dict)
    characteristic: str = "Dex"
    difficulty: int = 8
    POLICIES: ClassVar[tuple[str, ...]] = ("attack", "fail-effect")
    POLICY_WORDS: ClassVar[Mapping[str, str]] = {
        "attack": "attacks on every turn",
        "fail-effect": "strikes only through the other side's failed rolls (ch. 7)",
    }

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.until not in CONDITIONS:
            raise AnalysisError(f"until must be one of {', '.join(CONDITIONS)}, not {self.until!r}")
        for cid in self.fighters:
            sheet = self.state.characters[cid].sheet
            names = [w.name for w in sheet.weapons]
            if not names:
                raise AnalysisError(f"{cid} carries no weapon")
            chosen = self.weapons.get(cid)
            if chosen is not None and chosen not in names:
                raise AnalysisError(f"{cid} carries no {chosen!r} (weapons: {', '.join(names)})")
        if all(self.policy(c) == "fail-effect" for c in self.fighters):
            raise AnalysisError("someone must roll: not every fighter can be fail-effect")
        self._bleeds: dict[tuple[str, str], bool] = {}
        self._attacks: dict[tuple[str, str], Attack] = {}

    def policy(self, cid: str) -> str:
        """``cid``'s policy as given, else the rules' own (see the module text)."""
        given = self.policies.get(cid)
        if given is not None:
            return given
        if self.options.adversary_attacks != "referee_rolls":
            sheets = self.state.characters
            pc_facing = any(not sheets[o].sheet.adversary for o in self.opponents(cid))
            if sheets[cid].sheet.adversary and pc_facing:
                return "fail-effect"
        return "attack"

    def weapon(self, cid: str) -> str:
        """The weapon ``cid`` attacks with."""
        return self.weapons.get(cid) or self.state.characters[cid].sheet.weapons[0].name

    def start(self) -> tuple[Any, Memo]:
        rollers = self._rollers()
        return self.state, rollers.index(self.first) if self.first in rollers else 0

    def out(self, state: Any, cid: str) -> bool:
        sheet = state.characters[cid].sheet
        cond = condition_for(sheet.damage, thresholds(sheet, self.options))
        return (
            CONDITIONS.index(cond) >= CONDITIONS.index(self.until) if cond in CONDITIONS else False
        )

    def damage(self, state: Any, cid: str) -> int:
        seat: Seat = state.characters[cid]
        return int(seat.sheet.damage)

    def _rollers(self) -> tuple[str, ...]:
        return tuple(c for c in self.fighters if self.policy(c) != "fail-effect")

    def next(self, state: Any, memo: Memo) -> Step:
        assert isinstance(memo, int)
        order = self._rollers()
        for k in range(len(order)):
            at = (memo + k) % len(order)
            cid = order[at]
            if self.stopped(state, cid):
                continue
            target = next((t for t in self.opponents(cid) if not self.stopped(state, t)), None)
            if target is None:
                break
            ticks = 1 if memo == 0 or at < memo else 0
            return Step(self._attack(cid, target), ticks)
        raise AnalysisError("no fighter can act")

    def _attack(self, cid: str, target: str) -> Attack:
        """``cid``'s attack on ``target``, made (and checked) once per pair."""
        found = self._attacks.get((cid, target))
        if found is None:
            threat = None
            if self.policy(target) == "fail-effect":
                threat = Threat(weapon=self.weapon(target), attacker=target)
            check = CheckInputs(difficulty=self.difficulty, characteristic=self.characteristic)
            report: AttackReport = "exchange"  # what it strikes back too
            if threat is None:  # the damage, and Bleeding where one roll can make it
                report = "wound" if self._may_bleed(cid, target, self.weapon(cid)) else "damage"
            found = Attack(
                actor=cid,
                target=target,
                check=check,
                weapon=self.weapon(cid),
                threat=threat,
                report=report,
            )
            self._attacks[(cid, target)] = found
        return found

    def after(self, state: Any, memo: Memo, step: Step, outcome: Outcome, new: Any) -> Memo:
        return self._next_roller(step)

    def step_memo(self, state: Any, memo: Memo, step: Step) -> tuple[Memo] | None:
        """The next roller's place: the attack's outcome plays no part."""
        return (self._next_roller(step),)

    def _next_roller(self, step: Step) -> int:
        order = self._rollers()
        assert isinstance(step.action, Attack)
        return (order.index(str(step.action.actor)) + 1) % len(order)

    def viewed(self, step: Step) -> bool:
        """An attack nothing strikes back at (the damage dealt and, where one roll can make
        the target Bleed, whether it did: the ``wound`` report), or, with ``fail-effect``,
        one none of whose single rolls can make either side Bleed (the damage dealt and
        struck back): what the odds report decides every change."""
        a = step.action
        if not isinstance(a, Attack) or a.target is None:
            return False
        if a.threat is None:
            return a.report == "wound" or not self._may_bleed(str(a.actor), a.target, a.weapon)
        return a.report == "exchange"

    def _may_bleed(self, attacker: str, target: str, weapon: str) -> bool:
        """Whether one roll of ``attacker``'s ``weapon`` can make ``target`` Bleed."""
        key = (attacker, target)
        if key not in self._bleeds:
            one = DamageRolls(rolls=1, weapon=weapon, attacker=attacker, target=target)
            worst = self.ruleset.odds(one, self.state, self.options).max()
            victim = self.state.characters[target].sheet
            self._bleeds[key] = bleeds_from(int(worst), victim, self.options)
        return self._bleeds[key]

    def view(self, step: Step, outcome: Outcome) -> Hashable:
        dealt = int(str(outcome.details.get("damage_dealt", 0)))
        hurt = outcome.details.get("target")
        wound = Wound(dealt, isinstance(hurt, dict) and bool(hurt.get("bleeding")))
        if isinstance(step.action, Attack) and step.action.report == "wound":
            return wound
        if isinstance(step.action, Attack) and step.action.report == "exchange":
            incoming = outcome.details.get("incoming")
            if not isinstance(incoming, dict):
                return (wound, Wound(0, False))
            took = int(str(incoming.get("damage", 0)))
            return (wound, Wound(took, bool(incoming.get("bleeding"))))
        return dealt

    def size_estimate(self) -> int:
        size = 4
        for cid in self.fighters:
            size *= (self.state.characters[cid].sheet.hp + 40) * 4
        return size
