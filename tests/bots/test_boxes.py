"""A game built from a box (scoring/boxes.py, scoring/bots/boxes.py `boxed`): boxes of one game
play side by side in one process, each reproducible, the printed game untouched; every number of
every box changes the game or is refused by name; a box that cannot make a game is refused with
the name at fault, what is wrong and what is allowed."""

import json
import pickle

import pytest

from scoring.bots.boxes import BoxError, boxed, boxed_by_id
from scoring.bots.simulations import Table, play
from scoring.dig import box as dig_box
from scoring.dig_it_up import box as dig_it_up_box
from scoring.engine import Game, play_out
from scoring.games import GAMES

DIG, DIG_IT_UP, DINOS = GAMES["dig"], GAMES["dig-it-up"], GAMES["digging-for-dinos"]


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True, default=list)


def played(game: Game, seed: int = 1) -> str:
    """A short look at the game: its catalogue entry and a random match at every table (and at
    its default variant), to the end."""
    matches = []
    for variant, n in [*game.tables(), (None, game.tables()[0][1])]:
        players = [f"P{i}" for i in range(n)]
        if variant is None and (game.default_variant, n) not in game.tables():
            continue
        state, _ = play_out(game, players, seed, variant)
        matches.append([state, game.result(state)])
    return dumps([game.detail(), matches])


def test_two_boxes_play_side_by_side_each_reproducible_and_the_printed_game_untouched():
    printed = played(DIG)
    tenfold = boxed(DIG, {"bowl_points": [50, 40, 30, 20, 10]})
    red = boxed(DIG, {"PAIR_BONES": {"green+red": ["red", "red"]}})
    assert tenfold is not DIG and red is not DIG and GAMES["dig"] is DIG
    table = ("greedy", "greedy")
    first = [play(Table(game, "standard", table), seed=7) for game in (tenfold, red, DIG)]
    again = [play(Table(game, "standard", table), seed=7) for game in (red, DIG, tenfold)]
    assert again == [first[1], first[2], first[0]]
    assert [10 * s for s in first[2]["scores"]] == first[0]["scores"]
    assert first[1] != first[2]
    # Nothing the boxed games did reached the printed game or its box file.
    assert played(DIG) == printed
    assert DIG.box is dig_box.DEFAULT and dig_box.BOWL_POINTS == (5, 4, 3, 2, 1)
    assert dig_box.DEFAULT.PAIR_BONES["green+red"] == ("green", "red")


def test_a_boxed_game_is_built_again_in_another_process_from_its_id_and_changes():
    game = boxed(DIG_IT_UP, {"SET_TABLE": {"gold": [[2, 5]]}, "DIE_SIDES": 4})
    assert game.box.changes == {"SET_TABLE": {**dig_it_up_box.DEFAULT.changes,
                                              **game.box.changes["SET_TABLE"]},
                                "DIE_SIDES": 4}
    for rebuilt in (pickle.loads(pickle.dumps(game)),
                    boxed_by_id(game.id, json.loads(json.dumps(game.box.changes)))):
        assert type(rebuilt) is type(game) and rebuilt.box.changes == game.box.changes
        assert played(rebuilt, 3) == played(game, 3)
    assert played(game, 3) != played(DIG_IT_UP, 3)
    # A change on a changed box keeps the first change.
    both = boxed(game, {"TRINITY_BONUS": 20})
    assert both.box.DIE_SIDES == 4 and both.box.TRINITY_BONUS == 20
    assert game.box.TRINITY_BONUS == 10


def first_leaf(value):
    """The path to the first whole number in `value` (else its first plain value)."""
    if isinstance(value, dict):
        paths = [(key, *first_leaf(part)) for key, part in value.items()]
    elif isinstance(value, (list, tuple)) and value:
        paths = [(i, *first_leaf(part)) for i, part in enumerate(value)]
    else:
        return ()
    for path in paths:
        leaf = at(value, path)
        if isinstance(leaf, int) and not isinstance(leaf, bool):
            return path
    return paths[0] if paths else ()


def at(value, path):
    for step in path:
        value = value[step]
    return value


def probes(value):
    """Changes of one plain value in `value`, as a box file would write them: a whole number one
    up and one down, text with a letter more, a truth turned over."""
    path = first_leaf(value)
    leaf = at(value, path)
    if isinstance(leaf, bool):
        news = [not leaf]
    elif isinstance(leaf, int):
        news = [leaf + 1, leaf - 1]
    else:
        news = [f"{leaf}x"]
    for new in news:
        yield change_at(value, path, new)


