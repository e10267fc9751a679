"""The catalogue and the end-game calculators: GET /games, GET /games/{game},
POST /games/{game}/score. Each game has its own paths so that the OpenAPI document states
exactly what each calculator accepts."""

import json

from flask import current_app
from flask.views import MethodView
from flask_smorest import abort

from scoring.games import GAMES
from scoring.results import InvalidScoresheet

from .blueprint import Blueprint
from .errors import summarise
from .schemas import catalogue, dig, dig_it_up, dinos
from .schemas.common import CatalogueSchema

blp = Blueprint("games", __name__, url_prefix="/api/v1",
                description="The games, their box data and the end-game calculators")

# game id -> (scoresheet schemas, catalogue schema)
SCHEMAS = {
    "dig-it-up": (dig_it_up, catalogue.DigItUpGameSchema),
    "dig": (dig, catalogue.DigGameSchema),
    "digging-for-dinos": (dinos, catalogue.DinosGameSchema),
}


@blp.route("/games")
class Catalogue(MethodView):
    @blp.response(200, CatalogueSchema)
    def get(self):
        """The games Digsite knows"""
        return {"games": [game.summary() for game in GAMES.values()]}


def _register(game_id: str) -> None:
    game = GAMES[game_id]
    schemas, detail_schema = SCHEMAS[game_id]
    name = game.box.NAME
    endpoint = game_id.replace("-", "_")

    class GameDetail(MethodView):
        @blp.response(200, detail_schema)
        def get(self):
            return {**game.summary(), **game.box.box_data()}

    GameDetail.get.__doc__ = f"{name}: the box\n\nPlayers, variants and the component data " \
                             "the rules use, to draw a scoresheet without hard-coding the game."

    class Score(MethodView):
        # An instance, not the class: webargs would build the schema and its nested schemas
        # afresh for every request, which cost about a quarter of the calculator's time.
        @blp.arguments(schemas.ScoreRequestSchema(), examples=schemas.EXAMPLES)
        @blp.alt_response(400, response="BAD_REQUEST")
        @blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
        @blp.response(200, schemas.ResultSchema)
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

    Score.post.__doc__ = f"{name}: score the end of a game\n\nEvery player's total, a " \
                         "breakdown to check against the table, ranks and winners."

    blp.route(f"/games/{game_id}", endpoint=f"{endpoint}_detail")(GameDetail)
    blp.route(f"/games/{game_id}/score", endpoint=f"{endpoint}_score")(Score)


for _game_id in SCHEMAS:
    _register(_game_id)
