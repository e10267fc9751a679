"""A log entry keeps the turn clock as it stood when the entry was logged, for the match's streams
(null: a match without a clock, and entries logged before).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

from service.migrations import add_columns

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("actions", sa.Column("clock", sa.JSON))


def downgrade() -> None:
    op.drop_column("actions", "clock")
