"""Errors that are not about a field: routes, methods, bodies that cannot be read, body size.
Every one is application/problem+json and none is a 5xx (API.md "Errors")."""

import gzip
import http.client
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.errors import problem
from service.errors import INVALID_BODY
from tests.api.problem import BOWLS, assert_problem, score_url
from tests.conftest import new_app

pytestmark = pytest.mark.shared_app  # each test is refused, scored or only reads

ROOT = Path(__file__).resolve().parents[2]

GAMES = ["dig-it-up", "dig", "digging-for-dinos"]
LIMIT = 64 * 1024


def post_raw(client, game: str, data: bytes | str, content_type: str = "application/json"):
    return client.post(score_url(game), data=data, content_type=content_type)


# --- routes and methods --------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/nope", "/api/v1", "/api/v1/nope", "/api/v1/games/dig/scores",
                                  "/api/v2/games"])
def test_unknown_route_is_404(client, path):
    assert_problem(client.get(path), 404)


@pytest.mark.parametrize(("method", "path"), [("get", "/api/v1/games/chess"),
                                              ("post", "/api/v1/games/chess/score"),
                                              ("get", "/api/v1/games/Dig")])
def test_unknown_game_is_404_and_named(client, method, path):
    game = path.split("/")[4]
    body = assert_problem(getattr(client, method)(path, json={}), 404)
    assert f"'{game}'" in body["detail"]
    assert "dig-it-up" in body["detail"]  # and the games there are


@pytest.mark.parametrize(("method", "path", "allowed"), [
    ("get", score_url("dig"), "POST"),
    ("delete", score_url("dig-it-up"), "POST"),
    ("put", score_url("digging-for-dinos"), "POST"),
    ("post", "/api/v1/games", "GET"),
    ("post", "/api/v1/games/dig", "GET"),
    ("delete", "/healthz", "GET"),
])
def test_wrong_method_is_405_with_allow(client, method, path, allowed):
    response = getattr(client, method)(path)
    assert_problem(response, 405)
    assert allowed in response.headers["Allow"]


# --- bodies that cannot be read ------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("data", [
    "{",
    '{"players": [}',
    "{'players': []}",
    '{"players": [],}',
    '{"players": [{"name": "Ann"}]} trailing',
    "players=Ann",
])
def test_malformed_json_is_400(client, game, data):
    body = assert_problem(post_raw(client, game, data), 400)
    assert "JSON" in body["detail"]


def test_body_that_is_not_utf8_is_400(client):
    assert_problem(post_raw(client, "dig", b'{"players": [{"name": "\xff"}]}'), 400)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("open_", "close"), [("[", "]"), ('{"a":', "}")])
def test_deeply_nested_json_is_400(client, game, open_, close):
    depth = 10_000  # inside 64 KiB, far beyond any scoresheet
    data = open_ * depth + "1" * (open_ != "[") + close * depth
    assert len(data) < LIMIT
    body = assert_problem(post_raw(client, game, data), 400)
    assert "nested" in body["detail"]


def test_nesting_that_json_can_read_is_refused_as_the_wrong_type(client):
    data = '{"players": [{"name": "Ann", "tokens": ' + "[" * 500 + "]" * 500 + "}]}"
    assert_problem(post_raw(client, "dig-it-up", data), 422, "players.0.tokens")


@pytest.mark.parametrize("game", GAMES)
def test_a_5000_digit_number_is_400(client, game):
    data = '{"players": [{"name": "Ann", "tokens": ' + "7" * 5000 + "}]}"
    body = assert_problem(post_raw(client, game, data), 400)
    assert "number" in body["detail"]


def test_a_5000_digit_negative_number_is_400(client):
    data = '{"players": [{"name": "Ann", "tokens": -' + "1" * 5000 + "}]}"
    assert_problem(post_raw(client, "dig-it-up", data), 400)


def test_huge_exponent_is_refused_as_not_a_count(client):
    # 1e999 reads as infinity: well-formed JSON, not a whole number.
    data = '{"players": [{"name": "Ann", "tokens": 1e999}]}'
    assert_problem(post_raw(client, "dig-it-up", data), 422, "players.0.tokens")


def padded(body: dict, size: int) -> str:
    """`body` as JSON, padded with spaces to exactly `size` bytes."""
    text = json.dumps(body)
    return text + " " * (size - len(text.encode()))


@pytest.mark.parametrize("game", GAMES)
def test_body_over_64_kib_is_413(client, game):
    body = assert_problem(post_raw(client, game, padded({"players": []}, LIMIT + 1)), 413)
    assert "64 KiB" in body["detail"]


