"""Complex task resolution as an immutable value (Mongrel, Complex task resolution; Fatigue).

A :class:`Conflict` holds the fighters and the order; :meth:`Conflict.apply`
returns a new conflict, so a conflict can be stored, replayed and undone
(:meth:`Conflict.undo` returns the state before the last action).

* Order: highest Beast, then Man, then Demon; remaining ties by coin (a die
  from the roller). Acting moves the actor to the back; there are no rounds.
* :class:`Advance`: 1 AP to take the next action, at any time.
* :class:`Attack`: only the fighter at the front with AP; a defending target
  pays 1 AP and makes the attacker pay 1 AP and roll over the target's
  attribute; otherwise the attacker rolls under his own. A miss costs the
  attacker 1 AP; a hit on a non-defender costs nothing (RULINGS, Defending).
* :class:`Recover`: the only action at 0 AP: +1 from 0, else refresh to the
  maximum; full refreshes per hour are limited to Physique (Fatigue).
* :class:`Occult`: a working by the fighter at the front: Infernal Resolve
  spent before the roll, one hour per die rolled, range / scale Modifiers; as
  an attack its net Effect (after the target's Resist, if it resists) drains
  the target's Infernal Resolve (Sorcery Expertise and spiritual damage).
* :class:`SpendResolve`: Infernal Resolve into AP 1:1; :class:`Rest` and
  :class:`VowRefresh` restore Infernal Resolve (and fatigue after rest).
AP never go below 0: a cost larger than what is left takes what is left.

There are no rounds, but some actions take time: the conflict's ``hours``
counts the hours elapsed (Occult workings and rest), each log entry records
its own. Full AP refreshes are limited to Physique per hour (Fatigue): when
the clock reaches a new hour a fighter not yet fatigued starts a new count;
a fatigued fighter needs rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from referee.dice.roller import Roller
from referee.errors import IllegalAction
from referee.systems.base import Modifier, Procedure

from .checks import CheckResult, Mode, difficulty_modifiers, procedure, target_number
from .damage import Body, Hit, lose_resolve, spend_resolve, take_damage
from .options import Options
from .sheet import (
    Sheet,
    action_points,
    attribute,
    expertise_now,
    identity_now,
    infernal_resolve,
)
from .sorcery import (
    OccultResult,
    occult_attack_procedure,
    occult_hours,
    occult_modifier,
    occult_procedure,
    resist_procedure,
)
from .tables import (
    EXPERTISE,
    PHYSICAL_ATTACKS,
    SPIRIT_ATTACKS,
    canonical_expertise,
    default_attribute,
)


@dataclass(frozen=True)
class Fighter:
    """One character in a conflict: identity, attributes, Expertise and a :class:`Body`."""

    id: str
    name: str
    man: int
    beast: int
    demon: int
    attributes: Mapping[str, int]
    expertise: Mapping[str, int]
    body: Body
    refreshes: int = 0
    powers: Mapping[str, int] = field(default_factory=dict)
    refresh_hour: int = 0

    @classmethod
    def from_sheet(cls, sheet: Sheet, fid: str | None = None) -> Fighter:
        """A fresh fighter from a sheet (AP = Speed, Infernal Resolve = Spirit)."""
        attrs = {
            a: attribute(sheet, a)
            for a in ("size", "spirit", "physique", "beauty", "speed", "social")
        }
        ap = action_points(sheet)
        ir = infernal_resolve(sheet)
        body = Body(attrs["size"], attrs["physique"], attrs["beauty"], ap, ap, ir, ir)
        ident = identity_now(sheet)
        return cls(
            fid or sheet.name.lower(),
            sheet.name,
            ident.man,
            ident.beast,
            ident.demon,
            attrs,
            expertise_now(sheet),
            body,
            powers=dict(sheet.powers),
        )

    def attr(self, name: str) -> int:
        """An attribute now (Physique and Beauty after damage)."""
        if name == "physique":
            return self.body.current_physique
        if name == "beauty":
            return self.body.current_beauty
        if name not in self.attributes:
            raise IllegalAction(f"unknown attribute {name!r}")
        return self.attributes[name]

    def dice(self, expertise: str, power: str | None) -> int:
        """Dice for an Expertise, plus a named power's points when it augments it."""
        dice = self.expertise.get(expertise, 0)
        if power is None:
            return dice
        if power not in self.powers:
            known = ", ".join(self.powers) or "none"
            raise IllegalAction(f"{self.name} has no power {power!r} (powers: {known})")
        return dice + self.powers[power]

    def identity(self, name: str) -> int:
        """The Identity score governing an Expertise."""
        value: int = getattr(self, EXPERTISE[name][0])
        return value


