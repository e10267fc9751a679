"""Errors that are not about a field: routes, methods, bodies that cannot be read, body size.
Every one is application/problem+json and none is a 5xx (API.md "Errors")."""

import json

import pytest

from tests.api.problem import BOWLS, assert_problem, score_url

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


def test_json_is_read_whatever_the_content_type(client):
    data = json.dumps({"bowls": BOWLS, "players": [{"name": "Ann", "dropped": {"green": 1}}]})
    response = post_raw(client, "dig", data, content_type="text/plain")
    assert response.status_code == 200
    assert response.get_json()["players"][0]["total"] == 5


# --- the unexpected ------------------------------------------------------------------------------

def test_unexpected_exception_is_a_500_problem_that_tells_nothing_inside(app):
    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    app.config["TESTING"] = False  # let the error handler answer, as in production
    response = app.test_client().get("/boom")
    body = assert_problem(response, 500)
    assert "secret" not in response.get_data(as_text=True)
    assert "try again" in body["detail"]
