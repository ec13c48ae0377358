"""A step-by-step character builder offering only legal choices (Mongrel, Character Creation).

:class:`Builder` is immutable: :meth:`Builder.options` lists the legal
choices of the current step, :meth:`Builder.choose` returns the builder one
step further (an illegal choice raises :class:`IllegalAction`), and
:meth:`Builder.sheet` produces a sheet that validates. Steps, in order:
identity, primary, form, sex, age, size_spirit, physique_beauty, speed_social,
lower_size ... lower_social (how much to lower each attribute voluntarily, 0 =
keep it; the creation rules apply to the values as chosen), step2, step3,
step4, powers, house.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from typing import Any

from referee.errors import IllegalAction

from .sheet import Attributes, CreationSteps, Identity, Sheet
from .tables import (
    AGES,
    ATTRIBUTES,
    HOUSES,
    IDENTITIES,
    IDENTITY_POINTS,
    PAIR_SUM,
    POWER,
    POWERS,
    SEXES,
    TRACK,
    TRACK_HIGH,
    TRACK_LOW,
)
from .validation import build, candidates, form_choices, sex_guideline_kept

STEPS: tuple[str, ...] = (
    "identity",
    "primary",
    "form",
    "sex",
    "age",
    "size_spirit",
    "physique_beauty",
    "speed_social",
    *(f"lower_{a}" for a in ATTRIBUTES),
    "step2",
    "step3",
    "step4",
    "powers",
    "house",
)


@dataclass(frozen=True)
class Builder:
    """The choices made so far, in step order."""

    chosen: tuple[Any, ...] = ()

    @property
    def step(self) -> str | None:
        """The current step's name (``None`` when every step is done)."""
        return STEPS[len(self.chosen)] if len(self.chosen) < len(STEPS) else None

    def value(self, step: str) -> Any:
        """The choice made at ``step``."""
        return self.chosen[STEPS.index(step)]

    def _identity(self) -> Identity:
        man, beast, demon = self.value("identity")
        return Identity(man, beast, demon, self.value("primary"))

    def options(self) -> tuple[Any, ...]:
        """Every legal choice for the current step."""
        step = self.step
        if step is None:
            return ()
        if step.startswith("lower_"):
            return tuple(self._lower(step.removeprefix("lower_")))
        return tuple(getattr(self, f"_opt_{step}")())

    def choose(self, choice: Any) -> Builder:
        """The builder after ``choice``; :class:`IllegalAction` unless it is offered."""
        if isinstance(choice, list):
            choice = tuple(tuple(c) if isinstance(c, list) else c for c in choice)
        legal = self.options()
        if choice not in legal:
            raise IllegalAction(f"{choice!r} is not a legal choice for {self.step}")
        return Builder((*self.chosen, choice))

    # -- options per step -------------------------------------------------
    def _opt_identity(self) -> list[tuple[int, int, int]]:
        out = []
        for man in range(IDENTITY_POINTS + 1):
            for beast in range(IDENTITY_POINTS + 1 - man):
                t = (man, beast, IDENTITY_POINTS - man - beast)
                if t.count(0) <= 1:
                    out.append(t)
        return out

    def _opt_primary(self) -> list[str]:
        scores = dict(zip(IDENTITIES, self.value("identity"), strict=True))
        top = max(scores.values())
        return [n for n, v in scores.items() if v == top]

    def _opt_form(self) -> list[str]:
        return list(form_choices(self._identity()))

    def _opt_sex(self) -> list[str]:
        return list(SEXES)

    def _opt_age(self) -> list[str]:
        return list(AGES)

    def _opt_size_spirit(self) -> list[tuple[int, int]]:
        """(Size, Spirit) summing to 8, Size on the Size/Physique table (1 to 7)."""
        primary = self.value("primary")
        pairs = [(s, PAIR_SUM - s) for s in range(TRACK_LOW, TRACK_HIGH + 1)]
        if primary == "man":
            return [(4, 4)]
        if primary == "beast":
            return [p for p in pairs if p[0] > p[1]]
        return [p for p in pairs if p[1] > p[0]]

    def _opt_physique_beauty(self) -> list[tuple[int, int]]:
        """(Physique, Beauty) summing to 8, Physique on the Size/Physique table (1 to 7)."""
        return [(p, PAIR_SUM - p) for p in range(TRACK_LOW, TRACK_HIGH + 1)]

    def _opt_speed_social(self) -> list[tuple[int, int]]:
        """(Speed, Social); with the sex guideline ignored and old, Speed already lowered."""
        physique, beauty = self.value("physique_beauty")
        ignored = not sex_guideline_kept(physique, beauty, self.value("sex"))
        age = self.value("age")
        if ignored and age == "old":
            return [(speed, 4) for speed in range(4)]
        pairs = [(s, PAIR_SUM - s) for s in range(PAIR_SUM + 1)]
        if ignored:
            pairs = [p for p in pairs if p[1] <= 4]
        if age == "young":
            return [p for p in pairs if p[0] > p[1]]
        if age == "old":
            return [p for p in pairs if p[1] > p[0]]
        return pairs

    def _chosen_attributes(self) -> dict[str, int]:
        """The attributes as chosen (Speed already lowered for old with the guideline ignored)."""
        size, spirit = self.value("size_spirit")
        physique, beauty = self.value("physique_beauty")
        speed, social = self.value("speed_social")
        return {
            "size": size,
            "spirit": spirit,
            "physique": physique,
            "beauty": beauty,
            "speed": speed,
            "social": social,
        }

    def _lower(self, name: str) -> list[int]:
        """Voluntary lowering (Mongrel, Attributes): by 0 up to the whole value; Size and
        Physique only down to 1, the Size/Physique table's first row and column."""
        floor = TRACK_LOW if name in TRACK else 0
        return list(range(self._chosen_attributes()[name] - floor + 1))

    def _taken(self) -> set[str]:
        taken: set[str] = set()
        for s in ("step2", "step3", "step4"):
            if STEPS.index(s) < len(self.chosen):
                taken |= set(self.value(s))
        return taken

    def _pairs(self) -> list[tuple[str, str]]:
        taken = self._taken()
        cands = [e for e in candidates(self.value("primary")) if e not in taken]
        return list(combinations(cands, 2))

    _opt_step2 = _pairs
    _opt_step3 = _pairs
    _opt_step4 = _pairs

    def _levels(self) -> dict[str, int]:
        return build(
            self.value("primary"), self.value("step2"), self.value("step3"), self.value("step4")
        )

    def _opt_powers(self) -> list[tuple[tuple[str, int], ...]]:
        primary = self.value("primary")
        points = self._levels()[POWER[primary]]
        out = []
        for combo in combinations_with_replacement(POWERS[primary], points):
            alloc = tuple(sorted((p, combo.count(p)) for p in set(combo)))
            if alloc not in out:
                out.append(alloc)
        return out

    def _opt_house(self) -> list[str]:
        return list(HOUSES)

    # -- result -------------------------------------------------------------
    def sheet(self, name: str, vow: str = "") -> Sheet:
        """The finished sheet (every step must be chosen)."""
        if self.step is not None:
            raise IllegalAction(f"character creation is not finished: next step is {self.step}")
        size, spirit = self.value("size_spirit")
        physique, beauty = self.value("physique_beauty")
        speed, social = self.value("speed_social")
        lowered: dict[str, int] = {a: self.value(f"lower_{a}") for a in ATTRIBUTES}
        if speed + social != PAIR_SUM:  # old with the sex guideline ignored
            lowered["speed"] += PAIR_SUM - social - speed
            speed = PAIR_SUM - social
        lowered = {a: v for a, v in lowered.items() if v}
        levels = self._levels()
        return Sheet(
            name=name,
            house=self.value("house"),
            sex=self.value("sex"),
            age=self.value("age"),
            identity=self._identity(),
            attributes=Attributes(size, spirit, physique, beauty, speed, social),
            expertise={e: v for e, v in levels.items() if v},
            powers=dict(self.value("powers")),
            form=self.value("form"),
            vow=vow,
            lowered=lowered,
            steps=CreationSteps(self.value("step2"), self.value("step3"), self.value("step4")),
        )
