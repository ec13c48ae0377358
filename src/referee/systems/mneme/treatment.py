"""Survival rolls, first aid, surgery, stimulants and medical care as plans (Mneme CE
ch. 7, Dying, Massive Damage, Medical Treatment, Medical Care, Critically Wounded).

Survival rolls and medical checks are checks built by :func:`task.build`, so their
odds come from the same procedure that rolls them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.errors import IllegalAction, RulesError
from referee.systems.base import Dice, Outcome, Plan, Trace
from referee.systems.mneme.actions import (
    CareWard,
    CheckInputs,
    FirstAid,
    Stimulant,
    Surgery,
    SurvivalRoll,
)
from referee.systems.mneme.changes import Changes
from referee.systems.mneme.health import condition
from referee.systems.mneme.medical import (
    UNSUPERVISED_NOTE,
    care_capacity,
    care_level,
    first_aid_difficulty,
    first_aid_heal,
    first_aid_rounds_left,
    intensive_care_needs_roll,
    monitoring_capacity,
    patient_load,
    stabilisation_minutes,
    supervised,
    surgery_allowed,
    surgery_result,
)
from referee.systems.mneme.options import Options
from referee.systems.mneme.resolve import (
    MASSIVE_CHOICES,
    condition_report,
    massive_built,
    massive_result,
    plan_fast,
)
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.state import State
from referee.systems.mneme.tables import INTENSIVE_CARE_DIFFICULTY, SURGERY_DIFFICULTY
from referee.systems.mneme.task import SYSTEM, Built, build

SURVIVAL_KINDS = ("dying", "massive", "intensive")
MEDIC_CHARACTERISTIC = "Edu"
"""Ruling: Medic checks add the Edu modifier (the texts name only the skill)."""


def _living(state: State, cid: str) -> Sheet:
    sheet = state.character(cid).sheet
    if sheet.dead:
        raise IllegalAction(f"{sheet.name} is dead")
    return sheet


# ---------------------------------------------------------------------------
# survival rolls


def survival_check(action: SurvivalRoll, options: Options) -> CheckInputs:
    """The End roll for dying (4), massive damage (8) or intensive care (8)."""
    difficulty = {
        "dying": options.dying_difficulty,
        "massive": options.massive_damage_difficulty,
        "intensive": INTENSIVE_CARE_DIFFICULTY,
    }[action.kind]
    return CheckInputs(difficulty=difficulty, modifiers=action.modifiers, characteristic="End")


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


def owes_massive_roll(state: State, cid: str) -> bool:
    """Whether the table waits for ``cid``'s massive-damage End roll (ch. 7)."""
    return state.character(cid).massive_before is not None and any(
        d.actor == cid and d.choices == MASSIVE_CHOICES for d in state.pending
    )


def massive_check(
    action: SurvivalRoll, state: State, sheet: Sheet, options: Options
) -> tuple[Built, int]:
    """The massive-damage End roll (ch. 7, Massive Damage: End at 8 with wound penalties)
    and the damage whose wound penalty it takes. By default (``massive_damage_wounds``
    'before') that is the damage before the hit: the one the table recorded when the hit
    was dealt, or ``damage_before`` for a roll standing alone; with 'after', the damage
    the sheet has now, the hit included."""
    waiting = owes_massive_roll(state, action.actor)
    recorded = state.character(action.actor).massive_before
    given = action.damage_before
    if waiting and given is not None and given != recorded:
        raise IllegalAction(
            f"{sheet.name}'s massive-damage roll is for the hit the table recorded: "
            f"{recorded} damage before it, not {given}"
        )
    if options.massive_damage_wounds == "after":
        return massive_built(sheet, 0, options, action.modifiers), sheet.damage
    before = recorded if waiting else given
    if before is None:
        raise IllegalAction(
            f"a massive-damage roll for {sheet.name} standing alone needs damage_before, "
            "the damage they had before the hit: its wound penalty is the roll's (option "
            "massive_damage_wounds 'before')"
        )
    return massive_built(replace(sheet, damage=before), 0, options, action.modifiers), before


