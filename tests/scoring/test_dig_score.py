"""DIG end-game points (rulebook "Scoring" and "Tiebreakers", RULINGS §2), pure calculator."""

import pytest

from scoring.dig.score import score
from scoring.results import InvalidScoresheet

RULEBOOK_BOWLS = ["green", "yellow", "purple", "blue", "red"]


def table(*dropped: dict[str, int], bowls: list[str] = RULEBOOK_BOWLS) -> dict:
    """Score players named A, B, C… with the bones each dropped."""
    names = "ABCDEF"
    return score({"bowls": bowls,
                  "players": [{"name": names[i], "dropped": d} for i, d in enumerate(dropped)]})


def test_ann_scores_29():
    # rulebook "Scoring Example": bowls green, yellow, purple, blue, red from the Doghouse.
    ann = score({"bowls": RULEBOOK_BOWLS, "players": [
        {"name": "Ann", "dropped": {"green": 2, "yellow": 1, "purple": 3, "blue": 2, "red": 2}}]})
    player = ann["players"][0]
    assert {colour: (c["bones"], c["points"]) for colour, c in player["breakdown"].items()} == {
        "green": (2, 10), "yellow": (1, 4), "purple": (3, 9), "blue": (2, 4), "red": (2, 2)}
    assert player["total"] == 29
    assert ann["winners"] == ["Ann"]


@pytest.mark.parametrize(("place", "points"), [(0, 5), (1, 4), (2, 3), (3, 2), (4, 1)])
def test_bowl_nearest_the_doghouse_scores_five_then_four_three_two_one(place, points):
    bowls = ["red", "blue", "green", "purple", "yellow"]  # not the rulebook's order on purpose
    colour = bowls[place]
    result = table({colour: 3}, bowls=bowls)["players"][0]
    assert result["total"] == 3 * points
    assert result["breakdown"][colour] == {"bones": 3, "value": points, "points": 3 * points}


def test_every_colour_is_in_the_breakdown_even_without_bones():
    breakdown = table({"red": 1})["players"][0]["breakdown"]
    assert set(breakdown) == set(RULEBOOK_BOWLS)
    assert breakdown["green"] == {"bones": 0, "value": 5, "points": 0}


def test_no_bones_dropped_scores_zero():
    assert table({})["players"][0]["total"] == 0


def test_the_most_points_win():
    result = table({"green": 1}, {"red": 4})
    assert [p["total"] for p in result["players"]] == [5, 4]
    assert [p["rank"] for p in result["players"]] == [1, 2]
    assert result["winners"] == ["A"]
    assert result["tie_break"] is None  # decided on points, not by the tie-break


# --- tie-break: most 5-point bones, then 4-point, … ----------------------------------------------

@pytest.mark.parametrize(("winner", "loser", "decided_by"), [
    ({"green": 2}, {"yellow": 1, "purple": 2}, "5-point"),                      # 10 each
    ({"green": 1, "yellow": 1, "red": 1}, {"green": 1, "purple": 1, "blue": 1}, "4-point"),
    ({"purple": 1, "red": 1}, {"blue": 2}, "3-point"),                         # 4 each
    ({"blue": 1}, {"red": 2}, "2-point"),                                       # 2 each
])
def test_tie_is_broken_by_bones_of_the_highest_value(winner, loser, decided_by):
    for order in ((winner, loser), (loser, winner)):
        result = table(*order)
        a, b = result["players"]
        assert a["total"] == b["total"]
        winning = "A" if order[0] is winner else "B"
        assert result["winners"] == [winning]
        assert {p["name"]: p["rank"] for p in result["players"]} == {
            winning: 1, ("B" if winning == "A" else "A"): 2}
        assert result["tie_break"]["rule"].startswith("Most 5-point bones")
        assert "A" in result["tie_break"]["explanation"]
        assert "B" in result["tie_break"]["explanation"]


def test_tie_on_every_bowl_is_a_shared_win():
    result = table({"green": 1, "red": 2}, {"green": 1, "red": 2})
    assert [p["rank"] for p in result["players"]] == [1, 1]
    assert result["winners"] == ["A", "B"]
    assert result["tie_break"] is None  # the tie-break decided nothing


