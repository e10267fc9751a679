"""Shared tallies over HTTP (README "A live shared tally"): the phone that enters creates one
and sends each change; anyone with the link reads it, or follows it as Server-Sent Events. The
totals are the calculator's, made here of the sheet sent."""

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Response, request, stream_with_context
from flask.views import MethodView

from scoring.engine import Game
from scoring.games import GAMES
from scoring.results import InvalidScoresheet
from service import tally_service as service
from service.errors import (
    INVALID_HEADER,
    NOT_FOUND,
    RATE_LIMITED,
    TALLY_CHANGED,
    UNAUTHORIZED,
    WRONG_GAME,
    Invalid,
    PreconditionFailed,
)
from service.tallies import Tally

from .blueprint import Blueprint, judged_first
from .bodies import BODY
from .errors import summarise
from .headers import LAST_EVENT_ID, SEAT_TOKEN, bearer_token, event_stream, last_event_id
from .schemas.tallies import TallyCreatedSchema, TallySchema, sheet_request_schema

blp = Blueprint("tallies", __name__, url_prefix="/api/v1",
                description="Shared tallies: one phone enters, the table follows live")

NO_STORE = {"Cache-Control": "no-store"}
# What a tally's answers carry (API.md "A live shared tally"), declared on each.
TALLY_ETAG = {"ETag": {"description": "The tally's version, quoted: `\"2\"` for version 2",
                       "schema": {"type": "string", "pattern": '^"[0-9]+"$', "example": '"2"'}}}
# A tally changes at its writer's will: a cache keeps it only to ask whether it is still so.
REVALIDATE = {"Cache-Control": "no-cache"}
TALLY_READ = {**TALLY_ETAG, "Cache-Control": {
    "description": "`no-cache`: a cache asks again (If-None-Match) before each use",
    "schema": {"type": "string"}}}
CREATED_HEADERS = {**TALLY_ETAG, "Location": {
    "description": "The tally's address, as its followers read it", "schema": {"type": "string"}}}


IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False,
                 "schema": {"type": "string", "example": '"2"'},
                 "description": "The tally's ETag as you last read it: 304, with no body, while "
                                "the tally is still at that version"}
IF_MATCH = {"name": "If-Match", "in": "header", "required": False,
            "schema": {"type": "string", "example": '"2"'},
            "description": "The tally's ETag as you last read it: the change (or the stop) is "
                           "made only while the tally is still at that version (412 otherwise); "
                           "`*`, or no If-Match, makes it whatever the version"}


def versions_matched() -> frozenset[int] | None:
    """The versions the request's If-Match names (RFC 9110 13.1.1: strong tags only), or None
    when it sends none, or `*`: then the change is made whatever the tally's version."""
    if not request.headers.get("If-Match", "").strip() or request.if_match.star_tag:
        return None
    return frozenset(int(tag) for tag in request.if_match.as_set()
                     if tag.isascii() and tag.isdigit() and len(tag) <= 10)


@contextmanager
def precondition_said() -> Iterator[None]:
    """A change refused by its If-Match (PreconditionFailed), said of the header where it names
    no version a tally has: "changed meanwhile: reload it" would send the client round again."""
    try:
        yield
    except PreconditionFailed:
        strong = request.if_match.as_set()
        weak = request.if_match.as_set(include_weak=True) - strong
        if weak and not strong:
            raise PreconditionFailed("If-Match takes the ETag as the tally gave it, without W/: "
                                     "a weak tag never matches.") from None
        if not versions_matched():  # no tag a tally gives: a match's, say, or a typo
            raise PreconditionFailed(
                "If-Match takes the ETag as the tally gave it, its version in quotes (\"2\", "
                "say): it names no version of a tally.") from None
        raise


def tagged(tally: Tally) -> dict[str, str]:
    """A tally's ETag: its version, one more at every change."""
    return {"ETag": f'"{tally.version}"'}


def scored(game: Game, sheet: dict | None) -> dict | None:
    """The calculator's answer to `sheet` (None for none); Invalid naming the field when the
    box cannot hold what it says."""
    if sheet is None:
        return None
    try:
        return game.score(sheet)
    except InvalidScoresheet as exc:
        errors = {f"sheet.{field}": messages for field, messages in exc.errors.items()}
        raise Invalid(summarise(errors), errors) from None


