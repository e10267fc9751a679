"""Dig It Up: the scoresheet and its result."""

import marshmallow as ma
from marshmallow import fields, validate

from scoring.dig_it_up import box
from scoring.dig_it_up.engine import SPACES, STEPS
from scoring.dig_it_up.score import judging
from scoring.games import GAMES

from .common import (
    Player,
    ScoreRequest,
    Sent,
    Strict,
    StrictBoolean,
    box_object,
    count,
    game_summary,
    list_of,
    players_list,
    result_schema,
    strict_from_dict,
    variant_field,
)
from .views import Event, Shown, counts, envelope, event_type, game_over, one_of, seat_number

MAX_TILES_OF_A_TYPE = 99
MAX_TOKENS = 999


TilesSchema = strict_from_dict(
    {t: count(MAX_TILES_OF_A_TYPE, metadata={"description": f"{box.TILE_NAMES[t]} tiles"})
     for t in box.TILE_TYPES},
    name="DigItUpTiles", unknown="This is not a tile type of Dig It Up.",
    kind="Enter the tiles held by type: {\"gold\": 3, \"stone\": 1, …}.")

CardsSchema = strict_from_dict(
    {c["id"]: count(MAX_TILES_OF_A_TYPE, metadata={"description": f"{c['name']} cards kept"})
     if c["colour"] == "orange" else  # the others are used at once: never kept (score.py)
     count(MAX_TILES_OF_A_TYPE, metadata={
         "maximum": 0, "description": f"{c['name']} is used at once: never kept to the end"})
     for c in box.CARDS},
    name="DigItUpCards", unknown="This is not a chance card of Dig It Up.",
    kind="Enter the orange cards kept by id: {\"appraisal\": 1, …}.")


class MissionSchema(Strict):
    one_of = (("id",), ("bonus",))  # as its validates_schema checks
    sent_with = {"bonus": ("achieved",)}  # play alone judges a printed card's bonus
    error_messages = {"type": "Enter the mission as {\"id\": …, \"achieved\": …}, or as "
                              "{\"bonus\": …, \"achieved\": …}."}

    id = fields.String(
        validate=validate.OneOf(list(box.MISSION_BY_ID),
                                error="This is not a mission of Dig It Up."),
        metadata={"description": "A mission id from the box; its bonus comes from the box",
                  "enum": list(box.MISSION_BY_ID)})
    bonus = fields.Integer(
        strict=True, validate=validate.Range(0, 100, error="Enter a bonus from 0 to 100 ₩."),
        metadata={"description": "Or: the bonus printed on the mission card, in ₩"})
    achieved = StrictBoolean(
        error_messages={"invalid": "Answer true or false."},
        metadata={"description": "Whether the mission was achieved. Required where only play "
                                 "decides it (a mission given by its bonus, and each box "
                                 "mission whose `declared` is true in GET /games/dig-it-up, "
                                 "unless the counts prove it: five chance cards kept prove "
                                 "Card Shark); the others are judged from the counts, and a "
                                 "value the counts contradict is refused (422)"})

    @ma.validates_schema
    def id_or_bonus(self, data, **kwargs):
        if "id" in data and "bonus" in data:
            raise ma.ValidationError("Give the mission's id or its bonus, not both.",
                                     field_name="id")
        if "id" not in data and "bonus" not in data:
            raise ma.ValidationError("Give the mission's id or its bonus.", field_name="bonus")
        # A box mission only play decides, left out, is asked for where the counts do not
        # prove it (score.py's check): five cards kept prove Card Shark.
        if "achieved" not in data and "bonus" in data:
            raise ma.ValidationError("Say whether the mission was achieved.",
                                     field_name="achieved")


class PlayerSchema(Player):
    tiles = fields.Nested(TilesSchema, load_default=dict)
    tokens = count(MAX_TOKENS, minimum=-MAX_TOKENS, metadata={
        "description": "Face value of the money tokens held, in ₩ (may be negative). In a "
                       "variant without chance cards (simplified) only +2 tiles bring them: an "
                       "even amount from 0, and together at most the board's +2 tiles are worth "
                       "(422 otherwise, naming the field)"})
    mission = fields.Nested(MissionSchema, allow_none=True, load_default=None)
    cards = fields.Nested(CardsSchema, load_default=dict, metadata={
        "description": "Orange chance cards still held at the end, by id"})


