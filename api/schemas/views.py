"""What a match shows, typed: each game's view `state` and the events of its log.

Each game's schema module exports StateSchema (all that `Game.view` returns, for a seat and for a
spectator) and EVENTS (event type → schema, `game_over` included). They document; they do not
dump: the engines build views and events as plain dicts, and tests/api/test_state_schemas.py
holds random matches of every table against the document, so a field the engine adds without
documenting it fails there (every shape here refuses fields it does not name).
"""

import importlib
import inspect
from collections.abc import Callable
from types import ModuleType
from typing import Any

import marshmallow as ma
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import fields, validate

from scoring.engine import GAME_OVER, Game
from scoring.games import GAMES

from .common import MAX_PLAYERS, Sent

COMPONENTS = "#/components/schemas/"


class Shown(Sent):
    """A part of a view or an event as the server sends it. Every field is in every answer, so
    `required` in the document, except those `Meta.sometimes` names; a field that may be null
    says so (allow_none). No other field is sent (the tests check each state and event against
    the document closed), though the document leaves it open to fields added later."""


class Event(Shown):
    """An event of a log entry, as the caller may see it."""


def event_type(name: str) -> fields.String:
    return fields.String(validate=validate.OneOf([name]))


def seat_number(description: str = "A seat, from 0", **kwargs: Any) -> fields.Integer:
    return fields.Integer(validate=validate.Range(0, MAX_PLAYERS - 1),
                          metadata={"description": description}, **kwargs)


def one_of(choices: Any, description: str = "", allow_none: bool = False,
           json_type: str = "string") -> fields.Field:
    """A value from a fixed list (a colour, a tile type, a site letter…). One that may be null is
    documented as any of [the list, null], which client generators read as an optional enum
    (from a nullable `type` and an enum holding null they make three enums)."""
    metadata = {"description": description} if description else {}
    if not allow_none:
        return fields.String(validate=validate.OneOf(list(choices)), metadata=metadata)
    listed = {"type": json_type, "enum": list(choices)}
    return fields.Raw(allow_none=True, metadata={**metadata,
                                                 "anyOf": [listed, {"type": "null"}]})


def counts(name: str, keys: Any, what: str, sometimes: bool = False,
           value: Callable[..., fields.Field] = fields.Integer) -> type[Shown]:
    """An object with one entry per box id (colour, tile type, dinosaur): every one of them, or
    (`sometimes`) only those there are some of."""
    attrs: dict[str, Any] = {key: value(metadata={"description": what.format(key)})
                             for key in keys}
    if sometimes:
        attrs["Meta"] = type("Meta", (), {"sometimes": tuple(keys)})
    return type(name, (Shown,), attrs)


def envelope(box: ModuleType) -> type[Shown]:
    """What `Game.view` puts before every game's own part of a state."""
    return type("Envelope", (Shown,), {
        "game": one_of([box.GAME_ID], "The game's id: which game's state this is"),
        "variant": one_of(box.VARIANTS, "The variant the match is played with"),
        "you": seat_number("Your seat; null: a spectator's view", allow_none=True),
    })


def game_over(box: ModuleType, description: str, **details: fields.Field) -> type[Event]:
    """A game's last event (`scoring.engine.Game.finish`), with what it says about the end."""
    return type(f"{GAMES[box.GAME_ID].prefix}GameOverEventSchema", (Event,),
                {"__doc__": description, "type": event_type(GAME_OVER), **details})


class UndoneEventSchema(Event):
    """A seat took back its own last move (API.md "Undo"): the match is as it was before the
    entry `seq`, which stays in the log. Any game's undo entry brings this event alone."""

    type = event_type("undone")
    seq = fields.Integer(validate=validate.Range(1), metadata={
        "description": "The seq of the log entry taken back"})


# --- the table's log entries (API.md "Seats, hosts and leaving"), in every game's log -------------

class JoinedEventSchema(Event):
    """A player took an open seat."""

    type = event_type("joined")
    seat = seat_number()
    name = fields.String(metadata={"description": "The player's name"})


class LeftEventSchema(Event):
    """A seat's player left: while the match waited for players the seat opened again (no
    `bot`, and the `name` it had); once it had begun, a bot plays the seat to the end."""

    class Meta:
        sometimes = ("bot", "name")

    type = event_type("left")
    seat = seat_number()
    bot = fields.String(metadata={"description": "The bot that plays the seat from now on"})
    name = fields.String(metadata={"description": "The name the seat had until it opened "
                                                  "again (a match waiting for players)"})


