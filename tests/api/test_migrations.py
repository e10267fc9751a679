"""The schema is Alembic's (service/migrations), on SQLite and PostgreSQL: a new database is made
by the migrations and matches the tables the code queries; a database made by any earlier
release, before Alembic kept the history, is brought up to the newest revision with its matches
and logs kept; a rollback and a second upgrade give the same schema again."""

import json
import os
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from app import create_app
from scoring.games import GAMES
from service import migrate
from service.store import Storage, database_url, make_engine, metadata

ROOT = Path(__file__).resolve().parents[2]
GAME = "digging-for-dinos"
MATCH_ID = "a" * 32


def release_tables(release: str) -> sa.MetaData:
    """The tables an earlier release made with create_all (and its hand-made additions)."""
    old = sa.MetaData()
    if release == "before migrations":  # the release just before Alembic kept the history
        for table in metadata.sorted_tables:
            if table.name in ("matches", "actions", "expired_matches"):
                table.to_metadata(old)
        return old
    later = release == "seeds, bots and retention"
    sa.Table(
        "matches", old,
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
        *([sa.Column("seed_digits", sa.Text), sa.Column("seeded", sa.Boolean),
           sa.Index("ix_matches_status_updated_at", "status", "updated_at")] if later else []))
    sa.Table(
        "actions", old,
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        *([sa.Column("to_act", sa.JSON)] if later else []))
    if later:
        sa.Table(
            "expired_matches", old,
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("expired_at", sa.DateTime(timezone=True), nullable=False, index=True),
            sa.Column("reason", sa.String(16), nullable=False),
            sa.Column("days", sa.Integer, nullable=False))
    return old


def differences(engine: sa.Engine) -> list:
    """What Alembic's autogenerate finds between the database and the code's tables."""
    with engine.connect() as conn:
        return compare_metadata(MigrationContext.configure(conn), metadata)


def played_match(url: str, release: str) -> None:
    """A database as `release` made it, holding a match of Ann and Bob with one action logged."""
    tables = release_tables(release)
    engine = make_engine(database_url(url))
    tables.create_all(engine)
    state = GAMES[GAME].setup(["Ann", "Bob"], 7, "standard")
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(tables.tables["matches"].insert().values(
            id=MATCH_ID, game=GAME, variant="standard", seed=7,
            players=[{"name": "Ann", "token_hash": "x"}, {"name": "Bob", "token_hash": "y"}],
            state=json.dumps(state), version=2, status="playing", created_at=now,
            updated_at=now))
        conn.execute(tables.tables["actions"].insert().values(
            match_id=MATCH_ID, seq=1, seat=0, action={"type": "pass"}, events=[],
            created_at=now))
    engine.dispose()


def test_a_new_database_is_made_by_the_migrations(database):
    storage = Storage(database)
    assert migrate.current(storage.engine) == migrate.head() == migrate.HEAD == "0013"
    assert differences(storage.engine) == []


def test_a_worker_starting_on_a_database_at_the_newest_revision_reads_it_without_alembic(
        database):
    """The read a worker's start makes, without importing Alembic; a database behind (rolled
    back, or made before Alembic kept the history) is upgraded by Alembic."""
    storage = Storage(database)
    assert migrate.at_head(storage.engine)
    code = ("import sys; from service import migrate; from service.store import make_engine, "
            f"database_url; assert migrate.upgrade(make_engine(database_url({database!r}))) == "
            "migrate.HEAD; assert not [m for m in sys.modules if m.startswith('alembic')]")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    migrate.downgrade(storage.engine, "0007")
    assert not migrate.at_head(storage.engine)
    assert migrate.upgrade(storage.engine) == "0007" and migrate.at_head(storage.engine)
    with storage.engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE alembic_version")
    assert not migrate.at_head(storage.engine)


@pytest.mark.parametrize("release", ["first release", "seeds, bots and retention",
                                     "before migrations"])
def test_a_database_of_an_earlier_release_is_brought_up_keeping_its_matches(database, release):
    played_match(database, release)
    assert migrate.current(make_engine(database_url(database))) is None  # no history kept yet
    storage = Storage(database)
    assert migrate.current(storage.engine) == migrate.head()
    assert differences(storage.engine) == []
    match = storage.load(MATCH_ID)
    assert match.names == ["Ann", "Bob"] and match.version == 2 and match.seed == 7
    assert match.clock is None and match.host_token_hash is None and not match.listed
    assert [entry["seq"] for entry in storage.log(MATCH_ID, 0, 10)] == [1]
    with storage.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).all() == [
            (migrate.head(),)]


def test_a_rollback_and_a_second_upgrade_give_the_same_schema(database):
    storage = Storage(database)
    migrate.downgrade(storage.engine, "0001")
    assert migrate.current(storage.engine) == "0001"
    with storage.engine.connect() as conn:
        assert "host_token_hash" not in {c["name"] for c in sa.inspect(conn).get_columns(
            "matches")}
    assert migrate.upgrade(storage.engine) == "0001"
    assert migrate.current(storage.engine) == migrate.head()
    assert differences(storage.engine) == []


