"""The search bot: determinized Monte Carlo tree search (Frank and Basin's "perfect information
Monte Carlo"; the determinized UCT that Cowling, Powley and Whitehouse measure information-set
MCTS against in "Information Set Monte Carlo Tree Search", 2012).

The bot cannot see the state. It draws a number of worlds: full states that the game's sampler
builds from the bot's view alone (what other hands hold, how a deck is ordered, what the die will
roll), each equally likely as far as the seat can tell. In each world it grows a UCT tree over its
own moves, the first of them to be tried at each node being the game's playout policy's choice;
the other seats move by that policy (the game's one-ply heuristic), which is the bot's model of
its opponents. Every playout of one world starts from the same state and draws the same random
numbers, so two moves are compared on the same deal and the same rolls, and only where they
really differ. A playout stops at the end of the match or once the bot's seat has come back to
act a number of rounds later (the game's `Budget.rounds`); it is judged by the result, or by
the game's evaluation of the position. The move played is the one whose mean reward, summed
over the worlds, is highest.

A budget of playouts makes the bot reproducible from its seed; a budget in milliseconds adapts
to the machine and is not.
"""

from __future__ import annotations

import math
import pickle
import time
from dataclasses import dataclass
from itertools import count

from scoring.engine import FINISHED, Action, Game, Rng, State

from . import Bot, View, module

EXPLORATION = 0.25  # UCT's constant, for rewards in [0, 1]
DISCOUNT = 0.999  # what a final reward keeps of its distance from ½ per action to the end
WIN_WEIGHT = 0.7  # a reward is this much the share of the win and the rest the score margin


@dataclass(frozen=True)
class Budget:
    """How a game's search bot spends its effort on a move (the game's bot module's `SEARCH`)."""

    worlds: int  # at most this many worlds, each trying every move once at least
    playouts: int  # the default budget of playouts a move
    rounds: int | None  # a playout's horizon: the seat's turns after this one (0: its end)
    scale: float  # points: a lead of this many is about a three-in-four chance to win


class Horizon:
    """Where a playout stops: at the end of the match, or when the bot's seat has come back to
    act `rounds` times after the other seats had their turns (0: as soon as its turn is over;
    None: only at the end), so every playout of one search is judged at the same point of the
    turn order."""

    __slots__ = ("seat", "rounds", "away")

    def __init__(self, seat: int, rounds: int | None) -> None:
        self.seat, self.rounds, self.away = seat, rounds, False

    def reached(self, state: State) -> bool:
        if state["status"] == FINISHED:
            return True
        if self.rounds is None:
            return False
        if self.seat not in state["to_act"]:
            self.away = True
            return not self.rounds
        if self.away:
            self.away = False
            self.rounds -= 1
            return self.rounds <= 0
        return False


class Node:
    """One of the bot's own moves in a world's tree: its playouts and their summed reward."""

    __slots__ = ("children", "visits", "reward")

    def __init__(self) -> None:
        self.children: dict[tuple, Node] = {}
        self.visits = 0
        self.reward = 0.0


def action_key(action: Action) -> tuple:
    """An action as a dictionary key (a list of cards as a tuple)."""
    return tuple(tuple(v) if isinstance(v, list) else v for v in action.values())


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


