"""Adversaries in two clicks (issue 39 item 3): each game's bestiary, seated by the referee.

Every entry is the game's own sheet: the ones the package makes are accepted by the
game's validator, the ones the text gives with numbers its rules refuse list why, and the
validator finds exactly those. Three adversaries seated at a table are three of the
referee's characters whose sheets the rules accept and no player or observer receives:
two tables that differ only in a number of the adversaries' sheets give each of them the
same bytes (the log, the table, the recap, the export, the panels, their odds).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.support.fast import one_fast
from tests.table.test_non_interference import _fields, _received

from referee.cli.main import run
from referee.errors import RulesError
from referee.systems.base import get, names, slug
from referee.systems.bestiary import MAX_COUNT
from referee.table.bestiary import names_for
from referee.table.service import Forbidden, TableService, table_data
from referee.table.store import Store

OWN = {"mnemonic": "boxer", "mongrel": "giazza", "mneme": "ada", "arm": "christine"}
"""Ann's character at each game's table (an example)."""
HIDDEN_NUMBER = {
    "mnemonic": ("thug", "dangerous", 6),
    "mongrel": ("hound", "rend", 6),
    "mneme": ("raider", "melee", 3),
    "arm": ("guard", "skill", 3),
}
"""An entry, one of its numbers that only its sheet holds, and another value for it."""


def _table(tmp: Path, game: str, tag: str = "t") -> tuple[TableService, str]:
    service = TableService(Store(f"sqlite:///{tmp / f'{game}-{tag}.db'}"))
    tid = service.create(game, "Den", "Ron", seed=3).table.id
    for who, role in (("Ann", "player"), ("Bea", "player"), ("Obi", "observer")):
        service.join(tid, who, role)  # type: ignore[arg-type]
    service.add_character(tid, OWN[game], owner="Ann", force=True)
    return service, tid


@pytest.mark.parametrize("game", names())
def test_every_entry_is_the_games_own_sheet_and_says_where_it_comes_from(game: str) -> None:
    rules = get(game)
    options = rules.options_type()
    book = rules.bestiary()
    assert len(book) >= 4
    made = [e for e in book.values() if not e.from_text]
    assert len(made) >= 3, "at least three adversaries the game's rules accept as made"
    for entry in book.values():
        assert entry.name and entry.line and entry.where, entry.id
        assert entry.dials, f"{entry.id}: no number to change before seating"
        sheet = rules.load_sheet(entry.sheet)
        problems = rules.validate(sheet, options)
        if entry.notes:  # the text's numbers: the validator reports the discrepancy
            assert entry.from_text and problems, entry.id
        else:
            assert problems == (), (entry.id, [str(p) for p in problems])
        for dial in entry.dials:
            value = dial.value(entry.sheet)
            assert value is not None and dial.low(entry.sheet) <= value <= dial.le, dial
        assert rules.adversary(entry.name.upper()) is entry
        if not entry.notes:  # every number at either bound still makes a sheet it accepts
            lows = {d.key: d.low(entry.sheet) for d in entry.dials}
            for values in (lows, {d.key: d.le for d in entry.dials}):
                tuned = entry.tuned(values)
                found = rules.validate(rules.load_sheet(tuned), options)
                assert found == (), (entry.id, [str(p) for p in found])
    with pytest.raises(RulesError, match=r"no adversary 'dragon'.*known: "):
        rules.adversary("dragon")


@pytest.mark.parametrize("game", names())
def test_three_adversaries_seat_three_hidden_sheets_the_rules_accept(
    tmp_path: Path, game: str
) -> None:
    entry, key, value = HIDDEN_NUMBER[game]
    service, tid = _table(tmp_path, game)
    before = set(service.load(tid).state.characters)
    last = service.seat_adversaries(tid, entry, count=3, dials={key: value}, by="Ron")
    ts = last.table
    rules = ts.ruleset
    found = rules.adversary(entry)
    new = [c for c in ts.state.characters if c not in before]
    assert len(new) == 3
    assert [ts.state.characters[c].sheet.name for c in new] == [
        f"{found.name} {n}" for n in (1, 2, 3)
    ]
    assert new == [slug(f"{found.name} {n}") for n in (1, 2, 3)]
    for cid in new:
        seat = ts.state.characters[cid]
        assert cid not in ts.owners  # the referee's: no player owns it
        assert rules.validate(seat.sheet, ts.options, ts.state) == ()
        assert cid not in ts.findings or not ts.findings[cid]
        stored = rules.dump_sheet(seat.sheet)
        tuned = next(d for d in found.dials if d.key == key)
        assert tuned.value(stored) == value  # the number changed before seating
        for who in ("Ann", "Bea", "Obi"):
            assert not ts.sees_sheet(ts.viewer(who), cid)
    log = service.log(tid, "Ann")
    seated = [e for e in log if e.get("kind") == "character-added"][-3:]
    assert [e["payload"]["id"] for e in seated] == new
    for e in seated:
        assert e["sheet_hidden"] is True
        assert set(e["payload"]) == {"id", "owner", "sheet"}
        assert e["payload"]["owner"] is None and set(e["payload"]["sheet"]) == {"name"}
    shown = json.dumps(table_data(service.view(tid, "Ann"), ts.viewer("Ann")))
    assert found.line not in shown
    ron = json.dumps(table_data(service.view(tid, "Ron"), ts.viewer("Ron")))
    assert all(cid in ron for cid in new)


@pytest.mark.parametrize("game", one_fast(names()))
def test_who_may_not_see_the_adversaries_sheets_receives_the_same_bytes(
    tmp_path: Path, game: str
) -> None:
    entry, key, value = HIDDEN_NUMBER[game]
    got = []
    for tag, dials in (("as-stored", {}), ("tuned", {key: value})):
        service, tid = _table(tmp_path, game, tag)
        service.seat_adversaries(tid, entry, count=3, dials=dials, by="Ron")
        ids = list(service.load(tid).state.characters)
        service.note(tid, "Bea", "who are they?")
        kinds = service.load(tid).ruleset.actions().items()
        probes = [(n, _fields(k, [ids[0], ids[-1]])) for n, k in kinds if not k.referee_only][:10]
        everyone = ("Ron", "Ann", "Bea", "Obi")
        got.append({who: _received(service, tid, who, probes) for who in everyone})
    for who in ("Ann", "Bea", "Obi"):
        assert got[0][who] == got[1][who], who
    assert got[0]["Ron"] != got[1]["Ron"]  # the referee sees the number: the twins differ


@pytest.mark.parametrize("game", one_fast(["mneme", "mnemonic", "mongrel", "arm"]))
def test_every_number_an_adversary_seats_with_is_hidden_from_who_may_not_see_it(
    tmp_path: Path, game: str
) -> None:
    """Every dial of an adversary at its lowest on one table and at its highest on the
    other (Mneme CE's End is its HP, Mongrel's Physique its damage track, ARM's
    Toughness its wound levels, the numbers a tracker shows): a player and an observer
    receive the same bytes from both, tracker, state, log, odds and panels included."""
    rules = get(game)
    entry = next(e for e in rules.bestiary().values() if not e.from_text)
    got = []
    for tag, dials in (
        ("low", {d.key: d.low(entry.sheet) for d in entry.dials}),
        ("high", {d.key: d.le for d in entry.dials}),
    ):
        service, tid = _table(tmp_path, game, tag)
        service.seat_adversaries(tid, entry.id, count=2, dials=dials, by="Ron")
        ids = list(service.load(tid).state.characters)
        kinds = service.load(tid).ruleset.actions().items()
        probes = [(n, _fields(k, [ids[0], ids[-1]])) for n, k in kinds if not k.referee_only][:10]
        got.append({who: _received(service, tid, who, probes) for who in ("Ron", "Ann", "Obi")})
    assert got[0]["Ann"] == got[1]["Ann"]
    assert got[0]["Obi"] == got[1]["Obi"]
    assert got[0]["Ron"] != got[1]["Ron"]


def test_every_refusal_comes_before_anything_is_written(tmp_path: Path) -> None:
    service, tid = _table(tmp_path, "mneme")
    seq = service.load(tid).seq
    refusals: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"by": "Ann"}, Forbidden, r"only the referee seats adversaries"),
        ({"by": "Obi"}, Forbidden, r"only the referee"),
        ({"count": MAX_COUNT + 1}, RulesError, r"count: from 1 to 12"),
        ({"count": 0}, RulesError, r"count: from 1 to 12"),
        ({"dials": {"armour": 99}}, RulesError, r"Armour: a whole number from 0 to 12 \(got 99\)"),
        (
            {"dials": {"wings": 1}},
            RulesError,
            r"Raider has no number 'wings' to change; known: str",
        ),
        ({"dials": {"str": "ten"}}, RulesError, r"Str: a whole number from 1 to 15 \(got 'ten'\)"),
        ({"name": " "}, RulesError, r"the name pattern is empty"),
    ]
    for given, kind, match in refusals:
        how: dict[str, Any] = {"count": 3, "by": "Ron", **given}
        with pytest.raises(kind, match=match):
            service.seat_adversaries(tid, "raider", **how)
    with pytest.raises(RulesError, match=r"no adversary 'orc'"):
        service.seat_adversaries(tid, "orc", by="Ron")
    assert service.load(tid).seq == seq


def test_the_texts_own_numbers_are_seated_only_when_the_referee_forces_them(
    tmp_path: Path,
) -> None:
    service, tid = _table(tmp_path, "mongrel")
    seq = service.load(tid).seq
    with pytest.raises(RulesError, match=r"Vooruk: the sheet breaks 5 rule\(s\): expertise.Rend"):
        service.seat_adversaries(tid, "vooruk", by="Ron")
    assert service.load(tid).seq == seq
    done = service.seat_adversaries(tid, "vooruk", force=True, by="Ron")
    assert done.event.payload["forced"] is True and len(done.event.payload["problems"]) == 5


def test_names_are_numbered_from_the_first_free_and_follow_a_pattern(tmp_path: Path) -> None:
    service, tid = _table(tmp_path, "arm")
    service.seat_adversaries(tid, "thug", count=2, by="Ron")
    service.seat_adversaries(tid, "thug", count=2, by="Ron")
    service.seat_adversaries(tid, "thug", count=2, name="Bandit #", by=None)
    ts = service.load(tid)
    got = [s.sheet.name for s in ts.state.characters.values()][1:]
    assert got == ["Thug 1", "Thug 2", "Thug 3", "Thug 4", "Bandit 1", "Bandit 2"]
    assert names_for("Thug", 1, ["thug"]) == ["Thug 1"]
    assert names_for("Guard", 1, []) == ["Guard"]


def test_the_bestiary_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(["arm", "bestiary", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [e["id"] for e in listed][:3] == ["alex", "brad", "christine"]
    assert run(["mneme", "bestiary", "raider"]) == 0
    out = capsys.readouterr().out
    assert "Raider - A hardened attacker" in out and "Armour 4 (0 to 12; key armour)" in out
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    assert run(["table", "new", "mneme", "--name", "Den", "--db", db]) == 0
    capsys.readouterr()
    code = run(
        ["table", "char", "bestiary", "Den", "raider", "--count", "3", "armour=5", "--db", db]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert [line.split(" ", 3)[-1] for line in out.strip().splitlines()] == [
        "seated Raider 1",
        "seated Raider 2",
        "seated Raider 3",
    ]
    code = run(["table", "char", "bestiary", "Den", "raider", "armour=five", "--db", db])
    assert code != 0 and "write KEY=N with a whole number" in capsys.readouterr().err


def test_the_naming_examples_in_the_modules_text_run() -> None:
    import doctest

    import referee.table.bestiary as module

    found = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert found.attempted >= 2 and found.failed == 0
