"""Matches: creating one, a seat's view, posting an action, the log."""

from typing import Any, NamedTuple

import marshmallow as ma
from apispec import APISpec
from marshmallow import fields, validate

from scoring.bots import names as bot_names
from scoring.engine import Game
from scoring.games import GAMES
from scoring.moves import Move
from service.webhooks import EVENTS as WEBHOOK_EVENTS

from .common import (
    MAX_PLAYERS,
    NAME_LENGTH,
    NAME_RULES,
    Digits,
    List,
    Sent,
    Strict,
    StrictBoolean,
    player_name,
    table_name,
    unique_names,
    variant_field,
)
from .words import Asked

MAX_SEED = 2**63 - 1  # a batch of simulations' seed
MAX_MATCH_SEED = 2**128 - 1  # a match's: as wide as the server's own draw
MAX_SEQ = 2**31 - 1  # a log's seq is a 32-bit column on every database
COMPONENTS = "#/components/schemas/"
# An action of any game: each game's union of its moves (documented by document_actions), or
# the undo every game offers (API.md "Undo"; the service's, not a move of any game).
ACTION = {"anyOf": [*({"$ref": f"{COMPONENTS}{game.prefix}Action"} for game in GAMES.values()),
                    {"$ref": COMPONENTS + "UndoAction"}]}
# A log entry's action: a move of any game as the caller may know it (document_actions), an
# undo, or a change to the table (API.md "Seats, hosts and leaving").
LOGGED_ACTION = {"anyOf": [*({"$ref": f"{COMPONENTS}{game.prefix}LoggedAction"}
                             for game in GAMES.values()),
                           {"$ref": COMPONENTS + "UndoAction"},
                           {"$ref": COMPONENTS + "TableAction"}]}
# A finished match's result: the game's calculator response (its <Game>Result), or null.
RESULT = {"anyOf": [*({"$ref": f"{COMPONENTS}{game.prefix}Result"} for game in GAMES.values()),
                    {"type": "null"}]}
# The log's entries about the table rather than the game: action type → the event it logs
# (service/matches.py TABLE_EVENTS, which asserts that no game has a move of these names).
TABLE_EVENTS = {"join": "joined", "leave": "left", "take_over": "taken_over",
                "time_out": "timed_out", "new_token": "token_reissued"}


class ActionField(fields.Raw):
    """An action as the JSON object it is, loaded as a Dict without declared keys loads it (the
    game judges what is in it), and documented as the union its `metadata` names: a Dict would
    be documented as an open map beside it, which generators make `{[key: string]: unknown}`."""

    default_error_messages = {"invalid": "Not a valid mapping type."}

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> dict:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        return dict(value)


def move_schema(game: Game, move: Move, logged: bool = False) -> type[ma.Schema]:
    """A declared move as the document types it: its `type` and its fields with their ranges;
    `logged`, as the log shows it, where its secret fields are only the mover's to see."""
    description = move.description
    if logged:
        secret = ", ".join(f"`{name}`" for name in move.secret)
        description += f"\n\nIn the log, {secret} only to the seat that made the move."
    attrs: dict = {"type": fields.String(required=True, validate=validate.OneOf([move.name])),
                   "Meta": type("Meta", (), {"description": description})}
    for f in move.fields:
        required = f.required and not (logged and f.name in move.secret)
        common = {"required": required, "metadata": {"description": f.description}}
        if f.choices is not None:
            field = fields.String(validate=validate.OneOf(f.choices), **common)
        elif f.many:  # a pick of several: 1 to `many` different numbers
            common["metadata"]["uniqueItems"] = True
            field = List(fields.Integer(validate=validate.Range(f.low, f.high)),
                                validate=validate.Length(1, f.many), **common)
        else:
            field = fields.Integer(validate=validate.Range(f.low, f.high), **common)
        attrs[f.name] = field
    words = "".join(part.title() for part in move.name.split("_"))
    kind = "LoggedAction" if logged else "Action"
    return type(f"{game.prefix}{words}{kind}Schema", (Strict,), attrs)


