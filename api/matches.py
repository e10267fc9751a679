"""Matches: create one, see it as a seat or a spectator, act, read the log."""

import hashlib
import json
import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

import marshmallow as ma
from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView
from flask_smorest import abort

from scoring.bots import derived_seed, make, play_bot_turns
from scoring.engine import (
    FINISHED,
    GAME_OVER,
    Game,
    IllegalAction,
    NotYourTurn,
    log_entry,
    replay,
)
from scoring.games import GAMES

from .blueprint import Blueprint
from .offload import in_thread
from .schemas.common import unique_names
from .schemas.matches import (
    MAX_SEQ,
    ActionRequestSchema,
    CreatedSchema,
    JoinedSchema,
    JoinSchema,
    LogQuerySchema,
    LogSchema,
    ViewSchema,
    create_match_schema,
)
from .simulations import refuse_over_limit
from .storage import Entry, Match, StaleVersion, storage

blp = Blueprint("matches", __name__, url_prefix="/api/v1",
                description="Whole matches: seat tokens, views, actions and the log")

MATCH_ID = re.compile(r"[0-9a-f]{32}")
WAITING = "waiting"  # seats are still open: nobody acts yet
SERVER_SEED_BITS = 128  # API.md "Fairness of the deal": too many for anyone to guess or search
SIMULTANEOUS_RETRIES = 8
KEEP_ALIVE_SECONDS = 15
STREAM_SECONDS = 600  # a stream's longest life

SEAT_TOKEN = {"seatToken": []}
OPTIONAL_TOKEN = [SEAT_TOKEN, {}]
IF_MATCH = {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
            "description": "The version you acted on, instead of `version` in the body"}


def body_refusals(func):
    """Documents what api/bodies.py answers a JSON body it cannot take: 400 (not JSON, or JSON that
    reads two ways), 413 (over 64 KiB), 415 (not sent as JSON)."""
    for status, name in ((400, "BAD_REQUEST"), (413, "REQUEST_ENTITY_TOO_LARGE"),
                         (415, "UNSUPPORTED_MEDIA_TYPE")):
        func = blp.alt_response(status, response=name)(func)
    return func


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        abort(401, message="Send the seat token as 'Authorization: Bearer <token>'.")
    return token.strip()


def load_match(match_id: str, playable: bool = True) -> Match:
    """The stored match; `playable`: its state under today's rules (the log needs none)."""
    # An id is 32 hex digits: anything else (a NUL byte, say) is no match, not a database error.
    match = storage().load(match_id) if MATCH_ID.fullmatch(match_id) else None
    if match is None:
        status, message = why_missing(match_id)
        abort(status, message=message)
    game = GAMES[match.game]
    if playable and match.status != WAITING and match.state.get("revision") != game.revision:
        upgrade(match, game)
    return match


def why_missing(match_id: str) -> tuple[int, str]:
    """The status and words for an id with no match: 404 when it never was one, 410 when
    retention removed it (its tombstone is looked up only here: a live match costs nothing)."""
    expired = storage().expired(match_id) if MATCH_ID.fullmatch(match_id) else None
    if expired is None:
        return 404, "There is no match with this id."
    days = f"{expired.days} day{'' if expired.days == 1 else 's'}"
    if expired.idle:
        return 410, f"This match expired after {days} without a move and was removed."
    return 410, f"This match ended and was removed after being kept {days}."


def upgrade(match: Match, game: Game) -> None:
    """A match stored under an earlier revision of its game's rules: replayed from its seed and
    its log under today's, or, where today's rules refuse a move it made, gone (its log stays)."""
    history = [(row["seat"], row["action"]) for row in storage().log(match.id, 0, 2**31 - 1)]
    try:
        state = replay(game, match.names, match.seed, match.variant, history)
    except (IllegalAction, LookupError, TypeError, ValueError):
        abort(410, message="This match began under an earlier version of the rules and cannot "
                           "go on under today's; its log can still be read.")
    storage().upgrade(match, state, game.status(state))
    match.state = state


def caller_seat(match: Match, required: bool) -> int | None:
    token = bearer_token()
    if token is None:
        if required:
            abort(401, message="Acting needs your seat token: 'Authorization: Bearer <token>'.")
        return None
    seat = match.seat_of(token)
    if seat is None:
        abort(401, message="This token is not a seat of this match.")
    return seat


