"""Every action a Mneme CE player or referee can take, as frozen records of its inputs.

Actions name characters by their id in the table's state (``actor`` is the character
taking the action; ``target``, ``patient`` and ``attacker`` are others); they never
carry a sheet. The ruleset's :meth:`~referee.systems.mneme.ruleset.MnemeRuleset.plan`
turns each into what it rolls and the outcome it leaves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from referee.systems.base import Action, Modifier, param
from referee.systems.mneme.damage import MAX_DAMAGE_ROLLS, Target
from referee.systems.mneme.tables import (
    DEFAULT_DIFFICULTY,
    Activity,
    Care,
    Condition,
    Location,
)

if TYPE_CHECKING:
    pass

MAX_INPUT = 1000
"""Bound on numbers typed into an action (modifiers, Difficulties, mitigation)."""
MAX_ROUNDS = 6_000_000
"""Most rounds one action may pass."""
MAX_DAYS = 3650
"""Most days one action may pass (ten years)."""

Report = Literal["damage", "condition", "bleeding", "massive", "wound"]
"""What the odds of damage report: the damage dealt, the HP condition the target ends in,
whether one roll makes it Bleed, whether it takes massive damage (more than its HP), or
the wound: the damage dealt with whether one roll made it Bleed."""

ModifierKind = Literal["competence", "equipment", "condition", "action"]
"""The kinds of modifier a check is given (ch. 2, Modifiers to Rolls): Competence,
Equipment, Conditions (anything neither action nor equipment) and Action. Of one kind only
the most favourable applies; Advantage and wound penalties have their own rules."""

REPORT_DOC = (
    "what the odds report: damage dealt, the condition the target ends in, Bleeding "
    "from one roll, massive damage, or the wound: the damage with whether it made the "
    "target Bleed"
)
AttackReport = Literal["damage", "condition", "bleeding", "massive", "wound", "taken", "exchange"]
"""What an attack's odds report: what :data:`Report` says of the target, ``taken``: the
damage the attacker takes from the threat striking back on a failure, or ``exchange``:
both, as the pair of wounds (each the damage with whether it made its victim Bleed)."""


@dataclass(frozen=True)
class Mitigating:
    """Mitigating Factors against a Fail Effect, by priority (ch. 2, ch. 7): conditions,
    then cover, then skill. ``skill=None`` takes the defender's relevant combat skill
    from their sheet (the skill of the failed check), the last defence."""

    conditions: int = param(
        0, "first priority: conditions (concealment, range, size, movement)", ge=0, le=MAX_INPUT
    )
    cover: int = param(
        0,
        "second priority: the cover's protection value; it takes the rolls it absorbs "
        "(0 with cover_index: the object's own)",
        ge=0,
        le=MAX_INPUT,
    )
    skill: int | None = param(
        None,
        "third priority: skill (none: the defender's combat skill from their sheet)",
        ge=0,
        le=MAX_INPUT,
    )
    cover_index: int | None = param(
        None, "the defender's protection object (0 = the first on the sheet)", ge=0, le=100
    )


@dataclass(frozen=True)
class CheckInputs:
    """What a check rolls: 2d6 + modifiers against a Difficulty (ch. 2).

    With a character rolling, ``characteristic`` and ``skill`` add Competence and the
    wound penalty applies; ``combined_skills`` raise the Difficulty by 1 per additional
    skill the character lacks. ``conditions`` are named presets that raise (or, with a
    leading ``-``, lower) the Difficulty; they stack with condition modifiers given by
    number by one rule (option ``condition_stacking``). ``stakes=False``: nothing to
    gain or lose, no roll. ``costly_success``: on a failure, pay 2 x Fail Effect + 3 to
    succeed at Effect 0. ``mitigating``: reduce a Fail Effect by the three priorities.
    ``costly_failure``: the referee rules a failure costly; its degree is the Fail Effect.
    ``stealth``: a stealth roll with the better of Recon and Streetwise. ``duration``: the
    task's duration roll (``1d6``) in steps of ``unit``: the time the Effect makes it
    take. ``violent``: a violent action (a Critically Wounded character bleeds).
    """

    difficulty: int = param(DEFAULT_DIFFICULTY, "the Difficulty", ge=-MAX_INPUT, le=MAX_INPUT)
    modifiers: tuple[Modifier, ...] = param(
        (),
        "typed modifiers (value, source, kind: competence, equipment, condition, action); "
        "of one kind only the most favourable applies (conditions: per condition, option "
        "condition_stacking)",
    )
    advantage: int = param(0, "steps of Advantage (cancel Disadvantage one for one)", ge=0, le=20)
    disadvantage: int = param(0, "steps of Disadvantage", ge=0, le=20)
    characteristic: str | None = param(None, "the characteristic rolled (Str, Dex, End...)")
    skill: str | None = param(None, "the skill rolled", sheet="skills")
    combined_skills: tuple[str, ...] = param((), "skills the task combines, the rolled one first")
    conditions: tuple[str, ...] = param(
        (),
        "condition presets on the Difficulty: concealment|cover:partial|mostly|full, "
        "'close quarters:ranged', 'superior firepower:1..3', 'superior position:1..2', "
        "outnumbered:minor|significant|overwhelming; a leading '-' is the PC's own edge",
    )
    stakes: bool = param(True, "whether anything is at stake (no stakes: no roll)")
    costly_success: bool = param(False, "take a failure as a Costly Success")
    mitigating: Mitigating | None = param(
        None, "Mitigating Factors against a Fail Effect: conditions, cover, skill"
    )
    wounds: bool = param(True, "whether the wound penalty applies")
    costly_failure: bool = param(False, "the referee rules a failure costly")
    stealth: bool = param(False, "a stealth roll (the better of Recon and Streetwise)")
    duration: str | None = param(None, "the task's duration roll, e.g. 1d6")
    unit: int = param(1, "the duration's smallest unit", ge=1, le=1_000_000)
    violent: bool = param(False, "a violent action")


@dataclass(frozen=True)
class Threat:
    """What strikes the character on a Fail Effect (ch. 7, Damage Rolls): the adversaries'
    damage per roll, or a weapon on the ``attacker``'s sheet, with the adversaries' summed
    Rate of Attack, and the Mitigating Factors. ``armour`` none: the armour the victim
    wears; ``cover_armour`` none: the AR of the protection object taking cover."""

    damage: str = param("", "the damage of one roll: 3d6-2, or scaled 'D 3d3'")
    weapon: str = param(
        "", "a weapon on the attacker's sheet (instead of damage)", decided_by="attacker"
    )
    attacker: str | None = param(None, "the attacker whose weapon it is", ref="character")
    rate_of_attack: int | None = param(
        None, "the adversaries' summed Rate of Attack", ge=1, le=MAX_DAMAGE_ROLLS
    )
    armour: Target | None = param(None, "the victim's armour (none: what they wear)")
    mitigating: Mitigating = param(
        factory=Mitigating, doc="Mitigating Factors (conditions, cover, skill)"
    )
    cover_armour: Target | None = param(None, "the cover's own armour (none: the object's)")


@dataclass(frozen=True)
class Check(CheckInputs, Action):
    """A check by ``actor`` (their sheet gives Competence and wound penalties), or a bare
    check with the modifiers given when no character rolls it (ch. 2).

    ``threat``: the roll a PC makes against an adversary's attack (ch. 2, Referee Doesn't
    Roll: the PC rolls, the adversary's attack is the roll's Fail Effect): on a failure
    the threat's damage rolls strike the actor, through the threat's Mitigating Factors
    with the check's skill as the last defence."""

    reads: ClassVar[tuple[str, ...] | None] = ("actor",)  # its Effect: the threat's strikes
    # follow a failure, and what the odds report is the check's own Effect

    actor: str | None = param(None, "the character rolling (none: a bare check)", ref="character")
    threat: Threat | None = param(
        None, "the adversary's attack this roll meets: its damage strikes on a Fail Effect"
    )

    def roles(self) -> dict[str, str]:
        """As every action, and the threat's attacker strikes back (ch. 7, Fail Effect)."""
        return _striking(super().roles(), self.threat)


