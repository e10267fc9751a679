"""schemathesis against the app's own OpenAPI document: seeded and derandomized, 10 examples an
operation (`make fuzz`: 100; valid and invalid requests), plus schemathesis' coverage cases; no
5xx, every answer conforming to the document (for a match operation, its status one the
operation lists).

The match operations run against real matches. Each example's `match_id` is a fresh match of one
of the games (every seat taken, or only the host's), a finished one (the only kind whose event
stream ends, so the only kind the events operation reads), or whatever schemathesis generated
(no match). Its Authorization is a seat token of that match (the seat to act or another),
another match's token, garbage, none, or what schemathesis generated. A body is as generated
(an action from the game's typed union), or carries the match's version, or none (If-Match
says), or is one of the seat's legal actions, or a join under a free name; or one number of its
query or body is past what a database column holds. The choices come from a hash of the
generated case, so the same case always makes the same request."""

import hashlib
import itertools

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import response_schema_conformance

from app import create_app
from scoring.games import GAMES
from tests.api.openapi import closed
from tests.fuzz import examples

CONFIG = schemathesis.Config.from_dict({
    "seed": 20_260_101,
    "generation": {"mode": "all", "max-examples": examples(10), "database": "none",
                   "deterministic": True},
    "checks": {
        # A scoresheet can satisfy the JSON Schema and still be impossible: more stones than the
        # box holds across all players, two players of one name, a mission given by id and by
        # bonus. JSON Schema cannot state such rules; the app answers them with a documented 422,
        # and tests/api/test_properties.py checks that every sheet a real box allows is scored.
        # Likewise a well-formed action is refused while it is not legal (403, 409, 422), and a
        # well-formed join while the seat is taken (409).
        "positive_data_acceptance": {"expected-statuses": ["2xx", "401", "403", "404", "409",
                                                           "410", "422"]},
    },
})

APP = create_app({"TESTING": True, "DATABASE_URL": "sqlite://"})
DOCUMENT = APP.test_client().get("/api/openapi.json").json


@pytest.fixture(scope="module")
def app_schema():
    # checked against the document closed: the server sends no field it does not name
    loaded = schemathesis.openapi.from_dict(closed(DOCUMENT), config=CONFIG)
    loaded.app = APP
    return loaded


@pytest.fixture(autouse=True)
def node_id(request):
    """schemathesis 4.32 names each operation's subtest from the test's `node._nodeid`, which
    pytest 9.2 no longer has."""
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid


# Loaded when its tests run, each operation a subtest of its own: built as the module was
# collected, schemathesis' cases for every operation cost each of make test's four processes
# 4 s of CPU, though only one runs them.
schema = schemathesis.pytest.from_fixture("app_schema")
RAN: set[tuple[str, str]] = set()  # the operations the tests below called
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
FAST_GAMES = ["dig-it-up", "digging-for-dinos"]  # played to the end in a fraction of a second


@schema.exclude(path_regex="matches").parametrize()
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_calculators_conform_to_their_document(case):
    RAN.add((case.method.lower(), case.path))
    response = case.call_and_validate()
    assert response.status_code < 500


def table(game_id: str) -> int:
    game = GAMES[game_id]
    return min(n for variant, n in game.tables() if variant == game.default_variant)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client, game_id: str, players: list) -> dict:
    response = client.post(f"/api/v1/games/{game_id}/matches", json={"players": players,
                                                                     "seed": 7})
    assert response.status_code == 201, response.json
    return response.json


def finish(client, game_id: str) -> dict:
    """A match of `game_id` played to its end, each seat taking its first legal action."""
    created = create(client, game_id, NAMES[:table(game_id)])
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    view = created["view"]
    for _ in range(10_000):
        if view["status"] == "finished":
            return {**created, "view": view}
        seat = view["to_act"][0]
        if view["you"] != seat:
            view = client.get(f"/api/v1/matches/{created['id']}", headers=auth(tokens[seat])).json
        response = client.post(f"/api/v1/matches/{created['id']}/actions",
                               headers=auth(tokens[seat]),
                               json={"action": view["legal_actions"][0],
                                     "version": view["version"]})
        assert response.status_code == 200, response.json
        view = response.json
    raise AssertionError(f"{game_id} did not finish")


FINISHED = {}  # game → a finished match, played once, on first use


def finished(game_id: str) -> dict:
    if game_id not in FINISHED:
        FINISHED[game_id] = finish(APP.test_client(), game_id)
    return FINISHED[game_id]


# Which match an example is about; the events stream is read only for a finished match (a
# playing one streams until it ends) or for no match.
MATCHES = ["generated", "finished", *(f"{kind}:{game}" for kind, game in
                                       itertools.product(["playing", "open"], GAMES))]
# The seat to act is drawn most: only it gets past the token and the turn to the action itself.
AUTHS = ["generated", "none", "to_act", "to_act", "to_act", "seat", "other match",
         "garbage scheme", "garbage token"]
BODIES = ["generated", "version", "no version", "legal", "odd"]
# Whole numbers past what a database column holds (a seq has 32 bits, a seed 63), for one
# number of a query or a body.
ODD_NUMBERS = [2**31, 2**63, 2**64 + 1, -(2**63) - 1, 10**30]


