"""Survival rolls, first aid, surgery and the clock as Outcomes (Mneme CE ch. 7).

Survival rolls and medical checks are checks built by :func:`resolve.build`, so
their odds come from the same procedure that rolls them.
"""

from __future__ import annotations

from dataclasses import replace

from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.errors import RulesError
from referee.systems.base import Change, Outcome
from referee.systems.mneme.actions import Check, FirstAid, Surgery, SurvivalRoll
from referee.systems.mneme.health import condition
from referee.systems.mneme.medical import (
    first_aid_difficulty,
    first_aid_heal,
    first_aid_rounds_left,
    intensive_care_needs_roll,
    stabilisation_minutes,
    surgery_allowed,
    surgery_result,
)
from referee.systems.mneme.options import Options
from referee.systems.mneme.resolve import (
    SYSTEM,
    _base_details,
    _faces,
    build,
    check_outcome,
    massive_result,
)
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


def intensive_supervised(action: SurvivalRoll) -> bool:
    """Intensive care under a Medic 2+ supervisor or an AI sickbay, with tools, help and
    resources: no roll (ch. 7, Intensive Care: With Supervision)."""
    medic = action.supervisor_medic if action.supervisor_medic is not None else 0
    if action.ai_sickbay:
        medic = max(medic, 2)
    return not intensive_care_needs_roll(medic, action.equipped)


def survival_label(kind: str, ok: bool, options: Options, heal: int = 0) -> str:
    """What a survival roll's result means (one rule for rolls and odds)."""
    if kind == "dying":
        return "Still alive" if ok else "Dead"
    if kind == "massive":
        return massive_result(ok, options)[0]
    return f"Healed {heal}" if ok else "Dying roll required"


def _intensive_heal(character: Character, options: Options) -> int:
    return min(options.intensive_care_heal, character.damage)


def resolve_survival(
    action: SurvivalRoll, state: Character | None, roller: Roller, options: Options
) -> Outcome:
    """Dying: fail = dead. Massive damage: fail = dead (option: Dying), success = Crippled.
    Intensive care: no roll under supervision; otherwise success heals 2 and a failure
    calls for a dying roll, which is rolled at once (fail = dead)."""
    character = _need(state, "a survival roll")
    if action.kind == "intensive" and intensive_supervised(action):
        return Outcome(
            SYSTEM,
            "survival-intensive",
            success=None,
            label="Supervised intensive care: no roll",
            details={"supervised": True},
        )
    built = build(survival_check(action, options), character, options)
    faces, effect = built.procedure.roll(roller)
    details = _base_details(built, faces, effect)
    all_faces = list(_faces(built, faces))
    ok = effect >= 0
    heal = _intensive_heal(character, options)
    label = survival_label(action.kind, ok, options, heal)
    changes: list[Change] = []
    if action.kind == "dying" and not ok:
        changes.append(Change("self", "conditions", value="Dead", reason="failed dying roll"))
    elif action.kind == "massive":
        changes += massive_result(ok, options)[1]
    elif action.kind == "intensive":
        details["dying_roll_required"] = not ok
        if ok and heal:
            changes.append(Change("self", "damage", delta=-heal, reason="intensive care"))
        if not ok:
            dying = build(survival_check(SurvivalRoll("dying"), options), character, options)
            dfaces, deffect = dying.procedure.roll(roller)
            all_faces += _faces(dying, dfaces)
            details["dying_roll"] = _base_details(dying, dfaces, deffect)
            label = "Dying roll: " + survival_label("dying", deffect >= 0, options)
            if deffect < 0:
                changes.append(
                    Change("self", "conditions", value="Dead", reason="failed dying roll")
                )
    return check_outcome(
        f"survival-{action.kind}",
        built,
        effect,
        roller,
        faces=tuple(all_faces),
        label=label,
        details=details,
        changes=tuple(changes),
        success=ok,
    )


