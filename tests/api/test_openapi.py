"""The OpenAPI document at /api/openapi.json (API.md, issue 2): valid OpenAPI 3.1, every endpoint
there, the rulebook examples on the calculators, every error documented as problem+json, and
answers that match it."""

import gzip
import json
import re
import warnings

import pytest
from openapi_spec_validator import validate

from api.match_examples import EXAMPLE_SEED
from app import create_app
from scoring.engine import play_out
from scoring.games import GAMES as REGISTRY
from tests.api.openapi import assert_documented, resolve, response_object, validator
from tests.api.problem import PROBLEM_JSON, score_url

pytestmark = pytest.mark.shared_app  # each test is refused, scored or only reads

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


def reached(document, start) -> set[str]:
    """The components' schemas that `start` names, itself or through those it names."""
    found, todo = set(), [start]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/components/schemas/") and ref not in found:
                found.add(ref)
                todo.append(resolve(document, {"$ref": ref}))
            todo.extend(v for k, v in node.items() if k != "$ref")
        elif isinstance(node, list):
            todo.extend(node)
    return found


def defaults_in(node) -> bool:
    if isinstance(node, dict):
        return "default" in node or any(defaults_in(v) for v in node.values())
    return isinstance(node, list) and any(defaults_in(v) for v in node)


def test_only_requests_carry_defaults_so_typed_clients_answers_are_whole(document):
    """README: openapi-typescript run with --default-non-nullable false keeps a request's
    defaulted fields optional, and changes no answer's type, since no answer's schema has a
    default (what a default means in an answer is a field that may be missing)."""
    answers = reached(document, [op.get("responses", {}) for _, _, op in operations(document)])
    answers |= reached(document, document["components"].get("responses", {}))
    assert answers, "the answers name schemas"
    with_defaults = sorted(ref for ref in answers if defaults_in(resolve(document, {"$ref": ref})))
    assert with_defaults == []
    # and the requests do carry them: what the flag is for
    requests = reached(document, [op.get("requestBody", {}) for _, _, op in operations(document)])
    assert any(defaults_in(resolve(document, {"$ref": ref})) for ref in requests)


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
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
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


def test_the_problem_title_is_documented_as_it_is_sent(client, document):
    """A problem's `title` is its status's phrase, whatever its kind (API.md says no more of it,
    and clients may read it): the document says so, its example one a 422 carries."""
    title = document["components"]["schemas"]["Problem"]["properties"]["title"]
    sent = client.post(score_url("dig"), json={}).get_json()
    assert sent["status"] == 422 and title["example"] == sent["title"]
    assert sent["title"] in title["description"] and "kind of problem" not in title["description"]


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


# What an operation answers on success when it is not JSON (None: no body at all).
NOT_JSON = {("/api/v1/matches/{match_id}/events", "get"): "text/event-stream",
            ("/api/v1/tallies/{tally_id}/events", "get"): "text/event-stream",
            ("/api/v1/tallies/{tally_id}", "delete"): None,
            ("/api/v1/studies/{study_id}/events", "get"): "text/event-stream",
            ("/api/v1/studies/{study_id}/records", "get"): "application/jsonl",
            ("/api/v1/studies/{study_id}/report", "get"): "text/html",
            ("/api/v1/matches/{match_id}", "delete"): None}
# API.md "Listing and rematch": the first claim opens the rematch (201), the others join it (200).
TWO_SUCCESSES = {("/api/v1/matches/{match_id}/rematch", "post"): ["200", "201"]}


def test_success_responses_are_json(document):
    for path, method, operation in operations(document):
        successes = sorted(s for s in operation["responses"] if s.startswith("2"))
        assert successes == TWO_SUCCESSES.get((path, method), successes[:1]), (path, method)
        media = NOT_JSON.get((path, method), "application/json")
        for success in successes:
            content = operation["responses"][success].get("content", {})
            assert (media in content) if media else not content, (path, method)


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


