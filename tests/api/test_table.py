"""A table real people share (API.md "Seats, hosts and leaving", "Clocks", "Listing and
rematch"): every change to the table is a log entry, seats leave and are taken over, the host
cancels, hands over and re-issues, clocks run out with nobody connected, matches are listed and
rematched."""

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from scoring.engine import Rng
from scoring.games import GAMES
from service.store import actions, matches
from tests.api.problem import assert_problem
from tests.api.test_matches import act, auth, play, stream_entries

DIG = "dig"


def open_table(client, seats=2, **extra) -> dict:
    response = client.post(f"/api/v1/games/{DIG}/matches",
                           json={"players": ["Ann", *[{"open": True}] * (seats - 1)], **extra})
    assert response.status_code == 201, response.json
    return response.json


def full_table(client, **extra) -> dict:
    response = client.post(f"/api/v1/games/{DIG}/matches",
                           json={"players": ["Ann", "Bob"], "seed": 11, **extra})
    assert response.status_code == 201, response.json
    return response.json


def log_of(client, match_id) -> list[dict]:
    return client.get(f"/api/v1/matches/{match_id}/log").json["log"]


def seqs_run_on(log: list[dict]) -> bool:
    return [e["seq"] for e in log] == list(range(1, len(log) + 1))


def test_joins_are_log_entries_and_seq_has_no_gap(client):
    created = open_table(client, seats=3)
    tokens = {0: created["seats"][0]["token"]}
    for name in ("Bob", "Cy"):
        joined = client.post(f"/api/v1/matches/{created['id']}/join", json={"name": name})
        assert joined.status_code == 201
        tokens[joined.json["seat"]] = joined.json["token"]
    log = log_of(client, created["id"])
    assert [e["action"] for e in log] == [{"type": "join"}] * 2
    assert [e["events"] for e in log] == [[{"type": "joined", "seat": 1, "name": "Bob"}],
                                          [{"type": "joined", "seat": 2, "name": "Cy"}]]
    view = joined.json["view"]
    assert view["status"] == "playing" and view["version"] == 1 + len(log) == 3
    # The game's moves follow on the same sequence.
    seat = view["to_act"][0]
    mine = client.get(f"/api/v1/matches/{created['id']}", headers=auth(tokens[seat])).json
    moved = act(client, created["id"], tokens[seat], mine["legal_actions"][0], mine["version"])
    assert moved.status_code == 200 and moved.json["version"] == 4
    assert seqs_run_on(log_of(client, created["id"])) and len(log_of(client, created["id"])) == 3


def test_a_seat_that_leaves_is_played_by_a_bot_to_the_end(client):
    created = full_table(client)
    ann, bob = (s["token"] for s in created["seats"])
    left = client.post(f"/api/v1/matches/{created['id']}/leave", headers=auth(ann))
    assert left.status_code == 200, left.json
    assert left.json["players"][0]["bot"] == "greedy" and left.json["players"][0]["away"]
    rng = Rng.from_seed(3, "bob")
    view = client.get(f"/api/v1/matches/{created['id']}", headers=auth(bob)).json
    steps = 0
    while view["status"] != "finished":
        assert view["to_act"] == [1], "only Bob is ever waited for"
        response = act(client, created["id"], bob, rng.choice(view["legal_actions"]),
                       view["version"])
        assert response.status_code == 200, response.json
        view = response.json
        steps += 1
        assert steps < 2000
    log = log_of_all(client, created["id"])
    assert seqs_run_on(log)
    assert any(e["seat"] == 0 and e["action"]["type"] not in ("leave",) for e in log)
    assert log[0]["events"][0]["type"] == "left"
    # The one who left can no longer act for the seat.
    refused = act(client, created["id"], ann, {"type": "end_turn"}, view["version"])
    assert refused.status_code in (403, 409)


def test_a_seat_leaves_a_match_that_moved_on_as_it_left(app, client, monkeypatch):
    # A leave sends no version, but one that lost a race (the other seat moved as it was
    # stored) was refused "The match moved on while you acted: reload and try again".
    created = full_table(client)
    match = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    mover = created["view"]["to_act"][0]
    service = app.extensions["digsite_matches"]
    before = service.load(match)  # as the leave reads it, just before the other seat moves
    mine = client.get(f"/api/v1/matches/{match}", headers=auth(tokens[mover])).json
    assert act(client, match, tokens[mover], mine["legal_actions"][0],
               mine["version"]).status_code == 200
    reads = iter([before])
    real = service.load
    monkeypatch.setattr(service, "load", lambda *a, **k: next(reads, None) or real(*a, **k))
    left = client.post(f"/api/v1/matches/{match}/leave", headers=auth(tokens[1 - mover]))
    assert left.status_code == 200, left.json
    assert left.json["players"][1 - mover]["away"]
    assert seqs_run_on(log_of_all(client, match))


def log_of_all(client, match_id) -> list[dict]:
    entries, after = [], 0
    while after is not None:
        page = client.get(f"/api/v1/matches/{match_id}/log?after={after}&limit=1000").json
        entries += page["log"]
        after = page["next"]
    return entries


def test_the_match_names_the_bot_that_stands_in_for_who_leaves_or_runs_out(app, client):
    """API.md: a seat that leaves is played by `greedy` unless the match says otherwise; the
    match chosen at creation says so for a time-out too, and for its rematch."""
    assert full_table(client)["view"]["stand_in_bot"] == "greedy"
    created = full_table(client, stand_in_bot="random", clock={"move_seconds": 60})
    assert created["view"]["stand_in_bot"] == "random"
    late = created["view"]["to_act"][0]
    run_out(app, created["id"])
    assert app.extensions["digsite_matches"].expire_due() == 1
    other = 1 - late
    left = client.post(f"/api/v1/matches/{created['id']}/leave",
                       headers=auth(created["seats"][other]["token"]))
    assert left.status_code == 200, left.json
    assert left.json["players"][other]["bot"] == "random"
    assert left.json["players"][late]["away"] and left.json["players"][late]["bot"] is None
    # The seat that ran out leaves too: the stand-ins play the match to its end.
    gone = client.post(f"/api/v1/matches/{created['id']}/leave",
                       headers=auth(created["seats"][late]["token"]))
    assert gone.status_code == 200 and gone.json["status"] == "finished"
    log = log_of_all(client, created["id"])
    stood_in = [e["events"][0] for e in log if e["action"]["type"] in ("time_out", "leave")]
    assert [(e["type"], e["seat"], e["bot"]) for e in stood_in] == [
        ("timed_out", late, "random"), ("left", other, "random"), ("left", late, "random")]
    assert seqs_run_on(log)
    rematch = client.post(f"/api/v1/matches/{created['id']}/rematch",
                          headers=auth(created["seats"][0]["token"]))
    assert rematch.status_code == 201, rematch.json
    assert rematch.json["view"]["stand_in_bot"] == "random"


def test_a_stand_in_bot_is_one_of_the_game_s_bots(client):
    refused = client.post(f"/api/v1/games/{DIG}/matches",
                          json={"players": ["Ann", "Bob"], "stand_in_bot": "clever"})
    assert refused.status_code == 422
    assert "Choose one of the game's bots" in refused.json["errors"]["stand_in_bot"][0]


def test_a_seat_leaving_a_waiting_table_opens_it_again(client):
    created = open_table(client, seats=3)
    bob = client.post(f"/api/v1/matches/{created['id']}/join", json={"name": "Bob"}).json
    gone = client.post(f"/api/v1/matches/{created['id']}/leave", headers=auth(bob["token"]))
    assert gone.status_code == 200 and gone.json["players"][1]["name"] is None
    # the spectator's view: the token holds no seat now (the view said `you: 1`, a seat open)
    assert gone.json["you"] is None and gone.headers["ETag"].split(".")[1] == "spectator"
    assert client.get(f"/api/v1/matches/{created['id']}",
                      headers=auth(bob["token"])).status_code == 401
    again = client.post(f"/api/v1/matches/{created['id']}/join", json={"name": "Bo"})
    assert again.status_code == 201 and again.json["seat"] == 1
    assert [e["action"]["type"] for e in log_of(client, created["id"])] == ["join", "leave",
                                                                            "join"]