def change_at(value, path, new):
    """The change (merged by the box's rules) that sets the value at `path` to `new`: an object
    by its key, an entry with an id by its id, any other list whole."""
    if not path:
        return new
    step, rest = path[0], path[1:]
    entry = value[step]
    if isinstance(value, dict):
        return {str(step): change_at(entry, rest, new)}
    if all(isinstance(e, dict) and "id" in e for e in value):
        return [{"id": entry["id"], **change_at(entry, rest, new)}]
    whole = json.loads(dumps(value))
    whole[step] = change_at(entry, rest, new)
    return whole


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_every_number_of_the_box_changes_the_game_or_is_refused_by_name(game):
    printed = played(game)
    box = game.box
    for name in (n for n in box.names if n not in box.FIXED):
        outcomes = []
        for change in probes(getattr(box, name)):
            try:
                outcomes.append(played(boxed(game, {name: change})) != printed)
            except BoxError as exc:
                assert name in str(exc), (name, change, str(exc))
                outcomes.append("refused")
        assert True in outcomes or outcomes and set(outcomes) == {"refused"}, (name, outcomes)
    for name in (*box.FIXED, *box.DERIVED):
        with pytest.raises(BoxError, match=f"^{name}: "):
            boxed(game, {name: getattr(box, name)})


def test_dig_bones_follow_the_cards_and_one_colour_may_have_one_more():
    with pytest.raises(BoxError) as refused:
        boxed(DIG, {"BONES_PER_COLOUR": 5})
    assert str(refused.value) == ("BONES_PER_COLOUR: follows from PAIR_BONES (the bones of each "
                                  "scent pair's cards); change that instead.")
    with pytest.raises(BoxError, match="^CARDS_PER_PAIR: must be 2, not 3: what a seat can "
                                       "tell"):
        boxed(DIG, {"CARDS_PER_PAIR": 3})
    red = boxed(DIG, {"PAIR_BONES": {"green+red": ["red", "red"]}})
    assert red.box.BONES == {"green": 3, "yellow": 4, "purple": 4, "blue": 4, "red": 5}
    assert red.detail()["bones_per_colour"] == red.box.BONES
    assert sorted(red.card_colour[:red.first_bowl]).count(red.colour_index["red"]) == 5
    sheet = {"bowls": list(dig_box.COLOURS),
             "players": [{"name": "A", "dropped": {"red": 5}}]}
    assert red.score(sheet)["players"][0]["total"] == 5
    with pytest.raises(ValueError, match="dropped 5 red bones, but the game has only 4"):
        DIG.score(sheet)
    with pytest.raises(BoxError, match=r"PAIR_BONES.green\+red: each bone a colour of the scent "
                                       r"\(green, red\), not \[\"blue\", \"red\"\]\.$"):
        boxed(DIG, {"PAIR_BONES": {"green+red": ["blue", "red"]}})
    # a count gone wrong is said as such, not as bones of another scent
    with pytest.raises(BoxError, match=r"PAIR_BONES.green\+red: the bone of each of its 2 cards, "
                                       r"2 in all, not 3 \(\[\"green\", \"red\", \"red\"\]\)\.$"):
        boxed(DIG, {"PAIR_BONES": {"green+red": ["green", "red", "red"]}})


def test_a_site_of_eight_tiles_needs_sites_that_hold_eight():
    with pytest.raises(BoxError) as refused:
        boxed(DIG_IT_UP, {"SITE_TILES": 8})
    assert str(refused.value) == (
        "SITE_TILES: every site is a row of SITE_TILES spaces, holding SITE_STONES (1) and its "
        "treasures (SITES): A, B, C, D, E, F, G, H, I, J hold 7, not 8.")
    more_gold = {site: [name, {**treasures, "gold": treasures["gold"] + 1}]
                 for site, (name, treasures) in dig_it_up_box.SITES.items()}
    eight = boxed(DIG_IT_UP, {"SITE_TILES": 8, "SITES": more_gold})
    state = eight.setup(["A", "B", "C", "D"], 5, "standard")
    assert {len(site["tiles"]) for site in state["sites"].values()} == {8}
    assert eight.moves["place_token"].fields[1].high == 8
    assert DIG_IT_UP.moves["place_token"].fields[1].high == 7


def test_a_list_s_entries_are_each_held_to_the_printed_one_in_their_place():
    # README: a number at most ten times the printed one. A list replaced whole held every entry
    # to its first: the gold table's printed 200 ₩ at ten tiles (and even 199) was refused as
    # "at most 100", so a designer could not touch gold's last rows, nor add one.
    gold = [[3, 3], [4, 8], [5, 15], [6, 24], [7, 35], [8, 50], [9, 100], [10, 199], [11, 300]]
    changed = boxed(DIG_IT_UP, {"SET_TABLE": {"gold": gold}})
    sheet = {"players": [{"name": "Ann", "tiles": {"gold": 10}}]}
    assert changed.score(sheet)["players"][0]["breakdown"]["sets"]["gold"] == 199
    with pytest.raises(BoxError) as refused:
        boxed(DIG_IT_UP, {"SET_TABLE": {"gold": [*gold[:7], [10, 2001]]}})
    assert refused.value.problems == [
        "SET_TABLE.gold.7.1: at most 2000 (10 times the printed box's 200), not 2001."]


