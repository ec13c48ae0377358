"""What an Effect means: Fail Effect, mitigation, Costly Success, time, combined
difficulties and stealth (Mneme CE ch. 2 Core Task Resolution; ch. 7 Understanding
Effects).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from referee.dice.evaluate import odds
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Modifier
from referee.systems.mneme.checks import (
    CONDITION_KIND,
    PRESET_PREFIX,
)
from referee.systems.mneme.options import Options
from referee.systems.mneme.tables import CONDITION_PRESETS, TIME_PERCENT

DISCREPANCIES: tuple[str, ...] = (
    "Fail Effect: both texts say a Fail Effect arises 'when the Effect is less than the "
    "Difficulty', and ch. 2 gives its degree as 'the Difficulty minus the Effect'; their own "
    "example (Difficulty 8, Dice Roll 5 -> 3) and ch. 7's formula give Difficulty - Dice "
    "Roll whenever the Dice Roll is below the Difficulty. The example is followed.",
    "Costly Success: the example writes the new Fail Effect as '-2 x 2 + 3 or -7', but "
    "-2 x 2 + 3 is -1; -7 is the degree 2 doubled plus 3, negated. The degree form is "
    "followed: degree d becomes 2d + 3.",
    "HP thresholds: the threshold table puts Seriously / Critically Wounded at the best "
    "physical characteristic / twice a physical characteristic, the Injury Conditions text "
    "at 1/3 and 2/3 of HP (rounded down). The text is the default; the table is the option "
    "hp_thresholds='table'.",
    "Healing table: its Critically Wounded row is labelled 'Dmg < 2/3 HP'; the condition is "
    "damage >= 2/3 HP, which is used.",
    "Care levels: the care table uses 'Damage > 1/3 HP' / '> 2/3 HP' while the conditions "
    "start at >= 1/3 / >= 2/3; the care level a character needs is taken from its condition.",
    "Medical care capacity: 8 light-care patients per Medic-0 caregiver, and separately "
    "32 light-care patients a Medic-0 character can monitor a day; both are kept.",
    "Limited Rate of Attack: the rulings' prose has SE + 1 rolls with the highest RoA kept "
    "whenever that count exceeds the RoA, but the text's example makes a Success Effect of 3 "
    "with RoA 3 'three (3) 3d6 automatic rifle damage rolls', and its rule reads 'Success or "
    "Fail Effects exceeding the Rate of Attacks result in as many Damage Rolls, BUT only "
    "choose the highest ... equal to the Rate of Attacks'. The example and the rule are "
    "followed: only an Effect exceeding the RoA rolls them all and keeps the highest RoA; "
    "otherwise min(SE + 1, RoA) rolls are made (option rate_of_attack_rule).",
)
"""Places where the rule texts contradict themselves, and what the code does."""


MAX_UNIT = 1_000_000
"""Largest smallest-unit a task's duration may use (bounds untrusted input)."""


def fail_degree(effect: int) -> int:
    """The degree of the Fail Effect: Difficulty - Dice Roll, 0 on a success (ch. 7)."""
    return max(0, -effect)


@dataclass(frozen=True)
class Mitigation:
    """A Fail Effect reduced by the three priorities of Mitigating Factors (ch. 2, ch. 7).

    ``steps`` is the degree after each priority (start, conditions, cover, skill);
    ``cover_absorbed`` the Fail Effect the cover removed (damage rolls it takes);
    ``remaining`` the degree left (damage rolls against the character).
    """

    start: int
    conditions: int
    cover: int
    skill: int
    steps: tuple[int, int, int, int]
    cover_absorbed: int

    @property
    def remaining(self) -> int:
        """Fail Effect left after all three priorities."""
        return self.steps[-1]

    @property
    def ordinary_failure(self) -> bool:
        """Reduced to zero: an Ordinary Failure (no harm, only the opportunity lost)."""
        return self.remaining == 0


def mitigate(degree: int, conditions: int = 0, cover: int = 0, skill: int = 0) -> Mitigation:
    """Reduce a Fail Effect degree: conditions first, then cover, then skill (ch. 2).

    Each priority reduces the degree down to 0 at most; cover absorbs as many
    points (hence damage rolls) as it removed, up to its protection value.
    """
    for name, v in (
        ("fail effect", degree),
        ("conditions", conditions),
        ("cover", cover),
        ("skill", skill),
    ):
        if v < 0:
            raise RulesError(f"{name} for mitigation cannot be negative ({v})")
    a = max(0, degree - conditions)
    b = max(0, a - cover)
    c = max(0, b - skill)
    return Mitigation(degree, conditions, cover, skill, (degree, a, b, c), a - b)


