"""ARM's named difficulties: a task's difficulty number, from the GM's rough guide for an
average human (ARM 1.2, Task Resolution): Trivial 1, Simple 4, 50/50 6, Tough 8, Very
Tough 11. A roll whose difficulty its roller is not told is made with ``push`` never: the
push is decided after the roll, on a result its roller cannot judge unseen."""

from __future__ import annotations

from referee.systems.difficulty import Difficulty, Named

GUIDE = (
    Named("Trivial", 1),
    Named("Simple", 4),
    Named("50/50", 6),
    Named("Tough", 8),
    Named("Very Tough", 11),
)
"""The rough guide's difficulty numbers (ARM 1.2, Task Resolution)."""

DIFFICULTIES = (
    Difficulty(
        "task",
        "difficulty",
        GUIDE,
        "ARM 1.2, Task Resolution",
        {"push": "never"},
        example="Wit Tough secret @Ann @Ben",
    ),
    Difficulty("group-task", "difficulty", GUIDE, "ARM 1.2, Task Resolution"),
)
