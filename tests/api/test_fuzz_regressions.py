"""Odd input the match operations' fuzzing sends (tests/api/test_schemathesis.py), pinned down:
numbers past any database column are a 422, never a 500, and what a JSON body or a match under
earlier rules is answered is documented for each match operation."""

import json

import pytest
import sqlalchemy as sa

from tests.api.openapi import assert_documented

ODD_NUMBERS = [2**31, 2**63, 2**64 + 1, -(2**63) - 1, 10**30]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client, players: list) -> dict:
    response = client.post("/api/v1/games/digging-for-dinos/matches",
                           json={"players": players, "seed": 5})
    assert response.status_code == 201, response.json
    return response.json


@pytest.fixture
def document(client):
    return client.get("/api/openapi.json").json


def assert_listed(document, path: str, method: str, response) -> None:
    """The answer is one the operation lists by its status (not only as its `default`)."""
    assert str(response.status_code) in document["paths"][path][method]["responses"]
    assert_documented(document, path, method, response)


@pytest.mark.parametrize("number", ODD_NUMBERS)
def test_numbers_past_any_column_are_refused_plainly(client, document, number):
    playing = create(client, ["Ann", "Bob"])
    lobby = create(client, ["Ann", {"open": True}])
    token = playing["seats"][0]["token"]
    actions = f"/api/v1/matches/{playing['id']}/actions"
    requests = [
        ("/api/v1/matches/{match_id}/events", "get",
         client.get(f"/api/v1/matches/{playing['id']}/events?after={number}")),
        ("/api/v1/matches/{match_id}/log", "get",
         client.get(f"/api/v1/matches/{playing['id']}/log?after={number}")),
        ("/api/v1/matches/{match_id}/log", "get",
         client.get(f"/api/v1/matches/{playing['id']}/log?limit={number}")),
        ("/api/v1/matches/{match_id}/actions", "post",
         client.post(actions, headers=auth(token),
                     json={"action": {"type": "end_turn"}, "version": number})),
        ("/api/v1/matches/{match_id}/actions", "post",
         client.post(actions, headers=auth(token),
                     json={"action": {"type": "end_turn"}, "version": 1, "seat": number})),
        ("/api/v1/matches/{match_id}/join", "post",
         client.post(f"/api/v1/matches/{lobby['id']}/join", json={"name": "Cy", "seat": number})),
    ]
    if not 0 <= number < 2**128:  # a match's seed has up to 128 bits
        requests.append(("/api/v1/games/digging-for-dinos/matches", "post",
                         client.post("/api/v1/games/digging-for-dinos/matches",
                                     json={"players": ["Ann", "Bob"], "seed": number})))
    for path, method, response in requests:
        assert response.status_code == 422, (path, response.status_code, response.json)
        assert_listed(document, path, method, response)


@pytest.mark.parametrize("operation", ["create", "actions", "join"])
def test_a_body_the_reader_refuses_is_a_documented_answer(client, document, operation):
    lobby = create(client, ["Ann", {"open": True}])
    url, path, headers = {
        "create": ("/api/v1/games/digging-for-dinos/matches",
                   "/api/v1/games/digging-for-dinos/matches", {}),
        "actions": (f"/api/v1/matches/{lobby['id']}/actions", "/api/v1/matches/{match_id}/actions",
                    auth(lobby["seats"][0]["token"])),
        "join": (f"/api/v1/matches/{lobby['id']}/join", "/api/v1/matches/{match_id}/join", {}),
    }[operation]
    for status, data, content_type in [
        (400, b"{", "application/json"),
        (413, json.dumps({"name": "x" * 70_000}).encode(), "application/json"),
        (415, b'{"name": "Cy"}', "text/plain"),
    ]:
        response = client.post(url, data=data, headers={**headers, "Content-Type": content_type})
        assert response.status_code == status, (operation, response.status_code, response.json)
        assert_listed(document, path, "post", response)


def test_joining_a_match_todays_rules_cannot_replay_is_a_documented_410(app, client, document):
    from service.store import actions, matches

    created = create(client, ["Ann", "Bob"])
    view = created["view"]
    seat = view["to_act"][0]
    token = created["seats"][seat]["token"]
    mine = client.get(f"/api/v1/matches/{created['id']}", headers=auth(token)).json
    acted = client.post(f"/api/v1/matches/{created['id']}/actions", headers=auth(token),
                        json={"action": mine["legal_actions"][0], "version": mine["version"]})
    assert acted.status_code == 200, acted.json
    with app.extensions["digsite_storage"].engine.begin() as conn:  # an earlier release's match
        conn.execute(matches.update().where(matches.c.id == created["id"])
                     .values(state=json.dumps({"old": True})))
        conn.execute(actions.update().where(actions.c.match_id == created["id"])
                     .values(action={"type": "retired_move"}))
        assert conn.execute(sa.select(sa.func.count()).select_from(actions)
                            .where(actions.c.match_id == created["id"])).scalar_one() == 1
    response = client.post(f"/api/v1/matches/{created['id']}/join", json={"name": "Cy"})
    assert response.status_code == 410 and response.json["reason"] == "rules", response.json
    assert_listed(document, "/api/v1/matches/{match_id}/join", "post", response)


@pytest.mark.parametrize("written", ["٣", "３", "+3", " 3", "3 ", "-0", "3_0"])
def test_a_number_in_the_address_is_written_in_ascii_digits_alone(client, document, written):
    """A seq, a limit or a version in the address is 0–9 only, as Last-Event-ID's is: Python
    would read Arabic-Indic or full-width digits, a sign, spaces and underscores as a number,
    and an address written so would answer as if it said 3 (or 30)."""
    from urllib.parse import quote

    match = create(client, ["Ann", "Bob"])["id"]
    for path, url in [("/api/v1/matches/{match_id}/log", f"/api/v1/matches/{match}/log?after="),
                      ("/api/v1/matches/{match_id}/log", f"/api/v1/matches/{match}/log?limit="),
                      ("/api/v1/matches/{match_id}/events",
                       f"/api/v1/matches/{match}/events?after="),
                      ("/api/v1/games/dig/matches", "/api/v1/games/dig/matches?limit=")]:
        response = client.get(url + quote(written))
        assert response.status_code == 422, (url, response.status_code)
        assert "whole number" in response.json["detail"] + json.dumps(response.json["errors"])
        assert_listed(document, path, "get", response)
    response = client.get(f"/api/v1/matches/{match}/views/{quote(written)}")
    assert response.status_code == 404, response.status_code
    assert response.content_type == "application/problem+json"
    # Written in 0–9, the same address reaches the replay (which waits for the match's end).
    assert client.get(f"/api/v1/matches/{match}/views/1").json["type"] == "/problems/match-not-over"
