"""DIG: the scoresheet and its result."""

import marshmallow as ma
from marshmallow import fields, validate

from scoring.dig import box
from scoring.games import GAMES

from .common import (
    List,
    Player,
    ScoreRequest,
    Sent,
    count,
    game_summary,
    list_of,
    players_list,
    result_schema,
    strict_from_dict,
    variant_field,
)
from .views import Event, Shown, counts, envelope, event_type, game_over, one_of, seat_number
from .words import listed

COLOUR_ERROR = "Choose one of: " + ", ".join(box.COLOURS) + "."

DroppedSchema = strict_from_dict(
    {c: count(box.BONES_PER_COLOUR, metadata={"description": f"{c} bones dropped"})
     for c in box.COLOURS},
    name="DigDropped", unknown="This is not a bone colour of DIG.",
    kind="Enter the bones dropped by colour: {\"green\": 2, \"red\": 1, …}.")


class PlayerSchema(Player):
    dropped = fields.Nested(DroppedSchema, load_default=dict,
                            metadata={"description": "Bones dropped in bowls, by colour"})


class ScoreRequestSchema(ScoreRequest):
    variant = variant_field(GAMES[box.GAME_ID], "The game's variant (GET /games/{game} lists "
                                                "them); the result names it")
    bowls = List(
        fields.String(validate=validate.OneOf(box.COLOURS, error=COLOUR_ERROR),
                      metadata={"enum": list(box.COLOURS)}),
        required=True,
        validate=validate.Length(len(box.COLOURS), len(box.COLOURS),
                                 error="List the five bowls, nearest the Doghouse first."),
        error_messages={"required": "List the five bowls, nearest the Doghouse first."},
        metadata={"description": "The bowls' colours, nearest the Doghouse first, each once",
                  "uniqueItems": True})
    players = players_list(PlayerSchema)

    @ma.validates_schema
    def bowls_once(self, data, **kwargs):
        bowls = data["bowls"]
        repeated = sorted({c for c in bowls if bowls.count(c) > 1})
        if repeated:
            named = listed(repeated)
            times = "twice" if all(bowls.count(c) == 2 for c in repeated) else "more than once"
            raise ma.ValidationError(
                f"Each bowl appears once; {named} {'is' if len(repeated) == 1 else 'are each'} "
                f"listed {times}.", field_name="bowls")


ColourSchema = Sent.from_dict({
    "bones": fields.Integer(metadata={"description": "Bones of this colour dropped"}),
    "value": fields.Integer(metadata={"description": "Points per bone, from its bowl's place"}),
    "points": fields.Integer(),
}, name="DigColourPoints")

