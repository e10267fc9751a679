"""Studies over HTTP as jobs (API.md "Studies (simulation jobs)"): a designer's study (studies/)
asked for by a request, stored, and played by whichever worker claims it, never in the request.

- A study is a row of `studies`: its arms and seed (`spec`), status, progress, the bot time it
  spent, and the claim on it: the worker holding it (`lease_owner`) until `lease_until`.
- Every worker of every app server looks for one to play (`work`, on the worker's loop,
  service/watcher.py `every`): a study queued, or running under a claim that ran out (its
  worker died). The claim is one conditional UPDATE, so exactly one worker wins it.
- The claimant plays it in chunks of match indices, each in one of its niced thinking
  processes (service/offload.py), or on a Dask cluster when DIGSITE_DASK_SCHEDULER is set. A
  chunk's records are stored in one transaction with the study's progress, and only while the
  claim is still this worker's and the study still running: a chunk played by a worker that
  lost its claim, or of a study cancelled meanwhile, is dropped, never stored twice. A match's
  records depend on nothing but the study and its index, so a study taken over goes on after
  the last chunk stored and ends with the very records of an uninterrupted run.
- Between chunks the claimant renews its claim and looks at what the study's people chose: a
  study cancelled stops; one asked to be cancelled when nobody follows it any more is cancelled
  after that many seconds unwatched (an open stream, a look at it, counts as watching);
  the bot time it spends counts against its creator's address's thinking limit (while that is
  spent the study waits, claimed by nobody) and against its own cap.
- A study that ends after some matches (cancelled, unwatched, failed) keeps the statistics and
  the report of those: written by the worker playing it as it sees it end, or, when nobody
  plays it then, by the next worker to look. A summary or report that cannot be made ends the
  study failed, saying so; it is never made again.
- Each change is a new version, announced through the process's Hub (a study's id is 128 random
  bits, like a match's), so its followers' streams cost their sockets while quiet.
"""

from __future__ import annotations

import csv
import hmac
import io
import json
import logging
import os
import re
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import CancelledError
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
import sqlalchemy as sa

from scoring.bots.boxes import BoxError, boxed_by_id
from scoring.boxes import by_name, named_twice
from scoring.engine import Game
from studies.jobs import ClusterUnavailable, play_range, play_range_on, report_page, study_of
from studies.metrics import Tally
from studies.play import NoEnd
from studies.study import Arm, Study, arm_box, played_before, stacked

from .errors import STUDY_NOT_DONE, TOO_MUCH_WORK, Conflict, Invalid, NotFound, Unauthorized
from .notify import Hub, first_line
from .offload import think
from .settings import Settings
from .store import Storage, aware, hash_token, metadata, new_match_id, new_token
from .streams import versions
from .work import SEARCH_BOT, SEARCH_WEIGHT, search_weight, work

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, CANCELLED, FAILED = "queued", "running", "done", "cancelled", "failed"
STATUSES = (QUEUED, RUNNING, DONE, CANCELLED, FAILED)
PLAYABLE = (QUEUED, RUNNING)

