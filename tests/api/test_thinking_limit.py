"""The thinking limit (api/limits.py): the CPU seconds bots think, per address and per match.
Once a budget is spent, a request in which bots would think answers 429 with Retry-After and
nothing played or changed; a move in a match of people alone is never refused."""

import random
import threading

import pytest
import requests

from app import create_app
from tests.api.problem import assert_problem
from tests.pg import postgres_cluster
from tests.redis import redis_server
from tests.server import serve

SEARCH = "mcts"
SIMULATION = {"players": [{"name": "A", "bot": SEARCH}, {"name": "B", "bot": "greedy"}],
              "matches": 3}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def limited(tmp_path):
    """An app whose bots may think one second a minute, for each address and each match."""
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                      "DIGSITE_THINKING_LIMIT": "1/minute"})
    return app.test_client()


def from_address(address: str) -> dict:
    return {"environ_overrides": {"REMOTE_ADDR": address}}


def simulate_until_refused(client, address: str = "10.0.0.1", tries: int = 30):
    """Simulations from `address` until one is refused: the answers, the refusal last."""
    answers = []
    for _ in range(tries):
        answers.append(client.post("/api/v1/games/dig/simulations", json=SIMULATION,
                                   **from_address(address)))
        if answers[-1].status_code != 200:
            break
    return answers


def refused_for_thinking(response, whose: str) -> None:
    body = assert_problem(response, 429, kind="rate-limited")
    assert 1 <= int(response.headers["Retry-After"]) <= 60
    assert f"all of {whose} share" in body["detail"] and "Nothing was played" in body["detail"]


def test_simulations_are_refused_once_the_address_s_bots_thought_their_budget(limited):
    answers = simulate_until_refused(limited)
    assert [a.status_code for a in answers[:-1]] == [200] * (len(answers) - 1)
    assert len(answers) >= 2  # a second's budget holds at least one batch
    refused_for_thinking(answers[-1], "your address's")
    # Another address has its own budget.
    assert limited.post("/api/v1/games/dig/simulations", json=SIMULATION,
                        **from_address("10.0.0.2")).status_code == 200


def test_a_new_study_s_box_check_is_bots_work_the_budget_counts(limited):
    """A study's box is checked by playing it at every table, in the request: that went
    uncounted, so one address could hold every core with box checks while the budget stayed
    untouched for everyone's bots."""
    # A box of every seat count, played at each table: a second's budget holds a few.
    study = {"matches": 2, "players": ["random", "random"], "box": {"HAND_LIMIT": 2},
             "compare": [{"box": {"HAND_LIMIT": 4, "MAX_MOVE": 6}}]}
    answers = []
    for _ in range(60):
        answers.append(limited.post("/api/v1/games/dig/studies", json=study,
                                    **from_address("10.0.0.3")))
        if answers[-1].status_code != 202:
            break
    assert [a.status_code for a in answers[:-1]] == [202] * (len(answers) - 1)
    refused_for_thinking(answers[-1], "your address's")
    # ... and the address's simulations with it.
    refused_for_thinking(limited.post("/api/v1/games/dig/simulations", json=SIMULATION,
                                      **from_address("10.0.0.3")), "your address's")


def act(client, match_id: str, token: str, address: str, rng: random.Random):
    """A legal action chosen at random (the first alone may walk a dog to and fro, leaving
    the bots little to think about); the view it was chosen from and the answer."""
    view = client.get(f"/api/v1/matches/{match_id}", headers=auth(token)).get_json()
    return view, client.post(f"/api/v1/matches/{match_id}/actions", headers=auth(token),
                             json={"action": rng.choice(view["legal_actions"]),
                                   "version": view["version"]}, **from_address(address))


def test_a_move_against_search_bots_is_refused_with_nothing_changed(limited):
    created = limited.post("/api/v1/games/dig/matches", json={
        "players": ["Ann", {"name": "Rex", "bot": SEARCH}], "seed": 5}).get_json()
    match_id, token = created["id"], created["seats"][0]["token"]
    rng = random.Random(1)
    for _ in range(300):
        view, answer = act(limited, match_id, token, "10.0.0.3", rng)
        assert view["status"] != "finished", "the match ended before the budget did"
        if answer.status_code != 200:
            break
    refused_for_thinking(answer, "your address's")
    after = limited.get(f"/api/v1/matches/{match_id}", headers=auth(token)).get_json()
    assert after["version"] == view["version"] and after["state"] == view["state"]
    # Meanwhile a match of people alone, from the same address, takes every move.
    people = limited.post("/api/v1/games/dig/matches",
                          json={"players": ["Ann", "Bob"], "seed": 6}).get_json()
    tokens = [seat["token"] for seat in people["seats"]]
    for _ in range(10):
        to_act = limited.get(f"/api/v1/matches/{people['id']}").get_json()["to_act"][0]
        assert act(limited, people["id"], tokens[to_act], "10.0.0.3",
                   rng)[1].status_code == 200