class SearchBot(Bot):
    name = "mcts"
    budgeted = True
    description = ("Determinized Monte Carlo tree search: worlds sampled from what the seat can "
                   "see, a UCT tree over its own moves in each, the game's heuristic for the "
                   "others; a budget of playouts (or milliseconds) per move.")

    def __init__(self, game: Game, seat: int, rng: Rng, playouts: int | None = None,
                 ms: float | None = None) -> None:
        super().__init__(game, seat, rng)
        self.rules = module(game)
        self.budget: Budget = self.rules.SEARCH
        self.playouts = playouts or self.budget.playouts
        self.ms = ms

    def needs_view(self, legal: list[Action]) -> bool:
        return len(legal) > 1  # the one legal action is taken unseen

    def choose(self, view: View | None, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        obvious = self.rules.obvious(self.game, view, legal)
        if obvious is not None:
            return obvious
        narrow = getattr(self.rules, "candidates", None)  # a game may leave some moves out
        if narrow is not None:
            legal = narrow(self.game, view, legal)
        sampler = self.rules.Sampler(self.game, view)
        # Up to the game's number of worlds, each trying every move once at least, in whole
        # cycles of the sampler's strata where one fits (else a move's mean would weigh some
        # rolls of the die more than others); with a time budget, as many worlds as the time
        # allows (one at least).
        worlds = max(1, min(self.budget.worlds, self.playouts // len(legal)))
        cycle = getattr(sampler, "cycle", 1)
        if worlds >= cycle:
            worlds -= worlds % cycle
        per_world = max(len(legal), self.playouts // worlds)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        index = {action_key(a): i for i, a in enumerate(legal)}
        value, seen = [0.0] * len(legal), [0] * len(legal)
        for world in count():
            if world == worlds if deadline is None else \
                    world and time.perf_counter() > deadline:
                break
            dealt = pickle.dumps(sampler.sample(self.rng, world), pickle.HIGHEST_PROTOCOL)
            draws = self.rng.next64()  # the world's own numbers, the same in every playout
            root = Node()
            for _ in range(per_world):
                self.playout(root, pickle.loads(dealt), Rng(draws), legal)
            for key, child in root.children.items():
                value[index[key]] += child.reward / child.visits
                seen[index[key]] += 1
        means = [v / n if n else -1.0 for v, n in zip(value, seen, strict=True)]
        return legal[means.index(max(means))]

    def playout(self, root: Node, state: State, rng: Rng, moves: list[Action]) -> None:
        """One playout in a world: down the bot's tree (one new node at most) from `moves` at
        its root, the others and the rest by the playout policy, to the horizon; the reward goes
        up the path."""
        game, policy = self.game, self.rules.playout
        horizon = Horizon(self.seat, self.budget.rounds)
        node: Node | None = root
        path = []
        actions = 0
        while not horizon.reached(state):
            actions += 1
            seat = state["to_act"][0]
            legal = moves if node is root and seat == self.seat else \
                game.legal_actions(state, seat)
            if len(legal) == 1:
                action = legal[0]
            elif node is None or seat != self.seat:
                action = policy(game, state, seat, legal, rng)
            else:
                node, action = self.descend(node, state, legal, rng)
                path.append(node)
                if not node.visits:
                    node = None  # a new node: the tree ends here
            game.act(state, seat, dict(action))
        reward = self.reward(state, actions)
        for node in path:
            node.visits += 1
            node.reward += reward

    def descend(self, node: Node, state: State, legal: list[Action],
                rng: Rng) -> tuple[Node, Action]:
        """The child to follow: a new one while some legal move has none (the playout policy's
        choice first), else the best by UCT."""
        children = node.children
        if len(children) < len(legal):
            if not children:
                action = self.rules.playout(self.game, state, self.seat, legal, rng)
            else:
                action = next(a for a in legal if action_key(a) not in children)
            child = children[action_key(action)] = Node()
            return child, action
        log_visits = math.log(sum(child.visits for child in children.values()))
        best, best_score = None, -1.0
        for action in legal:
            child = children[action_key(action)]
            score = (child.reward / child.visits
                     + EXPLORATION * math.sqrt(log_visits / child.visits))
            if score > best_score:
                best, best_score = (child, action), score
        return best

    def reward(self, state: State, actions: int) -> float:
        """The bot's reward in [0, 1] where a playout stopped, `actions` after the root: its
        share of the win (the result's at the end, as likely as the evaluation's lead makes it
        before), weighed WIN_WEIGHT, and its lead over the best other seat as
        lead / (|lead| + scale), which tells a larger lead from a smaller one however large, so
        a seat far ahead still plays on. At the end of the match the reward fades toward ½ by
        DISCOUNT an action: a win sooner beats the same win later (a bot sure to win whatever
        it does would otherwise never get round to winning)."""
        scale = self.budget.scale
        finished = state["status"] == FINISHED
        if finished:
            result = self.game.result(state)
            totals = [p["total"] for p in result["players"]]
            me = result["players"][self.seat]
            win = 1 / len(result["winners"]) if me["rank"] == 1 else 0.0
        else:
            totals = self.rules.evaluate(self.game, state)
        lead = totals[self.seat] - max((t for s, t in enumerate(totals) if s != self.seat),
                                       default=0)
        if not finished:
            win = logistic(lead / scale)
        value = WIN_WEIGHT * win + (1 - WIN_WEIGHT) * (0.5 + 0.5 * lead / (abs(lead) + scale))
        return 0.5 + (value - 0.5) * DISCOUNT ** actions if finished else value
