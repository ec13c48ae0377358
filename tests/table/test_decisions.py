"""A player spends and decides only for what they own (issue 20, finding 2).

Every action field of every game that names a character other than the actor is
audited here: either it is that character's choice (declared
``param(decided_by=...)``: only their owner, or the referee for a character no
player owns, gives it a value; left at its default, the action waits for them),
or it names who is affected without their choosing anything (listed below with
the reason). A new field that names a character fails the audit until it is
classified.
"""

from __future__ import annotations

import typing
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from tests.open_table import OPEN

from referee.systems.base import describe_fields, get, names
from referee.table.service import Forbidden, TableService
from referee.table.store import Store

AFFECTED_NOT_DECIDING = {
    # (game, action, field): why the character named decides nothing in it
    ("mnemonic", "attack", "target"): "the one attacked; how they defend is theirs (decided_by)",
    ("mnemonic", "injury", "victim"): "the referee's injury check; the victim spends nothing",
    ("mnemonic", "set-status", "target"): "the referee's action",
    ("mongrel", "task", "target"): "an opposed task's other side resists with its own sheet",
    ("mongrel", "attack", "target"): "the one attacked; defence and shunting are theirs",
    ("mongrel", "occult", "target"): "the one worked on; resisting is theirs (decided_by)",
    ("mongrel", "take-damage", "victim"): "the referee's action; shunting is theirs",
    ("mongrel", "award-points", "target"): "the referee's award",
    ("mongrel", "approve-sheet", "target"): "the referee's approval",
    ("mneme", "attack", "target"): "the one attacked: Referee Doesn't Roll, no choice of theirs",
    ("mneme", "damage-rolls", "target"): "the referee's damage rolls",
    ("mneme", "damage-rolls", "attacker"): "the referee's damage rolls",
    ("mneme", "first-aid", "patient"): "the one treated spends nothing",
    ("mneme", "surgery", "patient"): "the one operated on spends nothing",
    ("mneme", "stimulant", "patient"): "the one given it spends nothing",
    ("mneme", "care", "patients"): "the referee's action",
    ("mneme", "pass-time", "who"): "the referee's action",
    ("mneme", "pass-rounds", "who"): "the referee's action",
    ("mneme", "initiative", "pcs"): "the referee's action",
    ("arm", "contest", "opponent"): "resists with its sheet's stat and mods (facts the "
    "referee judges), spends nothing",
    ("arm", "group-task", "helpers"): "take part with their stat; a group task spends "
    "nothing of theirs (ARM 1.2)",
    ("arm", "circle", "target"): "the one circled spends nothing",
    ("arm", "attack", "target"): "the one attacked; their defence is their own action",
    ("arm", "defend", "against"): "the attacker, named",
    ("arm", "take-blow", "against"): "the attacker, named",
    ("arm", "strike", "target"): "the one struck spends nothing",
    ("arm", "shoot", "target"): "the one shot at; dodging is their own action",
    ("arm", "damage", "target"): "the one hurt spends nothing",
    ("arm", "lose-action", "target"): "the referee's action",
    ("arm", "impose-penalty", "target"): "the referee's action",
    ("arm", "take-damage", "target"): "the referee's action",
    ("arm", "recover", "target"): "the referee's action",
    ("arm", "record-wound", "target"): "the referee's action",
    ("arm", "remove-wound", "target"): "the referee's action",
}


def _character_fields(kind: Any) -> list[str]:
    """The fields of an action type that name characters (``ref="character"``), but the
    actor."""
    return [
        d["name"]
        for d in describe_fields(kind)
        if d.get("ref") == "character" and d["name"] != "actor"
    ]


def test_every_field_naming_another_character_is_classified() -> None:
    unclassified = []
    for game in names():
        for action, kind in get(game).actions().items():
            decided = {f.name: f.metadata.get("decided_by") for f in fields(kind)}
            for name in _character_fields(kind):
                key = (game, action, name)
                if key not in AFFECTED_NOT_DECIDING:
                    unclassified.append(key)
            for name, by in decided.items():
                if by:  # a decided field names the field that holds its character(s)
                    assert by in {f.name for f in fields(kind)}, (game, action, name, by)
                    hint = typing.get_type_hints(kind)[by]
                    assert "str" in str(hint), (game, action, name, by, hint)
    assert unclassified == []


