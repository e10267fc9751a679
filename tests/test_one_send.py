"""The worker's answers (serving.OneSend): an answer whose whole body comes in one piece of the
length it announced goes out in one send with its head; every answer's bytes are exactly what
gunicorn's own response writes, whatever its shape."""

import re

import pytest
from gunicorn.config import Config
from gunicorn.http import wsgi
from gunicorn.http.parser import RequestParser

from serving import ONE_SEND_BYTES, DigsiteWorker, OneSend

CONFIG = Config()


class Socket:
    """What a response sends, send by send."""

    def __init__(self) -> None:
        self.sends: list[bytes] = []

    def sendall(self, data: bytes) -> None:
        self.sends.append(bytes(data))


def answer(response_class: type[wsgi.Response], method: str, status: str,
           headers: list[tuple[str, str]], pieces: list[bytes]) -> list[bytes]:
    """The sends of `response_class` answering `method` with `status`, `headers` and the body
    in `pieces`, as gunicorn's worker drives a response (write each piece, then close); the
    Date header left out, which may change between two answers."""
    raw = f"{method} /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    request = next(iter(RequestParser(CONFIG, iter([raw]), ("127.0.0.1", 40000))))
    socket = Socket()
    response = response_class(request, socket, CONFIG)
    response.start_response(status, headers)
    for piece in pieces:
        response.write(piece)
    response.close()
    return [re.sub(rb"Date: [^\r]*\r\n", b"", sent) for sent in socket.sends]


JSON = [("Content-Type", "application/json")]
LENGTH = lambda n: [*JSON, ("Content-Length", str(n))]  # noqa: E731
BIG = b"x" * (ONE_SEND_BYTES + 1)
SHAPES = {
    "a whole body of its length": ("GET", "200 OK", LENGTH(11), [b'{"ok":true}'], 1),
    "no body (204)": ("POST", "204 No Content", [], [], 1),
    "not modified (304)": ("GET", "304 Not Modified", [("ETag", 'W/"1"')], [], 1),
    "the head of a GET": ("HEAD", "200 OK", LENGTH(11), [b'{"ok":true}'], 1),
    "a body in two pieces": ("GET", "200 OK", LENGTH(4), [b"ab", b"cd"], 3),
    "a body of no announced length (chunked)": ("GET", "200 OK", JSON, [b"ab", b"cd"], 4),
    "a body past the one-send size": ("GET", "200 OK", LENGTH(len(BIG)), [BIG], 2),
    "a body longer than announced": ("GET", "200 OK", LENGTH(2), [b"abcd"], 2),
}


@pytest.mark.parametrize(("method", "status", "headers", "pieces", "sends"), SHAPES.values(),
                         ids=SHAPES.keys())
def test_every_answer_is_gunicorns_own_bytes(method, status, headers, pieces, sends):
    ours = answer(OneSend, method, status, headers, pieces)
    assert b"".join(ours) == b"".join(answer(wsgi.Response, method, status, headers, pieces))
    assert len(ours) == sends


def test_a_whole_body_goes_with_its_head_in_one_send():
    [sent] = answer(OneSend, "GET", "200 OK", LENGTH(11), [b'{"ok":true}'])
    assert sent.startswith(b"HTTP/1.1 200 OK\r\n") and sent.endswith(b'\r\n\r\n{"ok":true}')
    assert len(answer(wsgi.Response, "GET", "200 OK", LENGTH(11), [b'{"ok":true}'])) == 2



def test_a_worker_told_to_stop_before_its_app_loaded_just_stops():
    # A worker stopped as it started (a server stopped at once) logged "'DigsiteWorker' object
    # has no attribute 'wsgi'" from its signal handler, with a traceback.
    worker = object.__new__(DigsiteWorker)  # as a worker is before it loads the app
    worker.alive = True
    worker.handle_exit(15, None)
    assert worker.alive is False
