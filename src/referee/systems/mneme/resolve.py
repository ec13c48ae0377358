"""Resolving checks and attacks into Outcomes, and their exact odds (Mneme CE ch. 2, ch. 7).

Every roll goes through :func:`build` -> a :class:`~referee.systems.base.Procedure`;
``resolve_*`` applies its rule to rolled faces and ``*_odds`` to the exact
distribution, so odds and rolls share one rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution
from referee.dice.roller import Roller, is_manual
from referee.errors import RulesError
from referee.systems.base import Change, Modifier, Outcome, Procedure
from referee.systems.mneme.actions import Attack, Check, Mitigating, TakeDamage, Threat
from referee.systems.mneme.checks import check_procedure, kept_indices, net_advantage, stack
from referee.systems.mneme.checks import wound_penalty as wound_value
from referee.systems.mneme.damage import (
    DamageRolls,
    damage_odds,
    p_single_roll_at_least,
    per_roll_odds,
    roll_damage,
    rolls_on_success,
)
from referee.systems.mneme.effects import (
    combined_difficulty,
    costly_success,
    fail_degree,
    median_duration,
    mitigate,
    stealth_skill,
    task_time,
)
from referee.systems.mneme.equipment import (
    attack_target,
    attack_target_hp,
    attack_weapon,
    cover_for,
    threat_armour,
    threat_damage,
    violent_action,
)
from referee.systems.mneme.health import bleeds_from, condition_for, targeted_effect, thresholds
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Character

SYSTEM = "mneme"


@dataclass(frozen=True)
class Built:
    """A check ready to roll: its procedure and how its numbers were derived."""

    procedure: Procedure[int, int]
    applied: tuple[Modifier, ...]
    dropped: tuple[Modifier, ...]
    difficulty: int
    steps: int
    missing_skills: tuple[str, ...]

    @property
    def modifier(self) -> int:
        """The total of the modifiers that apply."""
        return sum(m.value for m in self.applied)


def build(check: Check, state: Character | None, options: Options) -> Built:
    """Collect modifiers (Competence, wound penalty, given ones), stack them by kind,
    apply combined difficulties and Advantage, and build the check's procedure."""
    mods: list[Modifier] = list(check.modifiers)
    difficulty = check.difficulty
    missing: tuple[str, ...] = ()
    if state is None:
        if check.characteristic or check.skill or check.combined_skills:
            raise RulesError("a characteristic or skill check needs a character sheet")
    else:
        if check.stealth and not check.characteristic:
            raise RulesError("a stealth roll needs the characteristic it adds to")
        if check.characteristic:
            skill = check.skill or (check.combined_skills[0] if check.combined_skills else None)
            if check.stealth:
                skill = stealth_skill(state.skills, options) or "Recon"
            cmp = state.competence(check.characteristic, skill, options)
            what = check.characteristic + (f" + {skill}" if skill else "")
            if skill and state.skill(skill) is None:
                what += " (unskilled)"
            mods.append(Modifier(cmp, f"Competence ({what})", "competence"))
        elif check.skill:
            raise RulesError("a skill check needs the characteristic it adds to")
        if check.combined_skills:
            difficulty, missing = combined_difficulty(
                difficulty, check.combined_skills, state.skills
            )
        if check.wounds:
            wp = wound_value(state.damage, options)
            if wp:
                mods.append(Modifier(wp, f"wound penalty ({state.damage} damage)", "wound"))
    applied, dropped = stack(mods, options)
    steps = net_advantage(check.advantage, check.disadvantage, options)
    total = sum(m.value for m in applied)
    return Built(
        check_procedure(total, difficulty, steps), applied, dropped, difficulty, steps, missing
    )


