"""Digging for Dinos: the scoresheet and its result."""

import marshmallow as ma
from marshmallow import fields, validate

from scoring.dinos import box
from scoring.dinos.engine import FOURTH_DINOSAUR, LAST_TILE, STAGES, TOKEN_IDS
from scoring.games import GAMES

from .common import (
    Entries,
    List,
    Player,
    ScoreRequest,
    Sent,
    Strict,
    StrictBoolean,
    game_summary,
    list_of,
    player_name,
    players_list,
    result_schema,
    variant_field,
)
from .views import Event, Shown, counts, envelope, event_type, game_over, one_of, seat_number

MAX_POSITIONS = 20
MAX_ROSTER = 30
ID_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"


class WholeMatch(validate.Regexp):
    """The pattern, matched by the whole text: Python's `$` also matches before a last line
    break, where the document's pattern (JSON Schema's, ECMAScript's) does not."""

    def __call__(self, value: str) -> str:
        if self.regex.fullmatch(value) is None:
            raise ma.ValidationError(self._format_error(value))
        return value


def _positions() -> fields.List:
    message = f"A position is a whole number from 1 to {MAX_POSITIONS}."
    listed = "List the positions held, such as [1, 2, 2]."
    return List(
        fields.Integer(strict=True, validate=validate.Range(1, MAX_POSITIONS, error=message),
                       error_messages={"invalid": message}),
        validate=validate.Length(max=box.ERAS * MAX_POSITIONS,
                                 error="More tiles of one dinosaur than the game has."),
        error_messages={"invalid": listed, "null": listed},
        metadata={"description": "Positions held, 1-based; a position may repeat (eras)"})


# (a field's message: marshmallow formats it, so a brace is written twice)
TILES = "Enter the tiles held by dinosaur: {{\"stegosaurus\": [1, 2, 3], …}}."


class PlayerSchema(Player):
    tiles = Entries(
        keys=fields.String(validate=WholeMatch(ID_PATTERN,
                                                    error="This is not a dinosaur id.")),
        values=_positions(), load_default=dict,
        error_messages={"invalid": TILES, "null": TILES},
        # the box's ids, or those of the request's own roster: the document had listed the
        # box's alone, refusing every roster of new dinosaurs a client checked before sending
        metadata={"description": "Dinosaur id → positions held: an id of the box's roster ("
                                 + ", ".join(dinosaur["id"] for dinosaur in box.ROSTER)
                                 + "), or of the request's `roster` where it sends one",
                  "example": {"stegosaurus": [1, 2, 3, 4]},
                  "keys_pattern": ID_PATTERN})


