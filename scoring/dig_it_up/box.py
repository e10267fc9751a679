"""Dig It Up: everything printed on (or reconstructed for) the components.

Data marked (R) in RULINGS.md is reconstructed; an owner of the box corrects it here and nowhere
else.
"""

from typing import Any, ClassVar

from scoring.boxes import Box, printed, shown

GAME_ID = "dig-it-up"
NAME = "Dig It Up"
CURRENCY = "₩"

BRONZEWARE = ("incense_burner", "statue", "knife")
TILE_NAMES = {
    "gold": "gold",
    "incense_burner": "incense burner",
    "statue": "statue",
    "knife": "knife",
    "scroll": "ancient scroll",
    "crystal": "crystal",
    "ruby": "ruby",
    "diamond": "diamond",
    "stone": "stone",
}

# rulebook "Set bonuses": (minimum count, bonus); the last row reached applies.
SET_TABLE = {
    "gold": ((3, 3), (4, 8), (5, 15), (6, 24), (7, 35), (8, 50), (9, 100), (10, 200)),
    "bronzeware": ((3, 6), (5, 12)),
    "scroll": ((3, 6), (5, 14)),
    "crystal": ((4, 14), (6, 28)),
    "ruby": ((5, 30), (7, 50)),
    "diamond": ((5, 34), (7, 60)),
    "stone": ((3, -2), (4, -4), (5, -6)),
}
TRINITY_BONUS = 10
BUNDLE_SIZE = 3
BUNDLE_BONUS = 5

# rulebook "Simplified variation"
SIMPLIFIED_SET_MIN = 4
SIMPLIFIED_SET_BONUS = 10
SIMPLIFIED_LOOSE_TILE = 1

# Sites (R): letter -> name and its six treasures; each site also holds one stone.
SITES = {
    "A": ("Amazon", {"gold": 2, "incense_burner": 1, "scroll": 1, "crystal": 1, "ruby": 1}),
    "B": ("Andes", {"gold": 2, "statue": 1, "scroll": 1, "crystal": 1, "ruby": 1}),
    "C": ("Sahara", {"gold": 2, "knife": 1, "scroll": 1, "crystal": 1, "ruby": 1}),
    "D": ("Nile", {"gold": 2, "incense_burner": 1, "statue": 1, "crystal": 1, "ruby": 1}),
    "E": ("Gobi", {"gold": 1, "statue": 1, "knife": 1, "scroll": 1, "crystal": 1, "ruby": 1}),
    "F": ("Siberia", {"gold": 1, "incense_burner": 1, "knife": 1, "scroll": 1, "crystal": 1,
                      "ruby": 1}),
    "G": ("Petra", {"gold": 1, "incense_burner": 1, "scroll": 1, "crystal": 1, "diamond": 2}),
    "H": ("Angkor", {"gold": 1, "statue": 1, "crystal": 1, "ruby": 1, "diamond": 2}),
    "I": ("Troy", {"gold": 1, "knife": 1, "scroll": 1, "crystal": 1, "diamond": 2}),
    "J": ("Pompeii", {"gold": 1, "scroll": 1, "crystal": 1, "ruby": 1, "diamond": 2}),
}
SITE_TILES = 7
SITE_STONES = 1  # rulebook "Components": 70 tiles in 10 piles of 7, 60 treasures and 10 stones
# Marks (R): every scroll and each site's crystal carry a star; one gold per site carries +2.
STAR_TILES = ("scroll", "crystal")
PLUS_TWO_TILE = "gold"
PLUS_TWO_VALUE = 2
DIE_SIDES = 6

VARIANTS = {
    "standard": {"name": "Standard", "players": (4, 5), "sites": "ABCDEFGHIJ",
                 "abandon_limit": 8, "cards": True, "missions": True, "multi": True,
                 "diamonds": True},
    "small": {"name": "2–3 players", "players": (2, 3), "sites": "ABCDEF",
              "abandon_limit": 5, "cards": True, "missions": True, "multi": False,
              "diamonds": False},
    # rulebook "Simplified variation" keeps the board of the table size (`boards`, by players):
    # the small board (A–F, ends at the 5th abandoned site) for 2–3 players, both boards (A–J,
    # the 8th) for 4–5.
    "simplified": {"name": "Simplified", "players": (2, 5), "sites": None,
                   "abandon_limit": None, "cards": False, "missions": False, "multi": False,
                   "diamonds": None,
                   "boards": {2: "small", 3: "small", 4: "standard", 5: "standard"}},
}
DEFAULT_VARIANT = "standard"