def roll_built(
    built: Built, roller: Roller, *, compound: bool = False
) -> tuple[tuple[int, ...], int]:
    """Roll a built check. ``compound``: more dice follow (damage), so hand-entered faces
    are checked only for the check's own dice here; the damage dice check their own."""
    proc = built.procedure
    if compound and is_manual(roller):
        need = sum(c for c, _ in proc.groups)
        remaining = tuple(getattr(roller, "remaining", ()))
        proc.check_manual(remaining[:need], "the check")
        faces = proc.roll_faces(roller)
        return faces, proc.apply(faces)
    return proc.roll(roller)


def _faces(built: Built, faces: tuple[int, ...]) -> tuple[DieRoll, ...]:
    kept = set(kept_indices(faces, built.steps))
    return tuple(DieRoll(f, 6, i in kept) for i, f in enumerate(faces))


def _base_details(built: Built, faces: tuple[int, ...], effect: int) -> dict[str, Any]:
    dice = sum(faces[i] for i in kept_indices(faces, built.steps))
    return {
        "dice": dice,
        "modifier": built.modifier,
        "roll": dice + built.modifier,
        "difficulty": built.difficulty,
        "effect": effect,
        "advantage": built.steps,
        "dropped_modifiers": [str(m) for m in built.dropped],
        "missing_skills": list(built.missing_skills),
        ("success_effect" if effect >= 0 else "fail_effect"): abs(effect),
    }


def check_outcome(
    action: str,
    built: Built,
    effect: int,
    roller: Roller,
    *,
    faces: tuple[DieRoll, ...],
    label: str,
    details: dict[str, Any],
    changes: tuple[Change, ...] | list[Change] = (),
    success: bool | None = None,
) -> Outcome:
    """The Outcome of a rolled check (and what followed it): the check's modifiers,
    Difficulty and Effect, success by default ``Effect >= 0``, and how the dice came."""
    return Outcome(
        SYSTEM,
        action,
        faces=faces,
        modifiers=built.applied,
        target=built.difficulty,
        result=effect,
        success=effect >= 0 if success is None else success,
        label=label,
        changes=tuple(changes),
        details=details,
        manual=is_manual(roller),
        rolls=roller.records,
    )


def _label(effect: int) -> str:
    return f"Success Effect {effect}" if effect >= 0 else f"Fail Effect {-effect}"


def _timing(check: Check, effect: int, details: dict[str, Any], options: Options) -> None:
    """The time the task takes, from its duration roll and the Effect (ch. 2)."""
    if check.duration is None:
        return
    median = median_duration(check.duration)
    details["median_time"] = median
    details["time"] = task_time(median, effect, options, check.unit)


def no_stakes(action: str) -> Outcome:
    """No stakes, no roll (ch. 2, Stakes): the task only takes time and attention."""
    return Outcome(SYSTEM, action, success=None, label="No roll: no stakes")


def resolve_check(
    check: Check, state: Character | None, roller: Roller, options: Options
) -> Outcome:
    """Roll a check: Effect, Success / Fail Effect, mitigation, Costly Success."""
    if not check.stakes:
        return no_stakes("check")
    violent = violent_action(state, options) if check.violent else ()
    built = build(check, state, options)
    faces, effect = built.procedure.roll(roller)
    details = _base_details(built, faces, effect)
    if violent:
        details["bleeding"] = True
    success = effect >= 0
    label = _label(effect)
    degree = fail_degree(effect)
    if not success:
        if check.costly_success:
            degree = costly_success(degree, options)
            details["costly_success"] = {"fail_effect": degree, "success_effect": 0}
            success, label = True, f"Costly Success (Fail Effect {degree})"
        if check.mitigating is not None:
            m = mitigate(
                degree, check.mitigating.conditions, check.mitigating.cover, check.mitigating.skill
            )
            details["mitigation"] = list(m.steps)
            details["cover_absorbed"] = m.cover_absorbed
            if m.ordinary_failure and not success:
                label = "Ordinary Failure"
            elif not success:
                label = f"Fail Effect {m.remaining} (mitigated from {degree})"
        if check.costly_failure and not success:
            details["costly_failure"] = degree
            label = f"Costly Failure (degree {degree})"
    _timing(check, effect, details, options)
    return check_outcome(
        "check",
        built,
        effect,
        roller,
        faces=_faces(built, faces),
        label=label,
        details=details,
        changes=violent,
        success=success,
    )


