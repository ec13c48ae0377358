"""The web table's application: :func:`create_app` wires the service to HTTP and WebSockets.

The edges hold no rules. Every request is translated into one
:class:`~referee.table.service.TableService` call made as the participant
its token names (the service authorizes it again), and every answer is
turned into HTML or JSON. What the pieces do:

* :mod:`referee.web.api` - the JSON API (documented at ``/docs``);
* :mod:`referee.web.pages` - the server-rendered pages and their fragments;
* :mod:`referee.web.live` - the WebSocket fan-out;
* :mod:`referee.web.auth` - tokens, cookies and origin checks.

Bad input never reaches a traceback: every error the rules raise becomes a
4xx answer with a message (JSON for the API, a page for a browser), and
request bodies are bounded before anything parses them.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import AsyncIterator, Callable, Collection
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from referee import version
from referee.errors import InvalidSheet, RulesError
from referee.systems.base import problem_data
from referee.table.events import LogError
from referee.table.service import Forbidden, StaleTable, TableService
from referee.table.store import StoreError
from referee.table.tokens import Tokens
from referee.web.auth import presented, same_origin
from referee.web.limits import Limits, Quotas, TooMany, shares_for
from referee.web.live import Hub
from referee.web.render import Renderer
from referee.web.shares import Gates, Shares
from referee.web.worker import pool as odds_pool
from referee.web.worker import ready as worker_ready

log = logging.getLogger("referee.web")

MAX_BODY: Final = 512 * 1024
"""The largest request body (bytes) but for an import."""

MAX_IMPORT: Final = 32 * 1024 * 1024
"""The largest import (an exported table as JSON), in bytes."""

IMPORT_PATH: Final = "/api/import"

SECURITY_HEADERS: Final = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


@dataclass
class Web:
    """What every route needs: the service, the tokens, the live hub and the templates."""

    service: TableService
    tokens: Tokens
    hub: Hub
    renderer: Renderer
    trusted_origins: frozenset[str]
    quotas: Quotas
    pool: Executor
    """Where odds and previews are computed: a few worker processes (:mod:`referee.web.worker`),
    so a costly one never holds up another table's commands."""
    workers: int = 1
    importer: Executor | None = None
    """Where imports are read and checked: one worker process of their own (an import of
    a big export is seconds of work, never in the server's threads)."""
    shares: Shares = field(default_factory=lambda: Shares(1))
    """The workers' turns between tables (:mod:`referee.web.shares`)."""
    gates: Gates = field(default_factory=lambda: Gates(0))
    """How many of one table's requests run at once (:class:`TableGate`)."""

    def origin_ok(self, request: Request | WebSocket) -> bool:
        """True if the request came from a page of this site."""
        return same_origin(request.headers, self.trusted_origins)


def web_of(request: Request | WebSocket) -> Web:
    """The :class:`Web` of the app serving ``request``."""
    found: Web = request.app.state.web
    return found


# ---------------------------------------------------------------------------
# errors