def seed_commitment(seed: int) -> str:
    """SHA-256 of the seed's decimal text: shown while the match plays, checked once it ends."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def view_of(match: Match, seat: int | None) -> dict[str, Any]:
    game = GAMES[match.game]
    state = match.state
    waiting = match.status == WAITING
    status = WAITING if waiting else game.status(state)
    to_act = [] if waiting or status == FINISHED else game.to_act(state)
    view = {
        "id": match.id, "game": match.game, "variant": match.variant, "version": match.version,
        "status": status,
        "players": [{"seat": i, "name": p["name"], "bot": p.get("bot")}
                    for i, p in enumerate(match.players)],
        "to_act": to_act, "you": seat,
        "legal_actions": game.legal_actions(state, seat) if seat in to_act else [],
        "state": None if waiting else game.view(state, seat),
        "result": None if waiting else game.result(state),
        "seeded": match.seeded, "seed_sha256": seed_commitment(match.seed),
    }
    if status == FINISHED:
        view["seed"] = match.seed  # API.md: never shown while the match is playing
    return view


def version_sent(body: dict[str, Any]) -> int:
    """The version the caller acted on: `version` in the body, or If-Match holding a view's ETag
    (its version comes first) or the bare version."""
    if "version" in body:
        return body["version"]
    header = request.headers.get("If-Match", "").strip()
    if header:
        tag = header.removeprefix("W/").strip('"').split(".")[0]
        if tag.isascii() and tag.isdigit() and len(tag) <= 10:
            return int(tag)
        abort(422, message="If-Match must hold the match version, e.g. \"3\".",
              errors={"If-Match": ["Send the version number the view showed."]})
    abort(422, message="Send the version you acted on, as `version` or an If-Match header.",
          errors={"version": ["Send the version the view showed."]})


def respond(match: Match, seat: int | None) -> Response | tuple[dict[str, Any], dict[str, str]]:
    """A seat's view with caching headers (API.md "Caching"): the ETag names the version and the
    viewer, so one seat's cached view is never another's; 304 when If-None-Match has it."""
    viewer = "spectator" if seat is None else f"seat{seat}"
    tag = f"{match.version}.{viewer}.r{match.state.get('revision')}"
    headers = {"ETag": f'"{tag}"', "Vary": "Authorization", "Cache-Control": "private, no-cache"}
    if request.method == "GET" and request.if_none_match.contains(tag):
        return Response(status=304, headers=headers)
    return view_of(match, seat), headers


def seat_everyone(game: Game, names: list[str | None], seed: int,
                  variant: str) -> tuple[dict[str, Any], str]:
    """The state and status of a match with these seats: set up once every seat has a player,
    waiting (with no state yet) while any is open (API.md "Lobby")."""
    try:
        if None in names:
            game.check_table(variant, len(names))
            return {}, WAITING
        state = game.setup(names, seed, variant)
    except IllegalAction as exc:
        abort(422, message=str(exc), errors={"players": [str(exc)]})
    return state, game.status(state)


def bot_turns(game: Game, state: dict[str, Any], bots: dict[int, str], seed: int,
              version: int) -> list[Entry]:
    """The bot seats play (API.md "Bots"): every turn that comes to them from `state`, which
    they change in place, until a person is to act or the match ends; what they played, for
    the log. Each bot draws from a seed derived from the match's and the version it starts
    at, so the same seed and the same actions always give the same match."""
    if not bots or not state or game.status(state) == FINISHED:
        return []
    players = {seat: make(game, bot, seat, derived_seed(seed, version))
               for seat, bot in bots.items()}
    # A search bot thinks for a while: in a thread, so the worker serves others meanwhile.
    played = in_thread(play_bot_turns, game, state, players)
    return [Entry(p.seat, p.action, p.events, p.to_act) for p in played]


# --- the document's examples: a table where Ann opens a seat that Cy joins, then Ann moves, as
# the engine plays it (so they always fit the schemas; tests/api/test_openapi.py checks them) -----

EXAMPLE_ID = "5d1c0f3e9a8b47c6b2e4f1a7d3c9e058"
EXAMPLE_SEED = 2024
EXAMPLE_NAMES = ("Ann", "Cy", "Dee", "Eve", "Flo", "Gus")
EXAMPLE_TOKENS = ("vB0p4QXn3sT8yK1wZ6mR9cJ2hF5dL7aG0eU3iO8qN4x",
                  "Hk2Jm7Pq4Rs1Tv9Wx3Yz6Ab8Cd0Ef5Gh2Ij7Kl4Mn1o")


def example_table(game: Game) -> tuple[str, int]:
    """The smallest table of the game, in its default variant if that seats it."""
    return min(game.tables(), key=lambda table: (table[1], table[0] != game.default_variant))


def example_match(game: Game, names: list[str | None], version: int) -> Match:
    variant = example_table(game)[0]
    state, status = seat_everyone(game, names, EXAMPLE_SEED, variant)
    return Match(EXAMPLE_ID, game.id, variant, EXAMPLE_SEED,
                 [{"name": name, "token_hash": None} for name in names], state, version, status,
                 False)


def create_examples(game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """Requests that open a match (every seat named; Ann's and open ones), and the answer to
    the second."""
    variant, seats = example_table(game)
    names = list(EXAMPLE_NAMES[:seats])
    requests = {
        "named": {"summary": "Every seat named: each seat's token comes in the answer",
                  "value": {"players": names, "variant": variant}},
        "open_seats": {"summary": "Ann's seat and open ones, which players join with their own "
                                  "requests",
                       "value": {"players": ["Ann", *[{"open": True}] * (seats - 1)],
                                 "variant": variant}},
    }
    match = example_match(game, ["Ann", *[None] * (seats - 1)], 1)
    answers = {"open_seats": {
        "summary": requests["open_seats"]["summary"],
        "value": {"id": match.id, "game": game.id, "version": match.version,
                  "seats": [{"seat": 0, "name": "Ann", "token": EXAMPLE_TOKENS[0]}],
                  "view": view_of(match, None)}}}
    return requests, answers


def play_examples(game: Game) -> dict[str, dict[str, dict[str, Any]]]:
    """The last open seat taken (a join answers with the new seat's view), the view of the first
    seat to act, and its view once it has taken its first legal action."""
    seats = example_table(game)[1]
    names = list(EXAMPLE_NAMES[:seats])
    match = example_match(game, names, seats)  # created, then joined seat by seat
    joined = {"seat": seats - 1, "name": names[-1], "token": EXAMPLE_TOKENS[1],
              "view": view_of(match, seats - 1)}
    seat = game.to_act(match.state)[0]
    before = view_of(match, seat)
    action = before["legal_actions"][0]
    game.act(match.state, seat, action)
    match.version += 1
    after = view_of(match, seat)
    who = names[seat]
    return {
        "join": {"last_seat": {"summary": f"{names[-1]} took the last open seat: the match has "
                                          "begun",
                               "value": joined}},
        "view": {"seat": {"summary": f"{who}'s view of a {game.name} match: {who} is to act",
                          "value": before}},
        "action": {"first": {"summary": f"{who}'s view after {json.dumps(action)}",
                             "value": after}},
        "request": {"first": {"summary": f"{who}'s first action, on the view at version "
                                         f"{before['version']}",
                              "value": {"action": action, "version": before["version"]}}},
    }


# The examples come from the first game of the catalogue, played by the engine.
EXAMPLES = play_examples(next(iter(GAMES.values())))


def _register_create(game: Game) -> None:
    requests, answers = create_examples(game)

    class CreateMatch(MethodView):
        @blp.doc(operationId=f"create{game.prefix}Match")
        @blp.arguments(create_match_schema(game), examples=requests)
        @blp.alt_response(429, response="TOO_MANY_REQUESTS")
        @body_refusals
        @blp.response(201, CreatedSchema, examples=answers, headers={"Location": {
            "description": "The match's address", "schema": {"type": "string"}}})
        def post(self, body):
            seeded = "seed" in body
            seed = body["seed"] if seeded else secrets.randbits(SERVER_SEED_BITS)
            names, bots = body["players"], body["bots"]
            if len(bots) == len(names):  # played to its end here: a batch of one match
                refuse_over_limit(1, list(bots.values()))
            state, status = seat_everyone(game, names, seed, body["variant"])
            entries = bot_turns(game, state, bots, seed, 1)
            if entries:
                status = game.status(state)
            match, tokens = storage().create(game.id, body["variant"], seed, seeded, names,
                                             state, status, bots, entries)
            seats = [{"seat": i, "name": n, "token": t}
                     for i, (n, t) in enumerate(zip(match.names, tokens, strict=True)) if t]
            location = f"/api/v1/matches/{match.id}"
            # The answer carries every seat's token: no cache may keep it.
            return ({"id": match.id, "game": game.id, "version": match.version, "seats": seats,
                     "view": view_of(match, None)},
                    {"Location": location, "Cache-Control": "no-store"})

    CreateMatch.post.__doc__ = f"{game.name}: open a match\n\nEach seat's secret token is " \
                               "in this response only."
    blp.route(f"/games/{game.id}/matches", endpoint=f"{game.package}_matches")(CreateMatch)


for _game in GAMES.values():
    _register_create(_game)


@blp.route("/matches/<string:match_id>")
class MatchView(MethodView):
    @blp.doc(operationId="getMatch", security=OPTIONAL_TOKEN)
    @blp.alt_response(304, description="Not modified: the request's If-None-Match header holds "
                                       "this view's ETag (per version and viewer)")
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(410, response="GONE")
    @blp.response(200, ViewSchema, examples=EXAMPLES["view"])
    def get(self, match_id):
        """A seat's view (with its token) or the spectator's (without)"""
        match = load_match(match_id)
        return respond(match, caller_seat(match, required=False))


@blp.route("/matches/<string:match_id>/actions")
class MatchActions(MethodView):
    @blp.doc(operationId="postAction", security=[SEAT_TOKEN], parameters=[IF_MATCH])
    @blp.arguments(ActionRequestSchema, examples={**EXAMPLES["request"], "end_turn": {
        "summary": "End the turn", "value": {"action": {"type": "end_turn"}, "version": 4}}})
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(403, response="FORBIDDEN")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(410, response="GONE")
    @blp.alt_response(409, response="CONFLICT")
    @body_refusals
    @blp.response(200, ViewSchema, examples=EXAMPLES["action"])
    def post(self, body, match_id):
        """Take an action for your seat

        422 when the action is not legal now (nothing changes), 409 when the match moved on
        since the version you sent, 403 when it is not your turn."""
        for _ in range(SIMULTANEOUS_RETRIES):
            match = load_match(match_id)
            seat = caller_seat(match, required=True)
            if "seat" in body and body["seat"] != seat:
                abort(403, message="You can act only for your own seat.")
            if match.status == WAITING:
                missing = match.names.count(None)
                abort(409, message=f"The match is waiting for {missing} more player"
                                   f"{'' if missing == 1 else 's'} to join; nobody acts yet.")
            game = GAMES[match.game]
            # In a simultaneous step another seat's choice changes nothing this seat may do, so
            # a version that others moved on is still the one it acted on (API.md).
            together = game.simultaneous(match.state) and seat in game.to_act(match.state)
            version = version_sent(body)
            if version != match.version and not (together and 0 < version < match.version):
                abort(409, message=f"The match is at version {match.version}, not {version}: "
                                   "someone acted first. Reload and try again.")
            try:
                events = game.act(match.state, seat, body["action"])
            except NotYourTurn as exc:
                abort(403, message=str(exc))
            except IllegalAction as exc:
                field = "action" if exc.field is None else f"action.{exc.field}"
                abort(422, message=str(exc), errors={field: [str(exc)]})
            entries = [Entry(seat, body["action"], events, list(game.to_act(match.state))),
                       *bot_turns(game, match.state, match.bots, match.seed, match.version + 1)]
            try:
                match.version = storage().record(match, entries, match.state,
                                                 game.status(match.state))
            except StaleVersion:
                if together:
                    continue  # another seat of the step stored first: act on the new state
                abort(409, message="Someone acted first: reload and try again.")
            return respond(match, seat)
        abort(409, message="Someone acted first: reload and try again.")


@blp.route("/matches/<string:match_id>/join")
class MatchJoin(MethodView):
    @blp.doc(operationId="joinMatch")
    @blp.arguments(JoinSchema, examples={"cy": {"summary": "Cy takes the first open seat",
                                                "value": {"name": "Cy"}}})
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(410, response="GONE")
    @blp.alt_response(429, response="TOO_MANY_REQUESTS")
    @body_refusals
    @blp.response(201, JoinedSchema, examples=EXAMPLES["join"])
    def post(self, body, match_id):
        """Take an open seat

        Your own seat and token, for a match opened with open seats. 409 when no seat (or not
        the one asked for) is open; 422 when the name is already at the table. The match sets
        up when the last seat is taken."""
        for _ in range(SIMULTANEOUS_RETRIES):
            match = load_match(match_id)
            names = match.names
            open_seats = [i for i, name in enumerate(names) if name is None]
            seat = body.get("seat", open_seats[0] if open_seats else None)
            if seat not in open_seats:
                abort(409, message="That seat is taken." if open_seats and seat is not None
                      else "Every seat of this match is taken.")
            try:
                unique_names([*(n for n in names if n is not None), body["name"]])
            except ma.ValidationError:
                abort(422, message=f"{body['name']} is already at this table; choose another "
                                   "name.", errors={"name": ["This name is already at the table."]})
            names[seat] = body["name"]
            game = GAMES[match.game]
            state, status = seat_everyone(game, names, match.seed, match.variant)
            entries = bot_turns(game, state, match.bots, match.seed, match.version + 1)
            if entries:
                status = game.status(state)
            try:
                token = storage().join(match, seat, body["name"], state, status, entries)
            except StaleVersion:
                continue  # someone else joined at the same moment: look again
            return ({"seat": seat, "name": body["name"], "token": token,
                     "view": view_of(match, seat)}, {"Cache-Control": "no-store"})
        abort(409, message="The table changed while you joined: try again.")


def last_event_id() -> int | None:
    """Where a resumed stream picks up: the Last-Event-ID a browser or client sends back."""
    sent = request.headers.get("Last-Event-ID", "").strip()
    if not sent:
        return None
    if sent.isascii() and sent.isdigit() and int(sent) <= MAX_SEQ:
        return int(sent)
    abort(422, message="Last-Event-ID holds the id of the last event you received, e.g. 12.",
          errors={"Last-Event-ID": ["Send back the id of the last event received."]})


def stream(match: Match, seat: int | None, after: int) -> Iterator[str]:
    """Server-Sent Events: each log entry after `after` as `seat` may know it, then the new ones
    as they come, polled from storage so that any worker or app server sees them all."""
    game = GAMES[match.game]
    poll = current_app.config.get("DIGSITE_STREAM_POLL_SECONDS", 0.2)
    over = match.status == FINISHED
    yield "retry: 2000\n\n"
    quiet, until = 0.0, time.monotonic() + STREAM_SECONDS
    while time.monotonic() < until:  # then the client resumes with Last-Event-ID
        rows = storage().log(match.id, after, 100)
        for row in rows:
            entry = {**log_entry(game, row, seat), "version": row["seq"] + 1,
                     "to_act": row["to_act"] or []}
            yield f"id: {row['seq']}\nevent: entry\ndata: {json.dumps(entry)}\n\n"
            after = row["seq"]
            over = over or any(e["type"] == GAME_OVER for e in row["events"])
        if rows:
            quiet = 0.0
        elif over:
            return  # nothing more will ever come
        else:
            time.sleep(poll)
            quiet += poll
            if quiet >= KEEP_ALIVE_SECONDS:  # a comment keeps proxies from closing the stream
                yield ": keep-alive\n\n"
                quiet = 0.0


@blp.route("/matches/<string:match_id>/events")
class MatchEvents(MethodView):
    @blp.doc(operationId="streamMatchEvents", security=OPTIONAL_TOKEN, parameters=[
        {"name": "Last-Event-ID", "in": "header", "required": False,
         "schema": {"type": "string"}, "description": "Resume after this event id (seq)"}])
    @blp.arguments(LogQuerySchema(only=("after",)), location="query")
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(410, response="GONE")
    @blp.doc(responses={"200": {
        "description": "One `entry` event per log entry as the caller may know it (`id:` its "
                       "seq; `data:` the entry, as in the log, with the new `version` and "
                       "`to_act`), then each new one as it comes; it ends once the match is over",
        "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
    def get(self, query, match_id):
        """Live updates of a match (Server-Sent Events)

        Read it with `fetch` and the Bearer header (EventSource cannot send one); resume with
        `Last-Event-ID` (or `?after=`) without gaps or repeats."""
        match = load_match(match_id, playable=False)
        seat = caller_seat(match, required=False)
        after = last_event_id()
        events = stream(match, seat, query["after"] if after is None else after)
        return Response(stream_with_context(events), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@blp.route("/matches/<string:match_id>/log")
class MatchLog(MethodView):
    @blp.doc(operationId="getMatchLog", security=OPTIONAL_TOKEN)
    @blp.arguments(LogQuerySchema, location="query")
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(410, response="GONE")
    @blp.response(200, LogSchema)
    def get(self, query, match_id):
        """What happened so far, as the caller may know it"""
        match = load_match(match_id, playable=False)
        seat = caller_seat(match, required=False)
        game = GAMES[match.game]
        rows = storage().log(match.id, query["after"], query["limit"] + 1)
        more = len(rows) > query["limit"]
        rows = rows[:query["limit"]]
        return {"id": match.id, "log": [log_entry(game, row, seat) for row in rows],
                "next": rows[-1]["seq"] if more else None}
