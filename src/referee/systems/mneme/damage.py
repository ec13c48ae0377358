"""Damage rolls, Rate of Attack, armour, scale and cover (Mneme CE ch. 7, Damage).

One function, :func:`dealt`, turns a raw damage roll into the damage that lands
(scale, armour, minimum damage); rolling applies it to rolled totals and the
odds map it over the exact distribution of the damage expression, then keep
the highest Rate of Attack rolls with :func:`~referee.dice.odds.keep_highest`.

:class:`DamageProgram` is a set of damage rolls as a dice program (one
recorded roll per damage roll, in order); a :class:`Report` says what the odds
read from it (the damage dealt, the condition it leaves, Bleeding, massive
damage), each with its exact distribution.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache, partial
from math import lcm
from typing import Any, Generic, Protocol, TypeVar, cast

from referee.dice.brute import all_faces, brute_force
from referee.dice.evaluate import TRUSTED_ROLL_BUDGET, DieRoll, Rolled, check_cost, draws_over
from referee.dice.evaluate import odds as expression_odds
from referee.dice.evaluate import roll as roll_expression
from referee.dice.notation import Const, Expr, Labeled, Neg, Pool, parse
from referee.dice.odds import Distribution, keep_highest
from referee.dice.roller import Roller, ScriptedRoller
from referee.errors import OddsTooComplex, RulesError
from referee.systems.base import Dice
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet, Weapon
from referee.systems.mneme.tables import SCALE_ORDER, SCALES, Scale

S = TypeVar("S", bound=Hashable)

BRUTE_LIMIT = 50_000
"""Most face combinations :meth:`DamageProgram.brute` enumerates (a test oracle)."""

MAX_DAMAGE_ROLLS = 60
"""Most damage rolls one attack may make (bounds untrusted Effects)."""


def as_scale(scale: str) -> Scale:
    """A scale as written on a sheet, checked: '', 'D', 'H' or 'K'."""
    for known in SCALE_ORDER:
        if scale == known:
            return known
    raise RulesError(f"unknown scale {scale!r}; use '', 'D', 'H' or 'K'")


def multiplier(scale: str) -> int:
    """x1, D x10, H x100, K x1,000 (ch. 7, Damage Scale)."""
    if scale not in SCALES:
        raise RulesError(f"unknown scale {scale!r}; use '', 'D', 'H' or 'K'")
    return SCALES[scale]


@dataclass(frozen=True)
class Target:
    """What a damage roll hits: armour rating and scale, and the target's own scale."""

    armour: int = 0
    armour_scale: Scale = ""
    scale: Scale = ""

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
        # an expression from outside (an action's field, a sheet's weapon) is costed before
        # anything rolls it or asks its odds: refused over the untrusted budget, limit named
        check_cost(self.expression)
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
    """Damage rolls a Success Effect brings before any Rate of Attack: SE + 1 (ruling;
    SE 1 -> two broadsword rolls; SE 2 -> three automatic rifle rolls)."""
    if success_effect < 0:
        raise RulesError("a Success Effect cannot be negative")
    return success_effect + 1


def kept_count(rolls: int, rate_of_attack: int | None) -> int:
    """How many of a fixed number of rolls count: all, or the highest Rate of Attack."""
    return rolls if rate_of_attack is None else min(rolls, rate_of_attack)


