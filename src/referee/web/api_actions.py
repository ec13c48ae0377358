"""The API's play at one table: the odds of an action, taking it, deciding what waits for
a decision, notes, undo and redo, the referee's reveals, edits and answers. Each route
is an operation of :mod:`referee.table.operations` (where: :mod:`referee.web.routes`),
answered with the event it appended as the caller may see it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Request
from fastapi.responses import Response

from referee.web.deps import Reader, Writer, at_path, command, odds_off_loop, values
from referee.web.models import (
    ActIn,
    AnswerIn,
    DecideIn,
    EditIn,
    NoteIn,
    OddsIn,
    RedoIn,
    RevealIn,
    UndoIn,
)
from referee.web.routes import serves


@serves("odds", "Computed off the event loop, a few at once per link (429 past that).")
async def odds(caller: Reader, request: Request, body: OddsIn) -> dict[str, Any]:
    """The odds, in a worker when they are costly (:func:`~referee.web.deps.odds_off_loop`)."""
    name, fields, data, _html = await odds_off_loop(request, caller, **values("odds", body))
    return {"action": name, "fields": fields, **data}


@serves("act")
async def act(caller: Writer, request: Request, body: ActIn) -> Response:
    """Take an action."""
    return await command(request, caller, "act", values("act", body))


@serves("decide")
async def decide(
    caller: Writer, request: Request, seq: Annotated[int, at_path("decide", "seq")], body: DecideIn
) -> Response:
    """Answer the decision proposal ``seq`` waits for."""
    return await command(request, caller, "decide", values("decide", body, seq=seq))


@serves("withdraw")
async def withdraw(
    caller: Writer, request: Request, seq: Annotated[int, at_path("withdraw", "seq")]
) -> Response:
    """Withdraw proposal ``seq``."""
    return await command(request, caller, "withdraw", values("withdraw", seq=seq))


@serves("note")
async def note(caller: Writer, request: Request, body: NoteIn) -> Response:
    """A note or chat line."""
    return await command(request, caller, "note", values("note", body))


@serves("undo")
async def undo(caller: Writer, request: Request, body: UndoIn) -> Response:
    """Take back an action or edit."""
    return await command(request, caller, "undo", values("undo", body))


@serves("redo")
async def redo(caller: Writer, request: Request, body: RedoIn) -> Response:
    """Put back an undone action or edit."""
    return await command(request, caller, "redo", values("redo", body))


@serves("reveal")
async def reveal(caller: Writer, request: Request, body: RevealIn) -> Response:
    """Show a hidden event to everyone."""
    return await command(request, caller, "reveal", values("reveal", body))


@serves("edit")
async def edit(caller: Writer, request: Request, body: EditIn) -> Response:
    """Correct the game state by hand."""
    return await command(request, caller, "edit", values("edit", body))


@serves("answer")
async def answer(
    caller: Writer, request: Request, seq: Annotated[int, at_path("answer", "seq")], body: AnswerIn
) -> Response:
    """Grant or refuse the request ``seq`` asked."""
    return await command(request, caller, "answer", values("answer", body, seq=seq))
