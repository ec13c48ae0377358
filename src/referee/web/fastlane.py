"""The quick lane of the table's busiest call: ``POST /api/tables/{tid}/actions``.

A table in play sends an action every few seconds per player, and each one went through
FastAPI's whole route: matching the path against every route in order, solving the
``Writer`` dependency, reading and validating the body, then the endpoint. That was most
of the server's CPU per command beside the push (issue 38 item 3). :class:`CommandLane`
sits inside the app's own middleware (:class:`~referee.web.app.Guard` bounds the body
and adds the headers, :class:`~referee.web.app.TableGate` gates the table, both before
it) and serves a well-formed action itself, by the very functions the route calls:

* the body read strictly (:func:`~referee.web.strict.loads_strict`) and validated by the
  route's own model (:class:`~referee.web.models.ActIn`);
* the caller authenticated by :func:`~referee.web.deps.writer`'s function (the token,
  the link's table, the request quota, the origin for a cookie, the participant);
* the service called by :func:`~referee.web.deps.command` and answered by
  :func:`~referee.web.deps.event_response`, exactly as the endpoint does.

Whatever it does not take at once goes to FastAPI untouched (the body handed on as it
came): another path or method, a query string, a body that is not JSON by its content
type, is not valid JSON or does not fit the model. So every refusal of a malformed
request is FastAPI's own (the same 422 and its problems), and a refusal from the caller
or the rules is answered by the app's own exception handlers, as FastAPI would: the same
status, body and headers. Only the time differs.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Final

from fastapi import FastAPI
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from referee.web.deps import _authenticated, command, values
from referee.web.models import ActIn
from referee.web.strict import loads_strict

ACT_PATH: Final = re.compile(r"^/api/tables/([A-Za-z0-9_-]{1,40})/actions$")
"""The path of ``act`` (:data:`referee.web.routes.ROUTES`), its table id as the route's
``TableId`` allows it."""

Handler = Callable[[Request, Exception], Awaitable[Response]]


def _json_content(scope: Scope) -> bool:
    """Whether the request says its body is ``application/json`` (the one content type the
    lane reads; FastAPI takes others its own way)."""
    for k, v in scope["headers"]:
        if k == b"content-type":
            kind: bytes = v.split(b";", 1)[0].strip().lower()
            return kind == b"application/json"
    return False


async def _body(receive: Receive) -> tuple[bytes, list[Message]]:
    """The whole body and the messages it came in (handed on as they came when the lane
    does not take the request)."""
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks), messages


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """``receive`` as if nothing had been read: the messages read first, then the rest."""
    waiting = list(messages)

    async def again() -> Message:
        if waiting:
            return waiting.pop(0)
        return await receive()

    return again


class CommandLane:
    """Serve a well-formed ``act`` without FastAPI's routing (see the module text)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "POST"
            or scope.get("query_string")
            or scope.get("root_path")
            or ACT_PATH.match(scope["path"]) is None
            or not _json_content(scope)
        ):
            await self.app(scope, receive, send)
            return
        body, messages = await _body(receive)
        given = None
        if body and messages[-1]["type"] == "http.request":  # whole: the client stayed
            try:
                given = ActIn.model_validate(loads_strict(body), from_attributes=True)
            except (ValueError, ValidationError):  # FastAPI says what, as it always did
                given = None
        if given is None:
            await self.app(scope, _replay(messages, receive), send)
            return
        await self._act(scope, receive, send, given)

    async def _act(self, scope: Scope, receive: Receive, send: Send, body: ActIn) -> None:
        """The ``act`` route's work (:func:`referee.web.api_actions.act` and its ``Writer``),
        a refusal answered by the app's handler for it."""
        tid = ACT_PATH.match(scope["path"])[1]  # type: ignore[index]
        request = Request(scope, receive)
        try:
            caller = await _authenticated(request, tid, write=True)
            response = await command(request, caller, "act", values("act", body))
        except Exception as e:
            handler = _handler(scope, e)
            if handler is None:
                raise  # the server's own 500 (ServerErrorMiddleware), as for any route
            response = await handler(request, e)
        await response(scope, receive, send)


def _handler(scope: Scope, error: Exception) -> Handler | None:
    """The app's exception handler for ``error`` (by its class's order of bases, as
    Starlette's ``ExceptionMiddleware`` looks it up; ``Exception`` itself is the server
    error middleware's, not looked up here)."""
    app: FastAPI = scope["app"]
    handlers = app.exception_handlers
    for kind in type(error).__mro__:
        if kind is Exception:
            return None
        found = handlers.get(kind)
        if found is not None:
            return found  # type: ignore[return-value]
    return None


__all__ = ["ACT_PATH", "CommandLane"]
