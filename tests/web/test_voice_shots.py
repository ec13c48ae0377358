"""Each game's log and recap in a browser, in the game's own words (issue 35): a short
evening at each table (checks that succeed and fail, a decision waited for, a secret roll,
a hand correction), the page's log and the recap page read for program text, every die
drawn in a group that names its role; screenshots at a desk and on a phone (the ones in
docs/img as log-<game>.png, recap-<game>.png and phone-… were taken here and looked at).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from tests.table.test_one_voice import _program_text

from referee.errors import RulesError
from referee.systems.base import names

from .conftest import Site

SHOTS = Path(os.environ.get("REFEREE_ARTIFACTS", "artifacts"))
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

EVENING: dict[str, list[tuple[str, dict[str, Any], str]]] = {
    "arm": [
        ("next-round", {}, "public"),
        ("prepare", {"actor": "alex"}, "public"),
        ("attack", {"actor": "brad", "target": "alex"}, "public"),
        ("defend", {"actor": "alex"}, "public"),
        ("task", {"actor": "christine", "stat": "Fitness", "difficulty": 6}, "referee"),
        ("task", {"actor": "alex", "stat": "Fitness", "difficulty": 9, "push": "never"}, "public"),
    ],
    "mneme": [
        ("initiative", {}, "public"),
        ("check", {"actor": "ada", "difficulty": 8}, "public"),
        ("attack", {"actor": "ada", "target": "raider", "weapon": "Broadsword"}, "public"),
        ("check", {"actor": "tess", "difficulty": 10}, "referee"),
    ],
    "mnemonic": [
        ("sheet-check", {"actor": "mickey-ruane", "talent": "Tough"}, "public"),
        ("attack", {"actor": "mickey-ruane", "target": "swiftsure"}, "public"),
        ("injury", {"victim": "swiftsure", "worst": "unconscious"}, "public"),
        ("sheet-check", {"actor": "swiftsure", "talent": "Sturdy"}, "referee"),
    ],
    "mongrel": [
        ("start-conflict", {}, "public"),
        ("attack", {"actor": "vooruk", "target": "giazza", "expertise": "Rend"}, "public"),
        ("take-damage", {"victim": "giazza", "effect": 5}, "public"),
        ("spend-resolve", {"actor": "vooruk"}, "referee"),
    ],
}


def _evening(site: Site, game: str) -> tuple[str, dict[str, str], dict[str, str]]:
    service = site.service
    tid = service.create(game, f"An evening of {game}", "Ron", seed=11).table.id
    service.join(tid, "Ann", "player")
    from referee.systems.base import get

    rules = get(game)
    for i, example in enumerate(rules.examples()):
        service.add_character(tid, example, owner="Ann" if i == 0 else None, force=True)
    ts = service.load(tid)
    ids = list(ts.state.characters)
    for action, fields, vis in EVENING[game]:
        data = {k: _id(v, ids) for k, v in fields.items()}
        try:
            service.act(tid, "Ron", action, data, visibility=vis)  # type: ignore[arg-type]
        except RulesError:
            continue
    first = ids[0]
    service.note(tid, "Ann", f"{ts.state.characters[first].sheet.name} looks for the door.")
    tokens = {who: site.tokens.issue(tid, who, "shot")[0] for who in ("Ron", "Ann")}
    seen = {c: str(s.sheet.name) for c, s in service.load(tid).state.characters.items()}
    return tid, tokens, seen


def _id(value: Any, ids: list[str]) -> Any:
    """An example's id at the table (a secret seating's has a tail): ``ada`` -> its id."""
    if isinstance(value, str):
        found = [i for i in ids if i == value or i.startswith(value + "-")]
        return found[0] if found else value
    return value


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game", sorted(names()))
def test_each_games_log_and_recap_read_in_its_words(browser: Any, site: Site, game: str) -> None:
    tid, tokens, seen = _evening(site, game)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("", DESKTOP), ("phone-", PHONE)):
        ctx = browser.new_context(viewport=viewport, is_mobile=bool(size))
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, seen=errors: seen.append(str(e)))
        try:
            page.goto(f"{site.base}/join/{tokens['Ron']}")
            page.wait_for_url("**/t/*")
            page.wait_for_selector("#conn.live")
            log = page.locator("#log")
            assert log.locator("li.kind-action-resolved").count() >= 2
            text = log.inner_text()
            problems = _program_text(text, seen, f"{game} log")
            assert not problems, problems
            loose = page.locator("#log .die").evaluate_all(
                "els => els.filter(d => !d.closest('.dice-group[data-role]')).length"
            )
            assert loose == 0
            if size:  # a phone shows one pane at a time
                page.locator("#tab-log").click()
            most = page.locator("#log li.kind-action-resolved:has(.dice-group + .dice-group)")
            any_ = page.locator("#log li.kind-action-resolved:has(.dice-group)")
            rolled = most.first if most.count() else any_.first
            rolled.evaluate(
                "el => { el.scrollIntoView({block: 'start'});"
                " const log = el.closest('#log'); log.scrollTop -= 8; }"
            )
            page.screenshot(path=str(SHOTS / f"{size}log-{game}.png"))
            page.goto(f"{site.base}/t/{tid}/recap")
            recap = page.locator("article.recap")
            recap.wait_for()
            problems = _program_text(recap.inner_text(), seen, f"{game} recap")
            assert not problems, problems
            page.screenshot(path=str(SHOTS / f"{size}recap-{game}.png"))
            assert errors == []
        finally:
            ctx.close()