class ScoreRequestSchema(ScoreRequest):
    variant = variant_field(GAMES[box.GAME_ID], (
        "The players are the whole table: together they hold at most the tiles of its "
        "board, each type counted apart (422 otherwise, naming each field), the simplified "
        "game's board chosen by their number (`boards` in GET /games/dig-it-up)"))
    players = players_list(PlayerSchema)


SetsSchema = Sent.from_dict(
    {s: fields.Integer(metadata={"description": f"{s} set bonus in ₩"}) for s in box.SETS},
    name="DigItUpSets")


class BreakdownSchema(Sent):
    mission = fields.Integer(metadata={"description": "Step 1: mission bonus"})
    cards = fields.Integer(metadata={"description": "Step 2: Appraisal, Insurance"})
    tokens = fields.Integer(metadata={"description": "Step 3: money tokens"})
    sets = fields.Nested(SetsSchema, metadata={"description": "Step 4: set bonuses"})
    bundles = fields.Integer(metadata={
        "description": "Step 5: bundle bonuses (simplified: 1 ₩ per tile in no set)"})


ResultSchema = result_schema("DigItUp", BreakdownSchema)

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


class GameSchema(game_summary(box.GAME_ID)):
    """The catalogue entry with the box data the rules use."""

    @ma.pre_dump
    def mission_goals(self, game, **kwargs):
        # each mission's goal, so that a client (the phone page) judges it as the calculator does
        return {**game, "missions": [{**m, **judging(m["id"])} for m in game["missions"]]}

    currency = fields.String(metadata={"example": "₩"})
    tiles = list_of("DigItUpTile", {"id": fields.String(), "name": fields.String(),
                                     "set": fields.String(), "treasure": fields.Boolean()})
    sets = list_of("DigItUpSetTable", {
        "id": fields.String(),
        "bonus_by_count": fields.List(box_object("DigItUpSetBonus", {
            "min": fields.Integer(metadata={"description": "Tiles of the set held, at least"}),
            "bonus": fields.Integer(metadata={"description": "₩"})}), metadata={
            "description": "The last row whose min is reached applies"})})
    trinity_bonus = fields.Integer()
    bundle = box_object("DigItUpBundle", {
        "size": fields.Integer(metadata={"description": (
            "Tiles in a bundle: treasure tiles (and tile cards) that formed no set, pooled "
            "whatever their types (two golds and a ruby bundle); stones never bundle")}),
        "bonus": fields.Integer(metadata={"description": "₩ a bundle brings"})})
    simplified = box_object("DigItUpSimplified", {
        "set_min": fields.Integer(metadata={"description": "Tiles of a set that make a set"}),
        "set_bonus": fields.Integer(metadata={"description": "₩ a set brings"}),
        "loose_tile": fields.Integer(metadata={"description": "₩ a tile in no set brings"})},
        metadata={"description": "The simplified game's scoring"})
    sites = list_of("DigItUpSite", {
        "id": fields.String(), "name": fields.String(),
        "treasures": fields.Dict(keys=fields.String(), values=fields.Integer(), metadata={
            "description": "Tiles of each type the site holds, by tile id"}),
        "stones": fields.Integer()})
    marks = box_object("DigItUpMarks", {
        "star": fields.List(fields.String(), metadata={"description": "The ★ tile types"}),
        "plus_two": fields.String(metadata={"description": "The +2 tile type"}),
        "plus_two_value": fields.Integer(metadata={"description": "The ₩ a +2 tile brings"})})
    cards = list_of("DigItUpCard", {
        "id": fields.String(), "name": fields.String(), "colour": fields.String(),
        "count": fields.Integer(), "multi": fields.Boolean(), "effect": fields.String(),
        "gain": fields.Integer(), "token": fields.Integer(), "steal": fields.Integer(),
        "counts_as": fields.String(), "end_money": fields.Integer(),
        "cancels_stone_set": fields.Boolean()},
        sometimes=("gain", "token", "steal", "counts_as", "end_money", "cancels_stone_set"))
    missions = list_of("DigItUpMission", {
        "id": fields.String(), "name": fields.String(), "bonus": fields.Integer(),
        "multi": fields.Boolean(), "condition": fields.String(),
        "goal": box_object("DigItUpGoal", {
            "measure": fields.String(metadata={"description": "What is measured"}),
            "of": fields.String(metadata={"description": "The tile type counted (`count`)"}),
            "min": fields.Integer(), "max": fields.Integer()},
            sometimes=("of", "min", "max"), metadata={
                "description": "Achieved when the measure is within min and max"}),
        "declared": fields.Boolean(metadata={
            "description": "Only play decides it: the scoresheet says whether it was achieved"})})
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
            "description": "Diamonds are in play; null: by player count"}),
        "boards": fields.Dict(keys=fields.String(), values=fields.String(), metadata={
            "description": "Where `sites` is null: by number of players, the variant whose "
                           "board (sites, end, diamonds) the table plays on"})},
        sometimes=("boards",))


