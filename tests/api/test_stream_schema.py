"""The match stream's payload is declared (API.md "Live updates"): each `entry` event's `data`
is a StreamEntry, the component the stream's media type names in `x-event-data`."""

import json

import pytest

from scoring.games import GAMES
from tests.api.openapi import validator


@pytest.mark.parametrize("game", list(GAMES))
def test_every_entry_a_stream_sends_is_the_documented_stream_entry(client, game):
    document = client.get("/api/openapi.json").get_json()
    media = document["paths"]["/api/v1/matches/{match_id}/events"]["get"]["responses"]["200"][
        "content"]["text/event-stream"]
    schema = validator(document, media["x-event-data"])
    seats, variant = min((n, variant) for variant, n in GAMES[game].tables())
    created = client.post(f"/api/v1/games/{game}/matches", json={
        "players": [{"name": f"Bot {i}", "bot": "greedy"} for i in range(seats)],
        "variant": variant, "seed": 4}).get_json()  # bots only: played to its end, as is
    # its stream
    stream = client.get(f"/api/v1/matches/{created['id']}/events").get_data(as_text=True)
    entries = [json.loads(line.removeprefix("data: ")) for line in stream.splitlines()
               if line.startswith("data: ")]
    assert len(entries) == created["version"] - 1 > 0
    for entry in entries:
        errors = [error.message for error in schema.iter_errors(entry)]
        assert errors == [], (entry, errors)
    assert [e["version"] for e in entries] == [e["seq"] + 1 for e in entries]
