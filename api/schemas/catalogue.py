"""The catalogue entries with each game's box data."""

import marshmallow as ma
from marshmallow import fields

from .common import GameSummarySchema

Obj = fields.Dict  # a JSON object whose keys are described in the field's description


def _list_of(name: str, spec: dict[str, fields.Field]) -> fields.List:
    return fields.List(fields.Nested(ma.Schema.from_dict(spec, name=f"{name}InBox")))


class DigItUpGameSchema(GameSummarySchema):
    currency = fields.String(metadata={"example": "₩"})
    tiles = _list_of("DigItUpTile", {"id": fields.String(), "name": fields.String(),
                                     "set": fields.String(), "treasure": fields.Boolean()})
    sets = _list_of("DigItUpSetTable", {
        "id": fields.String(),
        "bonus_by_count": fields.List(Obj(), metadata={
            "description": "[{min, bonus}]: the last row whose min is reached applies"})})
    trinity_bonus = fields.Integer()
    bundle = Obj(metadata={"description": "{size, bonus}"})
    simplified = Obj(metadata={"description": "{set_min, set_bonus, loose_tile}"})
    sites = _list_of("DigItUpSite", {"id": fields.String(), "name": fields.String(),
                                     "treasures": Obj(), "stones": fields.Integer()})
    marks = Obj(metadata={"description": "{star: [tile types], plus_two: tile type}"})
    cards = _list_of("DigItUpCard", {
        "id": fields.String(), "name": fields.String(), "colour": fields.String(),
        "count": fields.Integer(), "multi": fields.Boolean(), "effect": fields.String(),
        "gain": fields.Integer(), "token": fields.Integer(), "steal": fields.Integer(),
        "counts_as": fields.String(), "end_money": fields.Integer(),
        "cancels_stone_set": fields.Boolean()})
    missions = _list_of("DigItUpMission", {
        "id": fields.String(), "name": fields.String(), "bonus": fields.Integer(),
        "multi": fields.Boolean(), "condition": fields.String()})
    variant_rules = _list_of("DigItUpVariant", {
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


class DigGameSchema(GameSummarySchema):
    colours = fields.List(fields.String())
    bones_per_colour = fields.Integer()
    bowl_points = fields.List(fields.Integer(), metadata={
        "description": "Points per bone by bowl place, nearest the Doghouse first"})
    bone_cards = _list_of("DigBoneCards", {"scent": fields.List(fields.String()),
                                           "count": fields.Integer()})
    bowls = fields.List(fields.String())
    hand_limit = fields.Integer()
    max_move = fields.Integer()
    actions_per_turn = fields.Integer()


class DinosGameSchema(GameSummarySchema):
    eras = fields.Integer()
    grid_size = fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
        "description": "Player count → grid side"})
    tokens = _list_of("DinosToken", {"side": fields.String(),
                                     "directions": fields.List(fields.String())})
    dinosaurs_to_end = fields.Integer()
    roster = _list_of("DinosRosterEntry", {
        "id": fields.String(), "name": fields.String(), "values": fields.List(fields.Integer()),
        "set_value": fields.Integer(), "flip": fields.Boolean(), "tiles": fields.Integer()})
