"""Character creation: the three example characters and the validator's rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.systems.mongrel import RULESET
from referee.systems.mongrel import RULESET as MONGREL
from referee.systems.mongrel.options import Options
from referee.systems.mongrel.sheet import Approval, Attributes, CreationSteps, Identity
from referee.systems.mongrel.validation import (
    R_AGE,
    R_ATTR,
    R_FORM,
    R_IDENTITY,
    R_OLD_IGNORED,
    R_POWER_PRIMARY,
    R_POWERS,
    R_SEX,
    R_STEP1,
    R_STEPS,
    audit,
    build,
    problems,
)

EXAMPLE_NAMES = ("alwia", "vooruk", "giazza")


def _found(name: str) -> set[tuple[str, str]]:
    return {(p.rule, p.field) for p in problems(MONGREL.example(name))}


def test_alwia_lacks_resist_and_her_levels_fit_no_build() -> None:
    assert _found("alwia") == {
        (R_STEP1, "expertise.Resist"),
        (R_STEPS, "expertise"),
        (R_STEPS, "expertise.Balance"),
        (R_STEPS, "expertise.Rend"),
        (R_STEPS, "expertise.Threaten"),
    }
    # identity, attributes, powers and derived scores are all legal
    assert not [
        p for p in problems(MONGREL.example("alwia")) if p.rule != R_STEPS and p.rule != R_STEP1
    ]


def test_vooruk_rend_6_is_unreachable() -> None:
    found = problems(MONGREL.example("vooruk"))
    rend = [p for p in found if p.field == "expertise.Rend"]
    assert rend and rend[0].value == 6 and "at most 4" in rend[0].message
    assert {p.rule for p in found} == {R_STEPS}
    assert {p.field for p in found} == {
        "expertise.Rend",
        "expertise",
        "expertise.Burn",
        "expertise.Sense",
        "expertise.Balance",
    }


def test_giazza_closest_build_is_one_point_off() -> None:
    found = problems(MONGREL.example("giazza"))
    assert [(p.rule, p.field, p.value) for p in found] == [
        (R_STEPS, "expertise", 1),
        (R_STEPS, "expertise.Bureaucrat", 3),
    ]
    assert "Melee + Bureaucrat" in found[0].message


def test_a_legal_build_validates_and_recorded_steps_are_checked() -> None:
    g = MONGREL.example("giazza")
    levels = build("man", ("Melee", "Bureaucrat"), ("Sense", "Athletics"), ("Lie", "Balance"))
    good = replace(g, expertise={k: v for k, v in levels.items() if v})
    assert problems(good) == ()
    steps = CreationSteps(("Melee", "Bureaucrat"), ("Sense", "Athletics"), ("Lie", "Balance"))
    assert problems(replace(good, steps=steps)) == ()
    bad_steps = CreationSteps(("Melee", "Bureaucrat"), ("Melee", "Athletics"), ("Lie", "Balance"))
    assert {p.field for p in problems(replace(good, steps=bad_steps))} == {"steps.step3"}


def test_every_broken_rule_is_reported_at_once() -> None:
    g = MONGREL.example("giazza")
    bad = replace(
        g,
        identity=Identity(man=5, beast=0, demon=0, primary="beast"),
        attributes=Attributes(size=3, spirit=4, physique=4, beauty=4, speed=6, social=2),
        form="wolf",
        expertise={**g.expertise, "Animal Power": 1},
        powers={"Tail": 1, "Implanted weapon": 1},
    )
    rules = {p.rule for p in problems(bad)}
    assert {R_IDENTITY, R_FORM, R_ATTR, R_POWER_PRIMARY, R_POWERS} <= rules


def test_sex_guideline_ignored_caps_social_and_old_case() -> None:
    v = MONGREL.example("vooruk")  # male, old, Social 5
    ignored = replace(v, attributes=replace(v.attributes, physique=3, beauty=5))
    assert (R_SEX, "attributes.social") in {(p.rule, p.field) for p in problems(ignored)}
    old = replace(
        ignored,
        attributes=replace(ignored.attributes, speed=4, social=4),
    )
    assert (R_OLD_IGNORED, "lowered.speed") in {(p.rule, p.field) for p in problems(old)}
    lowered = replace(old, lowered={"speed": 1})
    assert not [p for p in problems(lowered) if p.rule in (R_OLD_IGNORED, R_SEX, R_AGE)]


def test_referee_approval_is_recorded_and_silences_the_problem() -> None:
    g = MONGREL.example("giazza")
    approved = replace(
        g,
        approvals=(
            Approval(R_STEPS, "expertise", "as printed in the text", "GM"),
            Approval(R_STEPS, "expertise.Bureaucrat", "as printed in the text", "GM"),
        ),
    )
    assert RULESET.validate(approved, Options()) == ()
    assert all(reason == "as printed in the text" for _, reason in audit(approved))


def _exhaustive_distance(primary: str, levels: dict[str, int]) -> int:
    """The nearest legal build by trying every step 2 and step 3 choice (step 4: best two)."""
    from itertools import combinations

    from referee.systems.mongrel.tables import EXPERTISE
    from referee.systems.mongrel.validation import candidates, step1, step2_bonus

    cands, base1 = candidates(primary), step1(primary)
    best: int | None = None
    for s2 in combinations(cands, 2):
        bonus = step2_bonus(s2)
        resid = {e: levels.get(e, 0) - base1[e] - bonus[e] for e in EXPERTISE}
        rest = [e for e in cands if e not in s2]
        for s3 in combinations(rest, 2):
            left = {**resid, s3[0]: resid[s3[0]] - 2, s3[1]: resid[s3[1]] - 2}
            gains = sorted(abs(left[e]) - abs(left[e] - 1) for e in rest if e not in s3)
            d = sum(abs(r) for r in left.values()) - gains[-1] - gains[-2]
            best = d if best is None else min(best, d)
    assert best is not None
    return best


@pytest.mark.slow
def test_the_reported_build_is_truly_the_closest() -> None:
    import random

    from referee.systems.mongrel.validation import candidates, closest_build

    cases = [
        (MONGREL.example(n).identity.primary, dict(MONGREL.example(n).expertise))
        for n in EXAMPLE_NAMES
    ]
    assert [_exhaustive_distance(p, lv) for p, lv in cases] == [5, 5, 1]
    rng = random.Random(7)
    for _ in range(6):
        primary = rng.choice(("man", "beast", "demon"))
        cases.append((primary, {e: rng.choice((0, 1, 1, 2, 3, 4)) for e in candidates(primary)}))
    for primary, levels in cases:
        assert closest_build(primary, levels).distance == _exhaustive_distance(primary, levels)


def test_max_score_variant_from_the_design_notes() -> None:
    from referee.errors import RulesError
    from referee.systems.mongrel.validation import R_MAX_SCORE

    six = Options(max_score=6)
    flagged = [
        (p.field, p.value)
        for p in problems(MONGREL.example("vooruk"), six)
        if p.rule == R_MAX_SCORE
    ]
    assert flagged == [("attributes.physique", 7)]  # the notes' worry: Vooruk's Physique 7
    assert not [p for p in problems(MONGREL.example("alwia"), six) if p.rule == R_MAX_SCORE]
    assert R_MAX_SCORE not in {
        p.rule for p in problems(MONGREL.example("vooruk"))
    }  # off by default
    five = {p.field for p in RULESET.validate(MONGREL.example("alwia"), Options(max_score=5))}
    assert {"attributes.spirit", "attributes.speed"} <= five

    with pytest.raises(RulesError, match="max_score"):
        Options(max_score=0)


def test_every_option_is_documented_with_its_default() -> None:
    """docs/mongrel.md's option table names every field of Options with its real default."""
    import json
    from dataclasses import fields
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "mongrel.md").read_text("utf-8")
    rows = {
        line.split("|")[1].strip(" `"): line.split("|")[2].strip(" `")
        for line in docs.splitlines()
        if line.startswith("| `")
    }
    for f in fields(Options):
        assert f.metadata["doc"], f.name
        default = "none" if f.default is None else json.dumps(f.default)
        assert rows.get(f.name) == default, f.name


@pytest.mark.parametrize(
    "bad",
    [
        {"fatigue_rest_hours": 0},
        {"fatigue_rest_hours": 7},
        {"refresh_amount": -3},
        {"max_score": 0},
    ],
)
def test_options_refuse_values_the_rules_cannot_use(bad: dict[str, int]) -> None:
    from referee.errors import RulesError

    with pytest.raises(RulesError, match=next(iter(bad))):
        Options(**bad)  # type: ignore[arg-type]


def test_every_house_has_an_opinion_of_each_other_house() -> None:
    from referee.systems.mongrel.tables import HOUSE_TRAITS, HOUSES, OPINIONS

    assert len(HOUSES) == 7 and set(OPINIONS) == set(HOUSES) == set(HOUSE_TRAITS)
    for house, views in OPINIONS.items():
        assert set(views) == set(HOUSES) - {house}
        assert all(text.strip() for text in views.values())
