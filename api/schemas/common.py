"""Schema pieces every game shares."""

import unicodedata
from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate
from marshmallow.schema import SchemaMeta

from scoring.bots import names as bot_names
from scoring.engine import Game
from scoring.games import GAMES

from .. import fastload
from .words import Asked

MAX_PLAYERS = 6
NAME_LENGTH = 40


class Strict(Asked):
    """Refuses fields it does not know, saying so in plain words (as every other message of a
    request's schema: Asked)."""

    class Meta:
        unknown = ma.RAISE

    def handle_error(self, error: ma.ValidationError, data: Any, *, many: bool,
                     **kwargs: Any) -> None:
        """Unknown fields in the order the body gives them. marshmallow finds them as a set,
        whose order changes with each process's hash seed, so two workers would word one
        error differently."""
        messages = error.messages
        if many or not isinstance(messages, dict) or not isinstance(data, dict):
            return
        known = {f.data_key or name for name, f in self.load_fields.items()}
        for key in [k for k in data if k not in known and k in messages]:
            messages[key] = messages.pop(key)  # to the end, in the body's order


def strict_from_dict(fields_: dict[str, fields.Field], name: str, unknown: str,
                     kind: str | None = None) -> type[Strict]:
    """A Strict schema built from a box's list (one field per tile type, colour, card…);
    `kind`: what to enter where the value is no object."""
    return type(name, (Strict,), {**fields_, "error_messages": {
        "unknown": unknown, **({"type": kind} if kind else {})}})


class StrictBoolean(fields.Boolean):
    """JSON true or false only: marshmallow would also take 1, 0, "yes" and "off"."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class Digits(fields.Integer):
    """A whole number in a query string, written in the digits 0–9 alone, as Last-Event-ID's is:
    Python reads other scripts' digits, a sign, spaces and underscores as a number too, so
    `?after=٣` or `?after=+3` would answer as if it said 3."""

    default_error_messages = {"invalid": "Enter a whole number in the digits 0–9, e.g. 12."}

    def _validated(self, value: Any) -> int:
        if isinstance(value, str) and not (value.isascii() and value.isdigit()):
            raise self.make_error("invalid", input=value)
        return super()._validated(value)


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


fastload.register(Entries, like=fields.Dict)  # what it accepts, it loads as a Dict does


def property_names(_converter: object, field: fields.Field, **_: object) -> dict[str, Any]:
    """apispec's properties of a Dict field whose keys are one of a list (its metadata's
    `keys_enum`) or match a pattern (`keys_pattern`): JSON Schema's propertyNames, which
    apispec does not pass on by itself."""
    keys, pattern = field.metadata.get("keys_enum"), field.metadata.get("keys_pattern")
    if keys is not None:
        return {"propertyNames": {"enum": list(keys)}}
    return {} if pattern is None else {"propertyNames": {"pattern": pattern}}


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


class List(fields.List):
    """A list whose length is checked (by its Length validator) before any of its items is read:
    a body of 30,000 items costs one comparison and a short answer, not 30,000 messages."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list | tuple):
            for validator in self.validators:
                if isinstance(validator, validate.Length):
                    validator(value)
        return super()._deserialize(value, attr, data, **kwargs)


fastload.register(List, fields.List)


def players_list(nested: type[ma.Schema], maximum: int = MAX_PLAYERS, minimum: int = 1,
                 **kwargs: Any) -> fields.List:
    return List(
        fields.Nested(nested), required=True,
        validate=validate.Length(minimum, maximum,
                                 error=f"Enter from {minimum} to {maximum} players."),
        error_messages={"required": "List the players.", "invalid": "List the players."},
        **kwargs)


# --- player names --------------------------------------------------------------------------------
# Two seats must never look alike: a name is stored in Unicode NFC with its spaces tidied, and
# refused when it holds what cannot be seen or changes how the text around it is shown. Case is
# kept and counts ("ann" and "Ann" are two players: the difference shows), and so do letters that
# merely resemble others (Latin "A", Cyrillic "А"), which would need Unicode's confusables tables.

# Unicode's text-direction controls: embeddings and overrides, isolates, and the marks.
DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                               "\u2066\u2067\u2068\u2069")
# Letters and marks that draw nothing (Hangul fillers, the braille blank, the combining grapheme
# joiner, Khmer inherent vowels): not "format" characters, so named one by one.
BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")

