"""The match API's examples in the OpenAPI document: a table where Ann opens a seat that Cy
joins, then Ann moves, as the engine plays it (so they always fit the schemas;
tests/api/test_openapi.py checks them). They come from the first game of the catalogue and its
first seat to act, so no shared file names a game."""

import json
from typing import Any

from scoring.engine import Game
from scoring.games import GAMES
from service.matches import MatchService
from service.store import Match

EXAMPLE_ID = "5d1c0f3e9a8b47c6b2e4f1a7d3c9e058"
EXAMPLE_SEED = 2024
EXAMPLE_NAMES = ("Ann", "Cy", "Dee", "Eve", "Flo", "Gus")
EXAMPLE_TOKENS = ("vB0p4QXn3sT8yK1wZ6mR9cJ2hF5dL7aG0eU3iO8qN4x",
                  "Hk2Jm7Pq4Rs1Tv9Wx3Yz6Ab8Cd0Ef5Gh2Ij7Kl4Mn1o",
                  "Qw8Er3Ty6Ui1Op4As7Df2Gh5Jk9Lz0Xc3Vb6Nm8Pq2")
# Views need no storage: a service without one describes the examples.
VIEWS = MatchService(store=None)


def example_table(game: Game) -> tuple[str, int]:
    """The smallest table of the game, in its default variant if that seats it."""
    return min(game.tables(), key=lambda table: (table[1], table[0] != game.default_variant))


def example_match(game: Game, names: list[str | None], version: int) -> Match:
    variant = example_table(game)[0]
    match = Match(EXAMPLE_ID, game.id, variant, EXAMPLE_SEED,
                  [{"name": name, "token_hash": None} for name in names], {}, version,
                  "waiting", False)
    VIEWS.seat_everyone(match)
    return match


def create_examples(game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """Requests that open a match (every seat named; Ann's and open ones), and the answer to
    the second."""
    variant, seats = example_table(game)
    names = list(EXAMPLE_NAMES[:seats])
    requests = {
        "named": {"summary": "Every seat named: each seat's token comes in the answer",
                  "value": {"players": names, "variant": variant}},
        "open_seats": {"summary": "Ann's seat and open ones, which players join with their own "
                                  "requests",
                       "value": {"players": ["Ann", *[{"open": True}] * (seats - 1)],
                                 "variant": variant}},
    }
    requests["webhook"] = {"summary": "A webhook told of each person's turn and of the end, "
                                      "on a host the server allows",
                           "value": {"players": names, "variant": variant, "webhook": {
                               "url": "https://hooks.example.org/digsite",
                               "events": ["turn", "finished"]}}}
    requests["you"] = {"summary": "Every seat named, Ann's own among them: the answer's view "
                                  "is her seat's",
                       "value": {"players": names, "variant": variant, "you": 0}}
    match = example_match(game, ["Ann", *[None] * (seats - 1)], 1)
    answers = {"open_seats": {
        "summary": requests["open_seats"]["summary"],
        "value": {"id": match.id, "game": game.id, "version": match.version,
                  "seats": [{"seat": 0, "name": "Ann", "token": EXAMPLE_TOKENS[0]}],
                  "host_token": EXAMPLE_TOKENS[2], "view": VIEWS.view(match, None),
                  "webhook_secret": None}}}
    if seats < len(EXAMPLE_TOKENS):  # a token each, and the host's
        everyone = example_match(game, names, 1)
        answers["you"] = {"summary": requests["you"]["summary"], "value": {
            "id": everyone.id, "game": game.id, "version": everyone.version,
            "seats": [{"seat": i, "name": name, "token": EXAMPLE_TOKENS[i]}
                      for i, name in enumerate(names)],
            "host_token": EXAMPLE_TOKENS[-1], "view": VIEWS.view(everyone, 0),
            "webhook_secret": None}}
    return requests, answers


def play_examples(game: Game) -> dict[str, dict[str, dict[str, Any]]]:
    """The last open seat taken (a join answers with the new seat's view), the view of the first
    seat to act, and its view once it has taken its first legal action."""
    seats = example_table(game)[1]
    names = list(EXAMPLE_NAMES[:seats])
    match = example_match(game, names, 1 + seats - 1)  # created, then joined seat by seat
    joined = {"seat": seats - 1, "name": names[-1], "token": EXAMPLE_TOKENS[1],
              "view": VIEWS.view(match, seats - 1)}
    seat = game.to_act(match.state)[0]
    before = VIEWS.view(match, seat)
    action = before["legal_actions"][0]
    game.act(match.state, seat, action)
    match.version += 1
    after = VIEWS.view(match, seat)
    who = names[seat]
    return {
        "join": {"last_seat": {"summary": f"{names[-1]} took the last open seat: the match has "
                                          "begun",
                               "value": joined}},
        "view": {"seat": {"summary": f"{who}'s view of a {game.name} match: {who} is to act",
                          "value": before}},
        "action": {"first": {"summary": f"{who}'s view after {json.dumps(action)}",
                             "value": after}},
        "request": {"first": {"summary": f"{who}'s first action, on the view at version "
                                         f"{before['version']}",
                              "value": {"action": action, "version": before["version"]}},
                    "undo": {"summary": "Take back your own last move, while the view offers it "
                                        "(API.md \"Undo\")",
                             "value": {"action": {"type": "undo"},
                                       "version": before["version"] + 1}}},
    }


EXAMPLES = play_examples(next(iter(GAMES.values())))
