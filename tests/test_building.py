"""The cross-game builder round (referee.systems.building): whatever answers of the
form's shape come in, every game answers with a sheet or named problems - never an
exception - and a legal answer's sheet validates."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.systems import building
from referee.systems.base import get, names

GAMES = tuple(n for n in names() if get(n).builder() is not None)


def _value(field: building.Field) -> st.SearchStrategy[Any]:
    if field.kind == "text":
        return st.text(max_size=30)
    if field.kind == "number":
        low = -3 if field.low is None else field.low - 2
        high = 20 if field.high is None else field.high + 2
        return st.integers(low, high)
    if field.kind == "choice":
        return st.sampled_from([c.value for c in field.choices] + ["nonsense"])
    if field.kind == "multi":
        return st.lists(st.sampled_from([c.value for c in field.choices]), max_size=4)
    return st.lists(
        st.fixed_dictionaries({}, optional={c.key: _value(c) for c in field.columns}),
        max_size=3,
    )


def test_every_game_has_a_builder() -> None:
    assert set(GAMES) == {"mnemonic", "mongrel", "mneme", "arm"}


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_answers_get_an_answer(game: str, data: st.DataObject) -> None:
    rules = get(game)
    options = rules.options_type()
    spec = rules.builder().spec(options)  # type: ignore[union-attr]
    fields = spec.fields()
    keys = data.draw(st.lists(st.sampled_from(sorted(fields)), unique=True), label="keys")
    answers = {k: data.draw(_value(fields[k]), label=k) for k in keys}
    checked = building.check(rules, answers, options)
    for p in checked.problems:
        assert (
            p.field == ""
            or p.field in fields
            or p.field.split(".")[0] in {k.split(".")[0] for k in fields}
        ), p
    if checked.legal:
        assert rules.validate(rules.load_sheet(checked.sheet), options) == ()


@pytest.mark.parametrize("game", GAMES)
def test_every_example_round_trips_through_the_form(game: str) -> None:
    rules = get(game)
    options = rules.options_type()
    builder = rules.builder()
    assert builder is not None
    for cid, sheet in rules.examples().items():
        answers = builder.answers_of(rules.dump_sheet(sheet), options)
        assert set(answers) <= set(builder.spec(options).fields()), cid
        assert building.check(rules, answers, options).legal, cid


def test_a_budget_says_what_is_over_and_what_is_left() -> None:
    over = building.Budget("b", "Points", 6, 7, ("x",), "rule")
    assert over.left == -1 and over.problem() == building.Problem(
        "rule", "x", "Points: 1 over (7 spent of 6)", 7
    )
    short = building.Budget("b", "Pair", 8, 7, ("y",), "rule", exact=True)
    assert short.problem() is not None and "1 still to spend" in short.problem().message  # type: ignore[union-attr]
    assert building.Budget("b", "Points", 6, 5, ("x",)).problem() is None
    assert building.Budget("hp", "HP", 24, 24, (), tally=True).problem() is None
