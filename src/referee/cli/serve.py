"""``referee serve``: the web table on a database (FastAPI under uvicorn).

Each option has its ``REFEREE_*`` variable; :func:`referee.web.server.serve` does the
work. FastAPI and uvicorn are imported only when the command runs, so other commands
(``referee odds``) start without them.
"""

from __future__ import annotations

from typing import Any

import click

from referee.cli.common import handle_errors

DB_HELP = (
    "Database URL (sqlite:///FILE or postgresql://...); default: REFEREE_DATABASE_URL, else a "
    "SQLite file in your data directory."
)
ORIGIN_HELP = (
    "A public origin the pages are served from behind a proxy that rewrites Host (e.g. "
    "https://table.example.org); repeatable (the variable: space-separated)."
)
LOG_FORMAT_HELP = (
    "text: uvicorn's lines; json: one JSON object a line (for journald or a collector)."
)
SHUTDOWN_HELP = "Seconds open requests have to finish after SIGTERM before they are cancelled."
LEVELS = click.Choice(["critical", "error", "warning", "info", "debug"], case_sensitive=False)
SETTINGS_HELP = (
    "Every option can also be set by its environment variable (REFEREE_HOST, REFEREE_PORT, "
    "...; docs/deploy.md lists them all in one table); an option on the command line wins."
)

OPTIONS: tuple[tuple[str, Any, Any, str], ...] = (
    ("host", str, "127.0.0.1", "The address to listen on."),
    ("port", click.IntRange(1, 65535), 8000, "The TCP port."),
    ("db", str, None, DB_HELP),
    ("demo", bool, False, "Create one demo table per game (if absent) and print its links."),
    ("origin", "many", None, ORIGIN_HELP),
    (
        "forwarded_allow_ips",
        str,
        "127.0.0.1",
        "Proxies trusted to set X-Forwarded-Proto/For (comma-separated, or *).",
    ),
    ("log_level", LEVELS, "info", "The least severe log line written."),
    ("log_format", click.Choice(["text", "json"], case_sensitive=False), "text", LOG_FORMAT_HELP),
    ("shutdown_timeout", click.IntRange(0, 3600), 10, SHUTDOWN_HELP),
)
"""Each option: name, type (``bool`` a flag, ``"many"`` repeatable), default, help."""


def _options() -> list[click.Parameter]:
    """The server's options, then one per quota of :class:`referee.web.limits.Limits`."""
    from dataclasses import fields

    from referee.web.limits import HELP, Limits

    quotas = [
        (f.name, float if f.type == "float" else int, f.default, HELP[f.name])
        for f in fields(Limits)
    ]
    made: list[click.Parameter] = []
    for name, kind, default, help in (*OPTIONS, *quotas):
        how: dict[str, Any] = {"is_flag": True} if kind is bool else {"type": kind}
        how = {"multiple": True} if kind == "many" else how
        env = {"db": "REFEREE_DATABASE_URL", "origin": "REFEREE_ORIGINS"}.get(name)
        made.append(
            click.Option(
                ["--" + name.replace("_", "-"), name],
                default=default,
                envvar=env or "REFEREE_" + name.upper(),
                show_envvar=True,
                show_default=default is not None and name != "db",
                help=help,
                **how,
            )
        )
    return made


def _serve(db: str | None, host: str, port: int, origin: tuple[str, ...], **rest: Any) -> None:
    """Serve the web table: pages, the JSON API (/docs), live WebSockets and /healthz.

    The quotas (--tables-per-hour ... --odds-workers, 0 switches one off) answer 429 with
    Retry-After past their limit; docs/web.md explains each. SIGTERM stops it cleanly: the
    live sockets are closed with 1001 (going away), open requests finish, status 0."""
    from referee.web.limits import HELP
    from referee.web.server import serve as run

    limits = {k: rest.pop(k) for k in HELP}
    run(db, host, port, origins=tuple(origin), limits=limits, **rest)


serve = click.Command(
    "serve",
    params=_options(),
    callback=handle_errors(_serve),
    help=_serve.__doc__,
    epilog=SETTINGS_HELP,
)
