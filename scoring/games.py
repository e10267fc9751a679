"""The catalogue of games: each game's box, calculator and (where it has one) turn engine."""

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from scoring.dig import box as dig_box
from scoring.dig import score as dig_score
from scoring.dig_it_up import box as dig_it_up_box
from scoring.dig_it_up import score as dig_it_up_score
from scoring.dinos import box as dinos_box
from scoring.dinos import score as dinos_score


@dataclass(frozen=True)
class GameEntry:
    box: ModuleType
    score: Callable[[dict[str, Any]], dict[str, Any]]
    engines: dict[str, Any] = field(default_factory=dict)

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
        GameEntry(dig_it_up_box, dig_it_up_score.score),
        GameEntry(dig_box, dig_score.score),
        GameEntry(dinos_box, dinos_score.score),
    )
}
