"""How ``referee serve`` runs: its settings and their help, apart from the server so
that ``referee serve --help`` reads them without importing uvicorn, FastAPI or the store
(:mod:`referee.web.server` does the serving)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["HELP", "LOG_FORMATS", "LogFormat", "LogLevel", "Settings"]

LogFormat = Literal["text", "json"]
LOG_FORMATS: Final[tuple[LogFormat, ...]] = ("text", "json")
LogLevel = Literal["critical", "error", "warning", "info", "debug"]


@dataclass(frozen=True)
class Settings:
    """How the server runs (:data:`HELP` says what each does); each is an option of
    ``referee serve`` and a ``REFEREE_*`` variable."""

    host: str = "127.0.0.1"
    port: int = 8000
    db: str | None = None
    demo: bool = False
    origin: tuple[str, ...] = ()
    forwarded_allow_ips: str = "127.0.0.1"
    log_level: LogLevel = "info"
    log_format: LogFormat = "text"
    shutdown_timeout: int = 10


HELP: Final[dict[str, str]] = {
    "host": "The address to listen on.",
    "port": "The TCP port.",
    "db": "Database URL (sqlite:///FILE or postgresql://...); default: REFEREE_DATABASE_URL, "
    "else a SQLite file in your data directory.",
    "demo": "Create one demo table per game (if absent) and print its links.",
    "origin": "A public origin the pages are served from behind a proxy that rewrites Host "
    "(e.g. https://table.example.org); repeatable (the variable: space-separated).",
    "forwarded_allow_ips": "Proxies trusted to set X-Forwarded-Proto/For (comma-separated, or *).",
    "log_level": "The least severe log line written.",
    "log_format": "text: uvicorn's lines; json: one JSON object a line (for journald or a "
    "collector).",
    "shutdown_timeout": "Seconds open requests have to finish after SIGTERM before they are "
    "cancelled.",
}
"""What each of :class:`Settings` does (the serve command's help)."""