def check_odds(check: Check, state: Character | None, options: Options) -> Distribution[int]:
    """Exact distribution of the check's Effect (the same rule as :func:`resolve_check`)."""
    if not check.stakes:
        raise RulesError("a task without stakes is not rolled, so it has no odds")
    return build(check, state, options).procedure.odds()


# ---------------------------------------------------------------------------
# damage


def _rolls_data(r: DamageRolls) -> dict[str, Any]:
    return {
        "expression": r.expression,
        "raw": list(r.raw),
        "dealt": list(r.dealt),
        "kept": list(r.kept),
        "total": r.total,
    }


def incoming(
    degree: int,
    threat: Threat,
    state: Character | None,
    roller: Roller,
    options: Options,
) -> tuple[dict[str, Any], tuple[Change, ...], tuple[DieRoll, ...]]:
    """Damage rolls a Fail Effect brings against the character (ch. 7).

    Mitigation (conditions, cover, skill) first; the cover takes as many rolls as the
    points it absorbed; the character takes one roll per point left, the highest summed
    Rate of Attack kept, armour per roll, minimum 1 per roll at a Fail Effect of 6+.
    """
    mit: Mitigating = threat.mitigating
    spec = threat_damage(threat)
    armour = threat_armour(threat, state)
    cover = cover_for(threat, state)
    m = mitigate(degree, mit.conditions, cover.protection, mit.skill)
    data: dict[str, Any] = {"fail_effect": degree, "mitigation": list(m.steps)}
    changes: list[Change] = []
    dice: list[DieRoll] = []
    if m.cover_absorbed:
        hit = roll_damage(
            spec,
            m.cover_absorbed,
            cover.armour,
            roller,
            options=options,
            keep=m.cover_absorbed,
        )
        data["cover_rolls"] = _rolls_data(hit)
        dice += [d for group in hit.dice for d in group]
        taken = hit.total if cover.hp_left is None else min(hit.total, cover.hp_left)
        data["cover_damage"] = taken
        if cover.hp_left is not None:
            data["cover_destroyed"] = taken >= cover.hp_left
        changes.append(
            Change(cover.where, "damage", delta=taken, reason="the cover took the rolls")
        )
    rolls = roll_damage(
        spec,
        m.remaining,
        armour,
        roller,
        effect_degree=m.remaining,
        options=options,
    )
    data["damage_rolls"] = _rolls_data(rolls)
    data["damage"] = rolls.total
    data["ordinary_failure"] = m.ordinary_failure
    dice += [d for group in rolls.dice for d in group]
    if rolls.total:
        changes.append(Change("self", "damage", delta=rolls.total, reason="damage rolls"))
    if state is not None:
        data.update(aftermath(rolls, state, options))
        if data.get("bleeding"):
            changes.append(
                Change(
                    "self",
                    "conditions",
                    value="Bleeding",
                    reason="one roll reached the Seriously Wounded threshold",
                )
            )
    return data, tuple(changes), tuple(dice)


def aftermath(rolls: DamageRolls, victim: Character, options: Options) -> dict[str, Any]:
    """What the damage does to a character with a sheet (ch. 7, HP thresholds): the
    condition they end in, Bleeding from one roll at the Seriously Wounded threshold,
    and massive damage (more than HP in one attack: an End roll at 8 is due)."""
    out: dict[str, Any] = {
        "condition": condition_for(victim.damage + rolls.total, thresholds(victim, options))
    }
    if bleeds_from(rolls.largest, victim, options):
        out["bleeding"] = True
    if rolls.total > victim.hp:
        out["massive_damage"] = True
    return out