# --- a typed document: names, required fields and examples (issue 11) ----------------------------

OPERATION_ID = re.compile(r"[a-z]+(?:[A-Z][a-z0-9]*)+|[a-z]+")


def test_every_operation_has_a_readable_unique_operation_id(document):
    ids = [operation.get("operationId") for _, _, operation in operations(document)]
    assert None not in ids
    assert len(ids) == len(set(ids)), sorted(ids)
    for operation_id in ids:
        assert OPERATION_ID.fullmatch(operation_id), operation_id  # lowerCamelCase words
    assert {"listGames", "scoreDig", "scoreDigItUp", "scoreDinos", "getDigGame", "getHealth",
            "getReadiness", "createDigMatch", "getMatch", "postAction", "getMatchLog",
            "streamMatchEvents", "joinMatch"} <= set(ids)


# Objects keyed by box ids that list only the ids there are some of: no key is always there.
ONLY_SOME_KEYS = {"DinosCollection", "DinosCompletedSets"}


def schemas_under(document, schema, where, seen):
    """Every schema object reachable from `schema`, each with where it is (a component's name,
    or the path to an inline schema); each component once."""
    if isinstance(schema, list):
        for i, item in enumerate(schema):
            yield from schemas_under(document, item, f"{where}/{i}", seen)
        return
    if not isinstance(schema, dict):
        return
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            seen.add(name)
            yield from schemas_under(document, resolve(document, schema), name, seen)
        return
    yield where, schema
    for key in ("properties", "patternProperties"):
        for prop, sub in schema.get(key, {}).items():
            yield from schemas_under(document, sub, f"{where}.{prop}", seen)
    for key in ("items", "additionalProperties", "anyOf", "oneOf", "allOf", "prefixItems"):
        if key in schema:
            yield from schemas_under(document, schema[key], f"{where}/{key}", seen)


def response_schemas(document):
    seen: set[str] = set()
    for path, method, operation in operations(document):
        for status, response in operation["responses"].items():
            for content in resolve(document, response).get("content", {}).values():
                yield from schemas_under(document, content["schema"],
                                         f"{method} {path} {status}", seen)


def test_every_response_object_lists_its_required_fields(document):
    objects = [(name, schema) for name, schema in response_schemas(document)
               if schema.get("properties")]
    assert len({name for name, _ in objects}) > 50  # the walk reached views, events, results
    for name, schema in objects:
        if name in ONLY_SOME_KEYS:
            continue
        assert schema.get("required"), name
        assert set(schema["required"]) <= set(schema["properties"]), name


@pytest.mark.parametrize(("schema", "always", "sometimes"), [
    ("View", {"id", "version", "status", "players", "to_act", "you", "legal_actions", "state",
              "result", "seeded", "seed_sha256"}, {"seed"}),
    ("Problem", {"type", "title", "status", "detail"}, {"errors"}),
    ("Log", {"id", "log", "next"}, set()),
    ("DigResult", {"game", "players", "winners", "tie_break"}, set()),
    ("DigItUpCardInBox", {"id", "name", "effect"}, {"gain", "steal"}),
])
def test_optional_only_where_a_field_is_sometimes_left_out(document, schema, always, sometimes):
    found = document["components"]["schemas"][schema]
    assert always <= set(found["required"])
    assert not sometimes & set(found["required"])
    assert sometimes <= set(found["properties"])


def media_examples(document):
    """Every example in the document's requests and responses, with the schema it is for."""
    for path, method, operation in operations(document):
        bodies = [("request", operation.get("requestBody", {}))]
        bodies += [(status, resolve(document, r)) for status, r in operation["responses"].items()]
        for where, body in bodies:
            for media in body.get("content", {}).values():
                examples = dict(media.get("examples", {}))
                if "example" in media:
                    examples["example"] = {"value": media["example"]}
                for name, example in examples.items():
                    yield f"{method} {path} {where} {name}", media["schema"], example["value"]


