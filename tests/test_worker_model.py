"""The served worker model (gunicorn's gevent worker, one command for `make run`, the tests and the
container): slow, idle and long-held connections, open event streams and bots thinking never hold
up anyone else's request; a number of workers that is no whole number above 0, or a log level
gunicorn has not, stops the server at start."""

import json
import os
import signal
import socket
import statistics
import subprocess
import threading
import time
import urllib.request

import pytest

from tests.api.problem import ANN, BOWLS
from tests.server import (
    COMMAND,
    ENDS_WITH_ITS_TEST,
    ROOT,
    Server,
    call,
    refused_at_start,
    serve,
)

SLOW, IDLE, HELD, STREAMS = 10, 30, 10, 10
WITHIN_S = 0.2
KEEPALIVE_S = 5  # gunicorn.conf.py: an idle connection, or headers still coming, is closed then
SCORE_PATH = "/api/v1/games/dig/score"
SHEET = json.dumps({"bowls": BOWLS, "players": [ANN]}).encode()


def connect(server) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def post_head(length: int) -> bytes:
    return (f"POST {SCORE_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n").encode()


def read_response(sock: socket.socket) -> bytes:
    """One whole response (its headers carry a Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def timed(request: urllib.request.Request) -> float:
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=10) as response:
        response.read()
        assert response.status == 200
    return time.monotonic() - started




class Table:
    """A DIG match whose seats take their first legal action in turn, each action timed."""

    def __init__(self, server) -> None:
        self.server = server
        created = call(server, "/api/v1/games/dig/matches",
                       {"players": ["Ann", "Bob"], "seed": 7})
        self.id = created["id"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"]}
        self.view = created["view"]

    def act(self) -> float:
        seat = self.view["to_act"][0]
        view = call(self.server, f"/api/v1/matches/{self.id}", token=self.tokens[seat])
        started = time.monotonic()
        self.view = call(self.server, f"/api/v1/matches/{self.id}/actions",
                         {"action": view["legal_actions"][0], "version": view["version"]},
                         self.tokens[seat])
        return time.monotonic() - started

    def open_stream(self) -> socket.socket:
        sock = connect(self.server)
        sock.sendall(f"GET /api/v1/matches/{self.id}/events HTTP/1.1\r\n"
                     "Host: 127.0.0.1\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(4096)
        assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head, head
        return sock


@pytest.fixture
def server(tmp_path):
    with serve({"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}"}, workers=2) as running:
        yield running


def test_slow_idle_and_held_connections_do_not_hold_up_health_or_a_calculator(server):
    # Idle: half made a request and keep the connection open, half never sent a byte.
    idle = [connect(server) for _ in range(IDLE)]
    for sock in idle[: IDLE // 2]:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert read_response(sock).startswith(b"HTTP/1.1 200")
    # Held: an upload in progress (headers and part of the body): each keeps a request open in
    # the server until the test finishes it. And open event streams, each a request that never
    # ends while the match plays.
    table = Table(server)
    streams = [table.open_stream() for _ in range(STREAMS)]
    held = [connect(server) for _ in range(HELD)]
    for sock in held:
        sock.sendall(post_head(len(SHEET)) + SHEET[:10])
    # Slow: a request's headers a byte a second.
    slow = [connect(server) for _ in range(SLOW)]
    request_line = post_head(len(SHEET))
    stop = threading.Event()

    def drip():
        for i in range(len(request_line)):
            for sock in slow:
                try:
                    sock.sendall(request_line[i:i + 1])
                except OSError:
                    pass  # closed by the server: what the end of the test checks
            if stop.wait(1.0):
                return

    dripping = threading.Thread(target=drip)
    dripping.start()
    try:
        time.sleep(1.0)
        health = urllib.request.Request(server.url + "/healthz")
        score = urllib.request.Request(server.url + SCORE_PATH, data=SHEET,
                                       headers={"Content-Type": "application/json"})
        latencies = {"healthz": [], "score": [], "action": []}
        deadline = time.monotonic() + 3.0  # well inside the slow connections' KEEPALIVE_S
        while time.monotonic() < deadline:
            latencies["healthz"].append(timed(health))
            latencies["score"].append(timed(score))
            latencies["action"].append(table.act())
            time.sleep(0.05)
        for name, seen in latencies.items():
            assert len(seen) >= 10
            # Typically well inside WITHIN_S; a worker held up by those connections would take
            # seconds (keep-alive is 5 s), which no busy neighbour on the cores explains.
            assert statistics.median(seen) < WITHIN_S and max(seen) < 1.0, \
                f"{name}: median {statistics.median(seen):.3f} s, slowest {max(seen):.3f} s"

        # The held requests were waiting all along, and are answered once their bodies arrive.
        for sock in held:
            sock.sendall(SHEET[10:])
        for sock in held:
            response = read_response(sock)
            assert response.startswith(b"HTTP/1.1 200"), response[:200]
            assert json.loads(response.partition(b"\r\n\r\n")[2])["players"][0]["total"] == 29
    finally:
        stop.set()
        dripping.join()

    # Headers still trickling in after KEEPALIVE_S are cut off: a slow client holds a connection
    # for seconds, not forever.
    for sock in slow:
        sock.settimeout(KEEPALIVE_S + 5)
        try:
            assert sock.recv(1024) == b""
        except ConnectionResetError:
            pass
    # The streams were told of every action meanwhile.
    for sock in streams:
        sock.settimeout(5)
        told = b""
        while b"\nid: 10\n" not in told:
            told += sock.recv(65536)
    for sock in idle + held + slow + streams:
        sock.close()


def test_a_bot_thinking_does_not_hold_up_its_worker(tmp_path):
    """A match of search bots played to its end within one request (seconds of computing) on
    the only worker: meanwhile /healthz still answers promptly."""
    with serve({"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}"}, workers=1) as server:
        bots = [{"name": f"Robo {i}", "bot": "mcts"} for i in range(4)]
        done = []
        playing = threading.Thread(target=lambda: done.append(call(
            server, "/api/v1/games/dig-it-up/matches",
            {"players": bots, "variant": "standard", "seed": 3})))
        playing.start()
        time.sleep(0.3)
        health = urllib.request.Request(server.url + "/healthz")
        latencies = []
        while playing.is_alive() and len(latencies) < 200:
            latencies.append(timed(health))
            time.sleep(0.02)
        playing.join()
        assert done[0]["view"]["status"] == "finished"
        # Held up by the bots, /healthz would wait seconds, for the whole match, and be asked a
        # handful of times; beside them it answers as ever (a machine busy with other tests has
        # delayed one answer past a second, so the bound on the slowest is looser).
        assert len(latencies) >= 5, "the match was over before /healthz was asked"
        assert statistics.median(latencies) < WITHIN_S and max(latencies) < 3.0, latencies


def test_a_request_waiting_on_a_lock_another_process_holds_does_not_hold_up_its_worker(
        tmp_path):
    """SQLite waited for the lock inside its own C code, the worker's one thread and every
    request on it with it: while a host's command held the file's write lock, /healthz on that
    worker answered only once the lock was let go (13 s for a lock held 13 s), and a move sent
    meanwhile had waited all that time too."""
    import sqlite3

    database = tmp_path / "digsite.db"
    with serve({"DATABASE_URL": f"sqlite:///{database}"}, workers=1) as server:
        created = call(server, "/api/v1/games/dig/matches", {"players": ["Ann", "Bob"]})
        seat = created["view"]["to_act"][0]
        view = call(server, f"/api/v1/matches/{created['id']}",
                    token=created["seats"][seat]["token"])
        move = {"action": view["legal_actions"][0], "version": view["version"]}
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        answered = []
        try:
            acting = threading.Thread(target=lambda: answered.append(call(
                server, f"/api/v1/matches/{created['id']}/actions", move,
                token=created["seats"][seat]["token"])))
            acting.start()
            time.sleep(0.5)  # the move is at the lock by now, waiting
            assert acting.is_alive() and not answered
            health = urllib.request.urlopen(server.url + "/healthz", timeout=8)
            assert health.status == 200
            # answered while the lock was still held: the move is still waiting for it
            assert acting.is_alive() and not answered
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        acting.join(15)
        assert answered and answered[0]["version"] == view["version"] + 1, answered


def test_the_control_socket_is_off(tmp_path):
    # gunicorn 25+ would listen on $XDG_RUNTIME_DIR/gunicorn.ctl (or ~/.gunicorn/gunicorn.ctl).
    runtime = tmp_path / "run"
    runtime.mkdir()
    env = {"HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(runtime),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}"}
    with serve(env, workers=1):
        assert not [p.name for p in tmp_path.rglob("*") if p.name.endswith(".ctl")]


@pytest.mark.parametrize("workers", ["0", "-1", "two", "1.5"])
def test_a_number_of_workers_that_is_none_stops_the_server_at_start(tmp_path, workers):
    """None would start a master that listened and never answered; a word stopped it with
    int()'s complaint, a negative number with gunicorn's, neither naming the setting."""
    assert ("Error: DIGSITE_WORKERS is the number of worker processes, a whole number above "
            f"0 (about one per core), not {workers!r}") in refused_at_start(
                tmp_path, DIGSITE_WORKERS=workers)


@pytest.mark.parametrize("level", ["loud", "warn", "10"])
def test_a_log_level_gunicorn_has_not_stops_the_server_at_start(tmp_path, level):
    """gunicorn logged at info instead, saying nothing."""
    assert ("Error: DIGSITE_LOG_LEVEL is one of debug, info, warning, error and critical, "
            f"not {level!r}") in refused_at_start(tmp_path, DIGSITE_LOG_LEVEL=level)


@pytest.mark.parametrize("address", ["127.0.0.1:99999", "127.0.0.1:http", "localhost:", "[::1",
                                     "unix:", "two words:8000"])
def test_an_address_gunicorn_cannot_listen_on_stops_the_server_naming_the_setting(tmp_path,
                                                                                  address):
    """A port past 65535 stopped gunicorn with a traceback, a word with "'http' is not a valid
    port number", neither naming DIGSITE_BIND (which the tests' servers set themselves, so this
    one is run here)."""
    env = {**os.environ, "DIGSITE_BIND": address, "DIGSITE_PRUNE_HOURS": "0",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}"}
    done = subprocess.run([*ENDS_WITH_ITS_TEST, *COMMAND], cwd=ROOT, env=env, timeout=60,
                          capture_output=True, text=True)
    assert done.returncode != 0
    assert done.stderr.splitlines() == [
        "Error: DIGSITE_BIND is the address to listen on, HOST:PORT (a port from 0 to 65535) or "
        f"unix:PATH, not {address!r}"]


@pytest.mark.parametrize(("when", "told"), [
    ("Listening", signal.SIGINT),
    ("Booting worker", signal.SIGINT), ("Booting worker", signal.SIGTERM),
    ("Running upgrade", signal.SIGINT)],
    ids=["ctrl-c-while-serving", "ctrl-c-as-they-boot", "term-as-they-boot",
         "ctrl-c-as-one-migrates-the-database"])
def test_a_server_told_to_stop_stops_at_once_without_a_traceback(tmp_path, told, when):
    """A terminal's Ctrl-C reaches the master and every worker (SIGINT), and the master then
    tells the workers to quit (SIGQUIT): each worker printed a traceback of the SystemExit the
    second signal raised inside the interpreter's shutdown that the first had begun.

    Until a worker has its own signal handlers it holds the master's, which queue what it is
    told for a master loop it never runs: told to stop as it booted, a worker loaded the app and
    served on until the master killed it, a graceful timeout later ("Perhaps out of memory?").
    And told to stop at once while it loaded the app, a worker could finish loading and leave
    before the greenlet its signal started had ended: that greenlet raised SystemExit inside the
    interpreter's shutdown, and the worker printed its traceback."""
    server = Server({"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                     "DIGSITE_LOG_LEVEL": "info"}, 2)
    if when == "Listening":
        server.start()  # once it answers
    else:
        server.launch()
    try:
        deadline = time.monotonic() + 30
        while not (server.log().count("Booting worker") == 2 and when in server.log()) \
                and time.monotonic() < deadline:
            time.sleep(0.01)
        # loading the app takes a worker a second or more: told to stop meanwhile, or once serving
        os.killpg(server.process.pid, told)
        assert server.process.wait(timeout=60) == 0
    finally:
        server.stop()
    said = server.log()
    assert "Shutting down: Master" in said and said.count("Worker exiting") == 2, said
    assert "SIGKILL" not in said and "timeout" not in said, said
    assert "Traceback" not in said and "failed with SystemExit" not in said, said
