"""Task resolution and complex task resolution as plans (Mongrel, Task Resolution;
Complex task resolution; Physical damage; Sorcery Expertise; Fatigue).

Each ``*_plan`` checks that an action is legal in a state (:class:`IllegalAction`
otherwise), builds the one roll it makes and says how the result becomes an
:class:`~referee.systems.base.Outcome` whose changes are the action's whole
effect. Odds and rolls come from the same roll.

* Order (step 1): highest Beast, then Man, then Demon; remaining ties by a coin
  (a die of the tied group's size). Acting moves the actor to the back; there
  are no rounds. Only characters named when the conflict starts take part.
* :class:`~.actions.Advance` (step 2): 1 AP to take the next action, any time.
* :class:`~.actions.Attack` (step 3): by the character at the front with AP; a
  defending target pays 1 AP and makes the attacker pay 1 AP and roll over the
  target's attribute, otherwise the attacker rolls under his own; a miss costs
  the attacker 1 AP, a hit on a non-defender nothing (RULINGS, Defending).
* A terminal hit waits for the victim's choice (a pending decision answered by
  ``spend-resolve-to-survive`` or ``accept-fate``): the text says the character
  "may expend" one point of Infernal Resolve to avoid dying.
* :class:`~.actions.Recover` (step 6): +1 from 0, else back to the maximum;
  full refreshes per hour are limited to Physique (Fatigue).
* :class:`~.actions.Occult`: Infernal Resolve spent before the roll, one hour
  per die rolled; as an attack its net Effect (after Resist) drains the
  target's Infernal Resolve.
* Tasks and Occult workings outside a conflict cost no AP and need no turn.

AP never go below 0: a cost larger than what is left takes what is left.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, cast

from referee.dice.odds import Distribution
from referee.errors import IllegalAction
from referee.systems.base import (
    Decision,
    Dice,
    JSONValue,
    Modifier,
    Outcome,
    Plan,
    Procedure,
    Trace,
)
from referee.systems.state import replaced as replace  # dataclasses.replace, quicker

from .actions import (
    TERMINAL_CHOICES,
    AcceptFate,
    Advance,
    Attack,
    Check,
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
from .checks import CheckResult, Mode, difficulty_modifiers, procedure, target_number
from .damage import (
    RULE_TERMINAL,
    RULE_ZERO_RESOLVE,
    Hit,
    can_survive,
    die,
    final_effect,
    lose_resolve,
    refresh_resolve,
    spend_resolve,
    survive,
    take_damage,
)
from .options import Options
from .scene import SYSTEM, Scene, d6
from .sorcery import (
    OccultResult,
    occult_attack_procedure,
    occult_hours,
    occult_modifier,
    occult_procedure,
    resist_procedure,
)
from .state import Seat, State, rank
from .tables import PHYSICAL_ATTACKS, SPIRIT_ATTACKS, canonical_expertise, default_attribute

# -- shared pieces ---------------------------------------------------------------


def _pay(f: Seat, amount: int) -> Seat:
    return replace(f, ap=max(0, f.ap - amount))


def _name_of(state: State, cid: str | None) -> str:
    """A fighter's name (the id of one not seated)."""
    seat = state.characters.get(cid) if cid else None
    return seat.name if seat is not None else str(cid)


def _front(state: State, cid: str) -> Seat:
    """The living character ``cid``; in a conflict it must be at the front of the order."""
    f = state.living(cid)
    if state.in_conflict(cid) and state.next != cid:
        raise IllegalAction(
            f"{f.name} is not next in the order ({_name_of(state, state.next)} is); "
            "spend 1 AP to advance"
        )
    return f


def _ready(state: State, cid: str) -> Seat:
    """The character at the front with an AP to act (else only recovery), in a conflict."""
    f = _front(state, cid)
    if state.in_conflict(cid) and f.ap < 1:
        raise IllegalAction(f"{f.name} has 0 AP: the only action is to recover")
    return f


def _in_conflict(state: State, cid: str, what: str) -> Seat:
    f = state.living(cid)
    if not state.in_conflict(cid):
        raise IllegalAction(
            f"{what} belongs to complex task resolution: {f.name} is not in a conflict "
            "(start-conflict names who takes part)"
        )
    return f


