"""A database outage (PostgreSQL stopped under a served app): every operation that needs the
database answers 503 problem+json with Retry-After, streams included, rather than 500; the
calculators, which need none, go on answering; once the database is back, everything works
again without a restart."""

import os
import re
import signal
import socket
import threading
import time

import psycopg
import requests

from api.schemas import dig
from service import migrate
from service.store import CONNECT_TIMEOUT_SECONDS, PING_AFTER_IDLE_SECONDS
from tests.pg import frozen, postgres_cluster, start_server, stop_server
from tests.server import serve


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_every_stored_operation_answers_503_while_the_database_is_away():
    with postgres_cluster() as url, serve({"DATABASE_URL": url}, workers=2) as server:
        api = f"{server.url}/api/v1"
        created = requests.post(f"{api}/games/dig/matches", timeout=10,
                                json={"players": ["Ann", "Bob"], "seed": 4}).json()
        match = created["id"]
        token = created["seats"][created["view"]["to_act"][0]]["token"]
        action = requests.get(f"{api}/matches/{match}", headers=auth(token),
                              timeout=10).json()["legal_actions"][0]
        tally = requests.post(f"{api}/games/dig/tallies", json={"sheet": None},
                              timeout=10).json()
        studied = f"{api}/studies/{'5' * 32}"  # read from the database first, as any study's
        document = requests.get(f"{server.url}/api/openapi.json", timeout=10).json()
        calls = [
            ("post", f"{api}/games/dig/matches", {"json": {"players": ["Ann", "Bob"]}}),
            ("get", f"{api}/games/dig/matches", {}),
            ("get", f"{api}/matches/{match}", {"headers": auth(token)}),
            ("post", f"{api}/matches/{match}/actions",
             {"headers": auth(token), "json": {"action": action, "version": 1}}),
            ("get", f"{api}/matches/{match}/log", {}),
            ("get", f"{api}/matches/{match}/events", {}),
            ("post", f"{api}/matches/{match}/leave", {"headers": auth(token)}),
            ("get", f"{api}/tallies/{tally['tally']['id']}", {}),
            ("get", f"{api}/tallies/{tally['tally']['id']}/events", {}),
            ("put", f"{api}/games/dig/tallies/{tally['tally']['id']}",
             {"headers": auth(tally["token"]), "json": {"sheet": None}}),
            ("post", f"{api}/games/dig/studies",
             {"json": {"matches": 4, "players": ["random", "random"]}}),
            ("get", studied, {}),
            ("get", f"{studied}/events", {}),
            ("get", f"{studied}/records", {}),
            ("get", f"{studied}/report", {}),
            ("delete", studied, {"headers": auth("t" * 43)}),
            # the calculator needs no database, but a key sent with it is kept there
            ("post", f"{api}/games/dig/score",
             {"json": dig.EXAMPLES["ann"]["value"], "headers": {"Idempotency-Key": "k1"}}),
        ]
        # and each of them says so in the document (studies and keyed POSTs did not)
        paths = {re.compile(re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path))): item
                 for path, item in document["paths"].items()}
        for method, address, _ in calls:
            path = address.removeprefix(server.url)
            [item] = [item for pattern, item in paths.items() if pattern.fullmatch(path)]
            assert "503" in item[method]["responses"], (method, path)
            assert "/problems/database-unavailable" in item[method]["x-problem-types"], path
        stop_server(url)
        try:
            for method, address, options in calls * 2:  # every worker, whichever answers
                answer = requests.request(method, address, timeout=15, **options)
                assert answer.status_code == 503, (method, address, answer.text)
                assert answer.headers["Content-Type"] == "application/problem+json"
                assert answer.headers["Retry-After"] == "5"
                assert "try again" in answer.json()["detail"]
            # the operator's log says it with its time, process, level and the request's id
            said = [line for line in server.log().splitlines()
                    if answer.headers["X-Request-Id"] in line]
            assert said and re.match(r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}\] \[\d+\] "
                                     r"\[WARNING\] database unavailable on POST ", said[0]), said
            score = requests.post(f"{api}/games/dig/score", json=dig.EXAMPLES["ann"]["value"],
                                  timeout=10)
            assert score.status_code == 200
        finally:
            start_server(url)
        # A pooled connection is tried before use once it has lain idle PING_AFTER_IDLE_SECONDS;
        # one used moments before the database went away and came back answers its next request
        # 503 (service/store.py), as the client's Retry-After allows. The whole outage here can
        # be shorter than that: a worker that answered nothing during it kept such a connection.
        time.sleep(PING_AFTER_IDLE_SECONDS * 1.5)
        view = requests.get(f"{api}/matches/{match}", headers=auth(token), timeout=15)
        assert view.status_code == 200 and view.json()["version"] == 1
        assert requests.get(f"{api}/tallies/{tally['tally']['id']}", timeout=10).status_code \
            == 200


def test_a_server_started_while_the_database_is_away_serves_once_it_is_back():
    """Its workers start all the same (a worker that failed to boot would make gunicorn stop
    the whole server), answer 503 where the database is needed, and bring the schema to the
    newest revision once it answers; a worker replaced meanwhile starts too."""
    with postgres_cluster() as url:
        stop_server(url)
        away = True
        try:
            with serve({"DATABASE_URL": url}, workers=2) as server:
                api = f"{server.url}/api/v1"
                assert requests.get(f"{server.url}/readyz", timeout=15).status_code == 503
                opened = requests.post(f"{api}/games/dig/matches", timeout=15,
                                       json={"players": ["Ann", "Bob"]})
                assert opened.status_code == 503, opened.text
                assert opened.headers["Content-Type"] == "application/problem+json"
                os.kill(server.worker_pids()[0], signal.SIGKILL)
                assert server.answers()  # its replacement started, and the master is there
                assert server.process.poll() is None
                start_server(url)
                away = False
                deadline = time.monotonic() + 30
                while requests.get(f"{server.url}/readyz", timeout=15).status_code != 200:
                    assert time.monotonic() < deadline, server.log()
                    time.sleep(0.2)
                for _ in range(4):  # whichever worker answers
                    opened = requests.post(f"{api}/games/dig/matches", timeout=15,
                                           json={"players": ["Ann", "Bob"]})
                    assert opened.status_code == 201, opened.text
        finally:
            if away:
                start_server(url)