def survival_outcome_odds(
    action: SurvivalRoll, state: Character | None, options: Options
) -> Distribution[str]:
    """Exact distribution of a survival roll's result label (the same rules as
    :func:`resolve_survival`; an intensive-care failure goes on to the dying roll)."""
    character = _need(state, "a survival roll")
    if action.kind == "intensive" and intensive_supervised(action):
        return Distribution.constant("Supervised intensive care: no roll")
    effects = build(survival_check(action, options), character, options).procedure.odds()
    heal = _intensive_heal(character, options)
    first = effects.map(lambda e: survival_label(action.kind, e >= 0, options, heal))
    if action.kind != "intensive":
        return first
    dying = build(survival_check(SurvivalRoll("dying"), options), character, options)
    after = dying.procedure.odds().map(
        lambda e: "Dying roll: " + survival_label("dying", e >= 0, options)
    )
    return first.bind(
        lambda label: after if label == "Dying roll required" else Distribution.constant(label)
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
    stabilises a patient who is still Dying for hours equal to their End (ch. 7, First
    Aid; Dying: Stabilization). Without the patient's sheet the healing is not capped and
    stabilisation cannot be judged (the details say so)."""
    medic = _need(state, "first aid")
    patient = action.patient if action.patient is not None else (medic if action.on_self else None)
    built = build(first_aid_check(action), medic, options)
    faces, effect = built.procedure.roll(roller)
    details = _base_details(built, faces, effect)
    done = True
    if action.rounds_left is not None:
        total = options.first_aid_rounds
        if not 1 <= action.rounds_left <= total:
            raise RulesError(f"rounds_left must be 1..{total}, not {action.rounds_left}")
        left = first_aid_rounds_left(action.rounds_left, effect, total)
        details["rounds_left"] = left
        done = left == 0
    heal = first_aid_heal(effect) if done else 0
    if patient is not None:
        heal = min(heal, patient.damage)
    target = "self" if action.on_self else "patient"
    changes: list[Change] = []
    if effect >= 0 and done:
        if heal:
            changes.append(Change(target, "damage", delta=-heal, reason="first aid"))
        if patient is None or "Bleeding" in patient.conditions:
            changes.append(
                Change(target, "conditions", value="-Bleeding", reason="first aid stops bleeding")
            )
            details["bleeding_stopped"] = True
        if patient is None:
            details["stabilises"] = "unknown: give the patient's sheet"
        else:
            after = replace(patient, damage=patient.damage - heal)
            if condition(after, options) == "Dying":
                minutes = stabilisation_minutes(after)
                details["stabilised_minutes"] = minutes
                changes += [
                    Change(
                        target,
                        "conditions",
                        value="Stabilised",
                        reason="first aid stops the dying rolls for End hours",
                    ),
                    Change(target, "stabilised_minutes", value=minutes),
                ]
    details["healed"] = heal
    if not done:
        label = f"{'Success' if effect >= 0 else 'Fail'} Effect {abs(effect)}: "
        label += f"{details['rounds_left']} round(s) of first aid left"
    elif effect < 0:
        label = f"Fail Effect {-effect}"
    elif "stabilised_minutes" in details:
        label = f"Healed {heal}; stabilised for {details['stabilised_minutes'] // 60} hours"
    else:
        label = f"Healed {heal}"
    return check_outcome(
        "first-aid",
        built,
        effect,
        roller,
        faces=_faces(built, faces),
        label=label,
        details=details,
        changes=tuple(changes),
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
    surgery_allowed(action.patient_condition, action.facility, action.patient_end)
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
    return check_outcome(
        "surgery",
        built,
        effect,
        roller,
        faces=_faces(built, faces),
        label=label,
        details=details,
        changes=tuple(changes),
    )


def survival_odds(
    action: SurvivalRoll, state: Character | None, options: Options
) -> Distribution[int]:
    """Exact Effect distribution of a survival roll."""
    return build(
        survival_check(action, options), _need(state, "a survival roll"), options
    ).procedure.odds()
