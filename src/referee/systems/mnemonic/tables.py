"""Mnemonic's numbers as data: rating levels, Chances, degree labels, Talent lists.

Sources: Referee's Guide p. 1 ("applying chances", "creation considerations",
"unusual primary roles") and the Player's Guide facts restated in the
product's COMPANION notes (the rating ladder +0..+6 and its level names).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from referee.systems.base import Ladder

RATING_MIN: Final = 0
RATING_MAX: Final = 6
"""Every Talent and Life Role is rated +0..+6 (Player's Guide, COMPANION)."""

RATING_NAMES: Final[tuple[str, ...]] = (
    "Not At All",
    "Slightly",
    "Somewhat",
    "Moderately",
    "Fairly",
    "Very",
    "Extremely",
)
"""Level names for +0..+6; "Slightly" and "Somewhat" are the product's ruling
for the two levels the texts never name. A referee may rename them (options)."""

PRIMARY_RELEVANT: Final = 3
"""The Primary Role counts as Moderately (+3) when it naturally covers the task
(Referee's Guide p. 1, "determining aptitude")."""

PRIMARY_IRRELEVANT: Final = 0
"""The Primary Role counts as Not At All (+0) when it does not (same section)."""

CHANCES: Final = Ladder(
    (
        (-9, "Terrible"),
        (-6, "Bad"),
        (-3, "Poor"),
        (0, "Moderate"),
        (3, "Fair"),
        (6, "Good"),
        (9, "Great"),
    )
)
"""The Chances ratings and their modifiers (Referee's Guide p. 1, "applying
chances"); in-between values are allowed, these are presets."""

CHANCES_STEP: Final = 3
"""The distance between two neighbouring Chances ratings."""

CHANCES_LIMIT: Final = 60
"""Bound on an entered Chances modifier (untrusted input); the ladder spans -9..+9."""

SUCCESS_DEGREES: Final = Ladder(((1, "Moderate"), (2, "Fair"), (4, "Good"), (6, "Great")))
"""Optional degree label of a number of Successes (RULINGS.md, Mnemonic)."""

FAILURE_DEGREES: Final = Ladder(((1, "Poor"), (4, "Bad"), (7, "Terrible")))
"""Optional degree label of a number of Failures (RULINGS.md, Mnemonic)."""

DEFAULT_TALENTS: Final[tuple[str, ...]] = (
    "Agile",
    "Dangerous",
    "Disciplined",
    "Handy",
    "Influential",
    "Smart",
    "Tough",
)
"""The default Talent list (Referee's Guide p. 1, "creation considerations")."""

LUCKY: Final = "Lucky"
"""The optional Talent (Referee's Guide p. 1, "determining aptitude")."""

FRIGATE_TALENTS: Final[tuple[str, ...]] = ("Fast", "Maneuverable", "Sturdy", "Well-Armed")
"""The text's example Talent list for an 18th-century frigate ("unusual primary roles")."""

FRIGATE_EQUIVALENTS: Final = MappingProxyType({"Sturdy": "Tough", "Well-Armed": "Dangerous"})
"""The renames the frigate example names: new Talent -> the standard one it stands for."""

CARD_VALUES: Final[tuple[int, ...]] = tuple(range(1, 13))
"""Ace = 1 ... Jack = 11, Queen = 12; kings and jokers are removed ("success check options")."""

CARD_COPIES: Final = 4
"""One card of each value per suit."""

CARD_NAMES: Final = MappingProxyType({1: "Ace", 11: "Jack", 12: "Queen"})
"""Names of the cards whose value is not printed on them."""

RANDOMIZERS: Final[tuple[str, ...]] = ("d12", "3d12", "cards", "3cards", "verbal", "verbal-ab")
"""Every randomizer of "success check options": one d12 (standard), median of
three d12, one card, median of three cards, the verbal method and its A/B variant."""

INACTIVE_OUTCOMES: Final[tuple[str, ...]] = ("unconscious", "immobilized", "dead")
"""What an inactive character is, least to most severe (Player's Guide, COMPANION)."""

FINE: Final = "Fine"
INACTIVE: Final = "inactive"
