"""The conditions that leave a Mnemonic character helpless, and what each still allows
(companion facts, Status; the product's injury ruling).

Every game has this module with the same shape: ``CONDITIONS``, each helpless condition
in the game's words with the roles (:data:`referee.systems.base.Role`) a character in it
may still take, and ``helpless(seat, options)``, the one a seated character is in now.
The base refuses anything else before any die.

A character who becomes **inactive** is unconscious, immobilized or dead: out of the
action. An inactive character takes no check, attacks nobody, makes no defence (an
attack on them is made at plain Chances; with opposed rolls they roll nothing) and
checks no Agile for the order of action. They can still be attacked and injured (the
injury check of an inactive victim only makes the outcome worse, the product's ruling),
and the referee sets their Status.
"""

from __future__ import annotations

from referee.systems.base import Helpless
from referee.systems.mnemonic.options import Options
from referee.systems.mnemonic.state import Seat
from referee.systems.mnemonic.tables import INACTIVE_OUTCOMES

_ALLOWS = frozenset({"target", "respond", "care"})
_RULE = "companion facts, Status: an inactive character is unconscious, immobilized or dead"
CONDITIONS: tuple[Helpless, ...] = tuple(
    Helpless(f"inactive ({outcome})", _ALLOWS, _RULE) for outcome in reversed(INACTIVE_OUTCOMES)
)
"""Every helpless condition of Mnemonic, most severe first: inactive (dead), inactive
(immobilized), inactive (unconscious)."""
_BY_OUTCOME = {h.condition: h for h in CONDITIONS}
INACTIVE = Helpless("inactive", _ALLOWS, _RULE)
"""An inactive character whose outcome the table does not record."""


def helpless(seat: Seat, options: Options) -> Helpless | None:
    """The helpless condition ``seat``'s character is in now (inactive, as what), or
    ``None`` for an active one."""
    status = seat.status
    if status.active:
        return None
    return _BY_OUTCOME.get(f"inactive ({status.inactive_as})", INACTIVE)
