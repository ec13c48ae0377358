"""Initiative and turn order (companion facts, Mneme CE turn economy).

Each PC rolls Initiative once per encounter and keeps it: 2d6 + a characteristic
modifier + a relevant skill (Tactics, Recon...). Turns go in descending Initiative.
The referee never rolls: adversaries act through the PCs' Fail Effects, so only PCs
have an Initiative. The roll is the check's own :class:`~referee.systems.base.Procedure`
against Difficulty 0 (the Effect is then the Initiative), Advantage and Disadvantage
and wound penalties included, so rolling and exact odds share one rule. Ties follow
the ``initiative_ties`` option.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution, joint
from referee.dice.roller import Roller
from referee.errors import IllegalAction, OddsTooComplex, RulesError
from referee.systems.base import Dice, Modifier, Outcome, Plan, Procedure, Trace
from referee.systems.mneme.actions import (
    CheckInputs,
    EndEncounter,
    InitiativePC,
    RollInitiative,
)
from referee.systems.mneme.changes import Changes
from referee.systems.mneme.checks import check_procedure, kept_indices
from referee.systems.mneme.options import Options
from referee.systems.mneme.state import Seat, State, Steps
from referee.systems.mneme.tables import MINOR_ACTIONS
from referee.systems.mneme.task import SYSTEM, build

MAX_PCS = 20
"""Most PCs in one Initiative roll (bounds untrusted input)."""
MAX_ODDS_PCS = 4
"""Most PCs whose whole turn order has exact odds."""
MAX_REROLLS = 20
"""Rerolls of one tied group before it is left simultaneous (``reroll`` ties)."""


@dataclass(frozen=True)
class Entrant:
    """A PC ready to roll: the id in the turn order, the name shown, the modifiers that
    apply, net Advantage steps and the characteristic modifier (for ties)."""

    id: str
    name: str
    modifiers: tuple[Modifier, ...]
    steps: int
    characteristic_modifier: int | None

    @property
    def modifier(self) -> int:
        """The total modifier added to the dice."""
        return sum(m.value for m in self.modifiers)

    @property
    def procedure(self) -> Procedure[int, int]:
        """The Initiative roll: ``.roll`` on faces, ``.odds`` exact."""
        return check_procedure(self.modifier, 0, self.steps)


def relevant_skill(known: Mapping[str, int], candidates: Sequence[str]) -> str:
    """The best of the relevant skills the PC has; unskilled, the first candidate."""
    levels = {k.lower(): v for k, v in known.items()}
    have = [(levels[c.lower()], c) for c in candidates if c.lower() in levels]
    return max(have, key=lambda t: t[0])[1] if have else candidates[0]


def entrant(pc: InitiativePC, state: State | None, options: Options) -> Entrant:
    """The PC's Initiative modifiers: from the seated character's sheet (characteristic
    modifier, the best relevant skill, wound penalty) or, with ``modifier``, as given."""
    bare = CheckInputs(difficulty=0, advantage=pc.advantage, disadvantage=pc.disadvantage)
    if pc.modifier is not None:
        if pc.characteristic or pc.skill:
            raise RulesError(f"Initiative for {pc.who!r}: a characteristic or skill needs a sheet")
        if not pc.who.strip():
            raise RulesError("a PC rolling Initiative needs a name")
        built = build(bare, None, options)
        mods = (Modifier(pc.modifier, "Initiative modifier", "competence"),) if pc.modifier else ()
        return Entrant(
            pc.who.strip(), pc.who.strip(), mods, built.steps, pc.characteristic_modifier
        )
    if pc.characteristic_modifier is not None:
        raise RulesError(f"Initiative for {pc.who!r}: a sheet or a modifier, not both")
    if state is None:
        raise IllegalAction(f"no character {pc.who!r} at this table")
    sheet = state.character(pc.who).sheet
    if sheet.dead:
        raise IllegalAction(f"{sheet.name} is dead")
    characteristic = pc.characteristic or options.initiative_characteristic
    skill = pc.skill or relevant_skill(sheet.skills, options.initiative_skills)
    check = CheckInputs(
        difficulty=0,
        advantage=pc.advantage,
        disadvantage=pc.disadvantage,
        characteristic=characteristic,
        skill=skill,
    )
    built = build(check, sheet, options)
    return Entrant(pc.who, sheet.name, built.applied, built.steps, sheet.modifier(characteristic))


def _can_act(seat: Seat, options: Options) -> bool:
    """Whether the seated character may act (no helpless condition forbids it)."""
    from referee.systems.mneme.conditions import helpless

    found = helpless(seat, options)
    return found is None or not found.forbids("act")


def entrants(action: RollInitiative, state: State | None, options: Options) -> tuple[Entrant, ...]:
    """Every PC of the roll (none named: every seated character who can act, ch. 7,
    Critically Wounded and Dying (:mod:`.conditions`), but the adversaries), checked:
    1..20 PCs, distinct names, no adversary (they act through the
    PCs' Fail Effects, ch. 2, Referee Doesn't Roll; unless the option
    ``adversary_attacks`` lets the referee roll for them), and a characteristic modifier
    for each when ties go by it."""
    pcs = action.pcs
    rolls_for_them = options.adversary_attacks == "referee_rolls"
    if not pcs and state is not None:
        pcs = tuple(
            InitiativePC(c)
            for c, s in state.characters.items()
            if _can_act(s, options) and (rolls_for_them or not s.sheet.adversary)
        )
    if state is not None and not rolls_for_them:
        for pc in pcs:
            seat = state.characters.get(pc.who)
            if seat is not None and seat.sheet.adversary and pc.modifier is None:
                raise IllegalAction(
                    f"{seat.sheet.name} is an adversary: adversaries roll no Initiative, "
                    "they act through the PCs' Fail Effects (option adversary_attacks)"
                )
    if not 1 <= len(pcs) <= MAX_PCS:
        raise RulesError(f"Initiative needs 1..{MAX_PCS} PCs, not {len(pcs)}")
    out = tuple(entrant(pc, state, options) for pc in pcs)
    seen: set[str] = set()
    for e in out:
        if e.id.lower() in seen:
            raise RulesError(f"two PCs are named {e.id!r}: Initiative needs distinct names")
        seen.add(e.id.lower())
        if options.initiative_ties == "characteristic" and e.characteristic_modifier is None:
            raise RulesError(
                f"ties broken by characteristic need {e.name}'s characteristic modifier"
            )
    return out


# ---------------------------------------------------------------------------
# ordering


def partition(totals: Sequence[tuple[str, int]]) -> Steps:
    """Names grouped by equal value, highest first (given order inside a group)."""
    values = sorted({t for _, t in totals}, reverse=True)
    return tuple(tuple(n for n, t in totals if t == v) for v in values)


def settle(steps: Steps, chm: Mapping[str, int | None], ties: str) -> Steps:
    """Break ties without dice: by characteristic modifier (still tied: simultaneous), or
    not at all ('simultaneous': the tied PCs share a step, the referee orders them)."""
    if ties != "characteristic":
        return steps
    out: list[tuple[str, ...]] = []
    for step in steps:
        out += partition([(n, chm[n] or 0) for n in step]) if len(step) > 1 else [step]
    return tuple(out)


def flatten(steps: Steps) -> tuple[str, ...]:
    """The order as one list (tied PCs in the order given)."""
    return tuple(n for step in steps for n in step)


# ---------------------------------------------------------------------------
# rolling


@dataclass(frozen=True)
class InitiativeRoll:
    """One PC's Initiative roll: faces, the kept ones, and the total."""

    entrant: Entrant
    faces: tuple[int, ...]
    total: int

    @property
    def kept(self) -> tuple[int, ...]:
        """Indices of the two kept dice."""
        return kept_indices(self.faces, self.entrant.steps)

    def dice(self) -> tuple[DieRoll, ...]:
        """The faces as dice (dropped ones marked)."""
        kept = set(self.kept)
        return tuple(DieRoll(f, 6, i in kept) for i, f in enumerate(self.faces))

    def data(self) -> dict[str, Any]:
        """JSON data."""
        return {
            "id": self.entrant.id,
            "name": self.entrant.name,
            "faces": list(self.faces),
            "kept": [i in self.kept for i in range(len(self.faces))],
            "dice": sum(self.faces[i] for i in self.kept),
            "modifier": self.entrant.modifier,
            "advantage": self.entrant.steps,
            "initiative": self.total,
        }


