"""Alembic's entry point: upgrade the connection the store hands over."""

from __future__ import annotations

from alembic import context

from referee.table.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
