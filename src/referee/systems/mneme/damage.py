"""Damage rolls, Rate of Attack, armour, scale and cover (Mneme CE ch. 7, Damage).

One function, :func:`dealt`, turns a raw damage roll into the damage that lands
(scale, armour, minimum damage); rolling applies it to rolled totals and the
odds map it over the exact distribution of the damage expression, then keep
the highest Rate of Attack rolls with :func:`~referee.dice.odds.keep_highest`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial

from referee.dice.evaluate import DieRoll
from referee.dice.evaluate import odds as expression_odds
from referee.dice.evaluate import roll as roll_expression
from referee.dice.notation import Expr, parse
from referee.dice.odds import Distribution, keep_highest
from referee.dice.roller import Roller
from referee.errors import OddsTooComplex, RulesError
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Character, Weapon
from referee.systems.mneme.tables import SCALE_ORDER, SCALES

MAX_DAMAGE_ROLLS = 60
"""Most damage rolls one attack may make (bounds untrusted Effects)."""


def multiplier(scale: str) -> int:
    """x1, D x10, H x100, K x1,000 (ch. 7, Damage Scale)."""
    if scale not in SCALES:
        raise RulesError(f"unknown scale {scale!r}; use '', 'D', 'H' or 'K'")
    return SCALES[scale]


@dataclass(frozen=True)
class Target:
    """What a damage roll hits: armour rating and scale, and the target's own scale."""

    armour: int = 0
    armour_scale: str = ""
    scale: str = ""

    def __post_init__(self) -> None:
        if self.armour < 0:
            raise RulesError(f"armour cannot be negative ({self.armour})")
        multiplier(self.armour_scale)
        multiplier(self.scale)


@dataclass(frozen=True)
class DamageSpec:
    """A source of damage rolls: expression, scale and Rate of Attack (``None`` = no limit)."""

    expression: str
    scale: str = ""
    rate_of_attack: int | None = None
    _expr: Expr = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_expr", parse(self.expression))
        multiplier(self.scale)
        if self.rate_of_attack is not None and not 1 <= self.rate_of_attack <= MAX_DAMAGE_ROLLS:
            raise RulesError(f"Rate of Attack must be 1..{MAX_DAMAGE_ROLLS}")

    @property
    def expr(self) -> Expr:
        """The parsed damage expression."""
        return self._expr


def minimum_for(effect_degree: int, options: Options) -> int:
    """1 when the roll is made at Effect 6+ (ch. 7, Armor: Minimum Damage), else 0."""
    floor = options.minimum_damage_effect
    return 1 if floor > 0 and effect_degree >= floor else 0


def immune(spec_scale: str, target: Target, armour_immunity: bool = True) -> bool:
    """Scale immunity (ch. 7, Damage Scale): a vehicle, character, armour or object of a
    scale ignores damage of a lesser scale. The target's own scale always counts; worn
    armour's scale counts with ``armour_immunity`` (option ``armour_scale_immunity``)."""
    level = SCALE_ORDER.index(target.scale)
    if armour_immunity and target.armour > 0:
        level = max(level, SCALE_ORDER.index(target.armour_scale))
    return SCALE_ORDER.index(spec_scale) < level


