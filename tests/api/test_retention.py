"""Retention (README "Retention"): unfinished matches nobody touched for DIGSITE_IDLE_DAYS and
finished ones kept DIGSITE_FINISHED_DAYS are pruned with their logs, by `flask prune` and by the
server's master on its own; a pruned match answers 410 Gone on every match endpoint, an id that
never was a match still 404, on SQLite and on PostgreSQL."""

import json
import random
import secrets
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
import requests
import sqlalchemy as sa

from app import create_app
from scoring.games import GAMES
from service.store import actions, expired_matches, matches
from tests.api.problem import PROBLEM_JSON, assert_problem
from tests.pg import postgres_cluster, start_server, stop_server
from tests.server import free_port, serve

GAME = next(iter(GAMES.values()))  # the catalogue's first: any game will do
VARIANT, SEATS = min(GAME.tables(), key=lambda table: (table[1], table[0] != GAME.default_variant))
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][:SEATS]
GONE_IDLE = "This match expired after 7 days without a move and was removed."
GONE_FINISHED = "This match ended and was removed after being kept 30 days."


@pytest.fixture
def app_on():
    """create_app on a given database, its engines disposed of after the test."""
    made = []

    def make(url, **config):
        made.append(create_app({"TESTING": True, "DATABASE_URL": url, **config}))
        return made[-1]

    yield make
    for app in made:
        engine(app).dispose()


def engine(app) -> sa.Engine:
    return app.extensions["digsite_storage"].engine


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def open_match(client, moves=0, open_seats=0, finish=False):
    """A new match, with `moves` random legal actions taken (or played to its end); returns its
    id and the seat tokens."""
    players = NAMES[:len(NAMES) - open_seats] + [{"open": True}] * open_seats
    created = client.post(f"/api/v1/games/{GAME.id}/matches",
                          json={"players": players, "variant": VARIANT, "seed": 7})
    assert created.status_code == 201, created.get_json()
    created = created.get_json()
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    view, rng = created["view"], random.Random(1)
    for _ in range(3000 if finish else moves):
        if view["status"] == "finished":
            break
        seat = view["to_act"][0]
        view = client.get(f"/api/v1/matches/{created['id']}", headers=auth(tokens[seat])).json
        acted = client.post(f"/api/v1/matches/{created['id']}/actions", headers=auth(tokens[seat]),
                            json={"action": rng.choice(view["legal_actions"]),
                                  "version": view["version"]})
        assert acted.status_code == 200, acted.get_json()
        view = acted.get_json()
    assert view["status"] == "finished" if finish else view["status"] != "finished"
    return created["id"], tokens


def age(app, match_id, days, status=None):
    """Nobody has touched the match for `days` (and it has `status`)."""
    values = {"updated_at": datetime.now(UTC) - timedelta(days=days)}
    if status is not None:
        values["status"] = status
    with engine(app).begin() as conn:
        conn.execute(matches.update().where(matches.c.id == match_id).values(**values))


def entries_of(app, match_ids):
    with engine(app).connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(actions)
                            .where(actions.c.match_id.in_(match_ids))).scalar_one()


