"""What a browser app on another origin may send (api/cors.py: ours, tracing headers and those
DIGSITE_CORS_HEADERS adds) and read (the OpenAPI document too); If-None-Match compared weakly,
as RFC 9110 says (api/headers.py)."""

import pytest

from app import create_app
from tests.api.openapi import assert_headers_documented

ORIGIN = "https://table.example"


def app_for(tmp_path, **config):
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'd.db'}",
                       "DIGSITE_CORS_ORIGINS": ORIGIN, **config})


def preflight(client, headers: str):
    return client.options("/api/v1/games/dig/matches", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": headers})


def allowed(answer) -> set[str]:
    return {h.strip().lower() for h in
            answer.headers.get("Access-Control-Allow-Headers", "").split(",") if h.strip()}


def test_a_traced_browser_app_may_send_its_trace_and_idempotency_headers(tmp_path):
    client = app_for(tmp_path).test_client()
    sent = "traceparent, tracestate, idempotency-key, x-request-id, content-type"
    assert set(sent.split(", ")) <= allowed(preflight(client, sent))


def test_the_operator_may_allow_more_headers_and_no_other_is_allowed(tmp_path):
    client = app_for(tmp_path, DIGSITE_CORS_HEADERS="X-App-Build, baggage").test_client()
    assert {"x-app-build", "baggage"} <= allowed(preflight(client, "x-app-build, baggage"))
    assert "x-secret" not in allowed(preflight(client, "x-secret"))


def test_a_header_setting_that_names_no_header_stops_the_app(tmp_path):
    with pytest.raises(ValueError, match="DIGSITE_CORS_HEADERS: 'two words' is not a header"):
        app_for(tmp_path, DIGSITE_CORS_HEADERS="X-Ok, two words")


def test_the_document_is_readable_from_a_listed_origin(tmp_path):
    client = app_for(tmp_path).test_client()
    answer = client.get("/api/openapi.json", headers={"Origin": ORIGIN})
    assert answer.headers["Access-Control-Allow-Origin"] == ORIGIN
    other = client.get("/api/openapi.json", headers={"Origin": "https://elsewhere.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_every_address_whose_document_names_cors_headers_sends_them(tmp_path):
    """The problem kinds an error's `type` names and the health checks document
    Access-Control-Allow-Origin as every operation does: a browser app read none of them."""
    client = app_for(tmp_path).test_client()
    document = client.get("/api/openapi.json").get_json()
    paths = [path for path, operations in document["paths"].items()
             if "{" not in path and "Access-Control-Allow-Origin" in
             operations.get("get", {}).get("responses", {}).get("200", {}).get("headers", {})]
    assert {"/problems", "/healthz", "/readyz", "/api/v1/games"} <= set(paths)
    for path in [*paths, "/problems/not-found"]:
        answer = client.get(path, headers={"Origin": ORIGIN})
        assert answer.headers.get("Access-Control-Allow-Origin") == ORIGIN, path
        assert "Origin" in answer.headers.get("Vary", ""), path
        other = client.get(path, headers={"Origin": "https://elsewhere.example"})
        assert "Access-Control-Allow-Origin" not in other.headers, path
    deeper = client.get("/problems/not-found/more", headers={"Origin": ORIGIN})
    assert "Access-Control-Allow-Origin" not in deeper.headers  # no such problem kind
    asked = client.options("/problems", headers={"Origin": ORIGIN,
                                                 "Access-Control-Request-Method": "GET"})
    assert asked.headers.get("Access-Control-Allow-Origin") == ORIGIN


def test_a_weak_etag_sent_back_matches_its_view(client):
    created = client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"]})
    url = f"/api/v1/matches/{created.get_json()['id']}"
    tag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": f"W/{tag}"}).status_code == 304
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    assert client.get(url, headers={"If-None-Match": 'W/"0.spectator.r0"'}).status_code == 200


def vary(answer) -> set[str]:
    return {h.strip().lower() for h in answer.headers.get("Vary", "").split(",") if h.strip()}


def test_every_answer_whose_cors_headers_hang_on_the_origin_says_so_in_vary(tmp_path):
    """A shared cache must not give one origin's answer (or an answer to no origin) to another:
    whatever built the answer (a calculator's body, a view sent as built, its 304, a problem),
    it varies on Origin, beside what it varies on already."""
    client = app_for(tmp_path).test_client()
    listed = {"Origin": ORIGIN}
    created = client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"]},
                          headers=listed)
    url = f"/api/v1/matches/{created.get_json()['id']}"
    view = client.get(url, headers=listed)
    answers = {
        "created": created,
        "catalogue": client.get("/api/v1/games", headers=listed),
        "view": view,
        "304": client.get(url, headers={**listed, "If-None-Match": view.headers["ETag"]}),
        "problem": client.get("/api/v1/matches/" + "0" * 32, headers=listed),
        "document": client.get("/api/openapi.json", headers=listed),
        "no origin": client.get("/api/v1/games"),
        "another origin": client.get("/api/v1/games",
                                     headers={"Origin": "https://elsewhere.example"}),
    }
    assert answers["304"].status_code == 304 and answers["problem"].status_code == 404
    for name, answer in answers.items():
        assert "origin" in vary(answer), (name, answer.headers)
    assert {"authorization", "origin"} <= vary(view) and "authorization" in vary(answers["304"])
    assert answers["view"].headers["Access-Control-Allow-Origin"] == ORIGIN
    for name in ("no origin", "another origin"):  # nothing to allow: no Origin, or not listed
        assert "Access-Control-Allow-Origin" not in answers[name].headers, name


def test_a_preflight_offers_only_the_methods_its_address_takes(tmp_path):
    client = app_for(tmp_path).test_client()

    def offered(path: str, method: str) -> set[str]:
        answer = client.options(path, headers={"Origin": ORIGIN,
                                               "Access-Control-Request-Method": method})
        assert 200 <= answer.status_code < 300 and "origin" in vary(answer)
        return {m.strip() for m in answer.headers.get("Access-Control-Allow-Methods",
                                                      "").split(",") if m.strip()}

    assert offered("/api/v1/games/dig/matches", "POST") == {"GET", "HEAD", "POST", "OPTIONS"}
    assert offered("/api/v1/tallies/" + "0" * 32, "DELETE") == {"GET", "HEAD", "DELETE",
                                                                "OPTIONS"}
    assert "PUT" in offered("/api/v1/games/dig/tallies/" + "0" * 32, "PUT")
    assert not offered("/api/v1/games", "PATCH")  # no route takes it


def test_an_ipv6_origin_listed_is_that_origin_alone(tmp_path):
    # An origin with brackets was read as a regular expression: "[::1]" is one character, ':' or
    # '1'. The app on http://[::1]:5173 was refused, and http://1:5173 was let in.
    client = app_for(tmp_path, DIGSITE_CORS_ORIGINS="http://[::1]:5173").test_client()

    def answer(origin: str):
        return client.get("/api/openapi.json", headers={"Origin": origin}).headers

    assert answer("http://[::1]:5173")["Access-Control-Allow-Origin"] == "http://[::1]:5173"
    for other in ("http://1:5173", "http://::5173", "http://[::1]:51730", "http://[::1]:5173.evil"):
        assert "Access-Control-Allow-Origin" not in answer(other), other


def test_what_a_browser_app_reads_of_an_answer_is_in_the_document(tmp_path):
    """Access-Control-Allow-Origin, -Expose-Headers, Vary: Origin and X-Content-Type-Options
    were sent on every answer and declared on none."""
    client = app_for(tmp_path).test_client()
    document = client.get("/api/openapi.json").get_json()
    origin = {"Origin": ORIGIN}
    created = client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"]},
                          headers=origin)
    assert created.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "Origin" in created.headers["Vary"]
    assert created.headers["X-Content-Type-Options"] == "nosniff"
    assert_headers_documented(document, "/api/v1/games/dig/matches", "post", created)
    match = f"/api/v1/matches/{created.get_json()['id']}"
    token = created.get_json()["seats"][0]["token"]
    view = client.get(match, headers={**origin, "Authorization": f"Bearer {token}"})
    assert view.headers["Vary"] == "Authorization, Origin"
    assert_headers_documented(document, "/api/v1/matches/{match_id}", "get", view)
    refused = client.get(f"{match}/log?after=x", headers=origin)
    assert refused.status_code == 422
    assert_headers_documented(document, "/api/v1/matches/{match_id}/log", "get", refused)
