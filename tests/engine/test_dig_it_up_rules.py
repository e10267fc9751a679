"""Dig It Up played through its turn engine: the rulebook and RULINGS §1, one rule per test.

Positions are laid out by editing a fresh set-up state (a plain dict); the die is fixed by
choosing the RNG state whose next rolls are the ones a test needs.
"""

import copy
import json

import pytest

from scoring.dig_it_up import box
from scoring.dig_it_up.engine import DigItUpGame
from scoring.dig_it_up.score import score
from scoring.engine import (
    FINISHED,
    PLAYING,
    SETUP,
    IllegalAction,
    Rng,
    log_entry,
    play_out,
    random_bot,
)

GAME = DigItUpGame()
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
EMPTY_ROW = [None] * 7


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def playing(variant: str = "standard", n: int = 4, seed: int = 1) -> dict:
    """A match past set-up: every player has kept the first mission they were dealt."""
    state = GAME.setup(NAMES[:n], seed, variant)
    if GAME.status(state) == SETUP:
        for seat in range(n):
            GAME.act(state, seat, GAME.legal_actions(state, seat)[0])
    assert GAME.status(state) == PLAYING
    return state


def lay(state: dict, site: str, tiles: list, marks: list | None = None,
        tokens: list | None = None, pickax: int = 0) -> None:
    """Lay a site's seven spaces out as given (None: an empty space)."""
    spot = state["sites"][site]
    spot["tiles"] = list(tiles)
    spot["marks"] = list(marks or EMPTY_ROW)
    spot["tokens"] = list(tokens or EMPTY_ROW)
    spot["pickax"] = pickax


def next_rolls(state: dict, *rolls: int) -> None:
    """Make the server's die show these results next."""
    candidate = 0
    while True:
        rng = Rng(candidate)
        if [rng.roll(6) for _ in rolls] == list(rolls):
            state["rng"] = candidate
            return
        candidate += 1


def seat_to_act(state: dict) -> int:
    return GAME.to_act(state)[0]


def dig(state: dict, site: str, roll: int | None = None, **extra) -> list:
    if roll is not None:
        next_rolls(state, roll)
    return GAME.act(state, seat_to_act(state), {"type": "dig", "site": site, **extra})


def star_dig(state: dict, card: str) -> list:
    """The player to act digs a ★ scroll at Amazon and draws `card` from the top of the deck."""
    state["deck"].append(card)
    lay(state, "A", ["scroll", "gold", "ruby", "stone", None, None, None],
        marks=["star", None, None, None, None, None, None])
    return dig(state, "A", 1)


def hold(state: dict, seat: int, *cards: str) -> None:
    """Give a seat kept orange cards drawn in an earlier turn."""
    state["seats"][seat]["cards"] = [{"id": c, "turn": 0} for c in cards]


def abandon(state: dict, *sites: str) -> None:
    """Mark sites as abandoned earlier in the game."""
    for site in sites:
        lay(state, site, EMPTY_ROW)
        state["sites"][site]["abandoned"] = True
        state["abandoned"].append(site)


def tiles_held(state: dict) -> int:
    return sum(sum(p["tiles"].values()) for p in state["seats"])


def money(held: dict) -> int:
    """A seat's ₩: its purse (coins and +5 tokens) and its −5 tokens (RULINGS money)."""
    return held["purse"] + held["hazards"]


# --- set-up --------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_every_site_starts_with_its_stone_in_space_one(seed):
    # rulebook set-up 2: the stone is swapped with the leftmost tile, so stones always come first
    state = GAME.setup(NAMES[:4], seed, "standard")
    for site, spot in state["sites"].items():
        assert spot["tiles"][0] == "stone"
        held = {}
        for tile in spot["tiles"]:
            held[tile] = held.get(tile, 0) + 1
        assert held == {"stone": 1, **box.SITES[site][1]}
        # RULINGS marks: every scroll and the site's crystal carry ★, one gold carries +2
        marks = list(zip(spot["tiles"], spot["marks"], strict=True))
        assert all(mark == "star" for tile, mark in marks if tile in ("scroll", "crystal"))
        assert [mark for tile, mark in marks if tile == "gold"].count("plus_two") == 1
        assert all(mark is None for tile, mark in marks
                   if tile not in ("scroll", "crystal", "gold"))


def test_the_rows_are_shuffled():
    rows = {tuple(GAME.setup(NAMES[:4], seed, "standard")["sites"]["A"]["tiles"])
            for seed in range(20)}
    assert len(rows) > 5


def test_pickaxes_start_on_their_labels_and_the_whole_deck_is_shuffled():
    # rulebook set-up 3 and 5
    state = GAME.setup(NAMES[:4], 3, "standard")
    assert all(spot["pickax"] == 0 for spot in state["sites"].values())
    assert sorted(state["deck"]) == sorted(c["id"] for c in box.CARDS for _ in range(c["count"]))
    assert len(state["deck"]) == 50
    assert state["deck"] != GAME.setup(NAMES[:4], 4, "standard")["deck"]


def test_three_missions_are_dealt_and_every_player_keeps_one_in_any_order():
    # rulebook set-up 6: deal 3 missions face-down to each player, each keeps 1
    state = GAME.setup(NAMES[:4], 5, "standard")
    assert GAME.status(state) == SETUP
    assert GAME.to_act(state) == [0, 1, 2, 3]
    dealt = [p["offered"] for p in state["seats"]]
    assert all(len(hand) == 3 for hand in dealt)
    assert len({m for hand in dealt for m in hand}) == 12  # all different cards
    with pytest.raises(IllegalAction):
        GAME.act(state, 2, {"type": "keep_mission", "mission": dealt[3][0]})
    with pytest.raises(IllegalAction):
        GAME.act(state, 2, {"type": "dig", "site": "A"})
    for seat in (2, 0, 3):
        GAME.act(state, seat, {"type": "keep_mission", "mission": dealt[seat][1]})
    assert GAME.to_act(state) == [1]
    assert GAME.status(state) == SETUP
    GAME.act(state, 1, {"type": "keep_mission", "mission": dealt[1][2]})
    assert GAME.status(state) == PLAYING
    assert GAME.to_act(state) == [0]  # rulebook: the first player starts
    assert state["seats"][1]["mission"] == dealt[1][2]
    assert state["seats"][1]["discarded"] == dealt[1][:2]


