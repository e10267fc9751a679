"""Taking back a move (API.md "Undo"): a seat's own last move, offered among its legal actions
while nothing was revealed since and nobody else moved, restores the match as it was before that
move and is a log entry of its own; the entry taken back stays in the log."""

import json
import random

import pytest
import sqlalchemy as sa

from scoring.engine import replay
from scoring.games import GAMES
from service.store import matches
from tests.api.problem import assert_problem
from tests.api.test_matches import act, auth, names_for
from tests.api.test_table import run_out

UNDO = {"type": "undo"}
ILLEGAL = "/problems/illegal-action"


def view_of(client, match_id, token) -> dict:
    response = client.get(f"/api/v1/matches/{match_id}", headers=auth(token))
    assert response.status_code == 200, response.json
    return response.json


def full_log(client, match_id, token=None) -> list[dict]:
    response = client.get(f"/api/v1/matches/{match_id}/log", query_string={"limit": 1000},
                          headers=auth(token) if token else {})
    assert response.status_code == 200 and response.json["next"] is None
    return response.json["log"]


def moves_of(view) -> list[dict]:
    return [a for a in view["legal_actions"] if a != UNDO]


class Table:
    """A match of people, each seat's token at hand."""

    def __init__(self, client, game_id, seed, players=None, **extra):
        self.client, self.game = client, GAMES[game_id]
        response = client.post(f"/api/v1/games/{game_id}/matches", json={
            "players": players or names_for(game_id), "seed": seed, **extra})
        assert response.status_code == 201, response.json
        self.created, self.seed = response.json, seed
        self.id = self.created["id"]
        self.tokens = {s["seat"]: s["token"] for s in self.created["seats"]}

    def view(self, seat) -> dict:
        return view_of(self.client, self.id, self.tokens[seat])

    def post(self, seat, action, version=None):
        if version is None:
            version = self.view(seat)["version"]
        return act(self.client, self.id, self.tokens[seat], action, version)

    def move(self, seat, action) -> dict:
        response = self.post(seat, action)
        assert response.status_code == 200, response.json
        return response.json

    def to_act(self) -> int:
        return self.client.get(f"/api/v1/matches/{self.id}").json["to_act"][0]

    def play_until(self, wanted, limit=400) -> tuple[int, dict]:
        """Play the first legal move (never an undo) until the seat to act may make a move that
        `wanted` picks from its legal moves: that seat and that move, not yet made."""
        for _ in range(limit):
            seat = self.to_act()
            legal = moves_of(self.view(seat))
            chosen = wanted(self.game, legal)
            if chosen is not None:
                return seat, chosen
            self.move(seat, legal[0])
        raise LookupError("no such move came")

    def refused(self, seat, version=None) -> dict:
        response = self.post(seat, UNDO, version)
        assert response.status_code == 422, response.json
        assert response.json["type"] == ILLEGAL
        return response.json


# The moves that reveal when they are followed by an event the game declares revealing: a Digging
# for Dinos move refills the space it left from a face-down stack, mostly (not when it completes
# a Velociraptor or Deinosuchus, nor once the stacks are empty).
MOSTLY_REVEALING = {"digging-for-dinos": {"move", "free_move"}}


def revealing(game, legal):
    found = [a for a in legal
             if a["type"] in game.REVEALING | MOSTLY_REVEALING.get(game.id, set())]
    return found[0] if found else None


def quiet(game, legal, passing=False):
    """A move that reveals nothing (and, `passing`, preferably one that ends the turn)."""
    found = [a for a in legal
             if a["type"] not in game.REVEALING | MOSTLY_REVEALING.get(game.id, set())]
    if passing:
        found.sort(key=lambda a: a["type"] != "end_turn")
    return found[0] if found else None


def quiet_table(client, game_id, passing=False) -> tuple[Table, int, dict]:
    """A match whose seat to act may make a move that reveals nothing: Dig It Up's come only
    after a card was drawn, so a few deals are tried."""
    for seed in range(1, 30):
        table = Table(client, game_id, seed)
        try:
            seat, move = table.play_until(lambda game, legal: quiet(game, legal, passing))
        except LookupError:
            continue
        return table, seat, move
    raise AssertionError(f"{game_id}: no quiet move in 30 deals")


