"""Digging for Dinos: the scoresheet and its result."""

import marshmallow as ma
from marshmallow import fields, validate

from scoring.dinos import box

from .common import (
    Entries,
    GameSummarySchema,
    Player,
    ScoreRequest,
    Strict,
    StrictBoolean,
    list_of,
    players_list,
    result_schema,
)

MAX_POSITIONS = 20
MAX_ROSTER = 30
ID_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"


def _positions() -> fields.List:
    message = f"A position is a whole number from 1 to {MAX_POSITIONS}."
    return fields.List(
        fields.Integer(strict=True, validate=validate.Range(1, MAX_POSITIONS, error=message),
                       error_messages={"invalid": message}),
        validate=validate.Length(max=box.ERAS * MAX_POSITIONS,
                                 error="More tiles of one dinosaur than the game has."),
        metadata={"description": "Positions held, 1-based; a position may repeat (eras)"})


class PlayerSchema(Player):
    tiles = Entries(
        keys=fields.String(validate=validate.Regexp(ID_PATTERN,
                                                    error="This is not a dinosaur id.")),
        values=_positions(), load_default=dict,
        metadata={"description": "Dinosaur id → positions held",
                  "example": {"stegosaurus": [1, 2, 3, 4]}})


class DinosaurSchema(Strict):
    id = fields.String(required=True, validate=validate.Regexp(
        ID_PATTERN, error="An id is lower-case letters, digits and _."))
    name = fields.String(validate=validate.Length(1, 40))
    values = fields.List(
        fields.Integer(strict=True, validate=validate.Range(0, 100)), required=True,
        validate=validate.Length(1, MAX_POSITIONS,
                                 error=f"A dinosaur has 1 to {MAX_POSITIONS} tiles."),
        metadata={"description": "Left-hand value of each position, 1…n"})
    set_value = fields.Integer(strict=True, required=True, validate=validate.Range(0, 1000),
                               metadata={"description": "Value of a complete set"})
    flip = StrictBoolean(load_default=False,
                         metadata={"description": "Completing it lets the player flip a token"})
    tiles = fields.Integer(strict=True, metadata={
        "description": "Number of tiles (read only: len(values))"})

    @ma.validates_schema
    def tiles_match_values(self, data, **kwargs):
        if "tiles" in data and data["tiles"] != len(data["values"]):
            raise ma.ValidationError("tiles must equal the number of values.", field_name="tiles")

    @ma.post_load
    def defaults(self, data, **kwargs):
        data.setdefault("name", data["id"].replace("_", " ").title())
        data.pop("tiles", None)
        return data


class ScoreRequestSchema(ScoreRequest):
    roster = fields.List(
        fields.Nested(DinosaurSchema),
        validate=validate.Length(1, MAX_ROSTER, error=f"A roster has 1 to {MAX_ROSTER} dinosaurs."),
        metadata={"description": "Replaces the box roster for this request"})
    players = players_list(PlayerSchema)

    @ma.validates_schema
    def ids_differ(self, data, **kwargs):
        ids = [d["id"] for d in data.get("roster") or []]
        if len(ids) != len(set(ids)):
            raise ma.ValidationError("Each dinosaur appears once in the roster.",
                                     field_name="roster")


CompletedSchema = ma.Schema.from_dict(
    {"dinosaur": fields.String(), "value": fields.Integer()}, name="DinosCompleted")


class BreakdownSchema(ma.Schema):
    completed = fields.List(fields.Nested(CompletedSchema),
                            metadata={"description": "One entry per complete set"})
    loose = fields.Integer(metadata={"description": "Left-hand values of tiles in no set"})


ResultSchema = result_schema("Dinos", BreakdownSchema)

EXAMPLES = {
    "matteo_incomplete": {
        "summary": "Matteo's 4 of 5 Stegosaurus tiles (rulebook example): 9 points",
        "value": {"players": [{"name": "Matteo", "tiles": {"stegosaurus": [1, 2, 3, 4]}}]},
    },
    "matteo_complete": {
        "summary": "Matteo with all 5 Stegosaurus tiles (rulebook example): 17 points",
        "value": {"players": [{"name": "Matteo", "tiles": {"stegosaurus": [1, 2, 3, 4, 5]}}]},
    },
}


class GameSchema(GameSummarySchema):
    """The catalogue entry with the box data the rules use."""

    eras = fields.Integer()
    grid_size = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
        "description": "Player count → grid side"})
    tokens = list_of("DinosToken", {"side": fields.String(),
                                     "directions": fields.List(fields.String())})
    dinosaurs_to_end = fields.Integer()
    roster = list_of("DinosRosterEntry", {
        "id": fields.String(), "name": fields.String(), "values": fields.List(fields.Integer()),
        "set_value": fields.Integer(), "flip": fields.Boolean(), "tiles": fields.Integer()})