def test_a_reissued_token_works_and_the_old_one_answers_401(client):
    created = full_table(client)
    old = created["seats"][1]["token"]
    host = created["host_token"]
    refused = client.post(f"/api/v1/matches/{created['id']}/seats/1/token", headers=auth(old))
    assert refused.status_code == 403  # a seat's token is not the host's
    fresh = client.post(f"/api/v1/matches/{created['id']}/seats/1/token", headers=auth(host))
    assert fresh.status_code == 201 and fresh.json["seat"] == 1
    new = fresh.json["token"]
    assert client.get(f"/api/v1/matches/{created['id']}", headers=auth(new)).json["you"] == 1
    assert client.get(f"/api/v1/matches/{created['id']}",
                      headers=auth(old)).status_code == 401
    entry = log_of(client, created["id"])[-1]
    assert entry["events"] == [{"type": "token_reissued", "seat": 1}]
    assert new not in str(log_of(client, created["id"]))


def test_a_seat_whose_player_is_at_the_table_is_not_given_a_new_token(app, client):
    """The host (at the play page, a player too) gave a seat its player was using a new token,
    and with it read that seat's secrets (Dig It Up's mission and discards) and could act for
    it. A new token is for a player who lost theirs: one seen within the last minute has not."""
    created = client.post("/api/v1/games/dig-it-up/matches", json={
        "players": ["Ann", {"open": True}], "variant": "small"}).json
    bob = client.post(f"/api/v1/matches/{created['id']}/join", json={"name": "Bob"}).json
    match = f"/api/v1/matches/{created['id']}"
    host = auth(created["host_token"])
    refused = client.post(f"{match}/seats/1/token", headers=host)
    assert_problem(refused, 409, kind="seat-in-use")
    assert refused.json["detail"].startswith("Bob is at the table (seen ")
    # nothing changed: Bob's token is his
    assert client.get(match, headers=auth(bob["token"])).json["you"] == 1
    # once Bob has not been seen for a minute, his seat may be given a new link
    with app.app_context():
        storage = app.extensions["digsite_storage"]
        stored = storage.load(created["id"])
        stored.players[1]["last_seen"] = (datetime.now(UTC) - timedelta(seconds=61)).isoformat(
            timespec="seconds")
        storage.touch(stored)
    assert client.post(f"{match}/seats/1/token", headers=host).status_code == 201
    assert client.get(match, headers=auth(bob["token"])).status_code == 401


def test_an_action_is_judged_by_its_address_and_token_before_its_body(client):
    """A client whose token was replaced hears 401 whatever its action lacks (a refused body
    says nothing of why its next try would fail too); an address no match has, 404; the
    host's hand-over likewise, 401 or 403 (not the host) before a bot no game has."""
    created = full_table(client)
    match = f"/api/v1/matches/{created['id']}"
    old = created["seats"][0]["token"]
    assert client.post(f"{match}/seats/0/token",
                       headers=auth(created["host_token"])).status_code == 201
    end_turn = {"type": "end_turn"}
    for body in ({"action": end_turn}, {"version": 3}, {"action": "dig", "version": "x"}, [],
                 "not json"):
        sent = {"data": body, "content_type": "application/json"} if isinstance(body, str) \
            else {"json": body}
        refused = client.post(f"{match}/actions", headers=auth(old), **sent)
        assert_problem(refused, 401)
        unknown = client.post(f"/api/v1/matches/{'0' * 32}/actions", headers=auth(old), **sent)
        assert_problem(unknown, 404)
    # a body not said to be JSON, or said to be gzipped (415 with a token of the seat's), too
    for headers in ({"Content-Type": "text/plain"}, {"Content-Type": "application/json",
                                                     "Content-Encoding": "gzip"}):
        body = '{"action": {"type": "end_turn"}, "version": 3}'
        assert_problem(client.post(f"{match}/actions", data=body, headers=auth(
            created["seats"][1]["token"]) | headers), 415)
        assert_problem(client.post(f"{match}/actions", data=body, headers=auth(old) | headers), 401)
        assert_problem(client.post(f"{match}/leave", data="{}", headers=auth(old) | headers), 401)
        assert_problem(client.post(f"/api/v1/matches/{'0' * 32}/actions", data=body,
                                   headers=auth(old) | headers), 404)
    # a join takes no token: a match that is not there is said so, whatever its body lacks
    for sent in ({"data": "{", "content_type": "application/json"}, {"json": {}},
                 {"data": '{"name": "Cy"}', "content_type": "text/plain"}):
        assert_problem(client.post(f"/api/v1/matches/{'0' * 32}/join", **sent), 404)
    # the host's hand-over: a seat's token (403: not the host), or none, or one that is no
    # token of this match (401, API.md: an unknown token, the replaced one too), with a bot no
    # game has
    for headers, status in (({}, 401), (auth(created["seats"][1]["token"]), 403),
                            (auth(old), 401), (auth("not-a-real-token"), 401)):
        for body in ({"bot": "no-such-bot"}, {"bot": 7}):
            handed = client.post(f"{match}/seats/1/bot", json=body, headers=headers)
            assert_problem(handed, status, kind=None if status == 401 else "host-only")
        # the host's other requests alike
        assert_problem(client.post(f"{match}/seats/1/token", headers=headers), status,
                       kind=None if status == 401 else "host-only")
    assert_problem(client.post(f"/api/v1/matches/{'0' * 32}/seats/1/bot",
                               json={"bot": 7}, headers=auth(created["host_token"])), 404)
    # a seat's own token with a body that lacks its version: the body's fault, said as such
    lacking = client.post(f"{match}/actions", headers=auth(created["seats"][1]["token"]),
                          json={"action": end_turn})
    assert_problem(lacking, 422)
    assert "version" in lacking.json["detail"]


def test_a_request_that_takes_no_body_refuses_one_it_cannot_read(client, players_away):
    """A new token, a rematch and a cancel took any body, read none of it, and did what they do:
    `{not json`, a `text/plain` one, or `{"seat": 0}` on seat 1's new token (seat 1's changed)."""
    created = full_table(client)
    match = f"/api/v1/matches/{created['id']}"
    host = auth(created["host_token"])
    for sent, status in (({"data": "{not json", "content_type": "application/json"}, 400),
                         ({"json": {"seat": 0}}, 422),
                         ({"data": "hello", "content_type": "text/plain"}, 415)):
        assert_problem(client.post(f"{match}/seats/1/token", headers=host, **sent), status)
        # judged by its address first
        assert_problem(client.post(f"/api/v1/matches/{'0' * 32}/seats/1/token", headers=host,
                                   **sent), 404)
    # nothing changed: the seat's token is still its own
    assert client.get(match, headers=auth(created["seats"][1]["token"])).json["you"] == 1
    for sent in ({}, {"json": {}}, {"data": "", "content_type": "application/json"}):
        assert client.post(f"{match}/seats/1/token", headers=host, **sent).status_code == 201

    # a rematch: not opened by a body it cannot read
    finished = full_table(client)
    for seat in (0, 1):  # both leave: bots play it to its end
        client.post(f"/api/v1/matches/{finished['id']}/leave",
                    headers=auth(finished["seats"][seat]["token"]))
    ann = auth(finished["seats"][0]["token"])
    over = f"/api/v1/matches/{finished['id']}"
    assert_problem(client.post(f"{over}/rematch", headers=ann, data="garbage",
                               content_type="application/json"), 400)
    assert_problem(client.post(f"{over}/rematch", headers=ann, json={"seat": 1}), 422)
    assert client.get(over).json["rematch"] is None
    assert client.post(f"{over}/rematch", headers=ann, json={}).status_code == 201

    # a cancel: the match is still there
    waiting = open_table(client)
    table = f"/api/v1/matches/{waiting['id']}"
    assert_problem(client.delete(table, headers=auth(waiting["host_token"]), data="{not json",
                                 content_type="application/json"), 400)
    assert client.get(table).status_code == 200
    assert client.delete(table, headers=auth(waiting["host_token"])).status_code == 204


