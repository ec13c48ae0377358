"""The web tests' servers and tables.

``site`` is a real uvicorn server on 127.0.0.1 (a free port) serving the app
over a fresh SQLite database; ``table`` is a Mnemonic table made through the
API with a referee, two players (Ann owns Mickey Ruane, Ben the Swiftsure)
and an observer, each with their own token. PostgreSQL cases use the session's
throwaway server (``pg_server`` / ``store_url`` in tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from tests.open_table import OPEN
from tests.support import postgres

from referee.table.service import TableService
from referee.table.store import Store
from referee.table.tokens import Tokens
from referee.web import create_app
from referee.web.limits import Limits


class Uvicorn:
    """A uvicorn server running an app in a thread of the test process (trusting
    ``X-Forwarded-For`` from ``forwarded``, as ``referee serve`` does from 127.0.0.1)."""

    def __init__(self, app: Any, port: int, forwarded: str = "127.0.0.1") -> None:
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws_max_size=64 * 1024,
            ws_per_message_deflate=False,
            forwarded_allow_ips=forwarded,
            server_header=False,  # as referee serve: the app's Server: referee/VERSION
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.port = port

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


@dataclass
class Site:
    """A running web table and what the tests need to reach it."""

    base: str
    url: str
    service: TableService
    tokens: Tokens
    server: Uvicorn

    @property
    def ws_base(self) -> str:
        return self.base.replace("http://", "ws://")

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.base, headers=headers, timeout=30)


def start_site(url: str, limits: Limits | None = None, forwarded: str = "127.0.0.1") -> Site:
    service = TableService(Store(url))
    tokens = Tokens(service.store)
    app = create_app(service, tokens=tokens, limits=limits)
    server = Uvicorn(app, postgres.free_port(), forwarded)
    server.start()
    return Site(f"http://127.0.0.1:{server.port}", url, service, tokens, server)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    running = start_site(f"sqlite:///{tmp_path / 'web.db'}")
    yield running
    running.server.stop()
    running.service.store.close()


@dataclass
class Table:
    """A table made through the API and its participants' tokens."""

    id: str
    tokens: dict[str, str] = field(default_factory=dict)

    def auth(self, who: str) -> dict[str, str]:
        return {"authorization": f"Bearer {self.tokens[who]}"}


def make_table(
    site: Site, game: str = "mnemonic", name: str = "Friday", settings: Any = OPEN
) -> Table:
    with site.client() as http:
        body = {"game": game, "name": name, "referee": "Ron"}
        if settings is not None:
            body["settings"] = settings
        made = http.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        body = made.json()
        table = Table(body["table"]["id"], {"Ron": body["token"]})
        ron = table.auth("Ron")
        for who, role in (("Ann", "player"), ("Ben", "player"), ("Obi", "observer")):
            r = http.post(
                f"/api/tables/{table.id}/invites", json={"name": who, "role": role}, headers=ron
            )
            assert r.status_code == 201, r.text
            table.tokens[who] = r.json()["token"]
        if game == "mnemonic":
            for example, owner in (("boxer", "Ann"), ("frigate", "Ben")):
                r = http.post(
                    f"/api/tables/{table.id}/characters",
                    json={"example": example, "owner": owner},
                    headers=ron,
                )
                assert r.status_code == 201, r.text
    return table


@pytest.fixture
def table(site: Site) -> Table:
    return make_table(site)


@pytest.fixture
def new_table() -> Any:
    """``new_table(site, game, name)``: another table made through the API."""
    return make_table


@pytest.fixture
def new_site() -> Iterator[Any]:
    """``new_site(url)``: another running server (stopped after the test)."""
    started: list[Site] = []

    def start(url: str, limits: Limits | None = None, forwarded: str = "127.0.0.1") -> Site:
        running = start_site(url, limits, forwarded)
        started.append(running)
        return running

    yield start
    for running in started:
        running.server.stop()
        running.service.store.close()


@pytest.fixture(scope="module")
def shared_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One server for a whole module (schemathesis runs many cases against it)."""
    folder = tmp_path_factory.mktemp("shared")
    running = start_site(f"sqlite:///{folder / 'web.db'}")
    yield running
    running.server.stop()
    running.service.store.close()


@pytest.fixture(scope="module")
def shared_table(shared_site: Site) -> Table:
    return make_table(shared_site, name="Shared")


class LiveSocket:
    """A table's WebSocket read one message at a time: the server may send several
    waiting messages as one frame (a JSON array), and this hands them out in order,
    each as the text it would have had alone. ``frames`` keeps every raw frame."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.pending: deque[str] = deque()
        self.frames: list[str] = []

    def recv(self, timeout: float | None = None) -> str:
        if not self.pending:
            text = self.ws.recv(timeout=timeout)
            self.frames.append(text)
            if not text.startswith("["):
                return str(text)
            self.pending.extend(json.dumps(m, separators=(",", ":")) for m in json.loads(text))
        return self.pending.popleft()

    def send(self, text: str) -> None:
        self.ws.send(text)

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> LiveSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.ws.close()


Connect = Callable[..., LiveSocket]


@pytest.fixture
def ws_connect() -> Connect:
    """``websockets``' sync ``connect``, answering a :class:`LiveSocket`."""
    import websockets.sync.client as wsc

    def connect(url: str, **kwargs: Any) -> LiveSocket:
        return LiveSocket(wsc.connect(url, **kwargs))

    return connect


# ---------------------------------------------------------------------------
# the browser (Debian's Chromium driven by Playwright; no download)

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if os.environ.get("REFEREE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{CHROMIUM} is required here (apt-get install chromium)")
        pytest.skip(f"no {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def artifacts() -> Path:
    folder = Path(os.environ.get("REFEREE_ARTIFACTS", "artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# ---------------------------------------------------------------------------
# schemathesis over the site's own schema


def fuzz_api(
    base: str,
    prepare: Callable[[Any, int], str],
    *,
    max_examples: int,
    path_regex: str | None = None,
) -> tuple[int, int, list[str]]:
    """Call every operation of ``base``'s ``/openapi.json`` (those whose path matches
    ``path_regex``) with generated inputs, valid and invalid; ``prepare(case, n)`` fills
    in what a real call needs (a table's id) and returns the token to call with. Returns
    how many operations and cases were tried, and every server error found, named by
    operation (all are collected before the test reports them)."""
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, settings
    from schemathesis.checks import not_a_server_error

    schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
    if path_regex is not None:
        schema = schema.include(path_regex=path_regex)
    failures: list[str] = []
    cases = 0
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @given(case=operation.as_strategy())
        @settings(
            max_examples=max_examples,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.explicit, Phase.generate],
        )
        def call(case: Any) -> None:
            nonlocal cases
            token = prepare(case, cases)
            cases += 1
            case.call_and_validate(
                base_url=base,
                headers={"authorization": f"Bearer {token}"},
                checks=[not_a_server_error],
            )

        try:
            call()
        except Exception as e:  # collect every operation's failure, then report them all
            failures.append(f"{operation.method.upper()} {operation.path}: {e}")
    return operations, cases, failures
