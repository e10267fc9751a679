"""A log holds the table's entries beside the game's moves, and a view shows its clock as it was
chosen: the document types both exactly (the table's actions and events, each kind of clock),
so a generated client has no open map to fall back on; every such answer fits it."""

import pytest

from tests.api.openapi import assert_documented

SCHEMAS = "#/components/schemas/"


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("clock", [{"move_seconds": 600},
                                   {"bank_seconds": 600, "increment_seconds": 5},
                                   {"turn_days": 2}])
def test_the_table_s_entries_and_each_clock_are_documented(client, clock, players_away):
    document = client.get("/api/openapi.json").get_json()
    created = client.post("/api/v1/games/dig/matches",
                          json={"players": ["Ann", {"open": True}], "clock": clock, "seed": 3})
    assert_documented(document, "/api/v1/games/dig/matches", "post", created)
    match, host = created.json["id"], bearer(created.json["host_token"])
    joined = client.post(f"/api/v1/matches/{match}/join", json={"name": "Bob"})
    assert_documented(document, "/api/v1/matches/{match_id}/join", "post", joined)
    assert joined.json["view"]["clock"]["rule"] == clock
    assert client.post(f"/api/v1/matches/{match}/seats/1/token", headers=host).status_code == 201
    handed = client.post(f"/api/v1/matches/{match}/seats/1/bot", json={"bot": "greedy"},
                         headers=host)
    assert_documented(document, "/api/v1/matches/{match_id}/seats/{seat}/bot", "post", handed)
    left = client.post(f"/api/v1/matches/{match}/leave",
                       headers=bearer(created.json["seats"][0]["token"]))
    assert_documented(document, "/api/v1/matches/{match_id}/leave", "post", left)
    log = client.get(f"/api/v1/matches/{match}/log")
    assert_documented(document, "/api/v1/matches/{match_id}/log", "get", log)
    entries = log.json["log"]
    assert [e["action"]["type"] for e in entries[:4]] == ["join", "new_token", "take_over",
                                                          "leave"]
    assert [e["events"][0]["type"] for e in entries[:4]] == ["joined", "token_reissued",
                                                             "taken_over", "left"]
    assert len(entries) > 4  # the bots played on: the game's moves are in the same log


def test_a_log_entry_s_action_and_events_are_closed_unions(client):
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    action = schemas["LogEntry"]["properties"]["action"]
    assert "additionalProperties" not in action and "type" not in action
    assert {"$ref": SCHEMAS + "TableAction"} in action["anyOf"]
    assert {"$ref": SCHEMAS + "TableEvent"} in schemas["GameEvent"]["anyOf"]
    # a move's secret field is the mover's alone: optional in the log, required when posted
    assert "cards" in schemas["DigDropAction"]["required"]
    assert "cards" not in schemas["DigDropLoggedAction"].get("required", [])
    assert schemas["DigLoggedAction"]["discriminator"]["mapping"]["move"] == \
        SCHEMAS + "DigMoveAction"