def _not_occult(expertise: str) -> str:
    """The canonical Expertise name; Occult has its own action (hours, Resolve first)."""
    exp = canonical_expertise(expertise)
    if exp == "Occult":
        raise IllegalAction(
            "Occult takes an hour per die and Resolve spent first: use the occult action"
        )
    return exp


def _outcome(
    sc: Scene,
    name: str,
    label: str,
    *,
    trace: Trace = (),
    modifiers: tuple[Modifier, ...] = (),
    target: int | None = None,
    result: int | None = None,
    success: bool | None = None,
    details: dict[str, JSONValue] | None = None,
) -> Outcome:
    """An outcome carrying the scene's changes, the order after it and the clock."""
    return Outcome(
        system=SYSTEM,
        action=name,
        faces=d6(trace),
        modifiers=modifiers,
        target=target,
        result=result,
        success=success,
        label=label,
        changes=sc.changes(name),
        details={
            **(details or {}),
            "order": list(sc.order),
            "hours": sc.hours,
            "elapsed_hours": sc.state.hours + sc.hours,
        },
    )


def _fixed(state: State, name: str, build: Callable[[Scene], str], rule: str | None = None) -> Plan:
    """A plan with nothing to roll: ``build`` changes a scene and returns the label;
    ``rule`` is cited in the outcome's details."""
    sc = Scene(state)
    label = build(sc)
    return Plan.fixed(_outcome(sc, name, label, details={"rule": rule} if rule else None))


def _terminal(sc: Scene, cid: str, f: Seat) -> str:
    """A terminal hit: the victim chooses (when Resolve can save it) or dies."""
    if can_survive(f):
        sc.put(cid, f)
        sc.wait_for(
            Decision(
                cid,
                f"{f.name} took terminal damage: expend 1 Infernal Resolve to avoid dying "
                f"(Resolve {f.ir} -> {f.ir - 1}, full AP, still terminal) or accept death?",
                TERMINAL_CHOICES,
            )
        )
        return f"terminal hit: {f.name} chooses to spend 1 Infernal Resolve or die"
    sc.put(cid, die(f))
    return (
        f"terminal hit; {f.name} dies (Infernal Resolve {f.ir}: expending 1 would "
        "reach 0, which kills a terminal character)"
    )


# -- task rolls --------------------------------------------------------------------


@dataclass(frozen=True)
class Roll:
    """What a task or attack rolls, fixed before any cost is paid."""

    procedure: Procedure[Any, CheckResult]
    expertise: str
    dice: int
    tn: int
    mode: Mode
    modifiers: tuple[Modifier, ...]

    def how(self, who: str, trace: Trace) -> str:
        """The roll as a log line's start: who, what, dice, TN and faces."""
        faces = [f for t in trace for f in t]
        return f"{who} {self.expertise} {self.dice}d6 {self.mode} {self.tn} {faces}"

    def details(self, r: CheckResult) -> dict[str, JSONValue]:
        """The roll and its result as outcome details."""
        return {"expertise": self.expertise, "dice": self.dice, "mode": self.mode, **r.data()}

    def outcome(
        self,
        sc: Scene,
        name: str,
        who: str,
        note: str,
        r: CheckResult,
        trace: Trace,
        **more: JSONValue,
    ) -> Outcome:
        """The outcome of this roll by ``who`` (``note``: what came of it), with the
        scene's changes and ``more`` details."""
        return _outcome(
            sc,
            name,
            f"{self.how(who, trace)}: {note}",
            trace=trace,
            modifiers=self.modifiers,
            target=self.tn,
            result=r.effect,
            success=r.success,
            details={**self.details(r), **more},
        )


def _roll(f: Seat, exp: str, base: int, mode: Mode, difficulty: int, power: str | None) -> Roll:
    dice = f.dice(exp, power)
    tn = target_number(base, mode, difficulty)
    mods = difficulty_modifiers(mode, difficulty)
    if power is not None:
        mods = (*mods, Modifier(f.sheet.powers[power], f"Power {power} augmenting {exp}", "dice"))
    proc: Procedure[Any, CheckResult] = procedure(dice, tn, mode, f.governing(exp))
    return Roll(proc, exp, dice, tn, mode, mods)


