"""Task resolution: 2d6 + modifiers against a Difficulty (Mneme CE ch. 2).

A check is one :class:`~referee.systems.base.Procedure`: the dice statistic is
the sum of the two kept d6 (2d6, or 3d6 keeping the two highest / lowest for a
net Advantage / Disadvantage) and the rule is ``Effect = dice + modifiers -
Difficulty``. Rolling and exact odds apply that same rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache, partial
from typing import Any, get_args

from referee.dice.odds import Distribution, fraction_text, keep_highest, keep_lowest, sum_of_dice
from referee.errors import RulesError
from referee.systems.base import Modifier, Procedure
from referee.systems.mneme.options import Options

MAX_MODIFIER = 1000
MAX_DIFFICULTY = 1000
MAX_STEPS_INPUT = 20
"""Bounds on untrusted check inputs."""

NEVER_STACK_EXEMPT = frozenset({"wound"})
"""Kinds that are a single derived value (wound penalties) rather than competing sources."""


def net_advantage(advantage: int, disadvantage: int, options: Options) -> int:
    """Net steps after Advantage and Disadvantage cancel one for one (ch. 2).

    Positive = Advantage, negative = Disadvantage; limited to
    ``options.max_net_advantage`` steps (the ruling: at most one).
    """
    for name, v in (("advantage", advantage), ("disadvantage", disadvantage)):
        if not 0 <= v <= MAX_STEPS_INPUT:
            raise RulesError(f"{name} must be 0..{MAX_STEPS_INPUT}, not {v}")
    net = advantage - disadvantage
    cap = options.max_net_advantage
    return max(-cap, min(cap, net))


def _keep(group: list[Modifier], options: Options) -> list[Modifier]:
    """The modifiers of one kind that apply, by the ``stacking`` option (ch. 2: modifiers
    of the same kind do not stack - the most favourable applies)."""
    if len(group) == 1:
        return group
    if options.stacking == "most_favourable":
        return [max(group, key=lambda m: m.value)]
    bonuses = [m for m in group if m.value > 0]
    penalties = [m for m in group if m.value < 0]
    keep = []
    if bonuses:
        keep.append(max(bonuses, key=lambda m: m.value))
    if penalties:
        keep.append(min(penalties, key=lambda m: m.value))
    return keep or [group[0]]


def _group(m: Modifier, kind: str, options: Options) -> str:
    """The stacking group of a modifier of ``kind``: the kind itself; a condition is
    grouped by its own name under ``condition_stacking='by_condition'`` (different
    conditions add up)."""
    if kind.rstrip("s") != CONDITION_KIND:
        return kind
    if options.condition_stacking == "by_condition":
        text = m.source.removeprefix(PRESET_PREFIX).strip().lower().lstrip("+-")
        return f"{CONDITION_KIND}:{text.partition(':')[0].strip()}"
    return CONDITION_KIND


def stack(
    modifiers: Iterable[Modifier], options: Options
) -> tuple[tuple[Modifier, ...], tuple[Modifier, ...]]:
    """Apply "modifiers of the same kind do not stack" (ch. 2, Modifiers to Rolls).

    Returns ``(applied, dropped)``. With ``most_favourable`` only the highest of
    each kind applies; with ``best_bonus_worst_penalty`` the largest bonus and the
    largest penalty of each kind both apply. Conditions follow ``condition_stacking``
    whether given by number or by preset (:func:`condition_modifiers`): by default each
    condition is its own kind, so different conditions add up and one named twice counts
    once. Wound penalties are one derived value and always apply.
    """
    mods = tuple(modifiers)
    by_kind: dict[str, list[Modifier]] = {}
    for m in mods:
        if abs(m.value) > MAX_MODIFIER:
            raise RulesError(f"modifier {m.source!r} is out of range ({m.value})")
        kind = m.kind.strip().lower()  # 'Equipment' and 'equipment' are one kind
        key = f"{kind}#{len(by_kind)}" if kind in NEVER_STACK_EXEMPT else _group(m, kind, options)
        by_kind.setdefault(key, []).append(m)
    if len(by_kind) == len(mods):  # one modifier of each kind: all apply
        return mods, ()
    kept: set[int] = set()
    for group in by_kind.values():
        kept.update(id(m) for m in _keep(group, options))
    return (
        tuple(m for m in mods if id(m) in kept),
        tuple(m for m in mods if id(m) not in kept),
    )


CONDITION_KIND = "condition"
"""The kind of a condition modifier (ch. 2: anything that is neither action nor
equipment); presets become modifiers of this kind."""

PRESET_PREFIX = "Difficulty: "
"""Source prefix of a condition preset turned into a modifier: it raises the Difficulty
rather than being added to the roll."""


def is_preset(m: Modifier) -> bool:
    """Whether a modifier came from a condition preset (it goes on the Difficulty)."""
    return m.source.startswith(PRESET_PREFIX)


def split_presets(applied: Iterable[Modifier]) -> tuple[tuple[Modifier, ...], int]:
    """The roll modifiers, and the Difficulty change of the presets that apply."""
    roll = tuple(m for m in applied if not is_preset(m))
    difficulty = -sum(m.value for m in applied if is_preset(m))
    return roll, difficulty


def modifier_text(m: Modifier) -> str:
    """A modifier as the outcome lists it (a preset as the Difficulty it adds)."""
    if is_preset(m):
        return f"{m.source.removeprefix(PRESET_PREFIX)} {-m.value:+d} Difficulty"
    return str(m)


def wound_penalty(damage: int, options: Options) -> int:
    """-1 per full ``wound_penalty_step`` (3) damage (ch. 7, Character HP Thresholds)."""
    return -(max(0, damage) // options.wound_penalty_step)


# ---------------------------------------------------------------------------
# the dice statistic


def _top_two_of_three(lowest: bool = False) -> Distribution[int]:
    """Sum of the two highest (or, mirrored, lowest) of 3d6, counted directly.

    Over (top ``t``, middle ``m``) pairs: ``t > m`` has ``3(2m - 1)`` ordered
    rolls and ``t == m`` has ``3m - 2``. Equal to ``keep_highest(d6, 3, 2)``
    (asserted by the tests) and several times faster. The two lowest of 3d6 sum
    to ``14 - s`` where ``s`` is the two highest of the mirrored dice ``7 - x``.
    """
    counts = [0] * 13
    for m in range(1, 7):
        counts[2 * m] += 3 * m - 2
        w = 6 * m - 3
        for t in range(m + 1, 7):
            counts[t + m] += w
    if lowest:
        weights = {14 - s: counts[s] for s in range(12, 1, -1)}
    else:
        weights = {s: counts[s] for s in range(2, 13)}
    # trusted constructor (weights are positive ints, keys ascending): the public one
    # re-validates every weight, which is a third of a check's odds time
    return Distribution.trusted(weights, 216, ordered=True)


def dice_distribution(steps: int) -> Distribution[int]:
    """Exact distribution of the kept two d6 for ``steps`` net Advantage (+) or Disadvantage (-)."""
    if steps == 0:
        return sum_of_dice(2, 6)
    if abs(steps) == 1:
        return _top_two_of_three(lowest=steps < 0)
    n = 2 + abs(steps)
    die = Distribution.die(6)
    return keep_highest(die, n, 2) if steps > 0 else keep_lowest(die, n, 2)


def kept_indices(faces: Sequence[int], steps: int) -> tuple[int, ...]:
    """Indices of the two dice kept (highest for Advantage, lowest for Disadvantage)."""
    if steps == 0:
        return tuple(range(len(faces)))
    sign = -1 if steps > 0 else 1
    order = sorted(range(len(faces)), key=lambda i: (sign * faces[i], i))
    return tuple(sorted(order[:2]))


def _read(steps: int, faces: tuple[int, ...]) -> int:
    return sum(faces[i] for i in kept_indices(faces, steps))


class EffectRule:
    """The check's rule: Effect = dice + modifiers - Difficulty (ch. 2, Effect).

    A shift of the dice: calling it reads one roll, :meth:`over` shifts a whole
    distribution of dice at once (a procedure's odds use it).
    """

    __slots__ = ("offset",)

    def __init__(self, modifier: int, difficulty: int) -> None:
        self.offset = modifier - difficulty

    def __repr__(self) -> str:
        return f"EffectRule(offset={self.offset})"

    def __call__(self, dice: int) -> int:
        return dice + self.offset

    def over(self, dice: Distribution[int]) -> Distribution[int]:
        """Every Effect at once: the dice's distribution shifted."""
        return dice.shift(self.offset)


def effect_rule(modifier: int, difficulty: int) -> EffectRule:
    """The check's rule: Effect = dice + modifiers - Difficulty (ch. 2, Effect)."""
    return EffectRule(modifier, difficulty)


@lru_cache(maxsize=1024)
def check_procedure(modifier: int, difficulty: int, steps: int) -> Procedure[int, int]:
    """The check as one rule over its dice: ``.roll`` on faces, ``.odds`` exact (one
    procedure, its odds worked out once, for each modifier, Difficulty and Advantage)."""
    if abs(modifier) > MAX_MODIFIER:
        raise RulesError(f"modifier must be within ±{MAX_MODIFIER}, not {modifier}")
    if not -MAX_DIFFICULTY <= difficulty <= MAX_DIFFICULTY:
        raise RulesError(f"difficulty must be within ±{MAX_DIFFICULTY}, not {difficulty}")
    return Procedure(
        groups=((2 + abs(steps), 6),),
        read=partial(_read, steps),
        exact=partial(dice_distribution, steps),
        rule=effect_rule(modifier, difficulty),
    )


def typed_modifier(text: str) -> dict[str, Any]:
    """``VALUE:KIND[:SOURCE]`` -> a modifier of one of the text's kinds (ch. 2, Modifiers
    to Rolls): ``2:equipment:scope``; ``conditions`` and ``Condition`` are one kind."""
    from referee.systems.mneme.actions import ModifierKind

    parts = [p.strip() for p in text.split(":")]
    if len(parts) not in (2, 3) or not parts[0]:
        raise RulesError("write VALUE:KIND or VALUE:KIND:SOURCE")
    value, kind, *source = parts
    kind = kind.lower().removesuffix("s")
    if kind not in get_args(ModifierKind):
        raise RulesError(f"kind must be one of {', '.join(get_args(ModifierKind))}")
    if not value.lstrip("-").isdigit():
        raise RulesError(f"{value!r} is not a whole number")
    return {"value": int(value), "source": source[0] if source else kind, "kind": kind}


def no_roll(dist: Distribution[Any]) -> str | None:
    """The label of a check that rolls nothing (no stakes), else None: its odds are that
    label for certain, not Effects."""
    first = next(iter(dist.probabilities()))
    return first if isinstance(first, str) else None


def effect_odds_data(dist: Distribution[Any]) -> dict[str, Any]:
    """A check's odds: the chance of success and of every Effect, failures included (ch. 2,
    Effect). A check that rolls nothing has neither: ``p_success`` is null, ``no_roll``
    its label."""
    if (label := no_roll(dist)) is not None:
        return {"p_success": None, "effect": {}, "no_roll": label}
    effect = {str(v): fraction_text(q) for v, q in dist.probabilities().items()}
    return {"p_success": fraction_text(dist.at_least(0)), "effect": effect}