def test_a_kept_mission_and_the_two_discarded_stay_secret_during_play():
    # rulebook set-up 6: mission cards are kept secret until the end of the game
    state = GAME.setup(NAMES[:4], 6, "standard")
    log = []
    for seat in range(4):
        action = GAME.legal_actions(state, seat)[0]
        events = GAME.act(state, seat, action)
        log.append({"seq": seat + 1, "seat": seat, "action": action, "events": events})
    bob = state["seats"][1]
    own = GAME.view(state, 1)
    assert own["players"][1]["mission"]["id"] == bob["mission"]
    assert [m["id"] for m in own["players"][1]["discarded"]] == bob["discarded"]
    for viewer in (None, 0, 2, 3):
        seen = dumps(GAME.view(state, viewer)) + dumps([log_entry(GAME, e, viewer)
                                                           for e in log])
        for mission in bob["offered"]:
            assert f'"{mission}"' not in seen
    assert f'"{bob["mission"]}"' in dumps([log_entry(GAME, e, 1) for e in log])


HANDS = [["scholar", "gold_digger", "bronze_age"], ["ruby_hunter", "crystal_clear", "bundler"],
         ["card_shark", "diamond_hunter", "specialist"],
         ["rock_collector", "collector", "big_purse"]]


def test_at_the_end_an_achieved_mission_is_shown_and_a_failed_or_discarded_one_never():
    # rulebook "Mission bonus": a failed mission stays face-down; RULINGS missions: the others
    # see that it failed, never which it was, and the 2 discarded go back to the box unseen by
    # anyone, during the game and after it (no view, log entry or end event)
    state = GAME.setup(NAMES[:4], 6, "standard")
    log = []

    def act(seat: int, action: dict) -> None:
        log.append({"seq": len(log) + 1, "seat": seat, "action": action,
                    "events": GAME.act(state, seat, dict(action))})

    for seat, hand in enumerate(HANDS):
        state["seats"][seat]["offered"] = hand
        act(seat, {"type": "keep_mission", "mission": hand[0]})
    state["seats"][0]["tiles"]["scroll"] = 4  # Ann's Scholar is achieved, the others fail
    abandon(state, *"ABCDEFG")
    lay(state, "H", ["stone", "gold", None, None, None, None, None])
    next_rolls(state, 1)
    act(0, {"type": "dig", "site": "H"})  # the 8th site is abandoned: the game ends
    assert GAME.status(state) == FINISHED
    assert log[-1]["events"][-1] == {"type": "game_over", "missions": [
        {"seat": 0, "mission": "scholar", "achieved": True},
        *({"seat": seat, "mission": None, "achieved": False} for seat in (1, 2, 3))]}
    for viewer in (None, 0, 1, 2, 3):
        view = GAME.view(state, viewer)
        seen = dumps(view) + dumps([log_entry(GAME, e, viewer) for e in log])
        assert '"scholar"' in seen
        for seat, (kept, *discarded) in enumerate(HANDS):
            assert (f'"{kept}"' in seen) == (seat in (0, viewer))
            assert all((f'"{m}"' in seen) == (seat == viewer) for m in discarded)
            player = view["players"][seat]
            assert player["mission_achieved"] is (seat == 0)
            if seat in (0, viewer):
                shown = player["mission"]
                assert (shown["id"], shown["achieved"]) == (kept, seat == 0)
            else:
                assert player["mission"] is None
            if seat == viewer:  # the owner still sees their own
                assert [m["id"] for m in player["discarded"]] == discarded
            else:
                assert player["discarded"] is None
    # the score says only what the revealed cards say: a failed mission pays nothing
    assert [p["breakdown"]["mission"] for p in GAME.result(state)["players"]] == [15, 0, 0, 0]


def test_nobody_sees_the_deck_order_or_the_seed():
    seed = 424_242_424_242
    state = GAME.setup(NAMES[:5], seed, "standard")
    bot = Rng.from_seed(9, "bot")
    log = []
    while GAME.status(state) != FINISHED:
        deck = state["deck"]
        for viewer in (None, *range(5)):
            seen = dumps(GAME.view(state, viewer)) + dumps([log_entry(GAME, e, viewer)
                                                               for e in log])
            if len(deck) >= 2:
                assert dumps(deck) not in seen
                assert dumps(deck[-2:]) not in seen  # not even the next two cards
            assert str(seed) not in seen and str(state["rng"]) not in seen
        seat = GAME.to_act(state)[0]
        action = bot.choice(GAME.legal_actions(state, seat))
        log.append({"seq": len(log) + 1, "seat": seat, "action": action,
                    "events": GAME.act(state, seat, dict(action))})


@pytest.mark.parametrize(("variant", "n"), [("standard", 2), ("standard", 3), ("small", 4),
                                            ("small", 5), ("simplified", 1), ("simplified", 6)])
def test_a_player_count_that_does_not_fit_the_variant_is_refused(variant, n):
    # RULINGS §1 variants: standard 4–5, small 2–3, simplified 2–5
    with pytest.raises(IllegalAction, match="players"):
        GAME.setup(NAMES[:n] + ["Fay"] * (n > 5), 1, variant)


def test_an_unknown_variant_is_refused():
    with pytest.raises(IllegalAction, match="variant"):
        GAME.setup(NAMES[:4], 1, "huge")


# --- digging ---------------------------------------------------------------------------------

def test_from_the_label_the_first_step_lands_on_the_leftmost_tile():
    # RULINGS board: from the label the first step lands on the leftmost remaining tile
    state = playing()
    lay(state, "B", [None, "gold", "ruby", None, "statue", "stone", None])
    dig(state, "B", 1)
    assert state["seats"][0]["tiles"]["gold"] == 1
    assert state["sites"]["B"]["tiles"][1] is None
    assert state["sites"]["B"]["pickax"] == 2  # it stays in the vacant space