def same_position(before: dict, after: dict) -> None:
    """Two views of one seat show the same position (the version, the clock and when the seats
    were seen aside)."""
    for key in ("status", "to_act", "you", "legal_actions", "state", "result"):
        assert after[key] == before[key], key
    assert [{**p, "last_seen": None, "connected": None} for p in after["players"]] == \
        [{**p, "last_seen": None, "connected": None} for p in before["players"]]


def replays(table: Table) -> None:
    """The log, without its undo entries and the entries they took back, replays with the engine
    to the position every seat and a spectator are shown."""
    public = full_log(table.client, table.id)
    own = {}
    for seat, token in table.tokens.items():
        own.update({e["seq"]: e["action"] for e in full_log(table.client, table.id, token)
                    if e["seat"] == seat})
    undone = {event["seq"] for e in public if e["action"] == UNDO for event in e["events"]}
    history = [(e["seat"], own[e["seq"]]) for e in public
               if e["action"] != UNDO and e["seq"] not in undone]
    names = [p["name"] for p in table.created["view"]["players"]]
    state = replay(table.game, names, table.seed, table.created["view"]["variant"], history)
    for seat, token in [(None, None), *table.tokens.items()]:
        shown = table.client.get(f"/api/v1/matches/{table.id}",
                                 headers=auth(token) if token else {}).json
        assert shown["state"] == table.game.view(state, seat)
        assert shown["version"] == 1 + len(public)


@pytest.fixture(params=list(GAMES))
def game_id(request):
    return request.param


def test_a_quiet_move_is_offered_for_undo_and_undone(client, game_id):
    table, seat, move = quiet_table(client, game_id)
    before = table.view(seat)
    assert UNDO not in before["legal_actions"]
    after_move = table.move(seat, move)
    assert after_move["legal_actions"][-1] == UNDO
    for other in table.tokens:
        if other != seat:
            assert UNDO not in table.view(other)["legal_actions"]
    taken_at = after_move["version"] - 1
    undone = table.post(seat, UNDO, after_move["version"])
    assert undone.status_code == 200, undone.json
    same_position(before, undone.json)
    assert undone.json["version"] == before["version"] + 2
    log = full_log(client, table.id)
    assert log[-2]["seq"] == taken_at and log[-2]["seat"] == seat
    assert log[-1] == {"seq": taken_at + 1, "seat": seat, "action": UNDO,
                       "events": [{"type": "undone", "seq": taken_at}], "bot": None}
    assert undone.json["version"] == 1 + len(log)
    # taken back once: nothing more to take back, and the same move may be made again
    table.refused(seat)
    again = table.move(seat, move)
    assert {k: v for k, v in again.items() if k not in ("version", "clock", "players")} == \
        {k: v for k, v in after_move.items() if k not in ("version", "clock", "players")}


def test_the_log_with_an_undo_replays_to_what_is_shown(client, game_id):
    table, seat, move = quiet_table(client, game_id)
    after = table.move(seat, move)
    table.post(seat, UNDO, after["version"])
    table.move(seat, move)
    replays(table)


def test_undo_is_refused_once_another_seat_moved(client, game_id):
    table, seat, move = quiet_table(client, game_id, passing=True)
    after = table.move(seat, move)
    assert UNDO in after["legal_actions"]
    other = after["to_act"][0]
    assert other != seat, "quiet_table(passing=True) found a move that keeps the turn"
    # The turn passed on, nobody moved yet: still offered, though it is not the seat's turn.
    assert table.view(seat)["legal_actions"] == [UNDO]
    # another seat's move, a revealing one where there is one (it opens no undo of its own)
    theirs = moves_of(table.view(other))
    table.move(other, revealing(table.game, theirs) or theirs[0])
    assert UNDO not in table.view(seat)["legal_actions"]
    table.refused(seat)