def test_a_server_serves_a_database_a_newer_release_migrated():
    """A rolling update: the first replica of a newer release has migrated the database to a
    revision this release does not know. This one starts on it all the same, and serves."""
    with postgres_cluster() as url:
        with serve({"DATABASE_URL": url}, workers=1) as server:  # the schema at HEAD
            assert requests.get(f"{server.url}/readyz", timeout=15).status_code == 200
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("UPDATE alembic_version SET version_num = '9999'")
        with serve({"DATABASE_URL": url}, workers=2) as server:
            assert requests.get(f"{server.url}/readyz", timeout=15).status_code == 200
            opened = requests.post(f"{server.url}/api/v1/games/dig/matches", timeout=15,
                                   json={"players": ["Ann", "Bob"]})
            assert opened.status_code == 201, opened.text
            os.kill(server.worker_pids()[0], signal.SIGKILL)
            assert server.answers() and server.process.poll() is None
            assert f"which this release (at {migrate.HEAD}) does not know" in server.log()
        with psycopg.connect(url) as conn:  # left as the newer release made it
            assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == \
                "9999"


def test_a_database_address_that_never_answers_is_given_up_on_within_seconds():
    """Something at DATABASE_URL's address takes the connection and says nothing (a stopped
    server, a half-open load balancer): a worker starts all the same, and a request that needs
    the database answers 503 within the connect timeout, not when the client gives up."""
    with socket.create_server(("127.0.0.1", 0), backlog=64) as silent:  # never accepts
        url = f"postgresql://digsite@127.0.0.1:{silent.getsockname()[1]}/digsite"
        with serve({"DATABASE_URL": url}, workers=1) as server:
            started = time.monotonic()
            opened = requests.post(f"{server.url}/api/v1/games/dig/matches", timeout=60,
                                   json={"players": ["Ann", "Bob"]})
            waited = time.monotonic() - started
            assert opened.status_code == 503, opened.text
            assert opened.headers["Content-Type"] == "application/problem+json"
            assert opened.headers["Retry-After"]
            # within one connect timeout: the schema's revision, tried first, gives up (it had
            # taken the address that never answered for a database with no revision yet and
            # tried again to migrate it, waiting out a second timeout)
            assert waited < CONNECT_TIMEOUT_SECONDS + 3, waited
            assert requests.get(f"{server.url}/readyz", timeout=15).status_code == 503


def test_a_database_that_holds_a_statement_answers_503_within_its_bound_then_serves_again():
    """PostgreSQL takes the statement and says nothing, however long: keepalive ends no such
    connection. Held behind another's lock (an operator's transaction), or frozen whole (its
    host suspended): the request answers 503 once DIGSITE_DATABASE_SECONDS have passed, the
    statement left behind is cancelled, and the next request is served once it answers."""
    bound = 2
    with postgres_cluster(socket_only=True) as url, \
            serve({"DATABASE_URL": url, "DIGSITE_DATABASE_SECONDS": str(bound)},
                  workers=1) as server:
        api = f"{server.url}/api/v1"
        created = requests.post(f"{api}/games/dig/matches", timeout=10,
                                json={"players": ["Ann", "Bob"], "seed": 4}).json()
        view = f"{api}/matches/{created['id']}"
        token = created["seats"][created["view"]["to_act"][0]]["token"]

        def timed_view() -> tuple[requests.Response, float]:
            started = time.monotonic()
            answer = requests.get(view, headers=auth(token), timeout=30)
            return answer, time.monotonic() - started

        with psycopg.connect(url) as holder, psycopg.connect(url, autocommit=True) as looker:
            holder.execute("LOCK TABLE matches IN ACCESS EXCLUSIVE MODE")
            held, waited = timed_view()
            assert held.status_code == 503, held.text
            assert held.headers["Content-Type"] == "application/problem+json"
            assert held.headers["Retry-After"]
            assert bound <= waited < bound + 4, waited
            # the match's read given up on leaves the lock's queue on the server as its backend
            # takes the cancel, a signal it acts on when next it runs (the worker's clock
            # watcher, looking for clocks run out, may still wait, until its own bound)
            deadline = time.monotonic() + 10
            while reads := [query for query, in looker.execute(
                    "SELECT query FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
                    if "WHERE matches.id = $1" in query]:
                assert time.monotonic() < deadline, reads
                time.sleep(0.1)
            holder.rollback()
        answer, _ = timed_view()
        assert answer.status_code == 200, answer.text

        with frozen(url):
            results = []
            viewer = threading.Thread(target=lambda: results.append(timed_view()))
            viewer.start()
            time.sleep(0.5)
            # the worker serves others while the view waits, and while it cancels the statement
            assert requests.get(f"{server.url}/healthz", timeout=5).status_code == 200
            assert viewer.is_alive()
            viewer.join()
            held, waited = results[0]
            assert held.status_code == 503, held.text
            # the bound, then a second's try at cancelling the statement
            assert bound <= waited < bound + 5, waited
        deadline = time.monotonic() + 30
        while (answer := timed_view()[0]).status_code == 503 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] == created["view"]["version"]
