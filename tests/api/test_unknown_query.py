"""A query parameter an operation does not take, or one given twice, is refused, naming it
(api/queries.py), rather than answered as if it had not been sent; the health probes answer
whatever is added."""

import pytest

from tests.api.problem import assert_problem

pytestmark = pytest.mark.shared_app  # each test is refused, scored or only reads

MATCH = "0" * 32


@pytest.mark.parametrize(("path", "unknown"), [
    ("/api/v1/games", "x"),
    ("/api/v1/games/dig", "lang"),
    ("/api/v1/games/dig-it-up/matches?status=waiting", "staus"),
    (f"/api/v1/matches/{MATCH}/log?after=0", "limt"),
    (f"/api/v1/matches/{MATCH}", "token"),
    ("/problems", "page"),
])
def test_a_misspelt_or_unknown_query_parameter_is_refused_by_name(client, path, unknown):
    answer = client.get(f"{path}{'&' if '?' in path else '?'}{unknown}=1")
    body = assert_problem(answer, 422)
    assert body["type"] == "/problems/invalid-body"
    # keyed as a parameter it takes is when refused (`query.limit`), not bare
    assert body["errors"] == {f"query.{unknown}": ["Unknown query parameter."]}
    assert f"`{unknown}`" in body["detail"]


def test_a_post_s_query_is_judged_too(client):
    answer = client.post("/api/v1/games/dig/score?debug=1", json={"players": []})
    # told apart from a field of the body
    assert assert_problem(answer, 422)["errors"] == {"query.debug": ["Unknown query parameter."]}


@pytest.mark.parametrize("path", [f"/api/v1/matches/{MATCH}/log?after=5&after=6",
                                  "/api/v1/games/dig/matches?status=waiting&status=finished"])
def test_a_query_parameter_given_twice_is_refused_not_half_read(client, path):
    # `?after=5&after=6` read 5 and dropped 6, as if it had not been sent
    name = path.split("?")[1].split("=")[0]
    body = assert_problem(client.get(path), 422)
    assert body["errors"] == {f"query.{name}": ["Given more than once; give it once."]}
    assert f"`{name}` is given more than once" in body["detail"]


def test_the_parameters_an_operation_takes_still_pass(client):
    assert client.get("/api/v1/games/dig/matches?status=waiting&limit=5").status_code == 200


@pytest.mark.parametrize("path", ["/healthz?probe=lb-1", "/readyz?t=1700000000"])
def test_the_health_probes_answer_whatever_is_added(client, path):
    assert client.get(path).status_code == 200


def test_every_operation_documents_the_422(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for path, item in paths.items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "delete") and path not in ("/healthz", "/readyz"):
                assert "422" in operation["responses"], (method, path)
                assert "/problems/invalid-body" in operation["x-problem-types"], (method, path)