class UndoActionSchema(Strict):
    class Meta:
        description = ("Take back your own last move (API.md \"Undo\"): offered among your "
                       "legal_actions while nothing was revealed or drawn since and no other seat "
                       "moved. The match is as it was before that move; the log keeps the move "
                       "and adds this entry, whose `undone` event names the move's seq")

    type = fields.String(required=True, validate=validate.OneOf(["undo"]))


class TableActionSchema(Strict):
    class Meta:
        description = ("A log entry about the table rather than the game (API.md \"Seats, hosts "
                       "and leaving\"): a seat joined, left, was taken over by a bot, ran out of "
                       "time or was given a new token")

    type = fields.String(required=True, validate=validate.OneOf(list(TABLE_EVENTS)))


def document_actions(spec: APISpec, game: Game) -> None:
    """One component per move of the game, and <Game>Action: one of them, told apart by `type`;
    <Game>LoggedAction, the same as the log shows them to a seat that did not make them (a
    move's secret fields left out); and, once for every game, UndoAction and TableAction."""
    if "UndoAction" not in spec.components.schemas:
        spec.components.schema("UndoAction", schema=UndoActionSchema)
        spec.components.schema("TableAction", schema=TableActionSchema)
    refs, logged = {}, {}
    for declared in game.moves.values():
        schema = move_schema(game, declared)
        name = schema.__name__.removesuffix("Schema")
        spec.components.schema(name, schema=schema)
        refs[declared.name] = logged[declared.name] = COMPONENTS + name
        if declared.secret:
            public = move_schema(game, declared, logged=True)
            public_name = public.__name__.removesuffix("Schema")
            spec.components.schema(public_name, schema=public)
            logged[declared.name] = COMPONENTS + public_name
    spec.components.schema(f"{game.prefix}Action", {
        "description": f"An action of {game.name}",
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "type", "mapping": refs}})
    spec.components.schema(f"{game.prefix}LoggedAction", {
        "description": f"A move of {game.name} as the log shows it: as it was posted to the "
                       "seat that made it; to others and to spectators, without what only that "
                       "seat knows",
        "oneOf": [{"$ref": ref} for ref in logged.values()],
        "discriminator": {"propertyName": "type", "mapping": logged}})


NAME = player_name()
NAME_TEXT = {"type": "string", "minLength": 1, "maxLength": NAME_LENGTH}
OPEN_SEAT = {"type": "object", "properties": {"open": {"const": True}}, "required": ["open"],
             "additionalProperties": False}


class BotSeat(NamedTuple):
    """A seat the server plays (API.md "Bots")."""

    name: str
    bot: str


class SeatEntry(fields.Field):
    """A seat at creation: the name of the player who sits there, {"open": true} for a seat a
    player joins later with their own request, or {"name", "bot"} for a seat one of the game's
    bots plays. Loaded as the name, None for an open seat, or a BotSeat."""

    default_error_messages = {
        "invalid": 'A seat is a player\'s name (or {{"name": …}}), {{"open": true}} or '
                   '{{"name": …, "bot": …}}.',
        "bot": "There is no bot {bot!r}; choose one of {choices}."}

    def __init__(self, bots: list[str], **kwargs: Any) -> None:
        self.bots = bots
        bot_seat = {"type": "object",
                    "properties": {"name": NAME_TEXT, "bot": {"type": "string", "enum": bots}},
                    "required": ["name", "bot"], "additionalProperties": False}
        person = {"type": "object", "properties": {"name": NAME_TEXT}, "required": ["name"],
                  "additionalProperties": False}
        kwargs.setdefault("metadata", {})["oneOf"] = [NAME_TEXT, person, OPEN_SEAT, bot_seat]
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any,
                     **kwargs: Any) -> str | BotSeat | None:
        if value == {"open": True}:
            return None
        if isinstance(value, str):
            return NAME.deserialize(value)
        if isinstance(value, dict) and set(value) == {"name"}:  # a person, written as an object
            return NAME.deserialize(value["name"])
        if isinstance(value, dict) and set(value) == {"name", "bot"}:
            if value["bot"] not in self.bots:
                raise self.make_error("bot", bot=value["bot"], choices=", ".join(self.bots))
            return BotSeat(NAME.deserialize(value["name"]), value["bot"])
        raise self.make_error("invalid")


