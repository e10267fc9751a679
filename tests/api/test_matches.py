"""Matches through the Flask test client: API.md "Matches" and "Hidden information"."""

import hashlib
import json

import pytest
import sqlalchemy as sa

from scoring.bots import make
from scoring.engine import Rng, replay
from scoring.games import GAMES
from tests.api.openapi import assert_documented
from tests.api.problem import assert_problem

# Every match a test opens is its own: none reads another's, nor a count of them.
pytestmark = pytest.mark.shared_app

ENGINE_GAMES = list(GAMES)


def names_for(game_id: str) -> list[str]:
    """The smallest table of the game's default variant."""
    game = GAMES[game_id]
    low = min(n for variant, n in game.tables() if variant == game.default_variant)
    return ["Ann", "Bob", "Cy", "Di", "Ed"][:low]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client, game_id: str, seed: int = 42, **extra) -> dict:
    response = client.post(f"/api/v1/games/{game_id}/matches",
                           json={"players": names_for(game_id), "seed": seed, **extra})
    assert response.status_code == 201, response.json
    return response.json


def act(client, match_id, token, action, version, **kwargs):
    return client.post(f"/api/v1/matches/{match_id}/actions", headers=auth(token),
                       json={"action": action, "version": version, **kwargs})


def play(client, created, seed=1, max_steps=None):
    """Seat-token clients play until the match is finished (or for `max_steps` actions), each
    move a random legal action or, half the time, the greedy bot's choice from the same view
    (its `state`, the game's view of the seat): random alone walks DIG's dogs to and fro for
    some 1,500 actions, the mix ends it in about 300 and still plays every kind of action.
    Returns the last view and the seat tokens."""
    rng = Rng.from_seed(seed, "client")
    game = GAMES[created["view"]["game"]]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    greedy = {s: make(game, "greedy", s, seed) for s in tokens}
    match_id = created["id"]
    view = created["view"]
    steps = 0
    while view["status"] != "finished" and steps != max_steps:
        seat = view["to_act"][0]
        if view["you"] != seat:
            view = client.get(f"/api/v1/matches/{match_id}", headers=auth(tokens[seat])).json
        # the engine's moves: an undo (API.md "Undo") would only lengthen the match
        moves = [a for a in view["legal_actions"] if a["type"] != "undo"]
        chosen = greedy[seat].choose(view["state"], moves) if rng.below(2) else rng.choice(moves)
        response = act(client, match_id, tokens[seat], chosen, view["version"])
        assert response.status_code == 200, response.json
        view = response.json
        steps += 1
        assert steps < 10_000
    return view, tokens


@pytest.fixture(params=ENGINE_GAMES)
def game_id(request):
    return request.param


def test_creating_a_match_answers_201_with_location_and_seat_tokens(client, game_id):
    response = client.post(f"/api/v1/games/{game_id}/matches",
                           json={"players": names_for(game_id), "seed": 3})
    assert response.status_code == 201
    body = response.json
    assert response.headers["Location"] == f"/api/v1/matches/{body['id']}"
    assert len(body["id"]) == 32 and int(body["id"], 16) >= 0  # 128 random bits
    assert [s["name"] for s in body["seats"]] == names_for(game_id)
    tokens = [s["token"] for s in body["seats"]]
    assert len(set(tokens)) == len(tokens) and all(len(t) >= 40 for t in tokens)
    assert body["view"]["you"] is None and body["view"]["legal_actions"] == []
    assert "seed" not in body["view"]


def test_tokens_are_stored_hashed(app, client, game_id):
    created = create(client, game_id)
    engine = app.extensions["digsite_storage"].engine
    with engine.connect() as conn:
        dump = json.dumps([list(map(str, row)) for row in conn.execute(sa.text(
            "SELECT * FROM matches"))])
    for seat in created["seats"]:
        assert seat["token"] not in dump


def test_a_seat_sees_its_view_and_a_spectator_the_public_one(client, game_id):
    created = create(client, game_id)
    match_id = created["id"]
    public = client.get(f"/api/v1/matches/{match_id}")
    assert public.status_code == 200 and public.json["you"] is None
    # API.md: the ETag names the version and the viewer
    assert public.headers["ETag"].startswith(f'"{public.json["version"]}.spectator')
    seat = public.json["to_act"][0]
    mine = client.get(f"/api/v1/matches/{match_id}",
                      headers=auth(created["seats"][seat]["token"])).json
    assert mine["you"] == seat and mine["legal_actions"]
    other = (seat + 1) % len(created["seats"])
    theirs = client.get(f"/api/v1/matches/{match_id}",
                        headers=auth(created["seats"][other]["token"])).json
    if other not in theirs["to_act"]:
        assert theirs["legal_actions"] == []


def test_the_same_seed_and_actions_give_the_same_game(client, game_id):
    first, _ = play(client, create(client, game_id, seed=5), seed=9, max_steps=120)
    second, _ = play(client, create(client, game_id, seed=5), seed=9, max_steps=120)
    assert first["state"] == second["state"] and first["version"] == second["version"]
    third, _ = play(client, create(client, game_id, seed=6), seed=9, max_steps=120)
    assert third["state"] != first["state"]


