"""Survival rolls, first aid, surgery and the clock as Outcomes (Mneme CE ch. 7).

Survival rolls and medical checks are checks built by :func:`resolve.build`, so
their odds come from the same procedure that rolls them.
"""

from __future__ import annotations

from referee.dice.odds import Distribution
from referee.dice.roller import Roller, is_manual
from referee.errors import RulesError
from referee.systems.base import Change, Outcome
from referee.systems.mneme.actions import Check, FirstAid, PassTime, Surgery, SurvivalRoll
from referee.systems.mneme.health import condition, pass_time
from referee.systems.mneme.medical import (
    first_aid_difficulty,
    first_aid_heal,
    surgery_allowed,
    surgery_result,
)
from referee.systems.mneme.options import Options
from referee.systems.mneme.resolve import SYSTEM, _base_details, _faces, build
from referee.systems.mneme.sheet import Character
from referee.systems.mneme.tables import INTENSIVE_CARE_DIFFICULTY, SURGERY_DIFFICULTY

SURVIVAL_KINDS = ("dying", "massive", "intensive")
MEDIC_CHARACTERISTIC = "Edu"
"""Ruling: Medic checks add the Edu modifier (the texts name only the skill)."""


def _need(state: Character | None, what: str) -> Character:
    if state is None:
        raise RulesError(f"{what} needs a character sheet")
    return state


def survival_check(action: SurvivalRoll, options: Options) -> Check:
    """The End roll for dying (4), massive damage (8) or intensive care (8)."""
    if action.kind not in SURVIVAL_KINDS:
        raise RulesError(f"unknown survival roll {action.kind!r}; known: dying, massive, intensive")
    difficulty = {
        "dying": options.dying_difficulty,
        "massive": options.massive_damage_difficulty,
        "intensive": INTENSIVE_CARE_DIFFICULTY,
    }[action.kind]
    return Check(difficulty=difficulty, modifiers=action.modifiers, characteristic="End")


def resolve_survival(
    action: SurvivalRoll, state: Character | None, roller: Roller, options: Options
) -> Outcome:
    """Dying: fail = dead. Massive damage: fail = dead (option: Dying), success = Crippled.
    Intensive care: success heals 2, failure calls for a dying roll."""
    character = _need(state, "a survival roll")
    built = build(survival_check(action, options), character, options)
    faces, effect = built.procedure.roll(roller)
    details = _base_details(built, faces, effect)
    ok = effect >= 0
    changes: list[Change] = []
    if action.kind == "dying":
        label = "Still alive" if ok else "Dead"
        if not ok:
            changes.append(Change("self", "conditions", value="Dead", reason="failed dying roll"))
    elif action.kind == "massive":
        if ok:
            label = "Survived, crippled"
            changes.append(Change("self", "conditions", value="Crippled", reason="massive damage"))
        elif options.massive_damage_kills:
            label = "Dead"
            changes.append(Change("self", "conditions", value="Dead", reason="massive damage"))
        else:
            label = "Dying"
    else:
        heal = min(options.intensive_care_heal, character.damage)
        label = f"Healed {heal}" if ok else "Dying roll required"
        if ok and heal:
            changes.append(Change("self", "damage", delta=-heal, reason="intensive care"))
        details["dying_roll_required"] = not ok
    return Outcome(
        SYSTEM,
        f"survival-{action.kind}",
        faces=_faces(built, faces),
        modifiers=built.applied,
        target=built.difficulty,
        result=effect,
        success=ok,
        label=label,
        changes=tuple(changes),
        details=details,
        manual=is_manual(roller),
        rolls=roller.records,
    )


def first_aid_check(action: FirstAid) -> Check:
    """Medic check at 8 (another) or 10 (oneself)."""
    return Check(
        difficulty=first_aid_difficulty(action.on_self),
        modifiers=action.modifiers,
        advantage=action.advantage,
        disadvantage=action.disadvantage,
        characteristic=MEDIC_CHARACTERISTIC,
        skill="Medic",
    )


