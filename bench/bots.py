"""Bots: how strong they are and how fast the engines play.

1. Speed, one core: random playouts of every game (actions/s and matches/s, the engines' own
   speed; goal: at least 90,000 actions/s), then matches/s of each bot at a two-player table.
2. Strength, two-player matches on every core, the bots changing seats every other match, win
   shares with 95% Wilson intervals (a shared win counts half): greedy against random (goal: at
   least 0.75), the search bot at its default budget against greedy (goal: at least 0.60), and
   the length of DIG between greedy bots (goal: under 300 actions on average).

Exits 1 when a goal is missed.

Run: .venv/bin/python bench/bots.py [--matches 500] [--jobs N] [--speed-seconds 3]
"""

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cli import run  # noqa: E402
from scoring.bots.simulations import Table, play_batch, wilson  # noqa: E402
from scoring.engine import play_out  # noqa: E402
from scoring.games import GAMES  # noqa: E402

ACTIONS_GOAL = 90_000
STRENGTH_GOALS = {("greedy", "random"): 0.75, ("mcts", "greedy"): 0.60}
DIG_LENGTH_GOAL = 300
BOTS = ("random", "greedy", "mcts")


def two_player_table(game) -> str:
    """The variant a two-player match is played with (the default where it seats two)."""
    return next(v for v, n in sorted(game.tables(), key=lambda t: t[0] != game.default_variant)
                if n == 2)


def random_playouts(seconds: float, rounds: int = 6) -> list[bool]:
    """Each game's random playouts in `rounds` short runs, the games taking turns, so that a burst
    of other work on the machine spoils a run or two, not a game's figure: the best run is the
    engine's speed (as timeit takes the best), the median says how steady the machine was."""
    print(f"Random playouts, one core ({seconds:.0f} s a game in {rounds} runs, the games taking "
          f"turns; goal {ACTIONS_GOAL:,} actions/s in the best run)")
    runs: dict[str, list[tuple[float, float, float]]] = {game_id: [] for game_id in GAMES}
    seeds = {game_id: 0 for game_id in GAMES}
    for _ in range(rounds):
        for game_id, game in GAMES.items():
            variant, n = game.tables()[0]
            names = [f"p{i}" for i in range(n)]
            actions = matches = 0
            started = time.perf_counter()
            while time.perf_counter() - started < seconds / rounds:
                seed = seeds[game_id] = seeds[game_id] + 1
                _, history = play_out(game, names, seed, variant, bot_seed=seed)
                actions += len(history)
                matches += 1
            elapsed = time.perf_counter() - started
            runs[game_id].append((actions / elapsed, matches / elapsed, actions / matches))
    print(f"{'game':<20}{'variant':<12}{'players':>8}{'actions/s':>12}{'(median)':>10}"
          f"{'matches/s':>11}{'actions/match':>15}")
    met = []
    for game_id, game in GAMES.items():
        variant, n = game.tables()[0]
        best = max(runs[game_id])
        median = statistics.median(rate for rate, _, _ in runs[game_id])
        met.append(best[0] >= ACTIONS_GOAL)
        print(f"{game_id:<20}{variant:<12}{n:>8}{best[0]:>12,.0f}{median:>10,.0f}"
              f"{best[1]:>11.1f}{best[2]:>15.1f}{'' if met[-1] else '  below the goal'}")
    return met


def bot_speed(matches: int) -> None:
    print(f"\nBots, one core: matches/s at a two-player table, the bot in both seats "
          f"({matches} matches each, fewer for the search bot)")
    print(f"{'game':<20}{'variant':<12}" + "".join(f"{bot:>12}" for bot in BOTS))
    for game_id, game in GAMES.items():
        variant = two_player_table(game)
        rates = []
        for bot in BOTS:
            count = matches if bot != "mcts" else max(2, matches // 20)
            started = time.perf_counter()
            play_batch(Table(game, variant, (bot, bot)), 7, range(count))
            rates.append(count / (time.perf_counter() - started))
        print(f"{game_id:<20}{variant:<12}" + "".join(f"{r:>12.1f}" for r in rates))


def duel(game, variant: str, first: str, second: str, matches: int, jobs: int,
         progress: tqdm) -> tuple[float, int, list[int], float]:
    """`first` against `second` over `matches` matches, half with each in seat 0 on the same
    deals: its win share, the matches, their lengths and the wall time."""
    started = time.perf_counter()
    share, lengths = 0.0, []
    for seat, bots in enumerate(((first, second), (second, first))):
        progress.set_postfix_str(f"{game.id}: {first} vs {second}")
        half = matches // 2 + (matches % 2 if seat == 0 else 0)
        records = run(game, Table(game, variant, bots), 1000, half, jobs, None, progress)
        for record in records:
            if seat in record["winners"]:
                share += 1 / len(record["winners"])
            lengths.append(record["length"])
    return share, matches, lengths, time.perf_counter() - started


def strength(matches: int, jobs: int) -> list[bool]:
    pairs = [*STRENGTH_GOALS, ("greedy", "greedy")]
    met = []
    rows = []
    with tqdm(total=matches * len(pairs) * len(GAMES), unit="match", desc="strength") as bar:
        for game_id, game in GAMES.items():
            variant = two_player_table(game)
            for first, second in pairs:
                if (first, second) == ("greedy", "greedy") and game_id != "dig":
                    bar.update(matches)
                    continue
                rows.append((game_id, variant, first, second,
                             *duel(game, variant, first, second, matches, jobs, bar)))
    print(f"\nStrength: two-player matches on {jobs} processes, each deal played twice with the "
          "bots in swapped seats; win share of the first bot with its 95% Wilson interval")
    print(f"{'game':<19}{'variant':<9}{'match-up':<17}{'matches':>8}{'win share [95%]':>24}"
          f"{'actions/match':>15}{'matches/s':>10}   goal")
    for game_id, variant, first, second, share, n, lengths, wall in rows:
        low, high = wilson(share, n)
        goal = STRENGTH_GOALS.get((first, second))
        mean = statistics.fmean(lengths)
        if goal is not None:
            met.append(share / n >= goal)
            verdict = f"win share >= {goal:.2f}"
        else:
            half = 1.96 * statistics.stdev(lengths) / math.sqrt(len(lengths))
            met.append(mean < DIG_LENGTH_GOAL)
            verdict = f"{mean:.1f} ± {half:.1f} actions < {DIG_LENGTH_GOAL}"
        print(f"{game_id:<19}{variant:<9}{first + ' vs ' + second:<17}{n:>8}"
              f"{share / n:>9.3f} [{low:.3f}, {high:.3f}]{mean:>15.1f}{n / wall:>10.1f}   "
              f"{verdict}: {'met' if met[-1] else 'MISSED'}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=500, help="matches per match-up")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--speed-seconds", type=float, default=3.0)
    args = parser.parse_args()
    met = random_playouts(args.speed_seconds)
    bot_speed(40)
    met += strength(args.matches, args.jobs)
    sys.exit(0 if all(met) else 1)


if __name__ == "__main__":
    main()
