"""The pushed panels drawn once per viewer class (web/panel_push.py) are, for every viewer,
exactly what that viewer's page draws alone (pages.panels_data, the path a browser's
``/t/{tid}/panels`` takes), on a table where viewers differ in every way the class key
knows: referees, players with and without characters, observers, a proposal waiting, and
hidden events each kind of viewer may or may not see."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.open_table import OPEN

from referee.table.service import TableService
from referee.table.state import Viewer
from referee.table.store import Store
from referee.web import create_app
from referee.web.pages import Participant, panels_data
from referee.web.panel_push import pushed_panels, viewer_class

PEOPLE = {
    "Ron": "referee",
    "Rex": "referee",
    "Ann": "player",  # owns the boxer, proposes an attack
    "Bea": "player",  # owns the frigate, asked to decide
    "Cal": "player",  # rolled a note only he sees
    "Dee": "player",  # a private note's audience
    "Eve": "player",
    "Fay": "player",
    "Gus": "player",
    "Oli": "observer",
    "Ola": "observer",
}


def _alone(web: Any, tid: str, viewer: Viewer) -> dict[str, Any]:
    assert viewer.name is not None
    data = panels_data(web, Participant(tid, viewer.name, viewer.role))
    loaded: dict[str, Any] = json.loads(json.dumps({"type": "panels", **data}))
    return loaded


def _check_every_viewer(web: Any, draw: Any, service: TableService, tid: str) -> set[object]:
    viewers = [Viewer(n, r) for n, r in PEOPLE.items()]  # type: ignore[arg-type]
    drawn = draw(tid, viewers)
    assert set(drawn) == set(viewers)
    for v in viewers:
        text = drawn[v]
        assert text is not None
        assert json.loads(text) == _alone(web, tid, v), v
    ts = service.load(tid)
    return {viewer_class(ts, v) for v in viewers}


@pytest.mark.parametrize("sheets", ["own", "everyone"])
def test_panels_drawn_per_class_equal_each_viewer_drawn_alone(tmp_path: Path, sheets: str) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 'p.db'}"))
    tid = service.create("mnemonic", "Classes", "Ron", seed=5, settings=OPEN).table.id
    for name, role in PEOPLE.items():
        if name != "Ron":
            service.join(tid, name, role)  # type: ignore[arg-type]
    web = create_app(service, watch=False).state.web
    draw = pushed_panels(web)  # one drawer throughout, as the hub keeps one
    if sheets != "own":
        service.set_sheets(tid, sheets, by="Ron")
    # no character yet: every player is one class, every observer another
    classes = _check_every_viewer(web, draw, service, tid)
    assert len(classes) == 2 + 2  # two referees alone, the players, the observers

    service.add_character(tid, "boxer", owner="Ann")
    service.add_character(tid, "frigate", owner="Bea")
    service.act(tid, "Ron", "check", {"aptitude": 7})
    service.act(tid, "Ron", "check", {"aptitude": 5}, visibility="referee")
    secret = service.note(tid, "Ron", "a secret, revealed later", visibility="referee")
    service.reveal(tid, secret.event.seq, by="Ron")
    service.act(tid, "Cal", "roll", {"dice": "2d6"}, visibility="self")  # Cal's alone
    service.note(tid, "Ron", "for Dee", visibility="private", audience="Dee")
    proposed = service.act(tid, "Ann", "attack", {"actor": "mickey-ruane", "target": "swiftsure"})
    assert proposed.event.kind == "action-proposed"
    classes = _check_every_viewer(web, draw, service, tid)
    # Ann, Bea, Cal and Dee each alone, Eve, Fay and Gus together, the observers together
    assert len(classes) == 2 + 4 + 1 + 1
    ts = service.load(tid)
    assert viewer_class(ts, Viewer("Eve", "player")) == viewer_class(ts, Viewer("Gus", "player"))

    service.decide(
        tid,
        proposed.event.seq,
        {
            "defense": -3,
            "defender_talent": "Fast",
            "defender_life_role": "Sailor",
            "defender_fallback": "irrelevant",
        },
        by="Bea",
    )
    service.set_role(tid, "Gus", "observer", by="Ron")
    service.leave(tid, "Fay", by="Ron")
    people_now = {**PEOPLE, "Gus": "observer"}
    del people_now["Fay"]
    viewers = [Viewer(n, r) for n, r in people_now.items()]  # type: ignore[arg-type]
    drawn = draw(tid, [*viewers, Viewer("Fay", "player")])  # kept lists must not serve
    assert drawn[Viewer("Fay", "player")] is None  # no longer at the table: nothing drawn
    for v in viewers:
        assert json.loads(drawn[v] or "null") == _alone(web, tid, v), v


def test_events_while_a_round_draws_make_one_more_round_each_browser_its_viewers_text(
    tmp_path: Path,
) -> None:
    """The hub draws a table's panels in rounds (live.Hub._draw): one call for all the
    table's viewers (each once, however many browsers they have), events that come while
    it draws make exactly one more round, and every browser gets its own viewer's text."""
    import asyncio
    import threading
    import time

    from referee.web.live import Connection, Hub

    service = TableService(Store(f"sqlite:///{tmp_path / 'r.db'}"))
    tid = service.create("mnemonic", "Rounds", "Kim", seed=2, settings=OPEN).table.id
    service.join(tid, "Ann", "player")
    events = [service.act(tid, "Kim", "check", {"aptitude": 5}).event for _ in range(5)]
    calls: list[list[Viewer]] = []
    lock = threading.Lock()
    drawing = threading.Event()  # the first round has begun
    go_on = threading.Event()  # the other events have come: the first round may end

    def panels(table: str, viewers: Any) -> dict[Viewer, str]:
        with lock:
            calls.append(list(viewers))
            n = len(calls)
        if n == 1:  # a round that takes a while: the other events come meanwhile
            drawing.set()
            assert go_on.wait(10), "the test never let the first round end"
        return {v: json.dumps({"type": "panels", "who": v.name, "round": n}) for v in viewers}

    async def scenario() -> dict[str, list[Any]]:
        hub = Hub(service, lambda shown: "", panels=panels)
        hub.bind(asyncio.get_running_loop())
        conns = {
            "ann1": Connection(ws=None, table_id=tid, viewer=Viewer("Ann", "player"), last=0),  # type: ignore[arg-type]
            "ann2": Connection(ws=None, table_id=tid, viewer=Viewer("Ann", "player"), last=0),  # type: ignore[arg-type]
            "kim": Connection(ws=None, table_id=tid, viewer=Viewer("Kim", "referee"), last=0),  # type: ignore[arg-type]
        }
        for c in conns.values():
            c.catching_up = False
        hub.tables[tid] = set(conns.values())
        hub._dispatch(events[0])
        deadline = time.monotonic() + 10
        while not drawing.is_set():  # the first round is drawing
            assert time.monotonic() < deadline, "the first round never began"
            await asyncio.sleep(0.001)
        for e in events[1:]:
            hub._dispatch(e)
        go_on.set()
        while not (len(calls) >= 2 and hub._drawing.get(tid) is None):
            assert time.monotonic() < deadline, "the rounds never ended"
            await asyncio.sleep(0.001)
        # the rounds are over and nothing is left to push (every event went at once: the
        # table is not busy), so nothing can start a third round
        assert not hub._waiting and not hub._offering
        got: dict[str, list[Any]] = {}
        for name, c in conns.items():
            got[name] = []
            while not c.queue.empty():
                item = c.queue.get_nowait()
                assert item is not None
                text = c.take(item)
                if text is None:
                    continue  # a drawing replaced by a newer one before it went out
                msg = json.loads(text)
                if isinstance(msg, dict) and msg.get("type") == "panels":
                    got[name].append(msg)
        return got

    got = asyncio.run(scenario())
    assert len(calls) == 2  # the first event's round, and one for the four during it
    for viewers in calls:
        assert sorted(v.name or "" for v in viewers) == ["Ann", "Kim"]  # each viewer once
    for name, who in (("ann1", "Ann"), ("ann2", "Ann"), ("kim", "Kim")):
        # these browsers read nothing meanwhile: the second drawing replaced the first
        assert [(m["who"], m["round"]) for m in got[name]] == [(who, 2)]


