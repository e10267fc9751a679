"""The first release's tables: matches and their logs.

Revision ID: 0001
Revises:
Create Date: 2026-10-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("matches")