def test_an_action_without_a_token_on_a_match_not_there_is_told_it_is_not_there(client):
    # 401 "Acting needs your seat token" for an id no match has, or one cancelled: with a
    # token, the same request was 404 or 410, as every other request on a match is.
    assert_problem(client.post(f"/api/v1/matches/{'0' * 32}/actions",
                               json={"action": {"type": "end_turn"}, "version": 1}), 404)
    waiting = open_table(client)
    client.delete(f"/api/v1/matches/{waiting['id']}", headers=auth(waiting["host_token"]))
    assert_problem(client.post(f"/api/v1/matches/{waiting['id']}/actions",
                               json={"action": {"type": "end_turn"}, "version": 1}), 410)
    created = full_table(client)
    assert_problem(client.post(f"/api/v1/matches/{created['id']}/actions",
                               json={"action": {"type": "end_turn"}, "version": 1}), 401)


def test_the_host_hands_a_seat_to_a_bot(client):
    created = full_table(client)
    host, bob = created["host_token"], created["seats"][1]["token"]
    handed = client.post(f"/api/v1/matches/{created['id']}/seats/1/bot", headers=auth(host),
                         json={"bot": "random"})
    assert handed.status_code == 200, handed.json
    assert handed.json["players"][1] == {"seat": 1, "name": "Bob", "bot": "random",
                                         "away": True, "last_seen": None,
                                         "connected": False, "unclaimed": False}
    # handed to the same bot again: nothing changes, and nothing is logged
    again = client.post(f"/api/v1/matches/{created['id']}/seats/1/bot", headers=auth(host),
                        json={"bot": "random"})
    assert again.status_code == 200 and again.json["version"] == handed.json["version"]
    assert [e["events"][0]["type"] for e in log_of_all(client, created["id"])].count(
        "taken_over") == 1
    unknown = client.post(f"/api/v1/matches/{created['id']}/seats/0/bot", headers=auth(host),
                          json={"bot": "oracle"})
    assert unknown.status_code == 422 and "bot" in unknown.json["errors"]
    by_bob = client.post(f"/api/v1/matches/{created['id']}/seats/0/bot", headers=auth(bob),
                         json={"bot": "random"})
    assert by_bob.status_code == 403
    # Naming no bot hands the seat to the match's stand-in, and no body at all asks nothing
    # else: the document says the body may be left out (it said it was required)
    for stand_in, body in (("greedy", {"json": {}}), ("random", {})):
        extra = {} if stand_in == "greedy" else {"stand_in_bot": stand_in}
        table = full_table(client, **extra)
        handed = client.post(f"/api/v1/matches/{table['id']}/seats/0/bot",
                             headers=auth(table["host_token"]), **body)
        assert handed.status_code == 200, handed.json
        assert handed.json["players"][0]["bot"] == stand_in
    document = client.get("/api/openapi.json").json
    asked = document["paths"]["/api/v1/matches/{match_id}/seats/{seat}/bot"]["post"]
    assert asked["requestBody"]["required"] is False


def test_the_host_names_the_bot_given_an_open_seat(client):
    """A Korean table's setup names its bots in Korean: a bot handed an open seat later may be
    named too, else it is its kind's ("Greedy bot"); a player's seat keeps its player's name."""
    created = open_table(client, seats=4)
    host, match = auth(created["host_token"]), f"/api/v1/matches/{created['id']}"
    named = client.post(f"{match}/seats/1/bot", headers=host,
                        json={"bot": "greedy", "name": "  욕심쟁이   봇 "})
    assert named.status_code == 200, named.json
    assert named.json["players"][1]["name"] == "욕심쟁이 봇"  # tidied as every name is
    clash = client.post(f"{match}/seats/2/bot", headers=host,
                        json={"bot": "random", "name": "Ann"})
    assert_problem(clash, 422, "name", "name-taken")
    assert client.get(match).json["players"][2]["name"] is None  # nothing changed
    unnamed = client.post(f"{match}/seats/2/bot", headers=host, json={"bot": "greedy"})
    assert unnamed.json["players"][2]["name"] == "Greedy bot"
    blank = client.post(f"{match}/seats/3/bot", headers=host, json={"name": ""})
    assert blank.status_code == 422 and "name" in blank.json["errors"]
    # the search bot by what it does, as the play page names it, not by its id ("Mcts bot")
    searching = client.post(f"{match}/seats/3/bot", headers=host, json={"bot": "mcts"})
    assert searching.json["players"][3]["name"] == "Search bot"
    playing = full_table(client)
    kept = client.post(f"/api/v1/matches/{playing['id']}/seats/1/bot",
                       headers=auth(playing["host_token"]), json={"name": "Robo"})
    assert kept.status_code == 422 and "name" in kept.json["errors"], kept.json
    assert client.get(f"/api/v1/matches/{playing['id']}").json["players"][1]["name"] == "Bob"


def test_the_host_looks_on_as_a_spectator_and_is_told_it_plays_no_seat(client):
    """A host app read the match with its host token and was answered 401 "This token is not
    a seat of this match": it had to drop the header to look on."""
    created = full_table(client)
    match = f"/api/v1/matches/{created['id']}"
    host = auth(created["host_token"])
    spectator = client.get(match).json
    looked = client.get(match, headers=host)
    assert looked.status_code == 200 and looked.json["you"] is None
    assert looked.json["state"] == spectator["state"]  # no seat's secrets
    assert client.get(f"{match}/log", headers=host).json["log"] == \
        client.get(f"{match}/log").json["log"]
    stream = client.get(f"{match}/events", headers=host, query_string={"after": 0})
    assert stream.status_code == 200
    stream.close()
    refused = client.post(f"{match}/actions", headers=host,
                          json={"action": {"type": "end_turn"}, "version": 1})
    assert_problem(refused, 401)
    assert "host's token" in refused.json["detail"]


def test_a_seat_the_table_does_not_have_is_refused_as_such(client):
    created = open_table(client, seats=3)
    for seat in (3, 5):
        refused = client.post(f"/api/v1/matches/{created['id']}/join",
                              json={"name": "Zed", "seat": seat})
        assert refused.status_code == 422, refused.json
        assert refused.json["errors"] == {"seat": ["Choose a seat from 0 to 2."]}
    # Past every match's seats: read "A seat is a number from 0 to 5" at a table of 3.
    for seat in (6, -1):
        beyond = client.post(f"/api/v1/matches/{created['id']}/join",
                             json={"name": "Zed", "seat": seat})
        assert beyond.json["errors"] == {"seat": [
            f"There is no seat {seat}: seats are numbered from 0, and a match has 6 at most."]}
    taken = client.post(f"/api/v1/matches/{created['id']}/join", json={"name": "Zed", "seat": 0})
    assert taken.status_code == 409
    assert taken.json["detail"] == "That seat is taken: join another open seat."


def test_a_cancelled_waiting_match_answers_410(client):
    created = open_table(client)
    match = f"/api/v1/matches/{created['id']}"
    assert client.delete(match, headers=auth(created["seats"][0]["token"])).status_code == 403
    assert client.delete(match).status_code == 401
    assert client.delete(match, headers=auth("not-a-real-token")).status_code == 401
    assert client.delete(match, headers=auth(created["host_token"])).status_code == 204
    gone = client.get(match)
    assert gone.status_code == 410 and "cancelled" in gone.json["detail"]
    assert gone.json["reason"] == "cancelled"  # for a client's own words, the detail's aside
    begun = full_table(client)
    refused = client.delete(f"/api/v1/matches/{begun['id']}",
                            headers=auth(begun["host_token"]))
    assert refused.status_code == 409


