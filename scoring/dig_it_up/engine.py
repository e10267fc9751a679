"""Dig It Up turns: secret missions, the die, the pickaxes, chance cards and abandoned sites.

A turn is one `dig`; a decision the dig calls for (keep the roll or play a Lucky Charm, where a
Strike Gold token goes, whom a Thief robs, which site a Landslide hits) is the next legal action
of the same seat, and the turn ends when nothing is left to decide.

How the engine reads what the rulebook and RULINGS §1 leave open:
- The die is rolled when the dig is posted. A seat holding a Lucky Charm it may use is then asked
  `lucky_charm` (roll again, the new roll is final) or `keep_roll`; without one the roll is kept
  at once. An Ancient Map replaces the roll (`"ancient_map": 1–6` on the dig), so no Lucky Charm
  follows it.
- Taking a tile resolves in this order: the token on it, its +2, abandoning the site if one tile
  is left ("at once"), then the ★ card. So a card never places a token on the tile that just left
  play.
- An abandoned site's last tile leaves play and its token returns to the bank; its pickax goes
  back on the label (rulebook: the tile face-down on the label, the pickax on top).
- Money is one ₩ total per player and may go below zero (Hazardous Area). A Thief names any
  other player and takes min(3, that player's ₩), nothing from a player at 0 ₩ or less.
- A Landslide that leaves a site with one tile abandons it, and that counts for Closing Shop for
  the player who drew it: the card came from their dig and they chose the site.
- Strike Gold or Hazardous Area with no tile free of a token anywhere on the open sites is spent
  without effect.
- The game ends at the end of the turn in which the limit of abandoned sites is reached, choices
  of that turn's card included; a Second Wind drawn in that turn gives no further turn.
- Specialist and Collector count every set the calculator forms, a stone set included (the
  rulebook lists it among the set bonuses).
"""

from __future__ import annotations

import json
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
)

from . import box
from .score import score, set_counts, sets_formed, tile_counts

SPACES = box.SITE_TILES
DIE = box.DIE_SIDES

# Steps of a turn: what the seat to act must decide now.
DIG, ROLL, PLACE_TOKEN, STEAL, LANDSLIDE = "dig", "roll", "place_token", "steal", "landslide"
STEP_PROMPTS = {
    DIG: "name a dig site that is not abandoned and dig there",
    ROLL: "play your Lucky Charm (lucky_charm) or keep the roll (keep_roll)",
    PLACE_TOKEN: "put the card's money token on a board tile that has no token",
    STEAL: "choose the player your Thief takes money from",
    LANDSLIDE: "choose the dig site your Landslide hits",
}
STEP_ACTIONS = {DIG: ("dig",), ROLL: ("lucky_charm", "keep_roll"), PLACE_TOKEN: ("place_token",),
                STEAL: ("steal",), LANDSLIDE: ("landslide",)}

ANCIENT_MAP, LUCKY_CHARM = "ancient_map", "lucky_charm"
SECOND_WIND, LANDSLIDE_CARD = "second_wind", "landslide"
TREASURE_SETS = tuple(s for s in box.SETS if s != "stone")


def _marked_tiles(treasures: dict[str, int]) -> tuple[tuple[str, str | None], ...]:
    """A site's seven tiles with their marks (RULINGS §1: every scroll and crystal ★, one gold
    +2), its stone first."""
    tiles: list[tuple[str, str | None]] = [("stone", None)]
    plus_two_given = False
    for tile, n in treasures.items():
        for _ in range(n):
            mark = None
            if tile in box.STAR_TILES:
                mark = box.STAR
            elif tile == box.PLUS_TWO_TILE and not plus_two_given:
                mark, plus_two_given = box.PLUS_TWO, True
            tiles.append((tile, mark))
    assert len(tiles) == SPACES, "a site holds seven tiles"
    return tuple(tiles)


SITE_TILES = {site: _marked_tiles(treasures) for site, (_, treasures) in box.SITES.items()}
MISSION_CARDS = {m["id"]: {"id": m["id"], "name": m["name"], "bonus": m["bonus"],
                           "condition": m["condition"]} for m in box.MISSIONS}


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


MISSION_TEXT = {mission_id: _dumps(card) for mission_id, card in MISSION_CARDS.items()}


def _board(variant: str, n_players: int) -> dict[str, Any]:
    """The variant whose board and end limit this table plays with."""
    spec = box.VARIANTS[variant]
    if spec["sites"] is None:
        spec = box.VARIANTS[box.SIMPLIFIED_BOARD[n_players]]
    return spec