# every declared choice, a base action reaching it and a value other than its default
CHOICES = {
    ("mongrel", "attack"): (
        {"actor": "vooruk", "target": "giazza", "expertise": "Rend"},
        {"defend": True, "shunt_to_beauty": 1},
    ),
    ("mongrel", "occult"): ({"actor": "vooruk", "target": "giazza"}, {"resist": True}),
    ("mongrel", "take-damage"): ({"victim": "giazza", "effect": 2}, {"shunt_to_beauty": 1}),
    ("mnemonic", "attack"): (
        {"actor": "mickey-ruane", "target": "swiftsure"},
        {
            "defense": -3,
            "defender_talent": "Fast",
            "defender_life_role": "Sailor",
            "defender_fallback": "irrelevant",
            "defender_aptitude": 2,  # the defender's too (issue 32's ruling)
            "defender_chances": -3,
        },
    ),
}


def test_every_declared_choice_is_exercised_below() -> None:
    declared = {
        (game, action, f.name)
        for game in names()
        for action, kind in get(game).actions().items()
        for f in fields(kind)
        if f.metadata.get("decided_by")
    }
    exercised = {(g, a, f) for (g, a), (_, values) in CHOICES.items() for f in values}
    assert declared == exercised


def _table(tmp_path: Path, game: str) -> tuple[TableService, str]:
    service = TableService(Store(f"sqlite:///{tmp_path / 'd.db'}"))
    tid = service.create(game, "Choices", "Ron", settings=OPEN).table.id
    service.join(tid, "Ann", "player")
    service.join(tid, "Bea", "player")
    if game == "mongrel":
        service.add_character(tid, "vooruk", owner="Ann", force=True)
        service.add_character(tid, "giazza", owner="Bea", force=True)
        service.act(tid, "Ron", "start-conflict", {})
    else:
        service.add_character(tid, "boxer", owner="Ann")
        service.add_character(tid, "frigate", owner="Bea")
    return service, tid


@pytest.mark.parametrize(("game", "action"), sorted(CHOICES))
def test_a_player_may_not_choose_for_another_players_character(
    tmp_path: Path, game: str, action: str
) -> None:
    base, values = CHOICES[game, action]
    service, tid = _table(tmp_path, game)
    before = service.load(tid)
    player = "Ron" if "victim" in base else "Ann"  # take-damage is the referee's action
    for name, value in values.items():
        if player == "Ann":
            with pytest.raises(Forbidden, match=f"{name} is '.+'s choice"):
                service.act(tid, "Ann", action, {**base, name: value})
            after = service.load(tid)
            assert after.seq == before.seq and after.state == before.state  # nothing spent
    # left at their defaults, the action waits for the owner, nothing rolled
    proposed = service.act(tid, player, action, base)
    assert proposed.event.kind == "action-proposed" and proposed.event.rolls == ()
    assert set(proposed.event.payload["ask"]) == set(values)
    assert proposed.table.state == before.state
    if player == "Ann":
        with pytest.raises(Forbidden, match="their owner decides it"):
            service.decide(tid, proposed.event.seq, values, by="Ann")
    done = service.decide(tid, proposed.event.seq, values, by="Bea")
    assert done.event.kind == "action-resolved" and done.event.actor == player
    assert done.event.payload["fields"] | values == done.event.payload["fields"]
    assert done.table.proposals == {}
    # the owner's own values are no one else's business: Bea acting for giazza decides
    # giazza's choices herself, so nothing waits


def test_the_defence_costs_the_defender_only_when_its_owner_chooses_it(tmp_path: Path) -> None:
    """The finding as reported: Ann's attack with defend=true took an AP from Bea's giazza.
    Now it is refused; asked, Bea defends and pays the AP herself."""
    service, tid = _table(tmp_path, "mongrel")
    attack = {"actor": "vooruk", "target": "giazza", "expertise": "Rend"}
    with pytest.raises(Forbidden):
        service.act(tid, "Ann", "attack", {**attack, "defend": True})
    start = service.load(tid).state.characters
    assert (start["giazza"].ap, start["vooruk"].ap) == (4, 3)  # Speed 4 and 3 (Mongrel text)
    asked = service.act(tid, "Ann", "attack", attack, faces=[1] * 6)  # 6d6 Rend, all 1s
    with pytest.raises(Exception, match="asks defend, shunt_to_beauty; not power"):
        service.decide(tid, asked.event.seq, {"power": "x"}, by="Bea")
    done = service.decide(tid, asked.event.seq, {"defend": True}, by="Bea")
    out = done.event.payload["outcome"]
    assert out["success"] is False  # rolling over Giazza's Physique, six 1s miss
    g = done.table.state.characters["giazza"]
    assert g.ap == 3  # the defence's 1 AP, Bea's own choice
    v = done.table.state.characters["vooruk"]
    assert v.ap == 3 - 1 - 1  # a defended attack costs the attacker 1 AP, a miss 1 more


