"""Dig It Up turns: secret missions, the die, the pickaxes, chance cards and abandoned sites.

A turn is one `dig`; a decision the dig calls for (keep the roll or play a Lucky Charm, where a
Strike Gold token goes, whom a Thief robs, which site a Landslide hits) is the next legal action
of the same seat, and the turn ends when nothing is left to decide.

How the engine reads what the rulebook and RULINGS §1 leave open:
- The die is rolled when the dig is posted. A seat holding a Lucky Charm it may use is then asked
  `lucky_charm` (roll again) or `keep_roll`, after the first roll and after each roll a charm gave,
  as long as it holds another (RULINGS: several charms one after another); without one the roll is
  kept at once. An Ancient Map replaces the roll (`"ancient_map": 1–6` on the dig): its number is
  not a roll, so no Lucky Charm follows it.
- Taking a tile resolves in this order: the token on it, its +2, abandoning the site if one tile
  is left ("at once"), then the ★ card. So a card never places a token on the tile that just left
  play.
- An abandoned site's last tile leaves play and its token returns to the bank; its pickax goes
  back on the label (rulebook: the tile face-down on the label, the pickax on top).
- A player's ₩ is kept in two parts (RULINGS): the `purse` (coins and +5 tokens: the money, never
  below zero) and the `hazards` (the −5 tokens taken, zero or less). A Thief names any other player
  and takes min(3, that player's purse). The net ₩, purse plus hazards, is the calculator's
  `tokens`, what Big Purse judges and what a view calls `money`.
- A Landslide that leaves a site with one tile abandons it (`abandoned_by` the player who drew
  it), but that does not count for Closing Shop: RULINGS, only the player's own dig counts.
- Strike Gold or Hazardous Area with no tile free of a token anywhere on the open sites is spent
  without effect.
- The game ends at the end of the turn in which the limit of abandoned sites is reached, choices
  of that turn's card included; a Second Wind drawn in that turn gives no further turn.
- Missions: each player sees their own three, kept and discarded, and nobody else's. At the end
  an achieved mission is revealed and a failed one stays face down (the others see only that it
  failed); the discarded two never leave their owner's view (RULINGS).

State: the envelope (the seat names are `players`), then the board (`sites`, `abandoned`,
`abandon_limit`), the chance `deck` (top last), each seat's holdings in `seats`, the `turn` and the
`last_roll`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from dataclasses import replace
from typing import Any

from scoring.engine import (
    FINISHED,
    ONLY_FOR,
    PLAYING,
    SETUP,
    Action,
    Event,
    Game,
    IllegalAction,
    Rng,
    State,
    fragment,
)
from scoring.moves import Field, move, one_of, whole

from . import box
from .box import DigItUpBox
from .score import Calculator

# The printed box's row of spaces, for what describes the game as printed (the HTTP schemas).
SPACES = box.SITE_TILES

# Steps of a turn: the moves the seat to act may make, and what it is to decide.
DIG, ROLL, PLACE_TOKEN, STEAL, LANDSLIDE = "dig", "roll", "place_token", "steal", "landslide"
STEPS = {
    DIG: (("dig",), "name a dig site that is not abandoned and dig there"),
    ROLL: (("lucky_charm", "keep_roll"),
           "play your Lucky Charm (lucky_charm) or keep the roll (keep_roll)"),
    PLACE_TOKEN: (("place_token",), "put the card's money token on a board tile that has no token"),
    STEAL: (("steal",), "choose the player your Thief takes money from"),
    LANDSLIDE: (("landslide",), "choose the dig site your Landslide hits"),
}
CHOOSING_MISSIONS = (("keep_mission",), "keep one of the three missions you were dealt")

ANCIENT_MAP, LUCKY_CHARM = "ancient_map", "lucky_charm"
SECOND_WIND, LANDSLIDE_CARD = "second_wind", "landslide"
STONE = ("stone", None)  # a site's stone tile, which carries no mark


def _site(box: DigItUpBox) -> Field:
    return one_of("site", tuple(box.SITES), "The dig site's letter")


def _marked_tiles(box: DigItUpBox, treasures: dict[str, int]
                  ) -> tuple[tuple[str, str | None], ...]:
    """A site's tiles with their marks (RULINGS §1: every scroll and crystal ★, one gold +2),
    its stones first."""
    tiles: list[tuple[str, str | None]] = [STONE] * box.SITE_STONES
    plus_two_given = False
    for tile, n in treasures.items():
        for _ in range(n):
            mark = None
            if tile in box.STAR_TILES:
                mark = box.STAR
            elif tile == box.PLUS_TWO_TILE and not plus_two_given:
                mark, plus_two_given = box.PLUS_TWO, True
            tiles.append((tile, mark))
    return tuple(tiles)


def _leftmost(spot: dict[str, Any]) -> int:
    return next(i for i, tile in enumerate(spot["tiles"]) if tile is not None)


def _remaining(spot: dict[str, Any]) -> list[int]:
    """The spaces of a site that still hold a tile, left to right (0-based)."""
    return [i for i, tile in enumerate(spot["tiles"]) if tile is not None]


def _landing(spot: dict[str, Any], roll: int) -> int:
    """The space (0-based) a site's pickax lands on, stepped `roll` times.

    RULINGS: a step goes to the next remaining tile to the right, wrapping to the leftmost; from
    the label (position 0) the first step lands on the leftmost remaining tile."""
    remaining = _remaining(spot)
    passed = bisect_left(remaining, spot["pickax"] - 1)  # the tiles left of the pickax
    return remaining[(passed + roll - 1) % len(remaining)]


def _lift(spot: dict[str, Any], index: int) -> tuple[str, int | None]:
    """Take the tile out of its space, with the money token on it."""
    tile, token = spot["tiles"][index], spot["tokens"][index]
    spot["tiles"][index] = spot["tokens"][index] = None
    return tile, token


class DigItUpGame(Game):
    printed_box = box.DEFAULT
    box_example = {"BUNDLE_BONUS": 10}  # a study's documented box change
    calculator = Calculator
    # API.md "Undo": a dig rolls the die (or, with an Ancient Map, may land on a star and draw
    # a chance card), a Lucky Charm rolls again, keeping a roll takes the tile and may draw a
    # card, and a kept mission is told its keeper privately (a simultaneous step besides).
    # Placing a token, stealing and a landslide resolve a card already drawn: nothing new shows.
    REVEALING = frozenset({"keep_mission", "dig", "lucky_charm", "keep_roll"})

    def at_table(self, state: State, field: Field) -> Field:
        """A site is one of this table's board (six on the 2–3 players' board); a mission one
        of its deck (the 2–3 players' game removes some)."""
        if field.name == "site":
            return replace(field, choices=tuple(state["sites"]))
        if field.name == "mission" and self.mission_decks[state["variant"]]:
            return replace(field, choices=self.mission_decks[state["variant"]])
        return field

    def __init__(self, box: DigItUpBox | None = None) -> None:
        """The tables of the box: each site's marked tiles, the mission cards as a view shows
        them, and each variant's decks."""
        super().__init__(box)
        box = self.box
        self.judge = box.made(Calculator)  # who judges missions, as the calculator does
        self.spaces = box.SITE_TILES
        self.die = box.DIE_SIDES
        self.site_tiles = {site: _marked_tiles(box, treasures)
                           for site, (_, treasures) in box.SITES.items()}
        self.mission_cards = {m["id"]: {"id": m["id"], "name": m["name"], "bonus": m["bonus"],
                                        "condition": box.condition(m)} for m in box.MISSIONS}
        # Each variant's chance deck and mission cards before shuffling, in box order (2–3
        # players: the cards and missions marked multi are removed), built once rather than at
        # every set-up.
        self.decks = {variant: tuple(card["id"] for card in box.CARDS
                                     for _ in range(card["count"])
                                     if spec["cards"] and (spec["multi"] or not card["multi"]))
                      for variant, spec in box.VARIANTS.items()}
        # The same decks as (card, how many), in box order: what a view counts the cards used by.
        self.deck_counts = {variant: tuple((card, deck.count(card)) for card in dict.fromkeys(deck))
                            for variant, deck in self.decks.items()}
        self.mission_decks = {variant: tuple(m["id"] for m in box.MISSIONS
                                             if spec["missions"]
                                             and (spec["multi"] or not m["multi"]))
                              for variant, spec in box.VARIANTS.items()}

    # --- set-up -------------------------------------------------------------------------------

    def deal(self, state: State, rng: Rng) -> None:
        variant, n = state["variant"], len(state["players"])
        box = self.box
        board = box.board(variant, n)
        sites = {}
        for site_id in board["sites"]:
            tiles = list(self.site_tiles[site_id])
            rng.shuffle(tiles)
            # rulebook set-up 2: swap each site's stone with its leftmost tile
            if box.SITE_STONES:
                stone = tiles.index(STONE)
                tiles[0], tiles[stone] = tiles[stone], tiles[0]
            names, marks = zip(*tiles, strict=True)
            sites[site_id] = {"tiles": list(names), "marks": list(marks),
                              "tokens": [None] * self.spaces, "pickax": 0, "abandoned": False,
                              "abandoned_by": None}
        deck = list(self.decks[variant])
        rng.shuffle(deck)
        missions = list(self.mission_decks[variant])
        rng.shuffle(missions)
        dealt = box.MISSIONS_DEALT
        if missions:  # rulebook set-up 6: every player keeps one of three, all at once
            state["status"], state["to_act"] = SETUP, list(range(n))
        state.update({
            "abandon_limit": board["abandon_limit"],
            "sites": sites,
            "abandoned": [],
            "deck": deck,
            "seats": [{"tiles": dict.fromkeys(box.TILE_TYPES, 0), "purse": 0, "hazards": 0,
                       "cards": [], "drawn": 0, "closed": 0,
                       "offered": missions[s * dealt:(s + 1) * dealt], "mission": None,
                       "discarded": []} for s in range(n)],
            "turn": self._new_turn(1),
            "last_roll": None,
        })

    @staticmethod
    def _new_turn(number: int) -> dict[str, Any]:
        return {"number": number, "step": DIG, "site": None, "roll": None, "card": None,
                "again": False}

    # --- what the seats to act may do ---------------------------------------------------------

    def stage(self, state: State) -> tuple[tuple[str, ...], str]:
        return CHOOSING_MISSIONS if state["status"] == SETUP else STEPS[state["turn"]["step"]]

    def simultaneous(self, state: State) -> bool:
        # rulebook set-up 6: "Each player must choose only 1 of the 3 mission cards to keep":
        # every player chooses at once, and no choice changes another's
        return state["status"] == SETUP

    def options(self, state: State, seat: int) -> list[Action]:
        if state["status"] == SETUP:
            return [{"type": "keep_mission", "mission": m}
                    for m in state["seats"][seat]["offered"]]
        step = state["turn"]["step"]
        if step == DIG:
            # nearly every action is a dig: its options are built in one pass over the board
            digs: list[Action] = [{"type": "dig", "site": s}
                                  for s, spot in state["sites"].items() if not spot["abandoned"]]
            if self._usable_card(state, seat, ANCIENT_MAP) is not None:
                digs += [{"type": "dig", "site": dig["site"], "ancient_map": k}
                         for dig in digs for k in range(1, self.die + 1)]
            return digs
        if step == ROLL:
            return [{"type": kind} for kind in STEPS[ROLL][0]]
        if step == PLACE_TOKEN:
            return [{"type": "place_token", "site": s, "space": space}
                    for s, space in self._free_tiles(state)]
        if step == STEAL:
            return [{"type": "steal", "victim": v}
                    for v in range(len(state["players"])) if v != seat]
        return [{"type": "landslide", "site": s} for s in self._open_sites(state)]

    @staticmethod
    def _open_sites(state: State) -> list[str]:
        return [s for s, spot in state["sites"].items() if not spot["abandoned"]]

    @staticmethod
    def _free_tiles(state: State) -> list[tuple[str, int]]:
        """(site, space) of every board tile without a token, on the sites still open."""
        return [(s, i + 1) for s, spot in state["sites"].items() if not spot["abandoned"]
                for i, tile in enumerate(spot["tiles"])
                if tile is not None and spot["tokens"][i] is None]

    @staticmethod
    def _usable_card(state: State, seat: int, card_id: str) -> int | None:
        """Index of a kept card of that kind drawn before this turn (rulebook: orange cards
        are usable from your next turn), or None."""
        cards = state["seats"][seat]["cards"]
        if cards:  # asked before every dig, mostly of a seat that keeps no card
            number = state["turn"]["number"]
            for i, card in enumerate(cards):
                if card["id"] == card_id and card["turn"] < number:
                    return i
        return None

    def _play_card(self, state: State, seat: int, card_id: str, field: str | None = None) -> None:
        """Spend a kept card of that kind, or refuse the action if the seat may not play one."""
        index = self._usable_card(state, seat, card_id)
        if index is None:
            raise IllegalAction(f"You have no {self.box.CARD_BY_ID[card_id]['name']} to play this "
                                "turn (a card is usable from the turn after you draw it).", field)
        state["seats"][seat]["cards"].pop(index)

    def _open_site(self, state: State, site_id: str) -> dict[str, Any]:
        if site_id not in state["sites"]:
            raise IllegalAction(f"There is no dig site {site_id} on this table's board; the "
                                f"sites are {', '.join(state['sites'])}.", "site")
        if state["sites"][site_id]["abandoned"]:
            raise IllegalAction(f"{self.box.SITES[site_id][0]} ({site_id}) is abandoned: nothing "
                                "more is dug, marked or slid there.", "site")
        return state["sites"][site_id]

    # --- the moves ----------------------------------------------------------------------------

    @move("keep_mission",
          lambda box: one_of("mission", tuple(box.MISSION_BY_ID), "One of your three"),
          secret=("mission",))
    def _keep_mission(self, state: State, seat: int, mission: str) -> list[Event]:
        """Before the first turn: keep one of the three missions you were dealt and discard the
        other two. Which one stays secret until the end."""
        held = state["seats"][seat]
        if mission not in held["offered"]:
            raise IllegalAction("Keep one of the three missions you were dealt.", "mission")
        held["mission"] = mission
        held["discarded"] = [m for m in held["offered"] if m != mission]
        events: list[Event] = [
            {"type": "mission_kept", "seat": seat},
            {"type": "your_mission", "seat": seat, "mission": mission,
             "discarded": held["discarded"], ONLY_FOR: seat},
        ]
        state["to_act"] = [s for s in state["to_act"] if s != seat]
        if not state["to_act"]:  # rulebook: the first player starts
            state["status"] = PLAYING
            self.pass_to(state, 0)
            events.append({"type": "turn", "seat": 0, "number": 1})
        return events

    @move("dig", _site, lambda box: whole("ancient_map", 1, box.DIE_SIDES, "Play an Ancient Map: "
                                          "the result you choose instead of rolling",
                                          required=False))
    def _dig(self, state: State, seat: int, site: str,
             ancient_map: int | None = None) -> list[Event]:
        """Your turn: roll the die (or play an Ancient Map to choose the result) and step the
        pickax of a site that is not abandoned that many tiles to the right; take the tile it
        lands on."""
        self._open_site(state, site)
        if ancient_map is not None:
            self._play_card(state, seat, ANCIENT_MAP, "ancient_map")
            roll, how = ancient_map, ANCIENT_MAP
        else:
            roll, how = self.rng(state).roll(self.die), "die"
        state["last_roll"] = {"seat": seat, "site": site, "roll": roll, "by": how}
        events: list[Event] = [{"type": "dig", "seat": seat, "site": site, "roll": roll,
                                "by": how}]
        # RULINGS: a number chosen with an Ancient Map is not a roll: no charm after it
        if how == "die" and self._usable_card(state, seat, LUCKY_CHARM) is not None:
            state["turn"].update(step=ROLL, site=site, roll=roll)
            return events
        return self._take(state, seat, site, roll, events)

    @move("lucky_charm")
    def _lucky_charm(self, state: State, seat: int) -> list[Event]:
        """Right after your roll: play a Lucky Charm to roll again and keep the new roll (or play
        another charm on it)."""
        self._play_card(state, seat, LUCKY_CHARM)
        site = state["turn"]["site"]
        roll = self.rng(state).roll(self.die)
        state["last_roll"] = {"seat": seat, "site": site, "roll": roll, "by": LUCKY_CHARM}
        events: list[Event] = [{"type": "reroll", "seat": seat, "site": site, "roll": roll}]
        # RULINGS: several charms may be played one after another
        if self._usable_card(state, seat, LUCKY_CHARM) is not None:
            state["turn"]["roll"] = roll
            return events
        return self._take(state, seat, site, roll, events)

    @move("keep_roll")
    def _keep_roll(self, state: State, seat: int) -> list[Event]:
        """Right after your roll: keep it (and your Lucky Charm for later)."""
        return self._take(state, seat, state["turn"]["site"], state["turn"]["roll"], [])

    @move("place_token", _site,
          lambda box: whole("space", 1, box.SITE_TILES, "The tile's space, 1 at the left"))
    def _place_token(self, state: State, seat: int, site: str, space: int) -> list[Event]:
        """After drawing Strike Gold or Hazardous Area: put its money token on a board tile that
        has no token."""
        spot = self._open_site(state, site)
        if spot["tiles"][space - 1] is None:
            raise IllegalAction(f"Space {space} of {site} holds no tile.", "space")
        if spot["tokens"][space - 1] is not None:
            raise IllegalAction(f"The tile in space {space} of {site} already has a token.",
                                "space")
        value = self.box.CARD_BY_ID[state["turn"]["card"]]["token"]
        spot["tokens"][space - 1] = value
        return self._end_turn(state, [{"type": "token_placed", "seat": seat, "site": site,
                                       "space": space, "value": value}])

    @move("steal", lambda box: whole("victim", 0, max(spec["players"][1]
                                                      for spec in box.VARIANTS.values()) - 1,
                                     "The seat of the player you rob"))
    def _steal(self, state: State, seat: int, victim: int) -> list[Event]:
        """After drawing a Thief: take up to 3 ₩ from another player."""
        seats = state["seats"]
        if victim == seat or victim >= len(seats):
            raise IllegalAction("Name another player's seat for the Thief.", "victim")
        card = self.box.CARD_BY_ID[state["turn"]["card"]]
        # RULINGS: the Thief takes money (coins, +5 tokens), never a −5 token
        amount = min(card["steal"], seats[victim]["purse"])
        seats[victim]["purse"] -= amount
        seats[seat]["purse"] += amount
        return self._end_turn(state, [{"type": "stole", "seat": seat, "victim": victim,
                                       "amount": amount}])

    @move("landslide", _site)
    def _landslide(self, state: State, seat: int, site: str) -> list[Event]:
        """After drawing a Landslide: remove the leftmost remaining tile of a site from play (a
        site left with one tile is abandoned)."""
        spot = self._open_site(state, site)
        index = _leftmost(spot)
        tile, token = _lift(spot, index)
        events: list[Event] = [{"type": "landslide", "seat": seat, "site": site,
                                "space": index + 1, "tile_lost": tile, "token_lost": token}]
        if sum(1 for tile in spot["tiles"] if tile is not None) == 1:
            self._abandon(state, site, seat, events)
        return self._end_turn(state, events)

    # --- what a dig brings --------------------------------------------------------------------

    def _take(self, state: State, seat: int, site_id: str, roll: int,
              events: list[Event]) -> list[Event]:
        """Step the pickax `roll` times and take the tile it lands on, then what comes with it."""
        spot = state["sites"][site_id]
        remaining = _remaining(spot)
        index = _landing(spot, roll)
        mark = spot["marks"][index]
        tile, token = _lift(spot, index)
        spot["pickax"] = index + 1
        held = state["seats"][seat]
        held["tiles"][tile] += 1
        events.append({"type": "took", "seat": seat, "site": site_id, "space": index + 1,
                       "tile": tile, "mark": mark, "token": token})
        if token is not None:
            held["purse" if token > 0 else "hazards"] += token
        box = self.box
        if mark == box.PLUS_TWO:
            held["purse"] += box.PLUS_TWO_VALUE
        if len(remaining) == 2:  # rulebook: one tile left, the site is abandoned at once
            self._abandon(state, site_id, seat, events)
            held["closed"] += 1  # Closing Shop: this seat's own dig abandoned it
        if mark == box.STAR and self._draw(state, seat, events) is not None:
            return events  # the card's choice is still to make
        return self._end_turn(state, events)

    def _abandon(self, state: State, site_id: str, seat: int, events: list[Event]) -> None:
        spot = state["sites"][site_id]
        # RULINGS: the last tile leaves play, nobody scores it; its token returns to the bank
        tile, token = _lift(spot, _leftmost(spot))
        events.append({"type": "abandoned", "seat": seat, "site": site_id, "tile_lost": tile,
                       "token_lost": token})
        spot.update(pickax=0, abandoned=True, abandoned_by=seat)
        state["abandoned"].append(site_id)

    def _draw(self, state: State, seat: int, events: list[Event]) -> str | None:
        """Draw a chance card and resolve it; returns the step still to decide, if any."""
        deck = state["deck"]
        if not deck:  # RULINGS: an empty deck is not reshuffled; the star does nothing
            if state["variant"] != "simplified":
                events.append({"type": "deck_empty", "seat": seat})
            return None
        card_id = deck.pop()
        card = self.box.CARD_BY_ID[card_id]
        held = state["seats"][seat]
        held["drawn"] += 1
        events.append({"type": "card", "seat": seat, "card": card_id})
        turn = state["turn"]
        step = None
        if card["colour"] == "orange":
            held["cards"].append({"id": card_id, "turn": turn["number"]})
        elif "gain" in card:
            held["purse"] += card["gain"]
        elif "token" in card:
            if self._free_tiles(state):
                step = PLACE_TOKEN
            else:
                events.append({"type": "no_effect", "seat": seat, "card": card_id})
        elif "steal" in card:
            step = STEAL
        elif card_id == SECOND_WIND:
            turn["again"] = True
        elif card_id == LANDSLIDE_CARD:
            step = LANDSLIDE
        if step is not None:
            turn["step"], turn["card"] = step, card_id
        return step

    def _end_turn(self, state: State, events: list[Event]) -> list[Event]:
        """The turn is over: the game ends or the next turn begins."""
        turn = state["turn"]
        if len(state["abandoned"]) >= state["abandon_limit"]:
            # rulebook "Game end": the game ends after the current player's turn
            self.finish(state, events, missions=self._revealed(state))
            return events
        seat = state["to_act"][0]
        if not turn["again"]:
            seat = (seat + 1) % len(state["players"])
        self.pass_to(state, seat)
        state["turn"] = self._new_turn(turn["number"] + 1)
        events.append({"type": "turn", "seat": seat, "number": turn["number"] + 1})
        return events

    # --- what each seat sees ------------------------------------------------------------------

    def see(self, state: State, seat: int | None) -> dict[str, Any]:
        finished = state["status"] == FINISHED
        turn = state["turn"]
        card_by_id = self.box.CARD_BY_ID
        outcomes = {r["seat"]: r["achieved"] for r in self._revealed(state)} if finished else {}
        players = []
        for i, (name, held) in enumerate(zip(state["players"], state["seats"], strict=True)):
            achieved = outcomes.get(i)
            entry = {
                "seat": i,
                "name": name,
                "tiles": dict(held["tiles"]),
                "money": held["purse"] + held["hazards"],
                "purse": held["purse"],
                "hazards": held["hazards"],
                "cards": [{"id": c["id"], "name": card_by_id[c["id"]]["name"],
                           "usable": c["turn"] < turn["number"]} for c in held["cards"]],
                "cards_drawn": held["drawn"],
                "sites_closed": held["closed"],
                "mission_kept": held["mission"] is not None,
                "mission_achieved": achieved,
                "mission": None,
                "discarded": None,
            }
            # RULINGS: the owner sees their missions; the others an achieved one at the end
            if held["mission"] is not None and (i == seat or achieved):
                card = self.mission_cards[held["mission"]]
                entry["mission"] = card if achieved is None else {**card, "achieved": achieved}
                if i == seat:
                    entry["discarded"] = [self.mission_cards[m] for m in held["discarded"]]
            players.append(entry)
        offered = None
        if seat is not None and state["seats"][seat]["mission"] is None and not finished:
            offered = [self.mission_cards[m] for m in state["seats"][seat]["offered"]] or None
        return {
            "offered_missions": offered,
            "players": players,
            "sites": [{"id": s, "name": self.box.SITES[s][0], "pickax": spot["pickax"],
                       "abandoned": spot["abandoned"], "abandoned_by": spot["abandoned_by"],
                       "spaces": [{"space": i + 1, "tile": tile,
                                   "mark": spot["marks"][i] if tile is not None else None,
                                   "token": spot["tokens"][i]}
                                  for i, tile in enumerate(spot["tiles"])]}
                      for s, spot in state["sites"].items()],
            "abandoned": list(state["abandoned"]),
            "abandon_limit": state["abandon_limit"],
            "deck_size": len(state["deck"]),
            "cards_used": self.cards_used(state),
            "turn": None if state["status"] != PLAYING else {
                "seat": state["to_act"][0], "number": turn["number"], "step": turn["step"],
                "site": turn["site"], "roll": turn["roll"], "card": turn["card"],
                "extra_turn": turn["again"], "lands_on": self._lands_on(state)},
            "last_roll": state["last_roll"],
        }

    @staticmethod
    def _lands_on(state: State) -> dict[str, Any] | None:
        """Where a roll waiting to be kept or rolled again would step the pickax: the space and
        the tile there, which the board shows face up (null otherwise)."""
        turn = state["turn"]
        if turn["step"] != ROLL or turn["roll"] is None:
            return None
        spot = state["sites"][turn["site"]]
        index = _landing(spot, turn["roll"])
        return {"space": index + 1, "tile": spot["tiles"][index]}

    def cards_used(self, state: State) -> list[str]:
        """The chance cards drawn that nobody keeps any more, in the box's order: each was
        revealed and read aloud as it was drawn (rulebook "Chance cards"), so every seat knows
        them, and knows the deck holds the rest of the variant's cards nobody keeps."""
        left = Counter(state["deck"])
        left.update(card["id"] for held in state["seats"] for card in held["cards"])
        return [card for card, count in self.deck_counts[state["variant"]]
                for _ in range(count - left[card])]

    def secrets(self, state: State) -> dict[int | None, list[str]]:
        # Nobody sees the deck order (the next cards, top last, as a view would print a list).
        deck = state["deck"]
        hidden: dict[int | None, list[str]] = {None: [fragment(deck[-4:])] * (len(deck) >= 2)}
        finished = state["status"] == FINISHED
        for seat, held in enumerate(state["seats"]):
            if held["mission"] is None:
                hidden[seat] = [fragment(m) for m in held["offered"]]
                continue
            # RULINGS: the two discarded go back to the box unseen, during the game and after
            # it; the kept one is revealed at the end only if achieved
            kept = [] if finished and self._achieved(state, seat) else [held["mission"]]
            hidden[seat] = [fragment(m) for m in (*kept, *held["discarded"])]
        return hidden

    # --- the end ------------------------------------------------------------------------------

    def _sheet_player(self, state: State, seat: int) -> dict[str, Any]:
        held = state["seats"][seat]
        return {"name": state["players"][seat], "tiles": dict(held["tiles"]),
                "tokens": held["purse"] + held["hazards"],
                "cards": dict(Counter(c["id"] for c in held["cards"]))}

    def _achieved(self, state: State, seat: int, sheet: dict[str, Any] | None = None) -> bool:
        """Whether the seat's kept mission is achieved (`sheet`: its scoresheet entry, when the
        caller has built it)."""
        held = state["seats"][seat]
        return self.judge.mission_achieved(held["mission"],
                                           sheet or self._sheet_player(state, seat),
                                           held["closed"], held["drawn"])

    def _revealed(self, state: State) -> list[dict[str, Any]]:
        """rulebook "Mission achievement", RULINGS: each kept mission at the end, its card shown
        if achieved, left face down (None) if failed."""
        revealed = []
        for seat, held in enumerate(state["seats"]):
            if held["mission"] is not None:
                achieved = self._achieved(state, seat)
                revealed.append({"seat": seat, "mission": held["mission"] if achieved else None,
                                 "achieved": achieved})
        return revealed

    def scoresheet(self, state: State) -> dict[str, Any]:
        players = []
        for seat, held in enumerate(state["seats"]):
            entry = self._sheet_player(state, seat)
            if held["mission"] is not None:
                entry["mission"] = {"id": held["mission"],
                                    "achieved": self._achieved(state, seat, entry)}
            players.append(entry)
        return {"variant": state["variant"], "players": players}