def every_table():
    """Every game, variant and player count a match can be opened with."""
    for game_id in ENGINE_GAMES:
        for variant, n in GAMES[game_id].tables():
            yield pytest.param(game_id, variant, n, id=f"{game_id}-{variant}-{n}")


@pytest.mark.parametrize(("game_id", "variant", "n"), list(every_table()))
def test_a_match_played_to_its_end_scores_like_the_calculator(app, client, game_id, variant, n):
    names = ["Ann", "Bob", "Cy", "Di", "Ed"][:n]
    response = client.post(f"/api/v1/games/{game_id}/matches",
                           json={"players": names, "seed": 8, "variant": variant})
    assert response.status_code == 201, response.json
    view, _ = play(client, response.json)
    assert view["status"] == "finished" and view["legal_actions"] == []
    assert view["seed"] == 8 and view["variant"] == variant
    assert [p["name"] for p in view["result"]["players"]] == names
    # The end position as stored, posted to the calculator the table would use.
    stored = app.extensions["digsite_storage"].load(view["id"])
    sheet = GAMES[game_id].scoresheet(stored.state)
    calculator = client.post(f"/api/v1/games/{game_id}/score", json=sheet)
    assert calculator.status_code == 200, calculator.json
    assert calculator.json == view["result"]


def test_acting_needs_a_known_seat_token(client, game_id):
    created = create(client, game_id)
    url = f"/api/v1/matches/{created['id']}/actions"
    body = {"action": {"type": "end_turn"}, "version": 1}
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}):
        response = client.post(url, json=body, headers=headers)
        assert response.status_code == 401
        assert response.content_type == "application/problem+json"
    other = create(client, game_id)
    response = client.post(url, json=body, headers=auth(other["seats"][0]["token"]))
    assert response.status_code == 401


def test_acting_out_of_turn_or_for_another_seat_is_forbidden(client, game_id):
    created = create(client, game_id)
    view = client.get(f"/api/v1/matches/{created['id']}").json
    waiting = [s for s in range(len(created["seats"])) if s not in view["to_act"]]
    acting = view["to_act"][0]
    mine = client.get(f"/api/v1/matches/{created['id']}",
                      headers=auth(created["seats"][acting]["token"])).json
    action = mine["legal_actions"][0]
    if waiting:
        response = act(client, created["id"], created["seats"][waiting[0]]["token"], action, 1)
        assert response.status_code == 403
        assert response.json["detail"] == "It is not your turn."
    other = (acting + 1) % len(created["seats"])
    response = act(client, created["id"], created["seats"][acting]["token"], action, 1,
                   seat=other)
    assert response.status_code == 403


def test_a_stale_version_is_a_conflict_and_if_match_works(client, game_id):
    created = create(client, game_id)
    view = client.get(f"/api/v1/matches/{created['id']}").json
    seat = view["to_act"][0]
    token = created["seats"][seat]["token"]
    action = client.get(f"/api/v1/matches/{created['id']}",
                        headers=auth(token)).json["legal_actions"][0]
    assert act(client, created["id"], token, action, 0).status_code == 409
    ahead = act(client, created["id"], token, action, 7)
    # a version the match has not reached: it was told it "moved on since that version"
    assert ahead.status_code == 409 and ahead.json["detail"] == (
        "The match is at version 1, not 7: it has not reached that version. Reload and try "
        "again.")
    response = client.post(f"/api/v1/matches/{created['id']}/actions",
                           headers={**auth(token), "If-Match": '"1"'}, json={"action": action})
    assert response.status_code == 200, response.json
    assert response.json["version"] == 2 and response.headers["ETag"].startswith('"2.seat')
    stale = client.post(f"/api/v1/matches/{created['id']}/actions",
                        headers={**auth(token), "If-Match": '"1"'}, json={"action": action})
    assert stale.status_code == 409
    # the seat's own move moved it on: nobody else is blamed
    assert "version 2, not 1" in stale.json["detail"] and "someone" not in stale.json["detail"]
    missing = client.post(f"/api/v1/matches/{created['id']}/actions", headers=auth(token),
                          json={"action": action})
    assert missing.status_code == 422 and "version" in missing.json["errors"]


def test_an_illegal_action_is_422_and_changes_nothing(client, game_id):
    created = create(client, game_id)
    view = client.get(f"/api/v1/matches/{created['id']}").json
    token = created["seats"][view["to_act"][0]]["token"]
    for action in ({"type": "fly_to_the_moon"}, {"kind": "dig"}, {"type": 3}):
        response = act(client, created["id"], token, action, 1)
        assert response.status_code == 422
        # the field at fault, as the engine's declared moves name it
        assert response.json["detail"] and list(response.json["errors"]) == ["action.type"]
    for bad in ([], "end_turn", None):
        response = act(client, created["id"], token, bad, 1)
        assert response.status_code == 422 and "action" in response.json["errors"]
    after = client.get(f"/api/v1/matches/{created['id']}").json
    assert after == view


