"""Live updates through the served command (API.md "Live updates"): a move posted to one worker or
app server reaches the open streams of its match on every other, on SQLite (each worker's
watcher), on PostgreSQL (LISTEN/NOTIFY) and through Redis between app servers. Which worker
serves a stream is read from /proc, so a stream on another worker than the move's is certain,
not likely."""

import http.client
import json
import os
import signal
import socket
import time
from pathlib import Path

import pytest
import redis

from service.notify import CHANNEL
from service.settings import read
from tests.pg import postgres_cluster
from tests.redis import redis_server
from tests.server import app_refusal, call, serve, serve_side_by_side

GAME, PLAYERS = "dig", ["Ann", "Bob"]


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('live') / 'digsite.db'}"
    with serve({"DATABASE_URL": url}, workers=2) as server:
        yield server


@pytest.fixture(scope="module")
def postgresql():
    with postgres_cluster() as url:
        yield url


@pytest.fixture(scope="module")
def postgresql_servers(postgresql):
    with serve_side_by_side({"DATABASE_URL": postgresql}, 2, workers=2) as servers:
        yield servers


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


@pytest.fixture(scope="module")
def redis_servers(postgresql, redis_url):
    env = {"DATABASE_URL": postgresql, "DIGSITE_REDIS_URL": redis_url}
    with serve_side_by_side(env, 2, workers=1) as servers:
        yield servers




def new_match(server):
    created = call(server, f"/api/v1/games/{GAME}/matches", {"players": PLAYERS})
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}


def act(server, match_id, tokens):
    """The seat to act takes its first legal action; the seq it was logged at."""
    public = call(server, f"/api/v1/matches/{match_id}")
    seat = public["to_act"][0]
    view = call(server, f"/api/v1/matches/{match_id}", token=tokens[seat])
    after = call(server, f"/api/v1/matches/{match_id}/actions", token=tokens[seat],
                 body={"action": view["legal_actions"][0], "version": view["version"]})
    return after["version"] - 1


class Stream:
    """One open event stream on a raw socket (HTTP/1.0: the body is the events as sent)."""

    def __init__(self, server, match_id):
        self.server = server
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        self.sock.sendall(f"GET /api/v1/matches/{match_id}/events HTTP/1.0\r\n"
                          "Host: 127.0.0.1\r\n\r\n".encode())
        self.data = b""
        self.read_until(b"retry: 2000\n\n")

    def read_until(self, marker, seconds=30.0):
        deadline = time.monotonic() + seconds
        while marker not in self.data:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = self.sock.recv(65536)
            if not chunk:
                raise AssertionError(f"the stream ended without {marker!r}: {self.data!r}")
            self.data += chunk

    def worker(self):
        """The pid of the worker serving this stream."""
        client_port = self.sock.getsockname()[1]
        return socket_owner(self.server, client_port)

    def close(self):
        self.sock.close()


def subscribers(redis_url):
    """How many connections subscribe to the live-update channel."""
    client = redis.Redis.from_url(redis_url)
    try:
        return dict(client.pubsub_numsub(CHANNEL))[CHANNEL.encode()]
    finally:
        client.close()


