"""Every answer names its request (X-Request-Id, api/requests.py): the caller's own id when it
is a sensible one, else one the server makes; the document says so of every response."""

import re
import time
import urllib.request

import pytest

from tests.server import serve


def test_every_answer_carries_a_request_id_of_its_own(client):
    ids = [client.get("/api/v1/games").headers["X-Request-Id"] for _ in range(3)]
    ids.append(client.post("/api/v1/games/dig/score", json={"players": []})
               .headers["X-Request-Id"])  # a problem too
    ids.append(client.get("/healthz").headers["X-Request-Id"])
    assert all(re.fullmatch(r"[0-9a-f]{32}", rid) for rid in ids)
    assert len(set(ids)) == len(ids)


def test_a_sensible_id_sent_by_the_caller_or_its_proxy_is_kept(client):
    sent = "checkout-7f3a:retry.2"
    answer = client.get("/api/v1/games/dig", headers={"X-Request-Id": sent})
    assert answer.headers["X-Request-Id"] == sent


@pytest.mark.parametrize("sent", ["", "x" * 129, "two words", "<script>", "ü"])
def test_any_other_sent_id_is_replaced_by_one_of_the_server_s(client, sent):
    answer = client.get("/api/v1/games", headers={"X-Request-Id": sent})
    assert re.fullmatch(r"[0-9a-f]{32}", answer.headers["X-Request-Id"])


def test_the_document_names_the_header_on_every_response(client):
    document = client.get("/api/openapi.json").get_json()
    shared = document["components"]["responses"]
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "delete"):
                continue
            for status, response in operation["responses"].items():
                if "$ref" in response:
                    response = shared[response["$ref"].rsplit("/", 1)[-1]]
                assert "X-Request-Id" in response.get("headers", {}), (method, path, status)


def test_the_served_access_log_names_each_request_s_id(tmp_path):
    log = tmp_path / "access.log"
    with serve({"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                "DIGSITE_ACCESS_LOG": str(log)}, workers=1) as server:
        request = urllib.request.Request(f"{server.url}/api/v1/games",
                                         headers={"X-Request-Id": "probe-42"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.headers["X-Request-Id"] == "probe-42"
        deadline = time.monotonic() + 10
        while "probe-42" not in (log.read_text() if log.exists() else ""):
            assert time.monotonic() < deadline, "the access log never named the request"
            time.sleep(0.05)
    line = next(line for line in log.read_text().splitlines() if "/api/v1/games" in line)
    assert line.endswith(" probe-42")


def test_every_answer_says_its_type_is_not_to_be_sniffed(client):
    """The pages sent X-Content-Type-Options: nosniff, the API's answers did not: JSON, a
    problem, a view, /healthz and werkzeug's redirect page alike."""
    created = client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"]}).json
    answers = [client.get("/api/v1/games"), client.get("/healthz"),
               client.post("/api/v1/games/dig/score", json={"players": []}),
               client.get("/api/v1/matches/" + "0" * 32), client.get("/no/such/page"),
               client.get(f"/api/v1/matches/{created['id']}"),
               client.get(f"/api/v1/matches/{created['id']}/log"),
               client.get("/api/v1//games", follow_redirects=False)]
    assert answers[-1].status_code in (301, 308)
    assert [a.headers.get("X-Content-Type-Options") for a in answers] == ["nosniff"] * 8
