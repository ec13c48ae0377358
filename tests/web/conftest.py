"""The web tests' databases and servers (see tests/table/conftest.py for PostgreSQL)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.table import throwaway


@pytest.fixture(scope="session")
def pg_server() -> Iterator[throwaway.Server]:
    try:
        server = throwaway.start()
    except throwaway.NoPostgres as e:
        if os.environ.get("REFEREE_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required here: {e}")
        pytest.skip(f"no PostgreSQL: {e}")
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'referee.db'}"
    server: throwaway.Server = request.getfixturevalue("pg_server")
    return server.new_database()