def socket_owner(server, client_port):
    """The worker holding the server's end of the connection from `client_port`, from
    /proc/net/tcp (its inode) and the workers' descriptors."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, remote = (int(address.rsplit(":", 1)[1], 16) for address in fields[1:3])
            if local == server.port and remote == client_port:
                inodes.add(fields[9])
    for pid in server.worker_pids():
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd).removeprefix("socket:[").removesuffix("]") in inodes:
                    return pid
            except OSError:  # closed meanwhile
                continue
    return None


def streams_on_every_worker(server, match_id, tries=60):
    """Streams of the match opened until every worker of `server` serves at least one."""
    opened, workers = [], set(server.worker_pids())
    while {s.worker() for s in opened} != workers:
        assert len(opened) < tries, "the workers never all took a stream"
        opened.append(Stream(server, match_id))
    return opened


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_move_reaches_the_streams_on_every_worker(database, request):
    server = (request.getfixturevalue("sqlite_server") if database == "sqlite"
              else request.getfixturevalue("postgresql_servers")[0])
    match_id, tokens = new_match(server)
    opened = streams_on_every_worker(server, match_id)
    seq = act(server, match_id, tokens)
    for stream in opened:
        stream.read_until(f"id: {seq}\n".encode())
        stream.close()


@pytest.mark.parametrize("shared", ["postgresql", "redis"])
def test_a_move_on_one_app_server_reaches_the_streams_on_the_other(shared, request):
    first, second = request.getfixturevalue(f"{shared}_servers")
    match_id, tokens = new_match(first)
    opened = [Stream(first, match_id) for _ in range(4)]
    if shared == "redis":  # Redis carries it: the first server's one worker subscribes
        # (its listener subscribes beside the first stream, and catches up from the database
        # once subscribed: a move before then is not lost, so the stream does not wait for it)
        url = request.getfixturevalue("redis_url")
        deadline = time.monotonic() + 10
        while subscribers(url) == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert subscribers(url) == 1
    seqs = [act(second, match_id, tokens) for _ in range(3)]
    for stream in opened:
        for seq in seqs:
            stream.read_until(f"id: {seq}\n".encode())
        stream.close()


def test_a_server_told_to_stop_ends_its_open_streams_at_once(tmp_path):
    """SIGTERM (a deploy, `docker stop`): every worker ends its open streams, whose clients then
    resume elsewhere with Last-Event-ID, and exits without waiting out its graceful timeout
    (gunicorn.conf.py), which a stream, lasting ten minutes, would otherwise use up. The
    graceful timeout is made far longer than the test waits, so a stream kept open until the
    worker is made to stop fails it."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
           "GUNICORN_CMD_ARGS": "--graceful-timeout 300"}
    with serve(env, workers=2) as server:
        match_id, tokens = new_match(server)
        seq = act(server, match_id, tokens)
        opened = streams_on_every_worker(server, match_id)
        for stream in opened:
            stream.read_until(f"id: {seq}\n".encode())
        server.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        for stream in opened:
            while True:  # what is left of the stream (a keep-alive at most), then its end
                left = deadline - time.monotonic()
                assert left > 0, "a stream was still open 30 s after the server was told to stop"
                stream.sock.settimeout(left)
                if not stream.sock.recv(65536):
                    break
            stream.close()
        server.process.wait(timeout=60)
        log = server.log()
    assert server.process.returncode == 0, log


def test_a_server_told_to_stop_closes_the_connections_waiting_for_a_request_at_once(tmp_path):
    """A browser keeps its connections open between requests. Told to stop, each worker closes
    those waiting for their next request: it waited for them instead, each holding its worker
    until its keep-alive ran out (5 s a stop, a rolling restart 5 s more a server). Keep-alive
    and graceful timeout are made far longer than the test waits."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
           "GUNICORN_CMD_ARGS": "--graceful-timeout 300 --keep-alive 300"}
    with serve(env, workers=2) as server:
        kept, workers = [], set(server.worker_pids())
        while {socket_owner(server, c.sock.getsockname()[1]) for c in kept} != workers:
            assert len(kept) < 60, "the workers never all took a connection"
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            connection.request("GET", "/healthz")
            assert connection.getresponse().read()
            kept.append(connection)
        server.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        for connection in kept:
            connection.sock.settimeout(max(deadline - time.monotonic(), 0.01))
            try:
                assert connection.sock.recv(1) == b""
            except TimeoutError:
                raise AssertionError("a connection waiting for a request was still open 30 s "
                                     "after the server was told to stop") from None
            connection.close()
        server.process.wait(timeout=60)
        log = server.log()
    assert server.process.returncode == 0, log


def test_behind_a_proxy_a_server_told_to_stop_serves_what_comes_on_its_idle_connections(
        tmp_path):
    """Behind Caddy or nginx, a rolling restart closed each worker's idle connections at once,
    as a proxy sent a POST down one of its own: a reset the proxy does not send on to the other
    server for a POST, so a 502. Behind a trusted proxy, a request that comes on an idle
    connection while the worker stops is answered, and its connection closed after it; the
    proxies' own idle limit (4 s, deploy/) is under the server's keep-alive (5 s)."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
           "DIGSITE_TRUSTED_PROXIES": "1", "GUNICORN_CMD_ARGS": "--graceful-timeout 300"}
    body = json.dumps({"bowls": ["green", "yellow", "purple", "blue", "red"], "players": [
        {"name": "Ann", "dropped": {"green": 1}}]})
    with serve(env, workers=1) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        connection.request("GET", "/healthz")
        assert connection.getresponse().read()
        server.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10  # the worker has been told to stop, its listener closed
        while True:
            try:
                socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
            except ConnectionRefusedError:
                break
            assert time.monotonic() < deadline, "the server still listens"
            time.sleep(0.05)
        connection.request("POST", "/api/v1/games/dig/score", body,
                           {"Content-Type": "application/json"})
        answer = connection.getresponse()
        assert answer.status == 200 and answer.getheader("Connection") == "close"
        assert json.loads(answer.read())["players"][0]["total"] == 5
        connection.close()
        server.process.wait(timeout=60)  # the idle connection gone, the worker ends
        log = server.log()
    assert server.process.returncode == 0, log


