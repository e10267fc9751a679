"""Digging for Dinos end-game points (rulebook "Scoring" and "End Game", RULINGS §3), on the pure
calculator."""

import pytest

from scoring.dinos.score import score
from scoring.results import InvalidScoresheet


def table(*collections: dict[str, list[int]], roster: list[dict] | None = None) -> dict:
    """Score players named A, B, C… with the tiles each collected."""
    sheet: dict = {"players": [{"name": "ABCDEF"[i], "tiles": tiles}
                               for i, tiles in enumerate(collections)]}
    if roster is not None:
        sheet["roster"] = roster
    return score(sheet)


def one(tiles: dict[str, list[int]], roster: list[dict] | None = None) -> dict:
    return table(tiles, roster=roster)["players"][0]


def refused(*collections: dict[str, list[int]], roster: list[dict] | None = None) -> dict:
    with pytest.raises(InvalidScoresheet) as error:
        table(*collections, roster=roster)
    return error.value.errors


def test_matteo_stegosaurus_scores_9_then_17():
    # rulebook: 4 of the 5 Stegosaurus tiles score 9; all five make a complete dinosaur of 17.
    four = one({"stegosaurus": [1, 2, 3, 4]})
    assert four["breakdown"] == {"completed": [], "loose": 9}
    assert four["total"] == 9
    five = one({"stegosaurus": [1, 2, 3, 4, 5]})
    assert five["breakdown"] == {"completed": [{"dinosaur": "stegosaurus", "value": 17}],
                                 "loose": 0}
    assert five["total"] == 17


@pytest.mark.parametrize(("dinosaur", "size", "set_value", "left_hand"), [
    ("velociraptor", 2, 5, [1, 1]),
    ("deinosuchus", 2, 5, [1, 1]),
    ("pterodactyl", 4, 12, [2, 2, 2, 2]),
    ("stegosaurus", 5, 17, [2, 2, 3, 2, 2]),
    ("triceratops", 6, 20, [2] * 6),
    ("tyrannosaurus", 6, 24, [3, 2, 2, 2, 2, 3]),
    ("brontosaurus", 8, 30, [2] * 8),
])
def test_each_dinosaur_scores_its_set_value_when_complete(dinosaur, size, set_value, left_hand):
    assert one({dinosaur: list(range(1, size + 1))})["total"] == set_value
    # one tile short: every tile scores its left-hand number
    for missing in range(1, size + 1):
        held = [p for p in range(1, size + 1) if p != missing]
        expected = sum(left_hand) - left_hand[missing - 1]
        assert one({dinosaur: held})["breakdown"] == {"completed": [], "loose": expected}


def test_complete_sets_are_the_least_count_over_positions():
    # positions 1, 2, 3 twice and 4 once: one complete Pterodactyl, three tiles left over.
    ptero = one({"pterodactyl": [1, 1, 2, 2, 3, 3, 4]})
    assert ptero["breakdown"] == {"completed": [{"dinosaur": "pterodactyl", "value": 12}],
                                  "loose": 6}
    assert ptero["total"] == 18


def test_velociraptor_from_the_api_example_is_one_set_and_a_spare():
    assert one({"velociraptor": [1, 2, 2]})["breakdown"] == {
        "completed": [{"dinosaur": "velociraptor", "value": 5}], "loose": 1}


def test_several_sets_of_one_dinosaur():
    raptors = one({"velociraptor": [1, 2, 1, 2, 1, 2]})
    assert raptors["breakdown"] == {"completed": [{"dinosaur": "velociraptor", "value": 5}] * 3,
                                    "loose": 0}
    assert raptors["total"] == 15
    trex = one({"tyrannosaurus": [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1]})
    assert trex["total"] == 24 + 24 + 3


def test_tiles_of_different_eras_combine_in_any_order():
    # one tile from each era, collected in whatever order the dig gave them
    assert one({"stegosaurus": [5, 3, 1, 4, 2]})["total"] == 17


def test_sets_of_different_dinosaurs_add_up():
    result = one({"stegosaurus": [1, 2, 3, 4, 5], "deinosuchus": [1, 2], "brontosaurus": [1, 8]})
    assert sorted(c["value"] for c in result["breakdown"]["completed"]) == [5, 17]
    assert result["breakdown"]["loose"] == 4
    assert result["total"] == 26


def test_empty_collection_scores_zero():
    assert one({})["total"] == 0
    assert one({"triceratops": []})["total"] == 0


# --- roster override -----------------------------------------------------------------------------

SMALL_ROSTER = [
    {"id": "stegosaurus", "name": "Stegosaurus", "values": [1, 1, 4], "set_value": 10},
    {"id": "nessie", "name": "Nessie", "values": [5], "set_value": 7},
]


def test_roster_override_replaces_the_box_values():
    assert one({"stegosaurus": [1, 2, 3]}, roster=SMALL_ROSTER)["total"] == 10
    assert one({"stegosaurus": [1, 3]}, roster=SMALL_ROSTER)["total"] == 5
    assert one({"nessie": [1, 1]}, roster=SMALL_ROSTER)["total"] == 14


