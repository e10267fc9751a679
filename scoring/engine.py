"""What every turn engine shares: the Game protocol, the seeded RNG, a random bot.

A game is a definition, as in boardgame.io, built from a box, as OpenSpiel's `Game(params)`: its
facts come from the box it is given (scoring/boxes.py), its moves are declared once as data
(scoring/moves.py), and `Game` owns what the games have in common: the state
envelope (game, variant, players, status, the seats to act, the RNG), the check of an action
against its declaration, the view's envelope and the log's public form of an action.

A match's state is a plain JSON-serialisable dict. The game alone decides what each seat may see
(`see`, the declared secret fields, event visibility), so secrets are removed in one place per game
and never by the HTTP layer. The RNG's state lives in the match state, so the same seed, players
and actions always replay the same game.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from scoring.boxes import Box
from scoring.moves import Action, Field, IllegalAction, Move, NotYourTurn, article

State = dict[str, Any]
Event = dict[str, Any]

SETUP, PLAYING, FINISHED = "setup", "playing", "finished"
# The one event every game ends with.
GAME_OVER = "game_over"
# An event carrying this key is shown only to that seat (and the key is removed when shown).
ONLY_FOR = "only_for"


# SplitMix64's numbers are 64 bits wide, and each draw adds GAMMA to the state. Module constants:
# every engine draw reads them, and a global loads faster than a class attribute.
MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64: a small, fast generator whose whole state is one integer, so it can be stored
    in the match and replayed exactly on any machine and Python version."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    @classmethod
    def from_seed(cls, seed: int, salt: str = "") -> Rng:
        """A generator for `seed`, of any width: a seed below 2**64 is the state itself, and each
        further 64 bits (a server's 128-bit seed) is mixed and folded in, so every bit counts."""
        rng = cls(seed)
        wider = seed >> 64
        while wider > 0:
            rng.state ^= cls(wider).next64()
            rng.state = rng.next64()
            wider >>= 64
        for char in salt:  # different games get unrelated streams from the same seed
            rng.state ^= ord(char)
            rng.skip()
        return rng

    def skip(self) -> None:
        """Move on by one draw without working out the number drawn: a draw only ever adds
        GAMMA to the state, whatever it draws."""
        self.state = (self.state + GAMMA) & MASK64

    def next64(self) -> int:
        # The state is read and written once: a MatchRng keeps it in the match, behind a
        # property.
        z = self.state = (self.state + GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
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


class MatchRng(Rng):
    """The match's own generator: its state is read from and written back to the match state, so
    drawing needs no load or save."""

    def __init__(self, match: State) -> None:
        self.match = match

    @property
    def state(self) -> int:
        return self.match["rng"]

    @state.setter
    def state(self, value: int) -> None:
        self.match["rng"] = value


# --- the game -----------------------------------------------------------------------------------

class Game(ABC):
    """A turn engine and the catalogue entry of its game, built from one box (as OpenSpiel's
    `Game(params)`): its tables, the ranges of its moves' fields and its calculator come from the
    box it is given, the printed box when none is, so games of different boxes play side by
    side. Methods take the state dict; `act` changes it in place, and only after the action has
    been found legal, so an IllegalAction leaves the state untouched.

    A game supplies its printed box (`printed_box`: GAME_ID, NAME, VARIANTS with each variant's
    "players" range, DEFAULT_VARIANT, box_data()), its calculator class (`calculator`, built
    from a box, with its `score`), its `@move` handlers and the hooks below marked abstract."""

    printed_box: Box
    calculator: Callable[[Any], Any]  # a box → the calculator, whose `score` the endpoint calls
    # A change of its box a study may ask for (constant → value): the documented example.
    box_example: dict[str, Any] = {}
    # The state's layout and the rules it follows: raised when either changes, so that a match
    # stored under an earlier revision is replayed from its seed and log (api/matches.py).
    revision: int = 1
    declared: dict[str, Move]  # by name, in declaration order, fields not yet ranged by a box
    # The moves that draw, roll, refill or show a hidden card (API.md "Undo"): once one is made
    # the match cannot be taken back to before it. Each game declares its own from its rules.
    REVEALING: frozenset[str] = frozenset()
    # The events that bring something to light whichever move they follow (a tile drawn from a
    # face-down stack, say), for a game whose move reveals only some of the times it is made.
    REVEALING_EVENTS: frozenset[str] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game's moves come from its handlers."""
        super().__init_subclass__(**kwargs)
        cls.declared = {m.name: m for m in (getattr(v, "move", None) for v in cls.__dict__.values())
                        if isinstance(m, Move)}
        known = {name for klass in cls.__mro__ for name in klass.__dict__.get("declared", {})}
        unknown = set(cls.__dict__.get("REVEALING", ())) - known
        if unknown:
            raise TypeError(f"{cls.__name__}.REVEALING names no move: {sorted(unknown)}")

    def __init__(self, box: Box | None = None) -> None:
        """The game played with `box` (the printed box when None): its catalogue facts from the
        box, its moves' fields ranged by it."""
        self.box = box = box if box is not None else self.printed_box
        self.id: str = box.GAME_ID
        self.name: str = box.NAME
        self.variants: tuple[str, ...] = tuple(box.VARIANTS)
        self.default_variant: str = box.DEFAULT_VARIANT
        sizes = [spec["players"] for spec in box.VARIANTS.values()]
        self.players = (min(low for low, _ in sizes), max(high for _, high in sizes))
        self.moves: dict[str, Move] = {name: m.for_box(box) for name, m in self.declared.items()}
        self.score: Callable[[dict[str, Any]], dict[str, Any]] = box.made(self.calculator).score

    def __reduce__(self) -> tuple:
        """A game pickles as its class and its box, which pickles as its changes: another
        process builds the same game again."""
        return (type(self), (self.box,))

    @property
    def package(self) -> str:
        """The game's package under scoring/ (`dig_it_up`): its schema module has the same name."""
        return type(self).__module__.split(".")[1]

    @property
    def prefix(self) -> str:
        """The prefix of the game's OpenAPI component names (`DigItUp`)."""
        return "".join(part.title() for part in self.package.split("_"))

    def summary(self) -> dict[str, Any]:
        low, high = self.players
        return {"id": self.id, "name": self.name, "players": {"min": low, "max": high},
                "variants": list(self.variants), "default_variant": self.default_variant}

    def detail(self) -> dict[str, Any]:
        """The catalogue entry with the box data the rules use."""
        return {**self.summary(), **self.box.box_data()}

    def tables(self) -> list[tuple[str, int]]:
        """Every (variant, player count) a match can be set up with, read from the box."""
        return self.box.tables()

    # The envelope every state has; a game's own fields follow it.

    def setup(self, players: list[str], seed: int, variant: str) -> State:
        """A new match, after checking the variant and the table against the box."""
        if not isinstance(variant, str) or variant not in self.box.VARIANTS:
            raise IllegalAction(f"{self.name} has no variant {variant!r}; choose one of "
                                f"{', '.join(self.variants)}.")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise IllegalAction("The players are a list of names.")
        if len(set(players)) != len(players):
            raise IllegalAction("Each player needs a different name.")
        if type(seed) is not int:
            raise IllegalAction("The seed is a whole number.")
        self.check_table(variant, len(players))
        state = {"game": self.id, "revision": self.revision, "variant": variant,
                 "players": list(players), "status": PLAYING, "to_act": [0], "rng": None}
        rng = Rng.from_seed(seed, self.id)
        self.deal(state, rng)
        state["rng"] = rng.state
        return state

    def check_table(self, variant: str, n: int) -> None:
        """IllegalAction unless `n` players fit the variant (read from the box)."""
        spec = self.box.VARIANTS[variant]
        low, high = spec["players"]
        if not low <= n <= high:
            fits = [v for v, size in self.tables() if size == n]
            hint = f" With {n} players choose {' or '.join(fits)}." if fits else ""
            raise IllegalAction(f"{self.name} ({spec['name']}) is for {low} to {high} players, "
                                f"not {n}.{hint}")

    @staticmethod
    def status(state: State) -> str:
        """SETUP, PLAYING or FINISHED."""
        return state["status"]

    @staticmethod
    def to_act(state: State) -> list[int]:
        """The seats that may act now (several during a simultaneous set-up step)."""
        return state["to_act"]

    @staticmethod
    def rng(state: State) -> Rng:
        """The match's generator; what it draws is kept in the state."""
        return MatchRng(state)

    @staticmethod
    def pass_to(state: State, seat: int) -> None:
        state["to_act"] = [seat]

    @staticmethod
    def finish(state: State, events: list[Event], **details: Any) -> None:
        """The match is over: nobody acts again, and the end is said in one event."""
        state["status"], state["to_act"] = FINISHED, []
        events.append({"type": GAME_OVER, **details})

    def act(self, state: State, seat: int, action: Action) -> list[Event]:
        """Check the turn, the move's name, the stage and the fields against the declaration,
        then call the move's handler with the fields as arguments."""
        if seat not in state["to_act"]:
            if state["status"] == FINISHED:
                raise IllegalAction("The match is over.")
            raise NotYourTurn("It is not your turn.")
        try:
            declared = self.moves[action["type"]]
        except (KeyError, TypeError):  # not an object, no type, or a type of no move
            raise IllegalAction(f"An action is an object whose type is one of {self.name}'s "
                                f"actions: {', '.join(self.moves)}.", "type") from None
        allowed, prompt = self.stage(state)
        if declared.name not in allowed:
            raise IllegalAction(f"{article(declared.name)} '{declared.name}' action cannot be "
                                f"taken now: {prompt}.", "type")
        try:
            args = declared.check(action)
        except IllegalAction:  # said again in the words of this table's ranges
            declared.check(action, lambda field: self.at_table(state, field))
            raise
        return declared.handler(self, state, seat, **args)

    def at_table(self, state: State, field: Field) -> Field:
        """`field` as the table of `state` ranges it (a smaller board's sites, say), for the
        words of a refusal; the box's widest range by default."""
        return field

    def simultaneous(self, state: State) -> bool:
        """True in a step where the seats to act choose at once, so that one seat's choice does
        not change what another may do (API.md "Simultaneous steps"). None by default."""
        return False

    def reveals(self, action: Action, events: list[Event], rng_before: int | None,
                state: State) -> bool:
        """Whether a move just made (`state` after it, `rng_before` the RNG's state before it)
        brought anything to light, so that it may not be taken back (API.md "Undo"): a move the
        game declares revealing, one followed by an event it declares revealing, and, as a
        safety net, any move that drew from the RNG or told a seat something privately."""
        return (action.get("type") in self.REVEALING or state.get("rng") != rng_before
                or any(ONLY_FOR in event or event.get("type") in self.REVEALING_EVENTS
                       for event in events))

    def public_action(self, action: Action) -> Action:
        """The action as other seats may see it in the log: its declared secret fields left out."""
        declared = self.moves.get(action.get("type"))
        return declared.public(action) if declared else action

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action `seat` may take now, each exactly as it is to be posted."""
        return self.options(state, seat) if seat in state["to_act"] else []

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may see."""
        return {"game": state["game"], "variant": state["variant"], "you": seat,
                **self.see(state, seat)}

    def result(self, state: State) -> dict[str, Any] | None:
        if state["status"] != FINISHED:
            return None
        return self.score(self.scoresheet(state))

    # What each game supplies.

    @abstractmethod
    def deal(self, state: State, rng: Rng) -> None:
        """Add the game's own fields to a new state (and set status and to_act if they differ
        from PLAYING and seat 0)."""

    @abstractmethod
    def stage(self, state: State) -> tuple[tuple[str, ...], str]:
        """The moves the seats to act may make now, and what they are to do, in a player's words
        ("move one of your tokens")."""

    @abstractmethod
    def options(self, state: State, seat: int) -> list[Action]:
        """Every action `seat`, one of the seats to act, may take now, as it is to be posted."""

    @abstractmethod
    def see(self, state: State, seat: int | None) -> dict[str, Any]:
        """The game's part of a view. The one place secrets are removed."""

    @abstractmethod
    def scoresheet(self, state: State) -> dict[str, Any]:
        """The finished match as the game's calculator takes it."""

    @abstractmethod
    def secrets(self, state: State) -> dict[int | frozenset[int] | None, list[str]]:
        """For the engine tests: text (`fragment`s) that must appear only where it may be seen,
        while the match is playing and once it is finished.

        Key a seat, or a frozenset of seats who share the knowledge: each string appears in
        each of those seats' serialised views and in no other seat's or a spectator's view or
        log. Key None: strings nobody may see (a deck order, say)."""


def fragment(value: Any) -> str:
    """A part of a view as it appears in the serialised view: what `secrets` lists."""
    return json.dumps(value, separators=(",", ":"))


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
        action = game.public_action(action)
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
    while state["status"] != FINISHED:
        if len(history) >= max_actions:
            raise RuntimeError(f"{game.id}: no end after {max_actions} actions")
        seat = state["to_act"][0]
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
