"""Capability tokens of the web table (only their SHA-256 is stored).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the tokens table."""
    op.create_table(
        "tokens",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("hash", sa.String(64), nullable=False, unique=True),
        sa.Column("table_id", sa.String(40), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("revoked", sa.String(40), nullable=True),
    )
    op.create_index("ix_tokens_table_id", "tokens", ["table_id"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_tokens_table_id", "tokens")
    op.drop_table("tokens")