# --- a match: the view's state and the log's events (views.py) ----------------------------------

SITE = "A dig site's letter"
SPACE = "A space of the site, 1 at the left (next to the label)"
TOKEN = "A money token: +5 or −5 ₩"


def site(description: str = SITE, allow_none: bool = False) -> fields.Field:
    return one_of(box.SITES, description, allow_none)


def space(description: str = SPACE) -> fields.Integer:
    return fields.Integer(validate=validate.Range(1, SPACES), metadata={
        "description": description})


def tile(description: str = "", allow_none: bool = False) -> fields.Field:
    return one_of(box.TILE_TYPES, description, allow_none)


def token(description: str = TOKEN) -> fields.Field:
    return one_of([5, -5], description, allow_none=True, json_type="integer")


def card(description: str = "A chance card's id (GET /games/dig-it-up lists them)",
         allow_none: bool = False) -> fields.Field:
    return one_of(box.CARD_BY_ID, description, allow_none)


def mission_id(description: str, allow_none: bool = False) -> fields.Field:
    return one_of(box.MISSION_BY_ID, description, allow_none)


MARKS = [box.STAR, box.PLUS_TWO]


class MissionCardSchema(Shown):
    class Meta:
        sometimes = ("achieved",)

    id = mission_id("The mission's id")
    name = fields.String()
    bonus = fields.Integer(metadata={"description": "₩ at the end if achieved"})
    condition = fields.String(metadata={"description": "The card's text"})
    achieved = fields.Boolean(metadata={
        "description": "Once the match is over: whether it was achieved"})


class HeldCardSchema(Shown):
    id = card()
    name = fields.String()
    usable = fields.Boolean(metadata={
        "description": "A card is usable from the turn after it was drawn"})


class PlayerStateSchema(Shown):
    seat = seat_number()
    name = fields.String()
    tiles = fields.Nested(counts("DigItUpTilesHeld", box.TILE_TYPES, "{} tiles taken"))
    money = fields.Integer(metadata={
        "description": "Net ₩: purse plus hazards; what the end scores as tokens"})
    purse = fields.Integer(validate=validate.Range(0), metadata={
        "description": "Coins and +5 tokens: the money, never below 0; a Thief takes from it"})
    hazards = fields.Integer(validate=validate.Range(max=0), metadata={
        "description": "The −5 tokens taken, 0 or less; no Thief can take them"})
    cards = fields.List(fields.Nested(HeldCardSchema), metadata={
        "description": "Orange chance cards kept, in the order drawn"})
    cards_drawn = fields.Integer(metadata={"description": "Chance cards drawn (Card Shark)"})
    sites_closed = fields.Integer(metadata={
        "description": "Sites this player's own dig abandoned (Closing Shop)"})
    mission_kept = fields.Boolean(metadata={"description": "The player has chosen a mission"})
    mission_achieved = fields.Boolean(allow_none=True, metadata={
        "description": "Once the match is over: whether the kept mission was achieved; null "
                       "before, and for a player with no mission"})
    mission = fields.Nested(MissionCardSchema, allow_none=True, metadata={
        "description": "The kept mission: only its owner sees it, and everyone once the match "
                       "is over if it was achieved (a failed one stays face down)"})
    discarded = fields.List(fields.Nested(MissionCardSchema), allow_none=True, metadata={
        "description": "Only its owner sees them, during and after the match: the two missions "
                       "not kept; null for the others"})