def roll_count(
    effect: int, rate_of_attack: int | None, options: Options, *, success: bool = True
) -> tuple[int, int]:
    """``(rolls made, rolls kept)`` for an Effect of this degree (ch. 7, Damage Rolls;
    Weapons with Limited Rate of Attack).

    A Success Effect brings SE + 1 rolls, a Fail Effect one per point. Against a limited
    Rate of Attack, by default (``rate_of_attack_rule='effect_exceeds'``, the text's rule
    and its examples) an Effect *exceeding* the RoA rolls them all and keeps the highest
    RoA, and otherwise min(rolls, RoA) rolls are made, all kept: SE 3 with RoA 3 makes
    three rolls, SE 2 with RoA 4 three, a Fail Effect of 3 with RoA 2 three rolls of which
    the two highest count. ``'rolls_exceed'``: whenever the rolls exceed the RoA, roll them
    all and keep the highest RoA (SE 3 with RoA 3: four rolls, three kept).
    """
    if effect < 0:
        raise RulesError("an Effect degree cannot be negative")
    rolls = rolls_on_success(effect) if success else effect
    if rate_of_attack is None or rolls <= rate_of_attack:
        return rolls, rolls
    if options.rate_of_attack_rule == "effect_exceeds" and effect <= rate_of_attack:
        return rate_of_attack, rate_of_attack
    return rolls, rate_of_attack


def _check_rolls(rolls: int) -> None:
    if not 0 <= rolls <= MAX_DAMAGE_ROLLS:
        raise OddsTooComplex(f"{rolls} damage rolls is out of range (0..{MAX_DAMAGE_ROLLS})")


def kept_flags(values: tuple[int, ...], keep: int) -> tuple[bool, ...]:
    """Which rolls count: the ``keep`` highest (the earlier of equal rolls first)."""
    order = sorted(range(len(values)), key=lambda i: (-values[i], i))[:keep]
    return tuple(i in order for i in range(len(values)))


def kept_total(values: tuple[int, ...], keep: int) -> int:
    """Damage dealt by the ``keep`` highest rolls."""
    return sum(sorted(values, reverse=True)[:keep])


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
        """The largest single kept roll (Bleeding)."""
        return max((d for d, k in zip(self.dealt, self.kept, strict=True) if k), default=0)

    def data(self) -> dict[str, Any]:
        """JSON data: expression, raw totals, damage dealt, kept flags, total."""
        return {
            "expression": self.expression,
            "raw": list(self.raw),
            "dealt": list(self.dealt),
            "kept": list(self.kept),
            "total": self.total,
        }


class Dealing(Protocol):
    """Damage as the rules of what it does read it (ch. 7, HP thresholds): the total the
    kept rolls deal and the largest of them (:class:`DamageRolls`, or :class:`Dealt`)."""

    @property
    def total(self) -> int: ...

    @property
    def largest(self) -> int: ...


@dataclass(frozen=True)
class Dealt:
    """Damage known by its total alone, as an exact chain reads it: ``largest`` is the
    most one roll of the weapon can deal, which stands for every roll where that much
    cannot make the target Bleed (then no roll of the total can)."""

    total: int
    largest: int


def most_one_roll(spec: DamageSpec, target: Target, options: Options) -> int:
    """The most one roll of ``spec`` can deal to ``target`` (Minimum Damage counted)."""
    floor = 1 if options.minimum_damage_effect > 0 else 0
    return int(_per_roll(spec, target, floor, options.armour_scale_immunity).max())


def _dice_of(rolled: Rolled) -> tuple[DieRoll, ...]:
    out: list[DieRoll] = list(rolled.dice)
    for part in rolled.parts:
        out += _dice_of(part)
    return tuple(out)


@lru_cache(maxsize=4096)
def replayed(expr: Expr, faces: tuple[int, ...]) -> Rolled:
    """The expression rolled again on recorded faces (the same tree the roll made): a
    pure reading of its arguments, kept for the few thousand faces a weapon's rolls show
    (an exact chain replays the same rolls in every state)."""
    return roll_expression(expr, ScriptedRoller(faces))


