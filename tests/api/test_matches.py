"""Matches through the Flask test client: API.md "Matches" and "Hidden information"."""

import hashlib
import json

import pytest
import sqlalchemy as sa

from scoring.engine import Rng, replay
from scoring.games import GAMES
from tests.api.openapi import assert_documented

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
    """Seat-token clients play random legal actions until the match is finished (or for
    `max_steps` actions); returns the last view and the seat tokens."""
    rng = Rng.from_seed(seed, "client")
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    match_id = created["id"]
    view = created["view"]
    steps = 0
    while view["status"] != "finished" and steps != max_steps:
        seat = view["to_act"][0]
        if view["you"] != seat:
            view = client.get(f"/api/v1/matches/{match_id}", headers=auth(tokens[seat])).json
        response = act(client, match_id, tokens[seat], rng.choice(view["legal_actions"]),
                       view["version"])
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
    assert public.headers["ETag"] == f'"{public.json["version"]}"'
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
    assert act(client, created["id"], token, action, 7).status_code == 409
    response = client.post(f"/api/v1/matches/{created['id']}/actions",
                           headers={**auth(token), "If-Match": '"1"'}, json={"action": action})
    assert response.status_code == 200, response.json
    assert response.json["version"] == 2 and response.headers["ETag"] == '"2"'
    stale = client.post(f"/api/v1/matches/{created['id']}/actions",
                        headers={**auth(token), "If-Match": '"1"'}, json={"action": action})
    assert stale.status_code == 409
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
    log = client.get(url).json
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
        ({"players": names_for(game_id), "seed": 2**63}, "seed"),
        ({"players": names_for(game_id), "seed": "7"}, "seed"),
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


def test_a_chosen_seed_makes_every_view_say_seeded(client, game_id):
    created = create(client, game_id, seed=42)
    assert created["view"]["seeded"] is True
    assert created["view"]["seed_sha256"] == sha256_of(42)
    view, tokens = play(client, created, max_steps=3)
    assert view["seeded"] is True
    for token in [None, *tokens.values()]:
        seen = client.get(f"/api/v1/matches/{created['id']}",
                          headers=auth(token) if token else {}).json
        assert seen["seeded"] is True and seen["seed_sha256"] == sha256_of(42)


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
    from api.storage import matches

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
    from api.storage import actions

    with engine.begin() as conn:  # a move the rules no longer have
        conn.execute(actions.update().where(actions.c.match_id == view["id"], actions.c.seq == 1)
                     .values(action={"type": "retired_move"}))
    gone = client.get(f"/api/v1/matches/{view['id']}")
    assert gone.status_code == 410 and gone.mimetype == "application/problem+json"
    assert "earlier version of the rules" in gone.json["detail"]
    log = client.get(f"/api/v1/matches/{view['id']}/log")
    assert log.status_code == 200 and len(log.json["log"]) == 4
