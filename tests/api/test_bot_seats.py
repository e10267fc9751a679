"""Bot seats in matches (API.md "Bots"): the server plays a bot's turns within the request that
hands it the turn, so every answer already shows them; a match of bots only is played to its end
by the create request; the same seed and the same actions give the same match."""

import pytest

from app import create_app
from scoring.bots import make
from scoring.engine import replay
from scoring.games import GAMES
from tests.api.openapi import assert_documented

BOTS = ("mcts", "greedy", "random")


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def bot_seats(n: int, first: int = 0) -> list[dict[str, str]]:
    """n bot seats, the bots taken in turn so every table seats each kind."""
    return [{"name": f"Bot {i + 1}", "bot": BOTS[(first + i) % len(BOTS)]} for i in range(n)]


def create(client, game_id: str, players: list, **extra):
    return client.post(f"/api/v1/games/{game_id}/matches",
                       json={"players": players, **extra})


def full_log(client, match_id: str, token: str | None = None) -> list[dict]:
    entries, after = [], 0
    while True:
        page = client.get(f"/api/v1/matches/{match_id}/log?after={after}",
                          headers=auth(token) if token else {}).get_json()
        entries += page["log"]
        if page["next"] is None:
            return entries
        after = page["next"]


def play_as_person(client, game, created: dict, seat: int, seed: int) -> list[dict]:
    """A person (driven by the greedy heuristic on their own view) plays their seat to the end;
    the views they were answered with."""
    token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
    person = make(game, "greedy", seat, seed)
    view = client.get(f"/api/v1/matches/{created['id']}", headers=auth(token)).get_json()
    answers = []
    for _ in range(2_000):
        if view["status"] == "finished":
            return answers
        # Every answer has already played the bots' turns: the person is the one to act.
        assert view["to_act"] == [seat], view["to_act"]
        # the heuristic weighs the game's moves; an undo (API.md "Undo") is none of them
        moves = [a for a in view["legal_actions"] if a["type"] != "undo"]
        action = person.choose(view["state"], moves)
        response = client.post(f"/api/v1/matches/{created['id']}/actions", headers=auth(token),
                               json={"action": action, "version": view["version"]})
        assert response.status_code == 200, response.get_json()
        view = response.get_json()
        answers.append(view)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_the_catalogue_lists_the_bots_a_match_can_seat(client, game):
    assert client.get(f"/api/v1/games/{game.id}").get_json()["bots"] == \
        ["random", "greedy", "mcts"]
    listed = {g["id"]: g for g in client.get("/api/v1/games").get_json()["games"]}
    assert listed[game.id]["bots"] == ["random", "greedy", "mcts"]


@pytest.mark.parametrize(("game", "variant", "n"),
                         [(g, v, n) for g in GAMES.values() for v, n in g.tables()],
                         ids=lambda x: getattr(x, "id", str(x)))
def test_a_person_plays_every_table_against_every_bot_to_the_end(client, game, variant, n):
    players = ["Ann", *bot_seats(n - 1, first=n)]
    response = create(client, game.id, players, variant=variant, seed=n)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    # A bot's seat has no token: only the person's comes back.
    assert [s["seat"] for s in created["seats"]] == [0]
    assert [p["bot"] for p in created["view"]["players"]] == \
        [None, *[p["bot"] for p in players[1:]]]
    answers = play_as_person(client, game, created, 0, seed=n)
    final = answers[-1] if answers else created["view"]
    assert final["status"] == "finished" and final["result"]["players"]
    log = full_log(client, created["id"], created["seats"][0]["token"])
    assert {e["seat"] for e in log} == set(range(n))  # every bot played
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert final["version"] == len(log) + 1


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_a_match_of_bots_only_is_played_to_its_end_by_the_create_request(app, client, game):
    variant, n = game.tables()[0]
    response = create(client, game.id, bot_seats(n), variant=variant, seed=11)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    assert created["seats"] == []
    view = created["view"]
    assert view["status"] == "finished" and view["result"]["winners"]
    assert view["version"] == len(full_log(client, created["id"])) + 1
    # The stored log (secret fields and all, which no spectator sees) is the whole match:
    # replayed from the seed it gives the same result.
    log = app.extensions["digsite_storage"].log(created["id"], 0, 100_000)
    state = replay(game, [p["name"] for p in view["players"]], view["seed"], variant,
                   [(e["seat"], e["action"]) for e in log])
    assert game.result(state) == view["result"]
    assert client.post(f"/api/v1/games/{game.id}/matches",
                       json={"players": bot_seats(n), "variant": variant,
                             "seed": 11}).get_json()["view"]["result"] == view["result"]


