"""marshmallow's own messages ("Field may not be null.", "Not a valid list.", "Must be greater
than or equal to 0 and less than or equal to 99.") in words a player understands.

A schema of what a request sends (Asked, and so every Strict schema) has its fields worded when
its class is made, once: each message and validator that says nothing of its own is given words
drawn from the field itself, what its `required` message says it needs, else the choices or the
range its validators allow, else the kind of value it takes. What a field says itself is kept."""

import copy
from collections.abc import Iterator
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate
from marshmallow.schema import SchemaMeta


def listed(names: list[str]) -> str:
    """Names in words: "a", "a and b", "a, b and c"."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


NEEDED = "This field is needed."
REFUSED = "This value is not one this field takes."
ANYTHING = "Enter a value this field takes."
OBJECT = "Enter an object, {…}, here."
UNKNOWN = "This field is not part of the request."


def _marshmallow_words() -> frozenset[str]:
    """Every message marshmallow itself gives a field or a schema."""
    texts = set(ma.Schema._default_error_messages.values())
    for klass in vars(fields).values():
        if isinstance(klass, type) and issubclass(klass, fields.Field):
            texts.update(getattr(klass, "default_error_messages", {}).values())
    return frozenset(texts)


MARSHMALLOW = _marshmallow_words()

# What a field of each class takes, the most particular class first.
TAKES: tuple[tuple[type[fields.Field], str], ...] = (
    (fields.Boolean, "Answer true or false."),
    (fields.Integer, "Enter a whole number."),
    (fields.Number, "Enter a number."),
    (fields.String, "Enter text."),
    (fields.List, "Enter a list, […]."),
    (fields.Tuple, "Enter a list, […]."),
    (fields.Mapping, "Enter an object, {…}."),
    (fields.Nested, "Enter an object, {…}."),
)
# What a value is, as marshmallow's message for it says, for a field of another class (a Raw
# that takes only an object, say).
INVALID = {
    "Not a valid integer.": "Enter a whole number.",
    "Not a valid number.": "Enter a number.",
    "Not a valid string.": "Enter text.",
    "Not a valid boolean.": "Answer true or false.",
    "Not a valid list.": "Enter a list, […].",
    "Not a valid tuple.": "Enter a list, […].",
    "Not a valid mapping type.": "Enter an object, {…}.",
    "Invalid type.": "Enter an object, {…}.",
    "Invalid input type.": OBJECT,
}
# marshmallow's other particular messages.
PARTICULAR = {
    "Number too large.": "This number is too large.",
    "Special numeric values (nan or infinity) are not permitted.": "Enter a number.",
    "Not a valid utf-8 string.": "Enter text.",
    "Not a valid URL.": "Enter a web address, such as https://example.org/.",
    "Not a valid email address.": "Enter an email address.",
    "Not a valid UUID.": "Enter a UUID.",
}
# How a length is counted, by the field's class.
UNITS: tuple[tuple[type[fields.Field], str], ...] = (
    (fields.String, "characters"), (fields.List, "items"), (fields.Tuple, "items"),
    (fields.Mapping, "entries"))


def _own(text: str | None) -> bool:
    return bool(text) and text not in MARSHMALLOW


def _first(klass_words: tuple[tuple[type, str], ...], field: fields.Field) -> str | None:
    return next((words for klass, words in klass_words if isinstance(field, klass)), None)


def _range(check: validate.Range) -> str:
    """A range in words, `{min}` and `{max}` left for the validator to fill in."""
    if check.min is not None and check.max is not None and check.min_inclusive \
            and check.max_inclusive:
        return "from {min} to {max}"
    parts = []
    if check.min is not None:
        parts.append("of at least {min}" if check.min_inclusive else "above {min}")
    if check.max is not None:
        parts.append(("at most {max}" if parts else "of at most {max}") if check.max_inclusive
                     else "below {max}")
    return " and ".join(parts)


def _number(field: fields.Field) -> str | None:
    if isinstance(field, fields.Integer):
        return "a whole number"
    return "a number" if isinstance(field, fields.Number) else None


def _length(check: validate.Length, unit: str) -> str:
    if check.equal is not None:
        return f"Enter exactly {{equal}} {unit}."
    if check.min is not None and check.min == check.max:
        return f"Enter exactly {{min}} {unit}."
    if check.min is not None and check.max is not None:
        return f"Enter {{min}} to {{max}} {unit}."
    if check.min is not None:
        return f"Enter at least {{min}} {unit}."
    return f"Enter at most {{max}} {unit}."


def _worded(check: Any, field: fields.Field) -> Any:
    """The validator, its message in words if it gives marshmallow's (a copy: a validator may
    serve several fields)."""
    words = None
    if isinstance(check, validate.Range) and check.error is None and _number(field):
        words = f"Enter {_number(field)} {_range(check)}."
    elif isinstance(check, validate.Length) and check.error is None and _first(UNITS, field):
        words = _length(check, _first(UNITS, field))
    elif isinstance(check, validate.OneOf) and check.error == validate.OneOf.default_message:
        words = "Choose one of: {choices}."
    elif isinstance(check, validate.Regexp) and check.error == validate.Regexp.default_message:
        words = "This text is not in the form this field takes."
    if words is None:
        return check
    check = copy.copy(check)
    check.error = words
    return check


def _stated(check: Any) -> str | None:
    """What a validator's own message says the field takes, where it says it whole (a range,
    its choices, a pattern's words: not one that names the value refused)."""
    if isinstance(check, validate.Range):
        text = check.error
        return text.format(min=check.min, max=check.max) if text and "{input}" not in text \
            else None
    if isinstance(check, validate.OneOf | validate.Regexp) and _own(check.error) and \
            "{" not in check.error:
        return check.error
    return None


