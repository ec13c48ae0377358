"""Mneme CE's named difficulties: a check's Difficulty (2d6 + modifiers against it) and the
ladder the Difficulty Number Table names (ch. 2, Difficulty): Easy 4, Routine 6,
Challenging 8 (the default), Difficult 10, Very Difficult 12, Formidable 14."""

from __future__ import annotations

from referee.systems.difficulty import Difficulty, Named

LADDER = (
    Named("Easy", 4),
    Named("Routine", 6),
    Named("Challenging", 8),
    Named("Difficult", 10),
    Named("Very Difficult", 12),
    Named("Formidable", 14),
)
"""The Difficulty Number Table's named rows (ch. 2)."""

DIFFICULTIES = (
    Difficulty(
        "check",
        "difficulty",
        LADDER,
        "Mneme CE ch. 2, Difficulty Number Table",
        example="Int Recon Difficult secret @Ann @Ben",
    ),
)
