"""Who is asking: a capability token (invite link, session cookie or bearer header) and
where the request came from.

* A browser that opens an invite link ``/join/TOKEN`` keeps the token in a
  cookie named after the table: HttpOnly (no script reads it), SameSite=Strict
  (no other site's page sends it), Secure when the page is served over TLS.
* A program sends ``Authorization: Bearer TOKEN`` instead.
* A state-changing request authenticated by the cookie must come from this
  site: its ``Origin`` (or, without one, ``Sec-Fetch-Site``) is checked
  against the ``Host`` it was sent to and the origins the server was told to
  trust. A WebSocket handshake that presents the cookie must carry this site's
  ``Origin`` (browsers always send one with a handshake); a program's handshake
  with a bearer token may carry none, but a foreign one is refused.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.responses import Response

from referee.table.state import Role
from referee.table.tokens import Grant

COOKIE_PREFIX = "referee_"
"""A table's session cookie is this followed by the table's id."""

COOKIE_AGE = 60 * 60 * 24 * 90
"""How long a browser keeps a table's cookie (seconds): 90 days."""

Via = Literal["cookie", "bearer"]


@dataclass(frozen=True)
class Caller:
    """An authenticated participant of one table."""

    table_id: str
    name: str
    role: Role
    grant: Grant
    via: Via

    @property
    def referee(self) -> bool:
        """True for the table's referees."""
        return self.role == "referee"


def cookie_name(table_id: str) -> str:
    """The session cookie of a table."""
    return COOKIE_PREFIX + table_id


def presented(conn: HTTPConnection, table_id: str) -> tuple[str, Via] | None:
    """The token a request presents for a table: a bearer header, else the cookie."""
    header = conn.headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip(), "bearer"
    cookie = conn.cookies.get(cookie_name(table_id))
    if cookie:
        return cookie, "cookie"
    return None


def table_cookies(conn: HTTPConnection) -> dict[str, str]:
    """Every table cookie a browser sent: table id -> token."""
    return {
        k.removeprefix(COOKIE_PREFIX): v
        for k, v in conn.cookies.items()
        if k.startswith(COOKIE_PREFIX) and v
    }


def set_session(response: Response, conn: HTTPConnection, table_id: str, token: str) -> None:
    """Keep a table's token in the browser (see the module text)."""
    response.set_cookie(
        cookie_name(table_id),
        token,
        max_age=COOKIE_AGE,
        path="/",
        httponly=True,
        samesite="strict",
        secure=conn.url.scheme in ("https", "wss"),
    )


def clear_session(response: Response, conn: HTTPConnection, table_id: str) -> None:
    """Forget a table's token in the browser."""
    response.delete_cookie(
        cookie_name(table_id),
        path="/",
        httponly=True,
        samesite="strict",
        secure=conn.url.scheme in ("https", "wss"),
    )


def same_origin(headers: Headers, trusted: Collection[str] = ()) -> bool:
    """True if a request was sent by a page of this site (see the module text)."""
    origin = headers.get("origin")
    if origin is None:
        return headers.get("sec-fetch-site") in ("same-origin", "none")
    if origin in trusted:
        return True
    parts = urlsplit(origin)
    host = headers.get("host", "")
    return bool(parts.netloc) and parts.scheme in ("http", "https") and parts.netloc == host
