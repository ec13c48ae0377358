"""A refusal never names a fact the caller cannot see (issue 19, defect 3, as found: a
secret roll in a Mongrel conflict changed the order; the player's action was refused
with "Vooruk is not next in the order (giazza is)")."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.errors import IllegalAction
from referee.table.service import TableService
from referee.table.store import Store


def test_a_refusal_only_a_secret_roll_explains_names_nothing_of_it(tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 's.db'}"))
    tid = service.create("mongrel", "Secret", "Ron").table.id
    for who in ("Ann", "Bea"):
        service.join(tid, who, "player")
    service.add_character(tid, "vooruk", owner="Ann", force=True)
    service.add_character(tid, "giazza", owner="Bea", force=True)
    service.act(tid, "Ron", "start-conflict", {})
    # the referee has Vooruk act in secret: the order moves him to the back
    secret = service.act(tid, "Ron", "wait", {"actor": "vooruk"}, visibility="referee")
    assert secret.table.state.order == ("giazza", "vooruk")
    assert service.view(tid, "Ann").state.order == ("vooruk", "giazza")  # what Ann knows
    # Ann's preview follows what she knows; her action is refused without the secret
    chance = service.odds(tid, "Ann", "wait", {"actor": "vooruk"})
    assert chance is not None
    with pytest.raises(IllegalAction) as refused:
        service.act(tid, "Ann", "wait", {"actor": "vooruk"})
    text = str(refused.value)
    assert "giazza" not in text and "order" not in text
    assert "a reason you cannot see" in text
    assert service.load(tid).seq == secret.event.seq  # nothing was logged, nothing rolled
    # a refusal in what she does know still says why
    with pytest.raises(IllegalAction, match="not next"):
        service.act(tid, "Bea", "wait", {"actor": "giazza"})


def test_a_player_who_sees_everything_gets_the_rules_own_refusal(tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'p.db'}"))
    tid = service.create("mongrel", "Open", "Ron").table.id
    service.join(tid, "Ann", "player")
    service.join(tid, "Bea", "player")
    service.add_character(tid, "vooruk", owner="Ann", force=True)
    service.add_character(tid, "giazza", owner="Bea", force=True)
    service.act(tid, "Ron", "start-conflict", {})
    with pytest.raises(IllegalAction, match=r"Giazza is not next in the order \(Vooruk is\)"):
        service.act(tid, "Bea", "wait", {"actor": "giazza"})