def plan_check(action: Check, state: State, options: Options) -> Plan:
    """A task roll from plain numbers (Mongrel, Task Resolution)."""
    tn = target_number(action.tn, action.mode, action.difficulty)
    proc: Procedure[Any, CheckResult] = procedure(action.dice, tn, action.mode, action.identity)
    mods = difficulty_modifiers(action.mode, action.difficulty)

    def finish(r: CheckResult, trace: Trace) -> Outcome:
        label = ("success" if r.success else "failure") + (f" ({r.special})" if r.special else "")
        return Outcome(
            system=SYSTEM,
            action="check",
            faces=d6(trace),
            modifiers=mods,
            target=tn,
            result=r.effect,
            success=r.success,
            label=label,
            details={
                **r.data(),
                "mode": action.mode,
                "dice": action.dice,
                "identity": action.identity,
            },
        )

    return Plan.of(Dice.of(proc), finish)


def plan_task(action: Task, state: State, options: Options) -> Plan:
    """A task: under one's own attribute, over another character's, or against a TN."""
    f = _ready(state, action.actor)
    exp = _not_occult(action.expertise)
    if action.target is not None and action.tn is not None:
        raise IllegalAction("a task rolls over a target's attribute or against a tn, not both")
    if action.target is not None:
        other = state.living(action.target)
        roll = _roll(
            f,
            exp,
            other.attr(default_attribute(exp, action.attribute)),
            "over",
            action.difficulty,
            action.power,
        )
    elif action.tn is not None:
        roll = _roll(f, exp, action.tn, action.mode, action.difficulty, action.power)
    else:
        base = f.attr(default_attribute(exp, action.attribute))
        roll = _roll(f, exp, base, action.mode, action.difficulty, action.power)

    def finish(r: CheckResult, trace: Trace) -> Outcome:
        sc = Scene(state)
        sc.to_back(action.actor)
        word = f"success, Effect {r.effect}" if r.success else "failure"
        return roll.outcome(sc, "task", f.name, word, r, trace)

    return Plan.of(Dice.of(roll.procedure), finish)


# -- attacks -------------------------------------------------------------------------


def plan_attack(action: Attack, state: State, options: Options) -> Plan:
    """An attack: under the attacker's own attribute, or over the target's when the
    target defends (Complex task resolution, step 3)."""
    _in_conflict(state, action.actor, "an attack")
    att = _ready(state, action.actor)
    tgt = state.living(action.target)
    if action.actor == action.target:
        raise IllegalAction("a character cannot attack himself")
    exp = _not_occult(action.expertise)
    physical = exp in PHYSICAL_ATTACKS
    if not physical and (action.weapon or action.armor or action.shunt_to_beauty):
        raise IllegalAction(
            f"weapon, armour and shunting to Beauty apply to physical attacks, not {exp}"
        )
    if action.shunt_to_beauty > tgt.beauty:
        raise IllegalAction(f"cannot shunt {action.shunt_to_beauty} points to Beauty {tgt.beauty}")
    attr = default_attribute(exp, action.attribute)
    if action.defend:
        if tgt.collapsed:
            raise IllegalAction(f"{tgt.name} has collapsed and cannot defend")
        if tgt.ap < 1:
            raise IllegalAction(f"{tgt.name} has no Action Point to defend with")
        roll = _roll(att, exp, tgt.attr(attr), "over", action.difficulty, action.power)
    else:
        roll = _roll(att, exp, att.attr(attr), "under", action.difficulty, action.power)

    def struck(r: CheckResult) -> tuple[Scene, str, dict[str, JSONValue]]:
        """The scene after the roll ``r``, what came of it and the details to report."""
        sc = Scene(state)
        me, them = att, tgt
        if action.defend:
            me, them = _pay(me, 1), _pay(them, 1)
        extra: dict[str, JSONValue] = {"defended": action.defend}
        if not r.success:
            sc.put(action.actor, _pay(me, 1))
            sc.put(action.target, them)
            note = "miss, 1 AP lost"
        elif physical:
            sc.put(action.actor, me)
            hit = Hit(r.effect, action.weapon, action.armor, 0)
            shunt = min(action.shunt_to_beauty, final_effect(hit))
            hurt, terminal = take_damage(them, replace(hit, shunt_to_beauty=shunt), options)
            note = f"hit, Effect {r.effect}, damage {them.damage}->{hurt.damage}"
            extra |= {"damage": hurt.damage - them.damage, "shunted": shunt, "terminal": terminal}
            if terminal:
                note += "; " + _terminal(sc, action.target, hurt)
            else:
                sc.put(action.target, hurt)
                if hurt.collapsed and not them.collapsed:
                    note += f"; {tgt.name} collapses"
        elif exp in SPIRIT_ATTACKS:
            sc.put(action.actor, me)
            drained = lose_resolve(them, r.effect)
            sc.put(action.target, drained)
            note = f"hit, Effect {r.effect}, Infernal Resolve {them.ir}->{drained.ir}"
            if drained.dead:
                note += f"; {tgt.name} dies"
            elif drained.ir == 0:
                note += f"; {tgt.name} collapses (AP maximum 1)"
        else:
            sc.put(action.actor, me)
            sc.put(action.target, them)
            note = f"success, Effect {r.effect}"
        sc.to_back(action.actor)
        return sc, note, extra

    def finish(r: CheckResult, trace: Trace) -> Outcome:
        sc, note, extra = struck(r)
        return roll.outcome(sc, "attack", att.name, note, r, trace, **extra)

    def after(r: CheckResult, _trace: Trace) -> State:
        return struck(r)[0].after()

    def decided(r: Hashable) -> State:  # the check's result alone decides the state after
        return struck(cast(CheckResult, r))[0].after()

    return Plan.of(Dice.of(roll.procedure), finish, after=after, decided=decided)