class SpaceStateSchema(Shown):
    space = space()
    tile = tile("The tile in the space; null: taken, or lost to a landslide or the site's "
                "abandonment", allow_none=True)
    mark = one_of(MARKS, "star: taking it draws a chance card; plus_two: it brings 2 ₩; null: "
                         "no mark (or no tile)", allow_none=True)
    token = token("A money token lying on the tile, won with it: +5 or −5 ₩; null: none")


class SiteStateSchema(Shown):
    id = site()
    name = fields.String()
    pickax = fields.Integer(validate=validate.Range(0, SPACES), metadata={
        "description": "The space the site's pickax stands on; 0: on the label, left of space 1"})
    abandoned = fields.Boolean()
    abandoned_by = seat_number("Who abandoned it, if it is abandoned", allow_none=True)
    spaces = fields.List(fields.Nested(SpaceStateSchema), metadata={
        "description": "The site's spaces, 1 first"})


class LandingSchema(Shown):
    space = space()
    tile = tile("The tile there, taken with the roll kept")


class TurnStateSchema(Shown):
    seat = seat_number("Whose turn it is")
    number = fields.Integer(validate=validate.Range(1))
    step = one_of(STEPS, "What the turn waits for: dig; roll (lucky_charm or keep_roll); "
                         "place_token, steal or landslide (the chance card's choice)")
    site = site("The site dug this turn; null before the dig", allow_none=True)
    roll = fields.Integer(allow_none=True, validate=validate.Range(1, box.DIE_SIDES), metadata={
        "description": "The roll waiting to be kept or rolled again; null otherwise"})
    card = card("The chance card whose choice is to be made; null otherwise", allow_none=True)
    extra_turn = fields.Boolean(metadata={
        "description": "A Second Wind: the same player takes the next turn"})
    lands_on = fields.Nested(LandingSchema, allow_none=True, metadata={
        "description": "Where the roll waiting to be kept would step the pickax (`keep_roll` "
                       "takes that tile); null otherwise"})


class LastRollSchema(Shown):
    seat = seat_number()
    site = site()
    roll = fields.Integer(validate=validate.Range(1, box.DIE_SIDES))
    by = one_of(["die", "ancient_map", "lucky_charm"], "die: rolled; ancient_map: chosen with "
                                                       "an Ancient Map; lucky_charm: rolled again")


class StateSchema(envelope(box)):
    offered_missions = fields.List(fields.Nested(MissionCardSchema), allow_none=True, metadata={
        "description": "Before the first turn, in your own view: the three missions to keep one "
                       "of; null once you have kept one, and in a spectator's view"})
    players = fields.List(fields.Nested(PlayerStateSchema), metadata={
        "description": "Every seat, in seat order"})
    sites = fields.List(fields.Nested(SiteStateSchema), metadata={
        "description": "The board's dig sites, abandoned ones included"})
    abandoned = fields.List(site(), metadata={"description": "Abandoned sites, in order"})
    abandon_limit = fields.Integer(metadata={
        "description": "The match ends after the turn that abandons this many sites"})
    deck_size = fields.Integer(metadata={"description": "Chance cards left to draw"})
    cards_used = fields.List(card(), metadata={
        "description": "The chance cards drawn and used (a gray card as drawn, an orange one "
                       "once played), each as often as it was, in the order GET "
                       "/games/dig-it-up lists them: each was read aloud as it was drawn, so "
                       "the table knows them; the deck holds the others nobody keeps"})
    turn = fields.Nested(TurnStateSchema, allow_none=True, metadata={
        "description": "null before the first turn (missions being chosen) and once over"})
    last_roll = fields.Nested(LastRollSchema, allow_none=True, metadata={
        "description": "The latest dig's number; null before the first"})


class MissionKeptEventSchema(Event):
    """A player kept a mission (which one, only they see: `your_mission`)."""

    type = event_type("mission_kept")
    seat = seat_number()


