"""Dig It Up end-game money, in the rulebook's order: mission, chance cards, money tokens, set
bonuses, bundle bonuses."""

from collections.abc import Callable
from functools import cached_property
from typing import Any

from scoring.boxes import BoxError, shown
from scoring.results import Problems, table

from . import box
from .box import DigItUpBox


class Collection:
    """A player's end of game as the scoring steps and the missions read it (`player` as a
    scoresheet lists it; `closed` and `drawn` are known to the engine only). Each figure is
    worked out when first read: a mission reads one."""

    def __init__(self, calculator: "Calculator", player: dict[str, Any], closed: int = 0,
                 drawn: int = 0) -> None:
        self.calculator, self.box = calculator, calculator.box
        self.player = player
        self.tokens = int(player.get("tokens", 0))
        self.closed = closed  # sites the player's own dig abandoned
        self.drawn = drawn  # chance cards the player drew, whatever became of them

    @cached_property
    def counts(self) -> dict[str, int]:
        return self.calculator.tile_counts(self.player)

    @cached_property
    def per_set(self) -> dict[str, int]:
        return self.calculator.set_counts(self.counts)

    @cached_property
    def formed(self) -> dict[str, bool]:
        # rulebook: a type whose count reaches its minimum forms a set with all its tiles
        table = self.box.SET_TABLE
        return {s: n >= table[s][0][0] for s, n in self.per_set.items()}

    @cached_property
    def trinities(self) -> int:
        return min(self.counts[t] for t in self.box.BRONZEWARE)

    @cached_property
    def bundles(self) -> int:
        loose = sum(self.per_set[s] for s in self.calculator.treasure_sets if not self.formed[s])
        return loose // self.box.BUNDLE_SIZE

    @property
    def treasure_sets(self) -> tuple[str, ...]:
        return self.calculator.treasure_sets

    @property
    def stars(self) -> int:
        """The ★ tiles held: each drew at most one chance card."""
        tiles = self.player.get("tiles", {})
        return sum(int(tiles.get(t, 0)) for t in self.box.STAR_TILES)


# What a mission's goal measures (box.MISSIONS), given the set type `of` it names (R).
MEASURES: dict[str, Callable[[Collection, str | None], int]] = {
    "count": lambda c, of: c.per_set[of],
    "fewest": lambda c, _: min(c.per_set[s] for s in c.treasure_sets),  # one of each: 1
    "trinities": lambda c, _: c.trinities,
    "sites_closed": lambda c, _: c.closed,
    "tokens": lambda c, _: c.tokens,
    "cards_drawn": lambda c, _: c.drawn,
    "bundles": lambda c, _: c.bundles,
    # RULINGS: Specialist and Collector count treasure sets only (stones are not treasure)
    "largest_set": lambda c, _: max((c.per_set[s] for s in c.treasure_sets if c.formed[s]),
                                    default=0),
    "sets": lambda c, _: sum(c.formed[s] for s in c.treasure_sets),
}


# What only play shows (Closing Shop, Card Shark): a scoresheet cannot, so the player declares it.
DECLARED = frozenset({"sites_closed", "cards_drawn"})
# The most of such a measure a scoresheet allows: a chance card is drawn only for a ★ tile dug, and
# tiles dug stay with their player (no card takes one), so at most one card a ★ tile held (R).
AT_MOST: dict[str, Callable[[Collection], int]] = {"cards_drawn": lambda c: c.stars}


# Limits across the table: the tokens below zero that the players' money takes, and the tiles dug.
DEBT = ("tokens", "below zero")
DUG = ("tiles", "dug")


