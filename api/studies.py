"""Studies over HTTP (API.md "Studies (simulation jobs)"): a request starts a study and answers
202 at once; the workers play it (service/studies.py); its progress streams as Server-Sent
Events, its records download as JSON Lines or CSV, its report as a page, and its creator may
cancel it. Small batches still play within a request (api/simulations.py)."""

import secrets

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView

import service
from scoring.bots import module
from scoring.engine import Game
from scoring.games import GAMES
from service.errors import (
    INVALID_HEADER,
    NOT_FOUND,
    RATE_LIMITED,
    STUDY_NOT_DONE,
    TOO_MUCH_WORK,
    UNAUTHORIZED,
)
from service.work import SEARCH_BOT

from .blueprint import Blueprint
from .bodies import BODY
from .headers import LAST_EVENT_ID, SEAT_TOKEN, bearer_token, event_stream, last_event_id
from .limits import client, too_much_thinking
from .schemas.matches import MAX_SEED
from .schemas.simulations import example_bots
from .schemas.studies import StudyCreatedSchema, StudySchema, study_request_schema

blp = Blueprint("studies", __name__, url_prefix="/api/v1",
                description="Studies: many matches between bots, played as a job")

NO_STORE = {"Cache-Control": "no-store"}
JSON_LINES, CSV = "application/jsonl", "text/csv"
STUDY_ID = {"in": "path", "name": "study_id", "required": True,
            "description": "The study's id, from the answer that started it",
            "schema": {"type": "string"}}
# The report: a page of its own, with inline styles and its charts as data: images, nothing
# else, from anywhere; framed by no other page, as the app's pages are not.
REPORT_POLICY = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
                 "frame-ancestors 'none'")
STUDY = "#/components/schemas/Study"