class YourMissionEventSchema(Event):
    """Only the player who kept it sees it: the mission kept and the two discarded."""

    type = event_type("your_mission")
    seat = seat_number()
    mission = mission_id("The mission kept")
    discarded = fields.List(mission_id("A mission discarded"))


class TurnEventSchema(Event):
    """A turn begins."""

    type = event_type("turn")
    seat = seat_number()
    number = fields.Integer(validate=validate.Range(1))


class RollEvent(Event):
    seat = seat_number()
    site = site()
    roll = fields.Integer(validate=validate.Range(1, box.DIE_SIDES))


class DigEventSchema(RollEvent):
    """A player dug at a site: the number the pickax steps."""

    type = event_type("dig")
    by = one_of(["die", "ancient_map"], "die: rolled; ancient_map: chosen with an Ancient Map")


class RerollEventSchema(RollEvent):
    """A Lucky Charm rolled the die again."""

    type = event_type("reroll")


class TookEventSchema(Event):
    """The pickax landed on a tile, and the player took it (with the token on it)."""

    type = event_type("took")
    seat = seat_number()
    site = site()
    space = space()
    tile = tile()
    mark = one_of(MARKS, "star: a chance card follows; plus_two: 2 ₩ more; null: no mark",
                  allow_none=True)
    token = token("The money token on the tile, taken with it; null: none")


class TileLostEvent(Event):
    seat = seat_number("Whose dig or Landslide it was")
    site = site()
    tile_lost = tile()
    token_lost = token("The token on the lost tile, back to the bank; null: none")


class AbandonedEventSchema(TileLostEvent):
    """A site was left with one tile and is abandoned: that tile leaves play, its token goes
    back to the bank."""

    type = event_type("abandoned")


class LandslideEventSchema(TileLostEvent):
    """A Landslide removed a site's leftmost tile from play."""

    type = event_type("landslide")
    space = space()


class CardDrawnEvent(Event):
    seat = seat_number()
    card = card()


class CardEventSchema(CardDrawnEvent):
    """A ★ tile drew a chance card (kept if orange, resolved now if gray)."""

    type = event_type("card")


class NoEffectEventSchema(CardDrawnEvent):
    """Strike Gold or Hazardous Area with no free tile on the open sites: the card is spent."""

    type = event_type("no_effect")


class DeckEmptyEventSchema(Event):
    """A ★ tile, but the chance deck is empty: nothing is drawn."""

    type = event_type("deck_empty")
    seat = seat_number()


class TokenPlacedEventSchema(Event):
    """A card's money token was put on a board tile."""

    type = event_type("token_placed")
    seat = seat_number()
    site = site()
    space = space()
    value = fields.Integer(validate=validate.OneOf([5, -5]), metadata={"description": TOKEN})


class StoleEventSchema(Event):
    """A Thief took money from another player's purse."""

    type = event_type("stole")
    seat = seat_number()
    victim = seat_number("The player robbed")
    amount = fields.Integer(validate=validate.Range(0), metadata={"description": "₩ taken"})


RevealedSchema = Shown.from_dict({
    "seat": seat_number(),
    "mission": mission_id("Shown if achieved; null: failed, left face down", allow_none=True),
    "achieved": fields.Boolean(),
}, name="DigItUpMissionRevealed")

EVENTS = {
    "mission_kept": MissionKeptEventSchema,
    "your_mission": YourMissionEventSchema,
    "turn": TurnEventSchema,
    "dig": DigEventSchema,
    "reroll": RerollEventSchema,
    "took": TookEventSchema,
    "abandoned": AbandonedEventSchema,
    "card": CardEventSchema,
    "deck_empty": DeckEmptyEventSchema,
    "no_effect": NoEffectEventSchema,
    "token_placed": TokenPlacedEventSchema,
    "stole": StoleEventSchema,
    "landslide": LandslideEventSchema,
    "game_over": game_over(
        box, "The turn that reached the limit of abandoned sites is over: the match is over",
        missions=fields.List(fields.Nested(RevealedSchema), metadata={
            "description": "Each kept mission, revealed if achieved"})),
}
