"""A finished match's past versions (README "Replaying a finished match", an operation API.md does
not list yet): the view at a version is the one the match showed then, to each seat and to a
spectator, rebuilt from the seed and the log; what the seats did at the table (an open seat
joined, a move taken back, a seat left to a bot) is in it as it was; a match still playing, a
version it never had and a stranger's token are refused."""

import random
from types import SimpleNamespace

import pytest

from scoring.engine import replay
from scoring.games import GAMES
from service.replay import STATE_ENTRIES, Replays, took_open
from tests.api.problem import assert_problem
from tests.api.test_matches import act, auth, names_for

UNDO = {"type": "undo"}
SAMPLE = 12  # versions compared a game, spread over the whole match, its first and last among them
# What a past view leaves out or says otherwise: nothing can be done in it, no clock runs, and
# when a player was last seen is not kept; who sat where, bot and away, is compared apart.
LIVE_ONLY = ("legal_actions", "clock", "players")


def view(client, match_id, token=None, version=None):
    path = f"/api/v1/matches/{match_id}" + ("" if version is None else f"/views/{version}")
    response = client.get(path, headers=auth(token) if token else {})
    assert response.status_code == 200, response.json
    return response.json


def seen(answer) -> dict:
    return {key: value for key, value in answer.items() if key not in LIVE_ONLY}


def seats(answer) -> list[tuple]:
    return [(p["seat"], p["name"], p["bot"], p["away"]) for p in answer["players"]]


def played(client, game_id: str, host: bool = False) -> tuple[str, dict, dict]:
    """A match of people, one of them joining by an open seat, played to its end with each seat's
    first legal action; the first move that may be taken back is (where the game offers one),
    and its last seat is left to a bot half way (or, with `host`, its first seat and its last
    handed to one by the host).
    Returns its id, the seats' tokens and every view shown, by version: each seat's and the
    spectator's (key None)."""
    names = names_for(game_id)
    created = client.post(f"/api/v1/games/{game_id}/matches", json={
        "players": [*names[:-1], {"open": True}], "seed": 5}).json
    match_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    joined = client.post(f"/api/v1/matches/{match_id}/join", json={"name": names[-1]}).json
    tokens[joined["seat"]] = joined["token"]
    shown: dict[int, dict] = {}

    def look() -> dict:
        views = {seat: view(client, match_id, token) for seat, token in tokens.items()}
        views[None] = view(client, match_id)
        shown[views[None]["version"]] = views
        return views[None]

    undone = left = False
    current = look()
    while current["status"] != "finished":
        seat = current["to_act"][0]
        mine = shown[current["version"]][seat]
        if not undone and UNDO in mine["legal_actions"]:
            action, undone = UNDO, True
        else:
            action = next(a for a in mine["legal_actions"] if a != UNDO)
        assert act(client, match_id, tokens[seat], action, mine["version"]).status_code == 200
        current = look()
        if not left and current["version"] > 40 and current["status"] != "finished":
            last = len(names) - 1
            if host:  # a seat named as the match was created, and the seat joined
                for handed in (0, last):
                    response = client.post(f"/api/v1/matches/{match_id}/seats/{handed}/bot",
                                           headers=auth(created["host_token"]),
                                           json={"bot": "random"})
                    assert response.status_code == 200, response.json
                    look()
            else:
                response = client.post(f"/api/v1/matches/{match_id}/leave",
                                       headers=auth(tokens[last]))
            assert response.status_code == 200, response.json
            left = True
            current = look()
    assert left
    return match_id, tokens, shown


@pytest.mark.parametrize(("game_id", "host"), [*((g, False) for g in GAMES),
                                               ("digging-for-dinos", True)])
