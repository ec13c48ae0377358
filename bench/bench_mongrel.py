"""Mongrel: exact distributions of d6 pools against a target number (issue 4)."""

from __future__ import annotations

from typing import Any

import icepool

from harness import Case
from referee.systems.mongrel.checks import check_odds, exact_stat, full_stat, meets, needs

TITLE = "Mongrel"


def _icepool_stat(n: int, tn: int, mode: Any) -> Any:
    """icepool: the same statistic as ours, as a sum of per-die vectors over the pool."""
    sixes, ones = needs(tn, mode)

    def vec(f: int) -> Any:
        return icepool.Vector(
            (int(meets(f, tn, mode)), int(sixes and f == 6), int(ones and f == 1))
        )

    return n @ icepool.d6.map(vec)


def _icepool_full(n: int, tn: int, mode: Any) -> Any:
    """icepool: (dice meeting the TN, 6s, 1s) with every count kept."""

    def vec(f: int) -> Any:
        return icepool.Vector((int(meets(f, tn, mode)), int(f == 6), int(f == 1)))

    return n @ icepool.d6.map(vec)


def _same(ours: Any, ref: Any) -> None:
    mine = {k: w * (ref.denominator() // ours.total) for k, w in ours.items()}
    theirs = {tuple(k): w for k, w in ref.items() if w}
    assert mine == theirs, "icepool and ours disagree"


def cases() -> list[Case]:
    """A pool distribution for up to 10 dice: ≤ 50 µs and ≥ 10× icepool."""
    out = []
    for n, tn, mode in ((10, 4, "under"), (10, 6, "under"), (10, 7, "over"), (6, 1, "over")):
        _same(exact_stat(n, tn, mode), _icepool_stat(n, tn, mode))
        out.append(
            Case(
                f"{n}d6 {mode} {tn}: check statistic",
                lambda n=n, tn=tn, mode=mode: exact_stat(n, tn, mode),
                {"icepool": lambda n=n, tn=tn, mode=mode: _icepool_stat(n, tn, mode)},
                target_us=50,
                min_ratio=10,
            )
        )
    _same(full_stat(10, 4, "under"), _icepool_full(10, 4, "under"))
    out.append(
        Case(
            "10d6 under 4: (successes, 6s, 1s) all kept",
            lambda: full_stat(10, 4, "under"),
            {"icepool": lambda: _icepool_full(10, 4, "under")},
            min_ratio=10,
            note="every count kept although the rule never needs them together",
        )
    )
    out.append(
        Case(
            "10d6 over 3, Identity 4: result distribution",
            lambda: check_odds(10, 3, "over", 4),
            note="statistic plus the rule mapped over it (what `odds` prints)",
        )
    )
    return out
