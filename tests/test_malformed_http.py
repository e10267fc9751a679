"""A request gunicorn itself cannot read (a malformed request line or header, headers or a
request line over its limits, a broken Content-Length or chunked body) is answered with
gunicorn's own status, as application/problem+json in plain words rather than gunicorn's HTML
page; the connection is closed after it and gunicorn logs it as before (serving.py)."""

import json
import os
import runpy
import socket
import ssl
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path

import pytest
from gunicorn.config import Config
from gunicorn.http import errors

import serving
from api.errors import MAX_BODY_BYTES
from api.requests import VALID as REQUEST_ID
from service.errors import KINDS
from serving import TYPES
from tests.server import ROOT, Server, serve

PROBLEM_JSON = "application/problem+json"


def setting(name: str):
    """A gunicorn setting as the served command has it: gunicorn.conf.py's, else gunicorn's."""
    return runpy.run_path(str(ROOT / "gunicorn.conf.py")).get(name, Config().settings[name].get())


LINE, FIELDS, FIELD_SIZE = (setting(name) for name in (
    "limit_request_line", "limit_request_fields", "limit_request_field_size"))
HEAD = b"Host: 127.0.0.1\r\n"

# What is sent, and the status gunicorn answers it with (gunicorn's Worker.handle_error).
MALFORMED = {
    "a method in lower case": (b"get /healthz HTTP/1.1\r\n" + HEAD + b"\r\n", 400),
    "a method with a character no method has": (b"G@T /healthz HTTP/1.1\r\n" + HEAD + b"\r\n",
                                                400),
    "an HTTP version that does not exist": (b"GET /healthz HTTP/9.9\r\n" + HEAD + b"\r\n", 400),
    "a version that is not HTTP": (b"GET /healthz HTTQ/1.1\r\n" + HEAD + b"\r\n", 400),
    "a request line without its address": (b"GET HTTP/1.1\r\n" + HEAD + b"\r\n", 400),
    "a TLS handshake on the plain HTTP port": (b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03"
                                               + bytes(32) + b"\r\n\r\n", 400),
    "lines ending in LF alone": (b"GET /healthz HTTP/1.1\nHost: 127.0.0.1\n\n", 400),
    "a header without a colon": (b"GET /healthz HTTP/1.1\r\n" + HEAD + b"No colon here\r\n\r\n",
                                 400),
    "a header name with a space": (b"GET /healthz HTTP/1.1\r\n" + HEAD + b"Bad Name: 1\r\n\r\n",
                                   400),
    "Host twice": (b"GET /healthz HTTP/1.1\r\n" + HEAD + HEAD + b"\r\n", 400),
    "a header folded over two lines": (b"GET /healthz HTTP/1.1\r\n" + HEAD
                                       + b"X-Note: one\r\n two\r\n\r\n", 400),
    "a header over limit_request_field_size": (b"GET /healthz HTTP/1.1\r\n" + HEAD + b"X-Big: "
                                               + b"a" * FIELD_SIZE + b"\r\n\r\n", 431),
    "more headers than limit_request_fields": (
        b"GET /healthz HTTP/1.1\r\n" + HEAD
        + b"".join(b"X-Header-%d: 1\r\n" % number for number in range(FIELDS)) + b"\r\n", 431),
    "a request line over limit_request_line": (b"GET /" + b"a" * LINE + b" HTTP/1.1\r\n" + HEAD
                                               + b"\r\n", 414),
    "a Content-Length that is no number": (b"POST /healthz HTTP/1.1\r\n" + HEAD
                                           + b"Content-Length: ten\r\n\r\n", 400),
    "a negative Content-Length": (b"POST /healthz HTTP/1.1\r\n" + HEAD
                                  + b"Content-Length: -1\r\n\r\n", 400),
    "two Content-Lengths": (b"POST /healthz HTTP/1.1\r\n" + HEAD
                            + b"Content-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400),
    "Content-Length with chunked": (b"POST /healthz HTTP/1.1\r\n" + HEAD + b"Content-Length: 5\r\n"
                                    b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    "chunked twice": (b"POST /healthz HTTP/1.1\r\n" + HEAD
                      + b"Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", 400),
    "chunked in HTTP/1.0": (b"POST /healthz HTTP/1.0\r\n" + HEAD
                            + b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    "a transfer coding gunicorn does not know": (b"POST /healthz HTTP/1.1\r\n" + HEAD
                                                 + b"Transfer-Encoding: zip\r\n\r\n", 501),
    "an expectation other than 100-continue": (b"POST /healthz HTTP/1.1\r\n" + HEAD
                                               + b"Expect: tea\r\nContent-Length: 0\r\n\r\n",
                                               417),
}
# A broken chunked body is found when it is read: here after the app's answer (/healthz reads
# no body), as gunicorn reads on to the next request.
CHUNKED_HEAD = b"GET /healthz HTTP/1.1\r\n" + HEAD + b"Transfer-Encoding: chunked\r\n\r\n"
BROKEN_CHUNKS = {
    "a chunk size that is not hexadecimal": (CHUNKED_HEAD + b"zz\r\nabc\r\n0\r\n\r\n", 400),
    "a chunk not ended by CR LF": (CHUNKED_HEAD + b"3\r\nabcXY0\r\n\r\n", 400),
}


@dataclass
class Answer:
    status: int
    reason: str
    headers: dict[str, str]
    body: bytes


def exchange(port: int, data: bytes) -> tuple[list[Answer], bool]:
    """Send `data` at once; every answer that comes back, and whether the server then closed
    the connection (rather than leaving it open for 5 s)."""
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(data)
        closed = True
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except TimeoutError:
            closed = False
        except ConnectionResetError:  # closed with unread input left: still closed
            pass
    answers = []
    while received:
        head, _, rest = received.partition(b"\r\n\r\n")
        status_line, *lines = head.decode("latin-1").split("\r\n")
        _, status, reason = status_line.split(" ", 2)
        headers = {name.lower(): value.strip()
                   for name, value in (line.split(":", 1) for line in lines)}
        length = int(headers["content-length"])
        answers.append(Answer(int(status), reason, headers, rest[:length]))
        received = rest[length:]
    return answers, closed


def assert_problem(answer: Answer, status: int) -> dict:
    assert answer.status == status, answer
    assert answer.headers["content-type"] == PROBLEM_JSON, answer
    # the id every answer of the app carries, to quote when reporting it
    assert REQUEST_ID.fullmatch(answer.headers.get("x-request-id", "")), answer
    problem = json.loads(answer.body)
    assert set(problem) == {"type", "title", "status", "detail"}, problem
    # a kind /problems lists, of the answer's status
    slug = problem["type"].removeprefix("/problems/")
    assert problem["type"] == TYPES[status] == f"/problems/{slug}", problem
    assert KINDS[slug].status == status, problem
    assert problem["status"] == status
    assert problem["title"] == HTTPStatus(status).phrase
    # the status line's phrase is the status's (werkzeug's in capitals): gunicorn wrote
    # "501 Bad Request"
    assert answer.reason.lower() == HTTPStatus(status).phrase.lower(), answer
    # In plain words: a sentence, not gunicorn's message nor a page.
    assert problem["detail"].endswith(".") and "<" not in problem["detail"], problem
    assert "Invalid HTTP" not in problem["detail"] and "limit request" not in problem["detail"]
    return problem


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("malformed")
    with serve({"DATABASE_URL": f"sqlite:///{directory / 'digsite.db'}",
                "DIGSITE_ACCESS_LOG": str(directory / "access.log"),
                "DIGSITE_PRUNE_HOURS": "0"}, workers=1) as running:
        yield running


def test_each_malformed_request_is_answered_with_gunicorns_status_as_problem_json(server):
    details = {}
    for name, (request, status) in MALFORMED.items():
        answers, closed = exchange(server.port, request)
        assert len(answers) == 1, (name, answers)
        details[name] = assert_problem(answers[0], status)["detail"]
        assert closed, f"{name}: the connection was left open"
    # Each says what was wrong with it: the Content-Length, a header, a limit...
    assert "Content-Length" in details["a Content-Length that is no number"]
    assert "Transfer-Encoding" in details["chunked twice"]
    assert "header" in details["a header without a colon"]
    assert f" {FIELD_SIZE} " in details["a header over limit_request_field_size"]
    assert f" {FIELDS} " in details["more headers than limit_request_fields"]
    assert f" {LINE} " in details["a request line over limit_request_line"]
    assert "method" in details["a method in lower case"]
    assert "HTTP/1.1" in details["an HTTP version that does not exist"]


def test_a_broken_chunked_body_is_answered_as_problem_json(server):
    for name, (request, status) in BROKEN_CHUNKS.items():
        answers, closed = exchange(server.port, request)
        assert [answer.status for answer in answers] == [200, status], (name, answers)
        assert "chunk" in assert_problem(answers[-1], status)["detail"], name
        assert closed, f"{name}: the connection was left open"


def test_gunicorn_still_logs_what_it_refused_and_keeps_serving(server):
    probe = f"refused={uuid.uuid4().hex}"
    answers, _ = exchange(server.port, f"POST /healthz?{probe} HTTP/1.1\r\n".encode() + HEAD
                          + b"Content-Length: ten\r\n\r\n")
    assert [answer.status for answer in answers] == [400]
    # Its access line, and its warning on the error log.
    access = Path(server.env["DIGSITE_ACCESS_LOG"])
    deadline = time.monotonic() + 5
    while f'"POST /healthz?{probe} HTTP/1.1" 400' not in access.read_text():
        assert time.monotonic() < deadline, access.read_text()
        time.sleep(0.05)
    while "Invalid request from ip=127.0.0.1: Invalid HTTP Header: 'CONTENT-LENGTH'" \
            not in server.log():
        assert time.monotonic() < deadline, server.log()
        time.sleep(0.05)
    answers, _ = exchange(server.port, b"GET /healthz HTTP/1.1\r\n" + HEAD
                          + b"Connection: close\r\n\r\n")
    assert [answer.status for answer in answers] == [200]


# Every case of gunicorn's Worker.handle_error, the worker called as gunicorn calls it


class Sock:
    """A client socket: what is sent to it."""

    def __init__(self) -> None:
        self.sent = b""

    def gettimeout(self) -> float | None:
        return None

    def setblocking(self, flag: bool) -> None:
        pass

    def sendall(self, data: bytes) -> None:
        self.sent += data


class Log:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def warning(self, message, *args) -> None:
        self.lines.append(message % args if args else message)

    exception = debug = access = warning


@pytest.mark.parametrize(("error", "status"), [
    (errors.InvalidRequestLine("GET"), 400),
    (errors.InvalidRequestMethod("G@T"), 400),
    (errors.InvalidHTTPVersion((9, 9)), 400),
    (errors.InvalidHeader("NoColon"), 400),
    (errors.InvalidHeaderName("Bad Name"), 400),
    (errors.ObsoleteFolding("X-NOTE"), 400),
    (errors.LimitRequestLine(5000, 4094), 414),
    (errors.LimitRequestHeaders("limit request headers fields"), 431),
    (errors.InvalidChunkSize(b"zz"), 400),
    (errors.ChunkMissingTerminator(b"XY"), 400),
    (errors.InvalidChunkExtension("bare CR not allowed"), 400),
    (errors.UnsupportedTransferCoding("zip"), 501),
    (errors.ExpectationFailed("tea"), 417),
    (errors.InvalidSchemeHeaders(), 400),
    (errors.InvalidProxyLine("PROXY ?"), 400),
    (errors.ForbiddenProxyRequest("203.0.113.7"), 403),
    (errors.InvalidH2CPreface(b"GET"), 400),
    (ssl.SSLError(1, "bad handshake"), 403),
    (errors.ConfigurationProblem("no app"), 500),
    (errors.InvalidResponseHeader("X-Bad\r\n"), 500),
    (RuntimeError("the app broke"), 500),
], ids=lambda value: type(value).__name__ if isinstance(value, BaseException) else str(value))
def test_every_answer_of_gunicorns_handle_error_is_problem_json(error, status):
    from serving import OUR_FAULT, DigsiteWorker

    log = Log()
    worker = DigsiteWorker(0, os.getpid(), [], None, 30, Config(), log)
    sock = Sock()
    worker.handle_error(None, sock, ("127.0.0.1", 5555), error)
    answer = sock.sent
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith(f"HTTP/1.1 {status} ")
    assert "Connection: close" in lines and f"Content-Length: {len(body)}" in lines
    headers = {name.lower(): value.strip()
               for name, value in (line.split(":", 1) for line in lines[1:])}
    reason = lines[0].split(" ", 2)[2]
    problem = assert_problem(Answer(status, reason, headers, body), status)
    assert headers["x-content-type-options"] == "nosniff"  # as every answer of the app
    assert (problem["detail"] == OUR_FAULT) == (status == 500)
    assert log.lines, "gunicorn's log line is gone"


def test_an_answer_to_a_request_whose_headers_were_read_keeps_the_id_sent(server):
    answers, _ = exchange(server.port, b"POST /healthz HTTP/1.1\r\n" + HEAD
                          + b"X-Request-Id: table-7.ann:1\r\nContent-Length: ten\r\n\r\n")
    assert answers[0].headers["x-request-id"] == "table-7.ann:1"
    # one the app would not keep is replaced, as the app replaces it
    answers, _ = exchange(server.port, b"POST /healthz HTTP/1.1\r\n" + HEAD
                          + b"X-Request-Id: two words\r\nContent-Length: ten\r\n\r\n")
    assert REQUEST_ID.fullmatch(answers[0].headers["x-request-id"])
    assert answers[0].headers["x-request-id"] != "two words"


def test_a_status_no_kind_names_is_typed_as_the_request_s_fault_or_ours():
    from serving import problem_answer

    for status, kind in ((418, "malformed-request"), (505, "internal-error")):
        body = json.loads(problem_answer(status, "Odd", "Odd.").partition(b"\r\n\r\n")[2])
        assert body["type"] == f"/problems/{kind}"


def test_the_master_imports_the_worker_class_without_the_app_or_its_database_drivers():
    """gunicorn.conf.py: a master that imported psycopg would fork workers that block on it."""
    check = subprocess.run(
        [sys.executable, "-c", "import sys, serving; print(' '.join(sorted(sys.modules)))"],
        cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(check.stdout.split())
    assert not loaded & {"app", "api", "service", "scoring", "psycopg", "sqlalchemy", "flask"}
    assert setting("worker_class") == "serving.DigsiteWorker"


def test_the_types_gunicorn_s_answers_name_are_the_kinds_of_their_status():
    for status, uri in TYPES.items():
        assert KINDS[uri.removeprefix("/problems/")].status == status
    # every status gunicorn's handle_error and the connection limit answer
    assert {400, 403, 414, 417, 429, 431, 500, 501} <= set(TYPES)


def test_a_body_too_large_that_waits_to_be_asked_for_is_refused_before_it_is_sent(server):
    # Expect: 100-continue is a client's question whether to send its body (RFC 9110 10.1.1):
    # gunicorn said "100 Continue" to every one, and a client sent a megabyte to be refused.
    post = (b"POST /api/v1/games/dig/score HTTP/1.1\r\n" + HEAD
            + b"Content-Type: application/json\r\nExpect: 100-continue\r\n")
    answers, closed = exchange(server.port, post + b"Content-Length: %d\r\n\r\n"
                               % (MAX_BODY_BYTES + 1))
    assert [answer.status for answer in answers] == [413] and closed
    problem = assert_problem(answers[0], 413)
    assert problem["detail"] == "The request body is larger than 64 KiB."
    assert serving.MAX_BODY_BYTES == MAX_BODY_BYTES
    # a body within the limit is asked for, and read
    body = json.dumps({"bowls": [], "players": []}).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(post + b"Content-Length: %d\r\n\r\n" % len(body))
        assert sock.recv(65536) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(body)
        assert sock.recv(65536).startswith(b"HTTP/1.1 422 ")  # the calculator's own answer


@pytest.mark.parametrize("broken", [b"zz\r\nabc\r\n0\r\n\r\n", b"3\r\nabcXY0\r\n\r\n"])
def test_a_broken_chunked_body_the_app_reads_is_the_client_s_fault(server, broken):
    """Found by the app as it reads the body: 400, in its words, not a 500."""
    head = (b"POST /api/v1/games/dig/score HTTP/1.1\r\n" + HEAD
            + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    answers, _ = exchange(server.port, head + broken)
    problem = assert_problem(answers[0], 400)
    assert problem["type"] == "/problems/malformed-request"
    assert "chunked" in problem["detail"]
