"""The JSON API: everything the pages do, one service call per request.

Its routes live by resource: :mod:`~referee.web.api_tables` (the games, new and
imported tables, one table read whole and its referee's choices),
:mod:`~referee.web.api_actions` (odds, actions, decisions, notes, undo, reveals,
edits), :mod:`~referee.web.api_characters` and :mod:`~referee.web.api_participants`
(roles and invites); what they share (who is asking, calling the service) is
:mod:`~referee.web.deps`, their bodies and answers :mod:`~referee.web.models`. An
operation of :mod:`referee.table.operations` is served where :data:`referee.web.routes.ROUTES`
says, by the function its module declares with :func:`~referee.web.routes.serves`.

Every route under ``/api/tables/{tid}`` acts as the participant whose token
the request presents (see :mod:`referee.web.auth`); the service authorizes the
command again. Answers carry only what that participant may see: events are
redacted for them, the state is their view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, get_type_hints

from fastapi import APIRouter
from fastapi.responses import Response

from referee.table.operations import BY_NAME
from referee.web import (
    api_actions,
    api_characters,
    api_participants,
    api_requests,
    api_tables,
    gauge,
)
from referee.web.deps import contract_games as contract_games
from referee.web.models import EventOut
from referee.web.routes import ENDPOINTS, ROUTES, http, path, route_name, status
from referee.web.strict import StrictRoute

router = APIRouter(prefix="/api", route_class=StrictRoute)

RESOURCES: Final = (
    api_tables,
    api_actions,
    api_characters,
    api_participants,
    api_requests,
    gauge,
)
"""The modules of the API's routes (importing each declares its operations' routes)."""


def serve(name: str, endpoint: Callable[..., Any], more: str) -> None:
    """Serve operation ``name`` by ``endpoint`` where :data:`~referee.web.routes.ROUTES`
    says; its description the operation's help (and ``more``); its answer's model the
    endpoint's (an event's where it answers a :class:`Response` of an appended event)."""
    op = BY_NAME[name]
    returns: Any = get_type_hints(endpoint)["return"]
    if returns is Response:  # an event (as EventOut), or a file
        returns = None if op.reads else EventOut
    router.add_api_route(
        path(op).removeprefix("/api"),
        endpoint,
        methods=[http(op).verb],
        status_code=status(op),
        tags=[http(op).tag],
        name=route_name(op),
        description=" ".join(filter(None, (op.help, more))),
        response_model=returns,
    )


# the order of the documentation: the tables, each operation as ROUTES lists them, the rest
router.include_router(api_tables.router)
if set(ENDPOINTS) != set(ROUTES):  # a route declared without its function, or the reverse
    raise RuntimeError(f"operations without a route: {sorted(set(ROUTES) ^ set(ENDPOINTS))}")
for _name in ROUTES:
    serve(_name, *ENDPOINTS[_name])
router.include_router(api_characters.router)
router.include_router(api_participants.router)

__all__ = ["contract_games", "router"]
