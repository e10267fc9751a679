"""A request id on every answer (`X-Request-Id`) and in the logs, so that a client reporting a
problem and an operator reading the logs speak of the same request. A caller (or a proxy before
the app) may send its own id, kept when it is 1–128 letters, digits, `.`, `_`, `-` or `:`;
otherwise the app makes one."""

import re
import uuid

from flask import Flask, Response, g, request

HEADER = "X-Request-Id"
VALID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
DOCUMENTED = {"description": "This request's id: the one sent in `X-Request-Id` when it was 1–128 "
                             "letters, digits, `.`, `_`, `-` or `:`, else one the server made. "
                             "Quote it when reporting a problem: the server's logs name it "
                             "(every error it logs; every request where it keeps an access "
                             "log, DIGSITE_ACCESS_LOG).",
              "schema": {"type": "string"}}


def request_id() -> str:
    """The current request's id (made on first use)."""
    found = g.get("request_id")
    if found is None:
        sent = request.headers.get(HEADER, "")
        found = g.request_id = sent if VALID.fullmatch(sent) else uuid.uuid4().hex
    return found


def init_app(app: Flask) -> None:
    @app.after_request
    def answer_with_id(response: Response) -> Response:
        response.headers[HEADER] = request_id()
        # Every answer is read as the type it says (JSON, problem+json, a redirect's page),
        # never sniffed into another by a browser: the pages said so, the API did not.
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response
