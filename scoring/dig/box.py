"""DIG: the components (RULINGS §2)."""

from itertools import combinations

GAME_ID = "dig"
NAME = "DIG"
VARIANTS = {"standard": {"name": "Standard", "players": (2, 4)}}
DEFAULT_VARIANT = "standard"

# RULINGS: the colours of the rulebook's scoring example.
COLOURS = ("green", "yellow", "purple", "blue", "red")
BONES_PER_COLOUR = 4
# rulebook "Scoring": the bowl nearest the Doghouse is worth 5 per bone, then 4, 3, 2, 1.
BOWL_POINTS = (5, 4, 3, 2, 1)
# rulebook: 2 cards for each pair of scent colours, one bone of each colour of the pair.
SCENT_PAIRS = tuple(combinations(COLOURS, 2))
CARDS_PER_PAIR = 2
# rulebook "Move": up to 4 cards, minus one per bone in hand; at most 3 bones in hand.
MAX_MOVE = 4
HAND_LIMIT = 3
ACTIONS_PER_TURN = 3


def bone_cards() -> list[dict]:
    """The 20 bone cards: each scent pair twice, the bone being each colour of the pair once."""
    return [{"kind": "bone", "scent": list(pair), "bone": colour}
            for pair in SCENT_PAIRS for colour in pair]


def box_data() -> dict:
    return {
        "colours": list(COLOURS),
        "bones_per_colour": BONES_PER_COLOUR,
        "bowl_points": list(BOWL_POINTS),
        "bone_cards": [{"scent": list(pair), "count": CARDS_PER_PAIR} for pair in SCENT_PAIRS],
        "bowls": list(COLOURS),
        "hand_limit": HAND_LIMIT,
        "max_move": MAX_MOVE,
        "actions_per_turn": ACTIONS_PER_TURN,
    }
