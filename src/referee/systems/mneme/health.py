"""HP thresholds, injury conditions, and the healing clock (Mneme CE ch. 7).

The clock applies "N hours / days pass" to a character at an activity level
and a care level exactly as the Natural Healing and Medical Care Table says,
keeping the fraction of a point earned toward the next one as state
(``Sheet.healing_progress``), and the days of therapy toward the next
point of characteristic damage (``Sheet.therapy_days``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from referee.errors import IllegalAction, RulesError
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet, canonical_characteristic
from referee.systems.mneme.tables import (
    ACTIVITIES,
    BLEED_MINUTES,
    CARE_FOR,
    CARE_LEVELS,
    HEALING,
    ROUNDS_PER_MINUTE,
    TARGETED,
    THERAPY_DAYS,
)

MAX_HOURS = 24 * 365 * 10
"""Longest span one call to the clock accepts (ten years)."""


@dataclass(frozen=True)
class Thresholds:
    """Damage at which each condition begins for a character."""

    seriously: int
    critically: int
    hp: int


def thresholds(character: Sheet, options: Options) -> Thresholds:
    """Seriously / Critically Wounded thresholds (ch. 7, Injury Conditions; option:
    the HP threshold table's best physical characteristic and twice it)."""
    hp = character.hp
    if options.hp_thresholds == "chapter":
        return Thresholds(hp // 3, (2 * hp) // 3, hp)
    best = character.best_physical
    return Thresholds(best, 2 * best, hp)


def condition_for(damage: int, t: Thresholds, exhausted: bool = False) -> str:
    """The HP condition for a damage total: Unhurt, Wounded, Seriously Wounded,
    Critically Wounded (damage <= HP) or Dying (damage > HP). ``exhausted``: the character
    has damage from exhaustion, which makes them Wounded at least (ch. 7, Wounded)."""
    if damage <= 0:
        return "Wounded" if exhausted else "Unhurt"
    if damage > t.hp:
        return "Dying"
    if damage >= t.critically:
        return "Critically Wounded"
    if damage >= t.seriously:
        return "Seriously Wounded"
    return "Wounded"


def condition(character: Sheet, options: Options) -> str:
    """The character's HP condition now."""
    t = thresholds(character, options)
    return condition_for(character.damage, t, character.exhaustion > 0)


def bleeds_from(single_roll: int, character: Sheet, options: Options) -> bool:
    """Bleeding: one damage roll at or above the Seriously Wounded threshold (ch. 7)."""
    return single_roll > 0 and single_roll >= thresholds(character, options).seriously


def targeted_threshold(location: str, hp: int) -> Fraction:
    """Damage one attack must deal to a location for its effect: the share of HP as an
    exact fraction, with no rounding (ch. 7, Targeted Damage: limbs >= 1/3 HP, extremities,
    head and vitals >= 1/10 HP): at HP 25 a limb needs 25/3, so 8 damage is not enough."""
    if location not in TARGETED:
        raise RulesError(f"unknown location {location!r}; known: {', '.join(TARGETED)}")
    share, _ = TARGETED[location]
    return share * hp


def targeted_effect(location: str, damage: int, hp: int) -> str | None:
    """Crippled / Stunned / Bleeding when the damage one attack dealt to the location
    reaches its threshold (compared exactly; no damage has no effect)."""
    if damage > 0 and damage >= targeted_threshold(location, hp):
        return TARGETED[location][1]
    return None


def movement_data(cond: str) -> dict[str, object]:
    """Movement as an outcome reports it: ``{"speed": "3/4", "dash": false}`` (ch. 7,
    Seriously Wounded: 3/4 speed, no Dash; Critically Wounded and Dying: immobile)."""
    speed, dash = movement(cond)
    return {"speed": f"{speed.numerator}/{speed.denominator}", "dash": dash}


def movement(cond: str) -> tuple[Fraction, bool]:
    """Movement speed factor and whether the character may Dash (ch. 7, Injury Conditions):
    Seriously Wounded moves at 3/4 and cannot Dash; Critically Wounded and Dying characters
    are out (Unconscious, immobile)."""
    if cond in ("Critically Wounded", "Dying"):
        return Fraction(0), False
    if cond == "Seriously Wounded":
        return Fraction(3, 4), False
    return Fraction(1), True


def with_condition(character: Sheet, name: str, present: bool) -> Sheet:
    """The character with a stored condition added or removed."""
    have = name in character.conditions
    if present and not have:
        return replace(character, conditions=(*character.conditions, name))
    if not present and have:
        return replace(character, conditions=tuple(c for c in character.conditions if c != name))
    return character


# ---------------------------------------------------------------------------
# healing


def care_adequate(cond: str, care: str) -> bool:
    """Whether the care given is at least the level the condition needs ('+ Care')."""
    if care not in CARE_LEVELS:
        raise RulesError(f"unknown care level {care!r}; known: {', '.join(CARE_LEVELS)}")
    need = CARE_FOR[cond]
    return need != "none" and CARE_LEVELS.index(care) >= CARE_LEVELS.index(need)


def healing_rate(cond: str, activity: str, care: str) -> tuple[int, int] | None:
    """Damage healed per days, ``None`` for none (ch. 7, Natural Healing and Medical Care
    Table). Strenuous activity heals nothing; an immobile character (Critically Wounded,
    Dying) cannot be active, strenuously or not."""
    if activity not in ACTIVITIES:
        raise RulesError(f"unknown activity {activity!r}; known: {', '.join(ACTIVITIES)}")
    cared = care_adequate(cond, care) if cond != "Unhurt" else False
    if cond == "Unhurt":
        return None
    # strenuous is beyond moderate activity: immobile when moderate is, else no healing
    rate = HEALING[cond][("moderate" if activity == "strenuous" else activity, cared)]
    if activity == "strenuous" and rate != "immobile":
        return None
    if rate == "immobile":
        raise IllegalAction(f"a {cond} character is immobile: only full rest is possible")
    assert rate is None or isinstance(rate, tuple)
    return rate


@dataclass(frozen=True)
class ClockResult:
    """The character after time passes, and what happened (for the table's log)."""

    character: Sheet
    healed: int
    bled: int
    therapy: int
    notes: tuple[str, ...]
    dying_rolls_due: int = 0


@dataclass(frozen=True)
class Segment:
    """Dying rolls due at one damage total: ``rounds`` rounds from round ``start`` (0-based)
    of the span."""

    damage: int
    rounds: int
    start: int


def dying_rolls_replaced(care: str) -> bool:
    """Intensive care replaces the per-round dying rolls by its own (ruling: a Dying
    character 'requires Intensive Care', whose rolls, if any, lead to a dying roll)."""
    return care == "intensive"


def first_due_round(
    character: Sheet, options: Options, care: str = "none", offset: int = 0
) -> int | None:
    """The first round (0-based) in which a dying roll falls due, ``None`` if never
    (ch. 7, Dying): while Dying, every round, after first aid's stabilisation runs out; a
    Bleeding character becomes Dying after the minutes it takes to bleed past HP.
    ``offset``: rounds already gone of the character's current minute."""
    if character.dead or dying_rolls_replaced(care):
        return None
    hp = thresholds(character, options).hp
    stab = stabilised_rounds(character, offset)
    if character.damage > hp:
        return stab
    if "Bleeding" not in character.conditions:
        return None
    minutes = (hp + 1 - character.damage) * BLEED_MINUTES
    return max(stab, minutes * ROUNDS_PER_MINUTE - offset)


def stabilised_rounds(character: Sheet, offset: int = 0) -> int:
    """Rounds of first-aid stabilisation left (End hours from the first aid), ``offset``
    rounds of the current minute being gone already."""
    if "Stabilised" not in character.conditions:
        return 0
    return max(0, character.stabilised_minutes * ROUNDS_PER_MINUTE - offset)


def due_segments(
    character: Sheet, rounds: int, options: Options, care: str = "none", offset: int = 0
) -> Iterator[Segment]:
    """The dying rolls due over the next ``rounds`` rounds, grouped by the damage the
    character has when each falls due (ch. 7, Dying; Bleeding: +1 damage at the end of
    each minute, so the wound penalty grows; ``offset`` rounds of the current minute are
    gone already). Lazy: a roller stops at the first failure."""
    first = first_due_round(character, options, care, offset)
    if first is None or first >= rounds:
        return
    hp = thresholds(character, options).hp
    bleeding = "Bleeding" in character.conditions
    per_minute = ROUNDS_PER_MINUTE * BLEED_MINUTES
    r = first
    while r < rounds:
        done = (offset + r) // per_minute
        damage = character.damage + (done if bleeding else 0)
        end = min(rounds, (done + 1) * per_minute - offset) if bleeding else rounds
        if damage > hp:
            yield Segment(damage, end - r, r)
        r = end


def pass_time(
    character: Sheet,
    *,
    hours: int = 0,
    days: int = 0,
    minutes: int = 0,
    activity: str = "full_rest",
    care: str = "none",
    therapy: str | None = None,
    supervised: bool = True,
    offset: int = 0,
    options: Options,
) -> ClockResult:
    """Apply a span of time to a character (ch. 7, Healing and Recovery).

    * Bleeding (not stopped by first aid) adds 1 damage per minute, and the character
      does not heal while bleeding.
    * Otherwise damage heals at the table's rate for the current condition, activity and
      care; progress toward the next point is kept, the rate re-read after each point
      (a character healing from Seriously Wounded to Wounded speeds up).
    * Strenuous activity loses the progress toward the next point.
    * First aid's stabilisation counts down; when it runs out the dying rolls resume
      and the character needs medical treatment. It ends early when the character is
      no longer Dying. ``Awake`` ends when the character is no longer Critically Wounded.
    * Dying rolls that fall due are counted (``dying_rolls_due``) and noted; this pure
      clock never rolls them (:mod:`referee.systems.mneme.dying` does).
    * Therapy reduces one characteristic's damage by 1 per 3 days, once damage is healed.

    ``offset``: rounds already gone of the character's current minute.
    """
    total_minutes = minutes + 60 * hours + 24 * 60 * days
    if min(minutes, hours, days) < 0:
        raise RulesError("time cannot run backwards")
    if total_minutes > MAX_HOURS * 60:
        raise RulesError(f"at most {MAX_HOURS // 24} days may pass at once")
    if character.dead:
        raise IllegalAction(f"{character.name} is dead")
    if care not in CARE_LEVELS:
        raise RulesError(f"unknown care level {care!r}; known: {', '.join(CARE_LEVELS)}")
    if activity not in ACTIVITIES:
        raise RulesError(f"unknown activity {activity!r}; known: {', '.join(ACTIVITIES)}")
    notes: list[str] = []
    c = character
    rounds = total_minutes * ROUNDS_PER_MINUTE
    first = first_due_round(c, options, care, offset)
    due = 0 if first is None else max(0, rounds - first)
    if due and first is not None:
        notes.append(f"Dying: {due} dying roll(s) due, one per round from round {first + 1}")
    if condition(c, options) == "Dying" and not dying_rolls_replaced(care):
        notes.append("Dying characters require intensive care (medical treatment)")
    if dying_rolls_replaced(care) and not supervised and condition(c, options) != "Unhurt":
        notes.append(
            "unsupervised intensive care: End rolls at 8 are due (success heals 2, "
            "failure calls for a dying roll)"
        )
    bled = 0
    healed = 0
    days_left = Fraction(0)
    if "Bleeding" in c.conditions:
        bled = total_minutes // BLEED_MINUTES
        c = replace(c, damage=c.damage + bled, healing_progress=Fraction(0))
        notes.append(f"bleeding: +{bled} damage")
    else:
        c, healed, days_left = _heal(c, total_minutes, activity, care, options, notes)
    c = _stabilisation(c, total_minutes, options, notes)
    if c.exhaustion:
        c = recover_exhaustion(c, total_minutes, activity, care, options, notes)
    if "Awake" in c.conditions and condition(c, options) != "Critically Wounded":
        c = with_condition(c, "Awake", False)
        notes.append("no longer Critically Wounded: Awake ends")
    therapy_done = 0
    if therapy is not None and not bled:
        c, therapy_done, note = _therapy(c, therapy, days_left, total_minutes, healed)
        notes.append(note)
    return ClockResult(c, healed, bled, therapy_done, tuple(notes), due)


def _heal(
    c: Sheet,
    total_minutes: int,
    activity: str,
    care: str,
    options: Options,
    notes: list[str],
) -> tuple[Sheet, int, Fraction]:
    """Heal at the table's rate; returns the character, points healed and days left over."""
    days_left = Fraction(total_minutes, 24 * 60)
    healed = 0
    progress = c.healing_progress
    damage = c.damage
    if activity == "strenuous" and damage:
        progress = Fraction(0)
        notes.append("strenuous activity: healing progress lost")
    while damage > 0 and days_left > 0:
        cond = condition_for(damage, thresholds(replace(c, damage=damage), options))
        rate = healing_rate(cond, activity, care)
        if rate is None:
            break
        points, per_days = rate
        per_point = Fraction(per_days, points)  # days per point
        needed = (1 - progress) * per_point
        if days_left >= needed:
            days_left -= needed
            damage -= 1
            healed += 1
            progress = Fraction(0)
        else:
            progress += days_left / per_point
            days_left = Fraction(0)
    if damage == 0:
        progress = Fraction(0)
    if healed:
        notes.append(f"healed {healed} damage")
    return replace(c, damage=damage, healing_progress=progress), healed, days_left


def recover_exhaustion(
    c: Sheet, total_minutes: int, activity: str, care: str, options: Options, notes: list[str]
) -> Sheet:
    """Damage from exhaustion heals at the Wounded rates of the healing table for the
    activity and care (ch. 7: the character "can be considered Wounded from damage from
    Exhaustion"), beside any other damage; strenuous activity loses the progress. Psionic
    Strength spent comes back with it: Psi damage never exceeds the Psionic Points the
    exhaustion left still stands for (``psionic_exhaustion`` per point)."""
    if activity == "strenuous":
        notes.append("strenuous activity: exhaustion recovery lost")
        return replace(c, exhaustion_progress=Fraction(0))
    rate = healing_rate("Wounded", activity, care)
    if rate is None:
        return c
    points, per_days = rate
    gained = c.exhaustion_progress + Fraction(total_minutes, 24 * 60) * points / per_days
    recovered = min(c.exhaustion, int(gained))
    left = c.exhaustion - recovered
    progress = gained - int(gained) if left else Fraction(0)
    out = replace(c, exhaustion=left, exhaustion_progress=progress)
    if not recovered:
        return out
    notes.append(f"exhaustion: -{recovered}")
    k = options.psionic_exhaustion
    psi = c.characteristic_damage.get("Psi", 0)
    restored = min(psi, -(-c.exhaustion // k) - (-(-left // k)))
    if restored:
        damage = dict(c.characteristic_damage)
        damage["Psi"] = psi - restored
        if not damage["Psi"]:
            del damage["Psi"]
        out = replace(out, characteristic_damage=damage)
        notes.append(f"Psionic Strength: +{restored}")
    return out


def _stabilisation(c: Sheet, total_minutes: int, options: Options, notes: list[str]) -> Sheet:
    """Count first aid's stabilisation down (ch. 7, Dying: Stabilization)."""
    if "Stabilised" not in c.conditions:
        return c
    if condition(c, options) != "Dying":
        notes.append("no longer Dying: stabilisation ends")
        return replace(with_condition(c, "Stabilised", False), stabilised_minutes=0)
    left = c.stabilised_minutes - total_minutes
    if left <= 0:
        notes.append(
            f"stabilisation ran out after {c.stabilised_minutes} minute(s): dying rolls "
            "resume every round and the character needs medical treatment (intensive care)"
        )
        return replace(with_condition(c, "Stabilised", False), stabilised_minutes=0)
    notes.append(f"stabilised for {left} more minute(s)")
    return replace(c, stabilised_minutes=left)


def _therapy(
    c: Sheet, name: str, days_left: Fraction, total_minutes: int, healed: int
) -> tuple[Sheet, int, str]:
    """1 point of characteristic damage per 3 days of therapy, after full healing."""
    key = canonical_characteristic(name)
    if c.damage > 0:
        return c, 0, "therapy: no progress until damage is fully healed"
    # whole days of therapy after healing finished (days spent healing do not count)
    available = days_left if healed else Fraction(total_minutes, 24 * 60)
    days = c.therapy_days + int(available)
    owed = c.characteristic_damage.get(key, 0)
    points = min(owed, days // THERAPY_DAYS)
    days = 0 if points == owed else days - points * THERAPY_DAYS
    left = dict(c.characteristic_damage)
    if points:
        left[key] = owed - points
        if not left[key]:
            del left[key]
    return (
        replace(c, characteristic_damage=left, therapy_days=days),
        points,
        f"therapy: {key} damage -{points}",
    )