class TakenOverEventSchema(Event):
    """The host handed a seat to a bot: a player's seat, or an open one the bot took."""

    class Meta:
        sometimes = ("open",)

    type = event_type("taken_over")
    seat = seat_number()
    bot = fields.String(metadata={"description": "The bot that plays the seat"})
    name = fields.String(metadata={"description": "The seat's name from now on"})
    open = fields.Boolean(metadata={"description": "True when the seat was open (the match "
                                                   "waited for players), false when it was a "
                                                   "player's (absent from entries logged before "
                                                   "it was kept)"})


class TimedOutEventSchema(Event):
    """A seat's time ran out: a bot played its turn, and plays it until its player acts."""

    type = event_type("timed_out")
    seat = seat_number()
    bot = fields.String(metadata={"description": "The bot that played the turn"})


class TokenReissuedEventSchema(Event):
    """A seat was given a new token (never shown here): the old one no longer answers."""

    class Meta:
        sometimes = ("claimed",)

    type = event_type("token_reissued")
    seat = seat_number()
    claimed = fields.Boolean(metadata={"description": "True when the seat's player claimed it "
                                                      "in a rematch (each claim gives a new "
                                                      "token), rather than the host giving it "
                                                      "one"})


TABLE_EVENTS = {"joined": JoinedEventSchema, "left": LeftEventSchema,
                "taken_over": TakenOverEventSchema, "timed_out": TimedOutEventSchema,
                "token_reissued": TokenReissuedEventSchema}


# --- the document ---------------------------------------------------------------------------------

def _component(spec: APISpec, schema: type[ma.Schema], description: str) -> str:
    """Registers `schema` under the name the app gives it, with a description."""
    plugin = next(p for p in spec.plugins if isinstance(p, MarshmallowPlugin))
    name = plugin.schema_name_resolver(schema)
    spec.components.schema(name, {"description": description}, schema=schema)
    return COMPONENTS + name


def document_views(spec: APISpec) -> None:
    """<Game>State and <Game>Event (one of the game's events, told apart by `type`) for every
    game, then GameState (one of the states, told apart by `game`) and GameEvent (any game's
    event: games share some event types, such as game_over, and every log has the table's
    events), which a view's `state` and a log entry's `events` refer to (matches.py); and the
    View, with what a view of each game holds of its own (ViewOf<Game>)."""
    states, events = {}, []
    for game in GAMES.values():
        own = importlib.import_module(f"api.schemas.{game.package}")
        states[game.id] = _component(spec, own.StateSchema, f"What a seat (or a spectator) may "
                                                            f"see of a match of {game.name}")
        events.append(_document_events(spec, game, own.EVENTS))
    events.append(_component(spec, UndoneEventSchema, inspect.cleandoc(UndoneEventSchema.__doc__)))
    table = {kind: _component(spec, schema, inspect.cleandoc(schema.__doc__ or kind))
             for kind, schema in TABLE_EVENTS.items()}
    spec.components.schema("TableEvent", {
        "description": "An event of the table rather than the game, in any game's log",
        "oneOf": [{"$ref": ref} for ref in table.values()],
        "discriminator": {"propertyName": "type", "mapping": table}})
    events.append(COMPONENTS + "TableEvent")
    spec.components.schema("GameState", {
        "description": "What you may see of the game: its own shape for each game",
        "oneOf": [{"$ref": ref} for ref in states.values()],
        "discriminator": {"propertyName": "game", "mapping": states}})
    spec.components.schema("GameEvent", {
        "description": "An event of any game; a log entry's are all of its match's game, an "
                       "undo's `undone`, or the table's",
        "anyOf": [{"$ref": ref} for ref in events]})
    _document_view(spec, states)
    _document_log(spec)


