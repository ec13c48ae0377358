"""Playing at the speed of talk (issue 34, items 3-5) in Chromium: lists typed as rows with
add and remove, fields that change nothing left out, a decision answered with one click
showing each choice's exact odds (checked against a brute force written here), and the
turn tracker marking the player's turn and moved on by the referee with one click.
Screenshots at a desktop's size and a phone's go to docs/img."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from .conftest import Site, Table, make_table
from .test_browser import Person, _form, _panel

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def _tab(person: Person, name: str) -> None:
    tab = person.page.locator(f"#tab-{name}")
    if tab.is_visible():
        tab.click()


def _arm(site: Site) -> Table:
    t = make_table(site, "arm", "Tavern")
    for cid, owner in (("alex", "Ann"), ("brad", None)):
        site.service.add_character(t.id, cid, owner=owner, force=True)
    return t


def brute_defence(fitness: int, difficulty: int) -> Fraction:
    """ARM 1.2's task roll, face by face: the result is Fitness - difficulty + d6 - d6, and
    0 or more succeeds (a draw succeeds by default)."""
    wins = sum(1 for a, b in product(range(1, 7), repeat=2) if fitness - difficulty + a - b >= 0)
    return Fraction(wins, 36)


def test_lists_are_rows_with_add_and_remove(browser: Any, site: Site, table: Table) -> None:
    """Mnemonic's Agile order: contenders as rows (no JSON typed), added, removed, rolled."""
    ron = Person(browser, site, table.tokens["Ron"], viewport=SIZES["desktop"])
    try:
        page = ron.page
        _tab(ron, "actions")
        box = page.locator("section.table-actions")
        form = _form(box, "agile-order", more=False)
        rows = form.locator("[data-list='contenders'] > .list-rows > .list-row")
        assert rows.count() == 0
        add = form.locator("[data-list='contenders'] > .row-add")
        for _ in range(3):
            add.click()
        assert rows.count() == 3
        names = rows.locator("select[data-field$='.name']")
        assert names.evaluate_all("els => els.map(e => e.dataset.field)") == [
            "contenders.0.name",
            "contenders.1.name",
            "contenders.2.name",
        ]
        names.nth(0).select_option(label="Mickey Ruane")
        names.nth(2).select_option(label="Swiftsure")
        rows.nth(1).locator(".row-remove").click()  # the middle one goes, the rest renumber
        assert rows.count() == 2
        assert names.evaluate_all("els => els.map(e => [e.dataset.field, e.value])") == [
            ["contenders.0.name", "mickey-ruane"],
            ["contenders.1.name", "swiftsure"],
        ]
        # the frigate has no Agile: its row's Talent becomes one the frigate has
        talents = rows.locator("input[data-field$='.talent']")
        assert talents.evaluate_all("els => els.map(e => e.value)") == ["Agile", "Fast"]
        form.locator(".preview .chance, .preview p").first.wait_for()
        assert "JSON" not in form.inner_text()
        page.screenshot(path=str(IMG / "forms-rows-desktop.png"), full_page=False)
        form.locator("button[type=submit]").click()
        form.locator(".status", has_text="event #").wait_for()
        assert "order of action" in page.locator("#log li.entry").last.inner_text().lower()
        assert ron.errors == []
    finally:
        ron.close()