def test_the_main_operations_show_response_examples(document):
    shown = {where.rsplit(" ", 1)[0] for where, _, _ in media_examples(document)}
    for path, method, status in [
        ("/api/v1/matches/{match_id}", "get", 200),
        ("/api/v1/matches/{match_id}/actions", "post", 200),
        ("/api/v1/matches/{match_id}/join", "post", 201),
        *((f"/api/v1/games/{game}/matches", "post", 201) for game in GAMES),
        *((score_url(game), "post", 200) for game in GAMES),
    ]:
        assert f"{method} {path} {status}" in shown


def test_every_example_fits_its_schema(document):
    checked = 0
    for where, schema, value in media_examples(document):
        errors = list(validator(document, schema).iter_errors(value))
        assert not errors, (where, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:3]])
        checked += 1
    assert checked >= 20


def test_response_examples_are_what_the_server_answers(client, document):
    """The view examples are the engine's own answers: posting the request example to a match
    of the same table answers the same view, but for the match's id, seed and version."""
    actions = document["paths"]["/api/v1/matches/{match_id}/actions"]["post"]
    example = actions["responses"]["200"]["content"]["application/json"]["examples"]["first"]
    request = actions["requestBody"]["content"]["application/json"]["examples"]["first"]
    shown = example["value"]
    created = client.post(f"/api/v1/games/{shown['game']}/matches", json={
        "players": [p["name"] for p in shown["players"]], "variant": shown["variant"],
        "seed": EXAMPLE_SEED}).get_json()
    token = created["seats"][0]["token"]
    answer = client.post(f"/api/v1/matches/{created['id']}/actions",
                         json={**request["value"], "version": created["version"]},
                         headers={"Authorization": f"Bearer {token}"}).get_json()
    same = {"id", "version", "seeded", "seed_sha256"}
    for player in answer["players"]:  # when a seat was last seen is the clock's, not the game's
        player["last_seen"] = None
    for player in (*answer["players"], *shown["players"]):  # and so is being at the table
        assert isinstance(player.pop("connected"), bool)
    assert {k: v for k, v in answer.items() if k not in same} == \
           {k: v for k, v in shown.items() if k not in same}


@pytest.mark.parametrize("game", GAMES)
def test_a_game_s_box_data_is_typed_all_the_way_down(document, game):
    """A client draws a scoresheet from GET /games/{game} without hard-coding the game (API.md):
    no object there is an open map of anything ({[key: string]: unknown} in a typed client)."""
    untyped, seen = [], set()

    def walk(node, where):
        if isinstance(node, dict):
            if "$ref" in node:
                if node["$ref"] in seen:
                    return
                seen.add(node["$ref"])
                walk(resolve(document, node), node["$ref"])
                return
            if node.get("type") == "object" and "properties" not in node and \
                    not node.get("additionalProperties"):  # none, or {}: anything
                untyped.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk(response_object(document, f"/api/v1/games/{game}", "get", 200), game)
    assert untyped == []


def test_the_document_is_sent_gzipped_to_a_client_that_takes_it_and_revalidated(client):
    """770 KB written anew and sent whole for every request, with nothing to revalidate it by:
    now written once, sent gzipped where it may be, and answered 304 for the copy a client has."""
    plain = client.get("/api/openapi.json")
    packed = client.get("/api/openapi.json", headers={"Accept-Encoding": "gzip, br"})
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 5
    assert json.loads(plain.data) == client.get("/api/openapi.json").get_json()
    for answer in (plain, packed):
        assert "Accept-Encoding" in answer.headers["Vary"]
        assert answer.headers["Content-Type"] == "application/json"
        again = client.get("/api/openapi.json", headers={
            "If-None-Match": answer.headers["ETag"],
            "Accept-Encoding": answer.headers.get("Content-Encoding", "identity")})
        assert again.status_code == 304 and not again.data
    assert plain.headers["ETag"] != packed.headers["ETag"]  # two representations
