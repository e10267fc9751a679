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

import pickle
from bisect import bisect_left
from collections import Counter
from functools import lru_cache
from math import comb, exp, prod
from typing import Any

from scoring.bots.search import Budget
from scoring.engine import PLAYING, SETUP, Action, Game, Rng, State

from .box import DigItUpBox
from .engine import DIG
from .score import Calculator

PROGRESS = 0.5  # a bonus in reach against the same bonus reached
STAR_WORTH = 2.0  # a chance card drawn, on average
END_WORTH = 15.0  # ending the game in the lead (or not)
MAP_WORTH = 3.0  # keeping an Ancient Map for later
CHARM_WORTH = 1.5  # keeping a Lucky Charm for later
# The chance to achieve a mission whose goal is not a number of tiles of one set (a guess).
CHANCE = {"fewest": 0.3, "sites_closed": 0.5, "trinities": 0.4, "tokens": 0.3,
          "cards_drawn": 0.4, "bundles": 0.6, "largest_set": 0.15, "sets": 0.35,
          "clean_hands": 0.3}
# What the playout policy reckons a tile is worth before the sets it helps.
TILE_WORTH = {"gold": 1.5, "incense_burner": 2.0, "statue": 2.0, "knife": 2.0, "scroll": 2.0,
              "crystal": 2.5, "ruby": 2.5, "diamond": 3.0, "stone": -1.0}


# --- what holdings are worth ------------------------------------------------------------------