def test_each_past_version_shows_each_seat_and_the_spectator_what_they_were_shown(client,
                                                                                 game_id, host):
    # A seat the host handed to a bot read as a seat open until then: every version before the
    # hand-over showed the match waiting for players, with no game.
    match_id, tokens, shown = played(client, game_id, host)
    versions = sorted(shown)
    sample = {versions[i * (len(versions) - 1) // (SAMPLE - 1)] for i in range(SAMPLE)}
    for version in sorted(sample):
        for seat, then in shown[version].items():
            past = view(client, match_id, tokens.get(seat), version)
            assert seen(past) == seen(then), (version, seat)
            assert seats(past) == seats(then), (version, seat)
            assert past["legal_actions"] == [] and past["clock"] is None
    # Stepping back, as a replay does, through states kept on the way forward (and a move
    # taken back early on, so that a later history is not an earlier one and one more move).
    for version in sorted(sample, reverse=True):
        assert seen(view(client, match_id, None, version)) == seen(shown[version][None]), version
    # Before the last seat was taken: nobody had a name there yet, and there was no game.
    first = view(client, match_id, None, 1)
    assert first["status"] == "waiting" and first["state"] is None
    assert first["players"][-1]["name"] is None


def test_a_past_version_is_kept_by_the_browser_for_its_caller_alone(client):
    created = client.post("/api/v1/games/digging-for-dinos/matches", json={
        "players": [{"name": "Rex", "bot": "greedy"}, {"name": "Max", "bot": "random"}]}).json
    response = client.get(f"/api/v1/matches/{created['id']}/views/2")
    assert response.headers["Vary"] == "Authorization"
    assert response.headers["Cache-Control"].startswith("private")


def test_a_match_still_playing_has_no_replay_yet(client):
    created = client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"]}).json
    token = created["seats"][0]["token"]
    answer = client.get(f"/api/v1/matches/{created['id']}/views/1", headers=auth(token))
    assert "once it is over" in assert_problem(answer, 409, kind="match-not-over")["detail"]


@pytest.mark.parametrize("version", [0, 10_000])
def test_a_version_the_match_never_had_is_not_found(client, version):
    created = client.post("/api/v1/games/digging-for-dinos/matches", json={
        "players": [{"name": "Rex", "bot": "greedy"}, {"name": "Max", "bot": "random"}]}).json
    answer = client.get(f"/api/v1/matches/{created['id']}/views/{version}")
    body = assert_problem(answer, 404, kind="not-found")
    assert f"versions 1 to {created['version']}" in body["detail"]


def test_a_token_not_of_the_match_is_refused(client):
    created = client.post("/api/v1/games/digging-for-dinos/matches", json={
        "players": [{"name": "Rex", "bot": "greedy"}, {"name": "Max", "bot": "random"}]}).json
    other = client.post("/api/v1/games/dig/matches", json={"players": ["Ann", "Bob"]}).json
    answer = client.get(f"/api/v1/matches/{created['id']}/views/2",
                        headers=auth(other["seats"][0]["token"]))
    assert_problem(answer, 401, kind="unauthorized")
    assert_problem(client.get(f"/api/v1/matches/{'0' * 32}/views/2"), 404, kind="not-found")


def moves_played(game, names: list[str], seed: int, first: list[dict], pick: int,
                 seq: int, length: int) -> list[dict]:
    """Log entries (seq, seat, action) of a match that plays `first` and then, from entry seq
    `seq` on, legal actions chosen by `pick`, to `length` moves or the end."""
    state = game.setup(names, seed, game.default_variant)
    moves = []
    for row in first:
        game.act(state, row["seat"], dict(row["action"]))
        moves.append(row)
    while state["status"] != "finished" and len(moves) < length:
        seat = state["to_act"][0]
        legal = game.legal_actions(state, seat)
        action = legal[(len(moves) * pick) % len(legal)]
        moves.append({"seq": seq, "seat": seat, "action": action})
        game.act(state, seat, dict(action))
        seq += 1
    return moves


@pytest.mark.parametrize("game_id", list(GAMES))
def test_kept_states_give_the_game_a_replay_from_the_start_gives(game_id):
    """service.replay.Replays against scoring.engine.replay, asked in a shuffled order for
    every length of two matches' moves that part after their 30th: as after an undo, the
    second's later moves come from later entries, so a state kept for the first must not
    serve it past the parting."""
    game = GAMES[game_id]
    names = names_for(game_id)
    match = SimpleNamespace(id="m", names=names, seed=11, variant=game.default_variant)
    one = moves_played(game, names, match.seed, [], 1, 1, 120)
    other = moves_played(game, names, match.seed, one[:30], 2, 33, 120)
    asked = [(moves, n) for moves in (one, other) for n in range(len(moves) + 1)]
    random.Random(3).shuffle(asked)
    replays = Replays(matches=2, every=5)
    for moves, n in asked:
        expected = replay(game, names, match.seed, match.variant,
                          [(row["seat"], row["action"]) for row in moves[:n]])
        assert replays.state(game, match, moves[:n]) == expected, n


def test_a_named_seat_left_before_the_table_filled_is_named_in_the_views_before_it_left(client):
    created = client.post("/api/v1/games/dig/matches", json={
        "players": ["Ann", "Bob", {"open": True}], "seed": 3}).json
    match_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    assert client.post(f"/api/v1/matches/{match_id}/leave",
                       headers=auth(tokens[1])).status_code == 200  # Bob's seat opens again
    for name in ("Cy", "Di"):
        joined = client.post(f"/api/v1/matches/{match_id}/join", json={"name": name}).json
        tokens[joined["seat"]] = joined["token"]
    for seat in (0, 1, 2):  # every player leaves: bots play the match to its end
        client.post(f"/api/v1/matches/{match_id}/leave", headers=auth(tokens[seat]))
    assert view(client, match_id)["status"] == "finished"
    names = {version: [p["name"] for p in view(client, match_id, None, version)["players"]]
             for version in (1, 2, 3, 4)}
    assert names == {1: ["Ann", "Bob", None], 2: ["Ann", None, None],
                     3: ["Ann", "Cy", None], 4: ["Ann", "Cy", "Di"]}


def test_a_hand_over_logged_before_entries_said_whether_the_seat_was_open_is_read_by_when():
    # Entries of a match handed to bots before `open` was logged name the seat either way: an
    # open seat is given to a bot only while the match waits (nobody to act), a player's after.
    event = {"type": "taken_over", "seat": 0, "bot": "random", "name": "Ann"}
    assert not took_open(event, {"to_act": [1]})
    assert took_open(event, {"to_act": []})
    assert took_open({**event, "open": True}, {"to_act": [1]})
    assert not took_open({**event, "open": False}, {"to_act": []})


def test_the_logs_kept_for_replays_are_held_to_a_number_of_entries_however_long():
    """A match's log may run to thousands of entries: what a worker keeps of its last matches
    is bounded by entries, not by matches alone, and the log asked for is always kept."""
    replays = Replays(matches=32, every=5, entries=100)
    reads = []

    def kept(match_id, entries):
        match = SimpleNamespace(id=match_id, version=entries + 1)
        return replays.log(match, lambda: reads.append(match_id) or [{"seq": s + 1}
                                                                    for s in range(entries)])

    for match_id in ("a", "b", "c"):
        assert len(kept(match_id, 40)) == 40
    assert reads == ["a", "b", "c"]  # 120 entries: the first let go
    kept("c", 40), kept("b", 40)
    assert reads == ["a", "b", "c"]
    kept("a", 40)
    assert reads[-1] == "a"
    assert len(kept("long", 500)) == 500  # longer than the whole budget: kept alone
    kept("long", 500)
    assert reads.count("long") == 1 and sum(len(k.log or ()) for k in replays._kept.values()) \
        == 500


def test_the_games_kept_for_replays_count_against_the_same_bound():
    # 625 games kept every 16 moves of a 10,000-entry log were bounded by nothing
    game = GAMES["dig"]
    names = names_for("dig")
    replays = Replays(matches=32, every=1, entries=40 + 10 * STATE_ENTRIES)
    moves = moves_played(game, names, 11, [], 1, 1, 30)
    for match_id in ("a", "b"):
        match = SimpleNamespace(id=match_id, names=names, seed=11, variant=game.default_variant,
                                version=41)
        replays.log(match, lambda: [{"seq": s + 1} for s in range(40)])
        replays.state(game, match, moves[:10])  # ten games kept, one after each move
    assert list(replays._kept) == ["b"]  # the first let go: 2 × (40 + 40) is over the bound
