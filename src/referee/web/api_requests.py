"""The API's roll requests: the referee asks characters for a roll (maybe against a secret
difficulty), each asked player rolls with one call, the referee withdraws what waits.
Each route is an operation of :mod:`referee.table.operations` (where:
:mod:`referee.web.routes`), its logic :mod:`referee.table.requests`'."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from referee.errors import RulesError
from referee.systems.base import JSONObject
from referee.table import request_views
from referee.table.commands import CommandError, Spec, parse_request
from referee.web.app import web_of
from referee.web.auth import Caller
from referee.web.deps import Reader, Writer, at_path, command, rules_call, values
from referee.web.models import RequestIn, RollIn
from referee.web.routes import serves


@serves("request")
async def request_rolls(caller: Writer, request: Request, body: RequestIn) -> Response:
    """Ask for rolls."""
    return await command(request, caller, "request", values("request", body))


@serves("requests")
async def roll_requests(caller: Reader, request: Request) -> list[dict[str, Any]]:
    """The roll requests as the caller may know them."""
    service = web_of(request).service
    return await run_in_threadpool(
        rules_call, lambda: service.requests(caller.table_id, caller.name)
    )


@serves("roll")
async def roll_for_request(
    caller: Writer, request: Request, seq: Annotated[int, at_path("roll", "seq")], body: RollIn
) -> Response:
    """Roll for request ``seq``."""
    return await command(request, caller, "roll", values("roll", body, seq=seq))


@serves("recall")
async def recall_request(
    caller: Writer, request: Request, seq: Annotated[int, at_path("recall", "seq")]
) -> Response:
    """Withdraw request ``seq``."""
    return await command(request, caller, "recall", values("recall", seq=seq))


async def request_line(request: Request, caller: Caller, spec: Spec, line: str, run: bool) -> Any:
    """A chat ``/request`` line (:func:`~referee.table.commands.parse_request`): read, with
    the exact chance of each asked character (the referee's preview); with ``run``, sent
    (its event, as for ``POST .../roll-requests``). A line that cannot be read answers as
    the chat's other commands do."""
    web = web_of(request)
    ts = await run_in_threadpool(web.service.view, caller.table_id, caller.name)
    try:
        read = parse_request(line, ts.ruleset, spec)
    except CommandError as e:
        body = {"detail": str(e), "word": e.word, "column": e.column, "kind": "command"}
        if run:
            return JSONResponse(body, status_code=422)
        return {"command": None, "error": body, "start": 0, "options": []}
    given: dict[str, Any] = {
        "action": read.action,
        "fields": read.fields,
        "characters": list(read.characters),
        "difficulty": read.difficulty,
        "secret": read.secret,
        "visibility": read.visibility,
    }
    if run:
        return await command(request, caller, "request", given)

    def shown() -> list[JSONObject]:
        return request_views.preview(
            web.service,
            caller.table_id,
            caller.name,
            read.action,
            read.fields,
            list(read.characters),
            read.difficulty,
            read.secret,
            read.visibility,
        )

    try:
        chances = await run_in_threadpool(rules_call, shown)
    except RulesError as e:
        return {"command": read.data(), "error": {"detail": str(e)}, "start": 0, "options": []}
    return {"command": read.data(), "preview": chances, "error": None, "start": 0, "options": []}
