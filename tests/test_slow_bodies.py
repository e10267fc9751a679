"""A request body must arrive whole within DIGSITE_BODY_SECONDS (api/bodies.py): a client that
trickles one is answered 408 problem+json and let go, while everyone else is served as ever."""

import json
import socket
import time
import urllib.request

import pytest

from tests.server import serve

HEAD = (b"POST /api/v1/games/dig/score HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    database = tmp_path_factory.mktemp("slow") / "digsite.db"
    with serve({"DATABASE_URL": f"sqlite:///{database}", "DIGSITE_BODY_SECONDS": "1"},
               workers=1) as running:
        yield running


def answer_of(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    received = b""
    while b"\r\n\r\n" not in received:
        received += sock.recv(65536)
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}
    while len(body) < int(headers["content-length"]):
        body += sock.recv(65536)
    return int(status_line.split()[1]), headers, body


def test_a_body_that_trickles_is_answered_408_and_its_connection_let_go(server):
    body = json.dumps({"bowls": [], "players": []}).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=15) as sock:
        sock.sendall(HEAD % len(body) + body[:5])  # then nothing more
        sent = time.monotonic()
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=5) as health:
            assert health.status == 200  # the worker serves others meanwhile
        status, headers, answer = answer_of(sock)
        assert status == 408
        assert headers["content-type"] == "application/problem+json"
        problem = json.loads(answer)
        assert problem["type"] == "/problems/body-too-slow" and problem["status"] == 408
        assert "within 1 s" in problem["detail"]
        assert time.monotonic() - sent < 10
        assert sock.recv(65536) == b""  # closed by the server (gunicorn's keep-alive bound)


def test_a_body_sent_in_pieces_within_the_time_is_read_as_ever(server):
    body = json.dumps({"bowls": [], "players": []}).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=15) as sock:
        sock.sendall(HEAD % len(body) + body[:5])
        time.sleep(0.3)
        sock.sendall(body[5:])
        status, headers, answer = answer_of(sock)
    assert status == 422  # the calculator's own answer to an empty table: the body was read
    assert json.loads(answer)["type"] == "/problems/invalid-body"


def test_a_body_too_slow_with_a_key_is_read_afresh_when_sent_again(server):
    # A 408 asks for the request again at once: with an Idempotency-Key, the retry is read, not
    # answered the 408 again for a day.
    body = json.dumps({"bowls": [], "players": []}).encode()
    head = HEAD.replace(b"\r\n\r\n", b"\r\nIdempotency-Key: slow-1\r\n\r\n")
    with socket.create_connection(("127.0.0.1", server.port), timeout=15) as sock:
        sock.sendall(head % len(body) + body[:5])
        assert answer_of(sock)[0] == 408
    with socket.create_connection(("127.0.0.1", server.port), timeout=15) as sock:
        sock.sendall(head % len(body) + body)
        status, headers, answer = answer_of(sock)
    assert status == 422 and "idempotent-replayed" not in headers
    assert json.loads(answer)["type"] == "/problems/invalid-body"
