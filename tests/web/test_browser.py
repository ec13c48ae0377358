"""The table in real browsers: Playwright driving Debian's Chromium (no browser download).

A referee and two players in three browser contexts share one table over a
real uvicorn server. Skipped where /usr/bin/chromium is missing, unless
``REFEREE_REQUIRE_BROWSER=1`` (CI), when that fails the run. Screenshots of
the table page for every game go to ``$REFEREE_ARTIFACTS`` (default
``artifacts/``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.web.conftest import Site, Table


pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


class Person:
    """One participant's browser: a context of its own, the table page, its WebSocket frames."""

    def __init__(self, browser: Any, site: Site, token: str, **context: Any) -> None:
        self.context = browser.new_context(**context)
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(f"{site.base}/join/{token}")
        self.page.wait_for_url("**/t/*")
        self.page.wait_for_selector("#conn.live")

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(str(payload)))

    def entry(self, seq: int) -> Any:
        return self.page.locator(f"#log li[data-seq='{seq}']")

    def seqs(self) -> list[int]:
        return [
            int(s)
            for s in self.page.locator("#log li.entry").evaluate_all(
                "els => els.map(e => e.dataset.seq)"
            )
        ]

    def close(self) -> None:
        self.context.close()


def _panel(person: Person, actor: str) -> Any:
    page = person.page
    if page.locator("#act-as").is_visible():
        page.select_option("#act-as", actor)
    return page.locator(f"#panels section.actpanel[data-actor='{actor}']")


def _done_seq(form: Any) -> int:
    """The seq of the event a form's action appended, as its status says it."""
    status = form.locator(".status", has_text="event #")
    status.wait_for()
    found = re.search(r"event #(\d+)", status.inner_text())
    assert found, status.inner_text()
    return int(found.group(1))


def _form(panel: Any, action: str, more: bool = True) -> Any:
    """The form of ``action`` in a panel, chosen, with its "more" fold opened (``more``)."""
    panel.locator(".action-pick").select_option(action)
    form = panel.locator(f"form.action[data-action='{action}']")
    if more:
        form.locator("details.more").evaluate("d => { d.open = true; }")
    return form


def _cli_success(aptitude: int, chances: int) -> str:
    """P(success) as ``referee mnemonic odds --json`` prints it (the CLI's exact figure)."""
    code = "import sys; from referee.cli.main import run; sys.exit(run(sys.argv[1:]))"
    args = ["mnemonic", "odds", "-a", str(aptitude), "--chances", str(chances), "--json"]
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True
    )
    return str(json.loads(done.stdout)["p_success"])