class WebError(Exception):
    """A refusal the web layer itself makes (no token, wrong table...)."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def status_of(error: RulesError) -> int:
    """The HTTP status for an error the rules or the store raised."""
    if isinstance(error, Forbidden):
        return 403
    if isinstance(error, StaleTable):
        return 409
    if isinstance(error, StoreError) and str(error).startswith("no table"):
        return 404
    if isinstance(error, StoreError) and "already exists" in str(error):
        return 409
    if isinstance(error, StoreError):
        return 503
    return 422


def _wants_html(request: Request) -> bool:
    path = request.url.path
    if path.startswith("/api/") or path.startswith("/docs") or path == "/openapi.json":
        return False
    if path.startswith("/t/") and path.count("/") > 2 and not path.endswith("/analysis"):
        # fragments answer JSON (the analysis view is a page)
        return False
    return "text/html" in request.headers.get("accept", "")


def error_response(
    request: Request,
    status: int,
    detail: str,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    """A 4xx answer: JSON ``{"detail": ..., ...}``, or a page for a browser."""
    if _wants_html(request):
        html = web_of(request).renderer.page("error.html", status=status, detail=detail)
        return HTMLResponse(html, status_code=status, headers=headers)
    return JSONResponse({"detail": detail, **extra}, status_code=status, headers=headers)


def _install_errors(app: FastAPI) -> None:
    async def rules(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RulesError)
        extra: dict[str, Any] = {}
        if isinstance(exc, InvalidSheet):
            extra["problems"] = [problem_data(p) for p in exc.problems]
        if isinstance(exc, LogError):
            extra["seq"] = exc.seq
        return error_response(request, status_of(exc), str(exc), **extra)

    async def web_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, WebError)
        return error_response(request, exc.status, exc.detail)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        detail = exc.detail if isinstance(exc.detail, str) else "request refused"
        return error_response(request, exc.status_code, detail)

    async def invalid(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        problems = []
        for err in exc.errors():
            loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            message = str(err.get("msg", ""))
            if err.get("type") == "json_invalid":  # where in the text, and what
                loc = f"(body, character {loc})"
                message = f"{message}: {err.get('ctx', {}).get('error', '')}"
            problems.append({"field": loc or "(body)", "message": message})
        text = "; ".join(f"{p['field']}: {p['message']}" for p in problems) or "invalid request"
        return error_response(request, 422, text, problems=problems)

    async def too_many(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TooMany)
        headers = {"retry-after": str(exc.retry_after)}
        return error_response(request, 429, exc.detail, headers=headers)

    async def too_deep(request: Request, exc: Exception) -> Response:
        return error_response(request, 400, "the JSON is nested too deeply")

    async def crashed(request: Request, exc: Exception) -> Response:
        log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        return error_response(request, 500, "internal error (the server's log has the details)")

    app.add_exception_handler(RulesError, rules)
    app.add_exception_handler(WebError, web_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(TooMany, too_many)
    app.add_exception_handler(RecursionError, too_deep)
    app.add_exception_handler(Exception, crashed)


# ---------------------------------------------------------------------------
# middleware


def server_header() -> str:
    """Every HTTP answer's ``Server`` header: ``referee/`` and the release (``referee/0.2.0``),
    so a client or a bug report says which release answered. ``referee serve`` turns off
    uvicorn's own ``Server: uvicorn``."""
    return f"referee/{version()}"


TABLE_PATH: Final = re.compile(r"^/(?:api/tables|t)/([A-Za-z0-9_-]{1,40})(?:/|$)")
"""The paths of one table's pages and calls: the table id they name."""


