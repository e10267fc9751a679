"""What a browser app on another origin may send (api/cors.py: ours, tracing headers and those
DIGSITE_CORS_HEADERS adds) and read (the OpenAPI document too); If-None-Match compared weakly,
as RFC 9110 says (api/headers.py)."""

import pytest

from app import create_app

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


def test_a_weak_etag_sent_back_matches_its_view(client):
    created = client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"]})
    url = f"/api/v1/matches/{created.get_json()['id']}"
    tag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": f"W/{tag}"}).status_code == 304
    assert client.get(url, headers={"If-None-Match": tag}).status_code == 304
    assert client.get(url, headers={"If-None-Match": 'W/"0.spectator.r0"'}).status_code == 200