def test_a_referee_and_two_players_share_one_table(
    browser: Any, site: Site, table: Table, artifacts: Path
) -> None:
    ron = Person(browser, site, table.tokens["Ron"])
    ann = Person(browser, site, table.tokens["Ann"])
    ben = Person(browser, site, table.tokens["Ben"], color_scheme="dark")
    try:
        # the odds preview follows the form, and is the CLI's exact figure
        form = _form(_panel(ann, "mickey-ruane"), "sheet-check")
        form.locator("[data-field='talent']").select_option("Tough")  # the sheet's Talents
        chance = form.locator(".preview .chance strong")
        form.locator(".preview .chance strong[data-success='2/3']").wait_for()
        assert chance.get_attribute("data-success") == _cli_success(8, 0) == "2/3"
        form.locator("[data-field='chances']").fill("-3")
        form.locator(".preview .chance strong[data-success='5/12']").wait_for()
        assert chance.inner_text() == "41.67%"
        assert _cli_success(8, -3) == "5/12"
        assert form.locator(".preview svg.chart rect").count() == 12

        # Ann rolls: the entry appears in the other two logs
        form.locator("button[type=submit]").click()
        rolled = _done_seq(form)
        for other in (ron, ben):
            entry = other.entry(rolled)
            entry.wait_for()
            assert "Mickey Ruane makes a Tough check" in entry.inner_text()
            assert entry.locator(".die").count() >= 1
            assert "Chances Poor (-3)" in entry.inner_text()

        # the referee's secret roll: its payload reaches neither player, in DOM or frames
        rform = _form(_panel(ron, "swiftsure"), "sheet-check")
        rform.locator("[data-field='talent']").select_option("Sturdy")
        rform.locator("[data-common='visibility']").select_option("referee")
        rform.locator("button[type=submit]").click()
        secret = _done_seq(rform)  # the status's seq: the log may show it a moment later
        salt = site.service.store.events(table.id, after=secret - 1, upto=secret)[0].salt
        for player in (ann, ben):
            entry = player.entry(secret)
            entry.wait_for()
            assert "redacted" in (entry.get_attribute("class") or "")
            assert "rolled in secret" in entry.inner_text()
            assert salt not in player.page.content()
            assert not any(salt in f for f in player.frames)
            assert any(f'"seq":{secret}' in f for f in player.frames)  # it did arrive, redacted
        assert "Swiftsure makes a Sturdy check" in ron.entry(secret).inner_text()

        # the referee undoes Ann's roll: every browser shows it undone
        ron.entry(rolled).locator("button.entry-do[data-what='undo']").click()
        for person in (ron, ann, ben):
            person.page.locator(f"#log li.undone[data-seq='{rolled}']").wait_for()

        # Ben reloads while Ann keeps rolling: he catches up, no gap, no duplicate
        with site.client(table.tokens["Ann"]) as http:
            ben.page.reload()
            for _ in range(3):
                http.post(f"/api/tables/{table.id}/notes", json={"text": "while Ben reloads"})
            ben.page.wait_for_selector("#conn.live")
            for _ in range(2):
                http.post(f"/api/tables/{table.id}/notes", json={"text": "after he is back"})
        head = site.service.load(table.id).seq
        ben.entry(head).wait_for()
        assert ben.seqs() == list(range(1, head + 1))
        ann.entry(head).wait_for()
        assert ann.seqs() == list(range(1, head + 1))

        # an invalid value shows its message before anything is rolled
        table_form = _form(ron.page.locator("section.table-actions"), "check")
        table_form.locator("[data-field='aptitude']").fill("13")
        alert = table_form.locator(".preview [role=alert]")
        alert.wait_for()
        assert "12" in alert.inner_text() and "13" in alert.inner_text()
        table_form.locator("button[type=submit]").click()
        table_form.locator(".status.bad").wait_for()
        assert "12" in table_form.locator(".status").inner_text()

        # a sheet file loads into the builder's form and is checked there, each broken
        # rule named (no JSON typed into the page)
        ann.page.locator("details.add-char > summary").click()
        ann.page.set_input_files(
            "#bd-file",
            files=[
                {
                    "name": "nell.json",
                    "mimeType": "application/json",
                    "buffer": b'{"name": "Nell", "primary_role": "x", "talents": {"Agile": 99}}',
                }
            ],
        )
        ann.page.locator("#bd-file-said", has_text="Loaded nell.json").wait_for()
        ann.page.locator("#bd-verdict", has_text="to fill in or fix").wait_for()
        assert ann.page.locator("#bd-seat").is_disabled()
        assert ann.page.locator("#builder [aria-invalid=true]").count() >= 1

        ron.page.screenshot(path=str(artifacts / "three-browsers-referee.png"), full_page=True)
        ann.page.screenshot(path=str(artifacts / "three-browsers-ann.png"), full_page=True)
        ben.page.screenshot(path=str(artifacts / "three-browsers-ben-dark.png"), full_page=True)
        for person in (ron, ann, ben):
            assert person.errors == []
    finally:
        for person in (ron, ann, ben):
            person.close()