def test_a_finished_match_is_scored_once_however_often_it_is_read(client, monkeypatch):
    # Every phone at the table reads a finished match again and again (for a rematch): each
    # read scored its end anew, most of a Dig It Up view's time.
    game = GAMES["dig-it-up"]
    created = create(client, game.id, bot_seats(4), seed=11).get_json()
    scored = []
    real = type(game).result
    monkeypatch.setattr(type(game), "result",
                        lambda self, state: scored.append(1) or real(self, state))
    views = [client.get(f"/api/v1/matches/{created['id']}").get_json() for _ in range(3)]
    assert [v["result"] for v in views] == [created["view"]["result"]] * 3
    assert len(scored) <= 1
    other = create(client, game.id, bot_seats(4), seed=12).get_json()  # another match: its own
    assert client.get(f"/api/v1/matches/{other['id']}").get_json()["result"] == \
        other["view"]["result"] != created["view"]["result"]


def test_the_same_seed_and_the_same_actions_give_the_same_match(client):
    game = GAMES["dig"]
    logs = []
    for _ in range(2):
        created = create(client, "dig", ["Ann", {"name": "Robo", "bot": "mcts"}],
                         seed=5).get_json()
        play_as_person(client, game, created, 0, seed=1)
        logs.append(full_log(client, created["id"], created["seats"][0]["token"]))
    assert logs[0] == logs[1]


def test_bots_take_their_turns_when_the_last_open_seat_is_joined(client):
    created = create(client, "dig", [{"name": "Robo", "bot": "greedy"}, {"open": True}],
                     seed=3).get_json()
    assert created["view"]["status"] == "waiting" and created["seats"] == []
    joined = client.post(f"/api/v1/matches/{created['id']}/join", json={"name": "Ann"})
    assert joined.status_code == 201, joined.get_json()
    view = joined.get_json()["view"]
    assert view["to_act"] == [1] and view["you"] == 1
    joined_entry, *played = full_log(client, created["id"])
    # API.md "Seats, hosts and leaving": the join is an entry of its own, then the bot at seat 0
    # plays its turn.
    assert joined_entry["events"] == [{"type": "joined", "seat": 1, "name": "Ann"}]
    assert played and {e["seat"] for e in played} == {0}
    assert view["version"] == created["version"] + 1 + len(played)


def test_bots_choose_their_missions_beside_the_people_in_a_simultaneous_step(client):
    created = create(client, "dig-it-up", ["Ann", {"name": "Robo", "bot": "greedy"}],
                     variant="small", seed=4).get_json()
    view = created["view"]
    assert view["to_act"] == [0]  # the bot kept its mission at once; Ann still chooses
    assert [e["seat"] for e in full_log(client, created["id"])] == [1]


@pytest.mark.parametrize(("seat", "field", "words"), [
    ({"name": "Robo", "bot": "clever"}, "players.1", "random, greedy, mcts"),
    ({"name": "Ann", "bot": "greedy"}, "players", "names must differ"),
    ({"name": "Robo", "bot": "greedy", "open": True}, "players.1", "A seat is"),
    ({"bot": "greedy"}, "players.1", "A seat is"),
])
def test_a_wrong_bot_seat_is_refused_naming_it(client, seat, field, words):
    response = create(client, "dig", ["Ann", seat])
    assert response.status_code == 422
    problem = response.get_json()
    assert words in " ".join(problem["errors"][field]), problem


def test_a_match_of_bots_only_above_the_work_limit_is_refused(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'd.db'}",
                      "DIGSITE_SIMULATION_LIMIT": 150})
    client = app.test_client()
    document = client.get("/api/openapi.json").get_json()
    players = [{"name": "A", "bot": "mcts"}, {"name": "B", "bot": "mcts"}]
    response = create(client, "dig", players)
    assert response.status_code == 422
    assert_documented(document, "/api/v1/games/dig/matches", "post", response)
    assert "150 seat-matches" in response.get_json()["detail"]
    # A person at the table plays along: the bots move one turn at a time, no limit applies.
    assert create(client, "dig", ["Ann", *players]).status_code == 201


def test_the_document_types_bot_seats(client):
    document = client.get("/api/openapi.json").get_json()
    schema = document["components"]["schemas"]["DigCreateMatch"]["properties"]["players"]
    kinds = schema["items"]["oneOf"]
    bot = next(k for k in kinds if "bot" in k.get("properties", {}))
    assert bot["properties"]["bot"]["enum"] == ["random", "greedy", "mcts"]
    assert "bot" in document["components"]["schemas"]["SeatPlayer"]["required"]
