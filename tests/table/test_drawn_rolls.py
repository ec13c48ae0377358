"""A roll once drawn is always logged (issue 19, defect 1, as found: a Mneme CE attack
that missed, with a threat that named no damage, was refused with 422 after its dice
were drawn and not logged, so the player could roll again until it hit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.errors import RulesError
from referee.table.audit import verify
from referee.table.service import TableService
from referee.table.store import Store

ATTACK = {
    "actor": "ada-vance",
    "target": "raider",
    "damage": "2d6",
    "threat": {"armour": None, "cover_armour": None},  # what the page sent: no damage
}


def _table(tmp_path: Path, seed: int | None) -> tuple[TableService, str]:
    service = TableService(Store(f"sqlite:///{tmp_path / 'r.db'}"))
    tid = service.create("mneme", "Drawn", "Ron", seed=seed).table.id
    service.join(tid, "Ann", "player")
    service.add_character(tid, "ada", owner="Ann")
    service.add_character(tid, "raider")
    return service, tid


def test_a_refusal_after_the_dice_are_drawn_is_logged_with_them(tmp_path: Path) -> None:
    service, tid = _table(tmp_path, seed=1)
    outcomes = []
    for _ in range(40):  # until a miss meets the threat that has no damage (seeded)
        done = service.act(tid, "Ann", "attack", ATTACK)
        outcomes.append(done.event.kind)
        if done.event.kind == "action-failed":
            break
    assert outcomes[-1] == "action-failed", outcomes
    event = done.event
    assert event.actor == "Ann" and event.rolls  # the dice drawn are in the log
    assert "damage expression" in event.payload["error"]
    assert done.table.state == service.load(tid).state  # it changed nothing
    assert len(service.log(tid, "Ann")) == done.table.seq  # and every attempt is logged
    assert verify(service, tid).ok  # the audit replays the failure from its faces


def test_faces_typed_by_hand_are_refused_not_logged(tmp_path: Path) -> None:
    service, tid = _table(tmp_path, seed=3)
    before = service.load(tid).seq
    with pytest.raises(RulesError, match="damage expression"):
        service.act(tid, "Ann", "attack", ATTACK, faces=[1, 1, 1, 1, 1, 1])
    assert service.load(tid).seq == before


def test_the_log_entry_says_what_failed(tmp_path: Path) -> None:
    from referee.table.recap import log_text
    from referee.web.render import Renderer

    service, tid = _table(tmp_path, seed=1)
    for _ in range(40):
        done = service.act(tid, "Ann", "attack", ATTACK)
        if done.event.kind == "action-failed":
            break
    shown = service.log(tid, "Ann")[-1]
    html = Renderer().entry(shown)
    assert "failed after its dice were drawn" in html and "damage expression" in html
    text = log_text([shown])  # the command line's log and the recap say it alike
    assert "failed after its dice were drawn" in text and "damage expression" in text