def resolve_first_aid(
    action: FirstAid, state: Character | None, roller: Roller, options: Options
) -> Outcome:
    """First aid heals the Effect (at least 1) on a success, stops Bleeding and
    stabilises a Dying patient for hours equal to their End (ch. 7, First Aid)."""
    medic = _need(state, "first aid")
    built = build(first_aid_check(action), medic, options)
    faces, effect = built.procedure.roll(roller)
    details = _base_details(built, faces, effect)
    heal = first_aid_heal(effect)
    target = "self" if action.on_self else "patient"
    changes: list[Change] = []
    if heal:
        changes += [
            Change(target, "damage", delta=-heal, reason="first aid"),
            Change(target, "conditions", value="-Bleeding", reason="first aid stops bleeding"),
            Change(
                target,
                "conditions",
                value="Stabilised",
                reason="first aid stabilises a Dying character for End hours",
            ),
        ]
    details["healed"] = heal
    label = f"Healed {heal}" if heal else f"Fail Effect {-effect}"
    return Outcome(
        SYSTEM,
        "first-aid",
        faces=_faces(built, faces),
        modifiers=built.applied,
        target=built.difficulty,
        result=effect,
        success=effect >= 0,
        label=label,
        changes=tuple(changes),
        details=details,
        manual=is_manual(roller),
        rolls=roller.records,
    )


def surgery_check(action: Surgery) -> Check:
    """Medic check at Difficulty 8; tools and assistance come in as modifiers."""
    return Check(
        difficulty=SURGERY_DIFFICULTY,
        modifiers=action.modifiers,
        characteristic=MEDIC_CHARACTERISTIC,
        skill="Medic",
    )


def resolve_surgery(
    action: Surgery, state: Character | None, roller: Roller, options: Options
) -> Outcome:
    """Surgery, Difficulty 8 (ch. 7, Surgery)."""
    surgeon = _need(state, "surgery")
    surgery_allowed(action.patient_condition, action.facility)
    built = build(surgery_check(action), surgeon, options)
    faces, effect = built.procedure.roll(roller)
    details = _base_details(built, faces, effect)
    r = surgery_result(effect, surgeon.skill("Medic") or 0, action.patient_end, options)
    details.update(
        healed=r.healed, fail_effect_left=r.fail_effect_left, minutes=r.minutes, harm=r.harm
    )
    changes: list[Change] = []
    if r.healed:
        changes.append(Change("patient", "damage", delta=-r.healed, reason="surgery"))
    if r.harm:
        changes.append(Change("patient", "damage", delta=r.harm, reason="botched surgery"))
    label = f"Healed {r.healed}" if effect >= 0 else f"Fail Effect {r.fail_effect_left} left"
    return Outcome(
        SYSTEM,
        "surgery",
        faces=_faces(built, faces),
        modifiers=built.applied,
        target=built.difficulty,
        result=effect,
        success=effect >= 0,
        label=label,
        changes=tuple(changes),
        details=details,
        manual=is_manual(roller),
        rolls=roller.records,
    )


def resolve_pass_time(action: PassTime, state: Character | None, options: Options) -> Outcome:
    """The clock: no dice; the changes are the healing table's (see :func:`pass_time`)."""
    c = _need(state, "the clock")
    r = pass_time(
        c,
        days=action.days,
        hours=action.hours,
        minutes=action.minutes,
        activity=action.activity,
        care=action.care,
        therapy=action.therapy,
        options=options,
    )
    after = r.character
    changes = [
        Change("self", "damage", delta=after.damage - c.damage, reason="time passed"),
        Change("self", "healing_progress", value=after.healing_progress),
        Change("self", "therapy_days", value=after.therapy_days),
    ]
    if after.characteristic_damage != c.characteristic_damage:
        changes.append(Change("self", "characteristic_damage", value=after.characteristic_damage))
    details = {
        "healed": r.healed,
        "bled": r.bled,
        "therapy": r.therapy,
        "notes": list(r.notes),
        "damage": after.damage,
        "condition": condition(after, options),
        "healing_progress": after.healing_progress,
    }
    return Outcome(
        SYSTEM,
        "pass-time",
        result=after.damage,
        label=condition(after, options),
        changes=tuple(changes),
        details=details,
    )


def apply_clock(action: PassTime, state: Character, options: Options) -> Character:
    """The character after the time passes (convenience for callers holding a sheet)."""
    r = pass_time(
        state,
        days=action.days,
        hours=action.hours,
        minutes=action.minutes,
        activity=action.activity,
        care=action.care,
        therapy=action.therapy,
        options=options,
    )
    return r.character


def survival_odds(
    action: SurvivalRoll, state: Character | None, options: Options
) -> Distribution[int]:
    """Exact Effect distribution of a survival roll."""
    return build(
        survival_check(action, options), _need(state, "a survival roll"), options
    ).procedure.odds()
