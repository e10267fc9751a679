"""Problem types (API.md "Retries, errors, seeds as text"): every problem's `type` is
`/problems/<slug>`, naming its kind for good; every kind the OpenAPI document lists is answered
here by a real request, with its status; `/problems/<slug>` describes it; each operation lists
the kinds it may answer. The tests match on `type`, never on the wording."""

import json
import socket
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from http import HTTPStatus

import pytest
import sqlalchemy as sa
from flask import Response
from flask.testing import FlaskClient

from api import errors
from app import create_app
from tests.api.problem import ANN, BOWLS, PROBLEM_JSON, assert_problem, score_url
from tests.server import Server, serve
from tests.test_malformed_http import exchange

# Every slug ever published: a client may branch on each, so none is renamed or removed.
PUBLISHED = [
    "malformed-request", "body-too-large", "unsupported-media-type", "invalid-header",
    "idempotency-key-reused", "idempotency-key-in-use", "method-not-allowed",
    "range-not-satisfiable", "rate-limited", "database-unavailable", "internal-error",
    "not-found", "unauthorized", "invalid-body", "stale-version", "not-your-turn",
    "not-your-seat", "seat-played-by-bot", "illegal-action", "match-not-started", "match-over",
    "match-not-over", "match-not-waiting", "seat-taken", "name-taken", "seat-already-bot",
    "seat-has-no-token", "host-only", "gone", "too-much-work", "wrong-game", "body-too-slow",
    "study-not-done", "request-line-too-long", "headers-too-large", "expectation-failed",
    "transfer-coding-unsupported", "connection-not-allowed", "tally-changed", "log-full",
    "seat-in-use",
]
MATCHES = "/api/v1/games/dig/matches"
TWO = {"players": ["Ann", "Bob"], "seed": 11}
BOTS = [{"name": "R1", "bot": "random"}, {"name": "R2", "bot": "random"}]


@dataclass
class Sent:
    """A request's answer, and the documented operation it went to (None: no operation)."""
    response: object
    path: str | None = None
    method: str = "get"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """A match of DIG through the API: its tokens, and what each seat may do."""

    def __init__(self, client: FlaskClient, body: dict) -> None:
        created = client.post(MATCHES, json=body)
        assert created.status_code == 201, created.json
        self.client, self.id, self.host = client, created.json["id"], created.json["host_token"]
        self.tokens = {seat["seat"]: seat["token"] for seat in created.json["seats"]}
        self.view = created.json["view"]

    def url(self, tail: str = "") -> str:
        return f"/api/v1/matches/{self.id}{tail}"

    def acting(self) -> int:
        return self.view["to_act"][0]

    def legal(self, seat: int) -> dict:
        return self.client.get(self.url(), headers=auth(self.tokens[seat])).json[
            "legal_actions"][0]

    def act(self, by: int, action: dict, version: int | None = None, **extra):
        version = self.view["version"] if version is None else version
        return self.client.post(self.url("/actions"), headers=auth(self.tokens[by]),
                                json={"action": action, "version": version, **extra})


ACTIONS = "/api/v1/matches/{match_id}/actions"
MATCH = "/api/v1/matches/{match_id}"


# --- one real request for each kind ----------------------------------------------------------

def malformed_request(client, app, **_) -> Sent:
    return Sent(client.post(score_url("dig"), data="{", content_type="application/json"),
                "/api/v1/games/dig/score", "post")


def body_too_large(client, app, **_) -> Sent:
    data = json.dumps({"bowls": BOWLS, "players": [ANN], "pad": " " * 64 * 1024})
    return Sent(client.post(score_url("dig"), data=data, content_type="application/json"),
                "/api/v1/games/dig/score", "post")


def unsupported_media_type(client, app, **_) -> Sent:
    return Sent(client.post(score_url("dig"), data=json.dumps({"bowls": BOWLS, "players": [ANN]}),
                            content_type="text/plain"), "/api/v1/games/dig/score", "post")


def invalid_header(client, app, **_) -> Sent:
    return Sent(client.post(MATCHES, json=TWO, headers={"Idempotency-Key": "two words"}),
                MATCHES, "post")


def idempotency_key_reused(client, app, **_) -> Sent:
    assert client.post(MATCHES, json=TWO, headers={"Idempotency-Key": "k1"}).status_code == 201
    return Sent(client.post(MATCHES, json={**TWO, "seed": 12}, headers={"Idempotency-Key": "k1"}),
                MATCHES, "post")


