"""The live table's operations are declared once (``referee.table.operations``) and
every one reaches both edges: a route of the HTTP API (where ``referee.web.routes``
says) and a command of ``referee table`` (spelled as ``referee.cli.table`` says), with
the same help for it and for each of its parameters (those served by routes of their
own too: a new table, an import, a recap)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, get_args, get_origin

import click
import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field, create_model

from referee.table.operations import ELSEWHERE, OPERATIONS, Operation, Param


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, APIRoute], dict[str, Any]]:
    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.web.api import router
    from referee.web.app import create_app

    db = tmp_path_factory.mktemp("ops") / "ops.db"
    app = create_app(TableService(Store(f"sqlite:///{db}")), watch=False)
    routes = {r.name: r for r in router.routes if isinstance(r, APIRoute)}
    return routes, app.openapi()


def _command(op: Operation) -> click.Command:
    from referee.cli.table import app

    found: click.Command = app
    for word in op.name.split():
        assert isinstance(found, click.Group), op.name
        found = found.commands[word]
    return found


def _resolved(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    return node if ref is None else schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]


@pytest.mark.parametrize("op", OPERATIONS + ELSEWHERE, ids=lambda op: op.name)
def test_every_operation_is_a_command_with_its_help(op: Operation) -> None:
    command = _command(op)
    assert command.help is not None and command.help.startswith(op.help)
    from referee.cli.table import form

    by_name = {p.name: p for p in command.params}
    for p in op.params:
        spelled = form(p, op.name)
        if spelled is None:
            continue
        found = by_name[p.name]
        assert getattr(found, "help", None) == p.help, (op.name, p.name)
        if spelled.startswith("--"):  # an option by its flag, else an argument
            assert isinstance(found, click.Option) and spelled in found.opts, (op.name, p.name)
        else:
            assert isinstance(found, click.Argument), (op.name, p.name)
    acting = by_name.get("by")  # --as NAME: required for a participant's operation
    if op.who == "referee":
        assert acting is None, op.name
    else:
        assert acting is not None and acting.required == (op.who == "participant"), op.name


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.name)
def test_every_operation_is_a_route_with_its_help(
    op: Operation, api: tuple[dict[str, APIRoute], dict[str, Any]]
) -> None:
    from referee.web.routes import ROUTES, path, route_name, status

    routes, schema = api
    http = ROUTES.get(op.name)
    if http is None:  # a participant joins the API by an invite link (POST .../invites)
        assert op.name == "join"
        return
    route = routes[route_name(op)]
    assert (route.path, route.methods, route.tags) == (path(op), {http.verb}, [http.tag])
    assert route.status_code == status(op)
    assert route.endpoint.__name__ == route_name(op)  # a traceback names the route
    assert not hasattr(route.endpoint, "__signature__")  # its own parameters, as written
    described = schema["paths"][path(op)][http.verb.lower()]
    _says_the_same(schema, described, op)


def _says_the_same(schema: dict[str, Any], described: dict[str, Any], op: Operation) -> None:
    """The route's description starts with the operation's help, and each parameter (in
    the path, the query or the body) carries the parameter's help."""
    assert described["description"].startswith(op.help)
    helps = {p["name"]: p.get("description") for p in described.get("parameters", [])}
    body = described.get("requestBody", {}).get("content", {}).get("application/json", {})
    properties = _resolved(schema, body.get("schema", {})).get("properties", {})
    helps |= {key: value.get("description") for key, value in properties.items()}
    from referee.web.routes import ROUTES, key

    for p in op.params:
        at = key(op, p) if op.name in ROUTES else p.name
        assert helps[at] == p.help, (op.name, at)


@pytest.mark.parametrize(
    ("op", "where"),
    list(
        zip(
            ELSEWHERE,
            ["/api/tables post", "/api/import post", "/api/tables/{tid}/recap get"],
            strict=True,
        )
    ),
    ids=lambda x: x.name if isinstance(x, Operation) else x,
)
def test_the_routes_of_their_own_say_the_same(
    op: Operation, where: str, api: tuple[dict[str, APIRoute], dict[str, Any]]
) -> None:
    _routes, schema = api
    path, verb = where.split()
    described = schema["paths"][path][verb]
    _says_the_same(schema, described, op)


def test_a_command_and_a_route_answer_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One operation through both edges: the same service call, the same event."""
    import json

    from fastapi.testclient import TestClient

    from referee.cli.main import run
    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.table.tokens import Tokens
    from referee.web.app import create_app

    db = f"sqlite:///{tmp_path / 'both.db'}"
    assert run(["table", "new", "arm", "--name", "Duel", "--referee", "Dana", "--db", db]) == 0
    assert run(["table", "note", "Duel", "from the shell", "--as", "Dana", "--db", db]) == 0
    capsys.readouterr()
    service = TableService(Store(db))
    tokens = Tokens(service.store)
    tid = service.load("Duel").id
    bearer = {"authorization": f"Bearer {tokens.issue(tid, 'Dana', 'referee')[0]}"}
    with TestClient(create_app(service, tokens=tokens, watch=False)) as http:
        r = http.post(f"/api/tables/{tid}/notes", json={"text": "from the page"}, headers=bearer)
        assert r.status_code == 201, r.text
    assert run(["table", "log", "Duel", "--db", db, "--json"]) == 0
    notes = [e for e in json.loads(capsys.readouterr().out) if e["kind"] == "note"]
    assert [(e["actor"], e["payload"]["text"]) for e in notes] == [
        ("Dana", "from the shell"),
        ("Dana", "from the page"),
    ]


def _generated(name: str, params: tuple[Param, ...], nested: str) -> type[BaseModel]:
    """A body made from ``params`` as the API made its bodies before they were written
    out: each parameter's type, default, bounds and help (a list's bounds on each of its
    numbers; a list of records, a model named ``nested``)."""
    from referee.web.models import Strict
    from referee.web.routes import ROUTES, key

    fields: dict[str, Any] = {}
    for p in params:
        listed = any(get_origin(t) is list for t in (p.type, *get_args(p.type)))
        kind: Any = p.type
        if p.items:
            kind = list[_generated(nested, p.items, "")]  # type: ignore[misc]
        elif listed and p.ge is not None:  # a list of numbers (a list of words: as it is)
            each = list[Annotated[int, Field(ge=p.ge, le=p.le)]]  # type: ignore[valid-type]
            kind = each | None if type(None) in get_args(p.type) else each
        numbers = {} if listed else {"ge": p.ge, "le": p.le}
        default = {"default_factory": dict} if p.default == {} else {"default": p.default}
        info = Field(
            **default,
            description=p.help,
            min_length=p.min_length,
            max_length=p.max_length,
            **numbers,
        )
        at = key(name, p) if name in ROUTES else p.name
        fields[at] = (kind, info)
    model: type[BaseModel] = create_model(name, __base__=Strict, **fields)
    return model


def test_every_body_holds_its_operations_parameters() -> None:
    """The request bodies are classes (referee.web.models), each field the operation's
    parameter under its request key: the same schema as a body made from the parameters
    (type, default, bounds, help)."""
    from referee.table.operations import BY_NAME
    from referee.web.models import BODIES
    from referee.web.routes import ROUTES

    for name, body in BODIES.items():
        op = BY_NAME[name]
        params = tuple(p for p in op.params if "{" + p.name + "}" not in ROUTES[name].path)
        made = _generated(name, params, "EditChanges").model_json_schema()
        written = body.model_json_schema()
        written.pop("description", None)  # the odds' body says who else takes it
        made["title"] = written["title"]
        assert written == made, name
