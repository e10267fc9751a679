"""Every kind of problem the API answers, and what the match service refuses, in words a player
understands.

A kind's slug names it for good: the answer's `type` is `/problems/<slug>` (API.md "Retries,
errors, seeds as text"), which a client may branch on; its title and description, and each
answer's detail, may be reworded. Each kind carries the HTTP status the door answers it with, so
the views translate without knowing the rules; `GET /problems/<slug>` shows its description
(api/problems.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    """A kind of problem: `slug` never changes; `title` and `description`, for people, may."""
    slug: str
    status: int
    title: str
    description: str


KINDS: dict[str, Kind] = {}


def _kind(slug: str, status: int, title: str, description: str) -> Kind:
    assert slug not in KINDS, slug
    KINDS[slug] = kind = Kind(slug, status, title, description)
    return kind


# --- refused at the door (api/), before the service is asked ------------------------------------

MALFORMED_REQUEST = _kind(
    "malformed-request", 400, "Request could not be read",
    "The request could not be read: its body is not JSON, not UTF-8 text, holds a key twice in "
    "one object or half of a UTF-16 surrogate pair, is nested too deeply, or holds a number too "
    "long to read, or NaN or Infinity (no JSON numbers); or (answered by the server before the "
    "app reads it) its request line, a header, its Content-Length or its chunked body is "
    "malformed. The detail says which. Send the body as one JSON value that means one thing.")
BODY_TOO_SLOW = _kind(
    "body-too-slow", 408, "Body too slow",
    "The request body did not arrive whole within the time a request may take to send it "
    "(DIGSITE_BODY_SECONDS, 30 s unless the server says otherwise). Nothing was done; send the "
    "request again at once, on a new connection.")
BODY_TOO_LARGE = _kind(
    "body-too-large", 413, "Body too large",
    "The request body is larger than 64 KiB, however it was sent (with a Content-Length or "
    "chunked). No operation takes a body that large.")
UNSUPPORTED_MEDIA_TYPE = _kind(
    "unsupported-media-type", 415, "Body is not JSON",
    "A request body must be JSON and say so: `Content-Type: application/json` (or another "
    "`…+json` type), sent as it is, without a `Content-Encoding` such as gzip.")
INVALID_HEADER = _kind(
    "invalid-header", 422, "Invalid header",
    "A request header does not hold what it must: `Idempotency-Key` is 1 to 255 visible "
    "characters, `If-Match` a match version (or a view's ETag), `Last-Event-ID` the id of the "
    "last event received. `errors` names the header; nothing was done.")
IDEMPOTENCY_KEY_REUSED = _kind(
    "idempotency-key-reused", 422, "Key used for another request",
    "The same caller sent this `Idempotency-Key` with another request within 24 hours. A key "
    "names one request: send a new key with a new request. Nothing was done.")
IDEMPOTENCY_KEY_IN_USE = _kind(
    "idempotency-key-in-use", 409, "Key still being answered",
    "The first request sent with this `Idempotency-Key` is still being answered. Send the same "
    "request again after `Retry-After` seconds to get its answer; nothing is done twice.")
METHOD_NOT_ALLOWED = _kind(
    "method-not-allowed", 405, "Method not allowed",
    "This address does not take this method; the `Allow` header lists the methods it takes.")
RANGE_NOT_SATISFIABLE = _kind(
    "range-not-satisfiable", 416, "Range not satisfiable",
    "The `Range` asked of a file lies outside it.")
RATE_LIMITED = _kind(
    "rate-limited", 429, "Too many requests",
    "This address sent more requests of this kind (new matches, joins, simulations, shared "
    "tallies) than its budget allows, or the bots its requests (or this match) set thinking "
    "have used the CPU time they may for now. Wait the whole seconds `Retry-After` gives; "
    "the detail says it in words. Nothing was done.")
DATABASE_UNAVAILABLE = _kind(
    "database-unavailable", 503, "Database unavailable",
    "The server cannot reach its database just now (a restart or a failover): nothing was "
    "stored. Try again after `Retry-After` seconds; `/readyz` answers 503 while it lasts.")
INTERNAL_ERROR = _kind(
    "internal-error", 500, "Internal error",
    "Something went wrong on the server's side; the answer tells nothing of it, the server's "
    "log does. Try again, and report it if it goes on.")

# --- refused by the server itself, before the app reads the request (serving.py) ----------------
# Each answer closes its connection.

REQUEST_LINE_TOO_LONG = _kind(
    "request-line-too-long", 414, "Request line too long",
    "The request line (the method, the address with its query, and the HTTP version) is longer "
    "than the server reads: 4094 bytes, unless the detail says otherwise. Nothing was done: "
    "send a shorter address.")
HEADERS_TOO_LARGE = _kind(
    "headers-too-large", 431, "Headers too large",
    "The request has more headers than the server reads (100), or a header longer than it "
    "reads (8190 bytes), unless the detail says otherwise. Nothing was done: send fewer or "
    "shorter headers.")
EXPECTATION_FAILED = _kind(
    "expectation-failed", 417, "Expectation not met",
    "The request's `Expect` header asks for something other than `100-continue`, the only "
    "expectation the server meets. Nothing was done.")
TRANSFER_CODING_UNSUPPORTED = _kind(
    "transfer-coding-unsupported", 501, "Transfer coding not supported",
    "The request's `Transfer-Encoding` is not one the server reads. Nothing was done: send the "
    "body with `Transfer-Encoding: chunked`, or with `Content-Length`.")
CONNECTION_NOT_ALLOWED = _kind(
    "connection-not-allowed", 403, "Connection not allowed",
    "The connection was refused before a request on it was read: it sent a PROXY protocol "
    "header from an address that may not send one, or its TLS handshake failed. Nothing was "
    "done.")

# --- any request ----------------------------------------------------------------------------------

NOT_FOUND = _kind(
    "not-found", 404, "Not found",
    "There is nothing at this address: no such route, game, match, seat, version of a match, "
    "shared tally or problem type. A match removed by retention or cancelled by its host "
    "answers `gone` instead.")
UNAUTHORIZED = _kind(
    "unauthorized", 401, "Token needed",
    "The operation needs a token (a seat's, the host's, or a shared tally's writer's) sent as "
    "`Authorization: Bearer <token>`, and none came, it was not sent as a Bearer token, or it "
    "is not one of this match's (or tally's). A token the host replaced answers this at once.")
INVALID_BODY = _kind(
    "invalid-body", 422, "Invalid input",
    "The body or the query is well-formed but does not fit the operation: a field is missing, "
    "of the wrong type, out of range, unknown, or not possible with the game's box or table. "
    "`errors` names each field (a dotted path) with its messages; nothing was done.")

# --- matches --------------------------------------------------------------------------------------

STALE_VERSION = _kind(
    "stale-version", 409, "The match moved on",
    "The match is no longer at the version sent (as `version` or `If-Match`): someone acted "
    "first, or the table changed meanwhile. Nothing was done: read the view again and act on "
    "its version. (In a simultaneous step, a choice made on an earlier version is still "
    "accepted.)")
NOT_YOUR_TURN = _kind(
    "not-your-turn", 403, "Not your turn",
    "The seat acted while it is not one of the seats to act (the view's `to_act`). Nothing "
    "changed: wait for the turn to come round.")
NOT_YOUR_SEAT = _kind(
    "not-your-seat", 403, "Not your seat",
    "The action names a `seat` other than the token's own: a seat acts only for itself.")
SEAT_PLAYED_BY_BOT = _kind(
    "seat-played-by-bot", 403, "A bot plays this seat",
    "The seat was left, or its host handed it to a bot, which plays it until the match ends: "
    "its token may no longer act. The host can give it back with a new token.")
ILLEGAL_ACTION = _kind(
    "illegal-action", 422, "Illegal action",
    "The action is not one the rules allow the seat now; the view's `legal_actions` lists those "
    "that are, each as it is to be posted. `errors` names the field at fault; nothing changed.")
MATCH_NOT_STARTED = _kind(
    "match-not-started", 409, "Match not started",
    "The match is still waiting for players to take its open seats: nobody acts until the last "
    "seat is taken.")
MATCH_OVER = _kind(
    "match-over", 409, "Match over",
    "The match has ended: its seats can no longer be left, handed to a bot or given a new "
    "token. Its result and log stay readable, and its seats may claim a rematch.")
MATCH_NOT_OVER = _kind(
    "match-not-over", 409, "Match not over",
    "The match has not ended: a rematch can be claimed, and the match's past versions "
    "viewed, only once it has.")
MATCH_NOT_WAITING = _kind(
    "match-not-waiting", 409, "Match already begun",
    "Only a match still waiting for players can be cancelled: once its last seat is taken it "
    "is played to its end (a seat that leaves is played by a bot).")
SEAT_TAKEN = _kind(
    "seat-taken", 409, "Seat taken",
    "The seat asked for is not open, or no seat of the match is open any more: join another "
    "seat, or another match.")
NAME_TAKEN = _kind(
    "name-taken", 422, "Name taken",
    "A player of this name is already at the table (names that differ only by spacing or "
    "invisible characters are one name; case counts): join under another name.")
SEAT_ALREADY_BOT = _kind(
    "seat-already-bot", 409, "A bot plays the seat already",
    "A bot already plays the seat: it cannot be left or handed to a bot again, nor claimed by "
    "a person in a rematch.")
LOG_FULL = _kind(
    "log-full", 409, "Match log full",
    "The match's log holds as many entries as a match may (10,000, far more than any game of "
    "it needs): from now on it takes only what its game needs to reach its end (the game's own "
    "moves, a seat leaving, a clock running out). A move is not taken back, a seat is given no "
    "new token, a seat a bot plays is not handed to another bot, and nobody joins or leaves a "
    "match still waiting for players (its host may cancel it). Nothing was done.")
SEAT_IN_USE = _kind(
    "seat-in-use", 409, "Seat in use",
    "The seat's player is at the table (seen within the last minute, by a view, an action or "
    "an open stream): its token is not replaced under them, which would give whoever asked the "
    "seat's secrets and its moves. A new token is for a player who lost theirs: ask again once "
    "the seat has not been seen for a minute.")
SEAT_HAS_NO_TOKEN = _kind(
    "seat-has-no-token", 409, "Seat without a person",
    "Only a seat a person holds has a token to give again: this one is open, or a bot plays "
    "it.")
HOST_ONLY = _kind(
    "host-only", 403, "Host only",
    "Only the match's host may do this (cancel a waiting match, hand a seat to a bot, give a "
    "seat a new token): send the host token from the answer that created the match.")
GONE = _kind(
    "gone", 410, "Match gone",
    "The match cannot be played any more, and will not come back: its host cancelled it before "
    "it began, it was removed after it ended or went idle for the days the server keeps "
    "matches, or it began under an earlier version of the rules that today's cannot carry on "
    "(its log can still be read).")
TOO_MUCH_WORK = _kind(
    "too-much-work", 422, "Too much bot play",
    "The request asks for more bot play than one request may do (`DIGSITE_SIMULATION_LIMIT` "
    "seat-matches: matches × players, a search bot's seat counting 100), or one study "
    "(`DIGSITE_STUDY_LIMIT`, every arm counted). Seat fewer search bots or play fewer matches; "
    "more than a request may play goes to a study, and more than a study may ask for to the "
    "`simulate` command on one's own machine (README).")

# --- studies --------------------------------------------------------------------------------------

STUDY_NOT_DONE = _kind(
    "study-not-done", 409, "Study not done",
    "The study has no report yet: it is queued or running (its report is drawn once it is "
    "done), or it ended before any match was played. A study cancelled or failed after some "
    "matches has the report of those, drawn a moment after it ended; one whose report could "
    "not be drawn failed, its `error` saying so. Follow its events; its records so far can be "
    "downloaded at any time.")

# --- shared tallies -------------------------------------------------------------------------------

WRONG_GAME = _kind(
    "wrong-game", 403, "Tally of another game",
    "The shared tally is of another game than the one its address names: change it at its own "
    "game's address.")
TALLY_CHANGED = _kind(
    "tally-changed", 412, "The tally changed meanwhile",
    "The change was sent with `If-Match` naming a version of the shared tally (its ETag) that "
    "is no longer the tally's: another change came first. Nothing was done: read the tally "
    "again and send the change on its version, or without If-Match to write over it.")


class Refused(Exception):
    """A request the match service will not carry out; nothing was changed. `kind` says which
    problem it is; the class gives it where there is one obvious kind for its status."""
    status = 422
    kind: Kind | None = INVALID_BODY

    def __init__(self, message: str, errors: dict[str, list[str]] | None = None,
                 kind: Kind | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors
        kind = kind or type(self).kind
        if kind is None or kind.status != self.status:
            raise TypeError(f"{type(self).__name__} is answered {self.status}: give it a kind of "
                            "that status")
        self.kind = kind


class Unauthorized(Refused):
    status = 401
    kind = UNAUTHORIZED


class Forbidden(Refused):
    status = 403
    kind = None  # several: each refusal names its own


class NotFound(Refused):
    status = 404
    kind = NOT_FOUND


class Conflict(Refused):
    status = 409
    kind = None  # several: each refusal names its own


class PreconditionFailed(Refused):
    status = 412
    kind = TALLY_CHANGED


# Why a match is gone (a 410's `reason`), for a client to say in its own words without reading
# the detail's.
GONE_REASONS = {
    "cancelled": "its host cancelled it before it began",
    "idle": "it was removed after going the days the server keeps a match without a move",
    "ended": "it ended, and was removed after the days the server keeps a finished match",
    "rules": "it began under an earlier version of the rules, which today's cannot carry on or "
             "replay (its log can still be read)",
}


class Gone(Refused):
    status = 410
    kind = GONE

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        if reason not in GONE_REASONS:
            raise ValueError(f"a match is gone for one of {sorted(GONE_REASONS)}, not {reason!r}")
        self.reason = reason


class Invalid(Refused):
    status = 422
    kind = INVALID_BODY


class TooBusy(Refused):
    """Refused for now: try again after `retry_after` whole seconds."""
    status = 429
    kind = RATE_LIMITED

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
