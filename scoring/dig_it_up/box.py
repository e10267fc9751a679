"""Dig It Up: everything printed on (or reconstructed for) the components.

Data marked (R) in RULINGS.md is reconstructed; an owner of the box corrects it here and nowhere
else.
"""

GAME_ID = "dig-it-up"
NAME = "Dig It Up"
CURRENCY = "₩"

BRONZEWARE = ("incense_burner", "statue", "knife")
TREASURES = ("gold", *BRONZEWARE, "scroll", "crystal", "ruby", "diamond")
TILE_TYPES = (*TREASURES, "stone")
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

# The set a tile type belongs to (the three bronzeware kinds form one set).
SET_OF = {tile: ("bronzeware" if tile in BRONZEWARE else tile) for tile in TILE_TYPES}
SETS = ("gold", "bronzeware", "scroll", "crystal", "ruby", "diamond", "stone")

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


def board(variant: str, players: int | None = None) -> dict:
    """The variant whose board (sites, end, diamonds) a table of `players` plays on. A table
    size no board is for (one player's sheet scored alone) is given both boards: nothing on
    either is ruled out."""
    spec = VARIANTS[variant]
    if spec["sites"] is None:
        spec = VARIANTS[spec["boards"].get(players, "standard")]
    return spec

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
CARD_BY_ID = {card["id"]: card for card in CARDS}

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
MISSION_BY_ID = {mission["id"]: mission for mission in MISSIONS}
MISSIONS_DEALT = 3
# How the mission cards write 0 and 1.
NUMBER_WORDS = ("no", "one")


def condition(mission: dict) -> str:
    """A mission's condition as its card reads: "5 or more gold.", "No stones."."""
    numbers = {k: NUMBER_WORDS[v] if isinstance(v, int) and v < len(NUMBER_WORDS) else v
               for k, v in mission["goal"].items()}
    text = mission["condition"].format(**numbers)
    return text[0].upper() + text[1:]


def box_limits(variant: str, players: int | None = None) -> dict[str, int]:
    """How many tiles of each type the board of a table of `players` holds: no table holds more
    (a type the board lacks: 0)."""
    held = dict.fromkeys(TILE_TYPES, 0)
    for site in board(variant, players)["sites"]:
        held["stone"] += SITE_STONES
        for tile, n in SITES[site][1].items():
            held[tile] += n
    return held


def _json(value):
    """A box value as JSON has it: a tuple as a list, a table's numbers as text keys."""
    if isinstance(value, tuple):
        return list(value)
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else value


def box_data() -> dict:
    """The box as the catalogue shows it."""
    return {
        "currency": CURRENCY,
        "tiles": [{"id": t, "name": TILE_NAMES[t], "set": SET_OF[t],
                   "treasure": t != "stone"} for t in TILE_TYPES],
        "sets": [{"id": s, "bonus_by_count": [{"min": m, "bonus": b} for m, b in SET_TABLE[s]]}
                 for s in SETS],
        "trinity_bonus": TRINITY_BONUS,
        "bundle": {"size": BUNDLE_SIZE, "bonus": BUNDLE_BONUS},
        "simplified": {"set_min": SIMPLIFIED_SET_MIN, "set_bonus": SIMPLIFIED_SET_BONUS,
                       "loose_tile": SIMPLIFIED_LOOSE_TILE},
        "sites": [{"id": s, "name": name, "treasures": treasures, "stones": SITE_STONES}
                  for s, (name, treasures) in SITES.items()],
        "marks": {"star": list(STAR_TILES), "plus_two": PLUS_TWO_TILE},
        # beside the catalogue's list of variant ids: what each variant changes
        "variant_rules": [{"id": v, **{k: _json(x) for k, x in spec.items()}}
                          for v, spec in VARIANTS.items()],
        "cards": [dict(card) for card in CARDS],
        "missions": [{**{k: v for k, v in m.items() if k != "goal"}, "condition": condition(m)}
                     for m in MISSIONS],
    }


# --- What the turn engine needs beyond the scoresheet -------------------------------------------

# Tile marks as the engine names them: a star draws a chance card, +2 pays PLUS_TWO_VALUE.
STAR = "star"
PLUS_TWO = "plus_two"
