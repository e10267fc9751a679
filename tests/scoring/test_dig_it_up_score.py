"""Dig It Up end-game money (rulebook "Calculating money", RULINGS §1), on the pure calculator."""

import pytest

from scoring.dig_it_up import box
from scoring.dig_it_up.score import CALCULATOR, declared, mission_achieved, score
from scoring.results import InvalidScoresheet

NO_SETS = {"gold": 0, "bronzeware": 0, "scroll": 0, "crystal": 0, "ruby": 0, "diamond": 0,
           "stone": 0}


def one(variant: str = "standard", **player) -> dict:
    """Score one player and return their result."""
    result = score({"variant": variant, "players": [{"name": "Ann", **player}]})
    return result["players"][0]


def sets(**bonuses: int) -> dict:
    return {**NO_SETS, **bonuses}


def problems(sheet: dict) -> dict[str, list[str]]:
    with pytest.raises(InvalidScoresheet) as refused:
        score(sheet)
    return refused.value.errors


# --- the rulebook's own examples ---------------------------------------------------------------

def test_joseph_earns_50_won():
    # rulebook "Final money calculation example", word for word.
    joseph = one(tiles={"gold": 3, "incense_burner": 1, "statue": 2, "knife": 1, "scroll": 1,
                        "crystal": 1, "ruby": 1, "diamond": 0, "stone": 3},
                 tokens=8, mission={"id": "jack_of_all_trades", "achieved": True},
                 cards={"pink_diamond": 1})
    assert joseph["breakdown"] == {
        "mission": 20,
        "cards": 0,  # the Pink Diamond is a tile, not money
        "tokens": 8,
        "sets": sets(gold=3, bronzeware=16, stone=-2),
        "bundles": 5,  # crystal, ruby, scroll and the Pink Diamond: one bundle, one left over
    }
    assert joseph["total"] == 50


def test_joseph_bronzeware_is_6_for_four_tiles_plus_10_for_the_trinity():
    joseph = one(tiles={"incense_burner": 1, "statue": 2, "knife": 1})
    assert joseph["breakdown"]["sets"]["bronzeware"] == 16


def test_ivan_bundles_seven_leftover_tiles_into_10_won():
    # rulebook: 2 bronzeware, 3 crystal, 1 ruby and 1 diamond form no set: 2 bundles of 3.
    ivan = one(tiles={"statue": 2, "crystal": 3, "ruby": 1, "diamond": 1})
    assert ivan["breakdown"] == {"mission": 0, "cards": 0, "tokens": 0, "sets": NO_SETS,
                                 "bundles": 10}
    assert ivan["total"] == 10


def test_ivan_bundles_the_same_with_two_different_bronzeware_kinds():
    ivan = one(tiles={"incense_burner": 1, "knife": 1, "crystal": 3, "ruby": 1, "diamond": 1})
    assert ivan["breakdown"]["bundles"] == 10
    assert ivan["breakdown"]["sets"] == NO_SETS


# --- set tables, every tier boundary -------------------------------------------------------------

GOLD = [(0, 0), (1, 0), (2, 0), (3, 3), (4, 8), (5, 15), (6, 24), (7, 35), (8, 50), (9, 100),
        (10, 200), (11, 200), (14, 200)]
SCROLL = [(2, 0), (3, 6), (4, 6), (5, 14), (6, 14), (8, 14)]
CRYSTAL = [(3, 0), (4, 14), (5, 14), (6, 28), (7, 28), (10, 28)]
RUBY = [(4, 0), (5, 30), (6, 30), (7, 50), (8, 50)]
DIAMOND = [(4, 0), (5, 34), (6, 34), (7, 60), (8, 60)]


@pytest.mark.parametrize(
    ("tile", "count", "bonus"),
    [("gold", n, b) for n, b in GOLD] + [("scroll", n, b) for n, b in SCROLL]
    + [("crystal", n, b) for n, b in CRYSTAL] + [("ruby", n, b) for n, b in RUBY]
    + [("diamond", n, b) for n, b in DIAMOND])
def test_treasure_set_bonus_by_count(tile, count, bonus):
    result = one(tiles={tile: count})["breakdown"]
    assert result["sets"] == sets(**{tile: bonus})
    # below the table's first row the tiles are bundle material instead
    assert result["bundles"] == (0 if bonus else 5 * (count // 3))


# Bronzeware kinds chosen so that no trinity forms: the table alone decides.
@pytest.mark.parametrize(("tiles", "bonus"), [
    ({"statue": 2}, 0),
    ({"statue": 3}, 6),
    ({"statue": 2, "knife": 2}, 6),
    ({"incense_burner": 3, "knife": 2}, 12),
    ({"incense_burner": 4, "statue": 4}, 12),
])
def test_bronzeware_set_bonus_by_count(tiles, bonus):
    assert one(tiles=tiles)["breakdown"]["sets"] == sets(bronzeware=bonus)


@pytest.mark.parametrize(("count", "penalty"), [(0, 0), (1, 0), (2, 0), (3, -2), (4, -4),
                                                 (5, -6), (6, -6), (10, -6)])
def test_stone_set_costs_money(count, penalty):
    stones = one(tiles={"stone": count})
    assert stones["breakdown"]["sets"] == sets(stone=penalty)
    assert stones["breakdown"]["bundles"] == 0
    assert stones["total"] == penalty


# --- trinities -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("incense_burner", "statue", "knife", "bonus"), [
    (1, 1, 1, 6 + 10),   # 3 tiles, one trinity
    (2, 2, 2, 12 + 20),  # 6 tiles, two trinities
    (3, 1, 1, 12 + 10),  # 5 tiles, only one of each of two kinds: one trinity
    (4, 4, 4, 12 + 40),  # the whole box
    (2, 2, 0, 6),        # no knife, no trinity
    (4, 0, 1, 12),
])
def test_trinity_prize_is_10_per_trinity(incense_burner, statue, knife, bonus):
    tiles = {"incense_burner": incense_burner, "statue": statue, "knife": knife}
    assert one(tiles=tiles)["breakdown"]["sets"]["bronzeware"] == bonus