def plan_take_damage(action: TakeDamage, state: State, options: Options) -> Plan:
    """Damage from anything but an attack roll, on the same track (Physical damage)."""
    f = state.living(action.victim)
    hit = Hit(action.effect, action.weapon, action.armor, action.shunt_to_beauty)
    if action.shunt_to_beauty > final_effect(hit):
        raise IllegalAction(
            f"cannot shunt {action.shunt_to_beauty} points of a {final_effect(hit)}-point hit"
        )
    if action.shunt_to_beauty > f.beauty:
        raise IllegalAction(f"cannot shunt {action.shunt_to_beauty} points to Beauty {f.beauty}")

    def build(sc: Scene) -> str:
        hurt, terminal = take_damage(f, hit, options)
        note = f"{f.name} takes {final_effect(hit)} damage: {f.damage}->{hurt.damage}"
        if terminal:
            return note + "; " + _terminal(sc, action.victim, hurt)
        sc.put(action.victim, hurt)
        if hurt.collapsed and not f.collapsed:
            note += f"; {f.name} collapses"
        return note

    return _fixed(state, "take-damage", build)


def _owed(state: State, actor: str) -> Seat:
    """The character who owes the answer to a terminal hit."""
    f = state.character(actor)
    if not any(d.actor == actor and d.choices == TERMINAL_CHOICES for d in state.pending):
        raise IllegalAction(f"{f.name} has no terminal hit to answer")
    return f


def plan_spend_resolve_to_survive(
    action: SpendResolveToSurvive, state: State, options: Options
) -> Plan:
    """Expend 1 Infernal Resolve to avoid dying: full AP, still terminal (Physical damage)."""
    f = _owed(state, action.actor)
    saved = survive(f)

    def build(sc: Scene) -> str:
        sc.put(action.actor, saved)
        sc.answered(action.actor, *TERMINAL_CHOICES)
        return (
            f"terminal hit; 1 Infernal Resolve spent: {f.name} survives (Infernal Resolve "
            f"{f.ir}->{saved.ir}, AP {f.ap}->{saved.ap}), still terminal"
        )

    return _fixed(state, "spend-resolve-to-survive", build, RULE_TERMINAL)


def plan_accept_fate(action: AcceptFate, state: State, options: Options) -> Plan:
    """Spend nothing against a terminal hit: the character dies."""
    f = _owed(state, action.actor)

    def build(sc: Scene) -> str:
        sc.put(action.actor, die(f))
        sc.answered(action.actor, *TERMINAL_CHOICES)
        return f"terminal hit; {f.name} spends no Infernal Resolve and dies"

    return _fixed(state, "accept-fate", build, RULE_TERMINAL)


