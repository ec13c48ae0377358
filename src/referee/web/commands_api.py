"""The chat's commands over HTTP: ``POST /api/tables/{tid}/commands``.

The chat sends the line being typed: the answer says how it reads
(:func:`referee.table.commands.parse`: the action, its fields, who sees it) and what may
complete the word being typed, or a 422 naming what is wrong and at which word. With
``run`` the action is taken, through :meth:`~referee.table.service.TableService.act`
exactly as the action panel's (the same checks, the same visibility rules), and the
answer is its event as the caller sees it. Nothing here knows a game: the reading comes
from the action declarations, the names it offers from the sheets the caller may see.
"""

from __future__ import annotations

from typing import Any, Final, cast

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from pydantic import Field

from referee.table.commands import CommandError, Spec, complete, is_request, parse
from referee.table.events import Visibility
from referee.table.state import TableState
from referee.web.api_requests import request_line
from referee.web.app import web_of
from referee.web.deps import Writer, event_response, rules_call
from referee.web.models import Strict
from referee.web.strict import StrictRoute
from referee.web.views import action_forms, field_suggestions, seats

router = APIRouter(prefix="/api", route_class=StrictRoute, tags=["actions"])

MAX_LINE: Final = 1000


class CommandIn(Strict):
    """A chat line to read (and, with ``run``, to act on)."""

    line: str = Field(max_length=MAX_LINE, description="the line typed: /r 2d6, /task Fitness 6")
    actor: str | None = Field(
        None,
        max_length=64,
        description="the character the caller acts as unless the line names one "
        "(the page's 'Act as'); by default their only character",
    )
    run: bool = Field(False, description="take the action (else only read the line)")


def spec_for(ts: TableState, name: str, role: str, actor: str | None) -> Spec:
    """What a command of participant ``name`` may refer to at this table: its characters,
    the one they act as, and the names the sheets they may see offer each field."""
    referee = role == "referee"
    shown = seats(ts, ts.viewer(name))
    characters = {s.id: s.name for s in shown}
    mine = [s.id for s in shown if referee or s.owner == name]
    acting = actor if actor in mine else (mine[0] if len(mine) == 1 else None)
    own = next((s.sheet for s in shown if s.id == acting), None)
    others = [s.sheet for s in shown if s.sheet is not None]
    names = field_suggestions(action_forms(ts.ruleset), own, others)
    return Spec(characters, acting, referee, names)


def _error(e: CommandError) -> Response:
    return JSONResponse(
        {"detail": str(e), "word": e.word, "column": e.column, "kind": "command"},
        status_code=422,
    )


@router.post("/tables/{tid}/commands")
async def command_line(caller: Writer, body: CommandIn, request: Request) -> Any:
    """Read a chat command (``/r 4d6kh3``, ``/gr 2d6``, ``/br d6``, or one of the game's
    actions by name with its fields in words: ``/task Fitness 6``): how it reads and what
    completes the word being typed; with ``run``, take it (its event, as for
    ``POST .../actions``)."""
    web = web_of(request)
    ts = await run_in_threadpool(web.service.view, caller.table_id, caller.name)
    spec = spec_for(ts, caller.name, caller.role, body.actor)
    if is_request(body.line):  # the referee's roll request (referee.web.api_requests)
        return await request_line(request, caller, spec, body.line, body.run)
    rules = ts.ruleset
    start, options = complete(body.line, rules, spec)
    try:
        read = parse(body.line, rules, spec)
    except CommandError as e:
        if body.run:
            return _error(e)
        return {
            "command": None,
            "error": {"detail": str(e), "word": e.word, "column": e.column},
            "start": start,
            "options": [o.data() for o in options],
        }
    if not body.run:
        return {
            "command": read.data(),
            "error": None,
            "start": start,
            "options": [o.data() for o in options],
        }
    visibility = cast(Visibility, read.visibility or "public")

    def act() -> Response:
        done = web.service.act(
            caller.table_id, caller.name, read.action, read.fields, visibility=visibility
        )
        return event_response(done, caller)

    return await run_in_threadpool(rules_call, act)