def test_behind_a_proxy_a_request_in_flight_as_the_server_stops_leaves_its_connection_open(
        tmp_path):
    """Its answer said keep-alive, and the worker, stopping, then closed the connection: the
    proxy's next request on it was a reset (a broken pipe in the test above, now and then,
    where its first answer was written as the worker was told to stop)."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
           "DIGSITE_TRUSTED_PROXIES": "1", "DIGSITE_THINKING_LIMIT": "off",
           "GUNICORN_CMD_ARGS": "--graceful-timeout 300"}
    batch = json.dumps({"matches": 200, "players": [{"name": "A", "bot": "greedy"},
                                                    {"name": "B", "bot": "greedy"}]})
    with serve(env, workers=1) as server:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        connection.request("POST", "/api/v1/games/dig/simulations", batch,
                           {"Content-Type": "application/json"})
        time.sleep(0.3)  # the batch under way (a second or more)
        server.process.send_signal(signal.SIGTERM)
        answer = connection.getresponse()
        assert answer.status == 200 and answer.getheader("Connection") != "close"
        answer.read()
        time.sleep(0.5)  # the proxy's next request, a moment later
        connection.request("GET", "/healthz")
        after = connection.getresponse()
        assert after.status == 200 and after.getheader("Connection") == "close"
        after.read()
        connection.close()
        server.process.wait(timeout=60)
    assert server.process.returncode == 0


@pytest.mark.parametrize(("url", "shown"), [
    ("127.0.0.1:6379", "127.0.0.1:6379"),
    ("http://127.0.0.1:6379/0", "http://127.0.0.1:6379/0"),
    ("redis://:secret@cache:port/0", "redis://:***@cache:port/0"),
])
def test_a_redis_url_redis_py_cannot_read_stops_the_app_at_start(tmp_path, url, shown):
    """A URL without redis://, rediss:// or unix:// (or with a port that is no number) would
    leave every worker's live updates to fail over and over while the server said it was ready.
    A password is not written out."""
    assert app_refusal(tmp_path, DIGSITE_REDIS_URL=url) == (
        f"DIGSITE_REDIS_URL: {shown!r} is no Redis URL: write one such as "
        "redis://127.0.0.1:6379/0, rediss://host:6380/0 (TLS) or unix:///run/redis.sock.")


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "rediss://:secret@cache:6380",
                                 "unix:///run/redis/redis.sock?db=1"])
def test_the_redis_urls_redis_py_reads_are_taken(url):
    assert read({"DIGSITE_REDIS_URL": url}, {}).redis_url == url
