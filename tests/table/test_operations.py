"""The live table's operations are declared once (``referee.table.operations``) and
every one reaches both edges: a route of the HTTP API and a command of ``referee
table``, with the same help for it and for each of its parameters (those served by
routes of their own too: a new table, an import, a recap)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import pytest
from fastapi.routing import APIRoute

from referee.table.operations import ELSEWHERE, OPERATIONS, Operation


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
    by_name = {p.name: p for p in command.params}
    for p in op.params:
        if p.form is None:
            continue
        found = by_name[p.name]
        assert getattr(found, "help", None) == p.help, (op.name, p.name)
        if p.form.startswith("--"):  # an option by its flag, else an argument
            assert isinstance(found, click.Option) and p.form in found.opts, (op.name, p.name)
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
    routes, schema = api
    if op.http is None:  # a participant joins the API by an invite link (POST .../invites)
        assert op.name == "join"
        return
    route = routes[op.route_name]
    path = "/api/tables/{tid}" + (f"/{op.http.path}" if op.http.path else "")
    assert (route.path, route.methods, route.tags) == (path, {op.http.verb}, [op.http.tag])
    assert route.status_code == op.status
    described = schema["paths"][path][op.http.verb.lower()]
    _says_the_same(schema, described, op)


def _says_the_same(schema: dict[str, Any], described: dict[str, Any], op: Operation) -> None:
    """The route's description starts with the operation's help, and each parameter (in
    the path, the query or the body) carries the parameter's help."""
    assert described["description"].startswith(op.help)
    helps = {p["name"]: p.get("description") for p in described.get("parameters", [])}
    body = described.get("requestBody", {}).get("content", {}).get("application/json", {})
    properties = _resolved(schema, body.get("schema", {})).get("properties", {})
    helps |= {key: value.get("description") for key, value in properties.items()}
    for p in op.params:
        assert helps[p.json_key] == p.help, (op.name, p.json_key)


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
