"""Playing from the sheet and the chat (issue 34, items 1, 2 and 6), in Chromium.

A scene per game: Ann at 1280×800 rolls a check from her sheet (one click opens it with
its odds, one more rolls) and an action typed in the chat with completion, the odds shown
before Enter; Ben on a 390×844 phone rolls from his sheet (the Actions tab comes up with
the form) and blind from the chat. Screenshots of both sizes go to docs/img. axe-core finds
no serious violation on the new controls (the sheet's buttons, the chat's completions and
odds); the keyboard alone opens a sheet roll; the page fits (the log and chat fill the
desktop's column; a phone's tabs stay in sight when the section changes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import Site, make_table
from .test_accessibility import SIZES, _serious
from .test_browser import Person

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "img"

SCENE: dict[str, dict[str, Any]] = {
    # the examples seated for Ann and Ben; the sheet entry Ann rolls; her chat line (typed
    # as a prefix, completed with Tab, then finished); Ben's sheet entry
    "mnemonic": {
        "seat": ("boxer", "frigate"),
        "sheet": "Agile",
        "typed": ("/sheet-c", "\t", "Tou", "\t"),
        "action": "sheet-check",
        "ben": "Fast",
    },
    "mongrel": {
        "seat": ("vooruk", "giazza"),
        "sheet": "Rend",
        "typed": ("/tas", "\t", "Athl", "\t"),
        "action": "task",
        "ben": "Melee",
    },
    "mneme": {
        "seat": ("ada", "tess"),
        "sheet": "Dexterity",
        "typed": ("/chec", "\t", "In", "\t"),
        "action": "check",
        "ben": "Endurance",
    },
    "arm": {
        "seat": ("alex", "brad"),
        "sheet": "Fitness",
        "typed": ("/tas", "\t", "Wi", "\t"),
        "action": "task",
        "ben": "Toughness",
    },
}


def _seat(site: Site, tid: str, token: str, game: str) -> dict[str, str]:
    ids: dict[str, str] = {}
    with site.client(token) as http:
        for example, owner in zip(SCENE[game]["seat"], ("Ann", "Ben"), strict=True):
            r = http.post(
                f"/api/tables/{tid}/characters",
                json={"example": example, "owner": owner, "force": True},
            )
            assert r.status_code == 201, r.text
            ids[owner] = r.json()["event"]["payload"]["id"]
    return ids


def _newest(page: Any) -> int:
    seqs = page.locator("#log li.entry").evaluate_all("els => els.map(e => Number(e.dataset.seq))")
    return max(seqs or [0])


def _wait_after(page: Any, seq: int) -> None:
    page.wait_for_function(
        f"() => [...document.querySelectorAll('#log li.entry')].some(e => +e.dataset.seq > {seq})"
    )


@pytest.mark.parametrize("game", sorted(SCENE))
def test_a_scene_from_the_sheet_and_the_chat(browser: Any, site: Site, game: str) -> None:
    scene = SCENE[game]
    table = make_table(site, game, name=f"sheets-{game}")
    if game == "mnemonic":  # make_table seats Mnemonic's two already
        ids = {"Ann": "mickey-ruane", "Ben": "swiftsure"}
    else:
        ids = _seat(site, table.id, table.tokens["Ron"], game)
    ann = Person(browser, site, table.tokens["Ann"], viewport=SIZES["desktop"])
    ben = Person(browser, site, table.tokens["Ben"], viewport=SIZES["phone"])
    try:
        page = ann.page
        # one click on the sheet: the action chosen, the entry filled in, the odds shown
        card = page.locator(f"article.card[data-cid='{ids['Ann']}']")
        card.locator("button.sheet-roll", has_text=scene["sheet"]).first.click()
        panel = page.locator(f"section.actpanel[data-actor='{ids['Ann']}']")
        form = panel.locator("form.action:not([hidden])")
        assert form.get_attribute("data-action") is not None
        form.locator(".preview .chance").wait_for()
        odds = form.locator(".preview .chance").inner_text()
        assert "chance of success" in odds or "No dice decide" in odds
        # the Roll button has the focus: Enter (or a click) rolls
        assert page.evaluate("document.activeElement.textContent.trim()") == "Roll"
        seq = _newest(page)
        form.locator("button[type=submit]").click()
        _wait_after(page, seq)
        entry = page.locator("#log li.entry").last
        assert entry.get_attribute("data-kind") == "action-resolved"

        # the chat: completion as one types, the odds before Enter
        box = page.locator("#chat-text")
        box.click()
        for part in scene["typed"]:
            if part == "\t":
                page.locator("#chat-options li").first.wait_for()
                box.press("Tab")
            else:
                box.press_sequentially(part, delay=10)
        page.locator("#chat-cmd", has_text="Enter rolls").wait_for()
        assert box.input_value().startswith("/" + scene["action"] + " ")
        page.locator("#chat-odds .chance").wait_for()
        assert box.get_attribute("aria-expanded") == "false"
        if game == "mnemonic":
            page.screenshot(path=str(DOCS / "chat-command-desktop.png"))
        problems = _serious(page)
        assert problems == [], problems
        seq = _newest(page)
        box.press("Enter")
        _wait_after(page, seq)
        assert page.locator("#log li.entry").last.get_attribute("data-kind") == "action-resolved"
        # the log's push may come before the command's own answer, which empties the box
        page.wait_for_function("() => document.querySelector('#chat-text').value === ''")
        page.screenshot(path=str(DOCS / f"sheet-roll-{game}-desktop.png"))

        # the phone: a sheet roll brings the Actions tab up with the form and its odds
        phone = ben.page
        bcard = phone.locator(f"article.card[data-cid='{ids['Ben']}']")
        bcard.locator("button.sheet-roll", has_text=scene["ben"]).first.click()
        assert phone.locator("#tab-actions").get_attribute("aria-selected") == "true"
        bform = phone.locator(
            f"section.actpanel[data-actor='{ids['Ben']}'] form.action:not([hidden])"
        )
        bform.locator(".preview .chance").wait_for()
        assert bform.locator("button[type=submit]").is_visible()
        phone.screenshot(path=str(DOCS / f"sheet-roll-{game}-phone.png"))
        seq = _newest(phone)
        bform.locator("button[type=submit]").click()
        _wait_after(phone, seq)
        # a blind roll from the phone's chat
        phone.locator("#tab-chat").click()
        phone.locator("#chat-text").fill("/br 2d6 a hunch")
        phone.locator("#chat-cmd", has_text="Enter rolls").wait_for()
        assert phone.locator("#chat-form button[type=submit]").inner_text() == "Roll blind"
        seq = _newest(phone)
        phone.locator("#chat-text").press("Enter")
        _wait_after(phone, seq)
        assert phone.locator("#log li.entry").last.get_attribute("data-visibility") == "blind"
        assert ann.errors == [] and ben.errors == []
    finally:
        ann.close()
        ben.close()


def test_the_keyboard_alone_rolls_from_the_sheet(browser: Any, site: Site) -> None:
    table = make_table(site, "mnemonic", name="keys")
    ann = Person(browser, site, table.tokens["Ann"], viewport=SIZES["desktop"])
    try:
        page = ann.page
        button = page.locator("button.sheet-roll", has_text="Tough").first
        assert button.get_attribute("aria-label") == "Tough: sheet check"
        button.focus()
        page.keyboard.press("Enter")
        form = page.locator("section.actpanel[data-actor='mickey-ruane'] form.action:not([hidden])")
        form.locator(".preview .chance").wait_for()
        assert form.locator("[data-field='talent']").input_value() == "Tough"
        seq = _newest(page)
        page.keyboard.press("Enter")  # the focus is on Roll
        _wait_after(page, seq)
        # an error in the chat names the word at fault, and nothing is sent
        box = page.locator("#chat-text")
        box.fill("/sheet-check Tough Agile")
        page.locator("#chat-cmd.bad").wait_for()
        assert "word 3 (Agile)" in page.locator("#chat-cmd").inner_text()
        box.press("Enter")
        page.locator("#chat-status.bad").wait_for()
        assert box.input_value() == "/sheet-check Tough Agile"
    finally:
        ann.close()


def test_the_page_fits_the_evening(browser: Any, site: Site) -> None:
    table = make_table(site, "mnemonic", name="fit")
    ann = Person(browser, site, table.tokens["Ann"], viewport=SIZES["desktop"])
    ben = Person(browser, site, table.tokens["Ben"], viewport=SIZES["phone"])
    try:
        # the log and the chat fill the third column (before: 230 px and 154 px)
        heights = ann.page.evaluate(
            """() => ({log: document.getElementById('log').getBoundingClientRect().height,
                       talk: document.querySelector('.talk').getBoundingClientRect().height})"""
        )
        assert heights["talk"] >= 800 - 80
        assert heights["log"] >= 300, heights
        # who sees it stands beside Roll; To beside Send
        row = ann.page.locator("form.action:not([hidden]) .roll-row").first
        assert row.locator("select[data-common=visibility]").count() == 1
        assert row.locator("button[type=submit]").count() == 1
        assert ann.page.locator(".chat-send #chat-to").count() == 1
        # the phone: down the actions to the dice tray, then the log: the tabs in sight
        phone = ben.page
        phone.locator("#tab-actions").click()
        phone.locator(".dice-tray").scroll_into_view_if_needed()
        # well down the page (how far depends on what the forms above have drawn yet: 278
        # to 300+ px under load), with the tray in sight
        assert phone.evaluate("window.scrollY") > 200
        tray = phone.locator(".dice-tray").bounding_box()
        assert tray is not None and 0 <= tray["y"] < 844
        phone.locator("#tab-log").click()
        top = phone.evaluate("document.querySelector('.tabs').getBoundingClientRect().top")
        assert 0 <= top < 80
        log_box = phone.locator("#log-pane").bounding_box()
        assert log_box is not None and log_box["y"] < 844 and log_box["y"] + 40 > 0
        phone.screenshot(path=str(DOCS / "phone-log-after-tray.png"))
    finally:
        ann.close()
        ben.close()
