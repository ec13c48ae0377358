"""``referee serve``: the web table on a database (FastAPI under uvicorn).

Each option is a field of the server's settings or quotas, with its ``REFEREE_*``
variable; :func:`referee.web.server.serve` does the work. FastAPI and uvicorn are
imported only when this command is named, so other commands (``referee odds``) start
without them.
"""

from __future__ import annotations

from typing import Any

import click

from referee.cli.common import handle_errors

SETTINGS_HELP = (
    "Every option can also be set by its environment variable (REFEREE_HOST, REFEREE_PORT, "
    "...; docs/deploy.md lists them all in one table); an option on the command line wins."
)
RANGES = {"port": click.IntRange(1, 65535), "shutdown_timeout": click.IntRange(0, 3600)}
ENV = {"db": "REFEREE_DATABASE_URL", "origin": "REFEREE_ORIGINS"}
"""The variables not named ``REFEREE_`` + the option."""


def _options() -> list[click.Parameter]:
    """One option per field of :class:`~referee.web.settings.Settings`, then one per quota
    of :class:`~referee.web.limits.Limits`: its type, default and help are the field's."""
    from dataclasses import fields
    from typing import get_type_hints

    from referee.web import limits, settings

    kinds = ((settings.Settings, settings.HELP), (limits.Limits, limits.HELP))
    return [
        _option(f.name, f.default, get_type_hints(kind)[f.name], helps[f.name])
        for kind, helps in kinds
        for f in fields(kind)
    ]


def _option(name: str, default: Any, hint: Any, help: str) -> click.Option:
    """The option of one field of type ``hint``: a flag, repeatable, a choice or a value."""
    from typing import Literal, get_args, get_origin

    args = get_args(hint)
    how: dict[str, Any] = {"type": RANGES.get(name, args[0] if args else hint)}  # str | None: text
    if hint is bool or get_origin(hint) is tuple:
        how = {"is_flag": True} if hint is bool else {"multiple": True}
    elif get_origin(hint) is Literal:
        how = {"type": click.Choice(args, case_sensitive=False)}
    decl, env = ["--" + name.replace("_", "-"), name], ENV.get(name, "REFEREE_" + name.upper())
    return click.Option(decl, default=default, envvar=env, show_envvar=True, help=help, **how)


@click.command(params=_options(), epilog=SETTINGS_HELP)
@handle_errors
def serve(**given: Any) -> None:
    """Serve the web table: pages, the JSON API (/docs), live WebSockets and /healthz.

    The quotas (--tables-per-hour ... --odds-workers, 0 switches one off) answer 429 with
    Retry-After past their limit; docs/web.md explains each. SIGTERM stops it cleanly: the
    live sockets are closed with 1001 (going away), open requests finish, status 0."""
    from referee.web.limits import Limits
    from referee.web.server import serve as run
    from referee.web.settings import Settings

    quotas = Limits(**{k: given.pop(k) for k in Limits.names()})
    run(Settings(**given), quotas)