def test_a_waiting_match_with_joins_in_its_log_is_cancelled_log_and_all(app, client):
    created = open_table(client, seats=3)
    match = f"/api/v1/matches/{created['id']}"
    joined = client.post(f"{match}/join", json={"name": "Bob"})
    assert joined.status_code == 201
    assert client.post(f"{match}/leave", headers=auth(joined.json["token"])).status_code == 200
    assert client.post(f"{match}/join", json={"name": "Cy"}).status_code == 201
    assert len(log_of(client, created["id"])) == 3
    assert client.delete(match, headers=auth(created["host_token"])).status_code == 204
    assert client.get(match).status_code == 410
    with app.extensions["digsite_storage"].engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(actions).where(
            actions.c.match_id == created["id"])).scalar() == 0


def test_a_stream_ends_where_its_token_was_taken_away(client, players_away):
    """Ann's stream, opened with her token, ends at the entry that gave her seat a new token:
    what her seat is shown after it (the bones she finds) is no longer that token's to see."""
    created = full_table(client)
    match = f"/api/v1/matches/{created['id']}"
    stream = client.get(f"{match}/events", headers=auth(created["seats"][0]["token"]),
                        buffered=False)
    assert stream.status_code == 200
    reissued = client.post(f"{match}/seats/0/token", headers=auth(created["host_token"]))
    assert reissued.status_code == 201
    created["seats"][0]["token"] = reissued.json["token"]
    view, _ = play(client, created)
    assert view["status"] == "finished"
    seqs = [seq for seq, _ in stream_entries(stream.get_data(as_text=True))]
    log = log_of(client, created["id"])
    (new_token,) = [e["seq"] for e in log if e["action"]["type"] == "new_token"]
    assert seqs == [e["seq"] for e in log if e["seq"] < new_token]
    assert client.get(f"{match}/events", headers=auth(
        created["seats"][1]["token"])).status_code == 200  # Bob's own stream runs to the end


def test_a_stream_ends_where_its_seat_left_the_waiting_match(client):
    """Bob left a waiting table and Cy took his seat: Bob's stream ends at his leaving, before
    anything Cy's seat is shown."""
    created = open_table(client, seats=3)
    match = f"/api/v1/matches/{created['id']}"
    bob = client.post(f"{match}/join", json={"name": "Bob"}).json
    stream = client.get(f"{match}/events", headers=auth(bob["token"]), buffered=False)
    assert client.post(f"{match}/leave", headers=auth(bob["token"])).status_code == 200
    seats = [created["seats"][0]]
    for name in ("Cy", "Dee"):  # Cy takes the seat Bob left
        joined = client.post(f"{match}/join", json={"name": name}).json
        seats.append({"seat": joined["seat"], "token": joined["token"]})
    assert seats[1]["seat"] == bob["seat"]
    view, _ = play(client, {"id": created["id"], "seats": seats, "view": client.get(match).json})
    assert view["status"] == "finished"
    seqs = [seq for seq, _ in stream_entries(stream.get_data(as_text=True))]
    assert seqs == [1]  # Bob's join; his leaving ended the stream


def test_a_rematch_claimed_by_every_seat_gives_each_its_own_token(client):
    created = full_table(client)
    view, tokens = play(client, created)
    assert view["rematch"] is None
    first = client.post(f"/api/v1/matches/{created['id']}/rematch", headers=auth(tokens[1]))
    second = client.post(f"/api/v1/matches/{created['id']}/rematch", headers=auth(tokens[0]))
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json["id"] == second.json["id"] != created["id"]
    # each claimant is at the table: seen as it claims, not "offline" for half a minute
    seen = client.get(f"/api/v1/matches/{first.json['id']}").json["players"]
    assert [(p["unclaimed"], p["connected"]) for p in seen] == [(False, True), (False, True)]
    for claimed in (first, second):  # where the rematch is, as a creation says
        assert claimed.headers["Location"] == f"/api/v1/matches/{first.json['id']}"
    # Seats rotate by one: Bob opens the rematch, Ann sits last.
    assert (first.json["seat"], second.json["seat"]) == (0, 1)
    assert first.json["token"] != second.json["token"]
    for claimed in (first.json, second.json):
        mine = client.get(f"/api/v1/matches/{claimed['id']}", headers=auth(claimed["token"]))
        assert mine.json["you"] == claimed["seat"]
    assert [p["name"] for p in first.json["view"]["players"]] == ["Bob", "Ann"]
    finished = client.get(f"/api/v1/matches/{created['id']}").json
    assert finished["rematch"] == first.json["id"]
    assert seqs_run_on(log_of_all(client, first.json["id"]))
    # Claimed again (a lost answer asked again, a second phone): the same token, nothing logged.
    # A new token voided the first in the middle of the rematch, and its entry moved the version
    # on under the other seat's next move.
    version = client.get(f"/api/v1/matches/{first.json['id']}").json["version"]
    again = client.post(f"/api/v1/matches/{created['id']}/rematch", headers=auth(tokens[1]))
    assert again.status_code == 200 and again.json["token"] == first.json["token"]
    assert again.json["seat"] == first.json["seat"]
    mine = client.get(f"/api/v1/matches/{first.json['id']}", headers=auth(first.json["token"]))
    assert mine.status_code == 200 and mine.json["version"] == version


def test_an_action_on_a_finished_match_is_a_conflict_as_its_other_changes_are(client):
    """Acting on a finished match answered 422 illegal-action where leaving it or handing its
    seat over answered 409 match-over; on an older version it said "Reload and try again"."""
    created = full_table(client)
    view, tokens = play(client, created)
    for version in (view["version"], view["version"] - 1):
        refused = act(client, created["id"], tokens[0], {"type": "end_turn"}, version)
        assert_problem(refused, 409, kind="match-over")
        assert "over" in refused.json["detail"] and "Reload" not in refused.json["detail"]
    left = client.post(f"/api/v1/matches/{created['id']}/leave", headers=auth(tokens[0]))
    assert_problem(left, 409, kind="match-over")


def test_a_rematch_seat_the_host_gave_a_new_link_is_not_taken_back_by_the_old_token(
        client, players_away):
    # Claimed again with the finished match's token, a seat the host had given a new link went
    # back to the old token and the new one answered 401: whoever held the old match's token (a
    # lost phone) could always take the seat from the one the host gave it to.
    created = full_table(client)
    _, tokens = play(client, created)
    ann = client.post(f"/api/v1/matches/{created['id']}/rematch", headers=auth(tokens[0])).json
    rematch = f"/api/v1/matches/{ann['id']}"
    given = client.post(f"{rematch}/seats/{ann['seat']}/token",
                        headers=auth(created["host_token"]))
    assert given.status_code == 201, given.json
    again = client.post(f"/api/v1/matches/{created['id']}/rematch", headers=auth(tokens[0]))
    assert_problem(again, 409, kind="seat-taken")
    assert "new link" in again.json["detail"]
    assert client.get(rematch, headers=auth(given.json["token"])).json["you"] == ann["seat"]
    assert client.get(rematch, headers=auth(ann["token"])).status_code == 401
    # a seat given a link before its player claimed it is the link's holder's too
    bobs = 1 - ann["seat"]
    assert client.post(f"{rematch}/seats/{bobs}/token",
                       headers=auth(created["host_token"])).status_code == 201
    assert_problem(client.post(f"/api/v1/matches/{created['id']}/rematch",
                               headers=auth(tokens[1])), 409, kind="seat-taken")


