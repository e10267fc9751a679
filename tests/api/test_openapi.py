"""The OpenAPI document at /api/openapi.json (API.md, issue 2): valid OpenAPI 3.1, every endpoint
there, the rulebook examples on the calculators, every error documented as problem+json, and
answers that match it."""

import warnings

import pytest
from openapi_spec_validator import validate

from app import create_app
from scoring.engine import play_out
from scoring.games import GAMES as REGISTRY
from tests.api.openapi import assert_documented, resolve, response_object, validator
from tests.api.problem import PROBLEM_JSON, score_url

GAMES = ["dig-it-up", "dig", "digging-for-dinos"]
METHODS = {"get", "post", "put", "patch", "delete"}
# API.md's paths for the base and the calculators (matches are documented by their own tests).
API_MD_PATHS = {
    "/healthz": "get",
    "/api/v1/games": "get",
    **{f"/api/v1/games/{game}": "get" for game in GAMES},
    **{score_url(game): "post" for game in GAMES},
}
# Each score operation's rulebook examples and the total the rulebook prints for them.
RULEBOOK_EXAMPLES = {
    "dig-it-up": {"joseph": 50, "ivan": 10},
    "dig": {"ann": 29},
    "digging-for-dinos": {"matteo_incomplete": 9, "matteo_complete": 17},
}


@pytest.fixture
def document(client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    return response.get_json()


def operations(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def test_document_is_valid_openapi_3_1(document):
    assert document["openapi"].startswith("3.1")
    validate(document)


def test_document_builds_without_warnings(tmp_path):
    # e.g. two schemas resolving to one component name, which apispec renames "…1"
    with warnings.catch_warnings():
        warnings.filterwarnings("error", module="apispec")
        app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'd.db'}"})
        document = app.test_client().get("/api/openapi.json").get_json()
    assert not [name for name in document["components"]["schemas"] if name[-1].isdigit()]


@pytest.mark.parametrize(("path", "method"), API_MD_PATHS.items())
def test_every_api_md_endpoint_is_documented(document, path, method):
    assert method in document["paths"][path]


def test_every_api_route_of_the_app_is_documented(app, document):
    documented = {path for path, _, _ in operations(document)}
    for rule in app.url_map.iter_rules():
        if rule.rule == "/healthz" or rule.rule.startswith("/api/v1/"):
            path = rule.rule.replace("<string:", "{").replace("<", "{").replace(">", "}")
            assert path in documented, rule.rule


@pytest.mark.parametrize("game", GAMES)
def test_score_operation_carries_the_rulebook_examples(client, document, game):
    body = document["paths"][score_url(game)]["post"]["requestBody"]
    content = body["content"]["application/json"]
    examples = content["examples"]
    assert set(RULEBOOK_EXAMPLES[game]) <= set(examples)
    request = validator(document, content["schema"])
    for name, total in RULEBOOK_EXAMPLES[game].items():
        example = examples[name]
        assert "rulebook" in example["summary"]
        assert str(total) in example["summary"]
        assert not list(request.iter_errors(example["value"]))
        # the example, posted, gives the total the rulebook prints
        response = client.post(score_url(game), json=example["value"])
        assert response.get_json()["players"][0]["total"] == total


def test_problem_schema_has_the_rfc_9457_members(document):
    problem = document["components"]["schemas"]["Problem"]["properties"]
    assert {"type", "title", "status", "detail", "errors"} <= set(problem)
    assert problem["status"]["type"] == "integer"


def test_every_error_response_is_documented_as_problem_json(document):
    seen = 0
    for path, method, operation in operations(document):
        assert "default" in operation["responses"], (path, method)
        for status, response in operation["responses"].items():
            if status == "default" or int(status) >= 400:
                content = resolve(document, response)["content"]
                assert list(content) == [PROBLEM_JSON], (path, method, status)
                assert content[PROBLEM_JSON]["schema"] == {"$ref": "#/components/schemas/Problem"}
                seen += 1
    assert seen >= 2 * len(API_MD_PATHS)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("status", [400, 413, 422])
def test_score_operation_names_its_errors(document, game, status):
    assert str(status) in document["paths"][score_url(game)]["post"]["responses"]


def test_success_responses_are_json(document):
    for path, method, operation in operations(document):
        successes = [s for s in operation["responses"] if s.startswith("2")]
        assert len(successes) == 1, (path, method)
        assert "application/json" in operation["responses"][successes[0]]["content"]


@pytest.mark.parametrize("path", ["/healthz", "/api/v1/games", *(f"/api/v1/games/{g}"
                                                                 for g in GAMES)])
def test_get_answers_match_the_document(client, document, path):
    response = client.get(path)
    assert response.status_code == 200
    assert_documented(document, path, "get", response)


@pytest.mark.parametrize(("method", "path", "data", "status"), [
    ("post", score_url("dig"), "{", 400),
    ("post", score_url("dig"), "[" * 10_000 + "]" * 10_000, 400),
    ("post", score_url("dig-it-up"), " " * (64 * 1024 + 1), 413),
    ("post", score_url("digging-for-dinos"), '{"players": []}', 422),
    ("get", score_url("dig"), None, 405),
])
def test_error_answers_match_the_document(client, document, method, path, data, status):
    response = getattr(client, method)(path, data=data, content_type="application/json")
    assert response.status_code == status
    assert_documented(document, path, method if status != 405 else "post", response)


@pytest.mark.parametrize(("path", "status"), [("/nope", 404), ("/api/v1/games/chess", 404)])
def test_answers_off_the_documented_paths_are_problems_too(client, document, path, status):
    response = client.get(path)
    assert response.status_code == status
    assert response.mimetype == PROBLEM_JSON
    schema = response_object(document, "/api/v1/games", "get", status)["content"][PROBLEM_JSON]
    assert not list(validator(document, schema["schema"]).iter_errors(response.get_json()))


def test_docs_page_works_offline(client):
    page = client.get("/api/docs")
    assert page.status_code == 200
    assert "/api/openapi.json" in page.get_data(as_text=True)
    assert client.get("/api/docs/assets/swagger-ui-bundle.js").status_code == 200


@pytest.mark.parametrize("game", REGISTRY.values(), ids=lambda g: g.id)
def test_every_declared_move_is_typed_and_every_legal_action_fits_it(document, game):
    schemas = document["components"]["schemas"]
    union = schemas[f"{game.prefix}Action"]
    assert union["discriminator"]["propertyName"] == "type"
    assert list(union["discriminator"]["mapping"]) == list(game.moves)
    for name, ref in union["discriminator"]["mapping"].items():
        move = resolve(document, {"$ref": ref})
        assert move["properties"]["type"]["enum"] == [name]
        assert move["description"] == game.moves[name].description
        required = {f.name for f in game.moves[name].fields if f.required}
        assert set(move.get("required", [])) == required | {"type"}
    request = document["components"]["schemas"]["ActionRequest"]["properties"]["action"]
    assert {"$ref": f"#/components/schemas/{game.prefix}Action"} in request["anyOf"]
    # Every action the engine lists along random matches is one its document types.
    fits = validator(document, {"$ref": f"#/components/schemas/{game.prefix}Action"})
    for variant, n in game.tables():
        state, history = play_out(game, [f"P{i}" for i in range(n)], 2, variant, bot_seed=2)
        for _, action in history[:300]:
            assert fits.is_valid(action), action
        wrong = {**history[0][1], "type": "teleport"}
        assert not fits.is_valid(wrong)
