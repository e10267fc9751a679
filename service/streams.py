"""A match's live updates as Server-Sent Events (API.md "Live updates"): each log entry after the
one the client has, then each new one as the process's Hub (service/notify.py) hears of it. A
quiet stream waits on the hub and costs its socket; when a move lands, the streams of that match
in this process share one read of the log."""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

import sqlalchemy as sa

from scoring.engine import GAME_OVER

from .errors import NotFound
from .notify import Hub, first_line

logger = logging.getLogger(__name__)

KEEP_ALIVE_SECONDS = 15  # a comment after this long without a word keeps proxies from closing
STREAM_SECONDS = 600  # a stream's longest life; then the client resumes with Last-Event-ID
BATCH = 100  # log entries per read
SHARED_READS = 128  # reads kept for streams to share: at most this many batches in memory

Row = dict[str, Any]
ReadLog = Callable[[str, int, int], list[Row]]  # (match_id, after, limit) → rows in seq order


class LogUnavailable(Exception):
    """The log could not be read (the database is away): the stream ends, and the client
    resumes after `retry`."""


class _Read:
    __slots__ = ("done", "rows")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.rows: list[Row] | None = None


class SharedReads:
    """Reads of a log that the streams of one match share. When a move lands, every stream of
    the match wakes and asks for the entries after the same seq, having heard of the same
    version: the first to ask reads storage, the others wait for its rows, so 1,000 streams of a
    match cost one query a move. A read is only shared by streams that heard of the version it
    was asked for before it began, so it holds every entry up to that version. The `capacity`
    most recent reads are kept."""

    def __init__(self, capacity: int = SHARED_READS) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._reads: OrderedDict[tuple[ReadLog, str, int, int], _Read] = OrderedDict()

    def read(self, log: ReadLog, match_id: str, after: int, version: int) -> list[Row]:
        """Up to BATCH entries after seq `after`, read once `version` of the match was known;
        LogUnavailable when storage cannot be read."""
        key = (log, match_id, after, version)
        with self._lock:
            shared = self._reads.get(key)
            mine = shared is None
            if mine:
                shared = self._reads[key] = _Read()
                while len(self._reads) > self.capacity:
                    self._reads.popitem(last=False)
            else:
                self._reads.move_to_end(key)
        if mine:
            try:
                shared.rows = log(match_id, after, BATCH)
            except Exception as exc:
                logger.warning("the log of match %s could not be read for its streams: %s",
                            match_id, first_line(exc))
            finally:
                if shared.rows is None:  # failed: the next stream to ask tries again
                    with self._lock:
                        if self._reads.get(key) is shared:
                            del self._reads[key]
                shared.done.set()
        else:
            shared.done.wait()
        if shared.rows is None:
            raise LogUnavailable(match_id)
        return shared.rows


READS = SharedReads()  # one per process, like the hub


def events(hub: Hub, log: ReadLog, render: Callable[[Row], dict[str, Any]], match_id: str,
           after: int, finished: bool, gone: Callable[[], bool] = lambda: False,
           alive: Callable[[], None] = lambda: None,
           revoked: Callable[[Row], bool] = lambda row: False,
           left: Callable[[], bool] = lambda: False) -> Iterator[str]:
    """Server-Sent Events: `retry`, then each log entry after seq `after` as `render` shows it
    (with the version it made, the seats to act and, where `log` read one with it, the
    match's `clock`), then the new ones as they come; a comment
    after KEEP_ALIVE_SECONDS without a word. `alive` is called with each keep-alive and each
    batch sent (the client is still there). It ends once the match is over (an entry ended it,
    or it was `finished` and everything is sent), when a new version brought no entry and the
    match is `gone` (its host cancelled it), after STREAM_SECONDS, when the log cannot be read,
    or when the worker is shutting down (Hub.leave); the client then resumes with
    Last-Event-ID. It also ends before an entry that `revoked` the caller's token (the
    resumption is refused), and at a keep-alive or a batch once the client has `left` (closed
    its connection): `alive` is not called for a client that is gone. A write to a connection
    its client closed is taken all the same by the system (only the next one fails), so a phone
    closed was kept present by its dead stream for up to half a minute more."""
    yield "retry: 2000\n\n"
    now = time.monotonic()
    until, quiet_until = now + STREAM_SECONDS, now + KEEP_ALIVE_SECONDS
    over, woken = finished, False
    with hub.watching(match_id):
        seen = hub.version(match_id)  # before reading: any later version wakes the wait below
        while True:
            try:
                rows = READS.read(log, match_id, after, seen)
            except LogUnavailable:
                return
            if woken and not rows and gone():
                return  # its address answers 410 now: the client's resumption hears why
            woken = False
            for row in rows:
                if revoked(row):
                    return
                entry = {**render(row), "version": row["seq"] + 1, "to_act": row["to_act"] or []}
                if "clock" in row:
                    entry["clock"] = row["clock"]
                yield f"id: {row['seq']}\nevent: entry\ndata: {json.dumps(entry)}\n\n"
                after = row["seq"]
                over = over or any(e["type"] == GAME_OVER for e in row["events"])
            if rows:
                quiet_until = time.monotonic() + KEEP_ALIVE_SECONDS
                if left():
                    return
                alive()
            if len(rows) == BATCH:
                continue  # more may be there already
            if over:
                return  # nothing more will ever come
            while True:
                now = time.monotonic()
                if now >= until:
                    return
                latest = hub.wait(match_id, seen, min(until, quiet_until) - now)
                if latest > seen:
                    seen, woken = latest, True
                    break
                if hub.leaving:
                    return  # the worker is shutting down: resume on another
                now = time.monotonic()
                if now >= quiet_until and now < until:
                    if left():
                        return
                    alive()
                    yield ": keep-alive\n\n"
                    quiet_until = now + KEEP_ALIVE_SECONDS


