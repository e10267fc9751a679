"""DIG's turn engine: dogs move along the yard, dig bones and drop them at bowls (RULINGS §2).

State (plain JSON): the yard is a list of card numbers, position 1 first (the Doghouse, position
0, is not in it), with None for a gap during a turn. Card numbers are internal: views show a yard
card by its scent or bowl only, and a hand's cards by their place in that hand, so no seat can
follow a card it has not held.
"""

from __future__ import annotations

from typing import Any

from scoring.engine import ONLY_FOR, Action, Event, Game, IllegalAction, Rng, State, fragment
from scoring.moves import move, whole

from . import box
from .score import score

# Card tables, built once from the box: cards 0…19 are the bones, 20…24 the bowls.
_BONES = box.bone_cards()
N_COLOURS = len(box.COLOURS)
COLOUR_INDEX = {colour: i for i, colour in enumerate(box.COLOURS)}
FIRST_BOWL = len(_BONES)
N_CARDS = FIRST_BOWL + N_COLOURS
# The colour index a card's bone has (bones) or a bowl collects (bowls).
CARD_COLOUR = tuple([COLOUR_INDEX[card["bone"]] for card in _BONES] + list(range(N_COLOURS)))
BONE_SCENT = tuple(tuple(card["scent"]) for card in _BONES)
# rulebook "Move": the farthest a dog moves with 0, 1, 2, 3 bones in hand (4, 3, 2, 1 cards).
REACH = tuple(box.MAX_MOVE - held for held in range(box.HAND_LIMIT + 1))
# MOVE_TARGETS[held][dog][last]: where a dog at `dog` may move with `held` bones in hand in a yard
# whose last position is `last` (gaps count; rulebook: toward or away from the Doghouse).
MOVE_TARGETS = tuple(
    tuple(tuple(tuple(to for to in range(max(0, dog - reach), min(last, dog + reach) + 1)
                      if to != dog)
                for last in range(N_CARDS + 1))
          for dog in range(N_CARDS + 1))
    for reach in REACH)

def is_bowl(card: int) -> bool:
    return card >= FIRST_BOWL


def public_card(card: int | None) -> dict[str, Any] | None:
    """A yard card as everyone sees it: a bone by its scent, a bowl by its colour."""
    if card is None:
        return None
    if is_bowl(card):
        return {"kind": "bowl", "colour": box.COLOURS[CARD_COLOUR[card]]}
    return {"kind": "bone", "scent": list(BONE_SCENT[card])}


def known_card(card: int) -> dict[str, Any]:
    """A yard bone as a seat that has held it sees it."""
    return {"kind": "bone", "scent": list(BONE_SCENT[card]),
            "known_bone": box.COLOURS[CARD_COLOUR[card]]}


def hand_card(index: int, card: int) -> dict[str, Any]:
    return {"card": index, "scent": list(BONE_SCENT[card]), "bone": box.COLOURS[CARD_COLOUR[card]]}


def reset_yard(state: State) -> tuple[list[dict[str, int]], list[int]]:
    """The end-of-turn yard reset (rulebook "Resetting the Yard"); returns the cards moved and the
    seats whose dog slid."""
    yard = state["yard"]
    # rulebook: an empty space at the far end of the yard does not need to be filled.
    while yard[-1] is None:
        yard.pop()
    filled = []
    gap = 0
    while True:
        # rulebook: resolve the empty space closest to the Doghouse first ...
        try:
            gap = yard.index(None, gap)
        except ValueError:
            break
        # ... moving into it the yard card farthest from the Doghouse.
        filled.append({"from": len(yard), "to": gap + 1})
        yard[gap] = yard.pop()
        while yard[-1] is None:
            yard.pop()
    # RULINGS: a dog now past the end slides to the new last card; other dogs stay.
    last = len(yard)
    dogs = state["dogs"]
    slid = []
    for seat, position in enumerate(dogs):
        if position > last:
            dogs[seat] = last
            slid.append(seat)
    return filled, slid