def test_a_rematch_s_host_is_its_match_s_and_hands_a_seat_never_claimed_to_a_bot(client):
    # A rematch had no host: a seat whose player did not come back held its table for good.
    created = full_table(client)
    _, tokens = play(client, created)
    ann = client.post(f"/api/v1/matches/{created['id']}/rematch", headers=auth(tokens[0])).json
    rematch = f"/api/v1/matches/{ann['id']}"
    bobs = 1 - ann["seat"]  # Bob never claims his
    handed = client.post(f"{rematch}/seats/{bobs}/bot", headers=auth(created["host_token"]),
                         json={"bot": "random"})
    assert handed.status_code == 200, handed.json
    assert handed.json["players"][bobs]["bot"] == "random"
    # Ann's claim is logged as hers, not as a new token the host gave.
    told = [event for entry in log_of_all(client, ann["id"]) for event in entry["events"]
            if event["type"] == "token_reissued"]
    assert told == [{"type": "token_reissued", "seat": ann["seat"], "claimed": True}]


def test_a_finished_match_s_host_cannot_give_a_seat_a_new_token_and_take_its_rematch(client):
    # The host gave Bob's seat of the finished match a new token and claimed Bob's place in the
    # rematch with it: Bob's own rematch token answered 401 from then on.
    created = full_table(client)
    view, tokens = play(client, created)
    match = f"/api/v1/matches/{created['id']}"
    bob = client.post(f"{match}/rematch", headers=auth(tokens[1]))
    assert bob.status_code == 201
    refused = client.post(f"{match}/seats/1/token", headers=auth(created["host_token"]))
    assert_problem(refused, 409, kind="match-over")
    mine = client.get(f"/api/v1/matches/{bob.json['id']}", headers=auth(bob.json["token"]))
    assert mine.status_code == 200 and mine.json["you"] == bob.json["seat"]
    assert client.post(f"{match}/seats/0/token", headers=auth(created["host_token"])) \
        .status_code == 409  # nor a seat that has not claimed its place yet
    assert client.get(match).json["version"] == view["version"]  # nothing logged


def test_listed_matches_are_found_by_status_newest_first_paged(client):
    waiting = [open_table(client, listed=True)["id"] for _ in range(3)]
    open_table(client)  # not listed
    playing = full_table(client, listed=True)["id"]
    found = client.get(f"/api/v1/games/{DIG}/matches?status=waiting&limit=2").json
    assert [m["id"] for m in found["matches"]] == waiting[::-1][:2]
    assert found["matches"][0]["seats"][1] == {"seat": 1, "name": None, "bot": None,
                                               "open": True}
    rest = client.get(f"/api/v1/games/{DIG}/matches?status=waiting&limit=2"
                      f"&after={found['next']}").json
    assert [m["id"] for m in rest["matches"]] == waiting[:1] and rest["next"] is None
    every = client.get(f"/api/v1/games/{DIG}/matches").json["matches"]
    assert [m["id"] for m in every] == [playing, *waiting[::-1]]
    assert client.get(f"/api/v1/games/{DIG}/matches?status=lost").status_code == 422


def test_a_match_in_its_set_up_is_found_as_under_way(client):
    """Dig It Up opens with the mission choice, Digging for Dinos with the tokens' placing: the
    lobby finds those matches among those `playing`, and alone as `setup`."""
    found = {}
    for game, variant in (("dig-it-up", "small"), ("digging-for-dinos", None)):
        body = {"players": ["Ann", "Bob"], "listed": True, **({"variant": variant} if variant
                                                                else {})}
        created = client.post(f"/api/v1/games/{game}/matches", json=body).json
        assert created["view"]["status"] == "setup"
        for status in ("playing", "setup", "waiting", "finished"):
            listed = client.get(f"/api/v1/games/{game}/matches?status={status}")
            assert listed.status_code == 200
            found[game, status] = [m["id"] for m in listed.json["matches"]]
        assert found[game, "playing"] == found[game, "setup"] == [created["id"]]
        assert found[game, "waiting"] == found[game, "finished"] == []


def run_out(app, match_id) -> None:
    """Move the match's clock back as if its seats had thought for an hour."""
    store = app.extensions["digsite_storage"]
    with store.engine.begin() as conn:
        row = conn.execute(sa.select(matches.c.clock).where(matches.c.id == match_id)).one()
        clock = dict(row.clock)
        clock["since"] = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
        conn.execute(matches.update().where(matches.c.id == match_id).values(
            clock=clock, deadline=datetime.now(UTC) - timedelta(minutes=59)))


def entries_in(chunks) -> list[dict]:
    """The entries' data in a stream's chunks, as sent."""
    text = "".join(c.decode() if isinstance(c, bytes) else c for c in chunks)
    return [data for _, data in stream_entries(text)]


def test_stream_entries_carry_the_clock_as_the_view_shows_it(client):
    timed = full_table(client, clock={"move_seconds": 60})
    view, tokens = play(client, timed, max_steps=3)
    match = f"/api/v1/matches/{timed['id']}"
    chunks = iter(client.get(f"{match}/events", headers=auth(tokens[0]),
                             buffered=False).response)
    first = entries_in(next(chunks) for _ in range(1 + 3))  # `retry`, then the 3 moves
    shown = client.get(match, headers=auth(tokens[0])).json["clock"]
    # the last move's clock is the view's: the same deadline; the seconds left, read a moment
    # apart, may differ by a tenth or so
    assert first[-1]["clock"]["deadline"] == shown["deadline"] is not None
    # a clock per move gives the seconds left of the seats to act after each entry
    assert [sorted(e["clock"]["bank"]) for e in first] == \
        [sorted(str(seat) for seat in e["to_act"]) for e in first]
    assert sorted(first[-1]["clock"]["bank"]) == sorted(shown["bank"])
    assert [e["clock"]["rule"] for e in first] == [shown["rule"]] * 3 == [{"move_seconds": 60}] * 3
    play(client, {**timed, "view": view})  # to the end: the stream then ends too
    rest = entries_in(chunks)
    assert rest and all(e["clock"]["rule"] == {"move_seconds": 60} for e in rest)
    assert rest[-1]["clock"]["deadline"] is None and rest[-1]["to_act"] == []  # all over
    untimed = full_table(client)
    play(client, untimed)
    streamed = client.get(f"/api/v1/matches/{untimed['id']}/events").get_data(as_text=True)
    assert {e["clock"] is None for e in entries_in([streamed])} == {True}


def test_each_stream_entry_carries_the_clock_as_it_stood_when_it_was_logged(app, client):
    """API.md "Clocks": a stream entry's clock is the deadline of the seats to act after it,
    with the seconds each seat had left then, whenever the stream is read: a client resuming
    after a while, or reading several entries at once, sees each as it was sent live."""
    created = full_table(client, clock={"bank_seconds": 600, "increment_seconds": 0})
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    match = f"/api/v1/matches/{created['id']}"
    view, answered = created["view"], []
    for thought in (100, 200, 50, 25):
        seat = view["to_act"][0]
        if view["you"] != seat:
            view = client.get(match, headers=auth(tokens[seat])).json
        thought_for(app, created["id"], thought)
        moves = [a for a in view["legal_actions"] if a["type"] != "undo"]
        view = act(client, created["id"], tokens[seat], moves[0], view["version"]).json
        answered.append(view)
    stream = client.get(f"{match}/events", headers=auth(tokens[0]), buffered=False)
    chunks = iter(stream.response)
    streamed = entries_in(next(chunks) for _ in range(1 + 4))  # `retry`, then the 4 moves
    stream.close()  # the match goes on: its stream would wait for the next entry
    assert [e["version"] for e in streamed] == [v["version"] for v in answered]
    assert len({e["clock"]["deadline"] for e in streamed}) == 4
    for entry, view in zip(streamed, answered, strict=True):
        assert entry["to_act"] == view["to_act"]
        assert entry["clock"]["deadline"] == view["clock"]["deadline"]
        assert entry["clock"]["bank"].keys() == view["clock"]["bank"].keys()
        for seat, left in view["clock"]["bank"].items():
            assert abs(entry["clock"]["bank"][seat] - left) <= 0.2, (entry, view)