def test_shared_win_then_third_place():
    # A and C tie on everything; B has their total but fewer 5-point bones.
    result = table({"green": 2}, {"yellow": 1, "purple": 2}, {"green": 2})
    assert [p["rank"] for p in result["players"]] == [1, 3, 1]
    assert result["winners"] == ["A", "C"]
    assert result["tie_break"] is not None


def test_tie_break_among_lower_places_is_explained_too():
    # A wins on points; B and C tie on 4 and B has the 3-point bone.
    result = table({"green": 1}, {"purple": 1, "red": 1}, {"blue": 2})
    assert [p["rank"] for p in result["players"]] == [1, 2, 3]
    assert result["winners"] == ["A"]
    assert "B, C tied on 4" in result["tie_break"]["explanation"]


def test_each_tie_broken_is_a_sentence_of_its_own():
    # C and D tie on 15, A and B on 4: the first group's figures ran into the second's names
    result = table({"green": 3}, {"purple": 3, "blue": 3}, {"yellow": 1}, {"red": 4})
    assert result["tie_break"]["explanation"] == (
        "A, B tied on 15. A: 3×5, 0×4, 0×3, 0×2, 0×1; B: 0×5, 0×4, 3×3, 3×2, 0×1. "
        "C, D tied on 4. C: 0×5, 1×4, 0×3, 0×2, 0×1; D: 0×5, 0×4, 0×3, 0×2, 4×1.")


def changed_box_table(points: list[int], *dropped: dict[str, int]) -> dict:
    """Score players A, B… with a box (a study's) whose bowls are worth `points`, nearest the
    Doghouse first."""
    from scoring.dig.box import DEFAULT
    from scoring.dig.score import Calculator

    calculator = Calculator(DEFAULT.changed({"BOWL_POINTS": points}))
    return calculator.score({"bowls": RULEBOOK_BOWLS, "players": [
        {"name": "AB"[i], "dropped": d} for i, d in enumerate(dropped)]})


def test_a_tie_compares_bones_by_point_value_even_where_far_bowls_are_worth_less():
    # Rulebook "Tiebreakers": "most 5-point Bones … then 4-point": by value, not by bowl. With
    # bowls worth 1 … 5 from the Doghouse, B's one 4-point bone beats A's four 1-point ones;
    # the bowls' order gave A the win.
    result = changed_box_table([1, 2, 3, 4, 5], {"green": 4}, {"blue": 1})
    assert [p["total"] for p in result["players"]] == [4, 4]
    assert result["winners"] == ["B"]
    assert result["tie_break"]["rule"] == ("Most 5-point bones, then 4-point, 3-point, "
                                           "2-point, 1-point.")


def test_bones_of_bowls_worth_the_same_are_counted_together_in_a_tie():
    # Two 5-point bowls: a 5-point bone and a 1-point bone each is a tie on every value.
    result = changed_box_table([5, 5, 3, 2, 1], {"green": 1, "red": 1}, {"yellow": 1, "red": 1})
    assert result["winners"] == ["A", "B"]
    assert [p["rank"] for p in result["players"]] == [1, 1]


# --- what the box cannot hold --------------------------------------------------------------------

def test_four_bones_of_a_colour_may_be_dropped_in_all():
    result = table({"purple": 2}, {"purple": 1}, {"purple": 1})
    assert [p["total"] for p in result["players"]] == [6, 3, 3]


def test_five_bones_of_a_colour_in_all_are_refused():
    with pytest.raises(InvalidScoresheet) as refused:
        table({"purple": 2}, {"purple": 2}, {"purple": 1})
    assert "purple" in refused.value.errors["players"][0]


@pytest.mark.parametrize("bowls", [
    ["green", "green", "purple", "blue", "red"],
    ["green", "yellow", "purple", "blue"],
])
def test_bowls_must_list_each_colour_once(bowls):
    with pytest.raises(InvalidScoresheet) as refused:
        table({"red": 1}, bowls=bowls)
    assert "bowls" in refused.value.errors


def test_the_result_names_the_variant_the_sheet_names_else_the_default():
    sheet = {"bowls": ["green", "yellow", "purple", "blue", "red"], "players": [{"name": "Ann"}]}
    # the default where the sheet names none, as the server's answer (and so the phone's) does
    assert score(sheet)["variant"] == "standard"
    result = score({"variant": "standard", **sheet})
    assert list(result)[:3] == ["game", "variant", "players"] and result["variant"] == "standard"
