"""House rules for Mongrel as a frozen value (principle 3). Defaults are RULINGS.md."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Options:
    """A table's Mongrel options; every default is the product's ruling."""

    refresh_variant: bool = field(
        default=False,
        metadata={
            "doc": "Design-note variant: recovering adds refresh_amount AP, may exceed the "
            "maximum, and is impossible while AP are at or above the maximum."
        },
    )
    refresh_amount: int = field(
        default=3,
        metadata={"doc": "AP gained per recovery under refresh_variant (the notes' 'three')."},
    )
    auto_spend_resolve: bool = field(
        default=True,
        metadata={
            "doc": "In a conflict, a character taking terminal damage spends 1 Infernal "
            "Resolve to survive whenever able (the text makes it a choice)."
        },
    )
    physique_shrinks_track: bool = field(
        default=False,
        metadata={
            "doc": "Physique lost to damage also lowers the Wound Threshold and terminal "
            "point (default: the track keeps the sheet's Physique; losses lower TNs only)."
        },
    )
    ap_loss_once: bool = field(
        default=False,
        metadata={
            "doc": "The extra AP for damage past Size is lost only on the hit that first "
            "crosses Size (default: every hit landing past Size)."
        },
    )
    zero_ir_collapse_on_spend: bool = field(
        default=True,
        metadata={
            "doc": "Spending the last Infernal Resolve for AP collapses the character like "
            "an attack taking it to 0."
        },
    )
    fatigue_rest_hours: int = field(
        default=1,
        metadata={"doc": "Hours of rest (1-6, referee's choice) that restore full refreshes."},
    )