def plan_survival(action: SurvivalRoll, state: State, options: Options) -> Plan:
    """Dying: fail = dead. Massive damage: fail = dead (option: Dying), success =
    Crippled. Intensive care: no roll under supervision; otherwise a success heals 2
    and a failure calls for a dying roll, rolled at once (fail = dead). The odds report
    the result's label."""
    if action.kind not in SURVIVAL_KINDS:
        known = ", ".join(SURVIVAL_KINDS)
        raise RulesError(f"unknown survival roll {action.kind!r}; known: {known}")
    sheet = _living(state, action.actor)
    name = f"survival-{action.kind}"
    if action.kind == "intensive" and intensive_supervised(action):
        return Plan.fixed(
            Outcome(
                SYSTEM,
                name,
                label="Supervised intensive care: no roll",
                details={"supervised": True},
            )
        )
    if action.damage_before is not None and action.kind != "massive":
        raise IllegalAction("damage_before is only for a massive-damage roll (kind massive)")
    waiting = owes_massive_roll(state, action.actor)
    if waiting and action.kind != "massive":
        raise IllegalAction(
            f"{sheet.name} owes the massive-damage End roll first (survival, kind massive)"
        )
    wounds_from: int | None = None
    if action.kind == "massive":
        built, wounds_from = massive_check(action, state, sheet, options)
    else:
        built = build(survival_check(action, options), sheet, options)
    heal = min(options.intensive_care_heal, sheet.damage)
    dying = build(survival_check(SurvivalRoll(action.actor), options), sheet, options)

    def after_first(effect: int) -> Dice[str]:
        label = survival_label(action.kind, effect >= 0, options, heal)
        if action.kind != "intensive" or effect >= 0:
            return Dice.pure(label)
        return Dice.of(dying.procedure).map(
            lambda e: "Dying roll: " + survival_label("dying", e >= 0, options)
        )

    program = Dice.of(built.procedure).bind(after_first)

    def finish(label: str, trace: Trace) -> Outcome:
        faces = trace[0]
        effect = built.procedure.apply(faces)
        details = built.details(faces, effect)
        dice = list(built.dice(faces))
        ok = effect >= 0
        changes = Changes(state)
        cid = action.actor
        if action.kind == "dying" and not ok:
            changes.add(cid, "Dead", "failed dying roll")
        elif action.kind == "massive":
            details["wounds_from_damage"] = wounds_from
            added = massive_result(ok, options)[1]
            if added:
                changes.add(cid, added, "massive damage")
            if waiting:
                changes.set(cid, "massive_before", None, "massive-damage roll made")
                changes.answered(cid, "survival")
        elif action.kind == "intensive":
            details["dying_roll_required"] = not ok
            if ok and heal:
                changes.damage(cid, -heal, "intensive care")
            if not ok:
                dfaces = trace[1]
                deffect = dying.procedure.apply(dfaces)
                dice += dying.dice(dfaces)
                details["dying_roll"] = dying.details(dfaces, deffect)
                if deffect < 0:
                    changes.add(cid, "Dead", "failed dying roll")
        return built.outcome(name, tuple(dice), effect, label, changes.build(), details, success=ok)

    return Plan.of(program, finish)


# ---------------------------------------------------------------------------
# first aid


def first_aid_check(action: FirstAid, on_self: bool) -> CheckInputs:
    """Medic check at 8 (another) or 10 (oneself)."""
    return CheckInputs(
        difficulty=first_aid_difficulty(on_self),
        modifiers=action.modifiers,
        advantage=action.advantage,
        disadvantage=action.disadvantage,
        characteristic=MEDIC_CHARACTERISTIC,
        skill="Medic",
    )


def plan_first_aid(action: FirstAid, state: State, options: Options) -> Plan:
    """First aid heals the Effect (at least 1, capped at the patient's damage) on a
    success, stops Bleeding and stabilises a patient who is still Dying for hours equal to
    their End (ch. 7, First Aid; Dying: Stabilization). A patient not seated at the table
    is healed uncapped, and whether they are stabilised cannot be judged (the outcome says
    so)."""
    medic = _living(state, action.actor)
    on_self = action.on_self or action.patient == action.actor
    patient_id = action.actor if on_self else action.patient
    patient = state.character(patient_id).sheet if patient_id is not None else None
    built = build(first_aid_check(action, on_self), medic, options)
    total = options.first_aid_rounds
    if action.rounds_left is not None and not 1 <= action.rounds_left <= total:
        raise RulesError(f"rounds_left must be 1..{total}, not {action.rounds_left}")

    def finish(effect: int, trace: Trace) -> Outcome:
        faces = trace[0]
        details = built.details(faces, effect)
        done = True
        if action.rounds_left is not None:
            left = first_aid_rounds_left(action.rounds_left, effect, total)
            details["rounds_left"] = left
            done = left == 0
        heal = first_aid_heal(effect) if done else 0
        if patient is not None:
            heal = min(heal, patient.damage)
        changes = Changes(state)
        if effect >= 0 and done:
            if patient_id is not None and heal:
                changes.damage(patient_id, -heal, "first aid")
            if patient is None or "Bleeding" in patient.conditions:
                if patient_id is not None:
                    changes.remove(patient_id, "Bleeding", "first aid stops bleeding")
                details["bleeding_stopped"] = True
            if patient is None or patient_id is None:
                details["stabilises"] = "unknown: the patient is not at the table"
            else:
                after = replace(patient, damage=patient.damage - heal)
                if condition(after, options) == "Dying":
                    minutes = stabilisation_minutes(after)
                    details["stabilised_minutes"] = minutes
                    changes.add(patient_id, "Stabilised", "first aid stops the dying rolls")
                    changes.set(patient_id, "sheet.stabilised_minutes", minutes, "End hours")
                details["patient"] = condition_report(changes.sheet(patient_id), options)
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
        return built.outcome(
            "first-aid", built.dice(faces), effect, label, changes.build(), details
        )

    return plan_fast(built.procedure, finish)


# ---------------------------------------------------------------------------
# surgery


