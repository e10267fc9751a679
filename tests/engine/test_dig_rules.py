"""DIG's turn engine against its rulebook (rules/dig.rulebook.txt) and RULINGS §2.

Each test builds its position by editing a fresh set-up state: the yard is a list of card numbers
from position 1 outward (None for a gap), cards 0…19 being box.bone_cards() in order and 20…24 the
bowls in box.COLOURS order.
"""

import copy
import json

import pytest

from scoring.dig import box
from scoring.dig.engine import DigGame
from scoring.dig.score import score
from scoring.engine import FINISHED, PLAYING, IllegalAction, log_entry
from scoring.moves import article

BONE_CARDS = box.bone_cards()
ENGINE = DigGame()
FIRST_BOWL = ENGINE.first_bowl


def bone(colour: str, other: str) -> int:
    """The card with a `colour` bone under the scent {colour, other}."""
    for number, card in enumerate(BONE_CARDS):
        if card["bone"] == colour and set(card["scent"]) == {colour, other}:
            return number
    raise LookupError((colour, other))


def bowl(colour: str) -> int:
    return FIRST_BOWL + box.COLOURS.index(colour)


def all_bones_except(*used: int) -> list[int]:
    return [n for n in range(FIRST_BOWL) if n not in used]


def fresh(players=("Ann", "Bob")) -> dict:
    return ENGINE.setup(list(players), 1, "standard")


def moves(state, seat=0) -> list[int]:
    return [a["to"] for a in ENGINE.legal_actions(state, seat) if a["type"] == "move"]


def types(state, seat=0) -> list[str]:
    return [a["type"] for a in ENGINE.legal_actions(state, seat)]


def play(state, seat, *actions) -> None:
    for action in actions:
        ENGINE.act(state, seat, action)


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def refused(state, action, seat=0) -> str:
    before = json.dumps(state)
    with pytest.raises(IllegalAction) as exc:
        ENGINE.act(state, seat, action)
    assert json.dumps(state) == before
    return str(exc.value)


# Set-up


def test_setup_shuffles_20_bones_and_5_bowls_into_the_yard_dogs_at_the_doghouse():
    # rulebook "Setup" 3–5; RULINGS: the Doghouse is position 0, where all dogs start.
    state = fresh(("Ann", "Bob", "Cy"))
    view = ENGINE.view(state, None)
    assert len(view["yard"]) == 25
    assert sorted(c["colour"] for c in view["yard"] if c["kind"] == "bowl") == sorted(box.COLOURS)
    bones = [c for c in view["yard"] if c["kind"] == "bone"]
    assert len(bones) == 20 and all(set(c) == {"kind", "scent"} for c in bones)
    # rulebook "Bone Cards and Scents": 2 cards for each combination of scent colours.
    scents = sorted(tuple(sorted(c["scent"])) for c in bones)
    assert scents == sorted(tuple(sorted(p)) for p in box.SCENT_PAIRS for _ in range(2))
    assert [p["dog"] for p in view["players"]] == [0, 0, 0]
    # RULINGS: turn order is the seat order given at creation.
    assert ENGINE.to_act(state) == [0] and view["actions_left"] == 3


def test_two_to_four_players_and_only_the_standard_game():
    for players in (["Ann"], ["A", "B", "C", "D", "E"]):
        with pytest.raises(IllegalAction):
            ENGINE.setup(players, 1, "standard")
    with pytest.raises(IllegalAction):
        ENGINE.setup(["Ann", "Bob"], 1, "small")


# Move


@pytest.mark.parametrize("held, reach", [(0, 4), (1, 3), (2, 2), (3, 1)])
def test_movement_table_4_3_2_1_cards_by_bones_in_hand(held, reach):
    # rulebook "Move": Bones in Hand 0 → 4 cards, 1 → 3, 2 → 2, 3 → 1.
    state = fresh()
    state["hands"][0] = [bone("red", "blue"), bone("green", "blue"), bone("purple", "blue")][:held]
    state["dogs"][0] = 10
    assert moves(state) == [p for p in range(10 - reach, 10 + reach + 1) if p != 10]
    refused(state, {"type": "move", "to": 10 + reach + 1})
    assert refused(state, {"type": "move", "to": 10 - reach - 1}).endswith(
        f"moves at most {reach} card{'' if reach == 1 else 's'}.")
    ENGINE.act(state, 0, {"type": "move", "to": 10 + reach})
    assert state["dogs"][0] == 10 + reach


