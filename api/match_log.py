"""A match's log over HTTP, on the matches' blueprint: its pages, and its live updates as
Server-Sent Events (API.md "Live updates"), each entry as the caller may know it (the match
service renders it: service/matches.py)."""

import select
import socket
import ssl
from collections.abc import Callable
from typing import Any

from flask import Response, request, stream_with_context
from flask.views import MethodView

from service import match_service as service
from service.errors import GONE, INVALID_HEADER, NOT_FOUND, STALE_VERSION, UNAUTHORIZED
from service.webhooks import DELIVERY_ID, SIGNATURE

from .headers import (
    LAST_EVENT_ID,
    OPTIONAL_TOKEN,
    VIEW_HEADERS,
    bearer_token,
    event_stream,
    last_event_id,
)
from .matches import blp
from .schemas.matches import (
    LogQuerySchema,
    LogSchema,
    WebhookDeliverySchema,
)


def client_left(environ: dict[str, Any]) -> Callable[[], bool]:
    """Whether the client of a stream's request has closed its connection: an event stream's
    client sends nothing after its request, so a socket with something to read and nothing in
    it is one its client closed (a phone's page closed, its site data cleared). The stream then
    ends without keeping a seat present (service/streams.py). Known under gunicorn, which gives
    its socket; on TLS, or under another server, never."""
    sock = environ.get("gunicorn.socket")
    if sock is None or isinstance(sock, ssl.SSLSocket):
        return lambda: False

    def left() -> bool:
        try:
            readable, _, _ = select.select([sock], [], [], 0)  # cooperative under gevent
            return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):  # reset, or closed meanwhile (no descriptor left)
            return True
    return left


def document_stream(spec) -> None:
    """The webhooks a match may send (OpenAPI 3.1's top-level `webhooks`), each delivery's body
    and headers. (StreamEntry, the match stream's `data`, is the views' module's: one per
    game.)"""
    spec.components.schema("WebhookDelivery", schema=WebhookDeliverySchema)
    spec.options["webhooks"] = {"matchEvent": {"post": {
        "operationId": "receiveMatchEvent", "security": [],
        "summary": "What a match's webhook is told",
        "description": "Sent to the `url` of a match created with a `webhook`, for each of its "
                       "`events`; tried again later, waiting twice as long each time, until "
                       "the receiver answers 2xx within 5 s, 12 attempts at most (then given "
                       "up). A delivery may come more than once (an answer later than 5 s is "
                       "no answer): drop one whose `Digsite-Delivery` was had already. Check "
                       "the signature with the creation answer's `webhook_secret`, and refuse "
                       "an old `t` (a replay).",
        "parameters": [
            {"name": SIGNATURE, "in": "header", "required": True,
             "schema": {"type": "string", "pattern": "^t=[0-9]+,v1=[0-9a-f]{64}$"},
             "description": "`t=<unix time>,v1=<hex HMAC-SHA256, keyed with the webhook "
                            "secret, of \"<t>.<body>\">`"},
            {"name": DELIVERY_ID, "in": "header", "required": True,
             "schema": {"type": "string", "pattern": "^[0-9]+$"},
             "description": "This delivery's id: the same on each attempt, so a receiver "
                            "told twice can tell"}],
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/WebhookDelivery"}}}},
        "responses": {"2XX": {"description": "Received, if answered within 5 s: the "
                                             "delivery is not sent again"},
                      "4XX": {"description": "Refused (a signature the receiver does not take): "
                                             "sent again later, like any answer but a 2xx"},
                      "default": {"description": "Not received: sent again later"}}}}}


@blp.route("/matches/<string:match_id>/events", parameters=[LAST_EVENT_ID])
class MatchEvents(MethodView):
    # The header is the path's parameter: an operation's own `parameters` would replace the
    # query's, `after`, which blp.arguments documents.
    @blp.doc(operationId="streamMatchEvents", security=OPTIONAL_TOKEN)
    @blp.arguments(LogQuerySchema(only=("after",)), location="query")
    @blp.refuses(UNAUTHORIZED, NOT_FOUND, GONE, STALE_VERSION, INVALID_HEADER)
    @blp.doc(responses={"200": event_stream(
        "entry", "#/components/schemas/StreamEntry",
        "One `entry` event per log entry as the caller may know it (`id:` its seq; `data:` the "
        "entry, as in the log, with the new `version` and `to_act`), then each new one as it "
        "comes. It ends once the match is over; before the entry that took the token away (a "
        "new token issued to its seat, the seat left a waiting match), whose resumption answers "
        "401; once its host cancelled the match (resumed: 410); and after 10 minutes, or when "
        "the server restarts (resume with `Last-Event-ID`)")})
    def get(self, query, match_id):
        """Live updates of a match (Server-Sent Events)

        Read it with `fetch` and the Bearer header (EventSource cannot send one); resume with
        `Last-Event-ID` (or `?after=`) without gaps or repeats."""
        token = bearer_token()
        match, seat = service().look(match_id, token, playable=False)
        after = last_event_id()
        events = service().events(match, seat, query["after"] if after is None else after, token,
                                  left=client_left(request.environ))
        return Response(stream_with_context(events), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@blp.route("/matches/<string:match_id>/log")
class MatchLog(MethodView):
    @blp.doc(operationId="getMatchLog", security=OPTIONAL_TOKEN)
    @blp.arguments(LogQuerySchema, location="query")
    @blp.refuses(UNAUTHORIZED, NOT_FOUND, GONE)
    @blp.response(200, LogSchema, headers={"Vary": VIEW_HEADERS["Vary"]})
    def get(self, query, match_id):
        """What happened so far, as the caller may know it"""
        match = service().load(match_id, playable=False)
        seat = service().seat_of(match, bearer_token(), required=False)
        entries, after = service().log(match, seat, query["after"], query["limit"])
        # what a seat may know differs from the spectator's: no shared cache serves one's to another
        return ({"id": match.id, "game": match.game, "log": entries, "next": after},
                {"Vary": "Authorization"})