def test_fields_that_change_nothing_are_left_out(browser: Any, site: Site, table: Table) -> None:
    """Mnemonic's attack: the defender's opposed-roll fields only with opposed rolls on; the
    decision form asks the frigate's player for what matters, from the frigate's sheet."""
    svc = site.service
    svc.act(table.id, "Ann", "attack", {"actor": "mickey-ruane", "target": "swiftsure"})
    ben = Person(browser, site, table.tokens["Ben"], viewport=SIZES["desktop"])
    try:
        decide = ben.page.locator("#pending-top form.decide-form")
        decide.wait_for()
        fields = decide.locator("[data-field]").evaluate_all("els => els.map(e => e.dataset.field)")
        assert fields == ["defense"]  # opposed rolls off: the defender's own roll is not asked
        attack = _form(_panel(ben, "swiftsure"), "attack")
        assert attack.locator("[data-field='defender_talent']").count() == 0
    finally:
        ben.close()
    svc.set_options(table.id, {"opposed_rolls": True}, by="Ron")
    svc.act(table.id, "Ben", "attack", {"actor": "swiftsure", "target": "mickey-ruane"})
    ann = Person(browser, site, table.tokens["Ann"], viewport=SIZES["desktop"])
    try:
        decide = ann.page.locator("#pending-top form.decide-form").last
        decide.wait_for()
        fields = decide.locator("[data-field]").evaluate_all("els => els.map(e => e.dataset.field)")
        assert "defense" not in fields and "defender_talent" in fields
        talent = decide.locator("[data-field='defender_talent']")
        offered = talent.locator("option").evaluate_all("os => os.map(o => o.value)")
        assert offered[:3] == ["Agile", "Dangerous", "Disciplined"] and "Fast" not in offered
        assert talent.input_value() == "Agile"
        ann.page.screenshot(path=str(IMG / "forms-decision-desktop.png"), full_page=False)
    finally:
        ann.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_decision_is_one_click_with_its_odds(browser: Any, site: Site, size: str) -> None:
    t = _arm(site)
    svc = site.service
    svc.act(t.id, "Ron", "next-round", {})
    svc.act(t.id, "Ron", "attack", {"actor": "brad", "target": "alex"}, faces=[3, 5])  # +2
    ann = Person(browser, site, t.tokens["Ann"], viewport=SIZES[size])
    try:
        page = ann.page
        _tab(ann, "actions")
        defend = page.locator("#pending-top button.answer-now[data-action='defend']")
        defend.wait_for()
        shown = Fraction(defend.locator("[data-chance]").get_attribute("data-chance") or "")
        # Alex's Fitness 6 dodges at 4 + the attack's result 2
        assert shown == brute_defence(6, 4 + 2) == Fraction(7, 12)
        assert "58.33%" in defend.inner_text()
        blow = page.locator("#pending-top button.answer-now[data-action='take-blow']")
        assert "no dice: Brad's blow lands on Alex" in blow.inner_text()
        page.screenshot(path=str(IMG / f"decision-odds-{size}.png"), full_page=False)
        # the same buttons under the newest log entry, with the same chance
        in_log = page.locator("#log .entry-answers button.answer-now[data-action='defend']")
        in_log.wait_for(state="attached")
        assert in_log.locator("[data-chance]").get_attribute("data-chance") == "7/12"
        defend.click()  # one click: the defence is rolled
        page.locator("#pending-top .decision[data-actor='alex']").wait_for(state="detached")
        _tab(ann, "log")
        assert "defen" in page.locator("#log li.entry").last.inner_text().lower()
        assert ann.errors == []
    finally:
        ann.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_turn_tracker_marks_your_turn(browser: Any, site: Site, size: str) -> None:
    t = _arm(site)
    ron = Person(browser, site, t.tokens["Ron"], viewport=SIZES[size])
    ann = Person(browser, site, t.tokens["Ann"], viewport=SIZES[size])
    try:
        _tab(ron, "table")
        start = ron.page.locator("#tracker button.turn-advance")
        assert start.inner_text() == "Start round 1"
        start.click()  # one click moves the turn on
        ron.page.locator("#tracker h4", has_text="round 1").wait_for()
        _tab(ann, "actions")
        ann.page.locator("#pending-top .your-turn", has_text="Alex acts now").wait_for()
        _tab(ann, "table")
        mine = ann.page.locator("#tracker li.turn.mine")
        assert "acts now" in mine.inner_text() and "yours" in mine.inner_text()
        assert ann.page.locator("#tracker button.turn-advance").count() == 0
        ann.page.screenshot(path=str(IMG / f"turns-{size}.png"), full_page=False)
        ron.page.locator("#tracker button.turn-advance", has_text="Start round 2").wait_for()
        assert ron.errors == [] and ann.errors == []
    finally:
        ron.close()
        ann.close()


def test_house_rules_are_controls(browser: Any, site: Site, table: Table) -> None:
    """Mnemonic's house rules: switches, numbers, choices and rows (its Talent lists and
    degree ladders), no JSON box; saved unchanged they round-trip, and a switch saves."""
    before = site.service.load(table.id)
    rules = before.ruleset
    ron = Person(browser, site, table.tokens["Ron"], viewport=SIZES["desktop"])
    try:
        page = ron.page
        _tab(ron, "table")
        form = page.locator("form#options")
        form.evaluate("f => f.closest('details').open = true")
        assert form.locator("textarea").count() == 0
        assert form.locator("[data-list='success_degrees'] > .list-rows > .list-row").count() == 4
        talent_rows = form.locator("[data-list='talent_lists'] > .list-rows > .list-row")
        assert talent_rows.count() == 1
        assert (
            talent_rows.first.locator("input[data-field='talent_lists.0.0']").input_value()
            == "frigate"
        )
        form.locator("button[type=submit]").click()
        form.locator(".status", has_text="Saved").wait_for()
        after = site.service.load(table.id)
        assert rules.dump_options(after.options) == rules.dump_options(before.options)
        form.get_by_label("opposed rolls").check()
        form.locator("button[type=submit]").click()
        page.wait_for_function("() => true")
        for _ in range(50):
            if site.service.load(table.id).options.opposed_rolls:
                break
            page.wait_for_timeout(100)
        assert site.service.load(table.id).options.opposed_rolls is True
        form.locator("[data-list='success_degrees']").scroll_into_view_if_needed()
        page.screenshot(path=str(IMG / "house-rules-desktop.png"), full_page=False)
        assert ron.errors == []
    finally:
        ron.close()