Take = Callable[[Entrant], InitiativeRoll]


def reroll(
    group: tuple[str, ...], by_id: Mapping[str, Entrant], take: Take, log: list[Any]
) -> Steps:
    """Tied PCs roll again only to order themselves, until no tie is left (at most
    :data:`MAX_REROLLS` times a group, then it stays tied)."""
    for _ in range(MAX_REROLLS):
        rolls = [take(by_id[n]) for n in group]
        log.append(rolls)
        parts = partition([(r.entrant.id, r.total) for r in rolls])
        if len(parts) > 1:
            out: list[tuple[str, ...]] = []
            for p in parts:
                out += [p] if len(p) == 1 else reroll(p, by_id, take, log)
            return tuple(out)
    return (group,)


def order_of(
    totals: Sequence[tuple[str, int]], es: Sequence[Entrant], ties: str, take: Take, log: list[Any]
) -> Steps:
    """The turn order from the Initiatives, ties broken by the ``initiative_ties`` rule."""
    steps = partition(totals)
    if ties != "reroll":
        return settle(steps, {e.id: e.characteristic_modifier for e in es}, ties)
    by_id = {e.id: e for e in es}
    out: list[tuple[str, ...]] = []
    for step in steps:
        out += [step] if len(step) == 1 else reroll(step, by_id, take, log)
    return tuple(out)


