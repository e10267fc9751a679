"""DIG: the components (RULINGS §2)."""

from collections import Counter
from itertools import combinations
from typing import Any

from scoring.boxes import Box, printed, shown

GAME_ID = "dig"
NAME = "DIG"
VARIANTS = {"standard": {"name": "Standard", "players": (2, 4)}}
DEFAULT_VARIANT = "standard"

# RULINGS: the colours of the rulebook's scoring example.
COLOURS = ("green", "yellow", "purple", "blue", "red")
# rulebook "Scoring": the bowl nearest the Doghouse is worth 5 per bone, then 4, 3, 2, 1.
BOWL_POINTS = (5, 4, 3, 2, 1)
# rulebook: 2 cards for each pair of scent colours ...
CARDS_PER_PAIR = 2
# ... (R) one holding a bone of each colour of the pair, so 4 bones of each colour. A pair's
# cards by the scent's colours joined with "+"; the bones of its cards in card order.
PAIR_BONES = {f"{a}+{b}": (a, b) for a, b in combinations(COLOURS, 2)}
# rulebook "Move": up to 4 cards, minus one per bone in hand; at most 3 bones in hand.
MAX_MOVE = 4
HAND_LIMIT = 3
ACTIONS_PER_TURN = 3


def pair_id(pair: tuple[str, ...]) -> str:
    return "+".join(pair)


class DigBox(Box):
    DERIVED = {"SCENT_PAIRS": "COLOURS (every two colours make a scent pair)",
               "BONES_PER_COLOUR": "PAIR_BONES (the bones of each scent pair's cards)",
               "BONES": "PAIR_BONES (the bones of each scent pair's cards)"}

    @classmethod
    def printed_box(cls) -> Box:
        return DEFAULT

    def derive(self, changed: set[str]) -> dict[str, Any]:
        scent_pairs = tuple(combinations(self.COLOURS, 2))
        pair_bones = self.PAIR_BONES
        if "COLOURS" in changed and "PAIR_BONES" not in changed:
            # New colours, the rulebook's cards: one bone of each colour of the pair.
            pair_bones = {pair_id(pair): pair for pair in scent_pairs}
        bones = Counter(bone for pair in scent_pairs
                        for bone in pair_bones.get(pair_id(pair), ()))
        counts = {colour: bones[colour] for colour in self.COLOURS}
        return {"SCENT_PAIRS": scent_pairs, "PAIR_BONES": pair_bones, "BONES": counts,
                "BONES_PER_COLOUR": max(counts.values(), default=0)}

    def problems(self) -> list[str]:
        problems = []
        for variant, spec in self.VARIANTS.items():
            low, high = (list(spec["players"]) + [0, 0])[:2]
            if len(spec["players"]) != 2 or not 2 <= low <= high:
                problems.append(f"VARIANTS.{variant}.players: the fewest and the most players, "
                                f"from 2 up (a match is won against someone), not "
                                f"{shown(spec['players'])}.")
        if self.DEFAULT_VARIANT not in self.VARIANTS:
            problems.append(f"DEFAULT_VARIANT: {shown(self.DEFAULT_VARIANT)} is not a variant; the "
                            f"variants are {', '.join(self.VARIANTS)}.")
        colours = self.COLOURS
        if len(colours) < 2 or len(set(colours)) != len(colours) or \
                not all(c and "+" not in c for c in colours):
            problems.append(f"COLOURS: two or more different names, none empty or holding "
                            f"'+', not {shown(colours)}.")
        if len(self.BOWL_POINTS) != len(colours):
            problems.append(f"BOWL_POINTS: one value per bowl, nearest the Doghouse first: "
                            f"{len(colours)} for the {len(colours)} COLOURS, not "
                            f"{len(self.BOWL_POINTS)}.")
        if self.CARDS_PER_PAIR != 2:
            problems.append(f"CARDS_PER_PAIR: must be 2, not {self.CARDS_PER_PAIR}: what a seat "
                            "can tell (RULINGS §2: a put-back blurs a card with the other card "
                            "of its scent) is ruled for two cards of each scent; PAIR_BONES "
                            "says which bones they hold.")
        pairs = {pair_id(pair): pair for pair in self.SCENT_PAIRS}
        if set(self.PAIR_BONES) != set(pairs):
            problems.append(f"PAIR_BONES: one entry per scent pair of COLOURS "
                            f"({', '.join(pairs)}), not {', '.join(self.PAIR_BONES)}.")
        for key, bones in self.PAIR_BONES.items():
            scent = pairs.get(key, ())
            if len(bones) != self.CARDS_PER_PAIR:
                problems.append(f"PAIR_BONES.{key}: the bone of each of its "
                                f"{self.CARDS_PER_PAIR} cards, {self.CARDS_PER_PAIR} in all, not "
                                f"{len(bones)} ({shown(bones)}).")
            elif not set(bones) <= set(scent):
                problems.append(f"PAIR_BONES.{key}: each bone a colour of the scent "
                                f"({', '.join(scent)}), not {shown(bones)}.")
        if self.HAND_LIMIT < 1:
            problems.append(f"HAND_LIMIT: at least 1 (a dog holds the bone it digs), not "
                            f"{self.HAND_LIMIT}.")
        if self.MAX_MOVE <= self.HAND_LIMIT:
            problems.append(f"MAX_MOVE: a dog moves MAX_MOVE cards less one per bone in hand, "
                            f"and with a full hand (HAND_LIMIT {self.HAND_LIMIT}) still 1: at "
                            f"least {self.HAND_LIMIT + 1}, not {self.MAX_MOVE}.")
        if self.ACTIONS_PER_TURN < 1:
            problems.append(f"ACTIONS_PER_TURN: at least 1, not {self.ACTIONS_PER_TURN}.")
        return problems

    def bone_cards(self) -> list[dict]:
        """The bone cards: each scent pair's cards, each with the bone PAIR_BONES gives it."""
        return [{"kind": "bone", "scent": list(pair), "bone": colour}
                for pair in self.SCENT_PAIRS for colour in self.PAIR_BONES[pair_id(pair)]]

    def box_data(self) -> dict:
        counts = set(self.BONES.values())
        return {
            "colours": list(self.COLOURS),
            # Bones of each colour: one number while every colour has as many (the rulebook's).
            "bones_per_colour": self.BONES_PER_COLOUR if len(counts) == 1 else dict(self.BONES),
            "bowl_points": list(self.BOWL_POINTS),
            "bone_cards": [{"scent": list(pair), "count": len(self.PAIR_BONES[pair_id(pair)])}
                           for pair in self.SCENT_PAIRS],
            "bowls": list(self.COLOURS),
            "hand_limit": self.HAND_LIMIT,
            "max_move": self.MAX_MOVE,
            "actions_per_turn": self.ACTIONS_PER_TURN,
        }


DEFAULT = DigBox(printed(globals()))
# The printed box's derived numbers, for what describes the game as printed (the HTTP schemas).
SCENT_PAIRS = DEFAULT.SCENT_PAIRS
BONES_PER_COLOUR = DEFAULT.BONES_PER_COLOUR
bone_cards = DEFAULT.bone_cards
box_data = DEFAULT.box_data
