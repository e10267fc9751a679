"""Each game declares the moves that bring something to light (API.md "Undo"): a move that
draws, rolls, refills or shows a hidden card may not be taken back. The declaration is held
against what the engine does: along random matches of every table, every move that drew from
the RNG or told a seat something privately is declared."""

import pytest

from scoring.engine import ONLY_FOR, Game, Rng, random_bot
from scoring.games import GAMES


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_each_game_declares_revealing_moves_of_its_own(game):
    assert game.REVEALING or game.REVEALING_EVENTS, f"{game.id} declares nothing revealing"
    assert game.REVEALING <= set(game.moves)
    assert set(game.moves) - game.REVEALING, f"{game.id}: every move reveals"


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_every_move_that_draws_or_tells_a_secret_is_declared(game):
    seen: set[str] = set()
    for variant, n in game.tables():
        state = game.setup([f"P{i}" for i in range(n)], 17, variant)
        bot = random_bot(Rng.from_seed(17, "reveal"))
        for _ in range(3000):
            if state["status"] == "finished":
                break
            seat = state["to_act"][0]
            action = bot(game, state, seat)
            before = state["rng"]
            events = game.act(state, seat, dict(action))
            drew = state["rng"] != before
            told = any(ONLY_FOR in event for event in events)
            shown = any(event["type"] in game.REVEALING_EVENTS for event in events)
            if drew or told:
                assert action["type"] in game.REVEALING or shown, (action, events)
            revealed = action["type"] in game.REVEALING or drew or told or shown
            assert game.reveals(action, events, before, state) == revealed
            if revealed:
                seen.add(action["type"])
    assert seen  # the random matches did make revealing moves


def test_a_move_that_draws_reveals_though_undeclared():
    game = GAMES["dig"]
    action = {"type": "move", "to": 1}
    assert not game.reveals(action, [], 5, {"rng": 5})
    assert game.reveals(action, [], 5, {"rng": 6})
    assert game.reveals(action, [{"type": "x", ONLY_FOR: 0}], 5, {"rng": 5})
    assert game.reveals({"type": "dig"}, [], 5, {"rng": 5})


def test_a_game_cannot_declare_a_move_it_does_not_have():
    with pytest.raises(TypeError, match="teleport"):
        type("Broken", (type(GAMES["dig"]),), {"REVEALING": frozenset({"teleport"})})
    assert issubclass(type(GAMES["dig"]), Game)
