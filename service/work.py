"""How much bot play one request may ask for: a batch of simulations, or a match of bots only,
played within the request that creates it."""

from __future__ import annotations

from .errors import TOO_MUCH_WORK, Invalid

# Work in seat-matches: matches × players, a search seat counting SEARCH_WEIGHT (it thinks
# before each move). About a second of one core at the default limit (service/settings.py).
SEARCH_WEIGHT = 100
SEARCH_BOT = "mcts"


def work(matches: int, bots: list[str]) -> int:
    return matches * sum(SEARCH_WEIGHT if bot == SEARCH_BOT else 1 for bot in bots)


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
