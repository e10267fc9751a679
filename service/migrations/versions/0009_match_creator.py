"""A match's creator: the client address its bots' thinking outside any request (a seat whose
clock ran out, played by the stand-in bot) counts to, as a study's does (null: a match made
before, whose time-outs count to the match alone).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op

from service.migrations import add_columns

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("matches", sa.Column("creator", sa.String(64)))


def downgrade() -> None:
    op.drop_column("matches", "creator")
