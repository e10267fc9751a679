"""Match storage: SQLAlchemy Core over an SQLite file (default, under var/) or PostgreSQL
(DATABASE_URL). Applying an action is one transaction that succeeds only if the match still has
the version the client saw, so two workers can never both apply an action to one version."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import sqlite3
import time
from collections import namedtuple
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa

from scoring.engine import FINISHED, PLAYING, SETUP

from . import migrate

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_URL = f"sqlite:///{ROOT / 'var' / 'digsite.db'}"
SQLITE_BUSY_TIMEOUT_MS = 10_000
# The longest a request waits on the database (DIGSITE_DATABASE_SECONDS): on SQLite for a lock
# another connection holds, on PostgreSQL for any answer, a statement's or a commit's. Then it
# gives up, and the request answers 503 (api/errors.py).
DATABASE_SECONDS = SQLITE_BUSY_TIMEOUT_MS / 1000
PING_AFTER_IDLE_SECONDS = 0.5  # a pooled PostgreSQL connection idle longer is tried first
# How long a PostgreSQL connection may take to open; and a connection gone silent (a cable
# pulled, a failed-over address dropping packets, not a server stopped) is found by TCP
# keepalive within about SILENCE_SECONDS. DATABASE_URL's own parameters win
# (`?connect_timeout=10`).
CONNECT_TIMEOUT_SECONDS = 5
SILENCE_SECONDS = 30
POSTGRESQL_CONNECTION = {"connect_timeout": CONNECT_TIMEOUT_SECONDS, "keepalives": 1,
                         "keepalives_idle": SILENCE_SECONDS // 2, "keepalives_interval": 5,
                         "keepalives_count": 3}

metadata = sa.MetaData()

matches = sa.Table(
    "matches", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("variant", sa.String(40), nullable=False),
    # Before seeds grew to 128 bits: the seed when it fits a signed 64-bit integer, else -1.
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("players", sa.JSON, nullable=False),  # [{"name", "token_hash"}] in seat order
    sa.Column("state", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    # Added later (service/migrations), so NULL in older rows. The seed in decimal: exact at any
    # width on every database, where SQLite would turn a too-large integer into a lossy REAL.
    sa.Column("seed_digits", sa.Text),
    # The creator chose the seed. NULL (older rows) cannot vouch for the seed and counts as true.
    sa.Column("seeded", sa.Boolean),
    # API.md "Seats, hosts and leaving": the creator's host token, hashed like the seats'.
    sa.Column("host_token_hash", sa.String(64)),
    # API.md "Listing and rematch": found by GET /games/{game}/matches (NULL: not listed).
    sa.Column("listed", sa.Boolean),
    # API.md "Clocks": {"rule", "bank", "since"} (service/clocks.py); NULL: no clock.
    sa.Column("clock", sa.JSON),
    # When the seats to act run out of time: what the clock watchers look up.
    sa.Column("deadline", sa.DateTime(timezone=True)),
    # A finished match's rematch, once a seat has claimed it.
    sa.Column("rematch", sa.String(32)),
    # API.md "Webhooks": {"url", "events", "secret"}; NULL: none.
    sa.Column("webhook", sa.JSON),
    # API.md "Seats, hosts and leaving": the bot that plays a seat whose player left or ran out
    # of time; NULL: greedy.
    sa.Column("stand_in_bot", sa.String(40)),
    # The client address (api/limits.py `client`) the thinking of its time-outs counts to.
    sa.Column("creator", sa.String(64)),
)
LEGACY_SEED_MAX = 2**63 - 1

actions = sa.Table(
    "actions", metadata,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.JSON, nullable=False),
    sa.Column("events", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # The seats to act once this action was taken (added later: NULL in older rows).
    sa.Column("to_act", sa.JSON),
    # The bot that chose this move for its seat: a bot's seat, or one a bot plays while its
    # player is away. NULL: the seat's player, the table's own entries, and rows logged before.
    sa.Column("bot", sa.String(32)),
    # The turn clock as it stood when the entry was logged, as a view shows it (the deadline of
    # the seats to act after it): what the match's streams send with it. NULL: the match has no
    # clock, or the row was logged before.
    sa.Column("clock", sa.JSON(none_as_null=True)),
)

# Retention (README "Retention"): a match removed after the idle or finished days
# (service/settings.py) leaves a tombstone for TOMBSTONE_DAYS, so that its address answers 410
# Gone, saying why, rather than 404.
TOMBSTONE_DAYS = 365
PRUNE_BATCH = 500  # matches per transaction: short enough not to hold up the players' moves
EXPIRED_IDLE, EXPIRED_FINISHED, CANCELLED = "idle", "finished", "cancelled"

expired_matches = sa.Table(
    "expired_matches", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("expired_at", sa.DateTime(timezone=True), nullable=False, index=True),
    sa.Column("reason", sa.String(16), nullable=False),  # EXPIRED_IDLE, _FINISHED, CANCELLED
    sa.Column("days", sa.Integer, nullable=False),  # the setting it was removed under
    # when the match was made: where it stood in a listing (null in a tombstone made before)
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
# API.md "Webhooks": what is to be told to a match's webhook, written with the log entries
# that tell it (service/webhooks.py), then sent by whichever worker claims it first. `next_at`
# is when the next attempt is due (NULL once done); `done_at` when it was delivered or given up.
webhook_deliveries = sa.Table(
    "webhook_deliveries", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("match_id", sa.String(32), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("event", sa.String(16), nullable=False),
    sa.Column("url", sa.Text, nullable=False),
    sa.Column("secret", sa.String(64), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("next_at", sa.DateTime(timezone=True), index=True),
    sa.Column("done_at", sa.DateTime(timezone=True), index=True),
    sa.Column("last_status", sa.Integer),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

# The prune's lookups: by status, then by the last time anyone touched the match.
PRUNE_INDEX = sa.Index("ix_matches_status_updated_at", matches.c.status, matches.c.updated_at)
# The clock watchers' lookup: the matches whose time runs out first.
DEADLINE_INDEX = sa.Index("ix_matches_deadline", matches.c.deadline)
# The lobby's listing: a game's listed matches of one status, newest first.
LISTING_INDEX = sa.Index("ix_matches_listing", matches.c.game, matches.c.listed,
                         matches.c.status, matches.c.created_at)


class StaleVersion(Exception):
    """The match moved on since the client looked."""


@dataclass
class Entry:
    """A log entry to store: who acted, the action, what it did, and who acts next."""
    seat: int
    action: dict[str, Any]
    events: list[dict[str, Any]]
    to_act: list[int]
    bot: str | None = None  # the bot that chose the move; None: the seat's player, or the table
    clock: dict[str, Any] | None = None  # the clock as a view shows it once the entry is logged
    # the match's status once the entry is logged, where later entries of the same change move
    # it on (a webhook's delivery says it); not stored: the log replays it
    status: str | None = None


@dataclass
class Delivery:
    """A webhook's message about the log entry at `seq`: its event and its JSON body."""
    seq: int
    event: str
    body: str


