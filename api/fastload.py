"""Request bodies loaded, and answers sent, without marshmallow's machinery in the common case.

`compile_loader(schema)` reads a marshmallow schema (its fields, their validators, its
`@validates_schema` and `@post_load` hooks) and writes a plain Python function that, for a body the
schema accepts, returns exactly what `schema.load` returns. On anything it is not sure of (a value
of another type, a validator that refuses, a field or hook it does not know) the function raises,
and the caller loads the body with marshmallow, which words the errors. The schemas stay the one
source of what is valid and of every message: this only skips marshmallow's per-field bookkeeping
(error stores, hook lookups, partial loading) for valid bodies, which was most of a calculator's
time. tests/api/test_fastload.py checks it against marshmallow on valid and broken bodies.

`send(body, headers)` answers with a body the server built itself in its schema's shape, as
flask-smorest answers with that schema's dump, written by orjson."""

from collections.abc import Callable
from typing import Any

import marshmallow as ma
import orjson
from flask import Response, current_app
from marshmallow import fields, validate
from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA
from marshmallow.utils import missing


class Unsure(Exception):
    """The compiled loader cannot vouch for this input: marshmallow decides."""


def compile_loader(schema: ma.Schema) -> Callable[[Any], Any]:
    """`schema.load` for bodies it accepts; raises (anything) where marshmallow must decide."""
    writer = _Writer()
    try:
        entry = writer.schema(schema, None)
    except RecursionError:  # a schema nested in itself: marshmallow loads it every time
        return schema.load
    exec(compile("\n".join(writer.lines), f"<loader of {type(schema).__name__}>", "exec"),
         writer.names)
    return writer.names[entry]


# Field class → how a present, non-null value of it is checked and converted, in generated code.
# Exact classes only: a subclass may load differently, so it is registered on its own. Any other
# field is loaded by its own `_deserialize`, or by marshmallow's `deserialize` if it changes that
# too; a field with pre_load or post_load functions always by `deserialize`.
_KINDS: dict[type, str] = {
    fields.Integer: "int",
    fields.String: "str",
    fields.Boolean: "bool",  # JSON true and false; marshmallow decides 1, "yes"…
    fields.List: "list",
    fields.Dict: "dict",
    fields.Nested: "nested",
}


# String fields that load a string as a function of it (a player's name, normalised).
_TEXTS: dict[type, Callable[[str], Any]] = {}


def register(field_class: type[fields.Field], like: type[fields.Field]) -> None:
    """Declare that whatever the compiled code for `like` accepts, `field_class` loads exactly as
    `like` does (an Entries is a Dict with other error messages)."""
    _KINDS[field_class] = _KINDS[like]


def register_text(field_class: type[fields.String], convert: Callable[[str], Any]) -> None:
    """Declare that `field_class` loads a string `value` as `convert(value)` does (its
    `_deserialize` is String's, then `convert`). Where `convert` raises, marshmallow decides."""
    _KINDS[field_class] = "text"
    _TEXTS[field_class] = convert