def _document_log(spec: APISpec) -> None:
    """Log and StreamEntry as View is: every field as one object, and in an `allOf`, one of
    LogOf<Game> (its entries LogEntryOf<Game>) or StreamEntryOf<Game>, told apart by `game`,
    whose `action` and `events` are the game's own, an undo's or the table's. A client narrows
    an entry's action by `type` once it has narrowed the log or the entry by `game` (games
    share some action and event names)."""
    from .matches import COMPONENTS as SCHEMAS
    from .matches import LogEntrySchema, LogSchema, StreamEntrySchema

    spec.components.schema("LogEntry", schema=LogEntrySchema)
    games = list(GAMES.values())
    for name, schema in (("Log", LogSchema), ("StreamEntry", StreamEntrySchema)):
        spec.components.schema(name, {"allOf": [{"oneOf": [
            {"$ref": f"{SCHEMAS}{name}Of{game.prefix}"} for game in games]}]}, schema=schema)
    entry, log, streamed = (spec.components.schemas[name]["properties"]
                            for name in ("LogEntry", "Log", "StreamEntry"))
    for game in games:
        own = {
            "game": {"type": "string", "enum": [game.id], "description": "The game's id"},
            "action": {"anyOf": [{"$ref": f"{SCHEMAS}{game.prefix}LoggedAction"},
                                 {"$ref": SCHEMAS + "UndoAction"},
                                 {"$ref": SCHEMAS + "TableAction"}]},
            "events": {"type": "array", "items": {"anyOf": [
                {"$ref": f"{SCHEMAS}{game.prefix}Event"}, {"$ref": SCHEMAS + "UndoneEvent"},
                {"$ref": SCHEMAS + "TableEvent"}]}},
            "log": {"type": "array", "items": {"$ref": f"{SCHEMAS}LogEntryOf{game.prefix}"}}}
        for name, properties, required, what in (
                ("LogEntryOf", entry, spec.components.schemas["LogEntry"]["required"],
                 "an entry of its log"),
                ("LogOf", log, spec.components.schemas["Log"]["required"], "a page of its log"),
                ("StreamEntryOf", streamed, spec.components.schemas["StreamEntry"]["required"],
                 "an entry of its stream")):
            spec.components.schema(f"{name}{game.prefix}", {
                "type": "object", "description": f"A match of {game.name}: {what}",
                "properties": {key: {**field, **own[key]} if key in own else field
                               for key, field in properties.items()},
                "required": required})


def _document_view(spec: APISpec, states: dict[str, str]) -> None:
    """View: every field of a view, as one object (what a generator makes one class of), which
    is also, in an `allOf`, one of ViewOf<Game>: the same view with the game's own variants,
    `state`, `legal_actions` and `result`, told apart by `game`. A TypeScript client narrows a
    view by `game` to its game's; every view is valid against exactly one of them."""
    from .matches import COMPONENTS as SCHEMAS
    from .matches import ViewSchema

    parts = {game.id: f"{SCHEMAS}ViewOf{game.prefix}" for game in GAMES.values()}
    spec.components.schema("View", {
        "allOf": [{"oneOf": [{"$ref": ref} for ref in parts.values()]}]}, schema=ViewSchema)
    view = spec.components.schemas["View"]
    for game in GAMES.values():
        own = {
            "game": {"type": "string", "enum": [game.id], "description": "The game's id"},
            "variant": {"type": "string", "enum": list(game.variants)},
            "legal_actions": {"type": "array", "items": {"anyOf": [
                {"$ref": f"{SCHEMAS}{game.prefix}Action"}, {"$ref": SCHEMAS + "UndoAction"}]}},
            "state": {"anyOf": [{"$ref": states[game.id]}, {"type": "null"}]},
            "result": {"anyOf": [{"$ref": f"{SCHEMAS}{game.prefix}Result"}, {"type": "null"}]}}
        properties = {name: {**field, **own[name]} if name in own else field
                      for name, field in view["properties"].items()}
        spec.components.schema(parts[game.id].removeprefix(SCHEMAS), {
            "type": "object",
            "description": f"A view of a match of {game.name}: a View, with the game's own "
                           "state, legal actions and result",
            "properties": properties, "required": view["required"]})


def _document_events(spec: APISpec, game: Game, schemas: dict[str, type[Event]]) -> str:
    refs = {kind: _component(spec, schema, inspect.cleandoc(schema.__doc__ or kind))
            for kind, schema in schemas.items()}
    name = f"{game.prefix}Event"
    spec.components.schema(name, {
        "description": f"An event of {game.name}: what an action brought about",
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "type", "mapping": refs}})
    return COMPONENTS + name