@dataclass
class Match:
    id: str
    game: str
    variant: str
    seed: int
    players: list[dict[str, str]]  # {"name", "token_hash"} and, for a bot's seat, "bot"
    state: dict[str, Any]
    version: int
    status: str
    seeded: bool  # the creator chose the seed
    host_token_hash: str | None = None
    listed: bool = False
    clock: dict[str, Any] | None = None
    deadline: datetime | None = None
    rematch: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    webhook: dict[str, Any] | None = None  # {"url", "events", "secret"}
    stand_in_bot: str | None = None  # None: STAND_IN_BOT (service/matches.py)
    creator: str | None = None  # the address its time-outs' thinking counts to (None: none)

    @property
    def names(self) -> list[str | None]:
        """Seat names in seat order; None for a seat nobody has joined yet."""
        return [p["name"] for p in self.players]

    @property
    def bots(self) -> dict[int, str]:
        """The seats the server plays, and the bot playing each."""
        return {i: p["bot"] for i, p in enumerate(self.players) if p.get("bot")}

    def seat_of(self, token: str) -> int | None:
        """The seat holding `token`, compared in constant time; None when it is no seat's."""
        digest = hash_token(token)
        seat = None
        for i, player in enumerate(self.players):
            if player["token_hash"] and hmac.compare_digest(digest, player["token_hash"]):
                seat = i
        return seat

    def is_host(self, token: str) -> bool:
        return bool(self.host_token_hash) and hmac.compare_digest(hash_token(token),
                                                                  self.host_token_hash)


@dataclass
class Expired:
    """The tombstone of a match that retention removed."""
    reason: str  # EXPIRED_IDLE or EXPIRED_FINISHED
    days: int  # how long it was kept: without a move, or once finished
    expired_at: datetime

    @property
    def idle(self) -> bool:
        return self.reason == EXPIRED_IDLE

    @property
    def cancelled(self) -> bool:
        return self.reason == CANCELLED


@dataclass
class Pruned:
    """What one prune removed."""
    idle: int = 0  # unfinished matches nobody had touched for the idle days
    finished: int = 0  # finished matches kept the finished days
    log_entries: int = 0  # the log entries of both
    tombstones: int = 0  # tombstones older than TOMBSTONE_DAYS


def new_match_id() -> str:
    return secrets.token_hex(16)  # 128 random bits


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 random bits


