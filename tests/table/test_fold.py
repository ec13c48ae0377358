"""State = fold(events): from scratch, from a snapshot plus the tail, live, after undo/redo.

Hypothesis drives random sessions (checks, notes, edits, undos, redos, hidden rolls,
reveals) on a Mnemonic table with a card deck, snapshots every few events, and
compares every way of getting the state.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import RulesError
from referee.table.audit import verify_events
from referee.table.service import TableService
from referee.table.store import Store

COMMANDS = st.lists(
    st.one_of(
        st.tuples(st.just("check"), st.integers(0, 12), st.sampled_from(["public", "referee"])),
        st.tuples(st.just("sheet"), st.sampled_from(["Tough", "Agile"]), st.just("public")),
        st.tuples(st.just("note"), st.text(min_size=1, max_size=20), st.just("public")),
        st.tuples(st.just("edit"), st.integers(0, 3), st.just("public")),
        st.tuples(st.just("undo"), st.integers(1, 40), st.just("public")),
        st.tuples(st.just("redo"), st.integers(1, 40), st.just("public")),
        st.tuples(st.just("reveal"), st.integers(1, 40), st.just("public")),
        st.tuples(st.just("reshuffle"), st.just(0), st.just("public")),
    ),
    min_size=1,
    max_size=25,
)


def _run(service: TableService, tid: str, commands: list[tuple[str, object, str]]) -> None:
    for kind, arg, vis in commands:
        try:
            if kind == "check":
                service.act(tid, "Kim", "check", {"aptitude": arg}, visibility=vis)  # type: ignore[arg-type]
            elif kind == "sheet":
                service.act(tid, "Ann", "sheet-check", {"actor": "mickey-ruane", "talent": arg})
            elif kind == "note":
                service.note(tid, "Ann", str(arg))
            elif kind == "edit":
                service.edit(
                    tid,
                    [{"target": "mickey-ruane", "field": "status.injuries", "delta": arg}],
                    "the referee rules an old injury",
                    by="Kim",
                )
            elif kind == "undo":
                service.undo(tid, arg, by="Kim")  # type: ignore[arg-type]
            elif kind == "redo":
                service.redo(tid, arg, by="Kim")  # type: ignore[arg-type]
            elif kind == "reveal":
                service.reveal(tid, arg, by="Kim")  # type: ignore[arg-type]
            else:
                service.act(tid, "Kim", "reshuffle", {})
        except RulesError:
            continue  # an impossible undo/redo/reveal is refused, as at a real table


@settings(max_examples=25, deadline=None)
@given(commands=COMMANDS, every=st.integers(2, 7))
def test_every_way_of_folding_gives_the_same_state(
    commands: list[tuple[str, object, str]], every: int
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'f.db'}"
        service = TableService(Store(url), snapshot_every=every)
        tid = service.create(
            "mnemonic", "fold", "Kim", options={"randomizer": "cards"}, seed=3
        ).table.id
        service.join(tid, "Ann", "player")
        service.add_character(tid, "boxer", owner="Ann")
        _run(service, tid, commands)
        live = service.load(tid)
        cold = TableService(Store(url, migrate=False), snapshot_every=every).load(tid)
        events = service.store.events(tid)
        scratch, _ = verify_events(events, tid)
        assert live == cold == scratch
        assert service.store.snapshot_seqs(tid) == list(range(every, len(events) + 1, every))
        # what a player sees is folded from what they may see: the same as the truth when
        # nothing is hidden from them, never more than the truth
        seen = service.view(tid, "Ann")
        hidden = [h for h in live.hidden if h.seq not in live.revealed]
        if not hidden:
            assert seen == live


@settings(max_examples=20, deadline=None)
@given(commands=COMMANDS, pick=st.integers(0, 100))
def test_undo_then_redo_returns_to_the_same_state(
    commands: list[tuple[str, object, str]], pick: int
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        service = TableService(Store(f"sqlite:///{Path(tmp) / 'u.db'}"), snapshot_every=4)
        tid = service.create("mnemonic", "undo", "Kim", seed=9).table.id
        service.join(tid, "Ann", "player")
        service.add_character(tid, "boxer", owner="Ann")
        _run(service, tid, commands)
        before = service.load(tid)
        live = [
            e.seq
            for e in service.store.events(tid)
            if e.kind in ("action-resolved", "state-edited") and e.seq not in before.undone
        ]
        if not live:
            return
        target = live[pick % len(live)]
        try:
            service.undo(tid, target, by="Kim")
        except RulesError:
            return  # an undo that would break a later event is refused
        after = service.redo(tid, target, by="Kim").table
        assert after.state == before.state and after.undone == before.undone