def test_body_of_exactly_64_kib_is_read(client):
    data = padded({"bowls": BOWLS, "players": [{"name": "Ann", "dropped": {"red": 1}}]}, LIMIT)
    response = post_raw(client, "dig", data)
    assert response.status_code == 200
    assert response.get_json()["players"][0]["total"] == 1


def test_large_body_of_real_json_is_413_too(client):
    names = [{"name": f"{i:040d}"} for i in range(2000)]
    assert_problem(client.post(score_url("dig"), json={"bowls": BOWLS, "players": names}), 413)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("data", ["[]", "null", '"players"', "42", "true"])
def test_json_that_is_not_an_object_is_422(client, game, data):
    assert_problem(post_raw(client, game, data), 422, "body")


@pytest.mark.parametrize("game", GAMES)
def test_empty_body_asks_for_the_players(client, game):
    assert_problem(post_raw(client, game, ""), 422, "players")


# --- what a body must say it is ------------------------------------------------------------------

ANN_SHEET = {"bowls": BOWLS, "players": [{"name": "Ann", "dropped": {"green": 1}}]}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("content_type", [
    "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x", "application/xml", "application/jsonp", "text/json", "",
])
def test_a_body_without_a_json_content_type_is_415(client, game, content_type):
    # A cross-site form can send text/plain without asking first: such a body is never read.
    body = assert_problem(post_raw(client, game, json.dumps(ANN_SHEET), content_type), 415)
    assert "application/json" in body["detail"]


@pytest.mark.parametrize("content_type", [
    "application/json", "application/json; charset=utf-8", "Application/JSON",
    "application/vnd.digsite+json", "application/problem+json",
])
def test_json_content_types_are_read(client, content_type):
    response = post_raw(client, "dig", json.dumps(ANN_SHEET), content_type)
    assert response.status_code == 200
    assert response.get_json()["players"][0]["total"] == 5


def test_a_byte_order_mark_before_the_json_is_passed_over(client):
    response = client.post(score_url("dig"), data=b"\xef\xbb\xbf" + json.dumps(ANN_SHEET).encode(),
                           content_type="application/json")
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["players"][0]["total"] == 5
    # an Idempotency-Key's request is the same request written again behind one too
    sent = {"players": ["Ann", "Bob"], "seed": 3}
    url, key = "/api/v1/games/dig/matches", {"Idempotency-Key": "bom-0123456789abcdef"}
    first = client.post(url, data=b"\xef\xbb\xbf" + json.dumps(sent).encode(),
                        content_type="application/json", headers=key)
    again = client.post(url, data=json.dumps(sent, indent=2).encode(),
                        content_type="application/json", headers=key)
    assert first.status_code == again.status_code == 201, again.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "br", "GZIP "])
@pytest.mark.parametrize("gzipped", [True, False])
def test_a_body_with_a_content_encoding_is_415_whatever_it_holds(client, encoding, gzipped):
    # Plain JSON under "Content-Encoding: gzip" was scored as if the header were not there, and a
    # body really gzipped was "The request could not be read."
    data = json.dumps(ANN_SHEET).encode()
    response = client.post(score_url("dig"), data=gzip.compress(data) if gzipped else data,
                           content_type="application/json",
                           headers={"Content-Encoding": encoding})
    body = assert_problem(response, 415)
    assert "without Content-Encoding" in body["detail"]
    assert response.headers["Accept-Encoding"] == "identity"


def test_an_identity_encoding_is_the_body_as_it_is(client):
    response = client.post(score_url("dig"), data=json.dumps(ANN_SHEET),
                           content_type="application/json",
                           headers={"Content-Encoding": "identity"})
    assert response.status_code == 200


def test_no_body_is_asked_for_its_players_whatever_the_content_type(client):
    assert_problem(post_raw(client, "dig", "", "text/plain"), 422, "players")


# --- JSON that means one thing -------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("data", "key"), [
    ('{"players": [], "players": [{"name": "Ann"}]}', "players"),
    ('{"players": [{"name": "Ann", "name": "Bob"}]}', "name"),
    ('{"players": [{"name": "Ann", "tiles": {"a": 1, "b": 2, "a": 3}}]}', "a"),
])
def test_a_key_given_twice_in_one_object_is_400_and_named(client, game, data, key):
    body = assert_problem(post_raw(client, game, data), 400)
    assert f'"{key}" appears twice' in body["detail"]


