"""Dig It Up's bots: the greedy heuristic, the sampler of what a seat cannot see, the playout
policy of the search and the figures of a finished match.

The greedy heuristic (one ply). A seat's holdings are worth what the calculator would pay for
them now (`score_player`, the mission counted when achieved), plus a share of the bonuses in
reach: for each treasure set, PROGRESS × (the next set bonus − the one reached) × (count / the
count that bonus needs)², and for the kept mission PROGRESS × its bonus × (progress)². A tile's
gain is what it adds to that worth, with the money token on it, a +2 mark's 2 ₩ and, for a ★,
STAR_WORTH while the deck lasts.
- Mission: the one with the largest bonus × chance, the chance read from the board: for a goal
  of so many tiles of a set, the tiles of that set on the board per player against the goal;
  for the others, a fixed guess (CHANCE).
- Dig: the site with the largest gain averaged over the six rolls (the pickax steps as the
  rules say); a dig that abandons the site that ends the game adds END_WORTH if the seat would
  then lead, takes it off if not. An Ancient Map is played when the best tile it can choose
  gains MAP_WORTH more than the best roll would on average.
- Lucky Charm: played when a new roll gains on average CHARM_WORTH more than the roll kept.
- Strike Gold: the +5 token on the tile the seat would gain most from; Hazardous Area: the −5
  on the tile the next player would gain most from. Thief: the richest purse. Landslide: the
  site whose leftmost tile the other players would gain most from, less what the seat would.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from typing import Any

from scoring.engine import PLAYING, SETUP, Action, Game, Rng, State

from . import box
from .engine import DIE, DIG, MISSION_CARDS
from .score import TREASURE_SETS, mission_achieved, score_player

PROGRESS = 0.5  # a bonus in reach against the same bonus reached
STAR_WORTH = 2.0  # a chance card drawn, on average
END_WORTH = 15.0  # ending the game in the lead (or not)
MAP_WORTH = 3.0  # keeping an Ancient Map for later
CHARM_WORTH = 1.5  # keeping a Lucky Charm for later
# The chance to achieve a mission whose goal is not a number of tiles of one set (a guess).
CHANCE = {"fewest": 0.3, "sites_closed": 0.5, "trinities": 0.4, "tokens": 0.3,
          "cards_drawn": 0.4, "bundles": 0.6, "largest_set": 0.15, "sets": 0.35,
          "clean_hands": 0.3}
# How often each mission was achieved by the seats that kept it, over 400 two-player matches of
# the small variant between greedy bots (the search's evaluation reads it for the missions whose
# goal is not a number of tiles of one set).
ACHIEVED = {"closing_shop": 1.0, "bronze_age": 0.68, "card_shark": 0.52, "bundler": 0.52,
            "collector": 0.39, "big_purse": 0.32, "specialist": 0.2, "clean_hands": 0.17}
# What the playout policy reckons a tile is worth before the sets it helps.
TILE_WORTH = {"gold": 1.5, "incense_burner": 2.0, "statue": 2.0, "knife": 2.0, "scroll": 2.0,
              "crystal": 2.5, "ruby": 2.5, "diamond": 3.0, "stone": -1.0}


# --- what holdings are worth ------------------------------------------------------------------

class Holdings:
    """A seat's tiles, money, kept cards and mission, as the greedy heuristic values them."""

    def __init__(self, variant: str, tiles: dict[str, int], money: int, cards: list[str],
                 mission: str | None, closed: int, drawn: int, chance: float = 0.0) -> None:
        self.variant, self.tiles, self.money, self.cards = variant, tiles, money, cards
        self.mission, self.closed, self.drawn = mission, closed, drawn
        self.chance = chance  # of achieving the mission, as the board suggests

    @classmethod
    def seen(cls, view: dict[str, Any], seat: int) -> Holdings:
        """A seat's holdings as a view shows them (another seat's mission is not shown)."""
        player = view["players"][seat]
        mission = player["mission"]["id"] if player["mission"] else None
        chance = 0.0 if mission is None else \
            mission_chance(mission, board_sets(view["sites"], "spaces"), len(view["players"]))
        return cls(view["variant"], player["tiles"], player["money"],
                   [c["id"] for c in player["cards"]], mission, player["sites_closed"],
                   player["cards_drawn"], chance)

    def sheet(self, tiles: dict[str, int]) -> dict[str, Any]:
        return {"name": "", "tiles": tiles, "tokens": self.money,
                "cards": dict(Counter(self.cards))}

    def worth(self, tile: str | None = None, money: int = 0) -> float:
        """The holdings' worth (module docstring), with one more `tile` and `money`."""
        tiles = dict(self.tiles)
        if tile is not None:
            tiles[tile] += 1
        player = self.sheet(tiles)
        player["tokens"] += money
        reach = 0.0
        if self.mission is not None:
            achieved = mission_achieved(self.mission, player, self.closed, self.drawn)
            player["mission"] = {"id": self.mission, "achieved": achieved}
            goal = box.MISSION_BY_ID[self.mission]["goal"]
            if not achieved:
                progress = 0.0
                if goal["measure"] == "count" and "min" in goal:
                    held = sum(n for t, n in tiles.items() if box.SET_OF[t] == goal["of"])
                    progress = PROGRESS * (held / goal["min"]) ** 2
                reach += box.MISSION_BY_ID[self.mission]["bonus"] * max(self.chance, progress)
        for set_id in TREASURE_SETS:
            held = sum(n for t, n in tiles.items() if box.SET_OF[t] == set_id)
            reach += PROGRESS * next_bonus(self.variant, set_id, held)
        return score_player(player, self.variant)["total"] + reach

    def gains(self) -> dict[str, float]:
        """What one more tile of each type adds to the worth."""
        now = self.worth()
        return {tile: self.worth(tile) - now for tile in box.TILE_TYPES}


