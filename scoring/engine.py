"""What every turn engine shares: the Game protocol, IllegalAction, the seeded RNG, a random bot.

A match's state is a plain JSON-serialisable dict owned by its game. The game alone decides what
each seat may see (`view`, `public_action`, event visibility), so secrets are removed in one place
per game and never by the HTTP layer. The RNG's state lives in the match state, so the same seed,
players and actions always replay the same game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from types import ModuleType
from typing import Any

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

SETUP, PLAYING, FINISHED = "setup", "playing", "finished"
# An event carrying this key is shown only to that seat (and the key is removed when shown).
ONLY_FOR = "only_for"


class IllegalAction(ValueError):
    """The action cannot be taken now; the message says why in a player's words."""


class Rng:
    """SplitMix64: a small, fast generator whose whole state is one integer, so it can be stored
    in the match and replayed exactly on any machine and Python version."""

    MASK = (1 << 64) - 1

    def __init__(self, state: int) -> None:
        self.state = state & self.MASK

    @classmethod
    def from_seed(cls, seed: int, salt: str = "") -> Rng:
        rng = cls(seed)
        for char in salt:  # different games get unrelated streams from the same seed
            rng.state ^= ord(char)
            rng.next64()
        return rng

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in 0 … n−1 (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def roll(self, sides: int) -> int:
        return self.below(sides) + 1

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list):
        return items[self.below(len(items))]


class Game(ABC):
    """A turn engine. Methods take the state dict; `apply` changes it in place, and only after
    the action has been found legal, so an IllegalAction leaves the state untouched."""

    box: ModuleType  # the game's box file: GAME_ID, NAME, VARIANTS, DEFAULT_VARIANT, PLAYERS
    id: str
    name: str
    variants: tuple[str, ...]
    default_variant: str
    players: tuple[int, int]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game's catalogue facts come from its box file, stated once."""
        super().__init_subclass__(**kwargs)
        box = cls.__dict__.get("box")
        if box is not None:
            cls.id, cls.name, cls.players = box.GAME_ID, box.NAME, box.PLAYERS
            cls.variants, cls.default_variant = tuple(box.VARIANTS), box.DEFAULT_VARIANT

    @abstractmethod
    def setup(self, players: list[str], seed: int, variant: str) -> State:
        """A new match. Raises IllegalAction for a variant or player count that does not fit."""

    @abstractmethod
    def status(self, state: State) -> str:
        """SETUP, PLAYING or FINISHED."""

    @abstractmethod
    def to_act(self, state: State) -> list[int]:
        """The seats that may act now (several during a simultaneous set-up step)."""

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action `seat` may take now, each exactly as it is to be posted."""

    @abstractmethod
    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Take the action and return what happened. Events with ONLY_FOR are private."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may see. The one place secrets are removed."""

    @abstractmethod
    def scoresheet(self, state: State) -> dict[str, Any]:
        """The finished match as the game's calculator takes it."""

    @abstractmethod
    def score(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """The game's calculator, the same one the score endpoint calls."""

    def public_action(self, action: Action, seat: int) -> Action:
        """The action as other seats may see it in the log (by default, all of it)."""
        return action

    @abstractmethod
    def secrets(self, state: State) -> dict[int | None, list[str]]:
        """For the engine tests: text that must appear only where it may be seen.

        Key a seat: each string appears in that seat's serialised view (json.dumps with
        separators=(",", ":")) and in no other seat's or a spectator's view or log. Key None:
        strings nobody may see while the match is playing (a deck order, say)."""

    # Shared behaviour, the same for every game.

    def check_players(self, players: list[str], low: int, high: int) -> None:
        if not low <= len(players) <= high:
            raise IllegalAction(f"{self.name} is played by {low} to {high} players here, "
                                f"not {len(players)}.")

    def tables(self) -> list[tuple[str, int]]:
        """Every (variant, player count) a match can be set up with."""
        fitting = []
        for variant in self.variants:
            for n in range(self.players[0], self.players[1] + 1):
                try:
                    self.setup([f"Player {i + 1}" for i in range(n)], 1, variant)
                except IllegalAction:
                    continue
                fitting.append((variant, n))
        return fitting

    def result(self, state: State) -> dict[str, Any] | None:
        if self.status(state) != FINISHED:
            return None
        return self.score(self.scoresheet(state))

    def act(self, state: State, seat: int, action: Action) -> list[Event]:
        """Check that it is the seat's turn and the action well formed, then apply it."""
        if self.status(state) == FINISHED:
            raise IllegalAction("The match is over.")
        if seat not in self.to_act(state):
            raise NotYourTurn("It is not your turn.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("An action is an object with a 'type'.")
        return self.apply(state, seat, action)


class NotYourTurn(IllegalAction):
    """The seat may not act now (HTTP 403 rather than 422)."""


def visible_events(events: list[Event], seat: int | None) -> list[Event]:
    """The events a seat (None: a spectator) may see, with the privacy marker removed."""
    shown = []
    for event in events:
        if ONLY_FOR in event:
            if event[ONLY_FOR] != seat:
                continue
            event = {k: v for k, v in event.items() if k != ONLY_FOR}
        shown.append(event)
    return shown


def log_entry(game: Game, entry: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """One log entry {"seq", "seat", "action", "events"} as `viewer` may see it."""
    action = entry["action"]
    if entry["seat"] != viewer:
        action = game.public_action(action, entry["seat"])
    return {"seq": entry["seq"], "seat": entry["seat"], "action": action,
            "events": visible_events(entry["events"], viewer)}


def random_bot(rng: Rng) -> Callable[[Game, State, int], Action]:
    """A bot that picks uniformly among the legal actions, from its own seeded generator."""

    def choose(game: Game, state: State, seat: int) -> Action:
        return rng.choice(game.legal_actions(state, seat))

    return choose


def play_out(game: Game, players: list[str], seed: int, variant: str | None = None,
             bot_seed: int = 0, max_actions: int = 100_000,
             ) -> tuple[State, list[tuple[int, Action]]]:
    """A whole match between random bots; returns the final state and the actions taken."""
    state = game.setup(players, seed, variant or game.default_variant)
    bot = random_bot(Rng.from_seed(bot_seed, "bot"))
    history: list[tuple[int, Action]] = []
    while game.status(state) != FINISHED:
        if len(history) >= max_actions:
            raise RuntimeError(f"{game.id}: no end after {max_actions} actions")
        seat = game.to_act(state)[0]
        action = bot(game, state, seat)
        # Actions are flat JSON objects that engines only read: a shallow copy keeps the
        # history apart from what the engine is handed.
        history.append((seat, dict(action)))
        game.act(state, seat, action)
    return state, history


def replay(game: Game, players: list[str], seed: int, variant: str,
           history: list[tuple[int, Action]]) -> State:
    state = game.setup(players, seed, variant)
    for seat, action in history:
        game.act(state, seat, dict(action))
    return state
