"""The installed package's smoke run (scripts/smoke-wheel.sh runs it in each fresh venv).

Run with the venv's own interpreter in isolated mode (``python -I``) from a temporary
directory, so nothing of the checkout can be imported: it checks that ``referee`` comes
from the venv, then runs the installed ``referee`` command as a user would.

    python -I smoke_installed.py VENV [--analysis] [--postgres]

Standard library only (the installed package and its dependencies aside). Each step
prints one line; the first failure ends the run with status 1 and says what and why.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

STEP_TIMEOUT = 120


class Failed(Exception):
    pass


def step(name: str) -> None:
    print(f"smoke: {name}", flush=True)


def check(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)


def referee(venv: Path, *args: str, expect: int = 0) -> str:
    done = subprocess.run(
        [str(venv / "bin" / "referee"), *args],
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
    )
    check(
        done.returncode == expect,
        f"referee {' '.join(args)}: status {done.returncode}, expected {expect}\n"
        f"{done.stdout[-2000:]}{done.stderr[-2000:]}",
    )
    return done.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def the_package_is_the_venvs(venv: Path) -> str:
    code = "import referee, sys; print(referee.__file__); print(referee.version())"
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-I", "-c", code],
        capture_output=True,
        text=True,
        check=True,
    )
    where, version = done.stdout.split()
    check(
        Path(where).resolve().is_relative_to(venv.resolve()),
        f"referee imported from {where}, not from the venv {venv}",
    )
    return version


def cli(venv: Path, version: str) -> None:
    step("referee --version")
    check(referee(venv, "--version").strip() == f"referee {version}", "--version")
    step("python -m referee --version")
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "referee", "--version"],
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
    )
    check(done.stdout.strip() == f"referee {version}", f"python -m referee: {done}")
    step("the package says it is typed (py.typed) and carries its licence")
    site = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import referee, pathlib; print(pathlib.Path(referee.__file__).parent)",
        ],
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
    ).stdout.strip()
    check((Path(site) / "py.typed").is_file(), f"no py.typed in {site}")
    licences = list(Path(site).parent.glob("referee-*.dist-info/licenses/LICENSE"))
    check(bool(licences) and "MIT License" in licences[0].read_text(), "no LICENSE installed")
    step("referee mneme --help and serve --help (the stored screens)")
    out = referee(venv, "mneme", "--help")
    check("Commands:" in out and "attack-odds" in out, f"mneme --help printed:\n{out}")
    check("--port" in referee(venv, "serve", "--help"), "serve --help names no --port")
    step("referee odds 2d6")
    out = referee(venv, "odds", "2d6")
    check("mean 7" in out and "1/36" in out and "1/6" in out, f"odds 2d6 printed:\n{out}")
    step("referee mongrel validate vooruk (the text's example: 5 creation rules broken)")
    out = referee(venv, "mongrel", "validate", "vooruk", expect=1)
    check(out.startswith("Vooruk: action points 3"), f"validate vooruk printed:\n{out}")
    check(out.count("[Mongrel: Character Creation") == 5, f"validate vooruk printed:\n{out}")


class Fetcher:
    def __init__(self, base: str) -> None:
        self.base = base
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def get(self, path: str, accept: str = "text/html") -> tuple[int, str, str]:
        request = urllib.request.Request(self.base + path, headers={"accept": accept})
        try:
            with self.opener.open(request, timeout=30) as r:
                body = r.read().decode()
                return r.status, r.headers.get("content-type", ""), body
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("content-type", ""), e.read().decode()

    def ok(self, path: str, kind: str) -> str:
        status, ctype, body = self.get(path)
        check(status == 200, f"GET {path}: {status}\n{body[:500]}")
        check(kind in ctype, f"GET {path}: content-type {ctype}, expected {kind}")
        print(f"smoke:   GET {path}: 200 {ctype.split(';')[0]}, {len(body):,} characters")
        return body


def serve(venv: Path, work: Path, version: str, analysed: bool) -> None:
    port = free_port()
    step(f"referee serve --demo on port {port}")
    log = (work / "serve.log").open("w+")
    proc = subprocess.Popen(
        [
            str(venv / "bin" / "referee"),
            "serve",
            "--demo",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{work / 'serve.db'}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "REFEREE_SIGNING_KEY": str(work / "key.pem")},
    )
    web = Fetcher(f"http://127.0.0.1:{port}")
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if web.get("/healthz", "application/json")[0] == 200:
                    break
            except OSError:
                pass
            check(proc.poll() is None, f"referee serve ended: {(work / 'serve.log').read_text()}")
            check(time.monotonic() < deadline, "referee serve did not answer in 60 s")
            time.sleep(0.3)
        health = json.loads(web.ok("/healthz", "application/json"))
        check(health == {"status": "ok", "database": "ok", "version": version}, str(health))
        web.ok("/", "text/html")
        schema = json.loads(web.ok("/openapi.json", "application/json"))
        check(schema["info"]["version"] == version, "the API's version")
        check("/api/tables" in schema["paths"], "the API lists /api/tables")
        printed = (work / "serve.log").read_text()
        links = re.findall(r"referee\s+(http://\S+/join/\S+)", printed)
        check(len(links) >= 4, f"one referee link per game expected:\n{printed}")
        join = links[0].split(str(port), 1)[1]
        page = web.ok(join, "text/html")  # sets the session cookie
        found = re.search(r"/t/[A-Za-z0-9]+", page)
        check(found is not None, "the join page names its table")
        assert found is not None
        table = web.ok(found.group(0), "text/html")
        check('id="table-pane"' in table or "table-pane" in table, "the table page's panes")
        scripts = re.findall(r'<script[^>]+src="([^"]+)"', table)
        styles = re.findall(r'<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"', table)
        check(bool(scripts) and bool(styles), "the table page has scripts and stylesheets")
        seen: set[str] = set()
        todo = list(scripts)
        while todo:  # each script, and the modules it imports
            src = todo.pop()
            if src in seen:
                continue
            seen.add(src)
            body = web.ok(src, "javascript")
            for module in re.findall(r'from\s+"\./([\w.-]+\.js)"', body):
                todo.append(src.rsplit("/", 1)[0] + "/" + module)
        for href in styles:
            web.ok(href, "text/css")
        step("each demo table's analysis page answers, a simulated fight as the extra allows")
        simulated = []
        for link in links:
            page = web.ok(link.split(str(port), 1)[1], "text/html")
            tid = re.search(r"/t/([A-Za-z0-9]+)", page)
            check(tid is not None, "the join page names its table")
            assert tid is not None
            for query in ("", "?a=brad&b=christine"):  # its default fight; ARM's simulated
                status, _, body = web.get(f"/t/{tid.group(1)}/analysis{query}")
                check(
                    status in (200, 422) or (status == 501 and "referee[analysis]" in body),
                    f"the analysis page{query} answered {status}:\n{body[:500]}",
                )
                print(f"smoke:   GET /t/{tid.group(1)}/analysis{query}: {status}")
                simulated.append((status, body))
        if analysed:
            check(any(s == 200 for s, _ in simulated), "ARM's brad v christine was simulated")
        else:
            check(
                any(s == 200 and "referee[analysis]" in b for s, b in simulated),
                "without numpy, a simulated fight says what to install (the page answers)",
            )
        step("SIGTERM: referee serve stops with status 0")
        proc.send_signal(signal.SIGTERM)
        check(proc.wait(timeout=30) == 0, f"status {proc.returncode} after SIGTERM")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        log.close()


def missing_extras(venv: Path, work: Path) -> None:
    """Without the extras, a command that needs one says what to install (exit 1, one
    line), never an internal error."""
    step("without the analysis extra: analyze --simulate names what to install")
    done = subprocess.run(
        [
            str(venv / "bin" / "referee"),
            "analyze",
            "conflict",
            "mongrel",
            "--simulate",
            "--runs",
            "200",
        ],
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
    )
    check(
        done.returncode == 1 and "pip install 'referee[analysis]'" in done.stderr,
        f"analyze without numpy: status {done.returncode}\n{done.stderr[-1000:]}",
    )
    step("without the postgres extra: a PostgreSQL URL names what to install")
    done = subprocess.run(
        [
            str(venv / "bin" / "referee"),
            "serve",
            "--port",
            str(free_port()),
            "--db",
            "postgresql://nobody@127.0.0.1:1/none",
        ],
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
    )
    check(
        done.returncode != 0 and "pip install 'referee[postgres]'" in done.stderr,
        f"serve without psycopg: status {done.returncode}\n{done.stderr[-1000:]}",
    )


def analysis(venv: Path) -> None:
    step("referee analyze compare arm (the analysis extra)")
    out = referee(venv, "analyze", "compare", "arm")
    check("push if-needed" in out and "success" in out, f"analyze compare arm printed:\n{out}")


POSTGRES = """
import subprocess, sys
from pathlib import Path
import referee.table.store as store_module
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text
from referee.table.store import Store

