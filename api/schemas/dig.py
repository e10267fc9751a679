"""DIG: the scoresheet and its result."""

import marshmallow as ma
from marshmallow import fields, validate

from scoring.dig import box

from .common import (
    GameSummarySchema,
    Player,
    ScoreRequest,
    count,
    list_of,
    players_list,
    result_schema,
    strict_from_dict,
)

COLOUR_ERROR = "Choose one of: " + ", ".join(box.COLOURS) + "."

DroppedSchema = strict_from_dict(
    {c: count(box.BONES_PER_COLOUR, metadata={"description": f"{c} bones dropped"})
     for c in box.COLOURS},
    name="DigDropped", unknown="This is not a bone colour of DIG.")


class PlayerSchema(Player):
    dropped = fields.Nested(DroppedSchema, load_default=dict,
                            metadata={"description": "Bones dropped in bowls, by colour"})


class ScoreRequestSchema(ScoreRequest):
    bowls = fields.List(
        fields.String(validate=validate.OneOf(box.COLOURS, error=COLOUR_ERROR),
                      metadata={"enum": list(box.COLOURS)}),
        required=True,
        validate=validate.Length(len(box.COLOURS), len(box.COLOURS),
                                 error="List the five bowls, nearest the Doghouse first."),
        error_messages={"required": "List the five bowls, nearest the Doghouse first."},
        metadata={"description": "The bowls' colours, nearest the Doghouse first"})
    players = players_list(PlayerSchema)

    @ma.validates_schema
    def bowls_once(self, data, **kwargs):
        bowls = data["bowls"]
        repeated = sorted({c for c in bowls if bowls.count(c) > 1})
        if repeated:
            raise ma.ValidationError(
                f"Each bowl appears once; {', '.join(repeated)} is listed twice.",
                field_name="bowls")


ColourSchema = ma.Schema.from_dict({
    "bones": fields.Integer(metadata={"description": "Bones of this colour dropped"}),
    "value": fields.Integer(metadata={"description": "Points per bone, from its bowl's place"}),
    "points": fields.Integer(),
}, name="DigColourPoints")

BreakdownSchema = ma.Schema.from_dict(
    {c: fields.Nested(ColourSchema) for c in box.COLOURS}, name="DigBreakdown")

ResultSchema = result_schema("Dig", BreakdownSchema)

EXAMPLES = {
    "ann": {
        "summary": "Ann's bones (rulebook scoring example): 29 points",
        "value": {"bowls": ["green", "yellow", "purple", "blue", "red"],
                  "players": [{"name": "Ann", "dropped": {"green": 2, "yellow": 1, "purple": 3,
                                                          "blue": 2, "red": 2}}]},
    },
}


class GameSchema(GameSummarySchema):
    """The catalogue entry with the box data the rules use."""

    colours = fields.List(fields.String())
    bones_per_colour = fields.Integer()
    bowl_points = fields.List(fields.Integer(), metadata={
        "description": "Points per bone by bowl place, nearest the Doghouse first"})
    bone_cards = list_of("DigBoneCards", {"scent": fields.List(fields.String()),
                                           "count": fields.Integer()})
    bowls = fields.List(fields.String())
    hand_limit = fields.Integer()
    max_move = fields.Integer()
    actions_per_turn = fields.Integer()
