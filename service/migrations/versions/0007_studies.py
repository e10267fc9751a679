"""Studies over HTTP: a study's request, progress and claim, and its records chunk by chunk.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "studies",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("spec", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("bot_seconds", sa.Float, nullable=False),
        sa.Column("bot_seconds_limit", sa.Float, nullable=False),
        sa.Column("cancel_unwatched_after", sa.Integer),
        sa.Column("watched_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_owner", sa.String(80)),
        sa.Column("lease_until", sa.DateTime(timezone=True)),
        sa.Column("waiting_until", sa.DateTime(timezone=True)),
        sa.Column("summary", sa.JSON),
        sa.Column("report", sa.Text),
        sa.Column("error", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_studies_status_lease_until", "studies", ["status", "lease_until"])
    op.create_index("ix_studies_updated_at", "studies", ["updated_at"])
    op.create_table(
        "study_chunks",
        sa.Column("study_id", sa.String(32), sa.ForeignKey("studies.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("first", sa.Integer, primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("records", sa.Text, nullable=False),
        sa.Column("bot_seconds", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("study_chunks")
    op.drop_index("ix_studies_updated_at", "studies")
    op.drop_index("ix_studies_status_lease_until", "studies")
    op.drop_table("studies")
