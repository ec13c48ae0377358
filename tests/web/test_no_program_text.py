"""People never read program text (principle 11; issue 34): every tab of every demo
table, as the referee and as a player, at 1280x800 and 390x844, with each action's form
shown in turn and its "More" opened, holds no JSON, no dotted program path, no
``null``/``None`` and no character id where the character has a name, in what the page
shows (its visible text and the values of its visible controls).

The demo tables are played a little first (a round, an attack waiting for its defence, a
turn order, a roll) so the log, the tracker and the prompts have something to say."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tests.web.conftest import Site

from referee.web.demo import REFEREE, demo_tables

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}

# what a person sees: the visible text of every element, and the values of visible controls,
# each tagged with whether it sits in a log entry (worded by referee.web.entry)
SHOWN = """
(root) => {
  const out = [];
  // shown: laid out, not hidden, not inside a closed <details> (checkVisibility says all three)
  const visible = (el) =>
    el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true });
  const where = (el) => el.closest("li.entry") ? "entry" : (el.closest("[id]") || {}).id || "";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || ["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT"].includes(el.tagName)) continue;
    if (el.closest("template, textarea, select")) continue;
    const text = n.textContent.trim();
    if (text && visible(el)) out.push([where(el), text]);
  }
  for (const c of root.querySelectorAll("input, textarea, select")) {
    if (!visible(c) || c.type === "hidden" || c.type === "checkbox" || c.type === "radio") continue;
    const v = c.tagName === "SELECT" ? (c.selectedOptions[0] || {}).textContent || "" : c.value;
    if (v) out.push([where(c), v]);
  }
  return out;
}
"""

JSON = re.compile(r'[\[{]\s*"|"\s*:\s|\[\s*\]|\{\s*\}|\[\s*\[')
DOTTED = re.compile(r"\b[a-z_]{2,}\.[a-z_]{2,}\.[a-z_]{2,}\b|\breferee\.[a-z_]+")
NOTHING = re.compile(r"\b(null|None)\b")


def problems(shown: list[list[str]], ids: dict[str, str]) -> list[str]:
    """What of ``shown`` is program text: ``where: kind: text``."""
    out = []
    for where, text in shown:
        kinds = [
            kind
            for kind, pattern in (("JSON", JSON), ("dotted path", DOTTED), ("null/None", NOTHING))
            if pattern.search(text)
        ]
        kinds += [
            f"id {cid!r}"
            for cid, name in ids.items()
            if cid != name and re.search(rf"(?<![\w-]){re.escape(cid)}(?![\w-])", text)
        ]
        out += [f"{where}: {kind}: {text[:160]}" for kind in kinds]
    return out


def _play(site: Site) -> list[Any]:
    """The demo tables, each played a little by its referee."""
    tables, _ = demo_tables(site.service, site.tokens)
    svc = site.service
    for t in tables:
        ts = svc.load(t.id)
        cids = list(ts.state.characters)
        svc.act(t.id, REFEREE, "roll", {"dice": "2d6", "label": "a test"})
        game = ts.game
        if game == "arm":
            svc.act(t.id, REFEREE, "next-round", {})
            svc.act(t.id, REFEREE, "attack", {"actor": cids[1], "target": cids[0]}, faces=[3, 5])
        elif game == "mnemonic":
            svc.act(t.id, REFEREE, "order", {"groups": [[c] for c in cids]})
        elif game == "mongrel":
            svc.act(t.id, REFEREE, "start-conflict", {"fighters": cids[:2]})
        elif game == "mneme":
            svc.act(t.id, REFEREE, "pass-rounds", {"rounds": 1})
    return tables


def _scan_page(page: Any, ids: dict[str, str]) -> list[str]:
    found: list[str] = []
    tabs = page.locator('.tabs [role="tab"]')
    count = tabs.count() if page.locator(".tabs").is_visible() else 0
    for i in range(max(count, 1)):
        if count:
            tabs.nth(i).click()
        for details in page.locator("details.more").all():
            if details.is_visible():
                details.evaluate("d => d.open = true")
        found += problems(page.locator("body").evaluate(SHOWN), ids)
        # every action's form in turn (the panels' pickers and the referee's table actions)
        for pick in page.locator("select.action-pick").all():
            if not pick.is_visible():
                continue
            for value in pick.locator("option").evaluate_all("os => os.map(o => o.value)"):
                pick.select_option(value)
                form = pick.locator("xpath=ancestor::*[contains(@class,'actpanel')][1]").locator(
                    f'form.action[data-action="{value}"]'
                )
                form.locator("details.more").evaluate_all("ds => ds.forEach(d => d.open = true)")
                _preview_drawn(form)
                found += problems(form.evaluate(SHOWN), ids)
    return found


def _preview_drawn(form: Any) -> None:
    """Wait for the form's odds preview (its words are read too): drawn, or saying what
    to fill in; a form with no preview, or one the server is slow to answer, is read as
    it stands after a few seconds."""
    drawn = (
        "f => { const b = f.querySelector('.preview');"
        " return !b || b.dataset.shown === '1' || b.textContent.trim() !== '' }"
    )
    with contextlib.suppress(PlaywrightTimeout):
        form.page.wait_for_function(drawn, arg=form.element_handle(timeout=1000), timeout=4000)


@pytest.mark.parametrize("size", list(SIZES))
def test_no_program_text_on_any_demo_tab(browser: Any, site: Site, size: str) -> None:
    tables = _play(site)
    width, height = SIZES[size]
    report: list[str] = []
    for t in tables:
        ts = site.service.load(t.id)
        ids = {cid: str(s.sheet.name or cid) for cid, s in ts.state.characters.items()}
        players = [p for p, role in ts.participants.items() if role == "player"][:1]
        for who in [REFEREE, *players]:
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            page.goto(f"{site.base}/join/{t.tokens[who]}")
            page.wait_for_url("**/t/*")
            page.wait_for_selector("#conn.live")
            report += [f"{ts.game} {who}: {p}" for p in _scan_page(page, ids)]
            context.close()
    unique = sorted(set(report))
    Path(f"/tmp/program-text-{size}.txt").write_text("\n".join(unique))
    outside = [u for u in unique if ": entry: " not in u]
    assert not outside, f"{len(outside)} program texts shown:\n" + "\n".join(outside)
    if unique:  # only log entries left: their words are issue 35's (referee.web.entry)
        pytest.xfail(
            f"issue 35 rewords the log entries; {len(unique)} entry texts still "
            "show ids or program paths, e.g. " + "; ".join(unique[:3])
        )