def other_token(client) -> str:
    created = create(client, "digging-for-dinos", NAMES[:2])
    return created["seats"][0]["token"]


def about_authorization(case) -> bool:
    """A coverage case schemathesis made to see how a missing or malformed Authorization header
    is answered: the header stays as it made it, else its check would judge our token."""
    data = getattr(getattr(case.meta, "phase", None), "data", None)
    return str(getattr(data, "parameter", "") or "").lower() == "authorization"


def prepare(case, which: str, game_pick: int, auth_kind: str, seat_pick: int, body_kind: str):
    """Point `case` at a real match and a caller, as the example's draws say."""
    if which == "generated":
        return  # no such match: whatever schemathesis made of the id
    client = APP.test_client()
    if which == "finished" or case.path.endswith("/events"):
        created = finished(FAST_GAMES[game_pick % len(FAST_GAMES)])
    else:
        kind, game_id = which.split(":")
        players = NAMES[:table(game_id)]
        if kind == "open":  # the host's seat taken, the others open
            players = [players[0], *({"open": True} for _ in players[1:])]
        created = create(client, game_id, players)
    case.path_parameters = {**case.path_parameters, "match_id": created["id"]}
    tokens = [s["token"] for s in created["seats"]]
    view = created["view"]
    to_act = view["to_act"][0] if view["to_act"] else 0
    seat = seat_pick % len(tokens)
    if auth_kind != "generated" and not about_authorization(case):
        headers = {k: v for k, v in case.headers.items() if k.lower() != "authorization"}
        headers.update({
            "none": {},
            "to_act": auth(tokens[to_act]),
            "seat": auth(tokens[seat]),
            "other match": auth(other_token(client)),
            "garbage scheme": {"Authorization": f"Basic {tokens[seat]}"},
            "garbage token": auth(tokens[seat][::-1]),
        }[auth_kind])
        case.headers = headers
    if case.method == "GET" and body_kind != "generated":
        body_kind = "odd"  # a GET has no body to vary: its query does
    if body_kind == "odd":  # one number of the query (alone) or of the body
        odd = ODD_NUMBERS[seat_pick % len(ODD_NUMBERS)]
        operation = DOCUMENT["paths"][case.path].get(case.method.lower(), {})
        places = [("query", p["name"]) for p in operation.get("parameters", [])
                  if p["in"] == "query"]
        if isinstance(case.body, dict):
            places += [("body", key) for key, value in case.body.items() if type(value) is int]
        if places:
            where, key = places[game_pick % len(places)]
            if where == "query":
                case.query = {key: odd}
            else:
                case.body = {**case.body, key: odd}
    if not isinstance(case.body, dict) or body_kind in ("generated", "odd"):
        return
    if case.path.endswith("/join"):  # a name not yet at the table, for an open seat
        case.body = {**case.body, "name": "Zed", **({"seat": 1} if "seat" in case.body else {})}
    elif case.path.endswith("/actions") and body_kind == "version":
        case.body = {**case.body, "version": view["version"]}
    elif case.path.endswith("/actions") and body_kind == "no version":  # If-Match, if any, says
        case.body = {key: value for key, value in case.body.items() if key != "version"}
    elif case.path.endswith("/actions") and auth_kind in ("to_act", "seat"):
        mine = client.get(f"/api/v1/matches/{created['id']}",
                          headers=auth(tokens[to_act if auth_kind == "to_act" else seat])).json
        if mine["legal_actions"]:  # one of the seat's legal actions, on the match's version
            legal = mine["legal_actions"][seat_pick % len(mine["legal_actions"])]
            case.body = {**case.body, "action": legal, "version": mine["version"]}


def draws(case) -> tuple[str, int, str, int, str]:
    """The example's choices, drawn from its own generated content: the same case, the same
    choices (schemathesis' explicit examples cannot take @schema.given draws)."""
    digest = hashlib.sha256(repr(case).encode("utf-8", "backslashreplace")).digest()
    return (MATCHES[digest[0] % len(MATCHES)], digest[1], AUTHS[digest[2] % len(AUTHS)],
            digest[3], BODIES[digest[4] % len(BODIES)])


@schema.include(path_regex="matches").parametrize()
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_matches_conform_to_their_document(case):
    RAN.add((case.method.lower(), case.path))
    if "{match_id}" in case.path:
        prepare(case, *draws(case))
    # The event stream's OpenAPI 3.1 `schema` ({"type": "string"}) is the whole stream's text;
    # schemathesis reads it as each event's schema (OpenAPI 3.2 has `itemSchema` for that). Its
    # events are checked by tests/api/test_matches.py.
    stream = case.path.endswith("/events")
    response = case.call_and_validate(
        excluded_checks=[response_schema_conformance] if stream else None)
    assert response.status_code < 500
    operation = DOCUMENT["paths"][case.path].get(case.method.lower())
    if operation is not None:  # not one of the coverage phase's unsupported methods (405)
        # Every answer is one the operation lists, not only as its `default`.
        assert str(response.status_code) in operation["responses"], (
            case.method, case.path, response.status_code)


def test_every_operation_of_the_document_was_called():
    """Run after the two above, in the same process (make test: --dist loadfile)."""
    operations = {(method, path) for path, item in DOCUMENT["paths"].items()
                  for method in item if method != "parameters"}
    assert operations <= RAN, sorted(operations - RAN)
