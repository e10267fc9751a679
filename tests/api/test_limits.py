"""Rate limits per client address (api/limits.py): opening matches, joining them and simulations
each have a budget; over it the answer is 429 problem+json with Retry-After and the wait in
words. Calculators, views and actions are never limited. Several app servers sharing a Redis
count one budget, and a Redis that goes away lets requests through instead of failing them."""

import logging
import math
import re
import time

import pytest
import requests

from app import create_app
from service.settings import read
from tests.api.openapi import assert_documented, resolve
from tests.api.problem import ANN, PROBLEM_JSON, assert_problem, score_url
from tests.redis import redis_server, stop_server
from tests.server import free_port, serve

NEW_MATCH = "/api/v1/games/dig/matches"
TABLE = {"players": ["Ann", "Bob"]}
SIMULATIONS = "/api/v1/games/dig/simulations"
BATCH = {"matches": 1, "players": [{"name": "R1", "bot": "random"},
                                   {"name": "R2", "bot": "random"}]}
UNKNOWN_MATCH = "0" * 32


def limited(tmp_path, limit: str | None, **config):
    settings = {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}", **config}
    if limit is not None:
        settings["DIGSITE_RATE_LIMIT"] = limit
    return create_app(settings)


def from_address(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def assert_refused(response, what: str) -> int:
    """A 429 problem whose Retry-After (whole seconds) is the wait its detail gives."""
    body = assert_problem(response, 429)
    wait = int(response.headers["Retry-After"])
    assert wait >= 1
    assert body["detail"].startswith(f"Too many {what} from your address; try again in ")
    return wait


@pytest.mark.parametrize(("limit", "window", "in_words"), [
    ("2/minute", 60, lambda wait: f"{wait} s"),
    ("2/hour", 3600, lambda wait: f"{math.ceil(wait / 60)} min"),
])
def test_over_the_budget_a_new_match_is_refused_with_retry_after(tmp_path, limit, window,
                                                                  in_words):
    client = limited(tmp_path, limit).test_client()
    assert [client.post(NEW_MATCH, json=TABLE).status_code for _ in range(2)] == [201, 201]
    refused = client.post(NEW_MATCH, json=TABLE)
    wait = assert_refused(refused, "new matches")
    assert window - 5 <= wait <= window
    assert refused.get_json()["detail"].endswith(f"try again in {in_words(wait)}.")
    document = client.get("/api/openapi.json").get_json()
    assert_documented(document, NEW_MATCH, "post", refused)
    # Asking again does not spend the budget any further: the wait only shrinks.
    assert int(client.post(NEW_MATCH, json=TABLE).headers["Retry-After"]) <= wait


def test_a_rematch_is_a_new_match_the_budget_counts(tmp_path):
    """Both seats leaving (the bots finish the match) and claiming its rematch opened 30
    matches in a second, past a budget of 20 a minute; and a seat could claim again and
    again, each claim a new token, a log entry and a webhook."""
    client = limited(tmp_path, "3/minute").test_client()
    created = client.post(NEW_MATCH, json={"players": ["Ann", {"name": "Robo", "bot": "greedy"}],
                                           "stand_in_bot": "greedy"}).get_json()
    ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    match = f"/api/v1/matches/{created['id']}"
    assert client.post(f"{match}/leave", headers=ann).status_code == 200
    assert client.get(match).get_json()["status"] == "finished"
    claims = [client.post(f"{match}/rematch", headers=ann) for _ in range(3)]
    assert [c.status_code for c in claims[:2]] == [201, 200]
    assert_refused(claims[2], "new matches")
    # A claim that is no seat's is told so, not to wait: it spent nothing (it read "Too many
    # new matches from your address", a token mistyped looking like throttling).
    for headers in ({}, {"Authorization": "Bearer wrong"}):
        refused = client.post(f"{match}/rematch", headers=headers)
        assert refused.status_code == 401, refused.get_json()


def test_each_kind_has_its_own_budget_that_every_game_shares(tmp_path):
    client = limited(tmp_path, "1/minute").test_client()
    opened = client.post(NEW_MATCH, json={"players": ["Ann", {"open": True}, {"open": True}]})
    assert opened.status_code == 201
    assert_refused(client.post("/api/v1/games/dig-it-up/matches",
                               json={"players": ["Ann", "Bob"], "variant": "small"}),
                   "new matches")
    join = f"/api/v1/matches/{opened.get_json()['id']}/join"
    assert client.post(join, json={"name": "Bob"}).status_code == 201
    assert_refused(client.post(join, json={"name": "Cy"}), "requests to join a match")
    assert client.post(SIMULATIONS, json=BATCH).status_code == 200
    assert_refused(client.post("/api/v1/games/digging-for-dinos/simulations", json=BATCH),
                   "simulations")
    # a QR code of a secret link, posted: a tenth of a second of CPU each, counted by none
    assert client.post("/qr.svg", json={"text": "€" * 512}).status_code == 200
    assert_refused(client.post("/qr.svg", json={"text": "x"}), "QR codes")


def test_another_address_has_a_budget_of_its_own(tmp_path):
    client = limited(tmp_path, "1/minute").test_client()
    assert client.post(NEW_MATCH, json=TABLE, **from_address("192.0.2.1")).status_code == 201
    assert_refused(client.post(NEW_MATCH, json=TABLE, **from_address("192.0.2.1")),
                   "new matches")
    for other in ("192.0.2.2", "2001:db8::1"):
        assert client.post(NEW_MATCH, json=TABLE, **from_address(other)).status_code == 201


def test_an_ipv6_network_of_64_bits_is_one_client_and_a_mapped_ipv4_address_is_that_address(
        tmp_path):
    client = limited(tmp_path, "1/minute").test_client()
    assert client.post(NEW_MATCH, json=TABLE, **from_address("2001:db8:0:7::1")).status_code \
        == 201
    for same in ("2001:db8:0:7::2", "2001:db8:0:7:ffff:ffff:ffff:ffff",
                 "2001:DB8:0:7:0:0:0:1"):
        assert_refused(client.post(NEW_MATCH, json=TABLE, **from_address(same)), "new matches")
    assert client.post(NEW_MATCH, json=TABLE, **from_address("2001:db8:0:8::1")).status_code \
        == 201
    assert client.post(NEW_MATCH, json=TABLE, **from_address("192.0.2.7")).status_code == 201
    assert_refused(client.post(NEW_MATCH, json=TABLE, **from_address("::ffff:192.0.2.7")),
                   "new matches")


def test_once_the_wait_is_over_the_address_may_go_on(tmp_path):
    client = limited(tmp_path, "2/second").test_client()
    assert [client.post(NEW_MATCH, json=TABLE).status_code for _ in range(2)] == [201, 201]
    wait = assert_refused(client.post(NEW_MATCH, json=TABLE), "new matches")
    assert wait == 1
    time.sleep(wait + 0.05)
    assert client.post(NEW_MATCH, json=TABLE).status_code == 201


def test_off_turns_the_limits_off(tmp_path, monkeypatch):
    monkeypatch.setenv("DIGSITE_RATE_LIMIT", "1/minute")
    client = limited(tmp_path, "off").test_client()  # the app's config before the environment
    assert {client.post(NEW_MATCH, json=TABLE).status_code for _ in range(5)} == {201}
    monkeypatch.setenv("DIGSITE_RATE_LIMIT", "OFF")
    client = limited(tmp_path, None).test_client()
    assert {client.post(SIMULATIONS, json=BATCH).status_code for _ in range(3)} == {200}


def test_the_environment_sets_the_limit_when_the_config_does_not(tmp_path, monkeypatch):
    monkeypatch.setenv("DIGSITE_RATE_LIMIT", "1/minute")
    client = limited(tmp_path, None).test_client()
    assert client.post(NEW_MATCH, json=TABLE).status_code == 201
    assert_refused(client.post(NEW_MATCH, json=TABLE), "new matches")


def test_a_limit_that_does_not_read_stops_the_app_from_starting(tmp_path):
    with pytest.raises(ValueError, match="DIGSITE_RATE_LIMIT"):
        limited(tmp_path, "twenty a minute")


@pytest.mark.parametrize(("storage", "shown"), [
    ("bogus://x", "bogus://x"),
    ("127.0.0.1:6379", "127.0.0.1:6379"),
    ("memcached://cache:11211", "memcached://cache:11211"),  # no moving windows
    ("mongodb://db:27017", "mongodb://db:27017"),  # its client is not installed
    ("redis://:secret@cache:port/0", "redis://:***@cache:port/0"),
])
def test_a_store_the_limits_cannot_count_in_stops_the_app_from_starting(tmp_path, storage,
                                                                        shown):
    """It stopped the app with the limits library's "unknown storage scheme", or a complaint
    about the store or its client, none naming the setting."""
    with pytest.raises(ValueError) as refused:
        limited(tmp_path, None, DIGSITE_RATE_LIMIT_STORAGE=storage)
    assert str(refused.value) == (
        f"DIGSITE_RATE_LIMIT_STORAGE: {shown!r} is no store the limits can count in: write a "
        "Redis URL such as redis://127.0.0.1:6379/0 (or rediss://, redis+unix://, "
        "redis+sentinel://, redis+cluster://), or memory://.")


@pytest.mark.parametrize("storage", [
    "memory://", "redis://127.0.0.1:6379/0", "rediss://:secret@cache:6380",
    "redis+unix:///run/redis.sock", "redis+sentinel://s1:26379,s2:26379/digsite",
    "redis+cluster://n1:7000,n2:7000"])
def test_the_stores_the_limits_count_in_are_taken(storage):
    assert read({"DIGSITE_RATE_LIMIT_STORAGE": storage}, {}).digsite_rate_limit_storage == storage


def test_calculators_views_and_actions_are_not_limited(tmp_path):
    client = limited(tmp_path, "1/minute").test_client()
    created = client.post(NEW_MATCH, json={**TABLE, "seed": 3}).get_json()
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    match = f"/api/v1/matches/{created['id']}"
    for _ in range(5):
        assert client.post(score_url("dig"), json={"bowls": ["green", "yellow", "purple", "blue",
                                                             "red"],
                                                   "players": [ANN]}).status_code == 200
        assert client.get(match).status_code == 200
        assert client.get(f"{match}/log").status_code == 200
        assert client.get("/api/v1/games").status_code == 200
    for _ in range(5):  # a seat's turns: as many as the game asks for
        public = client.get(match).get_json()
        seat = public["to_act"][0]
        view = client.get(match, headers={"Authorization": f"Bearer {tokens[seat]}"}).get_json()
        acted = client.post(f"{match}/actions",
                            json={"action": view["legal_actions"][0], "version": view["version"]},
                            headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert acted.status_code == 200, acted.get_json()


def test_the_document_lists_429_with_retry_after_on_exactly_the_limited_operations(tmp_path):
    """Every POST is sent twice from an address of its own under a budget of one: the second
    answer is 429 where the document lists it, and that 429 carries Retry-After; the document
    lists it besides only where bots may think."""
    client = limited(tmp_path, "1/minute").test_client()
    document = client.get("/api/openapi.json").get_json()
    posts = [path for path, item in document["paths"].items() if "post" in item]
    documented, refused = set(), set()
    for i, path in enumerate(posts):
        responses = document["paths"][path]["post"]["responses"]
        if "429" in responses:
            documented.add(path)
            header = resolve(document, responses["429"])["headers"]["Retry-After"]
            assert header["schema"]["type"] == "integer"
        url = path.replace("{match_id}", UNKNOWN_MATCH)
        answers = [client.post(url, json={}, **from_address(f"198.51.100.{i}")) for _ in range(2)]
        if answers[1].status_code == 429:
            refused.add(path)
            assert_documented(document, path, "post", answers[1])
    # (a rematch's budget is spent once the claim is a seat's: test_a_rematch_is_a_new_match…)
    assert refused == {"/api/v1/matches/{match_id}/join",
                       *(f"/api/v1/games/{game}/{kind}" for game in
                         ("dig-it-up", "dig", "digging-for-dinos")
                         for kind in ("matches", "simulations", "tallies", "studies"))}
    # and those in which bots think, refused once their thinking budget is spent
    # (tests/api/test_thinking_limit.py)
    assert documented == refused | {f"/api/v1/matches/{{match_id}}/{rest}" for rest in (
        "actions", "leave", "seats/{seat}/bot", "rematch")}


def test_an_unreachable_shared_store_lets_requests_through_and_counts_in_memory(tmp_path,
                                                                                  caplog):
    nothing_there = f"redis://127.0.0.1:{free_port()}/0"
    client = limited(tmp_path, "2/minute", DIGSITE_RATE_LIMIT_STORAGE=nothing_there).test_client()
    with caplog.at_level(logging.WARNING, logger="api.limits"):
        assert [client.post(NEW_MATCH, json=TABLE).status_code for _ in range(2)] == [201, 201]
        assert_refused(client.post(NEW_MATCH, json=TABLE), "new matches")
    assert any("unreachable" in record.getMessage() for record in caplog.records)


# --- served: gunicorn's gevent workers, several app servers, one Redis ----------------------------


def served_env(limit: str, storage: str) -> dict[str, str]:
    return {"DIGSITE_RATE_LIMIT": limit, "DIGSITE_RATE_LIMIT_STORAGE": storage}


def open_match(server) -> requests.Response:
    # A new connection each time, so that every worker of the server takes its share.
    return requests.post(server.url + NEW_MATCH, json=TABLE, timeout=10,
                         headers={"Connection": "close"})


def test_app_servers_sharing_a_redis_share_one_budget(tmp_path):
    database = f"sqlite:///{tmp_path / 'digsite.db'}"
    env = {"DATABASE_URL": database}
    with redis_server() as redis_url, \
            serve({**env, **served_env("4/minute", redis_url)}, workers=1) as first, \
            serve({**env, **served_env("4/minute", redis_url)}, workers=1) as second:
        # Each would let all six through if it counted alone.
        statuses = [open_match(server).status_code for server in (first, second) * 2]
        assert statuses == [201] * 4
        for server in (first, second):
            refused = open_match(server)
            assert refused.status_code == 429
            assert refused.headers["Content-Type"] == PROBLEM_JSON
            assert 1 <= int(refused.headers["Retry-After"]) <= 60
            assert refused.json()["detail"].startswith("Too many new matches from your address")


def test_when_redis_goes_away_requests_are_served_not_failed(tmp_path):
    database = f"sqlite:///{tmp_path / 'digsite.db'}"
    with redis_server() as redis_url:
        with serve({"DATABASE_URL": database, **served_env("3/minute", redis_url)},
                   workers=1) as server:
            assert open_match(server).status_code == 201
            stop_server(redis_url)
            # The worker counts in its own memory from then on: served, and still limited.
            assert [open_match(server).status_code for _ in range(4)] == [201, 201, 201, 429]
            assert requests.post(server.url + score_url("dig"), timeout=10, json={
                "bowls": ["green", "yellow", "purple", "blue", "red"],
                "players": [ANN]}).status_code == 200
    assert "unreachable" in server.log()


def test_a_limited_request_is_told_its_limits_and_what_is_left(tmp_path):
    """The IETF draft's RateLimit-Policy and RateLimit headers, on every answer to a limited
    request, the refusal too; documented on each; none on a request that is not limited."""
    client = limited(tmp_path, "3/minute;10/hour").test_client()
    answers = [client.post(NEW_MATCH, json=TABLE) for _ in range(4)]
    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    for answer in answers:
        assert answer.headers["RateLimit-Policy"] == '"60s";q=3;w=60, "3600s";q=10;w=3600'
    left = [re.fullmatch(r'"60s";r=(\d+);t=(\d+)', a.headers["RateLimit"]) for a in answers]
    assert [int(match[1]) for match in left] == [2, 1, 0, 0]
    assert all(0 < int(match[2]) <= 60 for match in left)
    assert "RateLimit" not in client.get("/api/v1/games").headers
    document = client.get("/api/openapi.json").get_json()
    responses = document["paths"][NEW_MATCH]["post"]["responses"]
    shared = document["components"]["responses"]["TOO_MANY_REQUESTS"]
    for response in (responses["201"], shared):
        assert {"RateLimit", "RateLimit-Policy"} <= set(response["headers"])


def test_the_hour_s_limit_is_told_once_it_is_the_nearer(tmp_path):
    client = limited(tmp_path, "5/minute;2/hour").test_client()
    assert client.post(NEW_MATCH, json=TABLE).headers["RateLimit"].startswith('"3600s";r=1;')


def test_a_redis_cluster_away_at_start_is_counted_in_memory_until_it_answers(tmp_path, caplog):
    """A Redis Cluster's client connects as it is made: one whose nodes did not answer stopped
    every worker at start with redis-py's ConnectionError. It is counted like any shared store
    that is away: in memory meanwhile, the requests served."""
    app = limited(tmp_path, "2/minute",
                  DIGSITE_RATE_LIMIT_STORAGE="redis+cluster://127.0.0.1:1")
    client = app.test_client()
    answers = [client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"]},
                           **from_address("198.51.100.9")).status_code for _ in range(3)]
    assert answers == [201, 201, 429]  # counted in this process's memory
    assert "Rate limit storage unreachable" in caplog.text


def test_a_shared_store_back_after_an_outage_is_said_to_be_back(monkeypatch, caplog):
    """The outage was logged, its end never: an operator could not tell when counting was
    shared again."""
    from api import limits

    away = [True]  # the shared store refuses its first request

    def act(store):
        if store is stores.memory:
            return "in memory"
        if away.pop() if away else False:
            raise ConnectionError("refused")
        return "shared"

    monkeypatch.setattr(limits, "storage_from_string", lambda url, **options: object())
    monkeypatch.setattr(limits, "SHARED_RETRY_SECONDS", 0)
    stores = limits.Stores(lambda storage: storage, "redis://127.0.0.1:1")
    with caplog.at_level(logging.WARNING, logger="api.limits"):
        assert stores._using(act) == "in memory"  # counted in this process meanwhile
        assert stores._using(act) == "shared"
        assert stores._using(act) == "shared"
    said = [record.getMessage() for record in caplog.records]
    assert [m for m in said if "reachable again" in m] == [
        "Rate limit storage reachable again; counting there again"]
    assert said.index(next(m for m in said if "unreachable" in m)) < said.index(
        "Rate limit storage reachable again; counting there again")
