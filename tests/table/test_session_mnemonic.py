"""A Mnemonic session at a live table with the card randomizer, every number asserted.

Kim referees a playtest table (seeded) where everyone draws from one deck
(option ``randomizer=cards``); Ann plays the text's boxer, Mickey Ruane; the
referee runs the text's frigate. The order of action by Agile checks, an
attack, an injury check, an undo, a blind roll, a reshuffle, then export,
import and audit. Each number is checked from the cards drawn with the
text's arithmetic (check result = Aptitude - card; Chances added; zero or
more succeeds with total + 1 Successes) rather than read back.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.table.audit import export, import_table, verify
from referee.table.service import Forbidden, TableService
from referee.table.store import Store


def _card(outcome: dict) -> int:
    (face,) = [f["face"] for f in outcome["faces"]]
    return face


def test_a_mnemonic_night_at_the_table(tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'a.db'}"))
    tid = service.create(
        "mnemonic", "Night", "Kim", options={"randomizer": "cards"}, seed=5
    ).table.id
    service.join(tid, "Ann", "player")
    service.add_character(tid, "boxer", owner="Ann")
    service.add_character(tid, "frigate")
    ts = service.load(tid)
    assert list(ts.state.characters) == ["mickey-ruane", "swiftsure"]
    assert ts.findings == {"mickey-ruane": (), "swiftsure": ()}  # both examples are legal
    assert len(ts.state.deck.cards) == 48

    # order of action: Agile checks (Mickey: Agile Fairly 4 + Primary Moderately 3 = 7;
    # the frigate checks Maneuverable), most Successes first
    order = service.act(
        tid,
        "Kim",
        "agile-order",
        {"contenders": [{"name": "mickey-ruane"}, {"name": "swiftsure", "talent": "Maneuverable"}]},
    )
    checks = order.event.payload["outcome"]["details"]["checks"]
    for check in checks:
        total = check["aptitude"] - check["value"] + check["chances"]
        assert check["successes"] == (total + 1 if total >= 0 else 0)
    ranked = sorted(checks, key=lambda c: -c["successes"] if c["successes"] else c["failures"])
    assert order.table.state.order == tuple((c["name"],) for c in ranked)
    assert len(order.table.state.deck.cards) == 46  # two cards left the one deck

    # only the referee reshuffles or sets a Status
    with pytest.raises(Forbidden, match="reshuffle is the referee's action"):
        service.act(tid, "Ann", "reshuffle", {})

    # Mickey attacks at Fair (+3): Dangerous Fairly 4 + Primary Moderately 3 = 7. How the
    # frigate defends is its side's choice (no player owns it: the referee's), so the
    # attack waits for Kim's answer, with no card drawn yet
    proposed = service.act(
        tid, "Ann", "attack", {"actor": "mickey-ruane", "target": "swiftsure", "chances": "Fair"}
    )
    assert (proposed.event.kind, proposed.event.rolls) == ("action-proposed", ())
    assert proposed.event.payload["ask"] == dict.fromkeys(
        (
            "defense",
            "defender_aptitude",
            "defender_talent",
            "defender_life_role",
            "defender_fallback",
            "defender_chances",
        ),
        "swiftsure",
    )
    assert len(proposed.table.state.deck.cards) == 46
    with pytest.raises(Forbidden, match=r"defender_talent is 'swiftsure'.s choice"):
        service.act(
            tid,
            "Ann",
            "attack",
            {"actor": "mickey-ruane", "target": "swiftsure", "defender_talent": "Fast"},
        )
    with pytest.raises(Forbidden, match="their owner decides it"):
        service.decide(tid, proposed.event.seq, {}, by="Ann")
    attack = service.decide(tid, proposed.event.seq, {}, by="Kim")  # Agile, as by default
    assert attack.event.actor == "Ann" and attack.event.payload["decided_by"] == "Kim"
    assert attack.table.proposals == {}
    out = attack.event.payload["outcome"]
    card = _card(out)
    total = 7 - card + 3
    assert out["success"] is (total >= 0)
    assert out["details"]["successes"] == (total + 1 if total >= 0 else 0)
    assert [m["value"] for m in out["modifiers"]] == [4, 3, -card, 3]
    assert len(attack.table.state.deck.cards) == 45

    # the referee's injury check for the frigate: Fast Very 5 + Primary 3 = 8
    hurt = service.act(tid, "Kim", "injury", {"victim": "swiftsure", "worst": "immobilized"})
    out = hurt.event.payload["outcome"]
    card = _card(out)
    stays_active = 8 - card >= 0
    status = hurt.table.state.characters["swiftsure"].status
    assert status.injuries == 1
    assert (status.condition == "Hurt") is stays_active
    assert len(hurt.table.state.deck.cards) == 44

    # undo: the injury and its card are forgotten
    back = service.undo(tid, by="Kim")
    assert back.table.state.characters["swiftsure"].status.injuries == 0
    assert back.table.state.characters["swiftsure"].status.condition == "Fine"
    assert len(back.table.state.deck.cards) == 45

    # a blind roll: Ann sees that she rolled, never what came of it
    blind = service.act(
        tid,
        "Ann",
        "sheet-check",
        {"actor": "mickey-ruane", "talent": "Smart", "life_role": "Dock Worker"},
        visibility="blind",
    )
    seen = service.log(tid, "Ann", after=blind.event.seq - 1)[0]
    assert seen["redacted"] and seen["payload"] == {
        "action": "sheet-check",
        "fields": blind.event.payload["fields"],
    }
    assert "outcome" not in json.dumps(seen) and "salt" not in seen
    # what the blind draw did to the deck is hidden from Ann too
    assert len(service.view(tid, "Ann").state.deck.cards) == 45
    assert len(service.view(tid, "Kim").state.deck.cards) == 44

    shuffled = service.act(tid, "Kim", "reshuffle", {})
    assert len(shuffled.table.state.deck.cards) == 48

    assert verify(service, tid).ok
    other = TableService(Store(f"sqlite:///{tmp_path / 'b.db'}"))
    assert import_table(other, json.loads(json.dumps(export(service, tid)))).ok
    assert other.load(tid) == service.load(tid)
