"""Task resolution: a pool of d6 against a target number (Mongrel, Task Resolution).

One rule, two evaluations (principle 1): :func:`pool_procedure` reads the
faces into the statistic ``(successes, sixes, ones)`` and :func:`judge` maps
that statistic to a :class:`CheckResult`. Rolling applies ``judge`` to the
faces; odds apply it to the statistic's exact distribution, computed by
multinomial counting over four face classes (ones, sixes, succeeding middle
faces, failing middle faces) - O(n³) terms, never the 6ⁿ face sequences.

The scoped special cases follow RULINGS.md: half or more 1s fails a roll-over
against TN 1 or less; half or more 6s fails a roll-under against TN 6 or more;
half or more 6s succeeds (Effect 1) a roll-over against TN 7 or more. Zero
Expertise rolls one die twice, each judged as a one-die pool; both must pass.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Any, Literal

from referee.dice.odds import Distribution, fraction_text
from referee.errors import RulesError
from referee.systems.base import Modifier, Procedure

from .tables import MAX_DICE, MAX_DIFFICULTY, MAX_TN, MIN_TN

Mode = Literal["under", "over"]
MODES: tuple[Mode, ...] = ("under", "over")

Stat = tuple[int, int, int]
"""(dice meeting the TN, dice showing 6, dice showing 1)."""


@dataclass(frozen=True, slots=True)
class CheckResult:
    """What one task roll yields.

    ``successes`` counts the dice meeting the TN (for zero Expertise: the
    number of the two rolls that passed); ``special`` names the rule that
    decided the roll when it was not the plain count: ``"half ones"``,
    ``"half sixes fail"``, ``"half sixes succeed"`` or ``"zero expertise"``.
    """

    success: bool
    successes: int
    effect: int
    special: str = ""

    @property
    def label(self) -> str:
        """The result in words, as odds list it: "failure" or "success, Effect N" (with
        the special case that decided it, if one did)."""
        said = f"success, Effect {self.effect}" if self.success else "failure"
        return f"{said} ({self.special})" if self.special else said

    def data(self) -> dict[str, bool | int | str]:
        """The result as JSON-ready data (success, successes, effect, special)."""
        return {
            "success": self.success,
            "successes": self.successes,
            "effect": self.effect,
            "special": self.special,
        }


def check_bounds(dice: int, tn: int, mode: str, identity: int) -> None:
    """Refuse numbers no check can use (untrusted input is bounded): a :class:`RulesError`."""
    if not 0 <= dice <= MAX_DICE:
        raise RulesError(f"dice must be 0..{MAX_DICE} (Expertise), not {dice}")
    if not MIN_TN <= tn <= MAX_TN:
        raise RulesError(f"target number must be {MIN_TN}..{MAX_TN}, not {tn}")
    if mode not in MODES:
        raise RulesError(f"mode must be 'under' or 'over', not {mode!r}")
    if not 0 <= identity <= 20:
        raise RulesError(f"identity must be 0..20, not {identity}")


def target_number(attribute: int, mode: Mode, difficulty: int = 0) -> int:
    """The TN after a Modifier: it always makes the roll harder (RULINGS, Modifiers).

    ``difficulty`` 1..4 lowers a roll-under TN or raises a roll-over TN.
    """
    if not 0 <= difficulty <= MAX_DIFFICULTY:
        raise RulesError(f"a Modifier runs from 0 to {MAX_DIFFICULTY}, not {difficulty}")
    return attribute - difficulty if mode == "under" else attribute + difficulty


def difficulty_modifiers(mode: Mode, difficulty: int) -> tuple[Modifier, ...]:
    """The Modifier a difficulty puts on a roll, as recorded on outcomes (none at 0)."""
    if not difficulty:
        return ()
    return (Modifier(-difficulty if mode == "under" else difficulty, "Modifier", "difficulty"),)


def meets(face: int, tn: int, mode: Mode) -> bool:
    """Whether one die meets the TN: at most it (roll-under) or at least it (roll-over)."""
    return face <= tn if mode == "under" else face >= tn


def needs(tn: int, mode: Mode) -> tuple[bool, bool]:
    """Whether the rule looks at the 6s and at the 1s for this TN and mode (RULINGS scopes)."""
    sixes = (mode == "under" and tn >= 6) or (mode == "over" and tn >= 7)
    ones = mode == "over" and tn <= 1
    return sixes, ones


def read(faces: tuple[int, ...], tn: int, mode: Mode) -> Stat:
    """The statistic the rule needs from rolled faces.

    ``(dice meeting the TN, 6s, 1s)``, where the 6s and 1s are counted only
    when a special case can look at them (otherwise 0).
    """
    sixes, ones = needs(tn, mode)
    return (
        sum(1 for f in faces if meets(f, tn, mode)),
        faces.count(6) if sixes else 0,
        faces.count(1) if ones else 0,
    )


def judge(stat: Stat, n: int, tn: int, mode: Mode, identity: int) -> CheckResult:
    """The rule: statistic -> success and Effect (Mongrel, Basics and special cases).

    Effect = succeeding dice + the governing Identity (RULINGS: the TN is not
    added). Special-case successes have Effect 1 with no Identity.
    """
    successes, sixes, ones = stat
    half = 2 * sixes >= n
    if mode == "over" and tn <= 1 and 2 * ones >= n:
        return CheckResult(False, successes, 0, "half ones")
    if mode == "under" and tn >= 6 and half:
        return CheckResult(False, successes, 0, "half sixes fail")
    if mode == "over" and tn >= 7:
        if half:
            return CheckResult(True, successes, 1, "half sixes succeed")
        return CheckResult(False, successes, 0)
    if successes == 0:
        return CheckResult(False, 0, 0)
    return CheckResult(True, successes, successes + identity)


def _binomial(n: int, hit: int, miss: int) -> list[int]:
    """Weights of k = 0..n of ``n`` dice landing in a class of ``hit`` faces (of hit + miss)."""
    out = []
    w = miss**n
    for k in range(n + 1):
        out.append(w)
        if k < n:  # C(n, k+1) hit^(k+1) miss^(n-k-1) from the previous term
            w = w * (n - k) * hit // (k + 1) // miss if miss else 0
    if miss == 0:
        out[n] = hit**n
    return out


def exact_stat(n: int, tn: int, mode: Mode) -> Distribution[Stat]:
    """Exact distribution of the statistic: a multinomial over the face classes that matter.

    In every scoped special case the count meeting the TN is fixed (all dice
    meet a roll-under TN of 6+ or a roll-over TN of 1 or less; none meets a
    roll-over TN of 7+), so only one count varies and the multinomial
    collapses to a binomial: O(n) integer terms, never the 6ⁿ face sequences.
    """
    sixes, ones = needs(tn, mode)
    if sixes or ones:
        fixed = n if (mode == "under" or ones) else 0
        row = _binomial(n, 1, 5)
        if sixes:
            weights = {(fixed, k, 0): w for k, w in enumerate(row)}
        else:
            weights = {(fixed, 0, k): w for k, w in enumerate(row)}
    else:
        ok = sum(1 for f in range(1, 7) if meets(f, tn, mode))
        row = _binomial(n, ok, 6 - ok)
        weights = {(k, 0, 0): w for k, w in enumerate(row) if w}
    return Distribution.trusted(weights, 6**n, ordered=True)


def full_stat(n: int, tn: int, mode: Mode) -> Distribution[Stat]:
    """``(dice meeting the TN, 6s, 1s)`` with every count kept (four-class multinomial).

    Not what the rule needs (see :func:`exact_stat`); offered for analysis and
    as the like-for-like benchmark against a general pool evaluator.
    """
    middle_ok = sum(1 for f in range(2, 6) if meets(f, tn, mode))
    one_ok = 1 if meets(1, tn, mode) else 0
    six_ok = 1 if meets(6, tn, mode) else 0
    rows = [_binomial(r, middle_ok, 4 - middle_ok) for r in range(n + 1)]
    weights: dict[Stat, int] = {}
    for e in range(n + 1):
        rest = rows[n - e]
        scale = comb(n, e)  # which dice show a 1 or a 6 ...
        for a in range(e + 1):  # ... and which of those are 1s
            b = e - a
            cab = scale * comb(e, a)
            base = a * one_ok + b * six_ok
            for c, rw in enumerate(rest):
                if rw:
                    weights[(base + c, b, a)] = cab * rw
    return Distribution.trusted(weights, 6**n)


@lru_cache(maxsize=512)
def pool_procedure(
    dice: int, tn: int, mode: Mode, identity: int = 0
) -> Procedure[Stat, CheckResult]:
    """The check for a pool of ``dice`` ≥ 1 d6 as a :class:`Procedure` (made once per
    pool, TN, mode and Identity: its odds are worked out once)."""
    check_bounds(dice, tn, mode, identity)
    if dice == 0:
        raise RulesError("a pool needs at least one die; use zero_procedure for Expertise 0")
    return Procedure(
        groups=((dice, 6),),
        read=lambda faces: read(faces, tn, mode),
        exact=lambda: exact_stat(dice, tn, mode),
        rule=lambda stat: judge(stat, dice, tn, mode, identity),
    )


def _single_passes(face: int, tn: int, mode: Mode) -> bool:
    return judge(read((face,), tn, mode), 1, tn, mode, 0).success


def zero_procedure(tn: int, mode: Mode) -> Procedure[int, CheckResult]:
    """Zero Expertise: one die rolled twice, both must succeed; Effect 1 (RULINGS).

    The statistic is how many of the two rolls pass as a one-die pool.
    """
    check_bounds(0, tn, mode, 0)
    passing = sum(1 for f in range(1, 7) if _single_passes(f, tn, mode))

    def exact() -> Distribution[int]:
        weights = {k: comb(2, k) * passing**k * (6 - passing) ** (2 - k) for k in range(3)}
        return Distribution({k: w for k, w in weights.items() if w} or {0: 1})

    def rule(passed: int) -> CheckResult:
        ok = passed == 2
        return CheckResult(ok, passed, 1 if ok else 0, "zero expertise")

    return Procedure(
        groups=((2, 6),),
        read=lambda faces: sum(1 for f in faces if _single_passes(f, tn, mode)),
        exact=exact,
        rule=rule,
    )


def procedure(
    dice: int, tn: int, mode: Mode, identity: int = 0
) -> Procedure[Stat, CheckResult] | Procedure[int, CheckResult]:
    """The check for any Expertise level: a pool, or the zero-Expertise roll."""
    check_bounds(dice, tn, mode, identity)
    if dice == 0:
        return zero_procedure(tn, mode)
    return pool_procedure(dice, tn, mode, identity)


def check_odds(dice: int, tn: int, mode: Mode, identity: int = 0) -> Distribution[CheckResult]:
    """The exact distribution of a check's result."""
    return procedure(dice, tn, mode, identity).odds()


