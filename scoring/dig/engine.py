"""DIG's turn engine: dogs move along the yard, dig bones and drop them at bowls (RULINGS §2).

State (plain JSON): the yard is a list of card numbers, position 1 first (the Doghouse, position
0, is not in it), with None for a gap during a turn. Card numbers are internal: views show a yard
card by its scent or bowl only, another player's hand as its scents in a fixed order, and your own
hand's cards by their place in it, so no seat can follow a card it cannot tell apart at the table.

What each seat can tell is kept twice, on purpose: `known` (a bit per card for each seat, what the
views read) and `held` (for each bone card, who held it in each stretch between the put-backs that
blurred it with its twin, what `secrets` reads), so the engine suite checks the one against the
other.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Any

from scoring.engine import ONLY_FOR, Action, Event, Game, IllegalAction, Rng, State, fragment
from scoring.moves import Field, move, whole, wholes

from . import box
from .box import DigBox
from .score import Calculator


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


def in_hand(hand: list[int], *indices: int, field: str) -> None:
    """Refuses a place past the end of the hand (a field's range allows the fullest hand)."""
    if max(indices) >= len(hand):
        raise IllegalAction("Your hand holds one card, card 0." if len(hand) == 1 else
                            f"Your hand has cards 0 to {len(hand) - 1}.", field)


class DigGame(Game):
    printed_box = box.DEFAULT
    box_example = {"HAND_LIMIT": 2}  # a study's documented box change
    calculator = Calculator
    # API.md "Undo": a dig turns up a bone card and shows its bone to the digger (rulebook
    # "Dig"); a put-back tells the digger privately which bone went back; a drop turns the
    # dropped cards' bones face up before the whole table ("Bones in your hand remain secret
    # until dropped"), which, taken back, would leave a hand whose bones everyone knows.
    # Moving, keeping and ending the turn (the yard reset slides cards already on the table,
    # rulebook "Resetting the Yard") bring nothing to light.
    REVEALING = frozenset({"dig", "put_back", "drop"})
    # 2: a drop is no longer taken back; a match stored with a drop open to undo is replayed.
    revision = 2

    def at_table(self, state: State, field: Field) -> Field:
        """A yard position runs to the yard's end as it stands (it shrinks as bones go)."""
        if field.name == "to":
            return replace(field, high=len(state["yard"]))
        return field

    def __init__(self, box: DigBox | None = None) -> None:
        """The card tables, built once from the box: cards 0 … the bones less one are the
        bones (in the box's order), the bowls follow, one per colour."""
        super().__init__(box)
        box = self.box
        bones = box.bone_cards()
        self.colours = box.COLOURS
        self.n_colours = len(box.COLOURS)
        self.colour_index = {colour: i for i, colour in enumerate(box.COLOURS)}
        self.first_bowl = len(bones)
        self.n_cards = self.first_bowl + self.n_colours
        # The colour index a card's bone has (bones) or a bowl collects (bowls).
        self.card_colour = tuple([self.colour_index[card["bone"]] for card in bones]
                                 + list(range(self.n_colours)))
        self.bone_scent = tuple(tuple(card["scent"]) for card in bones)
        self.scent_rank = tuple(box.SCENT_PAIRS.index(scent) for scent in self.bone_scent)
        # A bone card's twin: the other card with the same scent (rulebook: 2 cards for each
        # scent pair).
        self.twin = tuple(next(other for other in range(self.first_bowl) if other != card
                               and self.bone_scent[other] == self.bone_scent[card])
                          for card in range(self.first_bowl))
        # rulebook "Move": the farthest a dog moves with 0, 1, 2, 3 bones in hand (4, 3, 2, 1
        # cards).
        self.reach = tuple(box.MAX_MOVE - held for held in range(box.HAND_LIMIT + 1))
        # move_targets[held][dog][last]: where a dog at `dog` may move with `held` bones in
        # hand in a yard whose last position is `last` (gaps count; rulebook: toward or away
        # from the Doghouse).
        positions = range(self.n_cards + 1)
        self.move_targets = tuple(
            tuple(tuple(tuple(to for to in range(max(0, dog - reach), min(last, dog + reach) + 1)
                              if to != dog)
                        for last in positions)
                  for dog in positions)
            for reach in self.reach)
        # For the bots: a bone card by its scent and its bone, and a scent's cards.
        self.card_of = {(self.bone_scent[c], box.COLOURS[self.card_colour[c]]): c
                        for c in range(self.first_bowl)}
        self.scent_cards = {scent: tuple(c for c in range(self.first_bowl)
                                         if self.bone_scent[c] == scent)
                            for scent in box.SCENT_PAIRS}

    # The cards as each seat sees them.

    def public_card(self, card: int | None) -> dict[str, Any] | None:
        """A yard card as everyone sees it: a bone by its scent, a bowl by its colour."""
        if card is None:
            return None
        if card >= self.first_bowl:
            return {"kind": "bowl", "colour": self.colours[self.card_colour[card]]}
        return {"kind": "bone", "scent": list(self.bone_scent[card])}

    def known_card(self, card: int) -> dict[str, Any]:
        """A yard bone as a seat that has held it sees it."""
        return {"kind": "bone", "scent": list(self.bone_scent[card]),
                "known_bone": self.colours[self.card_colour[card]]}

    def hand_card(self, index: int, card: int) -> dict[str, Any]:
        return {"card": index, "scent": list(self.bone_scent[card]),
                "bone": self.colours[self.card_colour[card]]}

    def scents(self, cards: list[int]) -> list[list[str]]:
        """Cards as everyone sees them from the back: their scents in the box's order of scent
        pairs, so that the list tells neither the order of the hand they came from nor which of
        two cards of one scent is which."""
        bone_scent = self.bone_scent
        return [list(bone_scent[card]) for card in sorted(cards, key=self.scent_rank.__getitem__)]

    def tellers(self, held: list[list[int]], card: int) -> int:
        """The seats (a bit each) that can tell a bone card's bone, read from its record and
        its twin's: the holders of the stretch since the last put-back that blurred the two (it
        starts with that hand's owner). Twins whose bones are one colour lose nothing to a
        blur: from then on whoever knew either knows both."""
        twin = self.twin[card]
        if self.card_colour[card] != self.card_colour[twin]:
            return held[card][-1]
        mine = theirs = 0
        for stretch, other in zip(held[card], held[twin], strict=True):
            mine, theirs = mine | theirs | stretch, mine | theirs | other
        return mine

    def blur(self, state: State, seat: int, card: int, twin: int) -> None:
        """`card` went back from `seat`'s hand, which still holds its twin. RULINGS: nobody but
        that hand's owner can tell which of the two went back, so what the others knew of
        either bone is lost, unless both bones are one colour: then whoever knew either knows
        both."""
        pair = 1 << card | 1 << twin
        same = self.card_colour[card] == self.card_colour[twin]
        known = state["known"]
        for other, bits in enumerate(known):
            if other != seat and bits & pair:
                known[other] = bits | pair if same else bits & ~pair
        # Each of the two starts a new stretch, with the owner, who held both.
        for blurred in (card, twin):
            state["held"][blurred].append(1 << seat)

    def deal(self, state: State, rng: Rng) -> None:
        # rulebook "Setup": shuffle the 20 bones with the 5 bowls into a row from the Doghouse.
        yard: list[int | None] = list(range(self.n_cards))
        rng.shuffle(yard)
        n = len(state["players"])
        state.update({
            "yard": yard,
            "dogs": [0] * n,  # RULINGS: every dog starts at the Doghouse, position 0
            "hands": [[] for _ in range(n)],
            "dropped": [[0] * self.n_colours for _ in range(n)],
            "known": [0] * n,  # per seat, a bit per card it can tell (the views read it)
            # per bone card, the seats (bits) that held it in each stretch between blurs
            "held": [[0] for _ in range(self.first_bowl)],
            # RULINGS: turn order is the seat order, so seat 0 starts (the envelope's to_act)
            "actions_left": self.box.ACTIONS_PER_TURN,
            "pending": None,  # after a dig: the position where a bone may be put back
            "turns": 0,
        })

    def stage(self, state: State) -> tuple[tuple[str, ...], str]:
        if state["pending"] is not None:
            return ("put_back", "keep"), ("first put a bone back where you dug (put_back) or "
                                          "keep the bone you dug (keep)")
        if not state["actions_left"]:
            return ("end_turn",), (f"you have used all {self.box.ACTIONS_PER_TURN} actions this "
                                   "turn; end your turn")
        return ("move", "dig", "drop", "end_turn"), ("move your dog, dig, drop bones or end "
                                                      "your turn")

    def options(self, state: State, seat: int) -> list[Action]:
        hand = state["hands"][seat]
        if state["pending"] is not None:
            actions: list[Action] = [{"type": "put_back", "card": i} for i in range(len(hand))]
            # rulebook: with 3 bones in hand before the dig, putting one back is required.
            if len(hand) <= self.box.HAND_LIMIT:
                actions.append({"type": "keep"})
            return actions
        if not state["actions_left"]:
            return [{"type": "end_turn"}]
        yard = state["yard"]
        dog = state["dogs"][seat]
        actions = [{"type": "move", "to": to}
                   for to in self.move_targets[len(hand)][dog][len(yard)]]
        card = yard[dog - 1] if dog else None
        if card is not None:
            if card < self.first_bowl:
                actions.append({"type": "dig"})
            elif hand:
                card_colour = self.card_colour
                colour = card_colour[card]
                matching = [i for i, c in enumerate(hand) if card_colour[c] == colour]
                for n in range(1, len(matching) + 1):
                    actions += ({"type": "drop", "cards": list(cards)}
                                for cards in combinations(matching, n))
        actions.append({"type": "end_turn"})
        return actions

    # The actions. Each checks everything before it changes the state.

    @move("move", lambda box: whole("to", 0, len(box.bone_cards()) + len(box.COLOURS),
                                    "The yard position to go to: 0 is the Doghouse"))
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
        reach = self.reach[held]
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
        if card >= self.first_bowl:
            raise IllegalAction("A Dog Bowl cannot be dug.")
        yard[dog - 1] = None
        state["hands"][seat].append(card)
        state["known"][seat] |= 1 << card
        state["held"][card][-1] |= 1 << seat
        state["pending"] = dog
        state["actions_left"] -= 1
        return [{"type": "dug", "seat": seat, "position": dog,
                 "scent": list(self.bone_scent[card])},
                {"type": "found", "bone": self.colours[self.card_colour[card]], ONLY_FOR: seat}]

    @move("put_back", lambda box: whole("card", 0, box.HAND_LIMIT,
                                        "Which card of your hand, from 0"),
          secret=("card",))
    def _put_back(self, state: State, seat: int, card: int) -> list[Event]:
        """Right after digging: put one card of your hand back where you dug (required with 4 in
        hand). Which card it was stays yours to know."""
        position = state["pending"]
        hand = state["hands"][seat]
        in_hand(hand, card, field="card")
        bone = hand.pop(card)
        state["yard"][position - 1] = bone
        state["pending"] = None
        twin = self.twin[bone]
        if twin in hand:
            self.blur(state, seat, bone, twin)
        # The position and scent are on the table for all; which hand card it was is not.
        return [{"type": "put_back", "seat": seat, "position": position,
                 "scent": list(self.bone_scent[bone])},
                {"type": "buried", "bone": self.colours[self.card_colour[bone]], ONLY_FOR: seat}]

    @move("keep")
    def _keep(self, state: State, seat: int) -> list[Event]:
        """Right after digging: keep the bone you dug (at most 3 in hand)."""
        limit = self.box.HAND_LIMIT
        if len(state["hands"][seat]) > limit:
            raise IllegalAction(f"You may hold at most {limit} bones: put one back.")
        state["pending"] = None
        return []

    # rulebook "Drop": "Select one or more Bones from your hand that match the color of the Dog
    # Bowl"; which ones is the player's choice, and the hand's order stays the player's to know.
    @move("drop", lambda box: wholes("cards", 0, box.HAND_LIMIT - 1, box.HAND_LIMIT,
                                     "Which cards of your hand, from 0: bones of the bowl's "
                                     "colour"),
          secret=("cards",))
    def _drop(self, state: State, seat: int, cards: list[int]) -> list[Event]:
        """Drop the bones you choose from your hand, each of the bowl's colour, into the Dog Bowl
        under your dog."""
        dog = state["dogs"][seat]
        card = state["yard"][dog - 1] if dog else None
        if card is None or card < self.first_bowl:
            raise IllegalAction("Bones are dropped at a Dog Bowl; your dog is not on one.")
        card_colour = self.card_colour
        colour = card_colour[card]
        hand = state["hands"][seat]
        name = self.colours[colour]
        if colour not in [card_colour[c] for c in hand]:
            raise IllegalAction(f"You hold no {name} bone for the {name} bowl.")
        in_hand(hand, *cards, field="cards")
        for i in cards:
            if card_colour[hand[i]] != colour:
                raise IllegalAction(f"Card {i} of your hand is not a {name} bone.", "cards")
        dropped = [hand[i] for i in cards]
        hand[:] = [c for i, c in enumerate(hand) if i not in cards]
        state["dropped"][seat][colour] += len(cards)
        state["actions_left"] -= 1
        # The cards go face up, and their scents were on the table: which they were is public.
        return [{"type": "dropped", "seat": seat, "colour": name, "count": len(cards),
                 "scents": self.scents(dropped)}]

    @move("end_turn")
    def _end_turn(self, state: State, seat: int) -> list[Event]:
        """End your turn: the yard is reset and the next player's dog moves."""
        filled, slid = reset_yard(state)
        state["turns"] += 1
        events: list[Event] = []
        if filled or slid:
            events.append({"type": "yard_reset", "filled": filled, "slid": slid})
        # rulebook "Game End": right after the turn in which only the 5 bowls remain.
        if len(state["yard"]) == self.n_colours:
            self.finish(state, events)
        else:
            self.pass_to(state, (seat + 1) % len(state["players"]))
            state["actions_left"] = self.box.ACTIONS_PER_TURN
        return events

    # What each seat may see.

    def see(self, state: State, seat: int | None) -> dict[str, Any]:
        known = state["known"][seat] if seat is not None else 0
        colours = self.colours
        # Only bones are ever held, so a known card is always a bone.
        yard = [self.known_card(card) if card is not None and known >> card & 1
                else self.public_card(card) for card in state["yard"]]
        pending, to_act = state["pending"], state["to_act"]
        # RULINGS: everyone sees each hand's cards by scent (a held card's back faces the table).
        players = [
            {"seat": i, "name": name, "dog": state["dogs"][i], "hand_size": len(hand),
             "hand_scents": self.scents(hand),
             "dropped": dict(zip(colours, state["dropped"][i], strict=True))}
            for i, (name, hand) in enumerate(zip(state["players"], state["hands"], strict=True))
        ]
        shown: dict[str, Any] = {
            "players": players,
            "yard": yard,
            "bowl_order": self.bowl_order(state),
            "turn": to_act[0] if to_act else None,
            "actions_left": state["actions_left"] if to_act else 0,
            "put_back": None if pending is None else {
                "position": pending,
                "required": len(state["hands"][to_act[0]]) > self.box.HAND_LIMIT},
            "turns_played": state["turns"],
        }
        if seat is not None:
            shown["hand"] = [self.hand_card(i, card)
                             for i, card in enumerate(state["hands"][seat])]
        return shown

    def secrets(self, state: State) -> dict[int | frozenset[int] | None, list[str]]:
        """A hand's bones are its owner's; a yard bone is for the seats that can tell it, worked
        out from `held` rather than from the `known` bits the views read (nobody's, if none)."""
        found: dict[int | frozenset[int] | None, list[str]] = {
            seat: [fragment(self.hand_card(i, card)) for i, card in enumerate(hand)]
            for seat, hand in enumerate(state["hands"])}
        # Twins of one colour read the same: whoever can tell either may see that text.
        can_tell: dict[str, int] = {}
        for card in state["yard"]:
            if card is not None and card < self.first_bowl:
                text = fragment(self.known_card(card))
                can_tell[text] = can_tell.get(text, 0) | self.tellers(state["held"], card)
        for text, bits in can_tell.items():
            seats = frozenset(s for s in range(len(state["players"])) if bits >> s & 1)
            found.setdefault(seats or None, []).append(text)
        return found

    # The end.

    def bowl_order(self, state: State) -> list[str]:
        """The bowls' colours in yard order, nearest the Doghouse first."""
        colours, card_colour, first_bowl = self.colours, self.card_colour, self.first_bowl
        return [colours[card_colour[card]] for card in state["yard"]
                if card is not None and card >= first_bowl]

    def scoresheet(self, state: State) -> dict[str, Any]:
        # rulebook "Scoring": bones still in hand are worth 0, so only dropped bones are listed.
        colours = self.colours
        return {"variant": state["variant"], "bowls": self.bowl_order(state),
                "players": [{"name": name,
                             "dropped": dict(zip(colours, state["dropped"][i], strict=True))}
                            for i, name in enumerate(state["players"])]}