# --- bundles and sets ----------------------------------------------------------------------------

def test_bronzeware_below_three_tiles_bundles():
    two_kinds = one(tiles={"incense_burner": 1, "statue": 1, "gold": 1})
    assert two_kinds["breakdown"]["sets"] == NO_SETS
    assert two_kinds["breakdown"]["bundles"] == 5


def test_three_gold_form_a_set_not_a_bundle():
    # RULINGS: forming a set is not optional, even when a bundle (5 ₩) would pay more than 3 ₩.
    gold = one(tiles={"gold": 3})
    assert gold["breakdown"]["sets"]["gold"] == 3
    assert gold["breakdown"]["bundles"] == 0


def test_set_tiles_never_join_a_bundle():
    # 3 gold in a set; the scroll and ruby left over are only two tiles.
    assert one(tiles={"gold": 3, "scroll": 1, "ruby": 1})["breakdown"]["bundles"] == 0
    assert one(tiles={"gold": 3, "scroll": 1, "ruby": 1, "knife": 1})["breakdown"]["bundles"] == 5


def test_ten_crystals_are_one_set_of_28_never_split_into_4_and_6():
    # rulebook: a set is never broken into smaller sets (4 + 6 would pay 14 + 28).
    crystals = one(tiles={"crystal": 10})
    assert crystals["breakdown"]["sets"]["crystal"] == 28
    assert crystals["total"] == 28


def test_stones_never_bundle():
    # two stones and two treasures: four tiles, but only two of them are treasures.
    assert one(tiles={"stone": 2, "gold": 1, "scroll": 1})["breakdown"]["bundles"] == 0
    assert one(tiles={"stone": 2, "gold": 1, "scroll": 1, "ruby": 1})["breakdown"]["bundles"] == 5


def test_bundles_pool_every_type_and_drop_a_remainder_below_three():
    loose = {"gold": 2, "statue": 1, "knife": 1, "scroll": 2, "crystal": 3, "ruby": 4,
             "diamond": 4}  # 17 tiles, none in a set: 5 bundles, 2 left over
    assert one(tiles=loose)["breakdown"] == {"mission": 0, "cards": 0, "tokens": 0,
                                             "sets": NO_SETS, "bundles": 25}


# --- chance cards --------------------------------------------------------------------------------

def test_gold_card_counts_as_a_gold_tile():
    # (each card drawn for a ★ tile: a crystal each)
    assert one(tiles={"gold": 2, "crystal": 1},
               cards={"gold_nugget": 1})["breakdown"]["sets"]["gold"] == 3
    assert one(tiles={"gold": 2, "crystal": 2},
               cards={"gold_nugget": 2})["breakdown"]["sets"]["gold"] == 8


def test_gold_card_bundles_like_a_tile():
    result = one(tiles={"crystal": 1, "ruby": 1}, cards={"gold_nugget": 1})["breakdown"]
    assert result["sets"] == NO_SETS
    assert result["bundles"] == 5
    assert result["cards"] == 0


def test_pink_diamond_card_completes_a_diamond_set():
    result = one(tiles={"diamond": 4, "crystal": 1}, cards={"pink_diamond": 1})["breakdown"]
    assert result["sets"]["diamond"] == 34
    assert result["bundles"] == 0


def test_pink_diamond_card_bundles_like_a_tile():
    result = one(tiles={"scroll": 1, "ruby": 1}, cards={"pink_diamond": 1})["breakdown"]
    assert result["bundles"] == 5


@pytest.mark.parametrize(("appraisals", "money"), [(0, 0), (1, 8), (2, 16), (4, 32)])
def test_appraisal_is_worth_8_won_each(appraisals, money):
    tiles = {"gold": 1, "scroll": 2, "crystal": 2}  # 4 ★ tiles: up to 4 cards drawn
    appraised = one(tiles=tiles, cards={"appraisal": appraisals})
    assert appraised["breakdown"]["cards"] == money
    assert appraised["total"] == money + one(tiles=tiles)["total"]


@pytest.mark.parametrize("stones", [3, 4, 5, 8])
def test_insurance_cancels_the_stone_set(stones):
    # The stone set keeps its printed penalty; the card refunds it in step 2 (chance cards).
    insured = one(tiles={"stone": stones, "crystal": 1}, cards={"insurance": 1})
    penalty = {3: -2, 4: -4}.get(stones, -6)
    assert insured["breakdown"]["sets"]["stone"] == penalty
    assert insured["breakdown"]["cards"] == -penalty
    assert insured["total"] == 0


def test_insurance_without_a_stone_set_is_worth_nothing():
    insured = one(tiles={"stone": 2, "gold": 3, "crystal": 1}, cards={"insurance": 1})
    assert insured["breakdown"]["cards"] == 0
    assert insured["total"] == 3