# Chance cards (R). colour: gray resolves now, orange is kept. multi: removed in `small`.
# counts_as: the tile type the kept card counts as at scoring. end_money: ₩ at scoring (step 2).
CARDS = (
    {"id": "lucky_coin", "name": "Lucky Coin", "colour": "gray", "count": 8, "multi": False,
     "effect": "Gain 2 ₩.", "gain": 2},
    {"id": "treasure_chest", "name": "Treasure Chest", "colour": "gray", "count": 4,
     "multi": False, "effect": "Gain 5 ₩.", "gain": 5},
    {"id": "strike_gold", "name": "Strike Gold", "colour": "gray", "count": 4, "multi": False,
     "effect": "Put a +5 ₩ token on a board tile that has no token.", "token": 5},
    {"id": "hazardous_area", "name": "Hazardous Area", "colour": "gray", "count": 4,
     "multi": False, "effect": "Put a −5 ₩ token on a board tile that has no token.",
     "token": -5},
    {"id": "second_wind", "name": "Second Wind", "colour": "gray", "count": 4, "multi": False,
     "effect": "Take another turn right after this one."},
    {"id": "thief", "name": "Thief", "colour": "gray", "count": 3, "multi": True,
     "effect": "Take up to 3 ₩ from another player.", "steal": 3},
    {"id": "landslide", "name": "Landslide", "colour": "gray", "count": 3, "multi": False,
     "effect": "Remove the leftmost remaining tile of a site from play (may abandon it)."},
    {"id": "pink_diamond", "name": "Pink Diamond", "colour": "orange", "count": 2, "multi": True,
     "effect": "Counts as a diamond tile.", "counts_as": "diamond"},
    {"id": "gold_nugget", "name": "Gold", "colour": "orange", "count": 4, "multi": False,
     "effect": "Counts as a gold tile.", "counts_as": "gold"},
    {"id": "ancient_map", "name": "Ancient Map", "colour": "orange", "count": 4, "multi": False,
     "effect": "Play before rolling: choose the result (1–6)."},
    {"id": "lucky_charm", "name": "Lucky Charm", "colour": "orange", "count": 4, "multi": False,
     "effect": "Play after rolling: roll again and keep the new roll."},
    {"id": "appraisal", "name": "Appraisal", "colour": "orange", "count": 4, "multi": False,
     "effect": "End of game: +8 ₩.", "end_money": 8},
    {"id": "insurance", "name": "Insurance", "colour": "orange", "count": 2, "multi": False,
     "effect": "End of game: your stone set bonus counts as 0.", "cancels_stone_set": True},
)

