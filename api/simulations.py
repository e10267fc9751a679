"""Simulations: POST /games/{game}/simulations plays a batch of matches between bots within the
request and answers its statistics. The work of one request is limited (DIGSITE_SIMULATION_LIMIT);
bigger ones are studies (api/studies.py), played in the background."""

import secrets

from flask.views import MethodView
from flask_smorest import abort

import service
from scoring.bots.simulations import Table, play_batch, summary
from scoring.engine import Game
from scoring.games import GAMES
from service.errors import RATE_LIMITED, TOO_MUCH_WORK
from service.offload import think
from service.work import refuse_over_limit

from .blueprint import Blueprint
from .bodies import BODY
from .schemas.matches import MAX_SEED
from .schemas.simulations import SimulationSchema, simulation_request_schema

blp = Blueprint("simulations", __name__, url_prefix="/api/v1",
                description="Batches of matches between bots, for balance studies")

def _register(game: Game) -> None:
    class Simulations(MethodView):
        @blp.doc(operationId=f"simulate{game.prefix}")
        @blp.arguments(simulation_request_schema(game))
        @blp.refuses(RATE_LIMITED, TOO_MUCH_WORK, *BODY)
        @blp.response(200, SimulationSchema)
        def post(self, body):
            bots = [seat["bot"] for seat in body["players"]]
            refuse_over_limit(service.config_of().digsite_simulation_limit, body["matches"],
                              bots, game.id)
            low, high = game.box.VARIANTS[body["variant"]]["players"]
            if not low <= len(bots) <= high:
                message = (f"{game.name} ({body['variant']}) is for {low} to {high} players, "
                           f"not {len(bots)}.")
                abort(422, message=message, errors={"players": [message]})
            seed = body["seed"] if "seed" in body else secrets.randbelow(MAX_SEED + 1)
            table = Table(game, body["variant"], tuple(bots),
                          tuple(seat["name"] for seat in body["players"]))
            # In a thread, so the worker serves others while the batch plays.
            records = think(play_batch, table, seed, range(body["matches"]))
            return {**summary(table, records), "seed": seed, "seed_text": str(seed)}

    Simulations.post.__doc__ = (
        f"{game.name}: play a batch of matches between bots\n\nEvery seat is a bot; the "
        "answer is the batch's statistics: per seat its wins, shared wins, win share with a "
        "95% interval and score spread, the match length and the game's own figures. 422 "
        "names the work limit when the batch is above it.")
    blp.route(f"/games/{game.id}/simulations", endpoint=f"{game.package}_simulations")(
        Simulations)


for _game in GAMES.values():
    _register(_game)