def test_two_insurance_cards_cancel_the_stone_set_only_once():
    insured = one(tiles={"stone": 5, "crystal": 2}, cards={"insurance": 2})
    assert insured["breakdown"]["cards"] == 6
    assert insured["total"] == 0


def test_appraisal_and_insurance_add_up_in_the_chance_card_step():
    held = one(tiles={"stone": 4, "crystal": 2}, cards={"appraisal": 1, "insurance": 1})
    assert held["breakdown"]["cards"] == 8 + 4
    assert held["total"] == 8


def test_cards_without_end_game_money_score_nothing():
    held = one(tiles={"crystal": 3}, cards={"ancient_map": 2, "lucky_charm": 1})
    assert held["breakdown"]["cards"] == 0
    assert held["total"] == one(tiles={"crystal": 3})["total"]


# --- missions and tokens -------------------------------------------------------------------------

# A collection that achieves each mission the counts decide.
ACHIEVING = {
    "jack_of_all_trades": {"tiles": {"gold": 1, "statue": 1, "scroll": 1, "crystal": 1,
                                     "ruby": 1, "diamond": 1}},
    "gold_digger": {"tiles": {"gold": 5}},
    "bronze_age": {"tiles": {"incense_burner": 1, "statue": 1, "knife": 1}},
    "scholar": {"tiles": {"scroll": 4}},
    "crystal_clear": {"tiles": {"crystal": 5}},
    "ruby_hunter": {"tiles": {"ruby": 5}},
    "diamond_hunter": {"tiles": {"diamond": 3, "crystal": 1}, "cards": {"pink_diamond": 1}},
    "clean_hands": {"tiles": {"gold": 1}},
    "rock_collector": {"tiles": {"stone": 4}},
    "big_purse": {"tokens": 12},
    "bundler": {"tiles": {"gold": 2, "scroll": 2, "ruby": 2}},
    "specialist": {"tiles": {"crystal": 7}},
    "collector": {"tiles": {"gold": 3, "scroll": 3, "statue": 3}},
}


def test_every_mission_is_judged_from_the_counts_or_declared():
    assert set(ACHIEVING) | {"closing_shop", "card_shark"} == set(box.MISSION_BY_ID)
    assert {m for m in box.MISSION_BY_ID if declared(m)} == {"closing_shop", "card_shark"}


@pytest.mark.parametrize("mission_id", list(ACHIEVING))
def test_a_mission_the_counts_achieve_pays_its_bonus_undeclared(mission_id):
    held = ACHIEVING[mission_id]
    bonus = box.MISSION_BY_ID[mission_id]["bonus"]
    for mission in ({"id": mission_id}, {"id": mission_id, "achieved": True}):
        assert one(**held, mission=mission)["breakdown"]["mission"] == bonus
    errors = problems({"players": [{"name": "Ann", **held,
                                    "mission": {"id": mission_id, "achieved": False}}]})
    assert list(errors) == ["players.0.mission.achieved"]


@pytest.mark.parametrize("mission_id", list(ACHIEVING))
def test_a_mission_the_counts_miss_pays_nothing_and_a_tick_is_refused(mission_id):
    # the achieving collection less what it needs most: nothing, or a stone for Clean Hands
    short = {"tiles": {"stone": 1}} if mission_id == "clean_hands" else {}
    assert one(**short, mission={"id": mission_id})["breakdown"]["mission"] == 0
    errors = problems({"players": [{"name": "Ann", **short,
                                    "mission": {"id": mission_id, "achieved": True}}]})
    assert list(errors) == ["players.0.mission.achieved"]


def test_gold_digger_ticked_with_one_gold_is_refused():
    # issue 13: "Gold Digger ticked with 1 gold still adds 15 ₩"
    errors = problems({"players": [{"name": "Joseph", "tiles": {"gold": 1},
                                    "mission": {"id": "gold_digger", "achieved": True}}]})
    assert errors == {"players.0.mission.achieved": [
        "Gold Digger is not achieved with these counts: 5 or more gold."]}


@pytest.mark.parametrize("mission_id", ["closing_shop", "card_shark"])
@pytest.mark.parametrize("achieved", [True, False])
def test_missions_only_play_decides_are_taken_as_declared(mission_id, achieved):
    tiles = {"scroll": 2, "crystal": 3}  # five ★ tiles: five cards may have been drawn
    paid = one(tiles=tiles,
               mission={"id": mission_id, "achieved": achieved})["breakdown"]["mission"]
    assert paid == (box.MISSION_BY_ID[mission_id]["bonus"] if achieved else 0)


def test_card_shark_is_not_achieved_with_fewer_than_five_star_tiles():
    """A chance card is drawn only for a ★ tile dug, and a dug tile stays with its player: with
    four ★ tiles, five cards were never drawn, whatever the player says."""
    four = {"scroll": 1, "crystal": 3, "gold": 4}
    said = problems({"players": [{"name": "Ann", "tiles": four,
                                  "mission": {"id": "card_shark", "achieved": True}}]})
    assert said == {"players.0.mission.achieved": [
        "Card Shark is not achieved with these counts: 5 or more chance cards drawn. A chance "
        "card is drawn only for a ★ tile dug, and 4 ★ tiles are held."]}
    mission = {"id": "card_shark", "achieved": False}
    assert one(tiles=four, mission=mission)["breakdown"]["mission"] == 0
    five = {**four, "scroll": 2}
    mission = {"id": "card_shark", "achieved": True}
    assert one(tiles=five, mission=mission)["breakdown"]["mission"] == 15


