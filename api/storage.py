"""Match storage: SQLAlchemy Core over an SQLite file (default, under var/) or PostgreSQL
(DATABASE_URL). Applying an action is one transaction that succeeds only if the match still has
the version the client saw, so two workers can never both apply an action to one version."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask, current_app
from sqlalchemy.exc import DBAPIError

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_URL = f"sqlite:///{ROOT / 'var' / 'digsite.db'}"
SQLITE_BUSY_TIMEOUT_MS = 10_000

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
    # Added later (see ADDED_COLUMNS), so NULL in older rows. The seed in decimal: exact at any
    # width on every database, where SQLite would turn a too-large integer into a lossy REAL.
    sa.Column("seed_digits", sa.Text),
    # The creator chose the seed. NULL (older rows) cannot vouch for the seed and counts as true.
    sa.Column("seeded", sa.Boolean),
)
# Columns added to `matches` after its first release: create_all does not alter an existing
# table, so create_schema adds them to older databases.
# Columns added after a table was first made, by table: an older database gains them at start.
ADDED_COLUMNS = {"matches": ("seed_digits", "seeded"), "actions": ("to_act",)}
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
)


class StaleVersion(Exception):
    """The match moved on since the client looked."""


@dataclass
class Match:
    id: str
    game: str
    variant: str
    seed: int
    players: list[dict[str, str]]
    state: dict[str, Any]
    version: int
    status: str
    seeded: bool  # the creator chose the seed

    @property
    def names(self) -> list[str | None]:
        """Seat names in seat order; None for a seat nobody has joined yet."""
        return [p["name"] for p in self.players]

    def seat_of(self, token: str) -> int | None:
        """The seat holding `token`, compared in constant time; None when it is no seat's."""
        digest = hash_token(token)
        seat = None
        for i, player in enumerate(self.players):
            if player["token_hash"] and hmac.compare_digest(digest, player["token_hash"]):
                seat = i
        return seat


def new_match_id() -> str:
    return secrets.token_hex(16)  # 128 random bits


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 random bits


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


def make_engine(url: str) -> sa.Engine:
    if url.startswith("sqlite"):
        path = sa.engine.make_url(url).database
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})

        @sa.event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):
            # Let SQLAlchemy, not the driver, decide when transactions begin.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @sa.event.listens_for(engine, "begin")
        def _sqlite_begin(conn):
            conn.exec_driver_sql("BEGIN")

        return engine
    return sa.create_engine(url, pool_pre_ping=True)


def add_missing_columns(engine: sa.Engine) -> None:
    """Bring a database made by an older release up to date: the columns it lacks, added empty."""
    for table in (matches, actions):
        present = {column["name"] for column in sa.inspect(engine).get_columns(table.name)}
        missing = [table.c[name] for name in ADDED_COLUMNS[table.name] if name not in present]
        with engine.begin() as conn:
            for column in missing:
                conn.exec_driver_sql(f"ALTER TABLE {table.name} ADD COLUMN {column.name} "
                                     f"{column.type.compile(dialect=engine.dialect)}")


def create_schema(engine: sa.Engine, attempts: int = 5) -> None:
    """Create the tables, or add what an older database lacks; several workers may start at
    once, so a lost race (a table or column another worker has just made) is retried."""
    for attempt in range(attempts):
        try:
            metadata.create_all(engine, checkfirst=True)
            add_missing_columns(engine)
            return
        except DBAPIError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.2 * (attempt + 1))


class Storage:
    def __init__(self, url: str | None) -> None:
        self.url = database_url(url)
        self.engine = make_engine(self.url)
        create_schema(self.engine)

    def create(self, game: str, variant: str, seed: int, seeded: bool,
               names: list[str | None], state: dict[str, Any],
               status: str) -> tuple[Match, list[str | None]]:
        """A new match; `seeded`: its creator chose the seed. A seat named None is open: it
        gets its token when a player joins it."""
        tokens = [None if n is None else new_token() for n in names]
        now = datetime.now(UTC)
        match = Match(new_match_id(), game, variant, seed,
                      [{"name": n, "token_hash": t and hash_token(t)}
                       for n, t in zip(names, tokens, strict=True)],
                      state, 1, status, seeded)
        with self.engine.begin() as conn:
            conn.execute(matches.insert().values(
                id=match.id, game=game, variant=variant,
                seed=seed if 0 <= seed <= LEGACY_SEED_MAX else -1, seed_digits=str(seed),
                seeded=seeded, players=match.players, state=dumps(state), version=match.version,
                status=status, created_at=now, updated_at=now))
        return match, tokens

    def load(self, match_id: str) -> Match | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(matches).where(matches.c.id == match_id)).first()
        if row is None:
            return None
        seed = row.seed if row.seed_digits is None else int(row.seed_digits)
        return Match(row.id, row.game, row.variant, seed, row.players, json.loads(row.state),
                     row.version, row.status, row.seeded is not False)

    def record(self, match: Match, seat: int, action: dict[str, Any],
               events: list[dict[str, Any]], state: dict[str, Any], status: str) -> int:
        """Store the new state and the log entry if the match is still at `match.version`."""
        new_version = match.version + 1
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            updated = conn.execute(
                matches.update()
                .where(matches.c.id == match.id, matches.c.version == match.version)
                .values(state=dumps(state), version=new_version, status=status, updated_at=now))
            if updated.rowcount != 1:
                raise StaleVersion
            conn.execute(actions.insert().values(
                match_id=match.id, seq=new_version - 1, seat=seat, action=action, events=events,
                created_at=now, to_act=state.get("to_act")))
        return new_version

    def join(self, match: Match, seat: int, name: str, state: dict[str, Any],
             status: str) -> str:
        """A player takes an open seat, if the match is still at `match.version`; `state` and
        `status` are the match's once seated (set up when the last seat is taken). Returns the
        seat's token."""
        token = new_token()
        players = [dict(p) for p in match.players]
        players[seat] = {"name": name, "token_hash": hash_token(token)}
        with self.engine.begin() as conn:
            updated = conn.execute(
                matches.update()
                .where(matches.c.id == match.id, matches.c.version == match.version)
                .values(players=players, state=dumps(state), status=status,
                        version=match.version + 1, updated_at=datetime.now(UTC)))
            if updated.rowcount != 1:
                raise StaleVersion
        match.players, match.state, match.status = players, state, status
        match.version += 1
        return token

    def upgrade(self, match: Match, state: dict[str, Any], status: str) -> None:
        """Store a match's state rebuilt under today's rules; its version and log stay as they
        are (if it moved on meanwhile, whoever moved it stored a state of today's rules)."""
        with self.engine.begin() as conn:
            conn.execute(matches.update()
                         .where(matches.c.id == match.id, matches.c.version == match.version)
                         .values(state=dumps(state), status=status))

    def log(self, match_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        query = (sa.select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.events,
                           actions.c.to_act)
                 .where(actions.c.match_id == match_id, actions.c.seq > after)
                 .order_by(actions.c.seq).limit(limit))
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(query)]


def init_app(app: Flask) -> None:
    url = app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
    app.extensions["digsite_storage"] = Storage(url)


def storage() -> Storage:
    return current_app.extensions["digsite_storage"]
