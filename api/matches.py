"""Matches over HTTP: each view reads the request, calls the match service (service/) and
answers; the service refuses in problem+json through api/errors.py. A match's log and its live
stream are in api/match_log.py, on this blueprint."""

from flask import Response, request
from flask.views import MethodView

from scoring.engine import Game
from scoring.games import GAMES
from service import match_service as service
from service.errors import (
    GONE,
    HOST_ONLY,
    ILLEGAL_ACTION,
    INVALID_HEADER,
    LOG_FULL,
    MATCH_NOT_OVER,
    MATCH_NOT_STARTED,
    MATCH_NOT_WAITING,
    MATCH_OVER,
    NAME_TAKEN,
    NOT_FOUND,
    NOT_YOUR_SEAT,
    NOT_YOUR_TURN,
    RATE_LIMITED,
    SEAT_ALREADY_BOT,
    SEAT_HAS_NO_TOKEN,
    SEAT_IN_USE,
    SEAT_PLAYED_BY_BOT,
    SEAT_TAKEN,
    STALE_VERSION,
    TOO_MUCH_WORK,
    UNAUTHORIZED,
)
from service.store import Match

from .blueprint import Blueprint, judged_first
from .bodies import BODY, compiled
from .fastload import send
from .games import documented
from .headers import (
    IF_MATCH,
    IF_NONE_MATCH,
    OPTIONAL_TOKEN,
    SEAT_TOKEN,
    VIEW_HEADERS,
    bearer_token,
    caching,
    version_sent,
)
from .limits import client, spend_due
from .match_examples import EXAMPLES, create_examples
from .schemas.matches import (
    ActionRequestSchema,
    BotRequestSchema,
    CreatedSchema,
    JoinedSchema,
    JoinSchema,
    LeaveRequestSchema,
    ListingQuerySchema,
    ListingSchema,
    NewTokenSchema,
    NoFieldsSchema,
    RematchSchema,
    ViewSchema,
    create_match_schema,
)

blp = Blueprint("matches", __name__, url_prefix="/api/v1",
                description="Whole matches: seat tokens, views, actions and the log")

NO_STORE = {"Cache-Control": "no-store"}  # an answer holding a token: no cache may keep it
LOCATION = {"description": "The match's address", "schema": {"type": "string"}}
ACTION_REQUEST = compiled(ActionRequestSchema())


def respond(match: Match, seat: int | None) -> Response:
    """A seat's view with its caching headers, or 304 (api/headers.py). The service builds it in
    ViewSchema's shape and order, so it is sent as it is, not dumped again."""
    response = send(service().view(match, seat), {})
    headers, unchanged = caching(match, seat, response.get_data())
    if unchanged:
        return Response(status=304, headers=headers)
    response.headers.extend(headers)
    return response


def _register_create(game: Game) -> None:
    requests, answers = create_examples(game)

    class CreateMatch(MethodView):
        @blp.doc(operationId=f"create{game.prefix}Match")
        @blp.arguments(create_match_schema(game), examples=requests)
        @blp.refuses(RATE_LIMITED, TOO_MUCH_WORK, *BODY)
        @blp.response(201, CreatedSchema, examples=answers, headers={"Location": LOCATION})
        def post(self, body):
            created = service().create(game, body["players"], body["bots"], body["variant"],
                                       body.get("seed"), body["listed"], body["clock"],
                                       body.get("webhook"), body.get("stand_in_bot"),
                                       client(request.remote_addr or ""))
            match = created.match
            seats = [{"seat": i, "name": n, "token": t}
                     for i, (n, t) in enumerate(zip(match.names, created.tokens, strict=True))
                     if t]
            view = service().view(match, body.get("you"))  # the creator's seat, if named
            return ({"id": match.id, "game": game.id, "version": match.version, "seats": seats,
                     "host_token": created.host_token, "view": view,
                     "webhook_secret": created.webhook_secret},
                    {"Location": f"/api/v1/matches/{match.id}", **NO_STORE})

        @blp.doc(operationId=f"list{game.prefix}Matches")
        @blp.arguments(ListingQuerySchema, location="query")
        @blp.response(200, ListingSchema)
        def get(self, query):
            """The lobby: listed matches, newest first, paged"""
            found, after = service().listing(game, query.get("status"), query["limit"],
                                             query.get("after"))
            return {"matches": found, "next": after}

    CreateMatch.post.__doc__ = f"{game.name}: open a match\n\nEach seat's secret token, and " \
                               "the host's, are in this response only. Its view is the " \
                               "spectator's, or with `you`, that seat's."
    blp.route(f"/games/{game.id}/matches", endpoint=f"{game.package}_matches")(CreateMatch)