@pytest.mark.parametrize(("game", "changes", "problems"), [
    (DIG, {"HAND_LIMIT": "three", "nope": 1},
     ["HAND_LIMIT: expected a whole number, not \"three\".",
      "nope: the box has no such constant; it has VARIANTS, DEFAULT_VARIANT, COLOURS, "
      "BOWL_POINTS, CARDS_PER_PAIR, PAIR_BONES, MAX_MOVE, HAND_LIMIT, ACTIONS_PER_TURN."]),
    (DIG, {"HAND_LIMIT": 4},
     ["MAX_MOVE: a dog moves MAX_MOVE cards less one per bone in hand, and with a full hand "
      "(HAND_LIMIT 4) still 1: at least 5, not 4."]),
    # a name the box has not, beside a value that fits but makes no game: the second was said
    # only once the first was put right
    (DIG, {"HAND_LIMIT": 0, "nope": 1},
     ["nope: the box has no such constant; it has VARIANTS, DEFAULT_VARIANT, COLOURS, "
      "BOWL_POINTS, CARDS_PER_PAIR, PAIR_BONES, MAX_MOVE, HAND_LIMIT, ACTIONS_PER_TURN.",
      "HAND_LIMIT: at least 1 (a dog holds the bone it digs), not 0."]),
    (DIG, {"GAME_ID": "x", "MAX_MOVE": 0},
     ["GAME_ID: names the game and cannot change.",
      "MAX_MOVE: a dog moves MAX_MOVE cards less one per bone in hand, and with a full hand "
      "(HAND_LIMIT 3) still 1: at least 4, not 0."]),
    (DIG, [1, 2], ["A box is a JSON object: box constant → the new value."]),
    # A box is checked, then played, match after match: forty colours or a bowl worth a
    # thousand made each check tens of seconds, which any address could ask for again.
    (DIG, {"COLOURS": [f"c{i}" for i in range(40)], "BOWL_POINTS": [1000, 4, 3, 2, 1]},
     ["COLOURS: at most 10 entries (2 times the printed box's 5), not 40.",
      "BOWL_POINTS.0: at most 100 (any number may reach 100), not 1000."]),
    # the bound passed, not a range whose other end the constant may not reach either
    (DIG, {"HAND_LIMIT": 1_000_000_000},
     ["HAND_LIMIT: at most 100 (any number may reach 100), not 1000000000."]),
    # a huge number is told by its size, not repeated digit by digit (309 of them)
    (DIG, {"HAND_LIMIT": 10 ** 308},
     ["HAND_LIMIT: at most 100 (any number may reach 100), not 1e+308."]),
    # a value's words as the JSON it came in, and a limit explained by what set it
    (DIG_IT_UP, {"MISSIONS": [{"id": "jack_of_all_trades", "bonus": 1000}]},
     ["MISSIONS.jack_of_all_trades.bonus: at most 200 (10 times the printed box's 20), "
      "not 1000."]),
    # a +2 tile paying -3 ₩ was refused with a reason about a table not asked for, twice:
    # "−6 ₩ cannot be made of them" (of -3 ₩ tokens)
    (DIG_IT_UP, {"PLUS_TWO_VALUE": -3},
     ["PLUS_TWO_VALUE: at least 1 (what a +2 tile pays, in which the Simplified variant counts "
      "its money tokens), not -3."]),
    (DIG, {"COLOURS": ["green", "green", "red"], "BOWL_POINTS": [1, 2, 3]},
     ['COLOURS: two or more different names, none empty or holding \'+\', not ["green", '
      '"green", "red"].']),
    (DIG_IT_UP, {"SET_TABLE": {"gold": [[3, 5], [2, 20]]}},
     ['SET_TABLE.gold: one or more rows of [the least count, the bonus], the least counts '
      'rising from 1 up, not [[3, 5], [2, 20]].']),
    (DIG_IT_UP, {"SITES": {"A": ["Amazon", {"gold": "two"}]}, "GAME_ID": "dig"},
     ["SITES.A.1.gold: expected a whole number, not \"two\".",
      "GAME_ID: names the game and cannot change."]),
    (DIG_IT_UP, {"VARIANTS": {"small": {"diamonds": True, "abandon_limit": 7}}},
     ["VARIANTS.small.abandon_limit: how many abandoned sites end the game, 1 to 6, not 7.",
      "VARIANTS.small.diamonds: whether its sites (ABCDEF) hold diamonds: false, as SITES "
      "says, not true."]),
    (DIG_IT_UP, {"MISSIONS": [{"id": "scholar", "goal": {"measure": "luck"}}]},
     ["MISSIONS.scholar.goal.measure: one of count, fewest, trinities, sites_closed, tokens, "
      "cards_drawn, bundles, largest_set, sets, not \"luck\"."]),
    # One tile, one mark: a gold both ★ and +2 was dealt ★ alone, its +2 lost, while the tokens
    # of the simplified game were still allowed for it.
    (DIG_IT_UP, {"PLUS_TWO_TILE": "scroll"},
     ["PLUS_TWO_TILE: a tile type whose tiles are not ★ (STAR_TILES: scroll, crystal), as a "
      "tile holds one mark, not \"scroll\"."]),
    (DINOS, {"GRID_SIZE": {"2": 6}, "TOKENS": ["diagonal", "diagonal"]},
     ["GRID_SIZE.2: a grid of size × size tiles, dealt from the 33 tiles of era 1 (ROSTER) "
      "with room for 4 tokens and a tile left to refill from, not 6.",
      "TOKENS: the two sides DIRECTIONS names (orthogonal, diagonal), the side the first token "
      "is placed with first, not [\"diagonal\", \"diagonal\"]."]),
    # One era of 25 tiles, all dealt to a 5 × 5 grid: no refill would ever place the last tile,
    # which ends the game, and the match went on until a seat had nothing it could do.
    (DINOS, {"ERAS": 1, "ROSTER": [{"id": "velociraptor", "values": [1]},
                                   {"id": "brontosaurus", "values": [2]}]},
     [f"GRID_SIZE.{n}: a grid of size × size tiles, dealt from the 25 tiles of era 1 (ROSTER) "
      f"with room for {2 * n} tokens and a tile left to refill from, not 5." for n in (3, 4)]),
    # A table of one played its matches, then its report failed (no margin to the second) or
    # said "n must be positive": a match is won against someone.
    (DIG, {"VARIANTS": {"standard": {"players": [1, 4]}}},
     ["VARIANTS.standard.players: the fewest and the most players, from 2 up (a match is won "
      "against someone), not [1, 4]."]),
    (DIG_IT_UP, {"VARIANTS": {"standard": {"players": [1, 5]}}},
     ["VARIANTS.standard.players: the fewest and the most players, from 2 up (a match is won "
      "against someone), not [1, 5]."]),
], ids=["kinds-and-names", "hand-limit", "name-and-value", "fixed-and-value", "not-an-object",
        "too-big", "huge-hand-limit", "huge-number-told-by-its-size",
        "ten-times", "plus-two", "as-json", "set-table-as-json", "site-count", "variant",
        "mission-goal", "one-mark", "dinos", "dinos-dealt-whole", "dig-solo", "dig-it-up-solo"])
