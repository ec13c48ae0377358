"""The action types a Mneme CE player or referee can resolve (inputs only, frozen)."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.systems.base import Modifier
from referee.systems.mneme.damage import DamageSpec, Target
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
    Rate of Attack, and the character's armour (ch. 7, Damage Rolls)."""

    damage: DamageSpec
    armour: Target = field(default_factory=Target)
    mitigating: Mitigating = field(default_factory=Mitigating)
    cover_armour: Target = field(default_factory=Target)


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
    outcome gives the time the Effect makes it take.
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


@dataclass(frozen=True)
class Attack:
    """An attack check with a weapon (ch. 7, Damage): a Success Effect makes SE + 1
    damage rolls, the highest Rate of Attack count, armour per roll. On a failure a
    ``threat`` strikes back through the mitigated Fail Effect. ``location`` (limb,
    extremity, head, vitals) with ``target_hp`` gives the targeted-damage effect."""

    check: Check
    weapon: DamageSpec
    target: Target = field(default_factory=Target)
    threat: Threat | None = None
    location: str | None = None
    target_hp: int | None = None


@dataclass(frozen=True)
class TakeDamage:
    """Damage rolls against the character from a known Fail Effect (ch. 7)."""

    fail_effect: int
    threat: Threat


@dataclass(frozen=True)
class SurvivalRoll:
    """An End roll with wound penalties: ``kind`` is 'dying' (each round, Difficulty 4),
    'massive' (Difficulty 8 after massive damage) or 'intensive' (unsupervised intensive
    care, Difficulty 8) (ch. 7, Dying, Massive Damage, Intensive Care)."""

    kind: str
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class FirstAid:
    """A Medic check to give first aid (ch. 7, First Aid); the state is the medic's
    sheet, the patient's damage and conditions are given as ``patient``."""

    on_self: bool = False
    modifiers: tuple[Modifier, ...] = ()
    advantage: int = 0
    disadvantage: int = 0


@dataclass(frozen=True)
class Surgery:
    """A Medic check for surgery, Difficulty 8 (ch. 7, Surgery)."""

    patient_end: int
    patient_condition: str
    facility: bool = True
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class PassTime:
    """Time passes for the character (ch. 7, Healing and Recovery): the clock."""

    days: int = 0
    hours: int = 0
    minutes: int = 0
    activity: str = "full_rest"
    care: str = "none"
    therapy: str | None = None