def costly_success(degree: int, options: Options, *, allowed: bool = True) -> int:
    """Costly Success: a failure of degree ``d`` succeeds at Success Effect 0 and costs a
    Fail Effect of degree ``2d + 3`` (ch. 2, ch. 7; the -2 -> -7 example).
    """
    if not options.costly_success or not allowed:
        raise IllegalAction("Costly Success is not allowed here (the referee's call)")
    if degree <= 0:
        raise IllegalAction("Costly Success applies to a failure only")
    return 2 * degree + 3


def median_duration(expression: str) -> int:
    """The median of a duration roll: the lowest value with at least half the chances
    at or below it (1d6 -> 3)."""
    dist = odds(expression)
    below = 0
    for value, weight in dist.items():
        below += weight
        if 2 * below >= dist.total:
            return value
    raise AssertionError("unreachable")  # pragma: no cover


def task_time(median: int, effect: int, options: Options, unit: int = 1) -> Fraction:
    """Time a task takes given the check's Effect (ch. 2, Time and Checks).

    ``smallest_unit`` (default): the median minus Effect x the smallest unit, at
    least one unit (1d6 s: SE 0 -> 3, SE 1 -> 2, FE 1 -> 4, FE 3 -> 6).
    ``percentage``: the companion's table, SE >= 2 -> 25 %, 1 -> 50 %, 0 -> 100 %,
    FE 1 -> 150 %, each further point of Fail Effect +50 %.
    """
    if median < 0 or not 1 <= unit <= MAX_UNIT:
        raise RulesError(f"a duration needs a non-negative median and a unit of 1..{MAX_UNIT:,}")
    if options.time_rule == "smallest_unit":
        return Fraction(max(unit, median - effect * unit))
    if effect >= 2:
        percent = TIME_PERCENT[2]
    elif effect >= -1:
        percent = TIME_PERCENT[effect]
    else:
        percent = TIME_PERCENT[-1] + 50 * (-1 - effect)
    return Fraction(median * percent, 100)


def combined_difficulty(
    difficulty: int, skills: Iterable[str], known: Mapping[str, int]
) -> tuple[int, tuple[str, ...]]:
    """Combined Difficulties (ch. 2): +1 per additional skill of the combination that the
    character lacks. The first skill named is the one rolled (its absence is the
    unskilled penalty instead). Returns the Difficulty and the missing additional skills.
    """
    names = list(skills)
    lower = {k.lower() for k in known}
    missing = tuple(s for s in names[1:] if s.lower() not in lower)
    return difficulty + len(missing), missing


STEALTH_SKILLS = ("Recon", "Streetwise")


def stealth_skill(known: Mapping[str, int], options: Options) -> str | None:
    """The skill a stealth roll uses: the better of Recon and Streetwise, or Stealth when
    the option allows a dedicated Stealth skill (ch. 2, Stealth Rolls). ``None`` if none.
    """
    candidates = list(STEALTH_SKILLS)
    if options.dedicated_stealth:
        candidates.append("Stealth")
    levels = {k.lower(): v for k, v in known.items()}
    have = [(levels[c.lower()], c) for c in candidates if c.lower() in levels]
    if not have:
        return None
    return max(have, key=lambda t: t[0])[1]


def condition_difficulty(preset: str) -> tuple[str, int]:
    """A named condition preset as a Difficulty change (companion facts, Conditions and
    Superiority): ``"concealment:mostly"`` -> +2, ``"outnumbered:minor"`` -> +1, and a
    leading ``-`` for the PC's own edge (``"-superior firepower:2"`` -> -2). Returns the
    preset's name and the change."""
    text = preset.strip()
    sign = -1 if text.startswith("-") else 1
    name, _, level = text.lstrip("-+").partition(":")
    key = name.strip().lower()
    if key not in CONDITION_PRESETS:
        known = ", ".join(CONDITION_PRESETS)
        raise RulesError(f"unknown condition preset {name.strip()!r}; known: {known}")
    ladder = CONDITION_PRESETS[key]
    if not level.strip():
        steps = "/".join(ladder.names())
        raise RulesError(f"condition {key!r} needs a level ({key}:{steps})")
    return key, sign * ladder.value(level.strip())


def condition_modifiers(presets: Iterable[str]) -> tuple[Modifier, ...]:
    """Condition presets (``"concealment:mostly"``) as condition modifiers: a preset that
    raises the Difficulty by ``d`` is a modifier of ``-d`` from the PC's side, so numbers
    and presets stack by one rule; :func:`split_presets` turns them back into Difficulty."""
    out = []
    for preset in presets:
        key, change = condition_difficulty(preset)
        level = preset.strip().lstrip("+-").partition(":")[2].strip()
        sign = "-" if preset.strip().startswith("-") else ""
        out.append(Modifier(-change, f"{PRESET_PREFIX}{sign}{key}:{level}", CONDITION_KIND))
    return tuple(out)
