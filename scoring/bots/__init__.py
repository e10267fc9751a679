"""Bots: players a server or the `simulate` command seats at a table.

A bot plays one seat of one match and knows what a person in that seat would know, and nothing
else: `choose` is handed the seat's view (`Game.view`, the one place secrets are removed) and its
legal actions, and it draws from its own seeded generator. It is never handed the match state, so
a bot at a table with people cannot cheat. A view costs more to build than the engine's move, so
a bot declares when it reads one (`reads_view`, `needs_view`): the random bot never does, the
others not where one action is legal, and they are handed None instead.

Every game has the same three bots (API.md "Bots"):
- `random`: uniform among the legal actions;
- `greedy`: the game's one-ply heuristic, documented in its module `scoring/<package>/bots.py`;
- `mcts`: determinized Monte Carlo tree search (scoring/bots/search.py) over worlds the game's
  sampler draws from the seat's view alone, with a budget of playouts (or milliseconds) a move.

A game's bot module (`scoring/<package>/bots.py`, found by the game's package name as its schema
module is) supplies the heuristic (`greedy`, and `playout`, the same on a full state), the
sampler (`Sampler`: full states that show the seat exactly its view; its `cycle`, if it
has one, the number of worlds its strata take to come round), the moves the search leaves
to the heuristic (`obvious`), the evaluation its playouts end on (`evaluate`), the search's
budget (`SEARCH`, a `search.Budget`) and the figures
a simulation reports (`figures`, handed the match's result where the caller has it).
"""

from __future__ import annotations

import hashlib
import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterator
from functools import cache
from types import ModuleType
from typing import Any, ClassVar, NamedTuple

from scoring.engine import FINISHED, Action, Event, Game, Rng, State

View = dict[str, Any]


class Bot(ABC):
    """A player for one seat: it sees the seat's view and legal actions, and draws from `rng`."""

    name: ClassVar[str]
    description: ClassVar[str]
    budgeted: ClassVar[bool] = False  # takes a budget of playouts or milliseconds a move
    # False for a bot that chooses from the legal actions alone: it is handed None for a view,
    # and none is built for it.
    reads_view: ClassVar[bool] = True

    def __init__(self, game: Game, seat: int, rng: Rng) -> None:
        self.game = game  # the rules, which every player knows
        self.seat = seat
        self.rng = rng

    def needs_view(self, legal: list[Action]) -> bool:
        """Whether `choose` reads the seat's view to choose among `legal`; if not, it is handed
        None."""
        return self.reads_view

    @abstractmethod
    def choose(self, view: View | None, legal: list[Action]) -> Action:
        """One of `legal`, the actions the seat may take now, seen as `view` (None where
        `needs_view` said it is not read)."""


class RandomBot(Bot):
    name = "random"
    description = "Picks uniformly among the legal actions."
    reads_view = False

    def choose(self, view: View | None, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


class GreedyBot(Bot):
    name = "greedy"
    description = "The game's one-ply heuristic: the action that looks best right now."

    def needs_view(self, legal: list[Action]) -> bool:
        return len(legal) > 1  # the one legal action is taken unseen

    def choose(self, view: View | None, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return module(self.game).greedy(self.game, view, legal, self.rng)


def module(game: Game) -> ModuleType:
    """The game's bot module: heuristic, sampler, evaluation and figures."""
    return _module(game.package)


@cache
def _module(package: str) -> ModuleType:
    return importlib.import_module(f"scoring.{package}.bots")


def _search() -> type[Bot]:
    from .search import SearchBot  # search.py builds on this module

    return SearchBot


def kinds() -> dict[str, type[Bot]]:
    """Every bot by name, in the order the catalogue lists them."""
    return {"random": RandomBot, "greedy": GreedyBot, "mcts": _search()}


def names(game_id: str) -> list[str]:
    """The bots a game can seat: `bots` in GET /games/{game}."""
    from scoring.games import GAMES

    module(GAMES[game_id])  # every registered game has its bot module
    return list(kinds())


def make(game: Game, name: str, seat: int, seed: int, playouts: int | None = None,
         ms: float | None = None) -> Bot:
    """The bot `name` for `seat`, its generator seeded from `seed`, its name and the seat, so
    two seats of one match never draw the same numbers. The search bot takes its budget from
    `playouts` and `ms` (per move), or the game's default."""
    try:
        kind = kinds()[name]
    except KeyError:
        raise ValueError(f"There is no bot {name!r}; choose one of "
                         f"{', '.join(kinds())}.") from None
    rng = Rng(derived_seed(seed, name, seat))
    if kind.budgeted:
        return kind(game, seat, rng, playouts=playouts, ms=ms)
    return kind(game, seat, rng)


def derived_seed(*parts: Any) -> int:
    """64 bits drawn from `parts` (a seed, a name, a number…) by hashing them, so seeds drawn
    from different parts do not collide."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


class Played(NamedTuple):
    """A bot's action as the log keeps it, with the seats to act and the match's status once it
    was taken."""

    seat: int
    action: Action
    events: list[Event]
    to_act: list[int]
    status: str


def bot_turns(game: Game, state: State, bots: dict[int, Bot], max_actions: int = 100_000
              ) -> Iterator[tuple[int, Action, list[Event]]]:
    """Play the bot seats' turns in `state` (changed in place) until a seat without a bot is the
    only one to act, or the match ends, yielding each as it is played: the seat, its action and
    the events. In a simultaneous step every bot seat among those to act takes its action. A
    bot is handed its seat's view only where it reads one (`Bot.needs_view`), and never the
    state."""
    # The loop runs once for every move of every simulated match: the engine's methods are
    # looked up once, and the state's envelope (scoring/engine.py) is read as play_out reads it.
    legal_actions, view, act = game.legal_actions, game.view, game.act
    for _ in range(max_actions):
        if state["status"] == FINISHED:
            return
        for seat in state["to_act"]:
            if seat in bots:
                break
        else:
            return
        bot = bots[seat]
        legal = legal_actions(state, seat)
        action = bot.choose(view(state, seat) if bot.needs_view(legal) else None, legal)
        # The engine gets its own copy: the action is also what the log records.
        yield seat, action, act(state, seat, dict(action))
    if state["status"] != FINISHED and any(seat in bots for seat in state["to_act"]):
        raise RuntimeError(f"{game.name}: bots played {max_actions} actions without an end")


def play_bot_turns(game: Game, state: State, bots: dict[int, Bot],
                   max_actions: int = 100_000) -> list[Played]:
    """`bot_turns` played to where they stop: what was played, for the log."""
    return [Played(seat, action, events, list(state["to_act"]), state["status"])
            for seat, action, events in bot_turns(game, state, bots, max_actions)]


def bots_play(game_id: str, state: State, bots: dict[int, str], seed: int
              ) -> tuple[list[Played], State]:
    """play_bot_turns for the bots named `bots` (seat → kind), made as `make` makes them from
    `seed`: what they played and the state they left, for work done in another process, where
    the state changed in place is a copy."""
    from scoring.games import GAMES  # the registry imports the games' bots

    game = GAMES[game_id]
    players = {seat: make(game, bot, seat, seed) for seat, bot in bots.items()}
    return play_bot_turns(game, state, players), state
