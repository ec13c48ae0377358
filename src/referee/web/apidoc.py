"""The API's own documentation, served by the server itself.

:func:`complete` adds to the OpenAPI schema what every call shares and FastAPI cannot
see: the bearer token (a security scheme, on every call at one table), and the errors
each call may answer (401, 403, 404, 413, 429 beside the 422 FastAPI lists), each with
the ``{"detail": ...}`` body they all share. ``/docs`` is a page rendered from that
schema here (:func:`operations`), with no script and nothing from another site: it reads
the same offline and under the pages' Content-Security-Policy, where a viewer loaded
from a CDN showed a blank page. ``/openapi.json`` is the schema for tools.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup, escape

from referee.web.app import web_of

ERRORS: Final = {
    "400": "The request is malformed: a bad `Content-Length`, or JSON nested too deeply.",
    "401": "No link, or a link unknown or revoked: send `Authorization: Bearer TOKEN` (or "
    "the session cookie an invite link sets).",
    "403": "Not this participant's to do (their role, or a character they do not own), or a "
    "cookie request that did not come from this site's pages.",
    "404": "No such table (or character, proposal or link).",
    "413": "The body is over its bound: 512 KiB, an import 32 MiB.",
    "429": "Over a quota or a bound of the server (docs: Putting it on the internet); "
    "`Retry-After` says in how many seconds to try again.",
}
"""What each error status a call may answer means."""

METHODS: Final = ("get", "post", "put", "patch", "delete")

ERROR_SCHEMA: Final[dict[str, Any]] = {
    "title": "Error",
    "type": "object",
    "properties": {
        "detail": {"type": "string", "description": "What is wrong, in words."},
        "problems": {
            "type": "array",
            "description": "Each broken rule or invalid field, named (invalid sheets, actions "
            "and bodies).",
            "items": {"type": "object"},
        },
    },
    "required": ["detail"],
}


def complete(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with the bearer scheme on every call at one table and every error status
    each call may answer (in place; returned)."""
    components = schema.setdefault("components", {})
    components.setdefault("securitySchemes", {})["bearer"] = {
        "type": "http",
        "scheme": "bearer",
        "description": "A participant's capability token, from creating a table, an invite "
        "link or an import (a browser may send the session cookie instead).",
    }
    components.setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    for path, item in schema.get("paths", {}).items():
        for method in METHODS:
            op = item.get(method)
            if op is None or not path.startswith("/api/"):
                continue
            codes = ["400", "429"]
            if path.startswith("/api/tables/{tid}"):
                op["security"] = [{"bearer": []}]
                codes += ["401", "403", "404"]
            if "requestBody" in op:
                codes.append("413")
            responses = op.setdefault("responses", {})
            for code in sorted(codes):
                responses.setdefault(code, _error(code))
            op["responses"] = dict(sorted(responses.items()))
    return schema


def _error(code: str) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "description": ERRORS[code],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
    if code == "429":
        answer["headers"] = {
            "Retry-After": {
                "description": "Seconds to wait before trying again.",
                "schema": {"type": "integer"},
            }
        }
    return answer


CODE: Final = re.compile(r"``(.+?)``|`([^`]+)`")


def prose(text: str) -> Markup:
    """A description as HTML: escaped, its ```code``` spans as code."""
    return Markup(
        CODE.sub(lambda m: f"<code>{m[1] or m[2]}</code>", str(escape(" ".join(text.split()))))
    )


def type_name(schema: Mapping[str, Any]) -> str:
    """A schema's type in a word or two: its model's name, or its JSON type."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " or ".join(type_name(s) for s in schema["anyOf"])
    kind = str(schema.get("type", "any"))
    if kind == "array":
        return f"list of {type_name(schema.get('items', {}))}"
    return kind


def operations(schema: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every call of the schema, in its order, as the page shows it: method, path, what it
    does, whether it needs a token, its parameters, body and answers."""
    out: list[dict[str, Any]] = []
    for path, item in schema.get("paths", {}).items():
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            body = op.get("requestBody", {}).get("content", {})
            out.append(
                {
                    "method": method.upper(),
                    "path": path,
                    "id": f"{method}-{path}".replace("/", "-").replace("{", "").replace("}", ""),
                    "summary": op.get("summary", ""),
                    "description": prose(op.get("description", "")),
                    "tags": op.get("tags", []),
                    "secured": bool(op.get("security")),
                    "parameters": [
                        {
                            "name": p["name"],
                            "where": p.get("in", ""),
                            "required": bool(p.get("required")),
                            "type": type_name(p.get("schema", {})),
                            "description": prose(p.get("description", "")),
                        }
                        for p in op.get("parameters", [])
                    ],
                    "body": [(mime, type_name(c.get("schema", {}))) for mime, c in body.items()],
                    "responses": [
                        (code, r.get("description", "")) for code, r in op["responses"].items()
                    ],
                }
            )
    return out


router = APIRouter()


@router.get("/docs", response_class=HTMLResponse, include_in_schema=False)
def api_docs(request: Request) -> HTMLResponse:
    """The HTTP API, every call with its parameters, body and answers: a page of this
    server's own, rendered from its schema (offline, no scripts)."""
    schema = request.app.openapi()
    html = web_of(request).renderer.page(
        "api.html",
        title="HTTP API",
        info=schema.get("info", {}),
        ops=operations(schema),
        errors={code: prose(text) for code, text in ERRORS.items()},
    )
    return HTMLResponse(html)
