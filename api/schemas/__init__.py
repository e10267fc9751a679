"""marshmallow schemas: what the API accepts and returns, and the OpenAPI document with it.

Each game has a module named after its package under scoring/, exporting the same names:
ScoreRequestSchema, ResultSchema, EXAMPLES (the calculator) and GameSchema (its catalogue entry)."""

import importlib
from types import ModuleType

from scoring.engine import Game


def of(game: Game) -> ModuleType:
    """The game's schema module."""
    return importlib.import_module(f"{__name__}.{game.package}")
