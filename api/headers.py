"""What a match request says in its headers (and how the document names them): the Bearer
token, the version an action was taken on, where a resumed stream picks up; and the caching
headers of a view that answer it."""

import hashlib
from typing import Any

from flask import Response, request
from flask_smorest import abort

from service.errors import INVALID_HEADER
from service.store import Match

from .schemas.matches import MAX_SEQ

SEAT_TOKEN = {"seatToken": []}
OPTIONAL_TOKEN = [SEAT_TOKEN, {}]
IF_MATCH = {"name": "If-Match", "in": "header", "required": False,
            "schema": {"type": "string", "pattern": r'^(W/)?"?[0-9]{1,10}(\.[^"]*)?"?$',
                       "example": '"4.seat0.r2"'},
            "description": "The version you acted on, instead of `version` in the body (sent "
                           "with it, both must name the same version)"}
IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False,
                 "schema": {"type": "string", "example": '"4.seat0.r2"'},
                 "description": "The ETag of the view you hold: 304, with no body, while it is "
                                "still the view this token would get"}
# What a seat's view is answered with (API.md "Caching"), declared on each operation answering one.
VIEW_HEADERS = {
    "ETag": {"description": "This view's tag: its version, its viewer, then what its body "
                            "comes to (a seat's presence, a clock and a rematch change a view "
                            "without a new version). Send it as If-None-Match to read the view "
                            "again only when it changed, or as If-Match to act on its version",
             "schema": {"type": "string", "example": '"4.seat0.3f9a07c2d1e8"'}},
    "Vary": {"description": "`Authorization`: each token has a view of its own; and `Origin` "
                            "where other origins may call the API (DIGSITE_CORS_ORIGINS)",
             "schema": {"type": "string", "example": "Authorization, Origin"}},
}
LAST_EVENT_ID = {"name": "Last-Event-ID", "in": "header", "required": False,
                 "schema": {"type": "string", "pattern": "^ *([0-9]{1,10} *)?$"},
                 "description": f"Resume after this event id (a seq, at most {MAX_SEQ})"}


# The schema of each event's `data` (JSON) alone, as an extension: what OpenAPI 3.2 names a
# media type's itemSchema. Kept for the clients that read it; `event_stream` says the same in 3.1.
STREAM_DATA = "x-event-data"


def event_stream(event: str, data: str, description: str) -> dict:
    """A 200 answered with Server-Sent Events, described as OpenAPI 3.1 can (and as schemathesis
    and OpenAPI 3.2 read a stream's schema): one event as a client parses it, `event` named,
    `id` a whole number, and `data` the JSON text of the schema `data` refers to."""
    return {"description": description, "headers": {"X-Accel-Buffering": {
        "description": "`no`: a proxy before the server (nginx) passes each event on as it comes "
                       "rather than holding it in a buffer",
        "schema": {"type": "string", "enum": ["no"]}}}, "content": {"text/event-stream": {
        "schema": {
            "type": "object", "required": ["event", "data"],
            "description": "One event of the stream, as an EventSource parses it; an event "
                           "with no data (the stream's opening `retry:`) is none",
            "properties": {
                "event": {"type": "string", "enum": [event]},
                "id": {"type": "string", "pattern": "^[0-9]+$",
                       "description": "Send it back as Last-Event-ID to resume after it"},
                "retry": {"type": "integer", "description": "Milliseconds to wait before "
                                                            "reconnecting"},
                "data": {"type": "string", "contentMediaType": "application/json",
                         "contentSchema": {"$ref": data}}}},
        STREAM_DATA: {"$ref": data}}}}


def sent_token() -> str | None:
    """The token of the request's Authorization header, read as every operation reads it (the
    scheme in any case, spaces around the token dropped); None without one, or for a header that
    holds no bearer token."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


def bearer_token() -> str | None:
    if "Authorization" not in request.headers:
        return None
    token = sent_token()
    if token is None:
        abort(401, message="Send the token as 'Authorization: Bearer <token>'.")
    return token


def version_sent(body: dict[str, Any]) -> int:
    """The version the caller acted on: `version` in the body, or If-Match holding a view's ETag
    (its version comes first) or the bare version; both, if they name the same one."""
    header = request.headers.get("If-Match", "").strip()
    matched = None
    if header:
        tag = header.removeprefix("W/").strip('"').split(".")[0]
        if not (tag.isascii() and tag.isdigit() and len(tag) <= 10):
            abort(422, message="If-Match must hold the match version, e.g. \"3\".",
                  errors={"If-Match": ["Send the version number the view showed."]},
                  kind=INVALID_HEADER)
        matched = int(tag)
    if "version" in body:
        if matched is not None and matched != body["version"]:
            abort(422, message=f"The body's version ({body['version']}) and If-Match ({matched}) "
                               "name different versions: send the one the view showed.",
                  errors={"If-Match": ["It names another version than the body's `version`."]},
                  kind=INVALID_HEADER)
        return body["version"]
    if matched is not None:
        return matched
    abort(422, message="Send the version you acted on, as `version` or an If-Match header.",
          errors={"version": ["Send the version the view showed."]})


def last_event_id() -> int | None:
    """Where a resumed stream picks up: the Last-Event-ID a browser or client sends back."""
    sent = request.headers.get("Last-Event-ID", "").strip()
    if not sent:
        return None
    # Its length first: Python refuses to read an integer of over 4,300 digits.
    if sent.isascii() and sent.isdigit() and len(sent) <= 10 and int(sent) <= MAX_SEQ:
        return int(sent)
    abort(422, message="Last-Event-ID holds the id of the last event you received, e.g. 12.",
          errors={"Last-Event-ID": ["Send back the id of the last event received."]},
          kind=INVALID_HEADER)


def caching(match: Match, seat: int | None, body: bytes) -> tuple[dict[str, str], bool]:
    """A view's caching headers (API.md "Caching"), and whether the request's If-None-Match
    holds this view already (a 304). The ETag names the version and the viewer, then what the
    view's bytes come to: a view changes without a new version too (a seat's presence, a clock
    running down, a rematch named, the rules' revision), and a strong tag changes with its
    body."""
    viewer = "spectator" if seat is None else f"seat{seat}"
    tag = f"{match.version}.{viewer}.{hashlib.blake2b(body, digest_size=6).hexdigest()}"
    headers = {"ETag": f'"{tag}"', "Vary": "Authorization", "Cache-Control": "private, no-cache"}
    # If-None-Match compares weakly (RFC 9110 13.1.2): W/"3.seat0.…" names this view too.
    return headers, request.method == "GET" and request.if_none_match.contains_weak(tag)


def bodiless(response: Response) -> Response:
    """An answer with no body claims no type: a 204 or 304 carries no Content-Type, and the
    answer to a plain OPTIONS (its Allow, built empty by Flask as an HTML page) is a 204."""
    if (request.method == "OPTIONS" and response.status_code == 200 and response.allow
            and response.calculate_content_length() == 0):
        response.status_code = 204
    if response.status_code in (204, 304):
        response.headers.pop("Content-Type", None)
    return response
