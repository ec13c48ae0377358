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
    with site.client(table.tokens["Ron"]) as http:  # Swiftsure is hurt: the push redraws
        r = http.post(
            f"/api/tables/{table.id}/edits",
            json={
                "changes": [{"target": "swiftsure", "field": "status.injuries", "delta": 2}],
                "reason": "ran aground",
            },
        )
        assert r.status_code == 201, r.text
        after = http.get(f"/api/tables/{table.id}/gauge").json()
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
