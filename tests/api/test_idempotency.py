"""Idempotency-Key (API.md "Retries, errors, seeds as text"): a POST sent again with the same key
and body by the same caller answers its first answer again, marked `Idempotent-Replayed`, without
acting twice; another body with the key is refused; each caller's keys are its own; the stored
answers cannot be read from the database alone; a retry reaching another app server is answered
the same."""


import pytest
import requests
import sqlalchemy as sa

from service.idempotency import keys
from tests.api.openapi import assert_documented
from tests.api.problem import assert_problem
from tests.server import serve_side_by_side

TABLE = {"players": ["Ann", "Bob"], "seed": 9}


def key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}


def sent_twice(client, url: str, headers: dict[str, str], name: str, body: dict | None = None):
    """The first answer to a POST sent twice with the key `name`; the second gave it again."""
    first = client.post(url, json=body, headers={**headers, **key(name)})
    again = client.post(url, json=body, headers={**headers, **key(name)})
    assert first.status_code == again.status_code and again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    return again


def first_move(client, match_id: str, auth: dict[str, str]) -> tuple[str, dict, dict]:
    """The actions' address, a legal first move of the seat `auth` holds, and its view."""
    view = client.get(f"/api/v1/matches/{match_id}", headers=auth).json
    body = {"action": view["legal_actions"][0], "version": view["version"]}
    return f"/api/v1/matches/{match_id}/actions", body, view


def test_a_creation_sent_again_answers_the_same_match_and_tokens(app, client):
    first = client.post("/api/v1/games/dig/matches", json=TABLE, headers=key("create-1"))
    again = client.post("/api/v1/games/dig/matches", json=TABLE, headers=key("create-1"))
    assert first.status_code == again.status_code == 201
    assert again.json == first.json and again.headers["Location"] == first.headers["Location"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    listing = client.get("/api/v1/games/dig/matches")  # unlisted: count in storage instead
    assert listing.status_code == 200
    with app.extensions["digsite_storage"].engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM matches")).scalar() == 1
        sealed = conn.execute(sa.select(keys.c.scope, keys.c.answer)).all()
    assert len(sealed) == 1 and "create-1" not in sealed[0].scope
    for seat in first.json["seats"]:  # no token can be read from the stored answer
        assert seat["token"].encode() not in sealed[0].answer
    other = client.post("/api/v1/games/dig/matches", json=TABLE, headers=key("create-2"))
    assert other.json["id"] != first.json["id"]


def test_an_action_retried_is_applied_once_and_answered_again(client):
    created = client.post("/api/v1/games/dig/matches", json=TABLE).json
    seat = created["view"]["to_act"][0]
    auth = {"Authorization": f"Bearer {created['seats'][seat]['token']}"}
    url, body, view = first_move(client, created["id"], auth)
    assert sent_twice(client, url, auth, "move-1", body).status_code == 200
    log = client.get(f"/api/v1/matches/{created['id']}/log").json["log"]
    assert len([e for e in log if e["seat"] == seat and e["seq"] == view["version"]]) == 1
    assert_problem(client.post(url, json=body, headers=auth), 409)  # no key: acted first


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "Bearer "])
def test_a_retry_is_answered_again_however_the_token_s_scheme_is_written(client, scheme):
    # Every operation reads "bearer x", "BEARER x" and "Bearer  x" as the token x; the keys were
    # looked at only for "Bearer x": a host's new token asked again gave a second new token
    # (the first voided), and an action sent again answered 409.
    created = client.post("/api/v1/games/dig/matches", json=TABLE).json
    host = {"Authorization": f"{scheme} {created['host_token']}"}
    issued = sent_twice(client, f"/api/v1/matches/{created['id']}/seats/1/token", host,
                        "new-token")
    assert issued.status_code == 201
    seat = client.get(f"/api/v1/matches/{created['id']}").json["to_act"][0]
    token = issued.json["token"] if seat == 1 else created["seats"][seat]["token"]
    auth = {"Authorization": f"{scheme} {token}"}
    url, body, _ = first_move(client, created["id"], auth)
    assert sent_twice(client, url, auth, "move", body).status_code == 200
    log = client.get(f"/api/v1/matches/{created['id']}/log").json["log"]
    assert [e["action"]["type"] for e in log].count("new_token") == 1


def test_a_refusal_answered_again_is_marked_and_documented_so(client):
    # A refusal is kept for its key and given again, `Idempotent-Replayed: true`: the document
    # declared the header on a POST's successes alone.
    created = client.post("/api/v1/games/dig/matches", json=TABLE).json
    auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    url = f"/api/v1/matches/{created['id']}/actions"
    document = client.get("/api/openapi.json").json
    for body, status in (({"action": {"type": "fly"}, "version": 1}, 422),
                         ({"action": {"type": "end_turn"}, "version": 99}, 409)):
        again = sent_twice(client, url, auth, f"refused-{status}", body)
        assert again.status_code == status
        assert_documented(document, "/api/v1/matches/{match_id}/actions", "post", again)


def test_a_key_names_one_request_of_one_caller(client):
    first = client.post("/api/v1/games/dig/matches", json=TABLE, headers=key("k"))
    assert first.status_code == 201
    reused = client.post("/api/v1/games/dig/matches", json={**TABLE, "seed": 10},
                         headers=key("k"))
    assert_problem(reused, 422, "Idempotency-Key")
    elsewhere = client.post("/api/v1/games/dig/matches", json=TABLE, headers=key("k"),
                            environ_base={"REMOTE_ADDR": "203.0.113.7"})
    assert elsewhere.status_code == 201 and elsewhere.json["id"] != first.json["id"]
    for odd in ("", "é", "a b", "x" * 256):
        answer = client.post("/api/v1/games/dig/matches", json=TABLE, headers=key(odd))
        assert_problem(answer, 422, "Idempotency-Key")