def test_a_dog_moves_toward_or_away_from_the_doghouse():
    # rulebook "Move": you may move toward or away from the Doghouse.
    state = fresh()
    ENGINE.act(state, 0, {"type": "move", "to": 4})
    ENGINE.act(state, 0, {"type": "move", "to": 1})
    ENGINE.act(state, 0, {"type": "move", "to": 0})  # RULINGS: dogs may return to the Doghouse
    assert state["dogs"][0] == 0


def test_no_move_past_the_doghouse_or_the_last_card():
    # RULINGS: a move stays within 0 … last position.
    state = fresh()
    state["dogs"][0] = 1
    assert moves(state) == [0, 2, 3, 4, 5]
    refused(state, {"type": "move", "to": -1})
    state["dogs"][0] = 24
    assert moves(state) == [20, 21, 22, 23, 25]
    assert "from 0 to 25" in refused(state, {"type": "move", "to": 26})
    state["yard"] = state["yard"][:20]
    state["dogs"][0] = 19
    assert "position 20" in refused(state, {"type": "move", "to": 21})


def test_gaps_count_as_positions_and_a_dog_may_stop_on_one():
    # RULINGS: distance counts positions, gaps included; a dog may stop on a gap.
    state = fresh()
    state["yard"][1] = state["yard"][2] = None
    state["dogs"][0] = 1
    assert moves(state) == [0, 2, 3, 4, 5]
    ENGINE.act(state, 0, {"type": "move", "to": 3})
    assert state["dogs"][0] == 3
    assert ENGINE.view(state, None)["yard"][2] is None


def test_several_dogs_may_share_a_card():
    # rulebook "Move": multiple Dogs may occupy the same Yard card.
    state = fresh()
    state["dogs"][1] = 3
    ENGINE.act(state, 0, {"type": "move", "to": 3})
    assert state["dogs"] == [3, 3]


def test_a_move_is_a_whole_number_with_nothing_else():
    state = fresh()
    for action in ({"type": "move", "to": True}, {"type": "move", "to": "3"},
                   {"type": "move", "to": 2.0}, {"type": "move"},
                   {"type": "move", "to": 2, "from": 0}, {"type": "move", "to": 0}):
        refused(state, action)


# Dig and put back


def yard_with(state, position: int, card: int) -> None:
    """Put `card` at `position`, swapping it with the card that held it."""
    yard = state["yard"]
    where = yard.index(card)
    yard[where], yard[position - 1] = yard[position - 1], card


def test_dig_takes_the_bone_then_put_back_or_keep_without_an_action():
    # rulebook "Dig" and "Replacing a Dug Bone": take the card; then you may replace it.
    state = fresh()
    card = bone("yellow", "red")
    yard_with(state, 2, card)
    state["dogs"][0] = 2
    events = ENGINE.act(state, 0, {"type": "dig"})
    assert state["hands"][0] == [card] and state["yard"][1] is None
    assert events[0] == {"type": "dug", "seat": 0, "position": 2, "scent": ["yellow", "red"]}
    assert ENGINE.legal_actions(state, 0) == [{"type": "put_back", "card": 0}, {"type": "keep"}]
    assert "put a bone back" in refused(state, {"type": "move", "to": 1})
    ENGINE.act(state, 0, {"type": "keep"})
    assert state["actions_left"] == 2 and state["hands"][0] == [card]
    assert "move" in types(state)


def test_with_three_bones_in_hand_the_dug_card_must_be_replaced():
    # rulebook: "If you already had 3 Bones in hand when you performed the Dig action, you must
    # immediately replace the dug card with a Bone from your hand."
    state = fresh()
    held = [bone("red", "blue"), bone("green", "blue"), bone("purple", "blue")]
    dug = bone("yellow", "red")
    state["hands"][0] = list(held)
    yard_with(state, 1, dug)
    state["dogs"][0] = 1
    ENGINE.act(state, 0, {"type": "dig"})
    assert ENGINE.legal_actions(state, 0) == [{"type": "put_back", "card": i} for i in range(4)]
    assert ENGINE.view(state, 1)["put_back"] == {"position": 1, "required": True}
    assert "at most 3" in refused(state, {"type": "keep"})
    ENGINE.act(state, 0, {"type": "put_back", "card": 1})
    assert state["yard"][0] == held[1]
    assert state["hands"][0] == [held[0], held[2], dug]
    assert state["actions_left"] == 2  # rulebook: the put-back is part of the Dig


