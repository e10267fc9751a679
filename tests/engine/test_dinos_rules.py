"""Digging for Dinos played by its rulebook (rules/digging-for-dinos.rulebook.txt) and RULINGS §3.

Positions are built by editing a fresh set-up state. Spaces are (row, column), row 0 the north
edge; a tile is [dinosaur, position, era].
"""

import json

import pytest

from scoring.dinos import box
from scoring.dinos.engine import DinosGame
from scoring.dinos.score import score
from scoring.engine import FINISHED, PLAYING, SETUP, IllegalAction, NotYourTurn, log_entry, play_out

ENGINE = DinosGame()
NAMES = ["Luca", "Otto", "Emmy", "Matteo"]


def new(players: int = 2, seed: int = 1):
    return ENGINE.setup(NAMES[:players], seed, "standard")


def space(state, row, column):
    return row * state["size"] + column


def playing(players: int = 2, tokens=None, seed: int = 1):
    """A match past set-up. `tokens`: per seat, the (row, column) of token 0 (orthogonal side
    up) and token 1 (diagonal side up); by default spread along the south-east."""
    state = new(players, seed)
    size = state["size"]
    if tokens is None:
        tokens = [((size - 1, seat), (size - 2, seat)) for seat in range(players)]
    state["tokens"] = [[[space(state, *ortho), "orthogonal"], [space(state, *diag), "diagonal"]]
                       for ortho, diag in tokens]
    state["status"], state["to_act"], state["placed"] = PLAYING, [0], 2 * players
    return state


def token_at(state, seat, token):
    where, _ = state["tokens"][seat][token]
    return divmod(where, state["size"])


def side_of(state, seat, token):
    return state["tokens"][seat][token][1]


def put(state, row, column, tile):
    state["grid"][space(state, row, column)] = tile


def tile_at(state, row, column):
    return state["grid"][space(state, row, column)]


def move(state, seat, token, direction):
    return ENGINE.act(state, seat, {"type": "move", "token": token, "direction": direction})


def tile_view(tile):
    dinosaur, position, era = tile
    return {"dinosaur": dinosaur, "position": position, "era": era}


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


# rulebook "Setup" 3 and 5; RULINGS §3 roster (33 tiles an era).

@pytest.mark.parametrize("players, size", [(2, 4), (3, 5), (4, 5)])
def test_the_grid_is_dealt_from_era_one_and_the_rest_stays_in_three_stacks(players, size):
    state = new(players)
    assert state["size"] == size == box.GRID_SIZE[players]
    assert len(state["grid"]) == size * size
    assert all(tile[2] == 1 for tile in state["grid"])
    per_era = sum(len(d["values"]) for d in box.ROSTER)
    assert per_era == 33
    assert [len(s) for s in state["stacks"]] == [per_era - size * size, per_era, per_era]
    every_tile = state["grid"] + [t for stack in state["stacks"] for t in stack]
    assert len({tuple(t) for t in every_tile}) == per_era * box.ERAS
    view = ENGINE.view(state, None)
    assert view["era"] == 1
    assert [s["tiles"] for s in view["stacks"]] == [per_era - size * size, per_era, per_era]


def test_the_stacks_are_shuffled_by_the_seed():
    assert new(2, seed=1)["stacks"] != new(2, seed=2)["stacks"]
    assert new(2, seed=1)["stacks"] == new(2, seed=1)["stacks"]


def test_five_players_or_another_variant_do_not_fit():
    with pytest.raises(IllegalAction, match="2 to 4 players"):
        ENGINE.setup(NAMES + ["Eve"], 1, "standard")
    with pytest.raises(IllegalAction, match="no variant"):
        ENGINE.setup(NAMES[:2], 1, "advanced")


# rulebook "Setup" 4: the orthogonal tokens from the last player backwards (counter-clockwise),
# then the diagonal tokens from the starting player forwards (clockwise).

