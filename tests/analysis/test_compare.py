"""Check variants side by side: numbers against counts made here from the texts, the
four output forms, and bad input named."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from itertools import product

import pytest

from referee.analysis.charts import comparison_chart, conflict_chart, curve_chart
from referee.analysis.compare import compare, curve
from referee.analysis.errors import AnalysisError


def _count(faces: int, dice: int, ok: object) -> Fraction:
    rolls = list(product(range(1, faces + 1), repeat=dice))
    return Fraction(sum(1 for r in rolls if ok(r)), len(rolls))  # type: ignore[operator]


def test_mongrel_pools_under_and_over() -> None:
    comp = compare("mongrel", {"tn": 4, "dice": "1,2,3"})
    # a die meets TN 4 rolled under on 1-4, over on 4-6; any success succeeds
    for n in (1, 2, 3):
        under = _count(6, n, lambda r: any(f <= 4 for f in r))
        over = _count(6, n, lambda r: any(f >= 4 for f in r))
        assert comp.p_success()[f"{n}d6 under"] == under
        assert comp.p_success()[f"{n}d6 over"] == over
    # Effect = succeeding dice (Identity 0): 3d6 under 4 has Effect 3 with (4/6)^3
    assert comp.series["3d6 under"].probability(3) == Fraction(4, 6) ** 3


def test_mnemonic_randomizers_are_symmetric_at_aptitude_six() -> None:
    comp = compare("mnemonic", {"aptitude": 6})
    assert set(comp.series) == {"d12", "3d12", "cards", "3cards", "verbal", "verbal-ab"}
    assert all(p == Fraction(1, 2) for p in comp.p_success().values())
    # d12: total = 6 - d12, each value 1/12; 3d12: the middle of three d12
    assert comp.series["d12"].probability(0) == Fraction(1, 12)
    middle = _count(12, 3, lambda r: sorted(r)[1] == 6)
    assert comp.series["3d12"].probability(0) == middle


def test_arm_pushing_raises_the_chance() -> None:
    comp = compare("arm", {"total": 6, "difficulty": 6})
    plain = _count(6, 2, lambda r: r[0] - r[1] >= 0)
    assert comp.p_success()["push never"] == plain == Fraction(7, 12)
    # pushed: a third d6, +1 on 2-6 (ARM 1.2, Pushing)
    pushed = _count(6, 3, lambda r: r[0] - r[1] + (1 if r[2] >= 2 else 0) >= 0)
    assert comp.p_success()["push always"] == pushed


def test_mneme_advantage_keeps_the_two_best_of_three() -> None:
    comp = compare("mneme", {"difficulty": 8})
    assert comp.p_success()["plain"] == _count(6, 2, lambda r: sum(r) >= 8)
    best = _count(6, 3, lambda r: sum(sorted(r)[1:]) >= 8)
    worst = _count(6, 3, lambda r: sum(sorted(r)[:2]) >= 8)
    assert comp.p_success()["advantage"] == best
    assert comp.p_success()["disadvantage"] == worst


def test_tables_csv_and_json_agree() -> None:
    comp = compare("arm", {"total": 7, "difficulty": 6})
    values = comp.values()
    rows = comp.table("at-least")
    assert rows[0] == [Fraction(1)] * 3  # everything is at least the smallest value
    assert comp.table("at-most")[-1] == [Fraction(1)] * 3
    data = comp.data()
    assert data["variants"]["push never"][str(values[0])]["at_least"]["exact"] == "1/1"
    json.dumps(data)
    parsed = list(csv.DictReader(io.StringIO(comp.csv())))
    assert {r["variant"] for r in parsed} == set(comp.series)
    total = sum(Fraction(r["exact"]) for r in parsed if r["variant"] == "push never")
    assert total == 1


def test_the_tables_as_text_shows_them() -> None:
    """The table data the command line prints: percents per value, P(success) last."""
    comp = compare("arm", {"total": 6, "difficulty": 6})
    shown = comp.table_data("at-least")
    assert shown["columns"] == ["result", "push never", "push always", "push if-needed"]
    assert shown["rows"][0][:2] == [comp.values()[0], "100.00%"]
    assert shown["rows"][-1][:2] == ["success", "58.33%"]  # 7/12
    assert shown["title"].endswith(": P(at least)") and shown["justify"] == "right"
    cur = curve("arm", {"difficulty": 6, "pushes": "never"}).table_data()
    assert cur["columns"] == ["total - difficulty", "push never"]
    assert cur["rows"][7] == [0, "58.3%"]


def test_curves_sweep_the_main_number() -> None:
    cur = curve("arm", {"difficulty": 6, "pushes": "never"})
    assert cur.xs[0] == -7 and cur.series["push never"][cur.xs.index(0)] == Fraction(7, 12)
    assert next(iter(csv.reader(io.StringIO(cur.csv())))) == [
        "variant",
        "total - difficulty",
        "exact",
        "p_success",
    ]


def test_bad_input_is_named() -> None:
    with pytest.raises(AnalysisError, match="unknown game 'chess'"):
        compare("chess")
    with pytest.raises(AnalysisError, match="unknown randomizer 'd20'"):
        compare("mnemonic", {"randomizers": "d20"})
    with pytest.raises(AnalysisError, match="tn must be a whole number"):
        compare("mongrel", {"tn": "high"})
    with pytest.raises(AnalysisError, match="show must be"):
        compare("mongrel").table("sideways")


def test_charts_are_png_and_svg() -> None:
    comp = compare("mongrel", {"tn": 3, "dice": "1,2"})
    png = comparison_chart(comp, "png")
    assert png.startswith(b"\x89PNG")
    svg = comparison_chart(comp, "svg")
    assert b"<svg" in svg and svg == comparison_chart(comp, "svg")  # same bytes each time
    assert curve_chart(curve("mnemonic", {"randomizers": "d12"}), "svg").count(b"<svg") == 1
    result = {
        "method": "exact",
        "model": {"game": "arm", "a": ["x"], "b": ["y"], "unit": "round"},
        "p": {k: {"value": v} for k, v in (("a", 0.6), ("b", 0.4), ("draw", 0), ("endless", 0))},
        "rounds": {"1": {"value": 0.5}, "2": {"value": 0.5}},
    }
    assert conflict_chart(result, "png").startswith(b"\x89PNG")
    with pytest.raises(AnalysisError, match="png or svg"):
        comparison_chart(comp, "gif")
