"""Melee and ranged combat difficulties and the one-action-per-round rule.

ARM 1.2, Combat (Melee): the difficulty table (attack 4, moving target 6,
defence 4 + the attack result, prepared defence 2 + it, counter-blow defence
6 + it, berserk attack 3), size, circling with Wit against Wit, one action per
round except the counter-blow. ARM 1.2, Combat (Ranged): range limits by log
distance, twice the log distance added to the difficulty, dodging slow
missiles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict, Unpack

from referee.systems.arm.catalog import DEFAULT_SETTING, RangedWeapon, Setting, Spell
from referee.systems.arm.damage import Blow
from referee.systems.arm.options import DEFAULT_OPTIONS, Options
from referee.systems.arm.sheet import Sheet
from referee.systems.arm.tables import MELEE_DIFFICULTIES
from referee.systems.base import IllegalAction, Modifier, Problem, RulesError

MeleeAction = Literal[
    "attack",
    "attack moving",
    "defend",
    "prepared defence",
    "counter-blow defence",
    "counter-blow attack",
    "berserk attack",
]


def melee_difficulty(action: str, *, size: int = 0, attack_result: int | None = None) -> int:
    """The difficulty of a melee action.

    Attacks: the base minus the target's size (``size`` > 0 large, < 0 small).
    Defences: the base plus the attacker's result (required).
    """
    key = action.strip().lower()
    if key not in MELEE_DIFFICULTIES:
        raise RulesError(f"unknown melee action {action!r}; known: {', '.join(MELEE_DIFFICULTIES)}")
    base, kind = MELEE_DIFFICULTIES[key]
    if kind == "size":
        return base - size
    if attack_result is None:
        raise RulesError(f"{action!r} needs the attacker's result")
    return base + attack_result


MeleeRole = Literal["attack", "parry", "dodge"]
MELEE_ROLES: tuple[MeleeRole, ...] = ("attack", "parry", "dodge")


class MeleeSituation(TypedDict, total=False):
    """What a melee roll's situation adds (:func:`melee_modifiers`' keywords)."""

    weapon: str | None
    circled: bool
    standstill: bool
    after_berserk: bool
    setting: Setting
    options: Options | None


def melee_modifiers(
    sheet: Sheet,
    role: str,
    *,
    weapon: str | None = None,
    circled: bool = False,
    standstill: bool = False,
    after_berserk: bool = False,
    setting: Setting = DEFAULT_SETTING,
    options: Options | None = None,
) -> tuple[Modifier, ...]:
    """What a melee roll adds to stat + mods beyond the character's own mods.

    ARM 1.2, Combat (Melee): an attack adds the weapon's attack modifier (and
    the circling bonus after a successful Wit against Wit test); a parry adds
    the weapon's parry modifier; a dodge uses no weapon. Both defences get the
    standstill bonus when the fight is at a standstill, and any action right
    after a berserk attack takes the berserk penalty. The standstill bonus is
    the prepared defence expressed as a bonus: use it with the plain defence
    difficulty (4), not with the prepared one (2). In the example Christine
    attacks with Fitness 7 + Rapiers 2 + the rapier's +1 + circling 1 = 11, and
    Alex dodges with his bare Fitness 6.
    """
    key = role.strip().lower()
    if key not in MELEE_ROLES:
        raise RulesError(f"unknown melee roll {role!r}; known: {', '.join(MELEE_ROLES)}")
    opts = options or DEFAULT_OPTIONS
    found: list[Modifier] = []
    if key != "dodge":
        w = sheet.weapon(weapon, setting)
        value = w.attack if key == "attack" else w.parry
        found.append(Modifier(value, f"{w.name} {key}", "weapon"))
    elif weapon is not None:
        raise RulesError("a dodge uses no weapon; give --weapon only to attack or parry")
    if circled:
        if key != "attack":
            raise RulesError("the circling bonus is for the next attack")
        found.append(Modifier(opts.circling_bonus, "circling", "situation"))
    if standstill:
        if key == "attack":
            raise RulesError("the standstill bonus is for defences")
        found.append(Modifier(opts.standstill_defence_bonus, "standstill", "situation"))
    if after_berserk:
        found.append(Modifier(opts.berserk_penalty, "after a berserk attack", "situation"))
    return tuple(m for m in found if m.value)


def melee_total(
    sheet: Sheet,
    role: str,
    *mods: str,
    stat: str = "Fitness",
    **situation: Unpack[MeleeSituation],
) -> tuple[int, tuple[Modifier, ...]]:
    """Stat + the named mods + :func:`melee_modifiers` (given ``situation``, its
    keywords), and the modifiers themselves."""
    extra = melee_modifiers(sheet, role, **situation)
    return sheet.total(stat, *mods) + sum(m.value for m in extra), extra


# ---------------------------------------------------------------------------
# one action per round (ARM 1.2, Combat (Melee))

ROUND_ACTIONS = (
    "attack",
    "defend",
    "counter-defence",
    "counter-blow",
    "circle",
    "prepare",
    "move",
    "shoot",
    "cast",
    "other",
    "lost",
)
"""What a combatant can do with a round (``lost``: the round's action was taken away)."""

DEFENCES = ("defend", "counter-defence")
PREPARING = ("circle", "prepare")


def may_take(taken: Sequence[str], action: str) -> bool:
    """Whether ``action`` may follow the actions ``taken`` this round.

    One action per round (ARM 1.2, Combat (Melee)), with what the text itself
    allows beside it: a combatant who circles ("automatically preparing a
    defense") or waits prepared may still defend once; a defender may
    counter-blow (attack) right after a defence; a spell just cast may be
    flung at once.
    """
    if not taken:
        return action != "counter-blow"
    last = taken[-1]
    if action in DEFENCES:
        return last in PREPARING and not any(t in DEFENCES for t in taken)
    if action == "counter-blow":
        return last in DEFENCES
    return action == "shoot" and last == "cast"


def round_problems(plans: Mapping[str, Sequence[str]]) -> tuple[Problem, ...]:
    """Every combatant whose round breaks the one-action rule (see :func:`may_take`)."""
    problems: list[Problem] = []
    for who, actions in plans.items():
        names = tuple(a.strip().lower() for a in actions)
        for i, name in enumerate(names):
            if name not in ROUND_ACTIONS:
                problems.append(
                    Problem("ARM: Combat (Melee)", f"{who}[{i}]", "unknown action", name)
                )
        if any(n not in ROUND_ACTIONS for n in names):
            continue
        for i, name in enumerate(names):
            if not may_take(names[:i], name):
                why = (
                    "a counter-blow follows a defence"
                    if name == "counter-blow"
                    else "one action per round (circling or a prepared defence may still "
                    "defend; a counter-blow follows a defence)"
                )
                problems.append(Problem("ARM: Combat (Melee)", who, why, list(actions)))
                break
    return tuple(problems)


def may_defend(actions_taken: Sequence[str]) -> bool:
    """Whether a defender may still dodge or parry this round.

    A defender who already used this round's action (attacking, dodging...)
    gets no defence, so when both sides attack in the same round neither
    defends; one who circled or waited prepared still may (once).
    """
    return may_take(tuple(actions_taken), "defend")


# ---------------------------------------------------------------------------
# ranged combat (ARM 1.2, Combat (Ranged))


Missile = RangedWeapon | Spell
"""Anything shot, thrown or flung: a ranged weapon, or a set spell like the fire-ball."""


def max_range(weapon: Missile, stats: Mapping[str, int] | None = None) -> int | None:
    """A weapon's maximum log range (``None`` = unlimited); FIT+7 adds the stat."""
    limit = weapon.max_range
    stat = getattr(weapon, "range_stat", None)
    if limit is None:
        return None
    if stat is not None:
        if stats is None or stat not in stats:
            raise RulesError(f"{weapon.name}'s range depends on {stat}; give that stat")
        limit += stats[stat]
    return limit


def in_range(weapon: Missile, distance_log: int, stats: Mapping[str, int] | None = None) -> bool:
    """Whether a target at ``distance_log`` (standard units) is within range."""
    limit = max_range(weapon, stats)
    return limit is None or distance_log <= limit


def ranged_difficulty(
    distance_log: int,
    *,
    moving: bool = False,
    size: int = 0,
    cover: int = 0,
    weather: int = 0,
    options: Options | None = None,
) -> int:
    """4 (6 for a moving target) minus size, plus twice the log distance, cover and weather.

    A negative distance log counts as 0.
    """
    opts = options or DEFAULT_OPTIONS
    distance = max(0, distance_log) if opts.negative_distance_zero else distance_log
    return (6 if moving else 4) - size + 2 * distance + cover + weather


def ranged_stat(weapon: Missile) -> str:
    """Dexterity for an aiming task (bows, guns), Fitness for a throw (spears, stones).

    A spell that is flung (the fire-ball) is a throw, so Fitness (the package's ruling).
    """
    return "Dexterity" if isinstance(weapon, RangedWeapon) and weapon.aimed else "Fitness"


def dodge_missile_difficulty(
    weapon: Missile,
    hit_result: int,
    *,
    prepared: bool = False,
    options: Options | None = None,
) -> int:
    """Dodging a slow missile: 4 (prepared: the option, 2 by default) + the hit's result."""
    if not weapon.dodgeable:
        raise IllegalAction(f"{weapon.name} is too fast to dodge")
    base = (options or DEFAULT_OPTIONS).ranged_prepared_dodge if prepared else 4
    return base + hit_result


# ---------------------------------------------------------------------------
# building blows and ranged totals from sheets


def melee_blow(
    attacker: Sheet,
    defender: Sheet,
    result: int,
    *,
    weapon: str | None = None,
    setting: Setting = DEFAULT_SETTING,
) -> Blow:
    """The blow of a successful melee attack: result, damage value, strength, Toughness, armour.

    The strength mod (the setting's ``strength_mod``) adds when the weapon allows it.
    """
    w = attacker.weapon(weapon, setting)
    return _blow(attacker, defender, result, w.damage, w.strength, w.stun, setting)


def _blow(
    attacker: Sheet,
    defender: Sheet,
    result: int,
    damage: int,
    strength: bool,
    stun: bool,
    setting: Setting,
) -> Blow:
    """A landed blow: the attacker's result and damage (+ strength mod) against the
    defender's Toughness and armour values."""
    wound, shock = defender.armour_values(setting)
    return Blow(
        result=result,
        damage=damage,
        toughness=defender.stat("Toughness"),
        strength=attacker.mod(setting.strength_mod) if strength else 0,
        wound_armour=wound,
        shock_armour=shock,
        stun=stun,
    )


def ranged_blow(
    shooter: Sheet,
    defender: Sheet,
    weapon: Missile,
    result: int,
    *,
    setting: Setting = DEFAULT_SETTING,
) -> Blow:
    """The blow of a successful shot: its result + the weapon's damage value (+ a strength
    mod when the weapon allows it) against Toughness and armour (ARM 1.2, Combat (Ranged))."""
    if weapon.damage is None:
        raise RulesError(f"{weapon.name} does no damage")
    strong = isinstance(weapon, RangedWeapon) and weapon.strength
    return _blow(shooter, defender, result, weapon.damage, strong, False, setting)
