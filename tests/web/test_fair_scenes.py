"""A fair table in the browser (issue 32), a scene per game: a player rolls the dice
tray, asks to take the roll back (it waits: the referee's default), the referee takes it
back with one click; the player finds no physical-dice box (only the referee types dice
by default), the referee allows typed dice with approval, the player types them and the
referee approves. At ARM, a roll held for its push decision holds only its roller:
the other player and the referee act, and the roller answers on the prompt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.systems.base import names

from .conftest import Site, make_table
from .test_browser import Person

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

EXAMPLES = {
    "mnemonic": ("boxer", "frigate"),
    "mongrel": ("vooruk", "giazza"),
    "mneme": ("ada", "tess"),
    "arm": ("alex", "brad"),
}


def _seat(site: Site, tid: str, ron: dict[str, str], game: str) -> list[str]:
    seated = list(site.service.load(tid).state.characters)
    if seated:  # make_table seats Mnemonic's examples itself
        return seated
    ids = []
    with site.client() as http:
        for example, owner in zip(EXAMPLES[game], ("Ann", "Ben"), strict=True):
            r = http.post(
                f"/api/tables/{tid}/characters",
                json={"example": example, "owner": owner, "force": True},
                headers=ron,
            )
            assert r.status_code == 201, r.text
            ids.append(r.json()["event"]["payload"]["id"])
    return ids


def _tray_roll(person: Person, dice: str, faces: str = "") -> None:
    form = person.page.locator("section.dice-tray form.action[data-action='roll']")
    form.locator("[data-field=dice]").fill(dice)
    if faces:
        form.locator("details.more").evaluate("d => { d.open = true; }")
        form.locator("[data-common=faces]").fill(faces)
    form.locator("button[type=submit]").click()
    person.page.wait_for_function(
        "f => (f.querySelector('.status') || {}).textContent", arg=form.element_handle()
    )


def _last(person: Person, kind: str) -> Any:
    found = person.page.locator(f"#log li.entry[data-kind='{kind}']").last
    found.wait_for(state="attached")
    return found


@pytest.mark.parametrize("game", sorted(names()))
def test_nobody_rerolls_alone(browser: Any, site: Site, game: str, artifacts: Path) -> None:
    table = make_table(site, game, f"Fair {game}", settings=None)
    _seat(site, table.id, table.auth("Ron"), game)
    ron = Person(browser, site, table.tokens["Ron"], viewport={"width": 1280, "height": 800})
    ann = Person(browser, site, table.tokens["Ann"], viewport={"width": 390, "height": 844})
    try:
        # Ann rolls, then asks to take it back: it waits for the referee
        ann.page.click("#tab-actions")
        _tray_roll(ann, "2d6")
        rolled = int(_last(ann, "action-resolved").get_attribute("data-seq") or 0)
        ann.page.click("#tab-log")
        ask = ann.page.locator("#undo")
        assert ask.inner_text() == "Ask to take back my last roll"
        ask.click()
        _last(ann, "request-made")
        assert "undone" not in (ann.entry(rolled).get_attribute("class") or "")
        # the referee sees the request with its buttons, and takes the roll back
        request = ron.page.locator("#pending-top .request")
        request.wait_for()
        assert "asks the referee to take back" in request.inner_text()
        ron.page.screenshot(path=str(artifacts / f"fair-{game}-request-referee.png"))
        request.locator("button.answer[data-grant=true]").click()
        _last(ann, "undo")
        ann.page.wait_for_function(
            "s => document.querySelector(`#log li[data-seq='${s}']`).classList.contains('undone')",
            arg=rolled,
        )
        assert "as #" in _last(ann, "undo").inner_text()
        # typed dice: nowhere to type them, and refused if sent
        ann.page.click("#tab-actions")
        tray = ann.page.locator("section.dice-tray")
        assert tray.locator("[data-common=faces]").count() == 0
        with site.client() as http:
            r = http.post(
                f"/api/tables/{table.id}/actions",
                json={"action": "roll", "fields": {"dice": "2d6"}, "faces": [6, 6]},
                headers=table.auth("Ann"),
            )
        assert r.status_code == 403 and "only the referee enters" in r.json()["detail"]
        # the referee lets players type dice with approval, in the Fair play panel
        ron.page.select_option("#ts-typed", "approval")
        ron.page.click("#table-settings button[type=submit]")
        _last(ann, "settings-changed")
        ann.page.reload()
        ann.page.wait_for_selector("#conn.live")
        ann.page.click("#tab-actions")
        _tray_roll(ann, "2d6", "6, 6")
        status = ann.page.locator("section.dice-tray form.action[data-action='roll'] .status")
        assert "wait for the referee's approval" in status.inner_text()
        approve = ron.page.locator("#pending-top .request button.answer[data-grant=true]")
        approve.wait_for()
        assert approve.inner_text() == "Approve"
        approve.click()
        # the approved roll is a new entry: wait for it, not the last one before it
        entry = ann.page.locator(
            "#log li.entry[data-kind='action-resolved']", has_text="approved by Ron"
        ).last
        entry.wait_for(state="attached")
        ann.page.click("#tab-log")
        assert "approved by Ron" in entry.inner_text()
        ann.page.screenshot(path=str(artifacts / f"fair-{game}-approved-phone.png"))
        assert not ann.errors and not ron.errors, (ann.errors, ron.errors)
    finally:
        ann.close()
        ron.close()


def test_an_arm_held_roll_holds_only_its_roller(browser: Any, site: Site, artifacts: Path) -> None:
    table = make_table(site, "arm", "Held", settings=None)
    ron_auth = table.auth("Ron")
    with site.client() as http:
        r = http.put(
            f"/api/tables/{table.id}/options", json={"options": {"pushing": True}}, headers=ron_auth
        )
        assert r.status_code == 200, r.text
    alex, brad = _seat(site, table.id, ron_auth, "arm")
    ann = Person(browser, site, table.tokens["Ann"], viewport={"width": 1280, "height": 800})
    ben = Person(browser, site, table.tokens["Ben"], viewport={"width": 390, "height": 844})
    try:
        task = {"stat": "Fitness", "difficulty": 6}
        with site.client() as http:
            held = http.post(
                f"/api/tables/{table.id}/actions",
                json={"action": "task", "fields": {**task, "actor": alex}},
                headers=table.auth("Ann"),
            )
            assert (
                held.status_code == 201
                and held.json()["event"]["payload"]["outcome"]["details"]["waiting"]
            )
            # the other player and the referee act while Alex's roll waits
            other = http.post(
                f"/api/tables/{table.id}/actions",
                json={"action": "task", "fields": {**task, "actor": brad, "push": "never"}},
                headers=table.auth("Ben"),
            )
            assert other.status_code == 201, other.text
            time_moves = http.post(
                f"/api/tables/{table.id}/actions",
                json={"action": "next-round", "fields": {}},
                headers=ron_auth,
            )
            assert time_moves.status_code == 201, time_moves.text
            again = http.post(
                f"/api/tables/{table.id}/actions",
                json={"action": "task", "fields": {**task, "actor": alex}},
                headers=table.auth("Ann"),
            )
            assert again.status_code == 422 and "waiting for Alex" in again.json()["detail"]
        # Ben's page shows his roll resolved; Ann's prompt offers push or accept
        _last(ben, "action-resolved")
        prompt = ann.page.locator("#pending-top .decision").first
        prompt.wait_for()
        assert "push it" in prompt.inner_text()
        ann.page.screenshot(path=str(artifacts / "fair-arm-held-roller.png"))
        ann.page.locator("#pending-top button.answer-now[data-action=accept]").click()  # one click
        ann.page.wait_for_function("() => !document.querySelector('#pending-top .decision')")
        assert not ann.errors and not ben.errors
    finally:
        ann.close()
        ben.close()


def test_a_hidden_choice_is_said_on_the_button_and_not_kept(browser: Any, site: Site) -> None:
    """Ann's next 2d6 went out blind, Ben's next message "only me", unnoticed: the Roll
    and Send buttons now say who will see, and each choice returns to everyone after use."""
    table = make_table(site, "mnemonic", "Choices")
    ann = Person(browser, site, table.tokens["Ann"], viewport={"width": 1280, "height": 800})
    try:
        tray = ann.page.locator("section.dice-tray form.action[data-action='roll']")
        roll = tray.locator("button[type=submit]")
        tray.locator("[data-field=dice]").fill("2d6")
        tray.locator("[data-common=visibility]").select_option("blind")
        assert roll.inner_text() == "Roll blind"
        roll.click()
        _last(ann, "action-resolved")
        ann.page.wait_for_function("b => b.textContent === 'Roll'", arg=roll.element_handle())
        assert tray.locator("[data-common=visibility]").input_value() == "public"
        send = ann.page.locator("#chat-form button[type=submit]")
        ann.page.select_option("#chat-to", "Ben")
        assert send.inner_text() == "Send: Ben"
        ann.page.fill("#chat-form textarea", "psst")
        send.click()
        ann.page.wait_for_function("b => b.textContent === 'Send'", arg=send.element_handle())
        assert ann.page.locator("#chat-to").input_value() == ""
        assert not ann.errors
    finally:
        ann.close()