class Holdings:
    """A seat's tiles, money, kept cards and mission, as the greedy heuristic values them."""

    def __init__(self, game: Game, variant: str, tiles: dict[str, int], money: int,
                 cards: list[str], mission: str | None, closed: int, drawn: int,
                 chance: float = 0.0) -> None:
        self.box, self.judge = game.box, game.judge
        self.variant, self.tiles, self.money, self.cards = variant, tiles, money, cards
        self.mission, self.closed, self.drawn = mission, closed, drawn
        self.chance = chance  # of achieving the mission, as the board suggests

    @classmethod
    def seen(cls, game: Game, view: dict[str, Any], seat: int) -> Holdings:
        """A seat's holdings as a view shows them (another seat's mission is not shown)."""
        player = view["players"][seat]
        mission = player["mission"]["id"] if player["mission"] else None
        chance = 0.0 if mission is None else \
            mission_chance(game.box, mission, board_sets(game.box, view["sites"], "spaces"),
                           len(view["players"]))
        return cls(game, view["variant"], player["tiles"], player["money"],
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
        box = self.box
        if self.mission is not None:
            achieved = self.judge.mission_achieved(self.mission, player, self.closed, self.drawn)
            player["mission"] = {"id": self.mission, "achieved": achieved}
            goal = box.MISSION_BY_ID[self.mission]["goal"]
            if not achieved:
                progress = 0.0
                if goal["measure"] == "count" and "min" in goal:
                    held = sum(n for t, n in tiles.items() if box.SET_OF[t] == goal["of"])
                    progress = PROGRESS * (held / goal["min"]) ** 2
                reach += box.MISSION_BY_ID[self.mission]["bonus"] * max(self.chance, progress)
        for set_id in self.judge.treasure_sets:
            held = sum(n for t, n in tiles.items() if box.SET_OF[t] == set_id)
            reach += PROGRESS * next_bonus(box, self.variant, set_id, held)
        return self.judge.score_player(player, self.variant)["total"] + reach

    def gains(self) -> dict[str, float]:
        """What one more tile of each type adds to the worth."""
        now = self.worth()
        return {tile: self.worth(tile) - now for tile in self.box.TILE_TYPES}


def next_bonus(box: DigItUpBox, variant: str, set_id: str, held: int) -> float:
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


def tile_gain(box: DigItUpBox, space: dict[str, Any], gains: dict[str, float],
              stars: bool) -> float:
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

    def __init__(self, game: Game, view: dict[str, Any]) -> None:
        self.game, self.box, self.view = game, game.box, view
        self.me = view["you"]
        self.holdings = Holdings.seen(game, view, self.me)
        self.gains = self.holdings.gains()
        self.stars = view["deck_size"] > 0
        self.sites = {site["id"]: site for site in view["sites"] if not site["abandoned"]}

    def others(self) -> list[int]:
        n = len(self.view["players"])
        return [(self.me + k) % n for k in range(1, n)]

    def dig_gain(self, site_id: str, roll: int) -> float:
        site = self.sites[site_id]
        gain = tile_gain(self.box, landing(site, roll), self.gains, self.stars)
        if remaining(site) == 2:  # the dig abandons the site
            gain += self.abandoning(gain)
        return gain

    def expected_dig(self, site_id: str) -> float:
        die = self.game.die
        return sum(self.dig_gain(site_id, roll) for roll in range(1, die + 1)) / die

    def abandoning(self, gain: float) -> float:
        """What abandoning a site is worth beyond the tile: Closing Shop, and the end."""
        worth = 0.0
        if self.holdings.mission == "closing_shop" and not self.holdings.closed:
            worth += self.box.MISSION_BY_ID["closing_shop"]["bonus"]
        if len(self.view["abandoned"]) + 1 >= self.view["abandon_limit"]:
            mine = self.holdings.worth() + gain
            best_other = max(Holdings.seen(self.game, self.view, s).worth()
                             for s in self.others())
            worth += END_WORTH if mine > best_other else -END_WORTH
        return worth


def board_sets(box: DigItUpBox, sites: Any, spaces: str) -> Counter:
    """How many tiles of each set lie on the board (a view's sites, or a state's)."""
    found: Counter = Counter()
    for site in sites:
        for tile in site[spaces]:
            tile = tile["tile"] if spaces == "spaces" else tile
            if tile is not None:
                found[box.SET_OF[tile]] += 1
    return found


def mission_chance(box: DigItUpBox, mission_id: str, on_board: Counter, players: int) -> float:
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
        on_board = board_sets(game.box, view["sites"], "spaces")
        return max(legal, key=lambda a: game.mission_cards[a["mission"]]["bonus"]
                   * mission_chance(game.box, a["mission"], on_board, len(view["players"])))
    if kind == "steal":
        return max(legal, key=lambda a: view["players"][a["victim"]]["purse"])
    reading = Reading(game, view)
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
    value = reading.box.CARD_BY_ID[reading.view["turn"]["card"]]["token"]
    gains = reading.gains if value > 0 else \
        Holdings.seen(reading.game, reading.view, reading.others()[0]).gains()

    def wanted(action: Action) -> float:
        space = reading.sites[action["site"]]["spaces"][action["space"] - 1]
        return gains[space["tile"]]

    return max(legal, key=wanted)


def landslide(reading: Reading, legal: list[Action]) -> Action:
    theirs = [Holdings.seen(reading.game, reading.view, s).gains() for s in reading.others()]

    def worth(action: Action) -> float:
        site = reading.sites[action["site"]]
        tile = next(s["tile"] for s in site["spaces"] if s["tile"] is not None)
        return max(g[tile] for g in theirs) - reading.gains[tile]

    return max(legal, key=worth)


# --- the search -------------------------------------------------------------------------------

def obvious(game: Game, view: dict[str, Any], legal: list[Action]) -> Action | None:
    """The choices the search bot leaves to the heuristic: where a money token goes, whom a
    Thief robs, where a Landslide hits (their effect is on other seats' turns, past the end of
    the bot's own, where its search stops); and the mission kept, whose worth lies in the whole
    match ahead, past that end too (over the same 400 two-player deals against greedy bots, the
    search won a share of 0.630 choosing its mission by the evaluation, 0.647 by the
    heuristic)."""
    if legal[0]["type"] in ("place_token", "steal", "landslide", "keep_mission"):
        return greedy(game, view, legal, Rng(0))
    return None


def candidates(game: Game, view: dict[str, Any], legal: list[Action]) -> list[Action]:
    """The moves the search weighs: all of them, but of an Ancient Map's six numbers at a site
    only the one landing on the tile the heuristic values most (the others land on tiles it
    values less, or on the same one), so that a map does not crowd the plain digs, and the
    rolls they stand for, out of the search's budget."""
    if not any("ancient_map" in action for action in legal):
        return legal
    reading = Reading(game, view)
    best: dict[str, tuple[float, Action]] = {}
    for action in legal:
        if "ancient_map" in action:
            gain = reading.dig_gain(action["site"], action["ancient_map"])
            if action["site"] not in best or gain > best[action["site"]][0]:
                best[action["site"]] = (gain, action)
    return [a for a in legal if "ancient_map" not in a] + [a for _, a in best.values()]


def die_state(rng: Rng, roll: int, sides: int) -> int:
    """A generator state whose first roll of a die of `sides` is `roll`."""
    while True:
        state = rng.next64()
        if Rng(state).roll(sides) == roll:
            return state


class Sampler:
    """Full states that show the seat exactly its view: the chance deck dealt from the cards
    nobody is seen to hold or to have used, the other seats' missions from those the seat was
    not dealt, and a new generator for the die.

    One sampler serves one search, whose worlds it draws stratified: the die's next roll cycles
    through the six numbers, the card on top of the deck through the unseen cards and the
    mission the next seat kept through those it may hold, each cycle in an order drawn once. A
    search over a few dozen worlds then sees each of them about as often as they are likely,
    not as a few random draws happen to fall."""

    def __init__(self, game: Game, view: dict[str, Any]) -> None:
        self.game, self.view = game, view
        box = game.box
        variant = box.VARIANTS[view["variant"]]
        held = Counter(c["id"] for p in view["players"] for c in p["cards"])
        unseen = Counter({card["id"]: card["count"] for card in box.CARDS
                          if variant["cards"] and (variant["multi"] or not card["multi"])})
        self.deck = sorted((unseen - held - Counter(view["cards_used"])).elements())
        me = view["players"][view["you"]]
        if view["offered_missions"]:
            self.mine = [m["id"] for m in view["offered_missions"]]
        elif me["mission"]:
            self.mine = [me["mission"]["id"], *(m["id"] for m in me["discarded"])]
        else:
            self.mine = []
        self.missions = [m["id"] for m in box.MISSIONS if variant["missions"]
                         and (variant["multi"] or not m["multi"]) and m["id"] not in self.mine]
        self.cycle = game.die  # the worlds the die's rolls take to come round
        self.tops: list[str] = []  # the cycles, drawn with the first world
        self.kept: list[str] = []

    def sample(self, rng: Rng, world: int = 0) -> State:
        """A state for the `world`-th world of the search (class docstring)."""
        view = self.view
        if not self.tops and not self.kept:
            self.tops, self.kept = list(self.deck), list(self.missions)
            rng.shuffle(self.tops)
            rng.shuffle(self.kept)
        deck = list(self.deck)
        if view["deck_size"]:
            top = self.tops[world % len(self.tops)]
            deck.remove(top)
            rng.shuffle(deck)
            deck = [*deck[:view["deck_size"] - 1], top]
        pool = list(self.missions)
        rng.shuffle(pool)
        turn = view["turn"]
        number = turn["number"] if turn else 1
        you = view["you"]
        after = (you + 1) % len(view["players"])  # the seat whose mission the worlds cycle
        if self.mine:
            pool.remove(self.kept[world % len(self.kept)])
        seats = []
        for player in view["players"]:
            if player["seat"] == you:
                offered = list(self.mine)
                mission = player["mission"]["id"] if player["mission"] else None
            elif not self.mine:
                offered, mission = [], None
            else:
                first = [self.kept[world % len(self.kept)]] if player["seat"] == after else []
                offered = first + [pool.pop() for _ in range(self.game.box.MISSIONS_DEALT
                                                             - len(first))]
                mission = offered[0] if player["mission_kept"] else None
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
            "rng": die_state(rng, world % self.game.die + 1, self.game.die),
            "abandon_limit": view["abandon_limit"], "sites": sites,
            "abandoned": list(view["abandoned"]), "deck": deck,
            "seats": seats,
            "turn": {"number": number, "step": turn["step"], "site": turn["site"],
                     "roll": turn["roll"], "card": turn["card"], "again": turn["extra_turn"]}
            if playing else {"number": 1, "step": DIG, "site": None, "roll": None,
                             "card": None, "again": False},
            "last_roll": dict(view["last_roll"]) if view["last_roll"] else None,
        }


