"""Simulations: a batch of matches between bots, and its statistics (API.md "Bots")."""

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from scoring.bots import names
from scoring.engine import Game

from .common import List, Sent, Strict, player_name, unique_names
from .matches import seed_field, variant_field

MAX_MATCHES = 100_000  # what the field takes; the server's work limit is checked apart
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")


def example_bots(game: Game) -> list[str]:
    """A table the game's default variant seats (its smallest), greedy against random: the
    documented example, as the docs page's "Try it out" sends it, is played, not refused."""
    n = min(n for variant, n in game.tables() if variant == game.default_variant)
    return ["greedy", *["random"] * (n - 1)]


def simulation_request_schema(game: Game) -> type[ma.Schema]:
    """The request that plays a batch of one game: its bots, its variants, its table sizes."""
    low, high = game.players
    bots = names(game.id)

    class BotSeat(Strict):
        error_messages = {"type": "Enter each seat as {\"name\": …, \"bot\": …}: every seat "
                                  "of a simulation is a bot's."}
        name = player_name(required=True)
        bot = fields.String(required=True, validate=validate.OneOf(
            bots, error="Choose one of: " + ", ".join(bots) + "."), metadata={"enum": bots})

    BotSeat.__name__ = f"{game.prefix}BotSeatSchema"

    class SimulationRequest(Strict):
        matches = fields.Integer(
            required=True, strict=True,
            validate=validate.Range(1, MAX_MATCHES,
                                    error=f"Enter a whole number from 1 to {MAX_MATCHES}."),
            metadata={"description": "How many matches to play (the server limits a batch's "
                                     "work: matches × players, a search seat counting more)"})
        players = List(
            fields.Nested(BotSeat), required=True,
            validate=validate.Length(low, high, error=f"Enter from {low} to {high} players."),
            error_messages={"required": "List the seats, each a name and a bot."},
            metadata={"description": "Seats in order, every one a bot",
                      "example": [{"name": name, "bot": bot}
                                  for name, bot in zip(NAMES, example_bots(game), strict=False)]})
        variant = variant_field(game)
        seed = seed_field("The batch's seed: each match's is drawn from it and the match's "
                          "number. Left out, the server draws one (it is in the answer).")

        @ma.validates_schema
        def names_differ(self, data: dict[str, Any], **kwargs: Any) -> None:
            unique_names([p["name"] for p in data.get("players", [])])

    SimulationRequest.__name__ = f"{game.prefix}SimulationRequestSchema"
    return SimulationRequest


class ShareSchema(Sent):
    value = fields.Float(metadata={"description": "Share of the matches won, a win shared by k "
                                                  "seats counting 1/k"})
    low = fields.Float(metadata={"description": "95% Wilson interval, lower end"})
    high = fields.Float(metadata={"description": "95% Wilson interval, upper end"})


class SpreadSchema(Sent):
    """The spread of a figure over the batch's matches."""

    mean = fields.Float()
    stdev = fields.Float(metadata={"description": "Sample standard deviation"})
    min = fields.Float()
    max = fields.Float()


class SeatStatisticsSchema(Sent):
    seat = fields.Integer()
    name = fields.String()
    bot = fields.String()
    wins = fields.Integer(metadata={"description": "Matches this seat won alone"})
    shared_wins = fields.Integer(metadata={"description": "Matches whose win it shared"})
    win_share = fields.Nested(ShareSchema)
    score = fields.Nested(SpreadSchema)


class SimulationSchema(Sent):
    matches = fields.Integer()
    variant = fields.String()
    seed = fields.Integer(metadata={"description": "The batch's seed: the same request with it "
                                                  "plays the same matches"})
    seed_text = fields.String(metadata={"description": "`seed` as decimal text",
                                        "pattern": "^[0-9]+$"})
    seats = fields.List(fields.Nested(SeatStatisticsSchema))
    length = fields.Nested(SpreadSchema, metadata={"description": "Actions per match"})
    figures = fields.Dict(keys=fields.String(), values=fields.Float(), metadata={
        "description": "The game's own figures, each a mean per match (sets formed, missions "
                       "achieved, dinosaurs completed…)"})
