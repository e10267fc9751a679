"""A table served for real (API.md "Clocks", "Seats, hosts and leaving"): gunicorn on SQLite, and
two app servers sharing PostgreSQL. A clock runs out with no client connected and exactly one
bot turn is logged for it; joins reach every open stream, and a cancellation ends them; `seq` has
no gap."""

import threading
import time

import pytest
import requests

from tests.server import serve_side_by_side

CLOCK_POLL = "0.2"
MOVE_SECONDS = 5  # the shortest clock a match may choose


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# One deployment of each kind for the module: each test plays matches of its own on it.
@pytest.fixture(scope="module", params=["sqlite", "two servers on postgresql"])
def urls(request, tmp_path_factory):
    """The address of each app server of the deployment under test."""
    if request.param == "sqlite":
        database = f"sqlite:///{tmp_path_factory.mktemp('table') / 'digsite.db'}"
    else:
        database = request.getfixturevalue("postgresql_server")
    env = {"DATABASE_URL": database, "DIGSITE_CLOCK_POLL_SECONDS": CLOCK_POLL}
    with serve_side_by_side(env, 1 if request.param == "sqlite" else 2) as servers:
        yield [server.url for server in servers]


def full_log(url: str, match_id: str) -> list[dict]:
    entries, after = [], 0
    while after is not None:
        page = requests.get(f"{url}/api/v1/matches/{match_id}/log",
                            params={"after": after, "limit": 1000}, timeout=10).json()
        entries += page["log"]
        after = page["next"]
    return entries


def test_a_clock_runs_out_with_nobody_connected_and_one_bot_turn_is_logged(urls):
    created = requests.post(f"{urls[0]}/api/v1/games/dig/matches", timeout=10, json={
        "players": ["Ann", "Bob"], "seed": 5,
        "clock": {"move_seconds": MOVE_SECONDS}}).json()
    late = created["view"]["to_act"][0]
    # The bot's turn is thought in a niced process: on busy cores it may come late, never twice.
    deadline = time.monotonic() + MOVE_SECONDS + 60
    log: list[dict] = []
    while time.monotonic() < deadline:
        time.sleep(0.5)
        log = full_log(urls[-1], created["id"])
        if any(e["action"]["type"] == "time_out" for e in log):
            break
    timed_out = [e for e in log if e["action"]["type"] == "time_out"]
    assert len(timed_out) == 1, log
    assert timed_out[0]["seat"] == late and timed_out[0]["events"][0]["type"] == "timed_out"
    # Every worker of every server watches the clocks: still exactly one expiry a little later.
    time.sleep(1.5)
    log = full_log(urls[0], created["id"])
    assert len([e for e in log if e["action"]["type"] == "time_out"]) == 1
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    played = [e for e in log if e["seat"] == late and e["action"]["type"] != "time_out"]
    assert played, "a bot played the late seat's turn"
    assert {e["bot"] for e in played} == {"greedy"}  # the stand-in, named by each move
    assert timed_out[0]["bot"] is None  # the table's own entry
    view = requests.get(f"{urls[0]}/api/v1/matches/{created['id']}", timeout=10,
                        headers=auth(created["seats"][late]["token"])).json()
    assert view["players"][late]["away"] is True
    assert view["clock"]["deadline"] is not None and late not in view["to_act"]


def test_joins_reach_every_open_stream(urls):
    created = requests.post(f"{urls[0]}/api/v1/games/dig/matches", timeout=10, json={
        "players": ["Ann", {"open": True}, {"open": True}]}).json()
    heard: list[list[int]] = [[] for _ in range(4)]
    opened = threading.Barrier(len(heard) + 1)

    def listen(k: int) -> None:
        url = urls[k % len(urls)]
        headers = auth(created["seats"][0]["token"]) if k == 0 else {}
        with requests.get(f"{url}/api/v1/matches/{created['id']}/events", headers=headers,
                          stream=True, timeout=20) as response:
            opened.wait()
            for line in response.iter_lines(decode_unicode=True):
                if line.startswith("id: "):
                    heard[k].append(int(line[4:]))
                    if len(heard[k]) == 2:
                        return

    listeners = [threading.Thread(target=listen, args=(k,)) for k in range(len(heard))]
    for listener in listeners:
        listener.start()
    opened.wait(timeout=15)
    time.sleep(0.3)
    for k, name in enumerate(("Bob", "Cy")):
        joined = requests.post(f"{urls[k % len(urls)]}/api/v1/matches/{created['id']}/join",
                               json={"name": name}, timeout=10)
        assert joined.status_code == 201
    for listener in listeners:
        listener.join(timeout=20)
    assert heard == [[1, 2]] * len(heard)


def test_a_cancelled_match_ends_its_open_streams_and_answers_410(urls):
    created = requests.post(f"{urls[0]}/api/v1/games/dig/matches", timeout=10, json={
        "players": ["Ann", {"open": True}]}).json()
    ended: list[float] = []
    opened = threading.Barrier(3)

    def listen(url: str) -> None:
        with requests.get(f"{url}/api/v1/matches/{created['id']}/events", stream=True,
                          timeout=20) as response:
            opened.wait()
            for _ in response.iter_lines():
                pass
        ended.append(time.monotonic())

    listeners = [threading.Thread(target=listen, args=(url,)) for url in (urls[0], urls[-1])]
    for listener in listeners:
        listener.start()
    opened.wait(timeout=15)
    time.sleep(0.3)
    cancelled_at = time.monotonic()
    cancelled = requests.delete(f"{urls[-1]}/api/v1/matches/{created['id']}", timeout=10,
                                headers=auth(created["host_token"]))
    assert cancelled.status_code == 204
    for listener in listeners:
        listener.join(timeout=20)
    assert len(ended) == 2 and max(ended) - cancelled_at < 10  # not the stream's 600 s
    again = requests.get(f"{urls[0]}/api/v1/matches/{created['id']}/events", timeout=10)
    assert again.status_code == 410