def derived_token(token: str, purpose: str) -> str:
    """A token, written as new_token's, that only the holder of `token` can work out again for
    `purpose`: a keyed hash, which tells nothing of `token` itself."""
    digest = hmac.new(token.encode(), purpose.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def aware(moment: datetime | None) -> datetime | None:
    """A stored time with its zone: SQLite gives times back without one (they are UTC)."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


def hash_token(token: str) -> str:
    # Tokens carry 256 random bits, so one SHA-256 is enough: there is nothing to brute-force.
    return hashlib.sha256(token.encode()).hexdigest()


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def database_url(url: str | None) -> str:
    url = url or DEFAULT_URL
    if url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def _write_ahead(cursor: Any) -> None:
    """Put the database in WAL mode (kept by the file: once is enough). Turning it on needs the
    file to itself, and SQLite answers "locked" at once, without waiting, while another process
    holds it (a worker of another server migrating the same new file, say): tried again until
    the busy timeout."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            if cursor.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


# SQLite waits for a lock another connection holds in its own C code, where nothing else of the
# process runs: a served worker's one thread, and every request on it, would wait with it. It
# waits this long at a time; between two waits the worker serves its other requests
# (_WaitingCursor), until the connection's `wait_seconds` are spent.
SQLITE_WAIT_SLICE_SECONDS = 0.02
SQLITE_BUSY = 5  # sqlite3.Error.sqlite_errorcode: a lock another connection holds


class _WaitingCursor(sqlite3.Cursor):
    """A cursor whose statements wait for a lock another connection holds in slices, letting the
    process's other work (a served worker's other requests: time.sleep is gevent's there) go on
    between them. A statement SQLite refused at once, without waiting (a transaction whose
    snapshot another one wrote past can never take the lock), is refused as ever."""

    def execute(self, sql: str, parameters: Any = ()) -> sqlite3.Cursor:
        return _waiting(self.connection, super().execute, sql, parameters)

    def executemany(self, sql: str, parameters: Any) -> sqlite3.Cursor:
        return _waiting(self.connection, super().executemany, sql, parameters)


class _WaitingConnection(sqlite3.Connection):
    wait_seconds = DATABASE_SECONDS

    def cursor(self, factory: Any = _WaitingCursor) -> sqlite3.Cursor:
        return super().cursor(factory)


def _waiting(connection: _WaitingConnection, run: Any, sql: str, parameters: Any) -> Any:
    started = time.monotonic()
    while True:
        tried = time.monotonic()
        try:
            return run(sql, parameters)
        except sqlite3.OperationalError as exc:
            now = time.monotonic()
            if (exc.sqlite_errorcode != SQLITE_BUSY
                    or now - tried < SQLITE_WAIT_SLICE_SECONDS / 2  # refused without waiting
                    or now - started >= connection.wait_seconds):
                raise
        time.sleep(0.002)


def make_engine(url: str, wait_seconds: float = DATABASE_SECONDS) -> sa.Engine:
    """An engine for `url` whose connections wait on the database for at most `wait_seconds`
    (DATABASE_SECONDS)."""
    if url.startswith("sqlite"):
        path = sa.engine.make_url(url).database
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(
            url, connect_args={"timeout": SQLITE_WAIT_SLICE_SECONDS,
                               "factory": _WaitingConnection},
            json_serializer=json_text, json_deserializer=json_value)

        @sa.event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):
            # Let SQLAlchemy, not the driver, decide when transactions begin.
            dbapi_connection.isolation_level = None
            dbapi_connection.wait_seconds = wait_seconds
            cursor = dbapi_connection.cursor()
            cursor.execute(f"PRAGMA busy_timeout={round(SQLITE_WAIT_SLICE_SECONDS * 1000)}")
            _write_ahead(cursor)
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @sa.event.listens_for(engine, "begin")
        def _sqlite_begin(conn):
            # BEGIN IMMEDIATE where asked (service/migrate.py): take the write lock at once.
            conn.exec_driver_sql(conn.get_execution_options().get("sqlite_begin", "BEGIN"))

        return engine
    # Without a connect timeout, a request would wait for as long as an address that never
    # answers holds the connection open: the kernel's two minutes, or for ever where something
    # accepts it and says nothing (a stopped server).
    given = sa.engine.make_url(url).query
    engine = sa.create_engine(
        url, json_serializer=json_text, json_deserializer=json_value,
        connect_args={k: v for k, v in POSTGRESQL_CONNECTION.items() if k not in given})
    bounded = bounded_connection(wait_seconds)

    # Keepalive finds a connection whose server is gone, not one whose server holds it and says
    # nothing: a statement behind another's lock, a server frozen (its host suspended, its disk
    # stalled). Each connection's waits for an answer are bounded instead (bounded_connection).
    @sa.event.listens_for(engine, "do_connect")
    def _connect(_dialect, _record, cargs, cparams):
        return bounded.connect(*cargs, **cparams)

    # A pooled connection is tried before use only when it has lain in the pool a while (as
    # HikariCP's aliveBypassWindowMs): SQLAlchemy's pool_pre_ping tries every one, a round trip
    # that doubled a view's. One returned moments ago was answering then; one that broke since
    # fails its statement, is thrown away (Storage._cursor, SQLAlchemy's execution) and that
    # request answers 503, as a break between a ping and its statement would.
    @sa.event.listens_for(engine, "checkin")
    def _returned(_dbapi_connection, record):
        record.info["returned"] = time.monotonic()

    @sa.event.listens_for(engine, "checkout")
    def _alive(dbapi_connection, record, _proxy):
        returned = record.info.get("returned")  # None: a new connection, alive
        if returned is None or time.monotonic() - returned < PING_AFTER_IDLE_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as exc:
            if engine.dialect.is_disconnect(exc, dbapi_connection, None):
                raise sa.exc.DisconnectionError(str(exc)) from exc  # the pool connects anew
            raise

    return engine