def test_orthogonal_tokens_are_placed_from_the_last_seat_back_then_diagonal_from_the_first():
    state = new(4)
    order = []
    while ENGINE.status(state) == SETUP:
        (seat,) = ENGINE.to_act(state)
        placing = ENGINE.view(state, seat)["placing"]
        assert placing["seat"] == seat
        order.append((seat, placing["token"], placing["side"]))
        ENGINE.act(state, seat, ENGINE.legal_actions(state, seat)[0])
    assert order == [(3, 0, "orthogonal"), (2, 0, "orthogonal"), (1, 0, "orthogonal"),
                     (0, 0, "orthogonal"), (0, 1, "diagonal"), (1, 1, "diagonal"),
                     (2, 1, "diagonal"), (3, 1, "diagonal")]
    assert ENGINE.status(state) == PLAYING
    assert ENGINE.to_act(state) == [0]  # rulebook "How to Play": the first player starts
    assert [side_of(state, s, t) for s in range(4) for t in (0, 1)] == \
        ["orthogonal", "diagonal"] * 4


def test_a_token_is_placed_only_on_an_unoccupied_tile_and_takes_nothing():
    state = new(2)
    ENGINE.act(state, 1, {"type": "place", "row": 2, "column": 1})
    assert {"type": "place", "row": 2, "column": 1} not in ENGINE.legal_actions(state, 0)
    before = dumps(state)
    with pytest.raises(IllegalAction, match="already stands"):
        ENGINE.act(state, 0, {"type": "place", "row": 2, "column": 1})
    with pytest.raises(IllegalAction, match="0 to 3"):
        ENGINE.act(state, 0, {"type": "place", "row": 4, "column": 0})
    with pytest.raises(NotYourTurn):
        ENGINE.act(state, 1, {"type": "place", "row": 0, "column": 0})
    with pytest.raises(IllegalAction, match="A 'move' action cannot be taken now: "
                                            "the tokens are still being placed"):
        ENGINE.act(state, 0, {"type": "move", "token": 0, "direction": "N"})
    assert dumps(state) == before
    assert state["collections"] == [{}, {}]


# rulebook "Movement Restrictions" A–E; RULINGS §3 on empty spaces.

def test_a_token_jumps_occupied_tiles_and_empty_spaces_to_the_first_open_tile():
    state = playing(2, tokens=[((0, 0), (3, 3)), ((0, 1), (2, 2))])
    put(state, 0, 2, None)  # an emptied space
    move(state, 0, 0, "E")
    assert token_at(state, 0, 0) == (0, 3)


def test_a_diagonal_token_jumps_along_its_diagonal():
    state = playing(2, tokens=[((0, 3), (3, 3)), ((0, 0), (2, 2))])
    move(state, 0, 1, "NW")  # (2,2) is occupied by Otto's token: the next open tile is (1,1)
    assert token_at(state, 0, 1) == (1, 1)


def test_a_token_moves_only_in_the_directions_on_its_face():
    state = playing(2, tokens=[((1, 1), (2, 2)), ((3, 0), (3, 3))])
    actions = ENGINE.legal_actions(state, 0)
    assert {(a["token"], a["direction"]) for a in actions} == {
        (0, "N"), (0, "E"), (0, "S"), (0, "W"), (1, "NE"), (1, "NW"), (1, "SW")}
    before = dumps(state)
    with pytest.raises(IllegalAction, match="orthogonal side"):
        move(state, 0, 0, "NE")
    with pytest.raises(IllegalAction, match="'token' is a whole number from 0 to 1") as caught:
        move(state, 0, 2, "N")
    assert caught.value.field == "token"
    with pytest.raises(IllegalAction, match="'direction' is one of N, E, S, W, NE, SE, SW, NW"):
        move(state, 0, 0, ["N"])
    assert dumps(state) == before


def test_a_token_cannot_leave_the_grid_or_land_past_the_last_open_tile():
    state = playing(2, tokens=[((0, 0), (3, 3)), ((0, 1), (0, 3))])
    put(state, 0, 2, None)
    before = dumps(state)
    with pytest.raises(IllegalAction, match="no open tile to the N"):
        move(state, 0, 0, "N")
    # E: an occupied tile, an empty space, an occupied tile, then the edge.
    with pytest.raises(IllegalAction, match="no open tile to the E"):
        move(state, 0, 0, "E")
    assert dumps(state) == before
    assert {a["direction"] for a in ENGINE.legal_actions(state, 0) if a["token"] == 0} == {"S"}