def decimal_at_most(maximum: int) -> str:
    """A pattern for the decimal texts, leading zeros and all, of the whole numbers from 0 to
    `maximum` that are no longer than its own (as Seed reads them): fewer digits, or as many
    and, digit by digit, below it at the first that differs, or it. "^[0-9]{1,39}$" let a
    client's validator pass 2^128, which the server refused."""
    top = str(maximum)
    ways = [f"[0-9]{{1,{len(top) - 1}}}"] if len(top) > 1 else []
    for i, digit in enumerate(top):
        if digit != "0":
            below = "0" if digit == "1" else f"[0-{int(digit) - 1}]"
            rest = len(top) - i - 1
            ways.append(top[:i] + below + (f"[0-9]{{{rest}}}" if rest else ""))
    ways.append(top)
    return f"^(?:{'|'.join(ways)})$"


class Seed(fields.Field):
    """A seed as a JSON integer or as its decimal text (API.md "Retries, errors, seeds as text":
    JavaScript's numbers cannot hold 128 bits), a whole number from 0 to `maximum`."""

    def __init__(self, maximum: int, **kwargs: Any) -> None:
        self.maximum = maximum
        self.message = (f"A seed is a whole number from 0 to {maximum}, as a number or as its "
                        "decimal text.")
        kwargs.setdefault("metadata", {})["anyOf"] = [
            {"type": "integer", "minimum": 0, "maximum": maximum},
            {"type": "string", "pattern": decimal_at_most(maximum)}]
        # null is no seed: said as the seed's own words, not a generic "a value this field takes"
        kwargs.setdefault("error_messages", {})["null"] = self.message
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, str) and value.isascii() and value.isdigit() \
                and len(value) <= len(str(self.maximum)):
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= self.maximum:
            return value
        raise ma.ValidationError(self.message)


def seed_field(description: str, maximum: int = MAX_SEED) -> Seed:
    return Seed(maximum, metadata={"description": description})


class ClockSchema(Strict):
    """One of three clocks (API.md "Clocks")."""
    one_of = (("move_seconds",), ("bank_seconds",), ("turn_days",))  # as one_kind checks
    sent_with = {"increment_seconds": ("bank_seconds",)}
    move_seconds = fields.Integer(strict=True, validate=validate.Range(5, 86_400), metadata={
        "description": "Seconds for each move"})
    bank_seconds = fields.Integer(strict=True, validate=validate.Range(10, 30 * 86_400),
                                  metadata={"description": "Each seat's whole time for the match; "
                                            "once it is spent, 10 seconds for each move"})
    increment_seconds = fields.Integer(strict=True, validate=validate.Range(0, 3600), metadata={
        "description": "With bank_seconds: added to a seat's bank at the end of each turn "
                       "(not kept by a turn taken back)"})
    turn_days = fields.Integer(strict=True, validate=validate.Range(1, 14), metadata={
        "description": "Days for each turn, for slow games"})

    @ma.validates_schema
    def one_kind(self, data, **kwargs):
        kinds = [k for k in ("move_seconds", "bank_seconds", "turn_days") if k in data]
        if len(kinds) != 1:
            raise ma.ValidationError("Choose one clock: move_seconds, bank_seconds (with "
                                     "increment_seconds) or turn_days.")
        if "increment_seconds" in data and "bank_seconds" not in data:
            raise ma.ValidationError("increment_seconds goes with bank_seconds.",
                                     field_name="increment_seconds")