def test_no_more_cards_are_kept_than_star_tiles_held():
    """Four Appraisal cards kept with no ★ tile: 32 ₩ a player could never have, which made
    Ann the winner with 35 ₩ where Bob's 23 ₩ wins. Rulebook "Chance cards": "if you collect a
    tile with a star on it, you draw a chance card"; RULINGS "Marks": every scroll and crystal
    carry ★; and no card takes a tile from its player."""
    table = {"players": [{"name": "Ann", "tiles": {"gold": 3}, "cards": {"appraisal": 4}},
                         {"name": "Bob", "tiles": {"gold": 3, "scroll": 3, "crystal": 4}},
                         {"name": "Cy"}, {"name": "Di"}]}
    assert problems(table) == {"players.0.cards.appraisal": [
        "A chance card is drawn only for a ★ tile dug (ancient scroll or crystal), one a tile: "
        "0 ★ tiles bring at most 0 cards, not 4."]}
    # Each card held is marked; as many cards as ★ tiles is fine.
    ann = {"name": "Ann", "tiles": {"scroll": 1, "crystal": 1},
           "cards": {"gold_nugget": 2, "insurance": 1}}
    said = problems({"players": [ann]})
    assert set(said) == {"players.0.cards.gold_nugget", "players.0.cards.insurance"}
    assert "2 ★ tiles bring at most 2 cards, not 3." in said["players.0.cards.insurance"][0]
    ann["tiles"]["crystal"] = 2
    assert score({"players": [ann]})["players"][0]["breakdown"]["cards"] == 0


def test_money_below_zero_is_hazardous_area_tokens_that_the_box_has():
    """Money goes below zero only by Hazardous Area's −5 ₩ tokens (the purse never does), and
    the box has four: −20 ₩ at the least, and six tokens are too many across the table. RULINGS
    "Money": coins and +5 tokens, plus the −5 Hazardous Area tokens taken; "Thief": min(3, that
    player's money), never a −5 token; Hazardous Area: 4 cards, each puts one −5 ₩ token."""
    assert one(tokens=-20)["total"] == -20
    assert problems({"players": [{"name": "Ann", "tokens": -21}]}) == {"players.0.tokens": [
        "Money below zero comes from Hazardous Area's −5 ₩ tokens, 4 in the box: at least "
        "−20 ₩, not −21 ₩."]}
    three = [{"name": "Ann", "tokens": -11}, {"name": "Bob", "tokens": -5}]  # 3 + 1 tokens
    assert score({"players": three})
    said = problems({"players": [*three, {"name": "Cy", "tokens": -1}]})  # and 1 more
    message = ("Together the players' money below zero takes at least 5 of Hazardous Area's "
               "−5 ₩ tokens, but the box has only 4.")
    assert said == {f: [message] for f in ("players", "players.0.tokens", "players.1.tokens",
                                            "players.2.tokens")}
    # Without chance cards there is no such token: the simplified game's own rule refuses it.
    assert list(problems({"variant": "simplified", "players": [{"name": "Ann", "tokens": -2}]})) \
        == ["players.0.tokens"]


def test_card_shark_is_achieved_by_five_cards_kept_to_the_end():
    """The cards kept were drawn: five of them prove Card Shark, declared or not; four leave it
    to the player."""
    stars = {"scroll": 2, "crystal": 3}  # each card drawn for a ★ tile dug
    five = {"appraisal": 2, "gold_nugget": 2, "insurance": 1}
    paid = one(tiles=stars, cards=five, mission={"id": "card_shark"})["breakdown"]["mission"]
    assert paid == 15
    said = problems({"players": [{"name": "Ann", "tiles": stars, "cards": five,
                                  "mission": {"id": "card_shark", "achieved": False}}]})
    assert said == {"players.0.mission.achieved": [
        "Card Shark is achieved with these counts: 5 or more chance cards drawn."]}
    four = {"appraisal": 2, "gold_nugget": 2}
    for says, bonus in ((True, 15), (False, 0)):
        mission = {"id": "card_shark", "achieved": says}
        assert one(tiles=stars, cards=four, mission=mission)["breakdown"]["mission"] == bonus


def test_achieved_mission_by_bonus_pays_that_amount():
    assert one(mission={"bonus": 25, "achieved": True})["breakdown"]["mission"] == 25


@pytest.mark.parametrize("mission", [{"id": "ruby_hunter", "achieved": False},
                                     {"bonus": 20, "achieved": False}, None])
def test_failed_or_missing_mission_pays_nothing(mission):
    failed = one(tiles={"gold": 3}, mission=mission)
    assert failed["breakdown"]["mission"] == 0
    assert failed["total"] == 3


@pytest.mark.parametrize(("mission_id", "text"), [
    ("gold_digger", "5 or more gold."), ("clean_hands", "No stones."),
    ("bronze_age", "At least one trinity."),
    ("big_purse", "Money tokens worth 12 ₩ or more net (−5 tokens count against it)."),
    ("jack_of_all_trades", "At least one gold, bronzeware, scroll, crystal, ruby and diamond."),
    ("closing_shop", "During play, your dig leaves a site with one tile (you abandon it)."),
    ("specialist", "One treasure set of 7 or more tiles (bronzeware is one set)."),
    ("collector", "Sets of 3 or more different treasure types.")])
