"""The gauge of who is winning in a real browser (Playwright driving Debian's Chromium):
the referee's page draws it from the route and redraws it from the push after an event;
a player's phone shows it once the referee shares it. Screenshots at 1280 and 390 px go
to docs/img (gauge-desktop.png, gauge-phone.png)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.web.conftest import Site, Table

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def _page(browser: Any, site: Site, token: str, **context: Any) -> Any:
    page = browser.new_context(**context).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site.base}/join/{token}")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#conn.live")
    page.errors = errors
    return page


def _hurt(site: Site, table: Table, cid: str, injuries: int, reason: str) -> None:
    """The referee corrects a character's injuries by hand (an event: the gauge is pushed)."""
    change = {"target": cid, "field": "status.injuries", "delta": injuries}
    with site.client(table.tokens["Ron"]) as http:
        r = http.post(f"/api/tables/{table.id}/edits", json={"changes": [change], "reason": reason})
        assert r.status_code == 201, r.text


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%"


def test_the_gauge_in_the_page(browser: Any, site: Site, table: Table) -> None:
    ron = _page(browser, site, table.tokens["Ron"], viewport={"width": 1280, "height": 900})
    gauge = ron.locator("#gauge")
    gauge.locator(".gauge-bar").wait_for(timeout=60_000)
    with site.client(table.tokens["Ron"]) as http:
        now = http.get(f"/api/tables/{table.id}/gauge").json()
    text = gauge.inner_text()
    assert "Mickey Ruane" in text and "Swiftsure" in text and "Exact:" in text
    assert _pct(now["p"]["a"]["value"]) in text and _pct(now["p"]["b"]["value"]) in text
    assert (
        "acts now" in text
        and "If Mickey Ruane attacks while making themselves a harder target" in text
    )
    _hurt(site, table, "swiftsure", 2, "ran aground")  # the push redraws
    after = _chance(site, table)
    assert after["p"]["a"] != now["p"]["a"]
    ron.wait_for_function(
        "t => document.querySelector('#gauge').innerText.includes(t)",
        arg=_pct(after["p"]["a"]["value"]),
        timeout=60_000,
    )
    # the figures come first, then the what-ifs of whoever acts now
    gauge.locator(".gauge-whatif").wait_for(timeout=60_000)
    gauge.scroll_into_view_if_needed()
    gauge.screenshot(path=str(IMG / "gauge-desktop.png"))
    assert ron.errors == []
    with site.client(table.tokens["Ron"]) as http:  # shown to players, every sheet shown
        assert http.put(f"/api/tables/{table.id}/sheets", json={"sheets": "everyone"}).is_success
        r = http.put(f"/api/tables/{table.id}/settings", json={"players_gauge": True})
        assert r.is_success
    ann = _page(
        browser, site, table.tokens["Ann"], viewport={"width": 390, "height": 844}, is_mobile=True
    )
    ann.click("#tab-table")
    ann.locator("#gauge .gauge-bar").wait_for(timeout=60_000)
    shown = ann.locator("#gauge").inner_text()
    assert _pct(after["p"]["a"]["value"]) in shown
    assert re.search(r"acts now", shown)
    ann.locator("#gauge").screenshot(path=str(IMG / "gauge-phone.png"))
    width = ann.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, json.dumps({"scrollWidth": width})
    assert ann.errors == []


def _chance(site: Site, table: Table, query: str = "") -> dict[str, Any]:
    with site.client(table.tokens["Ron"]) as http:
        r = http.get(f"/api/tables/{table.id}/gauge{query}")
        assert r.status_code == 200, r.text
        found: dict[str, Any] = r.json()
        return found


def _shows(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('#gauge .gauge-body').innerText.includes(t)",
        arg=text,
        timeout=60_000,
    )


def test_the_referee_chooses_the_sides_in_the_page(browser: Any, site: Site, table: Table) -> None:
    """A referee's own character fights on: the table's sides put it against the players'
    two, the referee picks it against Mickey Ruane alone (Swiftsure out of this fight) and
    the page gives that fight's chance, the route's figure for those sides; the choice
    outlives a reload and each pushed event; "The table's sides" goes back; a chosen
    character who leaves the table sends the page back to the table's sides, saying why."""
    with site.client(table.tokens["Ron"]) as http:
        r = http.post(f"/api/tables/{table.id}/characters/bestiary", json={"entry": "thug"})
        assert r.status_code == 201, r.text
    usual = _chance(site, table)
    assert usual["sides"]["a"]["ids"] == ["mickey-ruane", "swiftsure"]
    assert usual["sides"]["b"]["ids"] == ["thug"]
    assert [f["id"] for f in usual["fighters"]] == ["mickey-ruane", "swiftsure", "thug"]
    duel = _chance(site, table, "?a=mickey-ruane&b=thug")
    assert duel["p"]["a"]["value"] != usual["p"]["a"]["value"]

    ron = _page(browser, site, table.tokens["Ron"], viewport={"width": 1280, "height": 900})
    gauge = ron.locator("#gauge")
    _shows(ron, "Mickey Ruane + Swiftsure")
    _shows(ron, _pct(usual["p"]["a"]["value"]))
    gauge.locator(".gauge-pick summary").click()
    gauge.locator(".gauge-pick select[data-cid='swiftsure']").select_option("")
    gauge.locator(".gauge-pick button[type=submit]").click()
    _shows(ron, "as chosen in this browser")
    _shows(ron, _pct(duel["p"]["a"]["value"]))
    text = gauge.inner_text()
    assert "Mickey Ruane + Swiftsure" not in text and "Thug" in text
    assert gauge.locator(".gauge-pick").get_attribute("open") is not None  # stays open
    gauge.scroll_into_view_if_needed()
    gauge.screenshot(path=str(IMG / "gauge-sides.png"))

    ron.reload()
    _shows(ron, "as chosen in this browser")
    _shows(ron, _pct(duel["p"]["a"]["value"]))
    _hurt(site, table, "thug", 1, "a bad fall")  # the push redraws
    hurt = _chance(site, table, "?a=mickey-ruane&b=thug")
    assert hurt["p"]["a"]["value"] != duel["p"]["a"]["value"]
    _shows(ron, _pct(hurt["p"]["a"]["value"]))
    assert "as chosen in this browser" in gauge.inner_text()

    gauge.locator(".gauge-pick summary").click()
    gauge.locator(".gauge-pick button", has_text="The table's sides").click()
    _shows(ron, "Mickey Ruane + Swiftsure")
    back = _chance(site, table)
    _shows(ron, _pct(back["p"]["a"]["value"]))

    gauge.locator(".gauge-pick select[data-cid='swiftsure']").select_option("")
    gauge.locator(".gauge-pick button[type=submit]").click()
    _shows(ron, "as chosen in this browser")
    with site.client(table.tokens["Ron"]) as http:
        r = http.delete(f"/api/tables/{table.id}/characters/thug")
        assert r.status_code in (200, 201), r.text
    _shows(ron, "is no longer at the table: these are the table's sides")
    _shows(ron, "Ann's characters against Ben's")
    assert ron.errors == []
