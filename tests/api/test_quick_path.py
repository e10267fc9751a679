"""The calculators' quick path answers every body byte for byte as marshmallow's path does: a body
read by orjson (api/bodies.py quick_json), loaded by the loader compiled from the schema
(api/fastload.py) and a result sent without ResultSchema's dump. Switched off, every body is read
by the json module, loaded and refused by marshmallow: the status, headers and body of each
answer must not change."""

import importlib
import json
import weakref

import marshmallow as ma
import orjson
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from api import bodies
from app import create_app
from scoring.games import GAMES
from scoring.results import InvalidScoresheet
from tests.api.problem import ANN, BOWLS, score_url
from tests.api.test_properties import JSON, SHEETS, mutated
from tests.fuzz import examples

CHECKS = settings(max_examples=examples(60), deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])
OWN = {game.id: importlib.import_module(f"api.schemas.{game.package}") for game in GAMES.values()}

# How clients write a body: JSON.stringify, json.dumps (requests), json.dumps(indent=2) (a person
# with curl), escaping all but ASCII, a key given twice, half of a UTF-16 pair, deep nesting.
STYLES = ["compact", "spaced", "indented", "ascii", "key twice", "lone surrogate", "nested"]
CONTENT_TYPES = ["application/json", "application/json", "application/json; charset=utf-8",
                 "application/problem+json", "text/plain", None]


def written(value, style: str) -> bytes:
    if style == "compact":
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    if style == "spaced":
        return json.dumps(value, ensure_ascii=False).encode()
    if style == "indented":
        return json.dumps(value, indent=2, ensure_ascii=False).encode()
    if style == "ascii":
        return json.dumps(value).encode()
    if style == "key twice" and isinstance(value, dict) and value:
        key, first = next(iter(value.items()))
        rest = json.dumps(value, ensure_ascii=False)[1:]
        return (f"{{{json.dumps(key)}: {json.dumps(first)}, " + rest).encode()
    if style == "lone surrogate":
        return json.dumps(value).replace('"', '"\\udc00', 1).encode()
    if style == "nested":
        return b"[" * 300 + written(value, "spaced") + b"]" * 300
    return written(value, "spaced")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    database = tmp_path_factory.mktemp("quick") / "digsite.db"
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{database}"}).test_client()


def answer(client, game: str, data: bytes, content_type: str | None) -> tuple:
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post(score_url(game), data=data, headers=headers)
    # Every header but the request's own id (api/requests.py), new for each request.
    headers = sorted((k, v) for k, v in response.headers.items() if k != "X-Request-Id")
    return response.status_code, headers, response.get_data()


def marshmallow_answer(client, game: str, data: bytes, content_type: str | None) -> tuple:
    """The answer with no quick path: the json module reads, marshmallow loads every body."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bodies, "quick_json", lambda data: ma.missing)
        patch.setattr(bodies, "_LOADERS", weakref.WeakKeyDictionary())
        return answer(client, game, data, content_type)


def json_module(data: bytes):
    """What the json module's reading makes of `data` (None where it refuses it)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bodies, "quick_json", lambda data: ma.missing)
        try:
            return bodies.read_json(data)
        except Exception:  # noqa: BLE001  (a 400 abort)
            return None


# --- reading -------------------------------------------------------------------------------------

@given(value=JSON, style=st.sampled_from(STYLES))
@CHECKS
def test_orjson_reads_a_body_as_the_json_module_does_or_leaves_it(value, style):
    data = written(value, style)
    quick = bodies.quick_json(data)
    if quick is not ma.missing:
        assert quick == json_module(data)
        assert orjson.dumps(quick) == orjson.dumps(json_module(data))  # 1.0 stays 1.0, not 1


@pytest.mark.parametrize("game", list(SHEETS))
def test_scoresheets_as_browsers_and_python_write_them_take_the_quick_path(game):
    @CHECKS
    @given(sheet=SHEETS[game], style=st.sampled_from(["compact", "spaced"]))
    def check(sheet, style):
        # json.dumps' spaces are taken out to compare, so a name holding ", " or ": " sends the
        # body the json module's way (the other strings are ids and colours)
        names = [player["name"] for player in sheet["players"]]
        assume(style == "compact" or not any(", " in name or ": " in name for name in names))
        assert bodies.quick_json(written(sheet, style)) == sheet
    check()


