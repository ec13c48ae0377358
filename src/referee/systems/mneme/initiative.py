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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution, joint
from referee.dice.roller import Roller, is_manual
from referee.errors import OddsTooComplex, RulesError
from referee.systems.base import Modifier, Outcome, Procedure
from referee.systems.mneme.actions import Check, InitiativePC, RollInitiative
from referee.systems.mneme.checks import MAX_MODIFIER, check_procedure, kept_indices
from referee.systems.mneme.options import Options
from referee.systems.mneme.resolve import SYSTEM, build

MAX_PCS = 20
"""Most PCs in one Initiative roll (bounds untrusted input)."""
MAX_ODDS_PCS = 4
"""Most PCs whose whole turn order has exact odds (pairwise odds have no such limit)."""
MAX_REROLLS = 20
"""Rerolls of one tied group before it is left simultaneous (``reroll`` ties)."""

Steps = tuple[tuple[str, ...], ...]
"""A turn order: steps of names, first step first; the names in one step are tied."""


@dataclass(frozen=True)
class Entrant:
    """A PC ready to roll: name, the modifiers that apply, net Advantage steps and the
    characteristic modifier (for ties broken by characteristic)."""

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
        return initiative_procedure(self.modifier, self.steps)


def initiative_procedure(modifier: int, steps: int = 0) -> Procedure[int, int]:
    """Initiative = 2d6 (3d6 keeping two for a net Advantage / Disadvantage) + modifier:
    the check's procedure against Difficulty 0 (companion facts, turn economy)."""
    return check_procedure(modifier, 0, steps)


def relevant_skill(known: Mapping[str, int], candidates: Sequence[str]) -> str:
    """The best of the relevant skills the PC has; unskilled, the first candidate."""
    levels = {k.lower(): v for k, v in known.items()}
    have = [(levels[c.lower()], c) for c in candidates if c.lower() in levels]
    return max(have, key=lambda t: t[0])[1] if have else candidates[0]


def entrant(pc: InitiativePC, options: Options) -> Entrant:
    """The PC's Initiative modifiers: from the sheet (characteristic modifier, the best
    relevant skill, wound penalty) or as given."""
    check = Check(difficulty=0, advantage=pc.advantage, disadvantage=pc.disadvantage)
    if pc.sheet is None:
        if pc.characteristic or pc.skill:
            raise RulesError(f"Initiative for {pc.name!r}: a characteristic or skill needs a sheet")
        if not pc.name.strip():
            raise RulesError("a PC rolling Initiative needs a name")
        for what, v in (("modifier", pc.modifier), ("ChM", pc.characteristic_modifier or 0)):
            if abs(v) > MAX_MODIFIER:
                raise RulesError(f"Initiative {what} of {pc.name!r} must be within ±{MAX_MODIFIER}")
        built = build(check, None, options)
        mods = (Modifier(pc.modifier, "Initiative modifier", "competence"),) if pc.modifier else ()
        return Entrant(pc.name.strip(), mods, built.steps, pc.characteristic_modifier)
    if pc.modifier or pc.characteristic_modifier is not None:
        raise RulesError(f"Initiative for {pc.name or pc.sheet.name!r}: a sheet or a modifier")
    sheet = pc.sheet
    characteristic = pc.characteristic or options.initiative_characteristic
    skill = pc.skill or relevant_skill(sheet.skills, options.initiative_skills)
    check = Check(
        difficulty=0,
        advantage=pc.advantage,
        disadvantage=pc.disadvantage,
        characteristic=characteristic,
        skill=skill,
    )
    built = build(check, sheet, options)
    name = pc.name.strip() or sheet.name
    return Entrant(name, built.applied, built.steps, sheet.modifier(characteristic))