def test_the_log_lists_every_action_in_order_and_pages(client, game_id):
    created = create(client, game_id)
    view, tokens = play(client, created, seed=2, max_steps=40)
    url = f"/api/v1/matches/{created['id']}/log"
    answer = client.get(url)
    # what a seat may know of it is not the spectator's: no shared cache mixes them up
    assert answer.headers["Vary"] == "Authorization"
    log = answer.json
    entries = log["log"]
    assert [e["seq"] for e in entries] == list(range(1, view["version"]))
    assert log["next"] is None
    page = client.get(url, query_string={"after": 1, "limit": 2}).json
    assert [e["seq"] for e in page["log"]] == [2, 3] and page["next"] == 3
    assert client.get(url, query_string={"limit": 0}).status_code == 422
    assert client.get(url, headers={"Authorization": "Bearer nope"}).status_code == 401


def test_unknown_matches_and_bad_creation_bodies(client, game_id):
    assert client.get("/api/v1/matches/0123456789abcdef0123456789abcdef").status_code == 404
    url = f"/api/v1/games/{game_id}/matches"
    cases = [
        ({"players": ["Ann"]}, "players"),
        ({"players": ["Ann", "Ann"]}, "players"),
        ({"players": ["Ann", ""]}, "players.1"),
        ({"players": names_for(game_id), "variant": "huge"}, "variant"),
        ({"players": names_for(game_id), "seed": -1}, "seed"),
        ({"players": names_for(game_id), "seed": 2**128}, "seed"),
        ({"players": names_for(game_id), "seed": str(2**128)}, "seed"),
        ({"players": names_for(game_id), "seed": "-7"}, "seed"),
        ({"players": names_for(game_id), "seed": "0x7"}, "seed"),
        ({"players": names_for(game_id), "seed": 7.5}, "seed"),
        ({"players": names_for(game_id), "seed": True}, "seed"),
        ({"players": names_for(game_id), "colour": "red"}, "colour"),
    ]
    for body, field in cases:
        response = client.post(url, json=body)
        assert response.status_code == 422, body
        assert response.content_type == "application/problem+json"
        assert field in response.json["errors"], (body, response.json)


def test_the_seed_is_never_shown_while_playing(client, game_id):
    seed = 8_765_432_123_456
    created = create(client, game_id, seed=seed)
    texts = [json.dumps(created)]
    for seat in created["seats"]:
        for path in ("", "/log"):
            texts.append(client.get(f"/api/v1/matches/{created['id']}{path}",
                                    headers=auth(seat["token"])).get_data(as_text=True))
    assert all(str(seed) not in text for text in texts)


# API.md "Fairness of the deal"

