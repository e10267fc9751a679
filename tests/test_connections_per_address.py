"""One address may hold only so many connections open on a worker (serving.py,
DIGSITE_CONNECTIONS_PER_ADDRESS): one more is answered 429 problem+json and closed at once,
and once some close it is served again; behind a trusted proxy there is no such limit."""

import json
import socket
import urllib.request

import pytest

from serving import connections_per_address, peer
from tests.server import serve


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
    ({"DIGSITE_TRUSTED_PROXIES": "1", "DIGSITE_CONNECTIONS_PER_ADDRESS": "50"}, 50),
    ({"DIGSITE_CONNECTIONS_PER_ADDRESS": "0"}, 0),
])
def test_the_limit_is_256_unless_set_and_none_behind_a_proxy(environ, limit):
    assert connections_per_address(environ) == limit


def test_a_limit_that_is_no_number_stops_the_worker():
    with pytest.raises(ValueError, match="DIGSITE_CONNECTIONS_PER_ADDRESS"):
        connections_per_address({"DIGSITE_CONNECTIONS_PER_ADDRESS": "many"})


def test_an_ipv6_home_counts_as_its_network():
    assert peer(("2001:db8:1:2::a", 1, 0, 0)) == peer(("2001:db8:1:2:ffff::b", 2, 0, 0))
    assert peer(("2001:db8:1:3::a", 1, 0, 0)) != peer(("2001:db8:1:2::a", 1, 0, 0))
    assert peer(("::ffff:192.0.2.7", 1, 0, 0)) == peer(("192.0.2.7", 1)) == "192.0.2.7"
