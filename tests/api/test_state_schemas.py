"""A view's `state` and a log's events, typed (issue 11): random matches of every table of every
game, each seat's and the spectator's view held against <Game>State and every event, as each of
them sees it, against <Game>Event, all read from the app's own /api/openapi.json. Every object
there refuses fields it does not name, so a field an engine adds without documenting it fails."""

import importlib
import json

import pytest

from app import create_app
from scoring.engine import FINISHED, Rng, random_bot, visible_events
from scoring.games import GAMES
from tests.api.openapi import assert_documented, closed, resolve, validator

SCHEMAS = "#/components/schemas/"
# Views are held against the document after each of the first actions (the set-up, the first
# turns), then after every STRIDE-th and at the end: between random bots a Dig It Up match runs
# to some 70 actions, a DIG match to 2000. Events are all checked.
FIRST_STEPS, STRIDE = 10, 10
TABLES = [(game, variant, n) for game in GAMES.values() for variant, n in game.tables()]


def own_schemas(game):
    return importlib.import_module(f"api.schemas.{game.package}")


@pytest.fixture(scope="module")
def document(tmp_path_factory):
    database = tmp_path_factory.mktemp("state") / "d.db"
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{database}"})
    return app.test_client().get("/api/openapi.json").get_json()


def fits(document, name):
    return validator(document, {"$ref": SCHEMAS + name})


def problems(checker, instance):
    return [f"{list(e.absolute_path)}: {e.message}" for e in checker.iter_errors(instance)][:3]


def test_each_game_has_a_state_and_a_union_of_its_events_told_apart_by_type(document):
    schemas = document["components"]["schemas"]
    for game in GAMES.values():
        events = own_schemas(game).EVENTS
        assert "game_over" in events
        union = schemas[f"{game.prefix}Event"]
        assert union["discriminator"]["propertyName"] == "type"
        assert list(union["discriminator"]["mapping"]) == list(events)
        for kind, ref in union["discriminator"]["mapping"].items():
            event = resolve(document, {"$ref": ref})
            assert event["properties"]["type"]["enum"] == [kind]
            assert event["description"]
        assert {"$ref": SCHEMAS + f"{game.prefix}Event"} in schemas["GameEvent"]["anyOf"]
        assert schemas["GameState"]["discriminator"]["mapping"][game.id] == \
            SCHEMAS + f"{game.prefix}State"
        assert {"game", "variant", "you", "players"} <= set(schemas[f"{game.prefix}State"][
            "required"])


def test_a_view_and_a_log_entry_refer_to_the_typed_state_and_events(document):
    schemas = document["components"]["schemas"]
    assert {"$ref": SCHEMAS + "GameState"} in schemas["View"]["properties"]["state"]["anyOf"]
    assert schemas["LogEntry"]["properties"]["events"]["items"] == {"$ref": SCHEMAS + "GameEvent"}


def reachable(document, name, seen=None):
    """The names of the components `name` refers to, itself included."""
    seen = set() if seen is None else seen
    if name not in seen:
        seen.add(name)
        text = json.dumps(document["components"]["schemas"][name])
        for part in text.split(f'"{SCHEMAS}')[1:]:
            reachable(document, part.split('"')[0], seen)
    return seen


def test_every_object_of_a_state_or_an_event_is_open_and_checked_closed(document):
    """API.md adds fields to answers freely: the document closed them (`additionalProperties:
    false`), and a client validating against it would refuse the first answer with a field
    added. They are open; the tests check every answer against the document closed, so that a
    field the document does not name (a secret, say) is still caught."""
    schemas = document["components"]["schemas"]
    names = reachable(document, "GameState") | reachable(document, "GameEvent") | \
        reachable(document, "View") | reachable(document, "LogEntry")
    objects = [name for name in names if "properties" in schemas[name]]
    assert len(objects) > 50
    for name in objects:
        assert "additionalProperties" not in schemas[name], name
        assert closed(document)["components"]["schemas"][name]["additionalProperties"] is False
    state = views(GAMES["dig"], GAMES["dig"].setup(["Ann", "Bob"], 1, "standard"))[1]
    assert not problems(fits(document, "DigState"), state)
    assert problems(fits(document, "DigState"), {**state, "secret": 1})  # caught


def views(game, state):
    return [game.view(state, seat) for seat in [None, *range(len(state["players"]))]]


@pytest.mark.parametrize(("game", "variant", "n"), TABLES,
                         ids=[f"{g.id}-{v}-{n}" for g, v, n in TABLES])
def test_random_matches_show_only_documented_states_and_events(document, game, variant, n):
    state_fits = fits(document, f"{game.prefix}State")
    event_fits = fits(document, f"{game.prefix}Event")
    state = game.setup([f"P{i}" for i in range(n)], 11, variant)
    bot = random_bot(Rng.from_seed(n, "bot"))
    checked = set()  # most events read the same for every viewer: each is checked once
    step = 0
    while True:
        if step < FIRST_STEPS or step % STRIDE == 0 or state["status"] == FINISHED:
            for view in views(game, state):
                assert not problems(state_fits, view), (step, view["you"])
        if state["status"] == FINISHED:
            break
        seat = state["to_act"][0]
        events = game.act(state, seat, bot(game, state, seat))
        step += 1
        for viewer in [None, *range(n)]:
            for event in visible_events(events, viewer):
                text = json.dumps(event, sort_keys=True)
                if text not in checked:
                    checked.add(text)
                    assert not problems(event_fits, event), (step, viewer, event)
    # The unions of every game take them too.
    for view in views(game, state):
        assert fits(document, "GameState").is_valid(view)
    assert all(fits(document, "GameEvent").is_valid(e) for e in visible_events(events, None))


