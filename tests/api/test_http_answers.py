"""Answers with no body claim no type (RFC 9110 6.4.1, 15.3.5): a 204 carries no Content-Type,
and a plain OPTIONS of any address answers 204 with its Allow, not an empty HTML page. Through
the app, and as gunicorn sends them."""

import requests
from werkzeug.routing import IntegerConverter

from tests.server import serve


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def placeholder(converter) -> object:
    """A value the converter takes: any address's answer to OPTIONS is its Allow."""
    return 0 if isinstance(converter, IntegerConverter) else "0" * 32


def test_options_of_every_address_answers_its_allow_with_no_body_and_no_type(app, client):
    adapter = app.url_map.bind("localhost")
    asked = 0
    for rule in app.url_map.iter_rules():
        if "OPTIONS" not in (rule.methods or ()):
            continue
        values = {name: placeholder(converter) for name, converter in rule._converters.items()}
        path = adapter.build(rule.endpoint, values)
        answer = client.options(path)
        asked += 1
        assert answer.status_code == 204, (path, answer.status_code)
        assert "Content-Type" not in answer.headers and answer.data == b"", path
        assert set(answer.allow) == set(rule.methods), path
    assert asked > 20


def test_a_204_carries_no_content_type(client):
    created = client.post("/api/v1/games/dig/matches",
                          json={"players": ["Ann", {"open": True}]}).get_json()
    cancelled = client.delete(f"/api/v1/matches/{created['id']}",
                              headers=auth(created["host_token"]))
    shared = client.post("/api/v1/games/dig/tallies", json={"sheet": None}).get_json()
    stopped = client.delete(f"/api/v1/tallies/{shared['tally']['id']}",
                            headers=auth(shared["token"]))
    for answer in (cancelled, stopped):
        assert answer.status_code == 204
        assert "Content-Type" not in answer.headers and answer.data == b""


def test_served_answers_with_no_body_claim_no_type(tmp_path):
    origin = "https://app.example"
    with serve({"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                "DIGSITE_CORS_ORIGINS": origin}, workers=1) as server:
        plain = requests.options(f"{server.url}/api/v1/games", timeout=10)
        preflight = requests.options(f"{server.url}/api/v1/games", timeout=10, headers={
            "Origin": origin, "Access-Control-Request-Method": "GET"})
        created = requests.post(f"{server.url}/api/v1/games/dig/matches", timeout=10,
                                json={"players": ["Ann", {"open": True}]},
                                headers={"Origin": origin}).json()
        cancelled = requests.delete(f"{server.url}/api/v1/matches/{created['id']}",
                                    headers={**auth(created["host_token"]), "Origin": origin},
                                    timeout=10)
    for answer in (plain, preflight, cancelled):
        assert answer.status_code == 204, answer.request.method
        assert "Content-Type" not in answer.headers and answer.content == b""
        assert "Origin" in answer.headers["Vary"]
    assert set(plain.headers["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD",
                                                                       "OPTIONS"}
    assert "PATCH" not in preflight.headers["Access-Control-Allow-Methods"]
    assert preflight.headers["Access-Control-Allow-Origin"] == origin
    assert "Access-Control-Allow-Origin" not in plain.headers