# rulebook "How to Play" 1–3: move, flip, take the tile left, refill from the current era.

def test_a_move_takes_the_tile_left_refills_it_from_the_stack_and_flips_the_token():
    state = playing(2, tokens=[((1, 1), (3, 3)), ((3, 0), (2, 3))])
    left = tile_at(state, 1, 1)
    top = state["stacks"][0][-1]
    events = move(state, 0, 0, "N")
    assert token_at(state, 0, 0) == (0, 1)
    assert side_of(state, 0, 0) == "diagonal"
    assert state["collections"][0] == {left[0]: [left[1]]}
    assert tile_at(state, 1, 1) == top
    assert [e["type"] for e in events] == ["moved", "took", "refilled"]
    assert ENGINE.to_act(state) == [1]


def test_once_era_one_is_empty_the_refill_comes_from_era_two():
    state = playing(2, tokens=[((1, 1), (3, 3)), ((3, 0), (2, 3))])
    state["stacks"][0] = [["pterodactyl", 4, 1]]
    move(state, 0, 0, "N")
    assert tile_at(state, 1, 1) == ["pterodactyl", 4, 1]
    assert ENGINE.view(state, None)["era"] == 2
    top_of_era_two = state["stacks"][1][-1]
    move(state, 1, 0, "N")  # Otto's orthogonal token leaves (3,0)
    assert tile_at(state, 3, 0) == top_of_era_two
    assert top_of_era_two[2] == 2
    assert [s["tiles"] for s in ENGINE.view(state, None)["stacks"]] == [0, 32, 33]


# rulebook "Movement Restrictions" F: no legal move → any open tile, then flip and take.

def blocked():
    """Luca's tokens at (0,0) orthogonal and (0,3) diagonal see only emptied spaces and Otto's
    tokens; open tiles remain at (2,2) and (3,1)."""
    state = playing(2, tokens=[((0, 0), (0, 3)), ((1, 1), (3, 3))])
    keep = {(0, 0), (0, 3), (1, 1), (3, 3), (2, 2), (3, 1)}
    for r in range(4):
        for c in range(4):
            if (r, c) not in keep:
                put(state, r, c, None)
    return state


def test_the_free_move_when_neither_token_can_move():
    state = blocked()
    legal = ENGINE.legal_actions(state, 0)
    assert {(a["type"], a["token"], a["row"], a["column"]) for a in legal} == {
        ("free_move", t, r, c) for t in (0, 1) for r, c in ((2, 2), (3, 1))}
    before = dumps(state)
    with pytest.raises(IllegalAction, match="Neither of your tokens"):
        move(state, 0, 0, "E")
    with pytest.raises(IllegalAction, match="already stands"):
        ENGINE.act(state, 0, {"type": "free_move", "token": 0, "row": 1, "column": 1})
    with pytest.raises(IllegalAction, match="holds no tile"):
        ENGINE.act(state, 0, {"type": "free_move", "token": 0, "row": 0, "column": 1})
    assert dumps(state) == before
    left = tile_at(state, 0, 0)
    ENGINE.act(state, 0, {"type": "free_move", "token": 0, "row": 2, "column": 2})
    assert token_at(state, 0, 0) == (2, 2)
    assert side_of(state, 0, 0) == "diagonal"
    assert state["collections"][0] == {left[0]: [left[1]]}
    assert tile_at(state, 0, 0) is not None  # refilled as usual


def test_no_free_move_while_a_token_can_move():
    state = playing(2)
    with pytest.raises(IllegalAction, match="only when neither"):
        ENGINE.act(state, 0, {"type": "free_move", "token": 0, "row": 0, "column": 0})


# rulebook "Special Ability": completing a Velociraptor or Deinosuchus → may flip a token.