def test_keyboard_and_phone(browser: Any, site: Site, table: Table, artifacts: Path) -> None:
    ann = Person(
        browser, site, table.tokens["Ann"], viewport={"width": 390, "height": 800}, is_mobile=True
    )
    try:
        page = ann.page
        assert page.locator("#sheets").is_visible() and not page.locator("#log-pane").is_visible()
        page.locator("#tab-sheets").focus()
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.id") == "tab-actions"
        assert page.locator("#actions").is_visible() and not page.locator("#sheets").is_visible()
        form = page.locator("#panels form.action:not([hidden])").first
        form.locator("[data-field='talent']").focus()  # a select of the sheet's Talents
        page.keyboard.type("Tough")  # type-ahead picks it
        form.locator(".preview .chance strong[data-success='2/3']").wait_for()
        form.locator("button[type=submit]").focus()
        page.keyboard.press("Enter")  # submits the form from the keyboard
        form.locator(".status", has_text="event #").wait_for()
        page.locator("#tab-actions").focus()
        page.keyboard.press("End")
        page.keyboard.press("ArrowLeft")
        assert page.locator("#log-pane").is_visible()
        entry = page.locator("#log li.kind-action-resolved").last
        entry.wait_for()
        assert page.locator(".log-region[role=log]").get_attribute("aria-live") == "polite"
        page.screenshot(path=str(artifacts / "phone-ann-log.png"))
    finally:
        ann.close()


def test_screenshots_of_every_game(
    browser: Any, site: Site, artifacts: Path, new_table: Any
) -> None:
    from referee.web.api import contract_games

    for game, rules in contract_games():
        made = new_table(site, game, f"shots-{game}")
        seated = site.service.load(made.id).state.characters
        for i, example in enumerate(() if seated else rules.examples()):
            site.service.add_character(
                made.id, example, owner="Ann" if i == 0 else "Ben", force=True
            )
        ron = Person(browser, site, made.tokens["Ron"], viewport={"width": 1400, "height": 1000})
        try:
            ron.page.wait_for_timeout(600)
            ron.page.screenshot(path=str(artifacts / f"table-{game}-light.png"))
            assert ron.errors == []
        finally:
            ron.close()
        for scheme, size in (
            ("dark", {"width": 1400, "height": 1000}),
            ("light", {"width": 390, "height": 800}),
        ):
            person = Person(browser, site, made.tokens["Ann"], viewport=size, color_scheme=scheme)
            try:
                person.page.wait_for_timeout(600)
                kind = "phone" if size["width"] < 500 else "desktop"
                person.page.screenshot(path=str(artifacts / f"table-{game}-{kind}-{scheme}.png"))
                assert person.errors == []
            finally:
                person.close()


