"""Digging for Dinos end-game points (rulebook "Scoring")."""

from typing import Any

from scoring.results import Problems, table

from . import box
from .box import DinosBox


def complete_sets(dinosaur: dict[str, Any], positions: list[int]) -> int:
    """RULINGS: complete sets = the least count over the dinosaur's positions (eras combine)."""
    return min(map(positions.count, range(1, len(dinosaur["values"]) + 1)))


def score_collection(tiles: dict[str, list[int]], roster: dict[str, dict[str, Any]]) -> dict:
    """A collection's breakdown: one entry per completed set, left-hand values for the rest."""
    completed = []
    loose = 0
    for dino_id, positions in tiles.items():
        dinosaur = roster[dino_id]
        sets = complete_sets(dinosaur, positions)
        completed += [{"dinosaur": dino_id, "value": dinosaur["set_value"]}] * sets
        # rulebook: tiles in completed sets do not score individually.
        loose += sum(dinosaur["values"][p - 1] for p in positions) - sets * sum(dinosaur["values"])
    return {"completed": completed, "loose": loose}


class Calculator:
    """The scoring of one box: its roster (unless the sheet gives its own) and its eras."""

    def __init__(self, box: DinosBox) -> None:
        self.box = box

    def roster_by_id(self, roster: list[dict[str, Any]] | None = None
                     ) -> dict[str, dict[str, Any]]:
        if roster is None:
            return self.box.ROSTER_BY_ID
        return {d["id"]: d for d in roster}

    def check(self, sheet: dict[str, Any]) -> None:
        roster = self.roster_by_id(sheet.get("roster"))
        eras = self.box.ERAS
        with Problems() as problems:
            for i, player in enumerate(sheet["players"]):
                for dino_id, positions in player.get("tiles", {}).items():
                    dinosaur = roster.get(dino_id)
                    if dinosaur is None:
                        problems.add(f"players.{i}.tiles.{dino_id}",
                                     f"'{dino_id}' is not a dinosaur of this game.")
                        continue
                    size = len(dinosaur["values"])
                    for j, position in enumerate(positions):
                        field = f"players.{i}.tiles.{dino_id}.{j}"
                        if not 1 <= position <= size:
                            problems.add(field, f"{dinosaur['name']} has positions 1 to {size}, "
                                                f"not {position}.")
                        problems.hold((dino_id, position), field)
                self._check_completed(problems, i, player, roster)
            for dino_id, position in sorted(problems.held):
                if held := problems.over((dino_id, position), eras):
                    problems.limit((dino_id, position), f"Together the players hold {held} "
                                   f"{roster[dino_id]['name']} {position} tiles, but there is "
                                   f"only one in each of the {eras} eras.")

    def most_completed(self) -> int:
        """How many dinosaurs a player can complete at most. Rulebook "End Game": a player's
        fourth ends the game (the others had three at most until then), the players who have not
        yet taken their turn that round each take one more, and then everyone collects the tiles
        under their paleontologists; each tile completes one dinosaur at most."""
        return self.box.DINOSAURS_TO_END + len(self.box.TOKENS)

    def _check_completed(self, problems: Problems, i: int, player: dict[str, Any],
                         roster: dict[str, dict[str, Any]]) -> None:
        completed = sum(complete_sets(roster[d], positions)
                        for d, positions in player.get("tiles", {}).items() if d in roster)
        if completed > (most := self.most_completed()):
            end = self.box.DINOSAURS_TO_END
            problems.add(f"players.{i}.tiles",
                         f"These tiles complete {completed} dinosaurs, but no one completes more "
                         f"than {most}: the game ends once a player completes their {end}th, "
                         "after which each player takes at most one more turn and then the "
                         "tiles under their paleontologists.")

    def score(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """`sheet`: {"variant"?, "roster"?, "players": [{"name", "tiles": {dinosaur:
        [positions]}}]}."""
        self.check(sheet)
        roster = self.roster_by_id(sheet.get("roster"))
        players = []
        for p in sheet["players"]:
            breakdown = score_collection(p.get("tiles", {}), roster)
            total = sum(c["value"] for c in breakdown["completed"]) + breakdown["loose"]
            players.append({"name": p["name"], "total": total, "breakdown": breakdown})

        def completed_values(p: dict[str, Any]) -> list[int]:
            return sorted((c["value"] for c in p["breakdown"]["completed"]), reverse=True)

        def describe(p: dict[str, Any]) -> str:
            values = completed_values(p)
            return "completed " + (", ".join(map(str, values)) if values else "none")

        # The variant played: the sheet's, else the default, as Dig It Up's answer names it.
        named = {"variant": sheet.get("variant", self.box.DEFAULT_VARIANT)}
        return table(self.box.GAME_ID, players, named, tie_key=completed_values, describe=describe,
                     tie_rule="The largest completed dinosaur wins, then the second largest, "
                              "and so on.")


CALCULATOR = box.DEFAULT.made(Calculator)
score = CALCULATOR.score
