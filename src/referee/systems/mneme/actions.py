"""The action types a Mneme CE player or referee can resolve (inputs only, frozen)."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.systems.base import Modifier
from referee.systems.mneme.budget import ActionBudget
from referee.systems.mneme.damage import DamageSpec, Target
from referee.systems.mneme.sheet import Character
from referee.systems.mneme.tables import DEFAULT_DIFFICULTY


@dataclass(frozen=True)
class Mitigating:
    """Mitigating Factors against a Fail Effect, by priority (ch. 2): conditions, then
    cover (``cover`` = its protection value; ``cover_index`` names the sheet's object that
    takes the absorbed rolls), then skill."""

    conditions: int = 0
    cover: int = 0
    skill: int = 0
    cover_index: int | None = None


@dataclass(frozen=True)
class Threat:
    """What hits the character on a Fail Effect: the adversaries' damage with their summed
    Rate of Attack, and the character's armour (ch. 7, Damage Rolls).

    ``damage`` may name a weapon on the ``attacker`` sheet (``"Broadsword"``);
    ``rate_of_attack`` then overrides the weapon's (the adversaries' summed RoA).
    ``armour=None`` uses the armour worn on the character's own sheet (none without one);
    ``cover_armour=None`` the AR of the sheet's protection object named by
    ``mitigating.cover_index`` (none without one).
    """

    damage: DamageSpec | str
    armour: Target | None = None
    mitigating: Mitigating = field(default_factory=Mitigating)
    cover_armour: Target | None = None
    attacker: Character | None = None
    rate_of_attack: int | None = None


@dataclass(frozen=True)
class Check:
    """A check: 2d6 + modifiers against a Difficulty (ch. 2).

    With a character as state, ``characteristic`` and ``skill`` add Competence and the
    wound penalty applies; ``combined_skills`` raise the Difficulty by 1 per additional
    skill the character lacks. ``stakes=False``: nothing to gain or lose, no roll.
    ``costly_success``: on a failure, pay 2 x Fail Effect + 3 to succeed at Effect 0.
    ``mitigating``: reduce a Fail Effect by the three priorities.
    ``costly_failure``: the referee rules a failure costly (time, materials...); its
    degree is the Fail Effect. ``stealth``: a stealth roll, made with the better of
    Recon and Streetwise (or Stealth, by option) instead of ``skill``. ``duration``: the
    task's duration roll (e.g. ``1d6``) in ``unit`` steps of its smallest unit; the
    outcome gives the time the Effect makes it take. ``violent``: a violent action, which
    makes an awake Critically Wounded character bleed (ch. 7, Critically Wounded).
    """

    difficulty: int = DEFAULT_DIFFICULTY
    modifiers: tuple[Modifier, ...] = ()
    advantage: int = 0
    disadvantage: int = 0
    characteristic: str | None = None
    skill: str | None = None
    combined_skills: tuple[str, ...] = ()
    stakes: bool = True
    costly_success: bool = False
    mitigating: Mitigating | None = None
    wounds: bool = True
    costly_failure: bool = False
    stealth: bool = False
    duration: str | None = None
    unit: int = 1
    violent: bool = False


@dataclass(frozen=True)
class Attack:
    """An attack check with a weapon (ch. 7, Damage): a Success Effect makes SE + 1
    damage rolls, the highest Rate of Attack count, armour per roll. On a failure a
    ``threat`` strikes back through the mitigated Fail Effect. ``location`` (limb,
    extremity, head, vitals) with ``target_hp`` gives the targeted-damage effect.

    ``weapon`` may name a weapon on the attacker's sheet (the state): its damage, scale
    and Rate of Attack are used, and its skill when the check names a characteristic but
    no skill. ``target_sheet``: the target's sheet; its worn armour and scale are used
    when ``target`` is ``None``, its HP for targeted damage, and the outcome reports the
    condition it ends in, Bleeding and massive damage. An attack is a violent action.
    """

    check: Check
    weapon: DamageSpec | str
    target: Target | None = None
    threat: Threat | None = None
    location: str | None = None
    target_hp: int | None = None
    target_sheet: Character | None = None


@dataclass(frozen=True)
class TakeDamage:
    """Damage rolls against the character from a known Fail Effect (ch. 7).

    ``massive_roll``: when the rolls deal more than the character's HP, make the End
    roll at 8 that massive damage calls for at once (ch. 7, Massive Damage)."""

    fail_effect: int
    threat: Threat
    massive_roll: bool = False


@dataclass(frozen=True)
class SurvivalRoll:
    """An End roll with wound penalties: ``kind`` is 'dying' (each round, Difficulty 4),
    'massive' (Difficulty 8 after massive damage) or 'intensive' (intensive care,
    Difficulty 8) (ch. 7, Dying, Massive Damage, Intensive Care).

    Intensive care: with a Medic 2+ supervisor (``supervisor_medic``) or an AI sickbay
    (``ai_sickbay``), and ``equipped`` with tools, help and resources, no roll is made.
    Otherwise a success heals 2 and a failure brings a dying roll, rolled at once.
    """

    kind: str
    modifiers: tuple[Modifier, ...] = ()
    supervisor_medic: int | None = None
    ai_sickbay: bool = False
    equipped: bool = True


@dataclass(frozen=True)
class DyingRounds:
    """Rounds pass for a Dying character: one End roll at Difficulty 4 (wound penalties
    apply) each round in which a roll is due, until one fails (death) or the rounds end
    (ch. 7, Dying). Rounds under first-aid stabilisation need no roll; a Bleeding
    character takes 1 damage every 10 rounds (a minute)."""

    rounds: int = 1


@dataclass(frozen=True)
class Stimulant:
    """An adrenaline shot or combat stimulant given to a Critically Wounded character,
    who is out, to wake them (ch. 7, Critically Wounded: Special Conditions)."""

    kind: str = "adrenaline shot"


@dataclass(frozen=True)
class FirstAid:
    """A Medic check to give first aid (ch. 7, First Aid); the state is the medic's sheet
    and ``patient`` the patient's (the medic's own when ``on_self``). With the patient
    known the healing is capped at their damage, Bleeding is stopped only if present, and
    a patient still Dying is Stabilised for hours equal to their End.

    ``rounds_left``: the check is one round of the 3-minute (30-round) task with that
    many rounds to go; the round passes, a Success Effect cuts that many more and a Fail
    Effect adds that many back (at most the full task). The aid takes effect when the
    rounds reach 0, healing by that check's Effect. ``None``: one check stands for the
    whole task."""

    on_self: bool = False
    modifiers: tuple[Modifier, ...] = ()
    advantage: int = 0
    disadvantage: int = 0
    patient: Character | None = None
    rounds_left: int | None = None


@dataclass(frozen=True)
class Surgery:
    """A Medic check for surgery, Difficulty 8 (ch. 7, Surgery)."""

    patient_end: int
    patient_condition: str
    facility: bool = True
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class PassTime:
    """Time passes for the character (ch. 7, Healing and Recovery): the clock.

    ``dying_rolls``: make the dying rolls that fall due (one per round while Dying, not
    stabilised and not in intensive care) with the roller; otherwise they are only noted.
    ``supervised``: intensive care under a Medic 2+ (or AI sickbay) with tools; without it
    the clock notes that intensive-care rolls are due."""

    days: int = 0
    hours: int = 0
    minutes: int = 0
    activity: str = "full_rest"
    care: str = "none"
    therapy: str | None = None
    dying_rolls: bool = True
    supervised: bool = True


@dataclass(frozen=True)
class InitiativePC:
    """One PC rolling Initiative (companion facts, Mneme CE turn economy).

    With a ``sheet``: the sheet's name (unless ``name`` is given), its characteristic
    modifier (``characteristic``, else the ``initiative_characteristic`` option), the best
    relevant skill it has (``skill``, else the best of the ``initiative_skills`` option)
    and its wound penalty. Without one: ``modifier`` is the whole modifier (ChM + skill)
    and ``characteristic_modifier`` the ChM, needed only to break ties by characteristic.
    ``advantage`` / ``disadvantage``: steps a referee grants (cancel one for one).
    """

    name: str = ""
    modifier: int = 0
    characteristic_modifier: int | None = None
    advantage: int = 0
    disadvantage: int = 0
    sheet: Character | None = None
    characteristic: str | None = None
    skill: str | None = None


@dataclass(frozen=True)
class RollInitiative:
    """Roll Initiative once for the encounter: 2d6 + characteristic modifier + a relevant
    skill for each PC; turns go in descending Initiative. Adversaries roll nothing: they
    act through the PCs' Fail Effects (companion facts, turn economy)."""

    pcs: tuple[InitiativePC, ...]


@dataclass(frozen=True)
class SpendAction:
    """Spend ``count`` actions of ``kind`` ('free', 'minor', 'significant') from a PC's
    ``budget`` for the round, or start the next round (``kind='new-round'``), which
    restores it (companion facts, turn economy)."""

    kind: str
    count: int = 1
    budget: ActionBudget = field(default_factory=ActionBudget)