def study_examples(game: Game) -> dict[str, dict]:
    """A study comparing two seatings, and one comparing two search budgets: each started, not
    refused, as the docs page's "Try it out" sends it."""
    bots = example_bots(game)
    own = module(game).SEARCH.playouts
    return {
        "seats": {"summary": "Greedy against random, and the other way round",
                  "value": {"matches": 200, "players": bots,
                            "compare": [{"players": bots[::-1]}]}},
        "budgets": {"summary": "The search bot at half its playouts, and at its own",
                    "value": {"matches": 10, "players": [SEARCH_BOT, *bots[1:]],
                              "playouts": max(1, own // 2), "compare": [{"playouts": own}]}}}


def _register(game: Game) -> None:
    class Studies(MethodView):
        @blp.doc(operationId=f"start{game.prefix}Study", security=[])
        @blp.arguments(study_request_schema(game), examples=study_examples(game))
        @blp.refuses(RATE_LIMITED, TOO_MUCH_WORK, *BODY)
        @blp.response(202, StudyCreatedSchema, headers={"Location": {
            "description": "The study's address", "schema": {"type": "string"}}})
        def post(self, body):
            creator = client(request.remote_addr or "")
            thinking = current_app.extensions.get("digsite_thinking")
            refused = None if thinking is None else thinking.wait(("address", creator))
            if refused is not None:  # its bot time would count against a spent budget
                raise too_much_thinking(*refused)
            seed = body["seed"] if "seed" in body else secrets.randbelow(MAX_SEED + 1)
            study, token = service.study_service().create(game, body, creator, seed)
            return ({**study.shown(), "token": token}, 202,
                    {"Location": f"/api/v1/studies/{study.id}", **NO_STORE})

    Studies.post.__doc__ = (
        f"{game.name}: start a study\n\nBots play the matches of every arm, on the same deals, "
        "in the server's own time: the answer (202) comes at once, with the study's address "
        "and the creator's token. Follow its events; once done, its summary holds every arm's "
        "statistics and each arm's difference from the first. 422 names the work limit, a "
        "table the game does not have, or each box constant at fault; 429 while the address's "
        "bots have used their thinking budget (a study's bot time counts against it).")
    blp.route(f"/games/{game.id}/studies", endpoint=f"{game.package}_studies")(Studies)


for _game in GAMES.values():
    _register(_game)


@blp.route("/studies/<string:study_id>", parameters=[STUDY_ID])
class Study(MethodView):
    @blp.doc(operationId="getStudy", security=[])
    @blp.refuses(NOT_FOUND)
    @blp.response(200, StudySchema)
    def get(self, study_id):
        """A study as it goes

        Its status and progress; once done, its `summary`. A look counts as following it."""
        study = service.study_service().load(study_id)
        service.study_service().watched(study_id)
        return study.shown(), NO_STORE

    @blp.doc(operationId="cancelStudy", security=[SEAT_TOKEN])
    @blp.refuses(UNAUTHORIZED, NOT_FOUND)
    @blp.response(200, StudySchema)
    def delete(self, study_id):
        """Cancel a study

        With the creator's token: a queued or running study is cancelled at once (the matches
        in play are dropped; the records stored stay downloadable). A study that has ended
        stays as it is."""
        return service.study_service().cancel(study_id, bearer_token()).shown(), NO_STORE


@blp.route("/studies/<string:study_id>/events", parameters=[STUDY_ID, LAST_EVENT_ID])
class StudyEvents(MethodView):
    @blp.doc(operationId="followStudy", security=[], responses={"200": event_stream(
        "progress", STUDY, "`event: progress` with the study (as GET answers it, without its "
        "summary) at once and at every change, its version as the event's id; it ends once "
        "the study has ended and its summary is written (its last event that version), and "
        "also after ten minutes or when the server stops: open it again with Last-Event-ID "
        "to go on")})
    @blp.refuses(NOT_FOUND, INVALID_HEADER)
    def get(self, study_id):
        """Follow a study's progress (Server-Sent Events)

        An open stream counts as following the study."""
        service.study_service().load(study_id)  # 404 now rather than an empty stream
        after = last_event_id()
        events = service.study_service().events(study_id, 0 if after is None else after)
        return Response(stream_with_context(events), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@blp.route("/studies/<string:study_id>/records", parameters=[STUDY_ID])
class StudyRecords(MethodView):
    @blp.doc(operationId="getStudyRecords", security=[], responses={"200": {
        "description": "One row per seat and match, in match order, arm by arm, seat by seat, "
                       "as `simulate --out` writes them: JSON Lines, or CSV when asked for "
                       "with `Accept: text/csv`. Whatever is stored so far, while the study "
                       "goes on",
        "content": {JSON_LINES: {"schema": {"type": "string"}},
                    CSV: {"schema": {"type": "string"}}},
        "headers": {"Content-Disposition": {
            "description": "A file to keep, named by the study and the kind: "
                           "`attachment; filename=study-<id>.jsonl` (or `.csv`)",
            "schema": {"type": "string",
                       "pattern": "^attachment; filename=study-[0-9a-f]{32}\\.(jsonl|csv)$"}}}}})
    @blp.refuses(NOT_FOUND)
    def get(self, study_id):
        """A study's records"""
        kind = "csv" if request.accept_mimetypes.best_match([JSON_LINES, CSV]) == CSV \
            else "jsonl"
        studies = service.study_service()
        studies.load(study_id)
        studies.watched(study_id)
        return Response(stream_with_context(studies.records(study_id, kind)),
                        mimetype=CSV if kind == "csv" else JSON_LINES,
                        headers={**NO_STORE, "Content-Disposition": f"attachment; "
                                 f"filename=study-{study_id}.{kind}"})


@blp.route("/studies/<string:study_id>/report", parameters=[STUDY_ID])
class StudyReport(MethodView):
    @blp.doc(operationId="getStudyReport", security=[], responses={"200": {
        "description": "One self-contained page: charts of win shares, scores, lengths, "
                       "margins and differences, the statistics and the provenance",
        "content": {"text/html": {"schema": {"type": "string"}}},
        "headers": {"Content-Security-Policy": {
            "description": "What the page may load: its own inline styles and data images "
                           "alone (it runs no script and fetches nothing)",
            "schema": {"type": "string", "example": REPORT_POLICY}}}}})
    @blp.refuses(NOT_FOUND, STUDY_NOT_DONE)
    def get(self, study_id):
        """A study's report (an HTML page)

        Once done; a study cancelled or failed after some matches has the report of those,
        marked unfinished."""
        page = service.study_service().report(study_id)
        return Response(page, mimetype="text/html",
                        headers={**NO_STORE, "Content-Security-Policy": REPORT_POLICY})