def _register(game: Game) -> None:
    request_schema = sheet_request_schema(game)

    class Tallies(MethodView):
        @blp.doc(operationId=f"create{game.prefix}Tally", security=[])
        @blp.arguments(request_schema, description=f"A shared {game.name} tally as it now is")
        @blp.refuses(*BODY, RATE_LIMITED)
        @blp.response(201, TallyCreatedSchema, headers=CREATED_HEADERS)
        def post(self, body):
            tally, token = service().create(game.id, body["sheet"], scored(game, body["sheet"]))
            return {"token": token, "tally": tally.shown()}, 201, {
                **NO_STORE, **tagged(tally), "Location": f"/api/v1/tallies/{tally.id}"}

    class Tally(MethodView):
        @judged_first(lambda tally_id: service().written_by(tally_id, game.id, bearer_token()))
        @blp.doc(operationId=f"update{game.prefix}Tally", security=[SEAT_TOKEN],
                 parameters=[IF_MATCH])
        @blp.arguments(request_schema, description=f"A shared {game.name} tally as it now is")
        @blp.refuses(*BODY, UNAUTHORIZED, WRONG_GAME, NOT_FOUND, TALLY_CHANGED)
        @blp.response(200, TallySchema, headers=TALLY_ETAG)
        def put(self, body, tally_id):
            with precondition_said():
                tally = service().update(tally_id, game.id, bearer_token(), body["sheet"],
                                         scored(game, body["sheet"]), versions_matched())
            return tally.shown(), tagged(tally)

    Tallies.post.__doc__ = f"{game.name}: share a tally\n\nThe answer holds the writer's " \
                           "token, shown only here."
    Tally.put.__doc__ = f"{game.name}: change a shared tally\n\nWith the writer's token; the " \
                        "followers hear of it at once. With If-Match (the ETag last read), " \
                        "412 when the tally changed since: nothing is written. The sheet it " \
                        "holds already, sent again, is no change: the same version, its " \
                        "writer heard (`heard_at`)."
    blp.route(f"/games/{game.id}/tallies", endpoint=f"{game.package}_tallies")(Tallies)
    blp.route(f"/games/{game.id}/tallies/<string:tally_id>",
              endpoint=f"{game.package}_tally")(Tally)


for _game in GAMES.values():
    _register(_game)


@blp.route("/tallies/<string:tally_id>")
class SharedTally(MethodView):
    @blp.doc(operationId="getTally", security=[], parameters=[IF_NONE_MATCH])
    @blp.refuses(NOT_FOUND)
    @blp.alt_response(304, description="Not modified: the request's If-None-Match holds the "
                      "tally's ETag (it is still at that version)", headers=TALLY_READ)
    @blp.response(200, TallySchema, headers=TALLY_READ)
    def get(self, tally_id):
        """A shared tally as it now is

        With If-None-Match (the ETag last read), 304 while the tally is still at that version:
        a client that polls reads the sheet again only when it changed."""
        tally = service().load(tally_id)
        headers = {**tagged(tally), **REVALIDATE}
        if request.if_none_match.contains_weak(str(tally.version)):
            return Response(status=304, headers=headers)
        return tally.shown(), headers

    @blp.doc(operationId="stopTally", security=[SEAT_TOKEN], parameters=[IF_MATCH])
    @blp.refuses(UNAUTHORIZED, NOT_FOUND, TALLY_CHANGED)
    @blp.response(204)
    def delete(self, tally_id):
        """Stop sharing a tally

        With the writer's token: the tally is removed and its followers' streams end. With
        If-Match (the ETag last read), 412 when the tally changed since: it stays shared."""
        with precondition_said():
            service().stop(tally_id, bearer_token(), versions_matched())
        return None


@blp.route("/tallies/<string:tally_id>/events")
class TallyEvents(MethodView):
    @blp.doc(operationId="followTally", security=[], parameters=[LAST_EVENT_ID], responses={
        "200": event_stream("tally", "#/components/schemas/Tally",
                            "`event: tally` with the tally (as GET answers it, with "
                            "`heard_at`) at once and at every change, its version as the "
                            "event's id, and again at that version when its writer's phone is "
                            "heard (`heard_at` moved); it ends once the tally is no longer "
                            "shared")})
    @blp.refuses(NOT_FOUND, INVALID_HEADER)
    def get(self, tally_id):
        """Follow a shared tally live (Server-Sent Events)"""
        service().load(tally_id)  # 404 now rather than an empty stream
        after = last_event_id()
        events = service().events(tally_id, 0 if after is None else after)
        return Response(stream_with_context(events), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
