"""A scene per game played at the speed of talk (issue 34): from the sheets, the chat's
commands and the prompts' one-click answers only, never typing into an action's form.

Two people at each table, each in a browser context of their own: the referee and a
player, one at 1280×800 and the other on a 390×844 phone (the sizes swap from game to
game, so each role is seen at both). Each table is seeded; the seed is chosen first on a
probe table played the same way through the service, so the dice bring the prompt the
scene answers (an attack that hits, a defence that fails). Screenshots of both sizes go
to docs/img (``talk-<game>-<who>-<size>.png``); axe-core finds nothing serious on either
page, and nothing at all on the new controls (the turn tracker's button, the one-click
answers, the sheet's buttons, "Edit the sheet" and the builder it opens).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.table.service import TableService

from .conftest import Site
from .test_accessibility import SIZES, _serious
from .test_browser import Person

pytestmark = [pytest.mark.slow, pytest.mark.timeout(420)]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "img"

_COUNT = itertools.count()
NEW_CONTROLS = (".turns", "#pending-top", ".sheet-edit", "#builder", ".sheet-box")


def _axe_new(page: Any) -> list[str]:
    """Every axe-core violation, whatever its impact, inside the new controls shown."""
    from axe_playwright_python.sync_playwright import Axe

    include = [[s] for s in NEW_CONTROLS if page.locator(s).first.is_visible()]
    if not include:
        return []
    found = Axe().run(page, context={"include": include}).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}" for v in found]


def _clean(page: Any) -> None:
    assert _serious(page) == []
    assert _axe_new(page) == []


def _table(site: Site, game: str, seed: int, seats: tuple[tuple[str, str | None], ...]) -> Any:
    """A seeded table of ``game``: Ron referees, Ann plays; the examples seated."""
    svc: TableService = site.service
    name = f"talk-{game}-{seed}-{next(_COUNT)}"
    svc.create(game, name, "Ron", seed=seed)
    svc.join(name, "Ann", "player")
    ids: dict[str, str] = {}
    for example, owner in seats:
        before = set(svc.load(svc.table(name).id).state.characters)
        svc.add_character(name, example, owner=owner, force=True)
        ids[example] = (set(svc.load(svc.table(name).id).state.characters) - before).pop()
    return name, ids


def _seed(site: Site, game: str, seats: Any, probe: Callable[[str, dict[str, str]], bool]) -> int:
    """The first seed whose dice bring what the scene answers (played on a probe table)."""
    for seed in range(3400, 3460):
        name, ids = _table(site, game, seed, seats)
        if probe(name, ids):
            return seed
    raise AssertionError(f"no seed in 60 brings the {game} scene's prompts")


def _people(
    browser: Any, site: Site, name: str, ron_size: str, ann_size: str
) -> tuple[Person, Person]:
    tid = site.service.table(name).id
    ron = Person(browser, site, site.tokens.issue(tid, "Ron")[0], viewport=SIZES[ron_size])
    ann = Person(browser, site, site.tokens.issue(tid, "Ann")[0], viewport=SIZES[ann_size])
    return ron, ann


def _newest(page: Any) -> int:
    seqs = page.locator("#log li.entry").evaluate_all("els => els.map(e => Number(e.dataset.seq))")
    return max(seqs or [0])


def _wait_after(page: Any, seq: int, kind: str = "") -> None:
    sel = f"[data-kind='{kind}']" if kind else ""
    page.wait_for_function(
        f"() => [...document.querySelectorAll('#log li.entry{sel}')]"
        f".some(e => Number(e.dataset.seq) > {seq})"
    )


def _tab(page: Any, tab: str) -> None:
    """On a phone, the section's tab (on a desktop every section is in sight)."""
    button = page.locator(f"#tab-{tab}")
    if button.is_visible():
        button.click()


