"""Mnemonic's named difficulties: a Success Check's Chances rating, which the referee
chooses (Mnemonic, applying chances): Terrible -9, Bad -6, Poor -3, Moderate 0, Fair +3,
Good +6, Great +9. A check's modifier is the rating's number."""

from __future__ import annotations

from referee.systems.difficulty import Difficulty, Named

CHANCES = (
    Named("Terrible", -9),
    Named("Bad", -6),
    Named("Poor", -3),
    Named("Moderate", 0),
    Named("Fair", 3),
    Named("Good", 6),
    Named("Great", 9),
)
"""The Chances ratings (Mnemonic, applying chances)."""

DIFFICULTIES = (
    Difficulty(
        "sheet-check",
        "chances",
        CHANCES,
        "Mnemonic, applying chances",
        example="Agile Fair secret @Ann",
    ),
)