def next_bonus(variant: str, set_id: str, held: int) -> float:
    """The next bonus of a set not yet reached, weighted by (held / what it needs)²."""
    if variant == "simplified":
        rows: tuple = ((box.SIMPLIFIED_SET_MIN, box.SIMPLIFIED_SET_BONUS),)
    else:
        rows = box.SET_TABLE[set_id]
    reached = 0
    for minimum, bonus in rows:
        if held < minimum:
            return (bonus - reached) * (held / minimum) ** 2
        reached = bonus
    return 0.0


# --- the board, as a view shows it ------------------------------------------------------------

def landing(site: dict[str, Any], roll: int) -> dict[str, Any]:
    """The space a pickax lands on with `roll` (RULINGS: steps go right over the remaining
    tiles, wrapping to the leftmost)."""
    spaces = site["spaces"]
    remaining = [i for i, space in enumerate(spaces) if space["tile"] is not None]
    passed = bisect_left(remaining, site["pickax"] - 1)
    return spaces[remaining[(passed + roll - 1) % len(remaining)]]


def tile_gain(space: dict[str, Any], gains: dict[str, float], stars: bool) -> float:
    """What taking the tile in `space` brings, with its token and its mark."""
    gain = gains[space["tile"]] + (space["token"] or 0)
    if space["mark"] == box.PLUS_TWO:
        gain += box.PLUS_TWO_VALUE
    elif space["mark"] == box.STAR and stars:
        gain += STAR_WORTH
    return gain


def remaining(site: dict[str, Any]) -> int:
    return sum(1 for space in site["spaces"] if space["tile"] is not None)


class Reading:
    """What the greedy heuristic reads off a view once per choice."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.me = view["you"]
        self.holdings = Holdings.seen(view, self.me)
        self.gains = self.holdings.gains()
        self.stars = view["deck_size"] > 0
        self.sites = {site["id"]: site for site in view["sites"] if not site["abandoned"]}

    def others(self) -> list[int]:
        n = len(self.view["players"])
        return [(self.me + k) % n for k in range(1, n)]

    def dig_gain(self, site_id: str, roll: int) -> float:
        site = self.sites[site_id]
        gain = tile_gain(landing(site, roll), self.gains, self.stars)
        if remaining(site) == 2:  # the dig abandons the site
            gain += self.abandoning(gain)
        return gain

    def expected_dig(self, site_id: str) -> float:
        return sum(self.dig_gain(site_id, roll) for roll in range(1, DIE + 1)) / DIE

    def abandoning(self, gain: float) -> float:
        """What abandoning a site is worth beyond the tile: Closing Shop, and the end."""
        worth = 0.0
        if self.holdings.mission == "closing_shop" and not self.holdings.closed:
            worth += box.MISSION_BY_ID["closing_shop"]["bonus"]
        if len(self.view["abandoned"]) + 1 >= self.view["abandon_limit"]:
            mine = self.holdings.worth() + gain
            best_other = max(Holdings.seen(self.view, s).worth() for s in self.others())
            worth += END_WORTH if mine > best_other else -END_WORTH
        return worth


def board_sets(sites: Any, spaces: str) -> Counter:
    """How many tiles of each set lie on the board (a view's sites, or a state's)."""
    found: Counter = Counter()
    for site in sites:
        for tile in site[spaces]:
            tile = tile["tile"] if spaces == "spaces" else tile
            if tile is not None:
                found[box.SET_OF[tile]] += 1
    return found


def mission_chance(mission_id: str, on_board: Counter, players: int) -> float:
    """How likely a seat is to achieve a mission, read from the board: for a goal of so many
    tiles of a set, that set's tiles on the board per player against the goal; else CHANCE."""
    goal = box.MISSION_BY_ID[mission_id]["goal"]
    if goal["measure"] != "count":
        return CHANCE[goal["measure"]]
    if "max" in goal:  # Clean Hands: no stones
        return CHANCE["clean_hands"]
    return max(0.0, min(1.0, on_board[goal["of"]] / players / goal["min"] - 0.5))