# The search looks through the bot's own turn (its dig, a Lucky Charm, a card's choice) and
# judges where the turn leaves it by `evaluate`. Each world tries every move once: the more
# worlds, the less a move's worth depends on the few cards and missions they happened to deal.
# As many worlds as the budget of playouts allows; a lead of 40 ₩ is about a three-in-four chance.
SEARCH = Budget(worlds=1000, playouts=150, rounds=0, scale=40.0)

# How the evaluation reads the rest of a match, measured over 1,500 two-player matches of the
# small variant between greedy bots: with R tiles left on the open sites, about R² / (R + 12)
# digs are still to come (the rest leave play with abandoned sites or stay on the board) …
DIGS_AHEAD = 12.0
# … a chance card still to draw is worth about this much ₩ …
CARD_WORTH = 2.0
# … an Ancient Map or a Lucky Charm kept for later what the heuristic asks of one before
# playing it, and a seat holding Closing Shop abandons a site with its own dig nine times in ten.
KEPT_WORTH = {"ancient_map": MAP_WORTH, "lucky_charm": CHARM_WORTH}
CLOSING_CHANCE = 0.9
# Big Purse and Bundler: how sharply the chance rises as the money (₩) or the loose tiles
# expected at the end pass the goal.
PURSE_SPREAD, BUNDLE_SPREAD = 2.0, 1.5