def bounded_connection(seconds: float) -> type:
    """psycopg's Connection, its every wait for the server's answer given up after `seconds`
    (unless the wait names its own bound, as a LISTEN's does): the query still running is
    cancelled, if the server takes the cancel within a second, and the connection closed (it is
    mid-statement: the pool throws it away, service.DATABASE_AWAY), with an OperationalError
    naming the wait. Migrations lift the bound (migrate.unhurried)."""
    import psycopg  # only to reach PostgreSQL

    class Bounded(psycopg.Connection):
        answer_seconds: float | None = seconds

        def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
            if timeout is not None or self.answer_seconds is None:
                return super().wait(gen, interval, timeout)
            try:
                return super().wait(gen, interval, self.answer_seconds)
            except psycopg.errors._WaitTimeout:  # the one error a wait's bound raises
                with suppress(psycopg.Error):  # libpq 17's cancel, which waits as gevent does
                    self.cancel_safe(timeout=1.0)
                self.close()
                raise psycopg.OperationalError(
                    f"PostgreSQL did not answer within {self.answer_seconds:g} s") from None

    return Bounded


class Storage:
    def __init__(self, url: str | None, newest: bool = True,
                 wait_seconds: float = DATABASE_SECONDS) -> None:
        """The database at `url`, brought to the newest revision of the schema, unless not
        `newest`: then left as it is until `bring_to_newest`. A request waits on it for at most
        `wait_seconds` (DATABASE_SECONDS)."""
        self.url = database_url(url)
        self.engine = make_engine(self.url, wait_seconds)
        self.newest = False
        if newest:
            self.bring_to_newest()

    def bring_to_newest(self) -> None:
        """Migrate the schema to the newest revision (once; at once where it is there)."""
        if not self.newest:
            migrate.upgrade(self.engine)
            self.newest = True

    def create(self, match: Match, entries: list[Entry] = (),
               deliveries: list[Delivery] = ()) -> None:
        """Store a new match, with what the bots played before anyone else could act, in one
        transaction."""
        now = datetime.now(UTC)
        match.created_at = match.updated_at = now
        seed = match.seed
        with self.engine.begin() as conn:
            conn.execute(matches.insert().values(
                id=match.id, game=match.game, variant=match.variant,
                seed=seed if 0 <= seed <= LEGACY_SEED_MAX else -1, seed_digits=str(seed),
                seeded=match.seeded, players=match.players, state=json_text(match.state),
                version=match.version, status=match.status, created_at=now, updated_at=now,
                host_token_hash=match.host_token_hash, listed=match.listed or None,
                clock=match.clock, deadline=match.deadline, webhook=match.webhook,
                stand_in_bot=match.stand_in_bot, creator=match.creator))
            self._log(conn, match.id, 1, entries, now)
            if deliveries:
                conn.execute(webhook_deliveries.insert(),
                             [self._delivery(match, d, now) for d in deliveries])

    def load(self, match_id: str) -> Match | None:
        hot = self._hot()
        with self._cursor() as cursor:
            row = hot.load.run(cursor, {"match_id": match_id}).fetchone()
        return None if row is None else self._match(hot.row._make(hot.load.row(row)))

    @staticmethod
    def _match(row: Any) -> Match:
        seed = row.seed if row.seed_digits is None else int(row.seed_digits)
        return Match(row.id, row.game, row.variant, seed, row.players, json_value(row.state),
                     row.version, row.status, row.seeded is not False, row.host_token_hash,
                     bool(row.listed), row.clock, aware(row.deadline), row.rematch,
                     aware(row.created_at), aware(row.updated_at), row.webhook,
                     row.stand_in_bot, row.creator)

    def commit(self, match: Match, entries: list[Entry], notify: str | None = None,
               deliveries: list[Delivery] = ()) -> int:
        """Store the match as it now is (state, status, seats, clock) and its new log entries,
        all or none, if it is still at `match.version` in storage (else StaleVersion). Returns
        the new version: one more per entry, so an entry's seq is the version it was taken
        at. `notify`: a PostgreSQL channel told "<id>:<version>" by the same transaction, so
        the notice goes out exactly when the version is committed (service/notify.py)."""
        new_version = match.version + len(entries)
        now = datetime.now(UTC)
        hot = self._hot()
        changed = {"match_id": match.id, "seen_version": match.version,
                   "state": json_text(match.state), "version": new_version,
                   "status": match.status, "players": match.players, "clock": match.clock,
                   "deadline": match.deadline, "host_token_hash": match.host_token_hash,
                   "updated_at": now}
        logged = self._logged(match.id, match.version, entries, now)
        told = [self._delivery(match, d, now) for d in deliveries]
        if hot.dialect.name == "postgresql":
            notice = None if notify is None else (notify, f"{match.id}:{new_version}")
            statement, values = hot.stored(changed, logged, told, notice)
            with self._cursor() as cursor:
                cursor.execute(statement, values)
                if cursor.rowcount != 1:
                    raise StaleVersion
        else:
            with self._cursor(transaction=True) as cursor:
                hot.commit.run(cursor, changed)
                if cursor.rowcount != 1:
                    raise StaleVersion
                if logged:
                    hot.log.run_many(cursor, logged)
                if told:
                    hot.deliveries.run_many(cursor, told)
        match.version, match.updated_at = new_version, now
        return new_version

    @staticmethod
    def _delivery(match: Match, delivery: Delivery, now: datetime) -> dict[str, Any]:
        return {"match_id": match.id, "seq": delivery.seq, "event": delivery.event,
                "url": match.webhook["url"], "secret": match.webhook["secret"],
                "body": delivery.body, "attempts": 0, "next_at": now, "done_at": None,
                "last_status": None, "created_at": now}

    @staticmethod
    def _logged(match_id: str, first_seq: int, entries: list[Entry],
                now: datetime) -> list[dict[str, Any]]:
        """The log's rows of `entries`, the first at `first_seq`."""
        return [{"match_id": match_id, "seq": seq, "seat": e.seat, "action": e.action,
                 "events": e.events, "created_at": now, "to_act": e.to_act, "bot": e.bot,
                 "clock": e.clock}
                for seq, e in enumerate(entries, first_seq)]

    @staticmethod
    def _log(conn: sa.Connection, match_id: str, first_seq: int, entries: list[Entry],
             now: datetime) -> None:
        if entries:
            conn.execute(actions.insert(), Storage._logged(match_id, first_seq, entries, now))

    def touch(self, match: Match) -> None:
        """Store the seats' presence (last seen) without a new version: nothing of the game
        changed. Lost if the match moved on meanwhile, whose move stored its own."""
        with self._cursor() as cursor:
            self._hot().touch.run(cursor, {"match_id": match.id, "seen_version": match.version,
                                           "players": match.players})

    # --- a match's hot path: the statements its views and actions run, prepared once ----------

    def _hot(self) -> HotPath:
        """This storage's prepared statements (made again if the engine is replaced by one of
        another dialect)."""
        hot = getattr(self, "_hot_path", None)
        if hot is None or hot.dialect is not self.engine.dialect:
            hot = self._hot_path = HotPath(self.engine.dialect)
        return hot

    @contextmanager
    def _cursor(self, transaction: bool = False) -> Iterator[Any]:
        """A cursor of a pooled DBAPI connection. Each statement run on it stands alone, its
        own transaction, committed as it ends; with `transaction`, the block's statements are
        one transaction instead, committed when the block ends. Whatever is left uncommitted
        (the block raised) the pool rolls back as the connection returns to it; a connection
        found broken is thrown away instead, as SQLAlchemy's own execution does."""
        connection = self.engine.raw_connection()
        # On PostgreSQL a statement alone runs in autocommit, without the BEGIN the driver would
        # send first, and the COMMIT or the pool's ROLLBACK after: a round trip, not three.
        # SQLite's driver leaves transactions to us (make_engine): a statement alone commits.
        dialect = self.engine.dialect
        alone = not transaction and dialect.name == "postgresql"
        try:
            if alone:
                connection.dbapi_connection.autocommit = True
            cursor = connection.cursor()
            if transaction and dialect.name == "sqlite":
                cursor.execute("BEGIN")
            yield cursor
            if transaction:
                connection.commit()
        except Exception as exc:
            if isinstance(exc, dialect.loaded_dbapi.Error) and dialect.is_disconnect(
                    exc, connection.dbapi_connection, None):
                connection.invalidate(exc)
            raise
        finally:
            if alone and connection.is_valid:
                try:  # back as the pool and SQLAlchemy's own execution expect it
                    connection.dbapi_connection.autocommit = False
                except dialect.loaded_dbapi.Error as exc:
                    connection.invalidate(exc)
            connection.close()

    def claim_rematch(self, match: Match, rematch_id: str) -> bool:
        """Name `rematch_id` as the finished match's rematch, unless another seat named one
        first: True when this one is now the rematch."""
        with self.engine.begin() as conn:
            updated = conn.execute(matches.update()
                                   .where(matches.c.id == match.id, matches.c.rematch.is_(None))
                                   .values(rematch=rematch_id))
        return updated.rowcount == 1

    def cancel(self, match: Match) -> None:
        """Remove a waiting match (its host cancelled it), leaving a tombstone; StaleVersion if
        it moved on meanwhile."""
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            # its log first, the entries' key naming the match; a match that moved on meanwhile
            # raises, and the transaction takes nothing away
            conn.execute(actions.delete().where(actions.c.match_id == match.id))
            gone = conn.execute(matches.delete().where(matches.c.id == match.id,
                                                       matches.c.version == match.version))
            if gone.rowcount != 1:
                raise StaleVersion
            conn.execute(expired_matches.insert().values(id=match.id, expired_at=now,
                                                         reason=CANCELLED, days=0,
                                                         created_at=match.created_at))

    # --- webhooks (service/webhooks.py) ---------------------------------------------------------

    def due_deliveries(self, now: datetime, limit: int) -> list[Any]:
        """The deliveries whose next attempt is due, the longest waiting first."""
        query = (sa.select(webhook_deliveries).where(webhook_deliveries.c.next_at <= now)
                 .order_by(webhook_deliveries.c.next_at, webhook_deliveries.c.id).limit(limit))
        with self.engine.connect() as conn:
            return list(conn.execute(query))

    def claim_delivery(self, delivery_id: int, attempts: int, until: datetime) -> bool:
        """Take the next attempt of a delivery, unless another sender took it since it was read
        (after `attempts` attempts): due again at `until` should this sender die."""
        table = webhook_deliveries.c
        with self.engine.begin() as conn:
            claimed = conn.execute(webhook_deliveries.update().where(
                table.id == delivery_id, table.attempts == attempts,
                table.next_at.is_not(None)).values(attempts=attempts + 1, next_at=until))
        return claimed.rowcount == 1

    def postpone_deliveries(self, delivery_ids: list[int], until: datetime) -> None:
        """Deliveries due to a receiver that just gave no answer: due at `until` instead (its
        retry), no attempt spent, so that its backlog does not fill every sender's batch."""
        if not delivery_ids:
            return
        table = webhook_deliveries.c
        with self.engine.begin() as conn:
            conn.execute(webhook_deliveries.update().where(
                table.id.in_(delivery_ids), table.next_at.is_not(None),
                table.next_at < until).values(next_at=until))

    def delivery_done(self, delivery_id: int, status: int, now: datetime) -> None:
        self._delivery_result(delivery_id, status, None, now)

    def delivery_failed(self, delivery_id: int, status: int | None, again: datetime | None,
                        now: datetime) -> None:
        """A failed attempt: tried again at `again`, or (None) given up."""
        self._delivery_result(delivery_id, status, again, None if again else now)

    def _delivery_result(self, delivery_id: int, status: int | None, again: datetime | None,
                         done: datetime | None) -> None:
        with self.engine.begin() as conn:
            conn.execute(webhook_deliveries.update().where(
                webhook_deliveries.c.id == delivery_id).values(
                next_at=again, done_at=done, last_status=status))

    def forget_deliveries(self, before: datetime) -> None:
        """Remove the deliveries delivered or given up before `before`."""
        with self.engine.begin() as conn:
            conn.execute(webhook_deliveries.delete().where(
                webhook_deliveries.c.done_at < before))

    def deliveries_of(self, match_id: str) -> list[Any]:
        """A match's deliveries, in the order they were written."""
        query = (sa.select(webhook_deliveries).where(webhook_deliveries.c.match_id == match_id)
                 .order_by(webhook_deliveries.c.id))
        with self.engine.connect() as conn:
            return list(conn.execute(query))

    def due(self, now: datetime, limit: int) -> list[str]:
        """The matches whose clock ran out by `now`, the longest overdue first."""
        query = (sa.select(matches.c.id).where(matches.c.deadline <= now)
                 .order_by(matches.c.deadline).limit(limit))
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def listing(self, game: str, status: str | None, limit: int,
                after: str | None) -> list[Match] | None:
        """A game's listed matches, newest first, `limit` of them after the one `after` names
        (where it stood, if it was cancelled or removed since); None if no match was made by
        that id, or its tombstone does not say when."""
        query = sa.select(matches).where(matches.c.game == game, matches.c.listed.is_(True))
        if status == PLAYING:  # under way: its set-up included
            query = query.where(matches.c.status.in_((SETUP, PLAYING)))
        elif status is not None:
            query = query.where(matches.c.status == status)
        with self.engine.connect() as conn:
            if after is not None:  # the page after that match, in the same order
                then = conn.execute(sa.select(sa.func.coalesce(
                    sa.select(matches.c.created_at).where(matches.c.id == after)
                    .scalar_subquery(),
                    sa.select(expired_matches.c.created_at)
                    .where(expired_matches.c.id == after).scalar_subquery()))).scalar()
                if then is None:
                    return None
                query = query.where(sa.or_(matches.c.created_at < then,
                                           sa.and_(matches.c.created_at == then,
                                                   matches.c.id < after)))
            query = query.order_by(matches.c.created_at.desc(), matches.c.id.desc())
            return [self._match(row) for row in conn.execute(query.limit(limit))]

    def upgrade(self, match: Match, state: dict[str, Any], status: str) -> None:
        """Store a match's state rebuilt under today's rules; its version and log stay as they
        are (if it moved on meanwhile, whoever moved it stored a state of today's rules)."""
        with self.engine.begin() as conn:
            conn.execute(matches.update()
                         .where(matches.c.id == match.id, matches.c.version == match.version)
                         .values(state=json_text(state), status=status))

    def log(self, match_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        query = (sa.select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.events,
                           actions.c.to_act, actions.c.bot, actions.c.clock)
                 .where(actions.c.match_id == match_id, actions.c.seq > after)
                 .order_by(actions.c.seq).limit(limit))
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(query)]

    def expired(self, match_id: str) -> Expired | None:
        """The tombstone of a match that retention removed; None for any other id. Run as a
        match's read is (HotPath): a 404 through SQLAlchemy's execution cost twice a view."""
        hot = self._hot()
        with self._cursor() as cursor:
            row = hot.expired.run(cursor, {"match_id": match_id}).fetchone()
        if row is None:
            return None
        reason, days, expired_at = hot.expired.row(row)
        return Expired(reason, days, expired_at)

    def prune(self, idle_days: int, finished_days: int, batch: int = PRUNE_BATCH) -> Pruned:
        """Remove the unfinished matches idle for `idle_days` (idle_since) and the finished ones
        that ended `finished_days` ago, with their log, each leaving a tombstone; and the
        tombstones older than TOMBSTONE_DAYS. Each batch is one transaction, so a crash leaves
        every match either whole or gone with its log and tombstoned."""
        now = datetime.now(UTC)
        pruned = Pruned()
        for reason, days, since in ((EXPIRED_IDLE, idle_days, idle_since),
                                    (EXPIRED_FINISHED, finished_days, ended_since)):
            expiring = since(now - timedelta(days=days))
            removed = batch
            while removed == batch:
                removed, entries = self._expire(expiring, reason, days, now, batch)
                if reason == EXPIRED_IDLE:
                    pruned.idle += removed
                else:
                    pruned.finished += removed
                pruned.log_entries += entries
        old = (sa.select(expired_matches.c.id)
               .where(expired_matches.c.expired_at < now - timedelta(days=TOMBSTONE_DAYS))
               .limit(batch))
        removed = batch
        while removed == batch:
            with self.engine.begin() as conn:
                removed = conn.execute(
                    expired_matches.delete().where(expired_matches.c.id.in_(old))).rowcount
            pruned.tombstones += removed
        return pruned

    def _expire(self, expiring: sa.ColumnElement[bool], reason: str, days: int,
                now: datetime, batch: int) -> tuple[int, int]:
        """One batch of `expiring` matches tombstoned and removed, with every row referring to
        them; returns how many matches, and how many log entries, went."""
        # The tombstones are written first, and that write locks the chosen matches until the
        # batch commits (FOR UPDATE on PostgreSQL, the whole database on SQLite): a move stored
        # meanwhile waits and then finds the match gone. A match a move (or another prune) has
        # locked already is skipped: touched again, it is no longer idle.
        chosen = (sa.select(matches.c.id, sa.literal(now, sa.DateTime(timezone=True)),
                            sa.literal(reason, sa.String), sa.literal(days, sa.Integer),
                            matches.c.created_at)
                  .where(expiring).limit(batch).with_for_update(skip_locked=True))
        entries = 0
        with self.engine.begin() as conn:
            ids = conn.execute(
                expired_matches.insert()
                .from_select(["id", "expired_at", "reason", "days", "created_at"], chosen)
                .returning(expired_matches.c.id)).scalars().all()
            if ids:
                for table in reversed(metadata.sorted_tables):
                    for key in table.foreign_keys:
                        if key.column.table is matches:
                            gone = conn.execute(table.delete().where(key.parent.in_(ids)))
                            entries += gone.rowcount if table is actions else 0
                conn.execute(matches.delete().where(matches.c.id.in_(ids)))
        return len(ids), entries


