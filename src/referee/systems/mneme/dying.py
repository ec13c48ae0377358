"""Dying rolls round by round, rolled and as exact odds (Mneme CE ch. 7, Dying).

A Dying character makes an End roll against Difficulty 4 every round, wound
penalties applied; one failure is death. :func:`health.due_segments` says which
rounds need a roll and at what damage; :class:`DyingProgram` is those rolls as a
dice program: rolling makes each due roll with the check's own procedure until one
fails, and the exact odds multiply the same procedure's chances, so the chance of
surviving N rounds comes from the rule that rolls each of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from referee.dice.evaluate import DieRoll
from referee.dice.odds import Distribution
from referee.dice.roller import Roller
from referee.errors import OddsTooComplex
from referee.systems.base import Dice, Procedure
from referee.systems.mneme.actions import CheckInputs
from referee.systems.mneme.health import Segment
from referee.systems.mneme.options import Options
from referee.systems.mneme.sheet import Sheet
from referee.systems.mneme.task import Built, build

MAX_ODDS_ROUNDS = 14_400
"""Most uncertain dying rounds exact odds are computed for (one day of rounds)."""
MAX_BRUTE_ROLLS = 3
"""Most uncertain rolls :meth:`DyingProgram.brute` enumerates (36**3 face sequences)."""


def dying_check(options: Options) -> CheckInputs:
    """The dying roll: End against Difficulty 4 (option), wound penalties apply."""
    return CheckInputs(difficulty=options.dying_difficulty, characteristic="End")


def _built(character: Sheet, damage: int, options: Options) -> Built:
    return build(dying_check(options), replace(character, damage=damage), options)


def p_survive_round(character: Sheet, damage: int, options: Options) -> Fraction:
    """P(one dying roll succeeds) at that damage total."""
    return Fraction(_built(character, damage, options).procedure.odds().at_least(0))


@dataclass(frozen=True)
class DyingRolls:
    """Dying rolls made: how many were rolled, how many were certain (not rolled),
    whether the character survived them all and, on a death, the round of the span it
    came in (0-based) and the damage then."""

    rolled: int
    certain: int
    survived: bool
    death_round: int | None
    death_damage: int | None
    faces: tuple[DieRoll, ...]
    efforts: tuple[int, ...]

    def data(self) -> dict[str, object]:
        """JSON data (the death round counted from 1)."""
        return {
            "rolled": self.rolled,
            "certain": self.certain,
            "survived": self.survived,
            "death_round": None if self.death_round is None else self.death_round + 1,
            "effects": list(self.efforts),
        }


Take = Callable[[Procedure[int, int]], tuple[int, ...]]


class DyingProgram(Dice[bool]):
    """The dying rolls due over some rounds as a dice program; the result is whether the
    character survives them all. A roll whose success is certain (or impossible) is not
    rolled but counted as made: the table would not pick up dice."""

    __slots__ = ("character", "options", "segments")

    def __init__(
        self, character: Sheet, segments: Callable[[], Iterator[Segment]], options: Options
    ) -> None:
        self.character, self.segments, self.options = character, segments, options

    def _steps(self) -> Iterator[tuple[Segment, Built, Fraction]]:
        cache: dict[int, tuple[Built, Fraction]] = {}
        for seg in self.segments():
            if seg.damage not in cache:
                built = _built(self.character, seg.damage, self.options)
                cache[seg.damage] = built, Fraction(built.procedure.odds().at_least(0))
            built, p = cache[seg.damage]
            yield seg, built, p
            if p == 0:
                return

    def walk(self, take: Take) -> DyingRolls:
        """Make each due roll with ``take`` (faces for a procedure) until one fails."""
        rolled = certain = 0
        faces: list[DieRoll] = []
        effects: list[int] = []
        for seg, built, p in self._steps():
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
                        (*faces,),
                        (*effects,),
                    )
                f = take(built.procedure)
                effect = built.procedure.apply(f)
                rolled += 1
                faces += built.dice(f)
                effects.append(effect)
                if effect < 0:
                    return DyingRolls(
                        rolled, certain, False, seg.start + i, seg.damage, (*faces,), (*effects,)
                    )
        return DyingRolls(rolled, certain, True, None, None, (*faces,), (*effects,))

    def replay(self, entries: Iterator[tuple[int, ...]]) -> DyingRolls:
        """The rolls this program made, read back from their recorded faces."""
        return self.walk(lambda _proc: next(entries))

    def sample(self, roller: Roller, trace: list[tuple[int, ...]]) -> bool:
        def take(proc: Procedure[int, int]) -> tuple[int, ...]:
            faces, _ = proc.roll(roller)
            trace.append(faces)
            return faces

        return self.walk(take).survived

    def probability(self) -> Fraction:
        """Exact P(surviving every due roll): the product of each round's chance; a
        certain death ends it at 0; at most one day of uncertain rounds."""
        total = Fraction(1)
        count = 0
        for seg, _built, p in self._steps():
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

    def odds(self) -> Distribution[bool]:
        return alive_or_dead(self.probability()).map(lambda s: s == "Alive")

    def brute(self) -> Distribution[bool]:
        chain: list[Procedure[int, int]] = []
        for seg, built, p in self._steps():
            if p == 0:
                break
            if p < 1:
                if len(chain) + seg.rounds > MAX_BRUTE_ROLLS:
                    raise OddsTooComplex(f"more than {MAX_BRUTE_ROLLS} dying rolls to enumerate")
                chain += [built.procedure] * seg.rounds
        dead = any(p == 0 for _s, _b, p in self._steps())
        program: Dice[bool] = Dice.pure(not dead)
        for proc in reversed(chain):
            program = Dice.of(proc).bind(_then(program))
        return program.brute()

    def first_dice(self) -> tuple[tuple[int, int], ...]:
        for _seg, built, p in self._steps():
            if 0 < p < 1:
                return built.procedure.groups
        return ()


def _then(rest: Dice[bool]) -> Callable[[int], Dice[bool]]:
    """After one dying roll: the rest of the rolls if it succeeded, else death."""
    return lambda effect: rest if effect >= 0 else Dice.pure(False)


def alive_or_dead(p_alive: Fraction) -> Distribution[str]:
    """``{"Alive": p, "Dead": 1 - p}`` with integer weights."""
    if p_alive == 1:
        return Distribution.constant("Alive")
    if p_alive == 0:
        return Distribution.constant("Dead")
    return Distribution(
        {"Alive": p_alive.numerator, "Dead": p_alive.denominator - p_alive.numerator}
    )


def survival(rules: Any, action: Any, state: Any, options: Any) -> dict[str, Any]:
    """The chance a Dying character (``action.who``'s first) lives through the rounds."""
    fates = rules.odds(action, state, options)
    dead = fates.probability_where(lambda f: dict(f)[action.who[0]] == "Dead")
    return {"rounds": action.rounds, "Alive": 1 - dead, "Dead": dead}


def survival_data(odds: Mapping[str, Any]) -> dict[str, Any]:
    """``{"rounds", "Alive", "Dead"}``, the chances as fractions."""
    from referee.dice.odds import fraction_text

    return {"rounds": odds["rounds"]} | {k: fraction_text(odds[k]) for k in ("Alive", "Dead")}