def idempotency_key_in_use(client, app, **_) -> Sent:
    """The same request while its first sending is still being answered: its key is held."""
    from api.idempotency import caller, meant

    body, where = json.dumps(TWO).encode(), {"REMOTE_ADDR": "192.0.2.7"}
    with app.test_request_context(MATCHES, method="POST", data=body, environ_base=where):
        app.extensions["digsite_idempotency"].claim(caller(), "held", b"POST %s\n%s" % (
            MATCHES.encode(), meant(body)))
    response = client.post(MATCHES, data=body, content_type="application/json",
                           headers={"Idempotency-Key": "held"}, environ_base=where)
    assert response.headers["Retry-After"] == "1"
    return Sent(response, MATCHES, "post")


def method_not_allowed(client, app, **_) -> Sent:
    return Sent(client.get(score_url("dig")))


def range_not_satisfiable(client, app, **_) -> Sent:
    return Sent(client.get("/web/app.js", headers={"Range": "bytes=99999999-"}))


def rate_limited(client, app, tmp_path, **_) -> Sent:
    limited = create_app({"TESTING": True, "DIGSITE_RATE_LIMIT": "1/minute",
                          "DATABASE_URL": f"sqlite:///{tmp_path / 'limited.db'}"}).test_client()
    assert limited.post(MATCHES, json=TWO).status_code == 201
    return Sent(limited.post(MATCHES, json=TWO), MATCHES, "post")


def database_unavailable(client, app, tmp_path, **_) -> Sent:
    table = Table(client, TWO)
    app.extensions["digsite_storage"].engine = sa.create_engine(
        f"sqlite:///{tmp_path / 'no' / 'such' / 'folder' / 'digsite.db'}")
    return Sent(client.get(table.url()), MATCH)


def internal_error(client, app, monkeypatch, **_) -> Sent:
    table = Table(client, TWO)
    app.config["TESTING"] = False  # the error handler answers, as in production

    def broken(*args, **kwargs):
        raise RuntimeError("a fault of ours")
    monkeypatch.setattr(type(app.extensions["digsite_matches"]), "view", broken)
    return Sent(client.get(table.url()))  # documented by every operation's `default`


def not_found(client, app, **_) -> Sent:
    return Sent(client.get("/api/v1/matches/" + "0" * 32), MATCH)


def unauthorized(client, app, **_) -> Sent:
    table = Table(client, TWO)
    return Sent(client.get(table.url(), headers=auth("not-a-token")), MATCH)


def invalid_body(client, app, **_) -> Sent:
    return Sent(client.post(score_url("dig"), json={"bowls": BOWLS, "players": []}),
                "/api/v1/games/dig/score", "post")


def stale_version(client, app, **_) -> Sent:
    table = Table(client, TWO)
    seat = table.acting()
    return Sent(table.act(seat, table.legal(seat), version=0), ACTIONS, "post")


def not_your_turn(client, app, **_) -> Sent:
    table = Table(client, TWO)
    acting = table.acting()
    return Sent(table.act(1 - acting, table.legal(acting)), ACTIONS, "post")


def not_your_seat(client, app, **_) -> Sent:
    table = Table(client, TWO)
    seat = table.acting()
    return Sent(table.act(seat, table.legal(seat), seat=1 - seat), ACTIONS, "post")


def seat_played_by_bot(client, app, **_) -> Sent:
    table = Table(client, TWO)
    seat = table.acting()
    left = client.post(table.url("/leave"), headers=auth(table.tokens[seat]))
    assert left.status_code == 200
    return Sent(table.act(seat, {"type": "end_turn"}, version=left.json["version"]), ACTIONS,
                "post")


def illegal_action(client, app, **_) -> Sent:
    table = Table(client, TWO)
    return Sent(table.act(table.acting(), {"type": "move", "to": 99}), ACTIONS, "post")


def match_not_started(client, app, **_) -> Sent:
    table = Table(client, {"players": ["Ann", {"open": True}]})
    return Sent(table.act(0, {"type": "end_turn"}), ACTIONS, "post")


def match_over(client, app, **_) -> Sent:
    table = Table(client, {"players": BOTS, "seed": 5})  # bots only: played out at once
    assert table.view["status"] == "finished"
    return Sent(client.post(table.url("/seats/0/bot"), headers=auth(table.host),
                            json={"bot": "greedy"}),
                "/api/v1/matches/{match_id}/seats/{seat}/bot", "post")


