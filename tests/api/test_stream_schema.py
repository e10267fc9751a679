"""The streams' payloads are declared (API.md "Live updates"): each stream's schema is one event as
an EventSource client parses it (how OpenAPI 3.1 tools, schemathesis among them, read a
`text/event-stream` schema), its `data` the JSON text of a component (`contentSchema`), which
the media type's `x-event-data` names too."""

import json

import pytest

from scoring.games import GAMES
from tests.api.openapi import resolve, validator

STREAMS = {"/api/v1/matches/{match_id}/events": ("entry", "StreamEntry"),
           "/api/v1/studies/{study_id}/events": ("progress", "Study"),
           "/api/v1/tallies/{tally_id}/events": ("tally", "Tally")}


def parsed(stream: str) -> list[dict[str, str]]:
    """The events of a stream as an EventSource parses them (HTML's "event stream
    interpretation"): fields line by line, an event dispatched at a blank line when it has data."""
    events, event, data = [], {}, []
    for line in stream.split("\n"):
        if not line:
            if data:
                events.append({**event, "data": "\n".join(data)})
            event, data = {}, []
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "data":
            data.append(value)
        elif field in ("event", "id", "retry"):
            event[field] = value
    return events


def media(document: dict, path: str) -> dict:
    return resolve(document, document["paths"][path]["get"]["responses"]["200"])["content"][
        "text/event-stream"]


@pytest.mark.parametrize("path", STREAMS)
def test_each_stream_declares_its_events_and_their_data(client, path):
    document = client.get("/api/openapi.json").get_json()
    declared = media(document, path)
    event, component = STREAMS[path]
    schema = declared["schema"]
    assert schema["properties"]["event"]["enum"] == [event]
    data = schema["properties"]["data"]
    assert data["contentMediaType"] == "application/json"
    assert data["contentSchema"] == declared["x-event-data"] == {
        "$ref": f"#/components/schemas/{component}"}
    assert component in document["components"]["schemas"]
    example = {"event": event, "id": "3", "data": "{}"}
    assert list(validator(document, schema).iter_errors(example)) == []
    assert list(validator(document, schema).iter_errors({"id": "3", "data": "{}"})) != []
    assert list(validator(document, schema).iter_errors({**example, "id": "three"})) != []


@pytest.mark.parametrize("game", list(GAMES))
def test_every_entry_a_stream_sends_is_the_documented_stream_entry(client, game):
    document = client.get("/api/openapi.json").get_json()
    declared = media(document, "/api/v1/matches/{match_id}/events")
    event_schema = validator(document, declared["schema"])
    data_schema = validator(document, declared["schema"]["properties"]["data"]["contentSchema"])
    seats, variant = min((n, variant) for variant, n in GAMES[game].tables())
    created = client.post(f"/api/v1/games/{game}/matches", json={
        "players": [{"name": f"Bot {i}", "bot": "greedy"} for i in range(seats)],
        "variant": variant, "seed": 4}).get_json()  # bots only: played to its end, as is
    # its stream
    stream = client.get(f"/api/v1/matches/{created['id']}/events").get_data(as_text=True)
    events = parsed(stream)
    assert len(events) == created["version"] - 1 > 0
    entries = []
    for event in events:
        assert [error.message for error in event_schema.iter_errors(event)] == [], event
        entries.append(json.loads(event["data"]))
        errors = [error.message for error in data_schema.iter_errors(entries[-1])]
        assert errors == [], (entries[-1], errors)
    assert [e["version"] for e in entries] == [e["seq"] + 1 for e in entries]
    assert {e["game"] for e in entries} == {game}  # what narrows its action and events
    assert [event["id"] for event in events] == [str(e["seq"]) for e in entries]