def plain_groups(expr: Expr) -> tuple[tuple[int, int], ...] | None:
    """The roller calls ``(count, sides)`` a roll of ``expr`` makes, in order, when the
    expression is plain pools and numbers (no die modifier: every face drawn at once, one
    call per pool, left to right as :func:`~referee.dice.rolling.roll` walks the tree);
    ``None`` otherwise. Such a roll is its faces read by :func:`replayed`, the same tree,
    so a weapon's rolls in an exact chain are read once per faces."""
    if draws_over(expr, TRUSTED_ROLL_BUDGET):
        return None  # the roll itself refuses it, naming why
    out: list[tuple[int, int]] = []
    todo: list[Expr] = [expr]
    while todo:
        node = todo.pop()
        if isinstance(node, Const):
            continue
        if isinstance(node, Pool):
            if node.die is not None:
                return None
            out.append((node.count, node.sides))
        elif isinstance(node, Neg | Labeled):
            todo.append(node.operand)
        else:
            todo += [node.right, node.left]  # the left rolled first
    return tuple(out)


@lru_cache(maxsize=256)
def _groups_of(expression: str) -> tuple[tuple[int, int], ...] | None:
    """:func:`plain_groups` of a damage expression's text (a spec's ``expr`` is its
    parse)."""
    return plain_groups(parse(expression))


@lru_cache(maxsize=4096)
def _raw_total(expression: str, faces: tuple[int, ...]) -> int:
    """The total of a damage expression rolled on ``faces`` (see :func:`replayed`)."""
    return replayed(parse(expression), faces).total


def per_roll_odds(
    spec: DamageSpec, target: Target, *, effect_degree: int = 0, options: Options
) -> Distribution[int]:
    """Exact distribution of what one damage roll deals."""
    minimum = minimum_for(effect_degree, options)
    return _per_roll(spec, target, minimum, options.armour_scale_immunity)


