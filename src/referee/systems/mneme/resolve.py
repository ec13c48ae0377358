"""Checks, attacks and damage rolls as plans (Mneme CE ch. 2, Core Task Resolution;
ch. 7, Outcomes: Damage).

Each ``plan_*`` builds one dice program - the check's procedure, then the damage rolls
its Effect brings (:class:`~referee.systems.mneme.damage.DamageProgram`) - and a
``finish`` that reads the recorded faces back into the outcome. Resolving samples the
program; the odds are the exact distribution of the same program, so they cannot
disagree with a roll.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import Any, Literal, cast

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.errors import IllegalAction, OddsTooComplex
from referee.systems.base import Decision, Dice, Modifier, Outcome, Plan, Procedure, Trace
from referee.systems.mneme.actions import (
    Attack,
    Check,
    CheckInputs,
    DamageRolls,
    Mitigating,
    TakeDamage,
    Threat,
)
from referee.systems.mneme.aim import aim_modifier
from referee.systems.mneme.changes import Changes
from referee.systems.mneme.conditions import helpless
from referee.systems.mneme.damage import (
    DAMAGE,
    DamageProgram,
    DamageSpec,
    Dealing,
    Dealt,
    Quiet,
    Report,
    Target,
    Wound,
    bleeding_exact,
    kept_count,
    kept_total,
    minimum_for,
    most_one_roll,
    reads_one_roll,
    reads_wound,
    roll_count,
    wound_exact,
)
from referee.systems.mneme.effects import (
    Mitigation,
    costly_success,
    fail_degree,
    median_duration,
    mitigate,
    task_time,
)
from referee.systems.mneme.equipment import (
    Cover,
    armour_of,
    cover_for,
    damage_source,
    defence_skill,
    violent_bleeds,
    weapon_skill,
)
from referee.systems.mneme.health import (
    bleeds_from,
    condition_for,
    movement_data,
    targeted_effect,
    thresholds,
)
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.state import State
from referee.systems.mneme.task import SYSTEM, Built, build

RESTRICTED = ("Seriously Wounded", "Critically Wounded", "Dying")
"""Conditions whose movement an outcome reports (3/4 speed and no Dash, or immobile)."""


def sheet_of(state: State, cid: str | None) -> Sheet | None:
    """The sheet of the character ``cid`` (``None`` for none); :class:`IllegalAction`
    naming the characters at the table when there is no such character."""
    return None if cid is None else state.character(cid).sheet


def effect_label(effect: int) -> str:
    """'Success Effect N' or 'Fail Effect N'."""
    return f"Success Effect {effect}" if effect >= 0 else f"Fail Effect {-effect}"


def condition_report(sheet: Sheet, options: Options) -> dict[str, Any]:
    """The HP condition a sheet is in, with its movement when it is restricted (ch. 7,
    Seriously Wounded: 3/4 speed and no Dash; worse: immobile)."""
    cond = condition_for(sheet.damage, thresholds(sheet, options), sheet.exhaustion > 0)
    out: dict[str, Any] = {"condition": cond}
    if cond in RESTRICTED:
        out["movement"] = movement_data(cond)
    return out


def plan_fast(action: Procedure[int, int], finish: Callable[[int, Trace], Outcome]) -> Plan:
    """A plan that rolls one check: its odds are the procedure's own Effect distribution,
    with no mapping over it (the check's odds are the hot path the benchmarks measure)."""

    def resolve(roller: Roller) -> Outcome:
        trace: list[tuple[int, ...]] = []
        result = Dice.of(action).sample(roller, trace)
        return finish(result, tuple(trace))

    def brute() -> Distribution[Hashable]:
        return cast("Distribution[Hashable]", Dice.of(action).brute())

    odds = cast("Callable[[], Distribution[Hashable]]", action.odds)
    return Plan(  # an Effect of 0 or more is a success (ch. 2)
        resolve,
        odds,
        brute,
        action.groups,
        lambda: action.odds().at_least(0),
        lambda effect: isinstance(effect, int) and effect >= 0,
    )


def _allow_costly(check: CheckInputs, options: Options) -> None:
    if check.costly_success and not options.costly_success:
        raise IllegalAction("Costly Success is not allowed at this table (option costly_success)")


def _timing(check: CheckInputs, effect: int, details: dict[str, Any], options: Options) -> None:
    """The time the task takes, from its duration roll and the Effect (ch. 2)."""
    if check.duration is None:
        return
    median = median_duration(check.duration)
    details["median_time"] = median
    details["time"] = task_time(median, effect, options, check.unit)


def _costly_label(degree: int, m: Mitigation | None) -> str:
    """Costly Success, with what mitigation left of its Fail Effect."""
    if m is None or m.remaining == degree:
        return f"Costly Success (Fail Effect {degree})"
    if m.ordinary_failure:
        return f"Costly Success (Fail Effect {degree}, mitigated to 0: no harm)"
    return f"Costly Success (Fail Effect {degree}, mitigated to {m.remaining})"


# ---------------------------------------------------------------------------
# checks


def plan_check(action: Check, state: State, options: Options) -> Plan:
    """A check (ch. 2): Effect, Success / Fail Effect, Costly Success, mitigation, Costly
    Failure, task time; a violent action by a Critically Wounded character makes them
    Bleed. No stakes: no roll."""
    if not action.stakes:
        return Plan.fixed(Outcome(SYSTEM, "check", label="No roll: no stakes"))
    sheet = sheet_of(state, action.actor)
    bleeds = violent_bleeds(sheet, options) if action.violent else False
    _allow_costly(action, options)
    built = build(action, sheet, options)
    threat = action.threat
    if threat is not None and action.mitigating is not None:
        raise IllegalAction(
            "a check meeting a threat takes its Mitigating Factors from the threat "
            "(threat.mitigating), not from the check"
        )
    strikes = Strikes(state, threat, sheet, built.skill_level, options, action.costly_success)

    def finish(effect: int, trace: Trace) -> Outcome:
        faces = trace[0]
        details = built.details(faces, effect)
        changes = Changes(state)
        if bleeds and action.actor is not None:
            details["bleeding"] = True
            changes.add(action.actor, "Bleeding", "a violent action while Critically Wounded")
        success, label = effect >= 0, effect_label(effect)
        degree = fail_degree(effect)
        if not success:
            if action.costly_success:
                degree = costly_success(degree, options)
                details["costly_success"] = {"fail_effect": degree, "success_effect": 0}
                success = True
            m = None
            if action.mitigating is not None:
                mit = action.mitigating
                skill = mit.skill if mit.skill is not None else built.skill_level
                m = mitigate(degree, mit.conditions, mit.cover, skill)
                details["mitigation"] = list(m.steps)
                details["cover_absorbed"] = m.cover_absorbed
            if action.costly_success:
                label = _costly_label(degree, m)
            elif m is not None:
                label = (
                    "Ordinary Failure"
                    if m.ordinary_failure
                    else f"Fail Effect {m.remaining} (mitigated from {degree})"
                )
            if action.costly_failure and not success:
                details["costly_failure"] = degree
                label = f"Costly Failure (degree {degree})"
        _timing(action, effect, details, options)
        dice = built.dice(faces)
        if threat is not None and effect < 0:
            inc = strikes.at(effect)
            data = incoming_outcome(
                inc, list(trace[1 : 1 + inc.entries]), changes, action.actor, sheet, options
            )
            dice += tuple(data.pop("_dice"))
            details["incoming"] = data
            if action.costly_success:
                label = _costly_label(inc.degree, inc.mitigation)
            elif data["ordinary_failure"]:
                label = "Ordinary Failure"
            else:
                label += f"; took {data['damage']} damage"
        return built.outcome(
            "check", dice, effect, label, changes.build(), details, success=success
        )

    if threat is None:
        return plan_fast(built.procedure, finish)

    def branch(effect: int) -> Dice[int]:
        if effect >= 0:
            return Dice.pure(effect)
        hits = Quiet(strikes.at(effect).program)
        return Dice.pure(effect).pair(hits).map(lambda pair: pair[0])

    program = Dice.of(built.procedure).bind(branch)
    return Plan.of(program, finish, success=lambda effect: effect >= 0)


# ---------------------------------------------------------------------------
# what damage odds report


def report_for(kind: str, victim: Sheet | None, options: Options) -> Report[Any]:
    """The statistic damage odds report about ``victim`` (ch. 7): the damage dealt, the HP
    condition they end in, whether one roll reaches the Seriously Wounded threshold
    (Bleeding), whether the damage exceeds their HP (massive damage), or the damage with
    whether it made them Bleed (a :class:`~.damage.Wound`)."""
    if kind == "damage":
        return DAMAGE
    if victim is None:
        raise IllegalAction(f"odds of {kind} need the character struck (a target)")
    t = thresholds(victim, options)
    base = victim.damage
    tired = victim.exhaustion > 0
    if kind == "condition":
        return Report(
            "condition",
            lambda values, keep: condition_for(base + kept_total(values, keep), t, tired),
            lambda per, n, keep: DAMAGE.exact(per, n, keep).map(
                lambda d: condition_for(base + d, t, tired)
            ),
        )
    hp = victim.hp
    if kind == "massive":
        return Report(
            "massive",
            lambda values, keep: kept_total(values, keep) > hp,
            lambda per, n, keep: DAMAGE.exact(per, n, keep).map(lambda d: d > hp),
        )
    floor = max(1, t.seriously)
    if kind == "wound":
        wound = partial(wound_exact, threshold=floor)
        return Report("wound", reads_wound(floor), wound, key=floor)
    return Report(
        "bleeding", reads_one_roll(floor), lambda per, n, _keep: bleeding_exact(per, n, floor)
    )


def aftermath(
    before: Sheet, rolls: Dealing, options: Options, report: bool = True
) -> dict[str, Any]:
    """What damage does to a character (ch. 7, HP thresholds): the condition they end in
    (and its movement), Bleeding from one roll at the Seriously Wounded threshold, and
    massive damage (more than HP in one attack: an End roll at 8 is due). Without
    ``report``, only the last two (what the changes read: the condition is reported,
    not written)."""
    out: dict[str, Any] = {}
    if report:
        out = condition_report(replace(before, damage=before.damage + rolls.total), options)
    if bleeds_from(rolls.largest, before, options):
        out["bleeding"] = True
    if rolls.total > before.hp:
        out["massive_damage"] = True
    return out


MASSIVE_CHOICES = ("survival",)
"""How a character answers the massive-damage roll the table waits for."""


def owe_massive_roll(changes: Changes, cid: str, before: Sheet, options: Options) -> None:
    """Massive damage (ch. 7): the character's next step is the End roll at 8 with the
    wound penalties, so the table waits for it (``survival`` with kind ``massive``), and
    the seat keeps the damage the character had before the hit, whose wound penalty the
    roll uses by default (option ``massive_damage_wounds``)."""
    changes.set(cid, "massive_before", before.damage, "massive damage: the End roll is due")
    changes.wait_for(
        Decision(
            cid,
            f"{before.name} took massive damage (more than HP {before.hp} in one attack): "
            f"roll End at {options.massive_damage_difficulty} with the wound penalties "
            "(survival, kind massive)",
            MASSIVE_CHOICES,
        )
    )


def _hurt(
    changes: Changes,
    cid: str | None,
    before: Sheet | None,
    rolls: Dealing,
    options: Options,
    owe_massive: bool = True,
    report: bool = True,
) -> dict[str, Any]:
    """Apply damage rolls to a seated character: the damage and Bleeding, and massive
    damage's End roll as the table's next step (unless ``owe_massive`` is false: the
    roll is made at once); returns the aftermath to report (without ``report``: only
    what the changes read, see :func:`aftermath`)."""
    if cid is None or before is None:
        return {}
    changes.damage(cid, rolls.total, "damage rolls")
    after = aftermath(before, rolls, options, report)
    if after.get("bleeding"):
        changes.add(cid, "Bleeding", "one roll reached the Seriously Wounded threshold")
    if after.get("massive_damage") and owe_massive and not before.dead:
        owe_massive_roll(changes, cid, before, options)
        after["massive_roll_due"] = True
    return after


# ---------------------------------------------------------------------------
# a Fail Effect's damage


@dataclass(frozen=True)
class Incoming:
    """A Fail Effect's damage ready to roll (ch. 7, Damage Rolls; Fail Effect and Damage
    to Protection): the mitigation, the cover's rolls and the victim's."""

    degree: int
    mitigation: Mitigation
    cover: Cover
    cover_rolls: DamageProgram[int]
    rolls: DamageProgram[Hashable]

    @property
    def program(self) -> Dice[Hashable]:
        """The cover's rolls (made first, not read by the odds), then the victim's."""
        if not self.cover_rolls.rolls:
            return self.rolls
        return Quiet(self.cover_rolls).pair(self.rolls).map(lambda pair: pair[1])

    @property
    def entries(self) -> int:
        """How many recorded rolls the program makes (before any massive-damage roll)."""
        return self.cover_rolls.rolls + self.rolls.rolls


def incoming(
    degree: int,
    threat: Threat,
    victim: Sheet | None,
    owner: Sheet | None,
    skill: int,
    options: Options,
    report: Report[Any],
    after: Callable[[int], Dice[Any] | None] | None = None,
) -> Incoming:
    """The damage rolls a Fail Effect of ``degree`` brings against ``victim`` (ch. 7).

    Mitigation first: conditions, cover, then skill (``skill`` is the defender's level,
    used when the threat's mitigation gives none). The cover takes as many rolls as the
    points it absorbed; the victim takes one roll per point left, limited by the Rate of
    Attack (:func:`~referee.systems.mneme.damage.roll_count`), armour per roll, at least
    1 per roll at a Fail Effect of 6+.
    """
    spec = damage_source(threat.damage, threat.weapon, threat.rate_of_attack, owner)
    armour = armour_of(threat.armour, victim)
    mit: Mitigating = threat.mitigating
    cover = cover_for(mit, threat.cover_armour, victim)
    m = mitigate(
        degree, mit.conditions, cover.protection, mit.skill if mit.skill is not None else skill
    )
    absorbed = m.cover_absorbed
    cover_rolls = DamageProgram(spec, absorbed, absorbed, cover.armour, 0, options, DAMAGE)
    n, keep = roll_count(m.remaining, spec.rate_of_attack, options, success=False)
    rolls = DamageProgram(
        spec, n, keep, armour, minimum_for(m.remaining, options), options, report, after
    )
    return Incoming(degree, m, cover, cover_rolls, rolls)


class Strikes:
    """A threat's strikes back at a check's defender ``victim`` (ch. 7, Threats): one
    per Fail Effect degree, each built once."""

    def __init__(
        self,
        state: State,
        threat: Threat | None,
        victim: Sheet | None,
        skill: int,
        options: Options,
        costly: bool,
        report: Report[Any] = DAMAGE,
    ) -> None:
        self.threat, self.victim, self.skill, self.options = threat, victim, skill, options
        self.costly, self.report = costly, report
        self.owner = sheet_of(state, threat.attacker) if threat is not None else None
        unarmed = threat is not None and not threat.weapon and not threat.damage.strip()
        if unarmed and threat is not None and self.owner is not None and self.owner.weapons:
            # a threat naming its attacker and nothing else: the attacker's first weapon
            self.threat = replace(threat, weapon=self.owner.weapons[0].name)
        if self.threat is not None:  # refused now, before any die, if it cannot strike
            t = self.threat
            damage_source(t.damage, t.weapon, t.rate_of_attack, self.owner)
        self._built: dict[int, Incoming] = {}

    def degree(self, effect: int) -> int:
        """The Fail Effect the threat strikes with (a Costly Success's, if taken)."""
        degree = fail_degree(effect)
        return costly_success(degree, self.options) if self.costly else degree

    def strike(self, degree: int) -> Incoming:
        """The threat's strike at a Fail Effect of ``degree``."""
        assert self.threat is not None
        if degree not in self._built:
            self._built[degree] = incoming(
                degree, self.threat, self.victim, self.owner, self.skill, self.options, self.report
            )
        return self._built[degree]

    def at(self, effect: int) -> Incoming:
        """The threat's strike after a check of Effect ``effect`` (a failure)."""
        return self.strike(self.degree(effect))


def incoming_outcome(
    inc: Incoming,
    entries: list[tuple[int, ...]],
    changes: Changes,
    cid: str | None,
    victim: Sheet | None,
    options: Options,
    owe_massive: bool = True,
) -> dict[str, Any]:
    """Read a Fail Effect's rolls back from their faces: what the cover and the victim
    took, as details and changes (``owe_massive``: see :func:`_hurt`)."""
    data: dict[str, Any] = {"fail_effect": inc.degree, "mitigation": list(inc.mitigation.steps)}
    dice: list[DieRoll] = []
    cover_n = inc.cover_rolls.rolls
    if cover_n:
        hit = inc.cover_rolls.replay(entries[:cover_n])
        data["cover_rolls"] = hit.data()
        hp_left = inc.cover.hp_left
        taken = hit.total if hp_left is None else min(hit.total, hp_left)
        data["cover_damage"] = taken
        if hp_left is not None:
            data["cover_destroyed"] = taken >= hp_left
        if cid is not None and inc.cover.index is not None and taken:
            changes.protection(cid, inc.cover.index, taken, "the cover took the rolls")
        dice += [d for group in hit.dice for d in group]
    rolls = inc.rolls.replay(entries[cover_n : inc.entries])
    data["damage_rolls"] = rolls.data()
    data["damage"] = rolls.total
    data["ordinary_failure"] = inc.mitigation.ordinary_failure
    data.update(_hurt(changes, cid, victim, rolls, options, owe_massive))
    dice += [d for group in rolls.dice for d in group]
    data["_dice"] = dice
    return data


def _massive_after(
    victim: Sheet | None, options: Options
) -> Callable[[int], Dice[Any] | None] | None:
    """The End roll at 8 massive damage calls for, rolled at once when the kept rolls
    exceed the victim's HP (ch. 7, Massive Damage)."""
    if victim is None:
        return None
    sheet = victim

    def after(total: int) -> Dice[Any] | None:
        if total <= sheet.hp:
            return None
        return Dice.of(massive_built(sheet, total, options).procedure)

    return after


def massive_built(
    victim: Sheet, total: int, options: Options, modifiers: tuple[Modifier, ...] = ()
) -> Built:
    """The End roll after massive damage: Difficulty 8 (option), wound penalties as they
    were before the attack (option ``massive_damage_wounds``: or including it)."""
    sheet = victim
    if options.massive_damage_wounds == "after":
        sheet = replace(victim, damage=victim.damage + total)
    check = CheckInputs(
        difficulty=options.massive_damage_difficulty, modifiers=modifiers, characteristic="End"
    )
    return build(check, sheet, options)


def massive_result(ok: bool, options: Options) -> tuple[str, str | None]:
    """Surviving massive damage leaves the character Crippled; failing is death (option:
    Dying instead, which the damage already makes them). ``(label, condition to add)``."""
    if ok:
        return "Survived, crippled", "Crippled"
    if options.massive_damage_kills:
        return "Dead", "Dead"
    return "Dying", None


# ---------------------------------------------------------------------------
# take-damage


def plan_take_damage(action: TakeDamage, state: State, options: Options) -> Plan:
    """Damage rolls against the character from a known Fail Effect (ch. 7): mitigation,
    the cover's rolls, the character's (limited Rate of Attack, armour each); Bleeding
    and massive damage; with ``massive_roll`` the End roll at 8 at once."""
    if action.fail_effect < 0:
        raise IllegalAction(f"a Fail Effect degree cannot be negative ({action.fail_effect})")
    victim = sheet_of(state, action.actor)
    attacker = sheet_of(state, action.threat.attacker)
    report = report_for(action.report, victim, options)
    skill = defence_skill(victim, action.skill)
    after = _massive_after(victim, options) if action.massive_roll else None
    inc = incoming(
        action.fail_effect, action.threat, victim, attacker, skill, options, report, after
    )

    def finish(_result: Hashable, trace: Trace) -> Outcome:
        entries = list(trace)
        changes = Changes(state)
        data = incoming_outcome(
            inc, entries, changes, action.actor, victim, options, not action.massive_roll
        )
        dice: list[DieRoll] = data.pop("_dice")
        label = "Ordinary Failure" if data["ordinary_failure"] else f"{data['damage']} damage"
        if data.get("massive_roll_due"):
            label += "; massive damage: End roll due"
        if len(entries) > inc.entries and victim is not None and action.actor is not None:
            built = massive_built(victim, data["damage"], options)
            faces = entries[inc.entries]
            effect = built.procedure.apply(faces)
            dice += built.dice(faces)
            result, added = massive_result(effect >= 0, options)
            data["massive_roll"] = {**built.details(faces, effect), "result": result}
            if added:
                changes.add(action.actor, added, "massive damage")
            label += f"; massive damage: {result}"
        return Outcome(
            SYSTEM,
            "take-damage",
            faces=tuple(dice),
            result=data["damage"],
            label=label,
            changes=changes.build(),
            details=data,
        )

    return Plan.of(inc.program, finish)


# ---------------------------------------------------------------------------
# damage-rolls


def plan_damage_rolls(action: DamageRolls, state: State, options: Options) -> Plan:
    """``rolls`` damage rolls with no check (a hazard; rolls worked out by hand): the
    highest Rate of Attack count, armour per roll, minimum 1 each at Effect 6+."""
    victim = sheet_of(state, action.target)
    attacker = sheet_of(state, action.attacker)
    spec = damage_source(action.damage, action.weapon, action.rate_of_attack, attacker)
    armour = armour_of(action.armour, victim)
    report = report_for(action.report, victim, options)
    keep = kept_count(action.rolls, spec.rate_of_attack)
    minimum = minimum_for(action.effect, options)
    program = DamageProgram(spec, action.rolls, keep, armour, minimum, options, report)

    def finish(_result: Hashable, trace: Trace) -> Outcome:
        rolls = program.replay(list(trace))
        changes = Changes(state)
        details: dict[str, Any] = {"damage_rolls": rolls.data(), "damage": rolls.total}
        details.update(_hurt(changes, action.target, victim, rolls, options))
        return Outcome(
            SYSTEM,
            "damage-rolls",
            faces=tuple(d for group in rolls.dice for d in group),
            result=rolls.total,
            label=f"{rolls.total} damage",
            changes=changes.build(),
            details=details,
        )

    return Plan.of(program, finish)


# ---------------------------------------------------------------------------
# attacks


@dataclass(frozen=True)
class _AttackParts:
    """An attack's pieces: the damage source, the check as rolled, the target's armour."""

    spec: DamageSpec
    check: CheckInputs
    armour: Target


def _attack_parts(action: Attack, attacker: Sheet | None, victim: Sheet | None) -> _AttackParts:
    spec = damage_source(action.damage, action.weapon, action.rate_of_attack, attacker)
    check = action.check
    skill = weapon_skill(action.weapon, attacker)
    if check.characteristic and not check.skill and not check.combined_skills and skill:
        check = replace(check, skill=skill)
    return _AttackParts(spec, check, armour_of(action.armour, victim))


def referee_does_not_roll(
    action: Attack, attacker: Sheet | None, victim: Sheet | None, options: Options
) -> None:
    """Refuse an attack rolled by an adversary against anyone but another adversary (ch. 2,
    Referee Doesn't Roll: any threat to a PC is the PC rolling against a Difficulty, and
    the adversaries' attacks are the PCs' Fail Effects), unless the table's option
    ``adversary_attacks`` is 'referee_rolls'."""
    if options.adversary_attacks == "referee_rolls" or attacker is None:
        return
    if not attacker.adversary or (victim is not None and victim.adversary):
        return
    who = victim.name if victim is not None else "the PC"
    pc = action.target or "the PC"
    raise IllegalAction(
        f"the referee doesn't roll (ch. 2): {attacker.name}'s attack on {who} is the Fail "
        f"Effect of {who}'s own roll, an attack or check by {pc} with threat.attacker="
        f"{action.actor} (threat.weapon names the weapon); the table's option "
        "adversary_attacks='referee_rolls' lets the referee roll it"
    )


def struck_back(
    action: Attack, attacker: Sheet | None, victim: Sheet | None, options: Options
) -> Threat | None:
    """The threat of a PC's attack on an adversary that names none: the adversary's first
    weapon strikes back on the Fail Effect (ch. 2, Referee Doesn't Roll: the adversaries'
    attacks are the PCs' Fail Effects; option ``strike_back``). None where the referee
    rolls the adversaries' attacks, or the target is no armed adversary."""
    if not options.strike_back or options.adversary_attacks == "referee_rolls":
        return None
    if attacker is None or attacker.adversary or victim is None or not victim.adversary:
        return None
    if not victim.weapons or action.target is None:
        return None
    return Threat(weapon=victim.weapons[0].name, attacker=action.target)


def strikes_back(state: State, cid: str | None, options: Options) -> bool:
    """Whether the seated adversary ``cid`` can still strike back (ch. 7: "Adversaries who
    can attack back deal damage based on the Fail Effect degree"): not one the text makes
    helpless (Dead, Dying, Critically Wounded and out: :mod:`.conditions`)."""
    seat = state.characters.get(cid) if cid is not None else None
    if seat is None:
        return True
    found = helpless(seat, options)
    return found is None or not found.forbids("strike-back")


def _hits(
    spec: DamageSpec, armour: Target, report: Report[Hashable], options: Options
) -> Callable[[int], DamageProgram[Hashable]]:
    """The weapon's damage rolls for each Success Effect (ch. 7, Damage Rolls: SE + 1
    limited by the Rate of Attack, armour per roll), each made once."""
    hits: dict[int, DamageProgram[Hashable]] = {}

    def hit(se: int) -> DamageProgram[Hashable]:
        found = hits.get(se)
        if found is None:
            n, keep = roll_count(se, spec.rate_of_attack, options)
            found = hits[se] = DamageProgram(
                spec, n, keep, armour, minimum_for(se, options), options, report
            )
        return found

    return hit


Reads = Literal["hit", "taken", "both"]
"""What an attack's odds read after the check: the hit's report, the damage struck back,
or both as a pair."""


def _after_check(
    hit: Callable[[int], DamageProgram[Hashable]],
    costly: bool,
    miss: Hashable,
    reads: Reads,
    back: Callable[[int], Dice[Hashable]] | None,
    unhurt: Hashable = 0,
) -> Callable[[int], Dice[Hashable]]:
    """What an attack rolls after its check's Effect, and what its odds read (``reads``):
    the hit's (or a miss's) report, what ``back`` (the threat, on a Fail Effect) strikes
    back with (``unhurt`` on a success: no damage), or both as ``(dealt, taken)``; the
    same rolls made whatever is read, the unread ones quiet. A Costly Success (``costly``)
    hits at SE 0 on a failure."""

    def branch(effect: int) -> Dice[Hashable]:
        first: Dice[Hashable]
        if effect >= 0:
            first, struck = hit(effect), None
        else:
            first = hit(0) if costly else Dice.pure(miss)
            struck = None if back is None else back(effect)
        if struck is None:  # nothing strikes back: 0 taken
            if reads == "taken":
                return Quiet(first).map(lambda _: 0)
            return first.map(lambda d: (d, unhurt)) if reads == "both" else first
        if reads == "taken":
            return Quiet(first).pair(struck).map(lambda p: p[1])
        if reads == "both":
            return first.pair(struck).map(tuple)
        return first.pair(Quiet(struck)).map(lambda p: p[0])

    return branch


@lru_cache(maxsize=256)
def _plain_attack(
    procedure: Procedure[Any, int],
    spec: DamageSpec,
    armour: Target,
    options: Options,
    costly: bool,
) -> Dice[Hashable]:
    """The dice of an attack that nothing strikes back and whose odds report the damage
    dealt: the check, then the weapon's rolls (see :func:`_after_check`). One program,
    its odds worked out once, for every attack with the same check, weapon and armour
    (the states of an exact chain: the check's procedure is made once per modifier,
    Difficulty and Advantage)."""
    branch = _after_check(
        _hits(spec, armour, cast("Report[Hashable]", DAMAGE), options), costly, 0, "hit", None
    )
    return Dice.of(procedure).bind(branch).remembered()


_SHARED: dict[Hashable, Dice[Hashable]] = {}
"""Attack programs by everything their dice and odds read (:func:`_shared`), at most
:data:`SHARED` of them."""

SHARED = 256


def _program_key(
    built: Built,
    spec: DamageSpec,
    armour: Target,
    options: Options,
    costly: bool,
    reads: Reads,
    report: Report[Any],
) -> Hashable | None:
    """What an attack's dice read of its own side: the check's procedure, the weapon, the
    target's armour, the options, a Costly Success, what the odds read and the report
    (by name and key: ``None`` for a report that reads more of the target)."""
    if report.key is None:
        return None
    return (built.procedure, spec, armour, options, costly, reads, report.name, report.key)


def _shared(
    at: Hashable,
    strikes: Strikes,
    attacker: Sheet | None,
    back_report: Report[Any],
    program: Dice[Hashable],
) -> Dice[Hashable]:
    """One program, its odds worked out once, for every attack whose dice read the same
    (an exact chain's states differ in the damage each side carries, which changes
    neither weapon's rolls): ``at`` with what the strike back reads (its threat, weapon,
    the attacker's armour and cover, the skill against it, its report)."""
    if back_report.key is None:
        return program
    t = strikes.threat
    back: Hashable = None
    if t is not None:
        back = (
            t,
            damage_source(t.damage, t.weapon, t.rate_of_attack, strikes.owner),
            armour_of(t.armour, attacker),
            cover_for(t.mitigating, t.cover_armour, attacker),
            strikes.skill,
        )
    key = (at, back, back_report.name, back_report.key)
    found = _SHARED.get(key)
    if found is None:
        if len(_SHARED) >= SHARED:
            _SHARED.clear()
        found = _SHARED[key] = program.remembered()
    return found


def _most_struck_back(
    strikes: Strikes, attacker: Sheet | None, options: Options, bleeding_read: bool = False
) -> int | None:
    """The most one roll of the threat strikes the attacker with, where what it strikes
    back with is all it changes: no cover takes rolls and, unless the odds read whether
    the attacker Bleeds (``bleeding_read``), no one roll can make them Bleed (``None``
    otherwise; 0 when nothing strikes back)."""
    t = strikes.threat
    if t is None:
        return 0
    if cover_for(t.mitigating, t.cover_armour, attacker).protection:
        return None
    spec = damage_source(t.damage, t.weapon, t.rate_of_attack, strikes.owner)
    most = most_one_roll(spec, armour_of(t.armour, attacker), options)
    if not bleeding_read and attacker is not None and bleeds_from(most, attacker, options):
        return None
    return most


def _dealt(reported: Hashable, most: int) -> tuple[int, int]:
    """``(total, largest roll)`` of one side's reported damage: a :class:`~.damage.Wound`
    says whether a roll made its victim Bleed (the largest roll: the most one roll deals,
    or none); a plain total stands where no roll can (every roll the most one deals)."""
    if isinstance(reported, Wound):
        return reported.damage, most if reported.bleeding else 0
    return cast(int, reported), most


def plan_attack(action: Attack, state: State, options: Options) -> Plan:
    """An attack (ch. 7, Damage): the check; on a Success Effect the weapon's damage
    rolls against the target (SE + 1 limited by the Rate of Attack, armour per roll);
    on a failure (or a Costly Success's Fail Effect) the threat's rolls against the
    attacker, with the attack's skill as the last defence. The odds report the damage
    dealt to the target (or, by ``report``, its condition, Bleeding or massive damage)."""
    attacker = sheet_of(state, action.actor)
    victim = sheet_of(state, action.target)
    referee_does_not_roll(action, attacker, victim, options)
    parts = _attack_parts(action, attacker, victim)
    spec, check, armour = parts.spec, parts.check, parts.armour
    aim = aim_modifier(state.characters.get(action.actor) if action.actor else None)
    if aim is not None:  # the Aim modifier built so far (ch. 2), spent by this attack
        check = replace(check, modifiers=(*check.modifiers, aim))
    bleeds = violent_bleeds(attacker, options)
    _allow_costly(check, options)
    built = build(check, attacker, options)
    reads: Reads = "hit"  # the odds read the hit, the strike back, or both
    if action.report in ("taken", "exchange"):
        reads = "taken" if action.report == "taken" else "both"
    exchange = reads == "both"  # each side's Wound: the damage and whether it Bleeds
    hit_kind = "wound" if exchange and victim is not None else "damage"
    report = report_for(hit_kind if reads != "hit" else action.report, victim, options)
    miss = report.read((), 0)
    back_report = DAMAGE
    if exchange and attacker is not None:
        back_report = report_for("wound", attacker, options)
    target_hp = action.target_hp if action.target_hp is not None else None
    if action.location is not None and target_hp is None:
        if victim is None:
            raise IllegalAction("targeted damage needs the target's HP (a target, or target_hp)")
        target_hp = victim.hp
    threat = action.threat
    if threat is None and strikes_back(state, action.target, options):
        threat = struck_back(action, attacker, victim, options)
    hit = _hits(spec, armour, report, options)
    strikes = Strikes(
        state, threat, attacker, built.skill_level, options, check.costly_success, back_report
    )
    plain = threat is None and reads == "hit" and report is DAMAGE and action.location is None
    if plain:  # the same dice wherever the check, weapon and armour agree: odds once
        program = _plain_attack(built.procedure, spec, armour, options, check.costly_success)
    else:
        back = None if threat is None else (lambda effect: strikes.at(effect).program)
        branch = _after_check(hit, check.costly_success, miss, reads, back, back_report.read((), 0))
        program = Dice.of(built.procedure).bind(branch)
        at = _program_key(built, spec, armour, options, check.costly_success, reads, report)
        if at is not None:
            program = _shared(at, strikes, attacker, back_report, program)

    def spent(changes: Changes, details: dict[str, Any]) -> None:
        """What the attack costs the attacker, however it falls: Bleeding for a violent
        action while Critically Wounded, and the Aim built so far."""
        if bleeds and action.actor is not None:
            details["bleeding"] = True
            changes.add(action.actor, "Bleeding", "a violent action while Critically Wounded")
        if aim is not None and action.actor is not None:
            details["aim"] = aim.value
            changes.set(action.actor, "aim", 0, "the attack spends the aim")

    def worked(
        trace: Trace, lean: bool = False
    ) -> tuple[Changes, list[DieRoll], int, str, dict[str, Any], bool]:
        """What the faces of ``trace`` make of the attack: the changes, the dice, the
        Effect, the label, the details and whether it succeeded (``lean``: only the
        changes are read, so the check's details, its dice and the damage rolls' dice
        and condition report are not made)."""
        entries = list(trace)
        faces = entries[0]
        effect = built.procedure.apply(faces)
        details = {} if lean else built.details(faces, effect)
        changes = Changes(state)
        spent(changes, details)
        dice = [] if lean else list(built.dice(faces))
        success, label = effect >= 0, effect_label(effect)
        se: int | None = effect if success else None
        back = 0
        at = 1
        if not success:
            back = strikes.degree(effect)
            if check.costly_success:
                details["costly_success"] = {"fail_effect": back, "success_effect": 0}
                se, success = 0, True
        if se is not None:
            program_ = hit(se)
            rolls = program_.replay(entries[at : at + program_.rolls], dice=not lean)
            at += program_.rolls
            if not lean:
                details["weapon_rolls"] = rolls.data()
                details["damage_dealt"] = rolls.total
                dice += [d for group in rolls.dice for d in group]
            if victim is not None and action.target is not None:
                details["target"] = _hurt(
                    changes, action.target, victim, rolls, options, report=not lean
                )
            if action.location is not None:
                assert target_hp is not None
                hurt = targeted_effect(action.location, rolls.total, target_hp)
                details["targeted"] = {"location": action.location, "effect": hurt}
                if hurt and action.target is not None:
                    changes.add(action.target, hurt, f"targeted {action.location}")
            label = (
                _costly_label(back, None) if check.costly_success and effect < 0 else label
            ) + f": {rolls.total} damage"
        if back and threat is not None:
            inc = strikes.strike(back)
            data = incoming_outcome(
                inc, entries[at : at + inc.entries], changes, action.actor, attacker, options
            )
            dice += data.pop("_dice")
            details["incoming"] = data
            if check.costly_success:
                label = _costly_label(back, inc.mitigation) + label[label.index(":") :]
            if data["ordinary_failure"] and se is None:
                label = "Ordinary Failure"
            else:
                label += f"; took {data['damage']} damage"
        return changes, dice, effect, label, details, success

    def finish(_result: Hashable, trace: Trace) -> Outcome:
        changes, dice, effect, label, details, success = worked(trace)
        return built.outcome(
            "attack", tuple(dice), effect, label, changes.build(), details, success=success
        )

    def after(_result: Hashable, trace: Trace) -> State:
        return worked(trace, lean=True)[0].after()

    wound = report.name == "wound"  # the damage and Bleeding: all a hit changes
    if (report is not DAMAGE and not wound) or action.location is not None or reads == "taken":
        return Plan.of(program, finish, after=after)
    if threat is not None and reads != "both":  # the strike back changes what is not read
        return Plan.of(program, finish, after=after)
    try:  # a weapon whose one roll's odds are too costly is rolled, not decided
        most = most_one_roll(spec, armour, options)
        back_most = _most_struck_back(strikes, attacker, options, back_report is not DAMAGE)
    except OddsTooComplex:
        return Plan.of(program, finish, after=after)
    if back_most is None or (
        not wound and victim is not None and bleeds_from(most, victim, options)
    ):
        return Plan.of(program, finish, after=after)

    def decided(reported: Hashable) -> State:
        """The state after an attack whose reported damage decides it: the total dealt
        (and, for ``exchange``, the total taken back), each with whether one roll made its
        victim Bleed where it could (a :class:`~.damage.Wound`; else no one roll can, so
        every roll of a total counts as the most one roll deals, for that rule; the total
        alone decides massive damage), where no cover takes rolls."""
        pair = reported if isinstance(reported, tuple) else (reported, 0)
        dealt, largest = _dealt(pair[0], most)
        took, back_largest = _dealt(pair[1], back_most or 0)
        changes = Changes(state)
        spent(changes, {})
        if dealt and victim is not None and action.target is not None:
            _hurt(changes, action.target, victim, Dealt(dealt, largest), options, report=False)
        if took and action.actor is not None:
            hurt = Dealt(took, back_largest)
            _hurt(changes, action.actor, attacker, hurt, options, report=False)
        return changes.after()

    return Plan.of(program, finish, after=after, decided=decided)