# -- actions ---------------------------------------------------------------


@dataclass(frozen=True)
class Advance:
    """Spend 1 AP to move to the front of the order (any time)."""

    who: str


@dataclass(frozen=True)
class Attack:
    """An attack by the fighter at the front of the order."""

    attacker: str
    target: str
    expertise: str
    defend: bool = False
    attribute: str | None = None
    difficulty: int = 0
    weapon: int = 0
    armor: int = 0
    shunt_to_beauty: int = 0
    power: str | None = None


@dataclass(frozen=True)
class Task:
    """Any other task by the fighter at the front: roll under own attribute or over a TN."""

    who: str
    expertise: str
    attribute: str | None = None
    tn: int | None = None
    mode: Mode = "under"
    difficulty: int = 0
    power: str | None = None


@dataclass(frozen=True)
class Occult:
    """An Occult working by the fighter at the front of the order.

    ``resolve`` Infernal Resolve (at least 1) is spent before the roll; each
    point beyond the first adds +1 Effect. The working rolls under the
    sorcerer's own ``attribute`` (Spirit by default) - or, with no target,
    against ``tn`` in ``mode`` when it mimics another Expertise - made harder
    by ``range_modifier``, ``scale_modifier`` and ``difficulty`` (0..4 each).
    With a ``target`` it is an attack on that fighter's Infernal Resolve; a
    target who ``resist``s rolls Resist under its own Spirit (``resist_mode``).
    It takes one hour per die rolled.
    """

    who: str
    resolve: int = 1
    target: str | None = None
    resist: bool = False
    attribute: str | None = None
    tn: int | None = None
    mode: Mode = "under"
    range_modifier: int = 0
    scale_modifier: int = 0
    difficulty: int = 0
    power: str | None = None


@dataclass(frozen=True)
class Recover:
    """Recover Action Points (takes the action)."""

    who: str


@dataclass(frozen=True)
class Wait:
    """Let the next fighter act (goes to the back of the order without acting)."""

    who: str


@dataclass(frozen=True)
class SpendResolve:
    """Spend Infernal Resolve for Action Points 1:1 (not an action)."""

    who: str
    points: int = 1


@dataclass(frozen=True)
class Rest:
    """Rest or calm activity for some hours: refresh Infernal Resolve; restore refreshes."""

    who: str
    hours: int = 1


@dataclass(frozen=True)
class VowRefresh:
    """Circumstances in direct opposition to the Vow refresh Infernal Resolve."""

    who: str


Action = Advance | Attack | Task | Occult | Recover | Wait | SpendResolve | Rest | VowRefresh
ACTIONS: dict[str, type[Any]] = {
    "advance": Advance,
    "attack": Attack,
    "task": Task,
    "occult": Occult,
    "recover": Recover,
    "wait": Wait,
    "spend_resolve": SpendResolve,
    "rest": Rest,
    "vow_refresh": VowRefresh,
}


@dataclass(frozen=True)
class Entry:
    """One applied action and what it did (text and numbers).

    ``hours`` is the time the action took (an Occult working, rest); most
    actions take none. ``modifiers`` are the Modifiers applied to its roll.
    """

    action: Any
    summary: str
    faces: tuple[int, ...] = ()
    result: CheckResult | OccultResult | None = None
    hours: int = 0
    modifiers: tuple[Modifier, ...] = ()
    target: int | None = None


