"""Every error as application/problem+json (RFC 9457), in words a player understands."""

import json
import logging
import re
import sys
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from service import DATABASE_AWAY
from service.errors import (
    BODY_TOO_LARGE,
    DATABASE_UNAVAILABLE,
    GONE,
    GONE_REASONS,
    INTERNAL_ERROR,
    INVALID_BODY,
    KINDS,
    MALFORMED_REQUEST,
    METHOD_NOT_ALLOWED,
    NOT_FOUND,
    RANGE_NOT_SATISFIABLE,
    RATE_LIMITED,
    UNAUTHORIZED,
    UNSUPPORTED_MEDIA_TYPE,
    Kind,
    Refused,
)

from .requests import request_id
from .schemas.common import Sent

PROBLEM_JSON = "application/problem+json"
MAX_BODY_BYTES = 64 * 1024
log = logging.getLogger(__name__)

DETAILS = {
    400: "The request could not be read.",
    401: "A seat token is needed: send it as 'Authorization: Bearer <token>'.",
    403: "That is not allowed for this seat.",
    404: "There is nothing at this address.",
    405: "This address does not accept that method.",
    409: "Someone acted first: reload and try again.",
    413: f"The request body is larger than {MAX_BODY_BYTES // 1024} KiB.",
    415: "Send the body as JSON, with 'Content-Type: application/json'.",
    422: "Some of the input is not valid.",
    500: "Something went wrong on our side. Nothing you sent was lost; please try again.",
    503: "The server cannot reach its database just now; please try again in a few seconds.",
}
# The kind of an HTTP error raised with its status alone (werkzeug's own, or abort(status)); an
# abort that means another kind of that status names it: abort(422, kind=INVALID_HEADER, ...).
BY_STATUS = {kind.status: kind for kind in (
    MALFORMED_REQUEST, UNAUTHORIZED, NOT_FOUND, METHOD_NOT_ALLOWED, GONE, BODY_TOO_LARGE,
    UNSUPPORTED_MEDIA_TYPE, RANGE_NOT_SATISFIABLE, INVALID_BODY, RATE_LIMITED, INTERNAL_ERROR,
    DATABASE_UNAVAILABLE)}
TYPE_PREFIX = "/problems/"  # a kind's page, relative to the API's origin (RFC 9457 allows it)


def type_uri(kind: Kind) -> str:
    """The `type` of a problem of this kind: it never changes, whatever its wording."""
    return TYPE_PREFIX + kind.slug


def kind_of(status: int) -> Kind:
    """The kind of an HTTP error that names none: its status's own, else (a status no kind
    names, which nothing here raises) the request's fault or ours."""
    return BY_STATUS.get(status) or (INTERNAL_ERROR if status >= 500 else MALFORMED_REQUEST)


TYPES = [type_uri(kind) for kind in KINDS.values()]
# Each type's name in code generated from the document (openapi-python-client and others read
# x-enum-varnames), so that it is STALE_VERSION, whatever kinds are added, not VALUE_14.
TYPE_NAMES = {"x-enum-varnames": [kind.slug.replace("-", "_").upper() for kind in KINDS.values()]}
TYPES_IN_WORDS = "\n".join(f"- `{type_uri(kind)}` ({kind.status}): {kind.title}"
                           for kind in sorted(KINDS.values(), key=lambda k: (k.status, k.slug)))

# How long a client is asked to wait while the database cannot be reached (a restart of
# PostgreSQL takes seconds; pool_pre_ping then finds the new connections by itself).
UNAVAILABLE_RETRY_SECONDS = 5


class ProblemSchema(Sent):
    """An RFC 9457 problem document: open to members added later (RFC 9457 3.2, API.md), as
    every answer is (Sent)."""

    class Meta:
        sometimes = ("errors", "reason")

    type = ma.fields.String(required=True, validate=ma.validate.OneOf(TYPES), metadata={
        "description": "A URI naming the kind of problem, relative to the API's origin: "
                       "`GET` it for the kind's description. Branch on it: the wording of an "
                       "answer may change, its type never does.\n\n" + TYPES_IN_WORDS,
        "example": type_uri(INVALID_BODY), **TYPE_NAMES})
    title = ma.fields.String(required=True, metadata={
        "description": "The HTTP status's reason phrase (RFC 9110), the same for every problem "
                       f"of that status: `{HTTPStatus(422).phrase}` for a 422. The kind's own "
                       "title is on the page its `type` leads to",
        "example": HTTPStatus(422).phrase})
    status = ma.fields.Integer(required=True, metadata={"description": "The HTTP status code",
                                                       "example": 422})
    detail = ma.fields.String(required=True,
                              metadata={"description": "What went wrong, in plain words"})
    errors = ma.fields.Dict(
        keys=ma.fields.String(), values=ma.fields.List(ma.fields.String()),
        metadata={"description": "For invalid input: field path (dotted; `body` for the body "
                                 "as a whole) → messages, in words a player understands",
                  "example": {"players.0.tiles.gold": ["Enter a whole number from 0 to 99."]}})
    reason = ma.fields.String(validate=ma.validate.OneOf(GONE_REASONS), metadata={
        "description": "For a gone match (410): why, for a client to say in its own words. "
                       + "; ".join(f"`{name}`: {words}" for name, words in GONE_REASONS.items())
                       + ".", "example": "cancelled"})