def massive_check(options: Options) -> Check:
    """The End roll after massive damage: Difficulty 8 (option), wound penalties apply
    (ch. 7, Massive Damage)."""
    return Check(difficulty=options.massive_damage_difficulty, characteristic="End")


def massive_result(ok: bool, options: Options) -> tuple[str, tuple[Change, ...]]:
    """Surviving massive damage leaves the character Crippled; failing is death (option:
    Dying instead)."""
    if ok:
        return "Survived, crippled", (
            Change("self", "conditions", value="Crippled", reason="massive damage"),
        )
    if options.massive_damage_kills:
        return "Dead", (Change("self", "conditions", value="Dead", reason="massive damage"),)
    return "Dying", ()


def resolve_take_damage(
    action: TakeDamage, state: Character | None, roller: Roller, options: Options
) -> Outcome:
    """Apply a known Fail Effect's damage rolls to the character."""
    if action.fail_effect < 0:
        raise RulesError("a Fail Effect degree cannot be negative")
    data, changes, dice = incoming(action.fail_effect, action.threat, state, roller, options)
    label = "Ordinary Failure" if data["ordinary_failure"] else f"{data['damage']} damage"
    if action.massive_roll and data.get("massive_damage") and state is not None:
        victim = state
        if options.massive_damage_wounds == "after":
            victim = replace(state, damage=state.damage + data["damage"])
        built = build(massive_check(options), victim, options)
        faces, effect = built.procedure.roll(roller)
        dice += _faces(built, faces)
        result, more = massive_result(effect >= 0, options)
        data["massive_roll"] = {**_base_details(built, faces, effect), "result": result}
        changes += more
        label += f"; massive damage: {result}"
    return Outcome(
        SYSTEM,
        "take-damage",
        faces=dice,
        result=data["damage"],
        success=None,
        label=label,
        changes=changes,
        details=data,
        manual=is_manual(roller),
        rolls=roller.records,
    )


def resolve_attack(
    action: Attack, state: Character | None, roller: Roller, options: Options
) -> Outcome:
    """An attack: check, then the weapon's damage rolls on a success (SE + 1 rolls, the
    highest RoA kept, target armour per roll), or the threat's on a failure."""
    spec, check = attack_weapon(action, state)
    target = attack_target(action)
    violent = violent_action(state, options)
    built = build(check, state, options)
    faces, effect = roll_built(built, roller, compound=True)
    details = _base_details(built, faces, effect)
    changes: list[Change] = list(violent)
    if violent:
        details["bleeding"] = True
    all_dice = list(_faces(built, faces))
    success = effect >= 0
    label = _label(effect)
    se: int | None = effect if success else None
    struck_back = 0
    if not success:
        degree = fail_degree(effect)
        if check.costly_success:
            struck_back = costly_success(degree, options)
            details["costly_success"] = {"fail_effect": struck_back, "success_effect": 0}
            se, success, label = 0, True, f"Costly Success (Fail Effect {struck_back})"
        else:
            struck_back = degree
    if se is not None:
        n = rolls_on_success(se)
        hit = roll_damage(spec, n, target, roller, effect_degree=se, options=options)
        details["weapon_rolls"] = _rolls_data(hit)
        details["damage_dealt"] = hit.total
        all_dice += [d for group in hit.dice for d in group]
        changes.append(Change("target", "damage", delta=hit.total, reason="weapon damage"))
        if action.target_sheet is not None:
            details["target"] = aftermath(hit, action.target_sheet, options)
            if details["target"].get("bleeding"):
                changes.append(
                    Change(
                        "target",
                        "conditions",
                        value="Bleeding",
                        reason="one roll reached the Seriously Wounded threshold",
                    )
                )
        if action.location is not None:
            target_hp = attack_target_hp(action)
            if target_hp is None:
                raise RulesError("targeted damage needs the target's HP (target_hp)")
            hurt = targeted_effect(action.location, hit.total, target_hp)
            details["targeted"] = {"location": action.location, "effect": hurt}
            if hurt:
                changes.append(
                    Change("target", "conditions", value=hurt, reason=f"targeted {action.location}")
                )
        label += f": {hit.total} damage"
    if struck_back and action.threat is not None:
        data, more, dice = incoming(struck_back, action.threat, state, roller, options)
        details["incoming"] = data
        changes += more
        all_dice += dice
        if data["ordinary_failure"] and se is None:
            label = "Ordinary Failure"
        else:
            label += f"; took {data['damage']} damage"
    return check_outcome(
        "attack",
        built,
        effect,
        roller,
        faces=tuple(all_dice),
        label=label,
        details=details,
        changes=tuple(changes),
        success=success,
    )