def test_the_document_offers_the_key_on_every_post(client):
    document = client.get("/api/openapi.json").json
    posts = [item["post"] for item in document["paths"].values() if "post" in item]
    assert posts and all(any(p["name"] == "Idempotency-Key" for p in post["parameters"])
                         for post in posts)


def test_a_retry_that_reaches_another_server_is_answered_the_same(postgresql_server):
    with serve_side_by_side({"DATABASE_URL": postgresql_server}, 2, workers=1) as servers:
        urls = [server.url for server in servers]
        answers = [requests.post(f"{url}/api/v1/games/dig/matches", json=TABLE, timeout=10,
                                 headers=key("across")) for url in urls]
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].json() == answers[1].json()
    assert answers[1].headers["Idempotent-Replayed"] == "true"


def test_a_token_is_judged_before_its_key(client):
    created = client.post("/api/v1/games/dig/matches", json=TABLE).json
    url = f"/api/v1/matches/{created['id']}/leave"
    for headers in ({}, {"Authorization": "Bearer " + "x" * 43},
                    {"Authorization": f"Basic {created['seats'][0]['token']}"}):
        for sent in ("same-key", "é"):  # a key used before, and no key at all
            assert_problem(client.post(url, headers={**headers, **key(sent)}), 401)


def test_a_key_names_the_request_s_query_too_and_no_body_its_operation_ignores(client):
    # The query was not part of the request a key named: a request put right (an unknown query
    # parameter taken off) was answered the first one's refusal again, replayed. And a POST that
    # takes no body answers one sent with a key as it answers it without (it read it with a
    # key alone: 413 for what the same POST without a key ignored; it reads it either way now).
    from api.schemas import dig

    sheet = dig.EXAMPLES["ann"]["value"]
    first = client.post("/api/v1/games/dig/score?verbose=1", json=sheet, headers=key("q"))
    assert_problem(first, 422, "query.verbose")
    again = client.post("/api/v1/games/dig/score", json=sheet, headers=key("q"))
    assert_problem(again, 422, "Idempotency-Key")
    assert "Idempotent-Replayed" not in again.headers
    fresh = client.post("/api/v1/games/dig/score", json=sheet, headers=key("q2"))
    assert fresh.status_code == 200
    created = client.post("/api/v1/games/dig/matches", json=TABLE).json
    host = {"Authorization": f"Bearer {created['host_token']}"}
    big = {"padding": "x" * 70_000}
    new_token = f"/api/v1/matches/{created['id']}/seats/1/token"  # a POST that takes no body
    for sent in ({}, key("token")):
        assert_problem(client.post(new_token, json=big, headers={**host, **sent}), 413)
        made = client.post(new_token, headers={**host, **sent})
        assert made.status_code == 201, made.get_json()
    replayed = client.post(new_token, headers={**host, **key("token")})
    assert replayed.headers.get("Idempotent-Replayed") == "true"


def test_a_retry_of_the_same_json_written_otherwise_is_the_same_request(client):
    """A client that writes its body again for a retry (another JSON library, its keys in
    another order, with spaces) was refused: the key named the bytes sent, not the request. A
    body the server reads otherwise stays another request: a key given twice is refused (400)
    where the same object without it is read."""
    import json

    first = client.post("/api/v1/games/dig/matches", data=json.dumps(TABLE),
                         content_type="application/json", headers=key("same"))
    assert first.status_code == 201
    rewritten = json.dumps(dict(reversed(TABLE.items())), indent=2).encode()
    again = client.post("/api/v1/games/dig/matches", data=rewritten,
                        content_type="application/json", headers=key("same"))
    assert again.status_code == 201 and again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    twice = b'{"players": ["Ann", "Bob"], "seed": 8, "seed": 9}'
    refused = client.post("/api/v1/games/dig/matches", data=twice,
                          content_type="application/json", headers=key("twice"))
    assert_problem(refused, 400)
    put_right = client.post("/api/v1/games/dig/matches", json=TABLE, headers=key("twice"))
    assert_problem(put_right, 422, "Idempotency-Key")
    assert "Idempotent-Replayed" not in put_right.headers


def test_a_key_whose_release_died_with_the_database_is_released_once_it_is_back(tmp_path):
    """A request that died with the database (a 503) could not release its key either: every
    retry of it was told "still being answered" (409) for HELD_SECONDS, a minute, though
    nothing was. The worker releases it at its next claim, once the database answers."""
    from service.idempotency import Claim, Held, IdempotencyKeys
    from service.store import make_engine

    engine = make_engine(f"sqlite:///{tmp_path / 'keys.db'}")
    keys.metadata.create_all(engine, tables=[keys])
    kept = IdempotencyKeys(engine)
    first = kept.claim("203.0.113.9", "retry-me", b"POST /api/v1/matches/x/actions")
    assert isinstance(first, Claim)

    class Away:
        def begin(self):
            raise sa.exc.OperationalError("DELETE", {}, Exception("server closed the connection"))

    kept.engine = Away()
    with pytest.raises(sa.exc.OperationalError):
        kept.release(first)
    kept.engine = engine  # the database is back
    again = kept.claim("203.0.113.9", "retry-me", b"POST /api/v1/matches/x/actions")
    assert isinstance(again, Claim)  # it was Held: "still being answered"
    with pytest.raises(Held):  # a request truly being answered still holds its key
        kept.claim("203.0.113.9", "retry-me", b"POST /api/v1/matches/x/actions")