@pytest.mark.parametrize("dinosaur", ["velociraptor", "deinosuchus"])
def test_completing_a_flip_dinosaur_lets_the_player_flip_a_token(dinosaur):
    state = playing(2, tokens=[((1, 1), (3, 3)), ((3, 0), (2, 3))])
    state["collections"][0] = {dinosaur: [1]}
    put(state, 1, 1, [dinosaur, 2, 1])
    events = move(state, 0, 0, "N")
    assert {"type": "took", "seat": 0, "dinosaur": dinosaur, "position": 2, "era": 1,
            "completed": dinosaur} in events
    assert ENGINE.view(state, 1)["phase"] == "flipping"
    assert ENGINE.to_act(state) == [0]
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "flip", "token": 0}, {"type": "flip", "token": 1}, {"type": "skip_flip"}]
    with pytest.raises(IllegalAction,
                       match="A 'move' action cannot be taken now: .* flip one of your tokens"):
        move(state, 0, 1, "NW")
    ENGINE.act(state, 0, {"type": "flip", "token": 1})
    assert side_of(state, 0, 1) == "orthogonal"
    assert ENGINE.to_act(state) == [1]


def test_the_special_flip_is_decided_before_the_refill_tile_is_drawn():
    # rulebook "Special Ability": it "triggers immediately when those dinosaurs are completed";
    # RULINGS §3: the flip is taken "before the refill tile is drawn".
    state = playing(2, tokens=[((1, 1), (3, 3)), ((3, 0), (2, 3))])
    state["collections"][0] = {"deinosuchus": [1]}
    put(state, 1, 1, ["deinosuchus", 2, 1])
    top = state["stacks"][0][-1]
    events = move(state, 0, 0, "N")
    assert [e["type"] for e in events] == ["moved", "took"]
    assert tile_at(state, 1, 1) is None
    assert state["stacks"][0][-1] == top
    for viewer in (None, 0, 1):
        view = ENGINE.view(state, viewer)
        assert view["grid"]["rows"][1][1] is None
        assert view["stacks"][0]["tiles"] == 33 - 16
        assert dumps(tile_view(top)) not in dumps(view)
    events = ENGINE.act(state, 0, {"type": "flip", "token": 0})
    assert [e["type"] for e in events] == ["flipped", "refilled"]
    assert events[1] == {"type": "refilled", "row": 1, "column": 1, **tile_view(top)}
    assert tile_at(state, 1, 1) == top
    assert ENGINE.to_act(state) == [1]


def test_the_special_flip_is_optional():
    state = playing(2, tokens=[((1, 1), (3, 3)), ((3, 0), (2, 3))])
    state["collections"][0] = {"velociraptor": [2]}
    put(state, 1, 1, ["velociraptor", 1, 1])
    move(state, 0, 0, "N")
    ENGINE.act(state, 0, {"type": "skip_flip"})
    assert [side_of(state, 0, t) for t in (0, 1)] == ["diagonal", "diagonal"]
    assert ENGINE.to_act(state) == [1]


def test_other_dinosaurs_and_incomplete_sets_give_no_flip():
    state = playing(2, tokens=[((1, 1), (3, 3)), ((3, 0), (2, 3))])
    state["collections"][0] = {"pterodactyl": [1, 2, 3]}
    put(state, 1, 1, ["pterodactyl", 4, 1])
    move(state, 0, 0, "N")
    assert ENGINE.to_act(state) == [1]
    state["collections"][1] = {"velociraptor": [1]}
    put(state, 3, 0, ["velociraptor", 1, 2])  # a second position 1 completes nothing
    move(state, 1, 0, "N")
    assert ENGINE.to_act(state) == [0]


# rulebook "End Game" and RULINGS §3: the trigger, the rest of the round, the tiles beneath.

def three_players():
    return playing(3, tokens=[((0, 0), (4, 4)), ((0, 2), (4, 2)), ((0, 4), (4, 0))])


