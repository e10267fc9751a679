"""Box experiments: a game played as if its box file printed other numbers, for a simulation
that studies balance (`simulate --box FILE.json`).

`boxed` builds a new game from the game's box with the changes merged in (scoring/boxes.py
says how a change is merged and checked): its tables, its moves' ranges, its calculator, its
bots and their samplers all read that box, so any number of boxed games play side by side in
one process and none of them touches another or the registered game. A boxed game pickles as
its class and its changes, and `boxed_by_id` builds it again from its id and changes, so a
worker process (or a machine) plays the very same game.
"""

from __future__ import annotations

from typing import Any

from scoring.boxes import BoxError
from scoring.engine import Game, IllegalAction, play_out
from scoring.results import InvalidScoresheet

__all__ = ["BoxError", "boxed", "boxed_by_id", "playable"]


def boxed(game: Game, changes: Any) -> Game:
    """A new game of the same kind as `game`, playing with `game`'s box changed by `changes`
    (an object: box constant → the new value). BoxError, naming each constant at fault, if the
    changes do not fit the box or the game cannot be played with it."""
    changed = type(game)(game.box.changed(changes))
    playable(changed)
    return changed


def boxed_by_id(game_id: str, changes: Any) -> Game:
    """The registered game `game_id` with its box changed by `changes` (`boxed`): what another
    process builds from a run's game id and box."""
    from scoring.games import GAMES  # the registry imports every game

    return boxed(GAMES[game_id], changes)


def playable(game: Game) -> None:
    """One random match at every table, to the end: BoxError where the rules break although
    every number passed the box's checks."""
    for variant, n in game.tables():
        try:
            state, _ = play_out(game, [f"P{i}" for i in range(n)], 1, variant, max_actions=20_000)
            game.result(state)
        except (IllegalAction, LookupError, TypeError, ValueError, ZeroDivisionError,
                RuntimeError) as exc:
            # each reason once, though several players' counts give it
            said = " ".join(dict.fromkeys(m for ms in exc.errors.values() for m in ms)) \
                if isinstance(exc, InvalidScoresheet) else str(exc)
            raise BoxError([f"With this box, {game.name} ({variant}, {n} players) cannot be "
                            f"played to its end: {said}"]) from exc
