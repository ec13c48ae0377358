"""``referee serve`` run as a service (issue 24): settings from ``REFEREE_*`` variables,
JSON log lines, ``GET /healthz`` with the database up and down, the ``Server`` header,
and SIGTERM closing the live sockets with 1001 before a clean exit."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from tests.support import postgres

from referee import version

if TYPE_CHECKING:
    from tests.web.conftest import Site

pytestmark = [
    pytest.mark.timeout(180),
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning"),
]

SRC = Path(__file__).resolve().parents[2] / "src"
MAIN = "import sys; from referee.cli.main import run; sys.exit(run(sys.argv[1:]))"


# ---------------------------------------------------------------------------
# /healthz and the Server header, in the process


def test_healthz_answers_ok_with_the_version_and_the_server_header(site: Site) -> None:
    with site.client() as client:
        r = client.get("/healthz")
        assert r.status_code == 200
        assert r.json() == {"status": "ok", "database": "ok", "version": version()}
        assert r.headers["server"] == f"referee/{version()}"
        # every answer says which release wrote it, refusals included
        for path in ("/api/games", "/api/tables/nope", "/openapi.json"):
            assert client.get(path).headers["server"] == f"referee/{version()}", path
        assert client.get("/openapi.json").json()["info"]["version"] == version()


@pytest.mark.slow
def test_healthz_is_503_while_postgresql_is_down(new_site: Any) -> None:
    try:
        pg = postgres.start()  # its own server: this test stops it
    except postgres.NoPostgres as e:
        if os.environ.get("REFEREE_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required here: {e}")
        pytest.skip(f"no PostgreSQL: {e}")
    try:
        site = new_site(pg.url)
        with site.client() as client:
            assert client.get("/healthz").json()["database"] == "ok"
            pg.stop()
            t0 = time.monotonic()
            r = client.get("/healthz")
            assert time.monotonic() - t0 < 6  # within the check's timeout, never hanging
            assert r.status_code == 503
            assert r.json() == {
                "status": "unavailable",
                "database": "unreachable",
                "version": version(),
            }
            assert "127.0.0.1" not in r.text and "referee@" not in r.text  # no URL leaks
    finally:
        pg.stop()


# ---------------------------------------------------------------------------
# a real `referee serve` process


class Served:
    """``referee serve`` in its own process, configured by ``env`` (and ``args``)."""

    def __init__(self, tmp: Path, env: dict[str, str], args: tuple[str, ...] = ()) -> None:
        self.port = int(env.get("REFEREE_PORT") or postgres.free_port())
        self.base = f"http://127.0.0.1:{self.port}"
        self.out, self.err = tmp / "out.log", tmp / "err.log"
        full = {
            **os.environ,
            "PYTHONPATH": str(SRC),
            "REFEREE_PORT": str(self.port),
            "REFEREE_DATABASE_URL": f"sqlite:///{tmp / 'serve.db'}",
            **env,
        }
        with self.out.open("w") as out, self.err.open("w") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", MAIN, "serve", *args],
                stdout=out,
                stderr=err,
                cwd=tmp,
                env=full,
            )
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.base}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"referee serve did not start: {self.logs()}")
            time.sleep(0.2)

    def logs(self) -> str:
        return self.out.read_text() + self.err.read_text()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Any]:
    made: list[Served] = []

    def start(env: dict[str, str], *args: str) -> Served:
        made.append(Served(tmp_path, env, args))
        return made[-1]

    yield start
    for s in made:
        s.kill()


@pytest.mark.slow
def test_serve_takes_its_settings_from_the_environment_and_logs_json(
    served: Any, tmp_path: Path
) -> None:
    port = postgres.free_port()
    db = tmp_path / "from-env.db"
    s = served(
        {
            "REFEREE_HOST": "127.0.0.1",
            "REFEREE_PORT": str(port),
            "REFEREE_DATABASE_URL": f"sqlite:///{db}",
            "REFEREE_LOG_FORMAT": "json",
            "REFEREE_LOG_LEVEL": "info",
            "REFEREE_MAX_TABLES": "1",
            "REFEREE_ORIGINS": "https://a.example.org https://b.example.org",
        }
    )
    assert s.port == port and db.exists()  # the port and the database came from variables
    made = httpx.post(
        f"{s.base}/api/tables", json={"game": "mongrel", "name": "One", "referee": "Ron"}
    )
    assert made.status_code == 201
    again = httpx.post(
        f"{s.base}/api/tables", json={"game": "mongrel", "name": "Two", "referee": "Ron"}
    )
    assert again.status_code == 429  # REFEREE_MAX_TABLES=1
    assert "limit of 1 tables" in again.json()["detail"]
    # REFEREE_ORIGINS: both listed origins pass the origin check (then meet the quota)...
    for origin in ("https://a.example.org", "https://b.example.org"):
        r = httpx.post(f"{s.base}/api/import", json={}, headers={"origin": origin})
        assert r.status_code == 429, origin
    # ... and another does not
    r = httpx.post(f"{s.base}/api/import", json={}, headers={"origin": "https://evil.example"})
    assert r.status_code == 403
    s.proc.send_signal(signal.SIGTERM)
    assert s.proc.wait(timeout=30) == 0
    lines = [line for line in s.logs().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert {"time", "level", "logger", "message"} <= set(records[0])
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    assert {
        "client": access[0]["client"],
        "method": "GET",
        "path": "/healthz",
        "http_version": "1.1",
        "status": 200,
    } in [{k: a[k] for k in ("client", "method", "path", "http_version", "status")} for a in access]
    assert any(r["method"] == "POST" and r["status"] == 429 for r in access)
    started = [r for r in records if r["logger"] == "referee.web"]
    assert started[0]["message"] == f"referee {version()} serving on http://127.0.0.1:{port}/"
    assert any(r["message"] == "Shutting down" for r in records)


@pytest.mark.slow
def test_sigterm_closes_the_live_sockets_with_1001_and_exits_0(served: Any) -> None:
    import websockets.sync.client as wsc
    from websockets.exceptions import ConnectionClosed

    s = served({})
    made = httpx.post(
        f"{s.base}/api/tables", json={"game": "mnemonic", "name": "Live", "referee": "Ron"}
    ).json()
    tid, ron = made["table"]["id"], {"authorization": f"Bearer {made['token']}"}
    ws = wsc.connect(f"ws://127.0.0.1:{s.port}/ws/tables/{tid}?after=0", additional_headers=ron)
    try:
        seen: list[str] = []
        while "live" not in seen:  # caught up: the socket is the hub's now
            message = json.loads(ws.recv(timeout=20))
            for m in message if isinstance(message, list) else [message]:
                seen.append(m["type"])
        t0 = time.monotonic()
        s.proc.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=20)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1001  # going away, not uvicorn's 1012
        assert closed.value.rcvd.reason == "the server is shutting down"
    finally:
        ws.close()
    assert s.proc.wait(timeout=30) == 0
    assert time.monotonic() - t0 < 15
    assert "closing 1 live socket(s) with 1001" in s.logs()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variable", "value", "named"),
    [
        ("REFEREE_PORT", "abc", "'--port' (env var: 'REFEREE_PORT'): 'abc'"),
        ("REFEREE_LOG_FORMAT", "xml", "'--log-format' (env var: 'REFEREE_LOG_FORMAT'): 'xml'"),
        ("REFEREE_MAX_TABLES", "many", "'--max-tables' (env var: 'REFEREE_MAX_TABLES'): 'many'"),
    ],
)
def test_a_bad_variable_is_refused_by_name_before_serving(
    variable: str, value: str, named: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", MAIN, "serve"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(SRC), variable: value},
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: Invalid value for {named}")
    assert "Traceback" not in done.stderr and done.stdout == ""