studies = sa.Table(
    "studies", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False),  # the creator's token, hashed
    sa.Column("creator", sa.String(64), nullable=False),  # the address its bot time counts to
    # {"game", "seed", "matches", "arms", "rotate_seats" (only when true)}
    sa.Column("spec", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("done", sa.Integer, nullable=False),  # matches stored, indices 0 … done-1
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("bot_seconds", sa.Float, nullable=False),
    sa.Column("bot_seconds_limit", sa.Float, nullable=False),
    # NULL: played to its end whoever follows it; else cancelled after this many seconds
    # nobody watched it.
    sa.Column("cancel_unwatched_after", sa.Integer),
    sa.Column("watched_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("lease_owner", sa.String(80)),
    sa.Column("lease_until", sa.DateTime(timezone=True)),
    # While its creator's thinking budget is spent: nobody claims it before this.
    sa.Column("waiting_until", sa.DateTime(timezone=True)),
    sa.Column("summary", sa.JSON),  # once done: the statistics of every arm
    sa.Column("report", sa.Text),  # once done: the HTML page of charts
    sa.Column("error", sa.Text),  # why it was cancelled or failed, in words
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_studies_status_lease_until", "status", "lease_until"),
    sa.Index("ix_studies_updated_at", "updated_at"),
)
# A chunk's records: the JSON Lines `simulate --out` writes for its match indices.
study_chunks = sa.Table(
    "study_chunks", metadata,
    sa.Column("study_id", sa.String(32), sa.ForeignKey("studies.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("first", sa.Integer, primary_key=True),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("records", sa.Text, nullable=False),
    sa.Column("bot_seconds", sa.Float, nullable=False),
)

STUDY_ID = re.compile(r"[0-9a-f]{32}")
BASE = "base"  # the first arm's label, as `simulate` names it
MAX_CHUNK = 500  # matches a chunk at most: a chunk's records are one row of the database
CHUNK_SECONDS = 2.0  # a chunk's aim in time: a cancel waits no longer, progress moves as often
GROWTH = 4  # a chunk at most this many times the last: the first ones are measured
WATCH_WRITE_SECONDS = 3.0  # a study's watched_at is written at most this often
STREAM_WATCH_SECONDS = 2.0  # an open stream says it still follows its study this often
REPORT_DRAWN_SECONDS = 2  # the Retry-After of a report being drawn: about how long that takes
# The fewest seconds unwatched a creator may allow before a study is cancelled: while a stream
# is open, watched_at is at most STREAM_WATCH_SECONDS + WATCH_WRITE_SECONDS old (5 s), however
# quiet the study (queued, waiting for the budget, a long chunk) and whatever the keep-alives.
SHORTEST_UNWATCHED_SECONDS = 10
CHUNKS_A_READ = 20  # chunks a records download reads at a time
CLAIM_CANDIDATES = 5  # studies a claim tries, oldest first, should others win the first
# How long a chunk waits for the Dask cluster's scheduler to answer, or for a worker to join a
# cluster that has none, before its study is set aside (a cluster that starts workers for its
# tasks has that long to start one), and how long it is set aside before it is tried again.
CLUSTER_PATIENCE_SECONDS = 30.0
CLUSTER_RETRY_SECONDS = 30


@dataclass
class StudyRow:
    id: str
    game: str
    spec: dict[str, Any]
    status: str
    version: int
    done: int
    total: int
    bot_seconds: float
    bot_seconds_limit: float
    cancel_unwatched_after: int | None
    waiting_until: datetime | None
    summary: dict[str, Any] | None
    error: str | None
    created_at: datetime
    updated_at: datetime
    # Ended with matches played and its summary and report not yet written (Studies._end):
    # a claim is kept for whoever writes them.
    summing_up: bool = False

    def shown(self, summary: bool = True) -> dict[str, Any]:
        """The study as GET answers it; without its summary as its stream tells each change.
        A wait that has passed is not shown: the study is queued for the next worker free to
        take it up (the time stays written until one does)."""
        seed = int(self.spec["seed"])
        waiting = self.waiting_until is not None and self.waiting_until > datetime.now(UTC)
        shown = {"id": self.id, "game": self.game, "status": self.status,
                 "progress": {"done": self.done, "total": self.total},
                 "bot_time": {"seconds": round(self.bot_seconds, 3),
                              "limit": self.bot_seconds_limit},
                 "waiting_until": self.waiting_until.isoformat(timespec="seconds")
                 if waiting else None,
                 "error": self.error, "seed": seed, "seed_text": str(seed),
                 "matches": self.spec["matches"],
                 "rotate_seats": bool(self.spec.get("rotate_seats")),
                 "arms": [{"label": arm["label"], "variant": arm["variant"],
                           "players": arm["bots"], "box": arm["box"],
                           "budget": arm["budget"] if arm["search"] else None}
                          for arm in study_of(self.spec).describe()["arms"]],
                 "cancel_unwatched_after": self.cancel_unwatched_after,
                 "created_at": self.created_at.isoformat(timespec="seconds"),
                 "updated_at": self.updated_at.isoformat(timespec="seconds")}
        if summary and self.summary is not None:
            shown["summary"] = self.summary
        return shown


def _row(row: Any) -> StudyRow:
    return StudyRow(row.id, row.game, row.spec, row.status, row.version, row.done, row.total,
                    row.bot_seconds, row.bot_seconds_limit, row.cancel_unwatched_after,
                    aware(row.waiting_until), row.summary, row.error, aware(row.created_at),
                    aware(row.updated_at),
                    row.status not in PLAYABLE and row.lease_until is not None)


SHOWN_COLUMNS = [studies.c[name] for name in (
    "id", "game", "spec", "status", "version", "done", "total", "bot_seconds",
    "bot_seconds_limit", "cancel_unwatched_after", "waiting_until", "summary", "error",
    "created_at", "updated_at", "lease_until")]


# --- what a request asks for, as a study -----------------------------------------------------

def label(change: dict[str, Any]) -> str:
    """A compared arm's label as `simulate --compare` writes its settings: 'bots=a,b',
    'variant=v' and each box constant 'NAME=<JSON>' by the box's own name (as the arm's `box`
    shows it, however the body spelled it), joined by ';'."""
    parts = []
    if "players" in change:
        parts.append("bots=" + ",".join(change["players"]))
    if "variant" in change:
        parts.append(f"variant={change['variant']}")
    if "playouts" in change:
        parts.append(f"playouts={change['playouts']}")
    for name, value in by_name(change.get("box") or {}).items():
        parts.append(f"{name}={json.dumps(value, separators=(',', ':'))}")
    return ";".join(parts)


def budget_of(asked: dict[str, Any], otherwise: dict[str, Any]) -> dict[str, Any]:
    """The search budget an arm (the body, or one of its `compare`) asks for, else `otherwise`:
    the first arm's, or none (the game's own)."""
    return {"playouts": asked["playouts"]} if "playouts" in asked else dict(otherwise)


def arms_of(game: Game, body: dict[str, Any]) -> tuple[Arm, ...]:
    """The arms a creation body asks for: the base, then each of `compare` changing its bots,
    variant or box (a box merged over the base's, studies/study.py `stacked`). Invalid naming the
    field when a table the game does not have is asked for, or two arms are the same."""
    # A constant named twice in two cases is refused; the others are merged by the box's own
    # names, so that an arm changing "hand_limit" over the first's "HAND_LIMIT" changes it.
    asked = [("box", body.get("box"))] + [(f"compare.{number}.box", change.get("box"))
                                          for number, change in enumerate(body.get("compare", []))]
    twice = {where: named_twice(box) for where, box in asked if box and named_twice(box)}
    if twice:
        raise Invalid(next(iter(twice.values()))[0], twice)
    base = Arm(BASE, body["variant"], tuple(body["players"]), budget_of(body, {}),
               by_name(body.get("box") or {}) or None)
    arms = [base]
    for number, change in enumerate(body.get("compare", [])):
        arms.append(Arm(label(change) or f"arm {number + 1}",
                        change.get("variant", base.variant),
                        tuple(change.get("players", base.bots)), budget_of(change, base.budget),
                        stacked(game, base.box, change.get("box"))))
    errors: dict[str, list[str]] = {}
    alike = played_before(game, arms)
    for number, (arm, asked) in enumerate(zip(arms, [body, *body.get("compare", [])],
                                              strict=True)):
        where = "players" if number == 0 else f"compare.{number - 1}"
        if "playouts" in asked and SEARCH_BOT not in arm.bots:
            # a budget where no seat searches changes nothing, as `simulate` refuses it
            errors["playouts" if number == 0 else f"{where}.playouts"] = [
                f"A search budget changes nothing where no seat plays the search bot: add "
                f"{SEARCH_BOT} to {'its' if number else 'the'} players."]
            continue
        # The arm's tables are its box's: a box that changes a variant's players may leave
        # out the table the study seats (one whose box does not fit is refused by its box).
        try:
            box = arm_box(game, arm)
        except BoxError:
            box = game.box
        if (arm.variant, arm.seats) not in box.tables():
            low, high = box.VARIANTS[arm.variant]["players"]
            errors.setdefault(where, []).append(
                f"{game.name} ({arm.variant}) is for {low} to {high} players, not {arm.seats}.")
        elif arm.seats != base.seats:
            errors.setdefault(where, []).append(
                f"Every arm seats as many players as the first ({base.seats}), to compare them "
                f"seat by seat; this one seats {arm.seats}.")
        elif number in alike:
            # why: a box change of a printed value, a players' list filled out as seated…
            earlier = alike[number]
            name = f"arm {earlier}" if earlier else "the first arm"
            errors.setdefault(where, []).append(
                f"This arm plays as {name} does ({', '.join(arm.bots)} in {arm.variant}, and "
                "the same box: a constant set to the value it has already changes nothing): "
                "change its players, variant, playouts or box.")
    if errors:
        raise Invalid(next(iter(errors.values()))[0], errors)
    return tuple(arms)


def box_problems(game_id: str, boxes: list[tuple[str, dict[str, Any]]]) -> dict[str, list[str]]:
    """Each box's problems (BoxError's, naming each constant at fault), by the field that asked
    for it: the game is built from the box and played once at every table. Bots' work: it runs
    in a thinking process."""
    problems = {}
    for where, box in boxes:
        try:
            boxed_by_id(game_id, box)
        except BoxError as exc:
            problems[where] = exc.problems
    return problems


# --- the service -----------------------------------------------------------------------------

class Studies:
    """The studies of one database: created and read by requests, played by the workers."""

    def __init__(self, store: Storage, hub: Hub | None, config: Settings,
                 thinking: Any = None) -> None:
        self.engine = store.engine
        self.hub = hub
        self.limit = config.digsite_study_limit
        self.seconds = config.digsite_study_seconds
        self.lease = config.digsite_study_lease_seconds
        self.scheduler = config.digsite_dask_scheduler
        # api/limits.py's Thinking (None: no thinking limit): `wait(*keys)` and
        # `spend(seconds, *keys)` of an address's CPU seconds.
        self.thinking = thinking
        self._token = secrets.token_hex(4)
        # Set when the worker is told to stop (leave): it claims nothing more, and lets go of
        # the study it plays once the chunk in play is stored.
        self.leaving = False

    @property
    def owner(self) -> str:
        """This worker as a claim names it: host, process (a test kills it by this), and a
        number of its own, should a process id come round again."""
        return f"{socket.gethostname()[:40]}:{os.getpid()}:{self._token}"

    # --- requests ----------------------------------------------------------------------------

    def create(self, game: Game, body: dict[str, Any], creator: str,
               seed: int) -> tuple[StudyRow, str]:
        """A new queued study and its creator's token (shown only here). Refused before
        anything is stored: Invalid for a table or box the game cannot play or a study above
        the work limit; TooBusy while the creator's bot time is spent."""
        arms = arms_of(game, body)
        # a search seat weighs as its playouts do against the game's own
        asked = sum(work(body["matches"], list(arm.bots), search_weight(game, arm.budget))
                    for arm in arms)
        if asked > self.limit:
            message = (f"A study may ask for {self.limit} seat-matches of work (matches × "
                       f"players × arms, a {SEARCH_BOT} seat counting {SEARCH_WEIGHT} at the "
                       f"game's own playouts, in proportion to others); this one is {asked}. "
                       f"Play fewer matches or arms, or run it on your own machine "
                       "with Digsite's `simulate` command (README).")
            raise Invalid(message, {"matches": [message]}, TOO_MUCH_WORK)
        boxes = [("box" if number == 0 else f"compare.{number - 1}.box", arm.box)
                 for number, arm in enumerate(arms) if arm.box is not None]
        problems = think(box_problems, game.id, boxes) if boxes else {}
        if problems:
            errors = {where: said for where, said in problems.items()}
            raise Invalid(next(iter(errors.values()))[0], errors)
        study = Study(game.id, seed, body["matches"], arms, rotate=body["rotate_seats"])
        # Each arm's search budget as it plays now (the game's, where none is given): a study
        # taken up again after a release that changed the game's plays as it began.
        spec = {"game": game.id, "seed": str(seed), "matches": study.matches,
                "arms": [{"label": arm.label, "variant": arm.variant, "bots": list(arm.bots),
                          "budget": arm.describe(game)["budget"], "box": arm.box}
                         for arm in arms]}
        if study.rotate:  # a study stored before it could rotate has no such key
            spec["rotate_seats"] = True
        token, now = new_token(), datetime.now(UTC)
        values = {"id": new_match_id(), "game": game.id, "token_hash": hash_token(token),
                  "creator": creator[:64], "spec": spec, "status": QUEUED, "version": 1,
                  "done": 0, "total": study.matches, "bot_seconds": 0.0,
                  "bot_seconds_limit": float(self.seconds),
                  "cancel_unwatched_after": body.get("cancel_unwatched_after"),
                  "watched_at": now, "created_at": now, "updated_at": now}
        with self.engine.begin() as conn:
            conn.execute(studies.insert().values(**values))
        return self.load(values["id"]), token

    def load(self, study_id: str) -> StudyRow:
        row = None
        if STUDY_ID.fullmatch(study_id):
            with self.engine.connect() as conn:
                row = conn.execute(sa.select(*SHOWN_COLUMNS)
                                   .where(studies.c.id == study_id)).first()
        if row is None:
            raise NotFound("There is no study with this id.")
        return _row(row)

    def watched(self, study_id: str) -> None:
        """Someone follows the study now (a look, an open stream every STREAM_WATCH_SECONDS):
        written at most every WATCH_WRITE_SECONDS, for the studies to cancel when nobody does
        any more. One conditional UPDATE, of one row by its key."""
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            conn.execute(studies.update().where(
                studies.c.id == study_id,
                studies.c.watched_at < now - timedelta(seconds=WATCH_WRITE_SECONDS),
            ).values(watched_at=now))

    def cancel(self, study_id: str, token: str | None) -> StudyRow:
        """With the creator's token: a study queued or running is cancelled now (a chunk in
        play is dropped, and nothing more is played); one that has ended stays as it is."""
        if not token:
            raise Unauthorized("Send the study's token (from the answer that created it) as "
                               "`Authorization: Bearer <token>`.")
        self.load(study_id)
        with self.engine.begin() as conn:
            stored = conn.execute(sa.select(studies.c.token_hash)
                                  .where(studies.c.id == study_id)).scalar_one()
            if not hmac.compare_digest(stored, hash_token(token)):
                raise Unauthorized("This token is not this study's.")
        return self.stop(study_id, "Cancelled by its creator.")[0]

    def stop(self, study_id: str, why: str) -> tuple[StudyRow, bool]:
        """A study queued or running cancelled now for `why`, with no token: its creator's
        cancel, once the token is judged, or the server's operator's (`flask studies cancel`),
        for a study whose token was lost. One that has ended stays as it is. The study, and
        whether this cancelled it."""
        self.load(study_id)  # NotFound
        cancelled = self._end(study_id, CANCELLED, why, mine=False)
        return self.load(study_id), cancelled

    def report(self, study_id: str) -> str:
        """The HTML page of a done study, or of one that ended with matches played (its
        summary says so); Conflict while there is none."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(studies.c.status, studies.c.report, studies.c.done,
                                         studies.c.lease_until)
                               .where(studies.c.id == study_id)).first()
        if row is None:
            self.load(study_id)  # NotFound, said as a study's
        if row.report is None:
            retry_after = None
            if row.status in PLAYABLE:
                said = "its report is drawn once it is done"
            elif row.done == 0:
                said = "it ended before any match was played, so there is nothing to report"
            elif row.lease_until is not None:
                said = (f"the report of its {row.done} matches played is being drawn; ask "
                        "again in a moment")
                retry_after = REPORT_DRAWN_SECONDS
            else:
                said = "its report could not be drawn, as its `error` says"
            state = {"failed": "failed", "cancelled": "was cancelled"}.get(row.status,
                                                                          f"is {row.status}")
            refused = Conflict(f"The study {state}: {said}.", kind=STUDY_NOT_DONE)
            refused.retry_after = retry_after
            raise refused
        return row.report

    def records(self, study_id: str, kind: str) -> Iterator[bytes]:
        """The records stored so far, as JSON Lines ("jsonl") or CSV ("csv"), read a few chunks
        at a time: the bytes `simulate --out` writes for the same study."""
        study = self.load(study_id)
        rows_per_match = len(study.spec["arms"]) * len(study.spec["arms"][0]["bots"])
        columns: list[str] | None = None
        after = -1
        while True:
            with self.engine.connect() as conn:
                chunks = conn.execute(
                    sa.select(study_chunks.c.first, study_chunks.c.records)
                    .where(study_chunks.c.study_id == study_id, study_chunks.c.first > after)
                    .order_by(study_chunks.c.first).limit(CHUNKS_A_READ)).all()
            if not chunks:
                return
            for first, text in chunks:
                after = first
                if kind == "jsonl":
                    yield text.encode()
                    continue
                out = io.StringIO()
                writer = csv.writer(out, lineterminator="\n")
                rows = [orjson.loads(line) for line in text.splitlines()]
                if columns is None:
                    # As records.Writer: the columns of the first match's rows.
                    columns = list(dict.fromkeys(key for row in rows[:rows_per_match]
                                                 for key in row))
                    writer.writerow(columns)
                for row in rows:
                    writer.writerow(["" if row.get(c) is None else row[c] for c in columns])
                yield out.getvalue().encode()

    def events(self, study_id: str, after: int) -> Iterator[str]:
        """Server-Sent Events: `progress` with the study (but its summary) whenever its
        version is past `after` (at once, then at each chunk and change), a comment when quiet;
        ends once the study has ended and its summary is written (or could not be: the version
        that says so is sent), when the worker is shutting down (Hub.leave) or after
        STREAM_SECONDS (the client resumes with Last-Event-ID, the version it has). An open
        stream counts as watching the study."""
        return versions(self.hub, study_id, after, lambda: self.load(study_id),
                        lambda study: (f"id: {study.version}\nevent: progress\n"
                                       f"data: {json.dumps(study.shown(summary=False))}\n\n"),
                        ended=lambda study: study.status not in PLAYABLE
                        and not study.summing_up,
                        watched=lambda: self.watched(study_id),
                        watch_every=STREAM_WATCH_SECONDS)

    # --- the workers ---------------------------------------------------------------------------

    def work(self) -> None:
        """One turn of a worker's loop: claim the studies there are to play, one at a time,
        and play each until it ends or must stop."""
        while not self.leaving:
            owed = self.claim_summing_up()
            if owed is not None:
                self.sum_up(owed)
                continue
            claimed = self.claim()
            if claimed is None:
                return
            self.play(claimed)

    def leave(self) -> None:
        """The worker is shutting down (SIGTERM): another worker takes its study over at once,
        rather than once the claim runs out."""
        self.leaving = True

    def claim(self) -> StudyRow | None:
        """A study to play, claimed for this worker until now + lease: the oldest queued one, or
        one running whose claim ran out (its worker died) and that is not waiting for its
        creator's budget. One conditional UPDATE: of any number of workers asking at once,
        one gets it."""
        now = datetime.now(UTC)
        free = sa.and_(studies.c.status.in_(PLAYABLE),
                       sa.or_(studies.c.lease_until.is_(None), studies.c.lease_until < now),
                       sa.or_(studies.c.waiting_until.is_(None), studies.c.waiting_until <= now))
        won = self._claim(free, studies.c.created_at, status=RUNNING, waiting_until=None,
                          version=studies.c.version + 1, updated_at=now)
        if won is None:
            return None
        study_id, version = won
        self._announce(study_id, version)
        return self.load(study_id)

    def claim_summing_up(self) -> StudyRow | None:
        """A study that ended with matches stored and whose summing up nobody holds, claimed
        for this worker until now + lease: one cancelled once its worker handed it over, while
        it waited for its creator's budget or while the worker holding it was dead (its claim
        ran out). An ended study keeps a claim (`lease_until`) until its summary and report are
        written, or could not be (`_end`, `_sum_up`)."""
        now = datetime.now(UTC)
        owed = sa.and_(studies.c.status.in_((CANCELLED, FAILED)),
                       studies.c.lease_until.is_not(None), studies.c.lease_until < now)
        won = self._claim(owed, studies.c.updated_at)
        return None if won is None else self.load(won[0])

    def _claim(self, condition: Any, order: Any, **values: Any) -> tuple[str, int] | None:
        """The first study meeting `condition` (in `order`, among the first few) that this
        worker's conditional UPDATE wins, claimed until now + lease with `values` set: its id
        and version. Of any number of workers asking at once, one wins each study."""
        with self.engine.connect() as conn:
            candidates = conn.execute(sa.select(studies.c.id).where(condition).order_by(order)
                                      .limit(CLAIM_CANDIDATES)).scalars().all()
        for study_id in candidates:
            with self.engine.begin() as conn:
                version = conn.execute(
                    studies.update().where(studies.c.id == study_id, condition)
                    .values(lease_owner=self.owner,
                            lease_until=datetime.now(UTC) + timedelta(seconds=self.lease),
                            **values)
                    .returning(studies.c.version)).scalar_one_or_none()
            if version is not None:
                return study_id, version
        return None

    def sum_up(self, ended: StudyRow) -> None:
        """Sum up a study claimed by `claim_summing_up`: the statistics and the report of the
        matches stored, as the worker playing it writes them when it sees it end. Drawn here,
        by a worker, rather than in the request that cancelled it: it reads every record and
        draws for a second of a core."""
        study = study_of(ended.spec)
        tally = Tally(len(study.arms), study.seats)
        for rows in self._stored_matches(ended.id, study.rows_per_match):
            tally.add(rows)
        self._sum_up(ended.id, study, tally, tally.matches)
        # Should its records not be those its progress counts (none are left), the claim is
        # given up all the same, or every worker would take it again, for ever.
        with self.engine.begin() as conn:
            conn.execute(studies.update().where(
                studies.c.id == ended.id, studies.c.status.in_((CANCELLED, FAILED)),
                studies.c.lease_owner == self.owner).values(lease_owner=None, lease_until=None))

    def play(self, claimed: StudyRow) -> None:
        """Play a claimed study on from its last stored chunk, chunk by chunk, until it is done,
        or it is cancelled, taken over, unwatched too long, out of bot time or waiting for its
        creator's budget."""
        study_id, spec = claimed.id, claimed.spec
        study = study_of(spec)
        tally = Tally(len(study.arms), study.seats)
        for rows in self._stored_matches(study_id, study.rows_per_match):
            tally.add(rows)
        done, size = claimed.done, 1
        aim = min(CHUNK_SECONDS, self.lease / 4)
        while done < claimed.total:
            if not self._may_go_on(study_id):
                break
            count = min(size, claimed.total - done)
            started = time.monotonic()
            played = self._play(study_id, spec, done, count)
            if played is None:
                break
            lines, seconds = played
            stored = self._store(study_id, done, count, lines, seconds)
            if stored is None:
                break  # cancelled, or another worker holds it now: this chunk is dropped
            if self.leaving:
                self._let_go(study_id)
                return
            rows = [orjson.loads(line) for line in lines.splitlines()]
            for i in range(0, len(rows), study.rows_per_match):
                tally.add(rows[i:i + study.rows_per_match])
            done += count
            if self.thinking is not None:
                self.thinking.spend(seconds, ("address", stored["creator"]))
            if stored["bot_seconds"] >= stored["bot_seconds_limit"] and done < claimed.total:
                self._end(study_id, FAILED,
                          f"The study's bots used its {stored['bot_seconds_limit']:g} s of "
                          f"bot time after {done} of {claimed.total} matches; the records of "
                          "those are kept.")
                break
            per_match = max(time.monotonic() - started, 1e-3) / count
            size = max(1, min(MAX_CHUNK, count * GROWTH, int(aim / per_match)))
        else:
            summary, page, failure = self._summed(study_id, study, tally, done,
                                                  self._ended_as(study_id, DONE))
            if failure is None:
                self._finish(study_id, summary, page)
            else:
                self._finish(study_id, summary, None,
                             f"The study's {done} matches were played, but {failure}; its "
                             "records are kept.")
            return
        self._sum_up(study_id, study, tally, done)

    def _ended_as(self, study_id: str, status: str | None = None,
                  *condition: Any) -> dict[str, Any] | None:
        """How the study ended, as its report tells it (report_page's `status`, `error`,
        `started` and `updated`): as stored (`status`: as it is about to be), its start its
        creation and its last change the one that ended it; None if there is no such study
        (meeting `condition`, where given)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(studies.c.status, studies.c.error,
                                         studies.c.created_at, studies.c.updated_at)
                               .where(studies.c.id == study_id, *condition)).first()
        if row is None:
            return None
        return {"status": status or row.status, "error": None if status else row.error,
                "started": aware(row.created_at).isoformat(timespec="seconds"),
                "updated": aware(row.updated_at).isoformat(timespec="seconds")}

    def _summed(self, study_id: str, study: Study, tally: Tally, done: int,
                ended: dict[str, Any] | None) -> tuple[dict[str, Any] | None, str | None,
                                                       str | None]:
        """The statistics and the report page of the `done` matches counted in `tally`, the
        page telling how the study `ended` (`_ended_as`), and what could not be made, in
        words (None: both were). A failure here is the study's
        (a bug, or what its people wrote), the same for every worker: the study ends failed
        with what was made, rather than being played or summed up again by each worker that
        looks, for ever."""
        summary = None
        try:
            summary = tally.summary(study.describe()["arms"])
            page = think(report_page, summary, study.describe(), done, *(
                (ended["status"], ended["error"], ended["started"], ended["updated"])
                if ended is not None else ()))
        except Exception as exc:
            what = ("its statistics could not be summed up" if summary is None else
                    "its report could not be drawn")
            log.exception("study %s: %s", study_id, what)
            return summary, None, f"{what} ({first_line(exc)})"
        return summary, page, None

    def _sum_up(self, study_id: str, study: Study, tally: Tally, done: int) -> None:
        """A study that ended before its last match (cancelled, unwatched, out of bot time or
        failed) keeps the statistics and the report of the `done` matches it had stored, all
        counted in `tally`, and its claim is given up. Nothing is written if it did not end
        (set aside for its creator's budget, or taken over), or was summed up already. Should
        they not be made, it ends failed, saying why after why it ended."""
        if done == 0:
            return
        condition = [studies.c.id == study_id, studies.c.status.in_((CANCELLED, FAILED)),
                     studies.c.done == done, studies.c.summary.is_(None),
                     studies.c.lease_until.is_not(None)]
        ended = self._ended_as(study_id, None, *condition)
        if ended is None:
            return
        summary, page, failure = self._summed(study_id, study, tally, done, ended)
        values: dict[str, Any] = {"summary": summary, "report": page}
        if failure is not None:
            values.update(status=FAILED,
                          error=f"{ended['error'] or ''} Then {failure}.".lstrip())
        with self.engine.begin() as conn:
            version = conn.execute(
                studies.update().where(*condition)
                .values(**values, lease_owner=None, lease_until=None,
                        version=studies.c.version + 1, updated_at=datetime.now(UTC))
                .returning(studies.c.version)).scalar_one_or_none()
        if version is not None:
            self._announce(study_id, version)

    def _may_go_on(self, study_id: str) -> bool:
        """Before a chunk: whether the study is still this worker's to play, and still wanted;
        if nobody watched it for longer than its creator allowed, it is cancelled here, and
        while its creator's bot time is spent it is put aside until it is not."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(
                studies.c.status, studies.c.lease_owner, studies.c.watched_at,
                studies.c.cancel_unwatched_after, studies.c.creator)
                .where(studies.c.id == study_id)).first()
        if row is None or row.status != RUNNING or row.lease_owner != self.owner:
            return False
        now = datetime.now(UTC)
        unwatched = now - aware(row.watched_at)
        if row.cancel_unwatched_after is not None and \
                unwatched > timedelta(seconds=row.cancel_unwatched_after):
            self._end(study_id, CANCELLED,
                      f"Nobody followed the study for {int(unwatched.total_seconds())} s, "
                      f"above the {row.cancel_unwatched_after} s its creator allowed.")
            return False
        waited = self._budget_wait(row.creator)
        if waited is not None:  # said: it read "queued", its `error` null, with no reason
            self._set_aside(study_id, waited,
                            "Waiting for its creator's thinking budget: the bots' time its "
                            "creator's address may spend (DIGSITE_THINKING_LIMIT) is spent for "
                            "now. Nothing played is lost: it goes on once the budget comes "
                            "back (`waiting_until`).")
            return False
        return True

    def _set_aside(self, study_id: str, seconds: float, why: str | None = None) -> None:
        """The study waits `seconds`, claimed by nobody, for its creator's budget or for the
        Dask cluster (`why`, its `error` until a chunk is stored again). It is queued again,
        not running: nothing plays it, and the next worker to take it up after
        `waiting_until` goes on from the last chunk stored."""
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            version = conn.execute(
                studies.update().where(studies.c.id == study_id, studies.c.status == RUNNING,
                                       studies.c.lease_owner == self.owner)
                .values(status=QUEUED, lease_owner=None, lease_until=None,
                        waiting_until=now + timedelta(seconds=seconds), error=why,
                        version=studies.c.version + 1, updated_at=now)
                .returning(studies.c.version)).scalar_one_or_none()
        if version is not None:
            self._announce(study_id, version)

    def _budget_wait(self, creator: str) -> int | None:
        if self.thinking is None:
            return None
        refused = self.thinking.wait(("address", creator))
        return None if refused is None else refused[0]

    def _play(self, study_id: str, spec: dict[str, Any], first: int,
              count: int) -> tuple[str, float] | None:
        """A chunk's records (JSON Lines) and bot seconds, played in a thinking process or on
        Dask. A chunk whose matches cannot be played (a bug, never an outage) fails the study,
        since every worker would fail it alike; a thinking process or a cluster gone away only
        leaves the claim to run out. A cluster whose scheduler does not answer, or that has no
        worker, sets the study aside for a while, saying so: it waited claimed, unsaid, for as
        long as the cluster was out."""
        try:
            with self._holding(study_id):
                if self.scheduler is not None:
                    lines, seconds = think(play_range_on, self.scheduler, spec, first, count,
                                           CLUSTER_PATIENCE_SECONDS)
                else:
                    lines, seconds = think(play_range, spec, first, count)
        except ClusterUnavailable as exc:
            log.warning("study %s: the Dask cluster at %s cannot play it now: %s (%s)",
                        study_id, self.scheduler, exc, exc.detail)
            self._set_aside(study_id, CLUSTER_RETRY_SECONDS,
                            f"Waiting for the Dask cluster that plays the studies: {exc}. "
                            "Nothing played is lost: it is tried again after `waiting_until`, "
                            "and goes on once the cluster plays again.")
            return None
        except (BrokenProcessPool, OSError, TimeoutError, CancelledError):
            raise  # an outage; Dask cancels what a scheduler it lost held (CancelledError)
        except Exception as exc:
            if isinstance(exc, NoEnd):  # the study's box, not the server: no traceback
                log.warning("study %s: %s", study_id, exc)
            else:
                log.exception("study %s: matches %d to %d could not be played", study_id, first,
                              first + count - 1)
            which = f"Match {first}" if count == 1 else \
                f"Matches {first} to {first + count - 1}"
            # a match its bots never end is named by its own words ("In the arm base, match 0:
            # …"), not twice
            self._end(study_id, FAILED, str(exc) if isinstance(exc, NoEnd) else
                      f"{which} could not be played: {type(exc).__name__}: {exc}")
            return None
        return lines.decode(), seconds

    @contextmanager
    def _holding(self, study_id: str) -> Iterator[None]:
        """While the block plays a chunk, the claim is renewed every third of the lease: a
        chunk that takes longer than the lease (niced processes on a busy machine, a long match
        of search bots) is not taken over, and played again, while this worker still plays it."""
        stop = threading.Event()

        def renew() -> None:
            while not stop.wait(self.lease / 3):
                try:
                    with self.engine.begin() as conn:
                        conn.execute(studies.update().where(
                            studies.c.id == study_id, studies.c.status == RUNNING,
                            studies.c.lease_owner == self.owner,
                        ).values(lease_until=datetime.now(UTC) + timedelta(seconds=self.lease)))
                except Exception as exc:  # noqa: BLE001  (an outage: the claim may run out)
                    log.warning("study %s: its claim could not be renewed: %s", study_id,
                                first_line(exc))

        renewing = threading.Thread(target=renew, name="digsite-study-claim", daemon=True)
        renewing.start()
        try:
            yield
        finally:
            stop.set()
            renewing.join()

    def _store(self, study_id: str, first: int, count: int, lines: str,
               seconds: float) -> dict[str, Any] | None:
        """A chunk's records and the study's progress, in one transaction, while the claim is
        this worker's and the study is running (else nothing is stored: None); the claim is
        renewed with it, and a wait for the Dask cluster is over (its `error` is cleared)."""
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            stored = conn.execute(
                studies.update().where(studies.c.id == study_id, studies.c.status == RUNNING,
                                       studies.c.lease_owner == self.owner,
                                       studies.c.done == first)
                .values(done=first + count, bot_seconds=studies.c.bot_seconds + seconds,
                        lease_until=now + timedelta(seconds=self.lease), error=None,
                        version=studies.c.version + 1, updated_at=now)
                .returning(studies.c.version, studies.c.bot_seconds,
                           studies.c.bot_seconds_limit, studies.c.creator)).first()
            if stored is None:
                return None
            conn.execute(study_chunks.insert().values(study_id=study_id, first=first,
                                                      count=count, records=lines,
                                                      bot_seconds=seconds))
        self._announce(study_id, stored.version)
        return stored._asdict()

    def _let_go(self, study_id: str) -> None:
        """Give up this worker's claim: the next worker to look takes the study over."""
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            version = conn.execute(
                studies.update().where(studies.c.id == study_id, studies.c.status == RUNNING,
                                       studies.c.lease_owner == self.owner)
                .values(lease_owner=None, lease_until=None, version=studies.c.version + 1,
                        updated_at=now)
                .returning(studies.c.version)).scalar_one_or_none()
        if version is not None:
            self._announce(study_id, version)

    def _stored_matches(self, study_id: str, rows_per_match: int) -> Iterator[list[dict]]:
        """The records stored, a match index (every arm) at a time: a study taken over counts
        them again before going on."""
        for text in self.records(study_id, "jsonl"):
            rows = [orjson.loads(line) for line in text.splitlines()]
            for i in range(0, len(rows), rows_per_match):
                yield rows[i:i + rows_per_match]

    def _finish(self, study_id: str, summary: dict[str, Any] | None, page: str | None,
                failure: str | None = None) -> None:
        """Every match played: the study is done with its summary and report, or failed for
        `failure`, with whichever of them could be made."""
        now = datetime.now(UTC)
        ended = {"status": DONE} if failure is None else {"status": FAILED, "error": failure}
        with self.engine.begin() as conn:
            version = conn.execute(
                studies.update().where(studies.c.id == study_id, studies.c.status == RUNNING,
                                       studies.c.lease_owner == self.owner)
                .values(**ended, summary=summary, report=page, lease_owner=None,
                        lease_until=None, version=studies.c.version + 1, updated_at=now)
                .returning(studies.c.version)).scalar_one_or_none()
        if version is not None:
            self._announce(study_id, version)

    def _end(self, study_id: str, status: str, error: str, mine: bool = True) -> bool:
        """The study ends `status` (cancelled or failed) for `error`, if it is still queued or
        running (and, when a worker ends it, still that worker's). One with matches stored
        keeps a claim, for its summary and report: the claim of the worker holding it, which
        sums it up as it sees it end, or when nobody holds it (handed over, waiting for its
        creator's budget, its worker dead) one the next worker to look takes
        (`claim_summing_up`). Whether it ended it (it was still playable)."""
        now = datetime.now(UTC)
        condition = [studies.c.id == study_id, studies.c.status.in_(PLAYABLE)]
        if mine:
            condition.append(studies.c.lease_owner == self.owner)
        played = studies.c.done > 0
        with self.engine.begin() as conn:
            version = conn.execute(
                studies.update().where(*condition)
                .values(status=status, error=error,
                        lease_owner=sa.case((played, studies.c.lease_owner), else_=None),
                        lease_until=sa.case((played, sa.func.coalesce(studies.c.lease_until,
                                                                      now)), else_=None),
                        waiting_until=None, version=studies.c.version + 1, updated_at=now)
                .returning(studies.c.version)).scalar_one_or_none()
        if version is not None:
            self._announce(study_id, version)
        return version is not None

    def _announce(self, study_id: str, version: int) -> None:
        if self.hub is not None:
            self.hub.announce(study_id, version)

    def prune(self, days: int) -> int:
        """Remove the studies that ended more than `days` ago, with their records; how many."""
        cutoff = datetime.now(UTC) - timedelta(days=days)
        with self.engine.begin() as conn:
            ended = sa.select(studies.c.id).where(studies.c.status.in_((DONE, CANCELLED, FAILED)),
                                                  studies.c.updated_at < cutoff)
            conn.execute(study_chunks.delete().where(study_chunks.c.study_id.in_(ended)))
            return conn.execute(studies.delete().where(studies.c.id.in_(ended))).rowcount

