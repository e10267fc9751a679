"""How much bot play one request may ask for: a batch of simulations, or a match of bots only,
played within the request that creates it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from scoring.bots import module

from .errors import TOO_MUCH_WORK, Invalid

if TYPE_CHECKING:
    from scoring.engine import Game

# Work in seat-matches: matches × players, a search seat counting SEARCH_WEIGHT (it thinks
# before each move). About a second of one core at the default limit (service/settings.py).
SEARCH_WEIGHT = 100
SEARCH_BOT = "mcts"


def work(matches: int, bots: list[str], weight: int = SEARCH_WEIGHT) -> int:
    """`matches` played by `bots`, a search seat weighing `weight` (search_weight)."""
    return matches * sum(weight if bot == SEARCH_BOT else 1 for bot in bots)


def search_weight(game: Game, budget: dict[str, Any]) -> int:
    """What a search seat weighs with `budget`'s playouts (none: the game's own): its thinking
    grows with them."""
    own = module(game).SEARCH.playouts
    return max(1, math.ceil(SEARCH_WEIGHT * budget.get("playouts", own) / own))


def refuse_over_limit(limit: int, matches: int, bots: list[str], game_id: str) -> None:
    """Invalid, naming the limit, when `matches` between `bots` of `game_id` are more work than
    `limit`; more goes to a study."""
    asked = work(matches, bots)
    if asked > limit:
        # Fewer search bots is advice only for a table that seats one.
        fewer = "Play fewer matches, seat fewer search bots," if SEARCH_BOT in bots \
            else "Play fewer matches,"
        message = (f"One request may play {limit} seat-matches of work (matches × players, a "
                   f"{SEARCH_BOT} seat counting {SEARCH_WEIGHT}); this one is {asked}. {fewer} "
                   f"or ask for a study (POST /api/v1/games/{game_id}/studies), played in "
                   "the background.")
        raise Invalid(message, {"matches" if matches > 1 else "players": [message]},
                      TOO_MUCH_WORK)
