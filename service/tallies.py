"""Shared tallies: one phone enters the end-game scoresheet, the rest of the table (or a TV)
follows it live, read-only, from a link. The server keeps the sheet as last sent and the totals
its own calculator made of it, so what the followers see is never a total the phone worked out
alone. A sheet of null says the table is still entering: no totals yet.

Each change is a new version, announced through the process's Hub like a match's moves (a tally's
id is 128 random bits, as a match's is), so a follower's stream costs its socket while quiet, and
one read of the tally a keep-alive (15 s), to pass on when its writer's phone was last heard."""

from __future__ import annotations

import hmac
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from .errors import WRONG_GAME, Forbidden, NotFound, PreconditionFailed, Unauthorized
from .notify import Hub
from .store import Storage, aware, hash_token, metadata, new_match_id, new_token
from .streams import versions

tallies = sa.Table(
    "tallies", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False),  # the writer's token, hashed
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("sheet", sa.JSON),  # the calculator's request as the writer last sent it
    sa.Column("result", sa.JSON),  # the calculator's answer to it
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    # when the writer's phone was last heard: the sheet sent again unchanged, which a phone that
    # does so sends now and then, and each change after it; null: its phone never did
    sa.Column("heard_at", sa.DateTime(timezone=True)),
    sa.Index("ix_tallies_updated_at", "updated_at"),
)
TALLY_ID = re.compile(r"[0-9a-f]{32}")
NO_SUCH_TALLY = ("There is no shared tally with this id: its writer may have stopped sharing "
                 "it, or it was removed after weeks without a change.")


# A shared tally nobody changed for the finished days (service/settings.py) is removed by the
# prune, as a finished match is.
@dataclass
class Tally:
    id: str
    game: str
    version: int
    sheet: dict[str, Any] | None
    result: dict[str, Any] | None
    updated_at: datetime
    heard_at: datetime | None = None  # None: its writer's phone never said it is there

    def shown(self) -> dict[str, Any]:
        """As GET and PUT answer it: what its version (its ETag) stands for."""
        return {"id": self.id, "game": self.game, "version": self.version,
                "updated_at": self.updated_at.isoformat(timespec="seconds"),
                "sheet": self.sheet, "result": self.result}

    def followed(self) -> dict[str, Any]:
        """As a follower's stream sends it: with when its writer's phone was last heard, which
        moves at the same version (so it is in no answer the version's ETag stands for)."""
        heard = self.heard_at and self.heard_at.isoformat(timespec="seconds")
        return {**self.shown(), "heard_at": heard}