def _sheet_roll(page: Any, actor: str, label: str) -> Any:
    """One click on the sheet's ``label``: its action's form, odds shown; Roll rolls."""
    _tab(page, "sheets")
    page.locator(
        f"article.card[data-cid='{actor}'] button.sheet-roll", has_text=label
    ).first.click()
    form = page.locator(f"section.actpanel[data-actor='{actor}'] form.action:not([hidden])")
    form.locator(".preview .chance").wait_for()
    return form


def _roll(page: Any, form: Any) -> None:
    seq = _newest(page)
    form.locator("button[type=submit]").click()
    _wait_after(page, seq)


def _chat(page: Any, line: str) -> None:
    _tab(page, "chat")
    box = page.locator("#chat-text")
    box.click()
    box.press_sequentially(line, delay=5)
    page.locator("#chat-cmd", has_text="Enter rolls").wait_for()
    seq = _newest(page)
    box.press("Enter")
    _wait_after(page, seq)
    # the log's push may come before the command's own answer, which empties the box
    page.wait_for_function("() => document.querySelector('#chat-text').value === ''")


def _answer(page: Any, action: str) -> str:
    """One click on the prompt's answer ``action``: its odds read first."""
    _tab(page, "actions")
    button = page.locator(f"#pending-top button.answer-now[data-action='{action}']").first
    button.wait_for()
    odds = button.locator(".answer-odds").inner_text()
    seq = _newest(page)
    button.click()
    _wait_after(page, seq)
    return odds


def _advance(page: Any, action: str) -> None:
    """The referee's one click on the turn tracker."""
    _tab(page, "table")
    button = page.locator(f"button.turn-advance[data-action='{action}']")
    seq = _newest(page)
    button.click()
    _wait_after(page, seq)


def _shots(game: str, ron: Person, ann: Person, ron_size: str, ann_size: str) -> None:
    _tab(ron.page, "log")
    _tab(ann.page, "log")
    ron.page.screenshot(path=str(DOCS / f"talk-{game}-referee-{ron_size}.png"))
    ann.page.screenshot(path=str(DOCS / f"talk-{game}-player-{ann_size}.png"))


def test_arm_a_melee_exchange_at_the_speed_of_talk(browser: Any, site: Site) -> None:
    """Ron (phone) starts the round from the tracker; Ann (desktop) attacks with Alex's
    sword from the sheet; Ron defends Brad with one click on the prompt; Ann strikes
    with one click on hers."""
    seats = (("alex", "Ann"), ("brad", None))
    svc = site.service

    def probe(name: str, ids: dict[str, str]) -> bool:
        svc.act(name, "Ron", "next-round", {})
        svc.act(
            name, "Ann", "attack", {"actor": ids["alex"], "target": ids["brad"], "weapon": "Sword"}
        )
        if not any(a.action == "defend" for row in svc.answers(name, "Ron") for a in row):
            return False
        svc.act(name, "Ron", "defend", {"actor": ids["brad"]})
        return any(a.action == "strike" for row in svc.answers(name, "Ann") for a in row)

    seed = _seed(site, "arm", seats, probe)
    name, ids = _table(site, "arm", seed, seats)
    ron, ann = _people(browser, site, name, "phone", "desktop")
    try:
        _advance(ron.page, "next-round")
        form = _sheet_roll(ann.page, ids["alex"], "Sword")
        assert form.get_attribute("data-action") == "attack"
        assert form.locator("[data-field='target']").input_value() == ids["brad"]
        _roll(ann.page, form)
        odds = _answer(ron.page, "defend")
        assert "chance of success" in odds
        _clean(ron.page)
        assert "chance of success" in _answer(ann.page, "strike")
        _clean(ann.page)
        _shots("arm", ron, ann, "phone", "desktop")
        assert ron.errors == [] and ann.errors == []
    finally:
        ron.close()
        ann.close()


