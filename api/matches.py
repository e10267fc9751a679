"""Matches: create one, see it as a seat or a spectator, act, read the log."""

import hashlib
import secrets
from typing import Any

from flask import request
from flask.views import MethodView
from flask_smorest import abort

from scoring.engine import FINISHED, Game, IllegalAction, NotYourTurn, log_entry, replay
from scoring.games import GAMES

from .blueprint import Blueprint
from .schemas.matches import (
    ActionRequestSchema,
    CreatedSchema,
    LogQuerySchema,
    LogSchema,
    ViewSchema,
    create_match_schema,
)
from .storage import Match, StaleVersion, storage

blp = Blueprint("matches", __name__, url_prefix="/api/v1",
                description="Whole matches: seat tokens, views, actions and the log")

SERVER_SEED_BITS = 128  # API.md "Fairness of the deal": too many for anyone to guess or search

SEAT_TOKEN = {"seatToken": []}
OPTIONAL_TOKEN = [SEAT_TOKEN, {}]
IF_MATCH = {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
            "description": "The version you acted on, instead of `version` in the body"}


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
    match = storage().load(match_id)
    if match is None:
        abort(404, message="There is no match with this id.")
    game = GAMES[match.game]
    if playable and match.state.get("revision") != game.revision:
        upgrade(match, game)
    return match


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
    status = game.status(state)
    to_act = [] if status == FINISHED else game.to_act(state)
    view = {
        "id": match.id, "game": match.game, "variant": match.variant, "version": match.version,
        "status": status,
        "players": [{"seat": i, "name": name} for i, name in enumerate(match.names)],
        "to_act": to_act, "you": seat,
        "legal_actions": game.legal_actions(state, seat) if seat in to_act else [],
        "state": game.view(state, seat), "result": game.result(state),
        "seeded": match.seeded, "seed_sha256": seed_commitment(match.seed),
    }
    if status == FINISHED:
        view["seed"] = match.seed  # API.md: never shown while the match is playing
    return view


def version_sent(body: dict[str, Any]) -> int:
    if "version" in body:
        return body["version"]
    header = request.headers.get("If-Match")
    if header:
        tag = header.strip().removeprefix("W/").strip('"')
        if tag.isdigit():
            return int(tag)
        abort(422, message="If-Match must hold the match version, e.g. \"3\".",
              errors={"If-Match": ["Send the version number the view showed."]})
    abort(422, message="Send the version you acted on, as `version` or an If-Match header.",
          errors={"version": ["Send the version the view showed."]})


def _register_create(game: Game) -> None:
    class CreateMatch(MethodView):
        @blp.arguments(create_match_schema(game))
        @blp.response(201, CreatedSchema, headers={"Location": {
            "description": "The match's address", "schema": {"type": "string"}}})
        def post(self, body):
            seeded = "seed" in body
            seed = body["seed"] if seeded else secrets.randbits(SERVER_SEED_BITS)
            try:
                state = game.setup(body["players"], seed, body["variant"])
            except IllegalAction as exc:
                abort(422, message=str(exc), errors={"players": [str(exc)]})
            match, tokens = storage().create(game.id, body["variant"], seed, seeded,
                                             body["players"], state, game.status(state))
            seats = [{"seat": i, "name": n, "token": t}
                     for i, (n, t) in enumerate(zip(match.names, tokens, strict=True))]
            location = f"/api/v1/matches/{match.id}"
            return ({"id": match.id, "game": game.id, "version": match.version, "seats": seats,
                     "view": view_of(match, None)}, {"Location": location})

    CreateMatch.post.__doc__ = f"{game.name}: open a match\n\nEach seat's secret token is " \
                               "in this response only."
    blp.route(f"/games/{game.id}/matches", endpoint=f"{game.package}_matches")(CreateMatch)


for _game in GAMES.values():
    _register_create(_game)


@blp.route("/matches/<string:match_id>")
class MatchView(MethodView):
    @blp.doc(security=OPTIONAL_TOKEN)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(410, response="GONE")
    @blp.response(200, ViewSchema)
    def get(self, match_id):
        """A seat's view (with its token) or the spectator's (without)"""
        match = load_match(match_id)
        seat = caller_seat(match, required=False)
        return view_of(match, seat), {"ETag": f'"{match.version}"'}


@blp.route("/matches/<string:match_id>/actions")
class MatchActions(MethodView):
    @blp.doc(security=[SEAT_TOKEN], parameters=[IF_MATCH])
    @blp.arguments(ActionRequestSchema, examples={"end_turn": {
        "summary": "End the turn", "value": {"action": {"type": "end_turn"}, "version": 4}}})
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(403, response="FORBIDDEN")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(410, response="GONE")
    @blp.alt_response(409, response="CONFLICT")
    @blp.response(200, ViewSchema)
    def post(self, body, match_id):
        """Take an action for your seat

        422 when the action is not legal now (nothing changes), 409 when the match moved on
        since the version you sent, 403 when it is not your turn."""
        match = load_match(match_id)
        seat = caller_seat(match, required=True)
        if "seat" in body and body["seat"] != seat:
            abort(403, message="You can act only for your own seat.")
        version = version_sent(body)
        if version != match.version:
            abort(409, message=f"The match is at version {match.version}, not {version}: "
                               "someone acted first. Reload and try again.")
        game = GAMES[match.game]
        try:
            events = game.act(match.state, seat, body["action"])
        except NotYourTurn as exc:
            abort(403, message=str(exc))
        except IllegalAction as exc:
            field = "action" if exc.field is None else f"action.{exc.field}"
            abort(422, message=str(exc), errors={field: [str(exc)]})
        try:
            match.version = storage().record(match, seat, body["action"], events, match.state,
                                             game.status(match.state))
        except StaleVersion:
            abort(409, message="Someone acted first: reload and try again.")
        return view_of(match, seat), {"ETag": f'"{match.version}"'}


@blp.route("/matches/<string:match_id>/log")
class MatchLog(MethodView):
    @blp.doc(security=OPTIONAL_TOKEN)
    @blp.arguments(LogQuerySchema, location="query")
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
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