def test_a_referee_runs_a_table_from_the_pages(browser: Any, site: Site, artifacts: Path) -> None:
    """Create a table with a house rule, invite a player, seat an example for her, correct
    the state by hand, roll in secret and reveal it, revoke the link - all by clicking."""
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{site.base}/")
        page.select_option("#c-game", "mnemonic")
        page.fill("#c-name", "Clicked")
        page.fill("#c-ref", "Rita")
        page.locator("details.options summary").click()
        box = page.locator("fieldset.game-options[data-game='mnemonic']")
        box.locator("[data-option='randomizer']").fill("3d12")
        page.click("#create button[type=submit]")
        page.locator("#create .status a.button").click()
        page.wait_for_selector("#conn.live")
        tid = page.locator("#main").get_attribute("data-table")
        assert site.service.load(tid).options.randomizer == "3d12"

        page.fill("#inv-name", "Ann")
        page.click("#invite button[type=submit]")
        link = page.locator("#inv-link")
        link.wait_for()
        assert "/join/" in link.input_value()
        ann = browser.new_context()
        ann_page = ann.new_page()
        ann_page.goto(link.input_value())
        ann_page.wait_for_selector("#conn.live")

        page.locator("details.add-char > summary").click()
        page.locator("#bd-owner option[value='Ann']").wait_for(state="attached")
        page.select_option("#bd-example", "boxer")
        page.select_option("#bd-owner", "Ann")
        page.locator("#bd-verdict", has_text="ready to seat").wait_for()
        page.click("#bd-seat")
        ann_page.locator("#cards article[data-cid='mickey-ruane']").wait_for()
        ann_page.locator("#panels section[data-actor='mickey-ruane']").wait_for()

        page.locator("#edit").evaluate("f => f.closest('details').open = true")
        page.select_option("#ed-field", "mickey-ruane|status.injuries")
        assert (
            "Mickey Ruane: "
            in page.locator("#ed-field option[value='mickey-ruane|status.injuries']").inner_text()
        )
        page.fill("#ed-value", "1")
        page.fill("#ed-reason", "fell down the stairs")
        page.click("#edit button[type=submit]")
        ann_page.locator("#log .kind-state-edited", has_text="fell down the stairs").wait_for()

        form = page.locator("section.table-actions form.action[data-action='check']")
        form.locator("[data-field='aptitude']").fill("6")
        form.locator("[data-common='visibility']").select_option("referee")
        form.locator("button[type=submit]").click()
        status = form.locator(".status")
        # the answer, or a refusal (said in the assertion): a loaded machine may take a while
        page.wait_for_function(
            "s => s.textContent.includes('event #') || s.classList.contains('bad')",
            arg=status.element_handle(),
            timeout=90_000,
        )
        assert "event #" in status.inner_text(), status.inner_text()
        secret = max(
            int(s)
            for s in page.locator("#log li.entry").evaluate_all(
                "els => els.map(e => e.dataset.seq)"
            )
        )
        hidden = ann_page.locator(f"#log li[data-seq='{secret}']")
        hidden.wait_for()
        assert "rolled in secret" in hidden.inner_text()
        page.locator(f"#log li[data-seq='{secret}'] button[data-what='reveal']").click()
        ann_page.locator(f"#log li[data-seq='{secret}']:not(.redacted) .faces").wait_for()

        ann_page.fill("#chat-text", "Ready when you are")
        ann_page.click("#chat-form button[type=submit]")
        page.locator("#log .kind-note", has_text="Ready when you are").wait_for()

        page.locator("#invites li", has_text="Ann").locator("button.revoke").click()
        page.locator("#invites li", has_text="Ann").locator(".badge", has_text="revoked").wait_for()
        ann_page.reload()
        assert "revoked" in ann_page.content() or "invite link" in ann_page.content()
        page.screenshot(path=str(artifacts / "referee-clicked-table.png"), full_page=True)
        assert errors == []
        ann.close()
    finally:
        context.close()


def test_a_pending_decision_is_a_button(
    browser: Any, site: Site, artifacts: Path, new_table: Any
) -> None:
    """Mongrel: a terminal hit on a collapsed character waits for its player's decision;
    the player's page shows the choices as buttons and answering clears them everywhere."""
    made = new_table(site, "mongrel", "Terminal")
    svc = site.service
    svc.add_character(made.id, "vooruk", owner="Ben", force=True)
    svc.add_character(made.id, "giazza", owner="Ann", force=True)
    svc.act(made.id, "Ron", "start-conflict", {})
    for effect in (5, 3, 2):  # the text's Giazza collapses (Ann keeps all the damage)
        asked = svc.act(made.id, "Ron", "take-damage", {"victim": "giazza", "effect": effect})
        svc.decide(made.id, asked.event.seq, {}, by="Ann")
    # then a terminal hit: whether Giazza shunts any to Beauty is Ann's choice, in her page
    asked = svc.act(made.id, "Ron", "take-damage", {"victim": "giazza", "effect": 1})
    ann = Person(browser, site, made.tokens["Ann"])
    ron = Person(browser, site, made.tokens["Ron"])
    try:
        proposal = ann.page.locator(f"#pending-top form.decide-form[data-seq='{asked.event.seq}']")
        proposal.wait_for()
        assert "waits for Giazza's choice (Ann answers)" in proposal.inner_text()
        assert ron.page.locator("#tracker .pending").inner_text().count("waits for Giazza") == 1
        proposal.get_by_label("shunt to beauty").fill("0")
        ann.page.screenshot(path=str(artifacts / "proposal-decision.png"), full_page=True)
        proposal.locator("button[type=submit]").click()
        # one click answers: each choice a button with what it does (no die decides either)
        choice = ann.page.locator(
            "#pending-top button.answer-now[data-action='spend-resolve-to-survive']"
        )
        choice.wait_for()
        assert ann.page.locator("#pending-top .decision").inner_text().startswith("Giazza")
        assert "no dice: " in choice.inner_text()
        ann.page.screenshot(path=str(artifacts / "pending-decision.png"), full_page=True)
        choice.click()
        ann.page.locator("#log-status", has_text="event #").wait_for()
        for person in (ann, ron):
            person.page.locator("#tracker .pending").wait_for(state="detached")
            person.page.locator("#pending-top .pending").wait_for(state="detached")
        assert "Infernal Resolve spent" in ron.page.locator("#log li.entry").last.inner_text()
    finally:
        ann.close()
        ron.close()