def _concat(d: Distribution[Steps], more: Distribution[Steps]) -> Distribution[Steps]:
    return d.combine(more, lambda x, y: (*x, *y))


def _group_order(
    group: tuple[str, ...],
    by_id: Mapping[str, Entrant],
    cache: dict[tuple[str, ...], Distribution[Steps]],
) -> Distribution[Steps]:
    """The order a tied group ends in by rerolling: its rolls given they are not all
    equal (the rerolls repeat the same roll), with any smaller tie rerolled in turn."""
    if group not in cache:
        rolls = joint(*(by_id[n].procedure.odds() for n in group))
        split = rolls.condition(lambda ts: len(set(ts)) > 1)
        cache[group] = split.bind(
            lambda ts: _rerolled(partition(list(zip(group, ts, strict=True))), by_id, cache)
        )
    return cache[group]


def _rerolled(
    steps: Steps, by_id: Mapping[str, Entrant], cache: dict[tuple[str, ...], Distribution[Steps]]
) -> Distribution[Steps]:
    out: Distribution[Steps] = Distribution.constant(())
    for step in steps:
        single: Steps = (step,)
        part = Distribution.constant(single) if len(step) == 1 else _group_order(step, by_id, cache)
        out = _concat(out, part)
    return out


class _Order(Dice[Steps]):
    """Breaking the ties of rolled Initiatives as a dice program: rerolls (``reroll``)
    are made and recorded; the exact odds are the order given no tie left (the rerolls
    repeat the same roll; the safeguard of :data:`MAX_REROLLS` rerolls is ignored, its
    chance being below 10^-18)."""

    __slots__ = ("es", "ties", "totals")

    def __init__(self, totals: tuple[tuple[str, int], ...], es: tuple[Entrant, ...], ties: str):
        self.totals, self.es, self.ties = totals, es, ties

    def sample(self, roller: Roller, trace: list[tuple[int, ...]]) -> Steps:
        def take(e: Entrant) -> InitiativeRoll:
            faces, total = e.procedure.roll(roller)
            trace.append(faces)
            return InitiativeRoll(e, faces, total)

        return order_of(self.totals, self.es, self.ties, take, [])

    def odds(self) -> Distribution[Steps]:
        steps = partition(self.totals)
        if self.ties != "reroll":
            return Distribution.constant(
                settle(steps, {e.id: e.characteristic_modifier for e in self.es}, self.ties)
            )
        return _rerolled(steps, {e.id: e for e in self.es}, {})

    def brute(self) -> Distribution[Steps]:
        steps = partition(self.totals)
        if self.ties == "reroll" and any(len(s) > 1 for s in steps):
            raise OddsTooComplex("rerolled ties cannot be enumerated (unbounded rerolls)")
        return self.odds()

    def first_dice(self) -> tuple[tuple[int, int], ...]:
        return ()


