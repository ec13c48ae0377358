"""Mongrel: exact distributions of d6 pools against a target number (issue 4), with
dyce beside icepool and each peer in its fastest formulation.

The check statistic is what the rule reads: the dice meeting the TN, and the 6s
or 1s only where a special case looks at them. Peers count the one face class
that varies (a binomial count, their fastest way) and place it in the same
triple; icepool's vector formulation is listed too.
"""

from __future__ import annotations

from typing import Any

import icepool
from dyce import H
from dyce.evaluation import expand

from harness import Case, exact_view
from referee.systems.mongrel.checks import (
    check_odds,
    effect_odds,
    exact_stat,
    full_stat,
    meets,
    needs,
)
from referee.systems.mongrel.sorcery import attack_parts, net_effect_odds

TITLE = "Mongrel"


def _varying(n: int, tn: int, mode: Any) -> tuple[Any, Any]:
    """The face class that varies in the statistic, and how a count of it reads."""
    sixes, ones = needs(tn, mode)
    if sixes:
        fixed = n if mode == "under" else 0  # all dice meet a TN of 6+ under, none 7+ over
        return (lambda f: f == 6), (lambda k: (fixed, int(k), 0))
    if ones:
        return (lambda f: f == 1), (lambda k: (n, 0, int(k)))
    return (lambda f: meets(f, tn, mode)), (lambda k: (int(k), 0, 0))


def _stat_forms(n: int, tn: int, mode: Any) -> dict[str, Any]:
    test, wrap = _varying(n, tn, mode)
    sixes, ones = needs(tn, mode)

    def vec(f: int) -> Any:
        return icepool.Vector(
            (int(meets(f, tn, mode)), int(sixes and f == 6), int(ones and f == 1))
        )

    return {
        "icepool": {
            "(n @ d6.map(test)).map(triple)": lambda: (n @ icepool.d6.map(test)).map(wrap),
            "n @ d6.map(Vector)": lambda: n @ icepool.d6.map(vec),
        },
        "dyce": {
            "(n @ H(6).apply(test)).apply(triple)": lambda: (n @ H(6).apply(test)).apply(wrap)
        },
    }


def _code(f: int, tn: int, mode: Any) -> int:
    """(meets, is 6, is 1) of one die as one number: base 11 digits (at most 10 dice)."""
    return int(meets(f, tn, mode)) + 11 * int(f == 6) + 121 * int(f == 1)


def _decode(c: int) -> tuple[int, int, int]:
    return c % 11, c // 11 % 11, c // 121


def _full_forms(n: int, tn: int, mode: Any) -> dict[str, Any]:
    def vec(f: int) -> Any:
        return icepool.Vector((int(meets(f, tn, mode)), int(f == 6), int(f == 1)))

    def code(f: int) -> int:
        return _code(f, tn, mode)

    return {
        "icepool": {
            "n @ d6.map(Vector)": lambda: n @ icepool.d6.map(vec),
            "(n @ d6.map(code)).map(decode)": lambda: (n @ icepool.d6.map(code)).map(_decode),
        },
        "dyce": {
            "(n @ H(6).apply(code)).apply(decode)": lambda: (n @ H(6).apply(code)).apply(_decode)
        },
    }


def _effect(identity: int) -> Any:
    return lambda k: int(k) + identity if k else 0


def _under_effect_ice(n: int, tn: int, identity: int) -> Any:
    """icepool: Effect (0 = failure) of n dice rolled under tn, written independently."""

    def code(f: int) -> int:
        return int(f <= tn) + 16 * int(f == 6)

    def effect(c: int) -> int:
        hits, sixes = c % 16, c // 16
        if (tn >= 6 and 2 * sixes >= n) or hits == 0:
            return 0
        return hits + identity

    return (n @ icepool.d6.map(code)).map(effect)


