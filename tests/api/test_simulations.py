"""POST /api/v1/games/{game}/simulations (API.md "Bots"): a batch of matches between bots within
the request, answered with its statistics as documented; a batch above the server's work limit
is refused with 422 naming the limit."""

import pytest

from app import create_app
from scoring.games import GAMES
from tests.api.openapi import assert_documented

URL = "/api/v1/games/{}/simulations"


def seats(*bots):
    return [{"name": f"{bot.title()} {i + 1}", "bot": bot} for i, bot in enumerate(bots)]


@pytest.fixture
def document(client):
    return client.get("/api/openapi.json").get_json()


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_a_batch_answers_its_statistics_as_documented(client, document, game):
    variant, n = next((v, n) for v, n in game.tables() if n == 2) if game.players[0] == 2 \
        else game.tables()[0]
    body = {"matches": 3, "players": seats("greedy", *["random"] * (n - 1)),
            "variant": variant, "seed": 5}
    response = client.post(URL.format(game.id), json=body)
    assert response.status_code == 200, response.get_json()
    assert_documented(document, URL.format(game.id), "post", response)
    answer = response.get_json()
    assert (answer["matches"], answer["variant"], answer["seed"]) == (3, variant, 5)
    assert [(s["name"], s["bot"]) for s in answer["seats"]] == \
        [(p["name"], p["bot"]) for p in body["players"]]
    assert sum(s["wins"] for s in answer["seats"]) <= 3
    assert answer["figures"]
    # The same seed plays the same matches.
    assert client.post(URL.format(game.id), json=body).get_json() == answer


def test_without_a_seed_the_server_draws_one_and_says_which(client):
    body = {"matches": 1, "players": seats("random", "random")}
    first = client.post(URL.format("dig"), json=body).get_json()
    again = client.post(URL.format("dig"), json={**body, "seed": first["seed"]}).get_json()
    assert again == first


def test_a_batch_above_the_limit_is_refused_naming_the_limit(client, document):
    response = client.post(URL.format("dig"), json={"matches": 4,
                                                    "players": seats("mcts", "greedy")})
    assert response.status_code == 422
    assert_documented(document, URL.format("dig"), "post", response)
    problem = response.get_json()
    assert "400 seat-matches" in problem["detail"] and "this one is 404" in problem["detail"]
    # more goes to a study, an HTTP client's next step (the `simulate` command is a shell's)
    assert "POST /api/v1/games/dig/studies" in problem["detail"] and problem["errors"]["matches"]
    assert "fewer search bots" in problem["detail"]


def test_a_batch_above_the_limit_without_a_search_bot_is_not_told_to_seat_fewer(client):
    response = client.post(URL.format("dig"), json={"matches": 201,
                                                    "players": seats("random", "random")})
    assert response.status_code == 422
    detail = response.get_json()["detail"]
    assert "search bot" not in detail.split(";")[-1] and "Play fewer matches" in detail


def test_the_limit_is_the_servers_to_set(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'd.db'}",
                      "DIGSITE_SIMULATION_LIMIT": 1000})
    response = app.test_client().post(URL.format("dig"), json={  # 404: over the default 400
        "matches": 4, "players": seats("mcts", "random")})
    assert response.status_code == 200
    assert response.get_json()["seats"][0]["bot"] == "mcts"


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"matches": 1, "players": [{"name": "Ann", "bot": "oracle"}, {"name": "B", "bot": "random"}]},
     "players.0.bot", "Choose one of: random, greedy, mcts."),
    ({"matches": 1, "players": ["Ann", "Bob"]}, "players.0", None),
    ({"matches": 0, "players": seats("random", "random")}, "matches", "from 1 to"),
    ({"matches": 1, "players": seats("random")}, "players", "Enter from 2 to 4 players."),
    ({"matches": 1, "players": [{"name": "Ann", "bot": "random"},
                                {"name": "Ann", "bot": "greedy"}]}, "players", "names must"),
])
def test_a_wrong_batch_says_which_field(client, body, field, message):
    response = client.post(URL.format("dig"), json=body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert field in errors
    if message:
        assert any(message in m for m in errors[field])


def test_a_table_the_variant_does_not_seat_is_refused(client):
    response = client.post(URL.format("dig-it-up"), json={
        "matches": 1, "players": seats("random", "random"), "variant": "standard"})
    assert response.status_code == 422
    assert "is for 4 to 5 players, not 2" in response.get_json()["detail"]


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_the_documented_example_seats_a_table_the_game_plays(client, document, game):
    """What the docs page's "Try it out" sends as it stands: Dig It Up's two seats, at the
    default variant's four or five, were refused."""
    schema = document["components"]["schemas"][f"{game.prefix}SimulationRequest"]
    players = schema["properties"]["players"]["example"]
    response = client.post(URL.format(game.id), json={"matches": 2, "players": players})
    assert response.status_code == 200, response.get_json()
