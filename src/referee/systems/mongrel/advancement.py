"""Character points (Mongrel, Character points).

Awards: 1-2 per session played plus 1 for risk taken conforming to a Vow.
Points buy only features used in the previous session; unspent points are
saved. Costs: Expertise = level × 5; Identity = level × 2 when another
Identity drops by 1, else level × 5; Attributes = level × 5 within the
creation constraints (the primary / sex / age rules still hold). Raising a
score from 0 costs as if it were 1 (RULINGS). Raising Social moves the
stored own-House Credit with it (Character wealth and social status).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from referee.errors import IllegalAction, InvalidSheet, Problem

from .sheet import Sheet, attribute, identity_now, level
from .tables import ATTRIBUTES, IDENTITIES, canonical_expertise
from .validation import R_ATTR, sex_guideline_kept
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
    """+1 Expertise for current level × 5 points."""
    exp = canonical_expertise(name)
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
    out = _spend(sheet, cost(cur, 2 if reduce else 5), name, used)
    return replace(out, identity_raised=up)


def raise_attribute(sheet: Sheet, name: str, used: Collection[str]) -> Sheet:
    """+1 attribute for level × 5, refused if it breaks the primary / sex / age rules."""
    if name not in ATTRIBUTES:
        raise IllegalAction(f"unknown attribute {name!r}")
    cur = attribute(sheet, name)
    out = _spend(sheet, cost(cur, 5), name, used)
    out = replace(out, raised={**sheet.raised, name: sheet.raised.get(name, 0) + 1})
    v = {a: attribute(out, a) for a in ATTRIBUTES}
    primary = sheet.identity.primary
    why = ""
    if primary == "man" and name in ("size", "spirit"):
        why = "Primary-Man keeps Size and Spirit at 4"
    elif primary == "beast" and not v["size"] > v["spirit"]:
        why = "Primary-Beast: Size must exceed Spirit"
    elif primary == "demon" and not v["spirit"] > v["size"]:
        why = "Primary-Demon: Spirit must exceed Size"
    elif sex_guideline_kept(sheet.attributes.physique, sheet.attributes.beauty, sheet.sex) and (
        not sex_guideline_kept(v["physique"], v["beauty"], sheet.sex)
    ):
        why = f"{sheet.sex}: the sex guideline would break"
    elif sheet.age == "young" and not v["speed"] > v["social"]:
        why = "young: Speed must exceed Social"
    elif sheet.age == "old" and not v["social"] > v["speed"]:
        why = "old: Social must exceed Speed"
    elif not sex_guideline_kept(v["physique"], v["beauty"], sheet.sex) and v["social"] > 4:
        why = "the sex guideline is ignored, so Social cannot exceed 4"
    if why:
        raise InvalidSheet([Problem(R_ATTR, f"attributes.{name}", why, cur + 1)])
    if name == "social" and out.credit is not None:  # unstored accounts follow Social already
        out = replace(out, credit=social_changed(out.credit, sheet.house, cur, cur + 1))
    return out