def test_the_pickax_steps_over_empty_spaces_and_wraps_to_the_leftmost_tile():
    # rulebook "How to play": skip empty spaces like stepping stones; past the rightmost tile,
    # continue from the leftmost
    state = playing()
    lay(state, "C", ["stone", None, "knife", None, None, "ruby", None], pickax=4)
    dig(state, "C", 3)  # ruby (6), stone (1), knife (3)
    assert state["seats"][0]["tiles"]["knife"] == 1
    assert state["sites"]["C"]["pickax"] == 3


def test_the_pickax_never_goes_back_on_its_label():
    # rulebook: once moved away from the label, the pickax is never placed there again
    state = playing()
    lay(state, "D", ["stone", "gold", None, None, "ruby", None, "knife"], pickax=6)
    dig(state, "D", 2)  # knife, then past the rightmost tile to the stone
    assert state["seats"][0]["tiles"]["stone"] == 1
    assert state["sites"]["D"]["pickax"] == 1
    dig(state, "D", 6)  # gold, ruby, knife, gold, ruby, knife — never the label
    assert state["seats"][1]["tiles"]["knife"] == 1
    assert state["sites"]["D"]["pickax"] == 7


def test_the_turn_passes_clockwise():
    state = playing(n=5)
    for seat in (0, 1, 2, 3, 4, 0):
        assert GAME.to_act(state) == [seat]
        dig(state, "E", 1)
        state["sites"]["E"]["tiles"] = ["stone", "gold", "ruby", "knife", None, None, None]
        state["sites"]["E"]["pickax"] = 0


def test_a_plus_two_tile_pays_a_2_won_token():
    # rulebook "Special tiles": +2 → take a corresponding money token
    state = playing()
    lay(state, "A", ["gold", "ruby", "stone", None, None, None, None],
        marks=["plus_two", None, None, None, None, None, None])
    dig(state, "A", 1)
    assert state["seats"][0]["purse"] == 2


def test_a_star_tile_draws_a_chance_card():
    # rulebook "Chance cards": a tile with a star draws a chance card
    state = playing()
    events = star_dig(state, "appraisal")
    assert {"type": "card", "seat": 0, "card": "appraisal"} in events
    assert state["seats"][0]["drawn"] == 1
    assert [c["id"] for c in state["seats"][0]["cards"]] == ["appraisal"]


def test_an_empty_chance_deck_is_not_reshuffled():
    # RULINGS: an empty chance deck is not reshuffled; the star then does nothing
    state = playing()
    state["deck"] = []
    lay(state, "A", ["scroll", "gold", "ruby", "stone", None, None, None],
        marks=["star", None, None, None, None, None, None])
    dig(state, "A", 1)
    assert state["seats"][0]["drawn"] == 0
    assert state["seats"][0]["tiles"]["scroll"] == 1
    assert GAME.to_act(state) == [1]


def test_a_dig_names_an_open_site_of_the_board():
    state = playing("small", 2)
    abandon(state, "B")
    before = dumps(state)
    for site, reason in (("B", r"Andes \(B\) is abandoned"), ("G", "no dig site G on this table"),
                         ("a", None), (3, None), (None, None)):
        with pytest.raises(IllegalAction, match=reason) as refused:
            GAME.act(state, 0, {"type": "dig", "site": site})
        assert refused.value.field == "site"
    with pytest.raises(IllegalAction):
        GAME.act(state, 0, {"type": "dig"})
    with pytest.raises(IllegalAction):
        GAME.act(state, 0, {"type": "dig", "site": "A", "roll": 6})
    assert dumps(state) == before
    assert {a["site"] for a in GAME.legal_actions(state, 0)} == set("ACDEF")


# --- abandoning and the end ---------------------------------------------------------------------

def test_a_site_with_one_tile_left_is_abandoned_and_that_tile_leaves_play():
    # rulebook "Abandoning a dig site"; RULINGS: nobody scores that tile, its token returns
    state = playing()
    lay(state, "F", ["stone", None, None, None, "ruby", None, None],
        tokens=[None, None, None, None, 5, None, None], pickax=3)
    events = dig(state, "F", 2)  # ruby, stone: Ann takes the stone, the ruby is lost
    spot = state["sites"]["F"]
    assert spot["abandoned"] and spot["tiles"] == EMPTY_ROW and spot["tokens"] == EMPTY_ROW
    assert spot["pickax"] == 0  # rulebook: the pickax lies on the label, on the last tile
    assert state["abandoned"] == ["F"]
    assert state["seats"][0]["tiles"]["stone"] == 1
    assert tiles_held(state) == 1 and money(state["seats"][0]) == 0
    assert {"type": "abandoned", "seat": 0, "site": "F", "tile_lost": "ruby",
            "token_lost": 5} in events
    with pytest.raises(IllegalAction, match="abandoned"):
        dig(state, "F")


def test_closing_shop_is_achieved_by_the_player_whose_dig_abandons_a_site():
    # RULINGS missions: Closing Shop, your dig leaves a site with one tile
    state = playing()
    state["seats"][1]["mission"] = "closing_shop"
    state["seats"][2]["mission"] = "closing_shop"
    lay(state, "G", ["stone", "diamond", None, None, None, None, None])
    dig(state, "G", 1)  # Ann leaves one tile: she abandons Petra
    assert state["sites"]["G"]["abandoned_by"] == 0
    lay(state, "H", ["stone", "diamond", "ruby", None, None, None, None])
    dig(state, "H", 1)  # Bob leaves two tiles
    assert not state["sites"]["H"]["abandoned"]
    dig(state, "H", 1)  # Cid leaves one: Cid closes the shop
    assert state["sites"]["H"]["abandoned_by"] == 2
    state["status"] = FINISHED
    missions = [p.get("mission") for p in GAME.scoresheet(state)["players"]]
    assert missions[1] == {"id": "closing_shop", "achieved": False}
    assert missions[2] == {"id": "closing_shop", "achieved": True}


