"""The JSON API: everything the pages do, one service call per request.

Every route under ``/api/tables/{tid}`` acts as the participant whose token
the request presents (see :mod:`referee.web.auth`); the service authorizes the
command again. Answers carry only what that participant may see: events are
redacted for them, the state is their view.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
from collections.abc import Callable, Mapping
from concurrent.futures import BrokenExecutor, Executor, ThreadPoolExecutor
from inspect import Parameter, Signature
from typing import Annotated, Any, Final, Literal, TypeVar, get_args, get_origin, get_type_hints

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, create_model
from starlette.concurrency import run_in_threadpool

from referee.errors import ODD_INPUT, InvalidSheet, RulesError
from referee.systems.base import JSONObject, Ruleset, get, names, problem_data
from referee.table import signing
from referee.table.audit import export, verify
from referee.table.operations import BY_NAME, OPERATIONS, Operation, Param
from referee.table.operations import MAX_SEQ as MAX_SEQ
from referee.table.service import Done, TableService, redact, table_data
from referee.table.signing import Signer
from referee.table.state import TableState, Viewer
from referee.web.app import Web, WebError, web_of
from referee.web.auth import Caller, presented, set_session, table_cookies
from referee.web.shares import QUICK_MICROSECONDS
from referee.web.strict import StrictRoute
from referee.web.worker import (
    Answer,
    answer,
    compute,
    import_in_worker,
    import_on,
    imported,
    odds_in_worker,
)
from referee.web.worker import pool as worker_pool

log = logging.getLogger("referee.web")

router = APIRouter(prefix="/api", route_class=StrictRoute)

T = TypeVar("T")

TABLE_ID: Final = r"^[A-Za-z0-9_-]{1,40}$"
MAX_DEPTH: Final = 12
MAX_ITEMS: Final = 5000

Name = Annotated[str, Field(min_length=1, max_length=64)]
RoleName = Literal["referee", "player", "observer"]
TableId = Annotated[str, Path(pattern=TABLE_ID, description="The table's id.")]
JSONObjectIn = dict[str, Any]


class Strict(BaseModel):
    """Request bodies refuse unknown keys and take every value as its own type: ``"7"``
    is no number and ``true`` no 1 (a wrong type is refused, the field named)."""

    model_config = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------------------
# request bodies: from the operations' parameters (referee.table.operations)


def _type(p: Param, name: str) -> Any:
    """A parameter's type for pydantic: its bounds on each number of a list, a list of
    records as a model ``name``."""
    if p.items:
        record: Any = create_model(name, __base__=Strict, **_fields(p.items, ""))
        return list[record]
    if _listed(p):  # the numbers' bounds are each number's
        each = list[Annotated[int, Field(ge=p.ge, le=p.le)]]
        return each | None if type(None) in get_args(p.type) else each
    return p.type


def _listed(p: Param) -> bool:
    return any(get_origin(t) is list for t in (p.type, *get_args(p.type)))


def _bounds(p: Param) -> Values:
    """A parameter's bounds as pydantic's keywords (a list's ge/le: see :func:`_type`)."""
    numbers = {} if _listed(p) else {"ge": p.ge, "le": p.le}
    return numbers | {"min_length": p.min_length, "max_length": p.max_length}


def _fields(params: tuple[Param, ...], model: str) -> dict[str, Any]:
    """Pydantic fields of ``params``: type, default, bounds, help."""
    out: dict[str, Any] = {}
    for p in params:
        default = {"default_factory": dict} if p.default == {} else {"default": p.default}
        info = Field(**default, description=p.help, **_bounds(p))
        out[p.json_key] = (_type(p, model + p.name.title()), info)
    return out


def field_of(op: str, name: str) -> Any:
    """The pydantic field of operation ``op``'s parameter ``name``."""
    p = next(p for p in BY_NAME[op].params if p.name == name)
    return _fields((p,), "")[p.json_key][1]


class CreateTable(Strict):
    game: str = field_of("new", "game")
    name: str = field_of("new", "name")
    referee: str = field_of("new", "referee")
    options: JSONObjectIn | None = field_of("new", "options")
    seed: int | None = field_of("new", "seed")
    settings: JSONObjectIn | None = field_of("new", "settings")


class SheetIn(Strict):
    sheet: JSONObjectIn
    force: bool = False


class InviteIn(Strict):
    name: Name
    role: RoleName = "player"


# ---------------------------------------------------------------------------
# answers


class TableSummary(BaseModel):
    id: str
    name: str
    game: str
    title: str
    me: str
    role: str


class Created(BaseModel):
    table: TableSummary
    link: str = Field(description="The secret link: open it to join as this participant.")
    token: str = Field(description="The same capability as a bearer token.")


class EventOut(BaseModel):
    seq: int
    event: dict[str, Any]


class InviteOut(BaseModel):
    id: str
    name: str
    kind: str
    created: str
    revoked: str | None = None
    link: str | None = None
    token: str | None = None


# ---------------------------------------------------------------------------
# helpers


def bounded(value: Any, what: str, depth: int = MAX_DEPTH) -> Any:
    """Refuse JSON nested deeper than ``depth`` or holding more than a few thousand items."""
    count = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, level = stack.pop()
        count += 1
        if count > MAX_ITEMS:
            raise WebError(422, f"{what}: more than {MAX_ITEMS} values")
        if isinstance(node, Mapping | list | tuple):
            if level >= depth:
                raise WebError(422, f"{what}: nested more than {depth} levels deep")
            children = node.values() if isinstance(node, Mapping) else node
            stack.extend((c, level + 1) for c in children)
    return value


REQUEST_MICROSECONDS: Final = 400_000
"""The work one odds or preview may take, estimated before each step of it (under the
0.5 s of CPU a request may cost): past it the step is refused (422, naming the limit)."""


async def odds_off_loop(
    request: Request, caller: Caller, action: str, fields: Any, html: bool = False
) -> Answer:
    """The odds of ``action`` for the caller: tried first in the server's own threads
    within a small budget of estimated work (a cheap preview is answered at once,
    whatever the workers do), else computed in the odds pool (worker processes,
    :mod:`referee.web.worker`) when its table's turn comes (:mod:`referee.web.shares`)
    within :data:`REQUEST_MICROSECONDS` (:func:`~referee.dice.odds.limited_work`).
    The caller holds one of their odds slots (:mod:`referee.web.limits`) throughout."""
    web = web_of(request)
    table, name = caller.table_id, caller.name
    with web.quotas.odds.slot(web.quotas.participant(table, name)):
        quick = (table, name, action, fields, QUICK_MICROSECONDS, html)
        found = await run_in_threadpool(compute, web.service, *quick)
        if found[0] == "costly":
            whole = (table, name, action, fields, REQUEST_MICROSECONDS, html)

            async def work() -> tuple[str, Any]:
                return await in_pool(web, compute, odds_in_worker, whole)

            found = await web.shares.run(table, name, work)
    return answer(found)


async def in_pool(
    web: Web,
    here: Callable[..., tuple[str, Any]],
    there: Callable[..., tuple[str, Any]],
    args: tuple[Any, ...],
    pool: Executor | None = None,
) -> tuple[str, Any]:
    """``there(*args)`` in a worker process of ``pool`` (the odds workers by default;
    ``here(service, *args)`` in a thread for an in-memory database); a worker that died
    is replaced (503, try again)."""
    loop = asyncio.get_running_loop()
    chosen = web.pool if pool is None else pool
    try:
        if isinstance(chosen, ThreadPoolExecutor):
            return await loop.run_in_executor(chosen, here, web.service, *args)
        return await loop.run_in_executor(chosen, there, *args)
    except BrokenExecutor:
        if pool is None:
            web.pool = worker_pool(web.service, web.workers)  # a worker died: start anew
        else:
            web.importer = worker_pool(web.service, 1)
        raise WebError(503, "the odds worker stopped; try again") from None


def client_address(request: Request) -> str:
    """Who is asking, for the quotas: the peer, or what a trusted proxy forwarded (uvicorn
    reads ``X-Forwarded-For`` only from the proxies ``--forwarded-allow-ips`` names)."""
    return request.client.host if request.client is not None else "unknown"


def new_table_quota(request: Request, *, imported: bool = False) -> None:
    """Refuse a new table (made or imported) over the address's rate or the server's cap."""
    web = web_of(request)
    tables = web.service.store.table_count()
    web.quotas.new_table(client_address(request), tables, imported=imported)


def rules_call(fn: Callable[[], T]) -> T:
    """Run a service call; an error a game's code raises on odd input is a 422, not a 500."""
    try:
        return fn()
    except (RulesError, WebError):
        raise
    except ODD_INPUT as e:
        log.warning("the rules could not handle a request", exc_info=e)
        raise WebError(422, f"the rules cannot handle this input: {type(e).__name__}: {e}") from e


def contract_games() -> list[tuple[str, Ruleset[Any, Any, Any]]]:
    """The installed games that speak the contract (the others cannot run a table yet)."""
    out = []
    for name in names():
        try:
            rules = get(name)
        except (RulesError, ImportError):
            continue
        if isinstance(rules, Ruleset):
            out.append((name, rules))
    return out


def authenticate(request: Request, tid: str, *, write: bool) -> Caller:
    """The participant a request acts as at table ``tid`` (or a 4xx refusal)."""
    web = web_of(request)
    found = presented(request, tid)
    if found is None:
        raise WebError(401, "this table needs its invite link (or a bearer token)")
    token, via = found
    grant = web.tokens.check(token)
    if grant is None or grant.table_id != tid:
        raise WebError(401, "this link is unknown or was revoked: ask the referee for a new one")
    web.quotas.request(grant.table_id, grant.name)
    if write and via == "cookie" and not web.origin_ok(request):
        raise WebError(403, "refused: the request did not come from this site's pages")
    ts = web.service.current(tid)
    if ts.id != tid:
        raise WebError(404, f"no table {tid!r}")
    role = ts.participants.get(grant.name)
    if role is None:
        raise WebError(403, f"{grant.name!r} is no longer at this table")
    return Caller(tid, grant.name, role, grant, via)


async def _authenticated(request: Request, tid: str, *, write: bool) -> Caller:
    """:func:`authenticate` on the event loop when its token and table are in this
    process's memory (the common case: no database read, no thread hand-off), else in
    a worker thread."""
    web = web_of(request)
    found = presented(request, tid)
    if found is None or (web.tokens.remembered(found[0]) and web.service.holds(tid)):
        return authenticate(request, tid, write=write)
    return await run_in_threadpool(authenticate, request, tid, write=write)


async def reader(request: Request, tid: TableId) -> Caller:
    """Dependency: a participant reading a table."""
    return await _authenticated(request, tid, write=False)


async def writer(request: Request, tid: TableId) -> Caller:
    """Dependency: a participant changing a table (origin-checked for cookies)."""
    return await _authenticated(request, tid, write=True)


Reader = Annotated[Caller, Depends(reader)]
Writer = Annotated[Caller, Depends(writer)]


def referee_only(caller: Caller, what: str) -> None:
    """Refuse anyone but a referee."""
    if not caller.referee:
        raise WebError(403, f"only the referee may {what}")


def event_response(done: Done, caller: Caller, status: int = 201) -> Response:
    """A command's event as the caller may see it (:class:`EventOut`), serialized once
    (the hot path of a table: an event is JSON already, so it skips the response
    model's second walk over it)."""
    viewer = Viewer(caller.name, done.table.participants.get(caller.name, "observer"))
    shown = redact(done.event, viewer, done.table.revealed, done.table)
    body = json.dumps({"seq": done.event.seq, "event": shown}, separators=(",", ":"))
    return Response(body, status_code=status, media_type="application/json")


def link_for(request: Request, token: str) -> str:
    """The absolute invite link for a token."""
    return str(request.url_for("join", token=token))


def summary(ts: TableState, name: str) -> TableSummary:
    """A table in a list."""
    return TableSummary(
        id=ts.id,
        name=ts.name,
        game=ts.game,
        title=ts.ruleset.title,
        me=name,
        role=ts.participants.get(name, "observer"),
    )


def view_data(service: TableService, caller: Caller) -> JSONObject:
    """The table as the caller may know it."""
    seen = service.view(caller.table_id, caller.name)
    data = table_data(seen, seen.viewer(caller.name))
    data["me"] = {"name": caller.name, "role": caller.role}
    return data


# ---------------------------------------------------------------------------
# games and tables


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


def from_this_site(request: Request) -> Web:
    """The app's state, once a request that names another site as its origin is refused
    (a new table or an import: a page elsewhere must not make one in this browser's name)."""
    web = web_of(request)
    if not web.origin_ok(request) and request.headers.get("origin") is not None:
        raise WebError(403, "refused: the request did not come from this site's pages")
    return web


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


class Imported(Created):
    events: int = Field(description="How many events were verified and stored.")
    signature: Literal["trusted", "untrusted", "unsigned"] = Field(
        description="trusted: signed by this server's key or one it trusts; untrusted: "
        "signed by another key (named in `key`); unsigned: no signed head."
    )
    key: str | None = Field(None, description="The id of the key that signed the file.")


def server_signer(web: Web) -> Signer:
    """This server's signing key (kept beside its SQLite database or in its data
    directory; ``REFEREE_SIGNING_KEY`` names another file)."""
    return signing.server_signer(web.service.store.url)


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
# one table: the operations (each declared once in referee.table.operations), a route each

Values = dict[str, Any]
"""An operation's values by the service's names, as the request gave them."""
Handler = Callable[[Request, Caller, Values], Any]
"""How a route answers an operation (a coroutine function: on the event loop)."""
HANDLERS: dict[str, Handler] = {}
"""The operations answered otherwise than by the event their service call appends."""


def handles(name: str) -> Callable[[Handler], Handler]:
    """Declare the decorated function the answer to operation ``name``; its return
    annotation is the route's response model."""

    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn

    return register


def command(request: Request, caller: Caller, op: Operation, values: Values) -> Response:
    """Call the service's method for ``op`` as the caller; answer its event as they see it."""
    run = getattr(web_of(request).service, op.service_method)
    return event_response(run(caller.table_id, **values, by=caller.name), caller, op.status)


@handles("show")
def table_view(request: Request, caller: Caller, values: Values) -> dict[str, Any]:
    return view_data(web_of(request).service, caller)


@handles("log")
def table_log(request: Request, caller: Caller, values: Values) -> list[dict[str, Any]]:
    return web_of(request).service.log(caller.table_id, caller.name, **values)


@handles("odds")
async def odds(request: Request, caller: Caller, values: Values) -> dict[str, Any]:
    """Computed off the event loop, a few at once per link (429 past that)."""
    name, fields, data, _html = await odds_off_loop(request, caller, **values)
    return {"action": name, "fields": fields, **data}


@handles("export")
def export_table(request: Request, caller: Caller, values: Values) -> Response:
    web = web_of(request)
    data = export(web.service, caller.table_id, caller.name, signer=server_signer(web))
    table = data.get("table")
    name = str(table.get("name", "table")) if isinstance(table, dict) else "table"
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "table"
    return JSONResponse(
        data, headers={"content-disposition": f'attachment; filename="{safe}.json"'}
    )


@handles("verify")
def verify_table(request: Request, caller: Caller, values: Values) -> dict[str, Any]:
    return verify(web_of(request).service, caller.table_id).data()


@handles("char add")
def add_character(request: Request, caller: Caller, values: Values) -> Response:
    # one sheet: an example's id or a sheet
    example = values.pop("example")
    if (example is None) == (values["sheet"] is None):
        raise WebError(422, "give either 'example' or 'sheet'")
    values["sheet"] = values["sheet"] if example is None else example
    return command(request, caller, BY_NAME["char add"], values)


@handles("leave")
def leave(request: Request, caller: Caller, values: Values) -> Response:
    done = command(request, caller, BY_NAME["leave"], values)
    web_of(request).tokens.revoke_name(caller.table_id, values["name"])
    return done


def route(op: Operation, handler: Handler | None) -> None:
    """Serve ``op`` where its :class:`~referee.table.operations.Http` says: its path
    parameters in the path, the others in the query (GET) or a body model; ``by`` the
    caller (a reader where it only reads; a referee where only they may call it)."""
    assert op.http is not None
    path = op.http.path
    at_path = [p for p in op.params if "{" + p.json_key + "}" in path]
    rest = [p for p in op.params if p not in at_path]
    query = rest if op.http.verb == "GET" else []
    body = [] if query else rest
    signature = [
        Parameter("caller", Parameter.KEYWORD_ONLY, annotation=Reader if op.reads else Writer),
        Parameter("request", Parameter.KEYWORD_ONLY, annotation=Request),
    ]
    for where, params in ((Path, at_path), (Query, query)):
        for p in params:
            how = where(description=p.help, **_bounds(p))
            default = Parameter.empty if p.default is ... else p.default
            kind = Parameter.KEYWORD_ONLY
            signature.append(
                Parameter(p.json_key, kind, annotation=Annotated[p.type, how], default=default)
            )
    if body:
        camel = op.route_name.title().replace("_", "")
        model = MODELS.get(op.name) or create_model(
            f"{camel}In", __base__=Strict, **_fields(tuple(body), camel)
        )
        signature.append(Parameter("body", Parameter.KEYWORD_ONLY, annotation=model))

    async def endpoint(
        caller: Caller, request: Request, body: Strict | None = None, **given: Any
    ) -> Any:
        given |= body.model_dump() if body is not None else {}
        values = {p.name: _bounded(p, given[p.json_key]) for p in op.params}
        if op.who == "referee":
            referee_only(caller, f"{op.name} the table")
        if handler is not None and inspect.iscoroutinefunction(handler):
            return await handler(request, caller, values)
        if handler is not None:
            return await run_in_threadpool(rules_call, lambda: handler(request, caller, values))
        return await run_in_threadpool(rules_call, lambda: command(request, caller, op, values))

    endpoint.__signature__ = Signature(signature)  # type: ignore[attr-defined]
    returns = get_type_hints(handler)["return"] if handler else Response
    if returns is Response:  # an event (as EventOut), or a file
        returns = None if op.reads else EventOut
    router.add_api_route(
        "/tables/{tid}" + (f"/{path}" if path else ""),
        endpoint,
        methods=[op.http.verb],
        status_code=op.status,
        tags=[op.http.tag],
        name=op.route_name,
        description=" ".join(filter(None, (op.help, handler and handler.__doc__))),
        response_model=returns,
    )


def _bounded(p: Param, value: Any) -> Any:
    """``value`` within :func:`bounded`'s limits (a list of records: each record)."""
    return [bounded(v, p.json_key) for v in value] if p.items else bounded(value, p.json_key)


class OddsIn(Strict):
    """The odds' body, a class: the page's preview takes it too."""

    action: str = field_of("odds", "action")
    fields: JSONObjectIn = field_of("odds", "fields")


MODELS: Final[dict[str, type[Strict]]] = {"odds": OddsIn}
"""The bodies other modules take too, declared as classes."""

for _op in OPERATIONS:
    if _op.http is not None:
        route(_op, HANDLERS.get(_op.name))


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


# ---------------------------------------------------------------------------
# participants and invites


@router.get("/tables/{tid}/invites", tags=["referee"])
def invites(caller: Reader, request: Request) -> list[InviteOut]:
    """Every invite link made for this table (the secrets are never shown again)."""
    referee_only(caller, "see the invites")
    return [
        InviteOut(id=g.id, name=g.name, kind=g.kind, created=g.created, revoked=g.revoked)
        for g in web_of(request).tokens.list(caller.table_id)
    ]


@router.post("/tables/{tid}/invites", status_code=201, tags=["referee"])
def invite(caller: Writer, body: InviteIn, request: Request) -> InviteOut:
    """Make an invite link for one participant (joining them with ``role`` if they are
    new). Send it to them privately: whoever opens it acts as them."""
    referee_only(caller, "invite")
    web = web_of(request)
    web.quotas.invite(sum(g.kind == "invite" for g in web.tokens.list(caller.table_id)))
    ts = web.service.load(caller.table_id)
    name = body.name.strip()
    if name not in ts.participants:
        web.service.join(caller.table_id, name, body.role, by=caller.name)
    token, grant = web.tokens.issue(caller.table_id, name, "invite")
    return InviteOut(
        id=grant.id,
        name=grant.name,
        kind=grant.kind,
        created=grant.created,
        link=link_for(request, token),
        token=token,
    )


@router.delete("/tables/{tid}/invites/{kid}", tags=["referee"])
def revoke(
    caller: Writer,
    request: Request,
    kid: Annotated[
        str,
        Path(min_length=1, max_length=24, description="The link's id (GET .../invites)."),
    ],
) -> dict[str, Any]:
    """Revoke an invite link: it opens nothing from now on (browsers holding it included)."""
    referee_only(caller, "revoke invites")
    web = web_of(request)
    if not web.tokens.revoke(caller.table_id, kid):
        raise WebError(404, f"no live invite {kid!r} at this table")
    web.hub.close_grants_soon({kid})  # its open sockets close now (other processes: a sweep)
    return {"revoked": kid}