class WebhookSchema(Strict):
    """API.md "Webhooks": where and what to tell of a match."""
    url = fields.String(required=True, validate=validate.Length(1, 2000), metadata={
        "description": "An http or https URL on a host the server's operator allows; "
                       "each delivery is a signed POST to it",
        "example": "https://example.org/digsite"})
    events = List(fields.String(validate=validate.OneOf(WEBHOOK_EVENTS)),
                  required=True, validate=validate.Length(1, len(WEBHOOK_EVENTS)), metadata={
                      "description": "What to tell: `turn` (a person's turn has come), "
                                     "`finished` (the match ended), `table` (a join, a leave, "
                                     "a take-over, a time-out, a new token)",
                      "example": ["turn", "finished"]})


def create_match_schema(game: Game) -> type[ma.Schema]:
    """The request that opens a match of one game (its variants and player count)."""
    low, high = game.players
    size = validate.Range(low, high, error=f"{game.name} is for {low} to {high} players.")

    class CreateMatch(Strict):
        one_of = (("players",), ("seats",))  # as its validates_schema checks
        players = List(
            SeatEntry(bot_names(game.id)),
            validate=validate.Length(low, high, error=f"Enter from {low} to {high} players."),
            error_messages={"invalid": "List the players' names, in seat order."},
            metadata={"description": "Seats in order (who acts first is the game's rule: "
                                     "the view's `to_act`): each a player's name "
                                     "(that seat's token comes in the answer), "
                                     '`{"open": true}`, a seat a player joins later, or '
                                     '`{"name": …, "bot": …}`, a seat one of the game\'s '
                                     "`bots` plays. A match of bots only is played to its end "
                                     "by this request.",
                      "example": ["Ann", {"name": "Robo", "bot": "greedy"}]})
        seats = fields.Integer(strict=True, validate=size, metadata={
            "description": "Instead of `players`: this many open seats, all joined later"})
        variant = variant_field(game)
        listed = StrictBoolean(load_default=False, metadata={
            "description": "Listed: found by the lobby's `GET /games/{game}/matches`"})
        # No load_default: a field with a default is a required one in the types generated
        # for TypeScript clients, whose requests would no longer compile.
        stand_in_bot = fields.String(
            validate=validate.OneOf(
                bot_names(game.id), error="Choose one of the game's bots: {choices}."),
            metadata={"description": "The bot that plays a seat whose player leaves or runs "
                                     "out of time, until they act again; left out, `greedy`"})
        clock = fields.Nested(ClockSchema, load_default=None, metadata={
            "description": "A turn clock; left out, none. When a seat's time runs out, a bot "
                           "plays its turn and the seat is marked away until its player acts"})
        webhook = fields.Nested(WebhookSchema, metadata={
            "description": "A webhook: the server POSTs to `url` each of `events` of this "
                           "match (and of its rematch), signed with the answer's "
                           "`webhook_secret` (header Digsite-Signature: t=<unix time>,v1=<hex "
                           "HMAC-SHA256 of \"<t>.<body>\">), retried with backoff until "
                           "answered 2xx within 5 s (12 attempts at most; a delivery may come "
                           "twice: its Digsite-Delivery header tells); left out, none"})
        seed = seed_field("Same seed, players and actions: the same game. Left out, the server "
                          "draws 128 random bits: nobody can know the deal. A chosen seed makes "
                          "every view say `seeded: true`. Shown once the match is finished; up "
                          "to 128 bits, so a finished match's seed (or `seed_text`) replays "
                          "it.", maximum=MAX_MATCH_SEED)
        you = fields.Integer(strict=True, validate=validate.Range(0, MAX_PLAYERS - 1), metadata={
            "description": "Your own seat, when you sit at the table: a seat named in "
                           "`players` for a person (not an open seat, nor a bot's). The "
                           "answer's `view` is then that seat's (`you` set, its legal "
                           "actions and what only it may see); left out, the spectator's"})

        @ma.validates_schema
        def seats_once(self, data, **kwargs):
            if ("players" in data) == ("seats" in data):
                raise ma.ValidationError("List the players' names, in seat order (or give "
                                         "`seats`, a number of open seats).", field_name="players")
            unique_names([seat_name(n) for n in data.get("players", []) if n is not None],
                         table_name)

        @ma.validates_schema
        def a_person_s_seat(self, data, **kwargs):
            """`you` names a seat of `players` that a person was named to."""
            if "you" not in data or ("players" not in data and "seats" not in data):
                return  # nothing to check, or `players` itself is refused
            seats = data.get("players", [])
            if not (data["you"] < len(seats) and isinstance(seats[data["you"]], str)):
                raise ma.ValidationError(
                    "`you` is the seat of a player named in `players`, from 0 (not an open "
                    "seat, nor a bot's).", field_name="you")

        @ma.post_load
        def open_seats(self, data, **kwargs):
            """`players` as seat names (None: open), and `bots`: seat → bot."""
            seats = data.get("players") or [None] * data.pop("seats")
            data["players"] = [seat_name(n) for n in seats]
            data["bots"] = {i: n.bot for i, n in enumerate(seats) if isinstance(n, BotSeat)}
            return data

    CreateMatch.__name__ = f"{game.prefix}CreateMatchSchema"
    return CreateMatch


