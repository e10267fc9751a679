"""DIG's bots: the greedy heuristic, the sampler of what a seat cannot see, the evaluation of a
position and the figures of a finished match.

The greedy heuristic (one ply: each legal action is judged by what it brings at once):
1. Right after a dig, keep the bone (the yard only empties, and the game only ends, as bones
   leave it); with a fourth bone in hand, put back the one of least value.
2. On a Dog Bowl holding bones of its colour: drop them all (the points banked now).
3. Otherwise each action is scored by the points it brings within reach, a bone being worth its
   bowl's points now (5 for the bowl nearest the Doghouse … 1), a yard bone of unknown colour
   the mean of its scent's two colours (or the other colour, when its twin is known):
   - dig: 0.6 × the bone's worth (a bone in hand is not points yet; with a full hand, the gain
     over the bone it replaces);
   - move onto a bowl of a colour in hand, with an action left to drop: the points of the drop;
     onto a bone, with an action left to dig, as digging it;
   - otherwise (or with the last action of the turn) a move is worth a little for bringing the
     dog nearer the best bowl or bone for the next turn, each target's worth divided by
     1 + its distance; ending the turn is worth staying put.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from scoring.bots.search import Budget
from scoring.engine import FINISHED, PLAYING, Action, Game, Rng, State

DIG_WEIGHT = 0.6  # a bone in hand against the same bone dropped
NEXT_TURN = 0.01  # a good place for the next turn against points this turn
PATIENCE = 100  # turns (greedy bots end a match of two in about 35)
# How the heuristic sees a yard card: None (a gap), a bowl's colour, or a bone's worth.
BOWL, BONE = "bowl", "bone"
Cell = tuple[str, float] | None


def values_of(game: Game, bowl_colours: list[int]) -> list[int]:
    """Points per bone of each colour (by index), from the bowls nearest the Doghouse first."""
    values = [0] * game.n_colours
    for colour, points in zip(bowl_colours, game.box.BOWL_POINTS, strict=False):
        values[colour] = points
    return values


def final_order(colours: list[int | None]) -> list[int]:
    """The bowls' colours, nearest the Doghouse first, as they would end if every bone left the
    yard at once: the yard reset moves the farthest card into the nearest gap (rulebook
    "Resetting the Yard"), so bowls at the far end jump forward. `colours`: the yard, a bowl's
    colour or None for a bone or a gap."""
    yard = list(colours)
    gap = 0
    while True:
        while yard and yard[-1] is None:
            yard.pop()
        try:
            gap = yard.index(None, gap)
        except ValueError:
            return yard
        yard[gap] = yard.pop()


def twin_colours(view: dict[str, Any]) -> dict[tuple[str, ...], str]:
    """The scents of which the seat knows one card's bone: scent → the known bone. The other
    card of that scent carries the other colour."""
    known: dict[tuple[str, ...], str] = {}
    for card in view["hand"]:
        known[tuple(card["scent"])] = card["bone"]
    for card in view["yard"]:
        if card is not None and "known_bone" in card:
            known[tuple(card["scent"])] = card["known_bone"]
    return known


def bone_worth(card: dict[str, Any], values: list[int], twins: dict[tuple[str, ...], str],
               colour: dict[str, int]) -> float:
    """What a yard bone is worth to the seat: its bowl's points, or their mean over the
    colours it may be (`colour`: a colour's index)."""
    if "known_bone" in card:
        return values[colour[card["known_bone"]]]
    scent = tuple(card["scent"])
    if scent in twins:
        return values[colour[next(c for c in scent if c != twins[scent])]]
    return sum(values[colour[c]] for c in scent) / len(scent)


def greedy(game: Game, view: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
    colour = game.colour_index
    values = values_of(game, [colour[c] for c in view["bowl_order"]])
    twins = twin_colours(view)
    cells: list[Cell] = [
        None if card is None else (BOWL, colour[card["colour"]]) if card["kind"] == "bowl"
        else (BONE, bone_worth(card, values, twins, colour)) for card in view["yard"]]
    hand = [colour[card["bone"]] for card in view["hand"]]
    dog = view["players"][view["you"]]["dog"]
    return heuristic(legal, cells, hand, values, dog, view["actions_left"], rng,
                     game.box.HAND_LIMIT)


def playout(game: Game, state: State, seat: int, legal: list[Action], rng: Rng) -> Action:
    """The heuristic inside a search's playout, reading the sampled state: there every bone's
    colour is one the sampler drew."""
    yard = state["yard"]
    card_colour, first_bowl = game.card_colour, game.first_bowl
    values = values_of(game, final_order([card_colour[c] if c is not None and c >= first_bowl
                                          else None for c in yard]))
    cells: list[Cell] = [
        None if card is None else (BOWL, card_colour[card]) if card >= first_bowl
        else (BONE, values[card_colour[card]]) for card in yard]
    hand = [card_colour[card] for card in state["hands"][seat]]
    return heuristic(legal, cells, hand, values, state["dogs"][seat], state["actions_left"], rng,
                     game.box.HAND_LIMIT)


def heuristic(legal: list[Action], cells: list[Cell], hand: list[int], values: list[int],
              dog: int, left: int, rng: Rng, hand_limit: int) -> Action:
    """The greedy choice (module docstring) among `legal`, the yard seen as `cells`, with a
    hand of at most `hand_limit` bones."""
    kind = legal[0]["type"]
    if kind == "put_back" or kind == "keep":
        if legal[-1]["type"] == "keep":
            return legal[-1]
        return min(legal, key=lambda a: values[hand[a["card"]]])
    drops = [a for a in legal if a["type"] == "drop"]
    if drops:
        return max(drops, key=lambda a: len(a["cards"]))
    in_hand = [0] * len(values)
    for colour in hand:
        in_hand[colour] += 1
    full = len(hand) >= hand_limit
    least = min((values[b] for b in hand), default=0)
    # gains[q]: the points the next action could bring at position q (the Doghouse: none).
    gains = [0.0]
    for cell in cells:
        if cell is None:
            gains.append(0.0)
        elif cell[0] == BOWL:
            gains.append(in_hand[cell[1]] * values[cell[1]])
        else:
            gains.append(DIG_WEIGHT * (max(0.0, cell[1] - least) if full else cell[1]))
    targets = [(q, g) for q, g in enumerate(gains) if g > 0]
    outlooks: dict[int, float] = {}

    def outlook(position: int) -> float:
        if position not in outlooks:
            outlooks[position] = NEXT_TURN * max(
                (g / (1 + abs(q - position)) for q, g in targets), default=0.0)
        return outlooks[position]

    scores = []
    for action in legal:
        kind = action["type"]
        if kind == "move":
            to = action["to"]
            scores.append(gains[to] if left > 1 and gains[to] > 0 else outlook(to))
        elif kind == "end_turn":  # staying put
            scores.append(outlook(dog))
        else:  # digging the bone under the dog
            scores.append(gains[dog])
    best = max(scores)
    return rng.choice([a for a, score in zip(legal, scores, strict=True) if score == best])


def obvious(game: Game, view: dict[str, Any], legal: list[Action]) -> Action | None:
    """The moves the search bot makes without searching: keeping the bone just dug (while the
    hand has room), dropping at a bowl every bone of its colour (a bone dropped now scores as
    much as later, and the action is spent either way); and, once the match has gone on for
    PATIENCE turns, whatever the heuristic plays. Nothing in the rules ends a match whose
    players stop digging, and two searches that each see digging help the other could
    otherwise wait for ever."""
    if view["turns_played"] >= PATIENCE:
        return greedy(game, view, legal, Rng(view["turns_played"]))
    if legal[-1]["type"] == "keep":
        return legal[-1]
    drops = [a for a in legal if a["type"] == "drop"]
    return max(drops, key=lambda a: len(a["cards"])) if drops else None


class Sampler:
    """Full states that show the seat exactly its view: the unknown bones of the yard and of
    the other hands are dealt from the cards of their scents the seat cannot place, the bones
    missing from both dropped so that the colours dropped add up to what the bowls hold."""

    def __init__(self, game: Game, view: dict[str, Any]) -> None:
        self.game, self.view = game, view
        first_bowl, card_of = game.first_bowl, game.card_of
        self.known_yard = 0  # the yard bones the seat can tell, a bit each
        yard: list[int | None] = []
        slots: dict[tuple[str, ...], list[tuple[str, int, int]]] = {}  # scent → unknown places
        placed: set[int] = set()
        for position, card in enumerate(view["yard"]):
            if card is None:
                yard.append(None)
            elif card["kind"] == "bowl":
                yard.append(first_bowl + game.colour_index[card["colour"]])
            elif "known_bone" in card:
                yard.append(card_of[tuple(card["scent"]), card["known_bone"]])
                placed.add(yard[-1])
                self.known_yard |= 1 << yard[-1]
            else:
                yard.append(None)
                slots.setdefault(tuple(card["scent"]), []).append(("yard", 0, position))
        mine = [card_of[tuple(card["scent"]), card["bone"]] for card in view["hand"]]
        placed.update(mine)
        hands: list[list[int | None]] = []
        for player in view["players"]:
            if player["seat"] == view["you"]:
                hands.append(list(mine))
                continue
            hands.append([None] * player["hand_size"])
            for i, scent in enumerate(player["hand_scents"]):
                slots.setdefault(tuple(scent), []).append(("hand", player["seat"], i))
        self.yard, self.hands, self.slots = yard, hands, slots
        self.free = {scent: [c for c in cards if c not in placed]
                     for scent, cards in game.scent_cards.items()}
        self.dropped_ways = self._dropped_ways()

    def _dropped_ways(self) -> list[dict[tuple[str, ...], int]]:
        """The ways to choose which card of each half-seen scent was dropped (scent → the card)
        so that the colours dropped match the bowls'."""
        dropped = [sum(p["dropped"][c] for p in self.view["players"])
                   for c in self.game.colours]
        card_colour = self.game.card_colour
        open_choice = []
        for scent, cards in self.free.items():
            missing = len(cards) - len(self.slots.get(scent, ()))
            if missing == len(cards):
                for card in cards:
                    dropped[card_colour[card]] -= 1
            elif missing:
                open_choice.append(scent)
        ways = []
        for picks in product(*(self.free[s] for s in open_choice)):
            counts = list(dropped)
            for card in picks:
                counts[card_colour[card]] -= 1
            if not any(counts):
                ways.append(dict(zip(open_choice, picks, strict=True)))
        return ways or [{s: self.free[s][0] for s in open_choice}]

    def sample(self, rng: Rng, world: int = 0) -> State:
        view = self.view
        yard, hands = list(self.yard), [list(h) for h in self.hands]
        way = rng.choice(self.dropped_ways)
        for scent, places in self.slots.items():
            cards = [c for c in self.free[scent] if c != way.get(scent)]
            rng.shuffle(cards)
            for (where, seat, index), card in zip(places, cards, strict=False):
                if where == "yard":
                    yard[index] = card
                else:
                    hands[seat][index] = card
        known = [sum(1 << c for c in hand) for hand in hands]
        known[view["you"]] |= self.known_yard
        held = [[0] for _ in range(self.game.first_bowl)]
        for seat, hand in enumerate(hands):
            for card in hand:
                held[card][-1] |= 1 << seat
        turn = view["turn"]
        return {
            "game": self.game.id, "revision": self.game.revision, "variant": view["variant"],
            "players": [p["name"] for p in view["players"]],
            "status": PLAYING if turn is not None else FINISHED,
            "to_act": [] if turn is None else [turn], "rng": rng.next64(),
            "yard": yard,
            "dogs": [p["dog"] for p in view["players"]],
            "hands": hands,
            "dropped": [[p["dropped"][c] for c in self.game.colours] for p in view["players"]],
            "known": known,
            "held": held,
            "actions_left": view["actions_left"],
            "pending": None if view["put_back"] is None else view["put_back"]["position"],
            "turns": view["turns_played"],
        }


HAND_WORTH = DIG_WEIGHT  # a bone in hand: likely, not yet, points
OUTLOOK_WORTH = 0.3  # the best target in reach of the dog, against the same points banked


def evaluate(game: Game, state: State) -> list[float]:
    """Each seat's points if the bowls end in the order `final_order` foresees, with part of
    the worth of its bones in hand and of the best bowl or bone near its dog (worth over
    1 + the distance)."""
    yard = state["yard"]
    card_colour, first_bowl = game.card_colour, game.first_bowl
    values = values_of(game, final_order([card_colour[c] if c is not None and c >= first_bowl
                                          else None for c in yard]))
    # The yard as (position, colour, is a bowl), gaps left out.
    cards = [(position, card_colour[c], c >= first_bowl)
             for position, c in enumerate(yard, 1) if c is not None]
    hand_limit = game.box.HAND_LIMIT
    worth = []
    for seat, (dropped, hand) in enumerate(zip(state["dropped"], state["hands"], strict=True)):
        in_hand = [0] * len(values)
        for card in hand:
            in_hand[card_colour[card]] += 1
        dig = DIG_WEIGHT if len(hand) < hand_limit else 0.0
        dog, outlook = state["dogs"][seat], 0.0
        for position, colour, bowl in cards:
            gain = (in_hand[colour] if bowl else dig) * values[colour]
            if gain > outlook * (1 + abs(position - dog)):
                outlook = gain / (1 + abs(position - dog))
        worth.append(sum(n * v for n, v in zip(dropped, values, strict=True))
                     + HAND_WORTH * sum(n * v for n, v in zip(in_hand, values, strict=True))
                     + OUTLOOK_WORTH * outlook)
    return worth


# The search bot: four worlds, each move tried about once in each; a playout goes on (by the
# heuristic, bones judged by `final_order`) until the bot's seat is to act again, a round later,
# and `evaluate` judges it. A random DIG match wanders for over a thousand actions.
SEARCH = Budget(worlds=4, playouts=40, rounds=1, scale=4.0)


def figures(game: Game, state: State, result: dict[str, Any] | None = None
            ) -> dict[str, float]:
    """What a designer reads off a finished match of DIG (its result is not read)."""
    return {"bones_dropped": sum(map(sum, state["dropped"])),
            "bones_left_in_hands": sum(map(len, state["hands"])),
            "turns": state["turns"]}
