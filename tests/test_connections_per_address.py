"""One address may hold only so many connections open on a worker (serving.py,
DIGSITE_CONNECTIONS_PER_ADDRESS): one more is answered 429 problem+json and closed at once,
and once some close it is served again. Behind a trusted proxy, whose address every connection
has, the app counts each client's requests under way by its forwarded address instead
(api/limits.py UnderWay)."""

import json
import socket
import urllib.request

import pytest

from serving import connection_settings, peer
from tests.server import call, serve


def test_one_connection_over_the_share_is_refused_and_the_address_served_once_some_close(
        tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
           "DIGSITE_CONNECTIONS_PER_ADDRESS": "5"}
    with serve(env, workers=1) as server:
        held = [socket.create_connection(("127.0.0.1", server.port), timeout=10)
                for _ in range(5)]
        try:
            for sock in held:  # each is being served: a request of its own answered
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                assert sock.recv(65536).startswith(b"HTTP/1.1 200")
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as extra:
                answer = b""
                while chunk := extra.recv(65536):  # closed after its answer
                    answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 429 ")
            assert b"Retry-After: 5" in head and b"application/problem+json" in head
            problem = json.loads(body)
            assert problem["type"] == "/problems/rate-limited" and problem["status"] == 429
        finally:
            for sock in held:
                sock.close()
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=10) as again:
            assert again.status == 200


@pytest.mark.parametrize(("environ", "limit"), [
    ({}, 256),
    ({"DIGSITE_TRUSTED_PROXIES": "1"}, 0),
    ({"DIGSITE_TRUSTED_PROXIES": "1", "DIGSITE_CONNECTIONS_PER_ADDRESS": "50"}, 0),
    ({"DIGSITE_CONNECTIONS_PER_ADDRESS": "0"}, 0),
])
def test_the_connection_limit_is_256_unless_set_and_none_behind_a_proxy(environ, limit):
    assert connection_settings(environ)[0] == limit


def test_a_limit_that_is_no_number_stops_the_worker():
    with pytest.raises(ValueError, match="DIGSITE_CONNECTIONS_PER_ADDRESS"):
        connection_settings({"DIGSITE_CONNECTIONS_PER_ADDRESS": "many"})


def test_an_ipv6_home_counts_as_its_network():
    assert peer(("2001:db8:1:2::a", 1, 0, 0)) == peer(("2001:db8:1:2:ffff::b", 2, 0, 0))
    assert peer(("2001:db8:1:3::a", 1, 0, 0)) != peer(("2001:db8:1:2::a", 1, 0, 0))
    assert peer(("::ffff:192.0.2.7", 1, 0, 0)) == peer(("192.0.2.7", 1)) == "192.0.2.7"


def stream(server, match: str, forwarded: str) -> socket.socket:
    """An event stream opened through the proxy for the client at `forwarded`, its head read."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(f"GET /api/v1/matches/{match}/events HTTP/1.1\r\nHost: x\r\n"
                 f"X-Forwarded-For: {forwarded}\r\n\r\n".encode())
    assert sock.recv(65536).startswith(b"HTTP/1.1 200"), forwarded
    return sock


def forwarded_get(server, path: str, forwarded: str) -> tuple[int, dict, dict]:
    request = urllib.request.Request(server.url + path, headers={"X-Forwarded-For": forwarded})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), json.loads(refused.read())


def test_behind_a_proxy_one_client_s_open_streams_cannot_take_a_worker_from_the_others(tmp_path):
    # With a proxy trusted the connection limit is off (every connection is the proxy's), and
    # nothing counted clients: one client's 2,000 idle event streams took all of a worker's
    # connections, and nobody else was answered until they closed.
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
           "DIGSITE_TRUSTED_PROXIES": "1", "DIGSITE_CONNECTIONS_PER_ADDRESS": "3"}
    with serve(env, workers=1) as server:
        match = call(server, "/api/v1/games/dig/matches", {"players": ["Ann", "Bob"]})["id"]
        held = [stream(server, match, "203.0.113.5") for _ in range(3)]
        try:
            status, headers, problem = forwarded_get(server, "/healthz", "203.0.113.5")
            assert status == 429 and headers["Retry-After"] == "5", (status, problem)
            assert problem["type"] == "/problems/rate-limited"
            assert "under way" in problem["detail"]
            # an IPv6 client counts by its /64, as the rate limits count it
            for sock in [stream(server, match, f"2001:db8:1:2::{n}") for n in range(3)]:
                held.append(sock)
            assert forwarded_get(server, "/healthz", "2001:db8:1:2::99")[0] == 429
            # every other client is served, as often as it likes: a request done is counted no more
            for _ in range(10):
                assert forwarded_get(server, "/healthz", "203.0.113.6")[0] == 200
            held.append(stream(server, match, "203.0.113.6"))
        finally:
            for sock in held:
                sock.close()
