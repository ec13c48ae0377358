"""The numbers of ARM 1.2 as data: logs, ladders, damage, units, combat and magic.

Everything here is a value a referee may replace (ARM is a toolkit); the
shipped values are the ones the text gives. Sections cite "ARM 1.2, <section>".
"""

from __future__ import annotations

from decimal import Decimal
from types import MappingProxyType
from typing import Final

from referee.systems.base import Ladder

# ---------------------------------------------------------------------------
# Scale (ARM 1.2, Scale)

LOG_STEPS: Final[tuple[Decimal, ...]] = (
    Decimal("1"),
    Decimal("1.5"),
    Decimal("2.5"),
    Decimal("4"),
    Decimal("6"),
)
"""Measure of the logs 0..4 inside one decade of five (the chart's middle column)."""

LOG_PER_DECADE: Final = 5
"""Adding this to a log multiplies its measure by ten."""

CHART_RANGE: Final = (-40, 49)
"""The logs the printed chart covers (multiples of five from -40 to 45, plus 0..4)."""

# ---------------------------------------------------------------------------
# Task resolution (ARM 1.2, Task Resolution)

RESULT_LADDER: Final = Ladder(
    (
        (-5, "Complete failure"),
        (-4, "Bad failure"),
        (-2, "Partial failure"),
        (0, "Draw"),
        (1, "Unconvincing success"),
        (3, "Definite success"),
        (5, "Astonishing success"),
    )
)
"""Result -> its meaning; -5 or less is a complete failure the character may not notice."""

DIFFICULTY_PRESETS: Final = MappingProxyType(
    {"trivial": 1, "simple": 4, "50/50": 6, "tough": 8, "very tough": 11}
)
"""The text's rough guide of difficulty numbers for an average human."""

DIFFICULTY_MODIFIERS: Final = MappingProxyType(
    {"trivial": -5, "simple": -2, "50/50": 0, "tough": 2, "very tough": 5}
)
"""The same guide as modifiers (the numbers in parentheses)."""

PUSH_BONUS: Final = MappingProxyType(
    {1: (0, 0), 2: (1, 1), 3: (1, 1), 4: (1, 1), 5: (1, 1), 6: (1, 0)}
)
"""Push die face -> (bonus to the roll, shock it costs) (ARM 1.2, Pushing)."""

# ---------------------------------------------------------------------------
# Damage (ARM 1.2, Damage)

WOUND_LEVELS: Final = ("Unharmed", "Light", "Moderate", "Severe", "Mortal", "Dead")
SHOCK_LEVELS: Final = ("Unharmed", "Dazed", "Giddy", "Reeling", "Fainting", "Unconscious")
LEVEL_CAP: Final = 5
"""Wound and shock levels run 0..5 (Dead, Unconscious)."""

DAMAGE_TABLE: Final[tuple[tuple[int, int], ...]] = (
    (0, 1),
    (1, 0),
    (1, 1),
    (1, 2),
    (2, 1),
    (2, 3),
    (3, 2),
    (3, 4),
    (4, 3),
    (4, 5),
    (5, 4),
    (5, 5),
)
"""Blow result 0..11 -> (wound level, shock level); 11 and above read the last row."""

DESTROYED_AT: Final = 16
"""A blow result of this or more destroys the target outright."""

MAX_NAMED_WOUNDS: Final = 5

# ---------------------------------------------------------------------------
# Units (ARM 1.2, Rounds): log added to go from the unit to standard (metres, seconds)

LENGTH_UNITS: Final = MappingProxyType(
    {"km": 15, "m": 0, "cm": -10, "mm": -15, "in": -8, "ft": -3, "mi": 16}
)
TIME_UNITS: Final = MappingProxyType({"s": 0, "min": 9, "h": 18, "day": 25, "week": 29, "year": 37})
UNIT_ALIASES: Final = MappingProxyType(
    {
        "kilometre": "km",
        "kilometres": "km",
        "kilometer": "km",
        "kilometers": "km",
        "metre": "m",
        "metres": "m",
        "meter": "m",
        "meters": "m",
        "centimetres": "cm",
        "millimetres": "mm",
        "inch": "in",
        "inches": "in",
        "foot": "ft",
        "feet": "ft",
        "mile": "mi",
        "miles": "mi",
        "sec": "s",
        "second": "s",
        "seconds": "s",
        "minute": "min",
        "minutes": "min",
        "hour": "h",
        "hours": "h",
        "hr": "h",
        "days": "day",
        "d": "day",
        "weeks": "week",
        "years": "year",
        "yr": "year",
    }
)

# ---------------------------------------------------------------------------
# Melee (ARM 1.2, Combat (Melee)): action -> (base difficulty, how size or the attack counts)

MELEE_DIFFICULTIES: Final = MappingProxyType(
    {
        "attack": (4, "size"),
        "attack moving": (6, "size"),
        "defend": (4, "attack result"),
        "prepared defence": (2, "attack result"),
        "counter-blow defence": (6, "attack result"),
        "counter-blow attack": (4, "size"),
        "berserk attack": (3, "size"),
    }
)
BERSERK_NEXT_ACTION: Final = -2
CIRCLING_BONUS: Final = 1
STANDSTILL_DEFENCE_BONUS: Final = 2
MELEE_ROUND_SECONDS: Final = 2

# ---------------------------------------------------------------------------
# Magic (ARM 1.2, Magic): the soul-world operations and their difficulties

SOUL_OPERATIONS: Final = MappingProxyType(
    {
        "move": 4,
        "shape": 6,
        "transmute similar": 7,
        "transmute": 8,
        "transmute dissimilar": 9,
        "imbue simple": 8,
        "imbue complex": 10,
        "imbue conditional": 12,
    }
)
"""Soul-world operation -> difficulty (Willpower + Magically Able against it)."""
SOUL_MOD: Final = "Magically Able"