def test_digging_and_putting_back_the_same_card_is_a_peek():
    # RULINGS: digging and putting the same card back is legal (it peeks, at the cost of an action).
    state = fresh()
    card = bone("green", "purple")
    yard_with(state, 3, card)
    state["dogs"][0] = 3
    ENGINE.act(state, 0, {"type": "dig"})
    ENGINE.act(state, 0, {"type": "put_back", "card": 0})
    assert state["yard"][2] == card and state["hands"][0] == []
    assert state["actions_left"] == 2
    mine, theirs = ENGINE.view(state, 0)["yard"][2], ENGINE.view(state, 1)["yard"][2]
    assert mine == {"kind": "bone", "scent": ["green", "purple"], "known_bone": "green"}
    assert theirs == {"kind": "bone", "scent": ["green", "purple"]}
    assert ENGINE.view(state, None)["yard"][2] == theirs


def test_only_a_bone_card_can_be_dug():
    # rulebook "Dig": Dog Bowl cards and the Doghouse cannot be dug.
    state = fresh()
    assert "dig" not in types(state)
    assert "Doghouse" in refused(state, {"type": "dig"})
    yard_with(state, 2, bowl("blue"))
    state["dogs"][0] = 2
    assert "dig" not in types(state)
    assert "Bowl" in refused(state, {"type": "dig"})
    state["yard"][2] = None
    state["dogs"][0] = 3
    assert "no card" in refused(state, {"type": "dig"})


def test_put_back_only_right_after_a_dig_and_only_a_card_in_hand():
    state = fresh()
    state["hands"][0] = [bone("red", "blue")]
    refused(state, {"type": "put_back", "card": 0})
    refused(state, {"type": "keep"})
    yard_with(state, 1, bone("blue", "red"))
    state["dogs"][0] = 1
    ENGINE.act(state, 0, {"type": "dig"})
    for card in (2, -1, "0", None, False):
        refused(state, {"type": "put_back", "card": card})


def test_the_log_does_not_say_which_card_went_back():
    # rulebook: bones in hand remain secret; the put-back card shows only its scent.
    state = fresh()
    state["hands"][0] = [bone("red", "blue")]
    yard_with(state, 1, bone("green", "red"))
    state["dogs"][0] = 1
    ENGINE.act(state, 0, {"type": "dig"})
    action = {"type": "put_back", "card": 0}
    events = ENGINE.act(state, 0, action)
    entry = {"seq": 1, "seat": 0, "action": action, "events": events}
    seen = log_entry(ENGINE, entry, 1)
    assert seen["action"] == {"type": "put_back"}
    assert seen["events"] == [{"type": "put_back", "seat": 0, "position": 1,
                               "scent": ["blue", "red"]}]
    assert log_entry(ENGINE, entry, 0)["events"][1] == {"type": "buried", "bone": "red"}


# Drop


def green_bowl_with_two_greens_and_a_red() -> tuple[dict, list[int]]:
    """Ann on the green bowl (position 1) holding green/red (green bone), red/blue (red bone)
    and green/blue (green bone), in that order; the yellow bowl at 2, a bone card at 3."""
    state = fresh()
    hand = [bone("green", "red"), bone("red", "blue"), bone("green", "blue")]
    state["hands"][0] = list(hand)
    yard_with(state, 1, bowl("green"))
    yard_with(state, 2, bowl("yellow"))
    yard_with(state, 3, bone("purple", "red"))
    state["dogs"][0] = 1
    return state, hand


def test_drop_only_matching_bones_at_a_matching_bowl():
    # rulebook "Drop": select one or more Bones matching the colour of the Dog Bowl; you cannot
    # drop at a Dog Bowl of a different colour.
    state, hand = green_bowl_with_two_greens_and_a_red()
    assert refused(state, {"type": "drop", "cards": [0, 1]}) == (
        "Card 1 of your hand is not a green bone.")
    state["dogs"][0] = 2
    assert "drop" not in types(state)
    assert "no yellow bone" in refused(state, {"type": "drop", "cards": [1]})
    state["dogs"][0] = 3
    assert "not on one" in refused(state, {"type": "drop", "cards": [0]})
    state["dogs"][0] = 1
    ENGINE.act(state, 0, {"type": "drop", "cards": [0]})
    assert state["hands"][0] == hand[1:]
    assert ENGINE.view(state, 1)["players"][0]["dropped"]["green"] == 1