# -- the order and Action Points ---------------------------------------------------------


def plan_start_conflict(action: StartConflict, state: State, options: Options) -> Plan:
    """The order: highest Beast, then Man, then Demon; each tied group is ordered by dice
    (a coin for two: one die of the group's size picks who goes first)."""
    if state.order:
        order = " > ".join(_name_of(state, c) for c in state.order)
        raise IllegalAction(f"a conflict is running ({order}); end it first")
    ids = action.fighters or tuple(c for c, f in state.characters.items() if not f.dead)
    if not ids:
        raise IllegalAction("a conflict needs at least one living character")
    if len(set(ids)) != len(ids):
        raise IllegalAction("each character takes part once")
    fighters = [(cid, state.living(cid)) for cid in ids]
    ranked = sorted(fighters, key=lambda p: rank(p[1]))
    groups: list[list[str]] = []
    for cid, f in ranked:
        if groups and rank(state.character(groups[-1][0])) == rank(f):
            groups[-1].append(cid)
        else:
            groups.append([cid])
    sizes = [k for g in groups for k in range(len(g), 1, -1)]
    picks: Dice[tuple[int, ...]] = Dice.pure(())
    for k in sizes:
        picks = picks.pair(_die(k)).map(lambda t: (*t[0], t[1]))

    def order_of(chosen: tuple[int, ...]) -> tuple[str, ...]:
        out: list[str] = []
        rest = iter(chosen)
        for g in groups:
            g = list(g)
            while len(g) > 1:
                out.append(g.pop(next(rest) - 1))
            out += g
        return tuple(out)

    def finish(chosen: tuple[int, ...], trace: Trace) -> Outcome:
        sc = Scene(state)
        sc.order = order_of(chosen)
        coins = f" (ties broken by dice {list(chosen)})" if chosen else ""
        return Outcome(
            system=SYSTEM,
            action="start-conflict",
            label=f"conflict begins: {' > '.join(sc.order)}{coins}",
            changes=sc.changes("start-conflict"),
            details={"order": list(sc.order)},
        )

    return Plan.of(picks, finish, view=order_of)


def _die(k: int) -> Dice[int]:
    return Dice.roll(((1, k),), lambda faces: faces[0], lambda: Distribution.die(k))


def plan_end_conflict(action: EndConflict, state: State, options: Options) -> Plan:
    """Complex task resolution ends; AP stay as they are."""
    if not state.order:
        raise IllegalAction("no conflict is running")

    def build(sc: Scene) -> str:
        sc.order = ()
        return "conflict ends"

    return _fixed(state, "end-conflict", build)


def plan_advance(action: Advance, state: State, options: Options) -> Plan:
    """1 AP to move to the front of the order (Complex task resolution, step 2)."""
    f = _in_conflict(state, action.actor, "advancing in the order")
    if f.ap < 1:
        raise IllegalAction(f"{f.name} has no Action Point to spend")

    def build(sc: Scene) -> str:
        sc.put(action.actor, _pay(f, 1))
        sc.to_front(action.actor)
        return f"{f.name} spends 1 AP to act next"

    return _fixed(state, "advance", build)


def plan_wait(action: Wait, state: State, options: Options) -> Plan:
    """Let the next character act: to the back of the order."""
    _in_conflict(state, action.actor, "waiting")
    f = _front(state, action.actor)

    def build(sc: Scene) -> str:
        sc.to_back(action.actor)
        return f"{f.name} waits"

    return _fixed(state, "wait", build)


