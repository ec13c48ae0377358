"""The numbers and tables of Mneme CE as data (ch. 2 and ch. 7).

Nothing here computes a rule; the rule modules read these tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Final, Literal, TypeAlias

from referee.systems.base import Ladder

DEFAULT_DIFFICULTY: Final = 8
"""Mneme CE ch. 2, Difficulty: the Referee's default."""

DIFFICULTY: Final = Ladder(
    (
        (4, "Easy"),
        (6, "Routine"),
        (8, "Challenging"),
        (10, "Difficult"),
        (12, "Very Difficult"),
        (14, "Formidable"),
    )
)
"""Mneme CE ch. 2, Difficulty Number Table (named steps; 'Average' is the companion's 8)."""

DIFFICULTY_ALIASES: Final = MappingProxyType({"average": 8})

PRINTED_ODDS: Final = MappingProxyType(
    {
        3: "97.22",
        4: "91.67",
        5: "83.33",
        6: "72.22",
        7: "58.33",
        8: "41.67",
        9: "27.78",
        10: "16.67",
        11: "8.33",
        12: "2.78",
        13: "N/A",
        14: "N/A",
        15: "N/A",
        16: "N/A",
    }
)
"""Mneme CE ch. 2, Difficulty Number Table: the printed odds (percent) with no modifiers.

Each is P(2d6 >= Difficulty) rounded to two places; 'N/A' marks the
Difficulties 2d6 alone cannot reach (probability 0).
"""

SCALES: Final = MappingProxyType({"": 1, "D": 10, "H": 100, "K": 1000})
"""Mneme CE ch. 7, Damage Scale: Deka x10, Heka x100, Kilo x1,000."""

Scale: TypeAlias = Literal["", "D", "H", "K"]
"""A damage, armour or HP scale as action fields carry it."""

SCALE_ORDER: Final[tuple[Scale, ...]] = ("", "D", "H", "K")

PHYSICAL: Final = ("Str", "Dex", "End")
MENTAL: Final = ("Int", "Edu", "Soc")
CHARACTERISTICS: Final = (*PHYSICAL, *MENTAL)
OPTIONAL_CHARACTERISTICS: Final = ("Psi",)

CONDITIONS: Final = ("Unhurt", "Wounded", "Seriously Wounded", "Critically Wounded", "Dying")
"""Mneme CE ch. 7, Injury Conditions, from least to most severe (derived from damage)."""

STORED_CONDITIONS: Final = ("Bleeding", "Stunned", "Crippled", "Stabilised", "Awake", "Dead")
"""Conditions that damage alone does not determine, kept on the sheet ('Awake': a
Critically Wounded character woken by an adrenaline shot or combat stimulant)."""

ROUNDS_PER_MINUTE: Final = 10
"""A combat round is about 6 seconds (companion facts): dying rolls fall due 10 a minute."""

ACTIVITIES: Final = ("strenuous", "moderate", "light", "full_rest")
"""Activity levels of the healing table (strenuous loses the day's progress)."""

Activity: TypeAlias = Literal["strenuous", "moderate", "light", "full_rest"]

CARE_LEVELS: Final = ("none", "light", "moderate", "serious", "intensive")
"""Mneme CE ch. 7, Care Levels (with 'none')."""

Care: TypeAlias = Literal["none", "light", "moderate", "serious", "intensive"]

Condition: TypeAlias = Literal[
    "Unhurt", "Wounded", "Seriously Wounded", "Critically Wounded", "Dying"
]
"""An HP condition as an action field names it."""

Location: TypeAlias = Literal["limb", "extremity", "head", "vitals"]
"""A targeted location (ch. 7, Targeted Damage)."""

CARE_LOAD: Final = MappingProxyType({"light": 1, "moderate": 2, "serious": 4, "intensive": 8})
"""Mneme CE ch. 7, Care Levels: equivalent light-care patient load."""

