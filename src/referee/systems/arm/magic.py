"""Magic: set spells with a casting difficulty, and the soul-world operations.

ARM 1.2, Magic: a set spell is cast against its difficulty (the fire-ball: 7)
with Wit or Willpower; the improvisational soul world moves, shapes,
transmutes and imbues soul-matter with Willpower + the special mod
"Magically Able" against the operation's difficulty.
"""

from __future__ import annotations

from decimal import Decimal

from referee.systems.arm.catalog import Setting, Spell
from referee.systems.arm.scale import Method, measure_of
from referee.systems.arm.tables import SOUL_OPERATIONS
from referee.systems.base import RulesError


def spell_named(setting: Setting, name: str) -> Spell:
    """The setting's spell called ``name``; a clear error naming the known ones."""
    spell = setting.spell(name)
    if spell is None:
        known = ", ".join(s.name for s in setting.spells) or "none"
        raise RulesError(f"unknown spell {name!r}; known: {known}")
    return spell


def soul_difficulty(operation: str) -> int:
    """The difficulty of a soul-world operation (move 4, shape 6, transmute 7-9, imbue 8/10/12)."""
    key = operation.strip().lower()
    if key not in SOUL_OPERATIONS:
        raise RulesError(
            f"unknown soul-world operation {operation!r}; known: {', '.join(SOUL_OPERATIONS)}"
        )
    return SOUL_OPERATIONS[key]


def soul_move_metres(result: int, method: Method = "table") -> Decimal:
    """How far a Moving operation carried the soul-matter in one second, in metres.

    The result of a Move is a log distance (standard units), so its measure
    is the distance: result 5 moves it about 10 m. A failed Move (below 0)
    moves nothing (the package's ruling).
    """
    return measure_of(result, method) if result >= 0 else Decimal(0)
