"""A Mneme CE fight and its aftermath at a live table, faces typed in, every number asserted.

Mo referees and plays the raider; Ann plays Ada Vance, Tia plays Tess (the
package's example characters). Initiative, Ada's automatic rifle (one Success
Effect: two damage rolls of 3d6-2 through a Flak Jacket), the raider's swing
refused (the referee doesn't roll) and met by Ada's own roll, whose Fail Effect
it is; an undo and redo, Tess's first aid, then two days of moderate care;
export, import and audit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.open_table import OPEN

from referee.errors import IllegalAction
from referee.table.audit import export, import_table, verify
from referee.table.service import TableService, table_data
from referee.table.store import Store

RIFLE = {
    "actor": "ada-vance",
    "target": "raider",
    "weapon": "Automatic Rifle",
    "check": {"characteristic": "Dex", "skill": "Gun Combat"},
}


def _rows(service: TableService, tid: str, cid: str) -> dict[str, object]:
    tracker = table_data(service.load(tid))["tracker"]
    return dict(tracker["characters"][cid])  # type: ignore[call-overload,index]


def test_a_firefight_and_its_aftermath(tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'a.db'}"))
    tid = service.create("mneme", "Station", "Mo", settings=OPEN).table.id
    service.join(tid, "Ann", "player")
    service.join(tid, "Tia", "player")
    service.add_character(tid, "ada", owner="Ann")
    service.add_character(tid, "raider")
    service.add_character(tid, "tess", owner="Tia")
    assert list(service.load(tid).state.characters) == ["ada-vance", "raider", "tess"]

    order = service.act(
        tid,
        "Mo",
        "initiative",
        {"pcs": [{"who": "ada-vance"}, {"who": "tess"}]},
        faces=[6, 6, 1, 2],
    )
    assert order.table.state.order == (("ada-vance",), ("tess",))

    # 2d6 (4 + 3) + Competence 2 = 9 against 8: Success Effect 1, so two damage rolls
    # (SE + 1, within the rifle's Rate of Attack 4): 6+6+5-2 = 15 and 2+2+1-2 = 3, less the
    # Flak Jacket's 4 each: 11 and 0
    hit = service.act(tid, "Ann", "attack", RIFLE, faces=[4, 3, 6, 6, 5, 2, 2, 1])
    out = hit.event.payload["outcome"]
    assert (out["result"], out["success"], out["target"]) == (1, True, 8)
    rolls = out["details"]["weapon_rolls"]
    assert (rolls["raw"], rolls["dealt"], rolls["total"]) == ([15, 3], [11, 0], 11)
    raider = _rows(service, tid, "raider")
    # HP 25: Seriously Wounded from floor(25/3) = 8, Critically from floor(50/3) = 16;
    # -1 on every roll per full 3 damage; a roll that alone reached the Seriously Wounded
    # threshold makes the target bleed; Seriously Wounded moves at 3/4 speed, no Dash
    assert (raider["HP"], raider["Damage"], raider["Condition"]) == (25, 11, "Seriously Wounded")
    assert (raider["Seriously Wounded at"], raider["Critically Wounded at"]) == (8, 16)
    assert (raider["Wound penalty"], raider["Conditions"]) == (-3, "Bleeding")
    assert raider["Movement"] == "3/4 speed, no Dash"

    # the raider swings back. The referee doesn't roll (ch. 2): his attack is refused...
    swing = {
        "actor": "raider",
        "target": "ada-vance",
        "weapon": "Broadsword",
        "check": {"characteristic": "Str", "skill": "Melee"},
    }
    with pytest.raises(IllegalAction, match="the referee doesn't roll"):
        service.act(tid, "Mo", "attack", swing, faces=[1, 1])
    # ...and is the Fail Effect of Ada's own roll: Str 7 (ChM 0) + Melee 0, [4, 3] = 7
    # against 8 is Fail Effect 1, her Melee 0 mitigates nothing, so one broadsword roll
    # strikes her: 3 + 3 + 1 - 2 = 5, less her Flak Jacket's 4: 1 damage
    meet = {
        "actor": "ada-vance",
        "characteristic": "Str",
        "skill": "Melee",
        "threat": {"attacker": "raider"},  # its weapon is the raider's: its first, Broadsword
    }
    met = service.act(tid, "Ann", "check", meet, faces=[4, 3, 3, 3, 1])
    out = met.event.payload["outcome"]
    assert (out["result"], out["success"], out["label"]) == (
        -1,
        False,
        "Fail Effect 1; took 1 damage",
    )
    incoming = out["details"]["incoming"]
    assert (incoming["damage_rolls"]["raw"], incoming["damage"]) == ([5], 1)
    assert _rows(service, tid, "ada-vance")["Damage"] == 1

    # the referee takes Ada's shot back and puts it back
    service.undo(tid, hit.event.seq, by="Mo")
    assert _rows(service, tid, "raider")["Damage"] == 0
    service.redo(tid, hit.event.seq, by="Mo")
    assert _rows(service, tid, "raider")["Damage"] == 11

    # Tess's first aid on the raider: 5 + 5 + Competence 3 = 13 against 8, SE 5: heals
    # max(1, SE) = 5 and stops the bleeding
    aid = service.act(tid, "Tia", "first-aid", {"actor": "tess", "patient": "raider"}, faces=[5, 5])
    out = aid.event.payload["outcome"]
    assert (out["result"], out["details"]["healed"], out["details"]["bleeding_stopped"]) == (
        5,
        5,
        True,
    )
    raider = _rows(service, tid, "raider")
    assert (raider["Damage"], raider["Condition"], raider["Conditions"]) == (6, "Wounded", "none")

    # two days of full rest under moderate care heal 4 more
    service.act(
        tid, "Mo", "set-care", {"actor": "raider", "activity": "full_rest", "care": "moderate"}
    )
    days = service.act(tid, "Mo", "pass-time", {"days": 2})
    assert days.event.payload["outcome"]["details"]["minutes"] == 2 * 24 * 60
    assert _rows(service, tid, "raider")["Damage"] == 2

    assert verify(service, tid).ok
    other = TableService(Store(f"sqlite:///{tmp_path / 'b.db'}"))
    assert import_table(other, json.loads(json.dumps(export(service, tid)))).ok
    assert other.load(tid) == service.load(tid)