def test_a_box_that_makes_no_game_is_refused_with_every_problem(game, changes, problems):
    with pytest.raises(BoxError) as refused:
        boxed(game, changes)
    assert refused.value.problems == problems


def test_a_constant_named_twice_in_two_cases_is_refused_not_taken_at_its_last_value():
    # It was played at the last value, "HAND_LIMIT": 2 unheard.
    with pytest.raises(BoxError) as refused:
        boxed(DIG, {"HAND_LIMIT": 2, "hand_limit": 3})
    assert str(refused.value) == ("hand_limit: names HAND_LIMIT again, as HAND_LIMIT does; "
                                  "name each constant once.")
    assert boxed(DIG, {"hand_limit": 2}).box.HAND_LIMIT == 2  # either case, once
    # and not checked at the first of the two values, which may not be the one meant
    with pytest.raises(BoxError) as refused:
        boxed(DIG, {"HAND_LIMIT": 0, "hand_limit": 3})
    assert refused.value.problems == ["hand_limit: names HAND_LIMIT again, as HAND_LIMIT does; "
                                      "name each constant once."]


def test_a_game_a_box_breaks_says_each_reason_once(monkeypatch):
    """Every player's count gave the same reason, each said again: "… of them.; The …"."""
    from scoring.bots import boxes
    from scoring.results import InvalidScoresheet

    same = "Each +2 tile is a gold tile its player keeps."

    def broken(*args, **kwargs):
        raise InvalidScoresheet({"players.0.tokens": [same], "players.1.tokens": [same]})

    monkeypatch.setattr(boxes, "play_out", broken)
    with pytest.raises(BoxError) as refused:
        boxes.playable(DIG_IT_UP)
    assert refused.value.problems == [
        f"With this box, Dig It Up (standard, 4 players) cannot be played to its end: {same}"]
