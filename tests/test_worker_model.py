"""The served worker model (gunicorn's gevent worker, one command for `make run`, the tests and the
container): slow, idle and long-held connections never hold up anyone else's request."""

import json
import socket
import threading
import time
import urllib.request

import pytest

from tests.api.problem import ANN, BOWLS
from tests.server import serve

SLOW, IDLE, HELD = 10, 30, 10
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
    # Held: an upload in progress (headers and part of the body), as an event stream holds a
    # connection: each keeps a request open in the server until the test finishes it.
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
        latencies = {"healthz": [], "score": []}
        deadline = time.monotonic() + 3.0  # well inside the slow connections' KEEPALIVE_S
        while time.monotonic() < deadline:
            latencies["healthz"].append(timed(health))
            latencies["score"].append(timed(score))
            time.sleep(0.05)
        for name, seen in latencies.items():
            assert len(seen) >= 10
            assert max(seen) < WITHIN_S, f"{name}: slowest {max(seen):.3f} s of {len(seen)}"

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
    for sock in idle + held + slow:
        sock.close()


def test_the_control_socket_is_off(tmp_path):
    # gunicorn 25+ would listen on $XDG_RUNTIME_DIR/gunicorn.ctl (or ~/.gunicorn/gunicorn.ctl).
    runtime = tmp_path / "run"
    runtime.mkdir()
    env = {"HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(runtime),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}"}
    with serve(env, workers=1):
        assert not [p.name for p in tmp_path.rglob("*") if p.name.endswith(".ctl")]