def test_a_drop_names_the_bones_it_drops_and_every_choice_is_listed():
    # rulebook "Drop": "Select one or more Bones from your hand that match the color of the Dog
    # Bowl" (RULINGS: which ones is the player's choice, so which scents stay in hand is too).
    state, hand = green_bowl_with_two_greens_and_a_red()
    assert [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "drop"] == [
        {"type": "drop", "cards": [0]}, {"type": "drop", "cards": [2]},
        {"type": "drop", "cards": [0, 2]}]
    events = ENGINE.act(state, 0, {"type": "drop", "cards": [2]})
    assert state["hands"][0] == hand[:2]  # the green/red card stays in hand
    # RULINGS: dropped face up, and the scents were on the table: the event names them.
    assert events == [{"type": "dropped", "seat": 0, "colour": "green", "count": 1,
                       "scents": [["green", "blue"]]}]
    # The box's order of scent pairs, whatever the hand's order.
    assert ENGINE.view(state, None)["players"][0]["hand_scents"] == [["green", "red"],
                                                                     ["blue", "red"]]


def test_a_drop_names_different_cards_of_the_hand():
    # rulebook "Drop": "Select one or more Bones from your hand": each card once, 1 to 3 of them.
    state, _ = green_bowl_with_two_greens_and_a_red()
    wording = ("In a 'drop' action, 'cards' is a list of 1 to 3 different whole numbers "
               "from 0 to 2.")
    for cards in ([], [0, 0], [3], [-1], [0, 1, 2, 0], 0, [True], ["0"], [0.0], None, [[0]]):
        assert refused(state, {"type": "drop", "cards": cards}) == wording
    assert refused(state, {"type": "drop"}).startswith("A 'drop' action needs 'cards': a list")
    state["hands"][0] = state["hands"][0][:2]
    assert refused(state, {"type": "drop", "cards": [0, 2]}) == "Your hand has cards 0 to 1."


def test_the_log_shows_the_dropped_scents_but_not_the_hand_places():
    # RULINGS: a hand's cards are seen by scent only; the hand's order is its owner's.
    state, _ = green_bowl_with_two_greens_and_a_red()
    action = {"type": "drop", "cards": [0, 2]}
    events = ENGINE.act(state, 0, dict(action))
    entry = {"seq": 1, "seat": 0, "action": action, "events": events}
    for viewer in (1, None):
        assert log_entry(ENGINE, entry, viewer)["action"] == {"type": "drop"}
    assert log_entry(ENGINE, entry, 0)["action"] == action
    assert events[0]["scents"] == [["green", "blue"], ["green", "red"]]


def test_two_purple_bones_dropped_with_one_action():
    # rulebook "Drop" example: on the Purple Dog Bowl with 2 Purple Bones, drop both in 1 action.
    state = fresh()
    state["hands"][0] = [bone("purple", "red"), bone("purple", "green")]
    yard_with(state, 2, bowl("purple"))
    state["dogs"][0] = 2
    ENGINE.act(state, 0, {"type": "drop", "cards": [0, 1]})
    assert state["hands"][0] == [] and state["dropped"][0][box.COLOURS.index("purple")] == 2
    assert state["actions_left"] == 2
    # rulebook: dropping bones can increase your movement range.
    assert moves(state) == [0, 1, 3, 4, 5, 6]


# The turn


def test_up_to_three_actions_then_end_turn():
    # rulebook "Gameplay": on your turn you may perform up to 3 actions.
    state = fresh()
    for to in (1, 2, 3):
        ENGINE.act(state, 0, {"type": "move", "to": to})
    assert ENGINE.legal_actions(state, 0) == [{"type": "end_turn"}]
    assert "all 3 actions" in refused(state, {"type": "move", "to": 4})
    ENGINE.act(state, 0, {"type": "end_turn"})
    assert ENGINE.to_act(state) == [1] and state["actions_left"] == 3


