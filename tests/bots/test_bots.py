"""Every bot of every game (scoring/bots): each plays every table to its end; a bot is handed
nothing its seat may not know, and no view where it reads none, choosing as it would with one;
the search bot's sampler builds, from a view alone, states that show the seat that very view;
`play_bot_turns` stops where a person is to act."""

import json
import pickle
from itertools import islice

import pytest

from scoring import bots
from scoring.bots.simulations import Table, play
from scoring.engine import FINISHED, Rng, play_out
from scoring.games import GAMES
from tests.engine.test_engine_suite import knowers

ENGINES = list(GAMES.values())
# The search bot on the smallest budget: one world, each move tried once.
TINY = {"playouts": 1}


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


@pytest.fixture(params=ENGINES, ids=lambda g: g.id)
def game(request):
    return request.param


def test_every_game_seats_random_greedy_and_a_search_bot(game):
    assert bots.names(game.id) == ["random", "greedy", "mcts"]
    for name in bots.names(game.id):
        bot = bots.make(game, name, 0, 1)
        assert bot.name == name and bot.description


@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
def test_every_bot_plays_every_table_to_its_end(game, name):
    for variant, n in game.tables():
        # The bot under test in seat 0, the others as cheap as they come.
        table = Table(game, variant, (name, *["random"] * (n - 1)), budget=TINY)
        record = play(table, seed=n)
        assert record["length"] > 0
        assert len(record["scores"]) == n and record["winners"]


class Spy(bots.Bot):
    """A bot that checks what it is handed against what its seat may know, and that it is
    handed a view exactly where the bot it spies on reads one, then lets that bot choose."""

    name = description = "spy"

    def __init__(self, inner: bots.Bot, state: dict) -> None:
        super().__init__(inner.game, inner.seat, inner.rng)
        self.inner, self.state, self.checked, self.views = inner, state, 0, 0

    def needs_view(self, legal):
        return self.inner.needs_view(legal)

    def choose(self, view, legal):
        assert (view is not None) == self.inner.needs_view(legal)
        assert view is not self.state and legal is not self.state
        self.views += view is not None
        shown = dumps(view) + dumps(legal)
        for owner, texts in self.game.secrets(self.state).items():
            if self.seat not in knowers(owner):
                for text in texts:
                    assert text not in shown, f"seat {self.seat} was shown {owner}'s {text}"
        assert str(self.state["rng"]) not in shown
        self.checked += 1
        return self.inner.choose(view, legal)


@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
def test_a_bot_is_handed_nothing_its_seat_may_not_know(game, name):
    # A random DIG match runs for a thousand moves and more: the random bots at one table.
    for variant, n in game.tables()[:1 if name == "random" else 2]:
        state = game.setup([f"P{i}" for i in range(n)], 987_654_321, variant)
        spies = {seat: Spy(bots.make(game, name, seat, 5, **TINY), state) for seat in range(n)}
        bots.play_bot_turns(game, state, spies)
        assert game.status(state) == FINISHED
        assert all(spy.checked for spy in spies.values())
        # Only a bot that reads its view was handed one.
        assert all(bool(spy.views) == spy.inner.reads_view for spy in spies.values())


def test_the_random_bot_reads_no_view_and_none_is_built_for_it(game, monkeypatch):
    assert not bots.RandomBot.reads_view
    built = []
    view = game.view
    monkeypatch.setattr(game, "view", lambda state, seat: built.append(seat) or view(state, seat))
    for variant, n in game.tables():
        play(Table(game, variant, ("random",) * n), seed=n)
    assert built == []
    variant, n = game.tables()[0]
    play(Table(game, variant, ("greedy", *["random"] * (n - 1))), seed=3)
    assert built and set(built) == {0}


