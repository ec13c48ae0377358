"""The conditions that leave a Mongrel character helpless, and what each still allows
(Physical damage; Complex task resolution, 6).

Every game has this module with the same shape: ``CONDITIONS``, each helpless condition
in the game's words with the roles (:data:`referee.systems.base.Role`) a character in it
may still take, and ``helpless(seat, options)``, the one a seated character is in now.
The base refuses anything else before any die.

* **dead** - nothing but the referee's keeping (the sheet's awards and approvals).
* **collapsed** - damage past the Wound Threshold, or Infernal Resolve at 0, "losing all
  remaining Action Points"; "a collapsed character cannot defend", and at 0 Action Points
  recovering "is the only action a character may make". So a collapsed character may
  recover (``recover``, a rest, or Infernal Resolve spent 1:1, "not an action"), answer a
  terminal hit (it "does not require an action"), and be hit again (a terminal hit);
  nothing else, until an Action Point comes back.
"""

from __future__ import annotations

from referee.systems.base import Helpless
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.state import Seat

DEAD = Helpless("dead", frozenset({"care"}), "Physical damage: terminal damage, dying")
COLLAPSED = Helpless(
    "collapsed",
    frozenset({"recover", "respond", "target", "care"}),
    "Physical damage: a collapsed character cannot defend; Complex task resolution 6",
    "an Action Point is recovered",
)
CONDITIONS: tuple[Helpless, ...] = (DEAD, COLLAPSED)
"""Every helpless condition of Mongrel, most severe first."""


def helpless(seat: Seat, options: Options) -> Helpless | None:
    """The helpless condition ``seat``'s character is in now, or ``None``."""
    if seat.dead:
        return DEAD
    if seat.collapsed:
        return COLLAPSED
    return None
