"""Digging for Dinos' bots: the greedy heuristic, the sampler of what a seat cannot see, the
evaluation of a position and the figures of a finished match.

The greedy heuristic (one ply). A collection is worth its points now (complete sets, the rest at
their left-hand values) plus, for each dinosaur whose next set can still be completed (every
missing position has a tile left in play), PROGRESS × what completing it would add × (the
positions covered / all its positions)². A tile's gain is what it adds to that worth.
- Move (or free move): the gain of the tile the token leaves, which is taken now, plus FUTURE ×
  the gain of the tile it lands on, which it takes when it leaves it (or at the end).
- Placing a token: the gain of the tile it stands on.
- After completing a Velociraptor or Deinosuchus: the flip (or none) after which the best move
  open to the seat would be worth most.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from scoring.bots.search import Budget
from scoring.engine import PLAYING, SETUP, Action, Game, Rng, State

from .engine import _occupied
from .score import complete_sets

PROGRESS = 0.5  # a set in reach against the same set completed
FUTURE = 0.5  # a tile a token stands on, against a tile taken now

Board = dict[str, Any]  # the part of a state the heuristic reads: size, grid, tokens, collections


def worth(dinosaur: dict[str, Any], positions: list[int], supply: Counter) -> float:
    """What holding `positions` of a dinosaur (its roster entry) is worth (module
    docstring)."""
    dino_id = dinosaur["id"]
    values = dinosaur["values"]
    sets = complete_sets(dinosaur, positions) if positions else 0
    loose = sum(values[p - 1] for p in positions) - sets * sum(values)
    covered = [p for p in range(1, len(values) + 1) if positions.count(p) > sets]
    if len(covered) == len(values) or any(supply[dino_id, p] == 0 for p in
                                          range(1, len(values) + 1) if p not in covered):
        return sets * dinosaur["set_value"] + loose
    completing = dinosaur["set_value"] - sum(values[p - 1] for p in covered)
    reach = PROGRESS * completing * (len(covered) / len(values)) ** 2
    return sets * dinosaur["set_value"] + loose + reach


def supply_of(game: Game, board: Board) -> Counter:
    """How many tiles of each (dinosaur, position) are still in play: 3 eras less those taken."""
    eras = game.box.ERAS
    supply = Counter({(d["id"], p): eras for d in game.box.ROSTER
                      for p in range(1, len(d["values"]) + 1)})
    for collection in board["collections"]:
        for dino_id, positions in collection.items():
            for p in positions:
                supply[dino_id, p] -= 1
    return supply


class Gains:
    """What each tile would add to one seat's collection, worked out once per tile kind."""

    def __init__(self, game: Game, collection: dict[str, list[int]], supply: Counter) -> None:
        self.roster, self.collection, self.supply = game.roster, collection, supply
        self.known: dict[tuple, float] = {}

    def __call__(self, tile: list | None, also: list | None = None) -> float:
        """The gain of `tile` (None: nothing), after `also` has been taken."""
        if tile is None:
            return 0.0
        key = (tile[0], tile[1], None if also is None else (also[0], also[1]))
        if key not in self.known:
            held = self.collection.get(tile[0], [])
            if also is not None and also[0] == tile[0]:
                held = [*held, also[1]]
            dinosaur = self.roster[tile[0]]
            self.known[key] = (worth(dinosaur, sorted([*held, tile[1]]), self.supply)
                               - worth(dinosaur, held, self.supply))
        return self.known[key]


def heuristic(game: Game, board: Board, seat: int, legal: list[Action], rng: Rng) -> Action:
    """The greedy choice (module docstring) among `legal`."""
    gains = Gains(game, board["collections"][seat], supply_of(game, board))
    size, grid = board["size"], board["grid"]
    kind = legal[0]["type"]
    if kind == "place":
        scores = [gains(grid[a["row"] * size + a["column"]]) for a in legal]
    elif kind in ("flip", "skip_flip"):
        scores = [outlook(game, board, seat, gains, a.get("token")) for a in legal]
    else:
        occupied = _occupied(board)
        scores = []
        for action in legal:
            space, side = board["tokens"][seat][action["token"]]
            if kind == "move":
                target = game.reach(board, space, side, occupied)[action["direction"]]
            else:
                target = action["row"] * size + action["column"]
            scores.append(gains(grid[space]) + FUTURE * gains(grid[target], grid[space]))
    best = max(scores)
    return rng.choice([a for a, score in zip(legal, scores, strict=True) if score == best])


def outlook(game: Game, board: Board, seat: int, gains: Gains, flipped: int | None) -> float:
    """The best next move's worth with token `flipped` turned over (None: neither)."""
    occupied = _occupied(board)
    grid = board["grid"]
    best = 0.0
    for token, (space, side) in enumerate(board["tokens"][seat]):
        if token == flipped:
            side = game.other_side[side]
        for target in game.reach(board, space, side, occupied).values():
            best = max(best, gains(grid[space]) + FUTURE * gains(grid[target], grid[space]))
    return best