def viewing_every_turn(game, state, players):
    """The bots' turns as they were played before a bot said whether it reads its view: each
    handed its seat's view, built before every move."""
    while game.status(state) != FINISHED:
        seat = game.to_act(state)[0]
        action = players[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
        yield seat, action, game.act(state, seat, dict(action))


@pytest.mark.parametrize("name", ["random", "greedy", "mcts"])
def test_a_bot_handed_no_view_plays_as_it_would_with_one(game, name):
    """The same seed gives the same moves, draws and state whether or not views were built: a
    bot that declares it does not read a view does not."""
    # The random bot through whole matches at every table; the others, slower, through the
    # first 150 moves at one table.
    tables, moves = (game.tables(), None) if name == "random" else (game.tables()[:1], 150)
    for variant, n in tables:
        names = [f"P{i}" for i in range(n)]
        lineup = (name, *["random"] * (n - 1))
        states, turns = [], []
        for play_turns in (bots.bot_turns, viewing_every_turn):
            state = game.setup(names, 31, variant)
            players = {s: bots.make(game, bot, s, 31, **TINY) for s, bot in enumerate(lineup)}
            turns.append(list(islice(play_turns(game, state, players), moves)))
            states.append(dumps(state))
        assert turns[0] == turns[1] and states[0] == states[1]


def positions(game, seed=3, per_table=10):
    """(a copy of the state, the seat to act) at points along a random match of each table."""
    for variant, n in game.tables():
        state, history = play_out(game, [f"P{i}" for i in range(n)], seed, variant,
                                  bot_seed=seed)
        every = max(1, len(history) // per_table)
        state = game.setup([f"P{i}" for i in range(n)], seed, variant)
        for i, (seat, action) in enumerate(history):
            if i % every == 0:
                yield pickle.loads(pickle.dumps(state)), seat
            game.act(state, seat, dict(action))


def test_the_sampler_builds_states_that_show_the_seat_its_own_view(game):
    rules = bots.module(game)
    rng = Rng(11)
    for state, seat in positions(game):
        view = game.view(state, seat)
        sampler = rules.Sampler(game, view)
        for world in range(2):
            sample = sampler.sample(rng, world)
            assert dumps(game.view(sample, seat)) == dumps(view)
            assert game.legal_actions(sample, seat) == game.legal_actions(state, seat)
            # ... and the rules play it on to an end.
            walker = random_walk(game, sample, rng)
            assert game.status(walker) == FINISHED
            game.result(walker)


def random_walk(game, state, rng):
    state = pickle.loads(pickle.dumps(state))
    for _ in range(100_000):
        if game.status(state) == FINISHED:
            break
        seat = game.to_act(state)[0]
        game.act(state, seat, dict(rng.choice(game.legal_actions(state, seat))))
    return state


def test_the_search_bot_chooses_from_the_view_alone(game):
    """Two deals that look the same from a seat get the same move: the bot cannot tell them
    apart, because it never sees the state."""
    rules = bots.module(game)
    for state, seat in list(positions(game, per_table=3))[:6]:
        view = game.view(state, seat)
        other = rules.Sampler(game, view).sample(Rng(99))  # another deal, the same view
        legal = game.legal_actions(state, seat)
        first = bots.make(game, "mcts", seat, 8, playouts=20)
        again = bots.make(game, "mcts", seat, 8, playouts=20)
        assert first.choose(game.view(state, seat), legal) == \
            again.choose(game.view(other, seat), game.legal_actions(other, seat))


def test_bots_play_until_a_person_is_to_act(game):
    variant, n = game.tables()[0]
    state = game.setup([f"P{i}" for i in range(n)], 5, variant)
    people = {0}
    played = bots.play_bot_turns(game, state, {s: bots.make(game, "greedy", s, 5)
                                               for s in range(n) if s not in people})
    assert game.status(state) == FINISHED or set(game.to_act(state)) & people
    assert all(p.seat not in people for p in played)
    for p in played:
        assert isinstance(p.action, dict) and isinstance(p.events, list)
        assert isinstance(p.to_act, list)


def test_a_match_of_bots_only_is_played_to_its_end(game):
    variant, n = game.tables()[0]
    state = game.setup([f"P{i}" for i in range(n)], 6, variant)
    played = bots.play_bot_turns(game, state, {s: bots.make(game, "greedy", s, 6)
                                               for s in range(n)})
    assert game.status(state) == FINISHED
    # Replaying what the bots played gives the same match.
    again = game.setup([f"P{i}" for i in range(n)], 6, variant)
    for p in played:
        game.act(again, p.seat, dict(p.action))
    assert dumps(again) == dumps(state)


def test_every_bot_seat_acts_in_a_simultaneous_step():
    """Dig It Up's missions are kept all at once: the bot seats keep theirs, a person's seat
    is left to choose."""
    game = GAMES["dig-it-up"]
    state = game.setup(["Ann", "B1", "B2", "B3"], 4, "standard")
    assert game.to_act(state) == [0, 1, 2, 3]
    played = bots.play_bot_turns(game, state, {s: bots.make(game, "greedy", s, 4)
                                               for s in (1, 2, 3)})
    assert [p.seat for p in played] == [1, 2, 3]
    assert game.to_act(state) == [0]


def test_a_bot_is_seeded_per_seat_and_reproducible(game):
    variant, n = game.tables()[0]
    names = ("greedy", *["random"] * (n - 1))
    assert play(Table(game, variant, names), 42) == play(Table(game, variant, names), 42)


def test_an_unknown_bot_is_refused_with_the_choice(game):
    with pytest.raises(ValueError, match="random, greedy, mcts"):
        bots.make(game, "oracle", 0, 1)


def test_greedy_beats_random_and_dig_between_greedy_bots_ends_early():
    game = GAMES["dig"]
    records = [play(Table(game, "standard", ("greedy", "random")), seed)
               for seed in range(10)]
    assert sum(0 in r["winners"] for r in records) >= 9
    duel = [play(Table(game, "standard", ("greedy", "greedy")), seed) for seed in range(10)]
    assert sum(r["length"] for r in duel) / len(duel) < 300


def test_the_search_weighs_every_roll_of_the_die_alike(monkeypatch):
    """Dig It Up's worlds cycle through the die's rolls: a search draws them in whole cycles,
    so that no roll counts more than another in a move's mean."""
    game = GAMES["dig-it-up"]
    rules = bots.module(game)
    drawn = []

    class Counting(rules.Sampler):
        def sample(self, rng, world=0):
            drawn.append(world)
            return super().sample(rng, world)

    monkeypatch.setattr(rules, "Sampler", Counting)
    state = game.setup(["A", "B"], 12, "small")
    while (legal := game.legal_actions(state, seat := game.to_act(state)[0]))[0]["type"] \
            != "dig" or len(legal) < 4:
        game.act(state, seat, dict(legal[0]))
    # A budget one short of seven cycles a move, of whichever moves the search weighs.
    bot = bots.make(game, "mcts", seat, 3, playouts=7 * game.die * len(legal) - 1)
    bot.choose(game.view(state, seat), legal)
    assert drawn and len(drawn) % game.die == 0
