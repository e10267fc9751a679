"""Fixtures of the API tests that run on both databases."""

import pytest

from service.store import database_url, make_engine
from tests.pg import postgres_cluster


@pytest.fixture(scope="module")
def postgresql_server():
    with postgres_cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """A DATABASE_URL for an empty database: a new SQLite file, or a new PostgreSQL database in
    the module's cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'digsite.db'}"
    return request.getfixturevalue("postgresql_database")


@pytest.fixture
def postgresql_database(postgresql_server, tmp_path):
    """A DATABASE_URL for a new, empty PostgreSQL database in the module's cluster."""
    server = postgresql_server
    name = f"t_{tmp_path.name.lower().replace('-', '_')}"[:60]
    admin = make_engine(database_url(server.rsplit("/", 1)[0] + "/postgres"))
    with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    admin.dispose()
    return server.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture
def players_away(monkeypatch):
    """Every seat's player reads as away (none seen within the last minute), so that the host
    may give any seat a new token: not one whose player is at the table (service/matches.py)."""
    monkeypatch.setattr("service.matches.CONNECTED_SECONDS", 0)