# What a 401 asks for (RFC 6750): a seat's, host's or study's token, as a bearer token.
CHALLENGE = 'Bearer realm="digsite"'


def problem(kind: Kind, detail: str | None = None, errors: dict | None = None,
            headers: dict | None = None, status: int | None = None,
            members: dict[str, Any] | None = None) -> Response:
    """A problem of `kind`, answered with its status (or `status`, for an HTTP error whose
    status no kind names), and the kind's own `members` (a 410's `reason`)."""
    status = status or kind.status
    body: dict[str, Any] = {
        "type": type_uri(kind),
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail or DETAILS.get(status, HTTPStatus(status).description),
        **(members or {}),
    }
    if errors:
        body["errors"] = bounded(errors)
    # A lone surrogate that reached a message is written as its JSON escape, never as a 500.
    text = json.dumps(body, ensure_ascii=False).encode("utf-8", "backslashreplace")
    response = Response(text, status=status, mimetype=PROBLEM_JSON)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    if status == 401:  # RFC 9110 15.5.2: a 401 names the scheme that would be accepted
        response.headers.setdefault("WWW-Authenticate", CHALLENGE)
    return response


# An answer names at most this many fields, each with at most MAX_MESSAGES messages: a body
# holding thousands of wrong items gets a short answer, its detail counting the rest.
MAX_ERROR_FIELDS, MAX_MESSAGES = 50, 5


def bounded(errors: dict[str, list[str]]) -> dict[str, list[str]]:
    if len(errors) <= MAX_ERROR_FIELDS and all(len(m) <= MAX_MESSAGES for m in errors.values()):
        return errors
    return {field: list(messages)[:MAX_MESSAGES]
            for field, messages in list(errors.items())[:MAX_ERROR_FIELDS]}


def flatten_messages(messages: Any, prefix: str = "") -> dict[str, list[str]]:
    """Nested marshmallow messages as {"players.0.tiles.gold": [...]}.

    "_schema" names the parent; webargs' "json" location is dropped."""
    if isinstance(messages, dict):
        flat: dict[str, list[str]] = {}
        for key, value in messages.items():
            if key in ("json", "_schema") and not prefix:
                path = "" if key == "_schema" else prefix
            elif key == "_schema":
                path = prefix
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            for field, msgs in flatten_messages(value, path).items():
                flat.setdefault(field, []).extend(msgs)
        return flat
    if isinstance(messages, list | tuple) and all(isinstance(m, str) for m in messages):
        return {prefix or "body": list(messages)}
    return {prefix or "body": [str(messages)]}


def summarise(errors: dict[str, list[str]]) -> str:
    """The first field's first message, and how many other problems `errors` names. One problem
    said on several fields counts once: a limit across players (scoring/results.py
    Problems.limit) is said on `players` and again on each field holding some, so a message a
    field shares with a field above it (`players` above `players.2.tiles.gold`) is that one's."""
    first_field, first_messages = next(iter(errors.items()))
    problems = set()
    for field, messages in errors.items():
        above = [field[:at] for at, char in enumerate(field) if char == "."]
        for message in messages:
            if not any(message in errors.get(parent, ()) for parent in above):
                problems.add((field, message))
    more = len(problems) - 1
    where = "" if first_field == "body" else f"{first_field}: "
    return f"{where}{first_messages[0]}" + (f" (and {more} more)" if more > 0 else "")


_GAME_PATH = re.compile(r"^/api/v1/games/([^/]+)")


# werkzeug refuses a WebSocket handshake to an address that is no WebSocket's with a bare 400.
NO_WEBSOCKET = ("This server does not speak WebSocket: follow a match with its event stream, "
                "GET /api/v1/matches/{id}/events (Server-Sent Events), or a shared tally with "
                "GET /api/v1/tallies/{id}/events.")


def _detail_for_404() -> str | None:
    from scoring.games import GAMES  # the catalogue of games, to name an unknown one

    match = _GAME_PATH.match(request.path)
    if match and match.group(1) not in GAMES:
        return (f"There is no game '{match.group(1)}'. The games are: "
                f"{', '.join(GAMES)}.")
    return None