def test_a_match_s_bots_have_a_budget_of_their_own_whoever_moves(limited):
    """Two people from two addresses, and a search bot after each: the match's budget runs out
    before either address's does."""
    created = limited.post("/api/v1/games/dig/matches", json={
        "players": ["Ann", "Bob", {"name": "Rex", "bot": SEARCH}], "seed": 8}).get_json()
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    addresses = {0: "10.0.1.1", 1: "10.0.1.2"}
    rng = random.Random(2)
    for _ in range(300):
        view = limited.get(f"/api/v1/matches/{created['id']}").get_json()
        assert view["status"] != "finished", "the match ended before its budget did"
        to_act = view["to_act"][0]
        _, answer = act(limited, created["id"], tokens[to_act], addresses[to_act], rng)
        if answer.status_code != 200:
            break
    detail = answer.get_json()["detail"]
    refused_for_thinking(answer, "this match's" if "match's" in detail else "your address's")
    assert "this match's" in detail


def test_every_operation_in_which_bots_think_documents_the_429(client):
    document = client.get("/api/openapi.json").get_json()
    thinking = [path for path in document["paths"] if path.endswith(
        ("/matches", "/simulations", "/studies", "/actions", "/join", "/leave", "/rematch",
         "/bot")) and "post" in document["paths"][path]]
    assert len(thinking) == 3 + 3 + 3 + 5
    for path in thinking:
        operation = document["paths"][path]["post"]
        assert "429" in operation["responses"], path
        assert "/problems/rate-limited" in operation["x-problem-types"], path


# On PostgreSQL, as app servers that share a Redis run: the budget is counted in Redis whatever
# the database, and the log's durability on SQLite is the storage tests' to show.
def test_a_flood_of_search_bot_moves_and_simulations_is_held_to_the_budget():
    """Two workers counting together in Redis, four clients from one address, two playing
    against search bots and two asking for simulations, until the bots have thought the
    budget: then every request in which bots would think is refused, by either worker, with
    the seconds to wait; nothing but 200 and 429 is answered, and a match's log holds every
    accepted move."""
    with redis_server() as redis, postgres_cluster() as url:
        # An hour's window: it cannot end while the test runs, however slow the machine.
        env = {"DATABASE_URL": url, "DIGSITE_THINKING_LIMIT": "1/hour",
               "DIGSITE_RATE_LIMIT_STORAGE": redis}
        with serve(env, workers=2) as server:
            statuses: list[int] = []
            accepted: dict[str, int] = {}
            refused = threading.Event()

            def play(seed: int) -> None:
                rng = random.Random(seed)
                created = requests.post(f"{server.url}/api/v1/games/dig/matches", timeout=60,
                                        json={"players": ["Ann", {"name": "Rex", "bot": SEARCH}],
                                              "seed": seed}).json()
                token = created["seats"][0]["token"]
                path = f"{server.url}/api/v1/matches/{created['id']}"
                accepted[created["id"]] = 0
                while not refused.is_set():
                    view = requests.get(path, headers=auth(token), timeout=60).json()
                    if view["status"] == "finished":
                        return
                    answer = requests.post(f"{path}/actions", headers=auth(token), timeout=60,
                                           json={"action": rng.choice(view["legal_actions"]),
                                                 "version": view["version"]})
                    statuses.append(answer.status_code)
                    if answer.status_code == 200:
                        accepted[created["id"]] += 1
                    elif answer.status_code == 429:
                        refused.set()

            def simulate() -> None:
                while not refused.is_set():
                    answer = requests.post(f"{server.url}/api/v1/games/dig/simulations",
                                           json=SIMULATION, timeout=60)
                    statuses.append(answer.status_code)
                    if answer.status_code == 429:
                        refused.set()

            clients = [threading.Thread(target=play, args=(seed,)) for seed in (3, 4)] + [
                threading.Thread(target=simulate) for _ in range(2)]
            for thread in clients:
                thread.start()
            assert refused.wait(120), statuses
            for thread in clients:
                thread.join(timeout=120)
            assert set(statuses) <= {200, 429} and 200 in statuses, statuses
            # Spent for this address, whichever worker answers (Redis counts for both).
            for _ in range(4):
                answer = requests.post(f"{server.url}/api/v1/games/dig/simulations",
                                       json=SIMULATION, timeout=60)
                assert answer.status_code == 429, answer.text
                assert 1 <= int(answer.headers["Retry-After"]) <= 3600
                assert "your address's share" in answer.json()["detail"]
            for match_id, moves in accepted.items():
                log = requests.get(f"{server.url}/api/v1/matches/{match_id}/log",
                                   params={"limit": 1000}, timeout=60).json()["log"]
                assert len([e for e in log if e["seat"] == 0]) == moves, (match_id, log)
