"""The web table: FastAPI pages, a JSON API and WebSockets over :class:`TableService`.

``create_app(service)`` builds the application; ``referee serve`` runs it. The
application is imported when first asked for, so ``referee serve --help`` (which reads
:mod:`referee.web.settings` and :mod:`referee.web.limits`) imports no web framework.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> object:
    """``referee.web.create_app``, imported on first use."""
    if name == "create_app":
        from referee.web.app import create_app

        return create_app
    raise AttributeError(f"module 'referee.web' has no attribute {name!r}")