def surgery_check(action: Surgery) -> CheckInputs:
    """Medic check at Difficulty 8; tools and assistance come in as modifiers."""
    return CheckInputs(
        difficulty=SURGERY_DIFFICULTY,
        modifiers=action.modifiers,
        characteristic=MEDIC_CHARACTERISTIC,
        skill="Medic",
    )


def plan_surgery(action: Surgery, state: State, options: Options) -> Plan:
    """Surgery at Difficulty 8 in a hospital or sickbay (ch. 7, Surgery): a success heals
    twice the Success Effect; the Medic skill cuts a Fail Effect, what is left multiplies
    the time and, above half the patient's End, harms them by twice it."""
    surgeon = _living(state, action.actor)
    patient = state.character(action.patient).sheet if action.patient is not None else None
    if patient is not None:
        end, cond = patient.characteristic("End"), condition(patient, options)
    elif action.patient_end is None:
        raise RulesError("surgery needs the patient: a seated patient, or their End")
    else:
        end, cond = action.patient_end, action.patient_condition or "Seriously Wounded"
    surgery_allowed(cond, action.facility, end)
    built = build(surgery_check(action), surgeon, options)
    medic = surgeon.skill("Medic") or 0

    def finish(effect: int, trace: Trace) -> Outcome:
        faces = trace[0]
        details = built.details(faces, effect)
        r = surgery_result(effect, medic, end, options)
        details.update(
            healed=r.healed, fail_effect_left=r.fail_effect_left, minutes=r.minutes, harm=r.harm
        )
        changes = Changes(state)
        if action.patient is not None:
            if r.healed:
                details["healed"] = -changes.damage(action.patient, -r.healed, "surgery")
            if r.harm:
                changes.damage(action.patient, r.harm, "botched surgery")
            details["patient"] = condition_report(changes.sheet(action.patient), options)
        label = f"Healed {r.healed}" if effect >= 0 else f"Fail Effect {r.fail_effect_left} left"
        return built.outcome("surgery", built.dice(faces), effect, label, changes.build(), details)

    return plan_fast(built.procedure, finish)


# ---------------------------------------------------------------------------
# stimulants


def plan_stimulant(action: Stimulant, state: State, options: Options) -> Plan:
    """An adrenaline shot or combat stimulant wakes a Critically Wounded character, who
    is otherwise out (ch. 7, Critically Wounded: Special Conditions). Ruling: it cannot
    wake a Dying character (Unconscious and immobile), and does nothing to one not out."""
    c = _living(state, action.patient)
    cond = condition(c, options)
    if cond == "Dying":
        raise IllegalAction(
            f"{c.name} is Dying: Unconscious and immobile, a stimulant cannot wake them"
        )
    changes = Changes(state)
    if cond != "Critically Wounded":
        label = f"{c.name} is not out: the {action.kind} has no effect"
    elif "Awake" in c.conditions:
        label = f"{c.name} is already awake"
    else:
        label = f"{c.name} is awake (a violent action will cause Bleeding)"
        changes.add(action.patient, "Awake", action.kind)
    details: dict[str, Any] = {"condition": cond}
    return Plan.fixed(
        Outcome(SYSTEM, "stimulant", label=label, changes=changes.build(), details=details)
    )


# ---------------------------------------------------------------------------
# medical care


def plan_care(action: CareWard, state: State, options: Options) -> Plan:
    """A ward (ch. 7, Medical Care, Care Levels): each patient's care level, the load in
    light-care patients against the caregiver's capacity (8 at Medic 0, doubling per level
    and under a Medic 2+ supervisor), the monitoring figure, and whether intensive-care
    patients have the Medic 2+ or AI sickbay supervision they need."""
    if len(action.patients) + len(action.conditions) > 10_000:
        raise RulesError("at most 10,000 patients at once")
    rows: list[dict[str, Any]] = []
    for cid in action.patients:
        cond = condition(state.character(cid).sheet, options)
        rows.append({"patient": cid, "condition": cond, "care": care_level(cond)})
    rows += [{"condition": c, "care": care_level(c)} for c in action.conditions]
    conditions = [str(r["condition"]) for r in rows]
    load = patient_load(conditions)
    capacity = care_capacity(action.medic, options, supervisor_medic=action.supervisor_medic)
    details: dict[str, Any] = {
        "patients": rows,
        "load": load,
        "capacity": capacity,
        "fits": load <= capacity,
        "monitoring": monitoring_capacity(action.medic, options),
    }
    label = f"load {load} light-care patients, capacity {capacity}: " + (
        "fits" if load <= capacity else "exceeds the capacity"
    )
    intensive = sum(1 for r in rows if r["care"] == "intensive")
    if intensive:
        ok = supervised(action.medic, action.supervisor_medic, action.ai_sickbay)
        details["intensive_supervised"] = ok
        if not ok:
            details["supervision"] = f"{intensive} patient(s): {UNSUPERVISED_NOTE}"
            label += f"; {intensive} intensive-care patient(s) without Medic 2+ supervision"
    return Plan.fixed(Outcome(SYSTEM, "care", label=label, details=details), value=load)