NAME_RULES = (f"1 to {NAME_LENGTH} characters, different for each player. Stored in Unicode NFC, "
              "with spaces tidied (none at either end, one between words); names holding "
              "control, invisible (zero-width) or text-direction characters are refused, but for "
              "the joiner between two emoji (👩‍🚀), which names are compared without. At a "
              "match's table, names that differ only in their letters' case or width (\"ann\", "
              "\"Ａｎｎ\" beside \"Ann\") are one name too.")


# The zero-width joiner draws two emoji as one (woman + rocket: an astronaut) where the phone
# knows the pair, else side by side: between two emoji it hides nothing, and names are compared
# without it (same_name), so "👩‍🚀 Mia" and "👩🚀 Mia" are one name. What may stand between the
# first emoji and the joiner: a variation selector or a skin tone.
ZWJ = "\u200d"
EMOJI_TRAILERS = "\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff"


def _joins_emoji(name: str, at: int) -> bool:
    """Whether the joiner at `name[at]` stands between two emoji (symbols; or characters newer
    than this Python's Unicode, which a phone may well draw as emoji)."""
    before = name[:at].rstrip(EMOJI_TRAILERS)
    after = name[at + 1:at + 2]
    return bool(before and after) and all(unicodedata.category(c) in ("So", "Cn")
                                          for c in (before[-1], after))


def _unseen(name: str) -> str | None:
    """Why `name` cannot be a name because of a character nobody sees, if it cannot."""
    # str.isprintable is False exactly for control, format, surrogate, private-use, unassigned
    # and separator characters other than " ": one pass in C for the common case.
    if name.isprintable():
        return None if BLANK_LETTERS.isdisjoint(name) else "invisible"
    for at, char in enumerate(name):
        category = unicodedata.category(char)
        if category in ("Cc", "Cs", "Zl", "Zp"):
            return "control"
        if char in DIRECTION_CONTROLS:
            return "direction"
        if (category == "Cf" and not (char == ZWJ and _joins_emoji(name, at))
                or char in BLANK_LETTERS):
            return "invisible"
    return None


NAME_REFUSALS = {
    "control": "A name is one line of text: no control characters (such as a tab, a line break "
               "or NUL).",
    "invisible": "A name cannot hold invisible characters (such as a zero-width space): two "
                 "names would look the same.",
    "direction": "A name cannot hold characters that change the direction of the text around "
                 "it.",
    "blank": "Enter a name: it cannot be blank.",
}


def normalise_name(name: str) -> str:
    """A player's name as it is stored and compared: Unicode NFC, no space at either end and one
    between words (any kind of space). Raises a ValidationError, in plain words, for a name that
    is blank or holds a control, invisible or text-direction character."""
    # Printable ASCII is in NFC and holds nothing unseen: only its spaces are tidied.
    if not (name.isascii() and name.isprintable()):
        name = unicodedata.normalize("NFC", name)
        refusal = _unseen(name)
        if refusal is not None:
            raise ma.ValidationError(NAME_REFUSALS[refusal])
    name = " ".join(name.split())
    if not name:
        raise ma.ValidationError(NAME_REFUSALS["blank"])
    return name


class PlayerName(fields.String):
    """A player's name, loaded through normalise_name (its messages name the field)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        return normalise_name(super()._deserialize(value, attr, data, **kwargs))


fastload.register_text(PlayerName, normalise_name)  # a string is loaded as normalise_name has it


def player_name(**kwargs: Any) -> PlayerName:
    """The field for a player's name, wherever one is entered (a scoresheet, a seat, a join)."""
    kwargs.setdefault("validate", validate.Length(
        1, NAME_LENGTH, error=f"A name has 1 to {NAME_LENGTH} characters."))
    kwargs.setdefault("error_messages", {"required": "Every player needs a name.",
                                         "invalid": "A name is text.", "null": "A name is text."})
    kwargs["metadata"] = {"example": "Ann", "description": NAME_RULES,
                          **kwargs.get("metadata", {})}
    return PlayerName(**kwargs)


