"""Webhooks: a match's webhook (its URL, events and signing secret) and the deliveries waiting
to be sent or sent.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

from service.migrations import add_columns

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("matches", sa.Column("webhook", sa.JSON))
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("event", sa.String(16), nullable=False),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True)),
        sa.Column("done_at", sa.DateTime(timezone=True)),
        sa.Column("last_status", sa.Integer),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_webhook_deliveries_next_at", "webhook_deliveries", ["next_at"])
    op.create_index("ix_webhook_deliveries_done_at", "webhook_deliveries", ["done_at"])


def downgrade() -> None:
    op.drop_index("ix_webhook_deliveries_done_at", "webhook_deliveries")
    op.drop_index("ix_webhook_deliveries_next_at", "webhook_deliveries")
    op.drop_table("webhook_deliveries")
    op.drop_column("matches", "webhook")