def test_mongrel_an_attack_from_the_chat_answered_in_one_click(browser: Any, site: Site) -> None:
    """Ann (phone) rolls a task from Vooruk's sheet; Ron (desktop) starts the conflict
    from the tracker; Ann attacks Giazza from the chat; Ron answers for Giazza on the
    prompt."""
    seats = (("vooruk", "Ann"), ("giazza", None))
    name, ids = _table(site, "mongrel", 3400, seats)
    ron, ann = _people(browser, site, name, "desktop", "phone")
    try:
        form = _sheet_roll(ann.page, ids["vooruk"], "Athletics")  # before the fight: a task
        _roll(ann.page, form)
        _advance(ron.page, "start-conflict")
        ron.page.locator(".turns .turn.now").wait_for()
        _chat(ann.page, "/attack giazza Rend")
        _tab(ron.page, "actions")
        top = ron.page.locator("#pending-top")
        top.locator(".decision").first.wait_for()
        now = top.locator("button.answer-now")
        seq = _newest(ron.page)
        if now.count():
            now.first.click()
        else:  # a proposal the defender decides: its one button
            top.locator(".decide-form button[type=submit], .decision button.primary").first.click()
        _wait_after(ron.page, seq)
        _clean(ron.page)
        _clean(ann.page)
        _shots("mongrel", ron, ann, "desktop", "phone")
        assert ron.errors == [] and ann.errors == []
    finally:
        ron.close()
        ann.close()


def test_mneme_a_skill_check_and_an_attack_from_sheet_and_chat(browser: Any, site: Site) -> None:
    """Ann (phone) checks Gun Combat from Ada's sheet (one click opens it with its
    characteristic and odds), attacks the raider from the chat; Ron (desktop) passes a
    round from the tracker."""
    seats = (("ada", "Ann"), ("raider", None))
    name, ids = _table(site, "mneme", 3400, seats)
    ron, ann = _people(browser, site, name, "desktop", "phone")
    try:
        form = _sheet_roll(ann.page, ids["ada"], "Gun Combat")
        assert form.get_attribute("data-action") == "check"
        assert form.locator("[data-field='characteristic']").input_value() == "Dex"
        assert form.locator("[data-field='skill']").input_value() == "Gun Combat"
        _roll(ann.page, form)
        _chat(ann.page, "/attack raider Automatic Rifle")
        _advance(ron.page, "pass-rounds")
        _clean(ron.page)
        _clean(ann.page)
        _shots("mneme", ron, ann, "desktop", "phone")
        assert ron.errors == [] and ann.errors == []
    finally:
        ron.close()
        ann.close()


def test_mnemonic_checks_from_sheet_and_chat_and_the_sheet_edited_in_its_form(
    browser: Any, site: Site
) -> None:
    """Ron (phone) rolls for the weather from the chat; Ann (desktop) checks Agile from
    her sheet, Tough from the chat, and opens "Edit the sheet": the builder, filled in."""
    seats = (("boxer", "Ann"), ("frigate", None))
    name, ids = _table(site, "mnemonic", 3400, seats)
    ron, ann = _people(browser, site, name, "phone", "desktop")
    try:
        _chat(ron.page, "/r 2d6 the weather")
        form = _sheet_roll(ann.page, ids["boxer"], "Agile")
        _roll(ann.page, form)
        _chat(ann.page, "/sheet-check Tough")
        page = ann.page
        page.locator(f"article.card[data-cid='{ids['boxer']}'] button.edit-sheet").click()
        page.wait_for_function(
            "() => document.getElementById('bd-verdict').textContent.includes('ready to save')"
        )
        assert page.locator("#sheets textarea").count() == 0
        page.locator("#add-char").screenshot(path=str(DOCS / "builder-edit-desktop.png"))
        _clean(ann.page)
        _clean(ron.page)
        _shots("mnemonic", ron, ann, "phone", "desktop")
        assert ron.errors == [] and ann.errors == []
    finally:
        ron.close()
        ann.close()