class TableGate:
    """Every request a participant makes at a table passes its table's gate
    (:class:`referee.web.shares.Gates`: ``table_requests_at_once`` in the server's
    threads at once, the rest wait on the event loop; 429 past the wait's bounds). The
    gate is the table of the link presented (a request without a live link goes
    ungated to its refusal), so nobody can fill another table's gate with requests
    naming it."""

    def __init__(self, app: ASGIApp, web: Web) -> None:
        self.app = app
        self.web = web

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        table = await self._table(scope) if scope["type"] == "http" else None
        if table is None:
            await self.app(scope, receive, send)
            return
        try:
            await self.web.gates.enter(table)
        except TooMany as e:
            headers = {"retry-after": str(e.retry_after)}
            answer = error_response(Request(scope, receive), 429, e.detail, headers=headers)
            await answer(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.web.gates.leave(table)

    async def _table(self, scope: Scope) -> str | None:
        found = TABLE_PATH.match(scope["path"])
        if found is None:
            return None
        token = presented(HTTPConnection(scope), found[1])
        if token is None:
            return None
        tokens = self.web.tokens
        if tokens.remembered(token[0]):
            grant = tokens.check(token[0])  # from memory
        else:
            grant = await run_in_threadpool(tokens.check, token[0])
        return None if grant is None else grant.table_id


class Guard:
    """Bound every request body, and add the security headers and the ``Server`` header
    (:func:`server_header`) to every answer.

    A body over the bound (by its ``Content-Length`` or, when chunked, as it
    arrives) gets 413 before the application sees any of it.
    """

    def __init__(
        self,
        app: ASGIApp,
        max_body: int = MAX_BODY,
        max_import: int = MAX_IMPORT,
    ):
        self.app = app
        self.max_body = max_body
        self.max_import = max_import
        self.server = server_header().encode()
        self.added = (
            *((k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()),
            (b"server", self.server),
        )
        """The headers every answer gets, encoded once."""
        self.names = frozenset(k for k, _ in self.added)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # a WebSocket's frames pass untouched
            await self.app(scope, receive, send)
            return
        limit = self.max_import if scope["path"] == IMPORT_PATH else self.max_body
        added, names = self.added, self.names

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {k.lower() for k, _ in headers} & names
                headers.extend(h for h in added if h[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        declared = None
        for k, v in scope.get("headers", []):
            if k == b"content-length":
                try:
                    declared = int(v)
                except ValueError:
                    await _refuse(send_with_headers, 400, "a bad Content-Length")
                    return
        if declared is not None and declared > limit:
            await _refuse(send_with_headers, 413, f"the request body is over {limit:,} bytes")
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS") or declared is not None:
            await self.app(scope, receive, send_with_headers)
            return
        # a chunked body: read it whole (bounded), then hand it on
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            body = message.get("body", b"")
            size += len(body)
            if size > limit:
                await _refuse(send_with_headers, 413, f"the request body is over {limit:,} bytes")
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


async def _refuse(send: Callable[[Message], Any], status: int, detail: str) -> None:
    import json

    body = json.dumps({"detail": detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# ---------------------------------------------------------------------------
# memory


TRIM_EVERY: Final = 5.0
"""Seconds between two returns of the C heap's free pages to the system (a served
process: :func:`trim_memory`)."""

BIG_ALLOCATION: Final = 1024 * 1024
"""Bytes from which the C allocator maps a block of its own, given back whole when freed
(:func:`trim_memory`): an import's body, an export, a catch-up page."""


@functools.cache
def _libc() -> Any:
    """The C library, found once (``find_library`` runs ``ldconfig`` each time)."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    return None if name is None else ctypes.CDLL(name)


def trim_memory(first: bool = False) -> bool:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``; with
    ``first``, also map every allocation of :data:`BIG_ALLOCATION` or more on its own, as
    glibc does only below a threshold it raises as big blocks come and go). A burst of
    sockets, a slow reader's queue or a 30 MB import frees its memory when it ends, but
    the heap keeps the pages for later unless they are given back: a server's memory then
    follows what it holds, not the highest it ever held. False where the C library has
    neither (not glibc)."""
    try:
        libc = _libc()
        if libc is None:
            return False
        if first:
            libc.mallopt(-3, BIG_ALLOCATION)  # M_MMAP_THRESHOLD
        libc.malloc_trim(0)  # ctypes lets go of the interpreter lock meanwhile
    except (OSError, AttributeError):
        return False
    return True


async def _trimming() -> None:
    """:func:`trim_memory` every :data:`TRIM_EVERY` seconds in a worker thread, for as
    long as the loop runs."""
    import asyncio

    if not trim_memory(first=True):
        return
    while True:
        await asyncio.sleep(TRIM_EVERY)
        await run_in_threadpool(trim_memory)


# ---------------------------------------------------------------------------
# the app


def create_app(
    service: TableService,
    *,
    tokens: Tokens | None = None,
    trusted_origins: Collection[str] = (),
    watch: bool = True,
    max_body: int = MAX_BODY,
    max_import: int = MAX_IMPORT,
    limits: Limits | None = None,
    warm: bool = False,
) -> FastAPI:
    """The web table over ``service`` (see the module text).

    ``limits`` are the quotas and rate limits (:mod:`referee.web.limits`; default:
    :class:`~referee.web.limits.Limits`' documented defaults). ``warm`` starts the odds
    worker with the app (``referee serve``), not at the first preview.

    ``trusted_origins`` are origins besides the request's own host that may send
    state-changing requests (the public address behind a reverse proxy that
    rewrites ``Host``). ``watch`` starts the service's fan-out of other
    processes' appends (PostgreSQL LISTEN/NOTIFY, SQLite polling) for the app's
    lifetime.
    """
    renderer = Renderer()
    if warm:
        renderer.warm()
    tokens = tokens or Tokens(service.store)
    hub = Hub(service, renderer.entry, tokens.revoked_among)  # panels: set below, as pages
    state = Web(
        service=service,
        tokens=tokens,
        hub=hub,
        renderer=renderer,
        trusted_origins=frozenset(o.rstrip("/") for o in trusted_origins),
        quotas=Quotas(limits or Limits()),
        pool=odds_pool(service, max(1, (limits or Limits()).odds_workers)),
        workers=max(1, (limits or Limits()).odds_workers),
        shares=shares_for(limits or Limits()),
        gates=Gates((limits or Limits()).table_requests_at_once),
        importer=odds_pool(service, 1),
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        import asyncio

        from referee.web.server import settle_process

        hub.bind(asyncio.get_running_loop())
        stop = service.watch() if watch else None
        sweeper = asyncio.create_task(hub.sweep())
        trimmer = asyncio.create_task(_trimming()) if warm else None
        if warm:
            state.pool.submit(worker_ready)
            settle_process()
        try:
            yield
        finally:
            sweeper.cancel()
            if trimmer is not None:
                trimmer.cancel()
            state.pool.shutdown(wait=True, cancel_futures=True)  # workers end with the server
            if state.importer is not None:
                state.importer.shutdown(wait=True, cancel_futures=True)
            if stop is not None:
                stop()

    app = FastAPI(
        title="referee web table",
        version=version(),
        summary="A live table for Mnemonic, Mongrel, Mneme CE and ARM: the JSON API.",
        description=(
            "Every call acts as the participant whose capability token it presents: "
            "`Authorization: Bearer TOKEN` (or the browser's session cookie, set by an "
            'invite link `/join/TOKEN`). Errors answer `{"detail": message}` with a 4xx '
            "status; invalid sheets and actions add `problems`, every broken rule named."
        ),
        lifespan=lifespan,
        redoc_url=None,
        docs_url=None,  # the server's own page (referee.web.apidoc), not a viewer from a CDN
    )
    app.state.web = state
    _install_errors(app)
    from referee.web.fastlane import CommandLane

    app.add_middleware(CommandLane)  # the busiest call without FastAPI's routing
    app.add_middleware(TableGate, web=state)
    app.add_middleware(Guard, max_body=max_body, max_import=max_import)
    app.mount("/static", StaticFiles(directory=Path(__file__).parent / "static"), name="static")

    from referee.web.analysis_routes import router as analysis_router
    from referee.web.api import router as api_router
    from referee.web.apidoc import complete
    from referee.web.apidoc import router as docs_router
    from referee.web.build_api import router as build_router
    from referee.web.commands_api import router as commands_router
    from referee.web.gauge import with_gauge
    from referee.web.health import router as health_router
    from referee.web.pages import router as page_router
    from referee.web.panel_push import pushed_panels
    from referee.web.recaps import router as recap_router

    hub.panels = with_gauge(state, pushed_panels(state))  # panels ride on the push; gauge after
    app.include_router(api_router)
    app.include_router(build_router)  # the character builder (web/build_api.py)
    app.include_router(commands_router)  # the chat's commands (web/commands_api.py)
    app.include_router(recap_router)
    app.include_router(page_router)
    app.include_router(analysis_router)
    app.include_router(health_router)  # GET /healthz (web/health.py)
    app.include_router(docs_router)  # GET /docs, from the schema (web/apidoc.py)
    schema_of = app.openapi

    def openapi() -> dict[str, Any]:
        """The schema, completed once with the token and the errors (web/apidoc.py)."""
        if app.openapi_schema is None:
            app.openapi_schema = complete(schema_of())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app
