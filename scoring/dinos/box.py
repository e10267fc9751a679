"""Digging for Dinos: the components. The roster is reconstructed (R) in RULINGS §3."""

GAME_ID = "digging-for-dinos"
NAME = "Digging for Dinos"
# rulebook "Setup": a grid for 2, 3 or 4 players (and 4 player cards, "Components").
VARIANTS = {"standard": {"name": "Standard", "players": (2, 4)}}
DEFAULT_VARIANT = "standard"

# rulebook: 3 eras, each with exactly one set of every dinosaur.
ERAS = 3
# rulebook "Setup": a 4×4 grid for 2 players, 5×5 for 3 or 4.
GRID_SIZE = {2: 4, 3: 5, 4: 5}
TOKENS = ("orthogonal", "diagonal")
DIRECTIONS = {
    "orthogonal": {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)},
    "diagonal": {"NE": (-1, 1), "SE": (1, 1), "SW": (1, -1), "NW": (-1, -1)},
}
# rulebook "End Game": completing a fourth dinosaur ends the game.
DINOSAURS_TO_END = 4

# Roster (R): left-hand value of each position 1…n, the complete-set value, the flip ability.
ROSTER = (
    {"id": "velociraptor", "name": "Velociraptor", "values": [1, 1], "set_value": 5,
     "flip": True},
    {"id": "deinosuchus", "name": "Deinosuchus", "values": [1, 1], "set_value": 5, "flip": True},
    {"id": "pterodactyl", "name": "Pterodactyl", "values": [2, 2, 2, 2], "set_value": 12,
     "flip": False},
    {"id": "stegosaurus", "name": "Stegosaurus", "values": [2, 2, 3, 2, 2], "set_value": 17,
     "flip": False},
    {"id": "triceratops", "name": "Triceratops", "values": [2, 2, 2, 2, 2, 2], "set_value": 20,
     "flip": False},
    {"id": "tyrannosaurus", "name": "Tyrannosaurus", "values": [3, 2, 2, 2, 2, 3],
     "set_value": 24, "flip": False},
    {"id": "brontosaurus", "name": "Brontosaurus", "values": [2, 2, 2, 2, 2, 2, 2, 2],
     "set_value": 30, "flip": False},
)


def box_data() -> dict:
    return {
        "eras": ERAS,
        "grid_size": {str(n): size for n, size in GRID_SIZE.items()},
        "tokens": [{"side": side, "directions": list(DIRECTIONS[side])} for side in TOKENS],
        "dinosaurs_to_end": DINOSAURS_TO_END,
        "roster": [dict(d, tiles=len(d["values"])) for d in ROSTER],
    }