class Calculator:
    """The scoring of one box: its sets, cards, missions and boards. BoxError for a mission
    whose goal it cannot judge."""

    def __init__(self, box: DigItUpBox) -> None:
        self.box = box
        self.treasure_sets = tuple(s for s in box.SETS if s != "stone")  # rulebook: no treasure
        unknown = [f"MISSIONS.{m['id']}.goal.measure: one of {', '.join(MEASURES)}, not "
                   f"{shown(m['goal']['measure'])}." for m in box.MISSIONS
                   if m["goal"]["measure"] not in MEASURES]
        if unknown:
            raise BoxError(unknown)

    def set_bonus(self, set_id: str, count: int) -> int:
        bonus = 0
        for minimum, amount in self.box.SET_TABLE[set_id]:
            if count >= minimum:
                bonus = amount
        return bonus

    def tile_counts(self, player: dict[str, Any]) -> dict[str, int]:
        """Tiles held, with kept cards that count as a tile added to that type."""
        tiles = player.get("tiles", {})
        counts = {t: int(tiles.get(t, 0)) for t in self.box.TILE_TYPES}
        card_by_id = self.box.CARD_BY_ID
        for card_id, n in player.get("cards", {}).items():
            counts_as = card_by_id[card_id].get("counts_as")
            if counts_as:
                counts[counts_as] += n
        return counts

    def set_counts(self, counts: dict[str, int]) -> dict[str, int]:
        """How many tiles each set type holds (the three bronzeware kinds together)."""
        per_set = dict.fromkeys(self.box.SETS, 0)
        set_of = self.box.SET_OF
        for tile, n in counts.items():
            per_set[set_of[tile]] += n
        return per_set

    def declared(self, mission_id: str) -> bool:
        """Whether the player says if the mission was achieved; every other mission is judged
        from the scoresheet's counts."""
        return self.box.MISSION_BY_ID[mission_id]["goal"]["measure"] in DECLARED

    def judging(self, mission_id: str) -> dict[str, Any]:
        """A mission's goal and whether the player declares it: what a client needs to judge it
        as this calculator does (MEASURES)."""
        return {"goal": self.box.MISSION_BY_ID[mission_id]["goal"],
                "declared": self.declared(mission_id)}

    def mission_achieved(self, mission_id: str, player: dict[str, Any], closed: int = 0,
                         drawn: int | None = None) -> bool:
        """rulebook "Mission achievement": judged from the final collection (`player` as a
        scoresheet lists it) and, for Closing Shop and Card Shark, from what happened during
        play. Where play is not known (`drawn` None: a scoresheet), the chance cards kept to
        the end count as drawn: they were, and so at least as many."""
        goal = self.box.MISSION_BY_ID[mission_id]["goal"]
        if drawn is None:
            drawn = sum(player.get("cards", {}).values())
        value = MEASURES[goal["measure"]](Collection(self, player, closed, drawn),
                                          goal.get("of"))
        return goal.get("min", value) <= value <= goal.get("max", value)

    def disproven(self, mission_id: str, player: dict[str, Any]) -> bool:
        """Whether the scoresheet's counts rule out a mission only play decides: Card Shark's
        five cards drawn, with fewer than five ★ tiles held to draw them."""
        goal = self.box.MISSION_BY_ID[mission_id]["goal"]
        most = AT_MOST.get(goal["measure"])
        return most is not None and most(Collection(self, player)) < goal.get("min", 0)

    def achieved(self, player: dict[str, Any]) -> bool:
        """Whether the scoresheet's mission pays: as the counts decide, or as the player
        declares where they cannot (a mission given by its bonus alone, Closing Shop, Card
        Shark), unless the counts prove even that one (five cards kept prove Card Shark) or
        rule it out (fewer than five ★ tiles). check() refuses a declaration the counts
        contradict."""
        mission = player.get("mission") or {}
        if "id" not in mission:
            return bool(mission.get("achieved"))
        proven = self.mission_achieved(mission["id"], player)
        return proven or (self.declared(mission["id"]) and bool(mission.get("achieved"))
                          and not self.disproven(mission["id"], player))

    def _standard(self, player: dict[str, Any]) -> dict[str, Any]:
        box = self.box
        held = Collection(self, player)
        sets = {s: self.set_bonus(s, held.per_set[s]) for s in box.SETS}
        if held.formed["bronzeware"]:
            sets["bronzeware"] += box.TRINITY_BONUS * held.trinities
        cards = 0
        for card_id, n in player.get("cards", {}).items():
            card = box.CARD_BY_ID[card_id]
            cards += card.get("end_money", 0) * n
            if card.get("cancels_stone_set") and n:
                cards -= sets["stone"]  # RULINGS: Insurance makes the stone set count 0 (step 2)
        mission = player.get("mission") or {}
        mission_bonus = 0
        if self.achieved(player):
            mission_bonus = (box.MISSION_BY_ID[mission["id"]]["bonus"] if "id" in mission
                             else mission["bonus"])
        return {
            "mission": mission_bonus,
            "cards": cards,
            "tokens": held.tokens,
            "sets": sets,
            "bundles": box.BUNDLE_BONUS * held.bundles,
        }

    def _simplified(self, player: dict[str, Any]) -> dict[str, Any]:
        # rulebook "Simplified variation": 4+ of a type is 10 ₩, every other treasure 1 ₩.
        box = self.box
        per_set = self.set_counts(self.tile_counts(player))
        sets = dict.fromkeys(box.SETS, 0)
        loose = 0
        for s in self.treasure_sets:
            if per_set[s] >= box.SIMPLIFIED_SET_MIN:
                sets[s] = box.SIMPLIFIED_SET_BONUS
            else:
                loose += per_set[s]
        return {"mission": 0, "cards": 0, "tokens": int(player.get("tokens", 0)), "sets": sets,
                "bundles": box.SIMPLIFIED_LOOSE_TILE * loose}

    def table_game(self, variant: str, players: int) -> str:
        """The game a table plays, as a refusal names it: "Standard game", "Simplified game
        for 2 players" (the simplified game's board is the table size's)."""
        spec = self.box.VARIANTS[variant]
        if players in spec.get("boards", ()):
            return f"{spec['name']} game for {players} players"
        return f"{spec['name']} game"

    def check(self, sheet: dict[str, Any]) -> None:
        """Everything a scoresheet claims that the box or the variant makes impossible. The
        sheet is the whole table: together its players hold at most what the board of its size
        holds."""
        box = self.box
        variant = sheet.get("variant", box.DEFAULT_VARIANT)
        spec = box.VARIANTS[variant]
        limits = box.box_limits(variant, len(sheet["players"]))
        game = self.table_game(variant, len(sheet["players"]))
        # RULINGS §1 "simplified": without chance cards (no Strike Gold, no Hazardous Area, no
        # coins), money tokens come from +2 tiles alone: PLUS_TWO_VALUE each, the board's worth;
        # and a +2 tile is a gold tile its player keeps (nothing takes a tile back without cards)
        plus_two = None if spec["cards"] else box.PLUS_TWO_VALUE
        hazard = self.hazard(spec)
        with Problems() as problems:
            for i, player in enumerate(sheet["players"]):
                tokens = player.get("tokens", 0)
                marked = player.get("tiles", {}).get(box.PLUS_TWO_TILE, 0)
                if plus_two and (tokens < 0 or tokens % plus_two):
                    money = f"−{-tokens}" if tokens < 0 else str(tokens)
                    problems.add(f"players.{i}.tokens",
                                 f"The {spec['name']} variant's money tokens come from +2 tiles "
                                 f"alone, {plus_two} {box.CURRENCY} each: {money} "
                                 f"{box.CURRENCY} cannot be made of them.")
                elif plus_two and tokens > plus_two * marked:
                    tile = box.TILE_NAMES[box.PLUS_TWO_TILE]
                    problems.add(f"players.{i}.tokens",
                                 f"Each +2 tile is a {tile} tile its player keeps: {marked} "
                                 f"{tile} tile{'' if marked == 1 else 's'} bring"
                                 f"{'s' if marked == 1 else ''} at most {plus_two * marked} "
                                 f"{box.CURRENCY} of money tokens, not {tokens} {box.CURRENCY}.")
                elif plus_two or tokens > 0:
                    problems.hold("tokens", f"players.{i}.tokens", tokens)
                elif tokens < 0 and hazard:
                    self._check_debt(problems, i, tokens, hazard)
                if dug := sum(player.get("tiles", {}).values()):
                    problems.hold(DUG, f"players.{i}.tiles", dug)
                for tile, n in player.get("tiles", {}).items():
                    field = f"players.{i}.tiles.{tile}"
                    problems.hold(tile, field, n)
                    if n and not limits[tile]:  # rulebook "2-3 Player game": no diamonds
                        problems.add(field, f"The {game} has no {box.TILE_NAMES[tile]} tiles.")
                for card_id, n in player.get("cards", {}).items():
                    field = f"players.{i}.cards.{card_id}"
                    problems.hold(card_id, field, n)
                    card = box.CARD_BY_ID[card_id]
                    if n and not spec["cards"]:
                        problems.add(field, f"The {spec['name']} variant is played without "
                                            "chance cards.")
                    elif n and card["colour"] != "orange":
                        problems.add(field, f"{card['name']} is used at once and cannot be kept "
                                            "to the end.")
                    elif n and card["multi"] and not spec["multi"]:
                        problems.add(field, f"{card['name']} is removed from the {spec['name']} "
                                            "game.")
                self._check_draws(problems, i, player, spec)
                mission = player.get("mission")
                if mission:
                    if not spec["missions"]:
                        problems.add(f"players.{i}.mission",
                                     f"The {spec['name']} variant is played without missions.")
                    elif "id" in mission:
                        kept = box.MISSION_BY_ID[mission["id"]]
                        problems.hold(("mission", kept["id"]), f"players.{i}.mission.id")
                        if kept["multi"] and not spec["multi"]:
                            problems.add(f"players.{i}.mission.id",
                                         f"{kept['name']} is removed from the {spec['name']} "
                                         "game.")
                        elif "achieved" not in mission and self.declared(kept["id"]) and \
                                not self.mission_achieved(kept["id"], player):
                            # API.md: left out only where the counts decide (five cards kept
                            # prove Card Shark; fewer leave it to the player)
                            problems.add(f"players.{i}.mission.achieved",
                                         f"Say whether {kept['name']} was achieved: these "
                                         "counts alone do not show it.")
                        elif "achieved" in mission and mission["achieved"] != \
                                self.achieved(player):
                            why = ""
                            if mission["achieved"] and self.disproven(kept["id"], player):
                                stars = Collection(self, player).stars
                                why = (f" A chance card is drawn only for a ★ tile dug, and "
                                       f"{stars} ★ tile{' is' if stars == 1 else 's are'} "
                                       "held.")
                            problems.add(f"players.{i}.mission.achieved",
                                         f"{kept['name']} is "
                                         f"{'not ' if mission['achieved'] else ''}achieved "
                                         f"with these counts: {box.condition(kept)}{why}")
            for tile, most in limits.items():
                if most and (held := problems.over(tile, most)):
                    problems.limit(tile, f"Together the players hold {held} "
                                         f"{box.TILE_NAMES[tile]} tiles, but the {game} has "
                                         f"only {most}.")
            most = box.diggable(variant, len(sheet["players"]))
            if held := problems.over(DUG, most):
                ends = box.board(variant, len(sheet["players"]))["abandon_limit"]
                problems.limit(DUG, f"Together the players hold {held} tiles, but the {game} "
                                    f"gives at most {most}: a dig site's last tile leaves play "
                                    "when the site is abandoned, a site still dug keeps two or "
                                    f"more, and the game ends once {ends} sites are abandoned.")
            if plus_two:
                tiles = box.plus_two_tiles(variant, len(sheet["players"]))
                if held := problems.over("tokens", plus_two * tiles):
                    problems.limit("tokens", f"Together the players hold {held} {box.CURRENCY} "
                                             f"of money tokens, but the {game} has only {tiles} "
                                             f"+2 tiles, {plus_two * tiles} {box.CURRENCY}.")
            elif held := problems.over("tokens", most := box.money_in_play(variant,
                                                                           len(sheet["players"]))):
                # RULINGS §1 "Money": a Thief moves money between players, never makes it
                cards = ", ".join(card["name"] for card in box.money_cards(variant))
                problems.limit("tokens", f"Together the players hold {held} {box.CURRENCY} of "
                                         f"money, but the {game} gives at most {most} "
                                         f"{box.CURRENCY} in all: its +2 tiles and the chance "
                                         f"cards that give money ({cards}).")
            if hazard and (held := problems.over(DEBT, hazard["count"])):
                problems.limit(DEBT, f"Together the players' money below zero takes at least "
                                     f"{held} of {hazard['name']}'s −{-hazard['token']} "
                                     f"{box.CURRENCY} tokens, but the box has only "
                                     f"{hazard['count']}.")
            for card in box.CARDS:
                if held := problems.over(card["id"], card["count"]):
                    problems.limit(card["id"], f"Together the players hold {held} "
                                               f"{card['name']} cards, but the box has only "
                                               f"{card['count']}.")
            for kept in box.MISSIONS:  # each mission is one card of the box
                if held := problems.over(("mission", kept["id"]), 1):
                    problems.limit(("mission", kept["id"]),
                                   f"Together the players hold {held} {kept['name']} mission "
                                   "cards, but the box has only one.")

    def hazard(self, spec: dict[str, Any]) -> dict[str, Any] | None:
        """The card whose token takes money away (Hazardous Area), where the variant plays it:
        a player's money goes below zero only by such tokens, the purse never (RULINGS)."""
        if not spec["cards"]:
            return None
        return next((c for c in self.box.CARDS if c.get("token", 0) < 0
                     and (spec["multi"] or not c["multi"])), None)

    def _check_debt(self, problems: Problems, i: int, tokens: int,
                    hazard: dict[str, Any]) -> None:
        """Money below zero is that card's tokens: a player holds at least as many as it takes,
        and at most as many as the box has."""
        each = -hazard["token"]
        needed = -(tokens // each)  # ceil(-tokens / each)
        field = f"players.{i}.tokens"
        currency = self.box.CURRENCY
        if needed > hazard["count"]:
            problems.add(field, f"Money below zero comes from {hazard['name']}'s −{each} "
                                f"{currency} tokens, {hazard['count']} in the box: at least "
                                f"−{each * hazard['count']} {currency}, not −{-tokens} "
                                f"{currency}.")
        else:
            problems.hold(DEBT, field, needed)

    def _check_draws(self, problems: Problems, i: int, player: dict[str, Any],
                     spec: dict[str, Any]) -> None:
        """A chance card is drawn only for a ★ tile dug, one a tile, and dug tiles stay with
        their player: the cards kept are at most the ★ tiles held."""
        by_id = self.box.CARD_BY_ID
        cards = {c: n for c, n in player.get("cards", {}).items()  # those it may keep
                 if n and by_id[c]["colour"] == "orange"
                 and (spec["multi"] or not by_id[c]["multi"])}
        kept = sum(cards.values())
        stars = Collection(self, player).stars
        if not spec["cards"] or kept <= stars:
            return
        names = " or ".join(self.box.TILE_NAMES[t] for t in self.box.STAR_TILES)
        tiles = "tile brings" if stars == 1 else "tiles bring"
        for card_id in cards:
            problems.add(f"players.{i}.cards.{card_id}",
                         f"A chance card is drawn only for a ★ tile dug ({names}), one a tile: "
                         f"{stars} ★ {tiles} at most {stars} card{'' if stars == 1 else 's'}, "
                         f"not {kept}.")

    def score_player(self, player: dict[str, Any], variant: str) -> dict[str, Any]:
        breakdown = (self._simplified(player) if variant == "simplified"
                     else self._standard(player))
        return {"name": player["name"], "total": breakdown_total(breakdown),
                "breakdown": breakdown}

    def score(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """Score a whole table. `sheet`: {"variant"?, "players": [{"name", "tiles", "tokens",
        "mission", "cards"}]}. Raises InvalidScoresheet for what the box cannot hold."""
        variant = sheet.get("variant", self.box.DEFAULT_VARIANT)
        self.check(sheet)
        players = [self.score_player(p, variant) for p in sheet["players"]]
        # RULINGS: no tie-break is printed; tied players share the win
        return table(self.box.GAME_ID, players, {"variant": variant})


def breakdown_total(breakdown: dict[str, Any]) -> int:
    return (breakdown["mission"] + breakdown["cards"] + breakdown["tokens"]
            + sum(breakdown["sets"].values()) + breakdown["bundles"])


CALCULATOR = box.DEFAULT.made(Calculator)
# The printed box's calculator, by the names the HTTP schemas and the tests read.
score, declared, judging = CALCULATOR.score, CALCULATOR.declared, CALCULATOR.judging
mission_achieved, score_player = CALCULATOR.mission_achieved, CALCULATOR.score_player