def test_a_player_may_end_the_turn_early_and_the_turn_passes_in_seat_order():
    state = fresh(("Ann", "Bob", "Cy"))
    for seat in (0, 1, 2, 0):
        assert ENGINE.to_act(state) == [seat]
        assert ENGINE.legal_actions(state, (seat + 1) % 3) == []
        ENGINE.act(state, seat, {"type": "end_turn"})


# Resetting the yard


def test_reset_fills_the_nearest_gap_first_with_the_farthest_card():
    # rulebook "Resetting the Yard": resolve the empty space closest to the Doghouse first, moving
    # the Yard card farthest from the Doghouse into it.
    state = fresh()
    yard = list(range(12)) + [bowl(c) for c in box.COLOURS]  # 17 cards
    yard[2] = yard[6] = None  # gaps at positions 3 and 7
    state["yard"] = yard
    events = ENGINE.act(state, 0, {"type": "end_turn"})
    assert state["yard"] == [0, 1, bowl("red"), 3, 4, 5, bowl("blue"), 7, 8, 9, 10, 11,
                             bowl("green"), bowl("yellow"), bowl("purple")]
    assert events[0] == {"type": "yard_reset", "slid": [],
                         "filled": [{"from": 17, "to": 3}, {"from": 16, "to": 7}]}


def test_a_gap_at_the_far_end_is_simply_removed():
    # rulebook: "An empty space at the far end of the Yard does not need to be filled."
    state = fresh()
    yard = [bowl(c) for c in box.COLOURS] + [0, 1, 2, None, 4, None, None]
    state["yard"] = yard
    ENGINE.act(state, 0, {"type": "end_turn"})
    # The far-end gaps go; the remaining gap takes the farthest card (4).
    assert state["yard"] == [bowl(c) for c in box.COLOURS] + [0, 1, 2, 4]


def test_the_yard_keeps_its_gaps_until_the_end_of_the_turn():
    # rulebook: gaps are resolved at the end of the current player's turn.
    state = fresh()
    yard_with(state, 1, bone("red", "green"))
    state["dogs"][0] = 1
    ENGINE.act(state, 0, {"type": "dig"})
    ENGINE.act(state, 0, {"type": "keep"})
    ENGINE.act(state, 0, {"type": "move", "to": 2})
    assert state["yard"][0] is None and len(state["yard"]) == 25
    ENGINE.act(state, 0, {"type": "end_turn"})
    assert None not in state["yard"] and len(state["yard"]) == 24


def test_a_dog_on_the_moved_last_card_slides_to_the_new_end_and_others_stay():
    # rulebook "Moving Dogs During a Yard Reset"; RULINGS: a dog now past the end slides to the
    # new last card; other dogs stay where they are.
    state = fresh(("Ann", "Bob", "Cy", "Dee"))
    yard = [bowl(c) for c in box.COLOURS] + [0, 1, 2, 3, 4]  # 10 cards
    yard[5] = None  # a gap at position 6
    state["yard"] = yard
    state["dogs"] = [10, 6, 9, 0]
    events = ENGINE.act(state, 0, {"type": "end_turn"})
    assert state["yard"][5] == 4 and len(state["yard"]) == 9
    assert state["dogs"] == [9, 6, 9, 0]  # Ann slid; Bob now stands on the moved card
    assert events[0]["slid"] == [0]


def test_a_dog_past_a_removed_far_gap_slides_back():
    state = fresh()
    state["yard"] = [bowl(c) for c in box.COLOURS] + [0, None, None]
    state["dogs"] = [8, 7]
    ENGINE.act(state, 0, {"type": "end_turn"})
    assert state["yard"] == [bowl(c) for c in box.COLOURS] + [0]
    assert state["dogs"] == [6, 6]


# The end


def test_the_game_ends_right_after_the_turn_in_which_only_bowls_remain():
    # rulebook "Game End": the game ends immediately after the turn in which only the 5 Dog Bowl
    # cards remain in the Yard.
    state = fresh()
    last = bone("blue", "green")
    state["yard"] = [bowl(c) for c in box.COLOURS] + [last]
    state["hands"][0] = [bone("yellow", "green")]
    state["dogs"][0] = 5
    ENGINE.act(state, 0, {"type": "move", "to": 6})
    ENGINE.act(state, 0, {"type": "dig"})
    ENGINE.act(state, 0, {"type": "keep"})
    # Only bowls remain, but the turn goes on: the last action may still be taken.
    assert ENGINE.status(state) == PLAYING and ENGINE.result(state) is None
    ENGINE.act(state, 0, {"type": "move", "to": 4})
    ENGINE.act(state, 0, {"type": "end_turn"})
    assert ENGINE.status(state) == FINISHED and ENGINE.to_act(state) == []
    assert ENGINE.legal_actions(state, 1) == []
    assert "over" in refused(state, {"type": "end_turn"}, seat=1)