def idle_since(cutoff: datetime) -> sa.ColumnElement[bool]:
    """The unfinished matches idle since before `cutoff`: nobody has moved since, and no clock's
    deadline falls after it. A clock allows a turn up to 14 days (API.md "Clocks"), longer than
    the idle days may be: counting idleness from the later of the last move and the deadline
    keeps every match whose clock still runs, and then the idle days more, for its expiry to be
    played and its players to come back. The deadline is read through COALESCE, which no index
    answers, so the query plan stays the one of the last move alone: an OR on the deadline made
    SQLite walk the deadline index's NULLs, which are nearly every match, finished ones too."""
    return sa.and_(matches.c.status != FINISHED, matches.c.updated_at < cutoff,
                   sa.func.coalesce(matches.c.deadline, matches.c.updated_at) < cutoff)


def ended_since(cutoff: datetime) -> sa.ColumnElement[bool]:
    """The finished matches that ended before `cutoff` (nobody moves a finished match)."""
    return sa.and_(matches.c.status == FINISHED, matches.c.updated_at < cutoff)


def json_text(value: Any) -> str:
    """A state, or a JSON column's value, as stored: the json module's compact text (`dumps`),
    written by orjson in a sixth of the time where orjson writes the same, ASCII text; else (a
    name beyond ASCII, which the json module escapes, an integer past 64 bits, which orjson
    refuses) by the json module."""
    try:
        text = orjson.dumps(value)
    except TypeError:
        return dumps(value)
    return text.decode() if text.isascii() else dumps(value)


