"""Who sees what is decided in one place (issue 36 item 6): :func:`can_see` takes an
event or the table's record of a hidden one, :meth:`TableState.sees_everything` is the
one partial-view test, and :func:`redact` cannot skip hiding a sheet."""

from __future__ import annotations

import pytest

from referee.table.events import Event
from referee.table.service import redact
from referee.table.state import Hidden, Viewer, can_see


def test_a_hidden_record_and_its_event_are_seen_alike() -> None:
    for visibility in ("public", "referee", "blind", "private", "self"):
        record = Hidden(4, visibility, "Bo", "Al")  # type: ignore[arg-type]
        event = Event("t", 4, "", "Al", "note", {}, visibility, "Bo")  # type: ignore[arg-type]
        for viewer in (Viewer("Al", "player"), Viewer("Bo", "player"), Viewer("Cy", "player")):
            for revealed in (frozenset(), frozenset({4})):
                assert can_see(record, viewer, revealed) == can_see(event, viewer, revealed)
    assert not can_see(Hidden(4, "referee", None, "Al"), Viewer("Bo", "player"))
    assert can_see(Hidden(4, "private", "Bo", "Al"), Viewer("Bo", "player"))


def test_a_sheet_is_never_shown_for_want_of_the_table() -> None:
    seated = Event("t", 3, "", "Al", "character-added", {"id": "pc", "sheet": {"name": "X"}})
    with pytest.raises(TypeError, match=r"holds a sheet"):
        redact(seated, Viewer("Bo", "player"), frozenset(), None)
    note = Event("t", 3, "", "Al", "note", {"text": "hi"})
    assert redact(note, Viewer("Bo", "player"), frozenset(), None)["payload"] == {"text": "hi"}
