"""DIG end-game points: dropped bones times their bowl's place (rulebook "Scoring")."""

from typing import Any

from scoring.results import Problems, table

from . import box

SORTED_COLOURS = sorted(box.COLOURS)


def bowl_values(bowls: list[str]) -> dict[str, int]:
    """Points per bone of each colour, from the bowls' order nearest the Doghouse first."""
    return dict(zip(bowls, box.BOWL_POINTS, strict=True))


def check(sheet: dict[str, Any]) -> None:
    with Problems() as problems:
        bowls = sheet["bowls"]
        if sorted(bowls) != SORTED_COLOURS:
            missing = [c for c in box.COLOURS if c not in bowls]
            problems.add("bowls", "List each of the five bowls once, nearest the Doghouse first"
                         + (f"; missing: {', '.join(missing)}." if missing else "."))
        dropped = [player.get("dropped", {}) for player in sheet["players"]]
        for colour in box.COLOURS:
            # the fields that hold the colour are named only when the table holds too many
            if sum(bones.get(colour, 0) for bones in dropped) <= box.BONES_PER_COLOUR:
                continue
            for i, bones in enumerate(dropped):
                problems.hold(colour, f"players.{i}.dropped.{colour}", bones.get(colour, 0))
            held = problems.over(colour, box.BONES_PER_COLOUR)
            problems.limit(colour, f"Together the players dropped {held} {colour} bones, but "
                                   f"the game has only {box.BONES_PER_COLOUR}.")


def score(sheet: dict[str, Any]) -> dict[str, Any]:
    """`sheet`: {"bowls": [5 colours, nearest first], "players": [{"name", "dropped"}]}."""
    check(sheet)
    values = bowl_values(sheet["bowls"])
    players = []
    for p in sheet["players"]:
        dropped = p.get("dropped", {})
        breakdown = {c: {"bones": dropped.get(c, 0), "value": values[c],
                         "points": dropped.get(c, 0) * values[c]} for c in box.COLOURS}
        players.append({"name": p["name"], "total": sum(b["points"] for b in breakdown.values()),
                        "breakdown": breakdown})

    def bones_by_value(p: dict[str, Any]) -> list[int]:
        return [p["breakdown"][colour]["bones"] for colour in sheet["bowls"]]

    def describe(p: dict[str, Any]) -> str:
        return ", ".join(f"{n}×{v}" for n, v in zip(bones_by_value(p), box.BOWL_POINTS,
                                                     strict=True))

    return table(box.GAME_ID, players, tie_key=bones_by_value, describe=describe,
                 tie_rule="Most 5-point bones, then 4-point, 3-point, 2-point, 1-point.")