for _game in GAMES.values():
    _register_create(_game)


@blp.route("/matches/<string:match_id>")
class MatchView(MethodView):
    init_every_request = False  # the view keeps nothing between requests

    # The most frequent requests do the work of flask-smorest's wrappers (api/games.py).
    @documented(blp.doc(operationId="getMatch", security=OPTIONAL_TOKEN,
                        parameters=[IF_NONE_MATCH]),
                blp.alt_response(304, description="Not modified: the request's If-None-Match "
                                 "header holds this view's ETag (the view this token would get)",
                                 headers=VIEW_HEADERS),
                blp.refuses(UNAUTHORIZED, NOT_FOUND, GONE),
                blp.response(200, ViewSchema, examples=EXAMPLES["view"], headers=VIEW_HEADERS))
    def get(self, match_id):
        """A seat's view (with its token) or the spectator's (without)"""
        return respond(*service().look(match_id, bearer_token()))

    @judged_first(lambda match_id: service().hosted(match_id, bearer_token()))
    @blp.doc(operationId="cancelMatch", security=[SEAT_TOKEN])
    @blp.arguments(NoFieldsSchema, required=False)
    @blp.refuses(UNAUTHORIZED, HOST_ONLY, NOT_FOUND, MATCH_NOT_WAITING, STALE_VERSION, GONE,
                 *BODY)
    @blp.response(204)
    def delete(self, _body, match_id):
        """Cancel a match still waiting for players (the host token)

        The match answers 410 from then on."""
        service().cancel(match_id, bearer_token())


@blp.route("/matches/<string:match_id>/actions")
class MatchActions(MethodView):
    init_every_request = False

    @judged_first(lambda match_id: service().seated(match_id, bearer_token()))
    @documented(blp.doc(operationId="postAction", security=[SEAT_TOKEN], parameters=[IF_MATCH]),
                blp.arguments(ActionRequestSchema, examples={**EXAMPLES["request"], "end_turn": {
                    "summary": "End the turn",
                    "value": {"action": {"type": "end_turn"}, "version": 4}}}),
                blp.refuses(UNAUTHORIZED, NOT_YOUR_TURN, NOT_YOUR_SEAT, SEAT_PLAYED_BY_BOT,
                            NOT_FOUND, STALE_VERSION, MATCH_NOT_STARTED, MATCH_OVER, GONE, LOG_FULL,
                            ILLEGAL_ACTION, INVALID_HEADER, *BODY),
                blp.response(200, ViewSchema, examples=EXAMPLES["action"],
                             headers=VIEW_HEADERS))
    def post(self, match_id):
        """Take an action for your seat

        422 when the action is not legal now (nothing changes), 409 when the match moved on
        since the version you sent (`stale-version`), has not begun (`match-not-started`) or is
        over (`match-over`), 403 when it is not your turn."""
        token = bearer_token()
        if token is None:  # 401 before the body is judged, once the match is known to be there
            service().seated(match_id, token)
        body = blp.ARGUMENTS_PARSER.parse(ACTION_REQUEST, location="json")
        match, seat = service().act(match_id, token, body["action"], version_sent(body),
                                    body.get("seat"))
        return respond(match, seat)


@blp.route("/matches/<string:match_id>/join")
class MatchJoin(MethodView):
    # no token to judge: a match that is not there is said so (404, 410) whatever the body
    @judged_first(lambda match_id: service().load(match_id, playable=False))
    @blp.doc(operationId="joinMatch")
    @blp.arguments(JoinSchema, examples={"cy": {"summary": "Cy takes the first open seat",
                                                "value": {"name": "Cy"}}})
    @blp.refuses(NOT_FOUND, SEAT_TAKEN, STALE_VERSION, GONE, NAME_TAKEN, RATE_LIMITED, LOG_FULL,
                 *BODY)
    @blp.response(201, JoinedSchema, examples=EXAMPLES["join"])
    def post(self, body, match_id):
        """Take an open seat

        Your own seat and token, for a match opened with open seats. 409 when no seat (or not
        the one asked for) is open; 422 when the name is already at the table. The match sets
        up when the last seat is taken."""
        seated = service().join(match_id, body["name"], body.get("seat"))
        return ({"seat": seated.seat, "name": body["name"], "token": seated.token,
                 "view": service().view(seated.match, seated.seat)}, NO_STORE)