def test_undo_is_refused_after_a_revealing_move(client, game_id):
    table = Table(client, game_id, seed=3)
    seat, move = table.play_until(revealing)
    after = table.move(seat, move)
    if move["type"] not in table.game.REVEALING:  # it revealed by what followed it
        assert {e["type"] for e in full_log(client, table.id)[-1]["events"]} & \
            table.game.REVEALING_EVENTS
    assert UNDO not in after["legal_actions"]
    assert all(UNDO not in table.view(s)["legal_actions"] for s in table.tokens)
    table.refused(seat, after["version"])


def dropped_at(table: Table) -> tuple[int, dict]:
    """A DIG match played (digging and keeping mostly) until a seat drops bones at a bowl: that
    seat and the view its drop answered."""
    rng = random.Random(3)
    for _ in range(400):
        seat = table.to_act()
        legal = moves_of(table.view(seat))
        drops = [a for a in legal if a["type"] == "drop"]
        if drops:
            return seat, table.move(seat, drops[0])
        digs = [a for a in legal if a["type"] in ("dig", "keep")]
        table.move(seat, rng.choice(digs) if digs and rng.random() < 0.7 else rng.choice(legal))
    raise AssertionError("no drop came")


def test_a_dig_drop_shows_its_bones_to_the_table_and_is_not_taken_back(client):
    # A drop turns the card's bone face up before every seat ("Bones in your hand remain secret
    # until dropped"): taken back, the card went home to a hand whose bone the table now knew.
    seat, dropped = dropped_at(table := Table(client, "dig", 11))
    assert UNDO not in dropped["legal_actions"]
    table.refused(seat, dropped["version"])


def test_undo_is_refused_when_never_offered(client, game_id):
    table = Table(client, game_id, seed=5)
    seat = table.to_act()
    assert UNDO not in table.view(seat)["legal_actions"]
    problem = table.refused(seat, 1)
    assert "action.type" in problem["errors"]
    # an undo is offered to the seat that moved only, and is nothing but its type
    table, seat, move = quiet_table(client, game_id)
    after = table.move(seat, move)
    for other in table.tokens:
        if other != seat:
            table.refused(other, after["version"])
    response = table.post(seat, {"type": "undo", "seq": 1}, after["version"])
    assert response.status_code == 422 and response.json["type"] == ILLEGAL
    assert table.post(seat, UNDO, after["version"] - 1).status_code == 409
    assert table.post(seat, UNDO, after["version"]).status_code == 200


def test_no_undo_once_a_bot_answered(client):
    table = Table(client, "dig", seed=7, players=["Ann", {"name": "Robo", "bot": "random"}])
    after = table.move(0, {"type": "end_turn"})
    assert after["to_act"] == [0]  # the bot played its whole turn within the request
    assert any(e["seat"] == 1 for e in full_log(client, table.id))
    assert UNDO not in after["legal_actions"]
    table.refused(0, after["version"])
    # a quiet move of the person's own is offered, until the person moves again
    moved = table.move(0, next(a for a in moves_of(after) if a["type"] == "move"))
    assert moved["legal_actions"][-1] == UNDO


def test_a_seat_that_timed_out_takes_nothing_back(app, client):
    table = Table(client, "dig", seed=11, players=["Ann", "Bob"], clock={"move_seconds": 60})
    seat = table.to_act()
    moved = table.move(seat, next(a for a in moves_of(table.view(seat)) if a["type"] == "move"))
    assert moved["legal_actions"][-1] == UNDO
    run_out(app, table.id)
    assert app.extensions["digsite_matches"].expire_due() == 1
    log = full_log(client, table.id)
    timed_out = next(e["seq"] for e in log if e["action"]["type"] == "time_out")
    assert any(e["seat"] == seat and e["seq"] > timed_out for e in log)  # the bot played on
    view = table.view(seat)
    assert UNDO not in view["legal_actions"]
    table.refused(seat, view["version"])


def test_a_seat_a_bot_took_over_is_offered_no_undo(client):
    table = Table(client, "dig", seed=13, players=["Ann", "Bob", "Cy"])
    seat = table.to_act()
    table.move(seat, {"type": "end_turn"})
    assert table.view(seat)["legal_actions"] == [UNDO]
    left = client.post(f"/api/v1/matches/{table.id}/leave", headers=auth(table.tokens[seat]))
    assert left.status_code < 300, left.json
    assert UNDO not in table.view(seat)["legal_actions"]