@pytest.mark.parametrize(("variant", "n", "limit"), [("small", 2, 5), ("small", 3, 5),
                                                     ("standard", 4, 8), ("standard", 5, 8),
                                                     ("simplified", 2, 5), ("simplified", 3, 5),
                                                     ("simplified", 4, 8), ("simplified", 5, 8)])
def test_the_game_ends_after_the_turn_that_abandons_the_last_site_of_the_limit(variant, n, limit):
    # rulebook "Game end": the 8th site (2–3 players: the 5th); simplified: the board's limit
    state = playing(variant, n)
    sites = list(state["sites"])
    abandon(state, *sites[:limit - 2])
    for site in sites[limit - 2:limit]:
        assert GAME.status(state) == PLAYING
        lay(state, site, ["stone", "gold", None, None, None, None, None])
        events = dig(state, site, 1)
    assert len(state["abandoned"]) == limit
    assert GAME.status(state) == FINISHED
    assert GAME.to_act(state) == []
    # RULINGS missions: an achieved mission is revealed, a failed one stays face down, and the
    # discarded ones are in no end event
    kept = [(seat, p["mission"]) for seat, p in enumerate(GAME.scoresheet(state)["players"])
            if "mission" in p]
    assert events[-1] == {"type": "game_over", "missions": [
        {"seat": seat, "mission": m["id"] if m["achieved"] else None, "achieved": m["achieved"]}
        for seat, m in kept]}
    assert len(kept) == (0 if variant == "simplified" else n)
    assert GAME.result(state)["players"]


def test_the_last_turn_still_resolves_its_chance_card():
    # rulebook "Game end": the game ends after the current player's turn
    state = playing("standard", 5)
    abandon(state, *"ABCDEFG")
    state["seats"][1]["purse"] = 7
    state["deck"].append("thief")
    lay(state, "H", ["scroll", "stone", None, None, None, None, None],
        marks=["star", None, None, None, None, None, None])
    dig(state, "H", 1)  # the 8th site is abandoned and a Thief drawn
    assert GAME.status(state) == PLAYING
    GAME.act(state, 0, {"type": "steal", "victim": 1})
    assert GAME.status(state) == FINISHED
    assert state["seats"][0]["purse"] == 3


def test_a_second_wind_gives_no_turn_past_the_end():
    state = playing("small", 3)
    abandon(state, *"ABCD")
    state["deck"].append("second_wind")
    lay(state, "E", ["scroll", "stone", None, None, None, None, None],
        marks=["star", None, None, None, None, None, None])
    dig(state, "E", 1)
    assert GAME.status(state) == FINISHED


# --- chance cards ------------------------------------------------------------------------------

@pytest.mark.parametrize(("card", "won"), [("lucky_coin", 2), ("treasure_chest", 5)])
def test_money_cards_pay_at_once(card, won):
    # RULINGS cards: Lucky Coin gain 2 ₩, Treasure Chest gain 5 ₩ (gray: resolve now)
    state = playing()
    star_dig(state, card)
    assert state["seats"][0]["purse"] == won
    assert state["seats"][0]["cards"] == []
    assert GAME.to_act(state) == [1]


@pytest.mark.parametrize(("card", "value"), [("strike_gold", 5), ("hazardous_area", -5)])
def test_strike_gold_and_hazardous_area_put_a_token_on_a_tile_without_one(card, value):
    # rulebook: you cannot put a money token on a tile that already has one
    state = playing()
    abandon(state, "J")
    lay(state, "B", ["stone", None, "ruby", "gold", None, None, None],
        tokens=[None, None, None, -5, None, None, None])
    star_dig(state, card)
    assert GAME.to_act(state) == [0]
    assert state["turn"]["step"] == "place_token"
    places = GAME.legal_actions(state, 0)
    assert {"type": "place_token", "site": "B", "space": 3} in places
    assert {"type": "place_token", "site": "B", "space": 4} not in places  # has a token
    assert {"type": "place_token", "site": "B", "space": 2} not in places  # no tile
    assert not any(p["site"] == "J" for p in places)  # abandoned
    assert not any(p["site"] == "A" and p["space"] == 1 for p in places)  # just taken
    before = dumps(state)
    for bad in ({"site": "B", "space": 4}, {"site": "B", "space": 2}, {"site": "J", "space": 1},
                {"site": "B", "space": 8}, {"site": "B", "space": "3"}, {"site": "B"}):
        with pytest.raises(IllegalAction):
            GAME.act(state, 0, {"type": "place_token", **bad})
    with pytest.raises(IllegalAction):
        GAME.act(state, 0, {"type": "dig", "site": "B"})  # the card is resolved first
    assert dumps(state) == before
    GAME.act(state, 0, {"type": "place_token", "site": "B", "space": 3})
    assert state["sites"]["B"]["tokens"][2] == value
    assert GAME.to_act(state) == [1]
    dig(state, "B", 2)  # stone, ruby: Bob takes the ruby and its token
    assert money(state["seats"][1]) == value
    # RULINGS money: a −5 token is kept apart from the money
    assert state["seats"][1]["hazards" if value < 0 else "purse"] == value


@pytest.mark.parametrize("card", ["strike_gold", "hazardous_area"])
def test_a_token_card_with_no_tile_free_of_a_token_is_spent_without_effect(card):
    # rulebook: no second money token on a tile; with none free the card is spent (engine doc)
    state = playing()
    abandon(state, "J")
    for site in "BCDEFGHI":  # every tile on the board already carries a token
        lay(state, site, ["stone", "gold", None, None, None, None, None],
            tokens=[5, -5, None, None, None, None, None])
    state["deck"].append(card)
    lay(state, "A", ["scroll", "gold", "ruby", None, None, None, None],
        marks=["star", None, None, None, None, None, None], tokens=[None, 5, -5, *EMPTY_ROW[3:]])
    events = dig(state, "A", 1)  # Ann takes the scroll: gold and ruby both carry a token
    assert {"type": "no_effect", "seat": 0, "card": card} in events
    assert state["turn"]["step"] == "dig"  # the next player's turn, nothing to place
    assert GAME.to_act(state) == [1]
    assert not any(a["type"] == "place_token" for a in GAME.legal_actions(state, 1))
    with pytest.raises(IllegalAction):
        GAME.act(state, 0, {"type": "place_token", "site": "A", "space": 2})
    assert state["sites"]["A"]["tokens"][1:3] == [5, -5]
    assert (state["seats"][0]["purse"], state["seats"][0]["hazards"]) == (0, 0)
    # every seat's log reads the card and that it did nothing
    entry = log_entry(GAME, {"seq": 9, "seat": 0, "action": {"type": "dig", "site": "A"},
                             "events": events}, 1)
    assert {"type": "no_effect", "seat": 0, "card": card} in entry["events"]


