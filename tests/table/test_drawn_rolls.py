"""A roll once drawn is always logged (issue 19, defect 1, as found: a Mneme CE attack
that missed, with a threat that named no damage, was refused with 422 after its dice
were drawn and not logged, so the player could roll again until it hit)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.open_table import OPEN

from referee.dice.roller import Roller
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
    tid = service.create("mneme", "Drawn", "Ron", seed=seed, settings=OPEN).table.id
    service.join(tid, "Ann", "player")
    service.add_character(tid, "ada", owner="Ann")
    service.add_character(tid, "raider")
    return service, tid


def test_a_threat_that_cannot_strike_is_refused_before_any_die(tmp_path: Path) -> None:
    """The threat with no damage is refused as the action is planned now (issue 32: it
    was refused only once a miss met it, after the dice): nothing drawn, nothing logged,
    and a player who may not see the raider's sheet is told so, not what it holds."""
    service, tid = _table(tmp_path, seed=1)
    before = service.load(tid).seq
    with pytest.raises(RulesError, match="damage expression"):
        service.act(tid, "Ron", "attack", ATTACK)
    with pytest.raises(RulesError, match="Raider's sheet, which only the referee sees"):
        service.act(tid, "Ann", "attack", ATTACK)
    assert service.load(tid).seq == before


def test_faces_typed_by_hand_are_refused_not_logged(tmp_path: Path) -> None:
    service, tid = _table(tmp_path, seed=3)
    before = service.load(tid).seq
    with pytest.raises(RulesError, match="damage expression"):
        service.act(tid, "Ron", "attack", ATTACK, faces=[1, 1, 1, 1, 1, 1])
    assert service.load(tid).seq == before


def _fails_after_drawing(monkeypatch: pytest.MonkeyPatch, service: TableService, tid: str) -> None:
    """The game refuses an attack only once its dice are drawn (no game's rule does any
    more: the safety net is tested with a rule made to)."""
    rules = type(service.load(tid).ruleset)
    plain = rules.resolve

    def late(self: Any, action: Any, state: Any, roller: Roller, options: Any) -> Any:
        roller.roll(2, 6)
        raise RulesError("give a damage expression (e.g. 3d6-2) or a weapon")

    monkeypatch.setattr(rules, "resolve", late)
    assert plain is not late


def test_a_refusal_after_the_dice_are_drawn_is_logged_with_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, tid = _table(tmp_path, seed=1)
    _fails_after_drawing(monkeypatch, service, tid)
    done = service.act(tid, "Ann", "attack", {**ATTACK, "threat": None})
    event = done.event
    assert event.kind == "action-failed"
    assert event.actor == "Ann" and event.rolls  # the dice drawn are in the log
    assert "damage expression" in event.payload["error"]
    assert len(service.log(tid, "Ann")) == done.table.seq  # and every attempt is logged
    assert verify(service, tid).ok  # the audit replays the failure from its faces


def test_the_log_entry_says_what_failed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.table.recap import log_text
    from referee.web.render import Renderer

    service, tid = _table(tmp_path, seed=1)
    _fails_after_drawing(monkeypatch, service, tid)
    service.act(tid, "Ann", "attack", {**ATTACK, "threat": None})
    shown = service.log(tid, "Ann")[-1]
    html = Renderer().entry(shown)
    assert "failed after its dice were drawn" in html and "damage expression" in html
    text = log_text([shown])  # the command line's log and the recap say it alike
    assert "failed after its dice were drawn" in text and "damage expression" in text
