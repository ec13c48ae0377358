"""The conditions that leave a Mneme CE character helpless, and what each still allows
(ch. 7, Critically Wounded; Dying).

Every game has this module with the same shape: ``CONDITIONS``, each helpless condition
in the game's words with the roles (:data:`referee.systems.base.Role`) a character in it
may still take, and ``helpless(seat, options)``, the one a seated character is in now.
The base refuses anything else before any die (:meth:`~referee.systems.base.Ruleset.
check_helpless`), and derived events - a threat striking back - never come from them.

* **Dead** - nothing but being struck or tended (a body can still be hit or carried).
* **Dying** - "Dying Characters are Unconscious and Immobile": no action, no defence and
  no strike back; they still make the dying roll each round (and the massive-damage
  roll), and may be treated.
* **Critically Wounded, out** - "typically knocked out or Unconscious. A character who is
  Out is helpless": as Dying, until an adrenaline shot or combat stimulant wakes them
  (``Awake``). Whether a Critically Wounded character is out is the option
  ``critically_wounded_out`` (default: yes, the text's "typically").
"""

from __future__ import annotations

from referee.systems.base import Helpless
from referee.systems.mneme.health import condition
from referee.systems.mneme.options import Options
from referee.systems.mneme.state import Seat

DEAD = Helpless("Dead", frozenset({"target", "care"}), "ch. 7, Dying: failed roll, dead")
DYING = Helpless(
    "Dying (Unconscious and Immobile)",
    frozenset({"target", "care", "respond"}),
    "ch. 7, Dying: Dying Characters are Unconscious and Immobile",
)
OUT = Helpless(
    "Critically Wounded and out",
    frozenset({"target", "care", "respond"}),
    "ch. 7, Critically Wounded: a character who is Out is helpless",
    "an adrenaline shot or combat stimulant awakens them",
)
CONDITIONS: tuple[Helpless, ...] = (DEAD, DYING, OUT)
"""Every helpless condition of Mneme CE, most severe first."""


def helpless(seat: Seat, options: Options) -> Helpless | None:
    """The helpless condition ``seat``'s character is in now, or ``None``: Dead, Dying
    (damage above HP), or Critically Wounded and not awakened while the option
    ``critically_wounded_out`` holds (ch. 7)."""
    sheet = seat.sheet
    if sheet.dead:
        return DEAD
    cond = condition(sheet, options)
    if cond == "Dying":
        return DYING
    if cond == "Critically Wounded" and options.critically_wounded_out:
        return None if "Awake" in sheet.conditions else OUT
    return None