def handle_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    detail = data.get("message")
    errors = data.get("errors") or None
    if detail is None and status == 404:
        detail = _detail_for_404()
    if detail is None and status == 400 and \
            request.headers.get("Upgrade", "").strip().lower() == "websocket":
        detail = NO_WEBSOCKET
    if detail is None and status not in DETAILS and error.description:
        detail = error.description
    headers = dict(data.get("headers") or {})
    if status == 405 and error.get_response().headers.get("Allow"):
        headers["Allow"] = error.get_response().headers["Allow"]
    return problem(data.get("kind") or kind_of(status), detail, errors, headers, status)


def handle_refused(refused: Refused) -> Response:
    """The match service would not do it (service/errors.py): nothing changed."""
    retry_after = getattr(refused, "retry_after", None)
    reason = getattr(refused, "reason", None)
    return problem(refused.kind, refused.message, refused.errors,
                   None if retry_after is None else {"Retry-After": str(retry_after)},
                   members=None if reason is None else {"reason": reason})


# The database cannot be reached (service.DATABASE_AWAY). PostgreSQL's driver's own errors are
# told apart in handle_unexpected: psycopg is imported only to reach PostgreSQL.


def handle_database_away(error: Exception) -> Response:
    """The database cannot be reached, or (SQLite) stayed locked past the busy timeout: 503 with
    Retry-After, whatever the operation. Any other database error is a fault of ours (500)."""
    log.warning("database unavailable on %s %s (request %s): %s", request.method, request.path,
                request_id(), str(error).splitlines()[0])
    return problem(DATABASE_UNAVAILABLE, headers={"Retry-After": str(UNAVAILABLE_RETRY_SECONDS)})


def handle_unexpected(error: Exception) -> Response:
    psycopg = sys.modules.get("psycopg")  # an error of psycopg's comes only once it is imported
    if psycopg and isinstance(error, psycopg.OperationalError | psycopg.InterfaceError):
        return handle_database_away(error)
    log.exception("unexpected error on %s %s (request %s)", request.method, request.path,
                  request_id())
    return problem(INTERNAL_ERROR)


def init_app(app: Flask) -> None:
    app.config["MAX_CONTENT_LENGTH"] = app.config.get("MAX_CONTENT_LENGTH") or MAX_BODY_BYTES
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Refused, handle_refused)
    for away in DATABASE_AWAY:
        app.register_error_handler(away, handle_database_away)
    app.register_error_handler(Exception, handle_unexpected)


def schema_pending(app: Flask) -> None:
    """For a worker that started while the database was away (its schema not yet at the newest
    revision): before anything else of a stored operation, the schema is brought there; while
    the database is still away, that operation answers 503 like any other (handle_database_away).
    Every other worker does no such check."""
    store = app.extensions["digsite_storage"]

    def schema_at_newest() -> None:
        if not store.newest and STORED.fullmatch(request.path):
            store.bring_to_newest()

    app.before_request_funcs.setdefault(None, []).insert(0, schema_at_newest)


# The operations that read or write the database: they may answer 503 while it is away (and any
# POST sent with an Idempotency-Key, whose keys are stored: api/idempotency.py).
STORED = re.compile(r"/api/v1/(matches|tallies|studies)/.*"
                    r"|/api/v1/games/[^/]+/(matches|tallies|studies)(/.*)?")


def document_unauthorized(spec) -> None:
    """Every 401 documents the challenge it carries."""
    components = spec.components
    response = (components.responses_lazy.get("UNAUTHORIZED")
                or components.responses.get("UNAUTHORIZED"))
    if response is not None:
        response["headers"] = {"WWW-Authenticate": {
            "description": "The scheme a token is sent in: `Bearer`",
            "schema": {"type": "string", "example": CHALLENGE}}}


def document_unavailable(spec) -> None:
    """Every stored operation documents its 503 with Retry-After."""
    components = spec.components
    response = (components.responses_lazy.get("SERVICE_UNAVAILABLE")
                or components.responses["SERVICE_UNAVAILABLE"])
    response["description"] = ("The database cannot be reached just now: try again after "
                               "Retry-After seconds")
    response["headers"] = {"Retry-After": {
        "description": "Whole seconds to wait before trying again",
        "schema": {"type": "integer", "minimum": 1}}}
    for path, item in spec._paths.items():
        if STORED.fullmatch(re.sub(r"\{[^}]+\}", "x", path)):
            for method, operation in item.items():
                if method in ("get", "put", "post", "delete", "patch"):
                    operation["responses"].setdefault(
                        "503", {"$ref": "#/components/responses/SERVICE_UNAVAILABLE"})