def entrants(action: RollInitiative, options: Options) -> tuple[Entrant, ...]:
    """Every PC of the roll, checked: 1..20 PCs, distinct names, and a characteristic
    modifier for each when ties go by characteristic."""
    if not 1 <= len(action.pcs) <= MAX_PCS:
        raise RulesError(f"Initiative needs 1..{MAX_PCS} PCs, not {len(action.pcs)}")
    out = tuple(entrant(pc, options) for pc in action.pcs)
    seen: set[str] = set()
    for e in out:
        if e.name.lower() in seen:
            raise RulesError(f"two PCs are named {e.name!r}: Initiative needs distinct names")
        seen.add(e.name.lower())
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

    name: str
    faces: tuple[int, ...]
    steps: int
    modifier: int
    total: int

    @property
    def kept(self) -> tuple[int, ...]:
        """Indices of the two kept dice."""
        return kept_indices(self.faces, self.steps)

    def dice(self) -> tuple[DieRoll, ...]:
        """The faces as dice (dropped ones marked)."""
        kept = set(self.kept)
        return tuple(DieRoll(f, 6, i in kept) for i, f in enumerate(self.faces))

    def data(self) -> dict[str, Any]:
        """JSON data."""
        return {
            "name": self.name,
            "faces": list(self.faces),
            "kept": [i in self.kept for i in range(len(self.faces))],
            "dice": sum(self.faces[i] for i in self.kept),
            "modifier": self.modifier,
            "advantage": self.steps,
            "initiative": self.total,
        }


def roll_one(e: Entrant, roller: Roller) -> InitiativeRoll:
    """Roll one PC's Initiative."""
    faces, total = e.procedure.roll(roller)
    return InitiativeRoll(e.name, faces, e.steps, e.modifier, total)


def _reroll(
    group: tuple[str, ...],
    by_name: Mapping[str, Entrant],
    roller: Roller,
    log: list[list[InitiativeRoll]],
) -> Steps:
    """Tied PCs roll again only to order themselves, until no tie is left."""
    for _ in range(MAX_REROLLS):
        rolls = [roll_one(by_name[n], roller) for n in group]
        log.append(rolls)
        parts = partition([(r.name, r.total) for r in rolls])
        if len(parts) > 1:
            out: list[tuple[str, ...]] = []
            for p in parts:
                out += [p] if len(p) == 1 else _reroll(p, by_name, roller, log)
            return tuple(out)
    return (group,)


def _label(rolls: Sequence[InitiativeRoll], steps: Steps) -> str:
    total = {r.name: r.total for r in rolls}
    return " > ".join(" = ".join(f"{n} {total[n]}" for n in step) for step in steps)


def resolve_initiative(
    action: RollInitiative, state: object, roller: Roller, options: Options
) -> Outcome:
    """Roll Initiative for every PC and order the turns (descending Initiative)."""
    es = entrants(action, options)
    rolls = [roll_one(e, roller) for e in es]
    ties = options.initiative_ties
    steps = partition([(r.name, r.total) for r in rolls])
    log: list[list[InitiativeRoll]] = []
    if ties == "reroll":
        by_name = {e.name: e for e in es}
        broken: list[tuple[str, ...]] = []
        for step in steps:
            broken += [step] if len(step) == 1 else _reroll(step, by_name, roller, log)
        steps = tuple(broken)
    else:
        steps = settle(steps, {e.name: e.characteristic_modifier for e in es}, ties)
    dice = [d for r in rolls for d in r.dice()]
    dice += [d for group in log for r in group for d in r.dice()]
    details: dict[str, Any] = {
        "pcs": [
            {**r.data(), "sources": [str(m) for m in e.modifiers]}
            for r, e in zip(rolls, es, strict=True)
        ],
        "order": list(flatten(steps)),
        "steps": [list(s) for s in steps],
        "ties": ties,
        "rerolls": [[r.data() for r in group] for group in log],
    }
    if ties == "reroll" and any(len(step) > 1 for step in steps):
        details["unbroken_ties"] = [list(step) for step in steps if len(step) > 1]
    return Outcome(
        SYSTEM,
        "initiative",
        faces=tuple(dice),
        label=_label(rolls, steps),
        details=details,
        manual=is_manual(roller),
        rolls=roller.records,
    )


# ---------------------------------------------------------------------------
# exact odds


