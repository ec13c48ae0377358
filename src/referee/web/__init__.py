"""The web table: FastAPI pages, a JSON API and WebSockets over :class:`TableService`.

``create_app(service)`` builds the application; ``referee serve`` runs it.
"""

from referee.web.app import create_app

__all__ = ["create_app"]