def test_money_can_go_below_zero():
    # RULINGS: totals can be negative (Hazardous Area); money and −5 tokens are kept apart
    state = playing()
    lay(state, "A", ["ruby", "gold", "stone", None, None, None, None],
        tokens=[-5, None, None, None, None, None, None])
    dig(state, "A", 1)
    assert (state["seats"][0]["purse"], state["seats"][0]["hazards"]) == (0, -5)
    ann = GAME.view(state, None)["players"][0]
    assert (ann["money"], ann["purse"], ann["hazards"]) == (-5, 0, -5)


def test_a_second_wind_gives_another_turn_right_after_this_one():
    state = playing()
    star_dig(state, "second_wind")
    assert GAME.to_act(state) == [0]
    assert state["turn"]["number"] == 2
    dig(state, "A", 1)
    assert GAME.to_act(state) == [1]


@pytest.mark.parametrize(("purse", "hazards", "taken"), [
    (10, 0, 3), (3, 0, 3), (2, 0, 2), (0, 0, 0), (0, -5, 0),
    (2, -5, 2), (7, -5, 3), (3, -10, 3)])  # a −5 token never shields the money
def test_a_thief_takes_up_to_3_won_of_the_chosen_players_money(purse, hazards, taken):
    # RULINGS: "Thief: take up to 3 ₩ of the chosen player's money (coins and +5 tokens ...),
    # never a −5 token: the amount is min(3, that player's money)"
    state = playing()
    state["seats"][2].update(purse=purse, hazards=hazards)
    star_dig(state, "thief")
    assert GAME.legal_actions(state, 0) == [{"type": "steal", "victim": v} for v in (1, 2, 3)]
    for bad in (0, 4, -1, "2", True):
        with pytest.raises(IllegalAction):
            GAME.act(state, 0, {"type": "steal", "victim": bad})
    events = GAME.act(state, 0, {"type": "steal", "victim": 2})
    assert {"type": "stole", "seat": 0, "victim": 2, "amount": taken} in events
    assert (state["seats"][0]["purse"], state["seats"][0]["hazards"]) == (taken, 0)
    assert (state["seats"][2]["purse"], state["seats"][2]["hazards"]) == (purse - taken, hazards)
    assert GAME.to_act(state) == [1]


def test_a_landslide_removes_the_leftmost_tile_of_the_site_chosen():
    # RULINGS cards: Landslide removes the leftmost remaining tile of a site from play
    state = playing()
    lay(state, "C", [None, "ruby", "gold", "knife", None, None, None],
        tokens=[None, 5, None, None, None, None, None], pickax=1)
    held = tiles_held(state)
    star_dig(state, "landslide")
    assert state["turn"]["step"] == "landslide"
    GAME.act(state, 0, {"type": "landslide", "site": "C"})
    assert state["sites"]["C"]["tiles"] == [None, None, "gold", "knife", None, None, None]
    assert state["sites"]["C"]["tokens"] == EMPTY_ROW  # the token went back to the bank
    assert tiles_held(state) == held + 1  # only the scroll Ann dug
    assert money(state["seats"][0]) == 0
    assert not state["sites"]["C"]["abandoned"]


def test_a_landslide_that_leaves_one_tile_abandons_the_site_but_closes_no_shop():
    # RULINGS cards: "(may abandon it)"; RULINGS missions: "Closing Shop: only your own dig can
    # leave the site with one tile; a Landslide that abandons a site does not count."
    state = playing()
    state["seats"][0]["mission"] = "closing_shop"
    lay(state, "D", ["stone", "ruby", None, None, None, None, None])
    star_dig(state, "landslide")
    events = GAME.act(state, 0, {"type": "landslide", "site": "D"})
    assert state["sites"]["D"]["abandoned"] and state["abandoned"] == ["D"]
    assert state["sites"]["D"]["tiles"] == EMPTY_ROW
    assert {"type": "abandoned", "seat": 0, "site": "D", "tile_lost": "ruby",
            "token_lost": None} in events
    assert state["seats"][0]["closed"] == 0
    assert GAME.view(state, None)["players"][0]["sites_closed"] == 0
    state["status"] = FINISHED
    assert not GAME.scoresheet(state)["players"][0]["mission"]["achieved"]


@pytest.mark.parametrize("card", ["pink_diamond", "gold_nugget", "ancient_map", "lucky_charm",
                                  "appraisal", "insurance"])
def test_orange_cards_are_kept_face_up(card):
    # rulebook: orange cards can be stored for use later in the game
    state = playing()
    star_dig(state, card)
    public = GAME.view(state, 2)["players"][0]["cards"]
    assert [c["id"] for c in public] == [card]
    assert public[0]["usable"]  # Ann's next turn is after this one
    assert GAME.scoresheet(state)["players"][0]["cards"] == {card: 1}


@pytest.mark.parametrize(("variant", "n"), [("standard", 4), ("small", 3)])
def test_every_view_names_the_chance_cards_used_as_the_log_told_them(variant, n):
    # rulebook "Chance cards": a card drawn is revealed and read aloud, then used (a gray card
    # at once, an orange one when played): the table knows which are out of the deck, and the
    # view says so, where a seat (a bot's sampler) once had only the count drawn.
    from collections import Counter

    from scoring.engine import random_bot

    state = GAME.setup(NAMES[:n], 21, variant)
    bot = random_bot(Rng.from_seed(21, "used"))
    drawn: Counter = Counter()
    seen_used = 0
    while state["status"] != FINISHED:
        seat = state["to_act"][0]
        for event in GAME.act(state, seat, dict(bot(GAME, state, seat))):
            if event["type"] == "card":
                drawn[event["card"]] += 1
        held = Counter(c["id"] for p in GAME.view(state, None)["players"] for c in p["cards"])
        used = GAME.view(state, None)["cards_used"]
        assert Counter(used) == drawn - held
        assert used == sorted(used, key=list(box.CARD_BY_ID).index)  # no order drawn shown
        assert all(GAME.view(state, s)["cards_used"] == used for s in range(n))
        seen_used = max(seen_used, len(used))
    assert seen_used >= 5


