"""Fixtures shared by every test: the app with a fresh database, its client and CLI runner."""

import atexit
import functools
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from flask import Flask

from app import create_app
from tests.server import ROOT, serve

# The rate limits (api/limits.py) would refuse the many matches the tests open from one address:
# every app and gunicorn server a test starts gets a budget no test reaches, counted in its own
# memory, unless the test sets its own (tests/api/test_limits.py).
os.environ["DIGSITE_RATE_LIMIT"] = "100000/minute"
# Likewise the bots' thinking, unless a test sets its own (tests/api/test_thinking_limit.py).
os.environ["DIGSITE_THINKING_LIMIT"] = "100000/minute"
os.environ.pop("DIGSITE_RATE_LIMIT_STORAGE", None)


# How long each test file took in a whole `make test` on a 2-core machine (`make durations`
# writes it again), and what a file not in it is taken to take, by its size: the median of the
# files recorded.
DURATIONS = Path(__file__).with_name("durations.json")
RECORDING = bool(os.environ.get("DIGSITE_RECORD_DURATIONS"))
BYTES_A_SECOND = 700


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The test files longest first, each file's tests in their order. `make test` shares the
    files out among its workers one at a time (xdist's loadfile), so a long file started last
    ran on alone while the other workers sat idle. Sorted by size alone, a short file of long
    tests (the schemathesis runs: 4 KB, half a minute) came last, and one worker ran on alone
    for its 20 to 30 s. The order is all a recorded time changes: one out of date costs time,
    never a test."""
    recorded = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}

    @functools.cache
    def seconds(path: Path) -> float:
        return recorded.get(path.relative_to(ROOT).as_posix(), path.stat().st_size / BYTES_A_SECOND)

    items.sort(key=lambda item: (-seconds(item.path), str(item.path)))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """With DIGSITE_RECORD_DURATIONS set (`make durations`), the run's time for each test file
    (its tests' set-up, call and tear-down), written to DURATIONS by the process that ran them
    all or, under xdist, the one that shared them out. A run of some files leaves the others'
    times as they were; a file gone is forgotten."""
    if not RECORDING or hasattr(session.config, "workerinput"):
        return
    took = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
    took.update((path, round(seconds, 1)) for path, seconds in _TOOK.items())
    took = {path: took[path] for path in sorted(took) if (ROOT / path).exists()}
    DURATIONS.write_text(json.dumps(took, indent=0) + "\n")


_TOOK: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not RECORDING:
        return
    path = report.nodeid.split("::")[0]
    _TOOK[path] = _TOOK.get(path, 0) + report.duration


@pytest.fixture
def app(request, tmp_path):
    """A fresh app with its own database; in a module marked `shared_app`, the module's one app.
    A module is marked so when none of its tests leaves anything behind that another could
    see, or changes the app: an app takes a tenth of a second or more to make, and such modules
    ask for one in each of a hundred tests."""
    if request.node.get_closest_marker("shared_app"):
        return request.getfixturevalue("shared_app")
    return new_app(tmp_path / "digsite.db")


@pytest.fixture(scope="module")
def shared_app(tmp_path_factory):
    return new_app(tmp_path_factory.mktemp("shared") / "digsite.db")


def new_app(database: Path) -> Flask:
    """An app on a new SQLite file at `database`: a copy of one this process migrated once (a
    new database's migration is a third of making an app; tests/api/test_migrations.py and every
    served test migrate new databases of their own)."""
    shutil.copyfile(_migrated(), database)
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{database}"})


@functools.cache
def _migrated() -> Path:
    database = Path(tempfile.mkdtemp(prefix="digsite-migrated-")) / "digsite.db"
    atexit.register(shutil.rmtree, database.parent, True)
    made = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{database}"})
    # its last connection closed, SQLite folds the write-ahead log into the file and removes it
    made.extensions["digsite_storage"].engine.dispose()
    assert not database.with_name(database.name + "-wal").exists()
    return database


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app served by gunicorn (2 workers) with its own SQLite file, for the whole session."""
    database = tmp_path_factory.mktemp("live") / "digsite.db"
    with serve({"DATABASE_URL": f"sqlite:///{database}"}) as server:
        yield server