class DinosaurSchema(Strict):
    id = fields.String(required=True, validate=WholeMatch(
        ID_PATTERN, error="An id is lower-case letters, digits and _."))
    # checked as a player's name is: it is shown to every follower of a tally
    name = player_name(metadata={"description": "Its name as the table reads it (default: its "
                                                "id, capitalised)", "example": "Stegosaurus"})
    values = List(
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
    variant = variant_field(GAMES[box.GAME_ID], "The game's variant (GET /games/{game} lists "
                                                "them); the result names it")
    roster = List(
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


CompletedSchema = Sent.from_dict(
    {"dinosaur": fields.String(), "value": fields.Integer()}, name="DinosCompleted")


class BreakdownSchema(Sent):
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


class GameSchema(game_summary(box.GAME_ID)):
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


# --- a match: the view's state and the log's events (views.py) ----------------------------------

DINOSAURS = [d["id"] for d in box.ROSTER]
DIRECTIONS = [d for side in box.TOKENS for d in box.DIRECTIONS[side]]
ROW = "The row, from 0 at the north edge (N is row − 1)"
COLUMN = "The column, from 0 at the west edge (E is column + 1)"
TOKEN = ("Which of the player's two tokens: 0 was placed orthogonal side up, 1 diagonal side up "
         "(the side up now is `side`)")
SPACE = "A grid space as [row, column]: row 0 is the north edge, column 0 the west edge"


def row(description: str = ROW, **kwargs) -> fields.Integer:
    return fields.Integer(validate=validate.Range(0), metadata={"description": description},
                          **kwargs)


def column(description: str = COLUMN, **kwargs) -> fields.Integer:
    return fields.Integer(validate=validate.Range(0), metadata={"description": description},
                          **kwargs)


def token(description: str = TOKEN) -> fields.Integer:
    return fields.Integer(validate=validate.OneOf(TOKEN_IDS), metadata={
        "description": description})


def side(description: str = "The token's side up now: orthogonal moves N, E, S, W; diagonal "
                            "NE, SE, SW, NW") -> fields.String:
    return one_of(box.TOKENS, description)


def dinosaur(allow_none: bool = False) -> fields.Field:
    return one_of(DINOSAURS, "A dinosaur of the roster (GET /games/digging-for-dinos)",
                  allow_none)


def position(**kwargs) -> fields.Integer:
    return fields.Integer(validate=validate.Range(1), metadata={
        "description": "The tile's position in its dinosaur, from 1"}, **kwargs)


def era(**kwargs) -> fields.Integer:
    return fields.Integer(validate=validate.Range(1, box.ERAS), metadata={
        "description": "The era (stack) the tile came from"}, **kwargs)


def grid_space(name: str) -> fields.List:
    return List(fields.Integer(validate=validate.Range(0)), validate=validate.Length(2, 2),
                       data_key=name, metadata={"description": SPACE})


class TileSchema(Shown):
    dinosaur = dinosaur()
    position = position()
    era = era()


class TokenStateSchema(Shown):
    id = token()
    side = side()
    row = row(ROW + "; null until the token is placed", allow_none=True)
    column = column(COLUMN + "; null until the token is placed", allow_none=True)


class PlayerStateSchema(Shown):
    seat = seat_number()
    name = fields.String()
    tokens = fields.List(fields.Nested(TokenStateSchema))
    collection = fields.Nested(
        counts("DinosCollection", DINOSAURS, "Positions of {} held, in order",
               sometimes=True, value=lambda **kw: fields.List(fields.Integer(), **kw)),
        metadata={"description": "Dinosaur → the positions held (what the end scores); only "
                                 "dinosaurs with a tile are listed"})
    collected = fields.List(fields.Nested(TileSchema), metadata={
        "description": "The tiles taken, in the order taken, with their eras"})
    tiles = fields.Integer(metadata={"description": "Tiles taken"})
    completed = fields.Nested(
        counts("DinosCompletedSets", DINOSAURS, "Complete sets of {}", sometimes=True),
        metadata={"description": "Dinosaur → complete sets; only dinosaurs with one are listed"})


class TokenOnSpaceSchema(Shown):
    seat = seat_number("The token's owner")
    id = token()
    side = side()


class GridSpaceSchema(Shown):
    class Meta:
        sometimes = ("token",)

    dinosaur = dinosaur(allow_none=True)
    position = position(allow_none=True)
    era = era(allow_none=True)
    token = fields.Nested(TokenOnSpaceSchema, metadata={
        "description": "The token standing here, if any"})


class GridSchema(Shown):
    size = fields.Integer(metadata={"description": "Rows and columns: 4 for 2 players, else 5"})
    rows = fields.List(fields.List(fields.Nested(GridSpaceSchema, allow_none=True)), metadata={
        "description": "rows[row][column]: row 0 is the north edge, column 0 the west edge. A "
                       "space shows its tile; null: no tile (the space a token just left, until "
                       "it is refilled; for good once the stacks are empty). A token on a space "
                       "with no tile shows with null tile fields"})
    note = fields.String(metadata={"description": "The coordinates, in words"})


class StackSchema(Shown):
    era = era()
    tiles = fields.Integer(metadata={"description": "Face-down tiles left in the stack"})


class EndSchema(Shown):
    seat = seat_number("The player whose turn triggered the end")
    reason = one_of([LAST_TILE, FOURTH_DINOSAUR])


class PlacingSchema(Shown):
    seat = seat_number("The player to place a token next")
    token = token()
    side = side("The side up it is placed with")


class StateSchema(envelope(box)):
    class Meta:
        sometimes = ("placing",)

    players = fields.List(fields.Nested(PlayerStateSchema), metadata={
        "description": "Every seat, in seat order"})
    grid = fields.Nested(GridSchema)
    era = fields.Integer(validate=validate.Range(1, box.ERAS), metadata={
        "description": "The era whose stack refills the grid now"})
    stacks = fields.List(fields.Nested(StackSchema), metadata={"description": "Era 1 first"})
    phase = one_of(STAGES, "placing: tokens are being placed; moving; flipping: the player who "
                           "completed a flip dinosaur decides on a flip; finished")
    turn = seat_number("The seat to act; null once the match is over", allow_none=True)
    end = fields.Nested(EndSchema, allow_none=True, metadata={
        "description": "Once the end is triggered (the round then finishes); null before"})
    placing = fields.Nested(PlacingSchema, metadata={
        "description": "While tokens are being placed only: who places which token next"})


class TokenEvent(Event):
    seat = seat_number()
    token = token()
    side = side("The token's side up after the event")


class PlacedEventSchema(TokenEvent):
    """A token was placed on the grid (it takes nothing yet)."""

    type = event_type("placed")
    row = row()
    column = column()


class TokenMovedEvent(TokenEvent):
    from_ = grid_space("from")
    to = grid_space("to")


class MovedEventSchema(TokenMovedEvent):
    """A token moved along its face to the first open tile that way, and flipped; its player
    takes the tile it left (`took`)."""

    type = event_type("moved")
    direction = one_of(DIRECTIONS)


class FreeMoveEventSchema(TokenMovedEvent):
    """Neither token could move along its face: one went to an open tile of the player's
    choice, and flipped; its player takes the tile it left (`took`)."""

    type = event_type("free_move")


class FlippedEventSchema(TokenEvent):
    """A completed flip dinosaur (Velociraptor, Deinosuchus) let the player flip a token."""

    type = event_type("flipped")


class TookEventSchema(TileSchema, Event):
    """A player took a tile."""

    class Meta:
        sometimes = ("completed", "token")

    type = event_type("took")
    seat = seat_number()
    completed = one_of(DINOSAURS, "Set when the tile completed another set of its dinosaur")
    token = token("Only in the final collection: the token the tile lay under")


class RefilledEventSchema(TileSchema, Event):
    """An emptied space was refilled from the current era's stack."""

    type = event_type("refilled")
    row = row()
    column = column()


class FlipSkippedEventSchema(Event):
    """The player chose not to flip a token."""

    type = event_type("flip_skipped")
    seat = seat_number()


class EndTriggeredEventSchema(Event):
    """The end is triggered: the seats after this one, to the end of the round, take a final
    turn."""

    type = event_type("end_triggered")
    seat = seat_number()
    reason = one_of([LAST_TILE, FOURTH_DINOSAUR])


EVENTS = {
    "placed": PlacedEventSchema,
    "moved": MovedEventSchema,
    "free_move": FreeMoveEventSchema,
    "took": TookEventSchema,
    "refilled": RefilledEventSchema,
    "flipped": FlippedEventSchema,
    "flip_skipped": FlipSkippedEventSchema,
    "end_triggered": EndTriggeredEventSchema,
    "game_over": game_over(box, "The round is over and everyone took the tiles under their "
                                "tokens: the match is over"),
}
