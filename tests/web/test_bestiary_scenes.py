"""Adversaries in two clicks, in a browser (issue 39 item 3): at each game's table the
referee (at a desk) picks an entry of the bestiary, asks for three, changes one number
and presses Seat; a player (on a phone) sees three new names and never their sheets - not
in the page, not in any frame the live socket sends. Screenshots at 1280 and 390 px (the
Mneme CE ones in docs/img as bestiary-1280.png and bestiary-390.png were taken here and
looked at).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from referee.systems.base import names

from .conftest import Site, make_table
from .test_browser import Person

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

SHOTS = Path(os.environ.get("REFEREE_ARTIFACTS", "artifacts"))
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SCENE = {
    "mnemonic": ("levy", "role", "5", "Spearmen"),
    "mongrel": ("shade", "burn", "6", "sealed archive"),
    "mneme": ("raider", "armour", "6", "Cinder Blocks"),
    "arm": ("knight", "skill", "3", "Swords"),
}
"""Per game: the entry, the number changed, its new value, and a word only its sheet holds."""


@pytest.mark.parametrize("game", sorted(names()))
def test_the_referee_seats_three_adversaries_in_two_clicks(
    browser: Any, site: Site, game: str
) -> None:
    entry, key, value, secret = SCENE[game]
    table = make_table(site, game, f"Den of {game}")
    ron = Person(browser, site, table.tokens["Ron"], viewport=DESKTOP)
    ann = Person(browser, site, table.tokens["Ann"], viewport=PHONE, is_mobile=True)
    try:
        assert ann.page.locator("#bestiary").count() == 0  # the referee's alone
        assert secret not in ann.page.content()  # a word of the sheet only, not the rules'
        page = ron.page
        found = site.service.load(table.id).ruleset.adversary(entry)
        page.locator("#bestiary .chip", has_text=found.name).click()  # the first click
        assert found.line in page.locator("#bst-line").inner_text()
        page.locator("#bst-count").fill("3")
        assert page.locator("#bst-names").inner_text().startswith(f"{found.name} 1–3")
        page.locator(f"#bst-dial-{key}").fill(value)
        page.locator("#bst-seat").click()  # the second
        page.locator("#bestiary-form .status.good").wait_for()
        for n in (1, 2, 3):
            ann.page.locator("#cards", has_text=f"{found.name} {n}").wait_for()
        ts = site.service.load(table.id)
        seated = [s for s in ts.state.characters.values() if s.sheet.name.startswith(found.name)]
        assert len(seated) == 3
        rules = ts.ruleset
        dial = next(d for d in found.dials if d.key == key)
        for s in seated:
            assert rules.validate(s.sheet, ts.options, ts.state) == ()
            assert dial.value(rules.dump_sheet(s.sheet)) == int(value)
        page.locator("#cards", has_text=f"{found.name} 3").wait_for()
        assert secret in page.locator("#cards").inner_text()  # the referee reads the sheets
        html = ann.page.content()
        assert secret not in html and "bestiary" not in html
        assert not [f for f in ann.frames if secret in f]
        assert ron.errors == [] and ann.errors == []
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#bestiary").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"bestiary-{game}-1280.png"))
        phone = Person(browser, site, table.tokens["Ron"], viewport=PHONE, is_mobile=True)
        try:
            phone.page.locator("#bestiary .chip", has_text=found.name).click()
            phone.page.locator("#bst-count").fill("3")
            phone.page.locator("#bestiary").scroll_into_view_if_needed()
            phone.page.screenshot(path=str(SHOTS / f"bestiary-{game}-390.png"))
            assert phone.errors == []
        finally:
            phone.context.close()
    finally:
        ron.context.close()
        ann.context.close()