def test_the_catalogue_reads_each_mission_as_printed(mission_id, text):
    missions = {m["id"]: m for m in box.box_data()["missions"]}
    assert missions[mission_id]["condition"] == text
    assert all("{" not in m["condition"] and "goal" not in m for m in missions.values())


def test_a_missions_goal_is_stated_once_for_its_text_and_its_judgement(monkeypatch):
    # RULINGS: reconstructed data lives in one place, so an owner of the box corrects it there
    gold = {"tiles": {"gold": 5}}
    assert mission_achieved("gold_digger", gold)
    monkeypatch.setitem(box.MISSION_BY_ID["gold_digger"]["goal"], "min", 6)
    assert not mission_achieved("gold_digger", gold)
    assert box.condition(box.MISSION_BY_ID["gold_digger"]) == "6 or more gold."


@pytest.mark.parametrize(("mission_id", "player", "achieved"), [
    # RULINGS: missions judged on the final tiles count treasure sets only (stones are not
    # treasure): Specialist needs one treasure type with 7+ tiles ...
    ("specialist", {"tiles": {"stone": 7}}, False),
    ("specialist", {"tiles": {"stone": 10, "gold": 6}}, False),
    ("specialist", {"tiles": {"stone": 3, "crystal": 7}}, True),
    # ... Collector needs sets of 3 or more different treasure types
    ("collector", {"tiles": {"stone": 3, "gold": 3, "scroll": 3}}, False),
    ("collector", {"tiles": {"stone": 3, "gold": 3, "scroll": 3, "statue": 3}}, True),
    # Big Purse: "money tokens worth 12+ ₩ net (−5 tokens count against it)"
    ("big_purse", {"tokens": 12}, True),
    ("big_purse", {"tokens": 7}, False),  # 17 ₩ of money less a −5 token
])
def test_missions_read_the_collection_as_ruled(mission_id, player, achieved):
    assert mission_achieved(mission_id, player) is achieved


def test_money_tokens_count_at_face_value_even_below_zero():
    # RULINGS: a Hazardous Area token makes totals negative.
    assert one(tokens=12)["total"] == 12
    poor = one(tokens=-5, tiles={"stone": 3})
    assert poor["breakdown"]["tokens"] == -5
    assert poor["total"] == -7


def test_missing_tile_types_count_zero():
    assert one(tiles={})["total"] == 0
    assert one()["breakdown"] == {"mission": 0, "cards": 0, "tokens": 0, "sets": NO_SETS,
                                  "bundles": 0}


# --- simplified variant --------------------------------------------------------------------------

def test_simplified_four_of_a_type_score_10():
    result = one("simplified", tiles={"gold": 4, "ruby": 5})["breakdown"]
    assert result["sets"] == sets(gold=10, ruby=10)
    assert result["bundles"] == 0


def test_simplified_large_sets_still_score_10():
    assert one("simplified", tiles={"gold": 10})["total"] == 10


def test_simplified_bronzeware_counts_as_one_type_without_trinity_prize():
    mixed = one("simplified", tiles={"incense_burner": 2, "statue": 1, "knife": 1})
    assert mixed["breakdown"]["sets"] == sets(bronzeware=10)
    assert mixed["total"] == 10


def test_simplified_loose_treasures_score_1_each():
    # 3 gold is no set in the simplified game; each tile in no set is 1 ₩.
    loose = one("simplified", tiles={"gold": 3, "scroll": 1, "crystal": 2, "diamond": 1})
    assert loose["breakdown"]["sets"] == NO_SETS
    assert loose["breakdown"]["bundles"] == 7
    assert loose["total"] == 7


def test_simplified_stones_score_nothing():
    stony = one("simplified", tiles={"stone": 5, "gold": 1})
    assert stony["breakdown"]["sets"] == NO_SETS
    assert stony["total"] == 1


def test_simplified_keeps_the_money_tokens():
    # 6 ₩ of tokens from three +2 gold tiles, which score 1 ₩ each in no set
    assert one("simplified", tokens=6, tiles={"scroll": 4, "ruby": 1, "gold": 3})["total"] == \
        6 + 10 + 1 + 3


# RULINGS §1: +2 → a 2 ₩ token, for the gold tile taken, which its player keeps (no chance card
# takes a tile back in the simplified game).
def test_simplified_money_tokens_are_at_most_two_won_a_gold_tile_held():
    assert one("simplified", tokens=4, tiles={"gold": 2})["breakdown"]["tokens"] == 4
    errors = problems({"variant": "simplified",
                       "players": [{"name": "Ann", "tokens": 6, "tiles": {"gold": 2}}]})
    assert errors == {"players.0.tokens": [
        "Each +2 tile is a gold tile its player keeps: 2 gold tiles bring at most 4 ₩ of money "
        "tokens, not 6 ₩."]}


# RULINGS §1: without chance cards, money tokens come from the board's +2 tiles alone (one a site).
@pytest.mark.parametrize("tokens", [-5, -2, 1, 7])
def test_simplified_money_tokens_are_made_of_2_won_ones(tokens):
    errors = problems({"variant": "simplified", "players": [{"name": "Ann", "tokens": tokens}]})
    assert list(errors) == ["players.0.tokens"]
    assert "come from +2 tiles alone, 2 ₩ each" in errors["players.0.tokens"][0]


