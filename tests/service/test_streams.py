"""A match's Server-Sent Events (service/streams.py), fed by a hub: the text API.md "Live updates"
describes, the end once the match is over, keep-alives when quiet, and one read of the log a move
for all the streams of a match."""

import threading
import time

import pytest

from service import streams
from service.notify import Hub
from service.streams import BATCH, LogUnavailable, SharedReads, events
from tests.service.live import engine_for, entry_text, log_reader, move, new_match

GAME_OVER = [{"type": "game_over"}]


def shown(row):
    return {"seq": row["seq"]}


@pytest.fixture
def table(tmp_path):
    """An engine, its hub (the watcher never looks: moves are announced), a match and its log."""
    engine = engine_for(f"sqlite:///{tmp_path / 'db'}")
    hub = Hub(engine, None, 3600)
    yield engine, hub, new_match(engine), log_reader(engine)
    hub.close()


def test_a_stream_sends_each_entry_after_the_one_asked_for_and_ends_with_the_match(table):
    engine, hub, match_id, log = table
    for events_of_move in ([], [], GAME_OVER):
        move(engine, match_id, events_of_move)
    sent = list(events(hub, log, shown, match_id, 1, False))
    rows = log(match_id, 1, 10)
    assert sent == ["retry: 2000\n\n", *map(entry_text, rows)]
    assert [row["seq"] for row in rows] == [2, 3]


def test_the_stream_of_a_finished_match_ends_once_everything_is_sent(table):
    engine, hub, match_id, log = table
    move(engine, match_id)
    assert list(events(hub, log, shown, match_id, 1, True)) == ["retry: 2000\n\n"]
    assert len(list(events(hub, log, shown, match_id, 0, True))) == 2


def test_a_stream_longer_than_a_batch_sends_every_entry(table):
    engine, hub, match_id, log = table
    for _ in range(BATCH * 2 + 5):
        move(engine, match_id)
    move(engine, match_id, GAME_OVER)
    sent = list(events(hub, log, shown, match_id, 0, False))
    assert [text.split("\n")[0] for text in sent[1:]] == [
        f"id: {seq}" for seq in range(1, BATCH * 2 + 7)]


def reader(stream, into):
    """Reads a stream in a thread, each piece with the time it came."""

    def read():
        for text in stream:
            into.append((time.monotonic(), text))

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def test_a_move_announced_reaches_the_open_stream_and_the_last_one_ends_it(table):
    engine, hub, match_id, log = table
    got = []
    thread = reader(events(hub, log, shown, match_id, 0, False), got)
    assert wait_for(lambda: hub.waiters(match_id) == 1)
    first = move(engine, match_id, hub=hub)
    assert wait_for(lambda: len(got) == 2)
    move(engine, match_id, GAME_OVER, hub=hub)
    thread.join(10)
    assert not thread.is_alive()
    assert [text for _, text in got] == ["retry: 2000\n\n", *map(entry_text, log(match_id, 0, 9))]
    assert got[1][1].startswith(f"id: {first - 1}\n")


def test_a_quiet_stream_says_keep_alive(table, monkeypatch):
    engine, hub, match_id, log = table
    monkeypatch.setattr(streams, "KEEP_ALIVE_SECONDS", 0.2)
    stream = events(hub, log, shown, match_id, 0, False)
    assert next(stream) == "retry: 2000\n\n"
    assert next(stream) == ": keep-alive\n\n"
    move(engine, match_id, hub=hub)
    assert next(stream).startswith("id: 1\n")
    assert next(stream) == ": keep-alive\n\n"
    stream.close()


def test_a_quiet_stream_says_its_client_is_still_there_at_each_keep_alive(table, monkeypatch):
    engine, hub, match_id, log = table
    monkeypatch.setattr(streams, "KEEP_ALIVE_SECONDS", 0.2)
    calls = []
    stream = events(hub, log, shown, match_id, 0, False, alive=lambda: calls.append(1))
    assert next(stream) == "retry: 2000\n\n" and calls == []
    assert next(stream) == ": keep-alive\n\n" and calls == [1]
    assert next(stream) == ": keep-alive\n\n" and calls == [1, 1]
    stream.close()


