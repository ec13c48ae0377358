"""The chat's commands over HTTP and the sheet's roll buttons (issue 34, items 1 and 2):
a line is read as the action panel would send it, taken through the table's service
with the same checks, and refused in words naming the word at fault."""

from __future__ import annotations

import re
from typing import Any

import pytest

from referee.systems.base import get
from referee.systems.records import describe_fields
from referee.web.api import contract_games

from .conftest import Site, Table, make_table


def _post(site: Site, table: Table, who: str, line: str, **more: Any) -> Any:
    with site.client(table.tokens[who]) as http:
        return http.post(f"/api/tables/{table.id}/commands", json={"line": line, **more})


def test_a_line_is_read_with_its_completions_before_it_is_sent(site: Site, table: Table) -> None:
    r = _post(site, table, "Ann", "/sheet-check Agile")
    assert r.status_code == 200, r.text
    body = r.json()
    # Ann plays one character (Mickey Ruane): she acts as him unless the line says otherwise
    assert body["command"]["action"] == "sheet-check"
    assert body["command"]["fields"] == {"actor": "mickey-ruane", "talent": "Agile"}
    assert body["error"] is None
    r = _post(site, table, "Ann", "/sheet-check Ag")
    assert {"value": "Agile", "label": "talent"} in r.json()["options"]
    r = _post(site, table, "Ann", "/sh")
    assert [o["value"] for o in r.json()["options"]] == ["/sheet-check"]


def test_a_command_rolls_through_the_table_as_the_panel_does(site: Site, table: Table) -> None:
    r = _post(site, table, "Ann", "/sheet-check Agile", run=True)
    assert r.status_code == 201, r.text
    event = r.json()["event"]
    assert event["kind"] == "action-resolved"
    assert event["actor"] == "Ann" and event["visibility"] == "public"
    assert event["payload"]["fields"]["talent"] == "Agile"
    # the dice tray, blind: the player's own view of it hides the result
    r = _post(site, table, "Ann", "/br 3d6 a secret", run=True)
    assert r.status_code == 201, r.text
    assert r.json()["event"]["visibility"] == "blind"
    r = _post(site, table, "Ann", "/gr 2d6", run=True)
    assert r.json()["event"]["visibility"] == "private"
    r = _post(site, table, "Ron", "/gr 2d6", run=True)
    assert r.json()["event"]["visibility"] == "referee"


def test_the_same_checks_refuse_a_command(site: Site, table: Table) -> None:
    # another player's character: refused by the service, as from the panel
    r = _post(site, table, "Ann", "/sheet-check actor=swiftsure talent=Fast", run=True)
    assert r.status_code == 403, r.text
    # an observer takes no action
    r = _post(site, table, "Obi", "/r 2d6", run=True)
    assert r.status_code == 403, r.text


def test_a_line_that_cannot_be_read_names_the_word(site: Site, table: Table) -> None:
    r = _post(site, table, "Ann", "/sheet-check Agile zzz qqq 7 8 9", run=True)
    assert r.status_code == 422
    body = r.json()
    assert body["kind"] == "command" and body["word"] >= 3
    assert "no field of /sheet-check left takes it" in body["detail"]
    r = _post(site, table, "Ann", "/sheet-chek Agile")
    assert r.status_code == 200
    assert r.json()["command"] is None
    assert r.json()["error"]["detail"].startswith("/sheet-chek: no such command")
    with site.client(table.tokens["Ann"]) as http:
        r = http.post(f"/api/tables/{table.id}/commands", json={"line": "x" * 1001})
    assert r.status_code == 422  # the body's bound, a 422 in words (no traceback)


@pytest.mark.parametrize("game", ["mongrel", "mneme", "arm"])
def test_every_game_takes_a_roll_from_the_chat(site: Site, game: str) -> None:
    table = make_table(site, game, name=f"cmd-{game}")
    with site.client(table.tokens["Ron"]) as http:
        r = http.post(f"/api/tables/{table.id}/commands", json={"line": "/r 2d6+1", "run": True})
    assert r.status_code == 201, r.text
    assert r.json()["event"]["payload"]["fields"]["dice"] == "2d6+1"


# ---------------------------------------------------------------------------
# the sheets' roll declarations


@pytest.mark.parametrize("game", ["mnemonic", "mongrel", "mneme", "arm"])
def test_every_sheet_roll_names_an_action_and_its_declared_fields(game: str) -> None:
    rules = get(game)
    options = rules.options_type()
    actions = rules.every_action()
    found = 0
    for _cid, sheet in rules.examples().items():
        view = rules.sheet_view(sheet, None, options)
        for roll in view.every_roll():
            found += 1
            assert roll.action in actions, roll
            described = {d["name"]: d for d in describe_fields(actions[roll.action])}
            assert "actor" in described
            for path, value in roll.fields:
                top = described[path.split(".")[0]]
                choices = top.get("choices")
                if choices:
                    assert value in choices, (roll, choices)
    assert found >= 4


def test_the_sheet_rolls_of_each_game_are_the_ones_the_rules_read() -> None:
    rolled = {}
    for game, rules in contract_games():
        sheet = next(iter(rules.examples().values()))
        view = rules.sheet_view(sheet, None, rules.options_type())
        rolled[game] = sorted({(r.action, f) for r in view.every_roll() for f, _ in r.fields})
        if game == "mongrel":  # Occult is worked as sorcery: the occult action, nothing filled
            assert any(r.action == "occult" and not r.fields for r in view.every_roll())
    assert rolled == {
        "mnemonic": [("sheet-check", "life_role"), ("sheet-check", "talent")],
        "mongrel": [("task", "attribute"), ("task", "expertise"), ("task", "power")],
        "mneme": [("attack", "weapon"), ("check", "characteristic"), ("check", "skill")],
        "arm": [("attack", "weapon"), ("task", "stat")],
    }


def test_the_card_shows_roll_buttons_only_to_who_acts_for_it(site: Site, table: Table) -> None:
    def page(who: str) -> str:
        with site.client(table.tokens[who]) as http:
            r = http.get(f"/t/{table.id}", headers={"accept": "text/html"})
            assert r.status_code == 200, r.text
            return r.text

    ann = page("Ann")
    buttons = re.findall(r'<button type="button" class="sheet-roll" data-actor="([^"]+)"', ann)
    assert buttons and set(buttons) == {"mickey-ruane"}
    assert 'aria-label="Agile: sheet check"' in ann
    assert "sheet-roll" not in page("Obi")
    ron = re.findall(r'class="sheet-roll" data-actor="([^"]+)"', page("Ron"))
    assert set(ron) == {"mickey-ruane", "swiftsure"}
