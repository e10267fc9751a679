"""Seeds of 128 bits kept exactly and whether the creator chose them; who acts after each log
entry (for bot seats); the tombstones of expired matches and the prune's index.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-01
"""

import sqlalchemy as sa
from alembic import op

from service.migrations import add_columns, add_index, tables

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("matches", sa.Column("seed_digits", sa.Text), sa.Column("seeded", sa.Boolean))
    add_columns("actions", sa.Column("to_act", sa.JSON))
    if "expired_matches" not in tables():
        op.create_table(
            "expired_matches",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("expired_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("reason", sa.String(16), nullable=False),
            sa.Column("days", sa.Integer, nullable=False),
        )
    add_index("ix_expired_matches_expired_at", "expired_matches", "expired_at")
    add_index("ix_matches_status_updated_at", "matches", "status", "updated_at")


def downgrade() -> None:
    op.drop_index("ix_matches_status_updated_at", "matches")
    op.drop_table("expired_matches")
    op.drop_column("actions", "to_act")
    op.drop_column("matches", "seeded")
    op.drop_column("matches", "seed_digits")
