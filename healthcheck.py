"""The container's health check: GET /healthz on the address gunicorn listens on, DIGSITE_BIND
as gunicorn.conf.py reads it (HOST:PORT, [IPv6]:PORT, :PORT, a HOST alone on gunicorn's port
8000, or unix:PATH; unset, 127.0.0.1:8000). An address of every interface (0.0.0.0, ::, none) is
asked on loopback. Exits 0 when /healthz answers 200 within two seconds, else 1.

    python healthcheck.py"""

import http.client
import os
import socket
import sys

TIMEOUT_SECONDS = 2
EVERY_INTERFACE = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}


class UnixConnection(http.client.HTTPConnection):
    """HTTP over a unix socket (gunicorn's unix:PATH)."""

    def __init__(self, path: str) -> None:
        super().__init__("localhost", timeout=TIMEOUT_SECONDS)
        self.path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(TIMEOUT_SECONDS)
        self.sock.connect(self.path)


def connection(bind: str) -> http.client.HTTPConnection:
    if bind.startswith("unix:"):
        return UnixConnection(bind.removeprefix("unix:"))
    host, colon, port = bind.rpartition(":") if not bind.endswith("]") else ("", "", "")
    host = host if colon else bind
    host = host.removeprefix("[").removesuffix("]")
    return http.client.HTTPConnection(EVERY_INTERFACE.get(host, host), int(port or 8000),
                                      timeout=TIMEOUT_SECONDS)


def healthy(bind: str) -> bool:
    try:
        conn = connection(bind)
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except (OSError, ValueError, http.client.HTTPException):
        return False


if __name__ == "__main__":
    sys.exit(0 if healthy(os.environ.get("DIGSITE_BIND", "").strip() or "127.0.0.1:8000") else 1)