def test_an_orange_card_is_not_usable_in_the_turn_it_was_drawn():
    # rulebook: you may use orange cards starting from your next turn
    state = playing()
    state["seats"][0]["cards"] = [{"id": "ancient_map", "turn": state["turn"]["number"]}]
    assert all("ancient_map" not in a for a in GAME.legal_actions(state, 0))
    assert not GAME.view(state, 0)["players"][0]["cards"][0]["usable"]
    with pytest.raises(IllegalAction, match="Ancient Map"):
        dig(state, "A", ancient_map=3)


def test_an_ancient_map_drawn_is_played_on_a_later_turn_to_choose_the_result():
    state = playing()
    star_dig(state, "ancient_map")
    for _ in range(3):  # Bob, Cid and Dee dig
        dig(state, "B", 1)
        lay(state, "B", ["stone", "gold", "ruby", None, None, None, None])
    assert GAME.to_act(state) == [0]
    legal = GAME.legal_actions(state, 0)
    assert {"type": "dig", "site": "C", "ancient_map": 6} in legal
    lay(state, "C", ["stone", "knife", "ruby", "gold", None, None, None])
    for bad in (0, 7, "3", 2.0, None):
        with pytest.raises(IllegalAction):
            dig(state, "C", ancient_map=bad)
    rng = state["rng"]
    events = dig(state, "C", ancient_map=2)
    assert state["rng"] == rng  # no die was rolled
    assert {"type": "dig", "seat": 0, "site": "C", "roll": 2, "by": "ancient_map"} in events
    assert state["seats"][0]["tiles"]["knife"] == 1
    assert state["seats"][0]["cards"] == []  # played cards are spent


def test_a_lucky_charm_rolls_again_and_the_new_roll_is_kept():
    # RULINGS cards: Lucky Charm, play after rolling: roll again, keep the new roll
    state = playing()
    hold(state, 0, "lucky_charm")
    lay(state, "E", ["stone", "gold", "statue", "knife", "ruby", None, None])
    next_rolls(state, 1, 4)
    GAME.act(state, 0, {"type": "dig", "site": "E"})
    assert state["turn"]["step"] == "roll" and state["turn"]["roll"] == 1
    assert GAME.legal_actions(state, 0) == [{"type": "lucky_charm"}, {"type": "keep_roll"}]
    assert state["seats"][0]["tiles"]["stone"] == 0
    GAME.act(state, 0, {"type": "lucky_charm"})
    assert state["seats"][0]["tiles"]["knife"] == 1
    assert state["last_roll"] == {"seat": 0, "site": "E", "roll": 4, "by": "lucky_charm"}
    assert state["seats"][0]["cards"] == []


def test_several_lucky_charms_may_be_played_one_after_another():
    # RULINGS: "Lucky Charm: after a roll (the first, or one a Lucky Charm gave), play it to roll
    # again and keep the new roll. Several charms may be played one after another."
    state = playing()
    hold(state, 0, "lucky_charm", "lucky_charm", "lucky_charm")
    lay(state, "E", ["stone", "gold", "statue", "knife", "ruby", None, None])
    next_rolls(state, 1, 2, 3)
    dig(state, "E")
    events = GAME.act(state, 0, {"type": "lucky_charm"})
    assert events == [{"type": "reroll", "seat": 0, "site": "E", "roll": 2}]
    assert (state["turn"]["step"], state["turn"]["roll"]) == ("roll", 2)  # asked again
    assert GAME.legal_actions(state, 0) == [{"type": "lucky_charm"}, {"type": "keep_roll"}]
    GAME.act(state, 0, {"type": "lucky_charm"})
    assert (state["turn"]["step"], state["turn"]["roll"]) == ("roll", 3)
    GAME.act(state, 0, {"type": "keep_roll"})
    assert state["seats"][0]["tiles"]["statue"] == 1  # the third roll: 3
    assert [c["id"] for c in state["seats"][0]["cards"]] == ["lucky_charm"]
    assert GAME.to_act(state) == [1]


def test_the_last_lucky_charm_s_roll_is_taken_at_once():
    state = playing()
    hold(state, 0, "lucky_charm", "lucky_charm")
    lay(state, "E", ["stone", "gold", "statue", "knife", "ruby", None, None])
    next_rolls(state, 1, 2, 4)
    dig(state, "E")
    GAME.act(state, 0, {"type": "lucky_charm"})
    GAME.act(state, 0, {"type": "lucky_charm"})  # no charm left: the 4 is final
    assert state["seats"][0]["tiles"]["knife"] == 1
    assert state["seats"][0]["cards"] == []
    assert GAME.to_act(state) == [1]


def test_no_lucky_charm_after_an_ancient_map():
    # RULINGS: "A number chosen with an Ancient Map is not a roll: no charm after it."
    state = playing()
    hold(state, 0, "ancient_map", "lucky_charm")
    lay(state, "E", ["stone", "gold", "statue", "knife", "ruby", None, None])
    dig(state, "E", ancient_map=2)
    assert state["seats"][0]["tiles"]["gold"] == 1
    assert [c["id"] for c in state["seats"][0]["cards"]] == ["lucky_charm"]
    assert GAME.to_act(state) == [1]


def test_a_lucky_charm_may_be_kept_for_later():
    state = playing()
    hold(state, 0, "lucky_charm")
    lay(state, "E", ["stone", "gold", "statue", "knife", "ruby", None, None])
    dig(state, "E", 2)
    GAME.act(state, 0, {"type": "keep_roll"})
    assert state["seats"][0]["tiles"]["gold"] == 1
    assert [c["id"] for c in state["seats"][0]["cards"]] == ["lucky_charm"]
    assert GAME.to_act(state) == [1]


