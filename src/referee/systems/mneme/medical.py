"""Medical treatment: first aid, surgery, medical care and its capacity, intensive care
(Mneme CE ch. 7, Medical Treatment, Medical Care, Care Levels).

These are the pure rules; the checks themselves are resolved by the ruleset with
the same check procedure as every other roll.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from referee.errors import IllegalAction, RulesError
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import MAX_VALUE, Sheet
from referee.systems.mneme.tables import CARE_FOR, CARE_LOAD, FIRST_AID_DIFFICULTY

MAX_MEDIC = 20


def first_aid_difficulty(on_self: bool) -> int:
    """8 on another character, 10 on oneself (ch. 7, First Aid)."""
    return FIRST_AID_DIFFICULTY["self" if on_self else "other"]


def first_aid_heal(effect: int) -> int:
    """Damage first aid removes: the Effect of the Medic check, at least 1, on a success."""
    return max(1, effect) if effect >= 0 else 0


def stabilisation_minutes(patient: Sheet) -> int:
    """First aid stops a Dying character's rolls for hours equal to their End (current
    value, after characteristic damage): ch. 7, First Aid; Dying: Stabilization."""
    return 60 * max(0, patient.characteristic("End"))


def first_aid_rounds_left(remaining: int, effect: int, total: int) -> int:
    """One round of the first-aid task (ch. 7, First Aid: Time Reduction).

    The round itself passes; a Success Effect cuts that many more rounds; a Fail Effect
    loses that much progress (never more than was made: at most ``total`` remain).
    """
    if effect >= 0:
        return max(0, remaining - 1 - effect)
    return min(total, remaining - 1 - effect)


@dataclass(frozen=True)
class SurgeryResult:
    """What one surgery check does (ch. 7, Surgery)."""

    healed: int
    fail_effect_left: int
    minutes: int
    harm: int


def surgery_result(effect: int, medic: int, end: int, options: Options) -> SurgeryResult:
    """Surgery: a success heals twice the Success Effect; a failure's Fail Effect is
    reduced by Medic skill, what is left multiplies the time (option ``surgery_time``:
    x (1 + left) by default, or x left), and a
    remainder above half the character's End harms them by twice that remainder."""
    _patient_end(end)
    base = options.surgery_minutes
    if effect >= 0:
        return SurgeryResult(2 * effect, 0, base, 0)
    left = max(0, -effect - max(0, medic))
    harm = 2 * left if 2 * left > end else 0
    factor = 1 + left if options.surgery_time == "one_plus" else max(1, left)
    return SurgeryResult(0, left, base * factor, harm)


def _medic_level(level: int, who: str = "Medic level") -> int:
    if not 0 <= level <= MAX_MEDIC:
        raise RulesError(f"{who} must be 0..{MAX_MEDIC}, not {level}")
    return level


def care_capacity(medic: int, options: Options, *, supervisor_medic: int | None = None) -> int:
    """Light-care patients one caregiver can care for: 8 at Medic 0, doubling per level;
    a supervising Medic of level 2+ doubles it again, a lower supervisor adds nothing
    (ch. 7, Medical Care: Capacity)."""
    base = options.care_capacity_base << _medic_level(medic)
    if supervisor_medic is not None and _medic_level(supervisor_medic, "supervisor's Medic") >= 2:
        return base * 2
    return base


def monitoring_capacity(medic: int, options: Options) -> int:
    """Light-care patients a character can monitor a day: 32 at Medic 0 (ch. 7, Light
    Care); ruling: doubling per Medic level like the care capacity."""
    return options.monitoring_base << _medic_level(medic)


def care_level(condition: str) -> str:
    """The care level a condition needs (light, moderate, serious, intensive, or none)."""
    if condition not in CARE_FOR:
        raise RulesError(f"unknown condition {condition!r}")
    return CARE_FOR[condition]


def patient_load(conditions: Iterable[str]) -> int:
    """Light-care equivalents of a ward (moderate = 2, serious = 4, intensive = 8)."""
    return sum(CARE_LOAD.get(care_level(c), 0) for c in conditions)


def intensive_care_needs_roll(supervisor_medic: int, equipped: bool) -> bool:
    """Intensive care without Medic 2+ supervision (with tools, help and resources) needs
    a Difficulty 8 End roll (ch. 7, Intensive Care). An AI sickbay counts as Medic 2."""
    return not (supervisor_medic >= 2 and equipped)


def _patient_end(end: int) -> None:
    if not 0 <= end <= MAX_VALUE:
        raise RulesError(f"the patient's End must be 0..{MAX_VALUE}, not {end}")


def surgery_allowed(condition: str, facility: bool, end: int | None = None) -> None:
    """Surgery needs a hospital or sickbay; it is for Seriously Wounded or worse."""
    if condition not in CARE_FOR:
        raise RulesError(f"unknown condition {condition!r}; known: {', '.join(CARE_FOR)}")
    if end is not None:
        _patient_end(end)
    if not facility:
        raise IllegalAction("surgery requires a hospital or sickbay")
    if condition in ("Unhurt", "Wounded"):
        raise IllegalAction(f"a {condition} character does not need surgery")


UNSUPERVISED_NOTE = (
    "intensive care needs a Medic 2+ or an AI sickbay supervising: without one, the "
    "patient rolls End at 8 (success heals 2, failure calls for a dying roll)"
)
"""What a table is told when intensive care lacks its supervision (ch. 7, Intensive Care)."""


def supervised(medic: int, supervisor_medic: int | None, ai_sickbay: bool) -> bool:
    """Whether intensive care has the supervision it requires: a Medic 2+ character (the
    caregiver or a supervisor) or an AI sickbay (ch. 7, Intensive Care)."""
    return ai_sickbay or max(medic, supervisor_medic or 0) >= 2