def test_a_round_after_an_event_that_changes_nothing_but_the_seq_reads_the_same_undrawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an event that leaves every field of the table but its seq as it was (a check
    with no changes, a public note), a round sends each viewer's last text under the new
    seq without drawing it again; after any other event it draws. Either way every
    viewer's text is exactly what their page draws alone, event after event."""
    import referee.web.pages as pages

    drawings: list[str] = []

    def counted(web: Any, caller: Any, participants: str | None = None) -> Any:
        drawings.append(caller.name)
        return panels_data(web, caller, participants)

    monkeypatch.setattr(pages, "panels_data", counted)
    service = TableService(Store(f"sqlite:///{tmp_path / 'same.db'}"))
    tid = service.create("mnemonic", "Same", "Ron", seed=7, settings=OPEN).table.id
    for name, role in PEOPLE.items():
        if name != "Ron":
            service.join(tid, name, role)  # type: ignore[arg-type]
    service.add_character(tid, "boxer", owner="Ann")
    service.add_character(tid, "frigate", owner="Bea")
    web = create_app(service, watch=False).state.web
    draw = pushed_panels(web)
    people = dict(PEOPLE)

    def check(step: str) -> int:
        """Draw every viewer after ``step``: how many classes were drawn anew."""
        viewers = [Viewer(n, r) for n, r in people.items()]  # type: ignore[arg-type]
        drawings.clear()
        drawn = draw(tid, viewers)
        seq = service.load(tid).seq
        for v in viewers:
            got = json.loads(drawn[v] or "null")
            assert got == _alone(web, tid, v), (step, v)
            assert got["seq"] == seq, (step, v)
        return len(drawings)

    assert check("first round") == 2 + 2 + 1 + 1  # referees, Ann, Bea, players, observers
    unchanged = {
        "a check with no changes": lambda: service.act(tid, "Ron", "check", {"aptitude": 7}),
        "a public note": lambda: service.note(tid, "Ron", "the rain stops"),
        "another check": lambda: service.act(tid, "Ron", "check", {"aptitude": 3}),
    }
    changed = {
        "a check only the referees see": lambda: service.act(
            tid, "Ron", "check", {"aptitude": 5}, visibility="referee"
        ),
        "a note for Dee": lambda: service.note(
            tid, "Ron", "for Dee", visibility="private", audience="Dee"
        ),
        "an attack waiting for Bea": lambda: service.act(
            tid, "Ann", "attack", {"actor": "mickey-ruane", "target": "swiftsure"}
        ),
        "the sheets shown to everyone": lambda: service.set_sheets(tid, "everyone", by="Ron"),
        "the last event taken back": lambda: service.undo(tid, by="Ron"),
        "it put back": lambda: service.redo(tid, by="Ron"),
    }
    for step, do in unchanged.items():
        do()
        assert service.load(tid).seq > 0
        assert check(step) == 0, step  # nothing drawn: the last texts, the new seq
    for step, do in changed.items():
        do()
        assert check(step) > 0, step
        assert check(step + ", drawn again with nothing new") == 0, step
    service.set_role(tid, "Gus", "observer", by="Ron")
    people["Gus"] = "observer"
    assert check("Gus an observer") > 0
    ts = service.load(tid)
    for step, do in unchanged.items():
        do()
        assert check(f"{step} after it all") == 0, step
        assert service.load(tid).seq > ts.seq