@dataclass(frozen=True)
class Attack(Action):
    """An attack with a weapon (ch. 7, Damage): the check, then on a Success Effect the
    weapon's damage rolls against the target (SE + 1, limited by the Rate of Attack,
    armour per roll), or on a failure the ``threat``'s rolls against the attacker.
    An attack is a violent action.

    ``weapon`` names a weapon on the attacker's sheet (its damage, scale, Rate of Attack
    and, when the check names a characteristic but no skill, its skill); otherwise
    ``damage`` and ``rate_of_attack`` give them. ``armour`` none: the target's worn
    armour. ``location`` with the target's HP (or ``target_hp``) gives the targeted
    damage effect.
    """

    actor: str | None = param(None, "the attacker", ref="character")
    target: str | None = param(None, "the character attacked", ref="character")
    check: CheckInputs = param(factory=CheckInputs, doc="the attack check")
    weapon: str = param("", "a weapon on the attacker's sheet", main=True)
    damage: str = param(
        "", "the damage of one roll when no weapon is named: 3d6-2, 'D 3d3'", main=True
    )
    rate_of_attack: int | None = param(
        None, "Rate of Attack (none: the weapon's, or no limit)", ge=1, le=MAX_DAMAGE_ROLLS
    )
    armour: Target | None = param(None, "the target's armour (none: what the target wears)")
    threat: Threat | None = param(None, "what strikes back on a failure")
    location: Location | None = param(None, "a targeted location")
    target_hp: int | None = param(None, "the target's HP when no target is seated", ge=0)
    report: AttackReport = param(
        "damage",
        REPORT_DOC + "; or taken: the damage the attacker takes back; or exchange: both, "
        "as the pair of wounds (dealt, taken)",
        main=True,
    )

    def roles(self) -> dict[str, str]:
        """As every action, and the threat's attacker strikes back (ch. 7, Fail Effect)."""
        return _striking(super().roles(), self.threat)


