"""The API's tables: the games a table can be made for, a new table, the tables a browser
opens, an import; one table read whole (its view, its log, its export, its check) and
its referee's choices (house rules, who sees sheets, how it runs)."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from referee.errors import RulesError
from referee.table import signing
from referee.table.audit import export, verify
from referee.table.operations import BY_NAME
from referee.web.app import WebError, web_of
from referee.web.auth import set_session, table_cookies
from referee.web.deps import (
    Reader,
    Writer,
    bounded,
    command,
    contract_games,
    from_this_site,
    in_pool,
    in_query,
    link_for,
    new_table_quota,
    referee_only,
    rules_call,
    server_signer,
    summary,
    values,
    view_data,
)
from referee.web.models import (
    Created,
    CreateTable,
    Imported,
    SetOptionsIn,
    SetSettingsIn,
    SetSheetsIn,
    TableSummary,
)
from referee.web.routes import serves
from referee.web.strict import StrictRoute
from referee.web.worker import import_in_worker, import_on, imported

router = APIRouter(route_class=StrictRoute)
"""The routes on no table yet (``/api`` is the API's prefix: :mod:`referee.web.api`)."""


@router.get("/games", tags=["games"])
def games() -> list[dict[str, Any]]:
    """Every game a table can be made for: its house-rule options with their defaults,
    its actions with every field (type, default, bounds, meaning) and its example
    characters."""
    from referee.systems.base import describe_fields, describe_options

    return [
        {
            "name": name,
            "title": rules.title,
            "options": describe_options(rules.options_type),
            "actions": {a: describe_fields(t) for a, t in rules.every_action().items()},
            "examples": list(rules.examples()),
        }
        for name, rules in contract_games()
    ]


@router.post(
    "/tables",
    status_code=201,
    tags=["tables"],
    description=BY_NAME["new"].help
    + " The answer holds your secret link (keep it: it is shown once) and sets this "
    "browser's session cookie.",
)
def create_table(body: CreateTable, request: Request, response: Response) -> Created:
    web = from_this_site(request)
    if body.game.strip().lower() not in dict(contract_games()):
        known = ", ".join(n for n, _ in contract_games())
        raise WebError(422, f"no game {body.game!r} can run a table; known: {known}")
    bounded(body.options, "options")
    bounded(body.settings, "settings")
    new_table_quota(request)
    done = rules_call(
        lambda: web.service.create(
            body.game,
            body.name,
            body.referee,
            options=body.options,
            seed=body.seed,
            settings=body.settings,
        )
    )
    ts = done.table
    referee = next(iter(ts.participants))
    token, _grant = web.tokens.issue(ts.id, referee, "referee")
    set_session(response, request, ts.id, token)
    return Created(table=summary(ts, referee), link=link_for(request, token), token=token)


@router.get("/tables", tags=["tables"])
def my_tables(request: Request) -> list[TableSummary]:
    """The tables this browser (its cookies) or this bearer token opens."""
    web = web_of(request)
    held = dict(table_cookies(request))
    header = request.headers.get("authorization", "")
    out = []
    candidates = list(held.values())
    if header[:7].lower() == "bearer ":
        candidates.append(header[7:].strip())
    seen: set[str] = set()
    for token in candidates:
        grant = web.tokens.check(token)
        if grant is None or grant.table_id in seen:
            continue
        seen.add(grant.table_id)
        try:
            ts = web.service.load(grant.table_id)
        except RulesError:
            continue
        if grant.name in ts.participants:
            out.append(summary(ts, grant.name))
    return out


@router.post(
    "/import",
    status_code=201,
    tags=["tables"],
    description=BY_NAME["import"].help
    + " A signed file whose tail was cut, or whose log was changed and rehashed, is "
    "refused. ``signature`` says whether the file is signed by a key this server trusts "
    "(its own, or one in ``REFEREE_TRUSTED_KEYS``). You become the imported table's "
    "first referee. Bounded by bytes (32 MiB) and events, not by JSON values.",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"type": "object", "description": "An export, as exported."}
                }
            },
        }
    },
)
async def import_export(request: Request, response: Response) -> Imported:
    """Read, parsed and checked in a process of its own, one import at a time (a big
    export is seconds of work and hundreds of megabytes of objects: never in the
    server's threads or memory, never beside another table's odds). The server holds
    the body's bytes only."""
    web = from_this_site(request)
    await run_in_threadpool(new_table_quota, request, imported=True)
    trusted = await run_in_threadpool(signing.trusted_keys, own=server_signer(web))
    raw = await request.body()
    report, tid = imported(
        await in_pool(web, import_on, import_in_worker, (raw, trusted), web.importer)
    )
    ts = await run_in_threadpool(web.service.load, tid)
    referee = next((n for n, r in ts.participants.items() if r == "referee"), None)
    if referee is None:
        raise WebError(422, f"imported {report.events} events, but the table has no referee")
    token, _grant = web.tokens.issue(ts.id, referee, "referee")
    set_session(response, request, ts.id, token)
    return Imported(
        table=summary(ts, referee),
        link=link_for(request, token),
        token=token,
        events=report.events,
        signature=report.signature or "unsigned",
        key=report.key or None,
    )


# ---------------------------------------------------------------------------
# one table, whole (the operations' routes: referee.web.routes says where)


@serves("show")
async def table_view(caller: Reader, request: Request) -> dict[str, Any]:
    """The table as the caller may know it."""
    return await run_in_threadpool(rules_call, lambda: view_data(web_of(request).service, caller))


@serves("log")
async def table_log(
    caller: Reader,
    request: Request,
    after: Annotated[int, in_query("log", "after")] = 0,
    limit: Annotated[int, in_query("log", "limit")] = 200,
) -> list[dict[str, Any]]:
    """The log after ``after``, as the caller may see it."""
    given = values("log", after=after, limit=limit)
    service = web_of(request).service
    return await run_in_threadpool(
        rules_call, lambda: service.log(caller.table_id, caller.name, **given)
    )


@serves("export")
async def export_table(caller: Reader, request: Request) -> Response:
    """The export as a file named after the table."""

    def exported() -> Response:
        web = web_of(request)
        data = export(web.service, caller.table_id, caller.name, signer=server_signer(web))
        table = data.get("table")
        name = str(table.get("name", "table")) if isinstance(table, dict) else "table"
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "table"
        return JSONResponse(
            data, headers={"content-disposition": f'attachment; filename="{safe}.json"'}
        )

    return await run_in_threadpool(rules_call, exported)


@serves("verify")
async def verify_table(caller: Reader, request: Request) -> dict[str, Any]:
    """The table's check (a referee's)."""
    referee_only(caller, "verify the table")
    service = web_of(request).service
    return await run_in_threadpool(rules_call, lambda: verify(service, caller.table_id).data())


@serves("options")
async def set_options(caller: Writer, request: Request, body: SetOptionsIn) -> Response:
    """New house rules."""
    return await command(request, caller, "options", values("options", body))


@serves("sheets")
async def set_sheets(caller: Writer, request: Request, body: SetSheetsIn) -> Response:
    """Who sees other players' sheets."""
    return await command(request, caller, "sheets", values("sheets", body))


@serves("settings")
async def set_settings(caller: Writer, request: Request, body: SetSettingsIn) -> Response:
    """How the table runs."""
    return await command(request, caller, "settings", values("settings", body))
