"""Table talk and the recap on the web: whispers in the API and on the WebSocket, the chat
panel and the log's filter in three browsers, the recap's answers.

The table of ``tests/web/conftest.py``: Ron referees, Ann and Ben play, Obi observes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

if TYPE_CHECKING:
    from tests.web.conftest import Connect, LiveSocket, Site, Table

from .test_browser import Person as BrowserPerson

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")


# -- the API and the socket ---------------------------------------------------------------


def _socket(site: Site, table: Table, who: str, ws_connect: Connect) -> LiveSocket:
    ws = ws_connect(f"{site.ws_base}/ws/tables/{table.id}", additional_headers=table.auth(who))
    while json.loads(ws.recv(timeout=10)).get("type") != "live":
        pass
    return ws


def _until(ws: LiveSocket, seq: int) -> list[dict[str, Any]]:
    """Every event message up to ``seq``."""
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["event"]["seq"] < seq:
        msg = json.loads(ws.recv(timeout=10))
        if msg.get("type") == "event":
            seen.append(msg)
    return seen


def test_chat_lines_and_whispers_reach_exactly_who_they_are_for(
    site: Site, table: Table, ws_connect: Connect
) -> None:
    people = ("Ron", "Ann", "Ben", "Obi")
    sockets = {who: _socket(site, table, who, ws_connect) for who in people}
    base = f"/api/tables/{table.id}/notes"
    sent = {}
    with site.client(table.tokens["Ann"]) as ann, site.client(table.tokens["Ben"]) as ben:
        for key, http, body in (
            ("hello", ann, {"text": "Evening, everyone"}),
            (
                "whisper",
                ann,
                {"text": "psst: the ledger is fake", "visibility": "private", "to": "Ben"},
            ),
            ("to-ref", ben, {"text": "I pocket the ledger", "visibility": "private", "to": "Ron"}),
        ):
            r = http.post(base, json=body)
            assert r.status_code == 201, r.text
            sent[key] = r.json()["seq"]
    with site.client(table.tokens["Ron"]) as ron:
        r = ron.post(base, json={"text": "the referees' aside", "visibility": "referee"})
        assert r.status_code == 201
        sent["aside"] = r.json()["seq"]
    last = max(sent.values())
    frames = {}
    for who, ws in sockets.items():
        messages = {m["event"]["seq"]: m for m in _until(ws, last)}
        frames[who] = "".join(ws.frames)
        assert set(messages) >= set(sent.values())  # every participant hears that it happened
        hello = messages[sent["hello"]]
        assert hello["event"]["payload"]["text"] == "Evening, everyone"
        assert 'data-group="chat"' in hello["html"]
        ws.close()

    # the whisper Ann -> Ben: Ann, Ben and the referee; never Obi (not a byte of it)
    for who in ("Ron", "Ann", "Ben"):
        assert "the ledger is fake" in frames[who]
    assert "ledger is fake" not in frames["Obi"] and "psst" not in frames["Obi"]
    # Ben -> the referee: Ben and Ron only
    assert "I pocket the ledger" in frames["Ron"] and "I pocket the ledger" in frames["Ben"]
    assert "pocket" not in frames["Ann"] and "pocket" not in frames["Obi"]
    # the referees-only aside: Ron alone
    assert "aside" in frames["Ron"]
    assert all("referees' aside" not in frames[w] for w in ("Ann", "Ben", "Obi"))

    # the entry each one got is marked as a whisper and names its addressee, or is redacted
    with site.client(table.tokens["Obi"]) as obi:
        hidden = next(
            e for e in obi.get(f"/api/tables/{table.id}/log").json() if e["seq"] == sent["whisper"]
        )
    assert hidden["redacted"] is True and "actor" not in hidden and "payload" not in hidden
    with site.client(table.tokens["Ben"]) as ben:
        shown = next(
            e for e in ben.get(f"/api/tables/{table.id}/log").json() if e["seq"] == sent["whisper"]
        )
    assert (shown["actor"], shown["visibility"], shown["audience"]) == ("Ann", "private", "Ben")


def test_the_recap_over_http_is_the_callers_own_view(site: Site, table: Table) -> None:
    tid = table.id
    with site.client(table.tokens["Ron"]) as ron:
        r = ron.post(
            f"/api/tables/{tid}/actions",
            json={
                "action": "check",
                "fields": {"aptitude": 7},
                "visibility": "referee",
                "faces": [3],
            },
        )
        assert r.status_code == 201, r.text
        ron.post(
            f"/api/tables/{tid}/notes",
            json={"text": "for Ann's ears", "visibility": "private", "to": "Ann"},
        )
        ron_md = ron.get(f"/api/tables/{tid}/recap")
        ron_html = ron.get(f"/api/tables/{tid}/recap", params={"format": "html"})
        bad = ron.get(f"/api/tables/{tid}/recap", params={"format": "pdf"})
    assert ron_md.status_code == 200 and ron_md.headers["content-type"].startswith("text/markdown")
    assert "as Ron (referee) sees it" in ron_md.text
    assert "chance of success 7/12 (58.33%)" in ron_md.text  # d12 <= 7
    assert "for Ann's ears" in ron_md.text
    assert ron_html.headers["content-type"].startswith("text/html")
    csp = ron_html.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src" not in csp and "'sha256-" in csp
    assert ron_html.text.startswith("<!doctype html>") and "<script" not in ron_html.text
    assert bad.status_code == 422 and "format" in bad.json()["detail"]

    with site.client(table.tokens["Ben"]) as ben:
        ben_md = ben.get(f"/api/tables/{tid}/recap").text
    assert "as Ben (player) sees it" in ben_md
    assert "**Ron** rolled in secret" in ben_md and "7/12" not in ben_md
    assert "Ann's ears" not in ben_md

    with httpx.Client(base_url=site.base) as anyone:
        assert anyone.get(f"/api/tables/{tid}/recap").status_code == 401
        page = anyone.get(f"/t/{tid}/recap", headers={"accept": "text/html"})
        assert page.status_code == 401 and "invite link" in page.text
    with httpx.Client(base_url=site.base, cookies={f"referee_{tid}": table.tokens["Ann"]}) as b:
        page = b.get(f"/t/{tid}/recap", headers={"accept": "text/html"})
        table_page = b.get(f"/t/{tid}", headers={"accept": "text/html"}).text
    assert page.status_code == 200 and '<article class="recap">' in page.text
    assert "for Ann&#39;s ears" in page.text and "as Ann (player) sees it" in page.text
    assert f'href="/t/{tid}/recap"' in table_page


# -- three browsers -----------------------------------------------------------------------


class Person(BrowserPerson):
    """A participant's page (``test_browser.Person``), who talks in the chat."""

    def say(self, text: str, to: str = "") -> None:
        page = self.page
        page.select_option("#chat-to", to)
        page.locator("#chat-text").fill(text)
        page.locator("#chat-text").press("Enter")
        page.locator("#chat-list .msg.mine", has_text=text).wait_for()

    def messages(self) -> list[str]:
        return [t.strip() for t in self.page.locator("#chat-list .msg .msg-text").all_inner_texts()]