BreakdownSchema = Sent.from_dict(
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


class GameSchema(game_summary(box.GAME_ID)):
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


# --- a match: the view's state and the log's events (views.py) ----------------------------------

POSITION = "A yard position: 1 is the card nearest the Doghouse (0)"


def scent(description: str = "A bone card's scent: the two colours on its back, in the box's "
                             "order of colours") -> fields.List:
    return List(one_of(box.COLOURS), validate=validate.Length(2, 2),
                       metadata={"description": description})


def scents(description: str) -> fields.List:
    return fields.List(scent(), metadata={"description": description})


class PlayerStateSchema(Shown):
    seat = seat_number()
    name = fields.String()
    dog = fields.Integer(validate=validate.Range(0), metadata={
        "description": "Where the dog stands: 0 is the Doghouse, 1 the yard card nearest it"})
    hand_size = fields.Integer(validate=validate.Range(0, box.HAND_LIMIT + 1))
    hand_scents = scents("The backs of the hand's cards, as the whole table sees them: in the "
                         "box's order of scent pairs, not the hand's")
    dropped = fields.Nested(counts("DigDroppedBones", box.COLOURS, "{} bones dropped"),
                            metadata={"description": "Bones dropped in bowls, by colour"})


class YardCardSchema(Shown):
    class Meta:
        sometimes = ("scent", "known_bone", "colour")

    kind = one_of(["bone", "bowl"])
    scent = scent("A bone card's scent (bones only), the two colours on its back")
    known_bone = one_of(box.COLOURS, "Bones only, and only when you can tell this card: you held "
                                     "it and no put-back has since mixed it up with its twin "
                                     "(the other card of its scent). Its bone's colour")
    colour = one_of(box.COLOURS, "Bowls only: the colour the bowl collects")


class HandCardSchema(Shown):
    card = fields.Integer(validate=validate.Range(0, box.HAND_LIMIT), metadata={
        "description": "The card's place in your hand, from 0: what put_back and drop name"})
    scent = scent()
    bone = one_of(box.COLOURS, "The bone's colour: only you see it")


class PendingPutBackSchema(Shown):
    position = fields.Integer(metadata={"description": "Where the bone was dug: " + POSITION})
    required = fields.Boolean(metadata={
        "description": "True with 4 cards in hand: one must go back (keep is not allowed)"})


class StateSchema(envelope(box)):
    class Meta:
        sometimes = ("hand",)

    players = fields.List(fields.Nested(PlayerStateSchema), metadata={
        "description": "Every seat, in seat order"})
    yard = fields.List(fields.Nested(YardCardSchema, allow_none=True), metadata={
        "description": "The yard, position 1 first (the Doghouse, position 0, is not in it); "
                       "null: a gap left by a dig, until the turn's end resets the yard"})
    bowl_order = fields.List(one_of(box.COLOURS), metadata={
        "description": "The bowls' colours in yard order, nearest the Doghouse first (the end "
                       "scores them 5, 4, 3, 2, 1 a bone)"})
    turn = seat_number("The seat whose turn it is; null once the match is over", allow_none=True)
    actions_left = fields.Integer(validate=validate.Range(0, box.ACTIONS_PER_TURN))
    put_back = fields.Nested(PendingPutBackSchema, allow_none=True, metadata={
        "description": "Right after a dig: where a bone may (or must) go back; null otherwise"})
    turns_played = fields.Integer()
    hand = fields.List(fields.Nested(HandCardSchema), metadata={
        "description": "A seat's view only: your cards, with their bones"})


class CardOnTheTable(Event):
    """What everyone sees of a bone card going into or out of the yard."""

    seat = seat_number()
    position = fields.Integer(metadata={"description": POSITION})
    scent = scent()


class BoneOfYourCard(Event):
    """What only the player who moved a card sees of it."""

    bone = one_of(box.COLOURS)


class DugEventSchema(CardOnTheTable):
    """A dog dug up the bone card at `position`: everyone sees its scent, only the digger its
    bone (`found`)."""

    type = event_type("dug")


class FoundEventSchema(BoneOfYourCard):
    """Only the digger sees it: the bone of the card just dug."""

    type = event_type("found")


class PutBackEventSchema(CardOnTheTable):
    """A card went back where its player dug: everyone sees its scent; which card of the hand
    it was stays the player's (`buried`)."""

    type = event_type("put_back")


class BuriedEventSchema(BoneOfYourCard):
    """Only the player who put a card back sees it: the bone of that card."""

    type = event_type("buried")


class DroppedEventSchema(Event):
    """Bones went face up into the bowl under the player's dog."""

    type = event_type("dropped")
    seat = seat_number()
    colour = one_of(box.COLOURS, "The bowl's colour, so every bone's")
    count = fields.Integer(validate=validate.Range(1, box.HAND_LIMIT))
    scents = scents("The dropped cards' scents, in the box's order of scent pairs")


FilledSchema = Shown.from_dict({
    "from": fields.Integer(metadata={"description": "The yard's last card moved from here …"}),
    "to": fields.Integer(metadata={"description": "… into the gap nearest the Doghouse"}),
}, name="DigYardMove")


class YardResetEventSchema(Event):
    """The end of a turn closed the yard's gaps (rulebook "Resetting the Yard")."""

    type = event_type("yard_reset")
    filled = fields.List(fields.Nested(FilledSchema), metadata={"description": "In order"})
    slid = fields.List(seat_number(), metadata={
        "description": "Seats whose dog stood past the new end and slid back to the last card"})


EVENTS = {
    "dug": DugEventSchema,
    "found": FoundEventSchema,
    "put_back": PutBackEventSchema,
    "buried": BuriedEventSchema,
    "dropped": DroppedEventSchema,
    "yard_reset": YardResetEventSchema,
    "game_over": game_over(box, "Only the five bowls are left: the match is over (the view's "
                                "result has the scores)"),
}