def effect_odds(dice: int, tn: int, mode: Mode, identity: int = 0) -> Distribution[int]:
    """The exact distribution of a check's Effect, 0 for a failure (Mongrel, Basics).

    Where no special case can apply, a roll succeeds when at least one die meets
    the TN and its Effect is those dice plus the Identity (RULINGS), so the Effect
    is read straight off the binomial row of dice meeting the TN; elsewhere (the
    scoped 6s and 1s cases, zero Expertise) it is the check's result mapped.
    """
    sixes, ones = needs(tn, mode)
    if dice == 0 or sixes or ones:
        return check_odds(dice, tn, mode, identity).map(lambda r: r.effect if r.success else 0)
    check_bounds(dice, tn, mode, identity)
    ok = sum(1 for f in range(1, 7) if meets(f, tn, mode))
    row = _binomial(dice, ok, 6 - ok)
    weights = {0: row[0]} if row[0] else {}
    weights.update({k + identity: w for k, w in enumerate(row) if k and w})
    return Distribution.trusted(weights, 6**dice, ordered=True)


def effects(dist: Distribution[Hashable]) -> dict[str, str]:
    """Exact chance of each positive Effect in a distribution of Effects (0 = none)."""
    return {str(e): fraction_text(q) for e, q in dist.probabilities().items() if e > 0}  # type: ignore[operator]


def success_odds(dist: Distribution[Any]) -> dict[str, Any]:
    """A task roll's odds: ``{"p_success", "effect": {Effect: p}}`` (successes only;
    Mongrel, Task Resolution)."""
    p = dist.probability_where(lambda r: r.success)
    effect = effects(dist.map(lambda r: r.effect if r.success else 0))
    return {"p_success": fraction_text(p), "effect": effect}