@dataclass(frozen=True)
class TakeDamage(Action):
    """Damage rolls against ``actor`` from a known Fail Effect (ch. 7): mitigation, the
    cover's rolls, then one roll per point left (limited Rate of Attack), armour per roll.

    ``skill`` names the failed check's skill, whose level on the victim's sheet is the
    last defence when the threat's mitigation gives none (else their best weapon skill).
    ``massive_roll``: when the rolls deal more than HP, make the End roll at 8 that
    massive damage calls for at once (ch. 7, Massive Damage).
    """

    actor: str | None = param(
        None, "the character struck (none: no sheet)", ref="character", role="target"
    )
    fail_effect: int = param(
        1, "the Fail Effect's degree (0 or more)", le=MAX_DAMAGE_ROLLS, main=True
    )
    threat: Threat = param(factory=Threat, doc="the damage that strikes")
    skill: str | None = param(None, "the failed check's skill (the last defence)")
    massive_roll: bool = param(False, "roll the massive-damage End roll at once")
    report: Report = param("damage", REPORT_DOC, main=True)

    def roles(self) -> dict[str, str]:
        """The character struck is a target; the threat's attacker strikes back."""
        return _striking(super().roles(), self.threat)


@dataclass(frozen=True)
class DamageRolls(Action):
    """``rolls`` damage rolls made as they are, with no check (a hazard, or damage
    rolls worked out by hand): the highest Rate of Attack count, armour per roll, and
    at ``effect`` 6+ each deals at least 1 (ch. 7, Damage Rolls, Armor)."""

    referee_only: ClassVar[bool] = True

    rolls: int = param(1, "how many damage rolls (at most 60)", ge=0, main=True)
    damage: str = param("", "the damage of one roll: 3d6-2, or scaled 'D 3d3'", main=True)
    weapon: str = param("", "a weapon on the attacker's sheet (instead of damage)")
    attacker: str | None = param(
        None, "the attacker whose weapon it is", ref="character", role="act"
    )
    rate_of_attack: int | None = param(
        None, "Rate of Attack: keep this many highest", ge=1, le=MAX_DAMAGE_ROLLS
    )
    effect: int = param(0, "the Effect degree the rolls come from", ge=0, le=MAX_INPUT)
    armour: Target | None = param(None, "the target's armour (none: what the target wears)")
    target: str | None = param(None, "the character struck", ref="character")
    report: Report = param("damage", REPORT_DOC, main=True)