def seat_name(seat: str | BotSeat | None) -> str | None:
    return seat.name if isinstance(seat, BotSeat) else seat


class JoinSchema(Strict):
    name = player_name(required=True, error_messages={
        "required": "Say your name.", "invalid": "A name is text.", "null": "A name is text."})
    # Past any match's seats, said as the match's own are ("Choose a seat from 0 to 2"): there
    # is no such seat, at this match or any.
    seat = fields.Integer(strict=True, validate=validate.Range(
        0, MAX_PLAYERS - 1, error="There is no seat {input}: seats are numbered from 0, and a "
                                  f"match has {MAX_PLAYERS} at most."),
        metadata={"description": "The open seat you take; left out, the first open one"})


class SeatPlayerSchema(Sent):
    seat = fields.Integer()
    name = fields.String(allow_none=True, metadata={"description": "null: an open seat"})
    bot = fields.String(allow_none=True, metadata={
        "description": "The bot the server plays this seat with; null: a person's seat"})
    away = fields.Boolean(metadata={
        "description": "The seat's player left or ran out of time: a bot plays it (until the "
                       "player acts again, after a time-out)"})
    last_seen = fields.String(allow_none=True, metadata={
        "description": "When the seat's player last acted or looked (ISO time, to within "
                       "half a minute); null: never", "format": "date-time"})
    connected = fields.Boolean(metadata={
        "description": "The seat's player is at the table: seen within the last minute (a "
                       "view, an action, or an open event stream, which keeps it so); always "
                       "true for a seat the server's bot was given"})
    unclaimed = fields.Boolean(metadata={
        "description": "A rematch's seat its player has not claimed yet: the player may not "
                       "know of the rematch, so its clock waits (the clock's `waiting`) and the "
                       "match waits for that player, or for the host to hand the seat to a bot"})


def _clock_field(name: str) -> dict[str, Any]:
    field = ClockSchema._declared_fields[name]
    limits = next(v for v in field.validators if isinstance(v, validate.Range))
    return {"type": "integer", "minimum": limits.min, "maximum": limits.max,
            "description": field.metadata["description"]}


def _clock_kind(required: str, *optional: str) -> dict[str, Any]:
    return {"type": "object", "properties": {name: _clock_field(name)
                                             for name in (required, *optional)},
            "required": [required], "additionalProperties": False}


# A clock as chosen at creation: one of its three kinds (ClockSchema.one_kind).
CLOCK_RULE = {"oneOf": [_clock_kind("move_seconds"),
                        _clock_kind("bank_seconds", "increment_seconds"),
                        _clock_kind("turn_days")]}


