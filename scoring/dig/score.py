"""DIG end-game points: dropped bones times their bowl's place (rulebook "Scoring")."""

from typing import Any

from scoring.results import Problems, table

from . import box

SORTED_COLOURS = sorted(box.COLOURS)
NO_BONES: dict[str, int] = {}


def bowl_values(bowls: list[str]) -> dict[str, int]:
    """Points per bone of each colour, from the bowls' order nearest the Doghouse first."""
    return dict(zip(bowls, box.BOWL_POINTS, strict=True))


def check(sheet: dict[str, Any]) -> None:
    bowls = sheet["bowls"]
    dropped = [player.get("dropped", NO_BONES) for player in sheet["players"]]
    # the bones of each colour on the table, one pass over the players
    held = [sum(counts) for counts in zip(*([bones.get(c, 0) for c in box.COLOURS]
                                            for bones in dropped), strict=True)]
    held = held or [0] * len(box.COLOURS)  # no players
    bowls_right = sorted(bowls) == SORTED_COLOURS
    if bowls_right and max(held) <= box.BONES_PER_COLOUR:
        return
    with Problems() as problems:
        if not bowls_right:
            missing = [c for c in box.COLOURS if c not in bowls]
            problems.add("bowls", "List each of the five bowls once, nearest the Doghouse first"
                         + (f"; missing: {', '.join(missing)}." if missing else "."))
        for colour, count in zip(box.COLOURS, held, strict=True):
            # the fields that hold the colour are named only when the table holds too many
            if count <= box.BONES_PER_COLOUR:
                continue
            for i, bones in enumerate(dropped):
                problems.hold(colour, f"players.{i}.dropped.{colour}", bones.get(colour, 0))
            problems.limit(colour, f"Together the players dropped {count} {colour} bones, but "
                                   f"the game has only {box.BONES_PER_COLOUR}.")


def score(sheet: dict[str, Any]) -> dict[str, Any]:
    """`sheet`: {"bowls": [5 colours, nearest first], "players": [{"name", "dropped"}]}."""
    check(sheet)
    bowls = sheet["bowls"]
    values = bowl_values(bowls)
    by_colour = [(colour, values[colour]) for colour in box.COLOURS]
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

    def bones_by_value(p: dict[str, Any]) -> list[int]:
        return [p["breakdown"][colour]["bones"] for colour in bowls]

    def describe(p: dict[str, Any]) -> str:
        return ", ".join(f"{n}×{v}" for n, v in zip(bones_by_value(p), box.BOWL_POINTS,
                                                     strict=True))

    return table(box.GAME_ID, players, tie_key=bones_by_value, describe=describe,
                 tie_rule="Most 5-point bones, then 4-point, 3-point, 2-point, 1-point.")
