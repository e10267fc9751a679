"""Shared tallies: a phone's end-game scoresheet that the table follows live."""

import importlib

import marshmallow as ma
from marshmallow import fields

from scoring.engine import Game
from scoring.games import GAMES

from .common import Sent, Strict

# A tally's totals: a game's calculator response (its <Game>Result), or null while the table is
# still entering.
RESULT = {"anyOf": [*({"$ref": f"#/components/schemas/{game.prefix}Result"}
                      for game in GAMES.values()), {"type": "null"}]}


def sheet_request_schema(game: Game) -> type[ma.Schema]:
    """The body that creates or changes a tally of `game`: its scoresheet, or null. (Described
    on the operations: a schema's Meta.description would make apispec leave out its
    `additionalProperties: false`.)"""
    own = importlib.import_module(f"api.schemas.{game.package}")
    return type(f"{game.prefix}TallyRequestSchema", (Strict,), {
        "sheet": fields.Nested(own.ScoreRequestSchema, required=True, allow_none=True, metadata={
            "description": "The scoresheet as the calculator takes it (POST "
                           f"/games/{game.id}/score), or null while the table is still "
                           "entering it: the followers then see no totals"}),
    })


class TallySchema(Sent):
    class Meta:
        sometimes = ("heard_at",)

    id = fields.String(metadata={"description": "The tally's id, for its followers' link"})
    game = fields.String()
    version = fields.Integer(metadata={"description": "1, then one more at every change"})
    updated_at = fields.String(metadata={"format": "date-time",
                                         "description": "When the sheet last changed"})
    heard_at = fields.String(allow_none=True, metadata={
        "format": "date-time",
        "description": "In the stream's events only (GET and PUT answer what the version, "
                       "their ETag, stands for): when the writer's phone was last heard, "
                       "sending its sheet again unchanged (no new version; the phone page does "
                       "so every 20 s while it shows the tally) or a change after that; null "
                       "while it never did so. Long ago, counts typed on it since may not "
                       "have reached the server: the follow page says so. The stream sends "
                       "the tally again, at the same version, when it moves"})
    sheet = fields.Dict(allow_none=True, metadata={
        "description": "The scoresheet as last sent: the game's ScoreRequest (as POST "
                       "/games/{game}/score takes it), or null"})
    result = fields.Raw(allow_none=True, metadata={
        "description": "The calculator's answer to the sheet: every total, the breakdowns, "
                       "ranks and winners; null while the table is still entering", **RESULT})


class TallyCreatedSchema(Sent):
    token = fields.String(metadata={
        "description": "The writer's secret token, shown only here: send it to change the "
                       "tally"})
    tally = fields.Nested(TallySchema)