def test_without_a_lucky_charm_the_roll_is_taken_at_once():
    state = playing()
    hold(state, 1, "lucky_charm")  # someone else's card changes nothing for Ann
    dig(state, "E", 1)
    assert GAME.to_act(state) == [1]
    assert state["seats"][0]["tiles"]["stone"] == 1


def test_appraisal_insurance_gold_and_pink_diamond_count_at_scoring():
    # RULINGS scoring step 2 and "cards that count as a tile"
    state = playing()
    hold(state, 0, "appraisal", "insurance", "gold_nugget", "pink_diamond")
    state["seats"][0]["tiles"].update(gold=2, stone=4, crystal=2, scroll=2)  # 4 ★: 4 cards
    state["status"] = FINISHED
    ann = GAME.result(state)["players"][0]["breakdown"]
    assert ann["cards"] == 8 + 4  # Appraisal, and Insurance cancels the −4 stone set
    assert ann["sets"]["gold"] == 3  # two gold tiles and the Gold card
    assert ann["sets"]["stone"] == -4


# --- missions ---------------------------------------------------------------------------------

MISSION_CASES = [
    # (mission, a collection that achieves it, one that falls just short)
    ("jack_of_all_trades",
     {"tiles": {"gold": 1, "statue": 1, "scroll": 1, "crystal": 1, "ruby": 1, "diamond": 1}},
     {"tiles": {"gold": 1, "statue": 1, "scroll": 1, "crystal": 1, "ruby": 1}}),
    ("jack_of_all_trades",  # rulebook: the Pink Diamond card counts as the diamond
     {"tiles": {"gold": 1, "knife": 1, "scroll": 1, "crystal": 1, "ruby": 1},
      "cards": ["pink_diamond"]},
     {"tiles": {"gold": 1, "scroll": 1, "crystal": 1, "ruby": 1, "diamond": 1}}),
    ("closing_shop", {"closed": 1}, {"closed": 0}),
    ("gold_digger", {"tiles": {"gold": 5}}, {"tiles": {"gold": 4}}),
    ("gold_digger", {"tiles": {"gold": 4}, "cards": ["gold_nugget"]}, {"tiles": {"gold": 4}}),
    ("bronze_age", {"tiles": {"incense_burner": 1, "statue": 1, "knife": 1}},
     {"tiles": {"incense_burner": 2, "statue": 2}}),
    ("scholar", {"tiles": {"scroll": 4}}, {"tiles": {"scroll": 3}}),
    ("crystal_clear", {"tiles": {"crystal": 5}}, {"tiles": {"crystal": 4}}),
    ("ruby_hunter", {"tiles": {"ruby": 5}}, {"tiles": {"ruby": 4}}),
    ("diamond_hunter", {"tiles": {"diamond": 4}}, {"tiles": {"diamond": 3}}),
    ("clean_hands", {"tiles": {"gold": 2}}, {"tiles": {"gold": 2, "stone": 1}}),
    ("rock_collector", {"tiles": {"stone": 4}}, {"tiles": {"stone": 3}}),
    ("big_purse", {"purse": 12}, {"purse": 11}),
    # RULINGS: "money tokens worth 12+ ₩ net (−5 tokens count against it)"
    ("big_purse", {"purse": 17, "hazards": -5}, {"purse": 16, "hazards": -5}),
    ("card_shark", {"drawn": 5}, {"drawn": 4, "cards": ["appraisal"]}),
    ("bundler", {"tiles": {"gold": 2, "crystal": 3, "ruby": 1}},
     {"tiles": {"gold": 3, "crystal": 3, "ruby": 2}}),  # the 3 gold form a set, 5 are loose
    ("specialist", {"tiles": {"gold": 7}}, {"tiles": {"gold": 6, "ruby": 6}}),
    ("specialist", {"tiles": {"incense_burner": 3, "statue": 2, "knife": 2}},
     {"tiles": {"scroll": 6}}),
    # RULINGS: Specialist needs one treasure type with 7+ tiles (stones are not treasure)
    ("specialist", {"tiles": {"ruby": 7, "stone": 3}}, {"tiles": {"stone": 7, "ruby": 6}}),
    ("collector", {"tiles": {"gold": 3, "scroll": 3, "knife": 3}},
     {"tiles": {"gold": 3, "scroll": 3, "crystal": 3}}),  # 3 crystals form no set
    # RULINGS: Collector needs sets of 3 or more different treasure types: a stone set is none
    ("collector", {"tiles": {"gold": 3, "scroll": 3, "knife": 3, "stone": 3}},
     {"tiles": {"gold": 3, "scroll": 3, "stone": 3}}),
]


def mission_achieved(mission: str, collection: dict) -> bool:
    state = playing()
    ann = state["seats"][0]
    ann["mission"] = mission
    ann["tiles"].update(collection.get("tiles", {}))
    ann["purse"] = collection.get("purse", 0)
    ann["hazards"] = collection.get("hazards", 0)
    ann["drawn"] = collection.get("drawn", 0)
    ann["closed"] = collection.get("closed", 0)
    hold(state, 0, *collection.get("cards", ()))
    state["status"] = FINISHED
    sheet = GAME.scoresheet(state)["players"][0]
    assert sheet["mission"]["id"] == mission
    return sheet["mission"]["achieved"]


@pytest.mark.parametrize(("mission", "achieving", "short"), MISSION_CASES,
                         ids=[case[0] for case in MISSION_CASES])
def test_each_mission_is_judged_from_the_final_collection(mission, achieving, short):
    # rulebook "Mission achievement"; RULINGS mission table
    assert mission_achieved(mission, achieving)
    assert not mission_achieved(mission, short)


def test_every_mission_has_a_case():
    assert {case[0] for case in MISSION_CASES} == set(box.MISSION_BY_ID)