def test_the_game_goes_on_while_a_bone_remains():
    state = fresh()
    state["yard"] = [bowl(c) for c in box.COLOURS] + [bone("blue", "green")]
    ENGINE.act(state, 0, {"type": "end_turn"})
    assert ENGINE.status(state) == PLAYING and ENGINE.to_act(state) == [1]


def finished_match() -> dict:
    """The rulebook's scoring example: bowls green, yellow, purple, blue, red from the Doghouse;
    Ann dropped 2 green, 1 yellow, 3 purple, 2 blue, 2 red; Bob 2 green, 3 yellow, 1 blue, 1 red,
    and still holds the last purple bone."""
    state = fresh()
    state["yard"] = [bowl(c) for c in box.COLOURS]
    state["dropped"] = [[2, 1, 3, 2, 2], [2, 3, 0, 1, 1]]
    state["hands"] = [[], [bone("purple", "blue")]]
    state["status"], state["to_act"] = FINISHED, []
    return state


def test_the_final_score_is_the_calculators():
    # rulebook "Scoring" example: 10 + 4 + 9 + 4 + 2 = 29 points.
    state = finished_match()
    sheet = {"variant": "standard", "bowls": ["green", "yellow", "purple", "blue", "red"],
             "players": [
                 {"name": "Ann", "dropped": {"green": 2, "yellow": 1, "purple": 3, "blue": 2,
                                             "red": 2}},
                 {"name": "Bob", "dropped": {"green": 2, "yellow": 3, "purple": 0, "blue": 1,
                                             "red": 1}}]}
    result = ENGINE.result(state)
    assert result == score(sheet)
    # rulebook: bones still in a player's hand are worth 0 points.
    assert [p["total"] for p in result["players"]] == [29, 10 + 12 + 2 + 1]
    assert result["winners"] == ["Ann"]


def test_bowl_order_in_the_final_yard_sets_the_points():
    # rulebook "Scoring": the closer the Dog Bowl is to the Doghouse, the more each bone is worth.
    state = finished_match()
    state["yard"] = [bowl(c) for c in reversed(box.COLOURS)]
    result = ENGINE.result(state)
    assert result["players"][0]["breakdown"]["red"] == {"bones": 2, "value": 5, "points": 10}
    assert ENGINE.view(state, None)["bowl_order"] == list(reversed(box.COLOURS))


def test_tied_totals_go_to_the_most_five_point_bones():
    # rulebook "Tiebreakers": compare dropped bones in descending point value.
    state = finished_match()
    state["dropped"] = [[0, 2, 0, 1, 0], [1, 0, 1, 0, 2]]  # 8 + 2 and 5 + 3 + 2 points
    result = ENGINE.result(state)
    assert [p["total"] for p in result["players"]] == [10, 10]
    assert result["winners"] == ["Bob"]


# Hidden information


def test_each_seat_sees_its_own_hand_and_only_the_bones_it_has_held():
    # RULINGS: a hand's colours only to its owner; a yard card's bone to nobody but a former holder.
    state = fresh()
    state["hands"] = [[bone("red", "green")], [bone("blue", "yellow"), bone("yellow", "blue")]]
    ann, bob, spectator = (ENGINE.view(state, s) for s in (0, 1, None))
    assert ann["hand"] == [{"card": 0, "scent": ["green", "red"], "bone": "red"}]
    assert [c["bone"] for c in bob["hand"]] == ["blue", "yellow"]
    assert "hand" not in spectator
    assert [p["hand_size"] for p in spectator["players"]] == [1, 2]
    for view in (ann, bob, spectator):
        assert all(set(card) in ({"kind", "scent"}, {"kind", "colour"}) for card in view["yard"])


