"""Each log entry as the table page and the live push draw it (:mod:`referee.web.entry`):
every kind of event said in words, everything people wrote escaped, a hidden event
saying nothing of what it hides, and every die drawn with what became of it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest

from referee.systems.base import JSONObject
from referee.table.events import Kind
from referee.table.service import TableService
from referee.table.store import Store
from referee.web.entry import entry_html
from referee.web.render import Renderer

RAW = "<b onclick=\"x\">Bo & 'Al'</b>"
"""Text someone typed that would be markup if it were not escaped."""

SAFE = "&lt;b onclick=&#34;x&#34;&gt;Bo &amp; &#39;Al&#39;&lt;/b&gt;"

PAYLOADS: dict[str, JSONObject] = {
    "table-created": {"game": "mneme", "seed": 7},
    "options-changed": {"options": {}},
    "sheets-shown": {"sheets": "everyone"},
    "settings-changed": {"settings": {"take_back": "ask", "true_odds": True}},
    "participant-joined": {"name": RAW, "role": "player"},
    "participant-left": {"name": RAW},
    "role-changed": {"name": RAW, "role": "observer"},
    "character-added": {
        "id": "bo",
        "sheet": {"name": RAW},
        "owner": RAW,
        "problems": [{"field": "aptitude", "message": RAW, "rule": "Mnemonic, Aptitude"}],
    },
    "character-updated": {"id": "bo", "sheet": {"name": RAW}},
    "character-removed": {"id": "bo", "names": {"bo": RAW}},
    "action-resolved": {"action": "roll", "fields": {"expression": "2d6"}, "outcome": {}},
    "action-failed": {
        "action": "check",
        "fields": {"aptitude": 5},
        "error": RAW,
        "system": "mnemonic",
    },
    "action-proposed": {
        "action": "check",
        "fields": {"aptitude": 5},
        "system": "mnemonic",
        "ask": {"difficulty": None, "chances": "Pat", "advantage": "PAT"},
    },
    "proposal-closed": {"seq": 3},
    "request-made": {"what": "approve", "faces": [3, 5], "action": "sheet-check"},
    "request-closed": {"request": 4, "withdrawn": True},
    "roll-requested": {
        "action": "sheet-check",
        "characters": ["bo", "al"],
        "difficulty": 12,
        "field": "Difficulty",
        "secret": True,
    },
    "roll-request-closed": {"roll_request": 4, "withdrawn": True},
    "state-edited": {"reason": RAW, "changes": [], "system": "mnemonic"},
    "note": {"text": RAW},
    "undo": {"seq": 3},
    "redo": {"seq": 3, "request": 4},
    "reveal": {"seq": 3},
}


def _event(kind: str, payload: JSONObject, **more: object) -> JSONObject:
    e: JSONObject = {
        "table": "t1",
        "seq": 9,
        "time": "2026-12-03T09:23:08.623+00:00",
        "actor": RAW,
        "kind": kind,
        "visibility": "public",
        "audience": None,
        "payload": payload,
        "rolls": [{"faces": [4, 2], "sides": 6, "kind": "system"}],
    }
    e.update(more)  # type: ignore[arg-type]
    return e


def _tags(html: str) -> list[str]:
    return re.findall(r"<(/?[a-z]+)", html)


def test_every_kind_of_event_is_said_in_words_with_what_people_wrote_escaped() -> None:
    assert set(PAYLOADS) == set(get_args(Kind))  # a new kind gets its words here
    for kind, payload in PAYLOADS.items():
        html = entry_html(_event(kind, payload))
        assert "something happened" not in html, kind
        assert "<b" not in html and 'onclick="' not in html, (kind, html)
        assert set(_tags(html)) <= {
            "li",
            "/li",
            "div",
            "/div",
            "span",
            "/span",
            "time",
            "/time",
            "p",
            "/p",
            "strong",
            "/strong",
            "a",
            "/a",
            "em",
            "/em",
            "ul",
            "/ul",
        }, kind
        assert html.startswith('<li id="e9" class="entry kind-' + kind), kind
        assert f'<span class="actor">{SAFE}</span>' in html, kind
    said = {kind: entry_html(_event(kind, payload)) for kind, payload in PAYLOADS.items()}
    assert "created the table for Mneme CE, a playtest table with seed 7" in said["table-created"]
    assert "showed every character sheet to everyone" in said["sheets-shown"]
    assert (
        "changed the table's settings: taking back rolls: with the referee&#39;s approval; "
        "true odds for players: on" in said["settings-changed"]
    )
    assert f"seated <strong>{SAFE}</strong> for {SAFE}" in said["character-added"]
    assert f"aptitude: {SAFE}" in said["character-added"]
    assert f"removed <strong>{SAFE}</strong>" in said["character-removed"]
    assert f'<p class="note-text">{SAFE}</p>' in said["note"]
    assert f"<em>{SAFE}</em>" in said["state-edited"]
    assert (
        "waits for the referee, Pat's choice of difficulty, chances, advantage"
        in (said["action-proposed"])
    )  # each decider once, whatever the case of the name
    assert (
        "asks the referee to approve their own dice (3, 5) for <strong>sheet check"
        in (said["request-made"])
    )
    assert (
        "asks 2 characters for <strong>sheet check</strong> against a secret Difficulty 12"
        in (said["roll-requested"])
    )
    assert 'withdrew the roll request <a href="#e4">#4</a>' in said["roll-request-closed"]
    assert 'withdrew the request <a href="#e4">#4</a>' in said["request-closed"]
    assert 'put back <a href="#e3">#3</a>, as <a href="#e4">#4</a> asked' in said["redo"]
    assert (
        'title="d6">4</span> <span class="die kept" title="d6">2</span>' in (said["action-failed"])
    )


@pytest.mark.parametrize(
    ("visibility", "said"),
    [
        ("blind", "rolled blind:"),
        ("referee", "rolled in secret."),
        ("self", "rolled dice that only they see."),
        ("private", "something private happened."),
    ],
)
def test_a_hidden_event_says_only_that_something_was_hidden(visibility: str, said: str) -> None:
    hidden = {
        "table": "t1",
        "seq": 4,
        "time": "2026-12-03T09:23:08.623+00:00",
        "visibility": visibility,
        "redacted": True,
        "actor": "Ron",
        "kind": "action-resolved",
        "audience": "Ann",
    }
    html = entry_html(hidden)  # type: ignore[arg-type]
    assert said in html
    assert 'class="entry kind-action-resolved vis-' + visibility + ' redacted"' in html
    assert "data-undoable" not in html  # nothing a viewer cannot see can be taken back
    assert 'class="faces"' not in html and 'class="result"' not in html


def test_every_die_says_what_became_of_it(tmp_path: Path) -> None:
    """A roll's dice, each in the group that names its role: a dropped, a rerolled and an
    exploded die say so in their class, their title and in words for a screen reader."""
    service = TableService(Store(f"sqlite:///{tmp_path / 't.db'}"))
    tid = service.create("mnemonic", "Dice", "Ron").table.id
    service.act(tid, "Ron", "roll", {"dice": "3d6r1kh2"}, faces=[1, 6, 2, 3])
    service.act(tid, "Ron", "roll", {"dice": "1d6!"}, faces=[6, 2])
    rolled, exploded = (e for e in service.log(tid, "Ron") if e["kind"] == "action-resolved")
    html = entry_html(rolled)
    assert re.search(
        r'<span class="die dropped rerolled" title="dice, d6, dropped, '
        r'rerolled">1<span class="sr"> \(dropped\)</span><span class="sr"> '
        r"\(rerolled\)</span></span>",
        html,
    ), html
    assert '<span class="die kept" title="dice, d6">6</span>' in html
    assert '<span class="die dropped" title="dice, d6, dropped">2<span class="sr"> (dropped)' in (
        html
    )
    assert "data-undoable" in html
    html = entry_html(exploded)
    assert 'class="die kept exploded" title="dice, d6, exploded">2<span class="sr"> (exploded)' in (
        html
    )
    # the page's renderer draws the same entry, undone where it was taken back
    assert Renderer().entry(rolled) == entry_html(rolled)
    undone = Renderer().entry(rolled, undone=True)
    assert ' undone"' in undone and '<span class="badge undone-badge">undone</span>' in undone
