"""What the API's routes and the pages share: who is asking (:data:`Reader`,
:data:`Writer`, FastAPI dependencies), calling the service safely (:func:`rules_call`,
:func:`command`), bounding JSON (:func:`bounded`), the odds off the event loop and the
answers' common shapes.

Every route under ``/api/tables/{tid}`` acts as the participant whose token the request
presents (see :mod:`referee.web.auth`); the service authorizes the command again.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Mapping
from concurrent.futures import BrokenExecutor, Executor, ThreadPoolExecutor
from typing import Annotated, Any, Final, TypeVar

from fastapi import Depends, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from referee.errors import ODD_INPUT, RulesError
from referee.systems.base import JSONObject, Ruleset, get, names
from referee.table import signing
from referee.table.operations import BY_NAME
from referee.table.service import Done, TableService, redact, table_data
from referee.table.signing import Signer
from referee.table.state import TableState, Viewer
from referee.web.app import Web, WebError, web_of
from referee.web.auth import Caller, presented
from referee.web.models import TableSummary, bounds
from referee.web.routes import key, param, status
from referee.web.shares import QUICK_MICROSECONDS
from referee.web.worker import Answer, answer, compute, odds_in_worker
from referee.web.worker import pool as worker_pool

log = logging.getLogger("referee.web")

T = TypeVar("T")

TABLE_ID: Final = r"^[A-Za-z0-9_-]{1,40}$"
MAX_DEPTH: Final = 12
MAX_ITEMS: Final = 5000

TableId = Annotated[str, Path(pattern=TABLE_ID, description="The table's id.")]

Values = dict[str, Any]
"""An operation's values by the service's names, as the request gave them."""


# ---------------------------------------------------------------------------
# who is asking


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


def from_this_site(request: Request) -> Web:
    """The app's state, once a request that names another site as its origin is refused
    (a new table or an import: a page elsewhere must not make one in this browser's name)."""
    web = web_of(request)
    if not web.origin_ok(request) and request.headers.get("origin") is not None:
        raise WebError(403, "refused: the request did not come from this site's pages")
    return web


def client_address(request: Request) -> str:
    """Who is asking, for the quotas: the peer, or what a trusted proxy forwarded (uvicorn
    reads ``X-Forwarded-For`` only from the proxies ``--forwarded-allow-ips`` names)."""
    return request.client.host if request.client is not None else "unknown"


def new_table_quota(request: Request, *, imported: bool = False) -> None:
    """Refuse a new table (made or imported) over the address's rate or the server's cap."""
    web = web_of(request)
    tables = web.service.store.table_count()
    web.quotas.new_table(client_address(request), tables, imported=imported)


# ---------------------------------------------------------------------------
# input


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


def at_path(op: str, name: str) -> Any:
    """Operation ``op``'s parameter ``name`` in the path: its bounds and help."""
    p = param(op, name)
    return Path(description=p.help, **bounds(p))


def in_query(op: str, name: str) -> Any:
    """Operation ``op``'s parameter ``name`` in the query: its bounds and help."""
    p = param(op, name)
    return Query(description=p.help, **bounds(p))


def values(op: str, body: BaseModel | None = None, **given: Any) -> Values:
    """Operation ``op``'s values by the service's names, from the request's path or query
    (``given``) and ``body``, each within :func:`bounded`'s limits (a list of records:
    each record)."""
    given |= body.model_dump() if body is not None else {}
    out: Values = {}
    for p in BY_NAME[op].params:
        value, at = given[key(op, p)], key(op, p)
        out[p.name] = [bounded(v, at) for v in value] if p.items else bounded(value, at)
    return out


# ---------------------------------------------------------------------------
# calling the service


def rules_call(fn: Callable[[], T]) -> T:
    """Run a service call; an error a game's code raises on odd input is a 422, not a 500."""
    try:
        return fn()
    except (RulesError, WebError):
        raise
    except ODD_INPUT as e:
        log.warning("the rules could not handle a request", exc_info=e)
        raise WebError(422, f"the rules cannot handle this input: {type(e).__name__}: {e}") from e


def call(request: Request, caller: Caller, op: str, given: Values) -> Response:
    """Call the service's method for operation ``op`` as the caller (in this thread);
    answer its event as they see it."""
    operation = BY_NAME[op]
    run = getattr(web_of(request).service, operation.service_method)
    done = run(caller.table_id, **given, by=caller.name)
    return event_response(done, caller, status(operation))


async def command(request: Request, caller: Caller, op: str, given: Values) -> Response:
    """:func:`call` in a worker thread, an error on odd input a 422 (:func:`rules_call`)."""
    return await run_in_threadpool(rules_call, lambda: call(request, caller, op, given))


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


def server_signer(web: Web) -> Signer:
    """This server's signing key (kept beside its SQLite database or in its data
    directory; ``REFEREE_SIGNING_KEY`` names another file)."""
    return signing.server_signer(web.service.store.url)


# ---------------------------------------------------------------------------
# the odds, off the event loop


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


# ---------------------------------------------------------------------------
# answers


def event_response(done: Done, caller: Caller, status: int = 201) -> Response:
    """A command's event as the caller may see it (:class:`~referee.web.models.EventOut`),
    serialized once (the hot path of a table: an event is JSON already, so it skips the
    response model's second walk over it)."""
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
