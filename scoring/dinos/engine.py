"""Digging for Dinos turn engine (rulebook "Setup", "How to Play", "End Game"; RULINGS §3).

Coordinates: the grid has `size` rows and columns; row 0 is the north edge and column 0 the west
edge, so N is row − 1 and E is column + 1 (box.DIRECTIONS). Inside the state a space is the index
row * size + column, a tile is [dinosaur, position, era] and an emptied space is null. Each seat's
taken tiles are kept twice: in take order with their eras, as they lie on the table (`collected`),
and as dinosaur → positions (`collections`), what scoring reads.

Each player has two tokens with stable ids: token 0 is placed orthogonal side up and token 1
diagonal side up (rulebook "Setup" step 4); the view shows which side is up now.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import replace
from typing import Any

from scoring.engine import PLAYING, SETUP, Action, Event, Game, IllegalAction, Rng, State, fragment
from scoring.moves import Field, move, one_of, whole

from . import box
from .box import DinosBox
from .score import Calculator, complete_sets

# The printed box's token ids, for what describes the game as printed (the HTTP schemas).
TOKEN_IDS = tuple(range(len(box.TOKENS)))
LAST_TILE, FOURTH_DINOSAUR = "last_tile_placed", "fourth_dinosaur"


# The moves' fields, ranged for the box's largest grid; a smaller table's grid is the rules'
# check.
def _row(box: DinosBox) -> Field:
    return whole("row", 0, max(box.GRID_SIZE.values()) - 1, "The tile's row: 0 is the north edge")


def _column(box: DinosBox) -> Field:
    return whole("column", 0, max(box.GRID_SIZE.values()) - 1,
                 "The tile's column: 0 is the west edge")


def _token(box: DinosBox) -> Field:
    return whole("token", 0, len(box.TOKENS) - 1, "Which of your tokens: 0 is the one placed "
                 f"{box.TOKENS[0]} side up, 1 the one placed {box.TOKENS[1]} side up")


def _direction(box: DinosBox) -> Field:
    return one_of("direction", [d for side in box.TOKENS for d in box.DIRECTIONS[side]],
                  "A direction on the token's face-up side: "
                  + ", ".join(f"{', '.join(box.DIRECTIONS[side])} on the {side} side"
                              for side in box.TOKENS))


# The view's phase → the moves the seat to act may make, and what it is to do.
STAGES = {
    "placing": (("place",), "the tokens are still being placed, so place your token on an open "
                            "tile"),
    "moving": (("move", "free_move"), "move one of your tokens"),
    "flipping": (("flip", "skip_flip"), "you completed a dinosaur with the flip ability, so flip "
                                        "one of your tokens or skip the flip first"),
    "finished": ((), "the match is over"),
}


def _rays(box: DinosBox, size: int) -> list[dict[str, list[tuple[str, tuple[int, ...]]]]]:
    """For each space and token side: (direction, the spaces that way up to the edge, nearest
    first). Precomputed once per grid size so a move is a short scan."""
    table = []
    for index in range(size * size):
        row, column = divmod(index, size)
        by_side = {}
        for side, directions in box.DIRECTIONS.items():
            rays = []
            for name, (dr, dc) in directions.items():
                spaces = []
                r, c = row + dr, column + dc
                while 0 <= r < size and 0 <= c < size:
                    spaces.append(r * size + c)
                    r, c = r + dr, c + dc
                rays.append((name, tuple(spaces)))
            by_side[side] = rays
        table.append(by_side)
    return table


def _placement_order(seats: int) -> list[tuple[int, int]]:
    """rulebook "Setup" 4: orthogonal tokens from the last player backwards (counter-clockwise),
    then diagonal tokens from the starting player forwards (clockwise)."""
    return ([(seat, 0) for seat in range(seats - 1, -1, -1)]
            + [(seat, 1) for seat in range(seats)])


EMPTY_SPACE = {"dinosaur": None, "position": None, "era": None}


def _tile_view(tile: list) -> dict[str, Any]:
    return {"dinosaur": tile[0], "position": tile[1], "era": tile[2]}


def _at(space: int | None, size: int) -> dict[str, int | None]:
    """A space as its row and column (both None for a token not yet placed)."""
    if space is None:
        return {"row": None, "column": None}
    return {"row": space // size, "column": space % size}


def _phase(state: State) -> str:
    if state["status"] == PLAYING:
        return "moving" if state["flip_pending"] is None else "flipping"
    return "placing" if state["status"] == SETUP else "finished"


def _occupied(state: State) -> set[int]:
    return {space for tokens in state["tokens"] for space, _ in tokens if space is not None}


def _open_tiles(state: State) -> list[int]:
    """Spaces holding a tile and no token (rulebook: an "open" or "unoccupied" tile)."""
    occupied = _occupied(state)
    return [i for i, tile in enumerate(state["grid"]) if tile is not None and i not in occupied]


def _open_tile(state: State, row: int, column: int) -> int:
    """The space at (row, column) if it holds a tile and no token (rulebook "Setup" 4,
    "Movement Restrictions" B and F)."""
    size = state["size"]
    for name, value in (("row", row), ("column", column)):
        if value >= size:
            raise IllegalAction(f"This grid's rows and columns run from 0 to {size - 1}.", name)
    space = row * size + column
    if state["grid"][space] is None:
        raise IllegalAction(f"The space at row {row}, column {column} holds no tile.")
    if space in _occupied(state):
        raise IllegalAction(f"A token already stands on the tile at row {row}, column {column}.")
    return space


def _landing(grid: list, ray: tuple[int, ...], occupied: set[int]) -> int | None:
    """Where a token moving along `ray` lands: its first open tile, or None. rulebook "Movement
    Restrictions" C–E, and RULINGS §3: occupied tiles and empty spaces are jumped; a token only
    lands on an open tile and never leaves the grid."""
    for target in ray:
        if grid[target] is not None and target not in occupied:
            return target
    return None


class DinosGame(Game):
    printed_box = box.DEFAULT
    box_example = {"DINOSAURS_TO_END": 3}  # a study's documented box change
    calculator = Calculator
    # API.md "Undo": a turn's move ends in refilling the space it left from a face-down stack
    # (rulebook "Cleaning Up"), which shows the tile drawn. Not always: a move that completes a
    # Velociraptor or Deinosuchus waits for its flip (or skip) to refill, and once the stacks
    # are empty nothing refills; such a move showed nothing and may be taken back. Placing a
    # token at set-up takes nothing yet and shows nothing.
    REVEALING_EVENTS = frozenset({"refilled"})

    def at_table(self, state: State, field: Field) -> Field:
        """A row or a column runs across this table's grid (4 × 4 for two players)."""
        if field.name in ("row", "column"):
            return replace(field, high=state["size"] - 1)
        return field

    def __init__(self, box: DinosBox | None = None) -> None:
        """The tables of the box: the rays of every grid size, its sides and its roster."""
        super().__init__(box)
        box = self.box
        first, second = box.TOKENS
        self.other_side = {first: second, second: first}
        self.roster = box.ROSTER_BY_ID
        self.token_ids = tuple(range(len(box.TOKENS)))
        self.rays = {size: _rays(box, size) for size in set(box.GRID_SIZE.values())}
        # The same rays by space and direction (no direction is on both sides), to check one
        # move.
        self.ray_towards = {
            size: [{direction: ray for rays in by_side.values() for direction, ray in rays}
                   for by_side in table] for size, table in self.rays.items()}

    def reach(self, state: State, space: int, side: str, occupied: set[int]) -> dict[str, int]:
        """Direction → where a token on `space` lands that way, for the directions on `side`
        that have a landing (`state`: a state, or a board with its size and grid)."""
        grid = state["grid"]
        reach = {}
        for direction, ray in self.rays[state["size"]][space][side]:
            target = _landing(grid, ray, occupied)
            if target is not None:
                reach[direction] = target
        return reach

    def can_move(self, state: State, seat: int, occupied: set[int]) -> bool:
        return any(self.reach(state, space, side, occupied)
                   for space, side in state["tokens"][seat])

    def deal(self, state: State, rng: Rng) -> None:
        players = len(state["players"])
        box = self.box
        size = box.GRID_SIZE[players]
        # rulebook: each era holds exactly one set of every dinosaur, shuffled face down.
        stacks = []
        for era in range(1, box.ERAS + 1):
            stack = [[d["id"], position, era]
                     for d in box.ROSTER for position in range(1, len(d["values"]) + 1)]
            rng.shuffle(stack)
            stacks.append(stack)  # the top of a stack is its last element
        # rulebook "Setup" 3: the grid is dealt from the era 1 tiles.
        grid = [stacks[0].pop() for _ in range(size * size)]
        state.update({
            "size": size,
            "grid": grid,
            "stacks": stacks,
            "tokens": [[[None, side] for side in box.TOKENS] for _ in range(players)],
            "collections": [{} for _ in range(players)],
            "collected": [[] for _ in range(players)],
            # complete sets per dinosaur and seat, kept as tiles are taken (RULINGS §3)
            "sets": [{} for _ in range(players)],
            "placed": 0,
            # after completing a Velociraptor or Deinosuchus, until the optional flip is decided:
            # the space the token left, whose refill waits for the decision
            "flip_pending": None,
            # None until the end is triggered: then {"seat", "reason"}.
            "end": None,
        })
        state["status"] = SETUP
        self.pass_to(state, _placement_order(players)[0][0])

    def stage(self, state: State) -> tuple[tuple[str, ...], str]:
        return STAGES[_phase(state)]

    def options(self, state: State, seat: int) -> list[Action]:
        size = state["size"]
        if state["status"] == SETUP:
            return [{"type": "place", **_at(i, size)} for i in _open_tiles(state)]
        if state["flip_pending"] is not None:
            return [*({"type": "flip", "token": t} for t in self.token_ids),
                    {"type": "skip_flip"}]
        # The directions with a landing, without building `reach`'s dict per token only to read
        # its keys: listing the moves is a large part of a playout's time.
        occupied = _occupied(state)
        grid, rays = state["grid"], self.rays[size]
        moves = [{"type": "move", "token": token, "direction": direction}
                 for token, (space, side) in enumerate(state["tokens"][seat])
                 for direction, ray in rays[space][side]
                 if _landing(grid, ray, occupied) is not None]
        # rulebook "Movement Restrictions" F: no legal move → any open tile.
        return moves or [{"type": "free_move", "token": token, **_at(i, size)}
                         for token in self.token_ids for i in _open_tiles(state)]

    # Actions

    @move("place", _row, _column)
    def _place(self, state: State, seat: int, row: int, column: int) -> list[Event]:
        """Set-up: place your next token on an unoccupied tile, your first token orthogonal side
        up and your second diagonal side up. It takes nothing yet."""
        space = _open_tile(state, row, column)
        order = _placement_order(len(state["players"]))
        _, token = order[state["placed"]]
        pair = state["tokens"][seat][token]
        pair[0] = space
        state["placed"] += 1
        if state["placed"] < len(order):
            self.pass_to(state, order[state["placed"]][0])
        else:
            # rulebook "How to Play": turns go clockwise from the starting player.
            state["status"] = PLAYING
            self.pass_to(state, 0)
        return [{"type": "placed", "seat": seat, "token": token, "side": pair[1],
                 **_at(space, state["size"])}]

    @move("move", _token, _direction)
    def _move(self, state: State, seat: int, token: int, direction: str) -> list[Event]:
        """Move one of your tokens in a direction its face-up side shows, to the first open tile
        that way (occupied tiles and empty spaces are jumped). The token flips, you take the
        tile it left and that space is refilled."""
        space, side = state["tokens"][seat][token]
        directions = self.box.DIRECTIONS[side]
        if direction not in directions:
            raise IllegalAction(f"Token {token} shows its {side} side: it moves "
                                f"{', '.join(directions)}.", "direction")
        occupied = _occupied(state)
        target = _landing(state["grid"], self.ray_towards[state["size"]][space][direction],
                          occupied)
        if target is None:
            if not self.can_move(state, seat, occupied):
                raise IllegalAction("Neither of your tokens can move along its face: move one "
                                    "to any open tile instead (free_move).", "type")
            raise IllegalAction(f"Token {token} has no open tile to the {direction} before the "
                                f"edge of the grid; choose another direction.", "direction")
        return self._turn(state, seat, token, target, "moved", direction)

    @move("free_move", _token, _row, _column)
    def _free_move(self, state: State, seat: int, token: int, row: int,
                   column: int) -> list[Event]:
        """Only when neither of your tokens can move along its face: move one of them to any open
        tile. The token flips, you take the tile it left and that space is refilled."""
        target = _open_tile(state, row, column)
        if self.can_move(state, seat, _occupied(state)):
            raise IllegalAction("A token may go to any open tile only when neither of your "
                                "tokens can move along its face.", "type")
        return self._turn(state, seat, token, target, "free_move", None)

    @move("flip", _token)
    def _flip(self, state: State, seat: int, token: int) -> list[Event]:
        """Right after completing a Velociraptor or Deinosuchus, before the space is refilled:
        flip one of your tokens to its other side."""
        pair = state["tokens"][seat][token]
        pair[1] = self.other_side[pair[1]]
        return self._after_flip(state, seat, {"type": "flipped", "seat": seat, "token": token,
                                              "side": pair[1]})

    @move("skip_flip")
    def _skip_flip(self, state: State, seat: int) -> list[Event]:
        """Right after completing a Velociraptor or Deinosuchus, before the space is refilled:
        flip no token."""
        return self._after_flip(state, seat, {"type": "flip_skipped", "seat": seat})

    def _after_flip(self, state: State, seat: int, decided: Event) -> list[Event]:
        space, state["flip_pending"] = state["flip_pending"], None
        return self._end_turn(state, seat, space, [decided])

    def _turn(self, state: State, seat: int, token: int, target: int, how: str,
              direction: str | None) -> list[Event]:
        """rulebook "How to Play": move, flip the token, take the tile it left, refill. RULINGS §3:
        a final turn after the end is triggered is such a whole turn too."""
        size = state["size"]
        pair = state["tokens"][seat][token]
        origin = pair[0]
        pair[0] = target
        pair[1] = self.other_side[pair[1]]
        moved: Event = {"type": how, "seat": seat, "token": token,
                        "from": [origin // size, origin % size],
                        "to": [target // size, target % size], "side": pair[1]}
        if direction is not None:
            moved["direction"] = direction
        events = [moved]
        grid = state["grid"]
        tile = grid[origin]
        grid[origin] = None
        # rulebook "Special Ability": completing a Velociraptor or Deinosuchus "triggers
        # immediately", so the player may flip a token before the refill tile is drawn (RULINGS
        # §3). The rulebook makes no exception for the final turns, so it is offered there too.
        if self._collect(state, seat, tile, events) and self.roster[tile[0]]["flip"]:
            state["flip_pending"] = origin
            return events
        return self._end_turn(state, seat, origin, events)

    def _end_turn(self, state: State, seat: int, space: int, events: list[Event]) -> list[Event]:
        """Refill the space the token left, then pass the turn or end the match."""
        # rulebook "Cleaning Up": refill from the current era's stack; an empty stack passes to
        # the next era. RULINGS §3: the final turns refill too, while any stack holds tiles; only
        # after the last era-3 tile is placed do spaces stay empty (and are jumped).
        stacks = state["stacks"]
        for stack in stacks:
            if stack:
                refill = stack.pop()
                state["grid"][space] = refill
                size = state["size"]
                events.append({"type": "refilled", "row": space // size,
                               "column": space % size, **_tile_view(refill)})
                # rulebook "End Game": placing the final era-3 tile ends the game.
                if not stacks[-1] and state["end"] is None:
                    self._trigger_end(state, seat, LAST_TILE, events)
                break
        seats = len(state["players"])
        # rulebook "End Game" and RULINGS §3: after the trigger, the seats after the current one
        # up to the end of the round (which starts at seat 0) each take one final turn. A
        # trigger in the last seat's turn therefore ends the game at once.
        if state["end"] is not None and seat == seats - 1:
            self._final_collection(state, events)
        else:
            self.pass_to(state, (seat + 1) % seats)
        return events

    @staticmethod
    def _trigger_end(state: State, seat: int, reason: str, events: list[Event]) -> None:
        state["end"] = {"seat": seat, "reason": reason}
        events.append({"type": "end_triggered", "seat": seat, "reason": reason})

    def _collect(self, state: State, seat: int, tile: list, events: list[Event]) -> bool:
        """Add a tile to a collection; True when it completed another set of its dinosaur."""
        dino_id, position = tile[0], tile[1]
        state["collected"][seat].append(tile)
        positions = state["collections"][seat].setdefault(dino_id, [])
        insort(positions, position)
        sets = state["sets"][seat]
        had = sets.get(dino_id, 0)
        dinosaur = self.roster[dino_id]
        # Another complete set needs at least that many sets' worth of tiles.
        enough = len(positions) >= (had + 1) * len(dinosaur["values"])
        now = complete_sets(dinosaur, positions) if enough else had
        event: Event = {"type": "took", "seat": seat, **_tile_view(tile)}
        events.append(event)
        completed = now > had
        if completed:
            sets[dino_id] = now
            event["completed"] = dino_id
            # rulebook "Completing a Dinosaur": a fourth dinosaur ends the game. RULINGS §3: the
            # fourth complete set, two complete sets of one dinosaur counting as two.
            if state["end"] is None and sum(sets.values()) >= self.box.DINOSAURS_TO_END:
                self._trigger_end(state, seat, FOURTH_DINOSAUR, events)
        return completed

    def _final_collection(self, state: State, events: list[Event]) -> None:
        """rulebook "End Game": everyone takes the tiles beneath their tokens."""
        grid = state["grid"]
        for seat, tokens in enumerate(state["tokens"]):
            for token, (space, _) in enumerate(tokens):
                tile = grid[space]
                grid[space] = None
                self._collect(state, seat, tile, events)
                events[-1]["token"] = token
        self.finish(state, events)

    # Views and results

    def see(self, state: State, seat: int | None) -> dict[str, Any]:
        size = state["size"]
        on_space = {}
        players = []
        for s, (name, tokens) in enumerate(zip(state["players"], state["tokens"], strict=True)):
            shown = []
            for token, (space, side) in enumerate(tokens):
                shown.append({"id": token, "side": side, **_at(space, size)})
                if space is not None:
                    on_space[space] = {"seat": s, "id": token, "side": side}
            collection = state["collections"][s]
            players.append({
                "seat": s,
                "name": name,
                "tokens": shown,
                "collection": {d: list(p) for d, p in collection.items()},
                # RULINGS §3: each player's tiles lie face up with their eras, in take order
                "collected": [_tile_view(tile) for tile in state["collected"][s]],
                "tiles": sum(len(p) for p in collection.values()),
                "completed": dict(state["sets"][s]),
            })
        rows = []
        for r in range(size):
            row = []
            for i in range(r * size, (r + 1) * size):
                tile = state["grid"][i]
                cell = None if tile is None else _tile_view(tile)
                if i in on_space:
                    # a token left on an emptied space (rest of the round) shows a null tile
                    cell = {**(cell or EMPTY_SPACE), "token": on_space[i]}
                row.append(cell)
            rows.append(row)
        stacks = state["stacks"]
        current = next((era for era, stack in enumerate(stacks, 1) if stack), self.box.ERAS)
        view: dict[str, Any] = {
            "players": players,
            "grid": {"size": size, "rows": rows,
                     "note": "row 0 is the north edge, column 0 the west edge"},
            "era": current,
            "stacks": [{"era": era, "tiles": len(stack)} for era, stack in enumerate(stacks, 1)],
            "phase": _phase(state),
            "turn": state["to_act"][0] if state["to_act"] else None,
            "end": state["end"],
        }
        if state["status"] == SETUP:
            seat_next, token = _placement_order(len(state["players"]))[state["placed"]]
            view["placing"] = {"seat": seat_next, "token": token, "side": self.box.TOKENS[token]}
        return view

    def scoresheet(self, state: State) -> dict[str, Any]:
        return {"variant": state["variant"],
                "players": [{"name": name, "tiles": {d: list(p) for d, p in collection.items()}}
                            for name, collection in zip(state["players"],
                                                        state["collections"], strict=True)]}

    def secrets(self, state: State) -> dict[int | None, list[str]]:
        """Nothing is private to one seat; the stacks' order is secret from everyone. No view
        shows it once the match is over either (a fourth dinosaur can end it with tiles still in
        the stacks), though the seed a finished match publishes deals the stacks again for whoever
        replays it (API.md "Fairness of the deal")."""
        return {None: self.stack_order_fragments(state)}

    @staticmethod
    def stack_order_fragments(state: State) -> list[str]:
        """The next face-down tiles of each stack, as a view would print them."""
        return [fragment([_tile_view(t) for t in reversed(stack[-4:])])
                for stack in state["stacks"] if stack]
