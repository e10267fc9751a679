"""A log entry names the bot that chose its move (null: the seat's player, the table's own
entries, and entries logged before).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

from service.migrations import add_columns

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("actions", sa.Column("bot", sa.String(32)))


def downgrade() -> None:
    op.drop_column("actions", "bot")
