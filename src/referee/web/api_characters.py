"""The API's characters at one table: seating one (an example or a sheet), replacing its
sheet, taking it off, and checking a sheet without seating it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from referee.errors import InvalidSheet
from referee.systems.base import JSONObject, problem_data
from referee.web.app import WebError, web_of
from referee.web.deps import (
    Reader,
    Writer,
    at_path,
    bounded,
    command,
    referee_only,
    rules_call,
    values,
)
from referee.web.models import AddCharacterIn, SeatAdversariesIn, SheetIn, UpdateCharacterIn
from referee.web.routes import serves
from referee.web.strict import StrictRoute

router = APIRouter(route_class=StrictRoute)
"""The routes beside the operations' (``/api`` is the API's prefix: :mod:`referee.web.api`)."""


@serves("char add")
async def add_character(caller: Writer, request: Request, body: AddCharacterIn) -> Response:
    """Seat one sheet: an example's id or a sheet, not both."""
    given = values("char add", body)
    example = given.pop("example")
    if (example is None) == (given["sheet"] is None):
        raise WebError(422, "give either 'example' or 'sheet'")
    given["sheet"] = given["sheet"] if example is None else example
    return await command(request, caller, "char add", given)


@serves("char bestiary")
async def seat_adversaries(caller: Writer, request: Request, body: SeatAdversariesIn) -> Response:
    """Seat adversaries from the game's bestiary (the referee); answered with the last
    seating (the others come before it in the log)."""
    return await command(request, caller, "char bestiary", values("char bestiary", body))


@serves("char update")
async def update_character(
    caller: Writer,
    request: Request,
    cid: Annotated[str, at_path("char update", "cid")],
    body: UpdateCharacterIn,
) -> Response:
    """Replace character ``cid``'s sheet."""
    return await command(request, caller, "char update", values("char update", body, cid=cid))


@serves("char remove")
async def remove_character(
    caller: Writer, request: Request, cid: Annotated[str, at_path("char remove", "cid")]
) -> Response:
    """Take character ``cid`` off the table."""
    return await command(request, caller, "char remove", values("char remove", cid=cid))


@router.post("/tables/{tid}/validate", tags=["characters"])
def validate_sheet(caller: Reader, body: SheetIn, request: Request) -> dict[str, Any]:
    """Check a sheet against the game's rules and the table's house rules without
    seating it: every broken rule is named."""
    web = web_of(request)
    bounded(body.sheet, "sheet")
    ts = web.service.view(caller.table_id, caller.name)

    def check() -> list[JSONObject]:
        try:
            loaded = ts.ruleset.load_sheet(body.sheet)
        except InvalidSheet as e:
            return [problem_data(p) for p in e.problems]
        return [problem_data(p) for p in ts.ruleset.validate(loaded, ts.options, ts.state)]

    problems = rules_call(check)
    return {"valid": not problems, "problems": problems}


@router.get("/tables/{tid}/bestiary", tags=["characters"])
def bestiary(caller: Reader, request: Request) -> list[dict[str, Any]]:
    """The game's adversaries and templates (the referee): each entry's name, what it
    is, where it comes from, its sheet, and the numbers a referee changes before seating
    it, with their bounds."""
    referee_only(caller, "read the bestiary at a table")
    ts = web_of(request).service.view(caller.table_id, caller.name)
    return [entry.data() for entry in ts.ruleset.bestiary().values()]