CARE_FOR: Final = MappingProxyType(
    {
        "Unhurt": "none",
        "Wounded": "light",
        "Seriously Wounded": "moderate",
        "Critically Wounded": "serious",
        "Dying": "intensive",
    }
)
"""The care level each condition needs (the '+ Care' column of the healing table)."""

Rate: TypeAlias = tuple[int, int] | str | None
"""A healing rate: ``(points, days)``, ``None`` for no healing, ``"immobile"``."""

_HEALING_COLUMNS: Final = tuple(
    (activity, cared) for activity in ("moderate", "light", "full_rest") for cared in (False, True)
)
"""The healing table's columns: each activity level without care, then with it."""
_IMMOBILE: Final[tuple[Rate, ...]] = ("immobile",) * 4 + ((1, 7), (1, 3))

HEALING: Final[Mapping[str, Mapping[tuple[str, bool], Rate]]] = MappingProxyType(
    {
        condition: dict(zip(_HEALING_COLUMNS, row, strict=True))
        for condition, row in {
            "Wounded": (None, (1, 3), (1, 2), (1, 1), (1, 1), (2, 1)),
            "Seriously Wounded": (None, None, (1, 3), (1, 2), (1, 2), (1, 1)),
            "Critically Wounded": _IMMOBILE,
            "Dying": _IMMOBILE,
        }.items()
    }
)
"""Mneme CE ch. 7, Natural Healing and Medical Care Table (damage healed per days)."""

TARGETED: Final = MappingProxyType(
    {
        "limb": (Fraction(1, 3), "Crippled"),
        "extremity": (Fraction(1, 10), "Crippled"),
        "head": (Fraction(1, 10), "Stunned"),
        "vitals": (Fraction(1, 10), "Bleeding"),
    }
)
"""Mneme CE ch. 7, Targeted Damage: share of HP one attack must deal there, and its effect."""

TIME_PERCENT: Final = MappingProxyType({2: 25, 1: 50, 0: 100, -1: 150})
"""Companion time table: percent of the median time by Effect (>= +2 -> 25 %)."""

THERAPY_DAYS: Final = 3
"""Mneme CE ch. 7, Healing and Mental Characteristics: days of therapy per point."""

BLEED_MINUTES: Final = 1
"""Mneme CE ch. 7, Bleeding: minutes per point of damage."""

FIRST_AID_DIFFICULTY: Final = MappingProxyType({"other": 8, "self": 10})
SURGERY_DIFFICULTY: Final = 8
INTENSIVE_CARE_DIFFICULTY: Final = 8
INTENSIVE_DYING_DAYS: Final = 3

CONDITION_PRESETS: Final = MappingProxyType(
    {
        "concealment": Ladder(((1, "partial"), (2, "mostly"), (4, "full"))),
        "cover": Ladder(((1, "partial"), (2, "mostly"), (4, "full"))),
        "close quarters": Ladder(((2, "ranged"),)),
        "superior firepower": Ladder(((1, "1"), (2, "2"), (3, "3"))),
        "superior position": Ladder(((1, "1"), (2, "2"))),
        "outnumbered": Ladder(((1, "minor"), (2, "significant"), (3, "overwhelming"))),
    }
)
"""Companion facts (Mneme CE conditions and superiority): named presets for conditions
that modify a Difficulty, each a ladder of levels. The referee judges which apply;
unaware / ambushed PCs roll with Disadvantage and unaware adversaries give Advantage."""

ROUND_SECONDS: Final = 6
"""Companion facts (Mneme CE turn economy): a combat round lasts about 6 seconds."""

MINOR_ACTIONS: Final = 3
"""Companion facts (turn economy): Minor actions each PC has per round."""

SIGNIFICANT_COST: Final = 2
"""Companion facts (turn economy): two Minor actions make one Significant action."""


def difficulty_of(text: str) -> int:
    """A Difficulty as typed: a number, or its name on the ladder (Easy ... Formidable;
    ch. 2, Difficulty)."""
    t = text.strip()
    if t.lstrip("-").isdigit():
        return int(t)
    return DIFFICULTY_ALIASES.get(t.lower()) or DIFFICULTY.value(t)
