"""Issue 20's findings, each as an outside tester found it: a player with a link, or
anyone who can reach the server, probing the web table on a real uvicorn server."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx
import pytest

if TYPE_CHECKING:
    from tests.web.conftest import Site, Table

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")

NON_FINITE = ("NaN", "Infinity", "-Infinity", "1e400", "-1e400")


def _raw(http: httpx.Client, method: str, url: str, text: str, **kw: Any) -> httpx.Response:
    headers = {"content-type": "application/json", **kw.pop("headers", {})}
    return http.request(method, url, content=text.encode(), headers=headers, **kw)


# -- finding 3: numbers JSON cannot carry ---------------------------------------------


def test_non_finite_numbers_are_refused_by_every_endpoint_never_a_500(
    site: Site, table: Table
) -> None:
    tid = table.id
    bodies = [
        ("POST", f"/api/tables/{tid}/actions", '{"action": "check", "fields": {"aptitude": %s}}'),
        ("POST", f"/api/tables/{tid}/odds", '{"action": "check", "fields": {"aptitude": %s}}'),
        ("POST", f"/t/{tid}/preview", '{"action": "check", "fields": {"aptitude": %s}}'),
        ("POST", f"/api/tables/{tid}/characters", '{"sheet": {"aptitude": %s}}'),
        ("POST", f"/api/tables/{tid}/validate", '{"sheet": {"x": [1, %s]}}'),
        ("PUT", f"/api/tables/{tid}/options", '{"options": {"x": %s}}'),
        (
            "POST",
            f"/api/tables/{tid}/edits",
            '{"changes": [{"target": "table", "field": "x", "value": %s}], "reason": "r"}',
        ),
        (
            "POST",
            "/api/tables",
            '{"game": "mnemonic", "name": "N", "referee": "R", "options": {"x": %s}}',
        ),
        ("POST", "/api/import", '{"table": {"id": %s}}'),
    ]
    with site.client(table.tokens["Ron"]) as http:
        for method, url, template in bodies:
            for bad in NON_FINITE:
                r = _raw(http, method, url, template % bad)
                assert 400 <= r.status_code < 500, (url, bad, r.status_code, r.text)
                detail = r.json()["detail"]
                assert "finite" in detail, (url, bad, detail)
            # the connection still serves the next request
            assert http.get(f"/api/tables/{tid}").status_code == 200


# -- finding 4: strict types ------------------------------------------------------------


def test_wrong_types_are_refused_naming_the_field(site: Site, table: Table) -> None:
    tid = table.id
    with site.client(table.tokens["Ron"]) as http:
        for fields, name in (({"aptitude": "7"}, "aptitude"), ({"aptitude": True}, "aptitude")):
            for url in (f"/api/tables/{tid}/odds", f"/api/tables/{tid}/actions"):
                r = http.post(url, json={"action": "check", "fields": fields})
                assert r.status_code == 422, (url, fields, r.text)
                assert name in r.text
        delta = {"changes": [{"target": "mickey-ruane", "field": "x", "delta": "5"}], "reason": "r"}
        r = http.post(f"/api/tables/{tid}/edits", json=delta)
        assert r.status_code == 422 and "changes.0.delta" in r.json()["detail"], r.text
        r = http.post(f"/api/tables/{tid}/actions", json={"action": "check", "expect": "1"})
        assert r.status_code == 422 and "expect" in r.json()["detail"], r.text
        r = http.put(f"/api/tables/{tid}/options", json={"options": {"chances": "x"}})
        assert r.status_code == 422, r.text
        # the right types still work
        ok = http.post(
            f"/api/tables/{tid}/odds", json={"action": "check", "fields": {"aptitude": 7}}
        )
        assert ok.status_code == 200, ok.text
