"""The catalogue says each variant's own range of players, not only the game's: Dig It Up takes
2–5 players, its standard game 4–5."""

import pytest

from scoring.games import GAMES
from tests.api.openapi import assert_documented, resolve, response_object, validator


@pytest.fixture
def document(client):
    return client.get("/api/openapi.json").get_json()


@pytest.mark.parametrize("path", ["/api/v1/games", *(f"/api/v1/games/{g}" for g in GAMES)])
def test_each_variant_s_players_are_those_a_match_can_be_set_up_with(client, document, path):
    answer = client.get(path)
    assert_documented(document, path, "get", answer)
    body = answer.get_json()
    for entry in body.get("games", [body]):
        game = GAMES[entry["id"]]
        assert set(entry["variant_players"]) == set(entry["variants"])
        for variant, players in entry["variant_players"].items():
            seated = [n for v, n in game.tables() if v == variant]
            assert (players["min"], players["max"]) == (min(seated), max(seated))
    if path.endswith("dig-it-up"):
        assert body["variant_players"]["standard"] | {"name": None} == {
            "min": 4, "max": 5, "name": None}


@pytest.mark.parametrize("game", GAMES)
def test_each_game_s_documented_example_is_what_its_entry_answers(client, document, game):
    """GET /games/{game}'s answer (<Game>Game) shows that game's own id, name, players,
    variants and bots as its example, not the first game's."""
    path = f"/api/v1/games/{game}"
    documented = response_object(document, path, "get", 200)["content"]["application/json"][
        "schema"]
    schema = resolve(document, documented)
    answer = client.get(path).get_json()
    examples = {name: field["example"] for name, field in schema["properties"].items()
                if "example" in field}
    assert {"id", "name", "players", "variants", "variant_players", "bots"} <= set(examples)
    assert examples == {name: answer[name] for name in examples}
    # and the whole example, the example fields in the answer's place, is a valid answer
    errors = list(validator(document, documented).iter_errors({**answer, **examples}))
    assert not errors, errors[:3]
