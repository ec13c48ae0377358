"""Character-creation rules: every broken rule of a sheet, each with its reference.

Mongrel, Character Creation (Identity, Attributes, Expertise, Powers) as read
by RULINGS.md. The Expertise steps are checked against the recorded step
choices when the sheet has them; otherwise every legal choice of the four
steps is searched and, when none reproduces the sheet, the closest legal build
is reported Expertise by Expertise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from referee.errors import Problem

from .options import Options
from .sheet import CreationSteps, Sheet, attribute, derived, identity_now
from .sheet import level as level_now
from .tables import (
    AGES,
    ATTRIBUTES,
    BODY_FORMS,
    EXPERTISE,
    HOUSES,
    IDENTITIES,
    IDENTITY_POINTS,
    MAX_REPLACEMENT_LIMBS,
    PAIR_SUM,
    PAIRS,
    POWER,
    POWERS,
    SEXES,
    TRACK,
    TRACK_HIGH,
    TRACK_LOW,
)

R_IDENTITY = "Mongrel: Character Creation, Identity"
R_FORM = "Mongrel: Character Creation, Identity (body form)"
R_ATTR = "Mongrel: Character Creation, Attributes"
R_SEX = "Mongrel: Character Creation, Attributes (sex guideline)"
R_AGE = "Mongrel: Character Creation, Attributes (age)"
R_OLD_IGNORED = "Mongrel: Character Creation, Attributes (old with the sex guideline ignored)"
R_LOWER = "Mongrel: Character Creation, Attributes (lowering)"
R_TRACK = "Mongrel: Physical damage (the Size/Physique table runs 1 to 7)"
R_EXPERTISE = "Mongrel: Character Creation, Expertise"
R_STEP1 = "Mongrel: Character Creation, Expertise step 1"
R_STEPS = "Mongrel: Character Creation, Expertise steps 2-4"
R_POWER_PRIMARY = "Mongrel: Character Creation, Expertise (Power only for the primary Identity)"
R_POWERS = "Mongrel: Character Creation, Powers"
R_HOUSE = "Mongrel: The Seven Houses"
R_CREDIT = "Mongrel: Character wealth and social status"
R_POINTS = "Mongrel: Character points"
R_MAX_SCORE = "Mongrel: Task Resolution, design notes (maximum score variant)"


def audit(sheet: Sheet, options: Options | None = None) -> tuple[tuple[Problem, str | None], ...]:
    """Every problem with the approval reason that covers it (``None`` if unapproved)."""
    out = []
    for p in problems(sheet, options):
        reason = next(
            (a.reason for a in sheet.approvals if a.rule == p.rule and a.field == p.field),
            None,
        )
        out.append((p, reason))
    return tuple(out)


def unapproved(sheet: Sheet, options: Options | None = None) -> tuple[Problem, ...]:
    """The problems no referee approval on the sheet covers."""
    return tuple(p for p, reason in audit(sheet, options) if reason is None)


def problems(sheet: Sheet, options: Options | None = None) -> tuple[Problem, ...]:
    """Every broken creation rule, in sheet order (``options``: the table's variants)."""
    out: list[Problem] = []
    out += _identity(sheet)
    out += _attributes(sheet)
    out += _lowering(sheet)
    out += _on_the_table(sheet)
    out += _choices(sheet)
    out += _expertise(sheet)
    out += _powers(sheet)
    out += _wealth(sheet)
    out += _advances(sheet)
    if options is not None and options.max_score is not None:
        out += _max_score(sheet, options.max_score)
    return tuple(out)


def _max_score(sheet: Sheet, top: int) -> Iterable[Problem]:
    """The design-note variant: no creation score above ``top``."""
    scores = [
        *((f"identity.{n}", sheet.identity.score(n)) for n in IDENTITIES),
        *((f"attributes.{a}", sheet.attributes.get(a)) for a in ATTRIBUTES),
        *((f"expertise.{e}", v) for e, v in sheet.expertise.items()),
    ]
    for where, value in scores:
        if value > top:
            yield Problem(R_MAX_SCORE, where, f"the table's maximum score is {top}", value)


# -- Identity ---------------------------------------------------------------


def _identity(sheet: Sheet) -> Iterable[Problem]:
    ident = sheet.identity
    scores = {n: ident.score(n) for n in IDENTITIES}
    for n, v in scores.items():
        if v < 0:
            yield Problem(R_IDENTITY, f"identity.{n}", "an Identity score cannot be negative", v)
    total = sum(scores.values())
    if total != IDENTITY_POINTS:
        yield Problem(
            R_IDENTITY, "identity", f"Identity scores must total {IDENTITY_POINTS}", total
        )
    zeros = [n for n, v in scores.items() if v == 0]
    if len(zeros) > 1:
        yield Problem(R_IDENTITY, "identity", "at most one Identity may be 0", zeros)
    if ident.primary not in IDENTITIES:
        yield Problem(R_IDENTITY, "identity.primary", "unknown Identity", ident.primary)
        return
    if scores[ident.primary] != max(scores.values()):
        yield Problem(
            R_IDENTITY,
            "identity.primary",
            "the primary Identity must be a highest score",
            ident.primary,
        )
    allowed = form_choices(sheet.identity)
    if sheet.form not in allowed:
        yield Problem(
            R_FORM, "form", f"the body form must be one of {', '.join(allowed)}", sheet.form
        )


def form_choices(ident: object) -> tuple[str, ...]:
    """Body forms the primary Identity allows (a Primary-Demon's follows its next Identity)."""
    from .sheet import Identity

    assert isinstance(ident, Identity)
    if ident.primary != "demon":
        return BODY_FORMS.get(ident.primary, ())
    if ident.man > ident.beast:
        return BODY_FORMS["man"]
    if ident.beast > ident.man:
        return BODY_FORMS["beast"]
    return BODY_FORMS["demon"]


# -- Attributes -------------------------------------------------------------


def sex_guideline_kept(physique: int, beauty: int, sex: str) -> bool:
    """Male: Physique above Beauty; female: Beauty above Physique."""
    return physique > beauty if sex == "male" else beauty > physique


# the attribute rules creation, the builder's choices and a raise all hold to


def primary_rule(primary: str, size: int, spirit: int) -> Problem | None:
    """The primary Identity's rule on Size and Spirit, if these break it."""
    if primary == "man" and (size, spirit) != (4, 4):
        return Problem(
            R_ATTR, "attributes.size", "Primary-Man: Size and Spirit are both 4", (size, spirit)
        )
    if primary == "beast" and not size > spirit:
        return Problem(
            R_ATTR, "attributes.size", "Primary-Beast: Size must exceed Spirit", (size, spirit)
        )
    if primary == "demon" and not spirit > size:
        return Problem(
            R_ATTR, "attributes.spirit", "Primary-Demon: Spirit must exceed Size", (spirit, size)
        )
    return None


def guideline_rule(ignored: bool, social: int) -> Problem | None:
    """With the sex guideline ignored, Social is at most 4: the problem if it is more."""
    if ignored and social > 4:
        why = "the sex guideline is ignored, so Social cannot exceed 4"
        return Problem(R_SEX, "attributes.social", why, social)
    return None


def age_rule(age: str, speed: int, social: int) -> Problem | None:
    """Young: Speed above Social; old: Social above Speed. The problem, if broken."""
    if age == "young" and not speed > social:
        return Problem(R_AGE, "attributes.speed", "young: Speed must exceed Social", speed)
    if age == "old" and not social > speed:
        return Problem(R_AGE, "attributes.social", "old: Social must exceed Speed", social)
    return None


def _attributes(sheet: Sheet) -> Iterable[Problem]:
    a = sheet.attributes
    for name in ATTRIBUTES:
        if a.get(name) < 0:
            yield Problem(
                R_ATTR, f"attributes.{name}", "an attribute cannot be negative", a.get(name)
            )
    for x, y in PAIRS:
        if a.get(x) + a.get(y) != PAIR_SUM:
            yield Problem(
                R_ATTR,
                f"attributes.{x}",
                f"{x.title()} + {y.title()} must be {PAIR_SUM}",
                a.get(x) + a.get(y),
            )
    ignored = not sex_guideline_kept(a.physique, a.beauty, sheet.sex)
    old_ignored = sheet.age == "old" and ignored
    # old with the guideline ignored: Social taken at 4, Speed lowered (checked below)
    age = None if old_ignored else age_rule(sheet.age, a.speed, a.social)
    primary = primary_rule(sheet.identity.primary, a.size, a.spirit)
    yield from (p for p in (primary, guideline_rule(ignored, a.social), age) if p is not None)
    if old_ignored:
        if a.social != 4:
            yield Problem(R_OLD_IGNORED, "attributes.social", "Social must be taken at 4", a.social)
        if attribute(sheet, "speed") > 3:
            yield Problem(
                R_OLD_IGNORED,
                "lowered.speed",
                "Speed must be lowered to 3 or less",
                attribute(sheet, "speed"),
            )


def _lowering(sheet: Sheet) -> Iterable[Problem]:
    for name, amount in sheet.lowered.items():
        if name not in ATTRIBUTES:
            yield Problem(R_LOWER, f"lowered.{name}", "not an attribute", name)
        elif amount < 0:
            yield Problem(R_LOWER, f"lowered.{name}", "attributes may only be lowered", amount)
        elif amount > sheet.attributes.get(name):
            yield Problem(R_LOWER, f"lowered.{name}", "cannot lower below 0", amount)


def _on_the_table(sheet: Sheet) -> Iterable[Problem]:
    """Size and Physique stay on the Size/Physique table (1 to 7): as chosen, after
    voluntary lowering, and after character-point raises (Mongrel, Physical damage).
    A negative value or a lowering past 0 is already reported by the attribute rules."""
    for name in TRACK:
        chosen = sheet.attributes.get(name)
        down = sheet.lowered.get(name, 0)
        title = name.title()
        if chosen == 0 or chosen > TRACK_HIGH:
            yield Problem(
                R_TRACK, f"attributes.{name}", f"{title} is {TRACK_LOW} to {TRACK_HIGH}", chosen
            )
        elif chosen > 0 and 0 <= down <= chosen and chosen - down < TRACK_LOW:
            yield Problem(
                R_TRACK, f"lowered.{name}", f"{title} cannot be lowered below {TRACK_LOW}", down
            )
        elif attribute(sheet, name) > TRACK_HIGH >= chosen:
            yield Problem(
                R_TRACK,
                f"raised.{name}",
                f"{title} cannot be raised above {TRACK_HIGH}",
                attribute(sheet, name),
            )


def _choices(sheet: Sheet) -> Iterable[Problem]:
    if sheet.sex not in SEXES:
        yield Problem(R_ATTR, "sex", "sex is male or female", sheet.sex)
    if sheet.age not in AGES:
        yield Problem(R_AGE, "age", "age is young, adult or old", sheet.age)
    if sheet.house not in HOUSES:
        yield Problem(R_HOUSE, "house", f"the House is one of {', '.join(HOUSES)}", sheet.house)


# -- Expertise --------------------------------------------------------------


def candidates(primary: str) -> tuple[str, ...]:
    """Expertises steps 2-4 may raise: all but the other Identities' Powers."""
    return tuple(e for e in EXPERTISE if EXPERTISE[e][1] is not None or e == POWER[primary])


def step1(primary: str) -> dict[str, int]:
    """Step 1: 1 in every Expertise of the primary Identity (its Power included)."""
    return {e: (1 if ident == primary else 0) for e, (ident, _) in EXPERTISE.items()}


def step2_bonus(pair: tuple[str, ...]) -> dict[str, int]:
    """Step 2: +3 to the two chosen, +1 once to every other Expertise in their Area(s)."""
    areas = {EXPERTISE[e][1] for e in pair} - {None}
    out = dict.fromkeys(EXPERTISE, 0)
    for e, (_, area) in EXPERTISE.items():
        if e in pair:
            out[e] = 3
        elif area in areas:
            out[e] = 1
    return out


def build(
    primary: str, s2: tuple[str, ...], s3: tuple[str, ...], s4: tuple[str, ...]
) -> dict[str, int]:
    """The Expertise levels four step choices give (no legality check)."""
    out = step1(primary)
    for e, v in step2_bonus(s2).items():
        out[e] += v
    for e in s3:
        out[e] += 2
    for e in s4:
        out[e] += 1
    return out


@dataclass(frozen=True)
class Build(CreationSteps):
    """A legal choice of steps 2-4 (as a sheet records them) and the levels it gives."""

    levels: dict[str, int]
    distance: int


def closest_build(primary: str, levels: dict[str, int]) -> Build:
    """The legal build nearest to ``levels`` (sum of absolute differences; ties: first found)."""
    cands = candidates(primary)
    base1 = step1(primary)
    best: Build | None = None
    for s2 in combinations(cands, 2):
        bonus = step2_bonus(s2)
        resid = {e: levels.get(e, 0) - base1[e] - bonus[e] for e in EXPERTISE}
        base = sum(abs(r) for r in resid.values())
        rest = [e for e in cands if e not in s2]

        def gain(e: str, v: int, resid: dict[str, int] = resid) -> int:
            return abs(resid[e]) - abs(resid[e] - v)

        top2 = sorted(rest, key=lambda e: -gain(e, 2))[:4]
        top1 = sorted(rest, key=lambda e: -gain(e, 1))[:4]
        pool = list(dict.fromkeys(top2 + top1))
        for s3 in combinations(pool, 2):
            g3 = gain(s3[0], 2) + gain(s3[1], 2)
            for s4 in combinations([e for e in pool if e not in s3], 2):
                d = base - g3 - gain(s4[0], 1) - gain(s4[1], 1)
                if best is None or d < best.distance:
                    best = Build(s2, s3, s4, build(primary, s2, s3, s4), d)
        if best is not None and best.distance == 0:
            break
    assert best is not None
    return best


def max_level(expertise: str, primary: str) -> int:
    """The highest level the creation steps can give an Expertise (4 primary, 3 other)."""
    ident, area = EXPERTISE[expertise]
    if area is None and ident != primary:
        return 0
    return 4 if ident == primary else 3


def _expertise(sheet: Sheet) -> Iterable[Problem]:
    primary = sheet.identity.primary
    if primary not in IDENTITIES:
        return
    flagged: set[str] = set()
    for name, value in sheet.expertise.items():
        if name not in EXPERTISE:
            flagged.add(name)
            yield Problem(R_EXPERTISE, f"expertise.{name}", "unknown Expertise", name)
        elif value < 0:
            flagged.add(name)
            yield Problem(R_EXPERTISE, f"expertise.{name}", "cannot be negative", value)
    for e, (ident, area) in EXPERTISE.items():
        v = sheet.expertise.get(e, 0)
        if area is None and ident != primary and v > 0:
            flagged.add(e)
            yield Problem(
                R_POWER_PRIMARY,
                f"expertise.{e}",
                f"only the primary Identity's Power ({POWER[primary]}) may be taken",
                v,
            )
        elif ident == primary and v < 1:
            flagged.add(e)
            yield Problem(R_STEP1, f"expertise.{e}", "step 1 gives it at least 1", v)
        elif v > max_level(e, primary):
            flagged.add(e)
            yield Problem(
                R_STEPS,
                f"expertise.{e}",
                f"unreachable: the steps give it at most {max_level(e, primary)}",
                v,
            )
    levels = {e: v for e, v in sheet.expertise.items() if e in EXPERTISE}
    if sheet.steps is not None:
        yield from _recorded_steps(sheet, levels, flagged)
        return
    best = closest_build(primary, levels)
    if best.distance == 0:
        return
    yield Problem(
        R_STEPS,
        "expertise",
        "no choice of steps 2-4 gives these levels; closest legal build: step 2 "
        f"{' + '.join(best.step2)}, step 3 {' + '.join(best.step3)}, "
        f"step 4 {' + '.join(best.step4)}",
        best.distance,
    )
    for e in EXPERTISE:
        v = levels.get(e, 0)
        if e not in flagged and v != best.levels[e]:
            yield Problem(
                R_STEPS,
                f"expertise.{e}",
                f"the closest legal build gives {best.levels[e]}",
                v,
            )


def _recorded_steps(sheet: Sheet, levels: dict[str, int], flagged: set[str]) -> Iterable[Problem]:
    steps = sheet.steps
    assert steps is not None
    primary = sheet.identity.primary
    allowed = set(candidates(primary))
    seen: set[str] = set()
    ok = True
    for label, chosen in steps.by_step():
        field_ = f"steps.{label}"
        if len(chosen) != 2 or len(set(chosen)) != 2:
            ok = False
            yield Problem(R_STEPS, field_, "choose two different Expertises", list(chosen))
        for e in chosen:
            if e not in allowed:
                ok = False
                yield Problem(R_STEPS, field_, "not an Expertise this character may raise", e)
            elif e in seen:
                ok = False
                yield Problem(R_STEPS, field_, "already chosen in an earlier step", e)
        seen |= set(chosen)
    if not ok:
        return
    expected = build(primary, steps.step2, steps.step3, steps.step4)
    for e in EXPERTISE:
        v = levels.get(e, 0)
        if e not in flagged and v != expected[e]:
            yield Problem(R_STEPS, f"expertise.{e}", f"the recorded steps give {expected[e]}", v)


# -- Powers, wealth ---------------------------------------------------------


def _powers(sheet: Sheet) -> Iterable[Problem]:
    primary = sheet.identity.primary
    if primary not in IDENTITIES:
        return
    allowed = POWERS[primary]
    for name, points in sheet.powers.items():
        if name not in allowed:
            yield Problem(
                R_POWERS,
                f"powers.{name}",
                f"not on the {POWER[primary]} list ({', '.join(allowed)})",
                name,
            )
        if points < 1:
            yield Problem(R_POWERS, f"powers.{name}", "a power needs at least 1 point", points)
        if name == "Replacement limb" and points > MAX_REPLACEMENT_LIMBS:
            yield Problem(R_POWERS, f"powers.{name}", "1 point per limb, four limbs", points)
    total = sum(sheet.powers.values())
    level = level_now(sheet, POWER[primary])
    if total != level:
        yield Problem(
            R_POWERS,
            "powers",
            f"the points allocated must equal {POWER[primary]} ({level})",
            total,
        )


def _advances(sheet: Sheet) -> Iterable[Problem]:
    """Character-point changes: known names, Expertise only raised, scores not below 0."""
    for name, amount in sheet.expertise_raised.items():
        where = f"expertise_raised.{name}"
        if name not in EXPERTISE:
            yield Problem(R_POINTS, where, "unknown Expertise", name)
        elif amount < 0:
            yield Problem(R_POINTS, where, "character points only raise Expertise", amount)
        elif amount and EXPERTISE[name][1] is None and name != POWER.get(sheet.identity.primary):
            yield Problem(R_POWER_PRIMARY, where, "only the primary Identity's Power", amount)
    for name in sheet.identity_raised:
        if name not in IDENTITIES:
            yield Problem(R_POINTS, f"identity_raised.{name}", "not an Identity", name)
    if all(n in IDENTITIES for n in sheet.identity_raised):
        now = identity_now(sheet)
        for n in IDENTITIES:
            if now.score(n) < 0:
                yield Problem(
                    R_POINTS, f"identity_raised.{n}", "an Identity cannot go below 0", now.score(n)
                )


def _wealth(sheet: Sheet) -> Iterable[Problem]:
    if sheet.credit is not None:
        for house, amount in sheet.credit.items():
            if house not in HOUSES:
                yield Problem(R_CREDIT, f"credit.{house}", "not a House", house)
            if amount < 0:
                yield Problem(R_CREDIT, f"credit.{house}", "Credit cannot be negative", amount)
    if sheet.character_points < 0:
        yield Problem(R_POINTS, "character_points", "cannot be negative", sheet.character_points)


def validation_data(sheet: Sheet, found: Sequence[tuple[Problem, str | None]], valid: bool) -> Any:
    """A sheet's validation as JSON: valid, the derived scores, every problem (with the
    referee's approval, if any)."""
    problems: list[dict[str, Any]] = [
        {"rule": p.rule, "field": p.field, "message": p.message}
        | {"value": p.value if isinstance(p.value, int | str) else str(p.value)}
        | {"approved": reason}
        for p, reason in found
    ]
    return {"valid": valid, "derived": derived(sheet), "problems": problems}


def validation_lines(sheet: Sheet, found: Sequence[tuple[Problem, str | None]]) -> list[str]:
    """The derived scores, then every problem (an approved one with its reason)."""
    scores = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in derived(sheet).items())
    lines = [f"{sheet.name}: {scores}"]
    return lines + [f"{p}" + (f"  (approved: {r})" if r else "") for p, r in found]