def test_a_view_is_not_the_state():
    state = fresh()
    view = ENGINE.view(state, 0)
    view["yard"].clear()
    view["players"][0]["dropped"]["red"] = 4
    assert len(state["yard"]) == 25 and state["dropped"][0] == [0] * 5
    assert json.loads(json.dumps(copy.deepcopy(state))) == state


def test_every_view_shows_each_hand_by_its_scents_and_only_the_owner_its_bones():
    # RULINGS: everyone sees "each hand's cards by scent" (a held card's back faces the table);
    # a hand's bones: only its owner.
    state = fresh()
    state["hands"] = [[bone("red", "green")],
                      [bone("yellow", "blue"), bone("blue", "green"), bone("blue", "yellow")]]
    listed = [[["green", "red"]], [["green", "blue"], ["yellow", "blue"], ["yellow", "blue"]]]
    for viewer in (0, 1, None):
        view = ENGINE.view(state, viewer)
        assert [p["hand_scents"] for p in view["players"]] == listed
        assert [p["hand_size"] for p in view["players"]] == [1, 3]
        listings = [dumps(p) for p in view["players"]]
        assert not any('"bone"' in text or "known_bone" in text for text in listings)


def ann_puts_back(which: int) -> tuple[dict, list[dict]]:
    """Ann holds the two green/blue cards apart in her hand (the green bone first, then a
    red/blue card, then the blue bone), digs a yellow/red card at 1 with a full hand and puts back
    card `which` of the four; then she steps onto the red bowl and drops her red bone. Returns
    the state and the log."""
    state = fresh()
    red = bone("red", "blue")
    state["hands"][0] = [bone("green", "blue"), red, bone("blue", "green")]
    yard_with(state, 1, bone("yellow", "red"))
    yard_with(state, 2, bowl("red"))
    state["dogs"][0] = 1
    log = []

    def act(action: dict) -> None:
        events = ENGINE.act(state, 0, dict(action))
        log.append({"seq": len(log) + 1, "seat": 0, "action": action, "events": events})

    for action in ({"type": "dig"}, {"type": "put_back", "card": which}, {"type": "move", "to": 2}):
        act(action)
    act({"type": "drop", "cards": [state["hands"][0].index(red)]})
    return state, log


def test_nothing_public_tells_which_of_two_same_scent_cards_went_back():
    # rulebook "Replacing a Dug Bone": the replacement is placed Bone side down; RULINGS: nobody
    # but the hand's owner can tell which of two cards of the same scent went back. Neither the
    # hand's listing nor a later drop's places may tell it (the red bone is card 0 of Ann's hand
    # in one game and card 1 in the other).
    first, first_log = ann_puts_back(0)
    second, second_log = ann_puts_back(2)
    assert first["yard"][0] != second["yard"][0]
    assert first_log[-1]["action"] != second_log[-1]["action"]
    for viewer in (1, None):
        assert dumps(ENGINE.view(first, viewer)) == dumps(ENGINE.view(second, viewer))
        assert dumps([log_entry(ENGINE, e, viewer) for e in first_log]) == dumps(
            [log_entry(ENGINE, e, viewer) for e in second_log])


def twins_through_bobs_hand(went_back: int, then_the_other: bool = False) -> dict:
    """Ann digs the red/green card holding a red bone (position 1) and puts it back: she knows it.
    Bob digs its twin (green bone, position 2), keeps it, digs Ann's card too, and puts back card
    `went_back` of his hand [twin, Ann's card] at position 1. Then, if asked, Bob's next turn puts
    the other one back at 3, for the purple/yellow card there."""
    state = fresh()
    yard_with(state, 1, bone("red", "green"))
    yard_with(state, 2, bone("green", "red"))
    yard_with(state, 3, bone("purple", "yellow"))
    state["dogs"] = [1, 2]
    play(state, 0, {"type": "dig"}, {"type": "put_back", "card": 0}, {"type": "end_turn"})
    play(state, 1, {"type": "dig"}, {"type": "keep"}, {"type": "move", "to": 1}, {"type": "dig"},
         {"type": "put_back", "card": went_back})
    if then_the_other:
        play(state, 1, {"type": "end_turn"})
        play(state, 0, {"type": "end_turn"})
        play(state, 1, {"type": "move", "to": 3}, {"type": "dig"}, {"type": "put_back", "card": 0})
    return state


