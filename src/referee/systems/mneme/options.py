"""House rules for Mneme CE: one frozen value per table, defaults = the rulings.

Every field is a referee's choice that the texts leave open or state two ways
(``RULINGS.md``, Mneme CE); the defaults reproduce the rulings and the worked
examples.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.systems.records import check_one_of, option

HP_THRESHOLDS = ("chapter", "table")
STACKING = ("most_favourable", "best_bonus_worst_penalty")
TIME_RULES = ("smallest_unit", "percentage")
MASSIVE_WOUNDS = ("before", "after")
SURGERY_TIME = ("one_plus", "times")
INITIATIVE_TIES = ("simultaneous", "characteristic", "reroll")
RATE_OF_ATTACK_RULES = ("effect_exceeds", "rolls_exceed")
CONDITION_STACKING = ("by_condition", "one_kind")
ADVERSARY_ATTACKS = ("fail_effect", "referee_rolls")


@dataclass(frozen=True)
class Options:
    """The table's house rules for Mneme CE (ch. 2 and ch. 7)."""

    hp_thresholds: str = option(
        "chapter",
        "Seriously / Critically Wounded thresholds: 'chapter' = damage >= HP/3 and "
        ">= 2HP/3 (rounded down, the Injury Conditions text); 'table' = damage >= the best "
        "physical characteristic and >= twice it (the HP threshold table).",
        one_of=HP_THRESHOLDS,
    )
    stacking: str = option(
        "most_favourable",
        "Modifiers of one kind: 'most_favourable' = only the highest applies; "
        "'best_bonus_worst_penalty' = the largest bonus and the largest penalty both apply.",
        one_of=STACKING,
    )
    condition_stacking: str = option(
        "by_condition",
        "How conditions combine, given by number (--mod V:condition:NAME) or by preset "
        "(concealment:mostly...), both alike: 'by_condition' = different conditions add up "
        "and one condition named twice counts once, by the 'stacking' rule; 'one_kind' = all "
        "conditions are one kind of modifier, so only the 'stacking' rule's choice applies.",
        one_of=CONDITION_STACKING,
    )
    rate_of_attack_rule: str = option(
        "effect_exceeds",
        "Damage rolls against a limited Rate of Attack (ch. 7): 'effect_exceeds' = only an "
        "Effect exceeding the RoA rolls them all (SE + 1, or FE) and keeps the highest RoA; "
        "otherwise min(rolls, RoA) rolls are made (the SE 3 / RoA 3 example: three rolls); "
        "'rolls_exceed' = whenever the rolls exceed the RoA, roll them all and keep the highest "
        "RoA (SE 3 / RoA 3: four rolls, three kept).",
        one_of=RATE_OF_ATTACK_RULES,
    )
    max_net_advantage: int = option(
        1,
        "Net Advantage/Disadvantage steps that count after cancelling one for one "
        "(1 = 3d6 keep two; more steps roll one more die each).",
    )
    unskilled_penalty: int = option(-3, "Modifier for a check without the skill (ch. 2).")
    allow_unskilled: bool = option(
        True, "Whether an unskilled character may roll at all (the referee's call)."
    )
    wound_penalty_step: int = option(3, "Damage per -1 wound penalty to all rolls (full steps).")
    minimum_damage_effect: int = option(
        6,
        "A damage roll made at an Effect degree of at least this inflicts at least "
        "1 point through armour (0 = never).",
    )
    armour_scale_immunity: bool = option(
        True,
        "Armour of a scale (DAR, HAR, KAR) makes its wearer ignore damage of a lesser scale, "
        "as the text lists armour among what scale immunity protects (false: only the "
        "target's own scale gives immunity; the armour is then taken off in points).",
    )
    costly_success: bool = option(
        True, "Costly Success may be offered (the referee can still refuse it per action)."
    )
    dedicated_stealth: bool = option(
        False, "A Stealth skill may stand in for Recon or Streetwise on stealth rolls."
    )
    time_rule: str = option(
        "smallest_unit",
        "Task time from the Effect: 'smallest_unit' = median - Effect x unit, at "
        "least one unit (ch. 2); 'percentage' = the companion's 25/50/100/150 % table.",
        one_of=TIME_RULES,
    )
    dying_difficulty: int = option(
        4, "Difficulty of the End roll a Dying character makes each round."
    )
    massive_damage_difficulty: int = option(8, "Difficulty of the End roll after massive damage.")
    massive_damage_kills: bool = option(
        True, "A failed massive-damage roll is death (else the character is Dying)."
    )
    massive_damage_wounds: str = option(
        "before",
        "Wound penalties on the massive-damage End roll: 'before' = those the "
        "character had before the attack; 'after' = those of the damage including it "
        "(which makes surviving all but impossible).",
        one_of=MASSIVE_WOUNDS,
    )
    adversary_attacks: str = option(
        "fail_effect",
        "An adversary's attack on a PC (ch. 2, Referee Doesn't Roll): 'fail_effect' = it is "
        "the Fail Effect of the PC's own roll (an attack or check by the PC with the "
        "adversary as its threat), and an attack rolled by an adversary against anyone but "
        "another adversary is refused; 'referee_rolls' = the referee may roll the "
        "adversary's attack as a PC would (a house rule the text does not use).",
        one_of=ADVERSARY_ATTACKS,
    )
    strike_back: bool = option(
        True,
        "Where the referee doesn't roll (adversary_attacks 'fail_effect'), a PC's attack on "
        "an adversary given no threat is struck back on its Fail Effect by that adversary's "
        "first weapon (ch. 2: the adversaries' attacks are the PCs' Fail Effects); off: such "
        "a failure strikes nothing unless the attack names its threat.",
    )
    aim_step: int = option(
        1,
        "Aim (ch. 2, a temporary modifier that increases as minor actions are used): the "
        "modifier each Minor action spent aiming adds (the text gives no number).",
    )
    aim_max: int = option(
        3,
        "The most the Aim modifier can build to (the text gives no number; 3 is one round's "
        "Minor actions at +1 each).",
    )
    aim_lost_on_damage: bool = option(
        True, "Taking damage loses the Aim modifier built so far (it is temporary)."
    )
    aim_lost_on_other_action: bool = option(
        True,
        "Any other action of the aiming character but aiming again or attacking (a check, "
        "spending an action, first aid...) loses the Aim modifier.",
    )
    psionic_exhaustion: int = option(
        1,
        "Exhaustion damage per Psionic Point spent (ch. 7: each point equals 1 hour of "
        "moderate activity under the exhaustion rules, a chapter outside the texts; 1 hour "
        "of moderate activity is taken as 1 point).",
    )
    intensive_care_heal: int = option(
        2, "Damage healed by a successful unsupervised intensive-care roll."
    )
    critically_wounded_out: bool = option(
        True,
        "A Critically Wounded character is out (unconscious) and takes no violent "
        "action until an adrenaline shot or combat stimulant wakes them (false: the "
        "referee judges it; a violent action still causes Bleeding).",
    )
    first_aid_rounds: int = option(30, "Rounds a first-aid task takes (3 minutes).")
    surgery_minutes: int = option(30, "Base duration of surgery.")
    surgery_time: str = option(
        "one_plus",
        "How the Fail Effect left after the Medic skill multiplies surgery's time: "
        "'one_plus' = x (1 + left), so every point left costs time; 'times' = x left "
        "(at least x 1), the words read literally.",
        one_of=SURGERY_TIME,
    )
    care_capacity_base: int = option(8, "Light-care patients a Medic-0 caregiver can care for.")
    monitoring_base: int = option(32, "Light-care patients a Medic-0 character can monitor a day.")
    initiative_characteristic: str = option(
        "Dex",
        "The characteristic whose modifier a PC adds to Initiative from a sheet (the "
        "companion names none; a PC entry may name another).",
    )
    initiative_skills: tuple[str, ...] = option(
        ("Tactics", "Recon"),
        "Skills relevant to Initiative: a PC from a sheet adds the best of these they "
        "have (unskilled, the first of them with the unskilled penalty).",
    )
    initiative_ties: str = option(
        "simultaneous",
        "Tied Initiatives: 'simultaneous' = the tied PCs share one turn step and act "
        "together, in whatever order the referee likes; 'characteristic' = the higher "
        "characteristic modifier goes first (still tied: simultaneous); 'reroll' = the "
        "tied PCs roll again, only to order themselves, until no tie is left.",
        one_of=INITIATIVE_TIES,
    )

    def __post_init__(self) -> None:
        from referee.errors import RulesError

        check_one_of(self)
        if not self.initiative_skills:
            raise RulesError("initiative_skills needs at least one skill")
        if not 0 <= self.max_net_advantage <= 3:
            raise RulesError("max_net_advantage must be 0..3")
        if not 0 <= self.aim_step <= self.aim_max <= 100:
            raise RulesError("aim_step and aim_max must satisfy 0 <= aim_step <= aim_max <= 100")
        if not 1 <= self.psionic_exhaustion <= 100:
            raise RulesError("psionic_exhaustion must be 1..100")
        if self.wound_penalty_step < 1:
            raise RulesError("wound_penalty_step must be at least 1")