class DigGame(Game):
    box = box
    score = staticmethod(score)

    def deal(self, state: State, rng: Rng) -> None:
        # rulebook "Setup": shuffle the 20 bones with the 5 bowls into a row from the Doghouse.
        yard: list[int | None] = list(range(N_CARDS))
        rng.shuffle(yard)
        n = len(state["players"])
        state.update({
            "yard": yard,
            "dogs": [0] * n,  # RULINGS: every dog starts at the Doghouse, position 0
            "hands": [[] for _ in range(n)],
            "dropped": [[0] * N_COLOURS for _ in range(n)],
            "known": [0] * n,  # per seat, a bit per card it has held
            # RULINGS: turn order is the seat order, so seat 0 starts (the envelope's to_act)
            "actions_left": box.ACTIONS_PER_TURN,
            "pending": None,  # after a dig: the position where a bone may be put back
            "turns": 0,
        })

    def stage(self, state: State) -> tuple[tuple[str, ...], str]:
        if state["pending"] is not None:
            return ("put_back", "keep"), ("first put a bone back where you dug (put_back) or "
                                          "keep the bone you dug (keep)")
        if not state["actions_left"]:
            return ("end_turn",), (f"you have used all {box.ACTIONS_PER_TURN} actions this "
                                   "turn; end your turn")
        return ("move", "dig", "drop", "end_turn"), ("move your dog, dig, drop bones or end "
                                                      "your turn")

    def options(self, state: State, seat: int) -> list[Action]:
        hand = state["hands"][seat]
        if state["pending"] is not None:
            actions: list[Action] = [{"type": "put_back", "card": i} for i in range(len(hand))]
            # rulebook: with 3 bones in hand before the dig, putting one back is required.
            if len(hand) <= box.HAND_LIMIT:
                actions.append({"type": "keep"})
            return actions
        if not state["actions_left"]:
            return [{"type": "end_turn"}]
        yard = state["yard"]
        dog = state["dogs"][seat]
        actions = [{"type": "move", "to": to}
                   for to in MOVE_TARGETS[len(hand)][dog][len(yard)]]
        card = yard[dog - 1] if dog else None
        if card is not None:
            if card < FIRST_BOWL:
                actions.append({"type": "dig"})
            else:
                matching = [CARD_COLOUR[c] for c in hand].count(CARD_COLOUR[card])
                actions.extend({"type": "drop", "count": n} for n in range(1, matching + 1))
        actions.append({"type": "end_turn"})
        return actions

    # The actions. Each checks everything before it changes the state.

    @move("move", whole("to", 0, N_CARDS, "The yard position to go to: 0 is the Doghouse"))
    def _move(self, state: State, seat: int, to: int) -> list[Event]:
        """Move your dog along the yard, toward or away from the Doghouse: up to 4 cards, one
        fewer for each bone in hand."""
        dogs = state["dogs"]
        dog = dogs[seat]
        last = len(state["yard"])
        if to > last:
            raise IllegalAction(f"The yard runs from the Doghouse (0) to position {last}.", "to")
        if to == dog:
            raise IllegalAction("Your dog is already there; a move goes at least one card.")
        held = len(state["hands"][seat])
        reach = REACH[held]
        if abs(to - dog) > reach:
            raise IllegalAction(f"With {held} bone{'' if held == 1 else 's'} in hand your dog "
                                f"moves at most {reach} card{'' if reach == 1 else 's'}.")
        dogs[seat] = to
        state["actions_left"] -= 1
        return []  # the action itself says where the dog went

    @move("dig")
    def _dig(self, state: State, seat: int) -> list[Event]:
        """Dig up the bone card under your dog and look at its bone."""
        dog = state["dogs"][seat]
        if not dog:
            raise IllegalAction("The Doghouse cannot be dug.")
        yard = state["yard"]
        card = yard[dog - 1]
        if card is None:
            raise IllegalAction("There is no card to dig here.")
        if card >= FIRST_BOWL:
            raise IllegalAction("A Dog Bowl cannot be dug.")
        yard[dog - 1] = None
        state["hands"][seat].append(card)
        state["known"][seat] |= 1 << card
        state["pending"] = dog
        state["actions_left"] -= 1
        return [{"type": "dug", "seat": seat, "position": dog, "scent": list(BONE_SCENT[card])},
                {"type": "found", "bone": box.COLOURS[CARD_COLOUR[card]], ONLY_FOR: seat}]

    @move("put_back", whole("card", 0, box.HAND_LIMIT, "Which card of your hand, from 0"),
          secret=("card",))
    def _put_back(self, state: State, seat: int, card: int) -> list[Event]:
        """Right after digging: put one card of your hand back where you dug (required with 4 in
        hand). Which card it was stays yours to know."""
        position = state["pending"]
        hand = state["hands"][seat]
        if card >= len(hand):
            raise IllegalAction(f"Your hand has cards 0 to {len(hand) - 1}.", "card")
        bone = hand.pop(card)
        state["yard"][position - 1] = bone
        state["pending"] = None
        # The position and scent are on the table for all; which hand card it was is not.
        return [{"type": "put_back", "seat": seat, "position": position,
                 "scent": list(BONE_SCENT[bone])},
                {"type": "buried", "bone": box.COLOURS[CARD_COLOUR[bone]], ONLY_FOR: seat}]

    @move("keep")
    def _keep(self, state: State, seat: int) -> list[Event]:
        """Right after digging: keep the bone you dug (at most 3 in hand)."""
        if len(state["hands"][seat]) > box.HAND_LIMIT:
            raise IllegalAction(f"You may hold at most {box.HAND_LIMIT} bones: put one back.")
        state["pending"] = None
        return []

    @move("drop", whole("count", 1, box.HAND_LIMIT, "How many bones of the bowl's colour"))
    def _drop(self, state: State, seat: int, count: int) -> list[Event]:
        """Drop bones of the bowl's colour from your hand into the Dog Bowl under your dog."""
        dog = state["dogs"][seat]
        card = state["yard"][dog - 1] if dog else None
        if card is None or card < FIRST_BOWL:
            raise IllegalAction("Bones are dropped at a Dog Bowl; your dog is not on one.")
        colour = CARD_COLOUR[card]
        hand = state["hands"][seat]
        matching = [CARD_COLOUR[c] for c in hand].count(colour)
        name = box.COLOURS[colour]
        if matching == 0:
            raise IllegalAction(f"You hold no {name} bone for the {name} bowl.")
        if count > matching:
            raise IllegalAction(f"You can drop 1 to {matching} {name} bone"
                                f"{'' if matching == 1 else 's'} here.")
        kept = []
        left = count
        for c in hand:
            if left and CARD_COLOUR[c] == colour:
                left -= 1
            else:
                kept.append(c)
        hand[:] = kept
        state["dropped"][seat][colour] += count
        state["actions_left"] -= 1
        return [{"type": "dropped", "seat": seat, "colour": name, "count": count}]

    @move("end_turn")
    def _end_turn(self, state: State, seat: int) -> list[Event]:
        """End your turn: the yard is reset and the next player's dog moves."""
        filled, slid = reset_yard(state)
        state["turns"] += 1
        events: list[Event] = []
        if filled or slid:
            events.append({"type": "yard_reset", "filled": filled, "slid": slid})
        # rulebook "Game End": right after the turn in which only the 5 bowls remain.
        if len(state["yard"]) == N_COLOURS:
            self.finish(state, events)
        else:
            self.pass_to(state, (seat + 1) % len(state["players"]))
            state["actions_left"] = box.ACTIONS_PER_TURN
        return events

    # What each seat may see.

    def see(self, state: State, seat: int | None) -> dict[str, Any]:
        known = state["known"][seat] if seat is not None else 0
        # Only bones are ever held, so a known card is always a bone.
        yard = [known_card(card) if card is not None and known >> card & 1
                else public_card(card) for card in state["yard"]]
        pending, to_act = state["pending"], state["to_act"]
        players = [
            {"seat": i, "name": name, "dog": state["dogs"][i], "hand_size": len(state["hands"][i]),
             "dropped": dict(zip(box.COLOURS, state["dropped"][i], strict=True))}
            for i, name in enumerate(state["players"])
        ]
        shown: dict[str, Any] = {
            "players": players,
            "yard": yard,
            "bowl_order": self.bowl_order(state),
            "turn": to_act[0] if to_act else None,
            "actions_left": state["actions_left"] if to_act else 0,
            "put_back": None if pending is None else {
                "position": pending, "required": len(state["hands"][to_act[0]]) > box.HAND_LIMIT},
            "turns_played": state["turns"],
        }
        if seat is not None:
            shown["hand"] = [hand_card(i, card) for i, card in enumerate(state["hands"][seat])]
        return shown

    def secrets(self, state: State) -> dict[int | None, list[str]]:
        knowers: dict[int, list[int]] = {}
        for seat, known in enumerate(state["known"]):
            for card in state["yard"]:
                if card is not None and card < FIRST_BOWL and known >> card & 1:
                    knowers.setdefault(card, []).append(seat)
        found: dict[int | None, list[str]] = {
            seat: [fragment(hand_card(i, card)) for i, card in enumerate(hand)]
            for seat, hand in enumerate(state["hands"])}
        found[None] = []
        # A yard bone is its one knower's secret, or nobody's business if nobody has held it.
        for card in state["yard"]:
            if card is None or card >= FIRST_BOWL:
                continue
            seats = knowers.get(card, ())
            if not seats:
                found[None].append(fragment(known_card(card)))
            elif len(seats) == 1:
                found[seats[0]].append(fragment(known_card(card)))
        return found

    # The end.

    def bowl_order(self, state: State) -> list[str]:
        """The bowls' colours in yard order, nearest the Doghouse first."""
        return [box.COLOURS[CARD_COLOUR[card]] for card in state["yard"]
                if card is not None and card >= FIRST_BOWL]

    def scoresheet(self, state: State) -> dict[str, Any]:
        # rulebook "Scoring": bones still in hand are worth 0, so only dropped bones are listed.
        return {"bowls": self.bowl_order(state),
                "players": [{"name": name,
                             "dropped": dict(zip(box.COLOURS, state["dropped"][i], strict=True))}
                            for i, name in enumerate(state["players"])]}
