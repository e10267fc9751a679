"""Shared test vectors for the phone page's scorers (web/static/scoring/): random scoresheets, most
of them possible and some not, with what the Python calculators answer for each (the result, or
the fields refused). The page's scorers must answer the same: test_vectors.py runs them on every
case under Node, and fails while vectors.json is not what this script writes.

    .venv/bin/python -m tests.web.vectors    # rewrite vectors.json after a rule changes
"""

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scoring.dig import box as dig_box
from scoring.dig_it_up import box as dig_it_up_box
from scoring.dig_it_up.score import CALCULATOR, declared, mission_achieved
from scoring.dinos import box as dinos_box
from scoring.dinos.score import CALCULATOR as DINOS
from scoring.games import GAMES
from scoring.results import InvalidScoresheet

PATH = Path(__file__).with_name("vectors.json")
CASES = 300  # a game
SEED = 13
NAMES = ["Ann", "Bob", "Joseph", "Ivan", "Matteo", "Zoë", "지민", "서연", "José", "Li Wei",
         "O'Neil", "Ann-Marie"]
MOST_COMPLETED = DINOS.most_completed()  # dinosaurs a player completes at most
TABLES = (1, 2, 2, 3, 3, 3, 4, 4, 5, 6)  # players at a table; 6 is the calculators' limit

Sheet = dict[str, Any]


def names(rng: random.Random) -> list[str]:
    return rng.sample(NAMES, rng.choice(TABLES))


def share(rng: random.Random, pool: dict[Any, int], players: int, most: int) -> list[dict]:
    """Some of `pool` shared out among the players, at most `most` of a kind each: small counts,
    so that equal totals are common."""
    shares: list[dict] = [{} for _ in range(players)]
    for kind in pool:
        for held in shares:
            n = rng.randint(0, min(most, pool[kind]))
            pool[kind] -= n
            if n or rng.random() < 0.3:  # a missing count means 0
                held[kind] = n
    return shares


def dig(rng: random.Random, broken: bool) -> Sheet:
    table = names(rng)
    pool = dict.fromkeys(dig_box.COLOURS, dig_box.BONES_PER_COLOUR)
    bowls = rng.sample(dig_box.COLOURS, len(dig_box.COLOURS))
    players = [{"name": name, "dropped": dropped}
               for name, dropped in zip(table, share(rng, pool, len(table), 2), strict=True)]
    if len(players) > 1 and rng.random() < 0.15:  # the same bones: still tied after the tie-break
        players[1]["dropped"] = dict(players[0]["dropped"])
    if broken and rng.random() < 0.3:
        bowls[rng.randrange(5)] = bowls[rng.randrange(5)]  # a bowl listed twice (or not)
    elif broken:
        colour = rng.choice(dig_box.COLOURS)
        players[-1]["dropped"][colour] = dig_box.BONES_PER_COLOUR
    return {"bowls": bowls, "players": players}


def roster(rng: random.Random) -> list[dict]:
    """A roster of the players' own, as the request may give one."""
    return [{"id": f"dino_{chr(97 + i)}", "name": f"Dino {i + 1}",
             "values": [rng.randint(0, 4) for _ in range(rng.randint(1, 6))],
             "set_value": rng.randint(0, 30)} for i in range(rng.randint(1, 4))]


def dinos(rng: random.Random, broken: bool) -> Sheet:
    sheet: Sheet = {}
    dinosaurs = dinos_box.ROSTER
    if rng.random() < 0.2:
        dinosaurs = sheet["roster"] = roster(rng)
    table = names(rng)
    chosen = rng.sample(dinosaurs, rng.randint(1, len(dinosaurs)))
    pool = {(d["id"], p): dinos_box.ERAS for d in chosen for p in range(1, len(d["values"]) + 1)}
    sheet["players"] = []
    for name, held in zip(table, share(rng, pool, len(table), 2), strict=True):
        tiles: dict[str, list[int]] = {}
        for (dino_id, position), n in held.items():
            tiles.setdefault(dino_id, []).extend([position] * n)
        for positions in tiles.values():
            rng.shuffle(positions)
        sheet["players"].append({"name": name, "tiles": tiles})
    if broken:
        tiles = sheet["players"][0]["tiles"]
        dinosaur = rng.choice(dinosaurs)
        problem = rng.choice(["position", "unknown", "eras", "completed"])
        if problem == "position":
            tiles.setdefault(dinosaur["id"], []).append(len(dinosaur["values"]) + 1)
        elif problem == "unknown":
            tiles["dodo"] = [1]
        elif problem == "completed" and len(dinosaurs) * dinos_box.ERAS > MOST_COMPLETED:
            # one dinosaur more than anyone completes: a fourth ends the game
            for n, dinosaur in zip(range(MOST_COMPLETED + 1, 0, -dinos_box.ERAS), dinosaurs,
                                   strict=False):
                sets = min(n, dinos_box.ERAS)
                tiles[dinosaur["id"]] = list(range(1, len(dinosaur["values"]) + 1)) * sets
        else:
            tiles[dinosaur["id"]] = [1] * (dinos_box.ERAS + 1)
    return sheet