@dataclass(frozen=True)
class Conflict:
    """The state of a complex task resolution; every action makes a new one."""

    fighters: tuple[Fighter, ...]
    order: tuple[str, ...]
    log: tuple[Entry, ...] = ()
    hours: int = 0
    previous: Conflict | None = field(default=None, repr=False, compare=False)

    # -- construction -------------------------------------------------
    @classmethod
    def start(cls, fighters: Iterable[Fighter], roller: Roller) -> Conflict:
        """Order by Beast, Man, Demon (highest first); a coin breaks what remains tied."""
        fs = tuple(fighters)
        ids = [f.id for f in fs]
        if len(set(ids)) != len(ids):
            raise IllegalAction("fighter ids must be unique")
        if not fs:
            raise IllegalAction("a conflict needs at least one fighter")
        return cls(fs, initial_order(fs, roller))

    # -- queries -------------------------------------------------------
    def fighter(self, fid: str) -> Fighter:
        """The fighter with id ``fid``."""
        for f in self.fighters:
            if f.id == fid:
                return f
        raise IllegalAction(f"no fighter {fid!r} (known: {', '.join(f.id for f in self.fighters)})")

    @property
    def next(self) -> str | None:
        """Who acts next (``None`` when nobody living remains)."""
        return self.order[0] if self.order else None

    # -- transformation ------------------------------------------------
    def apply(self, action: Action, roller: Roller, options: Options | None = None) -> Conflict:
        """The conflict after ``action``; :class:`IllegalAction` if the rules forbid it."""
        opts = options or Options()
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"unknown action {action!r}")
        new, entry = handler(self, action, roller, opts)
        out: Conflict = replace(
            new, log=(*self.log, entry), previous=self, hours=self.hours + entry.hours
        )
        return out

    def undo(self) -> Conflict:
        """The conflict before the last action."""
        if self.previous is None:
            raise IllegalAction("nothing to undo")
        return self.previous

    def _put(self, f: Fighter) -> Conflict:
        fighters = tuple(f if g.id == f.id else g for g in self.fighters)
        order = tuple(i for i in self.order if not _by_id(fighters, i).body.dead)
        return replace(self, fighters=fighters, order=order)

    def _to_back(self, fid: str) -> Conflict:
        if fid not in self.order:
            return self
        return replace(self, order=(*[i for i in self.order if i != fid], fid))


def _by_id(fighters: tuple[Fighter, ...], fid: str) -> Fighter:
    return next(f for f in fighters if f.id == fid)


def initial_order(fighters: tuple[Fighter, ...], roller: Roller) -> tuple[str, ...]:
    """Highest Beast, then Man, then Demon; a tied group is shuffled by die rolls (the coin)."""
    ranked = sorted(fighters, key=lambda f: (-f.beast, -f.man, -f.demon))
    out: list[str] = []
    i = 0
    while i < len(ranked):
        key = (ranked[i].beast, ranked[i].man, ranked[i].demon)
        group = [f.id for f in ranked[i:] if (f.beast, f.man, f.demon) == key]
        i += len(group)
        while len(group) > 1:  # pick who goes first among the tied: a coin for two
            (k,) = roller.roll(1, len(group))
            out.append(group.pop(k - 1))
        out += group
    return tuple(out)


def _pay(f: Fighter, amount: int) -> Fighter:
    return replace(f, body=replace(f.body, ap=max(0, f.body.ap - amount)))


def _living(c: Conflict, fid: str) -> Fighter:
    f = c.fighter(fid)
    if f.body.dead:
        raise IllegalAction(f"{f.name} is dead")
    return f


def _acting(c: Conflict, fid: str) -> Fighter:
    f = _living(c, fid)
    if c.next != fid:
        raise IllegalAction(
            f"{f.name} is not next in the order ({c.next} is); spend 1 AP to advance"
        )
    return f


def _ready(c: Conflict, fid: str) -> Fighter:
    """The fighter at the front of the order, with an AP to act (else only recovery)."""
    f = _acting(c, fid)
    if f.body.ap < 1:
        raise IllegalAction(f"{f.name} has 0 AP: the only action is to recover")
    return f


def _not_occult(expertise: str) -> str:
    """The canonical Expertise name; Occult has its own action (hours, Resolve first)."""
    exp = canonical_expertise(expertise)
    if exp == "Occult":
        raise IllegalAction(
            "Occult takes an hour per die and Resolve spent first: use the occult action"
        )
    return exp


def _advance(c: Conflict, a: Advance, roller: Roller, o: Options) -> tuple[Conflict, Entry]:
    f = _living(c, a.who)
    if f.body.ap < 1:
        raise IllegalAction(f"{f.name} has no Action Point to spend")
    c = c._put(_pay(f, 1))
    c = replace(c, order=(a.who, *[i for i in c.order if i != a.who]))
    return c, Entry(a, f"{f.name} spends 1 AP to act next")


@dataclass(frozen=True)
class RollPlan:
    """What an attack or task will roll: the check and its Modifiers, fixed before costs."""

    procedure: Procedure[Any, CheckResult]
    expertise: str
    dice: int
    tn: int
    mode: Mode
    modifiers: tuple[Modifier, ...]