class ClockViewSchema(Sent):
    class Meta:
        sometimes = ("waiting",)

    deadline = fields.String(allow_none=True, metadata={
        "description": "When the seats to act run out of time (ISO; not those `waiting`); "
                       "null: nobody is thinking",
        "format": "date-time"})
    waiting = fields.List(fields.Integer(), metadata={
        "description": "Seats to act whose clock waits for their player: a rematch's seats not "
                       "claimed yet, which run out of no time until they are (an entry logged "
                       "before views said so has none)"})
    bank = fields.Dict(keys=fields.String(), values=fields.Float(), metadata={
        "description": "Seat → seconds left (a bank clock: every seat's bank; else the seats "
                       "to act)"})
    rule = fields.Raw(metadata={"description": "The clock chosen at creation, as it was sent",
                                **CLOCK_RULE})


class ViewSchema(Sent):
    class Meta:
        sometimes = ("seed", "seed_text")

    id = fields.String()
    game = fields.String(metadata={"enum": list(GAMES), "description": "The game's id: which "
                                   "of ViewOf<Game> the view's own fields follow"})
    variant = fields.String()
    version = fields.Integer(metadata={"description": "Send it back with the next action"})
    status = fields.String(metadata={
        "enum": ["waiting", "setup", "playing", "finished"],
        "description": "waiting: seats are still open, nobody acts yet"})
    players = fields.List(fields.Nested(SeatPlayerSchema))
    to_act = fields.List(fields.Integer(), metadata={"description": "Seats that may act now"})
    you = fields.Integer(allow_none=True, metadata={"description": "Your seat; null: spectator"})
    legal_actions = fields.List(ActionField(metadata=ACTION), metadata={
        "description": "Every action you may take now, each exactly as it is to be posted"})
    state = fields.Raw(allow_none=True, metadata={
        "description": "What you may see of the game; null while seats are open",
        "anyOf": [{"$ref": COMPONENTS + "GameState"}, {"type": "null"}]})
    result = fields.Raw(allow_none=True, metadata={
        "description": "Once finished: the calculator's response for the final position; "
                       "null until then", **RESULT})
    seeded = fields.Boolean(metadata={
        "description": "The match's creator chose the seed, so may know every hidden card; "
                       "false: the server drew it"})
    seed_sha256 = fields.String(allow_none=True, metadata={
        "description": "SHA-256 (hex) of the seed's decimal text: a commitment to the deal, to "
                       "check against `seed` once the match is finished. In every view of a "
                       "match whose seed the server drew; null until the end where the creator "
                       "chose it (`seeded`), as a chosen seed may be found from its hash",
        "pattern": "^[0-9a-f]{64}$"})
    seed = fields.Integer(metadata={
        "description": "Only once the match is finished: replay the deal from it, and check "
                       "it against `seed_sha256`"})
    seed_text = fields.String(metadata={
        "description": "`seed` as decimal text, exact in any language (JavaScript's numbers "
                       "round 128 bits): what `seed_sha256` hashes", "pattern": "^[0-9]+$"})
    clock = fields.Nested(ClockViewSchema, allow_none=True, metadata={
        "description": "The turn clock; null: the match has none"})
    listed = fields.Boolean(metadata={"description": "Found by the lobby's listing"})
    rematch = fields.String(allow_none=True, metadata={
        "description": "Once a seat has claimed a rematch of this finished match: its id"})
    stand_in_bot = fields.String(metadata={
        "enum": sorted({bot for game in GAMES for bot in bot_names(game)}),
        "description": "The bot that plays a seat whose player leaves or runs out of time, "
                       "until they act again (chosen when the match was made)"})


class SeatTokenSchema(Sent):
    seat = fields.Integer()
    name = fields.String()
    token = fields.String(metadata={"description": "Secret: send as 'Authorization: Bearer …'"})


class JoinedSchema(Sent):
    seat = fields.Integer()
    name = fields.String()
    token = fields.String(metadata={"description": "Secret: send as 'Authorization: Bearer …'; "
                                                   "shown only in this response"})
    view = fields.Nested(ViewSchema, metadata={"description": "Your seat's view"})


