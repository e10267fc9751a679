"""The suite every turn engine passes (STYLE: one generic engine suite runs every game):
random legal playouts to the end, replay from seed and actions, illegal actions change nothing,
and no view or log shows another seat's secrets or the seed while the match is playing."""

import copy
import json

import pytest

from scoring.engine import (
    FINISHED,
    IllegalAction,
    NotYourTurn,
    Rng,
    log_entry,
    play_out,
    random_bot,
    replay,
)
from scoring.games import GAMES

ENGINES = list(GAMES.values())
SEEDS = range(12)


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def tables(game):
    """Every (players, variant) the game can be set up with."""
    for variant, n in game.tables():
        yield [f"Player{i}" for i in range(n)], variant


@pytest.fixture(params=ENGINES, ids=lambda g: g.id)
def game(request):
    return request.param


def test_random_matches_reach_the_end_with_a_result(game):
    for players, variant in tables(game):
        for seed in SEEDS:
            state, history = play_out(game, players, seed, variant, bot_seed=seed)
            assert game.status(state) == FINISHED
            result = game.result(state)
            assert [p["name"] for p in result["players"]] == players
            assert result["winners"]
            assert result == game.score(game.scoresheet(state))
            assert history


def test_replaying_seed_and_actions_gives_the_same_game(game):
    for players, variant in tables(game):
        state, history = play_out(game, players, 7, variant, bot_seed=3)
        again = replay(game, players, 7, variant, history)
        assert dumps(again) == dumps(state)
        other_seed = game.setup(players, 8, variant)
        assert dumps(other_seed) != dumps(game.setup(players, 7, variant))


def test_a_state_survives_a_json_round_trip(game):
    players, variant = next(tables(game))
    state = game.setup(players, 11, variant)
    bot = random_bot(Rng.from_seed(5, "bot"))
    for _ in range(40):
        if game.status(state) == FINISHED:
            break
        state = json.loads(dumps(state))  # as storage does between requests
        seat = game.to_act(state)[0]
        game.act(state, seat, bot(game, state, seat))


def _walk(game, players, variant, seed, steps=400):
    """States along a random match, with the seat to act."""
    state = game.setup(players, seed, variant)
    bot = random_bot(Rng.from_seed(seed, "walk"))
    for _ in range(steps):
        if game.status(state) == FINISHED:
            return
        seat = game.to_act(state)[0]
        yield state, seat
        game.act(state, seat, bot(game, state, seat))


def test_an_illegal_action_changes_nothing(game):
    for players, variant in tables(game):
        for i, (state, seat) in enumerate(_walk(game, players, variant, seed=21)):
            if i % 5:
                continue
            before = dumps(state)
            legal = game.legal_actions(state, seat)
            assert legal, "a seat to act has at least one legal action"
            attempts = [{"type": "no_such_action"}, {"no": "type"}, "dig", None,
                        {**legal[0], "extra": {"deep": [1, 2]}} if len(legal[0]) > 1 else None]
            waiting = [s for s in range(len(players)) if s not in game.to_act(state)]
            for action in attempts:
                if action is None:
                    continue
                try:
                    game.act(state, seat, copy.deepcopy(action))
                except IllegalAction as exc:
                    assert str(exc), "an illegal action says why"
                else:
                    pytest.fail(f"{action!r} was accepted")
                assert dumps(state) == before
            for other in waiting:
                with pytest.raises(NotYourTurn):
                    game.act(state, other, copy.deepcopy(legal[0]))
                assert dumps(state) == before


def test_every_listed_action_is_accepted(game):
    for players, variant in tables(game):
        for i, (state, seat) in enumerate(_walk(game, players, variant, seed=33)):
            if i % 7:
                continue
            for action in game.legal_actions(state, seat):
                trial = copy.deepcopy(state)
                game.act(trial, seat, copy.deepcopy(action))


def knowers(owner) -> frozenset:
    """The seats a secret is for: None nobody, a seat itself, a frozenset those seats."""
    if owner is None:
        return frozenset()
    return owner if isinstance(owner, frozenset) else frozenset({owner})


def assert_secrets_kept(game, state, viewers, seen_log, hidden_seed) -> None:
    secrets = game.secrets(state)
    for viewer in viewers:
        view = dumps(game.view(state, viewer))
        if hidden_seed is not None:
            assert str(hidden_seed) not in view and str(hidden_seed) not in seen_log[viewer]
            assert str(state["rng"]) not in view
        for owner, texts in secrets.items():
            for text in texts:
                if viewer in knowers(owner):
                    assert text in view, f"{viewer} does not see its own secret {text}"
                else:
                    assert text not in view, f"{viewer} sees {owner}'s secret {text}"
                    assert text not in seen_log[viewer], f"{viewer}'s log has {owner}'s {text}"


def test_no_view_or_log_shows_another_seats_secrets_or_the_seed(game):
    """Checked before every action and on the finished match: what stays secret at the end of a
    game at the table (a discarded mission, a hand) stays secret in its last view and log."""
    seed = 987_654_321_123
    for players, variant in tables(game):
        state = game.setup(players, seed, variant)
        bot = random_bot(Rng.from_seed(4, "bot"))
        viewers = [None, *range(len(players))]
        # Log entries never change once written: each viewer's log text only grows.
        seen_log = dict.fromkeys(viewers, "")
        checked = 0
        while game.status(state) != FINISHED:
            assert_secrets_kept(game, state, viewers, seen_log, seed)
            checked += 1
            seat = game.to_act(state)[0]
            action = bot(game, state, seat)
            events = game.act(state, seat, copy.deepcopy(action))
            entry = {"seq": checked, "seat": seat, "action": action, "events": events}
            for viewer in viewers:
                seen_log[viewer] += dumps(log_entry(game, entry, viewer))
        # The seed is shown once the match is finished (API.md); nothing else is.
        assert_secrets_kept(game, state, viewers, seen_log, None)
        assert checked > 1


