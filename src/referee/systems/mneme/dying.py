"""Dying rolls round by round, rolled and as exact odds (Mneme CE ch. 7, Dying).

A Dying character makes an End roll against Difficulty 4 every round, wound
penalties applied; one failure is death. :func:`health.due_segments` says which
rounds need a roll and at what damage; :func:`roll_rounds` rolls them with the
same check procedure whose odds :func:`survival_probability` multiplies, so the
chance of surviving N rounds comes from the rule that rolls each of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.errors import OddsTooComplex
from referee.systems.mneme.actions import Check
from referee.systems.mneme.health import Segment
from referee.systems.mneme.options import Options
from referee.systems.mneme.resolve import Built, _faces, build
from referee.systems.mneme.sheet import Character

MAX_ODDS_ROUNDS = 14_400
"""Most dying rounds exact odds are computed for (one day of rounds)."""
MAX_ROUNDS = 6_000_000
"""Most rounds one call may pass (a bound on untrusted input)."""


def dying_check(options: Options) -> Check:
    """The dying roll: End against Difficulty 4 (option), wound penalties apply."""
    return Check(difficulty=options.dying_difficulty, characteristic="End")


def _built(character: Character, damage: int, options: Options) -> Built:
    return build(dying_check(options), replace(character, damage=damage), options)


def p_survive_round(character: Character, damage: int, options: Options) -> Fraction:
    """P(one dying roll succeeds) at that damage total."""
    return Fraction(_built(character, damage, options).procedure.odds().at_least(0))


@dataclass(frozen=True)
class DyingRolls:
    """Dying rolls made: how many, whether the character survived them all, and, on a
    death, the round of the span it came in (0-based) and the damage then."""

    rolled: int
    certain: int
    survived: bool
    death_round: int | None
    death_damage: int | None
    faces: tuple[DieRoll, ...]
    efforts: tuple[int, ...]


def roll_rounds(
    character: Character, segments: Iterable[Segment], roller: Roller, options: Options
) -> DyingRolls:
    """Roll each due dying roll until one fails. A roll whose success is certain (or
    impossible) is not rolled but counted as made: the table would not pick up dice."""
    rolled = certain = 0
    faces: list[DieRoll] = []
    effects: list[int] = []
    for seg in segments:
        built = _built(character, seg.damage, options)
        p = built.procedure.odds().at_least(0)
        if p == 1:
            certain += seg.rounds
            continue
        for i in range(seg.rounds):
            if p == 0:
                return DyingRolls(
                    rolled,
                    certain + 1,
                    False,
                    seg.start + i,
                    seg.damage,
                    tuple(faces),
                    tuple(effects),
                )
            f, effect = built.procedure.roll(roller)
            rolled += 1
            faces += _faces(built, f)
            effects.append(effect)
            if effect < 0:
                return DyingRolls(
                    rolled,
                    certain,
                    False,
                    seg.start + i,
                    seg.damage,
                    tuple(faces),
                    tuple(effects),
                )
    return DyingRolls(rolled, certain, True, None, None, tuple(faces), tuple(effects))


def survival_probability(
    character: Character, segments: Iterable[Segment], options: Options
) -> Fraction:
    """Exact P(surviving every due dying roll): the product of each round's chance. A
    certain death ends the product at 0; at most one day of uncertain rounds."""
    total = Fraction(1)
    count = 0
    for seg in segments:
        p = p_survive_round(character, seg.damage, options)
        if p == 0:
            return Fraction(0)
        if p == 1:
            continue
        count += seg.rounds
        if count > MAX_ODDS_ROUNDS:
            raise OddsTooComplex(
                f"exact dying odds are limited to {MAX_ODDS_ROUNDS} uncertain rounds"
            )
        total *= p**seg.rounds
    return total


def alive_or_dead(p_alive: Fraction) -> Distribution[str]:
    """``{"Alive": p, "Dead": 1 - p}`` with integer weights."""
    if p_alive == 1:
        return Distribution.constant("Alive")
    if p_alive == 0:
        return Distribution.constant("Dead")
    return Distribution(
        {"Alive": p_alive.numerator, "Dead": p_alive.denominator - p_alive.numerator}
    )