def test_placing_the_last_era_three_tile_ends_the_game_after_the_round():
    state = three_players()
    state["stacks"] = [[], [], [["brontosaurus", 8, 3]]]
    move(state, 0, 0, "S")  # Luca's refill places the last era-3 tile
    assert tile_at(state, 0, 0) == ["brontosaurus", 8, 3]
    assert state["end"] == {"seat": 0, "reason": "last_tile_placed"}
    # Otto and Emmy still play this round; nothing refills their spaces.
    assert ENGINE.to_act(state) == [1]
    move(state, 1, 0, "S")
    assert tile_at(state, 0, 2) is None
    assert ENGINE.to_act(state) == [2]
    move(state, 2, 0, "S")
    assert tile_at(state, 0, 4) is None
    assert ENGINE.status(state) == FINISHED
    assert ENGINE.to_act(state) == []
    assert all(len(c) for c in state["collections"])


def four_dinosaurs_but_one_stegosaurus(state, seat):
    """`seat` holds three complete dinosaurs and Stegosaurus 1, 2, 4 and 5."""
    state["collections"][seat] = {"velociraptor": [1, 2], "deinosuchus": [1, 2],
                                  "pterodactyl": [1, 2, 3, 4], "stegosaurus": [1, 2, 4, 5]}
    state["sets"][seat] = {"velociraptor": 1, "deinosuchus": 1, "pterodactyl": 1}


def test_a_fourth_dinosaur_ends_the_game_after_the_round():
    state = three_players()
    state["to_act"] = [1]
    four_dinosaurs_but_one_stegosaurus(state, 1)
    put(state, 0, 2, ["stegosaurus", 3, 1])
    stack = state["stacks"][0]
    refills = [stack[-1], stack[-2]]
    move(state, 1, 0, "S")
    assert state["end"] == {"seat": 1, "reason": "fourth_dinosaur"}
    assert tile_at(state, 0, 2) == refills[0]
    assert ENGINE.to_act(state) == [2]
    # RULINGS §3 "End trigger": each final turn is a whole turn, refilled while a stack holds
    # tiles.
    events = move(state, 2, 0, "S")
    assert tile_at(state, 0, 4) == refills[1]
    assert "refilled" in [e["type"] for e in events]
    assert ENGINE.status(state) == FINISHED  # the round ends with the last seat; Luca waits


def test_a_final_turn_refills_so_the_next_token_lands_on_the_new_tile():
    # RULINGS §3 "End trigger": "refill while any stack holds tiles. Only after the last era-3
    # tile is placed do spaces stay empty (and are jumped)."
    state = playing(4, tokens=[((4, 4), (3, 4)), ((0, 1), (4, 3)), ((0, 2), (4, 2)),
                               ((0, 3), (4, 1))])
    state["to_act"] = [1]
    four_dinosaurs_but_one_stegosaurus(state, 1)
    put(state, 0, 1, ["stegosaurus", 3, 1])
    move(state, 1, 0, "S")  # Otto's fourth dinosaur
    assert state["end"]["reason"] == "fourth_dinosaur"
    refill = state["stacks"][0][-1]
    move(state, 2, 0, "S")  # Emmy's final turn leaves (0,2) and refills it
    assert tile_at(state, 0, 2) == refill
    move(state, 3, 0, "W")  # Matteo's token stops on the new tile, not past it
    assert token_at(state, 3, 0) == (0, 2)
    assert ENGINE.status(state) == FINISHED


def test_the_last_era_three_tile_placed_in_a_final_turn_leaves_the_next_space_empty():
    # RULINGS §3: the end is triggered once; spaces stay empty only after the last era-3 tile.
    state = three_players()
    four_dinosaurs_but_one_stegosaurus(state, 0)
    put(state, 0, 0, ["stegosaurus", 3, 1])
    state["stacks"] = [[], [], [["triceratops", 2, 3], ["triceratops", 1, 3]]]
    move(state, 0, 0, "S")
    assert tile_at(state, 0, 0) == ["triceratops", 1, 3]
    events = move(state, 1, 0, "S")  # Otto's refill places the last era-3 tile
    assert tile_at(state, 0, 2) == ["triceratops", 2, 3]
    assert state["end"] == {"seat": 0, "reason": "fourth_dinosaur"}
    assert "end_triggered" not in [e["type"] for e in events]
    move(state, 2, 0, "S")
    assert ENGINE.status(state) == FINISHED
    assert tile_at(state, 0, 4) is None