def plan_recover(action: Recover, state: State, options: Options) -> Plan:
    """Recover AP (step 6): +1 from 0, else back to the maximum; at most Physique full
    refreshes per hour, then 1 AP until rest (Fatigue). Under ``refresh_variant`` a
    recovery adds ``refresh_amount`` and may exceed the maximum, but not when full up."""
    f = _front(state, action.actor)
    cap = f.effective_ap_max
    refreshes, hour = f.refreshes, f.refresh_hour
    if state.hours != hour and refreshes < f.physique:
        refreshes, hour = 0, state.hours  # a new hour: a new count, unless already fatigued
    if f.ap == 0:
        ap = 1
    elif options.refresh_variant and f.ap >= cap:
        raise IllegalAction(f"{f.name} is full up at {f.ap} AP and cannot refresh")
    elif refreshes >= f.physique:  # fatigued: refreshing yields one point ...
        # ... within the maximum, except under the variant, which may exceed it
        ap = f.ap + 1 if options.refresh_variant else max(f.ap, min(f.ap + 1, cap))
    else:
        ap = f.ap + options.refresh_amount if options.refresh_variant else max(f.ap, cap)
        refreshes += 1
    if f.exhausted:
        ap = min(ap, 1)
    after = replace(f, ap=ap, collapsed=False, refreshes=refreshes, refresh_hour=hour)

    def build(sc: Scene) -> str:
        sc.put(action.actor, after)
        sc.to_back(action.actor)
        return f"{f.name} recovers: AP {f.ap}->{ap}"

    return _fixed(state, "recover", build)


def plan_spend_resolve(action: SpendResolve, state: State, options: Options) -> Plan:
    """Infernal Resolve into AP 1:1 (not an action). Spending the last point collapses the
    character under ``zero_ir_collapse_on_spend`` (:data:`~.damage.RULE_ZERO_RESOLVE`)."""
    f = state.living(action.actor)
    if action.points > f.ir:
        raise IllegalAction(f"{f.name} can spend 1..{f.ir} Infernal Resolve, not {action.points}")
    after = spend_resolve(f, action.points, options, gain_ap=True)

    def build(sc: Scene) -> str:
        sc.put(action.actor, after)
        note = (
            f"{f.name} spends {action.points} Infernal Resolve: AP {f.ap}->{f.ap + action.points}"
        )
        if after.dead:
            note += "; Infernal Resolve 0: a terminal character dies"
        elif after.exhausted and not f.exhausted:
            note += "; Infernal Resolve 0: collapses (AP 0, maximum 1)"
        return note

    rule = RULE_TERMINAL if after.dead else RULE_ZERO_RESOLVE if after.exhausted else None
    return _fixed(state, "spend-resolve", build, rule)


def plan_rest(action: Rest, state: State, options: Options) -> Plan:
    """Rest or calm activity: Infernal Resolve refreshes within the hour; enough hours
    (``fatigue_rest_hours``) restore full AP refreshes. The clock advances."""
    f = state.living(action.actor)
    rested = action.hours >= options.fatigue_rest_hours
    after = replace(
        refresh_resolve(f),
        refreshes=0 if rested else f.refreshes,
        refresh_hour=state.hours + action.hours if rested else f.refresh_hour,
    )

    def build(sc: Scene) -> str:
        sc.put(action.actor, after)
        sc.hours = action.hours
        return f"{f.name} rests {action.hours} h: Infernal Resolve {after.ir}"

    return _fixed(state, "rest", build)


def plan_vow_refresh(action: VowRefresh, state: State, options: Options) -> Plan:
    """Circumstances in direct opposition to the Vow refresh Infernal Resolve."""
    f = state.living(action.actor)

    def build(sc: Scene) -> str:
        sc.put(action.actor, refresh_resolve(f))
        return f"{f.name}'s Vow refreshes Infernal Resolve to {f.ir_max}"

    return _fixed(state, "vow-refresh", build)


# -- Occult --------------------------------------------------------------------------