def match_not_over(client, app, **_) -> Sent:
    table = Table(client, TWO)
    return Sent(client.post(table.url("/rematch"), headers=auth(table.tokens[0])),
                "/api/v1/matches/{match_id}/rematch", "post")


def match_not_waiting(client, app, **_) -> Sent:
    table = Table(client, TWO)
    return Sent(client.delete(table.url(), headers=auth(table.host)), MATCH, "delete")


def seat_taken(client, app, **_) -> Sent:
    table = Table(client, TWO)
    return Sent(client.post(table.url("/join"), json={"name": "Cy"}),
                "/api/v1/matches/{match_id}/join", "post")


def name_taken(client, app, **_) -> Sent:
    table = Table(client, {"players": ["Ann", {"open": True}]})
    return Sent(client.post(table.url("/join"), json={"name": "Ann"}),
                "/api/v1/matches/{match_id}/join", "post")


def seat_already_bot(client, app, **_) -> Sent:
    table = Table(client, TWO)
    assert client.post(table.url("/leave"), headers=auth(table.tokens[0])).status_code == 200
    return Sent(client.post(table.url("/leave"), headers=auth(table.tokens[0])),
                "/api/v1/matches/{match_id}/leave", "post")


def seat_has_no_token(client, app, **_) -> Sent:
    table = Table(client, {"players": ["Ann", {"open": True}]})
    return Sent(client.post(table.url("/seats/1/token"), headers=auth(table.host)),
                "/api/v1/matches/{match_id}/seats/{seat}/token", "post")


def seat_in_use(client, app, **_) -> Sent:
    table = Table(client, {"players": ["Ann", {"open": True}]})
    client.post(table.url("/join"), json={"name": "Bob"})  # Bob is at the table
    return Sent(client.post(table.url("/seats/1/token"), headers=auth(table.host)),
                "/api/v1/matches/{match_id}/seats/{seat}/token", "post")


def log_full(client, app, monkeypatch, **_) -> Sent:
    table = Table(client, TWO)
    monkeypatch.setattr("service.matches.LOG_CEILING", 0)
    return Sent(client.post(table.url("/seats/1/token"), headers=auth(table.host)),
                "/api/v1/matches/{match_id}/seats/{seat}/token", "post")


def host_only(client, app, **_) -> Sent:
    table = Table(client, {"players": ["Ann", {"open": True}]})
    return Sent(client.delete(table.url(), headers=auth(table.tokens[0])), MATCH, "delete")


def gone(client, app, **_) -> Sent:
    table = Table(client, {"players": ["Ann", {"open": True}]})
    assert client.delete(table.url(), headers=auth(table.host)).status_code == 204
    return Sent(client.get(table.url()), MATCH)


def too_much_work(client, app, **_) -> Sent:
    return Sent(client.post("/api/v1/games/dig/simulations",
                            json={"matches": 400, "players": BOTS}),
                "/api/v1/games/dig/simulations", "post")


def study_not_done(client, app, **_) -> Sent:
    started = client.post("/api/v1/games/dig/studies", json={"matches": 1, "players": [
        "random", "random"]}).json
    return Sent(client.get(f"/api/v1/studies/{started['id']}/report"),
                "/api/v1/studies/{study_id}/report")


def wrong_game(client, app, **_) -> Sent:
    shared = client.post("/api/v1/games/dig/tallies", json={"sheet": None}).json
    return Sent(client.put(f"/api/v1/games/digging-for-dinos/tallies/{shared['tally']['id']}",
                           headers=auth(shared["token"]), json={"sheet": None}),
                "/api/v1/games/digging-for-dinos/tallies/{tally_id}", "put")


def tally_changed(client, app, **_) -> Sent:
    shared = client.post("/api/v1/games/dig/tallies", json={"sheet": None}).json
    url = f"/api/v1/games/dig/tallies/{shared['tally']['id']}"
    sheet = {"bowls": ["green", "yellow", "purple", "blue", "red"], "players": [{"name": "Ann"}]}
    assert client.put(url, headers=auth(shared["token"]), json={"sheet": sheet}).status_code == 200
    return Sent(client.put(url, headers={**auth(shared["token"]), "If-Match": '"1"'},
                           json={"sheet": None}), "/api/v1/games/dig/tallies/{tally_id}", "put")