@pytest.mark.parametrize("went_back", [0, 1])
def test_a_card_put_back_beside_its_twin_is_known_only_to_the_hand_owner(went_back):
    # RULINGS: "When a card is put back from a hand that then held another card of the same scent,
    # nobody but that hand's owner can tell which of the two went back: from then on, what others
    # knew of the bone of either card is lost".
    back, kept = ("green", "red") if went_back == 0 else ("red", "green")
    state = twins_through_bobs_hand(went_back)
    bob = ENGINE.view(state, 1)
    assert ENGINE.view(state, 0)["yard"][0] == {"kind": "bone", "scent": ["green", "red"]}
    assert bob["yard"][0]["known_bone"] == back  # the owner still knows both
    assert [card["bone"] for card in bob["hand"]] == [kept]
    # The engine suite's secrets agree: the card at 1 is Bob's to know alone.
    assert ENGINE.secrets(state)[frozenset({1})] == [dumps(bob["yard"][0])]
    later = twins_through_bobs_hand(went_back, then_the_other=True)
    assert ENGINE.view(later, 1)["yard"][2]["known_bone"] == kept
    # Ann knows neither, and sees the same whichever of the two went back first.
    for then_the_other in (False, True):
        ann = ENGINE.view(twins_through_bobs_hand(went_back, then_the_other), 0)
        assert "known_bone" not in dumps(ann)
        assert dumps(ann) == dumps(ENGINE.view(
            twins_through_bobs_hand(1 - went_back, then_the_other), 0))


def test_a_card_put_back_without_its_twin_in_hand_stays_known():
    # RULINGS: a yard card's bone is known to "a player who held that very card and can still tell
    # it apart": Bob's hand held no other card of its scent, so Ann knows which card went back.
    state = fresh()
    yard_with(state, 1, bone("red", "green"))
    state["dogs"] = [1, 1]
    play(state, 0, {"type": "dig"}, {"type": "put_back", "card": 0}, {"type": "end_turn"})
    play(state, 1, {"type": "dig"}, {"type": "put_back", "card": 0})
    seen = {"kind": "bone", "scent": ["green", "red"], "known_bone": "red"}
    assert ENGINE.view(state, 0)["yard"][0] == ENGINE.view(state, 1)["yard"][0] == seen
    assert ENGINE.view(state, None)["yard"][0] == {"kind": "bone", "scent": ["green", "red"]}
    assert ENGINE.secrets(state)[frozenset({0, 1})] == [dumps(seen)]


@pytest.mark.parametrize("went_back", [0, 1])
def test_twins_of_one_colour_stay_known_after_a_put_back(monkeypatch, went_back):
    # RULINGS: "... is lost (unless both hold the same colour, which stays known)". The box (R)
    # gives twins different bones; a box whose green/red cards both hold a red bone is played
    # here (the printed box's green one is its second red one, by the same number).
    both_red = box.DEFAULT.changed({"PAIR_BONES": {"green+red": ["red", "red"]}})
    monkeypatch.setitem(globals(), "ENGINE", DigGame(both_red))
    seen = {"kind": "bone", "scent": ["green", "red"], "known_bone": "red"}
    state = twins_through_bobs_hand(went_back)
    ann = ENGINE.view(state, 0)
    assert ann["yard"][0] == ENGINE.view(state, 1)["yard"][0] == seen
    assert dumps(ann) == dumps(ENGINE.view(twins_through_bobs_hand(1 - went_back), 0))
    assert ENGINE.secrets(state)[frozenset({0, 1})] == [dumps(seen)]
    # Whoever knew either knows both: Ann sees the colour of the other one too, once it is back.
    later = twins_through_bobs_hand(went_back, then_the_other=True)
    assert [ENGINE.view(later, 0)["yard"][p] for p in (0, 2)] == [seen, seen]


def test_a_refusal_says_its_action_and_hand_in_plain_english():
    # "A 'end_turn' action cannot be taken now", and "Your hand has cards 0 to 0"
    state, _ = green_bowl_with_two_greens_and_a_red()
    assert refused(state, {"type": "end_turn", "x": 1}) == \
        "An 'end_turn' action has no 'x'; it takes no other field."
    assert article("end_turn") == "An" and article("drop") == "A"
    state["hands"][0] = state["hands"][0][:1]
    assert refused(state, {"type": "drop", "cards": [1]}) == "Your hand holds one card, card 0."