@lru_cache(maxsize=1024)
def _per_roll(spec: DamageSpec, target: Target, minimum: int, shield: bool) -> Distribution[int]:
    """What one roll deals, exactly (records and numbers in, an immutable distribution
    out: kept for the few weapons and targets a table or a chain asks about again)."""
    return expression_odds(spec.expr).map(
        partial(
            dealt, spec_scale=spec.scale, target=target, minimum=minimum, armour_immunity=shield
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


def weapon_spec(weapon: Weapon) -> DamageSpec:
    """A sheet weapon as a damage source (its expression, scale and Rate of Attack)."""
    return DamageSpec(weapon.damage, weapon.scale, weapon.rate_of_attack)


def worn_armour(character: Sheet) -> Target:
    """The character as a damage target: the best armour worn (armour does not stack,
    a ruling) at its scale, and the character's own scale."""
    if not character.armour:
        return Target(0, "", as_scale(character.scale))
    best = max(character.armour, key=lambda a: a.rating * SCALES.get(a.scale, 1))
    return Target(best.rating, as_scale(best.scale), as_scale(character.scale))


# ---------------------------------------------------------------------------
# damage rolls as a dice program


@dataclass(frozen=True)
class Report(Generic[S]):
    """What the odds of a set of damage rolls report (one rule, two evaluations).

    ``read(values, keep)`` takes the damage each roll dealt and how many count;
    ``exact(per_roll, rolls, keep)`` is the exact distribution of the same statistic
    from the distribution of one roll.
    """

    name: str
    read: Callable[[tuple[int, ...], int], S]
    exact: Callable[[Distribution[int], int, int], Distribution[S]]
    key: Hashable = None
    """What the statistic depends on beside the rolls (``()``: nothing, a wound: its
    Bleeding threshold), for reports whose odds are kept per weapon, armour and rolls
    (``None``: one that reads more of its victim, not kept)."""


def _total_exact(per: Distribution[int], rolls: int, keep: int) -> Distribution[int]:
    return keep_highest(per, rolls, keep) if rolls and keep else Distribution.constant(0)


DAMAGE: Report[int] = Report("damage", kept_total, _total_exact, key=())
"""The damage the kept rolls deal (ch. 7, Damage Rolls, Armor): it reads nothing beside
the rolls, so its odds are kept per weapon, armour and rolls."""


_KEPT: dict[Hashable, Distribution[Any]] = {}
"""Keyed reports' exact distributions (:func:`_kept_report`), at most :data:`KEPT` of them."""

KEPT = 1024


def _kept_report(
    spec: DamageSpec,
    target: Target,
    minimum: int,
    shield: bool,
    rolls: int,
    keep: int,
    report: Report[Any],
) -> Distribution[Any]:
    """A keyed report's exact distribution for these rolls, worked out once per weapon,
    armour, rolls and the report's name and key (the report itself is made anew per plan,
    its functions with it)."""
    at = (spec, target, minimum, shield, rolls, keep, report.name, report.key)
    found = _KEPT.get(at)
    if found is None:
        if len(_KEPT) >= KEPT:
            _KEPT.clear()
        found = _KEPT[at] = report.exact(_per_roll(spec, target, minimum, shield), rolls, keep)
    return found


def bleeding_exact(per: Distribution[int], rolls: int, threshold: int) -> Distribution[bool]:
    """Exact P(one of ``rolls`` rolls deals ``threshold`` or more): the Rate of Attack
    never drops the largest roll, so the kept rolls give the same chance."""
    below = sum(w for v, w in per.items() if v < threshold) ** rolls
    every = per.total**rolls
    if below == every:
        return Distribution.constant(False)
    if below == 0:
        return Distribution.constant(True)
    return Distribution({False: below, True: every - below})


@dataclass(frozen=True, order=True)
class Wound:
    """Damage the kept rolls deal and whether one roll reached the Bleeding threshold
    (ch. 7, HP thresholds): all an attack nothing strikes back at changes in its target,
    so an exact chain can take the state after from it."""

    damage: int
    bleeding: bool

    @property
    def label(self) -> str:
        """``"12 damage"``, ``"12 damage, Bleeding"``."""
        return f"{self.damage} damage" + (", Bleeding" if self.bleeding else "")


def reads_wound(threshold: int) -> Callable[[tuple[int, ...], int], Wound]:
    """The wound read: the kept rolls' total, and whether one roll (the largest, always
    kept) is at or above ``threshold`` (at least 1)."""
    floor = max(1, threshold)
    return lambda values, keep: Wound(kept_total(values, keep), any(v >= floor for v in values))


def wound_exact(
    per: Distribution[int], rolls: int, keep: int, threshold: int
) -> Distribution[Wound]:
    """Exact odds of :class:`Wound`: the totals of rolls all below the threshold are the
    kept sum of one roll's distribution cut below it, weighted by the chance that every
    roll falls there; the rest of each total's chance is Bleeding."""
    floor = max(1, threshold)
    whole = _total_exact(per, rolls, keep)
    low = {v: w for v, w in per.items() if v < floor}
    if not rolls or sum(low.values()) == per.total:  # no roll can reach it
        return whole.map(lambda d: Wound(d, False))
    chance = {Wound(d, True): Fraction(w, whole.total) for d, w in whole.items()}
    if low:  # every roll below: that chance, times the total's among such rolls
        cut = Distribution.from_weights(low)
        every_low = Fraction(cut.total, per.total) ** rolls
        totals = _total_exact(cut, rolls, keep)
        for d, w in totals.items():
            quiet = every_low * Fraction(w, totals.total)
            chance[Wound(d, False)] = quiet
            chance[Wound(d, True)] -= quiet
    return _from_chances(chance)


def _from_chances(chance: dict[Wound, Fraction]) -> Distribution[Wound]:
    """A distribution from exact chances that sum to 1 (those at 0 left out)."""
    denominator = 1
    for p in chance.values():
        denominator = lcm(denominator, p.denominator)
    return Distribution.from_weights(
        {k: int(p * denominator) for k, p in sorted(chance.items()) if p}
    )


def reads_one_roll(threshold: int) -> Callable[[tuple[int, ...], int], bool]:
    """The Bleeding read: one roll at or above ``threshold`` (at least 1)."""
    floor = max(1, threshold)
    return lambda values, _keep: any(v >= floor for v in values)


class DamageProgram(Dice[S]):
    """``rolls`` rolls of ``spec`` against ``target``, the highest ``keep`` counting,
    as a dice program: each roll is made (and recorded) in turn; the result is what
    ``report`` reads from the damage they deal. ``after(total)`` may name a program
    rolled next, given the damage the kept rolls deal, whose result nothing reads (the
    End roll massive damage calls for).
    """

    __slots__ = (
        "_dealt",
        "_odds",
        "after",
        "keep",
        "minimum",
        "report",
        "rolls",
        "shield",
        "spec",
        "target",
    )

    def __init__(
        self,
        spec: DamageSpec,
        rolls: int,
        keep: int,
        target: Target,
        minimum: int,
        options: Options,
        report: Report[S],
        after: Callable[[int], Dice[Any] | None] | None = None,
    ) -> None:
        _check_rolls(rolls)
        self.spec, self.rolls, self.keep, self.target = spec, rolls, min(keep, rolls), target
        self.minimum, self.shield = minimum, options.armour_scale_immunity
        self.report, self.after = report, after
        self._odds: Distribution[S] | None = None
        self._dealt: dict[int, int] = {}

    def values(self, totals: list[int] | tuple[int, ...]) -> tuple[int, ...]:
        """The damage each raw roll deals (scale, armour, minimum damage), each raw total
        worked out once per program."""
        known = self._dealt
        out = []
        for x in totals:
            found = known.get(x)
            if found is None:
                spec = self.spec
                found = known[x] = dealt(
                    x, spec.scale, self.target, self.minimum, armour_immunity=self.shield
                )
            out.append(found)
        return tuple(out)

    def sample(self, roller: Roller, trace: list[tuple[int, ...]]) -> S:
        totals = []
        text = self.spec.expression
        groups = _groups_of(text)
        for _ in range(self.rolls):
            if groups is None:
                rolled = roll_expression(self.spec.expr, roller)
                trace.append(rolled.faces())
                totals.append(rolled.total)
                continue
            faces: tuple[int, ...] = ()
            for count, sides in groups:  # the calls roll_expression makes, in its order
                faces += roller.roll(count, sides)
            trace.append(faces)
            totals.append(_raw_total(text, faces))
        values = self.values(totals)
        more = self.after(kept_total(values, self.keep)) if self.after is not None else None
        if more is not None:
            more.sample(roller, trace)
        return self.report.read(values, self.keep)

    def odds(self) -> Distribution[S]:
        if self._odds is None:
            args = (self.spec, self.target, self.minimum, self.shield, self.rolls, self.keep)
            if self.report.key is not None:  # the same for every state alike (its key)
                self._odds = cast("Distribution[S]", _kept_report(*args, self.report))
            else:
                per = _per_roll(*args[:4])
                self._odds = self.report.exact(per, self.rolls, self.keep)
        return self._odds

    def brute(self) -> Distribution[S]:
        one = tuple(self.spec.expr.dice())
        groups = one * self.rolls
        size = 1
        for count, sides in groups:
            size *= sides**count
        if size > BRUTE_LIMIT:
            raise OddsTooComplex(f"{size:,} face combinations to enumerate; at most {BRUTE_LIMIT}")
        width = sum(c for c, _ in one)
        # one roll's total for each of its face sequences, read through the expression once
        totals = {f: replayed(self.spec.expr, f).total for f in all_faces(one)}

        def read(faces: tuple[int, ...]) -> S:
            raws = [totals[faces[i * width : (i + 1) * width]] for i in range(self.rolls)]
            return self.report.read(self.values(raws), self.keep)

        return brute_force(groups, read)

    def first_dice(self) -> tuple[tuple[int, int], ...]:
        return tuple(self.spec.expr.dice()) if self.rolls else ()

    def replay(self, entries: list[tuple[int, ...]], dice: bool = True) -> DamageRolls:
        """The rolls this program made, read back from their recorded faces (without
        ``dice``, their dice are left out: what the rolls deal is all that is read)."""
        rolled = [replayed(self.spec.expr, f) for f in entries]
        values = self.values([r.total for r in rolled])
        return DamageRolls(
            self.spec.expression,
            tuple(r.total for r in rolled),
            values,
            kept_flags(values, self.keep),
            tuple(_dice_of(r) for r in rolled) if dice else (),
        )


class Quiet(Dice[None]):
    """Rolls that are made and recorded but that the odds do not read (the cover's rolls,
    the damage that strikes back at an attacker): their result is ``None``, so they add
    nothing to the distribution."""

    __slots__ = ("inner",)

    def __init__(self, inner: Dice[Any]) -> None:
        self.inner = inner

    def sample(self, roller: Roller, trace: list[tuple[int, ...]]) -> None:
        self.inner.sample(roller, trace)

    def odds(self) -> Distribution[None]:
        return Distribution.constant(None)

    def brute(self) -> Distribution[None]:
        return Distribution.constant(None)

    def first_dice(self) -> tuple[tuple[int, int], ...]:
        return self.inner.first_dice()


def _scale(written: str, given: str, what: str) -> str:
    if written and given and written != given:
        raise RulesError(
            f"{what} is scale {written}, but the {what.split()[0]} scale given is {given}"
        )
    return written or given


def armour_of(text: str, scale: str = "", target_scale: str = "") -> Target:
    """Armour written ``4``, ``AR 4`` or scaled ``DAR 2`` (ch. 7, Armor Scale), or on
    ``scale``; ``target_scale`` is the target's own."""
    from referee.systems.mneme.scale import armour_notation

    rating, written = armour_notation(text)
    return Target(
        rating, as_scale(_scale(written, scale, f"armour {text!r}")), as_scale(target_scale)
    )


def scaled_damage(text: str, scale: str = "") -> str:
    """A damage expression with its scale written as the text does (``D 3d3``; ch. 7)."""
    from referee.systems.mneme.scale import damage_notation

    expression, written = damage_notation(text)
    return f"{_scale(written, scale, f'damage {text!r}')} {expression}".strip()


def mitigating_of(text: str) -> dict[str, int]:
    """``conditions,cover,skill``: the three Mitigating Factors by priority (ch. 2)."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise RulesError("write three whole numbers: conditions,cover,skill")
    return dict(zip(("conditions", "cover", "skill"), map(int, parts), strict=True))


ODDS_FLAGS = (("p_bleeding", "bleeding"), ("p_massive_damage", "massive"))
"""The yes/no odds of damage against a target: Bleeding from one roll, massive damage."""


def weighed_damage(rules: Any, action: Any, state: Any, options: Any) -> dict[str, Any]:
    """The damage an attack (or damage rolls) deals; against a target also the condition
    it ends in, whether it Bleeds and whether it takes massive damage (ch. 7)."""
    from dataclasses import replace

    reports = ["damage"] + (["condition", "bleeding", "massive"] if action.target else [])
    return {r: rules.odds(replace(action, report=r), state, options) for r in reports}


def damage_odds_data(odds: Any) -> dict[str, Any]:
    """Damage odds as JSON: each total's fraction and the mean; with a target the chance
    of each condition, ``p_bleeding`` and ``p_massive_damage``."""
    from referee.dice.odds import fraction_text
    from referee.systems.mneme.tables import CONDITIONS

    damage = {str(v): fraction_text(q) for v, q in odds["damage"].probabilities().items()}
    data: dict[str, Any] = {"damage": damage, "mean": fraction_text(odds["damage"].mean())}
    if "condition" in odds:
        conds = odds["condition"]
        data["conditions"] = {
            c: fraction_text(conds.probability(c)) for c in CONDITIONS if c in conds
        }
        data |= {k: fraction_text(odds[r].probability(True)) for k, r in ODDS_FLAGS}
    return data