def body_too_slow(client, app, tmp_path, **_) -> Sent:
    """Only the served worker waits for a body (api/bodies.py): a body of which only a part
    comes, sent to gunicorn with a one-second deadline."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'slow.db'}", "DIGSITE_BODY_SECONDS": "1"}
    with serve(env, workers=1) as server, \
            socket.create_connection(("127.0.0.1", server.port), timeout=15) as sock:
        sock.sendall(b"POST /api/v1/games/dig/score HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{")
        received = b""
        while not received.endswith(b"}"):
            received += sock.recv(65536)
    head, _, body = received.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    return Sent(Response(body, status, content_type=PROBLEM_JSON), "/api/v1/games/dig/score",
                "post")


# The kinds gunicorn itself answers (serving.py), to a request the app never sees: sent to a
# served app that takes the PROXY protocol from one address only, not the tests'.
SERVED_ENV = {"GUNICORN_CMD_ARGS": "--proxy-protocol auto --proxy-allow-from 192.0.2.1"}


def answered_by_gunicorn(served, data: bytes) -> Sent:
    answers, _ = exchange(served().port, data)
    return Sent(Response(answers[0].body, answers[0].status,
                         content_type=answers[0].headers["content-type"]))


def request_line_too_long(client, app, served, **_) -> Sent:
    return answered_by_gunicorn(served, b"GET /api/v1/games?" + b"a" * 5000
                                + b" HTTP/1.1\r\nHost: x\r\n\r\n")


def headers_too_large(client, app, served, **_) -> Sent:
    return answered_by_gunicorn(served, b"GET /api/v1/games HTTP/1.1\r\nHost: x\r\nX-Long: "
                                + b"a" * 9000 + b"\r\n\r\n")


def expectation_failed(client, app, served, **_) -> Sent:
    return answered_by_gunicorn(served, b"POST /api/v1/games/dig/score HTTP/1.1\r\nHost: x\r\n"
                                b"Expect: tea\r\nContent-Length: 0\r\n\r\n")


def transfer_coding_unsupported(client, app, served, **_) -> Sent:
    return answered_by_gunicorn(served, b"POST /api/v1/games/dig/score HTTP/1.1\r\nHost: x\r\n"
                                b"Transfer-Encoding: zip\r\n\r\n")


def connection_not_allowed(client, app, served, **_) -> Sent:
    return answered_by_gunicorn(served, b"PROXY TCP4 198.51.100.7 192.0.2.2 5555 80\r\n"
                                b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")


REQUESTS: dict[str, Callable[..., Sent]] = {
    slug: globals()[slug.replace("-", "_")] for slug in PUBLISHED}


@pytest.fixture
def document(client):
    return client.get("/api/openapi.json").get_json()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The served app (SERVED_ENV) the kinds gunicorn answers are sent to: started when first
    asked for, once for the module."""
    with ExitStack() as stack:
        started: list[Server] = []

        def server() -> Server:
            if not started:
                database = tmp_path_factory.mktemp("served") / "digsite.db"
                started.append(stack.enter_context(serve(
                    {"DATABASE_URL": f"sqlite:///{database}", **SERVED_ENV}, workers=1)))
            return started[0]
        yield server


def types_listed(document) -> list[str]:
    return document["components"]["schemas"]["Problem"]["properties"]["type"]["enum"]


def test_the_document_lists_every_kind_and_each_is_answered_below(document):
    listed = types_listed(document)
    assert len(listed) == len(set(listed))
    assert {f"/problems/{slug}" for slug in REQUESTS} == set(listed)


def test_no_published_type_is_ever_renamed_or_removed(document):
    assert {f"/problems/{slug}" for slug in PUBLISHED} <= set(types_listed(document))