sys.path.insert(0, sys.argv[1])  # the tests' launcher (tests/support/postgres.py), not shipped
import postgres as throwaway

scripts = Path(store_module.__file__).parent / "migrations"
assert Path(sys.prefix).resolve() in scripts.resolve().parents, scripts
head = ScriptDirectory(str(scripts)).get_current_head()
try:
    server = throwaway.start()
except throwaway.NoPostgres as e:
    print(e)
    sys.exit(3)
try:
    Store(server.url).close()  # migrates the empty database to the newest revision
    engine = create_engine(server.url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        got = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        tables = sorted(conn.execute(text(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).scalars())
    engine.dispose()
    assert got == head, (got, head)
    referee = str(Path(sys.prefix) / "bin" / "referee")
    made = subprocess.run(
        [referee, "table", "new", "mongrel", "--name", "Smoke", "--referee", "Ron",
         "--db", server.url], capture_output=True, text=True)
    assert made.returncode == 0 and "table 'Smoke'" in made.stdout, made.stdout + made.stderr
    print(head, ", ".join(tables))
finally:
    server.stop()
"""

LAUNCHER = next(
    (
        p
        for p in (
            Path(__file__).resolve().parent / "postgres.py",  # copied beside this (smoke-wheel.sh)
            Path(__file__).resolve().parents[1] / "tests" / "support" / "postgres.py",
        )
        if p.exists()
    ),
    Path("postgres.py"),  # neither: the step fails, naming the missing module
)
"""The tests' throwaway PostgreSQL server (the package ships no launcher)."""


def postgres(venv: Path, work: Path) -> None:
    step("PostgreSQL: the installed Alembic scripts migrate a new database")
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-I", "-c", POSTGRES, str(LAUNCHER.parent)],
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
        cwd=work,
    )
    if done.returncode == 3:  # no PostgreSQL here: as the tests, fatal only where required
        check(
            os.environ.get("REFEREE_REQUIRE_POSTGRES") != "1",
            f"PostgreSQL is required here: {done.stdout.strip()}",
        )
        print(f"smoke:   skipped, no PostgreSQL: {done.stdout.strip()}", flush=True)
        return
    check(done.returncode == 0, f"migration failed:\n{done.stdout}{done.stderr}")
    print(f"smoke:   at revision {done.stdout.strip()}; a table made on it")


def main(argv: list[str]) -> int:
    venv = Path(argv[0]).resolve()
    with tempfile.TemporaryDirectory(prefix="referee-smoke-") as tmp:
        work = Path(tmp)
        os.chdir(work)
        try:
            version = the_package_is_the_venvs(venv)
            step(f"referee {version} installed in {venv}")
            cli(venv, version)
            serve(venv, work, version, "--analysis" in argv)
            if "--analysis" in argv:
                analysis(venv)
            else:
                missing_extras(venv, work)
            if "--postgres" in argv:
                postgres(venv, work)
        except (Failed, subprocess.TimeoutExpired, AssertionError) as e:
            print(f"smoke: FAILED: {e}", file=sys.stderr, flush=True)
            return 1
    step("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