def test_the_same_key_in_different_objects_is_fine(client):
    data = json.dumps({"bowls": BOWLS, "players": [{"name": "Ann", "dropped": {"red": 1}},
                                                   {"name": "Bob", "dropped": {"red": 2}}]})
    assert post_raw(client, "dig", data).status_code == 200


def test_a_key_given_twice_is_named_in_plain_text_however_odd(client):
    data = '{"players": [], "\\ud800' + "x" * 100 + '": 1, "\\ud800' + "x" * 100 + '": 2}'
    body = assert_problem(post_raw(client, "dig", data), 400)
    assert "appears twice" in body["detail"] and len(body["detail"]) < 200


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_no_json_and_400(client, game, constant):
    """Python's json module reads them, RFC 8259 has no such number: refused as malformed
    JSON is, naming what was sent."""
    data = '{"players": [{"name": "Ann", "tokens": ' + constant + "}]}"
    body = assert_problem(post_raw(client, game, data), 400, kind="malformed-request")
    assert constant in body["detail"] and "JSON" in body["detail"]


def test_nan_in_a_text_is_only_text(client):
    data = json.dumps({"bowls": BOWLS, "players": [{"name": "NaN Infinity"}]})
    assert post_raw(client, "dig", data).status_code == 200


# Half of a UTF-16 pair cannot be written back in a message or a name: refused as it is read.
LONE = "\ud800"
SURROGATE_BODIES = {
    "dig-it-up": [
        {"players": [{"name": LONE}]},
        {"players": [{"name": "Ann" + LONE}]},
        {"players": [{"name": "Ann"}], LONE: 1},
        {"players": [{"name": "Ann", "tiles": {LONE + "gold": 1}}]},
        {"players": [{"name": "Ann", "mission": {"id": LONE, "achieved": True}}]},
        {"variant": LONE, "players": [{"name": "Ann"}]},
    ],
    "dig": [
        {"bowls": BOWLS, "players": [{"name": "\udfff"}]},
        {"bowls": [*BOWLS[:4], LONE], "players": [{"name": "Ann"}]},
        {"bowls": BOWLS, "players": [{"name": "Ann", "dropped": {LONE: 1}}]},
        {"bowls": BOWLS, "players": [{"name": "Ann", LONE: 1}]},
    ],
    "digging-for-dinos": [
        {"players": [{"name": LONE}]},
        {"players": [{"name": "Ann", "tiles": {LONE: [1]}}]},
        {"roster": [{"id": "rex", "name": LONE, "values": [1], "set_value": 2}],
         "players": [{"name": "Ann"}]},
        {"players": [{"name": "Ann"}], "roster": LONE},
    ],
}


@pytest.mark.parametrize(("game", "body"), [(game, body) for game, bodies in
                                            SURROGATE_BODIES.items() for body in bodies])
def test_a_lone_surrogate_anywhere_is_400_never_a_500(client, game, body):
    data = json.dumps(body)  # ensure_ascii: the surrogate travels as its \u escape
    assert "\\ud800" in data or "\\udfff" in data
    detail = assert_problem(post_raw(client, game, data), 400)["detail"]
    assert "half of a character" in detail


def test_a_surrogate_pair_is_one_character_and_welcome(client):
    data = json.dumps({"bowls": BOWLS, "players": [{"name": "Ann \U0001F9B4"}]})
    assert "\\ud83e\\uddb4" in data
    response = post_raw(client, "dig", data)
    assert response.status_code == 200
    assert response.get_json()["players"][0]["name"] == "Ann \U0001F9B4"


# --- bodies sent without a length ----------------------------------------------------------------

def chunked(client, data: bytes):
    """`data` as a server hands on a chunked body: a stream with no Content-Length."""
    return client.post(score_url("dig"), input_stream=io.BytesIO(data),
                       content_type="application/json",
                       environ_overrides={"wsgi.input_terminated": True})


def test_a_chunked_body_over_64_kib_is_413_not_cut_and_scored(client):
    data = padded({"bowls": BOWLS, "players": [{"name": "Ann", "dropped": {"red": 1}}]},
                  LIMIT + 1).encode()
    assert_problem(chunked(client, data), 413)


def test_a_chunked_body_of_exactly_64_kib_is_read(client):
    data = padded({"bowls": BOWLS, "players": [{"name": "Ann", "dropped": {"red": 1}}]},
                  LIMIT).encode()
    response = chunked(client, data)
    assert response.status_code == 200
    assert response.get_json()["players"][0]["total"] == 1