def test_a_rematch_seat_s_clock_waits_for_its_player_to_claim_it(app, client):
    # Ann opened the rematch; Bob, first to act in it, had not heard of it yet, and his clock ran:
    # the stand-in bot played his first turns before he claimed his seat.
    created = full_table(client, clock={"move_seconds": 60})
    _, tokens = play(client, created)
    ann = client.post(f"/api/v1/matches/{created['id']}/rematch", headers=auth(tokens[0])).json
    rematch = client.get(f"/api/v1/matches/{ann['id']}").json
    assert rematch["to_act"] == [0] and rematch["players"][0]["name"] == "Bob"
    assert rematch["clock"]["deadline"] is None  # nobody thinks yet: Bob has not claimed
    run_out(app, ann["id"])
    assert app.extensions["digsite_matches"].expire_due() == 0
    assert [e["action"]["type"] for e in log_of(client, ann["id"])] == ["new_token"]
    bob = client.post(f"/api/v1/matches/{created['id']}/rematch", headers=auth(tokens[1])).json
    deadline = datetime.fromisoformat(bob["view"]["clock"]["deadline"])
    assert timedelta(seconds=55) < deadline - datetime.now(UTC) <= timedelta(seconds=60)
    run_out(app, ann["id"])  # his time runs from his claim, and out as ever
    assert app.extensions["digsite_matches"].expire_due() == 1


def test_a_rematch_seat_not_claimed_shows_no_clock_running_in_a_step_every_seat_acts(client):
    """Dig It Up's missions are chosen by every seat at once: the first claim of a rematch
    started its seat's clock, and every phone showed that deadline running on the seats not
    claimed yet, though theirs never runs out."""
    created = client.post("/api/v1/games/dig-it-up/matches", json={
        "players": ["Ann", "Bob"], "variant": "small", "seed": 5,
        "clock": {"move_seconds": 60}}).json
    _, tokens = play(client, created)
    bob = client.post(f"/api/v1/matches/{created['id']}/rematch", headers=auth(tokens[1])).json
    view = bob["view"]
    assert view["status"] == "setup" and sorted(view["to_act"]) == [0, 1]
    mine, other = bob["seat"], 1 - bob["seat"]
    clock = view["clock"]
    assert clock["deadline"] and clock["waiting"] == [other]
    assert list(clock["bank"]) == [str(mine)]  # the seconds left of the clock that runs
    ann = client.post(f"/api/v1/matches/{created['id']}/rematch", headers=auth(tokens[0])).json
    assert ann["view"]["clock"]["waiting"] == []
    assert sorted(ann["view"]["clock"]["bank"]) == ["0", "1"]


def test_a_clock_that_runs_out_is_applied_exactly_once(app, client):
    created = full_table(client, clock={"move_seconds": 60})
    view = created["view"]
    assert view["clock"]["rule"] == {"move_seconds": 60} and view["clock"]["deadline"]
    late = view["to_act"][0]
    run_out(app, created["id"])
    service = app.extensions["digsite_matches"]
    moved = []
    watchers = [threading.Thread(target=lambda: moved.append(service.expire_due()))
                for _ in range(4)]
    for watcher in watchers:
        watcher.start()
    for watcher in watchers:
        watcher.join()
    assert sum(moved) == 1
    log = log_of(client, created["id"])
    timed_out = [e for e in log if e["action"]["type"] == "time_out"]
    assert len(timed_out) == 1 and timed_out[0]["events"][0]["seat"] == late
    assert any(e["seat"] == late and e["action"]["type"] != "time_out" for e in log)
    after = client.get(f"/api/v1/matches/{created['id']}").json
    assert after["players"][late]["away"] and late not in after["to_act"]
    assert service.expire_due() == 0  # nothing more has run out
    # The seat is its player's again as soon as they act.
    token = created["seats"][late]["token"]
    while late not in after["to_act"]:
        other = after["to_act"][0]
        mine = client.get(f"/api/v1/matches/{created['id']}",
                          headers=auth(created["seats"][other]["token"])).json
        after = act(client, created["id"], created["seats"][other]["token"],
                    mine["legal_actions"][0], mine["version"]).json
    mine = client.get(f"/api/v1/matches/{created['id']}", headers=auth(token)).json
    back = act(client, created["id"], token, mine["legal_actions"][0], mine["version"]).json
    assert back["players"][late]["away"] is False


def thought_for(app, match_id, seconds: float) -> None:
    """Move the match's clock back as if the seats to act had thought `seconds` already."""
    store = app.extensions["digsite_storage"]
    with store.engine.begin() as conn:
        clock = dict(conn.execute(sa.select(matches.c.clock)
                                  .where(matches.c.id == match_id)).scalar_one())
        since = datetime.fromisoformat(clock["since"]) - timedelta(seconds=seconds)
        clock["since"] = since.isoformat()
        conn.execute(matches.update().where(matches.c.id == match_id).values(clock=clock))


def test_a_bank_clock_charges_the_thinking_seat_and_adds_the_increment(app, client):
    started = time.monotonic()
    created = full_table(client, clock={"bank_seconds": 600, "increment_seconds": 5})
    seat = created["view"]["to_act"][0]
    other = 1 - seat
    # The seat to act thinks from the moment its turn began, in real time: on busy cores every
    # answer below may be built seconds after the one before, and its bank shows them spent.
    # Each bound allows the whole time the test has run, and a second of rounding.
    def spent() -> float:
        return time.monotonic() - started + 1

    bank = created["view"]["clock"]["bank"]
    assert 600 - spent() <= bank[str(seat)] <= 600.0 and bank[str(other)] == 600.0
    token = created["seats"][seat]["token"]
    thought_for(app, created["id"], 100)
    mine = client.get(f"/api/v1/matches/{created['id']}", headers=auth(token)).json
    assert 500 - spent() <= mine["clock"]["bank"][str(seat)] <= 500  # the bank runs down
    view = mine
    while view["to_act"] == [seat]:  # the seat plays its turn to its end
        view = act(client, created["id"], token, view["legal_actions"][-1],
                   view["version"]).json
    bank = view["clock"]["bank"]
    # 100 s spent, 5 s given back at the turn's end; the other seat's bank untouched but for
    # the moment it has thought since its turn began (a busy run showed 599.9)
    assert 505 - spent() <= bank[str(seat)] <= 505
    assert 600 - spent() <= bank[str(other)] <= 600.0
    assert view["clock"]["deadline"] is not None


def test_a_turn_taken_back_takes_back_its_time_and_its_increment(app, client):
    # "End turn" then "Undo", again and again, gave the seat its increment each time, and the
    # other seat too (its turn, begun and ended by the undo): 27 s grew to 84 s in six rounds.
    created = full_table(client, clock={"bank_seconds": 600, "increment_seconds": 10})
    match, seat = created["id"], created["view"]["to_act"][0]
    other, token = 1 - seat, created["seats"][seat]["token"]
    thought_for(app, match, 100)
    view = client.get(f"/api/v1/matches/{match}", headers=auth(token)).json
    deadline = view["clock"]["deadline"]
    for _ in range(3):
        assert {"type": "end_turn"} in view["legal_actions"]
        ended = act(client, match, token, {"type": "end_turn"}, view["version"]).json
        assert ended["to_act"] == [other]
        assert 505 <= ended["clock"]["bank"][str(seat)] <= 510  # 100 s spent, 10 s given
        view = act(client, match, token, {"type": "undo"}, ended["version"]).json
        assert view["to_act"] == [seat]
        # As before the turn was ended: the seat thinking since its turn began, no increment.
        assert view["clock"]["deadline"] == deadline
        assert 490 <= view["clock"]["bank"][str(seat)] <= 500
        assert view["clock"]["bank"][str(other)] == 600.0


