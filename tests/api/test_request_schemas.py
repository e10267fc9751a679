"""A request body the server refuses is one its document refuses too, wherever JSON Schema can say
why: a client that validates against the document (or a generator's types) finds the mistake
before sending it. Each case is refused by both; its fixed form is taken by both."""

import pytest

from tests.api.openapi import resolve, validator

pytestmark = pytest.mark.shared_app

DIG_BOWLS = ["green", "yellow", "purple", "blue", "red"]
SHEET = {"bowls": DIG_BOWLS, "players": [{"name": "Ann", "dropped": {"red": 1}}]}
# operation path → (refused body, the same body as the server takes it)
CASES = {
    "tally with a field of no tally": ("/api/v1/games/dig/tallies",
                                       {"sheet": None, "note": "x"}, {"sheet": None}),
    "no clock at all": ("/api/v1/games/dig/matches",
                        {"players": ["Ann", "Bob"], "clock": {}},
                        {"players": ["Ann", "Bob"], "clock": {"move_seconds": 60}}),
    "two clocks": ("/api/v1/games/dig/matches",
                   {"players": ["Ann", "Bob"], "clock": {"move_seconds": 60, "turn_days": 2}},
                   {"players": ["Ann", "Bob"], "clock": {"turn_days": 2}}),
    "an increment without a bank": ("/api/v1/games/dig/matches",
                                    {"players": ["Ann", "Bob"],
                                     "clock": {"move_seconds": 60, "increment_seconds": 5}},
                                    {"players": ["Ann", "Bob"],
                                     "clock": {"bank_seconds": 600, "increment_seconds": 5}}),
    "players and seats": ("/api/v1/games/dig/matches", {"players": ["Ann", "Bob"], "seats": 2},
                          {"seats": 2}),
    "neither players nor seats": ("/api/v1/games/dig/matches", {"variant": "standard"},
                                  {"variant": "standard", "players": ["Ann", "Bob"]}),
    "a bowl twice": ("/api/v1/games/dig/score", {**SHEET, "bowls": ["red"] * 5}, SHEET),
    "a mission of neither id nor bonus": (
        "/api/v1/games/dig-it-up/score", {"players": [{"name": "Ann", "mission": {}}]},
        {"players": [{"name": "Ann", "mission": {"bonus": 10, "achieved": True}}]}),
    "a mission of both": (
        "/api/v1/games/dig-it-up/score",
        {"players": [{"name": "Ann", "mission": {"id": "scholar", "bonus": 10}}]},
        {"players": [{"name": "Ann", "mission": {"id": "scholar", "achieved": False}}]}),
    "a printed bonus not said achieved or not": (
        "/api/v1/games/dig-it-up/score", {"players": [{"name": "Ann", "mission": {"bonus": 20}}]},
        {"players": [{"name": "Ann", "mission": {"bonus": 20, "achieved": True}}]}),
    # (a dinosaur of no box is refused by the server alone: the document takes any id a request's
    # own roster may give, which an if/then on `roster` could say but Redocly's examples refuse)
    "a dinosaur id no roster can give": (
        "/api/v1/games/digging-for-dinos/score",
        {"players": [{"name": "Ann", "tiles": {"Stegosaurus": [1]}}]},
        {"players": [{"name": "Ann", "tiles": {"stegosaurus": [1]}}]}),
    # a seed's text past its largest: "^[0-9]{1,39}$" took 2^128 (and 2^63 for a batch)
    "a seed's text past 2^128 - 1": ("/api/v1/games/dig/matches",
                                     {"players": ["Ann", "Bob"], "seed": str(2**128)},
                                     {"players": ["Ann", "Bob"], "seed": str(2**128 - 1)}),
    "a seed's text of 39 nines": ("/api/v1/games/dig/matches",
                                  {"players": ["Ann", "Bob"], "seed": "9" * 39},
                                  {"players": ["Ann", "Bob"], "seed": "0" + "9" * 38}),
    "a batch's seed text past 2^63 - 1": (
        "/api/v1/games/dig/simulations",
        {"players": [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}],
         "matches": 1, "seed": str(2**63)},
        {"players": [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}],
         "matches": 1, "seed": str(2**63 - 1)}),
    "a card used at once, kept": (
        "/api/v1/games/dig-it-up/score", {"players": [{"name": "Ann", "cards": {"thief": 1}}]},
        {"players": [{"name": "Ann", "tiles": {"scroll": 1},
                      "cards": {"thief": 0, "appraisal": 1}}]}),
}


@pytest.fixture(scope="module")
def document(shared_app):
    return shared_app.test_client().get("/api/openapi.json").get_json()


@pytest.mark.parametrize("case", CASES)
def test_a_body_the_server_refuses_the_document_refuses(client, document, case):
    path, refused, taken = CASES[case]
    body = resolve(document, document["paths"][path]["post"]["requestBody"])
    schema = validator(document, body["content"]["application/json"]["schema"])
    assert client.post(path, json=refused).status_code == 422
    assert list(schema.iter_errors(refused)) != [], f"the document takes {refused}"
    answer = client.post(path, json=taken)
    assert answer.status_code in (200, 201), answer.get_json()
    assert [e.message for e in schema.iter_errors(taken)] == []