def same_name(name: str) -> str:
    """What two names are compared by: normalised as a name is, less what cannot be seen (for
    names that did not come through player_name)."""
    if name.isascii() and name.isprintable():  # in NFC, nothing unseen
        return " ".join(name.split())
    if not name.isprintable() or not BLANK_LETTERS.isdisjoint(name):  # something unseen
        name = "".join(c for c in name if unicodedata.category(c) not in ("Cc", "Cf", "Cs")
                       and c not in BLANK_LETTERS)
    return " ".join(unicodedata.normalize("NFC", name).split())


def table_name(name: str) -> str:
    """What two names at a match's table are compared by: as same_name, whatever their letters'
    case or width. "ann" and "Ａｎｎ" beside Ann read as Ann in the seats, the log and a player's
    statistics, and could take her name to a reader (the phone's scorer compares names so too,
    web/static/names.js). A calculator's sheet, another app's, may hold "ann" and "Ann" (API.md:
    names unique within a request)."""
    key = same_name(name)
    if key.isascii():
        return key.lower()
    return " ".join(unicodedata.normalize("NFKC", key).split()).lower()


def unique_names(names: list[str], key: Callable[[str], str] = same_name) -> None:
    """Refuses a table where two players share a name, compared by `key` (reported on
    `players`)."""
    seen: dict[str, str] = {}
    for name in names:
        kept = key(name)
        if kept in seen:
            first = seen[kept]
            raise ma.ValidationError(
                f"Two players are named '{same_name(name)}'; names must differ."
                if same_name(first) == same_name(name) else
                f"'{first}' and '{name}' are one name at a table (only the letters' case or "
                "width differs); names must differ.", field_name="players")
        seen[kept] = name


def choose_variant(game: Game) -> validate.OneOf:
    """One of the game's variants, else a message naming them as a player would: "Choose
    standard, small or simplified.", or "Choose standard, the game's only variant."."""
    *others, last = variants = list(game.variants)
    said = f"{', '.join(others)} or {last}" if others else f"{last}, the game's only variant"
    return validate.OneOf(variants, error=f"Choose {said}.")


def variant_field(game: Game, description: str | None = None,
                  load_default: bool = True) -> fields.String:
    """A request's `variant`: one of the game's, its default when left out (unless not
    `load_default`: then left out, it is not in what the schema loads)."""
    return fields.String(
        **({"load_default": game.default_variant} if load_default else {}),
        validate=choose_variant(game),
        metadata={"enum": list(game.variants),
                  **({"description": description} if description else {})})


class Player(Strict):
    """A scoresheet's player: a name, then the game's own fields."""

    error_messages = {"type": "Enter each player as an object: {\"name\": \"Ann\", …}."}

    name = player_name(required=True)


class ScoreRequest(Strict):
    """What every calculator request shares: players named once each (its `players` field is the
    game's)."""

    @ma.validates_schema
    def names_differ(self, data: dict[str, Any], **kwargs: Any) -> None:
        unique_names([p["name"] for p in data["players"]])


Obj = fields.Dict  # a JSON object whose keys are described in the field's description


class _AlwaysSent(SchemaMeta):
    """Marks a schema's fields required once marshmallow has gathered them (see Sent)."""

    def __new__(mcs, name, bases, attrs):
        klass = super().__new__(mcs, name, bases, attrs)
        sometimes = getattr(klass.Meta, "sometimes", ())
        for field_name, field in klass._declared_fields.items():
            field.required = field_name not in sometimes
        # Open in the document (no `additionalProperties: false`): API.md adds fields to answers
        # freely, and a client validating against today's document must take tomorrow's answer.
        klass.opts.unknown = ma.EXCLUDE
        return klass


class Sent(ma.Schema, metaclass=_AlwaysSent):
    """A response's shape as the server sends it: every field is in every answer, so `required`
    in the document (client generators make it a plain attribute, not an optional one), except
    those `Meta.sometimes` names; a field that may be null says so (allow_none). It only
    documents and dumps: `required` does nothing to a dump. The document leaves it open to
    fields added later; the tests check answers against it closed (tests/api/openapi.py), so
    that no field is sent that it does not name."""


def list_of(name: str, spec: dict[str, fields.Field],
            sometimes: tuple[str, ...] = ()) -> fields.List:
    """A list of box entries (tiles, cards, roster…) in a catalogue entry; `sometimes`: the keys
    only some entries have."""
    return fields.List(box_object(name, spec, sometimes))


