"""Sorcery checks (Mongrel, Sorcery Expertise and spiritual damage).

Burn and Chill are attacks (see :mod:`.conflict`: Burn is physical damage,
Chill drains Infernal Resolve and is defended like any attack). Occult takes
one hour per die rolled, needs at least 1 Infernal Resolve spent before the
roll, and each further point adds +1 Effect (RULINGS); long range, large
areas or long time-scales are Modifiers (1..4 each, the referee's choice: the
text gives no numbers). Know and Resist are ordinary checks.

Resist is the defence against Occult (RULINGS) but the text gives no
mechanic; the product ruling: the target rolls its Resist pool under its own
Spirit (special cases and the zero-Expertise roll as usual) and its Effect is
subtracted from the Occult Effect, floor 0 (``resist_mode="subtract"``), or
any successful Resist negates the working (``"cancel"``). The working and the
Resist roll form one :class:`~referee.systems.base.Procedure` whose statistic
is the pair of the two checks' statistics, so the roll and the exact odds of
the net Effect come from the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution, fraction_text
from referee.errors import IllegalAction, RulesError
from referee.systems.base import Dice, Outcome, Plan, Procedure, Trace

from .actions import OccultRoll
from .checks import CheckResult, Mode, procedure
from .options import Options, ResistMode, check_resist_mode
from .tables import MAX_DIFFICULTY, MAX_SCORE, MAX_TN, MIN_TN

MAX_OCCULT_MODIFIER = 3 * MAX_DIFFICULTY
"""Range, scale and an ordinary Modifier, each 0..4, may all apply to one working."""


def occult_hours(dice: int) -> int:
    """An Occult working takes one hour per die rolled (the zero-Expertise roll rolls twice)."""
    if dice < 0:
        raise RulesError(f"dice cannot be negative, not {dice}")
    return dice if dice > 0 else 2


def occult_modifier(range_modifier: int = 0, scale_modifier: int = 0, difficulty: int = 0) -> int:
    """The total Modifier of a working: long range, large area/time-scale, other conditions.

    Each is a Modifier of 0..4 (Mongrel, Modifiers); they add up.
    """
    for name, value in (
        ("range", range_modifier),
        ("scale", scale_modifier),
        ("difficulty", difficulty),
    ):
        if not 0 <= value <= MAX_DIFFICULTY:
            raise RulesError(f"the {name} Modifier runs from 0 to {MAX_DIFFICULTY}, not {value}")
    return range_modifier + scale_modifier + difficulty


def _harder(tn: int, mode: Mode, modifier: int) -> int:
    if not 0 <= modifier <= MAX_OCCULT_MODIFIER:
        raise RulesError(f"an Occult Modifier runs from 0 to {MAX_OCCULT_MODIFIER}, not {modifier}")
    out = tn - modifier if mode == "under" else tn + modifier
    if not MIN_TN <= out <= MAX_TN:
        raise RulesError(f"target number must be {MIN_TN}..{MAX_TN}, not {out}")
    return out


def occult_procedure(
    dice: int,
    tn: int,
    mode: Mode,
    identity: int,
    resolve_spent: int,
    resolve_available: int,
    scope_modifier: int = 0,
) -> Procedure[Any, CheckResult]:
    """An Occult check: Resolve spent first, each point beyond the first adds +1 Effect.

    ``tn`` is the attribute before Modifiers; ``scope_modifier`` (0..12, see
    :func:`occult_modifier`) makes the roll harder. Any success - a special
    case or the zero-Expertise roll included - gains the Resolve bonus.
    """
    if resolve_spent < 1:
        raise IllegalAction("Occult needs at least 1 Infernal Resolve spent before the roll")
    if resolve_spent > MAX_SCORE:
        raise RulesError(f"Infernal Resolve spent must be 1..{MAX_SCORE}, not {resolve_spent}")
    if resolve_spent > resolve_available:
        raise IllegalAction(
            f"cannot spend {resolve_spent} Infernal Resolve with {resolve_available} left"
        )
    bonus = resolve_spent - 1
    base: Procedure[Any, CheckResult] = procedure(
        dice, _harder(tn, mode, scope_modifier), mode, identity
    )

    def rule(stat: Any) -> CheckResult:
        r = base.rule(stat)
        return replace(r, effect=r.effect + bonus) if r.success else r

    return Procedure(base.groups, base.read, base.exact, rule)


def resist_procedure(dice: int, spirit: int, identity: int) -> Procedure[Any, CheckResult]:
    """The Resist roll: the Resist pool under one's own Spirit (product ruling).

    Effect = succeeding dice + the Demon Identity; Resist 0 is the
    zero-Expertise roll (Effect 1).
    """
    proc: Procedure[Any, CheckResult] = procedure(dice, spirit, "under", identity)
    return proc


@dataclass(frozen=True, slots=True)
class OccultResult:
    """An Occult working and the Resist against it.

    ``working`` is the Occult roll (its Effect includes the Resolve bonus);
    ``resist`` the target's Resist roll, if it resisted; ``effect`` the net
    Effect on the target (0 = no harm).
    """

    working: CheckResult
    resist: CheckResult | None
    effect: int

    @property
    def success(self) -> bool:
        """Whether the working itself succeeded (a resisted working may still do no harm)."""
        return self.working.success

    @property
    def label(self) -> str:
        """The working in words: it fails, is resisted to no harm, or its net Effect."""
        if not self.working.success:
            return "the working fails"
        resisted = ", resisted" if self.resist is not None and self.resist.success else ""
        if self.effect <= 0:
            return "no harm" + resisted
        return f"Effect {self.effect} on the target{resisted}"


def net_effect(working: CheckResult, resist: CheckResult | None, mode: ResistMode) -> int:
    """The Occult Effect left after Resist (product ruling; ``resist_mode``)."""
    check_resist_mode(mode)
    if not working.success:
        return 0
    if resist is None or not resist.success:
        return working.effect
    if mode == "cancel":
        return 0
    return max(0, working.effect - resist.effect)


def occult_attack_procedure(
    working: Procedure[Any, CheckResult],
    resist: Procedure[Any, CheckResult] | None,
    mode: ResistMode = "subtract",
) -> Procedure[tuple[Any, Any], OccultResult]:
    """The working and the Resist as one check: faces are the working's dice, then Resist's.

    The statistic is the pair of both checks' statistics; its exact
    distribution is the product of the two (``Distribution.combine``), and
    one rule maps it to an :class:`OccultResult`.
    """
    check_resist_mode(mode)
    n = sum(count for count, _ in working.groups)
    groups = working.groups + (resist.groups if resist is not None else ())

    def read(faces: tuple[int, ...]) -> tuple[Any, Any]:
        mine = working.read(faces[:n])
        return mine, (resist.read(faces[n:]) if resist is not None else None)

    def exact() -> Any:
        w = working.exact()
        if resist is None:
            return w.map(lambda s: (s, None))
        return w.combine(resist.exact(), lambda a, b: (a, b))

    def rule(stat: tuple[Any, Any]) -> OccultResult:
        a, b = stat
        wr = working.rule(a)
        rr = resist.rule(b) if resist is not None else None
        return OccultResult(wr, rr, net_effect(wr, rr, mode))

    return Procedure(groups, read, exact, rule)


def net_effect_odds(
    working: Procedure[Any, CheckResult],
    resist: Procedure[Any, CheckResult] | None,
    mode: ResistMode = "subtract",
) -> Distribution[int]:
    """The exact distribution of an Occult attack's net Effect alone (the working and the
    Resist of :func:`attack_parts`, the rule :func:`net_effect`): each check's few results
    are combined, not every pair of their statistics."""
    check_resist_mode(mode)
    mine = working.odds()
    if resist is None:
        return mine.map(lambda w: net_effect(w, None, mode))
    return mine.combine(resist.odds(), lambda w, r: net_effect(w, r, mode))


def attack_parts(
    dice: int,
    spirit: int,
    identity: int,
    resolve_spent: int,
    resolve_available: int | None = None,
    scope_modifier: int = 0,
    resist_dice: int | None = None,
    resist_spirit: int | None = None,
    resist_identity: int = 0,
) -> tuple[Procedure[Any, CheckResult], Procedure[Any, CheckResult] | None]:
    """The working (under the sorcerer's own Spirit) and the optional Resist of an Occult
    attack from plain numbers."""
    working = occult_procedure(
        dice,
        spirit,
        "under",
        identity,
        resolve_spent,
        resolve_spent if resolve_available is None else resolve_available,
        scope_modifier,
    )
    resist = None
    if resist_dice is not None:
        if resist_spirit is None:
            raise RulesError("a Resist roll needs the resisting character's Spirit")
        resist = resist_procedure(resist_dice, resist_spirit, resist_identity)
    return working, resist


def plan_occult_roll(action: OccultRoll, state: object, options: Options) -> Plan:
    """An Occult attack from plain numbers (the referee's tool); the odds are of its
    :class:`OccultResult` (working, Resist, net Effect)."""
    mode = action.resist_mode or options.resist_mode
    total = occult_modifier(action.range_modifier, action.scale_modifier, action.difficulty)
    working, resist = attack_parts(
        action.dice,
        action.tn,
        action.identity,
        action.resolve,
        scope_modifier=total,
        resist_dice=action.resist_dice,
        resist_spirit=action.resist_tn,
        resist_identity=action.resist_identity,
    )
    proc = occult_attack_procedure(working, resist, mode)
    hours = occult_hours(action.dice)
    tn = action.tn - total

    def finish(r: OccultResult, trace: Trace) -> Outcome:
        faces = [f for t in trace for f in t]
        n = hours  # the working rolls one die per hour (two for zero Expertise)
        w = r.working
        label = f"Occult {faces[:n]} under {tn} ({hours} h): " + (
            f"success, Effect {w.effect}" if w.success else "failure"
        )
        if r.resist is not None:
            rr = r.resist
            label += f"; Resist {faces[n:]}: " + (
                f"Effect {rr.effect}" if rr.success else "failure"
            )
        label += f" -> Infernal Resolve lost {r.effect}"
        return Outcome(
            "mongrel",
            "occult-roll",
            faces=tuple(DieRoll(f, 6, True) for f in faces),
            target=tn,
            result=r.effect,
            success=r.success,
            label=label,
            details={
                "working": w.data(),
                "resist": None if r.resist is None else r.resist.data(),
                "resolve_spent": action.resolve,
                "hours": hours,
                "faces": faces[:n],
                "resist_faces": faces[n:],
                "resist_mode": mode,
            },
        )

    return Plan.of(Dice.of(proc), finish)


def occult_odds(dist: Distribution[Any], action: OccultRoll) -> dict[str, Any]:
    """An Occult attack's odds: the working's success, harm (net Effect 1+), each net
    Effect, and the hours it takes (Mongrel, Sorcery)."""
    from .checks import effects

    p = dist.probability_where(lambda r: r.success)
    harm = dist.probability_where(lambda r: r.effect > 0)
    effect = effects(dist.map(lambda r: r.effect))
    hours = occult_hours(action.dice)
    return {"p_success": fraction_text(p), "p_harm": fraction_text(harm), "effect": effect} | {
        "hours": hours
    }
