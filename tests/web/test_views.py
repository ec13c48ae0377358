"""What the pages compute from the service's answers: odds summaries and typing aids."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from referee.dice.odds import Distribution
from referee.web.views import odds_view, suggestions


@dataclass(frozen=True)
class Result:
    value: int
    success: bool
    label: str


def test_the_chance_is_the_games_and_bars_are_coloured_where_outcomes_say() -> None:
    checks = Distribution({Result(1, True, "hit"): 3, Result(0, False, "miss"): 1})
    view = odds_view(checks, Fraction(3, 4))  # type: ignore[arg-type]
    assert view.success == Fraction(3, 4)
    assert [b.label for b in view.bars] == ["hit", "miss"]
    assert [b.success for b in view.bars] == [True, False]
    plain = odds_view(Distribution({-1: 1, 0: 1, 1: 2}))  # type: ignore[arg-type]
    assert plain.success is None  # no chance given: the page shows the distribution only
    assert plain.mean == Fraction(1, 4)
    assert sum(p for _, _, p in plain.rows) == 1


def test_wide_distributions_are_grouped_with_exact_sums() -> None:
    wide = Distribution({n: 1 for n in range(1, 101)})
    view = odds_view(wide)  # type: ignore[arg-type]
    assert len(view.bars) <= 40 and view.grouped == 3
    assert view.bars[0].label == "1..3" and view.bars[0].probability == Fraction(3, 100)
    assert sum(b.probability for b in view.bars) == 1
    assert len(view.rows) == 100


def test_text_fields_are_offered_the_names_on_the_sheets() -> None:
    boxer = {"talents": {"Agile": 4, "Tough": 5}, "life_roles": {"Boxer": 5}}
    frigate = {"talents": {"Fast": 5}, "weapons": [{"name": "cannon"}, "cutlass"]}
    assert suggestions("talent", boxer, [boxer, frigate]) == ["Agile", "Tough"]
    assert suggestions("life_role", boxer, [boxer, frigate]) == ["Boxer"]
    assert suggestions("defender_talent", boxer, [boxer, frigate]) == ["Agile", "Tough", "Fast"]
    assert suggestions("weapon", frigate, [frigate]) == ["cannon", "cutlass"]
    assert suggestions("reason", boxer, [boxer]) == []
    assert suggestions("talent", None, [boxer]) == []
