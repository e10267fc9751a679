"""A tombstone keeps when its match was made: a listing paged after a match that was cancelled or
removed since goes on from where that match stood (null: a tombstone made before, whose place is
not known).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

from service.migrations import add_columns

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("expired_matches", sa.Column("created_at", sa.DateTime(timezone=True)))


def downgrade() -> None:
    op.drop_column("expired_matches", "created_at")
