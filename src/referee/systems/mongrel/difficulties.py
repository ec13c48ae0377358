"""Mongrel's difficulties: a task's Modifier, which adjusts the target number for unusually
difficult conditions by 1 to 4 (Mongrel, Task Resolution, Modifiers). The text names no
levels; the values 0 (no Modifier) to 4 are offered, each by its number."""

from __future__ import annotations

from referee.systems.difficulty import Difficulty, Named

MODIFIERS = (
    Named("No Modifier", 0),
    Named("Modifier 1", 1),
    Named("Modifier 2", 2),
    Named("Modifier 3", 3),
    Named("Modifier 4", 4),
)
"""Every Modifier a task may take (Mongrel, Task Resolution, Modifiers)."""

DIFFICULTIES = (
    Difficulty(
        "task",
        "difficulty",
        MODIFIERS,
        "Mongrel, Task Resolution, Modifiers",
        example="Burn 2 secret @Ann @Ben",
    ),
)
