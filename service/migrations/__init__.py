"""The database's schema history, as Alembic revisions (versions/): service/migrate.py brings any
database up to the newest at start. A database made before Alembic kept this history is stamped
with the first revision and brought up from there; the revisions after it add only what such a
database lacks, since its release may have added some of it already."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


def columns(table: str) -> set[str]:
    return {column["name"] for column in sa.inspect(op.get_bind()).get_columns(table)}


def indexes(table: str) -> set[str]:
    return {index["name"] for index in sa.inspect(op.get_bind()).get_indexes(table)}


def tables() -> set[str]:
    return set(sa.inspect(op.get_bind()).get_table_names())


def add_columns(table: str, *new: sa.Column) -> None:
    """Add the columns `table` does not have yet."""
    present = columns(table)
    for column in new:
        if column.name not in present:
            op.add_column(table, column)


def add_index(name: str, table: str, *names: str) -> None:
    if name not in indexes(table):
        op.create_index(name, table, list(names))