def versions(hub: Hub, key: str, after: int, load: Callable[[], Any],
             frame: Callable[[Any], str], ended: Callable[[Any], bool] = lambda _: False,
             watched: Callable[[], None] = lambda: None,
             watch_every: float = KEEP_ALIVE_SECONDS,
             again: Callable[[Any], Any] | None = None) -> Iterator[str]:
    """Server-Sent Events of a thing kept whole at a version (a shared tally, a study): `retry`,
    then `frame(thing)` whenever `load()` gives a version past `after` (at once, then at each
    version the hub hears of), a comment after KEEP_ALIVE_SECONDS without a word. `watched` is
    called at each load and keep-alive, and every `watch_every` seconds between (someone is
    following, however quiet the thing). It ends when `load` raises NotFound (the thing is
    gone), once `ended(thing)`, when the worker is shutting down (Hub.leave) or after
    STREAM_SECONDS; the client resumes with Last-Event-ID, the version it has. An id past the
    thing's version (another thing's, or one of its own the client made up) has it sent at once,
    as to a new follower: waited on, the stream said nothing until the thing got that far.
    `again(thing)`: what, changed at the same version, has the thing sent again in place of a
    keep-alive (a tally's writer heard since), and sent at once to a stream resumed at its
    version."""
    yield "retry: 2000\n\n"
    until = time.monotonic() + STREAM_SECONDS
    with hub.watching(key):
        known = hub.version(key)  # before loading: any later version wakes the wait below
        first, sent = True, None
        while True:
            try:
                thing = load()
            except NotFound:
                return
            watched()
            if first and thing.version < after:
                after = 0
            # resumed at its version, it is sent all the same where `again` may have moved since
            resend = first and again is not None
            first = False
            if thing.version > after or resend:
                after = thing.version
                sent = thing
                yield frame(thing)
            if ended(thing):
                return
            now = time.monotonic()
            quiet_until, watch_at = now + KEEP_ALIVE_SECONDS, now + watch_every
            while True:
                now = time.monotonic()
                if now >= until:
                    return
                latest = hub.wait(key, known, max(0.0, min(until, quiet_until, watch_at) - now))
                if latest > known:
                    known = latest
                    break
                if hub.leaving:
                    return  # the worker is shutting down: resume on another
                now = time.monotonic()
                if now >= until:
                    return
                if now >= watch_at or now >= quiet_until:
                    watched()
                    watch_at = now + watch_every
                if now >= quiet_until:
                    fresh = None
                    if again is not None:  # one read a keep-alive, for this stream alone
                        try:
                            fresh = load()
                        except NotFound:
                            return
                        except (sa.exc.SQLAlchemyError, sqlite3.Error):  # the database away:
                            fresh = None  # the keep-alive all the same, the stream kept
                    if fresh is not None and (fresh.version > after or sent is None
                                              or again(fresh) != again(sent)):
                        after, sent = max(after, fresh.version), fresh
                        yield frame(fresh)
                    else:
                        yield ": keep-alive\n\n"
                    quiet_until = now + KEEP_ALIVE_SECONDS
