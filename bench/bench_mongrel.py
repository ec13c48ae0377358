"""Mongrel: exact distributions of d6 pools against a target number (issue 4)."""

from __future__ import annotations

from typing import Any

import icepool

from harness import Case
from referee.systems.mongrel.checks import check_odds, exact_stat, full_stat, meets, needs
from referee.systems.mongrel.sorcery import occult_attack

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


def _under_effect(n: int, tn: int, identity: int) -> Any:
    """icepool: Effect (0 = failure) of n dice rolled under tn, written independently."""

    def vec(f: int) -> Any:
        return icepool.Vector((int(f <= tn), int(f == 6)))

    def effect(v: Any) -> int:
        hits, sixes = v
        if (tn >= 6 and 2 * sixes >= n) or hits == 0:
            return 0
        return int(hits) + identity

    return (n @ icepool.d6.map(vec)).map(effect)


def _icepool_occult(n: int, tn: int, ident: int, bonus: int, k: int, rtn: int, rident: int) -> Any:
    """icepool: net Effect of an Occult working (Resolve bonus) after a Resist (subtract)."""
    working = _under_effect(n, tn, ident)
    resist = _under_effect(k, rtn, rident)
    return icepool.map(lambda a, b: max(0, a + bonus - b) if a else 0, working, resist)


def _ours_occult() -> Any:
    proc = occult_attack(6, 6, 4, 3, resist_dice=4, resist_spirit=4, resist_identity=2)
    return proc.odds().map(lambda r: r.effect)


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
    ours, ref = _ours_occult(), _icepool_occult(6, 6, 4, 2, 4, 4, 2)
    scale = ref.denominator() // ours.total
    assert {e: w * scale for e, w in ours.items()} == {e: w for e, w in ref.items() if w}
    out.append(
        Case(
            "Occult 6d6 under 6 (3 Resolve) vs Resist 4d6 under 4: net Effect",
            _ours_occult,
            {"icepool": lambda: _icepool_occult(6, 6, 4, 2, 4, 4, 2)},
            note="working and Resist as one Procedure (combine of the two statistics)",
        )
    )
    return out