def _label(rolls: Sequence[InitiativeRoll], steps: Steps) -> str:
    total = {r.entrant.id: r.total for r in rolls}
    return " > ".join(" = ".join(f"{n} {total[n]}" for n in step) for step in steps)


def plan_initiative(action: RollInitiative, state: State, options: Options) -> Plan:
    """Roll Initiative for every PC and order the turns (descending Initiative); the
    encounter's first round begins with every budget full. The odds report the turn
    order (up to 4 PCs), or with ``report='totals'`` each PC's Initiative."""
    es = entrants(action, state, options)
    ties = options.initiative_ties
    rolled: Dice[tuple[int, ...]] = Dice.pure(())
    for e in es:
        rolled = rolled.pair(Dice.of(e.procedure)).map(lambda t: (*t[0], t[1]))
    ids = tuple(e.id for e in es)

    def order(totals: tuple[int, ...]) -> Dice[tuple[tuple[int, ...], Steps]]:
        pairs = tuple(zip(ids, totals, strict=True))
        return _Order(pairs, es, ties).map(lambda steps: (totals, steps))

    program = rolled.bind(order)

    def view(result: tuple[tuple[int, ...], Steps]) -> Hashable:
        totals, steps = result
        return tuple(zip(ids, totals, strict=True)) if action.report == "totals" else steps

    def finish(result: tuple[tuple[int, ...], Steps], trace: Trace) -> Outcome:
        totals, steps = result
        entries: Iterator[tuple[int, ...]] = iter(trace)
        rolls = [InitiativeRoll(e, next(entries), t) for e, t in zip(es, totals, strict=True)]
        log: list[list[InitiativeRoll]] = []

        def take(e: Entrant) -> InitiativeRoll:
            faces = next(entries)
            return InitiativeRoll(e, faces, e.procedure.apply(faces))

        order_of(tuple(zip(ids, totals, strict=True)), es, ties, take, log)
        dice = [d for r in rolls for d in r.dice()]
        dice += [d for group in log for r in group for d in r.dice()]
        details: dict[str, Any] = {
            "pcs": [{**r.data(), "sources": [str(m) for m in r.entrant.modifiers]} for r in rolls],
            "order": list(flatten(steps)),
            "steps": [list(s) for s in steps],
            "ties": ties,
            "rerolls": [[r.data() for r in group] for group in log],
        }
        if ties == "reroll" and any(len(step) > 1 for step in steps):
            details["unbroken_ties"] = [list(step) for step in steps if len(step) > 1]
        changes = Changes(state)
        changes.table("order", value=[list(s) for s in steps])
        changes.table("round", value=1)
        for r in rolls:
            if r.entrant.id in state.characters:
                seat = state.character(r.entrant.id)
                changes.set(r.entrant.id, "initiative", r.total, "Initiative")
                if seat.minor_left != MINOR_ACTIONS or seat.free_taken:
                    changes.set(r.entrant.id, "minor_left", MINOR_ACTIONS, "the encounter begins")
                    changes.set(r.entrant.id, "free_taken", 0, "the encounter begins")
        return Outcome(
            SYSTEM,
            "initiative",
            faces=tuple(dice),
            label=_label(rolls, steps),
            changes=changes.build(),
            details=details,
        )

    plan = Plan.of(program, finish, view)
    if len(es) <= MAX_ODDS_PCS:
        return plan

    def too_many() -> Distribution[Hashable]:
        raise OddsTooComplex(
            f"exact turn-order odds take at most {MAX_ODDS_PCS} PCs (pairwise odds take any)"
        )

    return Plan(plan.resolve, too_many, too_many, plan.dice)


