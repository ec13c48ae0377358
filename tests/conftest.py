"""Shared test settings: Hypothesis profiles sized for a 2-core CI machine, and the
databases the store, table and web tests run on.

``store_url`` is parametrised over an embedded SQLite file and a real PostgreSQL
server: a throwaway server this session starts on a local port, shared by every
test that needs one. Where the machine has none those cases are skipped - unless
``REFEREE_REQUIRE_POSTGRES=1`` (set by CI), when a missing server fails the run.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from referee.table import throwaway

settings.register_profile(
    "default",
    deadline=None,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.load_profile("default")


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