def test_the_dice_tray_in_the_page(browser: Any, site: Site, table: Table, artifacts: Path) -> None:
    """A player types dice as at any virtual table, sees the exact odds before rolling,
    and rolls for their eyes only: the referee's page and frames never get the result."""
    ann = Person(browser, site, table.tokens["Ann"], viewport={"width": 390, "height": 844})
    ron = Person(browser, site, table.tokens["Ron"])
    try:
        ann.page.locator("#tab-actions").click()
        tray = ann.page.locator("section.dice-tray form.action[data-action='roll']")
        tray.get_by_label("dice", exact=True).fill("2d6+1")
        preview = tray.locator(".preview")
        ann.page.wait_for_function(
            "el => el.innerHTML.includes('1/36')", arg=preview.element_handle()
        )  # 2 and 12 at 1/36: the exact odds as you type
        preview.scroll_into_view_if_needed()
        ann.page.screenshot(path=str(artifacts / "phone-dice-tray.png"), full_page=False)
        tray.locator("[data-common=visibility]").select_option("self")
        tray.locator("button[type=submit]").click()
        seq = _done_seq(tray)
        assert "2d6+1 =" in ann.entry(seq).inner_text()
        ron.entry(seq).wait_for()
        assert "only they see" in ron.entry(seq).inner_text()
        assert "2d6+1" not in ron.entry(seq).inner_text()
        assert not any("2d6+1" in f for f in ron.frames)
        assert ann.errors == [] and ron.errors == []
    finally:
        ann.close()
        ron.close()


def test_a_refusal_of_an_untouched_form_reads_as_what_to_fill_in(
    browser: Any, site: Site, new_table: Any
) -> None:
    """ARM's check with its defaults is refused until a stat (or total) is given: before
    the player has touched the form, the rules' words read muted, as a hint; once they
    edit it, a refusal is theirs to fix and reads as an error."""
    table = new_table(site, "arm")
    with site.client() as http:
        r = http.post(
            f"/api/tables/{table.id}/characters",
            json={"example": "alex", "owner": "Ann"},
            headers=table.auth("Ron"),
        )
        assert r.status_code == 201, r.text
    ann = Person(browser, site, table.tokens["Ann"])
    try:
        form = _form(_panel(ann, "alex"), "task", more=False)
        error = form.locator(".preview .error")
        error.wait_for()
        assert "give the stat rolled" in error.inner_text()
        muted = ann.page.locator(".muted").first.evaluate("e => getComputedStyle(e).color")
        style = "e => [getComputedStyle(e).color, getComputedStyle(e).fontWeight]"
        assert error.evaluate(style) == [muted, "400"]
        form.get_by_label("difficulty", exact=True).fill("7")  # edited: still no stat
        ann.page.wait_for_function(
            "el => getComputedStyle(el).fontWeight === '600'", arg=error.element_handle()
        )
        assert error.evaluate(style)[0] != muted
        assert ann.errors == []
    finally:
        ann.close()
