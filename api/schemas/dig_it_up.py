"""Dig It Up: the scoresheet and its result."""

import marshmallow as ma
from marshmallow import fields, validate

from scoring.dig_it_up import box

from .common import (
    GameSummarySchema,
    Obj,
    Player,
    ScoreRequest,
    Strict,
    StrictBoolean,
    count,
    list_of,
    players_list,
    result_schema,
    strict_from_dict,
)

MAX_TILES_OF_A_TYPE = 99
MAX_TOKENS = 999


TilesSchema = strict_from_dict(
    {t: count(MAX_TILES_OF_A_TYPE, metadata={"description": f"{box.TILE_NAMES[t]} tiles"})
     for t in box.TILE_TYPES},
    name="DigItUpTiles", unknown="This is not a tile type of Dig It Up.")

CardsSchema = strict_from_dict(
    {c["id"]: count(MAX_TILES_OF_A_TYPE, metadata={"description": f"{c['name']} cards kept"})
     for c in box.CARDS},
    name="DigItUpCards", unknown="This is not a chance card of Dig It Up.")


class MissionSchema(Strict):
    id = fields.String(
        validate=validate.OneOf(list(box.MISSION_BY_ID),
                                error="This is not a mission of Dig It Up."),
        metadata={"description": "A mission id from the box; its bonus comes from the box",
                  "enum": list(box.MISSION_BY_ID)})
    bonus = fields.Integer(
        strict=True, validate=validate.Range(0, 100, error="Enter a bonus from 0 to 100 ₩."),
        metadata={"description": "Or: the bonus printed on the mission card, in ₩"})
    achieved = StrictBoolean(required=True,
                             error_messages={"required": "Say whether the mission was achieved.",
                                             "invalid": "Answer true or false."})

    @ma.validates_schema
    def id_or_bonus(self, data, **kwargs):
        if ("id" in data) == ("bonus" in data):
            raise ma.ValidationError("Give the mission's id or its bonus, not both.",
                                     field_name="id" if "id" in data else "bonus")


class PlayerSchema(Player):
    tiles = fields.Nested(TilesSchema, load_default=dict)
    tokens = count(MAX_TOKENS, minimum=-MAX_TOKENS, metadata={
        "description": "Face value of the money tokens held, in ₩ (may be negative)"})
    mission = fields.Nested(MissionSchema, allow_none=True, load_default=None)
    cards = fields.Nested(CardsSchema, load_default=dict, metadata={
        "description": "Orange chance cards still held at the end, by id"})


class ScoreRequestSchema(ScoreRequest):
    variant = fields.String(
        load_default=box.DEFAULT_VARIANT,
        validate=validate.OneOf(list(box.VARIANTS), error="Choose standard, small or simplified."),
        metadata={"enum": list(box.VARIANTS)})
    players = players_list(PlayerSchema)


SetsSchema = ma.Schema.from_dict(
    {s: fields.Integer(metadata={"description": f"{s} set bonus in ₩"}) for s in box.SETS},
    name="DigItUpSets")


class BreakdownSchema(ma.Schema):
    mission = fields.Integer(metadata={"description": "Step 1: mission bonus"})
    cards = fields.Integer(metadata={"description": "Step 2: Appraisal, Insurance"})
    tokens = fields.Integer(metadata={"description": "Step 3: money tokens"})
    sets = fields.Nested(SetsSchema, metadata={"description": "Step 4: set bonuses"})
    bundles = fields.Integer(metadata={
        "description": "Step 5: bundle bonuses (simplified: 1 ₩ per tile in no set)"})


ResultSchema = result_schema("DigItUp", BreakdownSchema, {"variant": fields.String()})

EXAMPLES = {
    "joseph": {
        "summary": "Joseph's final money (rulebook example): 50 ₩",
        "value": {"variant": "standard", "players": [{
            "name": "Joseph",
            "tiles": {"gold": 3, "incense_burner": 1, "statue": 2, "knife": 1, "scroll": 1,
                      "crystal": 1, "ruby": 1, "diamond": 0, "stone": 3},
            "tokens": 8, "mission": {"id": "jack_of_all_trades", "achieved": True},
            "cards": {"pink_diamond": 1}}]},
    },
    "ivan": {
        "summary": "Ivan's leftover tiles bundle into 10 ₩ (rulebook example)",
        "value": {"players": [{"name": "Ivan",
                               "tiles": {"statue": 2, "crystal": 3, "ruby": 1, "diamond": 1}}]},
    },
}


class GameSchema(GameSummarySchema):
    """The catalogue entry with the box data the rules use."""

    currency = fields.String(metadata={"example": "₩"})
    tiles = list_of("DigItUpTile", {"id": fields.String(), "name": fields.String(),
                                     "set": fields.String(), "treasure": fields.Boolean()})
    sets = list_of("DigItUpSetTable", {
        "id": fields.String(),
        "bonus_by_count": fields.List(Obj(), metadata={
            "description": "[{min, bonus}]: the last row whose min is reached applies"})})
    trinity_bonus = fields.Integer()
    bundle = Obj(metadata={"description": "{size, bonus}"})
    simplified = Obj(metadata={"description": "{set_min, set_bonus, loose_tile}"})
    sites = list_of("DigItUpSite", {"id": fields.String(), "name": fields.String(),
                                     "treasures": Obj(), "stones": fields.Integer()})
    marks = Obj(metadata={"description": "{star: [tile types], plus_two: tile type}"})
    cards = list_of("DigItUpCard", {
        "id": fields.String(), "name": fields.String(), "colour": fields.String(),
        "count": fields.Integer(), "multi": fields.Boolean(), "effect": fields.String(),
        "gain": fields.Integer(), "token": fields.Integer(), "steal": fields.Integer(),
        "counts_as": fields.String(), "end_money": fields.Integer(),
        "cancels_stone_set": fields.Boolean()})
    missions = list_of("DigItUpMission", {
        "id": fields.String(), "name": fields.String(), "bonus": fields.Integer(),
        "multi": fields.Boolean(), "condition": fields.String()})
    variant_rules = list_of("DigItUpVariant", {
        "id": fields.String(), "name": fields.String(),
        "players": fields.List(fields.Integer(), metadata={"description": "[min, max]"}),
        "sites": fields.String(allow_none=True, metadata={
            "description": "Site letters in play; null: by player count (simplified)"}),
        "abandon_limit": fields.Integer(allow_none=True, metadata={
            "description": "Abandoned sites that end the game; null: by player count"}),
        "cards": fields.Boolean(), "missions": fields.Boolean(),
        "multi": fields.Boolean(metadata={"description": "Cards marked multi are in play"}),
        "diamonds": fields.Boolean(allow_none=True, metadata={
            "description": "Diamonds are in play; null: by player count"})})