def plan_occult(action: Occult, state: State, options: Options) -> Plan:
    """An Occult working (Sorcery Expertise and spiritual damage): Resolve spent first,
    one hour per die, range / scale Modifiers; against a target, a drain of its
    Infernal Resolve after its Resist."""
    f = _ready(state, action.actor)
    if f.ir < 1:
        raise IllegalAction(f"{f.name} has no Infernal Resolve left to fuel Occult")
    if action.resolve > f.ir:
        raise IllegalAction(
            f"Occult needs 1..{f.ir} Infernal Resolve spent before the roll "
            f"({f.name} has {f.ir}), not {action.resolve}"
        )
    tgt = None if action.target is None else state.living(action.target)
    if action.target is not None and action.target == action.actor:
        raise IllegalAction("a character cannot make an Occult attack on himself")
    if tgt is not None and (action.tn is not None or action.mode != "under"):
        raise IllegalAction("an Occult attack rolls under the sorcerer's own attribute")
    if action.resist:
        if tgt is None:
            raise IllegalAction("only the target of an Occult attack can resist")
        if tgt.collapsed:
            raise IllegalAction(f"{tgt.name} has collapsed and cannot resist")
        if options.resist_costs_ap and tgt.ap < 1:
            raise IllegalAction(f"{tgt.name} has no Action Point to resist with")
    total = occult_modifier(action.range_modifier, action.scale_modifier, action.difficulty)
    dice = f.dice("Occult", action.power)
    base = f.attr(action.attribute or "spirit") if action.tn is None else action.tn
    working = occult_procedure(
        dice, base, action.mode, f.governing("Occult"), action.resolve, f.ir, total
    )
    resist = None
    if action.resist and tgt is not None:
        resist = resist_procedure(tgt.level("Resist"), tgt.attr("spirit"), tgt.identity.demon)
    sign = -1 if action.mode == "under" else 1
    mods = tuple(
        Modifier(sign * v, src, "difficulty")
        for v, src in (
            (action.range_modifier, "Occult at long range"),
            (action.scale_modifier, "Occult over a large area or time-scale"),
            (action.difficulty, "Modifier"),
        )
        if v
    )
    if action.resolve > 1:
        mods = (
            *mods,
            Modifier(action.resolve - 1, "Infernal Resolve spent beyond the first", "effect"),
        )
    tn = base - total if action.mode == "under" else base + total
    hours = occult_hours(dice)
    n = sum(k for k, _ in working.groups)
    spent = spend_resolve(f, action.resolve, options, gain_ap=False)
    paid = f"{f.name} spends {action.resolve} Infernal Resolve on Occult"
    if spent.dead:  # a terminal sorcerer spending his last point dies before the roll

        def build(sc: Scene) -> str:
            sc.put(action.actor, spent)
            return f"{paid} and dies (terminal, Resolve 0)"

        return _fixed(state, "occult", build, RULE_TERMINAL)

    def finish(res: OccultResult, trace: Trace) -> Outcome:
        sc = Scene(state)
        me, them = spent, tgt
        if action.resist and them is not None and options.resist_costs_ap:
            me, them = _pay(me, 1), _pay(them, 1)
        faces = [x for t in trace for x in t]
        how = f"{paid}: {dice}d6 {action.mode} {tn} {faces[:n]}, {hours} h"
        if spent.exhausted and not f.exhausted:
            how += f"; {f.name}'s Infernal Resolve 0: collapses (AP 0, maximum 1)"
        if res.resist is not None and tgt is not None:
            how += f"; {tgt.name} {'resists' if res.resist.success else 'fails to resist'} "
            how += str(faces[n:])
            if res.resist.success:
                how += f" (Effect {res.resist.effect})"
        w = res.working
        if not w.success:  # a missed attack costs 1 AP; a failed working costs nothing
            if them is not None and action.target is not None:
                me = _pay(me, 1)
                sc.put(action.target, them)
                note = "miss, 1 AP lost"
            else:
                note = "failure"
            sc.put(action.actor, me)
        elif them is None or action.target is None:
            sc.put(action.actor, me)
            note = f"success, Effect {w.effect}"
        else:
            sc.put(action.actor, me)
            drained = lose_resolve(them, res.effect)
            sc.put(action.target, drained)
            note = (
                f"Effect {w.effect}, net {res.effect}, "
                f"{them.name}'s Infernal Resolve {them.ir}->{drained.ir}"
            )
            if drained.dead:
                note += f"; {them.name} dies"
            elif drained.ir == 0:
                note += f"; {them.name} collapses (AP maximum 1)"
        sc.hours = hours
        sc.to_back(action.actor)
        return _outcome(
            sc,
            "occult",
            f"{how}: {note}",
            trace=trace,
            modifiers=mods,
            target=tn,
            result=res.effect,
            success=res.success,
            details={
                "working": w.data(),
                "resist": None if res.resist is None else res.resist.data(),
                "net_effect": res.effect,
                "resolve_spent": action.resolve,
                **({"rule": RULE_ZERO_RESOLVE} if spent.exhausted and not f.exhausted else {}),
            },
        )

    return Plan.of(Dice.of(occult_attack_procedure(working, resist, options.resist_mode)), finish)