def _is_int(value: Any) -> bool:
    return type(value) is int


class DigItUp(Game):
    box = box

    # --- set-up -------------------------------------------------------------------------------

    def setup(self, players: list[str], seed: int, variant: str) -> State:
        if not isinstance(variant, str) or variant not in box.VARIANTS:
            raise IllegalAction(f"Dig It Up has no variant {variant!r}; choose one of "
                                f"{', '.join(box.VARIANTS)}.")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise IllegalAction("The players are a list of names.")
        if len(set(players)) != len(players):
            raise IllegalAction("Each player needs a different name.")
        spec = box.VARIANTS[variant]
        low, high = spec["players"]
        n = len(players)
        if not low <= n <= high:
            fits = [v for v, s in box.VARIANTS.items() if s["players"][0] <= n <= s["players"][1]]
            hint = f" With {n} players choose {' or '.join(fits)}." if fits else ""
            raise IllegalAction(f"The {spec['name']} game of Dig It Up is for {low} to {high} "
                                f"players, not {n}.{hint}")
        if not _is_int(seed):
            raise IllegalAction("The seed is a whole number.")
        board = _board(variant, n)
        rng = Rng.from_seed(seed, self.id)

        sites = {}
        for site_id in board["sites"]:
            tiles = list(SITE_TILES[site_id])
            rng.shuffle(tiles)
            # rulebook set-up 2: swap each site's stone with its leftmost tile
            stone = next(i for i, (tile, _) in enumerate(tiles) if tile == "stone")
            tiles[0], tiles[stone] = tiles[stone], tiles[0]
            sites[site_id] = {"tiles": [t for t, _ in tiles], "marks": [m for _, m in tiles],
                              "tokens": [None] * SPACES, "pickax": 0, "abandoned": False,
                              "abandoned_by": None}

        deck: list[str] = []
        if spec["cards"]:
            for card in box.CARDS:
                if spec["multi"] or not card["multi"]:  # 2–3 players: multi cards removed
                    deck.extend([card["id"]] * card["count"])
            rng.shuffle(deck)

        offered: list[list[str]] = [[] for _ in players]
        if spec["missions"]:
            missions = [m["id"] for m in box.MISSIONS if spec["multi"] or not m["multi"]]
            rng.shuffle(missions)
            for seat in range(n):
                start = seat * box.MISSIONS_DEALT
                offered[seat] = missions[start:start + box.MISSIONS_DEALT]

        return {
            "variant": variant,
            "names": list(players),
            "abandon_limit": board["abandon_limit"],
            "rng": rng.state,
            "phase": SETUP if spec["missions"] else PLAYING,
            "sites": sites,
            "abandoned": [],
            "deck": deck,
            "players": [{"tiles": dict.fromkeys(box.TILE_TYPES, 0), "money": 0, "cards": [],
                         "drawn": 0, "closed": 0, "offered": offered[seat], "mission": None,
                         "discarded": []} for seat in range(n)],
            "turn": self._new_turn(0, 1),
            "last_roll": None,
        }

    @staticmethod
    def _new_turn(seat: int, number: int) -> dict[str, Any]:
        return {"seat": seat, "number": number, "step": DIG, "site": None, "roll": None,
                "card": None, "again": False}

    # --- whose turn, what they may do ---------------------------------------------------------

    def status(self, state: State) -> str:
        return state["phase"]

    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == PLAYING:
            return [state["turn"]["seat"]]
        if phase == SETUP:
            return [seat for seat, p in enumerate(state["players"]) if p["mission"] is None]
        return []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state["phase"] == SETUP:
            return [{"type": "keep_mission", "mission": m}
                    for m in state["players"][seat]["offered"]]
        turn = state["turn"]
        step = turn["step"]
        if step == DIG:
            open_sites = self._open_sites(state)
            actions: list[Action] = [{"type": "dig", "site": s} for s in open_sites]
            if self._usable_card(state, seat, ANCIENT_MAP) is not None:
                actions += [{"type": "dig", "site": s, "ancient_map": k}
                            for s in open_sites for k in range(1, DIE + 1)]
            return actions
        if step == ROLL:
            return [{"type": "lucky_charm"}, {"type": "keep_roll"}]
        if step == PLACE_TOKEN:
            return [{"type": "place_token", "site": s, "space": space}
                    for s, space in self._free_tiles(state)]
        if step == STEAL:
            return [{"type": "steal", "victim": v}
                    for v in range(len(state["players"])) if v != seat]
        return [{"type": "landslide", "site": s} for s in self._open_sites(state)]

    @staticmethod
    def _open_sites(state: State) -> list[str]:
        return [s for s, site in state["sites"].items() if not site["abandoned"]]

    @staticmethod
    def _free_tiles(state: State) -> list[tuple[str, int]]:
        """(site, space) of every board tile without a token, on the sites still open."""
        free = []
        for s, site in state["sites"].items():
            if site["abandoned"]:
                continue
            tokens = site["tokens"]
            for i, tile in enumerate(site["tiles"]):
                if tile is not None and tokens[i] is None:
                    free.append((s, i + 1))
        return free

    @staticmethod
    def _usable_card(state: State, seat: int, card_id: str) -> int | None:
        """Index of a kept card of that kind drawn before this turn (rulebook: orange cards
        are usable from your next turn), or None."""
        number = state["turn"]["number"]
        for i, card in enumerate(state["players"][seat]["cards"]):
            if card["id"] == card_id and card["turn"] < number:
                return i
        return None

    # --- taking an action ---------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> list[Event]:
        kind = action.get("type")
        if state["phase"] == SETUP:
            return self._keep_mission(state, seat, action, kind)
        step = state["turn"]["step"]
        if kind not in STEP_ACTIONS[step]:
            raise IllegalAction(f"You cannot {kind!r} now: {STEP_PROMPTS[step]}.")
        if kind == "dig":
            return self._dig(state, seat, action)
        if kind == "keep_roll":
            _fields(action, kind)
            events: list[Event] = []
            self._take(state, seat, state["turn"]["site"], state["turn"]["roll"], events)
            return events
        if kind == "lucky_charm":
            return self._lucky_charm(state, seat, action)
        if kind == "place_token":
            return self._place_token(state, seat, action)
        if kind == "steal":
            return self._steal(state, seat, action)
        return self._landslide(state, seat, action)

    def _keep_mission(self, state: State, seat: int, action: Action, kind: Any) -> list[Event]:
        if kind != "keep_mission":
            raise IllegalAction("First choose the mission you keep: "
                                "{\"type\": \"keep_mission\", \"mission\": <one of your three>}.")
        _fields(action, kind, "mission")
        player = state["players"][seat]
        mission = action["mission"]
        if not isinstance(mission, str) or mission not in player["offered"]:
            raise IllegalAction("Keep one of the three missions you were dealt.")
        player["mission"] = mission
        player["discarded"] = [m for m in player["offered"] if m != mission]
        events: list[Event] = [
            {"type": "mission_kept", "seat": seat},
            {"type": "your_mission", "seat": seat, "mission": mission,
             "discarded": player["discarded"], ONLY_FOR: seat},
        ]
        if all(p["mission"] is not None for p in state["players"]):
            state["phase"] = PLAYING
            events.append({"type": "turn", "seat": 0, "number": 1})
        return events

    def _dig(self, state: State, seat: int, action: Action) -> list[Event]:
        _fields(action, "dig", "site", optional=("ancient_map",))
        site_id = self._check_open_site(state, action["site"])
        card_index = None
        if "ancient_map" in action:
            chosen = action["ancient_map"]
            if not _is_int(chosen) or not 1 <= chosen <= DIE:
                raise IllegalAction(f"An Ancient Map sets the die to a number from 1 to {DIE}.")
            card_index = self._usable_card(state, seat, ANCIENT_MAP)
            if card_index is None:
                raise IllegalAction("You have no Ancient Map to play this turn (a card is "
                                    "usable from the turn after you draw it).")
        turn = state["turn"]
        events: list[Event] = []
        if card_index is not None:
            state["players"][seat]["cards"].pop(card_index)
            roll, how = chosen, ANCIENT_MAP
        else:
            rng = Rng(state["rng"])
            roll, how = rng.roll(DIE), "die"
            state["rng"] = rng.state
        state["last_roll"] = {"seat": seat, "site": site_id, "roll": roll, "by": how}
        events.append({"type": "dig", "seat": seat, "site": site_id, "roll": roll, "by": how})
        if how == "die" and self._usable_card(state, seat, LUCKY_CHARM) is not None:
            turn["step"], turn["site"], turn["roll"] = ROLL, site_id, roll
            return events
        self._take(state, seat, site_id, roll, events)
        return events

    def _lucky_charm(self, state: State, seat: int, action: Action) -> list[Event]:
        _fields(action, LUCKY_CHARM)
        card_index = self._usable_card(state, seat, LUCKY_CHARM)
        if card_index is None:
            raise IllegalAction("You have no Lucky Charm to play this turn.")
        state["players"][seat]["cards"].pop(card_index)
        rng = Rng(state["rng"])
        roll = rng.roll(DIE)
        state["rng"] = rng.state
        site_id = state["turn"]["site"]
        state["last_roll"] = {"seat": seat, "site": site_id, "roll": roll, "by": LUCKY_CHARM}
        events: list[Event] = [{"type": "reroll", "seat": seat, "site": site_id, "roll": roll}]
        self._take(state, seat, site_id, roll, events)
        return events

    def _take(self, state: State, seat: int, site_id: str, roll: int,
              events: list[Event]) -> None:
        """Step the pickax `roll` times and take the tile it lands on, then what comes with it."""
        site = state["sites"][site_id]
        tiles = site["tiles"]
        remaining = [i for i in range(SPACES) if tiles[i] is not None]
        # RULINGS: a step goes to the next remaining tile to the right, wrapping to the leftmost;
        # from the label (position 0) the first step lands on the leftmost remaining tile.
        pickax = site["pickax"]
        passed = sum(1 for i in remaining if i + 1 < pickax)
        index = remaining[(passed + roll - 1) % len(remaining)]
        tile, mark, token = tiles[index], site["marks"][index], site["tokens"][index]
        tiles[index] = None
        site["tokens"][index] = None
        site["pickax"] = index + 1
        player = state["players"][seat]
        player["tiles"][tile] += 1
        events.append({"type": "took", "seat": seat, "site": site_id, "space": index + 1,
                       "tile": tile, "mark": mark, "token": token})
        if token is not None:
            player["money"] += token
        if mark == box.PLUS_TWO:
            player["money"] += box.PLUS_TWO_VALUE
        if len(remaining) == 2:  # rulebook: one tile left, the site is abandoned at once
            self._abandon(state, site_id, seat, events)
        pending = self._draw(state, seat, events) if mark == box.STAR else None
        if pending is None:
            self._end_turn(state, events)

    def _abandon(self, state: State, site_id: str, seat: int, events: list[Event]) -> None:
        site = state["sites"][site_id]
        index = next(i for i, tile in enumerate(site["tiles"]) if tile is not None)
        # RULINGS: the last tile leaves play, nobody scores it; its token returns to the bank
        events.append({"type": "abandoned", "seat": seat, "site": site_id,
                       "tile_lost": site["tiles"][index], "token_lost": site["tokens"][index]})
        site["tiles"][index] = None
        site["tokens"][index] = None
        site["pickax"] = 0
        site["abandoned"] = True
        site["abandoned_by"] = seat
        state["abandoned"].append(site_id)
        state["players"][seat]["closed"] += 1  # Closing Shop: this seat's turn abandoned it

    def _draw(self, state: State, seat: int, events: list[Event]) -> str | None:
        """Draw a chance card and resolve it; returns the step still to decide, if any."""
        deck = state["deck"]
        if not deck:  # RULINGS: an empty deck is not reshuffled; the star does nothing
            if state["variant"] != "simplified":
                events.append({"type": "deck_empty", "seat": seat})
            return None
        card_id = deck.pop()
        card = box.CARD_BY_ID[card_id]
        player = state["players"][seat]
        player["drawn"] += 1
        events.append({"type": "card", "seat": seat, "card": card_id})
        turn = state["turn"]
        step = None
        if card["colour"] == "orange":
            player["cards"].append({"id": card_id, "turn": turn["number"]})
        elif "gain" in card:
            player["money"] += card["gain"]
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

    def _place_token(self, state: State, seat: int, action: Action) -> list[Event]:
        _fields(action, "place_token", "site", "space")
        site_id = self._check_open_site(state, action["site"])
        space = action["space"]
        if not _is_int(space) or not 1 <= space <= SPACES:
            raise IllegalAction(f"A space is a number from 1 to {SPACES}.")
        site = state["sites"][site_id]
        if site["tiles"][space - 1] is None:
            raise IllegalAction(f"Space {space} of {site_id} holds no tile.")
        if site["tokens"][space - 1] is not None:
            raise IllegalAction(f"The tile in space {space} of {site_id} already has a token.")
        value = box.CARD_BY_ID[state["turn"]["card"]]["token"]
        site["tokens"][space - 1] = value
        events: list[Event] = [{"type": "token_placed", "seat": seat, "site": site_id,
                                "space": space, "value": value}]
        self._end_turn(state, events)
        return events

    def _steal(self, state: State, seat: int, action: Action) -> list[Event]:
        _fields(action, "steal", "victim")
        victim = action["victim"]
        players = state["players"]
        if not _is_int(victim) or not 0 <= victim < len(players) or victim == seat:
            raise IllegalAction("Name another player's seat for the Thief.")
        card = box.CARD_BY_ID[state["turn"]["card"]]
        amount = min(card["steal"], max(0, players[victim]["money"]))
        players[victim]["money"] -= amount
        players[seat]["money"] += amount
        events: list[Event] = [{"type": "stole", "seat": seat, "victim": victim,
                                "amount": amount}]
        self._end_turn(state, events)
        return events

    def _landslide(self, state: State, seat: int, action: Action) -> list[Event]:
        _fields(action, "landslide", "site")
        site_id = self._check_open_site(state, action["site"])
        site = state["sites"][site_id]
        tiles = site["tiles"]
        index = next(i for i, tile in enumerate(tiles) if tile is not None)
        events: list[Event] = [{"type": "landslide", "seat": seat, "site": site_id,
                                "space": index + 1, "tile_lost": tiles[index],
                                "token_lost": site["tokens"][index]}]
        tiles[index] = None
        site["tokens"][index] = None
        if sum(1 for tile in tiles if tile is not None) == 1:
            self._abandon(state, site_id, seat, events)
        self._end_turn(state, events)
        return events

    def _end_turn(self, state: State, events: list[Event]) -> None:
        turn = state["turn"]
        if len(state["abandoned"]) >= state["abandon_limit"]:
            # rulebook "Game end": the game ends after the current player's turn
            state["phase"] = FINISHED
            turn["step"] = None
            events.append({"type": "game_over",
                           "missions": [{"seat": seat, "mission": p["mission"],
                                         "discarded": p["discarded"]}
                                        for seat, p in enumerate(state["players"])]})
            return
        seat = turn["seat"]
        if not turn["again"]:
            seat = (seat + 1) % len(state["players"])
        state["turn"] = self._new_turn(seat, turn["number"] + 1)
        events.append({"type": "turn", "seat": seat, "number": turn["number"] + 1})

    @staticmethod
    def _check_open_site(state: State, site_id: Any) -> str:
        if not isinstance(site_id, str) or site_id not in state["sites"]:
            raise IllegalAction(f"There is no dig site {site_id!r} here; the sites are "
                                f"{', '.join(state['sites'])}.")
        if state["sites"][site_id]["abandoned"]:
            raise IllegalAction(f"{box.SITES[site_id][0]} ({site_id}) is abandoned; nobody "
                                f"may dig there.")
        return site_id

    # --- what each seat sees ------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        finished = state["phase"] == FINISHED
        number = state["turn"]["number"]
        players = []
        for i, p in enumerate(state["players"]):
            entry = {
                "seat": i,
                "name": state["names"][i],
                "tiles": dict(p["tiles"]),
                "money": p["money"],
                "cards": [{"id": c["id"], "name": box.CARD_BY_ID[c["id"]]["name"],
                           "usable": c["turn"] < number} for c in p["cards"]],
                "cards_drawn": p["drawn"],
                "sites_closed": p["closed"],
                "mission_kept": p["mission"] is not None,
                "mission": None,
                "discarded": None,
            }
            if p["mission"] is not None and (finished or i == seat):
                entry["mission"] = MISSION_CARDS[p["mission"]]
                entry["discarded"] = [MISSION_CARDS[m] for m in p["discarded"]]
                if finished:
                    entry["mission"] = {**entry["mission"],
                                        "achieved": self._achieved(state, i)}
            players.append(entry)
        offered = None
        if seat is not None and state["players"][seat]["mission"] is None and not finished:
            offered = [MISSION_CARDS[m] for m in state["players"][seat]["offered"]] or None
        turn = state["turn"]
        return {
            "variant": state["variant"],
            "you": seat,
            "offered_missions": offered,
            "players": players,
            "sites": [{"id": s, "name": box.SITES[s][0], "pickax": site["pickax"],
                       "abandoned": site["abandoned"], "abandoned_by": site["abandoned_by"],
                       "spaces": [{"space": i + 1, "tile": tile,
                                   "mark": site["marks"][i] if tile is not None else None,
                                   "token": site["tokens"][i]}
                                  for i, tile in enumerate(site["tiles"])]}
                      for s, site in state["sites"].items()],
            "abandoned": list(state["abandoned"]),
            "abandon_limit": state["abandon_limit"],
            "deck_size": len(state["deck"]),
            "turn": None if state["phase"] != PLAYING else {
                "seat": turn["seat"], "number": number, "step": turn["step"],
                "site": turn["site"], "roll": turn["roll"], "card": turn["card"],
                "extra_turn": turn["again"]},
            "last_roll": state["last_roll"],
        }

    def public_action(self, action: Action, seat: int) -> Action:
        if isinstance(action, dict) and action.get("type") == "keep_mission":
            return {"type": "keep_mission"}  # which mission stays secret until the end
        return action

    def secrets(self, state: State) -> dict[int | None, list[str]]:
        # Nobody sees the deck order (the next cards, top last, as a view would print a list).
        deck = state["deck"]
        hidden: dict[int | None, list[str]] = {
            None: [json.dumps(deck[-4:], separators=(",", ":"))] if len(deck) >= 2 else []}
        finished = state["phase"] == FINISHED
        for seat, p in enumerate(state["players"]):
            if finished:
                hidden[seat] = []  # rulebook: every mission is revealed at the end
            elif p["mission"] is None:
                hidden[seat] = [MISSION_TEXT[m] for m in p["offered"]]
            else:
                hidden[seat] = [MISSION_TEXT[m] for m in (p["mission"], *p["discarded"])]
        return hidden

    # --- the end ------------------------------------------------------------------------------

    def _sheet_player(self, state: State, seat: int) -> dict[str, Any]:
        p = state["players"][seat]
        cards: dict[str, int] = {}
        for card in p["cards"]:
            cards[card["id"]] = cards.get(card["id"], 0) + 1
        entry: dict[str, Any] = {"name": state["names"][seat], "tiles": dict(p["tiles"]),
                                 "tokens": p["money"], "cards": cards}
        return entry

    def _achieved(self, state: State, seat: int) -> bool:
        """rulebook "Mission achievement": judged from the final collection (Closing Shop from
        what happened during play)."""
        p = state["players"][seat]
        goal = box.MISSION_GOALS[p["mission"]]
        counts = tile_counts(self._sheet_player(state, seat))
        per_set = set_counts(counts)
        formed = sets_formed(counts)
        measure = goal["measure"]
        if measure == "count":
            value = per_set[goal["of"]]
        elif measure == "fewest":
            value = min(per_set[s] for s in TREASURE_SETS)
        elif measure == "trinities":
            value = min(counts[t] for t in box.BRONZEWARE)
        elif measure == "sites_closed":
            value = p["closed"]
        elif measure == "tokens":
            value = p["money"]
        elif measure == "cards_drawn":
            value = p["drawn"]
        elif measure == "bundles":
            loose = sum(per_set[s] for s in TREASURE_SETS if not formed[s])
            value = loose // box.BUNDLE_SIZE
        elif measure == "largest_set":
            value = max((per_set[s] for s in box.SETS if formed[s]), default=0)
        elif measure == "sets":
            value = sum(formed.values())
        else:
            raise ValueError(f"unknown mission measure {measure!r}")
        return goal.get("min", value) <= value <= goal.get("max", value)

    def scoresheet(self, state: State) -> dict[str, Any]:
        players = []
        for seat, p in enumerate(state["players"]):
            entry = self._sheet_player(state, seat)
            if p["mission"] is not None:
                entry["mission"] = {"id": p["mission"], "achieved": self._achieved(state, seat)}
            players.append(entry)
        return {"variant": state["variant"], "players": players}

    def score(self, sheet: dict[str, Any]) -> dict[str, Any]:
        return score(sheet)


def _fields(action: Action, kind: str, *required: str, optional: tuple[str, ...] = ()) -> None:
    """Refuse an action with a field missing or one it does not take."""
    allowed = {"type", *required, *optional}
    extra = [str(k) for k in action if k not in allowed]
    if extra:
        raise IllegalAction(f"A {kind} action has no field {', '.join(sorted(extra))}.")
    missing = [k for k in required if k not in action]
    if missing:
        raise IllegalAction(f"A {kind} action needs {', '.join(missing)}.")


ENGINE = DigItUp()