def attack_odds(action: Attack, state: Character | None, options: Options) -> Distribution[int]:
    """Exact distribution of the damage the attack deals to its target (0 on a miss)."""
    spec, check = attack_weapon(action, state)
    target = attack_target(action)
    built = build(check, state, options)
    effects = built.procedure.odds()
    cache: dict[int, Distribution[int]] = {}

    def dealt_for(effect: int) -> Distribution[int]:
        se = effect if effect >= 0 else (0 if check.costly_success else None)
        if se is None:
            return Distribution.constant(0)
        if se not in cache:
            cache[se] = damage_odds(
                spec,
                rolls_on_success(se),
                target,
                effect_degree=se,
                options=options,
            )
        return cache[se]

    return effects.bind(dealt_for)


def take_damage_odds(
    action: TakeDamage, options: Options, state: Character | None = None
) -> Distribution[int]:
    """Exact distribution of the damage a known Fail Effect deals to the character (worn
    armour from ``state`` when the threat gives none)."""
    mit = action.threat.mitigating
    cover = cover_for(action.threat, state)
    m = mitigate(action.fail_effect, mit.conditions, cover.protection, mit.skill)
    return damage_odds(
        threat_damage(action.threat),
        m.remaining,
        threat_armour(action.threat, state),
        effect_degree=m.remaining,
        options=options,
    )


def condition_odds(
    damage: Distribution[int], character: Character, options: Options
) -> Distribution[str]:
    """The probability of each HP condition the character ends in after the damage."""
    t = thresholds(character, options)
    base = character.damage
    return damage.map(lambda d: condition_for(base + d, t))


def bleeding_odds(
    per_roll: Distribution[int], rolls: int, character: Character, options: Options
) -> Fraction:
    """P(the character starts Bleeding): one of the rolls reaches the Seriously Wounded
    threshold (ch. 7, Bleeding), the same test as :func:`aftermath`."""
    return p_single_roll_at_least(per_roll, rolls, max(1, thresholds(character, options).seriously))


def massive_damage_odds(damage: Distribution[int], character: Character) -> Fraction:
    """P(the attack deals more than the character's HP: massive damage, ch. 7)."""
    return Fraction(damage.probability_where(lambda d: d > character.hp))


def attack_bleeding_odds(
    action: Attack, state: Character | None, victim: Character, options: Options
) -> Fraction:
    """P(the attack makes the victim Bleed): over the check's Effects, one of the SE + 1
    damage rolls reaching the Seriously Wounded threshold (ch. 7, Bleeding), the same
    rolls :func:`resolve_attack` makes."""
    spec, check = attack_weapon(action, state)
    target = attack_target(action)
    total = Fraction(0)
    for effect, p in build(check, state, options).procedure.odds().probabilities().items():
        se = effect if effect >= 0 else (0 if check.costly_success else None)
        if se is None:
            continue
        per = per_roll_odds(spec, target, effect_degree=se, options=options)
        total += Fraction(p) * bleeding_odds(per, rolls_on_success(se), victim, options)
    return total