@dataclass(frozen=True)
class SurvivalRoll(Action):
    """An End roll with wound penalties: 'dying' (each round, Difficulty 4), 'massive'
    (Difficulty 8 after massive damage) or 'intensive' (intensive care, Difficulty 8)
    (ch. 7, Dying, Massive Damage, Intensive Care).

    A massive-damage roll at a table follows the hit that dealt it (the table waits for
    it); standing alone it needs ``damage_before``, the damage before that hit, since the
    wound penalty is the one the character had then (option ``massive_damage_wounds``).

    Intensive care under a Medic 2+ supervisor (``supervisor_medic``) or an AI sickbay,
    ``equipped`` with tools, help and resources, makes no roll. Otherwise a success heals
    2 and a failure brings a dying roll, rolled at once.
    """

    actor: str = param(doc="the character rolling", ref="character", role="respond")
    kind: Literal["dying", "massive", "intensive"] = param(
        "dying", "which End roll: dying (vs 4), massive (vs 8) or intensive (vs 8)"
    )
    modifiers: tuple[Modifier, ...] = param((), "other modifiers")
    supervisor_medic: int | None = param(
        None, "intensive care: the supervising Medic level", ge=0, le=20
    )
    ai_sickbay: bool = param(False, "intensive care in an AI sickbay")
    equipped: bool = param(True, "intensive care with tools, help and resources")
    damage_before: int | None = param(
        None,
        "massive: the damage the character had before the hit (none: the hit the table waits on)",
        ge=0,
        le=1_000_000,
    )


@dataclass(frozen=True)
class FirstAid(Action):
    """A Medic check to give first aid, 8 on another, 10 on oneself (ch. 7, First Aid):
    heals the Effect (at least 1, capped at the patient's damage), stops Bleeding, and
    stabilises a patient still Dying for hours equal to their End.

    ``rounds_left``: the check is one round of the 3-minute (30-round) task with that
    many rounds to go; the round passes, a Success Effect cuts that many more and a Fail
    Effect adds that many back (at most the whole task). The aid takes effect when the
    rounds reach 0. None: one check stands for the whole task.
    """

    actor: str = param(doc="the medic", ref="character")
    patient: str | None = param(
        None, "the patient (none: one not seated at the table)", ref="character", role="care"
    )
    on_self: bool = param(False, "first aid on oneself (Difficulty 10)")
    modifiers: tuple[Modifier, ...] = param((), "other modifiers (a kit, help...)")
    advantage: int = param(0, "steps of Advantage", ge=0, le=20)
    disadvantage: int = param(0, "steps of Disadvantage", ge=0, le=20)
    rounds_left: int | None = param(None, "one round of the task, this many to go", ge=1)


@dataclass(frozen=True)
class Surgery(Action):
    """A Medic check for surgery at Difficulty 8 in a hospital or sickbay (ch. 7,
    Surgery). The patient is a seated character, or one known only by their End and
    condition."""

    actor: str = param(doc="the surgeon", ref="character")
    patient: str | None = param(None, "the patient", ref="character", role="care")
    patient_end: int | None = param(None, "the patient's End (no patient seated)", ge=0, le=99)
    patient_condition: Condition | None = param(
        None, "the patient's condition (no patient seated; none: Seriously Wounded)"
    )
    facility: bool = param(True, "in a hospital or sickbay")
    modifiers: tuple[Modifier, ...] = param((), "tools, assistance...")


