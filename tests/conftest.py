"""Fixtures shared by every test: the app with a fresh database, its client and CLI runner."""

import pytest

from app import create_app


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app served by gunicorn (2 workers) with its own SQLite file, for the whole session."""
    from tests.server import serve

    database = tmp_path_factory.mktemp("live") / "digsite.db"
    with serve({"DATABASE_URL": f"sqlite:///{database}"}) as server:
        yield server