def initiative_odds(pc: InitiativePC, options: Options) -> Distribution[int]:
    """Exact distribution of one PC's Initiative (the same rule as the roll)."""
    return entrant(pc, options).procedure.odds()


def compare(a: int, b: int) -> str:
    """'first' when A's Initiative is higher, 'second' when B's is, else 'tie'."""
    return "first" if a > b else "second" if a < b else "tie"


def break_pair(d: Distribution[str], a: Entrant, b: Entrant, ties: str) -> Distribution[str]:
    """Apply the tie rule to a comparison of A and B: rerolls repeat until the tie breaks
    (so the result is the comparison given no tie); by characteristic, the higher ChM."""
    if ties == "reroll":
        return d.condition(lambda o: o != "tie")
    if ties == "characteristic":
        ca, cb = a.characteristic_modifier, b.characteristic_modifier
        if ca is None or cb is None:
            raise RulesError("ties broken by characteristic need both characteristic modifiers")
        if ca != cb:
            winner = "first" if ca > cb else "second"
            return d.map(lambda o: winner if o == "tie" else o)
    return d


@dataclass(frozen=True)
class Precedence:
    """P(A acts before B), P(B before A) and P(they tie and act together)."""

    first: Fraction
    second: Fraction
    tie: Fraction


def precedence(a: InitiativePC, b: InitiativePC, options: Options) -> Precedence:
    """The exact chance that PC A acts before PC B, after, or at the same step."""
    ea, eb = entrant(a, options), entrant(b, options)
    d = break_pair(
        ea.procedure.odds().combine(eb.procedure.odds(), compare),
        ea,
        eb,
        options.initiative_ties,
    )
    return Precedence(
        Fraction(d.probability("first")),
        Fraction(d.probability("second")),
        Fraction(d.probability("tie")),
    )


def _concat(d: Distribution[Steps], more: Distribution[Steps]) -> Distribution[Steps]:
    return d.combine(more, lambda x, y: (*x, *y))


def _group_order(
    group: tuple[str, ...],
    by_name: Mapping[str, Entrant],
    cache: dict[tuple[str, ...], Distribution[Steps]],
) -> Distribution[Steps]:
    """The order a tied group ends in by rerolling: its rolls given they are not all
    equal, with any smaller tie rerolled in turn."""
    if group not in cache:
        rolls = joint(*(by_name[n].procedure.odds() for n in group))
        split = rolls.condition(lambda ts: len(set(ts)) > 1)
        cache[group] = split.bind(
            lambda ts: _rerolled(partition(list(zip(group, ts, strict=True))), by_name, cache)
        )
    return cache[group]


def _rerolled(
    steps: Steps,
    by_name: Mapping[str, Entrant],
    cache: dict[tuple[str, ...], Distribution[Steps]],
) -> Distribution[Steps]:
    out: Distribution[Steps] = Distribution.constant(())
    for step in steps:
        single: Steps = (step,)
        part = (
            Distribution.constant(single) if len(step) == 1 else _group_order(step, by_name, cache)
        )
        out = _concat(out, part)
    return out


def order_odds(action: RollInitiative, options: Options) -> Distribution[Steps]:
    """Exact distribution of the whole turn order (up to 4 PCs)."""
    es = entrants(action, options)
    if len(es) > MAX_ODDS_PCS:
        raise OddsTooComplex(
            f"exact turn-order odds take at most {MAX_ODDS_PCS} PCs (pairwise odds take any)"
        )
    names = [e.name for e in es]
    totals = joint(*(e.procedure.odds() for e in es))
    ties = options.initiative_ties
    chm = {e.name: e.characteristic_modifier for e in es}

    def steps_of(ts: tuple[Any, ...]) -> Steps:
        return partition(list(zip(names, ts, strict=True)))

    if ties != "reroll":
        return totals.map(lambda ts: settle(steps_of(ts), chm, ties))
    by_name = {e.name: e for e in es}
    cache: dict[tuple[str, ...], Distribution[Steps]] = {}

    def step_odds(ts: tuple[Any, ...]) -> Distribution[Steps]:
        return _rerolled(steps_of(ts), by_name, cache)

    return totals.bind(step_odds)
