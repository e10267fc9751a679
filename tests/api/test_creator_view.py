"""The creator's own view in the creation answer: `"you": <seat>` names the creator's seat among
`players` (a person's), and the answer's `view` is that seat's, as its token would GET it; left
out, the answer's view stays the spectator's. A seat that is open, a bot's, or not at the table
is refused (422) and nothing is opened."""

import pytest

from api.match_examples import example_table
from scoring.games import GAMES
from tests.api.openapi import assert_documented


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def comparable(view):
    """A view less when each seat was last seen, which a GET itself updates."""
    return {**view, "players": [{k: v for k, v in p.items() if k not in ("last_seen", "connected")}
                                for p in view["players"]]}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_creation_answer_holds_the_named_seat_s_view(client, game_id):
    document = client.get("/api/openapi.json").get_json()
    path = f"/api/v1/games/{game_id}/matches"
    variant, seats = example_table(GAMES[game_id])
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:seats]
    for you in range(seats):
        created = client.post(path, json={"players": names, "variant": variant, "seed": 7,
                                          "you": you})
        assert created.status_code == 201, created.json
        assert_documented(document, path, "post", created)
        view = created.json["view"]
        assert view["you"] == you
        token = created.json["seats"][you]["token"]
        looked = client.get(f"/api/v1/matches/{created.json['id']}", headers=bearer(token)).json
        assert comparable(view) == comparable(looked)
        if you in view["to_act"]:
            assert view["legal_actions"]
        spectator = client.get(f"/api/v1/matches/{created.json['id']}").json
        assert spectator["you"] is None
        if view["legal_actions"]:
            assert spectator["legal_actions"] == []


def test_without_you_the_answer_is_the_spectator_s_view(client):
    created = client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"],
                                                             "seed": 7})
    assert created.status_code == 201
    assert created.json["view"]["you"] is None and created.json["view"]["legal_actions"] == []
    assert "hand" not in created.json["view"]["state"]


def test_a_seat_after_the_bots_sees_the_match_as_the_bots_left_it(client):
    created = client.post("/api/v1/games/dig/matches", json={
        "players": [{"name": "Robo", "bot": "greedy"}, {"name": "Ann"}], "seed": 2, "you": 1})
    assert created.status_code == 201, created.json
    view = created.json["view"]
    assert view["you"] == 1 and view["to_act"] == [1] and view["legal_actions"]
    assert view["version"] == created.json["version"] > 1  # the bot's turn is in it
    assert "hand" in view["state"]  # a seat sees its own hand; a spectator does not
    assert [seat["seat"] for seat in created.json["seats"]] == [1]


@pytest.mark.parametrize(("body", "why"), [
    ({"players": ["Ann", {"open": True}], "you": 1}, "an open seat"),
    ({"players": ["Ann", {"name": "Robo", "bot": "random"}], "you": 1}, "a bot's seat"),
    ({"players": ["Ann", "Bob"], "you": 2}, "no such seat"),
    ({"seats": 2, "you": 0}, "every seat open"),
    ({"players": ["Ann", "Bob"], "you": -1}, "not a seat number"),
    ({"players": ["Ann", "Bob"], "you": "0"}, "not a number"),
    ({"players": ["Ann", "Bob"], "you": None}, "null"),
])
def test_you_must_be_a_person_s_seat_named_at_creation(client, body, why):
    before = client.get("/api/v1/games/dig/matches?status=waiting").json["matches"]
    refused = client.post("/api/v1/games/dig/matches", json={**body, "listed": True})
    assert refused.status_code == 422, why
    assert list(refused.json["errors"]) == ["you"], (why, refused.json)
    assert client.get("/api/v1/games/dig/matches?status=waiting").json["matches"] == before
