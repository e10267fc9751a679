"""The loader compiled from a marshmallow schema (api/fastload.py) loads exactly what the schema
loads, and vouches for nothing the schema refuses: marshmallow stays the one judge."""

import copy
import importlib

import marshmallow as ma
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import fields, validate

from api.fastload import compile_loader
from scoring.games import GAMES
from tests.api.test_properties import JSON, SHEETS, mutated
from tests.fuzz import examples

CHECKS = settings(max_examples=examples(40), deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])
SCHEMAS = {game.id: importlib.import_module(f"api.schemas.{game.package}").ScoreRequestSchema()
           for game in GAMES.values()}


def fast(schema: ma.Schema, body):
    """What the compiled loader makes of `body`; None when it leaves it to marshmallow."""
    try:
        return compile_loader(schema)(copy.deepcopy(body))
    except Exception:  # noqa: BLE001
        return None


def slow(schema: ma.Schema, body):
    try:
        return schema.load(copy.deepcopy(body))
    except ma.ValidationError:
        return None


@pytest.mark.parametrize("game", list(SHEETS))
def test_every_valid_scoresheet_is_loaded_by_the_compiled_loader_as_marshmallow_does(game):
    schema, load = SCHEMAS[game], compile_loader(SCHEMAS[game])

    @CHECKS
    @given(sheet=SHEETS[game])
    def check(sheet):
        expected = slow(schema, sheet)
        if expected is not None:  # the box allows it; the schema may still refuse (e.g. names)
            assert load(copy.deepcopy(sheet)) == expected
    check()


@pytest.mark.parametrize("game", list(SHEETS))
def test_the_compiled_loader_accepts_nothing_marshmallow_refuses(game):
    schema = SCHEMAS[game]

    @CHECKS
    @given(body=st.one_of(JSON, mutated(SHEETS[game])))
    def check(body):
        loaded = fast(schema, body)
        if loaded is not None:
            assert loaded == slow(schema, body)
    check()


def test_the_loader_does_not_change_the_body_it_reads():
    body = {"bowls": ["green", "yellow", "purple", "blue", "red"],
            "players": [{"name": " Ann ", "dropped": {"red": 1}}]}
    before = copy.deepcopy(body)
    assert compile_loader(SCHEMAS["dig"])(body)["players"][0]["name"] == "Ann"
    assert body == before


NAMES = ["Ann", " Ann  Lee ", "Ann\tLee", "Ann\x00", "Ann\u200b", "\u202eAnn", "   ", "",
         "Ame\u0301lie", "Amélie", "Анна", "Ann\u3000Lee", "\u3164", "Ann\ud800", "x" * 41]


@pytest.mark.parametrize("name", NAMES)
def test_a_name_is_loaded_as_marshmallow_loads_it_or_left_to_it(name):
    body = {"bowls": ["green", "yellow", "purple", "blue", "red"],
            "players": [{"name": name, "dropped": {"red": 1}}, {"name": "Bob"}]}
    expected, loaded = slow(SCHEMAS["dig"], body), fast(SCHEMAS["dig"], body)
    assert loaded == expected or loaded is None and expected is None
    if name in ("Ann", " Ann  Lee ", "Amélie", "Ame\u0301lie", "Анна"):  # valid: loaded here
        assert loaded is not None


@CHECKS
@given(name=st.text(max_size=45), other=st.sampled_from(["Ann", "Ann ", "Amélie", "Ame\u0301lie"]))
def test_any_names_are_loaded_as_marshmallow_loads_them(name, other):
    body = {"bowls": ["green", "yellow", "purple", "blue", "red"],
            "players": [{"name": name}, {"name": other}]}
    loaded = fast(SCHEMAS["dig"], body)
    if loaded is not None:
        assert loaded == slow(SCHEMAS["dig"], body)


# --- marshmallow features the loader follows, or leaves to marshmallow ---------------------------

class Inner(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    count = fields.Integer(strict=True, validate=validate.Range(0, 9, max_inclusive=False))
    label = fields.String(data_key="Label", load_default="none")
    flags = fields.List(fields.Boolean(), load_default=list)


class Outer(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    inner = fields.Nested(Inner, allow_none=True)
    loose = fields.Nested(Inner, unknown=ma.INCLUDE)
    kind = fields.String(required=True, validate=validate.OneOf(["a", "b"]))
    code = fields.String(validate=validate.Regexp(r"^[a-z]+$"))
    extra = fields.Dict(keys=fields.String(validate=validate.Length(max=3)), values=fields.Raw())
    size = fields.Float()
    stamp = fields.DateTime(format="iso")

    @ma.validates_schema(pass_original=True)
    def no_b_with_inner(self, data, original, **kwargs):
        if data["kind"] == "b" and original.get("inner"):
            raise ma.ValidationError("b takes no inner")

    @ma.post_load
    def counted(self, data, **kwargs):
        return {**data, "keys": len(data)}


@pytest.mark.parametrize("body", [
    {"kind": "a"},
    {"kind": "a", "inner": None},
    {"kind": "a", "inner": {"count": 3, "Label": "x", "other": 1}},
    {"kind": "a", "loose": {"count": 8, "other": [1]}},
    {"kind": "b", "code": "abc", "extra": {"k": {"deep": [1]}}, "size": 1.5},
    {"kind": "a", "size": 2, "stamp": "2026-01-02T03:04:05"},
    {"kind": "a", "inner": {"flags": [True, False]}},
])
def test_features_are_loaded_as_marshmallow_loads_them(body):
    assert fast(Outer(), body) == Outer().load(body)


@pytest.mark.parametrize("body", [
    {}, {"kind": "c"}, {"kind": "a", "unknown": 1}, {"kind": "a", "inner": {"count": 9}},
    {"kind": "a", "inner": {"count": True}}, {"kind": "a", "inner": {"count": "3"}},
    {"kind": "a", "code": "ABC"}, {"kind": "a", "extra": {"long": 1}},
    {"kind": "b", "inner": {"count": 1}}, {"kind": "a", "stamp": "yesterday"},
    {"kind": "a", "inner": {"flags": ["maybe"]}}, {"kind": None}, [], "a",
    {"kind": "a", "loose": None}, {"kind": "a", "extra": None}, {"kind": "a", "size": None},
    {"kind": "a", "inner": {"flags": None}}, {"kind": "a", "inner": {"flags": [None]}},
])
def test_what_marshmallow_refuses_is_left_to_it(body):
    assert fast(Outer(), body) is None
    with pytest.raises(ma.ValidationError):
        Outer().load(body)


def test_what_it_is_unsure_of_is_left_to_marshmallow_even_when_valid():
    body = {"kind": "a", "inner": {"flags": [1, "yes"]}}  # marshmallow's Boolean takes these
    assert fast(Outer(), body) is None
    assert Outer().load(body)["inner"]["flags"] == [True, True]


def test_a_schema_with_hooks_it_does_not_follow_is_loaded_by_marshmallow_itself():
    class Trimmed(ma.Schema):
        name = fields.String()

        @ma.pre_load
        def trim(self, data, **kwargs):
            return {"name": data["name"].strip()}

    assert compile_loader(Trimmed())({"name": " Ann "}) == {"name": "Ann"}