def greedy(game: Game, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
    kind = legal[0]["type"]
    if kind == "keep_mission":
        on_board = board_sets(view["sites"], "spaces")
        return max(legal, key=lambda a: MISSION_CARDS[a["mission"]]["bonus"]
                   * mission_chance(a["mission"], on_board, len(view["players"])))
    if kind == "steal":
        return max(legal, key=lambda a: view["players"][a["victim"]]["purse"])
    reading = Reading(view)
    if view["turn"]["step"] == DIG:
        return choose_dig(reading, legal)
    if kind in ("lucky_charm", "keep_roll"):
        turn = view["turn"]
        kept = reading.dig_gain(turn["site"], turn["roll"])
        again = reading.expected_dig(turn["site"])
        return {"type": "lucky_charm" if again > kept + CHARM_WORTH else "keep_roll"}
    if kind == "place_token":
        return place_token(reading, legal)
    return landslide(reading, legal)


def choose_dig(reading: Reading, legal: list[Action]) -> Action:
    rolled = [a for a in legal if "ancient_map" not in a]
    best = max(rolled, key=lambda a: reading.expected_dig(a["site"]))
    mapped = [a for a in legal if "ancient_map" in a]
    if mapped:
        chosen = max(mapped, key=lambda a: reading.dig_gain(a["site"], a["ancient_map"]))
        if reading.dig_gain(chosen["site"], chosen["ancient_map"]) > \
                reading.expected_dig(best["site"]) + MAP_WORTH:
            return chosen
    return best


def place_token(reading: Reading, legal: list[Action]) -> Action:
    value = box.CARD_BY_ID[reading.view["turn"]["card"]]["token"]
    gains = reading.gains if value > 0 else \
        Holdings.seen(reading.view, reading.others()[0]).gains()

    def wanted(action: Action) -> float:
        space = reading.sites[action["site"]]["spaces"][action["space"] - 1]
        return gains[space["tile"]]

    return max(legal, key=wanted)


def landslide(reading: Reading, legal: list[Action]) -> Action:
    theirs = [Holdings.seen(reading.view, s).gains() for s in reading.others()]

    def worth(action: Action) -> float:
        site = reading.sites[action["site"]]
        tile = next(s["tile"] for s in site["spaces"] if s["tile"] is not None)
        return max(g[tile] for g in theirs) - reading.gains[tile]

    return max(legal, key=worth)


# --- the search -------------------------------------------------------------------------------

def obvious(game: Game, view: dict[str, Any], legal: list[Action]) -> Action | None:
    """The choices the search bot leaves to the heuristic: where a money token goes, whom a
    Thief robs, where a Landslide hits (their effect is on other seats' turns, past the end of
    the bot's own, where its search stops)."""
    if legal[0]["type"] in ("place_token", "steal", "landslide"):
        return greedy(game, view, legal, Rng(0))
    return None


def die_state(rng: Rng, roll: int) -> int:
    """A generator state whose first roll of the die is `roll`."""
    while True:
        state = rng.next64()
        if Rng(state).roll(DIE) == roll:
            return state


class Sampler:
    """Full states that show the seat exactly its view: the chance deck dealt from the cards
    nobody is seen to hold, the other seats' missions from those the seat was not dealt, and a
    new generator for the die."""

    def __init__(self, game: Game, view: dict[str, Any]) -> None:
        self.game, self.view = game, view
        variant = box.VARIANTS[view["variant"]]
        held = Counter(c["id"] for p in view["players"] for c in p["cards"])
        unseen = Counter({card["id"]: card["count"] for card in box.CARDS
                          if variant["cards"] and (variant["multi"] or not card["multi"])})
        self.deck = sorted((unseen - held).elements())
        me = view["players"][view["you"]]
        if view["offered_missions"]:
            self.mine = [m["id"] for m in view["offered_missions"]]
        elif me["mission"]:
            self.mine = [me["mission"]["id"], *(m["id"] for m in me["discarded"])]
        else:
            self.mine = []
        self.missions = [m["id"] for m in box.MISSIONS if variant["missions"]
                         and (variant["multi"] or not m["multi"]) and m["id"] not in self.mine]

    def sample(self, rng: Rng, world: int = 0) -> State:
        """A state for the `world`-th playout world: the die's next roll is world mod 6 + 1,
        so that worlds taken six at a time see every roll once (stratified sampling)."""
        view = self.view
        deck = list(self.deck)
        rng.shuffle(deck)
        pool = list(self.missions)
        rng.shuffle(pool)
        turn = view["turn"]
        number = turn["number"] if turn else 1
        seats = []
        for player in view["players"]:
            if player["seat"] == view["you"]:
                offered = list(self.mine)
                mission = player["mission"]["id"] if player["mission"] else None
            else:
                offered = [pool.pop() for _ in range(box.MISSIONS_DEALT)] if self.mine else []
                mission = offered[0] if offered and player["mission_kept"] else None
            seats.append({
                "tiles": dict(player["tiles"]), "purse": player["purse"],
                "hazards": player["hazards"],
                "cards": [{"id": c["id"], "turn": number - 1 if c["usable"] else number}
                          for c in player["cards"]],
                "drawn": player["cards_drawn"], "closed": player["sites_closed"],
                "offered": offered, "mission": mission,
                "discarded": [m for m in offered if m != mission] if mission else []})
        sites = {site["id"]: {
            "tiles": [s["tile"] for s in site["spaces"]],
            "marks": [s["mark"] for s in site["spaces"]],
            "tokens": [s["token"] for s in site["spaces"]],
            "pickax": site["pickax"], "abandoned": site["abandoned"],
            "abandoned_by": site["abandoned_by"]} for site in view["sites"]}
        playing = turn is not None
        return {
            "game": self.game.id, "revision": self.game.revision, "variant": view["variant"],
            "players": [p["name"] for p in view["players"]],
            "status": PLAYING if playing else SETUP,
            "to_act": [turn["seat"]] if playing else
            [p["seat"] for p in view["players"] if not p["mission_kept"]],
            "rng": die_state(rng, world % DIE + 1),
            "abandon_limit": view["abandon_limit"], "sites": sites,
            "abandoned": list(view["abandoned"]), "deck": deck[:view["deck_size"]],
            "seats": seats,
            "turn": {"number": number, "step": turn["step"], "site": turn["site"],
                     "roll": turn["roll"], "card": turn["card"], "again": turn["extra_turn"]}
            if playing else {"number": 1, "step": DIG, "site": None, "roll": None,
                             "card": None, "again": False},
            "last_roll": dict(view["last_roll"]) if view["last_roll"] else None,
        }


# The search looks through the bot's own turn (its dig, a Lucky Charm, a card's choice) over
# twelve worlds, each roll of the die twice, and judges where the turn leaves it by `evaluate`.
SEARCH_WORLDS = 12
SEARCH_PLAYOUTS = 72
PLAYOUT_ROUNDS = 0
EVALUATION_SCALE = 40.0  # ₩: a lead of this many is about a three-in-four chance to win
# The share of the tiles left on the open sites a seat can expect to take (the rest goes with
# abandoned sites).
TAKEN = 0.8


def curve(variant: str, set_id: str) -> list[tuple[float, float]]:
    """What holding so many tiles of a set is worth at the end, as points to join with straight
    lines: a tile short of a set bonus worth what loose tiles are in bundles, then each bonus
    (or the loose tiles, where more), flat past the last."""
    if variant == "simplified":
        rows: tuple = ((box.SIMPLIFIED_SET_MIN, box.SIMPLIFIED_SET_BONUS),)
        loose = box.SIMPLIFIED_LOOSE_TILE
    else:
        rows = box.SET_TABLE[set_id]
        loose = box.BUNDLE_BONUS / box.BUNDLE_SIZE if set_id in TREASURE_SETS else 0
    first = rows[0][0]
    return [(0, 0.0), (first - 1, loose * (first - 1)),
            *((m, max(bonus, loose * m) if bonus > 0 else bonus) for m, bonus in rows)]


def along(points: list[tuple[float, float]], x: float) -> float:
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return points[-1][1]


def projected(variant: str, held: dict[str, Any], supply: Counter, players: int) -> float:
    """What a seat's holdings (as the state keeps them) should be worth at the end, if it takes
    its share (TAKEN / players) of each set's tiles still on the open sites: the sets on
    `curve`, trinities, money, cards kept, and the mission: achieved, or its bonus × 0.8 when
    the share would reach its goal, × 0.5 × (the share of the goal)² when not."""
    player = {"tiles": held["tiles"], "tokens": held["purse"] + held["hazards"],
              "cards": dict(Counter(c["id"] for c in held["cards"]))}
    per_set = Counter()
    for tile, n in held["tiles"].items():
        per_set[box.SET_OF[tile]] += n
    for card_id, n in player["cards"].items():
        if counts_as := box.CARD_BY_ID[card_id].get("counts_as"):
            per_set[box.SET_OF[counts_as]] += n
    share = TAKEN / players
    expected = {s: per_set[s] + share * supply[s] for s in box.SETS}
    worth = float(player["tokens"])
    for set_id in box.SETS:
        if set_id != "stone" or not any(box.CARD_BY_ID[c].get("cancels_stone_set")
                                        for c in player["cards"]):
            worth += along(curve(variant, set_id), expected[set_id])
    if variant == "simplified":
        return worth
    if expected["bronzeware"] >= box.SET_TABLE["bronzeware"][0][0]:
        worth += box.TRINITY_BONUS * min(held["tiles"][t] for t in box.BRONZEWARE)
    worth += sum(box.CARD_BY_ID[c].get("end_money", 0) * n for c, n in player["cards"].items())
    mission = held["mission"]
    if mission is not None:
        bonus, goal = box.MISSION_BY_ID[mission]["bonus"], box.MISSION_BY_ID[mission]["goal"]
        if mission_achieved(mission, player, held["closed"], held["drawn"]):
            worth += bonus
        elif goal["measure"] == "count" and "min" in goal:
            reach = expected[goal["of"]] / goal["min"]
            worth += bonus * (0.8 if reach >= 1 else 0.5 * reach * reach)
        else:
            worth += bonus * ACHIEVED.get(mission, 0.3)
    return worth


def evaluate(game: Game, state: State) -> list[float]:
    """Each seat's holdings as they should end (`projected`)."""
    supply = board_sets([s for s in state["sites"].values() if not s["abandoned"]], "tiles")
    return [projected(state["variant"], held, supply, len(state["seats"]))
            for held in state["seats"]]


def playout(game: Game, state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
    """Quick choices inside a search's playout: the dig whose six rolls bring the most, each
    tile at TILE_WORTH with its token and mark; the roll kept; the rest at random."""
    kind = legal[0]["type"]
    if state["status"] == PLAYING and state["turn"]["step"] == DIG:
        best, best_worth = [], -1e9
        for action in legal:
            if "ancient_map" in action:
                continue
            spot = state["sites"][action["site"]]
            tiles, tokens, marks = spot["tiles"], spot["tokens"], spot["marks"]
            left = [i for i, tile in enumerate(tiles) if tile is not None]
            passed = bisect_left(left, spot["pickax"] - 1)
            worth = 0.0
            for roll in range(DIE):
                i = left[(passed + roll) % len(left)]
                worth += TILE_WORTH[tiles[i]] + (tokens[i] or 0) + \
                    (box.PLUS_TWO_VALUE if marks[i] == box.PLUS_TWO else 0)
            if worth > best_worth:
                best, best_worth = [action], worth
            elif worth == best_worth:
                best.append(action)
        return rng.choice(best)
    if kind == "lucky_charm" or kind == "keep_roll":
        return {"type": "keep_roll"}
    return rng.choice(legal)


def figures(game: Game, state: State) -> dict[str, float]:
    """What a designer reads off a finished match of Dig It Up."""
    sheet = game.scoresheet(state)
    result = game.score(sheet)
    kept = [p["mission"]["achieved"] for p in sheet["players"] if "mission" in p]
    return {
        "sets_formed": sum(1 for p in result["players"]
                           for s, bonus in p["breakdown"]["sets"].items()
                           if s != "stone" and bonus > 0),
        "missions_achieved": sum(kept),
        "missions_kept": len(kept),
        "cards_drawn": sum(held["drawn"] for held in state["seats"]),
        "turns": state["turn"]["number"],
        "sites_abandoned": len(state["abandoned"]),
    }
