"""Dice core: exact distributions of notation expressions (issue: foundation)."""

from __future__ import annotations

import icepool
from dyce import H

from harness import Case, dyce_keep, import_milliseconds, startup_seconds
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


IMPORT_TARGET_MS = 30


def extra() -> str:
    """Import cost of the package (target: at most 30 ms over a bare interpreter)."""
    bare = startup_seconds("pass")
    rows = []
    for module in ("referee", "referee.dice", "referee.systems.base", "referee.cli.main"):
        cost_ms = import_milliseconds(module)
        target = f"{IMPORT_TARGET_MS}" if module == "referee" else "-"
        met = ("yes" if cost_ms <= IMPORT_TARGET_MS else "**no**") if module == "referee" else "-"
        rows.append(f"| `import {module}` | {cost_ms:.1f} | {target} | {met} |")
    return "\n".join(
        [
            "Import cost: the cumulative time Python's `-X importtime` reports for the module,",
            f"median of 25 fresh interpreters (a bare interpreter starts in {bare * 1000:.1f} ms).",
            "Only `referee` itself has a target; the others show what a command pays.",
            "",
            "| import | ms | target ms | met |",
            "|---|---|---|---|",
            *rows,
            "",
        ]
    )