# The declared moves: what Game.act checks, the API documents and the log hides come from them.


def test_every_move_is_declared_with_what_it_does(game):
    assert game.moves, "a game declares its moves"
    for declared in game.moves.values():
        assert declared.description, f"{declared.name} says what it does"
        for field in declared.fields:
            assert field.description, f"{declared.name}.{field.name} says what it is"
        assert set(declared.secret) <= {f.name for f in declared.fields}


def test_every_listed_action_fits_its_declaration(game):
    for players, variant in tables(game):
        for state, seat in _walk(game, players, variant, seed=5, steps=150):
            allowed, prompt = game.stage(state)
            assert prompt
            for action in game.legal_actions(state, seat):
                declared = game.moves[action["type"]]
                assert action["type"] in allowed
                assert declared.check(action) == {k: v for k, v in action.items() if k != "type"}


def test_each_kind_of_mistake_reads_the_same_in_every_game(game):
    players, variant = next(tables(game))
    for state, seat in _walk(game, players, variant, seed=8):
        with_field = [a for a in game.legal_actions(state, seat) if len(a) > 1]
        if with_field:
            break
    else:
        pytest.fail("no legal action with a field along the walk")
    action = with_field[0]
    kind, field = action["type"], next(k for k in action if k != "type")

    def refusal(attempt):
        with pytest.raises(IllegalAction) as exc:
            game.act(state, seat, attempt)
        return exc.value

    missing = refusal({k: v for k, v in action.items() if k != field})
    assert str(missing).startswith(f"A '{kind}' action needs '{field}': ") and \
        missing.field == field
    wrong = refusal({**action, field: "?" if isinstance(action[field], int) else 1})
    assert str(wrong).startswith(f"In a '{kind}' action, '{field}' is ") and wrong.field == field
    extra = refusal({**action, "colour": "red"})
    assert str(extra).startswith(f"A '{kind}' action has no 'colour'; it takes ")
    unknown = refusal({"type": "teleport"})
    assert str(unknown) == (f"An action is an object whose type is one of {game.name}'s "
                            f"actions: {', '.join(game.moves)}.")
    assert str(refusal("dig")) == str(unknown)


def test_the_log_shows_other_seats_an_action_without_its_secret_fields(game):
    for declared in game.moves.values():
        action = {"type": declared.name, **{f.name: f.low if f.choices is None else f.choices[0]
                                            for f in declared.fields}}
        public = game.public_action(action)
        assert set(public) == set(action) - set(declared.secret)
        entry = {"seq": 1, "seat": 0, "action": action, "events": []}
        assert log_entry(game, entry, 0)["action"] == action
        assert log_entry(game, entry, None)["action"] == public


def test_the_tables_are_the_ones_set_up_accepts(game):
    accepted = []
    for variant in game.variants:
        for n in range(1, 8):
            try:
                state = game.setup([f"P{i}" for i in range(n)], 1, variant)
            except IllegalAction as exc:
                assert f"not {n}" in str(exc)
                continue
            assert {k: state[k] for k in ("game", "variant", "players")} == {
                "game": game.id, "variant": variant, "players": [f"P{i}" for i in range(n)]}
            accepted.append((variant, n))
    assert accepted == game.tables()
    low, high = game.players
    assert (low, high) == (min(n for _, n in accepted), max(n for _, n in accepted))


def test_a_view_says_which_game_variant_and_seat(game):
    players, variant = next(tables(game))
    state = game.setup(players, 3, variant)
    for viewer in (None, *range(len(players))):
        view = game.view(state, viewer)
        assert (view["game"], view["variant"], view["you"]) == (game.id, variant, viewer)


@pytest.mark.parametrize(("game_id", "players", "variant", "kind", "attempt", "said"), [
    ("digging-for-dinos", 2, "standard", "place", {"row": 0},
     "A 'place' action needs 'column': a whole number from 0 to 3."),
    ("digging-for-dinos", 2, "standard", "place", {"row": 0, "column": 5},
     "In a 'place' action, 'column' is a whole number from 0 to 3."),
    ("dig-it-up", 2, "small", "dig", {"site": "Q"},
     "In a 'dig' action, 'site' is one of A, B, C, D, E, F."),
    ("dig-it-up", 2, "small", "keep_mission", {},
     "A 'keep_mission' action needs 'mission': one of closing_shop, gold_digger, bronze_age, "
     "scholar, crystal_clear, ruby_hunter, clean_hands, rock_collector, big_purse, card_shark, "
     "bundler, specialist, collector."),
    ("dig", 2, "standard", "move", {"to": 99}, "In a 'move' action, 'to' is a whole number from "
                                                "0 to {yard}."),
])
def test_a_refusal_names_the_range_of_the_table_played(game_id, players, variant, kind, attempt,
                                                        said):
    # The refusal named the widest box's range: columns to 4 on the two players' 4 × 4 grid,
    # sites to J on the 2–3 players' board of six, the yard to 25 once it had shrunk, missions
    # those 2–3 players' game removes.
    game = GAMES[game_id]
    names = [f"Player{i}" for i in range(players)]
    for state, seat in _walk(game, names, variant, seed=3):
        if any(a["type"] == kind for a in game.legal_actions(state, seat)) and (
                game_id != "dig" or len(state["yard"]) < 25):
            break
    else:
        pytest.fail(f"no '{kind}' along the walk")
    with pytest.raises(IllegalAction) as refused:
        game.act(state, seat, {"type": kind, **attempt})
    assert str(refused.value) == said.format(yard=len(state.get("yard", ())))