def plan_end_encounter(action: EndEncounter, state: State, options: Options) -> Plan:
    """The encounter ends: no turn order, no round, no Initiative or aim kept."""
    changes = Changes(state)
    changes.table("order", value=[])
    changes.table("round", value=0)
    for cid, seat in state.characters.items():
        if seat.initiative is not None:
            changes.set(cid, "initiative", None, "the encounter ended")
        if seat.aim:
            changes.set(cid, "aim", 0, "the encounter ended: the aim is lost")
    return Plan.fixed(
        Outcome(SYSTEM, "end-encounter", label="The encounter ends", changes=changes.build())
    )


def initiative_entry(text: str) -> dict[str, Any]:
    """``NAME:MOD[:CHM]``: a PC rolling Initiative without a sheet, by their whole
    modifier (and characteristic modifier, for ties)."""
    who, *numbers = [p.strip() for p in text.split(":")]
    if len(numbers) not in (1, 2) or not who:
        raise RulesError("write NAME:MOD or NAME:MOD:CHM")
    if not all(t.lstrip("-").isdigit() for t in numbers):
        raise RulesError("MOD and CHM are whole numbers")
    mod, *chm = [int(t) for t in numbers]
    return {"who": who, "modifier": mod, "characteristic_modifier": chm[0] if chm else None}


def initiative_odds(rules: Any, action: Any, state: Any, options: Any) -> dict[str, Any]:
    """Each PC's Initiative, who acts first of each pair and (up to 4 PCs) the whole
    order, all from the ruleset's odds of Initiative rolls."""
    from dataclasses import replace

    from referee.dice.odds import fraction_text

    es = entrants(action, state, options)

    def weigh(pcs: Any, report: str = "order") -> Any:
        return rules.odds(replace(action, pcs=pcs, report=report), state, options)

    totals = {
        e.name: weigh((pc,), "totals").map(lambda t: t[0][1])
        for e, pc in zip(es, action.pcs, strict=True)
    }
    pairs = []
    for i, j in ((m, n) for m in range(len(es)) for n in range(m + 1, len(es))):
        two, a, b = weigh((action.pcs[i], action.pcs[j])), es[i].id, es[j].id
        steps = {"p_first": ((a,), (b,)), "p_second": ((b,), (a,)), "p_tie": ((a, b),)}
        pairs.append(
            {"first": es[i].name, "second": es[j].name}
            | {k: fraction_text(two.probability(v)) for k, v in steps.items()}
        )
    order = weigh(action.pcs) if len(es) <= MAX_ODDS_PCS else None
    return {"initiative": totals, "pairs": pairs, "order": order, "ties": options.initiative_ties}


def initiative_odds_data(odds: Mapping[str, Any]) -> dict[str, Any]:
    """``{"initiative": {PC: {total: p}}, "pairs": [...], "order": {"A > B": p} | None}``."""
    from referee.dice.odds import fraction_text

    def said(steps: Any) -> str:
        return " > ".join(" = ".join(s) for s in steps)

    order = odds["order"]
    shown = (
        None
        if order is None
        else {said(o): fraction_text(p) for o, p in order.probabilities().items()}
    )
    return {
        "initiative": {
            n: {str(v): fraction_text(q) for v, q in d.probabilities().items()}
            for n, d in odds["initiative"].items()
        },
        "pairs": odds["pairs"],
        "order": shown,
    }