def test_an_undocumented_or_missing_field_fails(document):
    for game in GAMES.values():
        state = game.setup(["Ann", "Bob", "Cy", "Di"], 3, game.default_variant)
        view = game.view(state, 0)
        state_fits = fits(document, f"{game.prefix}State")
        assert state_fits.is_valid(view)
        assert not state_fits.is_valid({**view, "surprise": 1})
        assert not state_fits.is_valid({k: v for k, v in view.items() if k != "players"})
        player = {**view["players"][0], "surprise": 1}
        assert not state_fits.is_valid({**view, "players": [player, *view["players"][1:]]})
        event = play_until(game, state)[0]
        event_fits = fits(document, f"{game.prefix}Event")
        assert event_fits.is_valid(event)
        assert not event_fits.is_valid({**event, "surprise": 1})
        assert not event_fits.is_valid({**event, "type": "teleported"})


# --- events random bots seldom bring about, from states set up for them -----------------------

def play_until(game, state, wanted=None, seed=5):
    """Random moves until an event (of type `wanted`) comes, or the end; the events on the way,
    as the seats that acted saw them."""
    bot = random_bot(Rng.from_seed(seed, "bot"))
    seen = []
    while state["status"] != FINISHED:
        seat = state["to_act"][0]
        seen += visible_events(game.act(state, seat, bot(game, state, seat)), seat)
        if any(wanted in (None, event["type"]) for event in seen):
            break
    return seen


def dig_it_up(deck, charms=0, tokens_everywhere=False):
    """A Dig It Up match of four (Thieves are in play) with the chance deck given, Lucky Charms
    in every hand, and if asked a token on every tile of the board."""
    game = GAMES["dig-it-up"]
    state = game.setup(["Ann", "Bob", "Cy", "Di"], 1, "standard")
    state["deck"] = deck
    for held in state["seats"]:
        held["cards"] = [{"id": "lucky_charm", "turn": 0} for _ in range(charms)]
    if tokens_everywhere:
        for spot in state["sites"].values():
            spot["tokens"] = [None if tile is None else 5 for tile in spot["tiles"]]
    return game, state


def dinos_stuck():
    """After the placing every tile but one is gone, and that one lies on no line of the first
    player's tokens: only a free move is left."""
    game = GAMES["digging-for-dinos"]
    state = game.setup(["Ann", "Bob"], 1, "standard")
    while state["status"] != "playing":
        seat = state["to_act"][0]
        game.act(state, seat, game.legal_actions(state, seat)[0])
    tokens = {space for seat_tokens in state["tokens"] for space, _ in seat_tokens}
    grid = state["grid"]
    for lone in set(range(len(grid))) - tokens:
        state["grid"] = [tile if i in tokens or i == lone else None for i, tile in enumerate(grid)]
        if game.legal_actions(state, 0)[0]["type"] == "free_move":
            break
    return game, state


# Events random bots seldom bring about, each from a state set up for it.
RARE = {
    "deck_empty": lambda: dig_it_up(deck=[]),
    "no_effect": lambda: dig_it_up(deck=["strike_gold"], tokens_everywhere=True),
    "stole": lambda: dig_it_up(deck=["thief"]),
    "reroll": lambda: dig_it_up(deck=[], charms=3),
    "free_move": dinos_stuck,
}


@pytest.mark.parametrize("wanted", RARE)
def test_rare_events_are_documented_too(document, wanted):
    game, state = RARE[wanted]()
    events = play_until(game, state, wanted)
    assert wanted in [event["type"] for event in events]
    event_fits = fits(document, f"{game.prefix}Event")
    for event in events:
        assert not problems(event_fits, event), event


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_every_documented_event_is_one_the_engine_brings_about(game):
    plays = [(game, game.setup([f"P{i}" for i in range(n)], 11, variant))
             for variant, n in game.tables()]
    plays += [made() for made in RARE.values()]
    happened = {event["type"] for played, state in plays if played is game
                for event in play_until(game, state, "to the end")}
    assert set(own_schemas(game).EVENTS) == happened


# --- over HTTP --------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_a_log_read_by_each_seat_and_a_spectator_matches_the_document(client, game):
    variant, n = game.tables()[0]
    created = client.post(f"/api/v1/games/{game.id}/matches", json={
        "players": [f"P{i}" for i in range(n)], "variant": variant, "seed": 4}).json
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    view = created["view"]
    for _ in range(6):
        seat = view["to_act"][0]
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = client.get(f"/api/v1/matches/{created['id']}", headers=headers).json
        view = client.post(f"/api/v1/matches/{created['id']}/actions", headers=headers,
                           json={"action": mine["legal_actions"][0],
                                 "version": mine["version"]}).json
    document = client.get("/api/openapi.json").get_json()
    for token in [None, *tokens.values()]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        log = client.get(f"/api/v1/matches/{created['id']}/log", headers=headers)
        assert log.json["log"]
        assert_documented(document, "/api/v1/matches/{match_id}/log", "get", log)
