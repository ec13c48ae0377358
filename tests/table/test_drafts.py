"""Issue 36, item 7: every command of the table service builds one typed :class:`Draft`
(never a tuple), the writer seals exactly what the draft says, and the rooms the service
was split into import nothing of the service (it is their facade, not their base)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest
from tests.open_table import OPEN

import referee.table.service as service_module
from referee.table.drafts import Build, Draft
from referee.table.service import Done, TableService
from referee.table.state import TableState
from referee.table.store import Store

TABLE = Path(__file__).resolve().parents[2] / "src" / "referee" / "table"
ROOMS = ("drafts", "rights", "acting", "running", "viewing")


def _recording(service: TableService, monkeypatch: pytest.MonkeyPatch) -> list[Draft]:
    """Every draft the service's commands' builds make from now on (each try's)."""
    drafts: list[Draft] = []
    command = service._command

    def recording(ref: str, by: str | None, build: Build, *rest: Any, **more: Any) -> Done:
        def kept(ts: TableState) -> Draft:
            drafts.append(build(ts))
            return drafts[-1]

        return command(ref, by, kept, *rest, **more)

    monkeypatch.setattr(service, "_command", recording)
    return drafts


def test_every_command_builds_one_typed_draft_and_the_event_is_that_draft(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = TableService(Store(f"sqlite:///{tmp_path / 't.db'}"))
    drafts = _recording(service, monkeypatch)
    tid = service.create("mnemonic", "Night", "Kim", seed=1, settings=OPEN).table.id
    done = [
        service.join(tid, "Ann", "player"),
        service.add_character(tid, "boxer", owner="Ann"),
        service.set_sheets(tid, "everyone", by="Kim"),
        service.set_settings(tid, take_back="ask", by="Kim"),
        service.act(tid, "Ann", "sheet-check", {"actor": "mickey-ruane", "talent": "Tough"}),
        service.act(tid, "Kim", "check", {"aptitude": 5}, visibility="referee"),
        service.note(tid, "Ann", "for Kim", visibility="private", audience="Kim"),
        service.undo(tid, by="Kim"),
        service.redo(tid, by="Kim"),
        service.reveal(tid, 7, by="Kim"),
        service.edit(
            tid,
            [{"target": "mickey-ruane", "field": "status.injuries", "delta": 1}],
            "hurt",
            by="Kim",
        ),
        service.set_role(tid, "Ann", "observer", by="Kim"),
        service.leave(tid, "Ann", by="Kim"),
    ]
    assert [type(d) for d in drafts] == [Draft] * len(done)
    assert [d.kind for d in drafts] == [
        "participant-joined",
        "character-added",
        "sheets-shown",
        "settings-changed",
        "action-resolved",
        "action-resolved",
        "note",
        "undo",
        "redo",
        "reveal",
        "state-edited",
        "role-changed",
        "participant-left",
    ]
    for draft, made in zip(drafts, done, strict=True):
        event = made.event
        assert (event.kind, event.visibility, event.audience) == (
            draft.kind,
            draft.visibility,
            draft.audience,
        )
        assert event.payload == draft.payload and event.rolls == draft.rolls
        assert (draft.outcome is not None) == (draft.kind == "action-resolved")
    secret = drafts[5]
    assert (secret.visibility, secret.audience, len(secret.rolls)) == ("referee", None, 1)
    private = drafts[6]
    assert (private.visibility, private.audience) == ("private", "Kim")
    undone = drafts[7]  # the referee's secret roll taken back: as hidden as it
    assert (undone.payload, undone.visibility) == ({"seq": 7}, "referee")


def test_a_draft_is_frozen_and_public_with_no_dice_by_default() -> None:
    draft = Draft("note", {"text": "hi"})
    assert (draft.visibility, draft.audience, draft.rolls, draft.outcome) == (
        "public",
        None,
        (),
        None,
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        draft.kind = "undo"  # type: ignore[misc]


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found


def test_the_rooms_of_the_table_service_never_import_the_service() -> None:
    for room in ROOMS:
        imported = _imports(TABLE / f"{room}.py")
        assert "referee.table.service" not in imported, room
        assert not any(i.startswith(("referee.web", "referee.cli")) for i in imported), room


def test_every_name_the_edges_import_from_the_service_is_still_there() -> None:
    for name in (
        "Answer",
        "Choice",
        "Done",
        "Draft",
        "Forbidden",
        "HiddenOdds",
        "StaleTable",
        "TableService",
        "derived_seed",
        "now",
        "proposal_data",
        "redact",
        "redaction_key",
        "sheet_hidden",
        "table_data",
    ):
        assert hasattr(service_module, name), name