def dealt(
    raw: int, spec_scale: str, target: Target, minimum: int, *, armour_immunity: bool = True
) -> int:
    """Damage one roll deals, in the target's own HP units (ch. 7, Damage Scale, Hit
    Point Scale: 20 DHP = 200 HP, so a D-scale target's HP count tens).

    Scale immunity (:func:`immune`): damage of a lower scale than the target's, or than
    its armour's, is ignored. Otherwise
    the scaled roll minus the scaled armour, expressed in the target's scale (rounded
    down: a ruling for armour of a lower scale than its wearer), never below 0, at least
    ``minimum``. For a target of the default scale these are plain points.
    """
    if immune(spec_scale, target, armour_immunity):
        return 0
    value = raw * SCALES[spec_scale] - target.armour * SCALES[target.armour_scale]
    return max(value // SCALES[target.scale], minimum, 0)


def rolls_on_success(success_effect: int) -> int:
    """Damage rolls from a Success Effect: SE + 1 (ruling; SE 1 -> two broadsword rolls)."""
    if success_effect < 0:
        raise RulesError("a Success Effect cannot be negative")
    return success_effect + 1


def kept_count(rolls: int, rate_of_attack: int | None) -> int:
    """How many rolls count: all, or the highest Rate of Attack of them (ch. 7)."""
    return rolls if rate_of_attack is None else min(rolls, rate_of_attack)


def _check_rolls(rolls: int) -> None:
    if not 0 <= rolls <= MAX_DAMAGE_ROLLS:
        raise OddsTooComplex(f"{rolls} damage rolls is out of range (0..{MAX_DAMAGE_ROLLS})")


@dataclass(frozen=True)
class DamageRolls:
    """Rolled damage: each roll's raw total, what it dealt, whether it was kept."""

    expression: str
    raw: tuple[int, ...]
    dealt: tuple[int, ...]
    kept: tuple[bool, ...]
    dice: tuple[tuple[DieRoll, ...], ...]

    @property
    def total(self) -> int:
        """Damage dealt by the kept rolls."""
        return sum(d for d, k in zip(self.dealt, self.kept, strict=True) if k)

    @property
    def largest(self) -> int:
        """The largest single kept roll (Bleeding, targeted damage)."""
        return max((d for d, k in zip(self.dealt, self.kept, strict=True) if k), default=0)


def roll_damage(
    spec: DamageSpec,
    rolls: int,
    target: Target,
    roller: Roller,
    *,
    effect_degree: int = 0,
    options: Options,
    keep: int | None = None,
) -> DamageRolls:
    """Make ``rolls`` damage rolls and keep the highest ``keep`` (default: the RoA)."""
    _check_rolls(rolls)
    minimum = minimum_for(effect_degree, options)
    expr = spec.expr
    raws: list[int] = []
    dice: list[tuple[DieRoll, ...]] = []
    for _ in range(rolls):
        r = roll_expression(expr, roller)
        raws.append(r.total)
        dice.append(_dice_of(r))
    shield = options.armour_scale_immunity
    values = tuple(dealt(x, spec.scale, target, minimum, armour_immunity=shield) for x in raws)
    n_keep = kept_count(rolls, spec.rate_of_attack) if keep is None else min(keep, rolls)
    order = sorted(range(rolls), key=lambda i: (-values[i], i))[:n_keep]
    kept = tuple(i in order for i in range(rolls))
    return DamageRolls(spec.expression, tuple(raws), values, kept, tuple(dice))


def _dice_of(rolled: object) -> tuple[DieRoll, ...]:
    out: list[DieRoll] = list(getattr(rolled, "dice", ()))
    for part in getattr(rolled, "parts", ()):
        out += _dice_of(part)
    return tuple(out)


def per_roll_odds(
    spec: DamageSpec, target: Target, *, effect_degree: int = 0, options: Options
) -> Distribution[int]:
    """Exact distribution of what one damage roll deals."""
    minimum = minimum_for(effect_degree, options)
    return expression_odds(spec.expr).map(
        partial(
            dealt,
            spec_scale=spec.scale,
            target=target,
            minimum=minimum,
            armour_immunity=options.armour_scale_immunity,
        )
    )


def damage_odds(
    spec: DamageSpec,
    rolls: int,
    target: Target,
    *,
    effect_degree: int = 0,
    options: Options,
    keep: int | None = None,
) -> Distribution[int]:
    """Exact distribution of the damage dealt by ``rolls`` rolls, keeping the highest
    Rate of Attack, armour applied to each roll (ch. 7, Damage Rolls, Armor).

    Same distribution as ``keep_highest(per_roll, rolls, keep)`` from
    :mod:`referee.dice.odds` (asserted by the tests), computed by
    :func:`~referee.dice.odds.keep_highest`.
    """
    _check_rolls(rolls)
    if rolls == 0:
        return Distribution.constant(0)
    per = per_roll_odds(spec, target, effect_degree=effect_degree, options=options)
    n_keep = kept_count(rolls, spec.rate_of_attack) if keep is None else min(keep, rolls)
    return keep_highest(per, rolls, n_keep)


def p_single_roll_at_least(per_roll: Distribution[int], rolls: int, threshold: int) -> Fraction:
    """P(at least one of ``rolls`` independent rolls deals ``threshold`` or more). The
    Rate of Attack never drops the largest roll, so the kept rolls give the same chance."""
    _check_rolls(rolls)
    below = Fraction(per_roll.at_most(threshold - 1))
    return 1 - below**rolls


def weapon_spec(weapon: Weapon) -> DamageSpec:
    """A sheet weapon as a damage source (its expression, scale and Rate of Attack)."""
    return DamageSpec(weapon.damage, weapon.scale, weapon.rate_of_attack)


def worn_armour(character: Character) -> Target:
    """The character as a damage target: the best armour worn (armour does not stack,
    a ruling) at its scale, and the character's own scale."""
    if not character.armour:
        return Target(0, "", character.scale)
    best = max(character.armour, key=lambda a: a.rating * SCALES.get(a.scale, 1))
    return Target(best.rating, best.scale, character.scale)
