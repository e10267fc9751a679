"""Digging for Dinos turn engine (rulebook "Setup", "How to Play", "End Game"; RULINGS §3).

Coordinates: the grid has `size` rows and columns; row 0 is the north edge and column 0 the west
edge, so N is row − 1 and E is column + 1 (box.DIRECTIONS). Inside the state a space is the index
row * size + column, a tile is [dinosaur, position, era] and an emptied space is null.

Each player has two tokens with stable ids: token 0 is placed orthogonal side up and token 1
diagonal side up (rulebook "Setup" step 4); the view shows which side is up now.

Actions, each exactly as `legal_actions` lists it:
  {"type": "place", "row": r, "column": c}                    set-up: the next token's tile
  {"type": "move", "token": 0|1, "direction": "N"|"NE"|…}     a turn along the token's face
  {"type": "free_move", "token": 0|1, "row": r, "column": c}  only when neither token can move
  {"type": "flip", "token": 0|1} or {"type": "skip_flip"}     after completing a Velociraptor or
                                                              Deinosuchus
"""

from __future__ import annotations

import json
from typing import Any

from scoring.engine import FINISHED, PLAYING, SETUP, Action, Event, Game, IllegalAction, Rng, State

from . import box
from .score import complete_sets, score

ORTHOGONAL, DIAGONAL = box.TOKENS
OTHER_SIDE = {ORTHOGONAL: DIAGONAL, DIAGONAL: ORTHOGONAL}
ROSTER = {d["id"]: d for d in box.ROSTER}
TOKEN_IDS = tuple(range(len(box.TOKENS)))

# Internal phases; status() maps them onto the shared SETUP / PLAYING / FINISHED.
PLACE, MOVE, FLIP, OVER = "place", "move", "flip", "over"
LAST_TILE, FOURTH_DINOSAUR = "last_tile_placed", "fourth_dinosaur"

ACTION_KEYS = {
    "place": {"type", "row", "column"},
    "move": {"type", "token", "direction"},
    "free_move": {"type", "token", "row", "column"},
    "flip": {"type", "token"},
    "skip_flip": {"type"},
}


def _rays(size: int) -> list[dict[str, list[tuple[str, tuple[int, ...]]]]]:
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


RAYS = {size: _rays(size) for size in set(box.GRID_SIZE.values())}


def _placement_order(seats: int) -> list[tuple[int, int]]:
    """rulebook "Setup" 4: orthogonal tokens from the last player backwards (counter-clockwise),
    then diagonal tokens from the starting player forwards (clockwise)."""
    return ([(seat, 0) for seat in range(seats - 1, -1, -1)]
            + [(seat, 1) for seat in range(seats)])


EMPTY_SPACE = {"dinosaur": None, "position": None, "era": None}


def _tile_view(tile: list) -> dict[str, Any]:
    return {"dinosaur": tile[0], "position": tile[1], "era": tile[2]}