def json_value(text: str | bytes) -> Any:
    """A stored state, or a JSON column's value (PostgreSQL's driver hands those as bytes), read
    by orjson in a fifth of the json module's time where writing back what it read gives the
    text stored: then both read the same. Else (an integer past 64 bits, which orjson reads as a
    float; a name beyond ASCII, escaped; a column written by the json module's default
    separators) the json module reads it."""
    try:
        value = orjson.loads(text)
        if orjson.dumps(value) == (text if isinstance(text, bytes) else text.encode()):
            return value
    except (orjson.JSONDecodeError, TypeError):
        pass
    return json.loads(text)


class Prepared:
    """A statement compiled once for a dialect and run on a DBAPI cursor itself, each value
    converted by its column's type both ways, as SQLAlchemy's execution converts it, so a value
    is stored and read back exactly as through a Connection. Around its query, SQLAlchemy's
    execution (a Connection, a transaction object, an execution context, events, a Result) cost
    a match's read ten times the query, most of a view's time above /healthz's."""

    def __init__(self, statement: sa.Executable, dialect: sa.Dialect,
                 keys: tuple[str, ...] | None = None) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=keys)
        self.sql = compiled.string
        self.order = compiled.positiontup if compiled.positional else None
        self.binds = [(name, process) for name, bind in compiled.binds.items()
                      if (process := bind.type.dialect_impl(dialect).bind_processor(dialect))]
        columns = statement.selected_columns if isinstance(statement, sa.Select) else ()
        self.results = [column.type.dialect_impl(dialect).result_processor(dialect, None)
                        for column in columns]

    def params(self, values: dict[str, Any]) -> dict[str, Any] | list[Any]:
        for name, process in self.binds:
            values[name] = process(values[name])
        return values if self.order is None else [values[name] for name in self.order]

    def run(self, cursor: Any, values: dict[str, Any]) -> Any:
        cursor.execute(self.sql, self.params(values))
        return cursor

    def run_many(self, cursor: Any, rows: list[dict[str, Any]]) -> None:
        cursor.executemany(self.sql, [self.params(values) for values in rows])

    def row(self, row: tuple[Any, ...]) -> list[Any]:
        return [value if process is None else process(value)
                for process, value in zip(self.results, row, strict=True)]