def test_an_undo_survives_an_upgrade_of_the_rules(app, client, game_id):
    """A match stored under earlier rules is replayed from its seed and log: undo entries and
    the moves they took back are skipped, and a move still open to undo stays so."""
    table, seat, move = quiet_table(client, game_id)
    after = table.move(seat, move)
    table.post(seat, UNDO, after["version"])
    before = table.view(seat)
    moved = table.move(seat, move)
    store = app.extensions["digsite_storage"]
    with store.engine.begin() as conn:  # an earlier layout: replayed from the log when read
        conn.execute(matches.update().where(matches.c.id == table.id)
                     .values(state=json.dumps({"phase": "playing"})))
    upgraded = table.view(seat)
    assert upgraded["legal_actions"][-1] == UNDO
    assert {k: v for k, v in upgraded.items() if k not in ("players", "clock")} == \
        {k: v for k, v in moved.items() if k not in ("players", "clock")}
    undone = table.post(seat, UNDO, upgraded["version"])
    assert undone.status_code == 200, undone.json
    same_position(before, undone.json)
    with store.engine.begin() as conn:
        conn.execute(matches.update().where(matches.c.id == table.id)
                     .values(state=json.dumps({"phase": "playing"})))
    again = table.view(seat)
    same_position(before, again)


def test_any_entry_of_the_table_ends_the_chance_to_undo(client):
    table = Table(client, "dig", seed=17, players=["Ann", "Bob"])
    seat = table.to_act()
    moved = table.move(seat, next(a for a in moves_of(table.view(seat)) if a["type"] == "move"))
    assert moved["legal_actions"][-1] == UNDO
    host = auth(table.created["host_token"])
    other = 1 - seat
    fresh = client.post(f"/api/v1/matches/{table.id}/seats/{other}/token", headers=host)
    assert fresh.status_code == 201, fresh.json
    table.tokens[other] = fresh.json["token"]
    assert UNDO not in table.view(seat)["legal_actions"]
    table.refused(seat)


def test_an_undo_raced_by_another_seats_move_is_refused_as_stale(app, client, monkeypatch):
    """Two servers: the undo is worked out on the version it read while another seat's move is
    stored meanwhile. It replays only the entries of the version it read, and is refused 409
    when stored, never replaying the newer move onto the restored match."""
    table = Table(client, "dig", seed=19, players=["Ann", "Bob"])
    seat = table.to_act()
    passed = table.move(seat, {"type": "end_turn"})
    assert passed["legal_actions"] == [UNDO]
    service = app.extensions["digsite_matches"]
    stale = service.load(table.id)  # what the undo's server read
    other = passed["to_act"][0]
    table.move(other, moves_of(table.view(other))[0])  # stored by the other server meanwhile
    monkeypatch.setattr(service, "load", lambda match_id, playable=True: stale)
    response = table.post(seat, UNDO, passed["version"])
    assert response.status_code == 409, response.json
    assert response.json["type"] == "/problems/stale-version"


def test_a_drop_stored_open_to_undo_is_closed_by_the_rules_upgrade(app, client):
    """A DIG match stored under the rules that let a drop be taken back: replayed from its log
    when next read, under today's, its drop is no longer open to undo."""
    seat, dropped = dropped_at(table := Table(client, "dig", 11))
    store = app.extensions["digsite_storage"]
    with store.engine.begin() as conn:  # as the earlier rules stored it: the drop undoable
        state = json.loads(conn.execute(sa.select(matches.c.state).where(
            matches.c.id == table.id)).scalar_one())
        state.update(revision=1, undo={"seat": seat, "seq": dropped["version"] - 1})
        conn.execute(matches.update().where(matches.c.id == table.id)
                     .values(state=json.dumps(state)))
    assert UNDO not in table.view(seat)["legal_actions"]
    table.refused(seat)


