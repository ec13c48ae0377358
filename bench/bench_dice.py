"""Dice core: exact distributions of notation expressions (issue: foundation)."""

from __future__ import annotations

import icepool
from dyce import H

from harness import Case, dyce_keep
from referee.dice.evaluate import odds
from referee.dice.notation import parse

TITLE = "Dice core"


def cases() -> list[Case]:
    """The foundation issue's targets."""
    two, keep, med, count = (parse(t) for t in ("2d6", "3d6kh2", "3d12med", "10d6>=4"))
    return [
        Case(
            "2d6",
            lambda: odds(two),
            {"icepool": lambda: 2 @ icepool.d6, "dyce": lambda: 2 @ H(6)},
            target_us=20,
            min_ratio=2,
        ),
        Case(
            "3d6 keep highest 2",
            lambda: odds(keep),
            {
                "icepool": lambda: icepool.d6.highest(3, 2),
                "dyce": lambda: dyce_keep(H(6), 3, 2),
            },
            target_us=100,
            min_ratio=2,
        ),
        Case(
            "median of 3d12",
            lambda: odds(med),
            {
                "icepool": lambda: icepool.d12.middle(3, 1),
                "dyce": lambda: H(12).order_stat_for_n_at_pos(3, 1),
            },
            target_us=30,
            min_ratio=2,
        ),
        Case(
            "10d6>=4",
            lambda: odds(count),
            {
                "icepool": lambda: 10 @ (icepool.d6 >= 4),
                "dyce": lambda: 10 @ H(6).ge(4),
            },
            target_us=50,
            min_ratio=2,
        ),
    ]