def test_two_sets_of_one_dinosaur_count_as_two_dinosaurs():
    state = three_players()
    state["collections"][0] = {"velociraptor": [1, 1, 2], "pterodactyl": [1, 2, 3, 4]}
    state["sets"][0] = {"velociraptor": 1, "pterodactyl": 1}
    state["collections"][0]["deinosuchus"] = [1, 2]
    state["sets"][0]["deinosuchus"] = 1
    put(state, 0, 0, ["velociraptor", 2, 2])
    events = move(state, 0, 0, "S")
    # RULINGS §3: "the fourth complete set: two complete sets of one dinosaur count as two".
    assert state["end"] == {"seat": 0, "reason": "fourth_dinosaur"}
    assert events[-1] == {"type": "end_triggered", "seat": 0, "reason": "fourth_dinosaur"}
    # rulebook "Special Ability" has no exception at the end: the flip is still offered.
    assert ENGINE.view(state, None)["phase"] == "flipping"
    ENGINE.act(state, 0, {"type": "skip_flip"})
    assert ENGINE.to_act(state) == [1]


def test_the_special_flip_is_offered_in_a_final_turn():
    # RULINGS §3 "End trigger": a final turn is "move, flip the token, take, (the special flip,
    # if the take completed a Velociraptor or Deinosuchus), then refill".
    state = three_players()
    four_dinosaurs_but_one_stegosaurus(state, 0)
    put(state, 0, 0, ["stegosaurus", 3, 1])
    move(state, 0, 0, "S")
    assert state["end"]["reason"] == "fourth_dinosaur"
    state["collections"][1] = {"velociraptor": [1]}
    put(state, 0, 2, ["velociraptor", 2, 1])
    top = state["stacks"][0][-1]
    move(state, 1, 0, "S")
    assert ENGINE.to_act(state) == [1]
    assert tile_at(state, 0, 2) is None
    assert ENGINE.legal_actions(state, 1)[-1] == {"type": "skip_flip"}
    ENGINE.act(state, 1, {"type": "flip", "token": 1})
    assert side_of(state, 1, 1) == "orthogonal"
    assert tile_at(state, 0, 2) == top
    assert ENGINE.to_act(state) == [2]


def test_a_trigger_in_the_last_seats_turn_ends_the_game_at_once():
    state = three_players()
    state["to_act"] = [2]
    state["stacks"] = [[], [], [["triceratops", 1, 3]]]
    move(state, 2, 0, "S")
    assert ENGINE.status(state) == FINISHED


def test_a_trigger_in_the_first_seats_turn_gives_everyone_else_a_turn():
    state = playing(4, tokens=[((0, 0), (4, 4)), ((0, 1), (4, 3)), ((0, 2), (4, 2)),
                               ((0, 3), (4, 1))])
    state["stacks"] = [[], [], [["triceratops", 1, 3]]]
    move(state, 0, 0, "S")
    for seat in (1, 2, 3):
        assert ENGINE.to_act(state) == [seat]
        move(state, seat, 0, "S")
    assert ENGINE.status(state) == FINISHED


def test_a_token_in_the_last_round_jumps_the_spaces_left_empty():
    state = three_players()
    state["stacks"] = [[], [], [["triceratops", 1, 3]]]
    move(state, 0, 0, "S")
    put(state, 1, 2, None)  # as if emptied earlier in this round
    move(state, 1, 0, "S")  # (1,2) is an empty space: Otto lands on (2,2)
    assert token_at(state, 1, 0) == (2, 2)


def test_at_the_end_everyone_takes_the_tiles_under_their_tokens():
    state = playing(2, tokens=[((0, 0), (3, 3)), ((0, 3), (3, 0))])
    state["stacks"] = [[], [], [["triceratops", 1, 3]]]
    state["to_act"] = [1]
    # Otto's last move takes (0,3) and ends on (1,3); then every token's tile is taken.
    taken = [[tile_at(state, 0, 0), tile_at(state, 3, 3)],
             [tile_at(state, 0, 3), tile_at(state, 1, 3), tile_at(state, 3, 0)]]
    events = move(state, 1, 0, "S")
    assert ENGINE.status(state) == FINISHED
    finals = [e for e in events if e["type"] == "took" and "token" in e]
    assert [(e["seat"], e["token"]) for e in finals] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    for seat, tiles in enumerate(taken):
        expected = {}
        for dinosaur, position, _ in tiles:
            expected.setdefault(dinosaur, []).append(position)
        assert state["collections"][seat] == {d: sorted(p) for d, p in expected.items()}
    for row, column in ((0, 0), (3, 3), (1, 3), (3, 0)):
        assert tile_at(state, row, column) is None
    # RULINGS §3: the collected tiles show their eras, in the order they were taken.
    for seat, tiles in enumerate(taken):
        assert ENGINE.view(state, None)["players"][seat]["collected"] == \
            [tile_view(t) for t in tiles]


