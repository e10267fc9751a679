"""A database outage (PostgreSQL stopped under a served app): every operation that needs the
database answers 503 problem+json with Retry-After, streams included, rather than 500; the
calculators, which need none, go on answering; once the database is back, everything works
again without a restart."""

import requests

from api.schemas import dig
from tests.pg import postgres_cluster, start_server, stop_server
from tests.server import serve


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_every_stored_operation_answers_503_while_the_database_is_away():
    with postgres_cluster() as url, serve({"DATABASE_URL": url}, workers=2) as server:
        api = f"{server.url}/api/v1"
        created = requests.post(f"{api}/games/dig/matches", timeout=10,
                                json={"players": ["Ann", "Bob"], "seed": 4}).json()
        match = created["id"]
        token = created["seats"][created["view"]["to_act"][0]]["token"]
        action = requests.get(f"{api}/matches/{match}", headers=auth(token),
                              timeout=10).json()["legal_actions"][0]
        tally = requests.post(f"{api}/games/dig/tallies", json={"sheet": None},
                              timeout=10).json()
        calls = [
            ("post", f"{api}/games/dig/matches", {"json": {"players": ["Ann", "Bob"]}}),
            ("get", f"{api}/games/dig/matches", {}),
            ("get", f"{api}/matches/{match}", {"headers": auth(token)}),
            ("post", f"{api}/matches/{match}/actions",
             {"headers": auth(token), "json": {"action": action, "version": 1}}),
            ("get", f"{api}/matches/{match}/log", {}),
            ("get", f"{api}/matches/{match}/events", {}),
            ("post", f"{api}/matches/{match}/leave", {"headers": auth(token)}),
            ("get", f"{api}/tallies/{tally['tally']['id']}", {}),
            ("get", f"{api}/tallies/{tally['tally']['id']}/events", {}),
            ("put", f"{api}/games/dig/tallies/{tally['tally']['id']}",
             {"headers": auth(tally["token"]), "json": {"sheet": None}}),
        ]
        stop_server(url)
        try:
            for method, address, options in calls * 2:  # every worker, whichever answers
                answer = requests.request(method, address, timeout=15, **options)
                assert answer.status_code == 503, (method, address, answer.text)
                assert answer.headers["Content-Type"] == "application/problem+json"
                assert answer.headers["Retry-After"] == "5"
                assert "try again" in answer.json()["detail"]
            score = requests.post(f"{api}/games/dig/score", json=dig.EXAMPLES["ann"]["value"],
                                  timeout=10)
            assert score.status_code == 200
        finally:
            start_server(url)
        view = requests.get(f"{api}/matches/{match}", headers=auth(token), timeout=15)
        assert view.status_code == 200 and view.json()["version"] == 1
        assert requests.get(f"{api}/tallies/{tally['tally']['id']}", timeout=10).status_code \
            == 200