def test_the_hub_draws_after_each_event_that_changes_the_table_and_only_those(
    tmp_path: Path,
) -> None:
    """The live hub skips a panels round after an event that left the table as it was
    but for its seq (live.Hub._still), and draws after every other event: after each
    event, every browser's newest panels are exactly its viewer's page drawn alone (but
    for the seq, which a skipped round leaves at the last drawing's)."""
    import asyncio
    import time

    from referee.web.live import Connection, Hub

    service = TableService(Store(f"sqlite:///{tmp_path / 'hub.db'}"))
    tid = service.create("mnemonic", "Hub", "Ron", seed=11, settings=OPEN).table.id
    for name in ("Ann", "Bea", "Eve"):
        service.join(tid, name, "player")
    service.join(tid, "Oli", "observer")
    service.add_character(tid, "boxer", owner="Ann")
    service.add_character(tid, "frigate", owner="Bea")
    web = create_app(service, watch=False).state.web
    drawer = pushed_panels(web)
    rounds: list[int] = []

    def panels(table: str, viewers: Any) -> Any:
        rounds.append(service.load(table).seq)
        return drawer(table, viewers)

    unchanged = {
        "a check with no changes": lambda: service.act(tid, "Ron", "check", {"aptitude": 7}),
        "another check": lambda: service.act(tid, "Ron", "check", {"aptitude": 2}),
    }
    changed = {
        "a check only the referees see": lambda: service.act(
            tid, "Ron", "check", {"aptitude": 5}, visibility="referee"
        ),
        "an attack waiting for Bea": lambda: service.act(
            tid, "Ann", "attack", {"actor": "mickey-ruane", "target": "swiftsure"}
        ),
        "the sheets shown to everyone": lambda: service.set_sheets(tid, "everyone", by="Ron"),
        "the last event taken back": lambda: service.undo(tid, by="Ron"),
        "it put back": lambda: service.redo(tid, by="Ron"),
    }
    steps = [*unchanged.items(), *changed.items(), *unchanged.items()]
    viewers = [Viewer("Ron", "referee"), *(Viewer(n, "player") for n in ("Ann", "Bea", "Eve"))]
    viewers.append(Viewer("Oli", "observer"))

    async def scenario() -> None:
        hub = Hub(service, lambda shown: "", panels=panels)
        hub.bind(asyncio.get_running_loop())
        conns = [Connection(ws=None, table_id=tid, viewer=v, last=0) for v in viewers]  # type: ignore[arg-type]
        for c in conns:
            c.catching_up = False
            c.last = service.load(tid).seq
        hub.tables[tid] = set(conns)
        cancel = service.subscribe(tid, hub._from_service)
        newest: dict[Viewer, dict[str, Any]] = {}

        async def settled(seq: int) -> None:
            deadline = time.monotonic() + 10
            while any(c.last < seq for c in conns) or tid in hub._drawing:
                assert time.monotonic() < deadline, "the push never settled"
                await asyncio.sleep(0.002)
            for c in conns:
                while not c.queue.empty():
                    item = c.queue.get_nowait()
                    assert item is not None
                    text = c.take(item)
                    if text is not None and text.startswith('{"type":"panels"'):
                        newest[c.viewer] = json.loads(text)

        try:
            # a first drawing for everyone: a change (Eve's character)
            service.add_character(tid, "boxer", owner="Eve", cid="eves-boxer")
            await settled(service.load(tid).seq)
            for step, do in steps:
                before = len(rounds)
                done = await asyncio.to_thread(do)
                await settled(done.event.seq)
                if step in unchanged:
                    assert len(rounds) == before, step  # no round at all
                else:
                    assert len(rounds) > before, step
                for v in viewers:
                    want = {k: x for k, x in _alone(web, tid, v).items() if k != "seq"}
                    got = {k: x for k, x in newest[v].items() if k != "seq"}
                    assert got == want, (step, v)
        finally:
            cancel()

    asyncio.run(scenario())