def board_of(view: dict[str, Any]) -> Board:
    """What the heuristic reads, from a view: the grid with each tile as the state keeps it
    ([dinosaur, position, era]), the tokens as [space, side] and the collections."""
    size = view["grid"]["size"]
    grid = [None if cell is None or cell["dinosaur"] is None
            else [cell["dinosaur"], cell["position"], cell["era"]]
            for row in view["grid"]["rows"] for cell in row]
    tokens = [[[None if t["row"] is None else t["row"] * size + t["column"], t["side"]]
               for t in player["tokens"]] for player in view["players"]]
    collections = [{d: list(p) for d, p in player["collection"].items()}
                   for player in view["players"]]
    return {"size": size, "grid": grid, "tokens": tokens, "collections": collections}


def greedy(game: Game, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
    return heuristic(game, board_of(view), view["you"], legal, rng)


def playout(game: Game, state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
    """The heuristic inside a search's playout, reading the sampled state."""
    return heuristic(game, state, seat, legal, rng)


def obvious(game: Game, view: dict[str, Any], legal: list[Action]) -> Action | None:
    """Digging for Dinos has no move the search bot makes without searching."""
    return None


class Sampler:
    """Full states that show the seat exactly its view: each era's stack holds that era's
    tiles that are neither on the grid nor in a collection, in an order drawn at random."""

    def __init__(self, game: Game, view: dict[str, Any]) -> None:
        self.game, self.view = game, view
        self.board = board_of(view)
        seen = Counter((cell[0], cell[1], cell[2]) for cell in self.board["grid"] if cell)
        seen.update((t["dinosaur"], t["position"], t["era"])
                    for player in view["players"] for t in player["collected"])
        self.stacks = [[[d["id"], p, era] for d in game.box.ROSTER
                        for p in range(1, len(d["values"]) + 1) if not seen[d["id"], p, era]]
                       for era in range(1, game.box.ERAS + 1)]

    def sample(self, rng: Rng, world: int = 0) -> State:
        view, board = self.view, self.board
        stacks = [[list(tile) for tile in stack] for stack in self.stacks]
        for stack in stacks:
            rng.shuffle(stack)
        phase = view["phase"]
        grid = [None if tile is None else list(tile) for tile in board["grid"]]
        tokens = [[list(pair) for pair in seat] for seat in board["tokens"]]
        flip_pending = None
        if phase == "flipping":  # the space the token left waits for its refill
            occupied = {space for seat in tokens for space, _ in seat}
            flip_pending = next(i for i, tile in enumerate(grid)
                                if tile is None and i not in occupied)
        if phase == "placing":
            to_act = [view["placing"]["seat"]]
        else:
            to_act = [] if view["turn"] is None else [view["turn"]]
        return {
            "game": self.game.id, "revision": self.game.revision, "variant": view["variant"],
            "players": [p["name"] for p in view["players"]],
            "status": SETUP if phase == "placing" else PLAYING, "to_act": to_act,
            "rng": rng.next64(),
            "size": board["size"], "grid": grid, "stacks": stacks, "tokens": tokens,
            "collections": [{d: list(p) for d, p in c.items()} for c in board["collections"]],
            "collected": [[[t["dinosaur"], t["position"], t["era"]] for t in p["collected"]]
                          for p in view["players"]],
            "sets": [dict(p["completed"]) for p in view["players"]],
            "placed": sum(1 for seat in tokens for space, _ in seat if space is not None),
            "flip_pending": flip_pending,
            "end": None if view["end"] is None else dict(view["end"]),
        }


def evaluate(game: Game, state: State) -> list[float]:
    """Each seat's collection as the heuristic values it, with FUTURE × the gain of the tiles
    its tokens stand on (taken when they leave, or at the end)."""
    supply = supply_of(game, state)
    grid = state["grid"]
    worths = []
    for collection, tokens in zip(state["collections"], state["tokens"], strict=True):
        gains = Gains(game, collection, supply)
        under = [grid[space] for space, _ in tokens if space is not None]
        worths.append(sum(worth(game.roster[d], sorted(p), supply)
                          for d, p in collection.items())
                      + FUTURE * sum(gains(tile) for tile in under))
    return worths


# The search bot: two worlds (the stacks' order), each move tried about once in each; a playout
# goes on by the heuristic for two rounds, and `evaluate` judges it.
SEARCH = Budget(worlds=2, playouts=20, rounds=2, scale=6.0)


def figures(game: Game, state: State, result: dict[str, Any] | None = None
            ) -> dict[str, float]:
    """What a designer reads off a finished match of Digging for Dinos (its result
    is not read)."""
    return {"dinosaurs_completed": sum(sum(sets.values()) for sets in state["sets"]),
            "ended_by_fourth_dinosaur": int(state["end"]["reason"] == "fourth_dinosaur"),
            "tiles_left_in_stacks": sum(map(len, state["stacks"])),
            "tiles_taken": sum(map(len, state["collected"]))}
