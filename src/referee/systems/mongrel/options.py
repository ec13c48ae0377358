"""House rules for Mongrel as a frozen value (principle 3). Defaults are RULINGS.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from referee.errors import RulesError
from referee.systems.base import option

ResistMode = Literal["subtract", "cancel"]
RESIST_MODES: tuple[ResistMode, ...] = ("subtract", "cancel")


def check_resist_mode(mode: str, name: str = "resist_mode") -> ResistMode:
    """``mode`` as a :data:`ResistMode`, or a :class:`RulesError` naming ``name``."""
    if mode not in RESIST_MODES:
        raise RulesError(f"{name} must be one of {', '.join(RESIST_MODES)}, not {mode!r}")
    return mode


@dataclass(frozen=True)
class Options:
    """A table's Mongrel options; every default is the product's ruling."""

    refresh_variant: bool = option(
        False,
        "Design-note variant: recovering adds refresh_amount AP, may exceed the "
        "maximum, and is impossible while AP are at or above the maximum "
        "(fatigue still limits it).",
    )
    refresh_amount: int = option(
        3, "AP gained per recovery under refresh_variant (the notes' 'three')."
    )
    physique_shrinks_track: bool = option(
        True,
        "Physique lost to damage lowers the Wound Threshold and the terminal point as "
        "well as target numbers (the text: 'for purposes of the Size/Physique table and "
        "also for target-numbers'); off: the track keeps the sheet's Physique.",
    )
    ap_loss_once: bool = option(
        False,
        "The extra AP for damage past Size is lost only on the hit that first "
        "crosses Size (default: every hit landing past Size).",
    )
    zero_ir_collapse_on_spend: bool = option(
        True,
        "Spending the last Infernal Resolve (for AP or on Occult) collapses the character "
        "like an attack taking it to 0: the text's 'If Infernal Resolve hits 0, then the "
        "character collapses' names no cause. Off: only attacks collapse.",
    )
    fatigue_rest_hours: int = option(
        1, "Hours of rest (1-6, referee's choice) that restore full refreshes."
    )
    resist_mode: ResistMode = option(
        "subtract",
        "How a Resist roll defends against Occult (the text gives no mechanic). "
        "'subtract': the Resist Effect is taken from the Occult Effect, floor 0 "
        "(like armour); 'cancel': any successful Resist negates the working.",
    )
    max_score: int | None = option(
        None,
        "Design-note variant: no Identity, attribute or Expertise above this at "
        "creation (the notes consider 6); left empty, the text's rules stand, where 7s occur.",
    )
    resist_costs_ap: bool = option(
        True,
        "Resisting an Occult attack counts as defending: the target spends 1 AP "
        "and the attacker must spend 1 AP (off: resisting costs no AP).",
    )

    def __post_init__(self) -> None:
        check_resist_mode(self.resist_mode)
        if self.max_score is not None and not 1 <= self.max_score <= 20:
            raise RulesError(f"max_score must be 1..20 or None, not {self.max_score}")
        if not 1 <= self.fatigue_rest_hours <= 6:
            raise RulesError(
                f"fatigue_rest_hours must be 1..6 (the text), not {self.fatigue_rest_hours}"
            )
        if not 1 <= self.refresh_amount <= 20:
            raise RulesError(f"refresh_amount must be 1..20, not {self.refresh_amount}")
