"""A match's stand-in bot: the bot that plays a seat whose player left or ran out of time, chosen
when the match is made (null: greedy, as for every match made before).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

from service.migrations import add_columns

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("matches", sa.Column("stand_in_bot", sa.String(40)))


def downgrade() -> None:
    op.drop_column("matches", "stand_in_bot")
