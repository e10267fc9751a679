"""GET /healthz (liveness: never touches the database) and GET /readyz (readiness: reads the
database within a short timeout, 503 problem+json when it cannot)."""

import sqlite3
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager

import sqlalchemy as sa

from api.health import READY_TIMEOUT_S
from tests.api.problem import assert_problem
from tests.pg import frozen, postgres_cluster, start_server, stop_server
from tests.server import serve

# readyz gives up after READY_TIMEOUT_S: well before SQLite's busy wait (10 s) or a request's
# timeout (10 s) would end, with seconds to spare for a machine busy with other tests
GIVES_UP_S = READY_TIMEOUT_S + 4


def break_database(app, url: str) -> None:
    """Point the app's storage at `url`, as a wrong DATABASE_URL or a vanished database would."""
    app.extensions["digsite_storage"].engine = sa.create_engine(url)


@contextmanager
def locked(path):
    """Another process holding SQLite's exclusive lock on the file, readers included."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_healthz_is_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_healthz_does_not_touch_the_database(app, client, tmp_path):
    break_database(app, f"sqlite:///{tmp_path / 'no' / 'such' / 'dir' / 'digsite.db'}")
    assert client.get("/healthz").status_code == 200


def test_readyz_reads_the_database(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ready", "database": "ok"}


def test_readyz_is_503_with_a_database_url_that_leads_nowhere(app, client, tmp_path):
    break_database(app, f"sqlite:///{tmp_path / 'no' / 'such' / 'dir' / 'digsite.db'}")
    response = client.get("/readyz")
    body = assert_problem(response, 503)
    assert "database" in body["detail"]
    assert response.headers["Retry-After"].isdigit()


def test_readyz_is_503_when_the_file_is_not_a_database(app, client, tmp_path):
    assert client.get("/readyz").status_code == 200
    app.extensions["digsite_storage"].engine.dispose()
    (tmp_path / "digsite.db").write_bytes(b"not a database " * 400)
    assert_problem(client.get("/readyz"), 503)


def test_readyz_is_503_within_its_timeout_while_the_database_is_locked(app, client, tmp_path):
    app.extensions["digsite_storage"].engine.dispose()
    with locked(tmp_path / "digsite.db"):
        started = time.monotonic()
        assert_problem(client.get("/readyz"), 503)
        assert time.monotonic() - started < GIVES_UP_S
    assert client.get("/readyz").status_code == 200


def test_readyz_is_documented_beside_healthz(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    assert set(paths["/readyz"]["get"]["responses"]) >= {"200", "503"}
    assert "/healthz" in paths


# --- through gunicorn ----------------------------------------------------------------------------

def status_and_time(url: str) -> tuple[int, float]:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
        assert error.headers["Content-Type"] == "application/problem+json"
    return status, time.monotonic() - started


def test_served_readyz_is_503_while_the_database_file_is_gone(tmp_path):
    database = tmp_path / "digsite.db"
    # One worker: a second one still booting when the file goes would rightly make a new
    # database at its path on start-up, which is not the readiness check's doing.
    with serve({"DATABASE_URL": f"sqlite:///{database}"}, workers=1) as server:
        assert status_and_time(server.url + "/readyz")[0] == 200
        database.rename(tmp_path / "elsewhere.db")  # an unmounted volume, a deleted file
        status, seconds = status_and_time(server.url + "/readyz")
        assert status == 503 and seconds < GIVES_UP_S
        assert not database.exists()  # the check made no empty database in its place
        (tmp_path / "elsewhere.db").rename(database)
        assert status_and_time(server.url + "/readyz")[0] == 200


def test_served_readyz_follows_postgresql_down_hung_and_back():
    # its own socket alone: while it is down, no other test's cluster can take its place
    with postgres_cluster(socket_only=True) as url, \
            serve({"DATABASE_URL": url}, workers=1) as server:
        assert status_and_time(server.url + "/readyz")[0] == 200

        # Hung (a network cut, a frozen host): readyz gives up after its timeout, and the worker
        # keeps serving others meanwhile.
        with frozen(url):
            results = {}
            probe = threading.Thread(
                target=lambda: results.update(readyz=status_and_time(server.url + "/readyz")))
            probe.start()
            time.sleep(0.3)
            assert probe.is_alive()  # readyz is waiting on the frozen server...
            status, _ = status_and_time(server.url + "/healthz")
            # ...and healthz was answered before readyz gave up: not queued behind it
            assert status == 200 and probe.is_alive()
            probe.join()
            status, seconds = results["readyz"]
            assert status == 503 and seconds < GIVES_UP_S
        wait_until_ready(server)

        # Down: refused at once.
        stop_server(url)
        status, seconds = status_and_time(server.url + "/readyz")
        assert status == 503 and seconds < GIVES_UP_S
        assert status_and_time(server.url + "/healthz")[0] == 200  # alive: do not restart it
        start_server(url)
        wait_until_ready(server)



def wait_until_ready(server, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while status_and_time(server.url + "/readyz")[0] != 200:
        assert time.monotonic() < deadline, "readyz stayed 503 after PostgreSQL came back"
        time.sleep(0.2)