def test_a_dinos_move_that_refills_nothing_may_be_taken_back(client):
    # A move that completes a Velociraptor or Deinosuchus waits for its flip (or skip) before
    # the space it left is refilled (RULINGS §3): it showed nothing, yet no undo was offered.
    rng = random.Random(2)
    for seed in range(1, 20):
        table = Table(client, "digging-for-dinos", seed)
        for _ in range(200):
            seat = table.to_act()
            before = table.view(seat)
            move = rng.choice(moves_of(before))
            after = table.move(seat, move)
            if after["status"] == "finished":
                break
            if move["type"] == "move" and after["to_act"] == [seat] and \
                    {a["type"] for a in after["legal_actions"]} >= {"flip", "skip_flip"}:
                assert "refilled" not in [e["type"] for e in full_log(client, table.id)[-1]
                                          ["events"]]
                assert after["legal_actions"][-1] == UNDO
                undone = table.post(seat, UNDO, after["version"])
                assert undone.status_code == 200, undone.json
                same_position(before, undone.json)
                replays(table)
                return
    raise AssertionError("no move completed a Velociraptor or Deinosuchus")


LOG_FULL = "log-full"


def test_a_match_whose_log_is_full_takes_only_its_game_s_own_moves(client, monkeypatch,
                                                                   players_away):
    """A script holding every seat could take a move back and make it again for ever, each
    time two entries more in a log every undo and every replay reads whole: past
    LOG_CEILING entries, a match takes only the moves that bring its game to an end."""
    table, seat, move = quiet_table(client, "dig")
    start = table.view(seat)["version"] - 1  # entries logged so far
    monkeypatch.setattr("service.matches.LOG_CEILING", start + 5)
    for _ in range(2):  # four entries: two moves, each taken back
        assert table.move(seat, move)["legal_actions"][-1] == UNDO
        assert table.post(seat, UNDO).status_code == 200
    # the fifth: its undo would be the sixth, which no log may hold
    after = table.move(seat, move)
    assert UNDO not in after["legal_actions"]
    refused = table.post(seat, UNDO, after["version"])
    assert_problem(refused, 409, kind=LOG_FULL)
    assert refused.json["detail"].startswith(f"This match has logged {start + 5:,} entries")
    assert "no move is taken back" in refused.json["detail"]
    host = auth(table.created["host_token"])
    reissued = table.client.post(f"/api/v1/matches/{table.id}/seats/{seat}/token", headers=host)
    assert_problem(reissued, 409, kind=LOG_FULL)
    assert table.view(seat)["version"] == after["version"]  # nothing was logged
    # the game's own moves go on, to its end
    mover = table.to_act()
    assert table.move(mover, moves_of(table.view(mover))[0])["version"] == after["version"] + 1
    assert len(full_log(client, table.id)) == start + 6
    # a player's seat may still go to a bot (as a seat may still be left), but not from bot to
    # bot, back and forth
    other = f"/api/v1/matches/{table.id}/seats/{1 - seat}/bot"
    assert client.post(other, headers=host, json={"bot": "random"}).status_code == 200
    assert_problem(client.post(other, headers=host, json={"bot": "greedy"}), 409,
                   kind=LOG_FULL)


def test_a_waiting_match_whose_log_is_full_is_joined_and_left_no_more(client, monkeypatch):
    created = client.post("/api/v1/games/dig/matches",
                          json={"players": ["Ann", {"open": True}, {"open": True}]}).json
    match = f"/api/v1/matches/{created['id']}"
    monkeypatch.setattr("service.matches.LOG_CEILING", 2)
    bob = client.post(f"{match}/join", json={"name": "Bob"})
    assert bob.status_code == 201
    assert client.post(f"{match}/leave", headers=auth(bob.json["token"])).status_code == 200
    assert_problem(client.post(f"{match}/join", json={"name": "Bob"}), 409,
                   kind=LOG_FULL)
    assert_problem(client.post(f"{match}/leave", headers=auth(created["seats"][0]["token"])),
                   409, kind=LOG_FULL)
    # its host may still cancel it
    assert client.delete(match, headers=auth(created["host_token"])).status_code == 204