LOG_KEYS = ("match_id", "seq", "seat", "action", "events", "created_at", "to_act", "bot",
            "clock")
DELIVERY_KEYS = ("match_id", "seq", "event", "url", "secret", "body", "attempts", "next_at",
                 "done_at", "last_status", "created_at")


class HotPath:
    """What every view and action runs, prepared for one dialect: a match read by its id (or,
    for an id no match has, its tombstone), its new version stored over the version it was read
    at (and its seats alone, for presence), its log entries added."""

    def __init__(self, dialect: sa.Dialect) -> None:
        self.dialect = dialect
        self.load = Prepared(sa.select(matches).where(matches.c.id == sa.bindparam("match_id")),
                             dialect)
        self.row = namedtuple("MatchRow", [column.key for column in matches.c])
        self.expired = Prepared(
            sa.select(expired_matches.c.reason, expired_matches.c.days,
                      expired_matches.c.expired_at)
            .where(expired_matches.c.id == sa.bindparam("match_id")), dialect)
        unchanged = matches.update().where(matches.c.id == sa.bindparam("match_id"),
                                           matches.c.version == sa.bindparam("seen_version"))
        self.commit = Prepared(unchanged, dialect, (
            "state", "version", "status", "players", "clock", "deadline", "host_token_hash",
            "updated_at"))
        self.touch = Prepared(unchanged, dialect, ("players",))
        self.log = Prepared(actions.insert(), dialect, LOG_KEYS)
        self.deliveries = Prepared(webhook_deliveries.insert(), dialect, DELIVERY_KEYS)
        self._stored: dict[tuple[int, int, bool], str] = {}

    def stored(self, changed: dict[str, Any], logged: list[dict[str, Any]],
               told: list[dict[str, Any]],
               notice: tuple[str, str] | None) -> tuple[str, dict[str, Any]]:
        """PostgreSQL's whole commit as one statement and its values: the match's UPDATE in a
        CTE whose RETURNING the INSERTs of its log entries and webhook deliveries read, so
        they add rows only where it changed the match, and the notice sent only then. Run
        alone it is one transaction in one round trip, where BEGIN, the UPDATE, the INSERTs,
        the NOTIFY and COMMIT took five. It returns one row, or none when the match was no
        longer at the version it was read at."""
        key = (len(logged), len(told), notice is not None)
        statement = self._stored.get(key)
        if statement is None:
            statement = self._stored[key] = self._statement(*key)
        values = self.commit.params(changed)
        for prefix, prepared, rows in (("entry", self.log, logged),
                                       ("delivery", self.deliveries, told)):
            for i, row in enumerate(rows):
                values.update((f"{prefix}{i}_{name}", value)
                              for name, value in prepared.params(row).items())
        if notice is not None:
            values["channel"], values["notice"] = notice
        return statement, values

    def _statement(self, entries: int, deliveries: int, notice: bool) -> str:
        parts = [f"WITH moved AS ({self.commit.sql} RETURNING matches.id)"]
        for name, prefix, table, keys, count in (
                ("logged", "entry", actions, LOG_KEYS, entries),
                ("told", "delivery", webhook_deliveries, DELIVERY_KEYS, deliveries)):
            if not count:
                continue
            insert = table.insert().inline().compile(dialect=self.dialect, column_keys=keys)
            into, row = insert.string.split(" VALUES ")
            rows = ", ".join(re.sub(r"%\((\w+)\)s", rf"%({prefix}{i}_\1)s", row)
                             for i in range(count))
            parts.append(f"{name} AS ({into} SELECT {prefix}.* FROM moved CROSS JOIN "
                         f"(VALUES {rows}) AS {prefix})")
        answer = "pg_notify(%(channel)s, %(notice)s)" if notice else "1"
        return ", ".join(parts) + f" SELECT {answer} FROM moved"