def _under_effect_dyce(n: int, tn: int, identity: int) -> Any:
    def code(f: int) -> int:
        return int(f <= tn) + 16 * int(f == 6)

    def effect(c: int) -> int:
        hits, sixes = c % 16, c // 16
        if (tn >= 6 and 2 * sixes >= n) or hits == 0:
            return 0
        return hits + identity

    return (n @ H(6).apply(code)).apply(effect)


def _net(bonus: int) -> Any:
    return lambda a, b: max(0, a + bonus - b) if a else 0


def _ours_occult() -> Any:
    parts = attack_parts(6, 6, 4, 3, resist_dice=4, resist_spirit=4, resist_identity=2)
    return net_effect_odds(*parts)


def _result_view(result: Any) -> Any:
    """A check's result distribution as (success, successes, effect) triples, exactly."""
    if hasattr(result, "probabilities") and not hasattr(result, "denominator"):
        first = next(iter(result.outcomes()))
        if hasattr(first, "effect"):
            result = result.map(lambda r: (r.success, r.successes, r.effect))
    return exact_view(result)


def _result(k: Any, identity: int) -> tuple[bool, int, int]:
    k = int(k)
    return (k > 0, k, k + identity if k else 0)


def cases() -> list[Case]:
    """The check statistic for up to 10 dice, all counts kept, the Effect (issue 11: at
    least 3x the best peer), a result distribution and an Occult attack."""
    out = []
    for n, tn, mode in ((10, 4, "under"), (10, 6, "under"), (10, 7, "over"), (6, 1, "over")):
        out.append(
            Case(
                f"{n}d6 {mode} {tn}: check statistic",
                lambda n=n, tn=tn, mode=mode: exact_stat(n, tn, mode),
                _stat_forms(n, tn, mode),
            )
        )
    out.append(
        Case(
            "10d6 under 4: (successes, 6s, 1s) all kept",
            lambda: full_stat(10, 4, "under"),
            _full_forms(10, 4, "under"),
            note="every count kept although the rule never needs them together",
        )
    )
    out.append(
        Case(
            "6d6 under 4, Identity 2: Effect",
            lambda: effect_odds(6, 4, "under", 2),
            {
                "icepool": {
                    "(6 @ (d6 <= 4)).map(effect)": lambda: (6 @ (icepool.d6 <= 4)).map(_effect(2))
                },
                "dyce": {
                    "(6 @ H(6).le(4)).apply(effect)": lambda: (6 @ H(6).le(4)).apply(_effect(2))
                },
            },
            min_ratio=3,
            note="the package's effect_odds: the Effect read off the binomial row",
        )
    )
    out.append(
        Case(
            "10d6 over 3, Identity 4: result distribution",
            lambda: check_odds(10, 3, "over", 4),
            {
                "icepool": {
                    "(10 @ (d6 >= 3)).map(result)": lambda: (10 @ (icepool.d6 >= 3)).map(
                        lambda k: _result(k, 4)
                    )
                },
                "dyce": {
                    "(10 @ H(6).ge(3)).apply(result)": lambda: (10 @ H(6).ge(3)).apply(
                        lambda k: _result(k, 4)
                    )
                },
            },
            view=_result_view,
            note="statistic plus the rule mapped over it (what `odds` prints)",
        )
    )
    out.append(
        Case(
            "Occult 6d6 under 6 (3 Resolve) vs Resist 4d6 under 4: net Effect",
            _ours_occult,
            {
                "icepool": {
                    "icepool.map(net, working, resist)": lambda: icepool.map(
                        _net(2), _under_effect_ice(6, 6, 4), _under_effect_ice(4, 4, 2)
                    )
                },
                "dyce": {
                    "expand(net, working, resist)": lambda: expand(
                        lambda a, b: _net(2)(a.outcome, b.outcome),
                        _under_effect_dyce(6, 6, 4),
                        _under_effect_dyce(4, 4, 2),
                    )
                },
            },
            note="net_effect_odds: each check's results combined by the net-Effect rule",
        )
    )
    return out
