"""The headers a client reads (tests/api/openapi.py CLIENT_HEADERS) are declared on every answer
that carries them: a view's ETag and Vary, its 304, the marker of a replayed answer, a 409's
Retry-After. Each answer below is checked by assert_headers_documented."""

from tests.api.openapi import assert_headers_documented, resolve
from tests.api.test_matches import auth, create, play

MATCH = "/api/v1/matches/{match_id}"


def test_a_view_its_304_and_an_action_declare_their_caching_headers(client):
    document = client.get("/api/openapi.json").get_json()
    created = create(client, "dig")
    token = created["seats"][0]["token"]
    view = client.get(f"/api/v1/matches/{created['id']}", headers=auth(token))
    assert view.headers["ETag"] and view.headers["Vary"] == "Authorization"
    assert_headers_documented(document, MATCH, "get", view)
    again = client.get(f"/api/v1/matches/{created['id']}",
                       headers={**auth(token), "If-None-Match": view.headers["ETag"]})
    assert again.status_code == 304
    assert_headers_documented(document, MATCH, "get", again)
    parameters = [p["name"] for p in document["paths"][MATCH]["get"].get("parameters", [])]
    assert "If-None-Match" in parameters

    seat = view.get_json()["to_act"][0]
    mover = next(s["token"] for s in created["seats"] if s["seat"] == seat)
    state = client.get(f"/api/v1/matches/{created['id']}", headers=auth(mover)).get_json()
    action = next(a for a in state["legal_actions"] if a["type"] != "undo")
    body = {"action": action, "version": state["version"]}
    key = {"Idempotency-Key": "documented-headers-1"}
    first = client.post(f"{MATCH.format(match_id=created['id'])}/actions", json=body,
                        headers={**auth(mover), **key})
    replayed = client.post(f"{MATCH.format(match_id=created['id'])}/actions", json=body,
                           headers={**auth(mover), **key})
    assert first.status_code == replayed.status_code == 200
    assert replayed.headers["Idempotent-Replayed"] == "true"
    for answer in (first, replayed):
        assert_headers_documented(document, f"{MATCH}/actions", "post", answer)

    left = client.post(f"/api/v1/matches/{created['id']}/leave", headers=auth(token))
    assert left.status_code == 200 and "ETag" in left.headers
    assert_headers_documented(document, f"{MATCH}/leave", "post", left)


def test_a_handed_seat_a_past_view_and_a_new_match_declare_theirs(client):
    document = client.get("/api/openapi.json").get_json()
    created = create(client, "digging-for-dinos", seed=5)
    assert_headers_documented(document, "/api/v1/games/digging-for-dinos/matches", "post",
                              client.post("/api/v1/games/digging-for-dinos/matches",
                                          json={"players": ["Ann", "Bob"]}))
    other = create(client, "digging-for-dinos", seed=6)
    handed = client.post(f"/api/v1/matches/{other['id']}/seats/1/bot",
                         headers=auth(other["host_token"]), json={"bot": "random"})
    assert handed.status_code == 200
    assert_headers_documented(document, f"{MATCH}/seats/{{seat}}/bot", "post", handed)
    last, _ = play(client, created)
    past = client.get(f"/api/v1/matches/{created['id']}/views/1")
    assert past.status_code == 200, (last["status"], past.get_json())
    assert_headers_documented(document, f"{MATCH}/views/{{version}}", "get", past)


def test_a_key_still_being_answered_is_documented_with_its_retry_after(client):
    document = client.get("/api/openapi.json").get_json()
    conflict = resolve(document, document["paths"][f"{MATCH}/actions"]["post"]["responses"][
        "409"])
    assert conflict["headers"]["Retry-After"]["schema"]["type"] == "integer"


def test_a_stream_and_a_refused_encoding_declare_theirs(client):
    """A stream's X-Accel-Buffering and a 415's Accept-Encoding were sent and not declared."""
    document = client.get("/api/openapi.json").get_json()
    created = create(client, "dig")
    play(client, created)
    stream = client.get(f"/api/v1/matches/{created['id']}/events")  # finished: it ends at once
    assert stream.status_code == 200 and stream.headers["X-Accel-Buffering"] == "no"
    assert_headers_documented(document, f"{MATCH}/events", "get", stream)
    encoded = client.post("/api/v1/games/dig/score", data=b"\x1f\x8b",
                          headers={"Content-Type": "application/json",
                                   "Content-Encoding": "gzip"})
    assert encoded.status_code == 415 and encoded.headers["Accept-Encoding"] == "identity"
    assert_headers_documented(document, "/api/v1/games/dig/score", "post", encoded)
