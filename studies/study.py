"""What a study plays: a game, a seed, a number of matches and one or more arms.

An arm is one way of playing the game (the bots in each seat, their search budget, the variant,
changes to the box). A study that rotates its seats moves each arm's bots one seat on from match
to match (match i seats bot k of the arm's list at seat k − i, modulo the seats), as Ludii's
evaluations rotate their agents: over every run of as many matches as seats each bot plays each
seat once, so a seat's advantage and a bot's strength are told apart, where a fixed seating
mixes the two. Match i of every arm is dealt from the same seed, `match_seed(seed, i)`,
so arms differ only in what the arm changes: a difference between two arms is measured on
common deals, match by match, which needs far fewer matches than two independent runs. The
first arm is the one every other is compared with.

A Study is plain data (no game object): it travels to worker processes and other machines as
it is, and each builds the games it plays from it (`Study.game`, a boxed game for an arm that
changes the box).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from scoring.bots import module
from scoring.bots.boxes import boxed_by_id
from scoring.boxes import BoxError, by_name, jsonable
from scoring.engine import Game
from scoring.games import GAMES


@dataclass(frozen=True)
class Arm:
    """One way of playing: a bot per seat, the search bot's budget, the variant, box changes."""

    label: str
    variant: str
    bots: tuple[str, ...]
    budget: dict[str, Any] = field(default_factory=dict)
    box: dict[str, Any] | None = None

    @property
    def seats(self) -> int:
        return len(self.bots)

    def plays(self, game: Game) -> str:
        """What the arm plays, whatever its label: two arms alike here play the same matches.
        Its variant, its bots, the search budget where a seat searches, and the box constants
        it sets (by the box's own names) to other than the printed values, as they are once
        merged into the box: an empty list of dinosaurs or missions, or a table of bonuses
        written as printed, changes nothing."""
        printed = game.box
        changes = by_name(self.box or {})
        try:
            merged = arm_box(game, self)
            box = {name: jsonable(getattr(merged, name)) for name in changes
                   if jsonable(getattr(merged, name)) != jsonable(getattr(printed, name))}
        except (BoxError, AttributeError):  # refused by the box's own check, naming why
            box = {name: value for name, value in changes.items()
                   if not hasattr(printed, name) or jsonable(getattr(printed, name)) != value}
        budget = self.describe(game)["budget"] if "mcts" in self.bots else None
        return json.dumps([self.variant, self.bots, budget, box], sort_keys=True)

    def describe(self, game: Game) -> dict[str, Any]:
        """The arm as the run's provenance records it, with the budget the search bot
        actually plays with when none was given (the game's default), and its settings as it
        plays them: a budget of playouts replaces the game's."""
        budget = dict(self.budget)
        if "mcts" in self.bots and not budget:
            budget = {"playouts": module(game).SEARCH.playouts}
        search = None
        if "mcts" in self.bots:
            search = dataclasses.asdict(module(game).SEARCH)
            search["playouts"] = budget.get("playouts", search["playouts"])
        return {"label": self.label, "variant": self.variant, "players": self.seats,
                "bots": list(self.bots), "budget": budget, "search": search,
                "box": self.box}


@dataclass(frozen=True)
class Study:
    """A game, the run's seed, how many matches each arm plays, and the arms."""

    game_id: str
    seed: int
    matches: int
    arms: tuple[Arm, ...]
    rotate: bool = False

    def __post_init__(self) -> None:
        seats = {arm.seats for arm in self.arms}
        if len(seats) != 1:
            # A seat's difference between arms is only meaningful at the same table size.
            raise ValueError("Every arm of a study seats the same number of players; these "
                             f"seat {', '.join(map(str, sorted(seats)))}.")

    @property
    def seats(self) -> int:
        return self.arms[0].seats

    @property
    def rows_per_match(self) -> int:
        """Records of one match index: a row per seat of every arm."""
        return self.seats * len(self.arms)

    def game(self, arm: Arm) -> Game:
        return arm_game(self.game_id, box_key(arm.box))

    def lineup(self, index: int) -> list[int]:
        """Which of an arm's bots (its place in the arm's list) sits in each seat in match
        `index`: each in its own seat, or, rotating, each one seat further on than in the match
        before."""
        seats = self.seats
        return [(seat + index) % seats if self.rotate else seat for seat in range(seats)]

    def describe(self) -> dict[str, Any]:
        """The study as the records' side file keeps it: what must match to resume or merge
        (a study that rotates its seats says so; one that does not, as before it could)."""
        game = GAMES[self.game_id]
        described = {"game": self.game_id, "name": game.name, "seed": self.seed,
                     "matches": self.matches,
                     "arms": [arm.describe(game) for arm in self.arms]}
        if self.rotate:
            described["rotate_seats"] = True
        return described


def played_before(game: Game, arms: Sequence[Arm]) -> dict[int, int]:
    """Each arm that plays as an earlier one (Arm.plays), by its index, with the first such
    arm's: the same matches played twice, for a difference of nothing."""
    first: dict[str, int] = {}
    alike = {}
    for number, arm in enumerate(arms):
        earlier = first.setdefault(arm.plays(game), number)
        if earlier != number:
            alike[number] = earlier
    return alike


# A difference between arms is measured over the matches' common deals: from one match it has
# no spread, and no interval to say how far to trust it.
TWO_TO_COMPARE = ("Comparing arms takes at least 2 matches: from one, a difference has no "
                  "interval to tell how far to trust it.")


def arm_box(game: Game, arm: Arm) -> Any:
    """The box an arm plays with: the game's, with the arm's changes merged in, checked by its
    numbers alone (BoxError), without playing it."""
    return game.box if not arm.box else game.box.changed(arm.box)


def stacked(game: Game, base: dict[str, Any] | None,
            change: dict[str, Any] | None) -> dict[str, Any] | None:
    """An arm's box changes: `change` merged over the first arm's (`base`) as a change merges
    into the box, within each constant both name (an object key by key, a list of entries with
    an id entry by entry), so that an arm changing ruby's bonuses keeps the first arm's gold.
    Where either does not fit the box, the two side by side, for the box's check to refuse."""
    base, change = by_name(base or {}), by_name(change or {})
    both = {**base, **change}
    shared = base.keys() & change.keys()
    if shared:
        try:
            merged = game.box.changed(base).changed(change).changes
        except BoxError:
            return both
        both.update({name: merged[name] for name in shared})
    return both or None


def box_key(box: dict[str, Any] | None) -> str | None:
    """A box's changes as text, the same for equal changes: the key games are kept by."""
    return None if box is None else json.dumps(box, sort_keys=True)


@cache
def arm_game(game_id: str, box: str | None) -> Game:
    """The game an arm plays, built once per process (and checked: BoxError names each
    constant at fault); boxed games live side by side, so arms may differ in their box."""
    return GAMES[game_id] if box is None else boxed_by_id(game_id, json.loads(box))