def _is_index(value: Any, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < high


class DinosGame(Game):
    box = box

    # Set-up

    def setup(self, players: list[str], seed: int, variant: str) -> State:
        if variant not in box.VARIANTS:
            raise IllegalAction(f"{self.name} has no variant '{variant}'; it is played "
                                f"{', '.join(box.VARIANTS)}.")
        self.check_players(players, *box.PLAYERS)
        size = box.GRID_SIZE[len(players)]
        rng = Rng.from_seed(seed, self.id)
        # rulebook: each era holds exactly one set of every dinosaur, shuffled face down.
        stacks = []
        for era in range(1, box.ERAS + 1):
            stack = [[d["id"], position, era]
                     for d in box.ROSTER for position in range(1, len(d["values"]) + 1)]
            rng.shuffle(stack)
            stacks.append(stack)  # the top of a stack is its last element
        # rulebook "Setup" 3: the grid is dealt from the era 1 tiles.
        grid = [stacks[0].pop() for _ in range(size * size)]
        return {
            "game": self.id,
            "variant": variant,
            "players": list(players),
            "size": size,
            "rng": rng.state,
            "grid": grid,
            "stacks": stacks,
            "tokens": [[[None, side] for side in box.TOKENS] for _ in players],
            "collections": [{} for _ in players],
            # complete sets per dinosaur and seat, kept as tiles are taken (RULINGS §3)
            "sets": [{} for _ in players],
            "phase": PLACE,
            "placed": 0,
            "turn": len(players) - 1,
            # None until the end is triggered: then {"seat", "reason"}.
            "end": None,
        }

    # Queries

    def status(self, state: State) -> str:
        phase = state["phase"]
        if phase == PLACE:
            return SETUP
        return FINISHED if phase == OVER else PLAYING

    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == OVER else [state["turn"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        size = state["size"]
        if phase == PLACE:
            return [{"type": "place", "row": i // size, "column": i % size}
                    for i in self._open_tiles(state)]
        if phase == FLIP:
            return [*({"type": "flip", "token": t} for t in TOKEN_IDS), {"type": "skip_flip"}]
        occupied = self._occupied(state)
        grid = state["grid"]
        moves = []
        for token, (space, side) in enumerate(state["tokens"][seat]):
            for direction, ray in RAYS[size][space][side]:
                for target in ray:
                    if grid[target] is not None and target not in occupied:
                        moves.append({"type": "move", "token": token, "direction": direction})
                        break
        if moves:
            return moves
        # rulebook "Movement Restrictions" F: no legal move → any open tile.
        open_tiles = self._open_tiles(state)
        return [{"type": "free_move", "token": token, "row": i // size, "column": i % size}
                for token in TOKEN_IDS for i in open_tiles]

    @staticmethod
    def _occupied(state: State) -> set[int]:
        return {space for tokens in state["tokens"] for space, _ in tokens if space is not None}

    def _open_tiles(self, state: State) -> list[int]:
        """Spaces holding a tile and no token (rulebook: an "open" or "unoccupied" tile)."""
        occupied = self._occupied(state)
        return [i for i, tile in enumerate(state["grid"])
                if tile is not None and i not in occupied]

    def _target(self, state: State, space: int, side: str, direction: str,
                occupied: set[int]) -> int | None:
        """The first open tile from `space` that way. rulebook "Movement Restrictions" C–E, and
        RULINGS §3: occupied tiles and empty spaces are jumped; a token only lands on an open
        tile and never leaves the grid."""
        grid = state["grid"]
        for name, ray in RAYS[state["size"]][space][side]:
            if name == direction:
                for target in ray:
                    if grid[target] is not None and target not in occupied:
                        return target
                return None
        return None

    def _can_move(self, state: State, seat: int, occupied: set[int]) -> bool:
        for space, side in state["tokens"][seat]:
            for direction in box.DIRECTIONS[side]:
                if self._target(state, space, side, direction, occupied) is not None:
                    return True
        return False

    # Actions

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        kind = action.get("type")
        keys = ACTION_KEYS.get(kind)
        if keys is None:
            raise IllegalAction(f"'{kind}' is not an action of {self.name}; the actions are "
                                f"{', '.join(ACTION_KEYS)}.")
        extra = set(action) - keys
        if extra:
            raise IllegalAction(f"A '{kind}' action has no {', '.join(sorted(map(str, extra)))}.")
        missing = keys - set(action)
        if missing:
            raise IllegalAction(f"A '{kind}' action needs {', '.join(sorted(missing))}.")
        phase = state["phase"]
        if phase == PLACE:
            if kind != "place":
                raise IllegalAction("The tokens are still being placed: place your token on "
                                    "an open tile.")
            return self._place(state, seat, self._space(state, action))
        if phase == FLIP:
            if kind == "skip_flip":
                return self._finish_turn(state, seat, [{"type": "flip_skipped", "seat": seat}])
            if kind != "flip":
                raise IllegalAction("You completed a dinosaur with the flip ability: flip one of "
                                    "your tokens or skip the flip first.")
            token = self._token(action)
            pair = state["tokens"][seat][token]
            pair[1] = OTHER_SIDE[pair[1]]
            events = [{"type": "flipped", "seat": seat, "token": token, "side": pair[1]}]
            return self._finish_turn(state, seat, events)
        if kind == "move":
            return self._move(state, seat, action)
        if kind == "free_move":
            return self._free_move(state, seat, action)
        raise IllegalAction("It is your turn: move one of your tokens.")

    def _space(self, state: State, action: Action) -> int:
        size = state["size"]
        row, column = action["row"], action["column"]
        if not (_is_index(row, size) and _is_index(column, size)):
            raise IllegalAction(f"Rows and columns are whole numbers from 0 to {size - 1}.")
        space = row * size + column
        if state["grid"][space] is None:
            raise IllegalAction(f"The space at row {row}, column {column} holds no tile.")
        if space in self._occupied(state):
            raise IllegalAction(f"A token already stands on the tile at row {row}, "
                                f"column {column}.")
        return space

    @staticmethod
    def _token(action: Action) -> int:
        token = action["token"]
        if not _is_index(token, len(TOKEN_IDS)):
            raise IllegalAction("A token is 0 (placed orthogonal side up) or 1 (placed "
                                "diagonal side up).")
        return token

    def _place(self, state: State, seat: int, space: int) -> list[Event]:
        seats = len(state["players"])
        order = _placement_order(seats)
        _, token = order[state["placed"]]
        pair = state["tokens"][seat][token]
        pair[0] = space
        state["placed"] += 1
        size = state["size"]
        events = [{"type": "placed", "seat": seat, "token": token, "side": pair[1],
                   "row": space // size, "column": space % size}]
        if state["placed"] == len(order):
            # rulebook "How to Play": turns go clockwise from the starting player.
            state["phase"], state["turn"] = MOVE, 0
        else:
            state["turn"] = order[state["placed"]][0]
        return events

    def _move(self, state: State, seat: int, action: Action) -> list[Event]:
        token = self._token(action)
        direction = action["direction"]
        space, side = state["tokens"][seat][token]
        if not isinstance(direction, str) or direction not in box.DIRECTIONS[side]:
            raise IllegalAction(f"Token {token} shows its {side} side: it moves "
                                f"{', '.join(box.DIRECTIONS[side])}.")
        occupied = self._occupied(state)
        target = self._target(state, space, side, direction, occupied)
        if target is None:
            if not self._can_move(state, seat, occupied):
                raise IllegalAction("Neither of your tokens can move along its face: move one "
                                    "to any open tile instead (free_move).")
            raise IllegalAction(f"Token {token} has no open tile to the {direction} before the "
                                f"edge of the grid; choose another direction.")
        return self._turn(state, seat, token, target, "moved", direction)

    def _free_move(self, state: State, seat: int, action: Action) -> list[Event]:
        token = self._token(action)
        target = self._space(state, action)
        if self._can_move(state, seat, self._occupied(state)):
            raise IllegalAction("A token may go to any open tile only when neither of your "
                                "tokens can move along its face.")
        return self._turn(state, seat, token, target, "free_move", None)

    def _turn(self, state: State, seat: int, token: int, target: int, how: str,
              direction: str | None) -> list[Event]:
        """rulebook "How to Play": move, flip the token, take the tile it left, refill."""
        size = state["size"]
        pair = state["tokens"][seat][token]
        origin = pair[0]
        pair[0] = target
        pair[1] = OTHER_SIDE[pair[1]]
        moved: Event = {"type": how, "seat": seat, "token": token,
                        "from": [origin // size, origin % size],
                        "to": [target // size, target % size], "side": pair[1]}
        if direction is not None:
            moved["direction"] = direction
        events = [moved]
        grid = state["grid"]
        tile = grid[origin]
        grid[origin] = None
        completed = self._collect(state, seat, tile, events)

        if state["end"] is None:
            # rulebook "Cleaning Up": refill from the current era; an empty stack passes to
            # the next era. The stacks cannot all be empty here: the refill that places the
            # last era-3 tile triggers the end, and from then on nothing is refilled.
            for stack in state["stacks"]:
                if stack:
                    refill = stack.pop()
                    grid[origin] = refill
                    events.append({"type": "refilled", "row": origin // size,
                                   "column": origin % size, **_tile_view(refill)})
                    break
            # rulebook "End Game": the final era-3 tile placed ends the game.
            if not state["stacks"][-1]:
                state["end"] = {"seat": seat, "reason": LAST_TILE}
                events.append({"type": "end_triggered", "seat": seat, "reason": LAST_TILE})
        # else RULINGS §3: a space emptied in the rest of the round stays empty.

        if state["end"] is None and self._dinosaurs(state, seat) >= box.DINOSAURS_TO_END:
            # rulebook "Completing a Dinosaur": a fourth dinosaur ends the game. RULINGS §3
            # counts dinosaurs as complete sets, so two Velociraptors count as two.
            state["end"] = {"seat": seat, "reason": FOURTH_DINOSAUR}
            events.append({"type": "end_triggered", "seat": seat, "reason": FOURTH_DINOSAUR})

        # rulebook "Special Ability": completing a Velociraptor or Deinosuchus lets the player
        # flip a token. Once the end is triggered this player never moves again, so a flip
        # could change nothing and is not asked.
        if completed and ROSTER[tile[0]]["flip"] and state["end"] is None:
            state["phase"] = FLIP
            return events
        return self._finish_turn(state, seat, events)

    def _collect(self, state: State, seat: int, tile: list, events: list[Event]) -> bool:
        """Add a tile to a collection; True when it completed another set of its dinosaur."""
        dino_id, position = tile[0], tile[1]
        positions = state["collections"][seat].setdefault(dino_id, [])
        positions.append(position)
        positions.sort()
        sets = state["sets"][seat]
        now = complete_sets(ROSTER[dino_id], positions)
        completed = now > sets.get(dino_id, 0)
        event: Event = {"type": "took", "seat": seat, **_tile_view(tile)}
        if completed:
            sets[dino_id] = now
            event["completed"] = dino_id
        events.append(event)
        return completed

    @staticmethod
    def _dinosaurs(state: State, seat: int) -> int:
        """Completed dinosaurs: every complete set counts, two Velociraptors as two."""
        return sum(state["sets"][seat].values())

    def _finish_turn(self, state: State, seat: int, events: list[Event]) -> list[Event]:
        seats = len(state["players"])
        # rulebook "End Game" and RULINGS §3: after the trigger, the seats after the current one
        # up to the end of the round (which starts at seat 0) each take one more turn. A
        # trigger in the last seat's turn therefore ends the game at once.
        if state["end"] is not None and seat == seats - 1:
            self._final_collection(state, events)
            return events
        state["phase"] = MOVE
        state["turn"] = (seat + 1) % seats
        return events

    def _final_collection(self, state: State, events: list[Event]) -> None:
        """rulebook "End Game": everyone takes the tiles beneath their tokens."""
        grid = state["grid"]
        for seat, tokens in enumerate(state["tokens"]):
            for token, (space, _) in enumerate(tokens):
                tile = grid[space]
                grid[space] = None
                self._collect(state, seat, tile, events)
                events[-1]["token"] = token
        state["phase"] = OVER
        events.append({"type": "game_over"})

    # Views and results

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        size = state["size"]
        on_space = {}
        players = []
        for s, (name, tokens) in enumerate(zip(state["players"], state["tokens"], strict=True)):
            shown = []
            for token, (space, side) in enumerate(tokens):
                placed = space is not None
                shown.append({"id": token, "side": side,
                              "row": space // size if placed else None,
                              "column": space % size if placed else None})
                if placed:
                    on_space[space] = {"seat": s, "id": token, "side": side}
            collection = state["collections"][s]
            players.append({
                "seat": s,
                "name": name,
                "tokens": shown,
                "collection": {d: list(p) for d, p in collection.items()},
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
        current = next((era for era, stack in enumerate(stacks, 1) if stack), box.ERAS)
        view: dict[str, Any] = {
            "game": state["game"],
            "variant": state["variant"],
            "you": seat,
            "players": players,
            "grid": {"size": size, "rows": rows,
                     "note": "row 0 is the north edge, column 0 the west edge"},
            "era": current,
            "stacks": [{"era": era, "tiles": len(stack)} for era, stack in enumerate(stacks, 1)],
            "phase": {PLACE: "placing", MOVE: "moving", FLIP: "flipping",
                      OVER: "finished"}[state["phase"]],
            "turn": None if state["phase"] == OVER else state["turn"],
            "end": state["end"],
        }
        if state["phase"] == PLACE:
            seat_next, token = _placement_order(len(state["players"]))[state["placed"]]
            view["placing"] = {"seat": seat_next, "token": token, "side": box.TOKENS[token]}
        return view

    def scoresheet(self, state: State) -> dict[str, Any]:
        return {"players": [{"name": name, "tiles": {d: list(p) for d, p in collection.items()}}
                            for name, collection in zip(state["players"],
                                                        state["collections"], strict=True)]}

    def score(self, sheet: dict[str, Any]) -> dict[str, Any]:
        return score(sheet)

    def secrets(self, state: State) -> dict[int | None, list[str]]:
        """Nothing is private to one seat; the stacks' order is secret from everyone."""
        return {None: self.stack_order_fragments(state)}

    @staticmethod
    def stack_order_fragments(state: State) -> list[str]:
        """The next face-down tiles of each stack, as a view would print them."""
        return [json.dumps([_tile_view(t) for t in reversed(stack[-4:])], separators=(",", ":"))
                for stack in state["stacks"] if stack]


ENGINE = DinosGame()
