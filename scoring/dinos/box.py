"""Digging for Dinos: the components. The roster is reconstructed (R) in RULINGS §3."""

from typing import Any

from scoring.boxes import Box, printed, shown

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


class DinosBox(Box):
    @classmethod
    def printed_box(cls) -> Box:
        return DEFAULT

    def derive(self, changed: set[str]) -> dict[str, Any]:
        return {"ROSTER_BY_ID": {d["id"]: d for d in self.ROSTER},
                # rulebook: each era holds exactly one set of every dinosaur.
                "ERA_TILES": sum(len(d["values"]) for d in self.ROSTER)}

    def problems(self) -> list[str]:
        problems = []
        for variant, spec in self.VARIANTS.items():
            low, high = (list(spec["players"]) + [0, 0])[:2]
            if len(spec["players"]) != 2 or not 2 <= low <= high or \
                    not all(n in self.GRID_SIZE for n in range(low, high + 1)):
                problems.append(f"VARIANTS.{variant}.players: the fewest and the most players, "
                                f"from 2 up (a match is won against someone), each count "
                                f"with a grid in GRID_SIZE "
                                f"({', '.join(map(str, self.GRID_SIZE))}), not "
                                f"{list(spec['players'])}.")
        if self.DEFAULT_VARIANT not in self.VARIANTS:
            problems.append(f"DEFAULT_VARIANT: {shown(self.DEFAULT_VARIANT)} is not a variant; the "
                            f"variants are {', '.join(self.VARIANTS)}.")
        if self.ERAS < 1:
            problems.append(f"ERAS: at least 1, not {self.ERAS}.")
        for players, size in self.GRID_SIZE.items():
            # rulebook "Setup" 3: the grid is dealt from era 1; every token needs a tile. The
            # game ends once the last tile of the last era is placed ("End Game"), which a
            # refill does: a deal that took every tile would leave nothing to end it.
            if not 2 * players < size * size <= self.ERA_TILES or \
                    size * size == self.ERAS * self.ERA_TILES:
                problems.append(f"GRID_SIZE.{players}: a grid of size × size tiles, dealt from "
                                f"the {self.ERA_TILES} tiles of era 1 (ROSTER) with room for "
                                f"{2 * players} tokens and a tile left to refill from, not "
                                f"{size}.")
        if sorted(self.TOKENS) != sorted(self.DIRECTIONS) or len(self.TOKENS) != 2:
            problems.append(f"TOKENS: the two sides DIRECTIONS names "
                            f"({', '.join(self.DIRECTIONS)}), the side the first token is "
                            f"placed with first, not {shown(list(self.TOKENS))}.")
        seen: set[str] = set()
        for side, directions in self.DIRECTIONS.items():
            for name, step in directions.items():
                if name in seen or len(step) != 2 or step[0] == step[1] == 0:
                    problems.append(f"DIRECTIONS.{side}.{name}: a step of [rows, columns], "
                                    "not [0, 0], on one side only, not "
                                    f"{list(step)}.")
                seen.add(name)
        if self.DINOSAURS_TO_END < 1:
            problems.append(f"DINOSAURS_TO_END: at least 1, not {self.DINOSAURS_TO_END}.")
        for dinosaur in self.ROSTER:
            if not dinosaur["values"] or not dinosaur["name"]:
                problems.append(f"ROSTER.{dinosaur['id']}: a name and the left-hand value of "
                                f"each of its tiles (one or more), not {dinosaur['values']}.")
        return problems

    def box_data(self) -> dict:
        return {
            "eras": self.ERAS,
            "grid_size": {str(n): size for n, size in self.GRID_SIZE.items()},
            "tokens": [{"side": side, "directions": list(self.DIRECTIONS[side])}
                       for side in self.TOKENS],
            "dinosaurs_to_end": self.DINOSAURS_TO_END,
            "roster": [dict(d, tiles=len(d["values"])) for d in self.ROSTER],
        }


DEFAULT = DinosBox(printed(globals()))
box_data = DEFAULT.box_data
