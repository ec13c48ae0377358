"""Character points (Mongrel, Character points).

Awards: 1-2 per session played plus 1 for risk taken conforming to a Vow.
Points buy only features used in the previous session; unspent points are
saved. Costs: Expertise = level × 5; Identity = level × 2 when another
Identity drops by 1, else level × 5; Attributes = level × 5 within the
creation constraints (the primary / sex / age rules still hold). Raising a
score from 0 costs as if it were 1 (RULINGS). The Power Expertise stays with
the primary Identity ("The Power expertise may only be taken for the
Expertise corresponding to the character's Primary Identity"): raising
another Identity's Power is refused with that rule named. Raising Social
moves the stored own-House Credit with it (Character wealth and social status).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Set
from dataclasses import replace
from functools import partial

from referee.errors import IllegalAction, InvalidSheet, Problem
from referee.systems.base import Outcome, Plan

from .actions import ApproveSheet, AwardPoints, RaiseAttribute, RaiseExpertise, RaiseIdentity
from .options import Options
from .scene import SYSTEM, Scene
from .sheet import Approval, Sheet, attribute, identity_now, level
from .state import State
from .tables import ATTRIBUTES, IDENTITIES, POWER, TRACK, TRACK_HIGH, canonical_expertise
from .validation import (
    R_ATTR,
    R_POWER_PRIMARY,
    R_TRACK,
    age_rule,
    guideline_rule,
    primary_rule,
    sex_guideline_kept,
    unapproved,
)
from .wealth import social_changed


def award(session_points: int, vow_risk: bool = False) -> int:
    """Points for one session: 1-2 for playing, +1 for risking oneself for the Vow."""
    if session_points not in (1, 2):
        raise IllegalAction("a session awards 1 or 2 points")
    return session_points + (1 if vow_risk else 0)


def cost(level: int, factor: int) -> int:
    """Current level × factor, a 0 level costing as 1."""
    return max(level, 1) * factor


def _spend(sheet: Sheet, price: int, feature: str, used: Collection[str]) -> Sheet:
    if feature not in used:
        raise IllegalAction(f"{feature} was not used last session")
    if sheet.character_points < price:
        raise IllegalAction(f"{feature} costs {price}; {sheet.character_points} points saved")
    return replace(sheet, character_points=sheet.character_points - price)


def raise_expertise(sheet: Sheet, name: str, used: Collection[str]) -> Sheet:
    """+1 Expertise for current level × 5 points; only the primary Identity's Power."""
    exp = canonical_expertise(name)
    own = POWER[sheet.identity.primary]
    if exp in POWER.values() and exp != own:
        raise IllegalAction(
            f"{exp} is refused: {sheet.name} is {sheet.identity.primary}-primary, whose "
            f"Power is {own} [{R_POWER_PRIMARY}]"
        )
    cur = level(sheet, exp)
    out = _spend(sheet, cost(cur, 5), exp, used)
    up = sheet.expertise_raised
    return replace(out, expertise_raised={**up, exp: up.get(exp, 0) + 1})


def raise_identity(
    sheet: Sheet, name: str, used: Collection[str], reduce: str | None = None
) -> Sheet:
    """+1 Identity: level × 2 if ``reduce`` drops by 1, else level × 5."""
    if name not in IDENTITIES or (
        reduce is not None and (reduce not in IDENTITIES or reduce == name)
    ):
        raise IllegalAction("choose Identities among man, beast, demon (two different ones)")
    now = identity_now(sheet)
    cur = now.score(name)
    up = dict(sheet.identity_raised)
    up[name] = up.get(name, 0) + 1
    if reduce is not None:
        if now.score(reduce) < 1:
            raise IllegalAction(f"{reduce} is already 0")
        up[reduce] = up.get(reduce, 0) - 1
        zeros = [i for i in IDENTITIES if now.score(i) + (i == name) - (i == reduce) == 0]
        if len(zeros) > 1:  # Identity: "One of them, but not two, may be 0"
            raise IllegalAction(
                f"lowering {reduce} to 0 would leave two Identities at 0 "
                f"({' and '.join(zeros)}): one of them, but not two, may be 0"
            )
    out = _spend(sheet, cost(cur, 2 if reduce else 5), name, used)
    return replace(out, identity_raised=up)


def _constraints(sheet: Sheet, v: Mapping[str, int]) -> Iterator[tuple[Set[str], Problem]]:
    """Each Identity / sex / age constraint (Character Creation, Attributes) the attribute
    values ``v`` break, with the attributes that move it further (none for the sex
    guideline: ignoring it is a choice, only breaking a kept one is refused)."""
    kept = sex_guideline_kept(v["physique"], v["beauty"], sheet.sex)
    guideline = Problem(R_ATTR, "", f"{sheet.sex}: the sex guideline would break")
    found: tuple[tuple[Set[str], Problem | None], ...] = (
        ({"size", "spirit"}, primary_rule(sheet.identity.primary, v["size"], v["spirit"])),
        (set(), None if kept else guideline),
        ({"speed", "social"}, age_rule(sheet.age, v["speed"], v["social"])),
        ({"social"}, guideline_rule(not kept, v["social"])),
    )
    yield from ((reads, p) for reads, p in found if p is not None)


