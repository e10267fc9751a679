"""Schema pieces every game shares."""

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from scoring.games import GAMES

MAX_PLAYERS = 6
NAME_LENGTH = 40


class Strict(ma.Schema):
    """Refuses fields it does not know, saying so in plain words."""

    class Meta:
        unknown = ma.RAISE

    error_messages = {"unknown": "This field is not part of the request."}


def strict_from_dict(fields_: dict[str, fields.Field], name: str,
                     unknown: str) -> type[Strict]:
    """A Strict schema built from a box's list (one field per tile type, colour, card…)."""
    return type(name, (Strict,), {**fields_, "error_messages": {"unknown": unknown}})


class StrictBoolean(fields.Boolean):
    """JSON true or false only: marshmallow would also take 1, 0, "yes" and "off"."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class Entries(fields.Dict):
    """A Dict whose messages name the entry (`tiles.stegosaurus.0`) rather than marshmallow's
    `key`/`value` wrappers, so the schema and a calculator name a field the same way."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> dict:
        try:
            return super()._deserialize(value, attr, data, **kwargs)
        except ma.ValidationError as error:
            if not isinstance(error.messages, dict):
                raise
            raise ma.ValidationError({entry: _unwrap(messages)
                                      for entry, messages in error.messages.items()},
                                     valid_data=error.valid_data) from error


def _unwrap(messages: Any) -> Any:
    if not isinstance(messages, dict) or not set(messages) <= {"key", "value"}:
        return messages
    about_key, about_value = messages.get("key", []), messages.get("value", [])
    if isinstance(about_value, dict):
        return {**about_value, "_schema": about_key} if about_key else about_value
    return [*about_key, *about_value]


def count(maximum: int, minimum: int = 0, **kwargs: Any) -> fields.Integer:
    """A whole number of things held, from `minimum` to `maximum`."""
    message = f"Enter a whole number from {minimum} to {maximum}."
    kwargs.setdefault("load_default", 0)
    return fields.Integer(
        strict=True, validate=validate.Range(minimum, maximum, error=message),
        error_messages={"invalid": message, "null": message},
        metadata={"minimum": minimum, "maximum": maximum, **kwargs.pop("metadata", {})},
        **kwargs)


def players_list(nested: type[ma.Schema], maximum: int = MAX_PLAYERS, minimum: int = 1,
                 **kwargs: Any) -> fields.List:
    return fields.List(
        fields.Nested(nested), required=True,
        validate=validate.Length(minimum, maximum,
                                 error=f"Enter from {minimum} to {maximum} players."),
        error_messages={"required": "List the players.", "invalid": "List the players."},
        **kwargs)


def unique_names(names: list[str]) -> None:
    """Refuses a table where two players share a name (reported on `players`)."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ma.ValidationError(f"Two players are named '{name}'; names must differ.",
                                     field_name="players")
        seen.add(name)


class Player(Strict):
    """A scoresheet's player: a name, then the game's own fields."""

    name = fields.String(
        required=True,
        validate=validate.Length(1, NAME_LENGTH,
                                 error=f"A name has 1 to {NAME_LENGTH} characters."),
        error_messages={"required": "Every player needs a name.", "invalid": "A name is text."},
        metadata={"example": "Ann"})


class ScoreRequest(Strict):
    """What every calculator request shares: players named once each (its `players` field is the
    game's)."""

    @ma.validates_schema
    def names_differ(self, data: dict[str, Any], **kwargs: Any) -> None:
        unique_names([p["name"] for p in data["players"]])


Obj = fields.Dict  # a JSON object whose keys are described in the field's description


def list_of(name: str, spec: dict[str, fields.Field]) -> fields.List:
    """A list of box entries (tiles, cards, roster…) in a catalogue entry."""
    return fields.List(fields.Nested(ma.Schema.from_dict(spec, name=f"{name}InBox")))


_EXAMPLE = next(iter(GAMES.values())).summary()


class GameSummarySchema(ma.Schema):
    id = fields.String(metadata={"example": _EXAMPLE["id"]})
    name = fields.String(metadata={"example": _EXAMPLE["name"]})
    players = fields.Dict(keys=fields.String(), values=fields.Integer(),
                          metadata={"example": _EXAMPLE["players"]})
    variants = fields.List(fields.String(), metadata={"example": _EXAMPLE["variants"]})


class CatalogueSchema(ma.Schema):
    games = fields.List(fields.Nested(GameSummarySchema))


class TieBreakSchema(ma.Schema):
    rule = fields.String(metadata={"description": "The printed tie-break"})
    explanation = fields.String(metadata={"description": "How it decided between tied players"})


def result_schema(name: str, breakdown: ma.Schema | type[ma.Schema],
                  extra: dict[str, fields.Field] | None = None) -> type[ma.Schema]:
    """The calculator's response shape, with a game's own breakdown."""
    player = ma.Schema.from_dict({
        "name": fields.String(),
        "total": fields.Integer(),
        "rank": fields.Integer(metadata={"description": "1 is best; tied players share a rank"}),
        "breakdown": fields.Nested(breakdown),
    }, name=f"{name}PlayerResult")
    return ma.Schema.from_dict({
        "game": fields.String(),
        **(extra or {}),
        "players": fields.List(fields.Nested(player),
                               metadata={"description": "In the request's order"}),
        "winners": fields.List(fields.String(),
                               metadata={"description": "More than one only when still tied"}),
        "tie_break": fields.Nested(TieBreakSchema, allow_none=True, metadata={
            "description": "Set when the printed tie-break decided between equal totals"}),
    }, name=f"{name}Result")
