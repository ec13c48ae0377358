"""Roll requests in the browser (issue 39 item 1): the referee asks two players for a
check against a secret difficulty, previewing each one's exact chance; each player (one
on a phone) rolls with one click, shown their chance per named difficulty; the referee's
panel gathers both results with the exact chances they had. No player's page or socket
frame carries the difficulty. Screenshots at 1280 and 390 px go to docs/img.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from .conftest import Site, make_table
from .test_accessibility import _serious
from .test_browser import Person
from .test_fair_scenes import _seat

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def _two_dice(total: int, target: int) -> Fraction:
    """P(2d6 + total >= target) (Mneme CE ch. 2), every face pair counted."""
    return Fraction(
        sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + total >= target), 36
    )


def test_a_secret_check_asked_of_two_players(browser: Any, site: Site) -> None:
    table = make_table(site, "mneme", "Requests", settings=None)
    ids = _seat(site, table.id, table.auth("Ron"), "mneme")
    ron = Person(browser, site, table.tokens["Ron"], viewport={"width": 1280, "height": 900})
    ann = Person(browser, site, table.tokens["Ann"], viewport={"width": 1280, "height": 900})
    ben = Person(browser, site, table.tokens["Ben"], viewport={"width": 390, "height": 844})
    try:
        ron.page.fill("#rr-line", "check skill=Recon characteristic=Int Difficult secret @Ann @Ben")
        ron.page.click("#rr-preview")
        preview = ron.page.locator("#rr-preview-table")
        preview.wait_for()
        chances = preview.locator("[data-chance]").evaluate_all(
            "els => els.map(e => e.dataset.chance)"
        )
        sheets = site.service.load(table.id).state.characters
        competence = [
            sheets[c].sheet.characteristics["Int"] // 3 - 2 + sheets[c].sheet.skills["Recon"]
            for c in ids
        ]
        assert [Fraction(c) for c in chances] == [_two_dice(m, 10) for m in competence]
        ron.page.screenshot(path=str(IMG / "requests-preview-1280.png"), full_page=False)
        ron.page.click("#rr-send")
        ron.page.wait_for_selector("#rr-list .rr-card")

        for person, viewport in ((ann, 1280), (ben, 390)):
            if person.page.locator("#tab-actions").is_visible():  # the phone's tabs
                person.page.click("#tab-actions")
            card = person.page.locator("#roll-requests .rr-card").first
            card.wait_for()
            assert "The difficulty is secret." in card.inner_text()
            rows = card.locator("table.rr-table tr td:first-child").all_inner_texts()
            assert rows[0].startswith("Easy (4)") and rows[-1].startswith("Formidable (14)")
            person.page.locator("#roll-requests").scroll_into_view_if_needed()
            person.page.screenshot(path=str(IMG / f"requests-player-{viewport}.png"))
            assert person.page.locator("button.rr-roll").count() == 1  # one button
            assert _serious(person.page) == [], viewport
            person.page.click("button.rr-roll")
            person.page.wait_for_selector("#roll-requests .rr-card.done")
            assert "the referee sees the result" in card.inner_text()

        panel = ron.page.locator("#rr-list .rr-card").first
        ron.page.wait_for_function(
            "() => document.querySelectorAll('#rr-list tr[data-character] a').length === 2"
        )
        had = panel.locator("tr[data-character] [data-chance]").evaluate_all(
            "els => els.map(e => e.dataset.chance)"
        )
        assert [Fraction(c) for c in had] == [_two_dice(m, 10) for m in competence]
        assert "Difficult (10)" in panel.inner_text()
        ron.page.locator("#roll-requests").scroll_into_view_if_needed()
        ron.page.screenshot(path=str(IMG / "requests-answers-1280.png"))
        assert _serious(ron.page) == []
        panel.locator("button.rr-tell").first.click()  # the referee tells, the number stays
        told = ann.page.locator("#log li.entry[data-kind='note']").last
        told.wait_for()
        assert told.inner_text().count("Ada Vance's check: ") == 1
        # the chat takes the same line: read with each asked character's chance, then sent
        ron.page.locator("#chat-text").fill("/request check skill=Recon characteristic=Int 8 @Ann")
        ron.page.wait_for_function(
            "() => (document.querySelector('#chat-form') || document.body).textContent"
            ".includes('Ada Vance: 72.2% (13/18)')"
        )
        ron.page.locator("#chat-text").press("Enter")
        ann.page.locator("#roll-requests .rr-card:not(.done)").wait_for()
        assert "72.2%" in ann.page.locator("#roll-requests .rr-card:not(.done)").inner_text()
        ron.page.set_viewport_size({"width": 390, "height": 844})
        ron.page.click("#tab-actions")
        ron.page.locator("#roll-requests").scroll_into_view_if_needed()
        ron.page.screenshot(path=str(IMG / "requests-answers-390.png"))

        for person in (ann, ben):  # neither the number nor its name reached a player
            html = person.page.content()
            frames = "\n".join(person.frames)
            for said in ("Difficult (10)", '"difficulty": 10', '"difficulty":10'):
                assert said not in html and said not in frames
            assert not person.errors
        assert not ron.errors
    finally:
        for p in (ron, ann, ben):
            p.close()
