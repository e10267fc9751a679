"""The worker gunicorn serves the app with (gunicorn.conf.py's worker_class): gunicorn's gevent
worker, except that gunicorn's own answers, to a request it could not read (a malformed request
line or header, headers or a request line over its limits, a broken Content-Length or chunked
body) or to a fault below the app, are application/problem+json (RFC 9457) in plain words, as
every other answer of the API is (api/errors.py), rather than an HTML page.

The master imports this module to find the worker class: it must import neither the app nor
psycopg or SQLAlchemy (gunicorn.conf.py's prune_once says why). It imports only gunicorn's gevent
worker module and gevent (as the master did for worker_class = "gevent") and the standard
library."""

import gc
import ipaddress
import json
import logging
import os
import re
import signal
import socket
import sys
import uuid
from collections import Counter
from http import HTTPStatus

import gevent
import gevent.select
from gunicorn import util
from gunicorn.arbiter import Arbiter
from gunicorn.config import Config
from gunicorn.http import errors, wsgi
from gunicorn.workers.base import Worker
from gunicorn.workers.ggevent import GeventWorker

PROBLEM_JSON = "application/problem+json"

REQUEST_LINE = ("The request line could not be read: it is the method, the address and the HTTP "
                "version, one space apart, such as 'GET /api/v1/games HTTP/1.1', and ends in "
                "CR LF.")
METHOD = ("The request's method is not one this server reads: a method is written in capitals, "
          "such as GET or POST.")
VERSION = "This server speaks HTTP/1.1 and HTTP/1.0: the request line must end with one of them."
HEADER_NAME = ("A request header's name is not valid: a name is letters, digits and hyphens, "
               "with no spaces, and a colon follows it.")
HEADER = ("A request header could not be read: each is one line, 'Name: value', with no control "
          "characters in its value, and a header such as Host is sent at most once.")
CONTENT_LENGTH = ("The Content-Length header must be one whole number of bytes, sent once, and "
                  "never together with Transfer-Encoding.")
TRANSFER_ENCODING = ("The Transfer-Encoding header must end with 'chunked', named once, in an "
                     "HTTP/1.1 request; or send the body with Content-Length instead.")
UNSUPPORTED_CODING = ("The request's Transfer-Encoding is not one this server reads: send the "
                      "body with 'Transfer-Encoding: chunked' or with Content-Length.")
BARE_LF = "Every line of the request's head must end in CR LF, not in LF alone."
FOLDING = ("A request header goes on over a second line (obsolete line folding): send each "
           "header on one line.")
CHUNKED = ("The chunked request body could not be read: each chunk is its size in hexadecimal "
           "and CR LF, then that many bytes and CR LF, and the body ends with a chunk of size 0.")
EXPECTATION = "The only expectation this server meets is 'Expect: 100-continue'."
# The most a request body may hold: api/errors.py's MAX_BODY_BYTES (this module may not import it;
# tests/test_malformed_http.py holds the two together), and the app's words for a body past it.
MAX_BODY_BYTES = 64 * 1024
BODY_TOO_LARGE = f"The request body is larger than {MAX_BODY_BYTES // 1024} KiB."
SCHEME = "The request's headers name its scheme (http or https) twice, differently."
PROXY = "The connection's PROXY protocol header could not be read."
PROXY_FORBIDDEN = "This address may not send a PROXY protocol header."
HTTP2_PREFACE = "An HTTP/2 connection must open with the HTTP/2 connection preface."
OUR_FAULT = "Something went wrong on our side; please try again."
BY_STATUS = {
    400: "The request could not be read.",
    403: "That connection is not allowed.",
    414: "The request line (method, address and HTTP version) is too long.",
    431: "The request's headers are too large.",
    500: OUR_FAULT,
}