class CreatedSchema(Sent):
    id = fields.String()
    game = fields.String(metadata={"enum": list(GAMES)})
    version = fields.Integer()
    seats = fields.List(fields.Nested(SeatTokenSchema), metadata={
        "description": "The tokens of the seats named at creation, shown only in this response "
                       "(an open seat's comes to whoever joins it)"})
    host_token = fields.String(metadata={
        "description": "Secret, shown only here: send as 'Authorization: Bearer …' to cancel "
                       "the match while it waits, hand a seat to a bot or give a seat a new "
                       "token"})
    view = fields.Nested(ViewSchema, metadata={
        "description": "The spectator's view; with `you` in the request, that seat's"})
    webhook_secret = fields.String(allow_none=True, metadata={
        "description": "Secret, shown only here: the key of the webhook's signatures "
                       "(HMAC-SHA256); null without a webhook"})


class BotRequestSchema(Strict):
    bot = fields.String(metadata={"description": "One of the game's `bots`; left out, the "
                                                 "match's `stand_in_bot`"})
    name = player_name(error_messages={"invalid": "A name is text.", "null": "A name is text."},
                       metadata={"description": "An open seat's name at the table (a player's "
                                                "seat keeps its player's); left out, the bot's "
                                                "kind's: \"Greedy bot 2\". " + NAME_RULES})


class NoFieldsSchema(Strict):
    """A request that takes no body: none, or `{}`. Anything else is refused (400 unreadable,
    415 not JSON, 422 a field), not taken as asked with the body unread."""


class LeaveRequestSchema(Strict):
    waiting = StrictBoolean(load_default=False, metadata={
        "description": "true: leave only while the match waits for players, opening the seat "
                       "again; once it has begun, refused (409 stale-version) and the seat kept, "
                       "rather than played by a bot to the end. Left out: either"})


class NewTokenSchema(Sent):
    seat = fields.Integer()
    token = fields.String(metadata={"description": "Secret: the seat's new token; the old one "
                                                   "answers 401 from now on"})


class RematchSchema(Sent):
    id = fields.String(metadata={"description": "The rematch's id"})
    seat = fields.Integer(metadata={"description": "Your seat in it (seats rotate by one)"})
    token = fields.String(metadata={"description": "Secret: your seat's token in the rematch"})
    view = fields.Nested(ViewSchema, metadata={"description": "Your seat's view of it"})


class WebhookDeliverySchema(Sent):
    """API.md "Webhooks": the body of each delivery, POSTed to the match's webhook URL."""
    match = fields.String(metadata={"description": "The match's id"})
    seq = fields.Integer(metadata={"description": "The log entry that is told (its seq)"})
    version = fields.Integer(metadata={"description": "The match's version after that entry"})
    status = fields.String(metadata={"enum": ["waiting", "setup", "playing", "finished"]})
    to_act = fields.List(fields.Integer(), metadata={
        "description": "The seats to act after that entry"})
    event = fields.String(metadata={"enum": list(WEBHOOK_EVENTS), "description": (
        "`turn`: a person's turn has come; `finished`: the match ended; `table`: a join, a "
        "leave, a take-over, a time-out or a new token")})


class ListingQuerySchema(Strict):
    status = fields.String(
        validate=validate.OneOf(["waiting", "playing", "setup", "finished"]),
        metadata={"description": "Only matches of this status; `playing`: every match under "
                                 "way, its set-up (`setup`) included"})
    limit = Digits(load_default=20, validate=validate.Range(1, 100))
    after = fields.String(validate=validate.Length(32, 32), metadata={
        "description": "The previous page's `next`", "pattern": "^[0-9a-f]{32}$"})


class ListedSeatSchema(Sent):
    seat = fields.Integer()
    name = fields.String(allow_none=True, metadata={"description": "null: an open seat"})
    bot = fields.String(allow_none=True)
    open = fields.Boolean(metadata={"description": "A player may join this seat"})