def test_a_stream_whose_client_left_ends_and_keeps_nobody_present(table, monkeypatch):
    """A phone closed (its page, its site data cleared) kept its seat present through its dead
    stream: the system takes a write to a connection its client closed (the next one fails),
    and the stream said its client was there before each keep-alive it wrote."""
    engine, hub, match_id, log = table
    monkeypatch.setattr(streams, "KEEP_ALIVE_SECONDS", 0.2)
    calls, gone = [], []
    stream = events(hub, log, shown, match_id, 0, False, alive=lambda: calls.append(1),
                    left=lambda: bool(gone))
    assert next(stream) == "retry: 2000\n\n"
    assert next(stream) == ": keep-alive\n\n" and calls == [1]
    gone.append(1)  # the client closes its connection
    assert list(stream) == [] and calls == [1]  # ended at the next keep-alive, unseen
    # and at a batch, once it is sent: a move the closed client is written is no sign of it
    calls.clear()
    gone.clear()
    stream = events(hub, log, shown, match_id, 0, False, alive=lambda: calls.append(1),
                    left=lambda: bool(gone))
    assert next(stream) == "retry: 2000\n\n"
    gone.append(1)
    move(engine, match_id, hub=hub)
    assert next(stream).startswith("id: 1\n")
    assert list(stream) == [] and calls == []


def test_a_stream_ends_when_a_new_version_brings_no_entry_and_the_match_is_gone(table):
    engine, hub, match_id, log = table
    gone = []
    got = []
    thread = reader(events(hub, log, shown, match_id, 0, False, gone=lambda: bool(gone)), got)
    assert wait_for(lambda: hub.waiters(match_id) == 1)
    move(engine, match_id, hub=hub)  # an entry: the stream goes on whatever `gone` says
    assert wait_for(lambda: len(got) == 2)
    gone.append(True)
    hub.announce(match_id, 99)  # cancelled: a new version and no entry
    thread.join(10)
    assert not thread.is_alive() and len(got) == 2


def test_the_streams_of_a_match_share_one_read_of_the_log_a_move(table):
    engine, hub, match_id, log = table
    move(engine, match_id)
    reads = []

    def counted(match_id, after, limit):
        reads.append(after)
        return log(match_id, after, limit)

    got = [[] for _ in range(100)]
    threads = [reader(events(hub, counted, shown, match_id, 0, False), into) for into in got]
    assert wait_for(lambda: hub.waiters(match_id) == 100)
    assert all(len(into) == 2 for into in got)  # retry, and the first entry
    reads.clear()
    move(engine, match_id, hub=hub)
    assert wait_for(lambda: all(len(into) == 3 for into in got))
    assert reads == [1]
    move(engine, match_id, GAME_OVER, hub=hub)
    for thread in threads:
        thread.join(10)
    assert reads == [1, 2]


def test_shared_reads_keep_only_the_latest(table):
    engine, _, match_id, log = table
    move(engine, match_id)
    reads = []

    def counted(match_id, after, limit):
        reads.append(after)
        return log(match_id, after, limit)

    shared = SharedReads(capacity=4)
    for version in range(10):
        shared.read(counted, match_id, 0, version)
    shared.read(counted, match_id, 0, 9)  # kept
    assert len(reads) == 10
    shared.read(counted, match_id, 0, 0)  # dropped long ago: read again
    assert len(reads) == 11


def test_a_read_that_fails_ends_its_streams_and_the_next_reads_again(table):
    engine, hub, match_id, log = table
    move(engine, match_id)
    failing = [True]

    def flaky(match_id, after, limit):
        if failing.pop() if failing else False:
            raise ConnectionError("the database is away")
        return log(match_id, after, limit)

    with pytest.raises(LogUnavailable):
        SharedReads().read(flaky, match_id, 0, 1)
    assert list(events(hub, flaky, shown, match_id, 0, True))[1:] == [
        entry_text(row) for row in log(match_id, 0, 9)]
    hub.announce(match_id, 2)  # a version that no read has been shared for yet
    failing.append(True)
    assert list(events(hub, flaky, shown, match_id, 0, False)) == ["retry: 2000\n\n"]


def wait_for(condition, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
