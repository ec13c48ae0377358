"""A Mongrel session at a live table, every number asserted.

Ron referees; Ann plays Vooruk, Bea plays Giazza (the text's example
characters, seated with the validator's findings since the text's own
examples break its creation rules). A conflict: Vooruk's Rend hit, an undo,
the damage track of the Giazza example (5, 3 and 2: collapse), a terminal hit
and Bea's choice to spend Infernal Resolve, rest over hours, then export,
import and audit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.open_table import OPEN

from referee.errors import DiceError, IllegalAction
from referee.table.audit import export, import_table, verify
from referee.table.service import Forbidden, TableService
from referee.table.store import Store


def _setup(url: str) -> tuple[TableService, str]:
    service = TableService(Store(url))
    tid = service.create("mongrel", "Friday", "Ron", settings=OPEN).table.id
    for name, role in (("Ann", "player"), ("Bea", "player"), ("Obi", "observer")):
        service.join(tid, name, role)
    with pytest.raises(Exception, match="breaks 5 rule"):
        service.add_character(tid, "vooruk", owner="Ann")
    with pytest.raises(Forbidden, match="only the referee may seat"):
        service.add_character(tid, "vooruk", by="Ann", force=True)
    service.add_character(tid, "vooruk", owner="Ann", force=True)
    service.add_character(tid, "giazza", owner="Bea", force=True)
    return service, tid


def _fighter(service: TableService, tid: str, cid: str) -> object:
    return service.load(tid).state.characters[cid]


def test_a_mongrel_conflict_at_the_table(tmp_path: Path) -> None:
    service, tid = _setup(f"sqlite:///{tmp_path / 'a.db'}")
    ts = service.load(tid)
    assert {k: len(v) for k, v in ts.findings.items()} == {"vooruk": 5, "giazza": 2}
    assert ts.owners == {"vooruk": "Ann", "giazza": "Bea"}

    # the conflict: highest Beast first (Vooruk 4, Giazza 1)
    start = service.act(tid, "Ron", "start-conflict", {})
    assert start.table.state.order == ("vooruk", "giazza")

    # players act only for their own characters; observers only read
    with pytest.raises(Forbidden, match="'giazza' is not Ann's character"):
        service.act(
            tid, "Ann", "attack", {"actor": "giazza", "target": "vooruk", "expertise": "Melee"}
        )
    with pytest.raises(Forbidden, match="observer only reads"):
        service.act(tid, "Obi", "recover", {"actor": "vooruk"})
    with pytest.raises(Forbidden, match="start-conflict is the referee's action"):
        service.act(tid, "Ann", "start-conflict", {})

    # Vooruk's Rend: 6d6 under his Physique 7, six successes + Beast 4 = Effect 10. Whether
    # Giazza defends (1 AP) and shunts damage to Beauty is Bea's choice: Ann may not make it
    # for her, and the attack waits for Bea's answer before any die counts
    with pytest.raises(Forbidden, match=r"defend is 'giazza'.s choice"):
        service.act(
            tid,
            "Ann",
            "attack",
            {"actor": "vooruk", "target": "giazza", "expertise": "Rend", "defend": True},
        )
    assert _fighter(service, tid, "giazza").ap == 4  # nothing was spent
    proposed = service.act(
        tid,
        "Ann",
        "attack",
        {"actor": "vooruk", "target": "giazza", "expertise": "Rend"},
        faces=[1, 2, 3, 4, 5, 6],
    )
    assert proposed.event.kind == "action-proposed"
    assert proposed.event.payload["ask"] == {"defend": "giazza", "shunt_to_beauty": "giazza"}
    with pytest.raises(Forbidden, match="their owner decides it"):
        service.decide(tid, proposed.event.seq, {"defend": False}, by="Ann")
    hit = service.decide(tid, proposed.event.seq, {"defend": False}, by="Bea")
    assert hit.event.actor == "Ann" and hit.event.payload["proposal"] == proposed.event.seq
    out = hit.event.payload["outcome"]
    assert (out["target"], out["result"], out["success"]) == (7, 10, True)
    assert out["details"]["successes"] == 6 and out["manual"] is True
    g = hit.table.state.characters["giazza"]
    assert (g.damage, g.ap, g.physique_loss, g.collapsed) == (10, 3, 1, False)
    assert hit.table.state.order == ("giazza", "vooruk")  # acting moves Vooruk to the back

    # hand-entered faces must be exactly the dice the action rolls
    with pytest.raises(DiceError, match=r"needs 4 faces \(4d6\); 3 given"):
        service.act(
            tid,
            "Bea",
            "attack",
            {"actor": "giazza", "target": "vooruk", "expertise": "Melee"},
            faces=[1, 1, 6],
        )

    # the referee takes the hit back: the log keeps it, the state forgets it
    undone = service.undo(tid, by="Ron")
    assert undone.event.payload == {"seq": hit.event.seq}
    g = undone.table.state.characters["giazza"]
    assert (g.damage, g.ap, g.physique_loss) == (0, 4, 0)
    assert undone.table.state.order == ("vooruk", "giazza")

    # the text's Giazza: hit for 5, 3 and 2 collapses (Physique -1 moves the track); each
    # time Bea is asked whether she shunts any of it to Beauty, and keeps it all
    track = []
    for effect in (5, 3, 2):
        asked = service.act(tid, "Ron", "take-damage", {"victim": "giazza", "effect": effect})
        done = service.decide(tid, asked.event.seq, {"shunt_to_beauty": 0}, by="Bea")
        g = done.table.state.characters["giazza"]
        track.append((g.damage, g.physique_loss, g.ap, g.collapsed))
    assert track == [(5, 1, 3, False), (8, 2, 2, False), (10, 2, 0, True)]

    # any hit with Effect >= 1 on a collapsed character is terminal: Bea decides
    asked = service.act(tid, "Ron", "take-damage", {"victim": "giazza", "effect": 1})
    terminal = service.decide(tid, asked.event.seq, {}, by="Bea")
    decision = terminal.table.state.pending
    assert [(d.actor, d.choices) for d in decision] == [
        ("giazza", ("spend-resolve-to-survive", "accept-fate"))
    ]
    # only what depends on Bea's decision waits (issue 19, defect 4): Giazza's own action
    # and time moving on; the referee's plain check and a secret roll go on, logged
    with pytest.raises(IllegalAction, match="waiting for Giazza"):
        service.act(tid, "Ron", "recover", {"actor": "giazza"})
    with pytest.raises(IllegalAction, match="waiting for Giazza"):
        service.act(tid, "Ron", "start-conflict", {})
    plain = service.act(tid, "Ron", "check", {"dice": 2, "tn": 4}, faces=[2, 5])
    assert plain.event.payload["outcome"]["details"]["successes"] == 1  # type: ignore[index]
    secret = service.act(tid, "Ron", "check", {"dice": 1, "tn": 4}, visibility="referee", faces=[3])
    assert secret.event.visibility == "referee" and secret.event.seq == plain.event.seq + 1
    saved = service.act(tid, "Bea", "spend-resolve-to-survive", {"actor": "giazza"})
    g = saved.table.state.characters["giazza"]
    assert saved.event.payload["outcome"]["label"].startswith(
        "terminal hit; 1 Infernal Resolve spent"
    )
    assert (g.terminal, g.dead, g.ir, g.ap) == (True, False, 3, 4)
    assert saved.table.state.pending == ()

    # redo puts the undone Rend hit back on top of everything since
    redone = service.redo(tid, by="Ron")
    assert redone.table.state.characters["giazza"].damage == 21

    # everything verifies; a new process loads the same state
    assert verify(service, tid).ok
    assert TableService(service.store).load(tid) == service.load(tid)


def test_the_session_exports_imports_and_redacts(tmp_path: Path) -> None:
    service, tid = _setup(f"sqlite:///{tmp_path / 'a.db'}")
    service.act(tid, "Ron", "start-conflict", {})
    # the referee's secret damage: Bea chooses whether Giazza shunts any to Beauty, in a
    # proposal only she (and the referees) see; then the damage is rolled in secret
    asked = service.act(
        tid, "Ron", "take-damage", {"victim": "giazza", "effect": 3}, visibility="referee"
    )
    assert (asked.event.kind, asked.event.visibility, asked.event.audience) == (
        "action-proposed",
        "private",
        "Bea",
    )
    service.decide(tid, asked.event.seq, {}, by="Bea")
    service.note(tid, "Ron", "Giazza hears footsteps", visibility="private", audience="Bea")
    whole = export(service, tid)
    for_ann = export(service, tid, "Ann")
    text = json.dumps(for_ann)
    assert for_ann["redacted"] is True
    assert "footsteps" not in text and "take-damage" not in text and "giazza" in text
    hidden = [e for e in for_ann["events"] if e.get("redacted")]
    assert [(e["seq"], e.get("kind"), e.get("actor")) for e in hidden] == [
        (8, None, None),  # Ann sees that something private happened, nothing more
        (9, "action-resolved", "Ron"),  # that the referee rolled in secret
        (10, None, None),
    ]
    assert all("salt" not in e and "rolls" not in e and "payload" not in e for e in hidden)
    # Ann's view of the state does not know what the secret damage did
    assert service.view(tid, "Ann").state.characters["giazza"].damage == 0
    assert service.view(tid, "Ron").state.characters["giazza"].damage == 3
    assert service.view(tid, "Bea").state.characters["giazza"].damage == 0

    other = TableService(Store(f"sqlite:///{tmp_path / 'b.db'}"))
    with pytest.raises(Exception, match="redacted export cannot be imported"):
        import_table(other, for_ann)
    report = import_table(other, json.loads(json.dumps(whole)))
    assert report.ok and report.events == len(whole["events"])
    assert other.load(tid) == service.load(tid)
    assert other.store.head(tid) == service.store.head(tid)