@pytest.mark.parametrize("increment", [0, 3, 60])
def test_a_seat_whose_bank_is_spent_has_ten_seconds_for_each_move(app, client, increment,
                                                                  players_away):
    # A bank with no increment, spent once, left the seat no time at all: every later turn of
    # its player ran out as it began and was played by the bot, and the player never moved again.
    # With an increment, the stand-in's move earned it: 3 s, not the 10 s a spent bank has, so
    # an increment made a returning player's time shorter.
    created = full_table(client, clock={"bank_seconds": 10, "increment_seconds": increment})
    match, late = created["id"], created["view"]["to_act"][0]
    service = app.extensions["digsite_matches"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    looked = client.get(f"/api/v1/matches/{match}", headers=auth(tokens[late])).json
    run_out(app, match)
    assert service.expire_due() == 1
    view = client.get(f"/api/v1/matches/{match}").json
    assert view["players"][late]["away"]
    assert view["clock"]["bank"][str(late)] == (increment if increment >= 10 else 0)
    # the move it had looked at, sent too late, is told why: not only "the match moved on"
    late_move = act(client, match, tokens[late], looked["legal_actions"][0], looked["version"])
    assert late_move.status_code == 409
    assert late_move.json["detail"].startswith("Your time ran out and a bot played your turn")
    while late not in view["to_act"]:
        seat = view["to_act"][0]
        mine = client.get(f"/api/v1/matches/{match}", headers=auth(tokens[seat])).json
        view = act(client, match, tokens[seat], mine["legal_actions"][-1], mine["version"]).json
    left = datetime.fromisoformat(view["clock"]["deadline"]) - datetime.now(UTC)
    most = max(10, increment)  # an increment above a spent bank's 10 s is still given
    assert timedelta(seconds=most - 5) < left <= timedelta(seconds=most)
    assert service.expire_due() == 0
    # the seat still away from that time-out, a version moved on by another change (the host's
    # new link for the other seat) is said as any: no time ran out this time
    seen = view["version"]
    assert client.post(f"/api/v1/matches/{match}/seats/{1 - late}/token",
                       headers=auth(created["host_token"])).status_code == 201
    stale = act(client, match, tokens[late], view["legal_actions"][0] if view["legal_actions"]
                else {"type": "end_turn"}, seen)
    assert stale.status_code == 409
    assert stale.json["detail"].startswith(f"The match is at version {seen + 1}, not {seen}")
    mine = client.get(f"/api/v1/matches/{match}", headers=auth(tokens[late])).json
    back = act(client, match, tokens[late], mine["legal_actions"][0], mine["version"]).json
    assert back["players"][late]["away"] is False


def test_the_seat_to_act_keeps_its_time_while_the_table_changes(app, client):
    # Any entry restarted the time of the seats to act: a host to act stretched their own turn
    # by giving another seat a new link, and each mission chosen gave the others a whole minute.
    created = full_table(client, clock={"move_seconds": 60})
    match, seat = created["id"], created["view"]["to_act"][0]
    thought_for(app, match, 20)
    view = client.get(f"/api/v1/matches/{match}").json
    host = auth(created["host_token"])
    assert client.post(f"/api/v1/matches/{match}/seats/{1 - seat}/token",
                       headers=host).status_code == 201
    again = client.get(f"/api/v1/matches/{match}").json
    assert again["version"] == view["version"] + 1
    assert again["clock"]["deadline"] == view["clock"]["deadline"]
    # Dig It Up's missions are chosen together: one seat's choice leaves the others' time be.
    created = client.post("/api/v1/games/dig-it-up/matches", json={
        "players": ["Ann", "Bob"], "variant": "small", "seed": 5,
        "clock": {"move_seconds": 60}}).json
    match = created["id"]
    assert sorted(created["view"]["to_act"]) == [0, 1]
    thought_for(app, match, 20)
    before = client.get(f"/api/v1/matches/{match}").json["clock"]
    mine = client.get(f"/api/v1/matches/{match}",
                      headers=auth(created["seats"][0]["token"])).json
    chose = act(client, match, created["seats"][0]["token"], mine["legal_actions"][0],
                mine["version"]).json
    assert chose["to_act"] == [1]
    assert chose["clock"]["deadline"] == before["deadline"]
    assert 35 <= chose["clock"]["bank"]["1"] <= 40


def test_a_day_a_turn_runs_from_the_turn_s_start_and_a_minute_a_move_from_each_move(app,
                                                                                    client):
    for rule, kept in (({"turn_days": 1}, True), ({"move_seconds": 600}, False)):
        created = full_table(client, clock=rule)
        match, seat = created["id"], created["view"]["to_act"][0]
        token = created["seats"][seat]["token"]
        thought_for(app, match, 20)
        view = client.get(f"/api/v1/matches/{match}", headers=auth(token)).json
        moves = [a for a in view["legal_actions"] if a["type"] not in ("end_turn", "undo")]
        moved = act(client, match, token, moves[0], view["version"]).json
        assert moved["to_act"] == [seat], "a turn of DIG goes on after a move"
        assert (moved["clock"]["deadline"] == view["clock"]["deadline"]) is kept, rule


def test_a_clock_is_one_of_the_three_kinds(client):
    for clock in ({"increment_seconds": 5}, {"move_seconds": 30, "turn_days": 1}, {},
                  {"move_seconds": 1}, {"turn_days": 15}):
        refused = client.post(f"/api/v1/games/{DIG}/matches",
                              json={"players": ["Ann", "Bob"], "clock": clock})
        assert refused.status_code == 422, clock
    for clock in ({"move_seconds": 30}, {"turn_days": 2}, {"bank_seconds": 60}):
        assert full_table(client, clock=clock)["view"]["clock"]["rule"] == clock


def test_every_game_logs_the_table_with_its_moves(client):
    for game in GAMES:
        low = min(n for v, n in GAMES[game].tables() if v == GAMES[game].default_variant)
        created = client.post(f"/api/v1/games/{game}/matches",
                              json={"players": ["Ann", *[{"open": True}] * (low - 1)]}).json
        for k in range(1, low):
            client.post(f"/api/v1/matches/{created['id']}/join", json={"name": f"P{k}"})
        assert seqs_run_on(log_of_all(client, created["id"]))


def seen_ago(app, match_id, seat, seconds) -> None:
    """Store a seat's last look as `seconds` ago."""
    store = app.extensions["digsite_storage"]
    with store.engine.begin() as conn:
        players = conn.execute(sa.select(matches.c.players)
                               .where(matches.c.id == match_id)).scalar_one()
        players[seat]["last_seen"] = (datetime.now(UTC) - timedelta(seconds=seconds)).isoformat(
            timespec="seconds")
        conn.execute(matches.update().where(matches.c.id == match_id).values(players=players))


def test_a_seat_is_connected_while_its_player_was_seen_within_the_minute(app, client):
    created = client.post(f"/api/v1/games/{DIG}/matches", json={
        "players": ["Ann", "Bob", {"name": "Cy", "bot": "random"}], "seed": 3}).json
    ann = created["seats"][0]["token"]
    view = client.get(f"/api/v1/matches/{created['id']}", headers=auth(ann)).json
    assert [p["connected"] for p in view["players"]] == [True, False, True]  # Bob never looked
    # 55 s, not 59: the look is stored in whole seconds (up to one lost) and a busy machine
    # took the rest of the minute before the view was read
    seen_ago(app, created["id"], 0, 55)
    view = client.get(f"/api/v1/matches/{created['id']}").json  # a spectator's look stores none
    assert [p["connected"] for p in view["players"]] == [True, False, True]
    seen_ago(app, created["id"], 0, 61)
    view = client.get(f"/api/v1/matches/{created['id']}").json
    assert [p["connected"] for p in view["players"]] == [False, False, True]
    assert client.get(f"/api/v1/matches/{created['id']}", headers=auth(ann)).json[
        "players"][0]["connected"] is True  # Ann looks again


def test_a_time_out_s_thinking_counts_to_the_match_and_its_creator(app, client, monkeypatch):
    """A seat whose clock ran out is played outside any request: what its stand-in thinks counts
    to the match and to the address that made it, as a request's bots' thinking would (else
    matches left to time out would have search bots think for nobody's budget)."""
    spent = []
    thinking = app.extensions["digsite_thinking"]
    monkeypatch.setattr(thinking, "spend", lambda seconds, *keys: spent.append(keys))
    created = client.post(f"/api/v1/games/{DIG}/matches", environ_base={
        "REMOTE_ADDR": "198.51.100.7"}, json={"players": ["Ann", "Bob"], "seed": 11,
                                              "clock": {"move_seconds": 60}}).json
    run_out(app, created["id"])
    spent.clear()  # what the request that made it counted
    assert app.extensions["digsite_matches"].expire_due() == 1
    assert spent == [(("match", created["id"]), ("address", "198.51.100.7"))]


def test_while_the_budget_is_spent_a_time_out_is_played_by_the_cheap_bot(app, client,
                                                                         monkeypatch):
    thinking = app.extensions["digsite_thinking"]
    monkeypatch.setattr(thinking, "wait", lambda *keys: (60, False))
    created = full_table(client, stand_in_bot="mcts", clock={"move_seconds": 60})
    run_out(app, created["id"])
    assert app.extensions["digsite_matches"].expire_due() == 1
    timed_out = [e for e in log_of(client, created["id"]) if e["action"]["type"] == "time_out"]
    assert [e["events"][0]["bot"] for e in timed_out] == ["greedy"]
    view = client.get(f"/api/v1/matches/{created['id']}").json
    assert view["stand_in_bot"] == "mcts"  # the match's own choice stays


def test_a_view_whose_clock_ran_down_is_not_answered_as_unchanged(client):
    # The ETag named the version alone: a seat's view kept its tag while its bank ran down, and
    # If-None-Match answered 304 for a view whose body had changed.
    created = full_table(client, clock={"bank_seconds": 600, "increment_seconds": 5})
    seat = created["view"]["to_act"][0]
    url, token = f"/api/v1/matches/{created['id']}", created["seats"][seat]["token"]
    first = client.get(url, headers=auth(token))
    time.sleep(0.25)  # the bank is shown to the tenth of a second
    later = client.get(url, headers={**auth(token), "If-None-Match": first.headers["ETag"]})
    assert later.status_code == 200
    assert later.json["clock"]["bank"][str(seat)] < first.json["clock"]["bank"][str(seat)]
    assert later.headers["ETag"] != first.headers["ETag"]
    assert later.headers["ETag"].startswith(f'"{first.json["version"]}.seat{seat}.')


def test_each_logged_move_names_the_bot_that_chose_it(app, client):
    """A bot seat's moves name its bot; after a time-out, the moves the stand-in makes for the
    late seat name the stand-in, and the player's own, once back, name none; the table's own
    entries name none. The log and the stream say the same."""
    created = client.post(f"/api/v1/games/{DIG}/matches", json={
        "players": ["Ann", {"name": "Robo", "bot": "random"}], "seed": 11,
        "clock": {"move_seconds": 60}}).json
    match, token = created["id"], created["seats"][0]["token"]
    view = client.get(f"/api/v1/matches/{match}", headers=auth(token)).json
    mine = act(client, match, token, view["legal_actions"][0], view["version"]).json
    run_out(app, match)
    assert app.extensions["digsite_matches"].expire_due() == 1
    view = client.get(f"/api/v1/matches/{match}", headers=auth(token)).json
    back = act(client, match, token, view["legal_actions"][0], view["version"]).json
    assert back["players"][0]["away"] is False
    log = log_of(client, match)
    late = next(e["seq"] for e in log if e["action"]["type"] == "time_out")
    by = [(e["seat"], e["bot"]) for e in log]
    assert set(by[:mine["version"] - 1]) == {(0, None)}  # Ann's own move
    assert by[late - 1] == (0, None)  # the time-out itself: the table's
    assert set(by[late:back["version"] - 2]) == {(0, "greedy"), (1, "random")}
    assert by[back["version"] - 2] == (0, None)  # Ann's own move, back at the table
    assert all(e["bot"] is None for e in log if e["action"]["type"] in ("join", "time_out"))
    chunks = iter(client.get(f"/api/v1/matches/{match}/events", headers=auth(token),
                             buffered=False).response)
    streamed = entries_in(next(chunks) for _ in range(1 + len(log)))
    assert [(e["seat"], e["bot"]) for e in streamed] == by


def test_a_leave_asked_only_of_a_waiting_match_keeps_the_seat_once_it_has_begun(client):
    # The phone showed the match waiting and asked to open the seat; the match had begun by the
    # time the leave came (the player confirmed after the last seat was taken), and a bot played
    # the seat to the end in the player's name.
    created = open_table(client, seats=2)
    match = created["id"]
    bob = client.post(f"/api/v1/matches/{match}/join", json={"name": "Bob"}).json
    assert client.get(f"/api/v1/matches/{match}").json["status"] != "waiting"
    left = client.post(f"/api/v1/matches/{match}/leave", json={"waiting": True},
                       headers=auth(bob["token"]))
    assert_problem(left, 409, kind="stale-version")
    assert "The match has begun: your seat is still yours" in left.json["detail"]
    assert "leave" not in [e["action"]["type"] for e in log_of_all(client, match)]
    # asked of a match still waiting, it opens the seat
    waiting = open_table(client, seats=3)["id"]
    cy = client.post(f"/api/v1/matches/{waiting}/join", json={"name": "Cy"}).json
    left = client.post(f"/api/v1/matches/{waiting}/leave", json={"waiting": True},
                       headers=auth(cy["token"]))
    assert left.status_code == 200 and left.json["players"][cy["seat"]]["name"] is None
    # and a bad body is told after a bad token
    assert_problem(client.post(f"/api/v1/matches/{waiting}/leave", json={"waiting": "yes"},
                               headers=auth("nope")), 401)
    assert_problem(client.post(f"/api/v1/matches/{match}/leave", json={"waiting": "yes"},
                               headers=auth(bob["token"])), 422)


def test_a_leave_from_a_waiting_match_that_fills_as_it_leaves_keeps_the_seat(app, client,
                                                                              monkeypatch):
    # A player leaving a match still waiting for players means to open the seat for someone
    # else; when the last seat was taken meanwhile, the leave was made on the match begun, and
    # a bot played the seat to the end in the player's name.
    created = open_table(client, seats=3)
    match = created["id"]
    bob = client.post(f"/api/v1/matches/{match}/join", json={"name": "Bob"}).json
    service = app.extensions["digsite_matches"]
    before = service.load(match)  # as the leave reads it, just before Cy takes the last seat
    assert client.post(f"/api/v1/matches/{match}/join", json={"name": "Cy"}).status_code == 201
    reads = iter([before])
    real = service.load
    monkeypatch.setattr(service, "load", lambda *a, **k: next(reads, None) or real(*a, **k))
    left = client.post(f"/api/v1/matches/{match}/leave", headers=auth(bob["token"]))
    assert_problem(left, 409, kind="stale-version")
    assert "The match has begun: your seat is still yours" in left.json["detail"]
    view = client.get(f"/api/v1/matches/{match}", headers=auth(bob["token"])).json
    assert view["status"] != "waiting" and not view["players"][bob["seat"]].get("away")
    assert [e["action"]["type"] for e in log_of_all(client, match)][:2] == ["join", "join"]
    assert "leave" not in [e["action"]["type"] for e in log_of_all(client, match)]