def _plan(
    f: Fighter, exp: str, base: int, mode: Mode, difficulty: int, power: str | None
) -> RollPlan:
    dice = f.dice(exp, power)
    tn = target_number(base, mode, difficulty)
    mods = difficulty_modifiers(mode, difficulty)
    if power is not None:
        mods = (*mods, Modifier(f.powers[power], f"Power {power} augmenting {exp}", "dice"))
    proc: Procedure[Any, CheckResult] = procedure(dice, tn, mode, f.identity(exp))
    return RollPlan(proc, exp, dice, tn, mode, mods)


def attack_plan(c: Conflict, a: Attack) -> RollPlan:
    """Check an :class:`Attack` against the rules and build its roll (shared with the odds):
    under the attacker's own attribute, or over the target's when the target defends."""
    att = _ready(c, a.attacker)
    tgt = _living(c, a.target)
    if att.id == tgt.id:
        raise IllegalAction("a fighter cannot attack himself")
    exp = _not_occult(a.expertise)
    if exp not in PHYSICAL_ATTACKS and (a.weapon or a.armor or a.shunt_to_beauty):
        raise IllegalAction(
            f"weapon, armour and shunting to Beauty apply to physical attacks, not {exp}"
        )
    attr = default_attribute(exp, a.attribute)
    if a.defend:
        if tgt.body.collapsed:
            raise IllegalAction(f"{tgt.name} has collapsed and cannot defend")
        if tgt.body.ap < 1:
            raise IllegalAction(f"{tgt.name} has no Action Point to defend with")
        return _plan(att, exp, tgt.attr(attr), "over", a.difficulty, a.power)
    return _plan(att, exp, att.attr(attr), "under", a.difficulty, a.power)


def _attack(c: Conflict, a: Attack, roller: Roller, o: Options) -> tuple[Conflict, Entry]:
    plan = attack_plan(c, a)
    att = _acting(c, a.attacker)
    tgt = _living(c, a.target)
    exp = plan.expertise
    if a.defend:
        tgt = _pay(tgt, 1)
        att = _pay(att, 1)
    faces, result = plan.procedure.roll(roller)
    how = f"{att.name} {exp} {plan.dice}d6 {plan.mode} {plan.tn} {list(faces)}"
    mods = plan.modifiers
    if not result.success:
        att = _pay(att, 1)
        c = c._put(att)._put(tgt)
        entry = Entry(a, f"{how}: miss, 1 AP lost", faces, result, 0, mods, plan.tn)
        return c._to_back(att.id), entry
    c = c._put(att)
    if exp in PHYSICAL_ATTACKS:
        hit = Hit(result.effect, a.weapon, a.armor, a.shunt_to_beauty)
        body = take_damage(tgt.body, hit, o, spend_resolve=o.auto_spend_resolve)
        note = f"hit, Effect {result.effect}, damage {tgt.body.damage}->{body.damage}"
    elif exp in SPIRIT_ATTACKS:
        body = lose_resolve(tgt.body, result.effect)
        note = f"hit, Effect {result.effect}, Infernal Resolve {tgt.body.ir}->{body.ir}"
    else:
        body = tgt.body
        note = f"success, Effect {result.effect}"
    if body.dead:
        note += f"; {tgt.name} dies"
    c = c._put(replace(tgt, body=body))
    return c._to_back(att.id), Entry(a, f"{how}: {note}", faces, result, 0, mods, plan.tn)


def task_plan(c: Conflict, a: Task) -> RollPlan:
    """Check a :class:`Task` and build its roll (shared with the odds): under or over
    the named attribute (the Expertise's default) or a given TN."""
    f = _ready(c, a.who)
    exp = _not_occult(a.expertise)
    base = a.tn if a.tn is not None else f.attr(default_attribute(exp, a.attribute))
    return _plan(f, exp, base, a.mode, a.difficulty, a.power)


def _task(c: Conflict, a: Task, roller: Roller, o: Options) -> tuple[Conflict, Entry]:
    plan = task_plan(c, a)
    f = c.fighter(a.who)
    faces, result = plan.procedure.roll(roller)
    word = f"success, Effect {result.effect}" if result.success else "failure"
    how = f"{f.name} {plan.expertise} {plan.dice}d6 {plan.mode} {plan.tn} {list(faces)}"
    entry = Entry(a, f"{how}: {word}", faces, result, 0, plan.modifiers, plan.tn)
    return c._to_back(f.id), entry