def dig_it_up_mission(rng: random.Random, player: dict, missions: list[str]) -> dict | None:
    """A player's mission: one of `missions`, the cards still in the box, taken from it."""
    roll = rng.random()
    if roll < 0.2:
        return None
    if roll < 0.3:
        return {"bonus": rng.randint(0, 30), "achieved": rng.random() < 0.5}
    mission = {"id": missions.pop(rng.randrange(len(missions)))}
    if declared(mission["id"]):
        mission["achieved"] = rng.random() < 0.5
    elif rng.random() < 0.5:  # said, as the counts decide it
        mission["achieved"] = mission_achieved(mission["id"], player)
    return mission


def within_sites(tiles: list[dict[str, int]], variant: str) -> None:
    """Each dig site's last tile leaves play as the site is abandoned: the players' `tiles` past
    the board's but one a site go back, the last player's first."""
    over = sum(sum(held.values()) for held in tiles) - \
        dig_it_up_box.DEFAULT.diggable(variant, len(tiles))
    for held in reversed(tiles):
        for tile in held:
            back = min(max(over, 0), held[tile])
            held[tile] -= back
            over -= back


def dig_it_up(rng: random.Random, broken: bool) -> Sheet:
    variant = rng.choice(list(dig_it_up_box.VARIANTS))
    spec = dig_it_up_box.VARIANTS[variant]
    table = names(rng)
    sites = dig_it_up_box.board(variant, len(table))["sites"]  # the simplified game's by its size
    board = {"stone": len(sites)}
    for site in sites:
        for tile, n in dig_it_up_box.SITES[site][1].items():
            board[tile] = board.get(tile, 0) + n
    kept = {c["id"]: c["count"] for c in dig_it_up_box.CARDS
            if spec["cards"] and c["colour"] == "orange" and (spec["multi"] or not c["multi"])}
    missions = [m["id"] for m in dig_it_up_box.MISSIONS if spec["multi"] or not m["multi"]]
    sheet: Sheet = {"players": []}
    if variant != "standard" or rng.random() < 0.5:
        sheet["variant"] = variant
    tiles = share(rng, dict(board), len(table), 7)
    within_sites(tiles, variant)
    cards = share(rng, kept, len(table), 1)
    for held, cards_held in zip(tiles, cards, strict=True):
        # a card is drawn for a ★ tile dug, one a tile: those past the ★ tiles go back
        stars = sum(held.get(t, 0) for t in dig_it_up_box.STAR_TILES)
        for card in list(cards_held):
            cards_held[card] = min(cards_held[card], stars)
            stars -= cards_held[card]
    twins = len(table) > 1 and rng.random() < 0.2  # two players with the same money: a shared win
    if twins:
        for tile in list(dict.fromkeys([*tiles[0], *tiles[1]])):  # shared evenly: both fit
            tiles[0][tile] = (tiles[0].get(tile, 0) + tiles[1].get(tile, 0)) // 2
    # Without chance cards the tokens come from the board's +2 tiles alone (RULINGS §1): an even
    # share of their worth each, so that twins fit too.
    plus_two = dig_it_up_box.PLUS_TWO_VALUE
    share_of_plus_two = (plus_two * dig_it_up_box.DEFAULT.plus_two_tiles(variant, len(table))
                         // len(table) // plus_two * plus_two)
    for name, held, cards_held in zip(table, tiles, cards, strict=True):
        tokens = rng.randint(-10, 30)
        if not spec["cards"]:  # and each +2 tile a gold tile its player keeps
            tokens = min(abs(tokens) // plus_two * plus_two, share_of_plus_two,
                         plus_two * held.get(dig_it_up_box.PLUS_TWO_TILE, 0))
        player = {"name": name, "tiles": held, "tokens": tokens, "cards": cards_held}
        if spec["missions"]:
            player["mission"] = dig_it_up_mission(rng, player, missions)
        sheet["players"].append(player)
    if twins:
        first, twin = sheet["players"][:2]
        twin.update(copy.deepcopy({k: v for k, v in first.items() if k != "name"}))
        if twin.get("mission") and "id" in twin["mission"]:  # each mission is one card
            kept = first["mission"]["id"]
            twin["mission"] = {"bonus": dig_it_up_box.MISSION_BY_ID[kept]["bonus"],
                               "achieved": CALCULATOR.achieved(first)}
    if spec["cards"]:
        # money below zero is Hazardous Area's −5 ₩ tokens, four in the box: past them, a
        # player's money is above zero
        left = HAZARD["count"]
        for player in sheet["players"]:
            needed = -(min(player["tokens"], 0) // -HAZARD["token"])
            if needed > left:
                player["tokens"] = -player["tokens"]
            else:
                left -= needed
    if broken:
        player = sheet["players"][0]
        problem = rng.choice(["contradicted", "diamond", "gray", "stones", "mission", "board",
                              "twice", "tokens", "stars", "debt"])
        if problem == "stars" and spec["cards"]:  # a card more than the ★ tiles drew
            stars = sum(player["tiles"].get(t, 0) for t in dig_it_up_box.STAR_TILES)
            kept = sum(player["cards"].values())
            player["cards"]["appraisal"] = player["cards"].get("appraisal", 0) + stars - kept + 1
        elif problem == "debt" and spec["cards"]:  # below the box's four −5 ₩ tokens
            player["tokens"] = rng.choice([-21, -45])
        elif problem == "tokens" and not spec["cards"]:
            # money no +2 tile makes: negative, odd, or more than the board's +2 tiles bring
            player["tokens"] = rng.choice([-plus_two, plus_two + 1, plus_two * (
                dig_it_up_box.DEFAULT.plus_two_tiles(variant, len(table)) + 1)])
        elif problem == "contradicted" or not spec["missions"]:
            mission = rng.choice([m for m in missions if not declared(m)])
            player["mission"] = {"id": mission,
                                 "achieved": not mission_achieved(mission, player)}
        elif problem == "diamond":
            player["tiles"]["diamond"] = 1
        elif problem == "gray":
            player["cards"]["thief"] = 1
        elif problem == "stones":
            player["tiles"]["stone"] = 11
        elif problem == "twice":  # a mission another player holds: the box has one of each
            player["mission"] = {"id": rng.choice(dig_it_up_box.MISSIONS)["id"]}
            if len(table) > 1:
                sheet["players"][-1]["mission"] = dict(player["mission"])
        elif problem == "board":  # one more of a type than the board holds, among the table
            tile = rng.choice(dig_it_up_box.TILE_TYPES)
            others = sum(p["tiles"].get(tile, 0) for p in sheet["players"][1:])
            player["tiles"][tile] = board.get(tile, 0) - others + 1
        else:
            player["mission"] = {"id": "jack_of_all_trades", "achieved": False}
    return sheet


# Cases a random table seldom deals, after the random ones.
FIVE_KEPT = {"gold_nugget": 1, "ancient_map": 1, "lucky_charm": 1, "appraisal": 1, "insurance": 1}
FIVE_STARS = {"scroll": 2, "crystal": 3}  # each card drawn for a ★ tile dug
FIXED: dict[str, list[Sheet]] = {"dig-it-up": [
    # five cards kept were drawn: Card Shark is achieved, and said failed it is refused
    {"players": [{"name": "Ann", "tiles": FIVE_STARS, "cards": FIVE_KEPT,
                  "mission": {"id": "card_shark"}},
                 {"name": "Bob", "tiles": {"gold": 3}}]},
    {"players": [{"name": "Ann", "tiles": FIVE_STARS, "cards": FIVE_KEPT,
                  "mission": {"id": "card_shark", "achieved": False}}]},
    # four prove nothing: as the player says
    {"players": [{"name": "Ann", "tiles": FIVE_STARS, "cards": {"appraisal": 2, "gold_nugget": 2},
                  "mission": {"id": "card_shark", "achieved": True}}]},
    # but four ★ tiles rule it out: said achieved, it is refused; said failed, it pays nothing
    {"players": [{"name": "Ann", "tiles": {"scroll": 1, "crystal": 3},
                  "mission": {"id": "card_shark", "achieved": True}}]},
    {"players": [{"name": "Ann", "tiles": {"scroll": 1, "crystal": 3},
                  "mission": {"id": "card_shark", "achieved": False}}]},
    # no more cards kept than ★ tiles held; money below zero within the box's −5 ₩ tokens
    {"players": [{"name": "Ann", "tiles": {"gold": 3}, "cards": {"appraisal": 4}},
                 {"name": "Bob", "tiles": {"scroll": 3, "crystal": 4}}]},
    {"players": [{"name": "Ann", "tokens": -20}, {"name": "Bob", "tokens": -1}]},
    {"players": [{"name": "Ann", "tokens": -11}, {"name": "Bob", "tokens": -6}]},
    # the box has one card of each mission
    {"players": [{"name": "Ann", "tiles": {"gold": 5}, "mission": {"id": "gold_digger"}},
                 {"name": "Bob", "tiles": {"gold": 5}, "mission": {"id": "gold_digger"}}]},
    # without chance cards, money comes from +2 tiles alone, each a gold tile its player keeps:
    # the small board's 6 bring 12 ₩
    {"variant": "simplified", "players": [{"name": "Ann", "tokens": 8, "tiles": {"gold": 4}},
                                          {"name": "Bob", "tokens": 4, "tiles": {"gold": 2}}]},
    {"variant": "simplified", "players": [{"name": "Ann", "tokens": 8, "tiles": {"gold": 4}},
                                          {"name": "Bob", "tokens": 6, "tiles": {"gold": 3}}]},
    {"variant": "simplified", "players": [{"name": "Ann", "tokens": -2}]},
    {"variant": "simplified", "players": [{"name": "Ann", "tokens": 6, "tiles": {"gold": 2}}]},
    # every tile of the small board's six sites but each one's last, and one tile more
    {"variant": "small", "players": [
        {"name": "Ann", "tiles": {"gold": 10, "incense_burner": 3, "statue": 3, "stone": 2}},
        {"name": "Bob", "tiles": {"knife": 3, "scroll": 5, "crystal": 6, "ruby": 4}}]},
    {"variant": "small", "players": [
        {"name": "Ann", "tiles": {"gold": 10, "incense_burner": 3, "statue": 3, "stone": 2}},
        {"name": "Bob", "tiles": {"knife": 3, "scroll": 5, "crystal": 6, "ruby": 5}}]},
]}

HAZARD = next(c for c in dig_it_up_box.CARDS if c.get("token", 0) < 0)

SHEETS: dict[str, Callable[[random.Random, bool], Sheet]] = {
    "dig-it-up": dig_it_up, "dig": dig, "digging-for-dinos": dinos}


def answer(game: str, sheet: Sheet) -> dict:
    """What the calculator answers: the result, or the fields it refuses."""
    try:
        return {"result": GAMES[game].score(copy.deepcopy(sheet))}
    except InvalidScoresheet as refused:
        return {"errors": sorted(refused.errors)}


def build() -> str:
    """vectors.json's text: one case a line, so that a change reads well in a diff."""
    rng = random.Random(SEED)
    parts = []
    for game, make in SHEETS.items():
        cases = []
        sheets = [make(rng, broken=rng.random() < 0.15) for _ in range(CASES)]
        for sheet in [*sheets, *FIXED.get(game, [])]:
            cases.append(json.dumps({"sheet": sheet, **answer(game, sheet)}, ensure_ascii=False,
                                    separators=(",", ":")))
        parts.append(f'"{game}": [\n' + ",\n".join(cases) + "\n]")
    return "{\n" + ",\n".join(parts) + "\n}\n"


if __name__ == "__main__":
    PATH.write_text(build(), encoding="utf-8")
    print(f"wrote {PATH}")