def rising(x: float) -> float:
    """The logistic curve: from 0 to 1, ½ at 0."""
    return 1.0 / (1.0 + exp(-max(-30.0, min(30.0, x))))


# The search bot's tables are kept between moves and matches, within bounds: a process that
# plays many boxes (a study's sweep, a server's studies) would otherwise keep every box's.
@lru_cache(maxsize=4096)
def binomial(n: int, p: float) -> tuple[float, ...]:
    """The chances of 0 … n successes in n tries of chance p."""
    if n == 0 or p <= 0:
        return (1.0,)
    p = min(p, 1.0)
    return tuple(comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


@lru_cache(maxsize=4096)
def at_least(n: int, p: float) -> tuple[float, ...]:
    """The chances of n tries of chance p bringing at least 0 … n + 1 successes."""
    tail = [0.0]
    for chance in reversed(binomial(n, p)):
        tail.append(tail[-1] + chance)
    return tuple(reversed(tail))


def reach(tail: tuple[float, ...], need: int) -> float:
    """The chance of `need` more successes, read off `at_least`."""
    return 1.0 if need <= 0 else tail[need] if need < len(tail) else 0.0


def set_money(box: DigItUpBox, variant: str, set_id: str, count: int, insured: bool) -> float:
    """What `count` tiles of a set pay at the end: the set bonus, or what they bring as loose
    tiles (a bundle's worth a tile, leftovers aside)."""
    if variant == "simplified":
        if set_id == "stone":
            return 0.0
        if count >= box.SIMPLIFIED_SET_MIN:
            return box.SIMPLIFIED_SET_BONUS
        return box.SIMPLIFIED_LOOSE_TILE * count
    reached = next((bonus for minimum, bonus in reversed(box.SET_TABLE[set_id])
                    if count >= minimum), None)
    if set_id == "stone":
        return 0.0 if insured or reached is None else reached
    if reached is None:
        return box.BUNDLE_BONUS / box.BUNDLE_SIZE * count
    return reached


@lru_cache(maxsize=1 << 16)
def set_outlook(box: DigItUpBox, variant: str, set_id: str, held: int, supply: int, p: float,
                insured: bool) -> float:
    """What a set should pay at the end: `held` tiles, and each of the `supply` still on the
    open sites taken with chance p."""
    return sum(chance * set_money(box, variant, set_id, held + k, insured)
               for k, chance in enumerate(binomial(supply, p)))


class Outlook:
    """The board as the evaluation reads it: the tiles left on the open sites (`supply`, by type
    and by set), the ★ that can still draw a card, the money marked and placed on them, and how
    many digs each seat can expect, from the next seat to act on."""

    def __init__(self, box: DigItUpBox, state: State) -> None:
        self.supply: Counter = Counter()
        stars = plus_two = 0
        self.tokens = 0
        for site in state["sites"].values():
            if site["abandoned"]:
                continue
            for tile, mark, token in zip(site["tiles"], site["marks"], site["tokens"],
                                         strict=True):
                if tile is not None:
                    self.supply[tile] += 1
                    stars += mark == box.STAR
                    plus_two += mark == box.PLUS_TWO
                    self.tokens += token or 0
        self.marked = box.PLUS_TWO_VALUE * plus_two
        self.stars = min(stars, len(state["deck"]))
        self.per_set: Counter = Counter()
        for tile, n in self.supply.items():
            self.per_set[box.SET_OF[tile]] += n
        left = sum(self.supply.values())
        digs = left * left / (left + DIGS_AHEAD)
        n = len(state["seats"])
        first = state["to_act"][0] if state["to_act"] else 0
        # Seats take turns: the next to act digs about half a dig more than the one after it.
        self.chance = [round(max(0.0, digs / n + (n - 1 - 2 * ((seat - first) % n)) / (2 * n))
                             / left, 3) if left else 0.0 for seat in range(n)]


def outlook(judge: Calculator, variant: str, held: dict[str, Any], board: Outlook,
            p: float) -> float:
    """What a seat's holdings (as the state keeps them) should be worth at the end if it takes
    each tile still on the open sites with chance p: the money it has and should find, each set
    (and trinities) on the binomial odds of its count, the cards it keeps and its mission on the
    odds of its goal."""
    box = judge.box
    cards = Counter(card["id"] for card in held["cards"])
    counts = dict(held["tiles"])
    for card_id, n in cards.items():
        if counts_as := box.CARD_BY_ID[card_id].get("counts_as"):
            counts[counts_as] += n
    per_set: Counter = Counter()
    for tile, n in counts.items():
        per_set[box.SET_OF[tile]] += n
    insured = any(box.CARD_BY_ID[c].get("cancels_stone_set") for c in cards)
    money = held["purse"] + held["hazards"]
    found = p * (board.tokens + board.marked)
    worth = money + found
    for set_id in box.SETS:
        worth += set_outlook(box, variant, set_id, per_set[set_id], board.per_set[set_id], p,
                             insured)
    if variant == "simplified":
        return worth
    worth += p * board.stars * CARD_WORTH
    worth += box.TRINITY_BONUS * sum(trinity_odds(box, counts, board, p)[1:])
    for card_id, n in cards.items():
        worth += n * (box.CARD_BY_ID[card_id].get("end_money", 0) + KEPT_WORTH.get(card_id, 0))
    if held["mission"] is not None:
        mission = box.MISSION_BY_ID[held["mission"]]
        worth += mission["bonus"] * mission_odds(judge, mission["goal"], held, counts, per_set,
                                                 board, p, found + money)
    return worth


def trinity_odds(box: DigItUpBox, counts: dict[str, int], board: Outlook,
                 p: float) -> list[float]:
    """The chances of at least 0, 1, 2, … trinities."""
    kinds = [at_least(board.supply[kind], p) for kind in box.BRONZEWARE]
    odds = [1.0]
    while odds[-1] > 0:
        odds.append(prod(reach(tail, len(odds) - counts[kind])
                         for tail, kind in zip(kinds, box.BRONZEWARE, strict=True)))
    return odds


def mission_odds(judge: Calculator, goal: dict[str, Any], held: dict[str, Any],
                 counts: dict[str, int], per_set: Counter, board: Outlook, p: float,
                 money: float) -> float:
    """The chance of achieving a mission's goal, taking each tile with chance p."""
    box, treasure_sets = judge.box, judge.treasure_sets
    measure = goal["measure"]

    def formed(set_id: str, size: int) -> float:
        return reach(at_least(board.per_set[set_id], p), size - per_set[set_id])

    if measure == "count":
        if "max" in goal:
            if per_set[goal["of"]] > goal["max"]:
                return 0.0
            return 1 - reach(at_least(board.per_set[goal["of"]], p),
                             goal["max"] + 1 - per_set[goal["of"]])
        return formed(goal["of"], goal["min"])
    if measure == "trinities":
        odds = trinity_odds(box, counts, board, p)
        return odds[goal["min"]] if goal["min"] < len(odds) else 0.0
    if measure == "sites_closed":
        return 1.0 if held["closed"] >= goal["min"] else CLOSING_CHANCE
    if measure == "cards_drawn":
        return reach(at_least(board.stars, p), goal["min"] - held["drawn"])
    if measure == "tokens":
        return rising((money - goal["min"]) / PURSE_SPREAD)
    if measure == "largest_set":
        return 1 - prod(1 - formed(s, max(goal["min"], box.SET_TABLE[s][0][0]))
                        for s in treasure_sets)
    if measure == "sets":
        odds = [1.0]  # the chances of 0, 1, … sets formed
        for set_id in treasure_sets:
            chance = formed(set_id, box.SET_TABLE[set_id][0][0])
            odds = [a * (1 - chance) + b * chance for a, b in zip([*odds, 0.0], [0.0, *odds],
                                                                  strict=True)]
        return sum(odds[goal["min"]:])
    if measure == "bundles":
        loose = sum(chance * (per_set[s] + k) for s in treasure_sets
                    for k, chance in enumerate(binomial(board.per_set[s], p))
                    if per_set[s] + k < box.SET_TABLE[s][0][0])
        return rising((loose - box.BUNDLE_SIZE * goal["min"]) / BUNDLE_SPREAD)
    # "fewest": at least so many of every treasure set
    return prod(formed(s, goal["min"]) for s in treasure_sets)


def evaluate(game: Game, state: State) -> list[float]:
    """Each seat's holdings as they should end (`outlook`), unless the next seat to act can
    end the match and would (`ending`)."""
    board = Outlook(game.box, state)
    return ending(game, state) or [outlook(game.judge, state["variant"], held, board, p)
                                   for held, p in zip(state["seats"], board.chance, strict=True)]


def ending(game: Game, state: State) -> list[float] | None:
    """The final totals, on average over the die, if the seat to act ends the match now by
    digging out a site down to its last tile, where that would leave it in the lead (as the
    heuristic ends a match: END_WORTH); None where it cannot or would not. A seat ahead at the
    end of its turn is then judged by the match it may still lose, not by its holdings."""
    if state["status"] != PLAYING or state["turn"]["step"] != DIG or \
            len(state["abandoned"]) + 1 < state["abandon_limit"]:
        return None
    seat = state["to_act"][0]
    best, best_lead = None, 0.0
    for site_id, spot in state["sites"].items():
        if spot["abandoned"] or sum(tile is not None for tile in spot["tiles"]) != 2:
            continue
        totals = [0.0] * len(state["seats"])
        for roll in (1, 2):  # one roll for each of the two tiles: each is three rolls of six
            after = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
            after["rng"] = die_state(Rng(roll), roll, game.die)
            game.act(after, seat, {"type": "dig", "site": site_id})
            while after["status"] == PLAYING:  # the roll kept, the card's choice made
                legal = game.legal_actions(after, seat)
                game.act(after, seat, dict(playout(game, after, seat, legal, Rng(roll))))
            for i, player in enumerate(game.result(after)["players"]):
                totals[i] += player["total"] / 2
        lead = totals[seat] - max(t for i, t in enumerate(totals) if i != seat)
        if lead > best_lead:
            best, best_lead = totals, lead
    return best


def playout(game: Game, state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
    """Quick choices inside a search's playout: the dig whose six rolls bring the most, each
    tile at TILE_WORTH with its token and mark; the roll kept; a card's choice as the heuristic
    makes it (rare enough to afford, and what the bot itself plays: `obvious`); the rest at
    random."""
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
            plus_two, plus_two_value = game.box.PLUS_TWO, game.box.PLUS_TWO_VALUE
            for roll in range(game.die):
                i = left[(passed + roll) % len(left)]
                worth += TILE_WORTH[tiles[i]] + (tokens[i] or 0) + \
                    (plus_two_value if marks[i] == plus_two else 0)
            if worth > best_worth:
                best, best_worth = [action], worth
            elif worth == best_worth:
                best.append(action)
        return rng.choice(best)
    if kind == "lucky_charm" or kind == "keep_roll":
        return {"type": "keep_roll"}
    if kind in ("place_token", "steal", "landslide"):
        return greedy(game, game.view(state, seat), legal, rng)
    return rng.choice(legal)


def figures(game: Game, state: State, result: dict[str, Any] | None = None
            ) -> dict[str, float]:
    """What a designer reads off a finished match of Dig It Up (`result`: the match's, when the
    caller has it, so that it is not scored again)."""
    result = result or game.result(state)
    kept = [seat for seat, held in enumerate(state["seats"]) if held["mission"] is not None]
    return {
        "sets_formed": sum(1 for p in result["players"]
                           for s, bonus in p["breakdown"]["sets"].items()
                           if s != "stone" and bonus > 0),
        "missions_achieved": missions_achieved(game, state, result, kept),
        "missions_kept": len(kept),
        "cards_drawn": sum(held["drawn"] for held in state["seats"]),
        "turns": state["turn"]["number"],
        "sites_abandoned": len(state["abandoned"]),
    }


def missions_achieved(game: Game, state: State, result: dict[str, Any], kept: list[int]) -> int:
    """How many of the missions the seats `kept` were achieved, read off the result, which pays
    a mission's bonus only when it is achieved; where a box makes a kept mission worth nothing,
    as the scoresheet judges them (the result cannot tell then). Judging every match's missions
    again cost a random simulation more than all its other figures together."""
    bonus = {seat: game.box.MISSION_BY_ID[state["seats"][seat]["mission"]]["bonus"]
             for seat in kept}
    if 0 in bonus.values():
        sheet = game.scoresheet(state)
        return sum(sheet["players"][seat]["mission"]["achieved"] for seat in kept)
    return sum(result["players"][seat]["breakdown"]["mission"] != 0 for seat in kept)