def _recover(c: Conflict, a: Recover, roller: Roller, o: Options) -> tuple[Conflict, Entry]:
    f = _acting(c, a.who)
    b = f.body
    cap = b.effective_ap_max
    refreshes = f.refreshes
    hour = f.refresh_hour
    if c.hours != hour and refreshes < f.attr("physique"):
        refreshes, hour = 0, c.hours  # a new hour: a new count, unless already fatigued
    if b.ap == 0:
        ap = 1
    elif o.refresh_variant and b.ap >= cap:
        raise IllegalAction(f"{f.name} is full up at {b.ap} AP and cannot refresh")
    elif refreshes >= f.attr("physique"):  # fatigued: refreshing yields one point ...
        # ... within the maximum, except under the variant, which may exceed it
        ap = b.ap + 1 if o.refresh_variant else max(b.ap, min(b.ap + 1, cap))
    else:
        ap = b.ap + o.refresh_amount if o.refresh_variant else max(b.ap, cap)
        refreshes += 1
    if b.ap_cap is not None:
        ap = min(ap, b.ap_cap)
    new = replace(
        f, body=replace(b, ap=ap, collapsed=False), refreshes=refreshes, refresh_hour=hour
    )
    c = c._put(new)
    return c._to_back(f.id), Entry(a, f"{f.name} recovers: AP {b.ap}->{ap}")


def _wait(c: Conflict, a: Wait, roller: Roller, o: Options) -> tuple[Conflict, Entry]:
    f = _acting(c, a.who)
    return c._to_back(f.id), Entry(a, f"{f.name} waits")


def _spend(c: Conflict, a: SpendResolve, roller: Roller, o: Options) -> tuple[Conflict, Entry]:
    f = _living(c, a.who)
    if a.points < 1 or a.points > f.body.ir:
        raise IllegalAction(f"{f.name} can spend 1..{f.body.ir} Infernal Resolve, not {a.points}")
    b = spend_resolve(f.body, a.points, o, gain_ap=True)
    c = c._put(replace(f, body=b))
    return c, Entry(a, f"{f.name} spends {a.points} Infernal Resolve: AP {f.body.ap}->{b.ap}")


def _rest(c: Conflict, a: Rest, roller: Roller, o: Options) -> tuple[Conflict, Entry]:
    f = _living(c, a.who)
    if not 1 <= a.hours <= 24:
        raise IllegalAction("rest lasts 1 to 24 hours")
    b = replace(f.body, ir=f.body.ir_max, ap_cap=None)
    rested = a.hours >= o.fatigue_rest_hours
    refreshes = 0 if rested else f.refreshes
    hour = c.hours + a.hours if rested else f.refresh_hour
    c = c._put(replace(f, body=b, refreshes=refreshes, refresh_hour=hour))
    return c, Entry(a, f"{f.name} rests {a.hours} h: Infernal Resolve {b.ir}", hours=a.hours)


def _vow(c: Conflict, a: VowRefresh, roller: Roller, o: Options) -> tuple[Conflict, Entry]:
    f = _living(c, a.who)
    b = replace(f.body, ir=f.body.ir_max, ap_cap=None)
    c = c._put(replace(f, body=b))
    return c, Entry(a, f"{f.name}'s Vow refreshes Infernal Resolve to {b.ir}")


@dataclass(frozen=True)
class OccultPlan:
    """What an :class:`Occult` action will roll, fixed before any cost is paid."""

    sorcerer: Fighter
    target: Fighter | None
    procedure: Procedure[Any, OccultResult]
    hours: int
    modifiers: tuple[Modifier, ...]
    tn: int
    mode: Mode
    dice: int
    working_faces: int