def test_an_achieved_mission_pays_its_bonus_and_a_failed_one_nothing():
    state = playing()
    state["seats"][0]["mission"] = "scholar"
    state["seats"][1]["mission"] = "ruby_hunter"
    state["seats"][0]["tiles"]["scroll"] = 4
    state["status"] = FINISHED
    result = GAME.result(state)["players"]
    assert result[0]["breakdown"]["mission"] == 15
    assert result[1]["breakdown"]["mission"] == 0


# --- variants --------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(10))
def test_the_small_game_removes_diamonds_and_multi_cards_and_missions(seed):
    # rulebook "2-3 Player game variation"; RULINGS: no diamonds, no multi cards or missions
    state = GAME.setup(NAMES[:3], seed, "small")
    assert list(state["sites"]) == list("ABCDEF")
    assert all("diamond" not in spot["tiles"] for spot in state["sites"].values())
    multi_cards = {c["id"] for c in box.CARDS if c["multi"]}
    assert len(state["deck"]) == 50 - sum(c["count"] for c in box.CARDS if c["multi"])
    assert not multi_cards & set(state["deck"])
    multi_missions = {m["id"] for m in box.MISSIONS if m["multi"]}
    dealt = {m for p in state["seats"] for m in p["offered"]}
    assert len(dealt) == 9 and not multi_missions & dealt
    assert state["abandon_limit"] == 5


@pytest.mark.parametrize(("n", "sites", "limit"), [(2, "ABCDEF", 5), (3, "ABCDEF", 5),
                                                   (4, "ABCDEFGHIJ", 8), (5, "ABCDEFGHIJ", 8)])
def test_the_simplified_game_has_no_cards_or_missions_and_the_board_of_its_size(n, sites, limit):
    # rulebook "Simplified variation"; RULINGS: board by player count
    state = GAME.setup(NAMES[:n], 2, "simplified")
    assert GAME.status(state) == PLAYING and GAME.to_act(state) == [0]
    assert state["deck"] == []
    assert all(p["offered"] == [] for p in state["seats"])
    assert "".join(state["sites"]) == sites and state["abandon_limit"] == limit
    view = GAME.view(state, 0)
    assert view["deck_size"] == 0 and view["offered_missions"] is None
    lay(state, "A", ["scroll", "gold", "ruby", "stone", None, None, None],
        marks=["star", None, None, None, None, None, None])
    events = dig(state, "A", 1)  # a ★ draws nothing
    assert [e["type"] for e in events] == ["dig", "took", "turn"]
    state["status"] = FINISHED
    assert all("mission" not in p for p in GAME.scoresheet(state)["players"])


def test_the_simplified_game_still_pays_plus_two_tiles():
    # rulebook "Simplified variation": "+2" tiles keep their value
    state = playing("simplified", 2)
    lay(state, "A", ["gold", "ruby", "stone", None, None, None, None],
        marks=["plus_two", None, None, None, None, None, None])
    dig(state, "A", 1)
    state["status"] = FINISHED
    ann = GAME.result(state)["players"][0]
    assert ann["breakdown"]["tokens"] == 2 and ann["total"] == 3  # and 1 ₩ for the loose gold


# --- the final money --------------------------------------------------------------------------

def test_joseph_position_ends_with_50_won_as_the_calculator_says():
    # rulebook "Final money calculation example" reached as an end position of a match
    state = playing()
    joseph = state["seats"][0]
    joseph["mission"] = "jack_of_all_trades"
    joseph["tiles"].update(gold=3, incense_burner=1, statue=2, knife=1, scroll=1, crystal=1,
                           ruby=1, stone=3)
    joseph["purse"] = 8
    hold(state, 0, "pink_diamond")
    state["status"] = FINISHED
    assert GAME.result(state)["players"][0]["total"] == 50


@pytest.mark.parametrize(("variant", "n"), [("standard", 4), ("standard", 5), ("small", 2),
                                            ("small", 3), ("simplified", 2), ("simplified", 5)])
def test_the_final_money_is_the_calculators_for_the_same_collections(variant, n):
    # RULINGS scoring: the calculator and the engine use the same function
    state, _ = play_out(GAME, NAMES[:n], 17, variant, bot_seed=5)
    sheet_players = []
    for seat, p in enumerate(state["seats"]):
        cards: dict[str, int] = {}
        for card in p["cards"]:
            cards[card["id"]] = cards.get(card["id"], 0) + 1
        entry = {"name": NAMES[seat], "tiles": p["tiles"], "tokens": money(p), "cards": cards}
        if variant != "simplified":
            achieved = next(e["mission_achieved"] for e in GAME.view(state, None)["players"]
                            if e["seat"] == seat)
            entry["mission"] = {"id": p["mission"], "achieved": achieved}
        sheet_players.append(entry)
    expected = score({"variant": variant, "players": sheet_players})
    assert GAME.result(state) == expected
    # every tile is held by a player, lost when its site was abandoned, or still on the board
    on_board = sum(t is not None for spot in state["sites"].values() for t in spot["tiles"])
    assert tiles_held(state) + on_board + len(state["abandoned"]) <= 7 * len(state["sites"])


def test_a_roll_waiting_to_be_kept_shows_where_it_lands_and_keeping_it_takes_that_tile():
    """A player choosing whether to keep a roll (a Lucky Charm in hand) sees which tile it would
    take: counted as the dig counts (RULINGS: steps over the remaining tiles, wrapping), so the
    view never names another tile than `keep_roll` takes."""
    seen = 0
    for seed in range(40):
        state = GAME.setup(NAMES[:3], seed, "small")
        bot = random_bot(Rng.from_seed(seed, "bot"))
        while state["status"] != FINISHED:
            seat = state["to_act"][0]
            shown = GAME.view(state, seat)["turn"]
            if state["turn"]["step"] == "roll":
                kept = copy.deepcopy(state)
                took = next(e for e in GAME.act(kept, seat, {"type": "keep_roll"})
                            if e["type"] == "took")
                assert shown["lands_on"] == {"space": took["space"], "tile": took["tile"]}
                seen += 1
            else:
                assert shown is None or shown["lands_on"] is None
            GAME.act(state, seat, bot(GAME, state, seat))
    assert seen >= 5