def sha256_of(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def create_unseeded(client, game_id: str) -> dict:
    response = client.post(f"/api/v1/games/{game_id}/matches", json={"players": names_for(game_id)})
    assert response.status_code == 201, response.json
    return response.json


def stored_seed(app, match_id: str) -> int:
    return app.extensions["digsite_storage"].load(match_id).seed


def full_log(client, match_id: str, token: str | None = None) -> list[dict]:
    entries, after = [], 0
    while after is not None:
        page = client.get(f"/api/v1/matches/{match_id}/log", query_string={"after": after},
                          headers=auth(token) if token else {}).json
        entries += page["log"]
        after = page["next"]
    return entries


def test_without_a_seed_the_server_draws_128_bits_and_commits_to_them(app, client, game_id):
    created = [create_unseeded(client, game_id) for _ in range(4)]
    seeds = [stored_seed(app, c["id"]) for c in created]
    assert len(set(seeds)) == 4 and all(0 <= s < 2**128 for s in seeds)
    assert max(s.bit_length() for s in seeds) > 64  # all four below 2**64: odds of 2**-256
    for match, seed in zip(created, seeds, strict=True):
        view = match["view"]
        assert view["seeded"] is False and "seed" not in view
        assert view["seed_sha256"] == sha256_of(seed)
        for token in [None] + [s["token"] for s in match["seats"]]:
            again = client.get(f"/api/v1/matches/{match['id']}",
                                headers=auth(token) if token else {}).json
            assert again["seeded"] is False and again["seed_sha256"] == view["seed_sha256"]


def test_a_chosen_seed_makes_every_view_say_seeded_and_its_hash_waits_for_the_end(client,
                                                                                  game_id):
    """A chosen seed is often small: its SHA-256 in a playing match's views let anyone holding
    the match's id try seeds until one matched (42 at once, any seed below 10⁷ in a third of a
    second), then open a copy with it and read every hidden card and what comes next. So the
    hash, like the seed, is shown once the match is over."""
    created = create(client, game_id, seed=42)
    assert created["view"]["seeded"] is True
    assert created["view"]["seed_sha256"] is None
    view, tokens = play(client, created, max_steps=3)
    assert view["seeded"] is True and view["seed_sha256"] is None
    for token in [None, *tokens.values()]:
        seen = client.get(f"/api/v1/matches/{created['id']}",
                          headers=auth(token) if token else {}).json
        assert seen["status"] != "finished"
        assert seen["seeded"] is True and seen["seed_sha256"] is None and "seed" not in seen
        assert sha256_of(42) not in json.dumps(seen)
    final, _ = play(client, {**created, "view": view})
    assert final["status"] == "finished" and final["seed"] == 42
    assert final["seed_sha256"] == sha256_of(42)


def test_a_finished_match_reveals_a_seed_that_keeps_the_commitment_and_replays(app, client,
                                                                               game_id):
    created = create_unseeded(client, game_id)
    commitment = created["view"]["seed_sha256"]
    final, tokens = play(client, created, seed=3)
    assert final["status"] == "finished" and final["seeded"] is False
    seed = final["seed"]
    assert seed.bit_length() <= 128 and sha256_of(seed) == commitment
    assert final["seed_sha256"] == commitment
    # Each seat's log shows its own actions in full: together, every action as it was taken.
    history = {}
    for seat, token in tokens.items():
        for entry in full_log(client, created["id"], token):
            if entry["seat"] == seat:
                history[entry["seq"]] = (seat, entry["action"])
    assert sorted(history) == list(range(1, final["version"]))
    game = GAMES[game_id]
    replayed = replay(game, names_for(game_id), seed, final["variant"],
                      [history[seq] for seq in sorted(history)])
    assert replayed == app.extensions["digsite_storage"].load(created["id"]).state
    assert game.result(replayed) == final["result"]
    assert game.view(replayed, final["you"]) == final["state"]
    public = client.get(f"/api/v1/matches/{created['id']}").json
    assert game.view(replayed, None) == public["state"]


def test_a_server_seeded_match_replays_through_the_api_from_its_seed_text(client, game_id):
    """What a JavaScript client can do: the finished match's `seed_text`, posted back as the
    seed of a new match, with every action posted again in order, gives the same match."""
    created = create_unseeded(client, game_id)
    final, tokens = play(client, created, seed=4)
    history = sorted((entry["seq"], seat, entry["action"]) for seat, token in tokens.items()
                     for entry in full_log(client, created["id"], token) if entry["seat"] == seat)
    again = create(client, game_id, seed=final["seed_text"])
    again_tokens = {s["seat"]: s["token"] for s in again["seats"]}
    for seq, seat, action in history:
        answer = act(client, again["id"], again_tokens[seat], action, seq)
        assert answer.status_code == 200, answer.json
    public = client.get(f"/api/v1/matches/{created['id']}").json
    replayed = client.get(f"/api/v1/matches/{again['id']}").json
    assert replayed["status"] == "finished" and replayed["seed_text"] == final["seed_text"]
    assert (replayed["state"], replayed["result"]) == (public["state"], public["result"])


def test_a_server_drawn_seed_never_appears_while_playing(app, client, game_id):
    created = create_unseeded(client, game_id)
    match_id = created["id"]
    seed = stored_seed(app, match_id)
    # the seed's digits, its hex, and the digits of either 64-bit half
    forbidden = {str(seed), f"{seed:x}", str(seed & (2**64 - 1)), str(seed >> 64)} - {"0"}
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    seen = [json.dumps(created)]
    view = created["view"]
    for step in range(15):
        for token in [None, *tokens.values()]:
            for path in ("", "/log"):
                response = client.get(f"/api/v1/matches/{match_id}{path}",
                                      headers=auth(token) if token else {})
                seen.append(response.get_data(as_text=True) + str(response.headers))
        token = tokens[view["to_act"][0]]
        for wrong in (act(client, match_id, token, {"type": "fly"}, view["version"]),
                      act(client, match_id, token, {"type": "fly"}, 0)):
            seen.append(wrong.get_data(as_text=True) + str(wrong.headers))
        view, _ = play(client, {**created, "view": view}, seed=step, max_steps=1)
        if view["status"] == "finished":
            break  # the seed is shown from now on
        seen.append(json.dumps(view))
    seen.append(client.get("/api/openapi.json").get_data(as_text=True))
    for text in seen:
        assert not [digits for digits in forbidden if digits in text]


def test_match_answers_match_the_document(client, game_id):
    document = client.get("/api/openapi.json").get_json()
    view_schema = document["components"]["schemas"]["View"]["properties"]
    for name in ("seeded", "seed_sha256", "seed"):
        assert view_schema[name]["description"]
    create_path = f"/api/v1/games/{game_id}/matches"
    unseeded = client.post(create_path, json={"players": names_for(game_id)})
    assert_documented(document, create_path, "post", unseeded)
    view_path = "/api/v1/matches/{match_id}"
    finished, tokens = play(client, unseeded.json, seed=6)
    for token in [None, *tokens.values()]:
        response = client.get(f"/api/v1/matches/{finished['id']}",
                              headers=auth(token) if token else {})
        assert response.json["seed"] >= 0
        assert_documented(document, view_path, "get", response)
    seeded = create(client, game_id, seed=2**63 - 1)
    seat = seeded["view"]["to_act"][0]
    token = seeded["seats"][seat]["token"]
    mine = client.get(f"/api/v1/matches/{seeded['id']}", headers=auth(token))
    assert_documented(document, view_path, "get", mine)
    acted = act(client, seeded["id"], token, mine.json["legal_actions"][0], 1)
    assert_documented(document, "/api/v1/matches/{match_id}/actions", "post", acted)


def stored_state(app, match_id, change):
    """Rewrites a match's stored state as an earlier release of the app would have left it."""
    from service.store import matches

    engine = app.extensions["digsite_storage"].engine
    with engine.begin() as conn:
        state = json.loads(conn.execute(sa.select(matches.c.state)
                                        .where(matches.c.id == match_id)).scalar_one())
        conn.execute(matches.update().where(matches.c.id == match_id)
                     .values(state=json.dumps(change(state))))


def test_a_match_stored_under_earlier_rules_is_replayed_from_its_seed_and_log(app, client,
                                                                              game_id):
    view, tokens = play(client, create(client, game_id), seed=3, max_steps=25)
    seat = view["to_act"][0]
    before = client.get(f"/api/v1/matches/{view['id']}", headers=auth(tokens[seat])).json
    # an earlier layout: no revision, fields named otherwise
    stored_state(app, view["id"], lambda state: {"phase": "playing", "names": state["players"]})
    after = client.get(f"/api/v1/matches/{view['id']}", headers=auth(tokens[seat]))
    assert after.status_code == 200, after.json
    assert after.json == before
    response = act(client, view["id"], tokens[seat], after.json["legal_actions"][0],
                   after.json["version"])
    assert response.status_code == 200, response.json


def test_a_match_todays_rules_cannot_replay_is_gone_but_its_log_stays(app, client, game_id):
    view, _ = play(client, create(client, game_id), seed=3, max_steps=4)
    stored_state(app, view["id"], lambda state: {"old": True})
    engine = app.extensions["digsite_storage"].engine
    from service.store import actions

    with engine.begin() as conn:  # a move the rules no longer have
        conn.execute(actions.update().where(actions.c.match_id == view["id"], actions.c.seq == 1)
                     .values(action={"type": "retired_move"}))
    gone = client.get(f"/api/v1/matches/{view['id']}")
    assert gone.status_code == 410 and gone.mimetype == "application/problem+json"
    assert "earlier version of the rules" in gone.json["detail"]
    assert gone.json["reason"] == "rules"
    log = client.get(f"/api/v1/matches/{view['id']}/log")
    assert log.status_code == 200 and len(log.json["log"]) == 4


# API.md "Caching and cross-origin use", "Simultaneous steps", and odd input found by fuzzing.


def test_a_view_is_cached_per_version_and_viewer(client, game_id):
    created = create(client, game_id)
    assert created and "no-store" in client.post(
        f"/api/v1/games/{game_id}/matches",
        json={"players": names_for(game_id)}).headers["Cache-Control"]
    url = f"/api/v1/matches/{created['id']}"
    tokens = [s["token"] for s in created["seats"]]
    spectator, seat0, seat1 = (client.get(url, headers=auth(t) if t else {})
                               for t in (None, tokens[0], tokens[1]))
    tags = {r.headers["ETag"] for r in (spectator, seat0, seat1)}
    assert len(tags) == 3, "each viewer's view has its own ETag"
    for response in (spectator, seat0):
        assert response.headers["Vary"] == "Authorization"
        assert response.headers["Cache-Control"] == "private, no-cache"
    # seat 1 came to the table after seat 0's view: seat 0's view says so now, under a new tag
    now = client.get(url, headers=auth(tokens[0]))
    assert now.json["players"][1]["connected"] and not seat0.json["players"][1]["connected"]
    assert now.headers["ETag"] != seat0.headers["ETag"]
    again = client.get(url, headers={**auth(tokens[0]), "If-None-Match": now.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == now.headers["ETag"]
    stale = client.get(url, headers={**auth(tokens[0]), "If-None-Match": seat0.headers["ETag"]})
    assert stale.status_code == 200 and stale.json == now.json
    # another viewer's ETag is not this viewer's view
    other = client.get(url, headers={**auth(tokens[1]), "If-None-Match": seat0.headers["ETag"]})
    assert other.status_code == 200 and other.json == seat1.json


def test_an_action_may_send_the_views_etag_as_if_match(client, game_id):
    created = create(client, game_id)
    view = client.get(f"/api/v1/matches/{created['id']}")
    seat = view.json["to_act"][0]
    token = created["seats"][seat]["token"]
    mine = client.get(f"/api/v1/matches/{created['id']}", headers=auth(token))
    response = client.post(f"/api/v1/matches/{created['id']}/actions",
                           headers={**auth(token), "If-Match": mine.headers["ETag"]},
                           json={"action": mine.json["legal_actions"][0]})
    assert response.status_code == 200, response.json
    assert response.json["version"] == mine.json["version"] + 1
    stale = client.get(f"/api/v1/matches/{created['id']}",
                       headers={**auth(token), "If-None-Match": mine.headers["ETag"]})
    assert stale.status_code == 200


def test_seats_choosing_at_once_are_all_accepted_whatever_the_others_did(client):
    created = create(client, "dig-it-up")  # rulebook set-up 6: each player keeps one mission
    url = f"/api/v1/matches/{created['id']}"
    views = [client.get(url, headers=auth(s["token"])).json for s in created["seats"]]
    assert {v["version"] for v in views} == {1} and all(v["legal_actions"] for v in views)
    for seat, view in zip(created["seats"], views, strict=True):
        response = act(client, created["id"], seat["token"], view["legal_actions"][0], 1)
        assert response.status_code == 200, response.json
    assert response.json["status"] == "playing" and response.json["version"] == 5
    # once the step is over, a stale version is refused as in any other step
    first = created["seats"][response.json["to_act"][0]]["token"]
    late = act(client, created["id"], first, {"type": "dig", "site": "A"}, 1)
    assert late.status_code == 409


def test_a_seat_is_not_accepted_twice_in_a_simultaneous_step(client):
    created = create(client, "dig-it-up")
    token = created["seats"][0]["token"]
    view = client.get(f"/api/v1/matches/{created['id']}", headers=auth(token)).json
    assert act(client, created["id"], token, view["legal_actions"][0], 1).status_code == 200
    again = act(client, created["id"], token, view["legal_actions"][1], 1)
    assert again.status_code == 409


def test_a_body_version_and_an_if_match_naming_another_are_refused_not_chosen_between(client):
    created = create(client, "dig")
    view = client.get(f"/api/v1/matches/{created['id']}").json
    token = created["seats"][view["to_act"][0]]["token"]
    action = client.get(f"/api/v1/matches/{created['id']}",
                        headers=auth(token)).json["legal_actions"][0]
    url = f"/api/v1/matches/{created['id']}/actions"
    both = client.post(url, headers={**auth(token), "If-Match": '"7"'},
                       json={"action": action, "version": 1})
    assert both.status_code == 422 and both.json["type"] == "/problems/invalid-header"
    assert list(both.json["errors"]) == ["If-Match"] and "(1)" in both.json["detail"]
    assert client.get(f"/api/v1/matches/{created['id']}").json["version"] == 1  # nothing played
    agreeing = client.post(url, headers={**auth(token), "If-Match": '"1.seat0"'},
                           json={"action": action, "version": 1})
    assert agreeing.status_code == 200, agreeing.json


@pytest.mark.parametrize("headers", [{"If-Match": ""}, {"If-Match": "²"}, {"If-Match": "9" * 5000},
                                     {"If-Match": '"1".x'}])
def test_odd_if_match_headers_and_bodies_are_4xx(client, headers):
    created = create(client, "dig")
    token = created["seats"][0]["token"]
    url = f"/api/v1/matches/{created['id']}/actions"
    for body in (None, {}, {"action": {"type": "end_turn"}}):
        response = client.post(url, headers={**auth(token), **headers}, json=body)
        assert 400 <= response.status_code < 500, (headers, body, response.json)
        assert response.mimetype == "application/problem+json"
    no_action = client.post(url, headers=auth(token), json={"version": 1})
    assert no_action.status_code == 422
    assert no_action.json["errors"]["action"] == ['Send the action, e.g. {"type": "end_turn"}.']


@pytest.mark.parametrize("after", [2**31, 2**63, 2**64 + 1, -1])
def test_a_log_page_past_any_seq_is_refused_plainly(client, after):
    created = create(client, "dig")
    response = client.get(f"/api/v1/matches/{created['id']}/log?after={after}")
    assert response.status_code == 422 and "query.after" in response.json["errors"]


# API.md "Lobby": nobody holds another's token.


def test_players_join_open_seats_each_with_their_own_token(client, game_id):
    names = names_for(game_id)
    created = client.post(f"/api/v1/games/{game_id}/matches",
                          json={"players": [names[0], *[{"open": True}] * (len(names) - 1)],
                                "seed": 4})
    assert created.status_code == 201, created.json
    assert [s["name"] for s in created.json["seats"]] == [names[0]]
    match_id = created.json["id"]
    waiting = client.get(f"/api/v1/matches/{match_id}").json
    assert waiting["status"] == "waiting" and waiting["state"] is None
    assert waiting["to_act"] == [] and [p["name"] for p in waiting["players"]][1:] == \
        [None] * (len(names) - 1)
    early = act(client, match_id, created.json["seats"][0]["token"], {"type": "end_turn"},
                waiting["version"])
    assert early.status_code == 409 and "waiting" in early.json["detail"]
    tokens = {0: created.json["seats"][0]["token"]}
    for name in names[1:]:
        joined = client.post(f"/api/v1/matches/{match_id}/join", json={"name": name})
        assert joined.status_code == 201, joined.json
        assert joined.headers["Cache-Control"] == "no-store"
        tokens[joined.json["seat"]] = joined.json["token"]
        assert joined.json["view"]["you"] == joined.json["seat"]
    assert sorted(tokens) == list(range(len(names)))
    started = client.get(f"/api/v1/matches/{match_id}").json
    assert started["status"] in ("setup", "playing") and started["state"] is not None
    # the same game as one created with every name at once
    direct = client.post(f"/api/v1/games/{game_id}/matches", json={"players": names, "seed": 4})
    assert started["state"] == direct.json["view"]["state"]
    full = client.post(f"/api/v1/matches/{match_id}/join", json={"name": "Zed"})
    assert full.status_code == 409 and full.mimetype == "application/problem+json"


def test_a_lobby_refuses_a_taken_name_a_taken_seat_and_a_table_the_game_has_not(client):
    created = client.post("/api/v1/games/dig/matches", json={"seats": 3}).json
    url = f"/api/v1/matches/{created['id']}/join"
    assert created["seats"] == []
    assert client.post(url, json={"name": "Ann", "seat": 1}).json["seat"] == 1
    assert client.post(url, json={"name": "Ann"}).status_code == 422
    assert client.post(url, json={"name": "Bob", "seat": 1}).status_code == 409
    assert client.post(url, json={"name": "Bob", "seat": 9}).status_code in (409, 422)
    too_many = client.post("/api/v1/games/dig/matches", json={"seats": 5})
    assert too_many.status_code == 422
    both = client.post("/api/v1/games/dig/matches", json={"seats": 2, "players": ["A", "B"]})
    assert both.status_code == 422
    odd = client.post("/api/v1/games/dig/matches", json={"players": ["A", {"open": False}]})
    assert odd.status_code == 422 and "players.1" in odd.json["errors"]


# API.md "Live updates": a stream per caller, filtered like the log, resumable.


def read_stream(client, match_id, headers=None, after=None):
    """The events of a finished match's stream (it ends once nothing more can come)."""
    url = f"/api/v1/matches/{match_id}/events" + ("" if after is None else f"?after={after}")
    response = client.get(url, headers=headers or {})
    assert response.status_code == 200, response.data
    assert response.mimetype == "text/event-stream"
    return stream_entries(response.get_data(as_text=True))


def stream_entries(text: str) -> list[tuple[int, dict]]:
    """The `entry` events of a stream's text: (id, data)."""
    events = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines()
                      if ": " in line and not line.startswith(":"))
        if fields.get("event") == "entry":
            events.append((int(fields["id"]), json.loads(fields["data"])))
    return events


def test_a_stream_tells_each_caller_what_its_log_does_and_resumes_without_gaps(client, game_id):
    view, tokens = play(client, create(client, game_id, seed=6), seed=2)
    match_id = view["id"]
    for token in (None, *tokens.values()):
        headers = auth(token) if token else {}
        log, after = [], 0
        while after is not None:
            page = client.get(f"/api/v1/matches/{match_id}/log?after={after}&limit=1000",
                              headers=headers).json
            log, after = log + page["log"], page["next"]
        events = read_stream(client, match_id, headers)
        assert [seq for seq, _ in events] == [e["seq"] for e in log]
        for (_, data), entry in zip(events, log, strict=True):
            assert {k: data[k] for k in entry} == entry  # exactly what the log shows this caller
            assert data["version"] == entry["seq"] + 1
        assert events[-1][1]["to_act"] == [] and events[-1][1]["version"] == view["version"]
        middle = log[len(log) // 2]["seq"]
        resumed = read_stream(client, match_id, {**headers, "Last-Event-ID": str(middle)})
        assert [seq for seq, _ in resumed] == [e["seq"] for e in log if e["seq"] > middle]
        assert read_stream(client, match_id, headers, after=middle) == resumed


@pytest.mark.parametrize("sent", ["¹2", "9" * 5000, str(2**31)])
def test_a_stream_refuses_an_odd_last_event_id(client, sent):
    created = create(client, "dig")
    response = client.get(f"/api/v1/matches/{created['id']}/events",
                          headers={"Last-Event-ID": sent})
    assert response.status_code == 422 and "Last-Event-ID" in response.json["errors"]


def test_a_stream_resumed_past_the_end_of_the_log_is_refused_not_left_waiting(client):
    """`Last-Event-ID: 9999` on a match of 91 entries answered an open, silent stream: a
    client with another match's id (or a mistyped one) waited for ever."""
    view, _ = play(client, create(client, "digging-for-dinos", seed=6), seed=2)
    last = view["version"] - 1
    assert read_stream(client, view["id"], {"Last-Event-ID": str(last)}) == []  # up to date
    for past in (last + 1, 9999):
        for how in ({"headers": {"Last-Event-ID": str(past)}},
                    {"query_string": {"after": past}}):
            refused = client.get(f"/api/v1/matches/{view['id']}/events", **how)
            assert_problem(refused, 409, kind="stale-version")
            assert f"ends at entry {last}" in refused.json["detail"]


@pytest.mark.parametrize("match_id", ["nope", "a\x00b", "0" * 31 + "\x00", "é" * 32])
def test_an_odd_match_id_is_no_match(client, match_id):
    for path in ("", "/log", "/events"):
        response = client.get(f"/api/v1/matches/{match_id}{path}")
        assert response.status_code == 404 and response.mimetype == "application/problem+json"


def test_a_look_alike_name_cannot_join_beside_its_twin(client):
    created = client.post("/api/v1/games/dig/matches",
                          json={"players": ["Ann", {"open": True}]}).json
    url = f"/api/v1/matches/{created['id']}/join"
    for twin in ("Ann\u200b", " Ann ", "A\u0301nn"[0:0] + "Ann"):
        assert client.post(url, json={"name": twin}).status_code == 422, twin
    assert client.post(url, json={"name": "\u202eBob"}).status_code == 422
    assert client.post(url, json={"name": "Bob"}).status_code == 201


def test_a_name_that_differs_only_in_case_or_width_cannot_join_beside_its_twin(client):
    """"ann" and "Ａｎｎ" joined beside Ann: three seats read Ann in the seats, the log and the
    statistics, and a player could take another's name to a reader."""
    created = client.post("/api/v1/games/dig/matches",
                          json={"players": ["Ann", {"open": True}]}).json
    url = f"/api/v1/matches/{created['id']}/join"
    for twin in ("ann", "ANN", "Ａｎｎ", "ａｎｎ"):
        refused = client.post(url, json={"name": twin})
        assert_problem(refused, 422, "name", "name-taken")
        assert refused.json["detail"].startswith("Ann is already at this table"), refused.json
    refused = client.post("/api/v1/games/dig/matches", json={"players": ["Zoë", "ZOË"]})
    assert refused.status_code == 422
    assert refused.json["errors"] == {"players": [
        "'Zoë' and 'ZOË' are one name at a table (only the letters' case or width differs); "
        "names must differ."]}
    assert client.post(url, json={"name": "Anna"}).status_code == 201


def test_a_seed_written_with_a_zero_fraction_is_that_whole_number(app, client, game_id):
    """JSON Schema's integer, as the document types a seed: 7.0 and 7e0 deal as 7 does."""
    dealt = [client.get(f"/api/v1/matches/{create(client, game_id, seed=7)['id']}").json]
    for written in ("7.0", "7e0"):
        data = '{"players": ' + json.dumps(names_for(game_id)) + ', "seed": ' + written + "}"
        created = client.post(f"/api/v1/games/{game_id}/matches", data=data,
                              content_type="application/json")
        assert created.status_code == 201, created.json
        dealt.append(client.get(f"/api/v1/matches/{created.json['id']}").json)
    assert [view["state"] for view in dealt[1:]] == [dealt[0]["state"]] * 2
    assert {stored_seed(app, view["id"]) for view in dealt} == {7}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_finished_seed_replays_as_text_at_any_width(app, client, game_id):
    """API.md "Retries, errors, seeds as text": `seed_text` beside `seed`, and a seed of up to
    128 bits, as a number or as text, opens the same deal again."""
    wide = 2**128 - 2**70 + 12_345
    for seed in (wide, str(wide)):
        created = create(client, game_id, seed=seed)
        assert created["view"]["seeded"] is True
        assert stored_seed(app, created["id"]) == wide
    first = client.get(f"/api/v1/matches/{created['id']}").json
    text = create(client, game_id, seed=str(wide))
    assert client.get(f"/api/v1/matches/{text['id']}").json["state"] == first["state"]
    view, _ = play(client, create(client, game_id, seed=str(wide)), seed=3)
    assert view["status"] == "finished"
    assert view["seed"] == wide and view["seed_text"] == str(wide)
    assert view["seed_sha256"] == hashlib.sha256(str(wide).encode()).hexdigest()


def test_a_persons_seat_may_be_written_as_an_object(client):
    created = client.post("/api/v1/games/dig/matches",
                          json={"players": [{"name": "Ann"}, "Bob"], "seed": 1})
    assert created.status_code == 201, created.json
    assert [p["name"] for p in created.json["view"]["players"]] == ["Ann", "Bob"]
    assert [s["seat"] for s in created.json["seats"]] == [0, 1]
    odd = client.post("/api/v1/games/dig/matches",
                      json={"players": [{"name": "Ann", "open": True}, "Bob"]})
    assert odd.status_code == 422 and "players.0" in odd.json["errors"]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_view_sent_as_built_is_what_its_schema_documents(client, game_id):
    """Views skip marshmallow's dump on the way out: what is sent must be exactly what the
    schema would have dumped, no key more or less, at every stage of a match."""
    from api.schemas.matches import ViewSchema

    schema = ViewSchema()
    created = create(client, game_id, seed=4, listed=True, clock={"move_seconds": 600})
    seen = [created["view"]]
    view, tokens = play(client, created, seed=2, max_steps=30)
    seen.append(view)
    for token in tokens.values():
        seen.append(client.get(f"/api/v1/matches/{created['id']}",
                               headers={"Authorization": f"Bearer {token}"}).json)
    finished, _ = play(client, create(client, game_id, seed=5), seed=1)
    seen.append(finished)
    for sent in seen:
        assert schema.dump(sent) == sent
        assert list(sent) == [k for k in schema.fields if k in sent]
