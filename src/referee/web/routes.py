"""Where the HTTP API serves each operation of :mod:`referee.table.operations`.

:data:`ROUTES` is the API's spelling of what a table can do, keyed by the operation's
name: the verb, the path under ``/api/tables/{tid}`` (naming its path parameters),
the tag the documentation lists it under, the route's name (the OpenAPI operation's id
is made from it) and the request's keys that differ from the service's names. The route
functions themselves, one per operation, each named as its route, are in the API's
modules by resource (``api_tables``, ``api_actions``, ``api_characters``,
``api_participants``), each declared by :func:`serves`; :mod:`referee.web.api` serves
them in this order. ``referee table`` spells the same operations in
:mod:`referee.cli.table`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar

from referee.table.operations import BY_NAME, Operation, Param

F = TypeVar("F", bound=Callable[..., Any])

Verb = Literal["GET", "POST", "PUT", "DELETE"]
Tag = Literal["table", "actions", "characters", "referee"]


@dataclass(frozen=True)
class Http:
    """Where the HTTP API serves an operation: ``verb`` on ``/api/tables/{tid}`` and
    ``path`` (which names its path parameters), listed under ``tag``; ``name``: the
    route's (default: the service method's); ``keys``: a parameter's key in the request
    where it is not the service's name. A POST that appends answers 201."""

    verb: Verb
    path: str
    tag: Tag
    name: str = ""
    keys: Mapping[str, str] = field(default_factory=dict)


ROUTES: Final[Mapping[str, Http]] = {
    "show": Http("GET", "", "table", "table_view"),
    "log": Http("GET", "log", "table", "table_log"),
    "odds": Http("POST", "odds", "actions"),
    "export": Http("GET", "export", "table", "export_table"),
    "verify": Http("GET", "verify", "table", "verify_table"),
    "act": Http("POST", "actions", "actions"),
    "decide": Http("POST", "proposals/{seq}", "actions", keys={"values": "fields"}),
    "withdraw": Http("DELETE", "proposals/{seq}", "actions"),
    "note": Http("POST", "notes", "actions", keys={"audience": "to"}),
    "undo": Http("POST", "undo", "actions"),
    "redo": Http("POST", "redo", "actions"),
    "reveal": Http("POST", "reveal", "referee"),
    "edit": Http("POST", "edits", "referee"),
    "options": Http("PUT", "options", "referee"),
    "sheets": Http("PUT", "sheets", "referee"),
    "settings": Http("PUT", "settings", "referee"),
    "answer": Http("POST", "requests/{seq}", "actions"),
    "request": Http("POST", "roll-requests", "referee", "request_rolls"),
    "requests": Http("GET", "roll-requests", "actions", "roll_requests"),
    "gauge": Http("GET", "gauge", "table", "gauge_api"),
    "roll": Http("POST", "roll-requests/{seq}", "actions", "roll_for_request"),
    "recall": Http("DELETE", "roll-requests/{seq}", "referee", "recall_request"),
    "role": Http("PUT", "participants/{name}", "referee"),
    "leave": Http("DELETE", "participants/{name}", "referee"),
    "char add": Http("POST", "characters", "characters", keys={"cid": "id"}),
    "char bestiary": Http("POST", "characters/bestiary", "characters"),
    "char update": Http("PUT", "characters/{cid}", "characters"),
    "char remove": Http("DELETE", "characters/{cid}", "characters"),
}
"""Every operation the API serves on a table, in the order its documentation lists them
(``join`` is none: a participant joins by an invite link, ``POST .../invites``)."""


def http(op: Operation | str) -> Http:
    """Where the API serves operation ``op`` (by itself or its name)."""
    return ROUTES[op if isinstance(op, str) else op.name]


def route_name(op: Operation) -> str:
    """Its HTTP route's name (the OpenAPI operation's id is made from it)."""
    return http(op).name or op.service_method


def path(op: Operation) -> str:
    """Its whole path (``/api/tables/{tid}/...``)."""
    at = http(op).path
    return "/api/tables/{tid}" + (f"/{at}" if at else "")


def status(op: Operation) -> int:
    """Its answer's status: 201 where a POST appends an event, else 200."""
    return 201 if http(op).verb == "POST" and not op.reads else 200


def key(op: Operation | str, p: Param) -> str:
    """Parameter ``p``'s key in a request for ``op`` (a path's, a query's or a body's)."""
    return http(op).keys.get(p.name, p.name)


def param(op: str, name: str) -> Param:
    """Operation ``op``'s parameter ``name``."""
    return next(p for p in BY_NAME[op].params if p.name == name)


ENDPOINTS: dict[str, tuple[Callable[..., Any], str]] = {}
"""Each operation's route function and what its description adds to the operation's
help, by the operation's name (:func:`serves`; :mod:`referee.web.api` serves them)."""


def serves(op: str, more: str = "") -> Callable[[F], F]:
    """Declare the decorated function the route of operation ``op`` (served where
    :data:`ROUTES` says, in its order); ``more``: what the route's description says after
    the operation's help."""

    def register(fn: F) -> F:
        assert op in ROUTES and op not in ENDPOINTS, op
        ENDPOINTS[op] = (fn, more)
        return fn

    return register
