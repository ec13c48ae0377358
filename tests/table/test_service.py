"""The service refuses bad input with a clear message naming what is wrong, and the
audit finds any change to a stored table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import update
from tests.open_table import OPEN

from referee.errors import IllegalAction, InvalidSheet, RulesError
from referee.table.audit import export, import_table, verify
from referee.table.events import LogError
from referee.table.service import Forbidden, StaleTable, TableService
from referee.table.store import Store, StoreError, events_t


@pytest.fixture
def table(tmp_path: Path) -> tuple[TableService, str]:
    service = TableService(Store(f"sqlite:///{tmp_path / 't.db'}"))
    tid = service.create("mnemonic", "Night", "Kim", seed=1, settings=OPEN).table.id
    service.join(tid, "Ann", "player")
    service.join(tid, "Obi", "observer")
    service.add_character(tid, "boxer", owner="Ann")
    return service, tid


def test_unknown_things_are_named(table: tuple[TableService, str]) -> None:
    service, tid = table
    with pytest.raises(StoreError, match="no table 'Day'"):
        service.act("Day", "Ann", "check", {"aptitude": 3})
    with pytest.raises(
        RulesError, match="'Zed' has not joined table 'Night'; joined: Kim, Ann, Obi"
    ):
        service.act(tid, "Zed", "check", {"aptitude": 3})
    with pytest.raises(IllegalAction, match="has no action 'fly'; known: check, sheet-check"):
        service.act(tid, "Kim", "fly", {})
    with pytest.raises(InvalidSheet, match="aptitude"):
        service.act(tid, "Kim", "check", {"aptitude": "high"})
    with pytest.raises(RulesError, match=r"Aptitude must be 0\.\.12"):
        service.act(tid, "Kim", "check", {"aptitude": 13})
    with pytest.raises(InvalidSheet, match="speed: unknown field"):
        service.act(tid, "Kim", "check", {"aptitude": 3, "speed": 1})
    with pytest.raises(IllegalAction, match="no character 'zed'"):
        service.act(tid, "Kim", "sheet-check", {"actor": "zed", "talent": "Tough"})
    with pytest.raises(RulesError, match="no example character 'pirate'; known: boxer, frigate"):
        service.add_character(tid, "pirate")
    with pytest.raises(RulesError, match="unknown role 'king'"):
        service.join(tid, "Bo", "king")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown visibility 'loud'"):
        service.note(tid, "Ann", "hi", visibility="loud")  # type: ignore[arg-type]
    assert service.store.count(tid) == 4  # nothing was written by any of them


def test_who_may_do_what(table: tuple[TableService, str]) -> None:
    service, tid = table
    with pytest.raises(Forbidden, match="observer only reads"):
        service.note(tid, "Obi", "hello")
    with pytest.raises(Forbidden, match="only the referee rolls in secret"):
        service.act(
            tid,
            "Ann",
            "sheet-check",
            {"actor": "mickey-ruane", "talent": "Tough"},
            visibility="referee",
        )
    with pytest.raises(Forbidden, match="check is the referee's action"):
        service.act(tid, "Ann", "check", {"aptitude": 3})
    for call in (
        lambda: service.edit(
            tid,
            [{"target": "mickey-ruane", "field": "status.injuries", "delta": 1}],
            "why",
            by="Ann",
        ),
        lambda: service.set_options(tid, {"randomizer": "3d12"}, by="Ann"),
        lambda: service.join(tid, "Bo", "player", by="Ann"),
        lambda: service.remove_character(tid, "mickey-ruane", by="Ann"),
    ):
        with pytest.raises(Forbidden, match="only the referee may"):
            call()
    with pytest.raises(RulesError, match="'Kim' is the table's only referee"):
        service.set_role(tid, "Kim", "player")
    # a player undoes only their own newest action, while nothing happened since
    mine = service.act(tid, "Ann", "sheet-check", {"actor": "mickey-ruane", "talent": "Tough"})
    service.note(tid, "Kim", "the lights go out")
    assert service.undo(tid, by="Ann").event.payload == {"seq": mine.event.seq}
    theirs = service.act(tid, "Kim", "check", {"aptitude": 5})
    with pytest.raises(Forbidden, match="a player undoes only their own newest action"):
        service.undo(tid, theirs.event.seq, by="Ann")


def test_stale_seq_and_bounds(table: tuple[TableService, str]) -> None:
    service, tid = table
    head = service.load(tid).seq
    service.act(tid, "Kim", "check", {"aptitude": 5}, expect=head)
    with pytest.raises(StaleTable, match=f"is at event {head + 1}, not {head}"):
        service.act(tid, "Kim", "check", {"aptitude": 5}, expect=head)
    with pytest.raises(RulesError, match="longer than 4000 characters"):
        service.note(tid, "Ann", "x" * 4001)
    with pytest.raises(RulesError, match="longer than 64 characters"):
        service.join(tid, "A" * 65, "player")
    with pytest.raises(RulesError, match="invisible or control character"):
        service.join(tid, "A\x00B", "player")
    rules = service.load(tid).ruleset
    big = {**rules.dump_sheet(rules.examples()["boxer"]), "primary_role": "x" * 300_000}
    with pytest.raises(InvalidSheet, match="primary_role: longer than 10000 characters"):
        service.add_character(tid, big, cid="big", force=True)
    huge = [{"target": "mickey-ruane", "field": "status.condition", "value": "x" * 300_000}]
    with pytest.raises(RulesError, match=r"payload of [\d,]+ bytes; at most 262,144"):
        service.edit(tid, huge, "a very long condition")
    with pytest.raises(InvalidSheet) as err:
        service.add_character(tid, {"name": "y" * 300_000})
    assert len(str(err.value)) < 400  # the message names the problem, not the input
    with pytest.raises(RulesError, match="a manual edit needs a reason"):
        service.edit(tid, [{"target": "mickey-ruane", "field": "status.injuries", "delta": 1}], " ")
    with pytest.raises(RulesError, match="change 0: give a 'delta' or a 'value'"):
        service.edit(tid, [{"target": "mickey-ruane", "field": "status.injuries"}], "why")
    with pytest.raises(IllegalAction, match="no field 'hp'"):
        service.edit(tid, [{"target": "mickey-ruane", "field": "hp", "delta": 1}], "why")


def test_a_changed_database_is_reported_at_the_first_bad_event(
    table: tuple[TableService, str],
) -> None:
    service, tid = table
    for _ in range(3):
        service.act(tid, "Kim", "check", {"aptitude": 6})
    assert verify(service, tid).ok
    stored = service.store.events(tid, after=5, upto=6)[0]
    outcome = stored.payload["outcome"]
    forged = {**stored.payload, "outcome": {**outcome, "result": 12}}  # type: ignore[dict-item]
    with service.store.writer.begin() as conn:
        conn.execute(
            update(events_t)
            .where(events_t.c.table_id == tid, events_t.c.seq == 6)
            .values(payload=json.dumps(forged))
        )
    report = verify(TableService(service.store), tid)
    assert (report.ok, report.seq) == (False, 6)
    assert "hash does not match its content" in report.problem


def test_imports_verify_everything_and_write_nothing_when_bad(
    table: tuple[TableService, str], tmp_path: Path
) -> None:
    service, tid = table
    for _ in range(3):
        service.act(tid, "Kim", "check", {"aptitude": 6})
    data = json.loads(json.dumps(export(service, tid)))
    other = TableService(Store(f"sqlite:///{tmp_path / 'o.db'}"))

    forged = json.loads(json.dumps(data))
    forged["events"][6]["payload"]["outcome"]["result"] = 12  # seq 7
    with pytest.raises(LogError, match="event 7: its hash does not match"):
        import_table(other, forged)

    resealed = json.loads(json.dumps(data))  # a forger who recomputes the hashes too
    from referee.table.events import event_from_data

    events = [event_from_data(e) for e in resealed["events"]]
    bad = events[6]
    outcome = dict(bad.payload["outcome"])  # type: ignore[arg-type]
    outcome["result"] = outcome["result"] + 1  # type: ignore[operator]
    prev = events[5].hash
    rebuilt = []
    for e in events:
        if e.seq == 7:
            e = (
                type(e)(**{**e.__dict__, "payload": {**e.payload, "outcome": outcome}})
                if False
                else e.__class__(
                    e.table,
                    e.seq,
                    e.time,
                    e.actor,
                    e.kind,
                    {**e.payload, "outcome": outcome},
                    e.visibility,
                    e.audience,
                    e.rolls,
                    e.salt,
                    prev,
                    "",
                ).sealed()
            )
        elif e.seq > 7:
            e = e.__class__(
                e.table,
                e.seq,
                e.time,
                e.actor,
                e.kind,
                e.payload,
                e.visibility,
                e.audience,
                e.rolls,
                e.salt,
                prev,
                "",
            ).sealed()
        rebuilt.append(e)
        prev = e.hash
    resealed["events"] = [e.data() for e in rebuilt]
    with pytest.raises(
        LogError, match="event 7: replaying the action from its faces gives another"
    ):
        import_table(other, resealed)

    truncated = json.loads(json.dumps(data))
    del truncated["events"][3]
    with pytest.raises(LogError, match="event 5: expected event 4 here"):
        import_table(other, truncated)
    with pytest.raises(LogError, match="field 'payload' missing"):
        import_table(other, {**data, "events": [{**data["events"][0], "payload": None}]})
    assert other.store.tables() == []  # nothing written by any refused import
    assert import_table(other, data).ok
    with pytest.raises(StoreError, match="already exists"):
        import_table(other, data)


def test_another_process_s_appends_are_delivered_and_a_head_already_published_reads_nothing(
    tmp_path: Path,
) -> None:
    """``deliver`` (the watch thread's hook) publishes to this process's subscribers the
    events another process appended, once each and in order; told a head it published
    already (its own appends, which the SQLite poll sees too), it reads nothing."""
    url = f"sqlite:///{tmp_path / 'two.db'}"
    here, there = TableService(Store(url)), TableService(Store(url))
    tid = here.create("mnemonic", "Two", "Ron", seed=1).table.id
    got: list[int] = []
    here.subscribe(tid, lambda e: got.append(e.seq))
    mine = here.act(tid, "Ron", "check", {"aptitude": 7}).event.seq
    assert got == [mine]
    reads: list[int] = []
    events = here.store.events

    def counted(table_id: str, after: int = 0, upto: int | None = None, limit: int | None = None):  # type: ignore[no-untyped-def]
        reads.append(after)
        return events(table_id, after=after, upto=upto, limit=limit)

    here.store.events = counted  # type: ignore[method-assign]
    here.deliver(tid, mine)  # the poll saw this process's own append
    assert reads == [] and got == [mine]
    theirs = [there.act(tid, "Ron", "check", {"aptitude": 5}).event.seq for _ in range(2)]
    here.deliver(tid, theirs[-1])
    assert reads == [mine] and got == [mine, *theirs]
    here.deliver(tid, theirs[-1])  # the same head again: nothing read, nothing twice
    here.deliver()  # every table (a reconnect): read, nothing new
    assert reads == [mine, theirs[-1]] and got == [mine, *theirs]