def send_chunked(url: str, data: bytes) -> tuple[int, dict]:
    """POST `data` to the real server with Transfer-Encoding: chunked, 4 KiB a chunk."""
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    chunks = (data[i:i + 4096] for i in range(0, len(data), 4096))
    connection.request("POST", score_url("dig"), body=chunks, encode_chunked=True,
                       headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    body = json.loads(response.read())
    connection.close()
    return response.status, body


def test_the_served_app_refuses_a_chunked_body_over_64_kib(live_server):
    sheet = {"bowls": BOWLS, "players": [{"name": "Ann", "dropped": {"red": 1}}]}
    status, body = send_chunked(live_server.url, padded(sheet, 2 * LIMIT).encode())
    assert status == 413 and body["status"] == 413
    status, body = send_chunked(live_server.url, padded(sheet, LIMIT).encode())
    assert status == 200 and body["players"][0]["total"] == 1


# --- the unexpected ------------------------------------------------------------------------------

def test_a_lone_surrogate_in_a_message_is_written_as_its_escape_not_a_500(app):
    with app.test_request_context():
        response = problem(INVALID_BODY, "Two players are named '\ud800'.", {"players": ["\udfff"]})
    body = json.loads(response.get_data())
    assert body["detail"] == "Two players are named '\ud800'."
    assert body["errors"] == {"players": ["\udfff"]}


def test_unexpected_exception_is_a_500_problem_that_tells_nothing_inside(tmp_path):
    app = new_app(tmp_path / "digsite.db")  # an app of its own: a route is added to it

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    app.config["TESTING"] = False  # let the error handler answer, as in production
    response = app.test_client().get("/boom")
    body = assert_problem(response, 500)
    assert "secret" not in response.get_data(as_text=True)
    assert "try again" in body["detail"]


UNKNOWN_FIELDS_SCRIPT = """
import json
from app import create_app
client = create_app({"TESTING": True, "DATABASE_URL": "sqlite://"}).test_client()
body = {"zeta": 1, "bowls": ["red"], "alpha": 2, "mid": 3,
        "players": [{"name": "Ann", "dropped": {"pink": 1, "red": 9, "aqua": 2}, "q": 1, "b": 2}]}
print(json.dumps(client.post("/api/v1/games/dig/score", json=body).get_json()))
"""


def test_unknown_fields_are_listed_in_the_bodys_order_whatever_the_processs_hash_seed():
    """Two workers (two hash seeds) word one error alike: marshmallow finds unknown fields as
    a set, whose order depends on the seed."""
    runs = [subprocess.Popen([sys.executable, "-c", UNKNOWN_FIELDS_SCRIPT], text=True,
                             stdout=subprocess.PIPE, cwd=ROOT,
                             env={**os.environ, "PYTHONHASHSEED": seed})
            for seed in ("1", "2", "3", "4", "5")]  # side by side: each starts the app
    answers = {run.communicate(timeout=120)[0] for run in runs}
    assert [run.returncode for run in runs] == [0] * 5
    assert len(answers) == 1
    errors = list(json.loads(answers.pop())["errors"])
    assert errors == ["bowls", "players.0.dropped.red", "players.0.dropped.pink",
                      "players.0.dropped.aqua", "players.0.q", "players.0.b", "zeta", "alpha",
                      "mid"]


def test_every_401_names_the_scheme_a_token_is_sent_in(client):
    """RFC 9110 15.5.2: a 401 carries WWW-Authenticate; none did. The document says so too."""
    created = client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"]})
    match = created.get_json()["id"]
    refused = [client.post(f"/api/v1/matches/{match}/actions",
                           json={"action": {"type": "end_turn"}, "version": 1}),
               client.get(f"/api/v1/matches/{match}", headers={"Authorization": "Bearer nope"}),
               client.delete(f"/api/v1/matches/{match}")]
    for response in refused:
        assert response.status_code == 401, response.get_json()
        assert response.headers["WWW-Authenticate"].startswith("Bearer ")
    document = client.get("/api/openapi.json").get_json()
    assert "WWW-Authenticate" in document["components"]["responses"]["UNAUTHORIZED"]["headers"]


@pytest.mark.parametrize("path", ["/healthz", "/api/v1/games", "/api/v1/matches/x/events"])
def test_a_websocket_handshake_is_told_to_follow_the_event_stream(client, path):
    # It was a bare "The request could not be read."
    response = client.get(path, headers={"Connection": "Upgrade", "Upgrade": "websocket",
                                         "Sec-WebSocket-Version": "13",
                                         "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
    body = assert_problem(response, 400)
    assert "does not speak WebSocket" in body["detail"] and "/events" in body["detail"]
