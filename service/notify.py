"""Live updates between the workers and app servers of one database (API.md "Live updates"): when
a new version of a match is stored, everyone waiting on that match in any process hears of it,
and nobody reads storage on a timer per waiter.

One Hub per process. The match service calls `announce` once a transaction that stored a new
version has committed; a stream calls `wait`, which blocks its greenlet (under the gevent worker)
or its thread until a newer version is known. How the other processes hear of it:
- through Redis pub/sub when a Redis URL is given, one subscriber per process (PostgreSQL's
  NOTIFY takes a lock that every committing NOTIFY shares: Redis spares the database that);
- else through PostgreSQL's NOTIFY, heard by one LISTEN connection per process;
- else (SQLite: nothing can tell another worker anything) by one watcher per process that looks,
  every `poll_seconds`, at the versions of the matches with open streams in this process, in one
  query, and not even that when `PRAGMA data_version` says nobody has committed since.
Whichever it is starts with the first stream or wait, and outlives an outage of the database or
of Redis: it logs, tries again later and later, and once back reads the versions of the matches
it watches in one query, for the moves made while it could not hear."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import sqlalchemy as sa

# A connection that went silent is found by TCP keepalive (PostgreSQL) or a PING (Redis) within
# about SILENCE_SECONDS, and then replaced.
from .store import CONNECT_TIMEOUT_SECONDS, POSTGRESQL_CONNECTION, SILENCE_SECONDS

log = logging.getLogger(__name__)

CHANNEL = "digsite_matches"  # the NOTIFY channel and the Redis channel; payload "<id>:<version>"
KNOWN_MATCHES = 10_000  # versions remembered; beyond that the least recently moved are forgotten
# How often a listener looks up from its connection to see whether the hub was closed (no query).
LOOK_UP_SECONDS = 1.0
RETRY_FIRST_SECONDS, RETRY_MAX_SECONDS = 0.5, 30.0  # after an outage: doubled up to the most
# What is watched: matches, shared tallies (service/tallies.py) and studies (service/studies.py),
# each with a 128-bit random id, so one id names one of them. Only these two columns are read,
# wherever the schema is declared.
WATCHED = tuple(sa.table(name, sa.column("id"), sa.column("version"))
                for name in ("matches", "tallies", "studies"))
# SQLite's: every id in one parameter, a JSON list, however many are watched.
SQLITE_VERSIONS = " UNION ALL ".join(
    f"SELECT id, version FROM {table.name} WHERE id IN (SELECT value FROM json_each(?1))"
    for table in WATCHED)


class _Waiting:
    """Those waiting for the next version of one match: one event that they all wait on."""

    __slots__ = ("event", "count")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.count = 0


class Hub:
    """Which version of each match this process knows, and who waits for the next.

    `threading` is looked up when used: under the gevent worker it is monkey-patched, so the
    events are gevent's and the listener is a greenlet; elsewhere they are real threads."""

    def __init__(self, engine: sa.Engine, redis_url: str | None, poll_seconds: float) -> None:
        self.engine = engine
        self.redis_url = redis_url
        self.poll_seconds = poll_seconds
        if redis_url:
            self.transport = "redis"
        elif engine.dialect.name == "postgresql":
            self.transport = "postgresql"
        else:
            self.transport = "sqlite"
        # Set while announcements of other processes reach this one (for tests and readiness).
        self.listening = threading.Event()
        self._lock = threading.Lock()
        self._known: OrderedDict[str, int] = OrderedDict()
        self._waiting: dict[str, _Waiting] = {}
        self._watched: dict[str, int] = {}  # match → open streams in this process
        self._closed = threading.Event()
        self._listener: threading.Thread | None = None
        self._retry = RETRY_FIRST_SECONDS
        self._interrupted = False  # an outage was logged, its end not yet
        self._publisher = None  # the Redis client that announces, made on first use
        # Set when the process is shutting down: every wait returns at once, so open streams end
        # and their clients resume elsewhere (leave()).
        self.leaving = False

    # --- what the match service and the streams call ----------------------------------------

    @property
    def notifies_in_commit(self) -> str | None:
        """The NOTIFY channel a commit itself sends on (Storage.commit), so other processes
        hear of a version exactly when it is committed, in the same round trip: PostgreSQL's
        when it carries the notices; None otherwise (announce tells them after the commit)."""
        return CHANNEL if self.transport == "postgresql" else None

    def announce(self, match_id: str, version: int, told: bool = False) -> None:
        """A transaction that stored `version` of the match has committed: wake this process's
        waiters now and tell the other processes, unless the commit has `told` them itself.
        Never raises: the move is stored whatever happens here, and a stream that misses it
        gets it with the match's next move.

        The other processes are told first: under gevent, this process's waiters run once the
        caller next yields, which is after it has sent its answer, so a mover is not kept
        waiting while a thousand streams of its match are written to."""
        payload = f"{match_id}:{version}"
        try:
            if told:
                pass
            elif self.transport == "redis":
                self._redis_publisher().publish(CHANNEL, payload)
            elif self.transport == "postgresql":
                with self.engine.begin() as conn:
                    conn.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))
        except Exception as exc:  # noqa: BLE001  (whatever the driver raises, the move stands)
            log.warning("other processes were not told of match %s version %d: %s", match_id,
                        version, first_line(exc))
        self._heard(match_id, version)

    def version(self, match_id: str) -> int:
        """The latest version of the match this process knows of (0: none yet)."""
        with self._lock:
            return self._known.get(match_id, 0)

    def wait(self, match_id: str, version: int, timeout: float) -> int:
        """Wait until a version of the match above `version` is known, or `timeout` seconds have
        passed; the latest version known. Costs one event wait and its timer: nothing polls."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                known = self._known.get(match_id, 0)
                if known > version or self.leaving:
                    return known
                waiting = self._waiting.get(match_id)
                if waiting is None:
                    waiting = self._waiting[match_id] = _Waiting()
                waiting.count += 1
            self._start()
            left = deadline - time.monotonic()
            try:
                woken = left > 0 and waiting.event.wait(left)
            finally:
                with self._lock:
                    waiting.count -= 1
                    if not waiting.count and self._waiting.get(match_id) is waiting:
                        del self._waiting[match_id]
            if not woken:
                return self.version(match_id)

    def waiters(self, match_id: str) -> int:
        """How many wait on the match right now."""
        with self._lock:
            waiting = self._waiting.get(match_id)
            return 0 if waiting is None else waiting.count

    @contextmanager
    def watching(self, match_id: str) -> Iterator[None]:
        """A stream of the match is open for the block: from now on the listener, whenever it
        (re)connects, and the SQLite watcher at every tick, look at this match's version. Entered
        before the stream first reads the log, so no move falls between that read and the
        moment this process can hear of the next."""
        with self._lock:
            self._watched[match_id] = self._watched.get(match_id, 0) + 1
        try:
            self._start()
            yield
        finally:
            with self._lock:
                if self._watched[match_id] == 1:
                    del self._watched[match_id]
                else:
                    self._watched[match_id] -= 1

    def leave(self) -> None:
        """The process is shutting down (a worker's SIGTERM, gunicorn.conf.py): wake every
        waiter, and let no wait begin. Open streams end at once rather than holding the worker
        for its whole graceful timeout, and their clients resume with Last-Event-ID on a worker
        that stays."""
        with self._lock:
            self.leaving = True
            waiting = list(self._waiting.values())
        for each in waiting:
            each.event.set()

    def close(self, timeout: float = 5.0) -> None:
        """Stop listening (for tests: a process's hub lives as long as the process)."""
        self._closed.set()
        listener = self._listener
        if listener is not None and listener is not threading.current_thread():
            listener.join(timeout)
        if self._publisher is not None:
            self._publisher.close()

    # --- what the listener learns ---------------------------------------------------------

    def _heard(self, match_id: str, version: int) -> None:
        with self._lock:
            if version <= self._known.get(match_id, 0):
                return
            self._known[match_id] = version
            self._known.move_to_end(match_id)
            while len(self._known) > KNOWN_MATCHES:
                self._known.popitem(last=False)
            waiting = self._waiting.pop(match_id, None)
        if waiting is not None:
            waiting.event.set()

    def _heard_payload(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            payload = payload.decode("ascii", "replace")
        match_id, _, version = payload.rpartition(":")
        if match_id and version.isascii() and version.isdigit():
            self._heard(match_id, int(version))

    def _watched_ids(self) -> list[str]:
        """The matches someone in this process streams or waits on."""
        with self._lock:
            return list(self._watched.keys() | self._waiting.keys())

    def _catch_up(self) -> None:
        """After (re)connecting: the versions of the watched matches, in one query, for whatever
        moved while this process could not hear."""
        ids = self._watched_ids()
        if ids:
            with self.engine.connect() as conn:
                rows = conn.execute(sa.union_all(*(
                    sa.select(table.c.id, table.c.version).where(table.c.id.in_(ids))
                    for table in WATCHED))).all()
            self._heard_rows(ids, rows)

    def _heard_rows(self, ids: list[str] | set[str], rows) -> None:
        """The versions read of the watched matches `ids`. One that has no row any more was
        removed (its host cancelled it): its streams are woken to find it gone."""
        found = set()
        for match_id, version in rows:
            found.add(match_id)
            self._heard(match_id, version)
        for match_id in set(ids) - found:
            with self._lock:
                version = self._known.get(match_id, 0) + 1
            self._heard(match_id, version)

    def _listening(self) -> None:
        if self._interrupted:  # the outage said above is over: said too, for the operator
            log.warning("live updates (%s) are back", self.transport)
            self._interrupted = False
        self._retry = RETRY_FIRST_SECONDS
        self.listening.set()

    # --- the one listener per process -----------------------------------------------------

    def _start(self) -> None:
        if self._listener is not None:
            return
        with self._lock:
            if self._listener is not None or self._closed.is_set():
                return
            listen = {"redis": self._listen_redis, "postgresql": self._listen_postgresql,
                      "sqlite": self._watch_sqlite}[self.transport]
            self._listener = threading.Thread(target=self._run, args=(listen,), daemon=True,
                                              name=f"digsite-live-updates-{self.transport}")
        self._listener.start()

    def _run(self, listen: Callable[[], None]) -> None:
        """Listen until closed; after a failure, log it and try again, later each time. While
        Redis or PostgreSQL's LISTEN is away, the watched matches' versions are read from the
        database every poll_seconds meanwhile, as on SQLite: a stream still hears the moves
        made on other servers, a little later, rather than nothing until the listener is back."""
        while not self._closed.is_set():
            try:
                listen()
            except Exception as exc:  # noqa: BLE001  (an outage: whatever the driver raises)
                self.listening.clear()
                self._interrupted = True
                meanwhile = ("" if self.transport == "sqlite" else
                             f" (reading the database every {self.poll_seconds:g} s meanwhile)")
                log.warning("live updates (%s) are interrupted, trying again in %.1f s%s: %s",
                            self.transport, self._retry, meanwhile, first_line(exc))
                if self._meanwhile(time.monotonic() + self._retry):
                    break
                self._retry = min(self._retry * 2, RETRY_MAX_SECONDS)
        self.listening.clear()

    def _meanwhile(self, until: float) -> bool:
        """Wait until `until` (monotonic) for the next try; unless the database itself is what
        is watched (SQLite's watcher just failed), read the watched matches' versions from it
        every poll_seconds. True once the hub is closed."""
        while (left := until - time.monotonic()) > 0:
            if self._closed.wait(left if self.transport == "sqlite"
                                 else min(left, self.poll_seconds)):
                return True
            if self.transport != "sqlite":
                try:
                    self._catch_up()
                except Exception:  # noqa: BLE001  (the database is away too: said above)
                    pass
        return self._closed.is_set()

    def _listen_postgresql(self) -> None:
        import psycopg  # imported in the worker: psycopg picks how to wait when imported

        args, params = self.engine.dialect.create_connect_args(self.engine.url)
        params = {**POSTGRESQL_CONNECTION, **params}
        with psycopg.connect(*args, **params, autocommit=True) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            self._catch_up()
            self._listening()
            while not self._closed.is_set():
                for notify in conn.notifies(timeout=LOOK_UP_SECONDS):
                    self._heard_payload(notify.payload)

    def _listen_redis(self) -> None:
        import redis

        client = redis.Redis.from_url(self.redis_url, socket_keepalive=True,
                                      socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
                                      health_check_interval=SILENCE_SECONDS)
        with client, client.pubsub() as pubsub:
            pubsub.subscribe(CHANNEL)
            while not self._closed.is_set():
                message = pubsub.get_message(timeout=LOOK_UP_SECONDS)
                if message is None:
                    continue
                if message["type"] == "message":
                    self._heard_payload(message["data"])
                elif message["type"] == "subscribe":
                    # Subscribed, first or after redis-py reconnected by itself: what moved
                    # before this point is read from the database.
                    self._catch_up()
                    self._listening()

    def _redis_publisher(self):
        if self._publisher is None:
            import redis
            from redis.backoff import NoBackoff
            from redis.retry import Retry

            # An announcement waits briefly: the move is stored already, its answer must not
            # hang on Redis.
            self._publisher = redis.Redis.from_url(
                self.redis_url, socket_connect_timeout=1, socket_timeout=1,
                retry=Retry(NoBackoff(), 1))
        return self._publisher

    def _watch_sqlite(self) -> None:
        """Every poll_seconds, the versions of the watched matches in one query on a connection
        of its own, skipped while `PRAGMA data_version` (which changes when another connection
        commits) stays the same and no match joined the watch. A read never waits for a writer
        in SQLite's WAL mode, so the query does not hold up the worker's other greenlets."""
        conn = self.engine.raw_connection()
        try:
            cursor = conn.cursor()
            seen_version, seen_ids = None, set()
            while not self._closed.wait(self.poll_seconds):
                ids = set(self._watched_ids())
                if ids:
                    data_version = cursor.execute("PRAGMA data_version").fetchone()[0]
                    if data_version != seen_version or not ids <= seen_ids:
                        rows = cursor.execute(SQLITE_VERSIONS,
                                              (json.dumps(sorted(ids)),)).fetchall()
                        seen_version, seen_ids = data_version, ids
                        self._heard_rows(ids, rows)
                if not self.listening.is_set():  # a tick went through: the next failure is new
                    self._listening()
        except Exception:
            conn.invalidate()
            raise
        finally:
            conn.close()


def first_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0]