@dataclass(frozen=True)
class SetCare(Action):
    """What a character does while time passes (ch. 7, Healing and Recovery): their
    activity level and the care they get; ``supervised``: intensive care under a Medic
    2+ or an AI sickbay with tools; ``therapy``: a characteristic under therapy."""

    actor: str = param(doc="the character", ref="character", role="care")
    activity: Activity = param("full_rest", "activity level")
    care: Care = param("none", "care level")
    supervised: bool = param(True, "intensive care under a Medic 2+ or AI sickbay")
    therapy: str | None = param(None, "a characteristic under therapy")


@dataclass(frozen=True)
class PassTime(Action):
    """Time passes at the table (ch. 7, Healing and Recovery): each character (or those
    in ``who``) heals, bleeds, is stabilised, has therapy, at their own activity and
    care; ``dying_rolls``: make the dying rolls that fall due, else only note them."""

    moves_time: ClassVar[bool] = True

    referee_only: ClassVar[bool] = True

    days: int = param(0, "days", ge=0, le=MAX_DAYS)
    hours: int = param(0, "hours", ge=0, le=24 * MAX_DAYS)
    minutes: int = param(0, "minutes", ge=0, le=24 * 60 * MAX_DAYS)
    dying_rolls: bool = param(True, "roll the dying rolls that fall due (else note them)")
    who: tuple[str, ...] = param((), "only these characters (none: everyone alive)")


@dataclass(frozen=True)
class PassRounds(Action):
    """Combat rounds pass (6 seconds each): every Dying character makes an End roll at 4
    each round a roll is due until one fails (ch. 7, Dying), Bleeding adds 1 damage a
    minute, stabilisation counts down, and each PC's action budget is restored."""

    moves_time: ClassVar[bool] = True

    referee_only: ClassVar[bool] = True

    rounds: int = param(1, "rounds passing", ge=1, le=MAX_ROUNDS)
    who: tuple[str, ...] = param((), "only these characters (none: everyone alive)")


@dataclass(frozen=True)
class Stimulant(Action):
    """An adrenaline shot or combat stimulant given to a Critically Wounded character,
    who is out, to wake them (ch. 7, Critically Wounded: Special Conditions)."""

    patient: str = param(doc="the character given it", ref="character", role="care")
    actor: str | None = param(None, "who gives it", ref="character")
    kind: str = param("adrenaline shot", "what is given")


@dataclass(frozen=True)
class InitiativePC:
    """One PC rolling Initiative (companion facts, turn economy). A seated character
    (``who``) rolls with their sheet: the characteristic modifier (``characteristic``, else
    the ``initiative_characteristic`` option), the best relevant skill (``skill``, else the
    best of ``initiative_skills``) and the wound penalty. With ``modifier`` given, ``who``
    is just a name and ``modifier`` the whole ChM + skill (``characteristic_modifier``
    breaks ties by characteristic)."""

    who: str = param(doc="a seated character, or a name with a modifier")
    modifier: int | None = param(None, "the whole modifier (no sheet)", ge=-999, le=999)
    characteristic_modifier: int | None = param(None, "ChM for ties (no sheet)", ge=-99, le=99)
    advantage: int = param(0, "steps of Advantage", ge=0, le=20)
    disadvantage: int = param(0, "steps of Disadvantage", ge=0, le=20)
    characteristic: str | None = param(None, "the characteristic (default Dex)")
    skill: str | None = param(None, "the skill (default the best of Tactics and Recon)")