class Tallies:
    def __init__(self, store: Storage, hub: Hub | None) -> None:
        self.engine = store.engine
        self.hub = hub

    def create(self, game: str, sheet: dict | None, result: dict | None) -> tuple[Tally, str]:
        """A new shared tally and its writer's token (shown only here)."""
        token, now = new_token(), datetime.now(UTC)
        tally = Tally(new_match_id(), game, 1, sheet, result, now)
        with self.engine.begin() as conn:
            conn.execute(tallies.insert().values(
                id=tally.id, game=game, token_hash=hash_token(token), version=1, sheet=sheet,
                result=result, created_at=now, updated_at=now))
        return tally, token

    def load(self, tally_id: str) -> Tally:
        row = None
        if TALLY_ID.fullmatch(tally_id):
            with self.engine.connect() as conn:
                row = conn.execute(sa.select(tallies).where(tallies.c.id == tally_id)).first()
        if row is None:
            raise NotFound(NO_SUCH_TALLY)
        return Tally(row.id, row.game, row.version, row.sheet, row.result, aware(row.updated_at),
                     aware(row.heard_at))

    def update(self, tally_id: str, game: str, token: str | None, sheet: dict | None,
               result: dict | None, versions: frozenset[int] | None = None) -> Tally:
        """The writer sends the sheet as it now is: a new version, announced to the followers.
        With `versions` (what If-Match names), only while the tally is at one of them. The sheet
        it holds already, sent again (its totals the same), is no change: the writer's phone is
        heard (`heard_at`, which the followers' streams pass on), at the same version; a change
        after that is heard too. A phone that never sends its sheet again is never judged by
        it (`heard_at` stays null: an earlier page's, or another client's)."""
        with self._writing() as conn:
            row = self._writer(conn, tally_id, game, token)
            now = datetime.now(UTC)
            same = self._heard(conn, row, sheet, result, versions, now)
            if same is not None:
                return same
            changing = tallies.update().where(tallies.c.id == tally_id)
            if versions is not None:  # checked in the write itself: no change slips between
                changing = changing.where(tallies.c.version.in_(versions))
            heard = sa.case((tallies.c.heard_at.is_(None), None), else_=now)
            version, heard_at = conn.execute(
                changing.values(version=tallies.c.version + 1, sheet=sheet, result=result,
                                updated_at=now, heard_at=heard)
                .returning(tallies.c.version, tallies.c.heard_at)).first() or (None, None)
            if version is None:
                now_at = conn.execute(sa.select(tallies.c.version)
                                      .where(tallies.c.id == tally_id)).scalar_one_or_none()
                if now_at is None:  # stopped meanwhile
                    raise NotFound("This shared tally was removed meanwhile.")
                raise PreconditionFailed(f"This tally changed meanwhile (now version {now_at}): "
                                         "reload it and try again.")
        if self.hub is not None:
            self.hub.announce(tally_id, version)
        return Tally(tally_id, game, version, sheet, result, now, aware(heard_at))

    @staticmethod
    def _heard(conn: sa.Connection, row: sa.Row, sheet: dict | None, result: dict | None,
               versions: frozenset[int] | None, now: datetime) -> Tally | None:
        """The tally (as `row` read it), its writer heard now, where it holds `sheet` already,
        with the same totals (a calculator mended since makes it a change), at a version
        `versions` allows; else None, and the sheet is a change. The version read is a
        condition of the write: a change that came between is not taken for this sheet."""
        if row.sheet != sheet or row.result != result or (
                versions is not None and row.version not in versions):
            return None
        touched = conn.execute(tallies.update().where(tallies.c.id == row.id,
                                                       tallies.c.version == row.version)
                               .values(heard_at=now))
        if touched.rowcount != 1:
            return None
        return Tally(row.id, row.game, row.version, row.sheet, row.result,
                     aware(row.updated_at), now)

    @contextmanager
    def _writing(self) -> Iterator[sa.Connection]:
        """A transaction that reads the tally, then writes it: on SQLite it takes the write lock
        as it begins (BEGIN IMMEDIATE), waiting its turn behind another writer. Begun as a read,
        it would fail at once, not wait, where another writer had committed since its read (a
        snapshot SQLite cannot bring forward), and the request answer 503."""
        with self.engine.connect() as conn, \
                conn.execution_options(sqlite_begin="BEGIN IMMEDIATE").begin():
            yield conn

    def written_by(self, tally_id: str, game: str, token: str | None) -> None:
        """Refuses where `token` may not write the tally at `game`'s address, as update
        would: 401 without it or with another, 404 for no such tally, 403 for one of another
        game."""
        with self.engine.connect() as conn:
            self._writer(conn, tally_id, game, token)

    def _writer(self, conn: sa.Connection, tally_id: str, game: str,
                token: str | None) -> sa.Row:
        """The tally's row, where `token` may write it at `game`'s address."""
        if not token:
            raise Unauthorized("Send the tally's token as `Authorization: Bearer <token>`.")
        row = None
        if TALLY_ID.fullmatch(tally_id):
            row = conn.execute(sa.select(tallies).where(tallies.c.id == tally_id)).first()
        if row is None:
            raise NotFound(NO_SUCH_TALLY)
        if not hmac.compare_digest(row.token_hash, hash_token(token)):
            raise Unauthorized("This token is not this tally's.")
        if row.game != game:
            raise Forbidden(f"This tally is of {row.game}, not {game}.", kind=WRONG_GAME)
        return row

    def stop(self, tally_id: str, token: str | None,
             versions: frozenset[int] | None = None) -> None:
        """The writer stops sharing: the tally is removed, and its followers' streams end (their
        next look answers 404). With `versions` (what If-Match names), only while the tally is
        at one of them, as update."""
        if not token:
            raise Unauthorized("Send the tally's token as `Authorization: Bearer <token>`.")
        with self._writing() as conn:
            stored = None
            if TALLY_ID.fullmatch(tally_id):
                stored = conn.execute(sa.select(tallies.c.token_hash, tallies.c.version)
                                      .where(tallies.c.id == tally_id)).first()
            if stored is None:
                raise NotFound(NO_SUCH_TALLY)
            if not hmac.compare_digest(stored.token_hash, hash_token(token)):
                raise Unauthorized("This token is not this tally's.")
            removing = tallies.delete().where(tallies.c.id == tally_id)
            if versions is not None:  # checked in the removal itself, as update's change
                removing = removing.where(tallies.c.version.in_(versions))
            if conn.execute(removing).rowcount != 1:
                raise PreconditionFailed(f"This tally changed meanwhile (now version "
                                         f"{stored.version}): reload it before you stop "
                                         "sharing it.")
        if self.hub is not None:
            self.hub.announce(tally_id, stored.version + 1)

    def events(self, tally_id: str, after: int) -> Iterator[str]:
        """Server-Sent Events: the tally as it is whenever its version is past `after` (at once,
        then at each change), a comment when quiet, or the tally again (at its version) where
        its writer was heard since it was sent; ends when the tally is removed, when the worker
        is shutting down (Hub.leave) or after STREAM_SECONDS (the client resumes with
        Last-Event-ID, the version it has)."""
        return versions(self.hub, tally_id, after, lambda: self.load(tally_id),
                        lambda tally: (f"id: {tally.version}\nevent: tally\ndata: "
                                       f"{json.dumps(tally.followed(), ensure_ascii=False)}\n\n"),
                        again=lambda tally: tally.heard_at)

    def prune(self, days: int) -> int:
        """Remove the shared tallies nobody changed for `days`; how many went."""
        cutoff = datetime.now(UTC) - timedelta(days=days)
        with self.engine.begin() as conn:
            return conn.execute(tallies.delete().where(tallies.c.updated_at < cutoff)).rowcount
