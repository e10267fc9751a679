"""Whether an event stream's client has closed its connection (api/match_log.py client_left),
read from the socket gunicorn gives the request."""

import socket

from api.match_log import client_left


def test_a_client_is_there_until_it_closes_its_connection():
    server_end, client_end = socket.socketpair()
    try:
        left = client_left({"gunicorn.socket": server_end})
        assert left() is False  # nothing sent: there, listening
        client_end.sendall(b"GET / HTTP/1.1\r\n")  # something to read: there
        assert left() is False
        assert server_end.recv(100)  # read by the server
        client_end.close()
        assert left() is True
    finally:
        server_end.close()


def test_a_client_reset_has_left():
    server_end, client_end = socket.socketpair()
    left = client_left({"gunicorn.socket": server_end})
    client_end.close()
    server_end.close()  # closed meanwhile: the stream ends
    assert left() is True


def test_under_another_server_a_client_is_never_said_to_have_left():
    assert client_left({})() is False