@pytest.mark.parametrize(("data", "why"), [
    (b'{"players": [], "players": [{"name": "Ann"}]}', "a key twice"),
    (b'{"a": {"b": 1, "b": 1}}', "a key twice, the same value"),
    (b'{"players": [{"name": "\\ud800"}]}', "half of a pair"),
    (b'{"name": "\\u00c9mile"}', "an escape"),
    (b'{"tokens": 18446744073709551616}', "an integer orjson reads as a float"),
    (b'{"tokens": 1E2}', "a number orjson writes otherwise"),
    (b'{"tokens": NaN}', "not JSON"),
    (b"[" * 257 + b"]" * 257, "nested deeper than the json module surely reads"),
    (b'{\n  "players": []\n}', "written with other spaces"),
    (b'{"players": [{"name": "Ann, Bob"}], "players": [{"name": "Ann,Bob"}]}',
     "a key twice, among spaces the check takes out"),
])
def test_what_orjson_might_read_otherwise_is_left_to_the_json_module(data, why):
    assert bodies.quick_json(data) is ma.missing, why


def test_a_number_with_a_fraction_is_read_by_the_json_module_whole_ones_as_integers():
    """JSON Schema's integer takes 1.0: read as 1, by the json module alone (orjson keeps it a
    float), so the compiled loader and marshmallow are given the same whole number."""
    data = b'{"a":1.0,"b":2e3,"c":-7.000,"d":1.5,"e":1.0000000000000000001,"f":[30e-1],"g":"1.5"}'
    assert bodies.quick_json(data) is ma.missing
    read = bodies.read_json(data)
    assert read == {"a": 1, "b": 2000, "c": -7, "d": 1.5, "e": 1.0, "f": [3], "g": "1.5"}
    assert [type(read[key]) for key in "abcde"] == [int, int, int, float, float]
    # a text that merely looks like such a number keeps the quick path
    name = {"bowls": BOWLS, "players": [{**ANN, "name": "Team 1e, table 2.0"}]}
    assert bodies.quick_json(written(name, "compact")) == name


@pytest.mark.parametrize(("style", "name"), [("compact", "Bob, the dog: 2nd \"Rex\" ☃"),
                                           ("spaced", "Bob,the dog:2nd \"Rex\" ☃")])
def test_a_scoresheet_as_the_page_or_requests_writes_it_takes_the_quick_path(style, name):
    sheet = {"bowls": BOWLS, "players": [ANN, {**ANN, "name": name}]}
    assert bodies.quick_json(written(sheet, style)) == sheet


# --- whole answers -------------------------------------------------------------------------------

@pytest.mark.parametrize("game", list(SHEETS))
def test_every_answer_is_the_marshmallow_path_answer_byte_for_byte(client, game):
    @CHECKS
    @given(body=st.one_of(SHEETS[game], mutated(SHEETS[game]), JSON),
           style=st.sampled_from(STYLES), content_type=st.sampled_from(CONTENT_TYPES))
    def check(body, style, content_type):
        data = written(body, style)
        assert (answer(client, game, data, content_type)
                == marshmallow_answer(client, game, data, content_type))
    check()


@pytest.mark.parametrize("game", list(SHEETS))
def test_valid_scoresheets_are_answered_alike_and_scored(client, game):
    @CHECKS
    @given(sheet=SHEETS[game], style=st.sampled_from(["compact", "spaced"]))
    def check(sheet, style):
        data = written(sheet, style)
        quick = answer(client, game, data, "application/json")
        assert quick == marshmallow_answer(client, game, data, "application/json")
        assert quick[0] in (200, 422)  # 422: a table the box allows but the names do not
    check()


# --- the result is sent without ResultSchema's dump ----------------------------------------------

def dumped_alike(game_id: str, sheet: dict) -> None:
    own, game = OWN[game_id], GAMES[game_id]
    try:
        result = game.score(own.ScoreRequestSchema().load(sheet))
    except (ma.ValidationError, InvalidScoresheet):
        return
    # Every field of the answer is the schema's, of the schema's type: the dump changes nothing.
    assert orjson.loads(orjson.dumps(result)) == own.ResultSchema().dump(result)


@pytest.mark.parametrize("game", list(OWN))
def test_the_rulebook_examples_are_sent_as_result_schema_dumps_them(game):
    for example in OWN[game].EXAMPLES.values():
        dumped_alike(game, example["value"])


@pytest.mark.parametrize("game", list(SHEETS))
def test_every_result_is_sent_as_result_schema_dumps_it(game):
    @CHECKS
    @given(sheet=SHEETS[game])
    def check(sheet):
        dumped_alike(game, sheet)
    check()