def prune(app, *args):
    result = app.test_cli_runner().invoke(args=["prune", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_prune_removes_idle_and_long_finished_matches_with_their_logs_and_nothing_younger(
        database, app_on):
    app = app_on(database)
    client = app.test_client()
    idle, idle_young = open_match(client, moves=2)[0], open_match(client, moves=2)[0]
    waiting = open_match(client, open_seats=1)[0]
    finished, finished_young = open_match(client, finish=True)[0], open_match(client, moves=1)[0]
    age(app, idle, 8)
    age(app, idle_young, 6)
    age(app, waiting, 8)
    age(app, finished, 31)
    age(app, finished_young, 29, status="finished")  # finished: never idle, however old
    now = datetime.now(UTC)
    with engine(app).begin() as conn:
        conn.execute(expired_matches.insert(), [
            {"id": "a" * 32, "expired_at": now - timedelta(days=366), "reason": "idle", "days": 7},
            {"id": "b" * 32, "expired_at": now - timedelta(days=300), "reason": "idle", "days": 7}])
    entries = entries_of(app, [idle, finished])
    assert entries >= 4 and entries_of(app, [idle_young, finished_young]) >= 3

    assert prune(app) == {"idle": 2, "idle_days": 7, "finished": 1, "finished_days": 30,
                          "log_entries": entries, "tombstones": 1, "tombstone_days": 365,
                          "tallies": 0, "studies": 0}

    with engine(app).connect() as conn:
        assert set(conn.execute(sa.select(matches.c.id)).scalars()) == {idle_young,
                                                                        finished_young}
        assert set(conn.execute(sa.select(actions.c.match_id)).scalars()) == {idle_young,
                                                                             finished_young}
        tombstones = {row.id: (row.reason, row.days)
                      for row in conn.execute(sa.select(expired_matches))}
    assert tombstones == {idle: ("idle", 7), waiting: ("idle", 7), finished: ("finished", 30),
                          "b" * 32: ("idle", 7)}
    assert client.get(f"/api/v1/matches/{idle_young}").status_code == 200
    result = app.test_cli_runner().invoke(args=["prune"])
    assert result.exit_code == 0 and result.output == (
        "Removed 0 idle matches (no move for 7 days) and 0 finished matches (kept 30 days), "
        "with 0 log entries.\nRemoved 0 tombstones of matches removed over 365 days ago.\n"
        "Removed 0 shared tallies unchanged for 30 days.\n"
        "Removed 0 studies ended over 30 days ago.\n")


def test_a_batch_is_removed_whole_or_not_at_all(tmp_path, app_on):
    app = app_on(f"sqlite:///{tmp_path / 'digsite.db'}")
    match_id = open_match(app.test_client(), moves=2)[0]
    age(app, match_id, 8)
    entries = entries_of(app, [match_id])
    with engine(app).begin() as conn:  # the database fails after the log is gone
        conn.exec_driver_sql("CREATE TRIGGER refuse BEFORE DELETE ON matches "
                             "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END")
    result = app.test_cli_runner().invoke(args=["prune"])
    assert result.exit_code == 1
    assert "Error: The database failed while pruning: " in result.output
    assert "disk on fire" in result.output
    assert entries_of(app, [match_id]) == entries
    with engine(app).begin() as conn:
        assert conn.execute(sa.select(expired_matches)).first() is None
        conn.exec_driver_sql("DROP TRIGGER refuse")
    assert prune(app)["idle"] == 1 and entries_of(app, [match_id]) == 0


def test_a_match_moved_while_it_is_pruned_stays(postgresql_server, app_on):
    app = app_on(postgresql_server)
    match_id = open_match(app.test_client(), moves=1)[0]
    age(app, match_id, 8)
    with engine(app).connect() as mover:  # a move under way: its transaction not yet committed
        mover.execute(matches.update().where(matches.c.id == match_id)
                      .values(updated_at=datetime.now(UTC)))
        assert prune(app)["idle"] == 0
        mover.commit()
    assert prune(app)["idle"] == 0
    assert app.test_client().get(f"/api/v1/matches/{match_id}").status_code == 200


def test_expired_matches_answer_410_on_every_match_endpoint_and_unknown_ids_404(
        database, app_on):
    app = app_on(database)
    client = app.test_client()
    idle, tokens = open_match(client, moves=1)
    finished = open_match(client, finish=True)[0]
    age(app, idle, 8)
    age(app, finished, 31)
    pruned = prune(app)
    assert (pruned["idle"], pruned["finished"]) == (1, 1)
    token = auth(tokens[0])

    def every_endpoint(match_id):
        url = f"/api/v1/matches/{match_id}"
        yield client.get(url)
        yield client.get(url, headers=token)
        yield client.post(f"{url}/actions", headers=token,
                          json={"action": {"type": "end_turn"}, "version": 2})
        yield client.post(f"{url}/join", json={"name": "Cy"})
        yield client.get(f"{url}/log")
        yield client.get(f"{url}/events", headers=token)

    for match_id, detail, reason in ((idle, GONE_IDLE, "idle"),
                                     (finished, GONE_FINISHED, "ended")):
        for response in every_endpoint(match_id):
            gone = assert_problem(response, 410)
            assert (gone["detail"], gone["reason"]) == (detail, reason)
    for match_id in (secrets.token_hex(16), "not-a-match"):
        for response in every_endpoint(match_id):
            missing = assert_problem(response, 404)
            assert missing["detail"] == "There is no match with this id."
            assert "reason" not in missing


def test_the_options_override_the_settings_and_the_environment_fills_in(
        tmp_path, app_on, monkeypatch):
    monkeypatch.setenv("DIGSITE_IDLE_DAYS", "1")  # the app's own setting comes first
    monkeypatch.setenv("DIGSITE_FINISHED_DAYS", "2")
    app = app_on(f"sqlite:///{tmp_path / 'digsite.db'}", DIGSITE_IDLE_DAYS=3)
    client = app.test_client()
    idle, finished = open_match(client)[0], open_match(client)[0]
    age(app, idle, 2)
    age(app, finished, 4, status="finished")
    assert prune(app, "--finished-days", "5") == {
        "idle": 0, "idle_days": 3, "finished": 0, "finished_days": 5, "log_entries": 0,
        "tombstones": 0, "tombstone_days": 365, "tallies": 0, "studies": 0}
    age(app, idle, 4)
    assert prune(app, "--idle-days", "5", "--finished-days", "5")["idle"] == 0
    assert prune(app) == {"idle": 1, "idle_days": 3, "finished": 1, "finished_days": 2,
                          "log_entries": 0, "tombstones": 0, "tombstone_days": 365, "tallies": 0,
                          "studies": 0}
    expired = app.test_client().get(f"/api/v1/matches/{finished}")
    assert assert_problem(expired, 410)["detail"] == (
        "This match ended and was removed after being kept 2 days.")


@pytest.mark.parametrize("value", ["0", "-3", "1.5", "a week", "", "36501", "٣"])
def test_options_that_are_no_number_of_days_are_refused(tmp_path, app_on, value):
    app = app_on(f"sqlite:///{tmp_path / 'digsite.db'}")
    match_id = open_match(app.test_client())[0]
    age(app, match_id, 8)
    for option in ("--idle-days", "--finished-days"):
        result = app.test_cli_runner().invoke(args=["prune", option, value])
        assert result.exit_code == 2
        assert (f"Invalid value for '{option}': {value!r} is not a whole number of days from 1 "
                "to 36500.") in result.output
    assert app.test_client().get(f"/api/v1/matches/{match_id}").status_code == 200


def test_a_setting_that_is_no_number_of_days_stops_the_app_at_start(tmp_path, app_on):
    with pytest.raises(ValueError) as refused:
        app_on(f"sqlite:///{tmp_path / 'digsite.db'}", DIGSITE_FINISHED_DAYS="a month")
    assert str(refused.value) == ("DIGSITE_FINISHED_DAYS: 'a month' is not a whole number of "
                                  "days from 1 to 36500.")
    app = app_on(f"sqlite:///{tmp_path / 'digsite.db'}", DIGSITE_FINISHED_DAYS="30")
    assert prune(app)["finished_days"] == 30


def old_match(database, app_on, days=8):
    """An idle match `days` old in `database`, made before the server starts."""
    app = app_on(database)
    match_id = open_match(app.test_client(), moves=1)[0]
    age(app, match_id, days)
    engine(app).dispose()
    return match_id


def until(check, seconds=180, server=None):
    """Wait for `check()`. The prune runs at a low CPU priority: on cores busy with other work
    a round can take a minute to come round. `server`: whose log is shown if it never comes."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not in time; the server said:\n" + (
            server.log() if server else "")
        time.sleep(0.2)


def gone(server, match_id):
    response = requests.get(f"{server.url}/api/v1/matches/{match_id}", timeout=10)
    if response.status_code == 410:
        assert response.headers["Content-Type"] == PROBLEM_JSON
        assert response.json()["detail"] == GONE_IDLE
        return True
    assert response.status_code == 200
    return False


def answer(server, path):
    return requests.get(f"{server.url}{path}", timeout=10).status_code


def test_the_server_prunes_at_start(database, app_on):
    expired, young = old_match(database, app_on), old_match(database, app_on, days=6)
    with serve({"DATABASE_URL": database, "DIGSITE_PRUNE_HOURS": "6"}) as server:
        until(lambda: gone(server, expired))
        assert not gone(server, young)
        assert server.process.poll() is None


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_beside_the_pruner_a_worker_still_waits_for_postgresql_cooperatively(database, app_on):
    """The master prunes without importing psycopg, which chooses how to wait when imported: a
    worker forked from a master that had imported it would stop serving while a query waits."""
    expired = old_match(database, app_on)
    app = app_on(database)
    client = app.test_client()
    held, tokens = open_match(client)
    seat = client.get(f"/api/v1/matches/{held}").json["to_act"][0]
    view = client.get(f"/api/v1/matches/{held}", headers=auth(tokens[seat])).json
    moved = []
    with serve({"DATABASE_URL": database, "DIGSITE_PRUNE_HOURS": "6"}, workers=1) as server:
        until(lambda: gone(server, expired))
        # The watcher reads pg_stat_activity outside any transaction: within one, PostgreSQL
        # lists the backends there were at its first read, and a move the worker made on a
        # connection it opened after that read (its pooled one busy with a clock's look) was
        # never seen waiting (once in ten runs).
        with engine(app).connect() as locker, \
                engine(app).connect().execution_options(isolation_level="AUTOCOMMIT") as watcher:
            locker.execute(sa.select(matches.c.id).where(matches.c.id == held).with_for_update())

            def move() -> None:
                try:
                    moved.append(requests.post(
                        f"{server.url}/api/v1/matches/{held}/actions", headers=auth(tokens[seat]),
                        json={"action": view["legal_actions"][0], "version": view["version"]},
                        timeout=30))
                except requests.RequestException as exc:
                    moved.append(exc)

            mover = threading.Thread(target=move)
            mover.start()
            until(lambda: watcher.exec_driver_sql(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'").scalar(),
                seconds=60, server=server)
            assert requests.get(f"{server.url}/healthz", timeout=10).status_code == 200
            # answered while the move still waits on the lock (nothing else ends its wait): a
            # worker held by that wait could not have answered before the lock is let go below
            assert mover.is_alive()
            locker.rollback()
        mover.join(timeout=30)
    assert moved[0].status_code == 200


def test_the_server_prunes_every_period_and_outlives_a_database_outage(app_on):
    """The cluster is reached through its own socket directory alone: while it is down, no
    other test's cluster can answer in its place (one may take a freed loopback port)."""
    with postgres_cluster(socket_only=True) as url:
        socket = f'socket "{sa.make_url(url).query["host"]}/.s.PGSQL.'
        first = old_match(url, app_on)
        # 0.0002 h: a round 0.72 s after the last one ended
        with serve({"DATABASE_URL": url, "DIGSITE_PRUNE_HOURS": "0.0002"}) as server:
            until(lambda: gone(server, first), server=server)
            seen = len(server.log().splitlines())
            stop_server(url)
            try:
                until(lambda: any("pruning expired matches failed" in line and socket in line
                                  for line in server.log().splitlines()[seen:]), server=server)
                assert answer(server, "/healthz") == 200, server.log()  # alive: no restart
                assert answer(server, "/readyz") == 503, server.log()
            finally:
                start_server(url)
            second = old_match(url, app_on)
            until(lambda: gone(server, second), server=server)
            assert server.process.poll() is None, server.log()


def test_a_prune_that_failed_is_tried_again_within_minutes_not_at_the_next_period():
    """A server started while its database was away said "trying again in 6.0 h", and did not
    prune for six hours."""
    away = f"postgresql://digsite@127.0.0.1:{free_port()}/digsite"  # nothing listens there
    with serve({"DATABASE_URL": away, "DIGSITE_PRUNE_HOURS": "6"}, workers=1) as server:
        until(lambda: "pruning expired matches failed" in server.log(), server=server)
        [said] = [line for line in server.log().splitlines()
                  if "pruning expired matches failed" in line]
        assert "trying again in 5 min" in said, said


def test_a_prune_period_that_is_no_number_of_hours_stops_the_server_at_start(tmp_path):
    with pytest.raises(RuntimeError, match="DIGSITE_PRUNE_HOURS is the hours between two "
                                           "prunes of expired matches, up to a year"):
        with serve({"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                    "DIGSITE_PRUNE_HOURS": "often"}):
            pass


def clocked_match(app, turn_days, days):
    """A match of people on a `turn_days` clock whose last move was `days` ago: its deadline,
    `turn_days` after that move, as far back with it. Returns the id and the deadline."""
    created = app.test_client().post(
        f"/api/v1/games/{GAME.id}/matches",
        json={"players": NAMES, "variant": VARIANT, "seed": 7, "clock": {"turn_days": turn_days}})
    assert created.status_code == 201, created.get_json()
    match_id = created.get_json()["id"]
    with engine(app).begin() as conn:
        deadline = conn.execute(sa.select(matches.c.deadline)
                                .where(matches.c.id == match_id)).scalar_one()
        assert deadline is not None
        deadline -= timedelta(days=days)
        conn.execute(matches.update().where(matches.c.id == match_id).values(
            updated_at=datetime.now(UTC) - timedelta(days=days), deadline=deadline))
    return match_id


def test_a_match_whose_clock_still_runs_is_never_pruned_as_idle(database, app_on):
    """A turn may take up to 14 days (API.md "Clocks"), beyond the 7 idle days: idle time counts
    from the later of the last move and the clock's deadline, so a player within their time
    keeps the match, and one whose time ran out long ago does not keep it forever."""
    app = app_on(database)
    running = clocked_match(app, 14, 8)  # 6 days left on the clock
    just_out = clocked_match(app, 14, 15)  # ran out a day ago: the watcher's bot plays first
    long_out = clocked_match(app, 2, 10)  # ran out 8 days ago and nobody came back
    without = old_match(database, app_on)
    assert prune(app)["idle"] == 2
    client = app.test_client()
    for match_id in (running, just_out):
        assert client.get(f"/api/v1/matches/{match_id}").status_code == 200
    for match_id in (long_out, without):
        assert assert_problem(client.get(f"/api/v1/matches/{match_id}"), 410)["detail"] == (
            GONE_IDLE)


def test_a_lobby_paged_after_a_match_cancelled_or_pruned_goes_on_from_where_it_stood(
        database, app_on):
    # The next page after a match removed since was empty, its `next` null: the lobby looked
    # done, and every older match went unseen.
    app = app_on(database)
    client = app.test_client()
    listed = []
    for _ in range(6):
        created = client.post(f"/api/v1/games/{GAME.id}/matches", json={
            "players": NAMES[:-1] + [{"open": True}], "variant": VARIANT, "listed": True}).json
        listed.append((created["id"], created["host_token"]))
    newest_first = [match for match, _ in reversed(listed)]
    url = f"/api/v1/games/{GAME.id}/matches?status=waiting&limit=2"
    first = client.get(url).json
    assert [m["id"] for m in first["matches"]] == newest_first[:2]
    cursor = first["next"]
    host = dict(listed)[cursor]
    assert client.delete(f"/api/v1/matches/{cursor}", headers=auth(host)).status_code == 204
    second = client.get(f"{url}&after={cursor}").json
    assert [m["id"] for m in second["matches"]] == newest_first[2:4]
    age(app, second["next"], 8)
    assert prune(app)["idle"] == 1
    third = client.get(f"{url}&after={second['next']}").json
    assert [m["id"] for m in third["matches"]] == newest_first[4:] and third["next"] is None
    # an id no match of this server had, or whose tombstone is from before it kept the place
    unknown = client.get(f"{url}&after={'c' * 32}")
    assert_problem(unknown, 422, kind="invalid-body")
    assert "first page" in unknown.json["detail"] and "query.after" in unknown.json["errors"]
