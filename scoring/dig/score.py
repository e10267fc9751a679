"""DIG end-game points: dropped bones times their bowl's place (rulebook "Scoring")."""

from typing import Any

from scoring.results import Problems, table

from . import box
from .box import DigBox

NO_BONES: dict[str, int] = {}
# How the bowls' count is written in a refusal.
COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
               "ten")


class Calculator:
    """The scoring of one box: its colours, their bones and the bowls' points."""

    def __init__(self, box: DigBox) -> None:
        self.box = box
        self.sorted_colours = sorted(box.COLOURS)

    def bowl_values(self, bowls: list[str]) -> dict[str, int]:
        """Points per bone of each colour, from the bowls' order nearest the Doghouse first."""
        return dict(zip(bowls, self.box.BOWL_POINTS, strict=True))

    def check(self, sheet: dict[str, Any]) -> None:
        colours, bones_of = self.box.COLOURS, self.box.BONES
        bowls = sheet["bowls"]
        dropped = [player.get("dropped", NO_BONES) for player in sheet["players"]]
        # the bones of each colour on the table, one pass over the players
        held = [sum(counts) for counts in zip(*([bones.get(c, 0) for c in colours]
                                                for bones in dropped), strict=True)]
        held = held or [0] * len(colours)  # no players
        bowls_right = sorted(bowls) == self.sorted_colours
        if bowls_right and all(n <= bones_of[c] for c, n in zip(colours, held, strict=True)):
            return
        with Problems() as problems:
            if not bowls_right:
                missing = [c for c in colours if c not in bowls]
                n = len(colours)
                problems.add("bowls", f"List each of the "
                             f"{COUNT_WORDS[n] if n < len(COUNT_WORDS) else n} bowls once, "
                             "nearest the Doghouse first"
                             + (f"; missing: {', '.join(missing)}." if missing else "."))
            for colour, count in zip(colours, held, strict=True):
                # the fields that hold the colour are named only when the table holds too many
                if count <= bones_of[colour]:
                    continue
                for i, bones in enumerate(dropped):
                    problems.hold(colour, f"players.{i}.dropped.{colour}", bones.get(colour, 0))
                problems.limit(colour, f"Together the players dropped {count} {colour} bones, "
                                       f"but the game has only {bones_of[colour]}.")

    def score(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """`sheet`: {"variant"?, "bowls": [the colours, nearest first], "players": [{"name",
        "dropped"}]}."""
        self.check(sheet)
        points = self.box.BOWL_POINTS
        bowls = sheet["bowls"]
        values = self.bowl_values(bowls)
        by_colour = [(colour, values[colour]) for colour in self.box.COLOURS]
        players = []
        for p in sheet["players"]:
            dropped = p.get("dropped", NO_BONES)
            breakdown = {}
            total = 0
            for colour, value in by_colour:
                bones = dropped.get(colour, 0)
                breakdown[colour] = {"bones": bones, "value": value, "points": bones * value}
                total += bones * value
            players.append({"name": p["name"], "total": total, "breakdown": breakdown})

        # Rulebook "Tiebreakers": bones compared by point value, highest first (bowls of one
        # value counted together, as a box whose bowls are not worth ever less may have them).
        ranked = sorted(set(points), reverse=True)

        def bones_by_value(p: dict[str, Any]) -> list[int]:
            return [sum(p["breakdown"][colour]["bones"] for colour in bowls
                        if values[colour] == value) for value in ranked]

        def describe(p: dict[str, Any]) -> str:
            return ", ".join(f"{n}×{v}" for n, v in zip(bones_by_value(p), ranked, strict=True))

        # The variant played: the sheet's, else the default, as Dig It Up's answer names it.
        named = {"variant": sheet.get("variant", self.box.DEFAULT_VARIANT)}
        rule = f"Most {ranked[0]}-point bones" + (
            ", then " + ", ".join(f"{v}-point" for v in ranked[1:]) if ranked[1:] else "")
        return table(self.box.GAME_ID, players, named, tie_key=bones_by_value, describe=describe,
                     tie_rule=rule + ".")


CALCULATOR = box.DEFAULT.made(Calculator)
score = CALCULATOR.score