def test_tiles_under_the_tokens_are_taken_before_the_score():
    state = playing(2, tokens=[((0, 0), (3, 3)), ((0, 3), (3, 0))])
    state["stacks"] = [[], [], [["triceratops", 1, 3]]]
    state["to_act"] = [1]
    for r in range(4):
        for c in range(4):
            put(state, r, c, ["pterodactyl", 1 + (r * 4 + c) % 4, 1 + (r * 4 + c) // 8])
    put(state, 0, 0, ["velociraptor", 1, 1])
    put(state, 3, 3, ["velociraptor", 2, 1])
    state["collections"][0] = {}
    move(state, 1, 0, "S")
    assert ENGINE.status(state) == FINISHED
    assert state["collections"][0] == {"velociraptor": [1, 2]}
    assert ENGINE.result(state)["players"][0]["total"] == 5  # one complete set


def test_the_final_score_equals_the_calculators():
    state, history = play_out(ENGINE, NAMES[:3], seed=5, bot_seed=5)
    assert ENGINE.status(state) == FINISHED
    # The scoresheet rebuilt from the events of the same match: every tile taken, by whom.
    sheet = {"variant": "standard",
             "players": [{"name": name, "tiles": {}} for name in NAMES[:3]]}
    again = ENGINE.setup(NAMES[:3], 5, "standard")
    for seat, action in history:
        for event in ENGINE.act(again, seat, action):
            if event["type"] == "took":
                tiles = sheet["players"][event["seat"]]["tiles"]
                tiles.setdefault(event["dinosaur"], []).append(event["position"])
    assert sum(len(p) for player in sheet["players"] for p in player["tiles"].values()) == \
        sum(len(p) for c in state["collections"] for p in c.values())
    assert ENGINE.result(state) == score(sheet)


def test_a_hand_built_end_scores_like_the_calculator():
    # RULINGS §3: Matteo's Stegosaurus positions 1–4 score 9; eras combine into sets.
    state = playing(2, tokens=[((0, 0), (3, 3)), ((0, 3), (3, 0))])
    state["stacks"] = [[], [], [["triceratops", 1, 3]]]
    state["to_act"] = [1]
    state["collections"] = [{"stegosaurus": [1, 2, 3, 4]},
                            {"velociraptor": [1], "tyrannosaurus": [1, 2, 3, 4, 5, 6]}]
    state["sets"] = [{}, {"tyrannosaurus": 1}]
    put(state, 0, 0, ["brontosaurus", 1, 1])
    put(state, 3, 3, ["brontosaurus", 2, 1])
    put(state, 0, 3, ["velociraptor", 2, 3])
    put(state, 1, 3, ["pterodactyl", 1, 2])
    put(state, 3, 0, ["deinosuchus", 1, 2])
    move(state, 1, 0, "S")
    ENGINE.act(state, 1, {"type": "skip_flip"})  # Otto completed his Velociraptor
    sheet = {"variant": "standard", "players": [
        {"name": "Luca", "tiles": {"stegosaurus": [1, 2, 3, 4], "brontosaurus": [1, 2]}},
        {"name": "Otto", "tiles": {"velociraptor": [1, 2], "tyrannosaurus": [1, 2, 3, 4, 5, 6],
                                   "pterodactyl": [1], "deinosuchus": [1]}},
    ]}
    result = ENGINE.result(state)
    assert result == score(sheet)
    assert [p["total"] for p in result["players"]] == [9 + 4, 5 + 24 + 2 + 1]


# RULINGS §3 and API "Hidden information": only the stack order is hidden, from everyone.

def test_nobody_sees_the_order_of_the_stacks():
    state = ENGINE.setup(NAMES[:3], 77, "standard")
    log = []
    turn = 0
    while ENGINE.status(state) != FINISHED:
        fragments = ENGINE.stack_order_fragments(state)
        for viewer in (None, 0, 1, 2):
            seen = dumps(ENGINE.view(state, viewer)) + dumps(
                [log_entry(ENGINE, e, viewer) for e in log])
            for text in fragments:
                assert text not in seen
        (seat,) = ENGINE.to_act(state)
        legal = ENGINE.legal_actions(state, seat)
        action = legal[turn % len(legal)]
        turn += 1
        events = ENGINE.act(state, seat, action)
        log.append({"seq": len(log) + 1, "seat": seat, "action": action, "events": events})
    assert ENGINE.secrets(state) == {None: []}, "at the end the stacks are empty"


def test_nobody_sees_the_stacks_left_when_a_fourth_dinosaur_ends_the_game():
    # RULINGS §3: "Secret from everyone: the order of the stacks", and stacks may still hold
    # tiles when a fourth dinosaur ends the game.
    state = playing(2)
    state["to_act"] = [1]
    four_dinosaurs_but_one_stegosaurus(state, 1)
    put(state, 3, 1, ["stegosaurus", 3, 1])
    log = [{"seq": 1, "seat": 1, "action": {"type": "move", "token": 0, "direction": "N"},
            "events": move(state, 1, 0, "N")}]
    assert ENGINE.status(state) == FINISHED
    assert [len(stack) for stack in state["stacks"]] == [33 - 16 - 1, 33, 33]
    hidden = ENGINE.secrets(state)[None]
    assert len(hidden) == 3
    for viewer in (None, 0, 1):
        seen = dumps(ENGINE.view(state, viewer)) + dumps(
            [log_entry(ENGINE, e, viewer) for e in log])
        for text in hidden:
            assert text not in seen


def test_every_view_shows_each_players_tiles_with_their_eras():
    # RULINGS §3: "Public: ... each player's collected tiles with their eras".
    state = playing(2, tokens=[((1, 1), (3, 3)), ((3, 0), (2, 3))])
    put(state, 1, 1, ["pterodactyl", 4, 2])
    move(state, 0, 0, "N")
    put(state, 3, 0, ["pterodactyl", 4, 1])
    move(state, 1, 0, "N")
    put(state, 0, 1, ["pterodactyl", 4, 3])
    move(state, 0, 0, "SE")
    for viewer in (None, 0, 1):
        luca, otto = ENGINE.view(state, viewer)["players"]
        assert luca["collection"] == {"pterodactyl": [4, 4]}
        assert luca["collected"] == [
            {"dinosaur": "pterodactyl", "position": 4, "era": 2},
            {"dinosaur": "pterodactyl", "position": 4, "era": 3}]
        assert otto["collected"] == [{"dinosaur": "pterodactyl", "position": 4, "era": 1}]
        assert luca["tiles"] == 2


def test_the_view_shows_grid_tokens_stacks_and_collections():
    state = playing(2, tokens=[((1, 1), (3, 3)), ((3, 0), (2, 3))])
    move(state, 0, 0, "N")
    view = ENGINE.view(state, 1)
    assert view["you"] == 1
    assert [(p["seat"], p["name"]) for p in view["players"]] == [(0, "Luca"), (1, "Otto")]
    assert view["players"][0]["tokens"][0] == {"id": 0, "side": "diagonal", "row": 0,
                                                "column": 1}
    cell = view["grid"]["rows"][0][1]
    assert cell["token"] == {"seat": 0, "id": 0, "side": "diagonal"}
    assert set(cell) == {"dinosaur", "position", "era", "token"}
    assert sum(view["players"][0]["collection"].values(), []) != []
    assert view["stacks"][0]["tiles"] == 33 - 16 - 1
    assert "rng" not in dumps(view) and "stacks\":[[" not in dumps(view)
