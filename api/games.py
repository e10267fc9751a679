"""The catalogue and the end-game calculators: GET /games, GET /games/{game},
POST /games/{game}/score. Each game has its own paths so that the OpenAPI document states
exactly what each calculator accepts."""

import importlib
import json

from flask import current_app
from flask.views import MethodView
from flask_smorest import abort

from scoring.engine import Game
from scoring.games import GAMES
from scoring.results import InvalidScoresheet

from .blueprint import Blueprint
from .errors import summarise
from .schemas.common import CatalogueSchema

blp = Blueprint("games", __name__, url_prefix="/api/v1",
                description="The games, their box data and the end-game calculators")


@blp.route("/games")
class Catalogue(MethodView):
    @blp.response(200, CatalogueSchema)
    def get(self):
        """The games Digsite knows"""
        return {"games": [game.summary() for game in GAMES.values()]}


def _register(game: Game) -> None:
    own = importlib.import_module(f"api.schemas.{game.package}")  # the game's schemas

    class GameDetail(MethodView):
        @blp.response(200, own.GameSchema)
        def get(self):
            return game.detail()

    GameDetail.get.__doc__ = f"{game.name}: the box\n\nPlayers, variants and the component data " \
                             "the rules use, to draw a scoresheet without hard-coding the game."

    class Score(MethodView):
        # An instance, not the class: webargs would build the schema and its nested schemas
        # afresh for every request, which cost about a quarter of the calculator's time.
        @blp.arguments(own.ScoreRequestSchema(), examples=own.EXAMPLES)
        @blp.alt_response(400, response="BAD_REQUEST")
        @blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
        @blp.response(200, own.ResultSchema)
        def post(self, sheet):
            try:
                result = game.score(sheet)
            except InvalidScoresheet as exc:
                abort(422, message=summarise(exc.errors), errors=exc.errors)
            # The result is built by our own calculator in the documented shape (the property
            # tests check every answer against the document), so it is sent as it is rather
            # than dumped again through ResultSchema, which doubled the time of a request.
            return current_app.response_class(json.dumps(result, ensure_ascii=False),
                                              mimetype="application/json")

    Score.post.__doc__ = f"{game.name}: score the end of a game\n\nEvery player's total, a " \
                         "breakdown to check against the table, ranks and winners."

    blp.route(f"/games/{game.id}", endpoint=f"{game.package}_detail")(GameDetail)
    blp.route(f"/games/{game.id}/score", endpoint=f"{game.package}_score")(Score)


for _game in GAMES.values():
    _register(_game)
