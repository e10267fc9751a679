"""Tables that real people share: the host's token, listing, clocks and their deadlines, the
rematch; the indexes the clock watchers and the lobby's listing look up.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

from service.migrations import add_columns, add_index

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("matches",
                sa.Column("host_token_hash", sa.String(64)),
                sa.Column("listed", sa.Boolean),
                sa.Column("clock", sa.JSON),
                sa.Column("deadline", sa.DateTime(timezone=True)),
                sa.Column("rematch", sa.String(32)))
    add_index("ix_matches_deadline", "matches", "deadline")
    add_index("ix_matches_listing", "matches", "game", "listed", "status", "created_at")


def downgrade() -> None:
    op.drop_index("ix_matches_listing", "matches")
    op.drop_index("ix_matches_deadline", "matches")
    for name in ("rematch", "deadline", "clock", "listed", "host_token_hash"):
        op.drop_column("matches", name)