def _shown(page: Any, selector: str) -> int:
    return int(page.locator(selector).evaluate_all("els => els.filter(e => e.offsetParent).length"))


@pytest.mark.timeout(300)
def test_chat_and_the_log_filter_in_three_browsers(
    browser: Any, site: Site, table: Table, artifacts: Path
) -> None:
    ron = Person(browser, site, table.tokens["Ron"], viewport={"width": 1280, "height": 800})
    ann = Person(browser, site, table.tokens["Ann"], viewport={"width": 1280, "height": 800})
    ben = Person(
        browser, site, table.tokens["Ben"], viewport={"width": 390, "height": 844}, is_mobile=True
    )
    try:
        # a roll first, for the filter
        with site.client(table.tokens["Ann"]) as http:
            r = http.post(
                f"/api/tables/{table.id}/actions",
                json={
                    "action": "sheet-check",
                    "fields": {"actor": "mickey-ruane", "talent": "Tough"},
                },
            )
            assert r.status_code == 201
        ann.page.locator("#log li.kind-action-resolved").wait_for()

        # to everyone: Enter sends, each browser shows it live; Ben's phone marks the tab
        ron.say("The fog rolls in over the docks. What do you do?")
        for person in (ann, ben):
            person.page.locator("#chat-list .msg", has_text="The fog rolls in").wait_for(
                state="attached"
            )
        tab = ben.page.locator("#tab-chat")
        tab.locator(".unread", has_text="1").wait_for()
        assert tab.get_attribute("aria-label") == "Chat, 1 unread"
        assert not ben.page.locator("#chat-pane").is_visible()
        ben.page.locator("#tab-log").focus()
        ben.page.keyboard.press("ArrowLeft")  # the Chat tab, from the keyboard
        assert ben.page.evaluate("document.activeElement.id") == "tab-chat"
        assert ben.page.locator("#chat-pane").is_visible()
        assert tab.locator(".unread").count() == 0 and tab.get_attribute("aria-label") == "Chat"

        # a whisper from the referee to Ann: exactly the two see it, marked as a whisper
        ron.say("Your hands are shaking.", to="Ann")
        mine = ron.page.locator("#chat-list .msg.whisper", has_text="Your hands are shaking.")
        assert "whisper to Ann" in mine.inner_text()
        got = ann.page.locator("#chat-list .msg.whisper", has_text="Your hands are shaking.")
        got.wait_for()
        assert "whisper to you" in got.inner_text() and "Ron" in got.inner_text()
        # Ben answers everyone; once his own line is in, the whisper had its chance to come
        ben.say("Ben keeps watch by the crates.")
        for person in (ron, ann):
            person.page.locator("#chat-list .msg", has_text="Ben keeps watch").wait_for()
        ann.say("Mickey asks the harbourmaster about the ledger.")
        ben.page.locator("#chat-list .msg", has_text="harbourmaster").wait_for()
        assert "Your hands are shaking." not in ben.messages()
        assert not any("hands are shaking" in f for f in ben.frames)
        assert any("hands are shaking" in f for f in ann.frames)

        # a player to the referee: Ron and Ben, not Ann
        ben.say("I pocket the ledger.", to="@referee")
        ron.page.locator("#chat-list .msg.whisper", has_text="I pocket the ledger.").wait_for()
        assert (
            "whisper to you" in ron.page.locator("#chat-list .msg", has_text="pocket").inner_text()
        )
        ann.say("Let's go.")
        ben.page.locator("#chat-list .msg", has_text="Let's go.").wait_for()
        assert "I pocket the ledger." not in ann.messages()
        assert not any("pocket the ledger" in f for f in ann.frames)
        assert ron.messages()[-4:] == [
            "Ben keeps watch by the crates.",
            "Mickey asks the harbourmaster about the ledger.",
            "I pocket the ledger.",
            "Let's go.",
        ]
        # the newest message is scrolled into view
        assert ron.page.locator("#chat-list").evaluate(
            "l => l.scrollHeight - l.scrollTop - l.clientHeight < 5"
        )

        # the log's filter: rolls only, chat only, from the keyboard, kept per table
        page = ann.page
        total = _shown(page, "#log li.entry")
        rolls = page.locator("#log li[data-group='roll']").count()
        chats = page.locator("#log li[data-group='chat']").count()
        assert rolls == 1 and chats == 5  # Ben's aside to the referee is not hers to see
        page.locator("#log-filter input[value='roll']").check()
        assert _shown(page, "#log li.entry") == 1
        assert _shown(page, "#log li.kind-action-resolved") == 1
        page.locator("#log-filter input[value='roll']").focus()
        page.keyboard.press("ArrowRight")  # radio buttons: the arrow picks the next one
        assert page.locator("#log-filter input[value='chat']").is_checked()
        assert _shown(page, "#log li.entry") == chats
        assert _shown(page, "#log li.kind-note") == chats
        key = f"referee.logFilter.{table.id}"
        assert page.evaluate(f"localStorage.getItem('{key}')") == "chat"
        page.reload()
        page.wait_for_selector("#conn.live")
        assert page.locator("#log-filter input[value='chat']").is_checked()
        assert _shown(page, "#log li.entry") == chats
        ann.say("One more, while filtered.")  # new entries follow the filter too
        ron.page.locator("#chat-list .msg", has_text="while filtered").wait_for()
        page.locator("#log li.kind-note", has_text="while filtered").wait_for()
        assert _shown(page, "#log li.entry") == chats + 1
        page.locator("#log-filter input[value='all']").check()
        assert _shown(page, "#log li.entry") == total + 1

        # the pictures of the docs (docs/img holds the ones taken here and looked at)
        ron.page.locator("#chat-text").fill("Roll me a Tough check, Mickey.")
        ron.page.screenshot(path=str(artifacts / "chat.png"))
        ben.page.screenshot(path=str(artifacts / "phone-chat.png"))
        recap = ron.context.new_page()
        recap.set_viewport_size({"width": 1280, "height": 800})
        recap.goto(f"{site.base}/t/{table.id}/recap")
        recap.locator("article.recap").wait_for()
        assert "chance of success 2/3 (66.67%)" in recap.locator("article.recap").inner_text()
        recap.screenshot(path=str(artifacts / "recap.png"))
        for person in (ron, ann, ben):
            assert person.errors == []
    finally:
        for person in (ron, ann, ben):
            person.close()