def test_roster_override_sets_the_positions_a_dinosaur_has():
    errors = refused({"stegosaurus": [4]}, roster=SMALL_ROSTER)
    assert "players.0.tiles.stegosaurus.0" in errors


def test_roster_override_drops_the_box_dinosaurs_it_leaves_out():
    errors = refused({"brontosaurus": [1]}, roster=SMALL_ROSTER)
    assert "players.0.tiles.brontosaurus" in errors


# --- tie-break: the largest completed dinosaur, then the next ------------------------------------

def test_tie_is_broken_by_the_largest_completed_dinosaur():
    # 24 each: A a Tyrannosaurus, B a Stegosaurus plus seven points of loose tiles.
    result = table({"tyrannosaurus": [1, 2, 3, 4, 5, 6]},
                   {"stegosaurus": [1, 2, 3, 4, 5], "pterodactyl": [1, 2, 3], "velociraptor": [1]})
    assert [p["total"] for p in result["players"]] == [24, 24]
    assert [p["rank"] for p in result["players"]] == [1, 2]
    assert result["winners"] == ["A"]
    assert result["tie_break"]["rule"].startswith("The largest completed dinosaur")


def test_tie_then_broken_by_the_second_largest_completed_dinosaur():
    # 29 each, both with a Tyrannosaurus; only B completed a second dinosaur.
    result = table({"tyrannosaurus": [1, 2, 3, 4, 5, 6], "pterodactyl": [1, 2],
                    "deinosuchus": [1]},
                   {"tyrannosaurus": [1, 2, 3, 4, 5, 6], "velociraptor": [1, 2]})
    assert [p["total"] for p in result["players"]] == [29, 29]
    assert [p["rank"] for p in result["players"]] == [2, 1]
    assert result["winners"] == ["B"]


def test_tie_with_equal_completed_dinosaurs_is_a_shared_win():
    result = table({"stegosaurus": [1, 2, 3, 4, 5], "velociraptor": [1]},
                   {"stegosaurus": [1, 2, 3, 4, 5], "deinosuchus": [2]},
                   {"pterodactyl": [1, 2, 3, 4]})
    assert [p["total"] for p in result["players"]] == [18, 18, 12]
    assert [p["rank"] for p in result["players"]] == [1, 1, 3]
    assert result["winners"] == ["A", "B"]
    assert result["tie_break"] is None


def test_tie_without_completed_dinosaurs_is_a_shared_win():
    result = table({"brontosaurus": [1, 2]}, {"triceratops": [3, 4]})
    assert result["winners"] == ["A", "B"]
    assert result["tie_break"] is None


# --- what the box cannot hold --------------------------------------------------------------------

def test_three_tiles_of_one_position_may_be_held_one_per_era():
    result = table({"velociraptor": [1, 1]}, {"velociraptor": [1, 2]})
    assert [p["total"] for p in result["players"]] == [2, 5]


def test_four_tiles_of_one_position_in_all_are_refused():
    errors = refused({"velociraptor": [1, 1]}, {"velociraptor": [1, 1]})
    assert "Velociraptor 1" in errors["players"][0]
    assert "players" in refused({"brontosaurus": [8, 8, 8, 8]})


@pytest.mark.parametrize(("dinosaur", "position"), [("stegosaurus", 6), ("velociraptor", 3),
                                                    ("brontosaurus", 9)])
def test_positions_beyond_the_dinosaur_are_refused(dinosaur, position):
    errors = refused({dinosaur: [1, position]})
    assert f"players.0.tiles.{dinosaur}.1" in errors


def test_unknown_dinosaur_is_refused():
    assert "players.0.tiles.diplodocus" in refused({"diplodocus": [1]})


def test_the_result_names_the_variant_the_sheet_names_else_the_default():
    sheet = {"players": [{"name": "Matteo", "tiles": {"stegosaurus": [1, 2]}}]}
    # the default where the sheet names none, as the server's answer (and so the phone's) does
    assert score(sheet)["variant"] == "standard"
    result = score({"variant": "standard", **sheet})
    assert list(result)[:3] == ["game", "variant", "players"] and result["variant"] == "standard"


# Rulebook "End Game": "If a player completes their fourth dinosaur, proceed to End Game"; the
# players yet to take their turn that round take one more, then all collect the tiles under their
# two paleontologists. Each tile completes one dinosaur at most: no one ends with more than six
# (the others held three at most when the fourth was completed). Seven were totalled, and won.
def test_no_player_completes_more_than_six_dinosaurs():
    six = {"velociraptor": [1, 2, 1, 2, 1, 2], "deinosuchus": [1, 2, 1, 2, 1, 2]}
    assert table(six, {})["players"][0]["total"] == 6 * 5
    seven = {**six, "pterodactyl": [1, 2, 3, 4]}
    assert refused(seven, {}) == {"players.0.tiles": [
        "These tiles complete 7 dinosaurs, but no one completes more than 6: the game ends once a "
        "player completes their 4th, after which each player takes at most one more turn and "
        "then the tiles under their paleontologists."]}