def test_a_proposal_is_withdrawn_by_its_proposer_or_the_referee(tmp_path: Path) -> None:
    service, tid = _table(tmp_path, "mongrel")
    attack = {"actor": "vooruk", "target": "giazza", "expertise": "Rend"}
    asked = service.act(tid, "Ann", "attack", attack)
    with pytest.raises(Forbidden, match="only who proposed it"):
        service.withdraw(tid, asked.event.seq, by="Bea")
    gone = service.withdraw(tid, asked.event.seq, by="Ann")
    assert gone.event.kind == "proposal-closed" and gone.table.proposals == {}
    with pytest.raises(Exception, match="no action waits for a decision"):
        service.decide(tid, asked.event.seq, {}, by="Bea")
    again = service.act(tid, "Ann", "attack", attack)
    assert service.withdraw(tid, again.event.seq, by="Ron").table.proposals == {}


def test_the_referee_answers_for_a_character_no_player_owns(tmp_path: Path) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'n.db'}"))
    tid = service.create("mongrel", "NPC", "Ron", settings=OPEN).table.id
    service.join(tid, "Ann", "player")
    service.add_character(tid, "vooruk", owner="Ann", force=True)
    service.add_character(tid, "giazza", force=True)  # the referee's
    service.act(tid, "Ron", "start-conflict", {})
    asked = service.act(
        tid, "Ann", "attack", {"actor": "vooruk", "target": "giazza", "expertise": "Rend"}
    )
    assert service.load(tid).proposals[asked.event.seq]["ask"] == {
        "defend": "giazza",
        "shunt_to_beauty": "giazza",
    }
    with pytest.raises(Forbidden):
        service.decide(tid, asked.event.seq, {}, by="Ann")
    done = service.decide(tid, asked.event.seq, {"defend": False}, by="Ron")
    assert done.event.kind == "action-resolved"
    # the referee's NPC attacks Ann's vooruk: vooruk's defence is Ann's to choose
    assert done.table.state.order[0] == "giazza"
    npc = service.act(
        tid, "Ron", "attack", {"actor": "giazza", "target": "vooruk", "expertise": "Melee"}
    )
    assert npc.event.kind == "action-proposed"
    assert npc.event.payload["ask"] == {"defend": "vooruk", "shunt_to_beauty": "vooruk"}
    # ... unless the referee rules it (a value other than the default overrides)
    ruled = service.act(
        tid,
        "Ron",
        "attack",
        {
            "actor": "giazza",
            "target": "vooruk",
            "expertise": "Melee",
            "defend": True,
            "shunt_to_beauty": 1,
        },
    )
    assert ruled.event.kind == "action-resolved"


def test_deciding_from_the_command_line(tmp_path: Path) -> None:
    from referee.cli.main import run

    db = f"sqlite:///{tmp_path / 'cli.db'}"
    service = TableService(Store(db))
    tid = service.create("mongrel", "Cli", "Ron", settings=OPEN).table.id
    for who in ("Ann", "Bea"):
        service.join(tid, who, "player")
    service.add_character(tid, "vooruk", owner="Ann", force=True)
    service.add_character(tid, "giazza", owner="Bea", force=True)
    service.act(tid, "Ron", "start-conflict", {})
    words = ["actor=vooruk", "target=giazza", "expertise=Rend"]
    faces = ["--faces", "1,1,1,1,1,1"]
    assert run(["table", "act", tid, "attack", *words, *faces, "--as", "Ann", "--db", db]) == 0
    seq = service.load(tid).seq
    assert run(["table", "decide", tid, str(seq), "defend=true", "--as", "Ann", "--db", db]) != 0
    assert run(["table", "decide", tid, str(seq), "defend=true", "--as", "Bea", "--db", db]) == 0
    last = service.load(tid)
    assert last.proposals == {} and last.state.characters["giazza"].ap == 3
