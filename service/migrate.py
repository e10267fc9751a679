"""The schema, brought to the newest revision of service/migrations by Alembic.

Every worker calls `upgrade` as it starts: once a database is at the newest revision that is one
read, and Alembic is not even imported (it is a fifth of a worker's start-up). Otherwise the
first worker to get there migrates, holding a lock that makes the others wait for it
(PostgreSQL's advisory lock; SQLite's write lock, taken with BEGIN IMMEDIATE), all in one
transaction: a migration that fails leaves the database as it was. A database made before the
history was kept in Alembic (it has tables but no revision) counts as the first revision, and
the later revisions add what it lacks."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger(__name__)

SCRIPTS = Path(__file__).resolve().parent / "migrations"
FIRST = "0001"
# The newest revision in migrations/versions, as Alembic finds it there (head(); a test holds the
# two together): a new revision moves it.
HEAD = "0013"
# The advisory lock's key on PostgreSQL: the bytes of "digsite1", one application's own number.
LOCK_KEY = int.from_bytes(b"digsite1", "big")


def config(connection: sa.Connection | None = None, url: str | None = None) -> Config:
    """Alembic's configuration for our scripts: online on `connection`, offline for `url`."""
    from alembic.config import Config

    alembic = Config()
    alembic.set_main_option("script_location", str(SCRIPTS))
    if url:
        alembic.set_main_option("sqlalchemy.url", url)
    alembic.attributes["connection"] = connection
    return alembic


@cache
def known() -> frozenset[str]:
    """Every revision of this release's history."""
    from alembic.script import ScriptDirectory

    return frozenset(script.revision
                     for script in ScriptDirectory.from_config(config()).walk_revisions())


@cache
def head() -> str:
    """The newest revision, as Alembic reads the scripts."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(config()).get_current_head()


@contextmanager
def unhurried(conn: sa.Connection) -> Iterator[None]:
    """`conn` waits on PostgreSQL for as long as a statement takes, for the block, not the
    requests' bound (store.bounded_connection): a migration's statement may rewrite a whole
    table, or wait for another server's migration to end."""
    dbapi = conn.connection.dbapi_connection
    bound = getattr(dbapi, "answer_seconds", None)
    if bound is None:
        yield
        return
    dbapi.answer_seconds = None
    try:
        yield
    finally:
        if not dbapi.closed:
            dbapi.answer_seconds = bound


def current(engine: sa.Engine) -> str | None:
    """The revision the database is at; None when it has none (empty, or made before Alembic)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: sa.Engine, revision: str = "head") -> str | None:
    """Bring the database to `revision`, once however many processes ask at the same moment;
    returns the revision it was at before (None: none). A database at a revision this release
    does not know, a newer release's, is left as it is."""
    if revision == "head" and at_head(engine):
        return HEAD
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn, unhurried(conn):
        with conn.execution_options(sqlite_begin="BEGIN IMMEDIATE").begin():
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({LOCK_KEY})")
            was = MigrationContext.configure(conn).get_current_revision()
            if was is not None and was not in known():
                # A newer release brought it there (a rolling update: its revisions add to the
                # tables, so this release serves on them meanwhile); never taken back from here.
                log.warning("the database is at revision %s, which this release (at %s) does not "
                            "know: a newer release's, served as it is", was, HEAD)
                return was
            alembic = config(conn)
            if was is None and before_history(conn):
                command.stamp(alembic, FIRST)
            command.upgrade(alembic, revision)
    return was


def before_history(conn: sa.Connection) -> bool:
    """Whether a database at no revision was made by a release from before the history was kept
    in Alembic (it holds the matches table), which upgrade counts as FIRST; else it is empty."""
    return sa.inspect(conn).has_table("matches")


def at_head(engine: sa.Engine) -> bool:
    """Whether the database is at HEAD, read as Alembic keeps it (its one-row alembic_version
    table) without Alembic: False when the table is missing. A database that cannot be reached
    raises: taken for one with no table, the upgrade after it waited out a second connection
    timeout (a request 10 s before its 503, not 5, and a worker as long to start)."""
    with engine.connect() as conn:
        try:
            return conn.exec_driver_sql(
                "SELECT version_num FROM alembic_version").scalars().all() == [HEAD]
        except sa.exc.DBAPIError as exc:  # no such table: nothing migrated yet
            if exc.connection_invalidated:  # the database went away as it was read
                raise
            return False


class DropsData(Exception):
    """A downgrade would drop tables that hold rows, which no start brings back: `tables`,
    sorted by name."""

    def __init__(self, tables: list[str]) -> None:
        super().__init__(", ".join(tables))
        self.tables = tables


def downgrade(engine: sa.Engine, revision: str, drop_data: bool = False) -> None:
    """Take the database back to `revision` (for an operator rolling a release back). One that
    would drop a table holding rows (the matches, taking back FIRST, however it is written:
    base, -12; the studies or the tallies, taking back the revisions that added them) raises
    DropsData unless `drop_data`, having changed nothing. It is found by doing it in the one
    transaction and looking, then undoing it: Alembic resolves a relative revision against the
    current one only as it downgrades, so every way of writing one is judged alike. A column
    it drops (a log entry's clock, say) goes without a question: the release it rolls back to
    never read it."""
    from alembic import command

    with engine.connect() as conn, unhurried(conn):
        with conn.execution_options(sqlite_begin="BEGIN IMMEDIATE").begin():
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({LOCK_KEY})")
            holding = [table for table in sa.inspect(conn).get_table_names()
                       if table != "alembic_version" and conn.execute(
                           sa.select(sa.literal(1)).select_from(sa.table(table)).limit(1)).first()]
            command.downgrade(config(conn), revision)
            left = set(sa.inspect(conn).get_table_names())
            dropped = sorted(table for table in holding if table not in left)
            if dropped and not drop_data:
                raise DropsData(dropped)  # the transaction is rolled back