def flask(database: str, *args: str) -> subprocess.CompletedProcess:
    """`flask --app app …` as an operator runs it, on `database`."""
    return subprocess.run([sys.executable, "-m", "flask", "--app", "app", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "DATABASE_URL": database})


def test_a_schema_taken_back_stays_back_while_the_operator_looks(tmp_path):
    # Every command made the app, which brought the schema to the newest revision first: the
    # revision `db current` printed after a downgrade was the newest again, and the release
    # rolled back to refused to start on a schema it did not know.
    database = f"sqlite:///{tmp_path}/digsite.db"
    assert flask(database, "db", "current").stdout == \
        f"at no revision (an empty database); newest {migrate.head()}\n"
    Storage(database)  # a release's start
    back = flask(database, "db", "downgrade", "0007")
    assert (back.returncode, back.stdout) == (0, "at 0007\n"), back.stderr
    assert flask(database, "db", "current").stdout == f"at 0007; newest {migrate.head()}\n"
    assert migrate.current(make_engine(database_url(database))) == "0007"
    # A command that uses the database brings it to the newest revision, as a start does.
    assert flask(database, "prune").returncode == 0
    assert migrate.current(make_engine(database_url(database))) == migrate.head()
    # So does the app made by Flask's own commands (`flask run`, `flask shell`, `flask routes`).
    fresh = f"sqlite:///{tmp_path}/fresh.db"
    assert flask(fresh, "routes").returncode == 0
    assert migrate.current(make_engine(database_url(fresh))) == migrate.head()


def test_the_schema_can_be_read_and_rolled_back_from_the_command_line(runner):
    assert runner.invoke(args=["db", "current"]).output == "at 0013; newest 0013\n"
    back = runner.invoke(args=["db", "downgrade", "0002"])
    assert back.exit_code == 0 and back.output == "at 0002\n"
    wrong = runner.invoke(args=["db", "downgrade", "zz"])
    assert wrong.exit_code == 1 and "Can't locate revision identified by 'zz'" in wrong.output


def test_a_backup_holds_every_match_the_server_wrote_while_it_serves(tmp_path):
    # The database file alone, copied, held no match at all: SQLite keeps what was written in its
    # write-ahead log until it is moved into the file, and nothing said how else to back it up.
    database = f"sqlite:///{tmp_path}/digsite.db"
    serving = Storage(database)  # a server, its connections open
    played_match(database, "before migrations")
    Storage(database)  # brought to the newest revision, the match kept
    with serving.engine.connect() as conn:  # a reader holds the log from being moved in
        conn.exec_driver_sql("SELECT 1").all()
        copied = tmp_path / "copied.db"
        copied.write_bytes((tmp_path / "digsite.db").read_bytes())
        assert "matches" not in sa.inspect(make_engine(f"sqlite:///{copied}")).get_table_names()
        backed = flask(database, "db", "backup", str(tmp_path / "backup.db"))
    assert backed.returncode == 0, backed.stderr
    assert "backup.db" in backed.stdout and "-wal" in backed.stdout  # how to restore it
    assert Storage(f"sqlite:///{tmp_path}/backup.db").load(MATCH_ID).names == ["Ann", "Bob"]
    # Never over a file already there (another backup, the database itself).
    again = flask(database, "db", "backup", str(tmp_path / "backup.db"))
    assert again.returncode == 1 and "exists already" in again.stderr
    assert flask(database, "db", "backup", str(tmp_path / "digsite.db")).returncode == 1


def test_a_postgresql_database_is_backed_up_by_pg_dump(postgresql_server, tmp_path):
    said = flask(postgresql_server, "db", "backup", str(tmp_path / "never.db"))
    assert said.returncode == 1 and "pg_dump" in said.stderr
    assert not (tmp_path / "never.db").exists()
    # The command it says works given DATABASE_URL as it says: "pg_dump -d DATABASE_URL" with
    # SQLAlchemy's "postgresql+psycopg://" tried the local socket, and said only that it failed.
    assert "postgresql://, not postgresql+psycopg://" in " ".join(said.stderr.split())
    url = sa.engine.make_url(postgresql_server).set(drivername="postgresql")
    dump = subprocess.run(["pg_dump", "-Fc", "-d", url.render_as_string(hide_password=False),
                           "-f", str(tmp_path / "digsite.dump")], capture_output=True,
                          text=True, timeout=60)
    assert dump.returncode == 0 and (tmp_path / "digsite.dump").stat().st_size, dump.stderr


def test_a_sqlite_backup_into_no_folder_is_refused_in_words(tmp_path):
    said = flask(f"sqlite:///{tmp_path / 'digsite.db'}", "db", "backup",
                 str(tmp_path / "no" / "such" / "backup.db"))
    assert said.returncode == 1 and "is no folder" in said.stderr, said.stderr
    assert "Traceback" not in said.stderr