@pytest.mark.parametrize(("players", "worth"), [(2, 12), (3, 12), (4, 20), (5, 20)])
def test_simplified_money_tokens_are_at_most_the_board_s_plus_two_tiles(players, worth):
    table = [{"name": f"P{i}"} for i in range(players)]
    table[0].update(tokens=worth - 2, tiles={"gold": worth // 2 - 1})  # a +2 tile a gold one
    table[-1].update(tokens=2, tiles={"gold": 2})
    assert score({"variant": "simplified", "players": table})["players"][0]["breakdown"][
        "tokens"] == worth - 2
    table[-1]["tokens"] = 4
    errors = problems({"variant": "simplified", "players": table})
    said = (f"Together the players hold {worth + 2} ₩ of money tokens, but the Simplified game "
            f"for {players} players has only {worth // 2} +2 tiles, {worth} ₩.")
    assert errors == {"players": [said], "players.0.tokens": [said],
                      f"players.{players - 1}.tokens": [said]}


@pytest.mark.parametrize("variant", ["standard", "small"])
def test_with_chance_cards_money_tokens_may_be_any_amount(variant):
    assert one(variant, tokens=-7)["total"] == -7
    assert one(variant, tokens=31)["total"] == 31


@pytest.mark.parametrize(("field", "player"), [
    ("players.0.cards.appraisal", {"cards": {"appraisal": 1}}),
    ("players.0.cards.gold_nugget", {"cards": {"gold_nugget": 1}}),
    ("players.0.mission", {"mission": {"id": "gold_digger", "achieved": True}}),
    ("players.0.mission", {"mission": {"bonus": 15, "achieved": False}}),
])
def test_simplified_refuses_chance_cards_and_missions(field, player):
    errors = problems({"variant": "simplified", "players": [{"name": "Ann", **player}]})
    assert field in errors


# --- small variant and the box -------------------------------------------------------------------

@pytest.mark.parametrize(("field", "player"), [
    ("players.0.tiles.diamond", {"tiles": {"diamond": 1}}),
    ("players.0.cards.pink_diamond", {"cards": {"pink_diamond": 1}}),
    ("players.0.mission.id", {"mission": {"id": "jack_of_all_trades", "achieved": True}}),
    ("players.0.mission.id", {"mission": {"id": "diamond_hunter", "achieved": False}}),
])
def test_small_game_refuses_diamonds_and_multi_cards(field, player):
    errors = problems({"variant": "small", "players": [{"name": "Ann", **player}]})
    assert field in errors


def test_small_game_scores_like_the_standard_game_otherwise():
    player = {"tiles": {"gold": 4, "scroll": 3, "ruby": 2, "stone": 3}, "tokens": 4,
              "mission": {"id": "gold_digger", "achieved": False}, "cards": {"appraisal": 1}}
    assert one("small", **player)["breakdown"] == one("standard", **player)["breakdown"]
    assert one("small", **player)["total"] == 8 + 6 - 2 + 4 + 8


@pytest.mark.parametrize("card", ["lucky_coin", "treasure_chest", "strike_gold",
                                  "hazardous_area", "second_wind", "thief", "landslide"])
def test_gray_cards_cannot_be_kept(card):
    errors = problems({"players": [{"name": "Ann", "cards": {card: 1}}]})
    assert f"players.0.cards.{card}" in errors


def spread(total: int, tile: str, players: int = 5) -> list[dict]:
    """`total` tiles of one type shared out among players, as evenly as it goes."""
    shares = [total // players + (1 if i < total % players else 0) for i in range(players)]
    return [{"name": f"P{i}", "tiles": {tile: n}} for i, n in enumerate(shares)]


# RULINGS "Simplified": the board by player count, 2–3 players on the small one (sites A–F).
@pytest.mark.parametrize(("variant", "players", "stones"), [
    ("standard", 3, 10), ("small", 3, 6), ("simplified", 3, 6), ("simplified", 4, 10)])
def test_every_stone_of_the_board_may_be_held(variant, players, stones):
    table = {"variant": variant, "players": spread(stones, "stone", players)}
    assert len(score(table)["players"]) == players


@pytest.mark.parametrize(("variant", "players", "stones"), [
    ("standard", 3, 11), ("small", 3, 7), ("simplified", 3, 7), ("simplified", 4, 11)])
def test_more_stones_than_the_board_holds_are_refused(variant, players, stones):
    errors = problems({"variant": variant, "players": spread(stones, "stone", players)})
    assert any(str(stones) in message for message in errors["players"])


# Rulebook "Game end": the two sites still dug when the 8th is abandoned keep two tiles or more
# each (a stone and a treasure at the least), so 58 of the box's 60 treasures can be held, not 59.
def test_fifty_eight_treasures_fit_the_standard_box_but_59_do_not():
    held = [{"name": "A", "tiles": {"gold": 14, "statue": 4, "knife": 4, "incense_burner": 4}},
            {"name": "B", "tiles": {"scroll": 8, "crystal": 10}},
            {"name": "C", "tiles": {"ruby": 7, "diamond": 7}}]
    assert score({"players": held})["players"][0]["breakdown"]["sets"]["gold"] == 200
    held[2]["tiles"]["ruby"] = 8
    assert "players" in problems({"players": held})


def test_thirty_five_treasures_fit_the_small_box_but_36_do_not():
    # every treasure of sites A–F but one: the site still dug at the 5th abandoned keeps it
    board = [{"name": "A", "tiles": {"gold": 10, "incense_burner": 3, "statue": 3}},
             {"name": "B", "tiles": {"knife": 3, "scroll": 5, "crystal": 6, "ruby": 5}}]
    assert score({"variant": "small", "players": board})["players"][1]["total"] == 6 + 14 + 28 + 30
    board[1]["tiles"]["ruby"] = 6
    assert "players" in problems({"variant": "small", "players": board})


# RULINGS "Component data": what each board holds of each tile type, counted from the site table
# by hand (standard: both boards, A–J; 2–3 players: the large board, A–F).
BOARDS = {
    "standard": {"gold": 14, "incense_burner": 4, "statue": 4, "knife": 4, "scroll": 8,
                 "crystal": 10, "ruby": 8, "diamond": 8, "stone": 10},
    "small": {"gold": 10, "incense_burner": 3, "statue": 3, "knife": 3, "scroll": 5,
              "crystal": 6, "ruby": 6, "diamond": 0, "stone": 6},
}
# variant, players at the table -> the board its tiles come from
TABLES = [("standard", 4), ("standard", 5), ("small", 2), ("small", 3), ("simplified", 2),
          ("simplified", 3), ("simplified", 4), ("simplified", 5)]


def board_of(variant: str, players: int) -> dict[str, int]:
    return BOARDS["small" if variant == "small" or (variant, players) in (
        ("simplified", 2), ("simplified", 3)) else "standard"]


@pytest.mark.parametrize(("variant", "players"), TABLES)
@pytest.mark.parametrize("tile", box.TILE_TYPES)
def test_a_table_holds_every_tile_of_its_board_but_not_one_more(variant, players, tile):
    most = board_of(variant, players)[tile]
    if most:
        table = {"variant": variant, "players": spread(most, tile, players)}
        assert len(score(table)["players"]) == players
    over = spread(most + 1, tile, players)
    errors = problems({"variant": variant, "players": over})
    holding = {f"players.{i}.tiles.{tile}" for i, p in enumerate(over) if p["tiles"][tile]}
    assert {field for field in errors if ".tiles." in field} == holding  # and no other count


def test_ten_and_ten_gold_are_refused_the_box_has_14():
    # issue 19: an impossible table was scored, 10 + 10 gold
    errors = problems({"players": [{"name": "Ann", "tiles": {"gold": 10}},
                                   {"name": "Bob", "tiles": {"gold": 10}}]})
    said = "Together the players hold 20 gold tiles, but the Standard game has only 14."
    assert errors == {"players": [said], "players.0.tiles.gold": [said],
                      "players.1.tiles.gold": [said]}


def test_a_mission_two_players_hold_is_refused_the_box_has_one_of_each():
    """Each mission is one card: two players cannot both keep Gold Digger."""
    table = {"players": [{"name": "Ann", "tiles": {"gold": 5}, "mission": {"id": "gold_digger"}},
                         {"name": "Bob", "tiles": {"gold": 5}},
                         {"name": "Cy", "mission": {"id": "gold_digger", "achieved": False}}]}
    said = "Together the players hold 2 Gold Digger mission cards, but the box has only one."
    assert problems(table) == {"players": [said], "players.0.mission.id": [said],
                               "players.2.mission.id": [said]}
    table["players"][2]["mission"] = {"id": "closing_shop", "achieved": True}
    assert [p["total"] for p in score(table)["players"]] == [30, 15, 15]
    # a mission given by its bonus alone names no card
    table["players"][2]["mission"] = {"bonus": 15, "achieved": True}
    table["players"][1]["mission"] = {"bonus": 15, "achieved": True}
    assert [p["total"] for p in score(table)["players"]] == [30, 30, 15]


def test_eleven_gold_are_refused_in_the_2_3_player_game():
    errors = problems({"variant": "small", "players": [{"name": "Ann", "tiles": {"gold": 6}},
                                                       {"name": "Bob", "tiles": {"gold": 5}}]})
    assert errors["players.1.tiles.gold"] == [
        "Together the players hold 11 gold tiles, but the 2–3 players game has only 10."]


@pytest.mark.parametrize("players", [2, 3])
def test_the_simplified_game_of_2_or_3_players_has_no_diamonds(players):
    table = [{"name": f"P{i}"} for i in range(players)]
    table[-1]["tiles"] = {"diamond": 1}
    errors = problems({"variant": "simplified", "players": table})
    assert errors == {f"players.{players - 1}.tiles.diamond": [
        f"The Simplified game for {players} players has no diamond tiles."]}


def test_the_simplified_game_of_4_or_5_players_is_played_with_the_diamonds():
    table = [{"name": "A", "tiles": {"diamond": 5}}, {"name": "B", "tiles": {"diamond": 3}},
             {"name": "C"}, {"name": "D"}]
    assert score({"variant": "simplified", "players": table})["players"][0]["total"] == 10


def test_one_players_sheet_scored_alone_may_hold_what_either_board_holds():
    # a table size no board is for: the sheet may come from any table
    alone = {"variant": "simplified", "players": [{"name": "Ann", "tiles": {"diamond": 8}}]}
    assert score(alone)["players"][0]["total"] == 10


def test_tile_cards_are_no_tiles_of_the_board():
    # the Gold and Pink Diamond cards count as tiles when scored, but are cards in the box
    table = [{"name": "Ann", "tiles": {"gold": 14, "diamond": 8}},
             {"name": "Bob", "tiles": {"scroll": 6},
              "cards": {"gold_nugget": 4, "pink_diamond": 2}}]
    assert score({"players": table})["players"][1]["breakdown"]["sets"]["gold"] == 8


def test_more_cards_than_the_box_holds_are_refused():
    # The box has 2 Insurance cards and 4 Appraisal cards.
    two = [{"name": n, "tiles": {"crystal": 1}, "cards": {"insurance": 1}} for n in "AB"]
    assert score({"players": two})
    three = [*two, {"name": "C", "tiles": {"crystal": 1}, "cards": {"insurance": 1}}]
    assert "players" in problems({"players": three})
    assert "players" in problems({"players": [{"name": "A", "tiles": {"crystal": 5},
                                               "cards": {"appraisal": 5}}]})


# --- ranks and winners ---------------------------------------------------------------------------

def test_tied_players_share_the_win_and_the_rank():
    result = score({"players": [{"name": "Ann", "tokens": 10}, {"name": "Bob", "tokens": 10},
                                {"name": "Cid", "tokens": 5}]})
    assert [p["rank"] for p in result["players"]] == [1, 1, 3]
    assert result["winners"] == ["Ann", "Bob"]
    assert result["tie_break"] is None


def test_players_keep_the_order_they_were_given():
    result = score({"players": [{"name": "Dee", "tokens": 5}, {"name": "Eve", "tokens": 10},
                                {"name": "Fay", "tokens": 10}, {"name": "Gus", "tokens": 7}]})
    assert [p["name"] for p in result["players"]] == ["Dee", "Eve", "Fay", "Gus"]
    assert [p["rank"] for p in result["players"]] == [4, 1, 1, 3]
    assert result["winners"] == ["Eve", "Fay"]


def test_the_result_names_game_and_variant():
    result = score({"variant": "small", "players": [{"name": "Ann"}]})
    assert (result["game"], result["variant"]) == ("dig-it-up", "small")
    assert score({"players": [{"name": "Ann"}]})["variant"] == "standard"


@pytest.mark.parametrize(("variant", "players", "most", "ends"),
                         [("standard", 4, 58, 8), ("small", 3, 35, 5), ("simplified", 2, 35, 5),
                          ("simplified", 5, 58, 8)])
def test_no_table_holds_more_tiles_than_its_sites_give_before_the_game_ends(variant, players,
                                                                              most, ends):
    # Rulebook "Abandoning a dig site": a site left with one tile is abandoned at once, and that
    # tile leaves play (RULINGS §1); "Game end": the game ends once the 8th site is abandoned (the
    # 5th on the small board), so the other sites keep two tiles or more. The standard board's 70
    # tiles give at most 8 × 6 + 2 × 5 = 58; a table holding 59, or 60 (every site dug down to
    # its last tile, as if the game went on), was scored.
    board = box.DEFAULT.box_limits(variant, players)
    tiles = [tile for tile, n in board.items() for _ in range(n)]
    sites = len(tiles) // 7  # the board: 7 tiles a site
    assert most == ends * 6 + (sites - ends) * 5
    table = [{"name": f"P{i}", "tiles": {}} for i in range(players)]
    for i, tile in enumerate(tiles[:most]):
        held = table[i % players]["tiles"]
        held[tile] = held.get(tile, 0) + 1
    sheet = {"variant": variant, "players": table}
    if variant == "simplified":
        for player in table:  # money tokens come from +2 tiles alone: none taken
            player["tokens"] = 0
    score(sheet)  # the most tiles the players can hold
    table[-1]["tiles"][tiles[most]] = table[-1]["tiles"].get(tiles[most], 0) + 1
    found = problems(sheet)
    message = (f"Together the players hold {most + 1} tiles, but the "
               f"{CALCULATOR.table_game(variant, players)} gives at most {most}: a dig site's "
               "last tile leaves play when the site is abandoned, a site still dug keeps two or "
               f"more, and the game ends once {ends} sites are abandoned.")
    assert found == {"players": [message], **{f"players.{i}.tiles": [message]
                                               for i in range(players)}}, found


@pytest.mark.parametrize(("variant", "most"), [("standard", 76), ("small", 68)])
def test_the_table_holds_no_more_money_than_the_board_and_the_cards_give(variant, most):
    # RULINGS §1 "Money": a player's money comes from the bank for a +2 tile (2 ₩, one on each
    # site), a Lucky Coin (2 ₩, 8 cards) or a Treasure Chest (5 ₩, 4 cards), and from a Strike
    # Gold's +5 ₩ token (4 cards); a Thief only moves money between players. A player typed in
    # with 100 ₩ was scored, and won.
    players = 4 if variant == "standard" else 3
    table = [{"name": f"P{i}", "tokens": 0} for i in range(players)]
    table[0]["tokens"], table[1]["tokens"], table[2]["tokens"] = most - 30, 30, -5
    table[2]["tiles"] = {"gold": 1}  # a −5 ₩ token comes with a tile
    assert score({"variant": variant, "players": table})["players"][0]["total"] == most - 30
    table[1]["tokens"] = 31
    message = (f"Together the players hold {most + 1} ₩ of money, but the "
               f"{CALCULATOR.table_game(variant, players)} gives at most {most} ₩ in all: its +2 "
               "tiles and the chance cards that give money (Lucky Coin, Treasure Chest, Strike "
               "Gold).")
    assert problems({"variant": variant, "players": table}) == {
        "players": [message], "players.0.tokens": [message], "players.1.tokens": [message]}
