"""Shared test settings: Hypothesis profiles sized for a 2-core CI machine, and the
databases the store, table and web tests run on.

``store_url`` is parametrised over an embedded SQLite file and a real PostgreSQL
server: a throwaway server this session starts on a local port, shared by every
test that needs one. Where the machine has none those cases are skipped - unless
``REFEREE_REQUIRE_POSTGRES=1`` (set by CI), when a missing server fails the run.
"""

import copy
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from tests.support import postgres

from referee.table.events import GENESIS, event_from_data

settings.register_profile(
    "default",
    deadline=None,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", deadline=None, max_examples=2000)
settings.register_profile(
    "check", deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow]
)
"""``make check``'s fast loop (``--hypothesis-profile=check``): fewer examples of each
property; ``make test`` runs the default profile."""
settings.load_profile("default")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in a browser (the ``browser`` fixture: Chromium driven by Playwright)
    is ``slow``: ``make test`` runs it, ``make check`` does not."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[postgres.Server]:
    try:
        server = postgres.start()
    except postgres.NoPostgres as e:
        if os.environ.get("REFEREE_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required here: {e}")
        pytest.skip(f"no PostgreSQL: {e}")
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'referee.db'}"
    server: postgres.Server = request.getfixturevalue("pg_server")
    return server.new_database()


# ---------------------------------------------------------------------------
# a forger's tools, for the signed-export tests (CLI and web alike)

Doc = dict[str, Any]

FORGERIES = ("cut tail", "edited note", "swapped events")
"""What a forger does to an export: each names a function of :func:`forgeries`."""


def rechain(doc: Doc) -> Doc:
    """A forger's repair: renumber the events 1, 2, 3... and recompute every prev_hash
    and hash, so the chain holds again (the head, if any, is left as it was). The
    chain's canonical JSON is written out here, not borrowed from the package."""
    prev = GENESIS
    rebuilt = []
    for i, item in enumerate(doc["events"], start=1):
        e = replace(event_from_data(item), seq=i, prev_hash=prev)
        text = json.dumps(
            e.hashed_content(), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        e = replace(e, hash=hashlib.sha256(text.encode()).hexdigest())
        rebuilt.append(e.data())
        prev = e.hash
    return {**doc, "events": rebuilt}


def _cut_tail(doc: Doc) -> Doc:
    """The last two events dropped (what is left is a valid chain as it stands)."""
    return {**doc, "events": doc["events"][:-2]}


def _edit_note(doc: Doc) -> Doc:
    """The first note's text changed, the chain recomputed."""
    out = copy.deepcopy(doc)
    note = next(e for e in out["events"] if e["kind"] == "note")
    note["payload"]["text"] = "I never said that"
    return rechain(out)


def _swap_two(doc: Doc) -> Doc:
    """Two actions swapped (their rolls now in the other order), the chain recomputed."""
    out = copy.deepcopy(doc)
    events = out["events"]
    i, j = [n for n, e in enumerate(events) if e["kind"] == "action-resolved"][:2]
    events[i], events[j] = events[j], events[i]
    return rechain(out)


@pytest.fixture
def forgeries() -> dict[str, Callable[[Doc], Doc]]:
    """Each of :data:`FORGERIES` as a function from an export to its forgery."""
    return dict(zip(FORGERIES, (_cut_tail, _edit_note, _swap_two), strict=True))


@pytest.fixture
def without_analysis_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the ``analysis`` extra were not installed: numpy, matplotlib and Dask cannot
    be imported, and the modules that import them at load are loaded afresh (restored
    after the test)."""
    import sys

    for name in list(sys.modules):
        if name.split(".")[0] in ("numpy", "dask", "matplotlib", "distributed") or name in (
            "referee.analysis.simulate",
            "referee.analysis.kernel",
        ):
            monkeypatch.delitem(sys.modules, name)
    for extra in ("numpy", "matplotlib", "dask"):
        monkeypatch.setitem(sys.modules, extra, None)