@blp.route("/matches/<string:match_id>/leave")
class MatchLeave(MethodView):
    @judged_first(lambda match_id: service().seated(match_id, bearer_token()))
    @blp.doc(operationId="leaveMatch", security=[SEAT_TOKEN])
    @blp.arguments(LeaveRequestSchema, required=False)  # no body is {}: either
    @blp.refuses(UNAUTHORIZED, NOT_FOUND, MATCH_OVER, SEAT_ALREADY_BOT, STALE_VERSION, GONE,
                 LOG_FULL, *BODY)
    @blp.response(200, ViewSchema, headers=VIEW_HEADERS)
    def post(self, body, match_id):
        """Leave the match

        While it waits for players your seat opens again, and the answer is the spectator's
        view (your token no longer holds a seat); once it has begun, the match's
        `stand_in_bot` plays your seat to the end, and the answer is your seat's view. With
        `{"waiting": true}` only the first is done: a leave asked of a match that has begun
        meanwhile is refused, and the seat stays yours."""
        match, seat = service().leave(match_id, bearer_token(), waiting=body.get("waiting", False))
        return respond(match, seat)


@blp.route("/matches/<string:match_id>/seats/<int:seat>/bot")
class SeatBot(MethodView):
    @judged_first(lambda match_id, seat: service().hosted(match_id, bearer_token()))
    @blp.doc(operationId="handSeatToBot", security=[SEAT_TOKEN])
    @blp.arguments(BotRequestSchema, required=False)  # every field has its default: no body is {}
    @blp.refuses(UNAUTHORIZED, HOST_ONLY, NOT_FOUND, MATCH_OVER, SEAT_ALREADY_BOT, STALE_VERSION,
                 GONE, NAME_TAKEN, LOG_FULL, *BODY)
    @blp.response(200, ViewSchema, headers=VIEW_HEADERS)
    def post(self, body, match_id, seat):
        """Hand a seat to a bot (the host token)

        A player's seat until the match ends, or an open seat, which the bot takes (`bot`, or
        the match's stand-in) under `name`, else its kind's ("Greedy bot 2"). The answer is
        the spectator's view."""
        return respond(service().hand_to_bot(match_id, bearer_token(), seat, body.get("bot"),
                                             body.get("name")), None)


@blp.route("/matches/<string:match_id>/seats/<int:seat>/token")
class SeatToken(MethodView):
    @judged_first(lambda match_id, seat: service().hosted(match_id, bearer_token()))
    @blp.doc(operationId="reissueSeatToken", security=[SEAT_TOKEN])
    @blp.arguments(NoFieldsSchema, required=False)
    @blp.refuses(UNAUTHORIZED, HOST_ONLY, NOT_FOUND, MATCH_OVER, SEAT_HAS_NO_TOKEN, SEAT_IN_USE,
                 STALE_VERSION, GONE, LOG_FULL, *BODY)
    @blp.response(201, NewTokenSchema)
    def post(self, _body, match_id, seat):
        """Give a seat a new token (the host token)

        For a player who lost theirs, while the match is on: the old token answers 401 from now
        on. 409 `seat-in-use` while its player is at the table (seen within the last minute):
        the new token would give the host that seat's secrets and moves. Once the match is
        over, 409 `match-over`: a seat's token is its own place in the rematch, which the host
        may not take."""
        return {"seat": seat, "token": service().reissue_token(match_id, bearer_token(),
                                                               seat)}, NO_STORE


@blp.route("/matches/<string:match_id>/rematch")
class MatchRematch(MethodView):
    @judged_first(lambda match_id: service().seated(match_id, bearer_token()))
    @blp.doc(operationId="claimRematch", security=[SEAT_TOKEN])
    @blp.arguments(NoFieldsSchema, required=False)
    @blp.refuses(UNAUTHORIZED, NOT_FOUND, MATCH_NOT_OVER, SEAT_ALREADY_BOT, SEAT_TAKEN,
                 STALE_VERSION, GONE, *BODY)
    @blp.response(200, RematchSchema, headers={"Location": LOCATION})
    @blp.alt_response(201, schema=RematchSchema, description="You opened the rematch",
                      headers={"Location": LOCATION})
    def post(self, _body, match_id):
        """Claim your seat in the rematch of a finished match

        The first seat to claim opens it (201): the same players, seats rotated by one, bots
        kept; each other seat claims its own (200). Claiming again gives the same token back
        and changes nothing (a lost answer is simply asked for again), unless the host has
        given the seat a new link (409 seat-taken: that link's holder has it). Its host is the
        match's: the match's host token works on the rematch too. A seat's clock runs once
        its player has claimed it (or the host gave it a token or a bot)."""
        seated, opened = service().rematch(match_id, bearer_token(), seated=spend_due)
        match, seat = seated.match, seated.seat
        body = {"id": match.id, "seat": seat, "token": seated.token,
                "view": service().view(match, seat)}
        return body, 201 if opened else 200, {"Location": f"/api/v1/matches/{match.id}", **NO_STORE}
