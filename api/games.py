"""The catalogue and the end-game calculators: GET /games, GET /games/{game},
POST /games/{game}/score. Each game has its own paths so that the OpenAPI document states
exactly what each calculator accepts."""

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import orjson
from flask import Response, current_app
from flask.views import MethodView
from flask_smorest import abort

from scoring.engine import Game
from scoring.games import GAMES
from scoring.results import InvalidScoresheet

from .blueprint import Blueprint
from .bodies import compiled
from .errors import summarise
from .schemas.common import CatalogueSchema, catalogue_entry

blp = Blueprint("games", __name__, url_prefix="/api/v1",
                description="The games, their box data and the end-game calculators")


def operation_id(name: str) -> Callable[[Callable], Callable]:
    """`blp.doc(operationId=name)` without the wrapper blp.doc puts around the view, whose call
    every calculator request would pay for: it only adds to the document."""

    def decorator(func: Callable) -> Callable:
        doc = dict(getattr(func, "_apidoc", {}))
        doc["manual_doc"] = {**doc.get("manual_doc", {}), "operationId": name}
        func._apidoc = doc
        return func
    return decorator


def documented(*decorators: Callable[[Callable], Callable]) -> Callable[[Callable], Callable]:
    """The OpenAPI entries flask-smorest's decorators (`blp.arguments`, `blp.response`…) give a
    view, without the wrappers they put around it, for a view that does their work itself: it
    reads its body with the blueprint's parser and returns a finished response. The wrappers
    (webargs' and flask-smorest's, three calls deep) cost a calculator request a few hundredths
    of its time."""

    def decorator(func: Callable) -> Callable:
        wrapped = func
        for document in reversed(decorators):  # innermost first, as when stacked
            wrapped = document(wrapped)
        func._apidoc = wrapped._apidoc
        return func
    return decorator


def result_examples(game: Game, own: ModuleType) -> dict[str, dict[str, Any]]:
    """The calculator's answer to each of its request examples, under the same names."""
    return {name: {"summary": example["summary"],
                   "value": game.score(own.ScoreRequestSchema().load(example["value"]))}
            for name, example in own.EXAMPLES.items()}


@blp.route("/games")
class Catalogue(MethodView):
    @operation_id("listGames")
    @blp.response(200, CatalogueSchema)
    def get(self):
        """The games Digsite knows"""
        return {"games": [catalogue_entry(game, game.summary()) for game in GAMES.values()]}


def _register(game: Game) -> None:
    own = importlib.import_module(f"api.schemas.{game.package}")  # the game's schemas

    class GameDetail(MethodView):
        @operation_id(f"get{game.prefix}Game")
        @blp.response(200, own.GameSchema)
        def get(self):
            return catalogue_entry(game, game.detail())

    GameDetail.get.__doc__ = f"{game.name}: the box\n\nPlayers, variants and the component data " \
                             "the rules use, to draw a scoresheet without hard-coding the game."

    # An instance, not the class: webargs would build the schema and its nested schemas afresh
    # for every request, which cost about a quarter of the calculator's time. A valid scoresheet
    # is loaded by a loader compiled from it, marshmallow's half of the rest.
    request_schema = compiled(own.ScoreRequestSchema())

    class Score(MethodView):
        init_every_request = False  # the view keeps nothing between requests

        def dispatch_request(self) -> Response:
            return self.post()  # its one method: no lookup by the request's method each time

        @operation_id(f"score{game.prefix}")
        @documented(blp.arguments(request_schema, examples=own.EXAMPLES),
                    blp.alt_response(400, response="BAD_REQUEST"),
                    blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE"),
                    blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE"),
                    blp.response(200, own.ResultSchema, examples=result_examples(game, own)))
        def post(self):
            # What blp.arguments' wrapper would do: the same parser, so the same 400, 413, 415
            # and 422 answers, word for word.
            sheet = blp.ARGUMENTS_PARSER.parse(request_schema, location="json")
            try:
                result = game.score(sheet)
            except InvalidScoresheet as exc:
                abort(422, message=summarise(exc.errors), errors=exc.errors)
            # The result is built by our own calculator in the documented shape (the property
            # tests check every answer against the document), so it is sent as it is rather
            # than dumped again through ResultSchema, which doubled the time of a request; and
            # by orjson, a tenth of the time of the json module's encoder.
            return current_app.response_class(orjson.dumps(result), mimetype="application/json")

    Score.post.__doc__ = f"{game.name}: score the end of a game\n\nEvery player's total, a " \
                         "breakdown to check against the table, ranks and winners."

    blp.route(f"/games/{game.id}", endpoint=f"{game.package}_detail")(GameDetail)
    blp.route(f"/games/{game.id}/score", endpoint=f"{game.package}_score")(Score)


for _game in GAMES.values():
    _register(_game)
