"""Shared tallies (README "A live shared tally"): the writer creates one and sends each change
with its token; anyone with the id reads it; its totals are the calculator's own answer to the
sheet; followers hear of each change live, served by gunicorn on SQLite and on two app servers
sharing PostgreSQL."""

import functools
import json
import sqlite3
import threading
import time

import pytest
import requests

from api.schemas import dig, dinos
from tests.api.openapi import assert_headers_documented, resolve
from tests.api.problem import assert_problem
from tests.server import serve_side_by_side

SHEET = dig.EXAMPLES["ann"]["value"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def two_players(sheet: dict, second: dict) -> dict:
    return {**sheet, "players": [*sheet["players"], second]}


def test_a_tally_shows_the_calculators_totals_of_the_sheet_sent_and_only_its_writer_changes_it(
        client):
    created = client.post("/api/v1/games/dig/tallies", json={"sheet": None})
    assert created.status_code == 201 and created.headers["Cache-Control"] == "no-store"
    token, tally = created.json["token"], created.json["tally"]
    assert tally["version"] == 1 and tally["sheet"] is None and tally["result"] is None
    path = f"/api/v1/games/dig/tallies/{tally['id']}"
    sheet = two_players(SHEET, {"name": "Bob", "dropped": {"green": 1, "yellow": 2, "purple": 0,
                                                            "blue": 1, "red": 0}})
    changed = client.put(path, json={"sheet": sheet}, headers=auth(token))
    assert changed.status_code == 200, changed.json
    calculated = client.post("/api/v1/games/dig/score", json=sheet).json
    assert changed.json["version"] == 2 and changed.json["result"] == calculated
    read = client.get(f"/api/v1/tallies/{tally['id']}").json
    # the sheet as the calculator takes it: the variant it was scored as filled in
    assert read == changed.json and read["sheet"] == {"variant": "standard", **sheet}
    assert_problem(client.put(path, json={"sheet": sheet}), 401)
    assert_problem(client.put(path, json={"sheet": sheet}, headers=auth("x" * 43)), 401)
    assert client.get(f"/api/v1/tallies/{tally['id']}").json["version"] == 2  # unchanged


def test_a_sheet_the_box_cannot_hold_is_refused_naming_its_field(client):
    created = client.post("/api/v1/games/dig/tallies", json={"sheet": SHEET}).json
    too_many = two_players(SHEET, {"name": "Bob", "dropped": {"green": 9, "yellow": 0,
                                                               "purple": 0, "blue": 0, "red": 0}})
    refused = client.put(f"/api/v1/games/dig/tallies/{created['tally']['id']}",
                         json={"sheet": too_many}, headers=auth(created["token"]))
    problem = assert_problem(refused, 422)
    assert all(field.startswith("sheet.") for field in problem["errors"])
    assert client.get(f"/api/v1/tallies/{created['tally']['id']}").json["version"] == 1
    assert_problem(client.post("/api/v1/games/dig/tallies", json={}), 422)


def test_a_tally_is_changed_only_through_its_own_game(client):
    created = client.post("/api/v1/games/digging-for-dinos/tallies", json={"sheet": None}).json
    wrong = client.put(f"/api/v1/games/dig/tallies/{created['tally']['id']}",
                       json={"sheet": SHEET}, headers=auth(created["token"]))
    assert assert_problem(wrong, 403)["detail"] == \
        "This tally is of digging-for-dinos, not dig."
    sheet = dinos.EXAMPLES[next(iter(dinos.EXAMPLES))]["value"]
    right = client.put(f"/api/v1/games/digging-for-dinos/tallies/{created['tally']['id']}",
                       json={"sheet": sheet}, headers=auth(created["token"]))
    assert right.status_code == 200 and right.json["result"] is not None
    for missing in ("0" * 32, "not-an-id"):
        assert_problem(client.get(f"/api/v1/tallies/{missing}"), 404)
        assert_problem(client.get(f"/api/v1/tallies/{missing}/events"), 404)


def test_a_change_is_judged_by_its_address_and_token_before_its_sheet(client):
    """A sheet of another game sent to a tally's address in the game the writer meant, or by a
    client that holds no token of it, is refused for that (403, 401, 404), not for the sheet:
    the sheet put right would be refused again."""
    created = client.post("/api/v1/games/digging-for-dinos/tallies", json={"sheet": None}).json
    tally, token = created["tally"]["id"], created["token"]
    too_many = two_players(SHEET, {"name": "Bob", "dropped": {"green": 9, "yellow": 0,
                                                               "purple": 0, "blue": 0, "red": 0}})
    for body in ({"sheet": SHEET}, {"sheet": too_many}, {"sheet": {"players": "Ann"}}, {}):
        wrong = client.put(f"/api/v1/games/dig/tallies/{tally}", json=body, headers=auth(token))
        assert assert_problem(wrong, 403, kind="wrong-game")["detail"] == \
            "This tally is of digging-for-dinos, not dig."
        for headers in ({}, auth("x" * 43)):
            assert_problem(client.put(f"/api/v1/games/digging-for-dinos/tallies/{tally}",
                                      json=body, headers=headers), 401)
        assert_problem(client.put(f"/api/v1/games/dig/tallies/{'0' * 32}", json=body,
                                  headers=auth(token)), 404)
    broken = client.put(f"/api/v1/games/dig/tallies/{tally}", data="{",
                        content_type="application/json", headers=auth(token))
    assert_problem(broken, 403, kind="wrong-game")
    # a body too large, or not said to be JSON: the address and the token first here too
    for data, content_type, status in (("{" + " " * 70_000 + "}", "application/json", 413),
                                       ('{"sheet": null}', "text/plain", 415)):
        put = functools.partial(client.put, data=data, content_type=content_type)
        assert_problem(put(f"/api/v1/games/digging-for-dinos/tallies/{tally}",
                           headers=auth(token)), status)
        assert_problem(put(f"/api/v1/games/digging-for-dinos/tallies/{tally}"), 401)
        assert_problem(put(f"/api/v1/games/dig/tallies/{tally}", headers=auth(token)), 403,
                       kind="wrong-game")
    # the writer's own token at the tally's own address: the sheet's fault, said as such
    assert_problem(client.put(f"/api/v1/games/digging-for-dinos/tallies/{tally}",
                              json={"sheet": {"players": "Ann"}}, headers=auth(token)), 422)
    assert client.get(f"/api/v1/tallies/{tally}").json["version"] == 1


@pytest.fixture(params=["sqlite", "two servers on postgresql"])
def urls(request, tmp_path):
    if request.param == "sqlite":
        database = f"sqlite:///{tmp_path / 'digsite.db'}"
    else:
        database = request.getfixturevalue("postgresql_server")
    with serve_side_by_side({"DATABASE_URL": database},
                            1 if request.param == "sqlite" else 2) as servers:
        yield [server.url for server in servers]


def test_followers_on_every_worker_and_server_see_each_change_live(urls):
    created = requests.post(f"{urls[0]}/api/v1/games/dig/tallies", json={"sheet": None},
                            timeout=10).json()
    tally_id, token = created["tally"]["id"], created["token"]
    heard: list[list[tuple[int, float]]] = [[] for _ in range(4)]
    opened = threading.Barrier(len(heard) + 1)

    def follow(k: int) -> None:
        with requests.get(f"{urls[k % len(urls)]}/api/v1/tallies/{tally_id}/events",
                          stream=True, timeout=20) as response:
            opened.wait()
            for line in response.iter_lines(decode_unicode=True):
                if line.startswith("id: "):
                    heard[k].append((int(line[4:]), time.monotonic()))
                    if len(heard[k]) == 3:
                        return

    followers = [threading.Thread(target=follow, args=(k,)) for k in range(len(heard))]
    for follower in followers:
        follower.start()
    opened.wait(timeout=15)
    sent = []
    for k in range(2):
        time.sleep(0.5)
        sent.append(time.monotonic())
        changed = requests.put(f"{urls[-1]}/api/v1/games/dig/tallies/{tally_id}", timeout=10,
                               json={"sheet": None if k else SHEET}, headers=auth(token))
        assert changed.status_code == 200
    for follower in followers:
        follower.join(timeout=20)
    assert [[version for version, _ in got] for got in heard] == [[1, 2, 3]] * len(heard)
    assert max(got[2][1] for got in heard) - sent[1] < 5


def test_a_follower_resuming_past_the_tally_s_version_gets_the_tally_at_once(client):
    """A Last-Event-ID the tally never reached (a follower holding another tally's, say) was
    waited on: the stream said nothing until the tally got that far."""
    created = client.post("/api/v1/games/dig/tallies", json={"sheet": SHEET}).json
    answer = client.get(f"/api/v1/tallies/{created['tally']['id']}/events",
                        headers={"Last-Event-ID": "999"}, buffered=False)
    heard: list[str] = []

    def listen() -> None:
        for chunk in answer.response:
            heard.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
            if "event: tally" in heard[-1]:
                return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    listener.join(timeout=10)
    assert heard and heard[-1].startswith("id: 1\nevent: tally\n"), heard
    answer.close()


def test_a_tally_s_cache_control_is_documented_as_it_is_sent(client):
    """The operation's own description of its Cache-Control was replaced by the one every answer
    shares, which did not name the `no-cache` a tally is sent with."""
    document = client.get("/api/openapi.json").get_json()
    created = client.post("/api/v1/games/dig/tallies", json={"sheet": SHEET}).json
    read = client.get(f"/api/v1/tallies/{created['tally']['id']}")
    assert read.headers["Cache-Control"] == "no-cache"
    responses = document["paths"]["/api/v1/tallies/{tally_id}"]["get"]["responses"]
    for status in ("200", "304"):
        described = resolve(document, responses[status]["headers"]["Cache-Control"])
        assert "`no-cache`" in described["description"], status


def test_the_same_sheet_sent_again_is_no_change_but_says_the_writer_is_there(client,
                                                                            monkeypatch):
    """The writer's phone sends its sheet again now and then while it shows the tally: its
    followers tell a phone that went quiet (offline, its counts typed since not sent) from one
    still there. No new version: the sheet did not change, and GET and PUT answer what the
    version stands for; the stream passes it on (`heard_at`)."""
    from service import streams

    monkeypatch.setattr(streams, "KEEP_ALIVE_SECONDS", 0.3)
    created = client.post("/api/v1/games/dig/tallies", json={"sheet": SHEET})
    tally, token = created.json["tally"], auth(created.json["token"])
    assert "heard_at" not in tally
    path, url = f"/api/v1/games/dig/tallies/{tally['id']}", f"/api/v1/tallies/{tally['id']}"
    frames: list[dict] = []

    def follow(count: int) -> None:
        """The first `count` frames of a stream opened now."""
        answer = client.get(f"{url}/events", buffered=False)

        def listen() -> None:
            for chunk in answer.response:
                text = chunk.decode() if isinstance(chunk, bytes) else chunk
                if text.startswith("id: "):
                    frames.append({**json.loads(text.split("data: ", 1)[1]),
                                   "seq": text.split("\n")[0][4:]})
                    if len(frames) == count:
                        return

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        listener.join(timeout=5)
        answer.close()

    time.sleep(1)  # heard_at is kept to the second
    again = client.put(path, json={"sheet": SHEET}, headers={**token, "If-Match": '"1"'})
    assert again.status_code == 200 and again.headers["ETag"] == '"1"'
    assert again.json == tally  # what version 1 stands for, as it was
    assert client.get(url, headers={"If-None-Match": '"1"'}).status_code == 304
    follow(1)
    assert [(f["seq"], f["updated_at"]) for f in frames] == [("1", tally["updated_at"])]
    heard = frames[0]["heard_at"]
    assert heard > tally["updated_at"], frames
    stale = client.put(path, json={"sheet": SHEET}, headers={**token, "If-Match": '"7"'})
    assert_problem(stale, 412, kind="tally-changed")
    time.sleep(1)
    changed = client.put(path, json={"sheet": None}, headers=token)
    assert changed.headers["ETag"] == '"2"' and "heard_at" not in changed.json
    frames.clear()
    follow(1)  # a change after the phone said it is there: heard as well
    assert [(f["seq"], f["heard_at"]) for f in frames] == [("2", changed.json["updated_at"])]
    assert frames[0]["heard_at"] > heard


def test_a_writer_that_never_sends_its_sheet_again_is_never_judged_by_it(client):
    """An earlier page (or another client) never sends its sheet again: its followers were told
    it had gone quiet a minute after its last change. `heard_at` stays null for it."""
    created = client.post("/api/v1/games/dig/tallies", json={"sheet": None})
    path = f"/api/v1/games/dig/tallies/{created.json['tally']['id']}"
    client.put(path, json={"sheet": SHEET}, headers=auth(created.json["token"]))
    answer = client.get(f"/api/v1/tallies/{created.json['tally']['id']}/events", buffered=False)
    first = next(chunk for chunk in answer.response if b"event: tally" in chunk)
    answer.close()
    assert json.loads(first.decode().split("data: ", 1)[1])["heard_at"] is None


def test_its_writer_stops_sharing_and_the_tally_is_gone(client):
    created = client.post("/api/v1/games/dig/tallies", json={"sheet": SHEET}).json
    url = f"/api/v1/tallies/{created['tally']['id']}"
    assert_problem(client.delete(url), 401)
    assert_problem(client.delete(url, headers=auth("x" * 43)), 401)
    assert client.get(url).status_code == 200
    assert client.delete(url, headers=auth(created["token"])).status_code == 204
    assert_problem(client.get(url), 404)
    assert_problem(client.delete(url, headers=auth(created["token"])), 404)


def test_a_new_tally_names_its_address_and_each_answer_its_version(client):
    document = client.get("/api/openapi.json").get_json()
    created = client.post("/api/v1/games/dig/tallies", json={"sheet": None})
    tally_id = created.json["tally"]["id"]
    assert created.headers["Location"] == f"/api/v1/tallies/{tally_id}"
    assert client.get(created.headers["Location"]).json == created.json["tally"]
    changed = client.put(f"/api/v1/games/dig/tallies/{tally_id}", json={"sheet": SHEET},
                         headers=auth(created.json["token"]))
    read = client.get(f"/api/v1/tallies/{tally_id}")
    assert [answer.headers["ETag"] for answer in (created, changed, read)] == ['"1"', '"2"',
                                                                               '"2"']
    # read again with the tag last read: 304, no body, while the tally is still at it
    again = client.get(f"/api/v1/tallies/{tally_id}", headers={"If-None-Match": '"2"'})
    assert again.status_code == 304 and again.get_data() == b"" and again.headers["ETag"] == '"2"'
    assert read.headers["Cache-Control"] == again.headers["Cache-Control"] == "no-cache"
    for older in ('"1"', 'W/"1"', '"2.seat0.r1"'):
        assert client.get(f"/api/v1/tallies/{tally_id}",
                          headers={"If-None-Match": older}).status_code == 200
    weak = client.get(f"/api/v1/tallies/{tally_id}", headers={"If-None-Match": 'W/"2"'})
    assert weak.status_code == 304  # If-None-Match compares weakly (RFC 9110 13.1.2)
    for answer, path, method in (
            (created, "/api/v1/games/dig/tallies", "post"),
            (changed, "/api/v1/games/dig/tallies/{tally_id}", "put"),
            (read, "/api/v1/tallies/{tally_id}", "get"),
            (again, "/api/v1/tallies/{tally_id}", "get")):
        assert_headers_documented(document, path, method, answer)


def test_a_change_sent_on_a_version_the_tally_has_left_is_refused(client):
    created = client.post("/api/v1/games/dig/tallies", json={"sheet": None})
    path = f"/api/v1/games/dig/tallies/{created.json['tally']['id']}"
    token = auth(created.json["token"])
    first = created.headers["ETag"]
    assert client.put(path, json={"sheet": SHEET}, headers={**token, "If-Match": first}) \
        .headers["ETag"] == '"2"'
    for stale in (first, "1", '"7"', 'W/"1", "7"', '"7", "x"'):
        refused = client.put(path, json={"sheet": None}, headers={**token, "If-Match": stale})
        assert assert_problem(refused, 412, kind="tally-changed")["detail"] == \
            "This tally changed meanwhile (now version 2): reload it and try again.", stale
    # a tag no tally gives (a match view's, a typo) was said to be a version the tally had left:
    # the client reloaded and sent the same tag again
    for none in ('"2.seat0.r1"', "garbage", '"-1"', '"02x"'):
        refused = client.put(path, json={"sheet": None}, headers={**token, "If-Match": none})
        assert assert_problem(refused, 412, kind="tally-changed")["detail"] == \
            "If-Match takes the ETag as the tally gave it, its version in quotes (\"2\", say): " \
            "it names no version of a tally.", none
    # a weak tag never matches (RFC 9110 13.1.1): "changed meanwhile: reload it" sent the client
    # round again with the same tag, weak as before
    for weak in ('W/"2"', 'W/"2", W/"1"'):
        refused = client.put(path, json={"sheet": None}, headers={**token, "If-Match": weak})
        assert assert_problem(refused, 412, kind="tally-changed")["detail"] == \
            "If-Match takes the ETag as the tally gave it, without W/: a weak tag never " \
            "matches.", weak
    read = client.get(f"/api/v1/tallies/{created.json['tally']['id']}")
    assert read.json["version"] == 2 and read.json["sheet"] is not None  # nothing written
    for k, current in enumerate(('"2"', '"1", "3"', "*", None)):  # its version, or none named
        headers = token if current is None else {**token, "If-Match": current}
        changed = client.put(path, json={"sheet": SHEET if k % 2 else None}, headers=headers)
        assert changed.status_code == 200, (current, changed.json)
    assert changed.headers["ETag"] == '"6"'


def test_a_tally_is_stopped_only_at_the_version_its_if_match_names(client):
    """A stale If-Match on the stop was passed over: the tally was removed, changed since."""
    created = client.post("/api/v1/games/dig/tallies", json={"sheet": None})
    tally_id = created.json["tally"]["id"]
    token = auth(created.json["token"])
    client.put(f"/api/v1/games/dig/tallies/{tally_id}", json={"sheet": SHEET}, headers=token)
    url = f"/api/v1/tallies/{tally_id}"
    stale = client.delete(url, headers={**token, "If-Match": created.headers["ETag"]})
    assert assert_problem(stale, 412, kind="tally-changed")["detail"] == \
        "This tally changed meanwhile (now version 2): reload it before you stop sharing it."
    weak = client.delete(url, headers={**token, "If-Match": 'W/"2"'})
    assert "a weak tag never matches" in assert_problem(weak, 412)["detail"]
    assert client.get(url).json["version"] == 2  # still shared
    assert client.delete(url, headers={**token, "If-Match": '"2"'}).status_code == 204
    assert_problem(client.get(url), 404)


def test_a_change_waits_its_turn_behind_another_writer_rather_than_failing(app, client,
                                                                            monkeypatch):
    """A change read the tally, then wrote it, in a transaction begun as a read: where another
    writer committed in between, SQLite refused the write at once (its snapshot cannot be
    brought forward) and the writer's phone was answered 503. The change now holds the write
    lock from its start: another writer waits for it instead of slipping in between."""
    created = client.post("/api/v1/games/dig/tallies", json={"sheet": None}).json
    tally, token = created["tally"]["id"], created["token"]
    service = app.extensions["digsite_tallies"]
    database = service.engine.url.database
    slipped = []
    checked = service._writer

    def another_writer_between(conn, *args):
        row = checked(conn, *args)  # the tally read, as every change reads it first
        other = sqlite3.connect(database, timeout=0.2, isolation_level=None)
        try:
            other.execute("UPDATE tallies SET updated_at = updated_at WHERE id = ?", (tally,))
            slipped.append(True)
        except sqlite3.OperationalError:  # the write lock is the change's: it waits
            slipped.append(False)
        finally:
            other.close()
        return row

    monkeypatch.setattr(service, "_writer", another_writer_between)
    changed = client.put(f"/api/v1/games/dig/tallies/{tally}", json={"sheet": SHEET},
                         headers=auth(token))
    assert changed.status_code == 200, changed.get_json()
    assert slipped == [False] and changed.json["version"] == 2