@dataclass(frozen=True)
class RollInitiative(Action):
    """Roll Initiative once for the encounter: 2d6 + characteristic modifier + a relevant
    skill for each PC; turns go in descending Initiative and the encounter's first round
    begins. Adversaries roll nothing: they act through the PCs' Fail Effects."""

    moves_time: ClassVar[bool] = True

    referee_only: ClassVar[bool] = True

    pcs: tuple[InitiativePC, ...] = param((), "the PCs (none: every seated character who can act)")
    report: Literal["order", "totals"] = param(
        "order", "what the odds report: the turn order, or each PC's Initiative"
    )

    def roles(self) -> dict[str, str]:
        """Each PC named rolls: they act."""
        return {pc.who: "act" for pc in self.pcs}


@dataclass(frozen=True)
class EndEncounter(Action):
    """The encounter ends: the Initiative order and the round count are cleared."""

    referee_only: ClassVar[bool] = True


@dataclass(frozen=True)
class SpendAction(Action):
    """Spend ``count`` actions of ``kind`` from the character's budget for the round: 3
    Minor actions a round, a Significant action costs two, free actions are counted but
    never refused (companion facts, turn economy)."""

    actor: str = param(doc="the character acting", ref="character")
    kind: Literal["free", "minor", "significant"] = param("minor", "the kind of action")
    count: int = param(1, "how many", ge=1, le=MAX_INPUT)


@dataclass(frozen=True)
class CareWard(Action):
    """A caregiver's ward (ch. 7, Medical Care, Care Levels): each patient's care level,
    the load in light-care patients against the caregiver's capacity, and whether the
    intensive-care patients have the Medic 2+ supervision they need."""

    referee_only: ClassVar[bool] = True

    patients: tuple[str, ...] = param(
        (), "seated patients (their condition counts)", ref="character", role="care"
    )
    conditions: tuple[Condition, ...] = param((), "more patients by condition")
    medic: int = param(0, "the caregiver's Medic level", ge=0, le=20)
    supervisor_medic: int | None = param(None, "a supervising Medic's level", ge=0, le=20)
    ai_sickbay: bool = param(False, "an AI sickbay supervises intensive care")


@dataclass(frozen=True)
class Aim(Action):
    """Aim (ch. 2, Modifiers to Rolls: "Some Modifiers are Temporary (e.g., Aim Modifier
    increases as minor actions are used)"): spend ``count`` Minor actions of the round
    aiming; each adds the option ``aim_step`` to the character's Aim modifier, up to
    ``aim_max``. Their next attack adds it as an action modifier and spends it; it is
    lost when they take damage or do anything else (options ``aim_lost_on_damage``,
    ``aim_lost_on_other_action``) and when the encounter ends."""

    actor: str = param(doc="the character aiming", ref="character")
    count: int = param(1, "Minor actions spent aiming", ge=1, le=MAX_INPUT)


@dataclass(frozen=True)
class UsePsionics(Action):
    """Spend Psionic Points (ch. 7, Healing and Mental Characteristics: "Use of Psionics
    falls under Exhaustion Rules; each Psionic Point equals 1 hour of moderate activity"):
    ``points`` of the character's Psionic Strength (Psi) are spent as Psi damage, and each
    brings exhaustion damage (option ``psionic_exhaustion``), which makes the character
    Wounded (ch. 7, Wounded) until it heals; Psi comes back as it does."""

    actor: str = param(doc="the psion", ref="character")
    points: int = param(1, "Psionic Points spent", ge=1, le=MAX_INPUT)
    power: str = param("", "what the points are spent on (a note for the log)")


def _striking(roles: dict[str, str], threat: Threat | None) -> dict[str, str]:
    """``roles`` with the threat's attacker striking back (ch. 7: "Adversaries who can
    attack back deal damage based on the Fail Effect degree")."""
    attacker = threat.attacker if threat is not None else None
    if attacker and roles.get(attacker, "target") == "target":  # the target striking back
        roles[attacker] = "strike-back"
    return roles
