"""The games Digsite knows: id → game. Each game is its own package under scoring/ (box, calculator,
engine); adding one is a line here (README, "Adding a game")."""

from scoring.dig.engine import DigGame
from scoring.dig_it_up.engine import DigItUpGame
from scoring.dinos.engine import DinosGame
from scoring.engine import Game

GAMES: dict[str, Game] = {game.id: game for game in (DigItUpGame(), DigGame(), DinosGame())}
