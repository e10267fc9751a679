"""The live-update hub (service/notify.py): a stored move wakes whoever waits on its match, in this
process at once and in another through SQLite's watcher, PostgreSQL's NOTIFY or Redis; quiet
waiters read nothing; the listener outlives its database. Each "process" here is a Hub of its own
on an engine of its own, as each gunicorn worker has; the waiters are threads."""

import logging
import threading
import time

import psycopg
import pytest
import sqlalchemy as sa

from scoring.games import GAMES
from service.matches import MatchService
from service.notify import CHANNEL, Hub
from service.store import Entry, StaleVersion, Storage
from tests.pg import postgres_cluster, start_server, stop_server
from tests.redis import redis_server
from tests.redis import start_server as start_redis
from tests.redis import stop_server as stop_redis
from tests.service.live import engine_for, move, new_match

POLL = 0.05  # the SQLite watcher's tick, short so that the tests are


@pytest.fixture(scope="module")
def postgresql():
    with postgres_cluster() as url:
        yield url


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


@pytest.fixture
def hubs():
    """Makes hubs and closes them after the test."""
    made = []

    def make(engine, redis_url=None, poll=POLL):
        made.append(Hub(engine, redis_url, poll))
        return made[-1]

    yield make
    for hub in made:
        hub.close()


class Waiter(threading.Thread):
    """Waits on a match in a thread as a stream does, watching it from the version known, until
    version `goal` is known or `timeout` passes; `got`: the latest it heard of."""

    def __init__(self, hub, match_id, goal, timeout=30.0):
        super().__init__(daemon=True)
        self.hub, self.match_id, self.goal, self.timeout = hub, match_id, goal, timeout
        self.waiting = threading.Event()
        self.got = None
        self.start()

    def run(self):
        deadline = time.monotonic() + self.timeout
        with self.hub.watching(self.match_id):
            self.got = self.hub.version(self.match_id)
            self.waiting.set()
            while self.got < self.goal and time.monotonic() < deadline:
                self.got = max(self.got, self.hub.wait(self.match_id, self.got,
                                                       deadline - time.monotonic()))


