"""Dig It Up end-game money, in the rulebook's order: mission, chance cards, money tokens, set
bonuses, bundle bonuses."""

from typing import Any

from scoring.results import InvalidScoresheet, Problems, rank

from . import box


def _set_bonus(set_id: str, count: int) -> int:
    bonus = 0
    for minimum, amount in box.SET_TABLE[set_id]:
        if count >= minimum:
            bonus = amount
    return bonus


def tile_counts(player: dict[str, Any]) -> dict[str, int]:
    """Tiles held, with kept cards that count as a tile added to that type."""
    counts = {t: int(player.get("tiles", {}).get(t, 0)) for t in box.TILE_TYPES}
    for card_id, n in player.get("cards", {}).items():
        counts_as = box.CARD_BY_ID[card_id].get("counts_as")
        if counts_as:
            counts[counts_as] += n
    return counts


def set_counts(counts: dict[str, int]) -> dict[str, int]:
    """How many tiles each set type holds (the three bronzeware kinds together)."""
    per_set = dict.fromkeys(box.SETS, 0)
    for tile, n in counts.items():
        per_set[box.SET_OF[tile]] += n
    return per_set


def sets_formed(counts: dict[str, int]) -> dict[str, bool]:
    """Which types form a set. rulebook: a set is formed with all its tiles, never split."""
    return {s: n >= box.SET_TABLE[s][0][0] for s, n in set_counts(counts).items()}


def _standard(player: dict[str, Any]) -> dict[str, Any]:
    counts = tile_counts(player)
    per_set = set_counts(counts)
    formed = sets_formed(counts)
    sets = {s: _set_bonus(s, per_set[s]) for s in box.SETS}
    if formed["bronzeware"]:
        sets["bronzeware"] += box.TRINITY_BONUS * min(counts[t] for t in box.BRONZEWARE)
    # rulebook: stones are not a treasure, so they never bundle.
    loose = sum(per_set[s] for s in box.SETS if s != "stone" and not formed[s])
    cards = 0
    for card_id, n in player.get("cards", {}).items():
        card = box.CARD_BY_ID[card_id]
        cards += card.get("end_money", 0) * n
        if card.get("cancels_stone_set") and n:
            cards -= sets["stone"]  # RULINGS: Insurance makes the stone set count 0 (step 2)
    mission = player.get("mission") or {}
    mission_bonus = 0
    if mission.get("achieved"):
        mission_bonus = (box.MISSION_BY_ID[mission["id"]]["bonus"] if "id" in mission
                         else mission["bonus"])
    return {
        "mission": mission_bonus,
        "cards": cards,
        "tokens": int(player.get("tokens", 0)),
        "sets": sets,
        "bundles": box.BUNDLE_BONUS * (loose // box.BUNDLE_SIZE),
    }


def _simplified(player: dict[str, Any]) -> dict[str, Any]:
    # rulebook "Simplified variation": 4+ of a type is 10 ₩, every other treasure 1 ₩.
    per_set = set_counts(tile_counts(player))
    sets = dict.fromkeys(box.SETS, 0)
    loose = 0
    for s in box.SETS:
        if s == "stone":
            continue
        if per_set[s] >= box.SIMPLIFIED_SET_MIN:
            sets[s] = box.SIMPLIFIED_SET_BONUS
        else:
            loose += per_set[s]
    return {"mission": 0, "cards": 0, "tokens": int(player.get("tokens", 0)), "sets": sets,
            "bundles": box.SIMPLIFIED_LOOSE_TILE * loose}


def breakdown_total(breakdown: dict[str, Any]) -> int:
    return (breakdown["mission"] + breakdown["cards"] + breakdown["tokens"]
            + sum(breakdown["sets"].values()) + breakdown["bundles"])


def check(sheet: dict[str, Any]) -> dict[str, list[str]]:
    """Everything a scoresheet claims that the box or the variant makes impossible."""
    problems = Problems()
    variant = sheet.get("variant", box.DEFAULT_VARIANT)
    spec = box.VARIANTS[variant]
    limits = box.box_limits(variant)
    stones = treasures = 0
    cards_held = dict.fromkeys(box.CARD_BY_ID, 0)
    for i, player in enumerate(sheet["players"]):
        tiles = player.get("tiles", {})
        stones += tiles.get("stone", 0)
        treasures += sum(n for t, n in tiles.items() if t != "stone")
        if spec["diamonds"] is False and tiles.get("diamond", 0):
            problems.add(f"players.{i}.tiles.diamond",
                         f"The {spec['name']} game has no diamonds.")
        for card_id, n in player.get("cards", {}).items():
            cards_held[card_id] += n
            card = box.CARD_BY_ID[card_id]
            if n and not spec["cards"]:
                problems.add(f"players.{i}.cards.{card_id}",
                             f"The {spec['name']} variant is played without chance cards.")
            elif n and card["colour"] != "orange":
                problems.add(f"players.{i}.cards.{card_id}",
                             f"{card['name']} is used at once and cannot be kept to the end.")
            elif n and card["multi"] and not spec["multi"]:
                problems.add(f"players.{i}.cards.{card_id}",
                             f"{card['name']} is removed from the {spec['name']} game.")
        mission = player.get("mission")
        if mission:
            if not spec["missions"]:
                problems.add(f"players.{i}.mission",
                             f"The {spec['name']} variant is played without missions.")
            elif "id" in mission and not spec["multi"]:
                kept = box.MISSION_BY_ID[mission["id"]]
                if kept["multi"]:
                    problems.add(f"players.{i}.mission.id",
                                 f"{kept['name']} is removed from the {spec['name']} game.")
    if stones > limits["stone"]:
        problems.add("players", f"Together the players hold {stones} stones, but the "
                                f"{spec['name']} game has only {limits['stone']}.")
    if treasures > limits["treasure"]:
        problems.add("players", f"Together the players hold {treasures} treasure tiles, but the "
                                f"{spec['name']} game has only {limits['treasure']}.")
    for card_id, n in cards_held.items():
        card = box.CARD_BY_ID[card_id]
        if n > card["count"]:
            problems.add("players", f"Together the players hold {n} {card['name']} cards, but the "
                                    f"box has only {card['count']}.")
    return problems.errors


def score_player(player: dict[str, Any], variant: str) -> dict[str, Any]:
    breakdown = _simplified(player) if variant == "simplified" else _standard(player)
    return {"name": player["name"], "total": breakdown_total(breakdown), "breakdown": breakdown}


def score(sheet: dict[str, Any]) -> dict[str, Any]:
    """Score a whole table. `sheet`: {"variant"?, "players": [{"name", "tiles", "tokens",
    "mission", "cards"}]}. Raises InvalidScoresheet for what the box cannot hold."""
    variant = sheet.get("variant", box.DEFAULT_VARIANT)
    errors = check(sheet)
    if errors:
        raise InvalidScoresheet(errors)
    players = [score_player(p, variant) for p in sheet["players"]]
    ranking = rank(players)  # RULINGS: no tie-break is printed; tied players share the win
    return {"game": box.GAME_ID, "variant": variant, "players": players, **ranking}