def detail(error: BaseException, status: int, cfg: Config) -> str:
    """What was wrong with the request, in plain words, for gunicorn's `error` answered with
    `status`. What it does not know is said by the status alone."""
    if status >= 500 and status != 501:  # the server's own fault (or the app's below Flask)
        return OUR_FAULT
    if isinstance(error, errors.InvalidRequestLine):
        return BARE_LF if "bare LF" in str(error) else REQUEST_LINE
    if isinstance(error, errors.InvalidRequestMethod):
        return METHOD
    if isinstance(error, errors.InvalidHTTPVersion):
        return VERSION
    if isinstance(error, errors.InvalidHeaderName):
        return HEADER_NAME
    if isinstance(error, errors.InvalidHeader):
        header = str(getattr(error, "hdr", ""))
        return {"CONTENT-LENGTH": CONTENT_LENGTH, "TRANSFER-ENCODING": TRANSFER_ENCODING,
                "bare LF as line terminator": BARE_LF}.get(header, HEADER)
    if isinstance(error, errors.ObsoleteFolding):
        return FOLDING
    if isinstance(error, errors.UnsupportedTransferCoding):
        return UNSUPPORTED_CODING
    if isinstance(error, errors.LimitRequestLine):
        return limited("The request line (method, address and HTTP version) is longer than",
                       cfg.limit_request_line, "bytes: use a shorter address.", status)
    if isinstance(error, errors.LimitRequestHeaders):
        which = str(error)
        if which == "limit request headers fields":
            return limited("The request has more than", cfg.limit_request_fields, "headers.",
                           status)
        if which == "limit request headers fields size":
            return limited("A request header is longer than", cfg.limit_request_field_size,
                           "bytes.", status)
        if "trailer" in which:
            return "The chunked request body's trailer section is too large."
        return BY_STATUS[431]
    if isinstance(error, errors.InvalidChunkSize | errors.ChunkMissingTerminator
                  | errors.InvalidChunkExtension):
        return CHUNKED
    if isinstance(error, errors.ExpectationFailed):
        return EXPECTATION
    if isinstance(error, errors.InvalidSchemeHeaders):
        return SCHEME
    if isinstance(error, errors.InvalidProxyLine):
        return PROXY
    if isinstance(error, errors.ForbiddenProxyRequest):
        return PROXY_FORBIDDEN
    if isinstance(error, errors.InvalidH2CPreface):
        return HTTP2_PREFACE
    return BY_STATUS.get(status) or described(status)


def limited(before: str, limit: int, after: str, status: int) -> str:
    """A limit's sentence, naming it when one is set (0: none, so gunicorn's own bound)."""
    return f"{before} {limit} {after}" if limit > 0 else BY_STATUS[status]


def described(status: int) -> str:
    try:
        return HTTPStatus(status).description
    except ValueError:  # a code the standard library does not name
        return BY_STATUS[400] if status < 500 else OUR_FAULT


def title(status: int, reason: str) -> str:
    """The status's phrase, as api/errors.py titles its problems; gunicorn's reason for a code
    the standard library does not name."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return reason


# The problem type of each status gunicorn answers (service/errors.py's kinds, named here: this
# module may not import the service): the one kind of that status. A status no kind names (that
# no gunicorn answers today) is the request's fault or ours, as the app says of one
# (api/errors.py kind_of). tests/test_malformed_http.py holds them to the kinds.
TYPES = {400: "/problems/malformed-request", 403: "/problems/connection-not-allowed",
         413: "/problems/body-too-large", 414: "/problems/request-line-too-long",
         417: "/problems/expectation-failed", 429: "/problems/rate-limited",
         431: "/problems/headers-too-large", 500: "/problems/internal-error",
         501: "/problems/transfer-coding-unsupported"}
# A request's id, as the app takes one sent in X-Request-Id (api/requests.py VALID), else made.
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
# How many connections one address (an IPv6 network /64) may hold open on one worker at once:
# DIGSITE_CONNECTIONS_PER_ADDRESS (service/settings.py), 0 for no limit; unset, 256 (a school's
# or a café's tables behind one router, each phone's page and event stream, stay far below). Not
# here behind a trusted proxy (DIGSITE_TRUSTED_PROXIES), whose own address every connection has:
# there the app counts each client's requests under way by its forwarded address (api/limits.py
# UnderWay).
TOO_MANY_CONNECTIONS = ("Too many connections from your address are open at once; close some "
                        "(or wait for them to finish) and try again.")


def connection_settings(environ: dict[str, str]) -> tuple[int, bool]:
    """DIGSITE_CONNECTIONS_PER_ADDRESS as it applies to this server, and whether it serves
    behind a trusted proxy (DIGSITE_TRUSTED_PROXIES), read as the app reads its settings
    (ValueError naming one if it is no whole number ≥ 0)."""
    from service import settings  # in the worker, once gevent has patched what it patches

    config = settings.read({}, {name: environ[name] for name in (
        "DIGSITE_CONNECTIONS_PER_ADDRESS", "DIGSITE_TRUSTED_PROXIES") if name in environ})
    proxied = bool(config.digsite_trusted_proxies)
    return (0 if proxied else config.digsite_connections_per_address), proxied


def peer(addr) -> str:
    """Whom a connection counts for: its IPv4 address, or its IPv6 address's /64 network (the
    least a home is given); a Unix socket's connections all count as one."""
    host = addr[0] if isinstance(addr, tuple) and addr else ""
    try:
        parsed = ipaddress.ip_address(host)
    except ValueError:
        return host
    if parsed.version == 4:
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.IPv6Network((int(parsed), 64), strict=False))