def raise_attribute(sheet: Sheet, name: str, used: Collection[str]) -> Sheet:
    """+1 attribute for level × 5 (Improvement: "within the constraints of Identity,
    Gender, or Age"), refused if it breaks one of them or takes Size or Physique off the
    Size/Physique table (1 to 7). A constraint the sheet already breaks (one the referee
    approved) refuses only a raise of an attribute it reads: raising another stays within
    it."""
    if name not in ATTRIBUTES:
        raise IllegalAction(f"unknown attribute {name!r}")
    cur = attribute(sheet, name)
    out = _spend(sheet, cost(cur, 5), name, used)
    out = replace(out, raised={**sheet.raised, name: sheet.raised.get(name, 0) + 1})
    v = {a: attribute(out, a) for a in ATTRIBUTES}
    if name in TRACK and v[name] > TRACK_HIGH:
        why = f"the Size/Physique table runs to {TRACK_HIGH}"
        raise InvalidSheet([Problem(R_TRACK, f"attributes.{name}", why, cur + 1)])
    before = {
        p.message for _, p in _constraints(sheet, {a: attribute(sheet, a) for a in ATTRIBUTES})
    }
    for reads, p in _constraints(sheet, v):
        if p.message not in before or name in reads:
            raise InvalidSheet([Problem(p.rule, f"attributes.{name}", p.message, cur + 1)])
    if name == "social" and out.credit is not None:  # unstored accounts follow Social already
        out = replace(out, credit=social_changed(out.credit, sheet.house, cur, cur + 1))
    return out


# -- plans -------------------------------------------------------------------------


def _sheet_plan(state: State, cid: str, name: str, sheet: Sheet, label: str) -> Plan:
    """A plan that replaces a seated character's sheet (nothing to roll)."""
    sc = Scene(state)
    f = state.character(cid)
    sc.put(cid, replace(f, sheet=sheet))
    points = {"points_before": f.sheet.character_points, "points_left": sheet.character_points}
    return Plan.fixed(Outcome(SYSTEM, name, label=label, changes=sc.changes(name), details=points))


def plan_award_points(action: AwardPoints, state: State, options: Options) -> Plan:
    """A session's points onto the sheet (saved until spent)."""
    f = state.character(action.target)
    got = award(action.points, action.vow_risk)
    sheet = replace(f.sheet, character_points=f.sheet.character_points + got)
    return _sheet_plan(
        state, action.target, "award-points", sheet, f"{f.name} is awarded {got} points"
    )


def _raise_plan(
    state: State,
    actor: str,
    name: str,
    feature: str,
    used: bool,
    raise_: Callable[[Sheet, str, Collection[str]], Sheet],
    score: Callable[[Sheet, str], int],
) -> Plan:
    """``actor`` buys +1 ``feature`` by the rule ``raise_`` (``used``: the feature was used
    last session, as buying asks): the new sheet, labelled with the ``score`` it reaches."""
    f = state.character(actor)
    sheet = raise_(f.sheet, feature, {feature} if used else set())
    label = f"{f.name} raises {feature} to {score(sheet, feature)}"
    return _sheet_plan(state, actor, name, sheet, label)


def _identity(sheet: Sheet, name: str) -> int:
    return identity_now(sheet).score(name)


def plan_raise_expertise(action: RaiseExpertise, state: State, options: Options) -> Plan:
    """+1 Expertise (level × 5; the Power only for the primary Identity)."""
    return _raise_plan(
        state,
        action.actor,
        "raise-expertise",
        action.expertise,
        action.used,
        raise_expertise,
        level,
    )


def plan_raise_identity(action: RaiseIdentity, state: State, options: Options) -> Plan:
    """+1 Identity (level × 2 with another lowered by 1, else × 5)."""
    raise_ = partial(raise_identity, reduce=action.reduce)
    return _raise_plan(
        state, action.actor, "raise-identity", action.identity, action.used, raise_, _identity
    )


def plan_raise_attribute(action: RaiseAttribute, state: State, options: Options) -> Plan:
    """+1 attribute (level × 5) within the primary / sex / age rules."""
    return _raise_plan(
        state,
        action.actor,
        "raise-attribute",
        action.attribute,
        action.used,
        raise_attribute,
        attribute,
    )


def plan_approve_sheet(action: ApproveSheet, state: State, options: Options) -> Plan:
    """The referee approves open problems of a seated character's sheet, with the reason."""
    f = state.character(action.target)
    open_ = unapproved(f.sheet, options)
    known = {p.field for p in open_}
    missing = [x for x in action.fields if x not in known]
    if missing:
        raise IllegalAction(
            f"no open problem at {', '.join(missing)} (open: {', '.join(sorted(known)) or 'none'})"
        )
    chosen = [p for p in open_ if not action.fields or p.field in action.fields]
    added = tuple(Approval(p.rule, p.field, action.reason, action.by) for p in chosen)
    sheet = replace(f.sheet, approvals=(*f.sheet.approvals, *added))
    sc = Scene(state)
    sc.put(action.target, replace(f, sheet=sheet))
    return Plan.fixed(
        Outcome(
            SYSTEM,
            "approve-sheet",
            label=f"{len(added)} problem(s) approved on {f.name}'s sheet",
            changes=sc.changes("approve-sheet"),
            details={
                "approved": [{"rule": p.rule, "field": p.field} for p in chosen],
                "left_open": len(open_) - len(chosen),
            },
        )
    )
