"""Accessibility (issue 19): an axe-core audit (the ``axe-playwright-python`` package,
which ships axe-core) of the tables page and a table page, as a referee and as a player,
at a desktop's size and a phone's, finds no serious or critical violation; every form
control has a name; the page's own keyboard paths work (the tabs, the "more" fold, a
form submitted from the keyboard)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Site, Table
from .test_browser import Person

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def _serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} - {[n['target'] for n in v['nodes']][:4]}"
        for v in found
        if v.get("impact") in ("serious", "critical")
    ]


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("who", ["Ron", "Ann"])
def test_no_serious_violation_on_the_table_page(
    browser: Any, site: Site, table: Table, who: str, size: str
) -> None:
    person = Person(browser, site, table.tokens[who], viewport=SIZES[size])
    try:
        page = person.page
        for tab in ("sheets", "actions", "log", "table"):
            if page.locator("#tab-" + tab).is_visible():
                page.locator("#tab-" + tab).click()
            page.locator("details.more").evaluate_all("ds => ds.forEach(d => d.open = true)")
            problems = _serious(page)
            assert problems == [], (who, size, tab, problems)
        unnamed = page.evaluate(
            """() => [...document.querySelectorAll('input, select, textarea, button')]
                 .filter(e => e.type !== 'hidden' && e.offsetParent !== null)
                 .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                              && !e.getAttribute('aria-labelledby') && !e.textContent.trim())
                 .map(e => e.outerHTML.slice(0, 120))"""
        )
        assert unnamed == [], unnamed
        assert person.errors == []
    finally:
        person.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_no_serious_violation_on_the_tables_page(browser: Any, site: Site, size: str) -> None:
    context = browser.new_context(viewport=SIZES[size])
    try:
        page = context.new_page()
        page.goto(site.base + "/")
        assert _serious(page) == []
    finally:
        context.close()


def test_a_roll_from_the_keyboard_alone(browser: Any, site: Site, table: Table) -> None:
    """The Actions tab with the arrow keys, "more" opened with Enter, and a roll of the
    dice tray typed and sent from the keyboard alone."""
    ann = Person(browser, site, table.tokens["Ann"], viewport=SIZES["phone"])
    try:
        page = ann.page
        page.locator("#tab-sheets").focus()
        page.keyboard.press("ArrowRight")  # the tabs move with the arrow keys
        assert page.locator("#tab-actions").get_attribute("aria-selected") == "true"
        form = page.locator("#panels form.action:visible").first
        more = form.locator("details.more > summary")
        more.focus()
        page.keyboard.press("Enter")
        assert form.locator("details.more").evaluate("d => d.open")
        tray = page.locator("section.dice-tray form.action[data-action='roll']")
        tray.get_by_label("dice", exact=True).focus()
        page.keyboard.type("3d6+2")
        before = max(ann.seqs() or [0])
        tray.locator("button[type=submit]").focus()
        page.keyboard.press("Enter")
        tray.locator(".status", has_text="event #").wait_for()
        assert max(ann.seqs()) == before + 1
        assert "3d6+2 =" in ann.entry(before + 1).inner_text()
    finally:
        ann.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_new_play_controls_are_clean(browser: Any, site: Site, size: str) -> None:
    """Issue 34's controls under axe-core: list rows with their add and remove buttons,
    chips, one-click answers with their odds, the turn tracker with its your-turn mark."""
    from .conftest import make_table

    t = make_table(site, "arm", "Axe")
    svc = site.service
    for cid, owner in (("alex", "Ann"), ("brad", None)):
        svc.add_character(t.id, cid, owner=owner, force=True)
    svc.act(t.id, "Ron", "next-round", {})
    svc.act(t.id, "Ron", "attack", {"actor": "brad", "target": "alex"}, faces=[3, 5])
    for who in ("Ann", "Ron"):
        person = Person(browser, site, t.tokens[who], viewport=SIZES[size])
        try:
            page = person.page
            page.locator("button.answer-now").first.wait_for(state="attached")
            for tab in ("actions", "table"):
                if page.locator("#tab-" + tab).is_visible():
                    page.locator("#tab-" + tab).click()
                if tab == "actions":  # a list with rows: ARM's subtasks' parts, two added
                    box = page.locator("#panels section.actpanel:not([hidden])").first
                    box.locator(".action-pick").select_option("subtasks")
                    form = box.locator("form.action[data-action='subtasks']")
                    form.locator(".row-add").first.click()
                    form.locator(".row-add").first.click()
                # the folds open: the task's chips (the actor's mods, the situations)
                page.locator("details.more").evaluate_all("ds => ds.forEach(d => d.open = true)")
                problems = _serious(page)
                assert problems == [], (who, size, tab, problems)
            assert page.locator(".list-row").count() >= 2
            assert person.errors == []
        finally:
            person.close()
