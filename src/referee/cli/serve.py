"""``referee serve``: the web table on a database (FastAPI under uvicorn).

FastAPI and uvicorn are imported only when the command runs, so other
commands (``referee odds``) start without them.
"""

from __future__ import annotations

import gc
import logging
from typing import Any

import click

from referee.cli.common import listed

DB_OPTION = click.option(
    "--db",
    envvar="REFEREE_DATABASE_URL",
    show_envvar=True,
    help="Database URL (sqlite:///FILE or postgresql://...); default: REFEREE_DATABASE_URL, "
    "else a SQLite file in your data directory.",
)

ORIGIN_OPTION = click.option(
    "--origin",
    multiple=True,
    envvar="REFEREE_ORIGINS",
    show_envvar=True,
    callback=listed,
    help="A public origin the pages are served from behind a proxy that rewrites Host "
    "(e.g. https://table.example.org); repeatable (the variable: space-separated).",
)


LIMIT_HELP = {
    "tables_per_hour": "Tables one client address may create or import an hour.",
    "tables_burst": "Tables one address may create at once before the hourly rate applies.",
    "max_tables": "Tables the server holds at most.",
    "requests_per_second": "Requests one link may make a second, sustained.",
    "requests_burst": "Requests one link may make at once before that rate applies.",
    "invites_per_table": "Invite links one table may make (revoked ones count).",
    "odds_per_token": "Odds or previews one link may have computing at once.",
    "odds_workers": "Worker processes that compute odds and previews.",
}


def limit_options(fn: Any) -> Any:
    """One option per quota of :class:`referee.web.limits.Limits`, with its default and
    its ``REFEREE_*`` variable."""
    from dataclasses import fields

    from referee.web.limits import Limits

    for f in reversed(fields(Limits)):
        fn = click.option(
            "--" + f.name.replace("_", "-"),
            f.name,
            type=float if f.type == "float" else int,
            default=f.default,
            envvar="REFEREE_" + f.name.upper(),
            show_envvar=True,
            show_default=True,
            help=LIMIT_HELP[f.name],
        )(fn)
    return fn


SETTINGS_HELP = (
    "Every option can also be set by its environment variable (REFEREE_HOST, REFEREE_PORT, "
    "...; docs/deploy.md lists them all in one table); an option on the command line wins."
)


@click.command("serve", epilog=SETTINGS_HELP)
@click.option(
    "--host",
    default="127.0.0.1",
    envvar="REFEREE_HOST",
    show_envvar=True,
    help="The address to listen on.",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    envvar="REFEREE_PORT",
    show_envvar=True,
    help="The TCP port.",
)
@DB_OPTION
@click.option(
    "--demo",
    is_flag=True,
    envvar="REFEREE_DEMO",
    show_envvar=True,
    help="Create one demo table per game (if absent) and print its links.",
)
@ORIGIN_OPTION
@click.option(
    "--forwarded-allow-ips",
    default="127.0.0.1",
    envvar="REFEREE_FORWARDED_ALLOW_IPS",
    show_envvar=True,
    help="Proxies trusted to set X-Forwarded-Proto/For (comma-separated, or *).",
)
@click.option(
    "--log-level",
    type=click.Choice(["critical", "error", "warning", "info", "debug"], case_sensitive=False),
    default="info",
    envvar="REFEREE_LOG_LEVEL",
    show_envvar=True,
    help="The least severe log line written.",
)
@click.option(
    "--log-format",
    type=click.Choice(["text", "json"], case_sensitive=False),
    default="text",
    envvar="REFEREE_LOG_FORMAT",
    show_envvar=True,
    help="text: uvicorn's lines; json: one JSON object a line (for journald or a collector).",
)
@click.option(
    "--shutdown-timeout",
    type=click.IntRange(0, 3600),
    default=10,
    envvar="REFEREE_SHUTDOWN_TIMEOUT",
    show_envvar=True,
    help="Seconds open requests have to finish after SIGTERM before they are cancelled.",
)
@limit_options
def serve(
    host: str,
    port: int,
    db: str | None,
    demo: bool,
    origin: list[str] | None,
    forwarded_allow_ips: str,
    log_level: str,
    log_format: str,
    shutdown_timeout: int,
    **limits: Any,
) -> None:
    """Serve the web table: pages, the JSON API (/docs), live WebSockets and /healthz.

    The quotas (--tables-per-hour ... --odds-workers, 0 switches one off) answer 429 with
    Retry-After past their limit; docs/web.md explains each. SIGTERM stops it cleanly: the
    live sockets are closed with 1001 (going away), open requests finish, status 0."""
    import uvicorn

    from referee.cli.common import handle_errors
    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.table.tokens import Tokens
    from referee.web import create_app
    from referee.web.server import LogFormat, Server, log_config

    fmt: LogFormat = "json" if log_format.lower() == "json" else "text"
    logging_config = log_config(fmt, log_level)

    @handle_errors
    def build() -> Any:
        service = TableService(Store(db))
        tokens = Tokens(service.store)
        if demo:
            _print_demo(service, tokens, host, port)
        from referee.web.limits import Limits

        return create_app(
            service,
            tokens=tokens,
            trusted_origins=origin or (),
            limits=Limits(**limits),
            warm=True,
        )

    app = build()
    # what is loaded by now (the app, the games, the libraries) lives as long as the
    # server: keep it out of the collector's full passes, which otherwise walk it all
    # and stall every table for tens of milliseconds at a time under load
    gc.collect()
    gc.freeze()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if fmt == "text":
        click.echo(f"referee: serving on http://{shown}:{port}/ (Ctrl+C stops)")
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # compressing each frame per socket cost more than it saved
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
        log_level=log_level.lower(),
        log_config=logging_config,
        server_header=False,  # the app's own: Server: referee/VERSION
        timeout_graceful_shutdown=shutdown_timeout,
    )
    from referee import version

    logging.getLogger("referee.web").info(
        "referee %s serving on http://%s:%d/", version(), shown, port
    )
    server = Server(config, app.state.web.hub)
    server.run()


def _print_demo(service: Any, tokens: Any, host: str, port: int) -> None:
    from referee.web.demo import demo_tables

    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"
    tables, skipped = demo_tables(service, tokens)
    for t in tables:
        state = "created" if t.created else "kept"
        click.echo(f"\n{t.title}: table {t.name} ({state})")
        for who, token in t.tokens.items():
            label = "referee" if who == "Referee" else f"player {who}"
            click.echo(f"  {label:12} {base}/join/{token}")
    for note in skipped:
        click.echo(f"\n(no demo table for {note})")
    if tables:
        click.echo("\nOpen the referee's link first; each player's link in another browser.")