def _schema_words(nested: Any) -> str | None:
    """What a nested schema says of a value that is no object, if it words that itself."""
    klass = nested if isinstance(nested, type) else type(nested)
    if not (isinstance(klass, type) and issubclass(klass, ma.Schema)):
        return None
    said = None
    for base in reversed(klass.__mro__):
        said = getattr(base, "error_messages", {}).get("type", said)
    return said if _own(said) else None


def takes(field: fields.Field) -> str:
    """What `field` takes, in words, as a field's message is written (marshmallow formats it:
    a brace is written twice): what its `required` or `invalid` message says, else what a
    validator of it says, else the range it allows, else the kind of value it is."""
    for key in ("required", "invalid"):
        if _own(field.error_messages.get(key)):
            return field.error_messages[key]
    return _braces(_takes(field))


def _braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def _takes(field: fields.Field) -> str:
    for check in field.validators:
        if (stated := _stated(check)) is not None:
            return stated
    for check in field.validators:
        if isinstance(check, validate.Range) and _number(field):
            return f"Enter {_number(field)} {_range(check)}.".format(min=check.min, max=check.max)
    if isinstance(field, fields.Nested) and (said := _schema_words(field.nested)):
        return said
    return (_first(TAKES, field) or INVALID.get(field.error_messages.get("invalid", ""))
            or ANYTHING)


def _inner(field: fields.Field) -> Iterator[fields.Field]:
    if isinstance(field, fields.List):
        yield field.inner
    elif isinstance(field, fields.Tuple):
        yield from field.tuple_fields
    elif isinstance(field, fields.Mapping):
        yield from (f for f in (field.key_field, field.value_field) if f is not None)


def word(field: fields.Field) -> None:
    """Gives `field` (and the fields of its items, keys and values) words for each message and
    validator that has marshmallow's."""
    messages, what = field.error_messages, takes(field)
    for key, text in messages.items():
        if text not in MARSHMALLOW:
            continue
        if key == "required":
            messages[key] = NEEDED
        elif key in ("invalid", "null", "type"):
            messages[key] = what
        elif key == "validator_failed":
            messages[key] = REFUSED
        else:
            messages[key] = PARTICULAR.get(text, what)
    field.validators = [_worded(check, field) for check in field.validators]
    for inner in _inner(field):
        word(inner)


class Worded(SchemaMeta):
    """Words a schema's fields once, as its class is made (see the module's docstring)."""

    def __new__(mcs, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> "Worded":
        klass = super().__new__(mcs, name, bases, attrs)
        for field in klass._declared_fields.values():
            word(field)
        return klass


class Asked(ma.Schema, metaclass=Worded):
    """A schema of what a request sends (its body or its query): every message in words a
    player understands, a value that is no object included."""

    error_messages = {"type": OBJECT, "unknown": UNKNOWN}
