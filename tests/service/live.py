"""Matches and their log, as small as the hub and the streams read them, on the app's own engine
(WAL, busy timeout): a move is stored here as the match service stores one, in one transaction
that logs the entry and bumps the version, and announced once committed."""

import json
import secrets
from typing import Any

import sqlalchemy as sa

from service.notify import Hub
from service.store import database_url, make_engine

metadata = sa.MetaData()
matches = sa.Table(
    "matches", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False))
tallies = sa.Table(  # the hub watches shared tallies' versions too
    "tallies", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False))
studies = sa.Table(  # and studies' (service/studies.py)
    "studies", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False))
actions = sa.Table(
    "actions", metadata,
    sa.Column("match_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.JSON, nullable=False),
    sa.Column("events", sa.JSON, nullable=False),
    sa.Column("to_act", sa.JSON))


def engine_for(url: str) -> sa.Engine:
    """An engine of the app's kind on `url`, with the tables the hub reads."""
    engine = make_engine(database_url(url))
    metadata.create_all(engine)
    return engine


def new_match(engine: sa.Engine) -> str:
    match_id = secrets.token_hex(16)
    with engine.begin() as conn:
        conn.execute(matches.insert().values(id=match_id, version=1))
    return match_id


def move(engine: sa.Engine, match_id: str, events: list[dict[str, Any]] = (),
         hub: Hub | None = None) -> int:
    """Seat 0 passes: one log entry at seq = the version it was taken at, the version one up;
    announced through `hub` once committed. Returns the new version."""
    with engine.begin() as conn:
        version = conn.execute(sa.select(matches.c.version)
                               .where(matches.c.id == match_id)).scalar_one()
        conn.execute(actions.insert().values(match_id=match_id, seq=version, seat=0,
                                             action={"type": "pass"}, events=list(events),
                                             to_act=[1]))
        conn.execute(matches.update().where(matches.c.id == match_id)
                     .values(version=version + 1))
    if hub is not None:
        hub.announce(match_id, version + 1)
    return version + 1


def log_reader(engine: sa.Engine):
    """The log as service/streams.py reads it: (match_id, after, limit) → rows in seq order."""

    def read(match_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        query = (sa.select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.events,
                           actions.c.to_act)
                 .where(actions.c.match_id == match_id, actions.c.seq > after)
                 .order_by(actions.c.seq).limit(limit))
        with engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(query)]

    return read


def entry_text(row: dict[str, Any]) -> str:
    """What a stream sends for a row shown as it is."""
    data = {"seq": row["seq"], "version": row["seq"] + 1, "to_act": row["to_act"]}
    return f"id: {row['seq']}\nevent: entry\ndata: {json.dumps(data)}\n\n"