def test_the_revision_of_a_database_from_before_the_history_says_the_next_start_brings_it_up(
        database):
    """`db current` said "at no revision (an empty database)" of a database full of matches."""
    played_match(database, "before migrations")
    current = flask(database, "db", "current")
    assert (current.returncode, current.stdout) == (0, (
        "at no revision: its tables are from a release before the migration history, which "
        f"the next start brings up, keeping its matches; newest {migrate.head()}\n")), \
        current.stderr
    assert migrate.current(make_engine(database_url(database))) is None  # as it stands
    assert Storage(database).load(MATCH_ID).names == ["Ann", "Bob"]


def test_a_downgrade_dropping_the_matches_is_refused_unless_the_operator_says_yes(database):
    """`db downgrade base` dropped every table, the matches and their logs with them, with no
    question asked."""
    played_match(database, "before migrations")
    Storage(database)  # a release's start: at the newest revision, the match kept
    # The commands run in this process (the schema a fresh one reads is the test above's).
    cli = create_app({"TESTING": True, "DATABASE_URL": database}).test_cli_runner()
    for revision in ("base", f"-{int(migrate.HEAD)}"):  # base, written as steps back
        refused = cli.invoke(args=["db", "downgrade", "--", revision])
        assert refused.exit_code == 1, (revision, refused.output)
        assert refused.stderr == (
            f"Error: Taking the schema back to {revision} would drop the matches table, every "
            "match and its log with it, which no start brings back: add --yes to do it (after "
            "a backup).\n"), revision
        assert migrate.current(make_engine(database_url(database))) == migrate.head()
    assert Storage(database).load(MATCH_ID).names == ["Ann", "Bob"]
    back = cli.invoke(args=["db", "downgrade", "0001"])  # keeps the matches: no question
    assert (back.exit_code, back.stdout) == (0, "at 0001\n"), back.output
    gone = cli.invoke(args=["db", "downgrade", "base", "--yes"])
    assert (gone.exit_code, gone.stdout) == (0, "at no revision (an empty database)\n"), \
        gone.output
    with make_engine(database_url(database)).connect() as conn:
        assert not sa.inspect(conn).has_table("matches")


def test_a_downgrade_dropping_tables_that_hold_rows_is_refused_unless_the_operator_says_yes(
        database):
    """`db downgrade -- -8` took the schema back to 0004 with no question asked, dropping the
    studies, the webhook deliveries and the idempotency keys with whatever they held; it is
    refused now, naming the tables that hold rows, as one dropping the matches is."""
    app = create_app({"TESTING": True, "DATABASE_URL": database})
    client, cli = app.test_client(), app.test_cli_runner()
    made = client.post("/api/v1/games/dig/tallies", json={"sheet": None})  # 0004's table
    assert made.status_code == 201
    played = client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"]},
                         headers={"Idempotency-Key": "first-table"})  # 0005's table
    assert played.status_code == 201
    refused = cli.invoke(args=["db", "downgrade", "0003"])
    assert refused.exit_code == 1, refused.output
    assert refused.stderr == (
        "Error: Taking the schema back to 0003 would drop the tables idempotency_keys and "
        "tallies, and the rows they hold, which no start brings back: add --yes to do it "
        "(after a backup).\n")
    assert migrate.current(make_engine(database_url(database))) == migrate.head()
    # a step back that drops no table holding rows is taken as asked: the log's clocks go
    back = cli.invoke(args=["db", "downgrade", "0011"])
    assert (back.exit_code, back.stdout) == (0, "at 0011\n"), back.output
    gone = cli.invoke(args=["db", "downgrade", "0003", "--yes"])
    assert (gone.exit_code, gone.stdout) == (0, "at 0003\n"), gone.output
    with make_engine(database_url(database)).connect() as conn:
        assert not sa.inspect(conn).has_table("tallies")
        assert sa.inspect(conn).has_table("matches")


def test_a_migration_waits_for_a_lock_past_the_bound_requests_wait(postgresql_database):
    """A request gives up on PostgreSQL after DIGSITE_DATABASE_SECONDS; a migration waits, for
    another server's migration or an operator's lock, for as long as it is held."""
    url = postgresql_database
    played_match(url, "first release")  # its matches are altered: the table locked
    holder = make_engine(database_url(url))
    with holder.connect() as conn:
        conn.exec_driver_sql("LOCK TABLE matches IN ACCESS EXCLUSIVE MODE")
        releases = threading.Timer(1.5, conn.rollback)
        releases.start()
        try:
            started = time.monotonic()
            storage = Storage(url, wait_seconds=0.5)
            assert time.monotonic() - started >= 1.5  # it waited for the lock
        finally:
            releases.join()
    holder.dispose()
    assert migrate.current(storage.engine) == migrate.head()
    assert storage.load(MATCH_ID).names == ["Ann", "Bob"]
    with storage.engine.connect() as conn:  # a request's statement is bounded again
        assert conn.connection.dbapi_connection.answer_seconds == 0.5