class ListedMatchSchema(Sent):
    id = fields.String()
    game = fields.String()
    variant = fields.String()
    status = fields.String(metadata={"enum": ["waiting", "setup", "playing", "finished"]})
    seats = fields.List(fields.Nested(ListedSeatSchema))
    clock = fields.Raw(allow_none=True, metadata={
        "description": "The clock chosen at creation, as it was sent; null: none",
        "oneOf": [*CLOCK_RULE["oneOf"], {"type": "null"}]})
    created_at = fields.String(metadata={"format": "date-time"})
    updated_at = fields.String(metadata={"format": "date-time"})


class ListingSchema(Sent):
    matches = fields.List(fields.Nested(ListedMatchSchema))
    next = fields.String(allow_none=True, metadata={
        "description": "Pass as `after` for the next page; null when there is none"})


class ActionRequestSchema(Strict):
    action = ActionField(required=True, error_messages={
        # marshmallow formats its messages: braces are doubled to stay braces
        "required": "Send the action, e.g. {{\"type\": \"end_turn\"}}.",
        "invalid": "An action is an object with a 'type'."},
        metadata={"description": "One of the view's legal_actions, as listed", **ACTION})
    version = fields.Integer(strict=True, validate=validate.Range(0, MAX_SEQ), metadata={
        "description": "The version you acted on (or send an If-Match header)"})
    seat = fields.Integer(strict=True, validate=validate.Range(0, MAX_PLAYERS - 1), metadata={
        "description": "Optional: the seat you act for; it must be your token's"})


class LogQuerySchema(Asked):
    after = Digits(load_default=0, validate=validate.Range(
        0, MAX_SEQ, error=f"A seq is a whole number from 0 to {MAX_SEQ}."), metadata={
        "description": "Only entries with a larger seq"})
    limit = Digits(load_default=500, validate=validate.Range(1, 1000))


class EventField(fields.Raw):
    """An event as the game made it, documented as the union of every game's events (a
    `$ref` to GameEvent: event_reference)."""


def event_reference(_converter: object, field: fields.Field, **_: object) -> dict[str, str]:
    """apispec's properties of an EventField (an attribute function of its field converter):
    the reference alone."""
    return {"$ref": "#/components/schemas/GameEvent"} if isinstance(field, EventField) else {}


class LogEntrySchema(Sent):
    seq = fields.Integer()
    seat = fields.Integer()
    action = ActionField(metadata={
        "description": "The action: a move, as the caller may know it, an undo, or a change to "
                       "the table", **LOGGED_ACTION})
    events = fields.List(EventField())
    bot = fields.String(allow_none=True, metadata={
        "description": "The bot that chose this move for its seat: the seat's bot, or the one "
                       "playing for it while its player is away (a clock ran out, it left, the "
                       "host handed it over); null: the seat's player chose it, or the entry is "
                       "the table's own (a join, a time-out…) or an undo"})


class StreamEntrySchema(LogEntrySchema):
    """The `data` of a match stream's `entry` event: a log entry and where it left the match."""
    game = fields.String(metadata={"description": "The match's game: what its `action` and "
                                                  "`events` are of"})
    version = fields.Integer(metadata={"description": "The match's version after the entry"})
    to_act = fields.List(fields.Integer(), metadata={
        "description": "The seats to act after the entry"})
    clock = fields.Nested(ClockViewSchema, allow_none=True, metadata={
        "description": "The turn clock as it stood when the entry was logged, as a view "
                       "showed it then: the deadline of the seats to act after the entry, and "
                       "each seat's seconds left (an entry logged before entries kept their "
                       "clock: as the match's view shows it when the entry is sent); null: the "
                       "match has none"})


class LogSchema(Sent):
    id = fields.String()
    game = fields.String(metadata={"description": "The match's game: what its entries' "
                                                  "actions and events are of"})
    log = fields.List(fields.Nested(LogEntrySchema), metadata={
        "description": "What the caller may know of each action"})
    next = fields.Integer(allow_none=True, metadata={
        "description": "Pass as `after` for the next page; null when there is none"})