class _Writer:
    """Writes the source of a loader: one function per schema, the fields' checks inline."""

    def __init__(self) -> None:
        self.names: dict[str, Any] = {"Unsure": Unsure}
        self.lines: list[str] = []
        self.schemas: dict[tuple[int, str | None], str] = {}
        self.count = 0

    def fresh(self, hint: str) -> str:
        self.count += 1
        return f"{hint}{self.count}"

    def constant(self, value: Any, hint: str = "c") -> str:
        name = self.fresh(f"_{hint}")
        self.names[name] = value
        return name

    # --- schemas ---------------------------------------------------------------------------------

    def schema(self, schema: ma.Schema, unknown: str | None) -> str:
        """The name of a function (value, parent=None) → what schema.load(value) returns."""
        key = (id(schema), unknown)
        if key in self.schemas:
            return self.schemas[key]
        hooks = schema._hooks
        plain_hooks = not any(pass_collection for tag in (VALIDATES_SCHEMA, POST_LOAD)
                              for _, pass_collection, _ in hooks[tag])
        nested_attributes = any("." in (f.attribute or n) for n, f in schema.load_fields.items())
        if (schema.many or schema.partial or hooks[PRE_LOAD] or hooks[VALIDATES]
                or not plain_hooks or nested_attributes or schema.dict_class is not dict):
            loader = schema.load if unknown is None else (
                lambda value, _s=schema, _u=unknown: _s.load(value, unknown=_u))
            name = self.schemas[key] = self.constant(
                lambda value, _parent=None: loader(value), "marshmallow")
            return name
        name = self.schemas[key] = self.fresh(f"load_{type(schema).__name__}_")
        unknown = unknown or schema.unknown
        entries = [(f.data_key if f.data_key is not None else n, f.attribute or n, f)
                   for n, f in schema.load_fields.items()]
        known = self.constant(frozenset(key for key, _, _ in entries), "known")
        lines = [f"def {name}(value, _parent=None):",
                 "    if type(value) is not dict:",
                 "        raise Unsure"]
        if unknown == ma.RAISE:
            lines += [f"    if not {known}.issuperset(value):", "        raise Unsure"]
        lines.append("    out = {}")
        for data_key, attribute, field in entries:
            given = self.fresh("given")
            lines += [f"    if {data_key!r} in value:",
                      f"        {given} = value[{data_key!r}]",
                      *self.field(field, given, f"out[{attribute!r}]", "value", data_key, 2)]
            if field.required:
                lines += ["    else:", "        raise Unsure"]
            elif field.load_default is not missing:
                default = self.constant(field.load_default, "default")
                call = f"{default}()" if callable(field.load_default) else default
                lines += ["    else:", f"        out[{attribute!r}] = {call}"]
        if unknown == ma.INCLUDE:
            lines += [f"    for key in value.keys() - {known}:", "        out[key] = value[key]"]
        hook_kwargs = self.constant({"many": False, "partial": None, "unknown": unknown}, "kw")
        for tag, assign in ((VALIDATES_SCHEMA, ""), (POST_LOAD, "out = ")):
            for attr, _, kwargs in hooks[tag]:
                hook = self.constant(getattr(schema, attr), "hook")
                original = "value, " if kwargs.get("pass_original") else ""
                lines.append(f"    {assign}{hook}(out, {original}**{hook_kwargs})")
        lines.append("    return out")
        self.lines += lines
        return name

    # --- fields ----------------------------------------------------------------------------------

    def field(self, field: fields.Field, given: str, target: str, parent: str,
              name: str | None, depth: int) -> list[str]:
        """Lines that load the present value `given` of `field` into `target`, or raise."""
        pad = "    " * depth
        kind = _KINDS.get(type(field))
        if kind is None and type(field).deserialize is fields.Field.deserialize:
            kind = "own"
        if (kind is None or field.pre_load or field.post_load
                or (kind == "dict" and field.mapping_type is not dict)
                or (kind == "nested" and (field.many or field.only is not None or field.exclude
                                          or field.schema.many))):
            whole = self.constant(field, "field")
            return [f"{pad}{target} = {whole}.deserialize({given}, {name!r}, {parent})"]
        if field.allow_none:
            lines = [f"{pad}if {given} is None:", f"{pad}    {target} = None", f"{pad}else:"]
            pad += "    "
            depth += 1
        elif kind == "own":  # null is marshmallow's to refuse: the field's own code may take it
            lines = [f"{pad}if {given} is None:", f"{pad}    raise Unsure"]
        else:  # the check of the value's type refuses null
            lines = []
        loaded = self.fresh("loaded")
        lines += self.body(kind, field, given, loaded, parent, name, depth)
        for check in field.validators:
            lines += self.validator(check, loaded, pad)
        lines.append(f"{pad}{target} = {loaded}")
        return lines

    def body(self, kind: str, field: fields.Field, given: str, loaded: str, parent: str,
             name: str | None, depth: int) -> list[str]:
        pad = "    " * depth
        if kind in ("int", "str", "bool"):  # marshmallow returns such a value as it is
            return [f"{pad}if type({given}) is not {kind}:", f"{pad}    raise Unsure",
                    f"{pad}{loaded} = {given}"]
        if kind == "text":
            convert = self.constant(_TEXTS[type(field)], "convert")
            return [f"{pad}if type({given}) is not str:", f"{pad}    raise Unsure",
                    f"{pad}{loaded} = {convert}({given})"]
        if kind == "own":
            own = self.constant(field, "field")
            return [f"{pad}{loaded} = {own}._deserialize({given}, {name!r}, {parent})"]
        if kind == "nested":
            load = self.schema(field.schema, field.unknown)
            return [f"{pad}{loaded} = {load}({given})"]
        if kind == "list":  # marshmallow loads the entries with no name and no parent
            entry, item = self.fresh("entry"), self.fresh("item")
            return [f"{pad}if type({given}) is not list:", f"{pad}    raise Unsure",
                    f"{pad}{loaded} = []",
                    f"{pad}for {entry} in {given}:",
                    *self.field(field.inner, entry, item, "None", None, depth + 1),
                    f"{pad}    {loaded}.append({item})"]
        # kind == "dict"
        lines = [f"{pad}if type({given}) is not dict:", f"{pad}    raise Unsure"]
        if field.key_field is None and field.value_field is None:
            return [*lines, f"{pad}{loaded} = dict({given})"]
        key, value = self.fresh("key"), self.fresh("value")
        new_key, new_value = self.fresh("new_key"), self.fresh("new_value")
        lines += [f"{pad}{loaded} = {{}}", f"{pad}for {key}, {value} in {given}.items():"]
        for sub, old, new in ((field.key_field, key, new_key), (field.value_field, value,
                                                                 new_value)):
            lines += (self.field(sub, old, new, "None", None, depth + 1) if sub is not None
                      else [f"{pad}    {new} = {old}"])
        return [*lines, f"{pad}    {loaded}[{new_key}] = {new_value}"]

    def validator(self, check: Callable[[Any], Any], loaded: str, pad: str) -> list[str]:
        """Lines that raise unless `check` (a field validator) accepts `loaded`."""
        kind = type(check)
        refused: list[str] = []
        if kind is validate.Range:
            if check.min is not None:
                low = self.constant(check.min, "low")
                refused.append(f"{loaded} {'<' if check.min_inclusive else '<='} {low}")
            if check.max is not None:
                high = self.constant(check.max, "high")
                refused.append(f"{loaded} {'>' if check.max_inclusive else '>='} {high}")
        elif kind is validate.Length:
            if check.equal is not None:
                refused.append(f"len({loaded}) != {check.equal!r}")
            else:
                if check.min is not None:
                    refused.append(f"len({loaded}) < {check.min!r}")
                if check.max is not None:
                    refused.append(f"len({loaded}) > {check.max!r}")
        elif kind is validate.OneOf and _hashable(check.choices):
            choices = self.constant(frozenset(check.choices), "choices")
            refused.append(f"{loaded} not in {choices}")
        elif kind is validate.Regexp:
            match = self.constant(check.regex.match, "match")
            refused.append(f"{match}({loaded}) is None")
        else:  # any other refuses by raising, or by returning False
            call = self.constant(check, "check")
            refused.append(f"{call}({loaded}) is False")
        if not refused:
            return []
        return [f"{pad}if {' or '.join(refused)}:", f"{pad}    raise Unsure"]


