"""Match storage on SQLite and on PostgreSQL: a 128-bit seed kept exactly, and a database made
before seeds grew (no seed_digits or seeded column) brought up to date at start-up, even by
several workers starting at once, which migrate it once; a move stored over a version that moved
on stores nothing of it; what JSON columns hold read back exactly (a log entry's clock among
them); a PostgreSQL connection that
broke while idle in the pool is replaced before use."""

import hashlib
import json
import time
from datetime import UTC, datetime

import pytest
import requests
import sqlalchemy as sa

from app import create_app
from scoring.games import GAMES
from service import migrate
from service.settings import read
from service.store import (
    PING_AFTER_IDLE_SECONDS,
    Delivery,
    Entry,
    Match,
    StaleVersion,
    Storage,
    actions,
    database_url,
    make_engine,
    new_match_id,
    webhook_deliveries,
)
from tests.server import serve

GAME = "digging-for-dinos"
WIDE_SEED = 2**128 - 2**70 + 12_345  # its low 64 bits alone would give another deal

# The matches table as the first release made it.
OLD_METADATA = sa.MetaData()
OLD_MATCHES = sa.Table(
    "matches", OLD_METADATA,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("variant", sa.String(40), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("players", sa.JSON, nullable=False),
    sa.Column("state", sa.Text, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
actions.to_metadata(OLD_METADATA)


def new_match(storage: Storage, seed: int, seeded: bool):
    state = {"game": GAME, "status": "playing", "to_act": [0], "rng": 1}
    match = Match(new_match_id(), GAME, "standard", seed,
                  [{"name": n, "token_hash": None} for n in ("Ann", "Bob")], state, 1,
                  "playing", seeded)
    storage.create(match)
    return match


def old_database(url: str) -> str:
    """Make the first release's tables in `url`, holding one match; returns its id."""
    engine = make_engine(database_url(url))
    OLD_METADATA.create_all(engine)
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(OLD_MATCHES.insert().values(
            id="0" * 32, game=GAME, variant="standard", seed=2**63 - 1,
            players=[{"name": "Ann", "token_hash": "x"}, {"name": "Bob", "token_hash": "y"}],
            state=json.dumps(GAMES[GAME].setup(["Ann", "Bob"], 2**63 - 1, "standard")),
            version=1, status="playing", created_at=now,
            updated_at=now))
    engine.dispose()
    return "0" * 32


@pytest.mark.parametrize(("seed", "seeded"), [
    (WIDE_SEED, False), (2**128 - 1, False), (2**64, False), (2**63 - 1, True), (0, True)])
def test_a_seed_of_any_width_is_stored_exactly(database, seed, seeded):
    storage = Storage(database)
    match = new_match(storage, seed, seeded)
    loaded = Storage(database).load(match.id)
    assert type(loaded.seed) is int and loaded.seed == seed and loaded.seeded is seeded
    with storage.engine.connect() as conn:
        row = conn.execute(sa.text("SELECT seed, seed_digits FROM matches")).one()
    # the first release's column keeps the seeds it could hold and says -1 for wider ones
    assert row.seed_digits == str(seed) and row.seed == (seed if seed < 2**63 else -1)


def test_an_older_database_gains_the_new_columns_and_keeps_its_matches(database):
    old_id = old_database(database)
    storage = Storage(database)
    old = storage.load(old_id)
    assert old.seed == 2**63 - 1
    assert old.seeded is True  # nothing says the server drew it, so it cannot vouch
    match = new_match(storage, WIDE_SEED, False)
    assert storage.load(match.id).seed == WIDE_SEED
    columns = {c["name"] for c in sa.inspect(storage.engine).get_columns("matches")}
    assert {"seed", "seed_digits", "seeded"} <= columns
    Storage(database)  # a second start finds nothing to add


def test_workers_starting_at_once_upgrade_an_older_database(database):
    old_id = old_database(database)
    with serve({"DATABASE_URL": database}, workers=4) as server:
        old = requests.get(f"{server.url}/api/v1/matches/{old_id}", timeout=10)
        assert old.status_code == 200 and old.json()["seeded"] is True
        for _ in range(8):  # spread over the workers: every one of them started
            response = requests.post(f"{server.url}/api/v1/games/{GAME}/matches",
                                     json={"players": ["Ann", "Bob"]}, timeout=10)
            assert response.status_code == 201, response.text
            view = response.json()["view"]
            assert view["seeded"] is False and "seed" not in view
            again = requests.get(f"{server.url}/api/v1/matches/{view['id']}", timeout=10).json()
            assert again["seed_sha256"] == view["seed_sha256"]
        assert server.process.poll() is None and len(server.worker_pids()) == 4
    storage = Storage(database)
    with storage.engine.connect() as conn:  # one migration, whichever worker made it
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).all() == [
            (migrate.head(),)]
    seed = storage.load(view["id"]).seed
    assert hashlib.sha256(str(seed).encode()).hexdigest() == view["seed_sha256"]


def test_a_move_over_a_version_that_moved_on_stores_nothing_of_it(database):
    storage = Storage(database)
    match = new_match(storage, 7, True)
    match.webhook = {"url": "https://example.org/hook", "events": ["turn"], "secret": "s" * 32}
    first, late = storage.load(match.id), storage.load(match.id)
    first.webhook = late.webhook = match.webhook
    first.state = {**first.state, "moved": "first"}
    storage.commit(first, [Entry(0, {"type": "first"}, [], [1])], None,
                   [Delivery(1, "turn", "{}")])
    late.state = {**late.state, "moved": "late"}
    with pytest.raises(StaleVersion):
        storage.commit(late, [Entry(1, {"type": "late"}, [], [0]),
                              Entry(0, {"type": "later"}, [], [1])], "digsite_matches",
                       [Delivery(1, "turn", "{}"), Delivery(2, "turn", "{}")])
    stored = storage.load(match.id)
    assert stored.version == 2 and stored.state["moved"] == "first"
    assert [row["action"] for row in storage.log(match.id, 0, 10)] == [{"type": "first"}]
    with storage.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(webhook_deliveries)) \
            .scalar() == 1


def test_json_columns_read_back_exactly(database):
    storage = Storage(database)
    match = new_match(storage, 7, True)
    match.players = [{"name": "Zoë 🦕", "token_hash": None}, {"name": "Bob", "token_hash": None}]
    action = {"type": "bid", "amount": 2**70, "note": "naïve"}
    storage.commit(match, [Entry(0, action, [{"type": "bid", "small": 2**63}], [1, 0])])
    assert storage.load(match.id).players == match.players
    [row] = storage.log(match.id, 0, 10)
    assert row["action"] == action and type(row["action"]["amount"]) is int
    assert row["events"] == [{"type": "bid", "small": 2**63}] and row["to_act"] == [1, 0]


def test_a_connection_broken_while_idle_is_replaced_before_use(postgresql_server):
    storage = Storage(postgresql_server)
    match = new_match(storage, 7, True)
    assert storage.load(match.id) is not None  # its connection is back in the pool
    admin = make_engine(database_url(postgresql_server))
    with admin.connect() as conn:
        conn.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
    admin.dispose()
    time.sleep(PING_AFTER_IDLE_SECONDS + 0.2)
    assert storage.load(match.id).version == 1
    storage.engine.dispose()


@pytest.mark.parametrize(("url", "shown"), [
    ("bogus://x", "bogus://x"),
    ("not a url", "not a url"),
    ("postgresql+psycopg2://digsite:secret@db/digsite",
     "postgresql+psycopg2://digsite:***@db/digsite"),
    ("postgresql://digsite:secret@db:port/digsite", "postgresql://digsite:***@db:port/digsite"),
    # a password holding what ends a host's part elsewhere (/ ? # @), which the drivers take
    ("postgresql+psycopg2://digsite:se/c@r?t#@db/digsite",
     "postgresql+psycopg2://digsite:***@db/digsite"),
])
def test_a_database_url_sqlalchemy_cannot_open_stops_the_app_at_start(url, shown):
    """An unknown dialect or driver stopped it with SQLAlchemy's "Can't load plugin" or
    "No module named", naming no setting. A password is not written out."""
    with pytest.raises(ValueError) as refused:
        create_app({"TESTING": True, "DATABASE_URL": url})
    assert str(refused.value) == (
        f"DATABASE_URL: {shown!r} is no database URL this app can open (an installed "
        "SQLAlchemy dialect and driver): write one such as sqlite:///var/digsite.db or "
        "postgresql+psycopg://user:password@host/digsite.")


@pytest.mark.parametrize("url", ["sqlite:///var/digsite.db", "sqlite://",
                                 "postgres://digsite@db/digsite",
                                 "postgresql+psycopg://digsite:secret@db:5432/digsite"])
def test_the_database_urls_of_sqlite_and_postgresql_are_taken(url):
    assert read({"DATABASE_URL": url}, {}).database_url == url


def test_a_log_entry_keeps_the_clock_it_was_logged_with(database):
    """What a match's streams send with each entry (API.md "Clocks"), stored in the same
    commit as the entry, by SQLite's statements and by PostgreSQL's one statement alike; an
    entry of a match without a clock keeps none (SQL NULL, as in rows logged before)."""
    storage = Storage(database)
    match = new_match(storage, 7, True)
    first = {"deadline": "2026-12-06T12:00:00+00:00", "bank": {"1": 59.9},
             "rule": {"move_seconds": 60}}
    second = {"deadline": "2026-12-06T12:01:00.250000+00:00", "bank": {"0": 12.5, "1": 0.0},
              "rule": {"bank_seconds": 600, "increment_seconds": 5}}
    storage.commit(match, [Entry(0, {"type": "a"}, [], [1], clock=first),
                           Entry(1, {"type": "b"}, [], [0], clock=second)], "digsite_matches")
    storage.commit(match, [Entry(0, {"type": "c"}, [], [1])])
    assert [row["clock"] for row in storage.log(match.id, 0, 10)] == [first, second, None]
    with storage.engine.connect() as conn:
        assert conn.execute(sa.select(actions.c.seq).where(actions.c.clock.is_(None))) \
            .scalars().all() == [3]
