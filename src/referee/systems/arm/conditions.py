"""The conditions that leave an ARM character helpless, and what each still allows
(ARM 1.2, Damage).

Every game has this module with the same shape: ``CONDITIONS``, each helpless condition
in the game's words with the roles (:data:`referee.systems.base.Role`) a character in it
may still take, and ``helpless(seat, options)``, the one a seated character is in now.
The base refuses anything else before any die.

The text names the states (wound level 5 "Dead", shock level 5 "Unconscious", a wound
margin of 16 or more "Destroyed") and says no more; the product's reading is the plain
one: none of them acts, defends, resists, helps or pushes. Each can still be struck (a
referee expects a blow on a senseless body to land: an attack on them meets no
defence), can let an incoming blow through, and is kept by the referee's own actions
(damage, recovery, named wounds, penalties).
"""

from __future__ import annotations

from referee.systems.arm.options import Options
from referee.systems.arm.state import Seat
from referee.systems.base import Helpless

_BODY = frozenset({"target", "care", "respond"})
DESTROYED = Helpless("Destroyed", _BODY, "ARM 1.2, Damage: 16+ Destroyed")
DEAD = Helpless("Dead", _BODY, "ARM 1.2, Damage: wound level 5, Dead")
UNCONSCIOUS = Helpless("Unconscious", _BODY, "ARM 1.2, Damage: shock level 5, Unconscious")
CONDITIONS: tuple[Helpless, ...] = (DESTROYED, DEAD, UNCONSCIOUS)
"""Every helpless condition of ARM, most severe first."""


def helpless(seat: Seat, options: Options) -> Helpless | None:
    """The helpless condition ``seat``'s character is in now (the most severe), or
    ``None``."""
    if seat.destroyed:
        return DESTROYED
    if seat.wound >= 5:
        return DEAD
    if seat.shock >= 5:
        return UNCONSCIOUS
    return None