def until(condition, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_an_announcement_wakes_the_waiters_of_its_match_in_this_process(tmp_path, hubs):
    engine = engine_for(f"sqlite:///{tmp_path / 'db'}")
    hub = hubs(engine, poll=3600)  # the watcher never looks: only the announcement can wake
    first, other = new_match(engine), new_match(engine)
    waiters = [Waiter(hub, first, goal=2) for _ in range(5)]
    bystander = Waiter(hub, other, goal=2, timeout=1.0)
    assert until(lambda: hub.waiters(first) == 5)
    version = move(engine, first, hub=hub)
    for waiter in waiters:
        waiter.join(10)
        assert waiter.got == version
    bystander.join(10)
    assert bystander.got == 0  # its match did not move: it waited its whole timeout


def test_a_wait_ends_at_its_timeout_with_the_latest_version_known(tmp_path, hubs):
    engine = engine_for(f"sqlite:///{tmp_path / 'db'}")
    hub = hubs(engine)
    match_id = new_match(engine)
    hub.announce(match_id, 4)
    assert hub.wait(match_id, 4, 0.2) == 4
    assert hub.wait(match_id, 3, 10) == 4  # known already: no wait
    hub.announce(match_id, 2)  # an older version heard late changes nothing
    assert hub.version(match_id) == 4


@pytest.mark.parametrize("transport", ["sqlite", "postgresql", "redis"])
def test_a_move_stored_by_another_process_wakes_a_waiter_here(transport, tmp_path, hubs,
                                                              request):
    if transport == "postgresql":
        url = request.getfixturevalue("postgresql")
    else:
        url = f"sqlite:///{tmp_path / 'db'}"
    redis = request.getfixturevalue("redis_url") if transport == "redis" else None
    here, there = engine_for(url), engine_for(url)
    hub = hubs(here, redis)
    assert hub.transport == transport
    other = hubs(there, redis)
    match_id = new_match(there)
    waiter = Waiter(hub, match_id, goal=2)
    assert waiter.waiting.wait(10) and hub.listening.wait(10)
    version = move(there, match_id, hub=other)
    waiter.join(30)
    assert waiter.got == version


def statements_of(engine: sa.Engine) -> list[str]:
    """Every statement SQLite runs on the engine's connections from now on (its connections are
    made again, each traced), whether through SQLAlchemy or on a raw connection."""
    seen: list[str] = []

    @sa.event.listens_for(engine, "connect")
    def trace(dbapi_connection, _record):
        dbapi_connection.set_trace_callback(seen.append)

    engine.dispose()
    return seen


def test_quiet_waiters_on_sqlite_read_no_table_and_a_busy_database_one_query_a_tick(
        tmp_path, hubs):
    """200 waiters on 20 matches: while nothing is committed the watcher only reads SQLite's
    commit counter; while other matches move it reads the watched versions once a tick, not once
    a waiter."""
    path = f"sqlite:///{tmp_path / 'db'}"
    here, there = engine_for(path), engine_for(path)
    ids = [new_match(there) for _ in range(20)]
    seen = statements_of(here)
    hub = hubs(here)
    waiters = [Waiter(hub, ids[i % 20], goal=2, timeout=60) for i in range(200)]
    assert until(lambda: sum(hub.waiters(i) for i in ids) == 200)

    def settled():
        """The watcher has looked at the 20 and since ticked three times without reading."""
        looks = [i for i, statement in enumerate(seen) if "json_each" in statement]
        return looks and seen[looks[-1] + 1:].count("PRAGMA data_version") >= 3

    assert until(settled)
    seen.clear()
    time.sleep(1.0)  # about twenty ticks
    quiet = list(seen)
    assert quiet and set(quiet) == {"PRAGMA data_version"}

    busy = new_match(there)
    seen.clear()
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        move(there, busy)
        time.sleep(POLL / 5)
    reads = [s for s in seen if "json_each" in s]
    ticks = seen.count("PRAGMA data_version")
    assert 1 <= len(reads) <= ticks
    assert all(w.is_alive() for w in waiters)  # none of theirs moved: nobody woke


def test_quiet_waiters_on_postgresql_cost_no_statement(postgresql, hubs):
    engine = engine_for(postgresql)
    hub = hubs(engine)
    ids = [new_match(engine) for _ in range(20)]
    for i in range(200):
        Waiter(hub, ids[i % 20], goal=2, timeout=60)
    assert hub.listening.wait(10)
    assert until(lambda: sum(hub.waiters(i) for i in ids) == 200)
    time.sleep(0.2)
    statements = []
    sa.event.listen(engine, "before_cursor_execute",
                    lambda conn, cursor, statement, *args: statements.append(statement))
    time.sleep(1.5)
    assert statements == []


@pytest.fixture
def restartable_postgresql():
    with postgres_cluster(socket_only=True) as url:
        yield url


def test_the_listener_outlives_a_postgresql_restart(restartable_postgresql, hubs, caplog):
    url = restartable_postgresql
    here, there = engine_for(url), engine_for(url)
    hub, other = hubs(here), hubs(there)
    match_id = new_match(there)
    waiter = Waiter(hub, match_id, goal=2, timeout=120)
    assert waiter.waiting.wait(10) and hub.listening.wait(10)
    with caplog.at_level(logging.WARNING, logger="service.notify"):
        stop_server(url)
        assert until(lambda: not hub.listening.is_set())
        start_server(url)
        # Stored while the listener may still be away: heard on its return, or notified.
        for _ in range(100):
            try:
                version = move(there, match_id, hub=other)
                break
            except sa.exc.OperationalError:
                time.sleep(0.2)
        else:
            pytest.fail("the database did not come back")
        waiter.join(60)
        assert hub.listening.wait(30)
    assert waiter.got == version
    assert "are interrupted" in caplog.text
    # and its end is said too: an operator reading the log can tell when it was over
    assert caplog.text.index("(postgresql) are back") > caplog.text.index("are interrupted")
    later = Waiter(hub, match_id, goal=3)  # and the next move comes by NOTIFY again
    assert later.waiting.wait(10)
    version = move(there, match_id, hub=other)
    later.join(30)
    assert later.got == version


def test_the_subscriber_outlives_a_redis_restart(tmp_path, hubs, caplog):
    path = f"sqlite:///{tmp_path / 'db'}"
    here, there = engine_for(path), engine_for(path)
    with redis_server() as redis:
        hub, other = hubs(here, redis), hubs(there, redis)
        match_id = new_match(there)
        waiter = Waiter(hub, match_id, goal=2, timeout=120)
        assert waiter.waiting.wait(10) and hub.listening.wait(10)
        with caplog.at_level(logging.WARNING, logger="service.notify"):
            stop_redis(redis)
            assert until(lambda: not hub.listening.is_set())
            # Stored while Redis is away: nobody hears the announcement, but the hub reads the
            # watched matches from the database meanwhile, and hears of it within seconds.
            version = move(there, match_id, hub=other)
            waiter.join(10)
            assert waiter.got == version, "the move was not heard while Redis was away"
            assert not hub.listening.is_set()  # from the database: Redis is still down
            start_redis(redis)
        assert waiter.got == version
        assert "are interrupted" in caplog.text and "were not told" in caplog.text
        assert hub.listening.wait(30)
        later = Waiter(hub, match_id, goal=3)  # and the next move comes through Redis again
        assert later.waiting.wait(10)
        version = move(there, match_id, hub=other)
        later.join(30)
        assert later.got == version


def test_the_sqlite_watcher_outlives_a_failing_read(tmp_path, hubs, caplog):
    """While its query fails (here the table is away for a moment, as in a migration) the
    watcher logs and tries again; then it reads again, and nothing stored meanwhile is lost."""
    path = f"sqlite:///{tmp_path / 'db'}"
    here, there = engine_for(path), engine_for(path)
    hub = hubs(here)
    match_id = new_match(there)
    waiter = Waiter(hub, match_id, goal=2, timeout=60)
    assert until(lambda: hub.waiters(match_id) == 1)
    with caplog.at_level(logging.WARNING, logger="service.notify"):
        with there.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE matches RENAME TO matches_away")
        assert until(lambda: "are interrupted" in caplog.text)
        time.sleep(4)
        # Later and later: after 0.5, 1 and 2 s; at 20 ticks a second it would be dozens.
        assert caplog.text.count("are interrupted") <= 5
        with there.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE matches_away RENAME TO matches")
    version = move(there, match_id)
    waiter.join(30)
    assert waiter.got == version


def test_a_move_s_notice_leaves_with_its_commit_and_a_lost_race_sends_none(postgresql):
    """On PostgreSQL the transaction that stores a move sends its NOTIFY itself: the notice is
    out exactly when the version is committed (no second round trip, none lost to a worker
    that stops between the two), and a commit that lost its race tells nobody."""
    # A database of its own: the other tests' small tables are not the app's.
    with psycopg.connect(postgresql.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
        admin.execute("CREATE DATABASE whole_app")
    url = postgresql.rsplit("/", 1)[0] + "/whole_app"
    store = Storage(url)
    hub = Hub(store.engine, None, POLL)
    service = MatchService(store, hub)
    try:
        created = service.create(GAMES["dig"], ["Ann", "Bob"], {}, "standard", seed=5)
        match = store.load(created.match.id)
        stale = store.load(created.match.id)
        seat = service.to_act(match)[0]
        action = GAMES["dig"].legal_actions(match.state, seat)[0]
        with psycopg.connect(url, autocommit=True) as listener:
            listener.execute(f"LISTEN {CHANNEL}")
            statements = []
            sa.event.listen(store.engine, "after_cursor_execute",
                            lambda *args: statements.append(args[2]))
            moved, _ = service.act(match.id, created.tokens[seat], action, match.version, None)
            notices = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
            assert notices == [f"{match.id}:{moved.version}"]
            # Told by the commit: announce sent nothing after it.
            assert not any("pg_notify" in sql for sql in statements)

            with pytest.raises(StaleVersion):  # a move made on the version before
                store.commit(stale, [Entry(seat, action, [], [])], CHANNEL)
            assert [n.payload for n in listener.notifies(timeout=0.5)] == []
    finally:
        hub.close()
        store.engine.dispose()