# Missions (R): one kept per player; bonus in ₩ when achieved. `goal`: the mission is achieved when
# its `measure` (score.MEASURES says what each counts; `of` names a set) is at least `min` or at
# most `max`; `condition` is the card's text, the goal's numbers filled in by condition().
MISSIONS = (
    {"id": "jack_of_all_trades", "name": "Jack of All Trades", "bonus": 20, "multi": True,
     "condition": "At least {min} gold, bronzeware, scroll, crystal, ruby and diamond.",
     "goal": {"measure": "fewest", "min": 1}},
    {"id": "closing_shop", "name": "Closing Shop", "bonus": 15, "multi": False,
     "condition": "During play, your dig leaves a site with one tile (you abandon it).",
     "goal": {"measure": "sites_closed", "min": 1}},
    {"id": "gold_digger", "name": "Gold Digger", "bonus": 15, "multi": False,
     "condition": "{min} or more gold.", "goal": {"measure": "count", "of": "gold", "min": 5}},
    {"id": "bronze_age", "name": "Bronze Age", "bonus": 15, "multi": False,
     "condition": "At least {min} trinity.", "goal": {"measure": "trinities", "min": 1}},
    {"id": "scholar", "name": "Scholar", "bonus": 15, "multi": False,
     "condition": "{min} or more scrolls.", "goal": {"measure": "count", "of": "scroll", "min": 4}},
    {"id": "crystal_clear", "name": "Crystal Clear", "bonus": 15, "multi": False,
     "condition": "{min} or more crystals.",
     "goal": {"measure": "count", "of": "crystal", "min": 5}},
    {"id": "ruby_hunter", "name": "Ruby Hunter", "bonus": 20, "multi": False,
     "condition": "{min} or more rubies.", "goal": {"measure": "count", "of": "ruby", "min": 5}},
    {"id": "diamond_hunter", "name": "Diamond Hunter", "bonus": 20, "multi": True,
     "condition": "{min} or more diamonds.",
     "goal": {"measure": "count", "of": "diamond", "min": 4}},
    {"id": "clean_hands", "name": "Clean Hands", "bonus": 15, "multi": False,
     "condition": "{max} stones.", "goal": {"measure": "count", "of": "stone", "max": 0}},
    {"id": "rock_collector", "name": "Rock Collector", "bonus": 20, "multi": False,
     "condition": "{min} or more stones.", "goal": {"measure": "count", "of": "stone", "min": 4}},
    {"id": "big_purse", "name": "Big Purse", "bonus": 15, "multi": False,
     "condition": "Money tokens worth {min} ₩ or more net (−5 tokens count against it).",
     "goal": {"measure": "tokens", "min": 12}},
    {"id": "card_shark", "name": "Card Shark", "bonus": 15, "multi": False,
     "condition": "{min} or more chance cards drawn.",
     "goal": {"measure": "cards_drawn", "min": 5}},
    {"id": "bundler", "name": "Bundler", "bonus": 15, "multi": False,
     "condition": "{min} or more bundles.", "goal": {"measure": "bundles", "min": 2}},
    {"id": "specialist", "name": "Specialist", "bonus": 20, "multi": False,
     "condition": "One treasure set of {min} or more tiles (bronzeware is one set).",
     "goal": {"measure": "largest_set", "min": 7}},
    {"id": "collector", "name": "Collector", "bonus": 20, "multi": False,
     "condition": "Sets of {min} or more different treasure types.",
     "goal": {"measure": "sets", "min": 3}},
)
MISSIONS_DEALT = 3
# How the mission cards write 0 and 1.
NUMBER_WORDS = ("no", "one")


# --- What the turn engine needs beyond the scoresheet -------------------------------------------

# Tile marks as the engine names them: a star draws a chance card, +2 pays PLUS_TWO_VALUE.
STAR = "star"
PLUS_TWO = "plus_two"


def _json(value: Any) -> Any:
    """A box value as JSON has it: a tuple as a list, a table's numbers as text keys."""
    if isinstance(value, tuple):
        return list(value)
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else value


