"""Simulations: many matches between bots, the record of each and the statistics of a batch, as
the `simulate` command and POST /games/{game}/simulations give them (API.md "Bots").

A batch is a list of matches numbered from 0; match i's seed is drawn from the batch's seed and
i alone (`match_seed`), so a batch can be split across processes in any way and gives the same
records, and batches with different seeds share no match. Each bot draws from its own generator,
seeded from its match's seed and its seat.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

from scoring.engine import Game

from . import bot_turns, derived_seed, make, module

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True)
class Table:
    """What every match of a batch shares: the game, the variant, one bot per seat, the names
    at the table and the search bot's budget."""

    game: Game
    variant: str
    bots: tuple[str, ...]
    names: tuple[str, ...] = ()
    budget: dict[str, Any] = field(default_factory=dict)

    @property
    def seat_names(self) -> list[str]:
        return list(self.names) or [seat_name(bot, seat) for seat, bot in enumerate(self.bots)]


def seat_name(bot: str, seat: int) -> str:
    """A bot's seat named by default: its bot and the seat counted from 1 ("greedy 2")."""
    return f"{bot} {seat + 1}"


def match_seed(batch_seed: int, index: int) -> int:
    """The seed of match `index` of the batch seeded `batch_seed`: 64 bits hashed from both."""
    return derived_seed("simulation", batch_seed, index)


def play(table: Table, seed: int) -> dict[str, Any]:
    """One match between the table's bots: its record."""
    game = table.game
    state = game.setup(table.seat_names, seed, table.variant)
    bots = {seat: make(game, name, seat, seed, **table.budget)
            for seat, name in enumerate(table.bots)}
    # Only the number of actions is kept: a simulation's match holds no log.
    length = sum(1 for _ in bot_turns(game, state, bots))
    result = game.result(state)
    return {"seed": seed, "bots": list(table.bots),
            "scores": [p["total"] for p in result["players"]],
            "winners": [seat for seat, p in enumerate(result["players"]) if p["rank"] == 1],
            "length": length,
            "figures": module(game).figures(game, state, result)}


def play_batch(table: Table, batch_seed: int, indices: range | list[int]) -> list[dict]:
    return [play(table, match_seed(batch_seed, i)) for i in indices]


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a share of `successes` in `n` (successes may be fractional:
    a shared win counts as its share). It holds the share and lies within [0, 1]: at a share
    of none or of all the formula's bound lands a rounding error inside it (2.8e-17 for 0 of
    7), so a seat that never won would have an interval that leaves out its own share."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if p <= 0 else max(0.0, min(centre - half, p))
    high = 1.0 if p >= 1 else min(1.0, max(centre + half, p))
    return low, high


def spread(values: list[float]) -> dict[str, float]:
    return {"mean": statistics.fmean(values),
            "stdev": statistics.stdev(values) if len(values) > 1 else 0.0,
            "min": min(values), "max": max(values)}


def summary(table: Table, records: list[dict]) -> dict[str, Any]:
    """The batch's statistics: per seat its sole wins, its shared wins apart, its share of the
    wins (a win shared by k seats counts 1/k) with a 95% Wilson interval and its score's spread;
    the match length; the game's own figures, each a mean per match."""
    n = len(records)
    seats = []
    for seat, (name, bot) in enumerate(zip(table.seat_names, table.bots, strict=True)):
        won = [r["winners"] for r in records if seat in r["winners"]]
        share = sum(1 / len(w) for w in won)
        low, high = wilson(share, n)
        seats.append({
            "seat": seat, "name": name, "bot": bot,
            "wins": sum(1 for w in won if len(w) == 1),
            "shared_wins": sum(1 for w in won if len(w) > 1),
            "win_share": {"value": share / n, "low": low, "high": high},
            "score": spread([r["scores"][seat] for r in records]),
        })
    lengths = [r["length"] for r in records]
    names = list(records[0]["figures"]) if records else []
    return {"matches": n, "variant": table.variant, "seats": seats,
            "length": spread(lengths),
            "figures": {k: statistics.fmean(r["figures"][k] for r in records) for k in names}}
