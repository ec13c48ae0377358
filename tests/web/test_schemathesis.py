"""schemathesis against the documented API on a real server: no answer is a server error.

Every operation of ``/openapi.json`` is called with generated inputs (valid and
invalid), as the referee and as a player of a real table, so the calls reach
the service and the games' rules, not only the request validation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from .conftest import fuzz_api

if TYPE_CHECKING:
    from tests.web.conftest import Site, Table

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def test_no_server_errors(shared_site: Site, shared_table: Table) -> None:
    def prepare(case: Any, n: int) -> str:
        if case.path_parameters and "tid" in case.path_parameters:
            case.path_parameters["tid"] = shared_table.id
        return shared_table.tokens["Ron" if n % 3 else "Ann"]

    operations, cases, failures = fuzz_api(shared_site.base, prepare, max_examples=30)
    assert operations >= 20
    assert cases >= 10 * operations  # the cases were generated and sent
    assert failures == []


def test_the_api_is_documented(shared_site: Site) -> None:
    import httpx

    spec = httpx.get(f"{shared_site.base}/openapi.json").json()
    paths = spec["paths"]
    for path in (
        "/api/games",
        "/api/tables",
        "/api/import",
        "/api/tables/{tid}",
        "/api/tables/{tid}/log",
        "/api/tables/{tid}/odds",
        "/api/tables/{tid}/actions",
        "/api/tables/{tid}/notes",
        "/api/tables/{tid}/undo",
        "/api/tables/{tid}/redo",
        "/api/tables/{tid}/reveal",
        "/api/tables/{tid}/edits",
        "/api/tables/{tid}/options",
        "/api/tables/{tid}/characters",
        "/api/tables/{tid}/characters/{cid}",
        "/api/tables/{tid}/validate",
        "/api/tables/{tid}/invites",
        "/api/tables/{tid}/invites/{kid}",
        "/api/tables/{tid}/participants/{name}",
        "/api/tables/{tid}/export",
        "/api/tables/{tid}/verify",
    ):
        assert path in paths, path
        for op in paths[path].values():
            assert op.get("description") or op.get("summary"), path
    assert httpx.get(f"{shared_site.base}/docs").status_code == 200
