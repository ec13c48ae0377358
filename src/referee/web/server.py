"""``referee serve`` as a service: uvicorn with a clean stop, and logs as JSON lines.

On SIGTERM (or Ctrl+C) uvicorn stops accepting connections and then drops every open
WebSocket with 1012 ("service restart") without the application's say. :class:`Server`
first has the live hub (:meth:`referee.web.live.Hub.going_away`) send each browser what
is queued for it and close its socket with 1001 ("going away"), waits for them (at most
:data:`CLOSE_WAIT` seconds), and only then lets uvicorn finish: open requests end
(within the graceful timeout), the odds workers stop, the process exits with status 0.

:func:`log_config` is uvicorn's logging set-up in either format: ``text`` (uvicorn's
own) or ``json``, one object a line (``time``, ``level``, ``logger``, ``message``, and
for an access line ``client``, ``method``, ``path``, ``status``), for journald or a log
collector.
"""

from __future__ import annotations

import errno
import gc
import json
import logging
import socket
import sys
from datetime import UTC, datetime
from typing import Any, Final

import uvicorn
from uvicorn.config import LOGGING_CONFIG

from referee.errors import RulesError
from referee.web.limits import Limits
from referee.web.live import Hub
from referee.web.settings import LogFormat, Settings

CLOSE_WAIT: Final = 3.0
"""Seconds the open WebSockets have to be closed with 1001 before uvicorn closes the rest."""

GC_THRESHOLDS: Final = (10_000, 10, 10)
"""The collector's thresholds while serving (Python's default: 700, 10, 10): a young
collection every 10,000 new container objects instead of 700, so most of a request's
objects are gone before one runs and fewer survive into the older generations, whose
passes are the ones that stall the loop."""


SWITCH_INTERVAL: Final = 0.001
"""Seconds a thread may hold the interpreter lock while another waits for it (Python's
default: 0.005). The event loop, which sends every push, waits for the lock each time
it wakes while a worker thread computes (a command, a round of panels): at 1 ms instead
of 5 its waits are short (in A/B runs at 200 commands/s with 50 browsers and a 12 ms
push gap, the p99 to the last browser went from 31-37 ms to 19-29 ms, at the same CPU
per command)."""


def settle_process() -> None:
    """Once the server has started: collect, then freeze what is alive (the app, the games,
    compiled templates, the libraries), which lives as long as the process, out of every
    later collection, and collect the young generation less often
    (:data:`GC_THRESHOLDS`): under load a full pass over everything took tens of
    milliseconds at a time, during which no table's event went out. And let the event
    loop have the interpreter lock sooner (:data:`SWITCH_INTERVAL`)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)


_ACCESS_FIELDS: Final = ("client", "method", "path", "http_version", "status")
"""uvicorn's access record's arguments, in order."""


class JsonFormatter(logging.Formatter):
    """A log record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            data.update(zip(_ACCESS_FIELDS, args, strict=True))
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False, default=str)


def log_config(fmt: LogFormat, level: str) -> dict[str, Any]:
    """uvicorn's ``log_config`` for ``fmt``; referee's own loggers (``referee.*``) log
    through the same handler at ``level``."""
    if fmt == "text":
        config: dict[str, Any] = json.loads(json.dumps(LOGGING_CONFIG))
    else:
        formatter = {"()": f"{__name__}.JsonFormatter"}
        handler = {
            "formatter": "json",
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
        }
        config = {
            "version": 1,
            "disable_existing_loggers": False,
            "formatters": {"json": formatter},
            "handlers": {"default": handler, "access": {**handler, "stream": "ext://sys.stdout"}},
            "loggers": {
                "uvicorn": {"handlers": ["default"], "level": "INFO", "propagate": False},
                "uvicorn.error": {"level": "INFO"},
                "uvicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
            },
        }
    config["loggers"]["referee"] = {
        "handlers": ["default"],
        "level": level.upper(),
        "propagate": False,
    }
    return config


class Server(uvicorn.Server):
    """uvicorn's server, closing the live sockets with 1001 before it stops (see the
    module text)."""

    def __init__(self, config: uvicorn.Config, hub: Hub) -> None:
        super().__init__(config)
        self.hub = hub

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:  # no new connection meanwhile
            server.close()
        ended = self.hub.going_away()
        if ended:
            logging.getLogger("referee.web").info(
                "closing %d live socket(s) with 1001 (going away)", ended
            )
            await self.hub.drained(CLOSE_WAIT)
        await super().shutdown(sockets)
        # uvicorn raises the signal again once it has stopped, so that an embedding program
        # dies of it; a service stopped cleanly ends with status 0 instead
        captured = getattr(self, "_captured_signals", None)
        if isinstance(captured, list):
            captured.clear()


class PortInUse(RulesError):
    """The address ``referee serve`` was asked to listen on is taken (or not allowed)."""


def port_free(host: str, port: int) -> None:
    """Refuse at once, saying so, a port another program holds: a server that found out
    only after opening its database and printing its links would look as if it ran."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as e:
            why = "is in use (another server?)" if e.errno == errno.EADDRINUSE else e.strerror
            raise PortInUse(
                f"cannot serve on {host}:{port}: the port {why}; choose another with --port"
            ) from None


def serve(settings: Settings, limits: Limits | None = None) -> None:
    """Serve the web table on the database ``settings.db`` until SIGTERM or Ctrl+C
    (``referee serve``): the demo tables' links first with ``demo``. The app settles the
    process at start-up (:func:`settle_process`)."""
    from referee.table.service import TableService
    from referee.table.store import Store
    from referee.table.tokens import Tokens
    from referee.web import create_app

    host, port, fmt = settings.host, settings.port, settings.log_format
    port_free(host, port)  # first: before the database, the demo links, the workers
    service = TableService(Store(settings.db))
    tokens = Tokens(service.store)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if settings.demo:
        _print_demo(service, tokens, f"http://{shown}:{port}")
    app = create_app(
        service,
        tokens=tokens,
        trusted_origins=settings.origin,
        limits=limits or Limits(),
        warm=True,
    )
    if fmt == "text":
        print(f"referee: serving on http://{shown}:{port}/ (Ctrl+C stops)", flush=True)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # compressing each frame per socket cost more than it saved
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        log_level=settings.log_level,
        log_config=log_config(fmt, settings.log_level),
        server_header=False,  # the app's own: Server: referee/VERSION
        timeout_graceful_shutdown=settings.shutdown_timeout,
    )
    from referee import version

    logging.getLogger("referee.web").info(
        "referee %s serving on http://%s:%d/", version(), shown, port
    )
    Server(config, app.state.web.hub).run()


def _print_demo(service: Any, tokens: Any, base: str) -> None:
    """Make the demo tables (one per game, if absent) and print each seat's link."""
    from referee.web.demo import demo_tables

    tables, skipped = demo_tables(service, tokens)
    for t in tables:
        print(f"\n{t.title}: table {t.name} ({'created' if t.created else 'kept'})")
        for who, token in t.tokens.items():
            label = "referee" if who == "Referee" else f"player {who}"
            print(f"  {label:12} {base}/join/{token}")
    for note in skipped:
        print(f"\n(no demo table for {note})")
    if tables:
        print("\nOpen the referee's link first; each player's link in another browser.")
