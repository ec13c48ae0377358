"""A throwaway PostgreSQL server for the tests and the benchmarks (never shipped: the
package does not start database servers).

The server is started with the machine's own ``initdb`` and ``pg_ctl`` (PostgreSQL 15 on the
image, Debian's ``postgresql`` package otherwise) in a temporary directory,
listening on 127.0.0.1 only, with trust authentication, and removed when
stopped. As root it runs the server as the ``postgres`` user, since PostgreSQL
refuses to run as root. It needs the standard library and ``psycopg`` only (no
``referee``): tests/conftest.py, bench/ and scripts/smoke_installed.py (beside an
installed wheel) all import it.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path


class NoPostgres(RuntimeError):
    """PostgreSQL's server programs are not on this machine or would not start."""


def _bindir() -> Path:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(candidate, "pg_ctl").exists():
            return Path(candidate)
    raise NoPostgres("pg_ctl not found (apt-get install postgresql)")


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    """A running throwaway server; :meth:`stop` removes it."""

    root: Path
    port: int
    bindir: Path
    as_user: list[str]

    @property
    def url(self) -> str:
        """The URL of its ``referee`` database."""
        return f"postgresql://referee@127.0.0.1:{self.port}/referee"

    def new_database(self) -> str:
        """A fresh empty database on this server; its URL."""
        import psycopg

        name = "t" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://referee@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """Stop the server and delete its files."""
        subprocess.run(
            [
                *self.as_user,
                str(self.bindir / "pg_ctl"),
                "-D",
                str(self.root / "data"),
                "-m",
                "immediate",
                "stop",
            ],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.root, ignore_errors=True)


def start() -> Server:
    """Start a throwaway server (:class:`NoPostgres` if it cannot)."""
    bindir = _bindir()
    root = Path(tempfile.mkdtemp(prefix="referee-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        os.chmod(root, 0o700)
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    data = root / "data"

    def run(*args: str) -> None:
        done = subprocess.run([*as_user, *args], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            shutil.rmtree(root, ignore_errors=True)
            raise NoPostgres(
                f"{Path(args[0]).name} failed: {done.stderr.strip() or done.stdout.strip()}"
            )

    run(str(bindir / "initdb"), "-D", str(data), "-U", "referee", "--auth=trust", "-E", "UTF8")
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=200"
    run(
        str(bindir / "pg_ctl"),
        "-D",
        str(data),
        "-o",
        options,
        "-l",
        str(root / "log"),
        "-w",
        "start",
    )
    server = Server(root, port, bindir, as_user)
    import psycopg

    for _ in range(100):
        try:
            with psycopg.connect(
                f"postgresql://referee@127.0.0.1:{port}/postgres", autocommit=True
            ) as conn:
                conn.execute("CREATE DATABASE referee")
            return server
        except psycopg.OperationalError:
            time.sleep(0.1)
    server.stop()
    raise NoPostgres("the server started but does not accept connections")
