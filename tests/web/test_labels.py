"""Outcome labels are written for people (issue 19, defect 2: Mongrel's odds rows read
``CheckResult(success=True, successes=6, ...`` and the chart bars "CheckR"). Every game's
odds, through the table's own odds and the page's view of them, name their outcomes in
words: no row or bar is a program's repr."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from referee.table.service import TableService
from referee.table.store import Store
from referee.web.views import odds_view

REPR = re.compile(r"\w+\(\w+=|object at 0x|<\w+")

CASES: dict[str, tuple[tuple[str, ...], list[tuple[str, dict[str, Any]]]]] = {
    "mongrel": (
        ("vooruk", "giazza"),
        [
            ("check", {"dice": 4, "tn": 3}),
            ("task", {"actor": "vooruk", "expertise": "Rend"}),
            ("occult-roll", {"resist_dice": 2, "resist_tn": 3}),
            ("attack", {"actor": "vooruk", "target": "giazza", "expertise": "Rend"}),
        ],
    ),
    "mnemonic": (
        ("boxer", "frigate"),
        [
            ("check", {"aptitude": 7}),
            ("attack", {"actor": "mickey-ruane", "target": "swiftsure"}),
            ("injury", {"worst": "immobilized", "victim": "swiftsure"}),
        ],
    ),
    "mneme": (
        ("ada", "raider"),
        [
            ("check", {}),
            ("attack", {"actor": "ada-vance", "target": "raider", "damage": "2d6"}),
            ("survival", {"actor": "ada-vance"}),
        ],
    ),
    "arm": (
        ("alex", "brad"),
        [
            ("task", {"actor": "brad", "stat": "Fitness"}),
            ("contest", {"actor": "brad", "opponent": "alex"}),
            ("damage", {"target": "alex", "result": 3, "damage": 6}),
        ],
    ),
}


@pytest.mark.parametrize("game", sorted(CASES))
def test_every_odds_row_and_bar_is_named_in_words(tmp_path: Path, game: str) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'l.db'}"))
    tid = service.create(game, "Labels", "Ron").table.id
    seats, actions = CASES[game]
    for example in seats:
        service.add_character(tid, example, force=True)
    if game == "mongrel":
        service.act(tid, "Ron", "start-conflict", {})
    for action, fields in actions:
        _chosen, dist, chance, _wins = service.odds(tid, "Ron", action, fields)
        view = odds_view(dist, chance)
        labels = [label for _, label, _ in view.rows] + [b.label for b in view.bars]
        assert labels, (game, action)
        bad = [text for text in labels if REPR.search(text)]
        assert bad == [], (game, action, bad)


def test_the_words_say_the_result() -> None:
    from referee.systems.arm.play import Levels
    from referee.systems.mongrel.checks import CheckResult
    from referee.systems.mongrel.sorcery import OccultResult

    assert CheckResult(True, 6, 10).label == "success, Effect 10"
    assert CheckResult(False, 0, 0).label == "failure"
    assert CheckResult(True, 3, 1, "half sixes succeed").label == (
        "success, Effect 1 (half sixes succeed)"
    )
    hit = CheckResult(True, 2, 5)
    assert OccultResult(CheckResult(False, 0, 0), None, 0).label == "the working fails"
    assert OccultResult(hit, CheckResult(True, 2, 5), 0).label == "no harm, resisted"
    assert OccultResult(hit, None, 5).label == "Effect 5 on the target"
    assert Levels(0, 0, False).label == "no harm"
    assert Levels(2, 2, False).label == "wound Moderate, shock Giddy"  # the text's axe blow
    assert Levels(5, 0, True).label == "wound Dead, Destroyed"


def test_an_action_that_rolls_nothing_draws_no_chart(tmp_path: Path) -> None:
    """Mongrel's Recover rolls no die (+1 AP from 0, else back to the maximum): its preview
    says what happens, in words, with no chart; a check keeps its chart."""
    from referee.web.render import Renderer

    service = TableService(Store(f"sqlite:///{tmp_path / 'n.db'}"))
    tid = service.create("mongrel", "Nothing", "Ron").table.id
    for example in ("vooruk", "giazza"):
        service.add_character(tid, example, force=True)
    service.act(tid, "Ron", "start-conflict", {})
    first = service.load(tid).state.order[0]
    _chosen, dist, chance, _wins = service.odds(tid, "Ron", "recover", {"actor": first})
    html = Renderer().page("_odds.html", odds=odds_view(dist, chance), problems=[], error=None)
    assert "<svg" not in html and "No dice decide this" in html
    _chosen, dist, chance, _wins = service.odds(tid, "Ron", "check", {"dice": 2, "tn": 3})
    html = Renderer().page("_odds.html", odds=odds_view(dist, chance), problems=[], error=None)
    assert "<svg" in html and "No dice decide this" not in html


def test_a_bar_says_its_whole_label_where_it_has_room() -> None:
    """The chart's bars are as wide as their labels need while they share the panel: a
    Mongrel check's "failure", "success, Effect 1" read whole (they were cut to six
    letters, "succes"); where many bars leave no room, a label stands upright under its bar,
    whole (issue 34: it was cut with an ellipsis, "8..…" for 3d6!), and its tooltip says it
    whole too."""
    from referee.dice.odds import Distribution
    from referee.web.render import Renderer

    def labels(outcomes: dict[str, int]) -> tuple[list[str], str]:
        html = Renderer().page(
            "_odds.html", odds=odds_view(Distribution(outcomes)), problems=[], error=None
        )
        return re.findall(r'<text class="lb"[^>]*>([^<]*)</text>', html), html

    shown, _ = labels({"failure": 1, "success, Effect 1": 2, "success, Effect 2": 1})
    assert shown == ["failure", "success, Effect 1", "success, Effect 2"]
    many = {f"a long outcome {i}": 1 for i in range(12)}
    shown, html = labels(many)
    assert sorted(shown) == sorted(many), shown
    assert html.count('transform="rotate(-90') == 12  # upright, not cut
    assert "…" not in html
    assert "<title>a long outcome 11: 1/12" in html


def test_a_bar_is_a_success_or_a_failure_where_the_rules_say(tmp_path: Path) -> None:
    """A chart of numbers says which succeed: Mneme CE's check reports its Effect, a
    success from 0 up (ch. 2); ARM's task its result, total + d6 - d6 - difficulty, a
    success from 0 up (a draw succeeds by default). Counted here from the dice, the bars
    coloured so carry exactly the chance the preview states."""
    from collections import Counter
    from fractions import Fraction
    from itertools import product

    from referee.web.render import Renderer

    service = TableService(Store(f"sqlite:///{tmp_path / 'w.db'}"))
    d6 = range(1, 7)
    for game, seats, action, fields, difficulty in (
        ("mneme", ("ada",), "check", {}, 8),
        ("arm", ("brad",), "task", {"actor": "brad", "stat": "Fitness"}, 6),
    ):
        tid = service.create(game, game, "Ron").table.id
        for example in seats:
            service.add_character(tid, example, force=True)
        _chosen, dist, chance, succeeds = service.odds(tid, "Ron", action, fields)
        if game == "mneme":  # 2d6 vs 8: the Effect is the sum less 8
            counts = Counter(a + b - difficulty for a, b in product(d6, d6))
        else:
            fitness = service.load(tid).state.character("brad").sheet.stats["Fitness"]
            counts = Counter(fitness + a - b - difficulty for a, b in product(d6, d6))
        wins = sum(n for value, n in counts.items() if value >= 0)
        assert chance == Fraction(wins, 36)
        assert {v: succeeds(v) for v in dist.probabilities()} == {v: v >= 0 for v in counts}
        view = odds_view(dist, chance, succeeds)
        won = sum((b.probability for b in view.bars if b.success is True), Fraction(0))
        lost = sum((b.probability for b in view.bars if b.success is False), Fraction(0))
        assert (won, lost) == (chance, 1 - chance)
        html = Renderer().page("_odds.html", odds=view, problems=[], error=None)
        assert html.count('class="bar win"') + html.count('class="bar lose"') == len(view.bars)
