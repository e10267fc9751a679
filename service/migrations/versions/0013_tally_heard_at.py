"""A shared tally keeps when its writer's phone was last heard (the same sheet sent again to say it
is still there, and each change after that), for its followers' streams (null: never).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

from service.migrations import add_columns

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("tallies", sa.Column("heard_at", sa.DateTime(timezone=True)))


def downgrade() -> None:
    op.drop_column("tallies", "heard_at")