def box_object(name: str, spec: dict[str, fields.Field], sometimes: tuple[str, ...] = (),
               **kwargs: Any) -> fields.Nested:
    """An object of a catalogue entry's box data, each key typed (`sometimes`: the keys it only
    sometimes has), documented as the component <name>InBox."""
    meta = type("Meta", (), {"sometimes": sometimes, "register": False})
    attrs: dict[str, Any] = {**spec, "Meta": meta}
    return fields.Nested(type(f"{name}InBox", (Sent,), attrs), **kwargs)


class VariantPlayersSchema(Sent):
    min = fields.Integer(metadata={"description": "The fewest players the variant takes"})
    max = fields.Integer(metadata={"description": "The most players the variant takes"})
    name = fields.String(metadata={"description": "The variant's name, in English"})


def catalogue_entry(game: Game, facts: dict[str, Any]) -> dict[str, Any]:
    """A game's catalogue facts, with the bots a match can seat and each variant's own range
    of players (`players` is the game's, across its variants)."""
    return {**facts, "bots": bot_names(game.id), "variant_players": {
        variant: {"min": spec["players"][0], "max": spec["players"][1], "name": spec["name"]}
        for variant, spec in game.box.VARIANTS.items()}}


def game_summary(game_id: str) -> type[Sent]:
    """A game's catalogue entry, its examples the game's own: what GET /games/{game} answers
    for these fields. A game's GameSchema adds its box data to it."""
    game = GAMES[game_id]
    example = catalogue_entry(game, game.summary())
    return type("GameSummarySchema", (Sent,), {
        "Meta": type("Meta", (), {"register": False}),
        "id": fields.String(metadata={"example": example["id"]}),
        "name": fields.String(metadata={"example": example["name"]}),
        "players": fields.Dict(keys=fields.String(), values=fields.Integer(),
                               metadata={"example": example["players"]}),
        "variants": fields.List(fields.String(), metadata={"example": example["variants"]}),
        "default_variant": fields.String(metadata={
            "description": "The variant played where a request or a match names none",
            "example": example["default_variant"]}),
        "variant_players": fields.Dict(
            keys=fields.String(), values=fields.Nested(VariantPlayersSchema), metadata={
                "description": "Each variant's name and players: `players` is the whole game's "
                               "range, a variant may take fewer",
                "example": example["variant_players"]}),
        "bots": fields.List(fields.String(), metadata={
            "description": "The bots a match can seat (`{\"name\": …, \"bot\": …}` in "
                           "`players`): random, a one-ply greedy heuristic, and a Monte Carlo "
                           "tree search",
            "example": example["bots"]}),
    })


# An entry of the catalogue (GET /games), shown with the first game's example.
GameSummarySchema = game_summary(next(iter(GAMES)))


class CatalogueSchema(Sent):
    games = fields.List(fields.Nested(GameSummarySchema))


class TieBreakSchema(Sent):
    rule = fields.String(metadata={"description": "The printed tie-break"})
    explanation = fields.String(metadata={"description": "How it decided between tied players"})


def result_schema(name: str, breakdown: ma.Schema | type[ma.Schema],
                  extra: dict[str, fields.Field] | None = None) -> type[ma.Schema]:
    """The calculator's response shape, with a game's own breakdown. `name` is the game's
    prefix; its `game` is the game's id, the one value it takes, so a client tells the results of
    the games apart by it."""
    game = next(game for game in GAMES.values() if game.prefix == name)
    player = Sent.from_dict({
        "name": fields.String(),
        "total": fields.Integer(),
        "rank": fields.Integer(metadata={"description": "1 is best; tied players share a rank"}),
        "breakdown": fields.Nested(breakdown),
    }, name=f"{name}PlayerResult")
    return Sent.from_dict({
        "game": fields.String(metadata={"enum": [game.id], "description": "The game's id"}),
        "variant": fields.String(metadata={"enum": list(game.variants),
                                           "description": "The variant scored"}),
        **(extra or {}),
        "players": fields.List(fields.Nested(player),
                               metadata={"description": "In the request's order"}),
        "winners": fields.List(fields.String(),
                               metadata={"description": "More than one only when still tied"}),
        "tie_break": fields.Nested(TieBreakSchema, allow_none=True, metadata={
            "description": "Set when the printed tie-break decided between equal totals; null "
                           "otherwise"}),
    }, name=f"{name}Result")
