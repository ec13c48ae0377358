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

from referee.errors import IllegalAction, Problem
from referee.systems import building
from referee.systems.building import Field, Section, choices, named
from referee.systems.outcome import JSONObject, JSONValue, jsonable

from .sheet import Attributes, CreationSteps, Identity, Sheet
from .tables import (
    AGES,
    ATTRIBUTES,
    BODY_FORMS,
    EXPERTISE,
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
from .validation import (
    R_ATTR,
    R_HOUSE,
    R_IDENTITY,
    R_LOWER,
    R_POWERS,
    R_STEPS,
    age_rule,
    build,
    candidates,
    closest_build,
    form_choices,
    guideline_rule,
    primary_rule,
    sex_guideline_kept,
)

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
        """(Size, Spirit) summing to 8, Size on the Size/Physique table (1 to 7), as the
        primary Identity has them."""
        primary = self.value("primary")
        pairs = [(s, PAIR_SUM - s) for s in range(TRACK_LOW, TRACK_HIGH + 1)]
        return [p for p in pairs if primary_rule(primary, *p) is None]

    def _opt_physique_beauty(self) -> list[tuple[int, int]]:
        """(Physique, Beauty) summing to 8, Physique on the Size/Physique table (1 to 7)."""
        return [(p, PAIR_SUM - p) for p in range(TRACK_LOW, TRACK_HIGH + 1)]

    def _opt_speed_social(self) -> list[tuple[int, int]]:
        """(Speed, Social) as the age and the sex guideline have them; with the guideline
        ignored and old, Social taken at 4 and Speed already lowered."""
        physique, beauty = self.value("physique_beauty")
        ignored = not sex_guideline_kept(physique, beauty, self.value("sex"))
        age = self.value("age")
        if ignored and age == "old":
            return [(speed, 4) for speed in range(4)]
        pairs = [(s, PAIR_SUM - s) for s in range(PAIR_SUM + 1)]
        return [
            (speed, social)
            for speed, social in pairs
            if age_rule(age, speed, social) is None and guideline_rule(ignored, social) is None
        ]

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


# ---------------------------------------------------------------------------
# the page's form (referee.systems.building): the same steps as one form

_PAIR_FIELDS = (("size", "spirit"), ("physique", "beauty"), ("speed", "social"))
_STEP_GAIN = {"step2": "+3 to each (and +1 to the rest of their Areas)", "step3": "+2 to each"}


def _power_key(identity: str, power: str) -> str:
    return f"power.{identity}.{power}"


def _number_field(key: str, label: str, low: int, high: int, **kw: Any) -> Field:
    return Field(key, label, "number", low=low, high=high, **kw)


class MongrelForm(building.GameBuilder):
    """Mongrel's Character Creation as one form. Its legality is :class:`Builder`'s:
    the answers are walked through the builder's steps in order, so a form that
    passes is a path of offered choices, and every sheet it makes validates."""

    def spec(self, options: Any) -> building.BuilderSpec:
        """Identity (6 points, at most one 0, the primary the highest), body and
        background, the three attribute pairs (each summing to 8), voluntary lowering,
        Expertise steps 2-4 (two each) and the Power points."""
        n = _number_field
        identity = Section(
            "identity",
            "Identity",
            (
                named("name", "Name", sheet="name", rule=R_IDENTITY),
                n("man", "Man", 0, IDENTITY_POINTS, sheet="identity.man", rule=R_IDENTITY),
                n("beast", "Beast", 0, IDENTITY_POINTS, sheet="identity.beast", rule=R_IDENTITY),
                n("demon", "Demon", 0, IDENTITY_POINTS, sheet="identity.demon", rule=R_IDENTITY),
                Field(
                    "primary",
                    "Primary Identity",
                    "choice",
                    choices=choices(IDENTITIES),
                    help="the highest of the three (a tie: either)",
                    sheet="identity.primary",
                    rule=R_IDENTITY,
                ),
            ),
            help=f"Share {IDENTITY_POINTS} points among Man, Beast and Demon; at most one "
            "may be 0.",
            rule=R_IDENTITY,
        )
        forms = tuple(dict.fromkeys(f for fs in BODY_FORMS.values() for f in fs))
        body = Section(
            "body",
            "Body and background",
            (
                Field("form", "Body form", "choice", choices=choices(forms), sheet="form"),
                Field("sex", "Sex", "choice", choices=choices(SEXES), sheet="sex"),
                Field("age", "Age", "choice", choices=choices(AGES), sheet="age"),
                Field(
                    "house", "House", "choice", choices=choices(HOUSES), sheet="house", rule=R_HOUSE
                ),
                Field("vow", "Vow", "text", high=200, required=False, sheet="vow"),
            ),
            rule=R_IDENTITY,
        )
        attrs = Section(
            "attributes",
            "Attributes",
            tuple(
                n(a, a.capitalize(), 0, PAIR_SUM, sheet=f"attributes.{a}", rule=R_ATTR)
                for pair in _PAIR_FIELDS
                for a in pair
            ),
            help="Size + Spirit, Physique + Beauty and Speed + Social each sum to "
            f"{PAIR_SUM}; the primary Identity, sex and age decide which of a pair is higher.",
            rule=R_ATTR,
        )
        lower = Section(
            "lowering",
            "Lower an attribute (optional)",
            tuple(
                n(
                    f"lower_{a}",
                    f"Lower {a.capitalize()} by",
                    0,
                    PAIR_SUM,
                    default=0,
                    required=False,
                    sheet=f"lowered.{a}",
                    rule=R_LOWER,
                )
                for a in ATTRIBUTES
            ),
            help="After choosing, any attribute may be lowered; Size and Physique not below 1.",
            rule=R_LOWER,
            folded=True,
        )
        every = choices(tuple(EXPERTISE))
        steps = Section(
            "expertise",
            "Expertise",
            tuple(
                Field(
                    s,
                    f"Step {s[-1]}: two Expertises, {_STEP_GAIN.get(s, '+1 to each')}",
                    "multi",
                    choices=every,
                    low=2,
                    high=2,
                    sheet="steps." + s,
                    rule=R_STEPS,
                )
                for s in ("step2", "step3", "step4")
            ),
            help="Step 1 gives 1 in every Expertise of the primary Identity. Steps 2 to 4 "
            "each raise two Expertises not raised in an earlier step; a Power Expertise "
            "only for the primary Identity.",
            rule=R_STEPS,
        )
        powers = Section(
            "powers",
            "Powers",
            tuple(
                n(
                    _power_key(ident, p),
                    p,
                    0,
                    12,
                    default=0,
                    required=False,
                    sheet=f"powers.{p}",
                    rule=R_POWERS,
                    shown_when=("primary", ident),
                )
                for ident in IDENTITIES
                for p in POWERS[ident]
            ),
            help="The Power Expertise's level in points, spent on the primary Identity's powers.",
            rule=R_POWERS,
        )
        return building.BuilderSpec(
            "mongrel",
            "Mongrel",
            (identity, body, attrs, lower, steps, powers),
            rule="Mongrel: Character Creation",
        )

    def assemble(self, answers: building.Answers, options: Any) -> building.Draft:
        """Walk :class:`Builder` through the answers; the first answer it does not offer
        is the problem (later steps wait for it)."""

        def num(key: str) -> int:
            return building.number(answers, key, -1)

        trio = (num("man"), num("beast"), num("demon"))
        budgets = [
            building.Budget(
                "identity",
                "Identity points",
                IDENTITY_POINTS,
                sum(max(v, 0) for v in trio),
                ("man", "beast", "demon"),
                R_IDENTITY,
                exact=True,
            )
        ]
        old_ignored = False
        offered: dict[str, tuple[JSONValue, ...]] = {}
        problems: list[Problem] = []
        b = Builder()

        def take(step: str, value: Any, where: str, what: str) -> bool:
            nonlocal b
            legal = b.options()
            if step in ("primary", "form", "sex", "age", "house"):
                offered[step] = tuple(legal)
            if value in legal:
                b = b.choose(value)
                return True
            missing = value is None or any(
                isinstance(v, int) and v < 0
                for v in (value if isinstance(value, tuple) else (value,))
            )
            if not missing:
                problems.append(Problem(rule_of(step), where, what, jsonable(value)))
            return False

        def rule_of(step: str) -> str:
            if step.startswith("lower_"):
                return R_LOWER
            if step.startswith("step"):
                return R_STEPS
            return {"powers": R_POWERS, "house": R_HOUSE}.get(
                step, R_ATTR if "_" in step else R_IDENTITY
            )

        pairs = {
            step: (num(a), num(c))
            for step, (a, c) in zip(
                ("size_spirit", "physique_beauty", "speed_social"), _PAIR_FIELDS, strict=True
            )
        }
        walked = take(
            "identity",
            # a wrong total is the budget's to say; a right one the builder judges
            trio if sum(trio) == IDENTITY_POINTS else None,
            "man",
            "not a legal Identity: at most one may be 0",
        )
        walked = walked and take(
            "primary", answers.get("primary"), "primary", "the primary Identity is the highest"
        )
        for step in ("form", "sex", "age"):
            walked = walked and take(step, answers.get(step), step, "not offered for this Identity")
        for step, (first, _) in zip(pairs, _PAIR_FIELDS, strict=True):
            if walked and step == "speed_social":
                phys, beauty = pairs["physique_beauty"]
                old_ignored = b.value("age") == "old" and not sex_guideline_kept(
                    phys, beauty, b.value("sex")
                )
            walked = walked and take(step, pairs[step], first, self._pair_rule(b, step))
        for a in ATTRIBUTES:
            walked = walked and take(
                f"lower_{a}",
                building.number(answers, f"lower_{a}", 0),
                f"lower_{a}",
                "lowered too far (Size and Physique stay at 1 or more)",
            )
        for step in ("step2", "step3", "step4"):
            if walked:
                legal = b.options()
                offered[step] = tuple(dict.fromkeys(e for pair in legal for e in pair))
            chosen = building.picks(answers, step)
            value = self._pair(b, chosen) if walked and len(chosen) == 2 else None
            walked = walked and take(
                step, value, step, "not two Expertises offered at this step (see the choices)"
            )
        primary = answers.get("primary")
        if isinstance(primary, str) and primary in IDENTITIES:
            alloc = tuple(
                sorted(
                    (p, building.number(answers, _power_key(primary, p)))
                    for p in POWERS[primary]
                    if building.number(answers, _power_key(primary, p)) > 0
                )
            )
            if walked:
                points = b._levels()[POWER[primary]]
                budgets.append(
                    building.Budget(
                        "powers",
                        f"Power points ({POWER[primary]} {points})",
                        points,
                        sum(v for _, v in alloc),
                        tuple(_power_key(primary, p) for p in POWERS[primary]),
                        R_POWERS,
                        exact=True,
                    )
                )
                # a wrong total is the budget's problem; a right one the builder judges
                walked = sum(v for _, v in alloc) == points and take(
                    "powers",
                    alloc,
                    _power_key(primary, POWERS[primary][0]),
                    "not a legal allocation of the Power points",
                )
        walked = walked and take("house", answers.get("house"), "house", "not one of the Houses")
        for step, (first, second) in zip(pairs, _PAIR_FIELDS, strict=True):
            high, low = pairs[step]
            exact = not (step == "speed_social" and old_ignored)
            budgets.append(
                building.Budget(
                    step,
                    f"{first.capitalize()} + {second.capitalize()}",
                    PAIR_SUM,
                    max(high, 0) + max(low, 0),
                    (first, second),
                    R_ATTR,
                    exact=exact,
                )
            )
        sheet: JSONObject | None = None
        if walked and b.step is None:
            made = b.sheet(building.text(answers, "name"), building.text(answers, "vow"))
            from .ruleset import RULESET

            sheet = RULESET.dump_sheet(made)
        return building.Draft(sheet, tuple(budgets), offered, tuple(problems))

    @staticmethod
    def _pair_rule(b: Builder, step: str) -> str:
        legal = b.options()
        shown = ", ".join(f"{x}/{y}" for x, y in legal[:8])
        return f"not offered here; legal pairs: {shown}" if legal else "no legal pair"

    @staticmethod
    def _pair(b: Builder, chosen: list[str]) -> tuple[str, str] | None:
        order = candidates(b.value("primary"))
        if any(c not in order for c in chosen):
            return None
        x, y = sorted(chosen, key=order.index)
        return (x, y)

    def answers_of(self, sheet: JSONObject, options: Any) -> dict[str, JSONValue]:
        """A Mongrel sheet as answers: its recorded steps, or (the text's examples record
        none) the closest legal build of its Expertise levels."""
        from .ruleset import RULESET

        s: Sheet = RULESET.load_sheet(sheet)
        ident = s.identity
        out: dict[str, JSONValue] = {
            "name": s.name,
            "man": ident.man,
            "beast": ident.beast,
            "demon": ident.demon,
            "primary": ident.primary,
            "form": s.form,
            "sex": s.sex,
            "age": s.age,
            "house": s.house,
            "vow": s.vow,
        }
        attrs = s.attributes
        for a in ATTRIBUTES:
            out[a] = getattr(attrs, a)
            out[f"lower_{a}"] = s.lowered.get(a, 0)
        if s.age == "old" and not sex_guideline_kept(attrs.physique, attrs.beauty, s.sex):
            # the builder lowered Speed for them (old, guideline ignored): Social 4, and
            # the Speed chosen is what is left after that lowering
            out["speed"] = max(PAIR_SUM - attrs.social - s.lowered.get("speed", 0), 0)
            out["lower_speed"] = 0
        steps = s.steps or closest_build(ident.primary, dict(s.expertise))
        for step, pair in steps.by_step():
            out[step] = list(pair)
        for p, v in s.powers.items():
            if p in POWERS[ident.primary]:
                out[_power_key(ident.primary, p)] = v
        return out


BUILDER = MongrelForm()
"""Mongrel's page builder (:mod:`referee.systems.building`)."""