def _hashable(choices: Any) -> bool:
    try:
        frozenset(choices)
    except TypeError:
        return False
    return True


# What orjson would write otherwise than flask's encoder: refused, so that encoder writes it.
_AS_FLASK_WRITES = (orjson.OPT_APPEND_NEWLINE | orjson.OPT_PASSTHROUGH_DATACLASS
                    | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS)


def send(body: Any, headers: dict[str, str]) -> Response:
    """A 200 answer holding `body`, which the server built in the shape its schema documents:
    the bytes and headers flask-smorest sends for that schema's dump (which gives such a body
    back unchanged) through flask's jsonify. Where the app's jsonify writes compact JSON in the
    keys' order, not escaped to ASCII (app.py; not in debug mode), orjson writes the same bytes
    in a tenth of the time for what a body holds (strings, integers, lists, objects with string
    keys, floats above 1e-4); what orjson refuses (an integer past 64 bits: a finished match's
    seed) jsonify writes."""
    provider = current_app.json
    compact = getattr(provider, "compact", None)
    data = None
    if (compact or (compact is None and not current_app.debug)) and not (
            getattr(provider, "sort_keys", True) or getattr(provider, "ensure_ascii", True)):
        try:
            data = orjson.dumps(body, option=_AS_FLASK_WRITES)
        except TypeError:
            pass
    response = (provider.response(body) if data is None
                else current_app.response_class(data, mimetype=provider.mimetype))
    response.headers.extend(headers)
    return response