def occult_plan(c: Conflict, a: Occult, o: Options) -> OccultPlan:
    """Check an :class:`Occult` action against the rules and build its check.

    Shared by :meth:`Conflict.apply` and the ruleset's exact odds, so the odds
    shown before a working are those of the roll it makes.
    """
    f = _ready(c, a.who)
    if f.body.ir < 1:
        raise IllegalAction(f"{f.name} has no Infernal Resolve left to fuel Occult")
    if not 1 <= a.resolve <= f.body.ir:
        raise IllegalAction(
            f"Occult needs 1..{f.body.ir} Infernal Resolve spent before the roll "
            f"({f.name} has {f.body.ir}), not {a.resolve}"
        )
    tgt = None if a.target is None else _living(c, a.target)
    if tgt is not None and tgt.id == f.id:
        raise IllegalAction("a fighter cannot make an Occult attack on himself")
    if tgt is not None and (a.tn is not None or a.mode != "under"):
        raise IllegalAction("an Occult attack rolls under the sorcerer's own attribute")
    if a.resist:
        if tgt is None:
            raise IllegalAction("only the target of an Occult attack can resist")
        if tgt.body.collapsed:
            raise IllegalAction(f"{tgt.name} has collapsed and cannot resist")
        if o.resist_costs_ap and tgt.body.ap < 1:
            raise IllegalAction(f"{tgt.name} has no Action Point to resist with")
    total = occult_modifier(a.range_modifier, a.scale_modifier, a.difficulty)
    dice = f.dice("Occult", a.power)
    base = f.attr(a.attribute or "spirit") if a.tn is None else a.tn
    working = occult_procedure(
        dice, base, a.mode, f.identity("Occult"), a.resolve, f.body.ir, total
    )
    resist = None
    if a.resist and tgt is not None:
        resist = resist_procedure(tgt.expertise.get("Resist", 0), tgt.attr("spirit"), tgt.demon)
    sign = -1 if a.mode == "under" else 1
    mods = tuple(
        Modifier(sign * v, src, "difficulty")
        for v, src in (
            (a.range_modifier, "Occult at long range"),
            (a.scale_modifier, "Occult over a large area or time-scale"),
            (a.difficulty, "Modifier"),
        )
        if v
    )
    if a.resolve > 1:
        mods = (*mods, Modifier(a.resolve - 1, "Infernal Resolve spent beyond the first", "effect"))
    return OccultPlan(
        f,
        tgt,
        occult_attack_procedure(working, resist, o.resist_mode),
        occult_hours(dice),
        mods,
        base - total if a.mode == "under" else base + total,
        a.mode,
        dice,
        sum(k for k, _ in working.groups),
    )


def _occult(c: Conflict, a: Occult, roller: Roller, o: Options) -> tuple[Conflict, Entry]:
    plan = occult_plan(c, a, o)
    f, tgt = plan.sorcerer, plan.target
    f = replace(f, body=spend_resolve(f.body, a.resolve, o, gain_ap=False))
    paid = f"{f.name} spends {a.resolve} Infernal Resolve on Occult"
    if f.body.dead:
        c = c._put(f)
        return c, Entry(a, f"{paid} and dies (terminal, Resolve 0)", modifiers=plan.modifiers)
    if a.resist and tgt is not None and o.resist_costs_ap:
        tgt, f = _pay(tgt, 1), _pay(f, 1)
    faces, result = plan.procedure.roll(roller)
    n = plan.working_faces
    how = f"{paid}: {plan.dice}d6 {plan.mode} {plan.tn} {list(faces[:n])}, {plan.hours} h"
    if result.resist is not None and tgt is not None:
        rw = "resists" if result.resist.success else "fails to resist"
        how += f"; {tgt.name} {rw} {list(faces[n:])}"
        if result.resist.success:
            how += f" (Effect {result.resist.effect})"
    w = result.working
    if not w.success:  # a missed attack costs 1 AP; a failed task costs nothing (like Task)
        f = _pay(f, 1) if tgt is not None else f
        c = c._put(f)
        if tgt is not None:
            c = c._put(tgt)
        note = "miss, 1 AP lost" if tgt is not None else "failure"
        entry = Entry(a, f"{how}: {note}", faces, result, plan.hours, plan.modifiers, plan.tn)
        return c._to_back(f.id), entry
    c = c._put(f)
    if tgt is None:
        note = f"success, Effect {w.effect}"
    else:
        body = lose_resolve(tgt.body, result.effect)
        note = (
            f"Effect {w.effect}, net {result.effect}, "
            f"{tgt.name}'s Infernal Resolve {tgt.body.ir}->{body.ir}"
        )
        if body.dead:
            note += f"; {tgt.name} dies"
        elif body.ir == 0:
            note += f"; {tgt.name} collapses (AP maximum 1)"
        c = c._put(replace(tgt, body=body))
    entry = Entry(a, f"{how}: {note}", faces, result, plan.hours, plan.modifiers, plan.tn)
    return c._to_back(f.id), entry


_HANDLERS: dict[type[Any], Any] = {
    Advance: _advance,
    Attack: _attack,
    Task: _task,
    Occult: _occult,
    Recover: _recover,
    Wait: _wait,
    SpendResolve: _spend,
    Rest: _rest,
    VowRefresh: _vow,
}


def replay(
    start: Conflict, actions: Iterable[Action], roller: Roller, options: Options | None = None
) -> Conflict:
    """Apply actions in order from a starting conflict."""
    c = start
    for action in actions:
        c = c.apply(action, roller, options)
    return c
