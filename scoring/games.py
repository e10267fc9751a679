"""The catalogue of games: each game's box, calculator and (where it has one) turn engine."""

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import Any

from scoring.dig import box as dig_box
from scoring.dig import score as dig_score
from scoring.dig_it_up import box as dig_it_up_box
from scoring.dig_it_up import score as dig_it_up_score
from scoring.dinos import box as dinos_box
from scoring.dinos import score as dinos_score
from scoring.engine import Game


@dataclass(frozen=True, eq=False)
class GameEntry:
    box: ModuleType
    score: Callable[[dict[str, Any]], dict[str, Any]]
    engine_module: str

    @cached_property
    def engine(self) -> Game | None:
        """The game's turn engine (its module's ENGINE), or None while it has none."""
        try:
            module = importlib.import_module(self.engine_module)
        except ModuleNotFoundError as exc:
            if exc.name != self.engine_module:
                raise
            return None
        return module.ENGINE

    @property
    def id(self) -> str:
        return self.box.GAME_ID

    def summary(self) -> dict[str, Any]:
        low, high = self.box.PLAYERS
        return {"id": self.id, "name": self.box.NAME, "players": {"min": low, "max": high},
                "variants": list(self.box.VARIANTS)}


GAMES: dict[str, GameEntry] = {
    entry.id: entry
    for entry in (
        GameEntry(dig_it_up_box, dig_it_up_score.score, "scoring.dig_it_up.engine"),
        GameEntry(dig_box, dig_score.score, "scoring.dig.engine"),
        GameEntry(dinos_box, dinos_score.score, "scoring.dinos.engine"),
    )
}