@pytest.mark.parametrize("slug", PUBLISHED)
def test_each_kind_is_answered_with_its_type_and_status(app, client, document, tmp_path,
                                                        monkeypatch, served, slug):
    sent = REQUESTS[slug](client, app, tmp_path=tmp_path, monkeypatch=monkeypatch, served=served)
    page = client.get(f"/problems/{slug}").get_json()
    body = assert_problem(sent.response, page["status"], kind=slug)
    assert body["type"] == page["type"] == f"/problems/{slug}"
    assert body["title"] == HTTPStatus(page["status"]).phrase  # as before types had names
    if sent.path is None:  # answered before any operation: every operation's `default` says it
        default = document["components"]["responses"]["DEFAULT_ERROR"]
        assert slug in default["content"][PROBLEM_JSON]["examples"], default["description"]
        return
    operation = document["paths"][sent.path][sent.method]
    assert body["type"] in operation["x-problem-types"], operation["x-problem-types"]
    response = operation["responses"][str(page["status"])]
    if "$ref" not in response:  # a status several kinds share: the operation lists its own
        assert slug in response["content"][PROBLEM_JSON]["examples"]


def test_each_kind_has_a_page_that_describes_it(client, document):
    listing = client.get("/problems")
    assert listing.status_code == 200 and listing.mimetype == "application/json"
    kinds = listing.get_json()["problems"]
    assert [kind["type"] for kind in kinds] == types_listed(document)
    for kind in kinds:
        page = client.get(kind["type"])  # the type, a relative URI, leads to its page
        assert page.status_code == 200 and page.get_json() == kind
        assert set(kind) == {"type", "title", "status", "description"}
        assert kind["title"] and len(kind["description"]) > len(kind["title"])
        assert 400 <= kind["status"] < 600
        assert "max-age" in page.headers["Cache-Control"]


def test_an_unknown_problem_type_is_not_found(client):
    assert_problem(client.get("/problems/teapot"), 404, kind="not-found")


def test_one_kind_worded_in_several_ways_keeps_one_type(client):
    """Who cannot act is told so in words fitting the case; the type is the kind's alone."""
    table = Table(client, TWO)
    url = table.url("/actions")
    body = {"action": {"type": "end_turn"}, "version": 1}
    answers = [client.post(url, json=body),
               client.post(url, json=body, headers=auth("not-a-token")),
               client.post(url, json=body, headers={"Authorization": "Basic abc"})]
    assert len({answer.get_json()["detail"] for answer in answers}) == 3
    for answer in answers:
        assert_problem(answer, 401, kind="unauthorized")
    lobby = Table(client, {"players": ["Ann", {"open": True}, {"open": True}]})
    full = [client.post(lobby.url("/join"), json={"name": "Cy", "seat": 0}),
            client.post(table.url("/join"), json={"name": "Cy"})]
    assert full[0].get_json()["detail"] != full[1].get_json()["detail"]
    for answer in full:
        assert_problem(answer, 409, kind="seat-taken")


def test_a_reworded_answer_keeps_its_type(client, monkeypatch):
    before = assert_problem(client.get("/api/v1/nope"), 404)
    monkeypatch.setitem(errors.DETAILS, 404, "Nothing here, friend.")
    after = assert_problem(client.get("/api/v1/nope"), 404)
    assert after["detail"] != before["detail"] and after["type"] == before["type"]


def test_each_operation_lists_the_kinds_of_each_status_it_documents(client, document):
    """`x-problem-types` names a kind for every error status an operation documents, and no
    kind of a status it does not."""
    listed = set(types_listed(document))
    kinds = {kind["type"]: kind for kind in client.get("/problems").get_json()["problems"]}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            types = operation["x-problem-types"]
            assert set(types) <= listed, (path, method)
            statuses = {status for status in operation["responses"]
                        if status != "default" and int(status) >= 400}
            assert statuses == {str(kinds[uri]["status"]) for uri in types}, (path, method)


@pytest.mark.parametrize(("path", "method", "conflicts"), [
    (ACTIONS, "post", {"stale-version", "match-not-started", "match-over", "log-full",
                      "idempotency-key-in-use"}),
    ("/api/v1/matches/{match_id}/join", "post",
     {"seat-taken", "stale-version", "log-full", "idempotency-key-in-use"}),
    (MATCH, "delete", {"match-not-waiting", "stale-version"}),
    ("/api/v1/matches/{match_id}/rematch", "post",
     {"match-not-over", "seat-already-bot", "seat-taken", "stale-version",
      "idempotency-key-in-use"}),
])
def test_a_conflict_says_which_of_its_meanings_an_operation_may_answer(document, path, method,
                                                                       conflicts):
    response = document["paths"][path][method]["responses"]["409"]
    assert set(response["content"][PROBLEM_JSON]["examples"]) == conflicts
    for slug in conflicts:
        assert f"`/problems/{slug}`" in response["description"]