class DigItUpBox(Box):
    # What names the game, and the engine's names for the marks.
    FIXED = ("GAME_ID", "NAME", "STAR", "PLUS_TWO")
    CARD_COLOURS = ("gray", "orange")  # gray resolves now, orange is kept
    DERIVED: ClassVar[dict[str, str]] = {
        "TREASURES": "BRONZEWARE (gold, the bronzeware, scroll, crystal, ruby, diamond)",
        "TILE_TYPES": "BRONZEWARE (the treasures and stone)",
        "SET_OF": "BRONZEWARE (its kinds form one set)",
        "SETS": "BRONZEWARE (its kinds form one set)",
        "CARD_BY_ID": "CARDS", "MISSION_BY_ID": "MISSIONS"}

    @classmethod
    def printed_box(cls) -> Box:
        return DEFAULT

    def derive(self, changed: set[str]) -> dict[str, Any]:
        treasures = ("gold", *self.BRONZEWARE, "scroll", "crystal", "ruby", "diamond")
        tile_types = (*treasures, "stone")
        # The set a tile type belongs to (the bronzeware kinds form one set).
        set_of = {tile: ("bronzeware" if tile in self.BRONZEWARE else tile)
                  for tile in tile_types}
        return {"TREASURES": treasures, "TILE_TYPES": tile_types, "SET_OF": set_of,
                "SETS": tuple(dict.fromkeys(set_of.values())),
                "CARD_BY_ID": {card["id"]: card for card in self.CARDS},
                "MISSION_BY_ID": {mission["id"]: mission for mission in self.MISSIONS}}

    def problems(self) -> list[str]:
        problems: list[str] = []
        add = problems.append
        tiles = self.TILE_TYPES
        if len(set(tiles)) != len(tiles) or not all(self.BRONZEWARE):
            add(f"BRONZEWARE: names of its own for each kind, apart from gold, scroll, crystal, "
                f"ruby, diamond and stone, not {shown(self.BRONZEWARE)}.")
        for tile in tiles:
            if tile not in self.TILE_NAMES:
                add(f"TILE_NAMES: has no name for the tile type {shown(tile)}; the tile types are "
                    f"gold, the BRONZEWARE ({', '.join(self.BRONZEWARE)}), scroll, crystal, "
                    "ruby, diamond and stone.")
        for set_id, rows in self.SET_TABLE.items():
            least = [row[0] for row in rows]
            if not rows or any(len(row) != 2 for row in rows) or least[0] < 1 or \
                    any(a >= b for a, b in zip(least, least[1:], strict=False)):
                add(f"SET_TABLE.{set_id}: one or more rows of [the least count, the bonus], the "
                    f"least counts rising from 1 up, not {shown(rows)}.")
        for name in ("BUNDLE_SIZE", "SIMPLIFIED_SET_MIN", "DIE_SIDES"):
            if getattr(self, name) < 1:
                add(f"{name}: at least 1, not {getattr(self, name)}.")
        self._site_problems(add)
        for name, marked in (("STAR_TILES", self.STAR_TILES), ("PLUS_TWO_TILE",
                                                               (self.PLUS_TWO_TILE,))):
            for tile in marked:
                if tile not in tiles:
                    add(f"{name}: {shown(tile)} is no tile type; the tile types are "
                        f"{', '.join(tiles)}.")
        # A tile holds one mark (RULINGS §1 "Marks"): a type both ★ and +2 would deal its +2 tile
        # as a ★ one, while the +2 tiles the simplified game's tokens are counted against had it.
        if self.PLUS_TWO_TILE in self.STAR_TILES:
            add(f"PLUS_TWO_TILE: a tile type whose tiles are not ★ (STAR_TILES: "
                f"{', '.join(self.STAR_TILES)}), as a tile holds one mark, not "
                f"{shown(self.PLUS_TWO_TILE)}.")
        self._variant_problems(add)
        for card in self.CARDS:
            if card["colour"] not in self.CARD_COLOURS:
                add(f"CARDS.{card['id']}.colour: gray (resolved at once) or orange (kept), not "
                    f"{shown(card['colour'])}.")
            if card["count"] < 0:
                add(f"CARDS.{card['id']}.count: 0 or more, not {card['count']}.")
            if card.get("counts_as", tiles[0]) not in tiles:
                add(f"CARDS.{card['id']}.counts_as: a tile type ({', '.join(tiles)}), not "
                    f"{shown(card['counts_as'])}.")
        for mission in self.MISSIONS:
            goal = mission["goal"]
            if "of" in goal and goal["of"] not in self.SETS:
                add(f"MISSIONS.{mission['id']}.goal.of: a set ({', '.join(self.SETS)}), not "
                    f"{shown(goal['of'])}.")
            try:
                self.condition(mission)
            except (KeyError, IndexError, ValueError) as exc:
                add(f"MISSIONS.{mission['id']}.condition: text whose {{…}} name the goal's "
                    f"numbers ({', '.join(k for k in goal if k not in ('measure', 'of'))}), "
                    f"not {shown(mission['condition'])} ({exc!r}).")
        if self.MISSIONS_DEALT < 1:
            add(f"MISSIONS_DEALT: at least 1, not {self.MISSIONS_DEALT}.")
        if self.PLUS_TWO_VALUE < 1:
            add(f"PLUS_TWO_VALUE: at least 1 (what a +2 tile pays, in which the Simplified "
                f"variant counts its money tokens), not {self.PLUS_TWO_VALUE}.")
        return problems

    def _site_problems(self, add: Any) -> None:
        if self.SITE_STONES < 0:
            add(f"SITE_STONES: 0 or more, not {self.SITE_STONES}.")
        if self.SITE_TILES < 2:
            add(f"SITE_TILES: at least 2 (a site left with one tile is abandoned), not "
                f"{self.SITE_TILES}.")
        holding: dict[int, list[str]] = {}
        for site, (name, treasures) in self.SITES.items():
            for tile, n in treasures.items():
                if tile not in self.TREASURES or n < 0:
                    add(f"SITES.{site}: its treasures are counts (0 or more) of treasure types "
                        f"({', '.join(self.TREASURES)}), not {tile} {n}.")
            if not name:
                add(f"SITES.{site}: a site has a name.")
            holding.setdefault(self.SITE_STONES + sum(treasures.values()), []).append(site)
        for held, sites in holding.items():
            if held != self.SITE_TILES:
                add(f"SITE_TILES: every site is a row of SITE_TILES spaces, holding "
                    f"SITE_STONES ({self.SITE_STONES}) and its treasures (SITES): "
                    f"{', '.join(sites)} hold{'s' if len(sites) == 1 else ''} {held}, not "
                    f"{self.SITE_TILES}.")

    def _variant_problems(self, add: Any) -> None:
        if self.DEFAULT_VARIANT not in self.VARIANTS:
            add(f"DEFAULT_VARIANT: {shown(self.DEFAULT_VARIANT)} is not a variant; the variants "
                f"are {', '.join(self.VARIANTS)}.")
        for variant, spec in self.VARIANTS.items():
            path = f"VARIANTS.{variant}"
            low, high = (list(spec["players"]) + [0, 0])[:2]
            if len(spec["players"]) != 2 or not 2 <= low <= high:
                add(f"{path}.players: the fewest and the most players, from 2 up (a match is "
                    f"won against someone), not {list(spec['players'])}.")
            if "boards" in spec:
                for players, board in spec["boards"].items():
                    if self.VARIANTS.get(board, spec)["sites"] is None:
                        add(f"{path}.boards.{players}: a variant with sites "
                            f"({', '.join(v for v, s in self.VARIANTS.items() if s['sites'])}), "
                            f"not {shown(board)}.")
                for key in ("sites", "abandon_limit", "diamonds"):
                    if spec[key] is not None:
                        add(f"{path}.{key}: null: the board of the table size says it.")
                continue
            sites = spec["sites"]
            if not isinstance(sites, str) or not sites or \
                    not all(site in self.SITES for site in sites) or len(set(sites)) != len(sites):
                add(f"{path}.sites: the letters of its sites, each once, among "
                    f"{''.join(self.SITES)}, not {shown(sites)}.")
                continue
            if not isinstance(spec["abandon_limit"], int) or \
                    not 1 <= spec["abandon_limit"] <= len(sites):
                add(f"{path}.abandon_limit: how many abandoned sites end the game, 1 to "
                    f"{len(sites)}, not {shown(spec['abandon_limit'])}.")
            diamonds = any(self.SITES[site][1].get("diamond") for site in sites)
            if spec["diamonds"] is not diamonds:
                add(f"{path}.diamonds: whether its sites ({sites}) hold diamonds: "
                    f"{str(diamonds).lower()}, as SITES says, not {shown(spec['diamonds'])}.")
            if spec["missions"]:
                missions = [m for m in self.MISSIONS if spec["multi"] or not m["multi"]]
                if self.MISSIONS_DEALT * high > len(missions):
                    add(f"MISSIONS_DEALT: each of {high} players of the {variant} game is dealt "
                        f"MISSIONS_DEALT from its {len(missions)} missions: at most "
                        f"{len(missions) // high}, not {self.MISSIONS_DEALT}.")

    # What the calculator, the engine and the catalogue read.

    def board(self, variant: str, players: int | None = None) -> dict:
        """The variant whose board (sites, end, diamonds) a table of `players` plays on. A
        table size no board is for (one player's sheet scored alone) is given both boards:
        nothing on either is ruled out."""
        spec = self.VARIANTS[variant]
        if spec["sites"] is None:
            spec = self.VARIANTS[spec["boards"].get(players, "standard")]
        return spec

    def condition(self, mission: dict) -> str:
        """A mission's condition as its card reads: "5 or more gold.", "No stones."."""
        words = self.NUMBER_WORDS
        numbers = {k: words[v] if isinstance(v, int) and 0 <= v < len(words) else v
                   for k, v in mission["goal"].items()}
        text = mission["condition"].format(**numbers)
        return text[0].upper() + text[1:]

    def box_limits(self, variant: str, players: int | None = None) -> dict[str, int]:
        """How many tiles of each type the board of a table of `players` holds: no table holds
        more (a type the board lacks: 0)."""
        held = dict.fromkeys(self.TILE_TYPES, 0)
        for site in self.board(variant, players)["sites"]:
            held["stone"] += self.SITE_STONES
            for tile, n in self.SITES[site][1].items():
                held[tile] += n
        return held

    def diggable(self, variant: str, players: int | None = None) -> int:
        """How many tiles the players of a table of `players` can hold at most. Rulebook
        "Abandoning a dig site": a site left with one tile is abandoned at once, and that tile
        leaves play (RULINGS §1); a site still dug holds two or more; and the game ends once
        the board's limit of sites is abandoned ("Game end"). A dig abandons at most one site,
        so at most that many give all their tiles but the last; a site a Landslide abandons
        loses two to play, as one still dug keeps two."""
        board = self.board(variant, players)
        sites = board["sites"]
        return sum(self.SITE_STONES + sum(self.SITES[site][1].values()) - 2 for site in sites) \
            + min(board["abandon_limit"], len(sites))

    def plus_two_tiles(self, variant: str, players: int | None = None) -> int:
        """How many +2 tiles the board of a table of `players` holds: one on each site that has
        a PLUS_TWO_TILE (RULINGS §1, "Marks")."""
        return sum(1 for site in self.board(variant, players)["sites"]
                   if self.SITES[site][1].get(self.PLUS_TWO_TILE))

    @staticmethod
    def money_of(card: dict) -> int:
        """The ₩ a chance card gives its drawer: its gain, or its token's worth (0: none)."""
        return max(card.get("gain", 0), card.get("token", 0))

    def money_cards(self, variant: str) -> list[dict]:
        """The chance cards of the variant that give money: a gain, or a +₩ token on a tile."""
        spec = self.VARIANTS[variant]
        return [card for card in self.CARDS
                if spec["cards"] and (spec["multi"] or not card["multi"])
                and self.money_of(card) > 0]

    def money_in_play(self, variant: str, players: int | None = None) -> int:
        """How many ₩ of money a table of `players` can come by in all (RULINGS §1 "Money"):
        the board's +2 tiles and the variant's chance cards that give money, each drawn once;
        a Thief only moves money from one player to another."""
        return self.PLUS_TWO_VALUE * self.plus_two_tiles(variant, players) + sum(
            card["count"] * self.money_of(card) for card in self.money_cards(variant))

    def box_data(self) -> dict:
        """The box as the catalogue shows it."""
        return {
            "currency": self.CURRENCY,
            "tiles": [{"id": t, "name": self.TILE_NAMES[t], "set": self.SET_OF[t],
                       "treasure": t != "stone"} for t in self.TILE_TYPES],
            "sets": [{"id": s, "bonus_by_count": [{"min": m, "bonus": b}
                                                  for m, b in self.SET_TABLE[s]]}
                     for s in self.SETS],
            "trinity_bonus": self.TRINITY_BONUS,
            "bundle": {"size": self.BUNDLE_SIZE, "bonus": self.BUNDLE_BONUS},
            "simplified": {"set_min": self.SIMPLIFIED_SET_MIN,
                           "set_bonus": self.SIMPLIFIED_SET_BONUS,
                           "loose_tile": self.SIMPLIFIED_LOOSE_TILE},
            "sites": [{"id": s, "name": name, "treasures": treasures, "stones": self.SITE_STONES}
                      for s, (name, treasures) in self.SITES.items()],
            "marks": {"star": list(self.STAR_TILES), "plus_two": self.PLUS_TWO_TILE,
                      "plus_two_value": self.PLUS_TWO_VALUE},
            # beside the catalogue's list of variant ids: what each variant changes
            "variant_rules": [{"id": v, **{k: _json(x) for k, x in spec.items()}}
                              for v, spec in self.VARIANTS.items()],
            "cards": [dict(card) for card in self.CARDS],
            "missions": [{**{k: v for k, v in m.items() if k != "goal"},
                          "condition": self.condition(m)} for m in self.MISSIONS],
        }


DEFAULT = DigItUpBox(printed(globals()))
# The printed box's derived tables, for what describes the game as printed (the HTTP schemas).
TREASURES, TILE_TYPES, SETS = DEFAULT.TREASURES, DEFAULT.TILE_TYPES, DEFAULT.SETS
SET_OF, CARD_BY_ID, MISSION_BY_ID = DEFAULT.SET_OF, DEFAULT.CARD_BY_ID, DEFAULT.MISSION_BY_ID
board, condition, box_limits = DEFAULT.board, DEFAULT.condition, DEFAULT.box_limits
box_data = DEFAULT.box_data