def problem_type(status: int) -> str:
    """The `type` of gunicorn's answer with `status`: a kind /problems lists."""
    return TYPES.get(status) or TYPES[500 if status >= 500 else 400]


def request_id(req=None) -> str:
    """The id of the request answered, as the app gives one (X-Request-Id): the one sent, when
    gunicorn read the request's headers and it is 1–128 letters, digits, `.`, `_`, `-` or `:`;
    else a new one."""
    for name, value in getattr(req, "headers", None) or ():
        if name == "X-REQUEST-ID" and REQUEST_ID.fullmatch(value):
            return value
    return uuid.uuid4().hex


def problem_answer(status: int, reason: str, text: str, extra: str = "", req=None) -> bytes:
    """A whole HTTP/1.1 answer as gunicorn writes its own (status, Connection: close, the
    length), its body an RFC 9457 problem document, with the X-Request-Id every answer of the
    app carries (`req`: the request, if gunicorn read it)."""
    body = json.dumps({"type": problem_type(status), "title": title(status, reason),
                       "status": status, "detail": text}).encode()
    # the status's own phrase: gunicorn gives 501 the reason "Bad Request"
    head = (f"HTTP/1.1 {status} {title(status, reason)}\r\nConnection: close\r\n{extra}"
            f"X-Request-Id: {request_id(req)}\r\nX-Content-Type-Options: nosniff\r\n"
            f"Content-Type: {PROBLEM_JSON}\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


class HeldBack:
    """The client's socket as gunicorn's handle_error sees it: what it writes there (its HTML
    answer) is kept here instead of sent; everything else is the socket's own."""

    def __init__(self, sock) -> None:
        self._sock = sock
        self.written = bytearray()

    def sendall(self, data: bytes) -> None:
        self.written += data

    def send(self, data: bytes) -> int:
        self.written += data
        return len(data)

    def __getattr__(self, name: str):
        return getattr(self._sock, name)

    def status(self) -> tuple[int, str] | None:
        """The status and reason of the answer written, if one was."""
        line = bytes(self.written).split(b"\r\n", 1)[0].decode("latin-1")
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[0].startswith("HTTP/") and parts[1].isdigit():
            return int(parts[1]), parts[2]
        return None


# A body up to this size goes out in the same send as the head (OneSend).
ONE_SEND_BYTES = 64 * 1024


class OneSend(wsgi.Response):
    """gunicorn's response, except that an answer whose whole body comes in one piece of a
    known length (every answer of the API but an event stream's) goes out in one send with its
    head, not in two: on the loopback or a LAN each send is a system call and wakes the reader,
    a tenth of a small request's CPU."""

    def head(self) -> bytes:
        """The status line and headers as gunicorn's send_headers writes them."""
        lines = self.default_headers()
        lines.extend(f"{name}: {value}\r\n" for name, value in self.headers)
        return util.to_bytestring("".join(lines) + "\r\n", "latin-1")

    def write(self, arg) -> None:
        if (self.headers_sent or not isinstance(arg, bytes) or self._omits_body or self.chunked
                or self.response_length != len(arg) or len(arg) > ONE_SEND_BYTES):
            super().write(arg)
            return
        head = self.head()
        self.headers_sent = True
        self.sent = len(arg)
        util.write(self.sock, head + arg)


def app_logs_to(error_log: logging.Logger) -> None:
    """The app's own loggers (api, service, studies…) write where gunicorn's error log writes, in
    its format (time, process, level) and from its level: left alone, Python wrote only their
    warnings, bare, with no time, level or process for an operator to place them by."""
    root = logging.getLogger()
    root.handlers = list(error_log.handlers)
    root.setLevel(error_log.level)


def end_reading(sock) -> None:
    """The connection reads no more: its handler, waiting for a request, reads the end of it
    at once and closes it."""
    try:
        sock.shutdown(socket.SHUT_RD)
    except OSError:  # gone already
        pass


def declared_length(req) -> int:
    """The body's length as its Content-Length says it (gunicorn read it as one whole number:
    else it refused the request), or 0 without one."""
    return next((int(value) for name, value in req.headers if name == "CONTENT-LENGTH"), 0)


class DigsiteWorker(GeventWorker):
    """gunicorn's gevent worker, its own error answers problem+json; it ends its open event
    streams and closes its idle connections when told to stop, and keeps the garbage collector
    off what it loaded at start."""

    def init_process(self) -> None:
        # Until init_signals, the worker holds the master's handlers, which queue a signal for a
        # master loop this process never runs: told to stop as it booted, a worker loaded the
        # app and served on until the master killed it a graceful timeout later ("Perhaps out
        # of memory?"). What it is told meanwhile is kept for its own handlers (init_signals).
        self.told_early: list[int] = []
        for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
            signal.signal(sig, lambda sig, frame: self.told_early.append(sig))
        # the responses gunicorn makes for this worker's requests (wsgi.create) send once
        wsgi.Response = OneSend
        self.per_address, self.proxied = connection_settings(os.environ)
        self.open_from: Counter[str] = Counter()
        self.between_requests: set = set()  # connections waiting for their next request
        self.quitting: gevent.Greenlet | None = None  # handle_quit's, once told to stop at once
        try:
            super().init_process()
        finally:
            # Told to stop at once while it loaded the app, the worker may finish loading and
            # leave before handle_quit's greenlet wakes from its pause: that greenlet raised
            # SystemExit inside the interpreter's shutdown, and the worker printed its
            # traceback. The worker is leaving already: the greenlet is ended first.
            if self.quitting is not None:
                self.quitting.kill()

    def init_signals(self) -> None:
        """gunicorn's handlers, then what the worker was told before they were in place."""
        super().init_signals()
        for sig in self.told_early:
            signal.getsignal(sig)(sig, None)

    def handle(self, listener, client, addr) -> None:
        """A connection from an address that already holds its share of this worker's
        connections is answered 429 and closed at once; the others are served as ever."""
        who = peer(addr)
        if self.per_address and self.open_from[who] >= self.per_address:
            try:
                util.write_nonblock(client, problem_answer(
                    429, "Too Many Requests", TOO_MANY_CONNECTIONS, "Retry-After: 5\r\n"))
            except OSError:  # gone already
                pass
            finally:
                util.close(client)
            return
        self.open_from[who] += 1
        self.between_requests.add(client)
        try:
            super().handle(listener, client, addr)
        finally:
            self.between_requests.discard(client)
            self.open_from[who] -= 1
            if not self.open_from[who]:
                del self.open_from[who]

    def handle_request(self, listener_name, req, sock, addr):
        """A request read on a connection is served as ever; the connection waits for its next
        one, unless the worker is stopping: then it is closed once the answer is sent (gunicorn
        closes it after a request that began while stopping, not after one begun before).
        Behind a trusted proxy it is not: the answer of a request begun before said keep-alive,
        and a proxy sends its next request down that connection at any moment; it is left to
        its keep-alive timeout, as an idle one is (handle_exit), and what comes on it meanwhile
        is answered and closed after. Closed here, a request in flight as the worker was told
        to stop left its connection shut under the proxy's next request.

        A request that waits to be told to send its body (Expect: 100-continue) and says it is
        larger than any body the app reads is answered 413 at once, and its connection closed
        with the body unread (RFC 9110 10.1.1): gunicorn said "100 Continue" to every one,
        and the client sent its whole body to be refused."""
        self.between_requests.discard(sock)
        try:
            if req._expected_100_continue and declared_length(req) > MAX_BODY_BYTES:
                util.write(sock, problem_answer(413, "Request Entity Too Large", BODY_TOO_LARGE,
                                                req=req))
                raise StopIteration  # the connection is closed: the body was never asked for
            return super().handle_request(listener_name, req, sock, addr)
        finally:
            if self.alive:
                self.between_requests.add(sock)
            elif not self.proxied:
                end_reading(sock)

    def close_waiting(self) -> None:
        """Stopping: every connection waiting for a request with nothing sent yet is closed, as
        gunicorn's threaded worker closes its kept-alive ones. Left open, an idle keep-alive
        connection (a browser keeps several) held the worker until it timed out, so each
        worker took 5 s to stop and a rolling restart 5 s more a server. One with bytes of its
        next request waiting to be read is served, and closed after its answer."""
        for sock in list(self.between_requests):
            try:
                arriving, _, _ = gevent.select.select([sock], [], [], 0)
            except (OSError, ValueError):  # closed meanwhile
                continue
            if not arriving:
                end_reading(sock)

    def load_wsgi(self) -> None:
        """Load the app, then move everything loaded so far (modules, the app, its schemas and
        document: about 150,000 objects) out of the garbage collector's sight: they live as long
        as the worker, and each full collection would walk them all again. The objects requests
        make are collected as before.

        A worker told to stop before it loads the app leaves without loading it: loading takes
        a second or more (seconds on a busy machine, with a migration), which a stop should
        not wait for, and a graceful stop's timeout may not cover."""
        from service.settings import SettingError  # the app's package: in the worker alone

        if not self.alive or self.quitting is not None:
            sys.exit(0)
        app_logs_to(self.log.error_log)
        try:
            super().load_wsgi()
        except SettingError as refused:
            # Said once, as gunicorn.conf.py says its own settings: gunicorn logged the worker's
            # traceback ("Exception in worker process"), and a host read a crash.
            self.log.error("Error: %s", refused)
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
        gc.freeze()

    def run(self) -> None:
        """Serve until told to stop. A worker whose bots have thought then ends at once, its
        database connections closed and its logs flushed (service.offload.thought says why).
        Imported here: the master imports this module, and must not import the app's (psycopg
        chooses how it waits as it is imported)."""
        super().run()
        from service.offload import thought

        if thought():
            storage = getattr(getattr(self, "wsgi", None), "extensions", {}).get("digsite_storage")
            if storage is not None:  # its connections closed as a database expects
                storage.engine.dispose()
            self.log.info("Worker exiting (pid: %s)", self.pid)
            logging.shutdown()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)

    def handle_exit(self, sig, frame) -> None:
        """SIGTERM: the worker stops taking connections and gives what it serves
        graceful_timeout to finish. An event stream would take all of it (it lasts ten
        minutes): its open streams are told to end as well (the app's `digsite_leaving`,
        service.leaving), so they close at once and their clients resume with Last-Event-ID on
        a worker that stays; the connections waiting for a request are closed (close_waiting).
        Behind a trusted proxy they are not: a proxy sends a request down an idle connection
        of its own at any moment, and one closed just then is a reset it cannot send on to
        another server when it is a POST (a 502, in rolling restarts through Caddy and nginx).
        There they are left to the keep-alive timeout (5 s), past the proxies' own (4 s,
        deploy/), so the proxy closes them first; a request that comes meanwhile is served and
        its connection closed after the answer. Told from a greenlet, not from inside the
        signal handler."""
        super().handle_exit(sig, frame)
        if not getattr(self, "proxied", False):  # none yet when told to stop as it starts
            gevent.spawn(self.close_waiting)
        app = getattr(self, "wsgi", None)  # none yet when told to stop as it starts
        leaving = getattr(app, "extensions", {}).get("digsite_leaving")
        if leaving is not None:
            gevent.spawn(leaving)

    def handle_quit(self, sig, frame) -> None:
        """SIGQUIT and SIGINT: stop at once, as gunicorn does, once. Ctrl-C on `make run` sends
        SIGINT to the workers and to the master, which sends them SIGQUIT: the second signal
        raised SystemExit again inside the interpreter's shutdown that the first began, and each
        worker printed a traceback as it stopped. Out of the signal handler, as GeventWorker
        does (its greenlet is kept: init_process ends it if the worker leaves first)."""
        if self.quitting is not None:
            return
        self.quitting = gevent.spawn(Worker.handle_quit, self, sig, frame)

    def handle_error(self, req, client, addr, exc) -> None:
        """gunicorn's handle_error decides the status, logs the error and the access line as
        ever, and writes its answer to a stand-in for the socket; the same status then goes to
        the client with a problem+json body. The caller closes the connection, as before."""
        held = HeldBack(client)
        super().handle_error(req, held, addr, exc)
        answered = held.status()
        if answered is None:  # nothing, or nothing we can read: pass it on as written
            answer = bytes(held.written)
        else:
            status, reason = answered
            answer = problem_answer(status, reason, detail(exc, status, self.cfg),
                                    req=req or getattr(exc, "req", None))
        if not answer:
            return
        try:
            util.write_nonblock(client, answer)
        except Exception:  # the client is gone: as gunicorn's own
            self.log.debug("Failed to send error message.")
