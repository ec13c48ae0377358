"""Capability tokens: the secret links that let a browser act as one participant of a table.

A token is 32 random bytes from :mod:`secrets` (URL-safe text). The database
keeps only its SHA-256, so a copy of the database gives nobody a way in. Each
token names a table and a participant; what that participant may do is the
table's business (their role in the log), so a referee who demotes a player
changes what the player's link allows. A token is revoked by marking it; a
revoked token opens nothing.

Stored in the ``tokens`` table (Alembic revision 0002) of the same database
as the tables, through the store's engines, so every server process sharing
a PostgreSQL database honours the same links.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Column,
    ColumnElement,
    ForeignKey,
    Row,
    String,
    Table,
    insert,
    select,
    update,
)

from referee.table.store import Store, metadata

TOKEN_BYTES = 32
"""Random bytes in a token (256 bits)."""

MAX_TOKEN_TEXT = 128
"""A presented token longer than this is refused without hashing it."""

tokens_t = Table(
    "tokens",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("hash", String(64), nullable=False, unique=True),
    Column("table_id", String(40), ForeignKey("tables.id"), nullable=False, index=True),
    Column("name", String(200), nullable=False),
    Column("kind", String(20), nullable=False),
    Column("created", String(40), nullable=False),
    Column("revoked", String(40), nullable=True),
)


@dataclass(frozen=True)
class Grant:
    """What a token opens: participant ``name`` at table ``table_id``.

    ``id`` is the token's public handle (to list and revoke it; it reveals
    nothing of the secret); ``kind`` says how it was made (``referee`` at the
    table's creation, ``invite`` by a referee, ``demo`` by ``referee serve --demo``).
    """

    id: str
    table_id: str
    name: str
    kind: str
    created: str
    revoked: str | None = None


def digest(token: str) -> str:
    """The stored form of a token: SHA-256 hex of its text."""
    return hashlib.sha256(token.encode()).hexdigest()


class Tokens:
    """The tokens of one database (the store's engines and schema)."""

    def __init__(self, store: Store, *, remember: float = 1.0) -> None:
        self.store = store
        self.remember = remember
        self._seen: dict[str, tuple[float, Grant]] = {}
        self._generation = 0

    def forget(self) -> None:
        """Drop every remembered check (around a revocation in this process). A check whose
        read began before this call remembers nothing it read: it may have read the token
        live just before the revocation committed."""
        self._generation += 1
        self._seen.clear()

    def issue(self, table_id: str, name: str, kind: str = "invite") -> tuple[str, Grant]:
        """A new token for participant ``name``: ``(secret text, grant)``. The secret is
        returned once and never stored."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        grant = Grant(
            id="k" + secrets.token_hex(6),
            table_id=table_id,
            name=name,
            kind=kind,
            created=datetime.now(UTC).isoformat(timespec="microseconds"),
        )
        with self.store.writer.begin() as conn:
            conn.execute(insert(tokens_t).values(hash=digest(token), **grant.__dict__))
        return token, grant

    def remembered(self, token: str) -> bool:
        """Whether :meth:`check` would answer ``token`` from memory (no database read)."""
        seen = self._seen.get(digest(token)) if token and len(token) <= MAX_TOKEN_TEXT else None
        return seen is not None and time.monotonic() - seen[0] < self.remember

    def check(self, token: str) -> Grant | None:
        """The grant of a live token; ``None`` for an unknown, malformed or revoked one."""
        if not token or len(token) > MAX_TOKEN_TEXT:
            return None
        key = digest(token)
        now = time.monotonic()
        seen = self._seen.get(key)
        if seen is not None and now - seen[0] < self.remember:
            return seen[1]  # a live grant checked this last second (revocation is immediate
            # in this process and reaches other processes within ``remember`` seconds)
        generation = self._generation
        with self.store.reader.begin() as conn:
            row = conn.execute(select(tokens_t).where(tokens_t.c.hash == key)).first()
        if row is None or row.revoked is not None:
            self._seen.pop(key, None)
            return None
        grant = _grant(row)
        if generation == self._generation:  # no revocation since the read began
            if len(self._seen) > 10_000:
                self._seen.clear()
            self._seen[key] = (now, grant)
        return grant

    def list(self, table_id: str) -> list[Grant]:
        """Every token of a table, revoked ones included, oldest first."""
        with self.store.reader.begin() as conn:
            rows = conn.execute(
                select(tokens_t)
                .where(tokens_t.c.table_id == table_id)
                .order_by(tokens_t.c.created, tokens_t.c.id)
            )
            return [_grant(r) for r in rows]

    def revoked_among(self, ids: set[str]) -> set[str]:
        """The ids among ``ids`` whose tokens are revoked (or gone): one read, so a process
        can close the sockets another process's revocation ended."""
        if not ids:
            return set()
        wanted = sorted(ids)
        live: set[str] = set()
        with self.store.reader.begin() as conn:
            for i in range(0, len(wanted), 500):
                rows = conn.execute(
                    select(tokens_t.c.id).where(
                        tokens_t.c.id.in_(wanted[i : i + 500]), tokens_t.c.revoked.is_(None)
                    )
                )
                live.update(str(r[0]) for r in rows)
        return ids - live

    def revoke(self, table_id: str, token_id: str) -> bool:
        """Revoke one token of a table; False if the table has no such live token."""
        self.forget()
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        with self.store.writer.begin() as conn:
            done = conn.execute(
                update(tokens_t)
                .where(
                    tokens_t.c.table_id == table_id,
                    tokens_t.c.id == token_id,
                    tokens_t.c.revoked.is_(None),
                )
                .values(revoked=stamp)
            )
        self.forget()
        return bool(done.rowcount)

    def revoke_kind(self, table_id: str, kind: str) -> int:
        """Revoke every live token of one kind at a table (how many)."""
        return self._revoke_where(table_id, tokens_t.c.kind == kind)

    def revoke_name(self, table_id: str, name: str) -> int:
        """Revoke every live token of one participant (who left the table); how many."""
        return self._revoke_where(table_id, tokens_t.c.name == name)

    def _revoke_where(self, table_id: str, clause: ColumnElement[bool]) -> int:
        self.forget()
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        with self.store.writer.begin() as conn:
            done = conn.execute(
                update(tokens_t)
                .where(tokens_t.c.table_id == table_id, clause, tokens_t.c.revoked.is_(None))
                .values(revoked=stamp)
            )
        self.forget()
        return int(done.rowcount)


def _grant(row: Row[Any]) -> Grant:
    m = row._mapping
    revoked = m["revoked"]
    return Grant(
        id=str(m["id"]),
        table_id=str(m["table_id"]),
        name=str(m["name"]),
        kind=str(m["kind"]),
        created=str(m["created"]),
        revoked=None if revoked is None else str(revoked),
    )
