"""The API's documentation (issue 37): ``/docs`` is the server's own page, rendered from
its schema (a viewer loaded from a CDN was blank under the CSP and offline), and the
schema names the bearer token, every error status and every parameter."""

from __future__ import annotations

import re
from typing import Any

import httpx


def test_the_docs_page_lists_every_call_with_nothing_from_elsewhere(site: Any) -> None:
    with httpx.Client(base_url=site.base, timeout=30) as http:
        page = http.get("/docs")
        schema = http.get("/openapi.json").json()
    assert page.status_code == 200
    assert "default-src 'self'" in page.headers["content-security-policy"]
    html = page.text
    assert not re.search(r"""(src|href)=["']https?://""", html)  # nothing from another site
    assert "<script" not in html.split("</head>", 1)[1]  # the page itself runs no script
    for path, item in schema["paths"].items():
        for method in item:
            assert f"<code>{method.upper()} {path}</code>" in html, (method, path)
    assert "Retry-After" in html and "Authorization: Bearer TOKEN" in html


def test_the_schema_names_the_token_every_error_and_every_parameter(site: Any) -> None:
    with httpx.Client(base_url=site.base, timeout=30) as http:
        schema = http.get("/openapi.json").json()
    scheme = schema["components"]["securitySchemes"]["bearer"]
    assert scheme == {**scheme, "type": "http", "scheme": "bearer"}
    seen = 0
    for path, item in schema["paths"].items():
        for method, op in item.items():
            for p in op.get("parameters", []):
                assert p.get("description"), (method, path, p["name"])
            if not path.startswith("/api/"):
                continue
            codes = set(op["responses"])
            assert {"400", "429"} <= codes, (method, path)
            assert "Retry-After" in op["responses"]["429"]["headers"]
            if path.startswith("/api/tables/{tid}"):
                seen += 1
                assert op["security"] == [{"bearer": []}], (method, path)
                assert {"401", "403", "404"} <= codes, (method, path)
            if "requestBody" in op:
                assert "413" in codes, (method, path)
    assert seen > 30
