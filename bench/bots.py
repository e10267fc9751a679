"""Bots: how fast the engines and the simulations play, how well processes share the work, and
how strong the bots are.

1. Speed, one core: random playouts of every game through the bare engine (`play_out`) and
   through a simulation (`scoring.bots.simulations.play`, what `simulate` records), match by match
   in turns and timed in CPU seconds, so that other work on the machine weighs on both alike:
   actions/s of each and their ratio (goals: the engine at least 90,000 actions/s; a simulation
   at most 1.3 times slower). Then matches/s of each bot at a two-player table, and the CPU
   milliseconds the search bot thinks a move (mean and slowest).
2. Processes: what `flask simulate --jobs 1` and `--jobs 2` do with one study of greedy bots
   (`studies.run.run`: in this process, and on a local Dask cluster of 2 single-threaded
   workers), twice each in turns, the best of each (goal: 2 jobs at least 1.7 times as many
   matches/s as 1), with the load average, since other work on the cores makes the goal
   unreachable. The run's time includes the cluster's start-up and shut-down, which a user of
   `simulate --jobs 2` waits for too: half a second to a second (more the first time, which
   imports distributed). Hence 600 matches, some 13 s on one process: at 150 (3 s) that cost
   alone held 2 jobs near 1.3 times 1 on an idle machine. The records of both runs must be the
   same, row for row.
3. Strength, on every core through the same path (`studies.run.run` with --jobs workers, Dask
   beyond one), judged on the lower bound of each 95% Wilson interval (a shared win counts as
   its share): two-player matches, each deal played twice with the bots in swapped seats (one
   study, an arm for each seating), greedy against random (goal: at least 0.75) and the search
   bot at its default budget against greedy (goal: at least 0.60); Dig It Up's 4- and 5-player
   table, one search bot against greedy bots, the search bot's seat going round the table (an
   arm for each of its seats, on the same deals; --table-matches is rounded up to a multiple of
   the table's size) (goal: above the fair share 1/n, what a bot no better than the others
   would win); the length of DIG between greedy bots (goal: under 300 actions on average).
   Matches/s there include each study's cluster start-up.

Progress goes to stderr as it is made. Exits 1 when a goal is missed.

Run: .venv/bin/python bench/bots.py [--matches 600] [--table-matches 200] [--jobs N]
     [--process-matches 600]
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

from scoring.bots import make, play_bot_turns  # noqa: E402
from scoring.bots.simulations import Table, match_seed, play, wilson  # noqa: E402
from scoring.engine import play_out  # noqa: E402
from scoring.games import GAMES  # noqa: E402
from studies.play import Row  # noqa: E402
from studies.run import Outcome, run  # noqa: E402
from studies.study import Arm, Study  # noqa: E402

ACTIONS_GOAL = 90_000
SIMULATION_GOAL = 1.3  # a random simulation's time per action against the engine's, at most
PROCESSES_GOAL = 1.7  # 2 processes' matches/s against 1's, at least
STRENGTH_GOALS = {("greedy", "random"): 0.75, ("mcts", "greedy"): 0.60}
DIG_LENGTH_GOAL = 300
TABLE = ("dig-it-up", "standard", (4, 5))  # the game, variant and sizes of the larger tables
BOTS = ("random", "greedy", "mcts")
SEED = 1000


def two_player_table(game) -> str:
    """The variant a two-player match is played with (the default where it seats two)."""
    return next(v for v, n in sorted(game.tables(), key=lambda t: t[0] != game.default_variant)
                if n == 2)


def bar(total: int, unit: str, desc: str) -> tqdm:
    return tqdm(total=total, unit=unit, desc=desc, file=sys.stderr, leave=False)


# --- 1. speed ---------------------------------------------------------------------------------

def random_playouts(seconds: float, rounds: int = 6) -> list[bool]:
    """The engine's random playouts and a simulation's, match by match in turns on the same
    seeds (each plays its own match: a simulation's bots draw from their own generators), at
    each game's first table, in `rounds` runs. The engine's speed is its best run (as timeit
    takes the best: a burst of other work spoils a run, not the figure); the ratio is of the
    CPU time per action over all runs, which such a burst weighs on alike."""
    print(f"Random playouts, one core, {seconds:.0f} CPU s a game in {rounds} runs: the bare "
          f"engine (play_out) and a simulation (simulate's records), match by match in turns")
    print(f"{'game':<20}{'variant':<10}{'players':>8}{'engine actions/s':>18}{'(median)':>10}"
          f"{'simulation':>12}{'ratio':>7}{'actions/match':>15}   goals")
    met = []
    clock = time.process_time
    for game_id, game in GAMES.items():
        variant, n = game.tables()[0]
        names = [f"random {seat + 1}" for seat in range(n)]
        table = Table(game, variant, ("random",) * n)
        actions, spent, runs = [0, 0], [0.0, 0.0], []
        index = 0
        with bar(rounds, "run", f"playouts {game_id}") as progress:
            for _ in range(rounds):
                run_actions, run_spent = 0, 0.0
                while run_spent < seconds / rounds / 2:
                    index += 1
                    seed = match_seed(SEED, index)
                    started = clock()
                    _, history = play_out(game, names, seed, variant, bot_seed=seed)
                    between = clock()
                    length = play(table, seed)["length"]
                    ended = clock()
                    run_actions += len(history)
                    run_spent += between - started
                    actions[1] += length
                    spent[1] += ended - between
                actions[0] += run_actions
                spent[0] += run_spent
                runs.append(run_actions / run_spent)
                progress.update()
        engine, simulation = max(runs), actions[1] / spent[1]
        ratio = (actions[0] / spent[0]) / simulation
        met += [engine >= ACTIONS_GOAL, ratio <= SIMULATION_GOAL]
        verdict = "; ".join(
            f"{what}: {'met' if ok else 'MISSED'}" for what, ok in (
                (f"engine >= {ACTIONS_GOAL:,}", met[-2]),
                (f"ratio <= {SIMULATION_GOAL}", met[-1])))
        print(f"{game_id:<20}{variant:<10}{n:>8}{engine:>18,.0f}{statistics.median(runs):>10,.0f}"
              f"{simulation:>12,.0f}{ratio:>7.2f}{sum(actions) / index / 2:>15.1f}   {verdict}")
    return met


class Stopwatch:
    """Wraps a bot's `choose`: the CPU time of each move it thinks about (one legal action
    is no thought)."""

    def __init__(self, bot) -> None:
        self.choose, self.moves = bot.choose, []
        bot.choose = self

    def __call__(self, view, legal):
        started = time.process_time()
        action = self.choose(view, legal)
        if len(legal) > 1:
            self.moves.append(time.process_time() - started)
        return action


def bot_speed(matches: int) -> None:
    search = max(2, matches // 10)
    print(f"\nBots, one core: matches/s at a two-player table, the bot in both seats ({matches} "
          f"matches each, {search} for the search bot), and the search bot's CPU ms a move")
    print(f"{'game':<20}{'variant':<12}" + "".join(f"{bot:>10}" for bot in BOTS)
          + f"{'ms/move':>10}{'slowest':>9}")
    with bar(len(GAMES) * (2 * matches + search), "match", "bots") as progress:
        for game_id, game in GAMES.items():
            variant = two_player_table(game)
            rates, watches = [], []
            for bot in BOTS:
                count = matches if bot != "mcts" else search
                started = time.perf_counter()
                for i in range(count):
                    seed = match_seed(7, i)
                    state = game.setup(["a", "b"], seed, variant)
                    players = {seat: make(game, bot, seat, seed) for seat in (0, 1)}
                    if bot == "mcts":
                        watches += [Stopwatch(p) for p in players.values()]
                    play_bot_turns(game, state, players)
                    progress.update()
                rates.append(count / (time.perf_counter() - started))
            moves = [t for watch in watches for t in watch.moves]
            print(f"{game_id:<20}{variant:<12}" + "".join(f"{r:>10.1f}" for r in rates)
                  + f"{statistics.fmean(moves) * 1000:>10.1f}{max(moves) * 1000:>9.0f}")


# --- 2. processes ----------------------------------------------------------------------------

def run_study(study: Study, jobs: int, on_match) -> Outcome:
    """The study played as `flask simulate --jobs N` plays it (here when 1, else on a local Dask
    cluster of `jobs` workers), each match's rows handed to `on_match`; a stop (Ctrl-C) ends
    the bench."""
    outcome = run(study, jobs=jobs, on_match=on_match, progress=False)
    if outcome.stopped is not None:
        raise SystemExit(128 + outcome.stopped.signum)
    return outcome


def processes(matches: int) -> list[bool]:
    """Matches/s of one study run with jobs 1 and with jobs 2, twice each in turns, the best
    of each, timed as the run times itself (the cluster's start-up included)."""
    study = Study("dig-it-up", SEED, matches, (Arm("base", "standard", ("greedy",) * 4),))
    print(f"\nProcesses: {matches} matches of greedy bots (Dig It Up, standard, 4 players) run as "
          f"simulate --jobs 1 and --jobs 2 run them (in process; a local Dask cluster, its "
          f"start-up counted), twice each in turns, the best of each; load average before "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    rates: dict[int, list[float]] = {1: [], 2: []}
    runs: list[list[list[Row]]] = []  # each run's rows, match by match

    with bar(4 * matches, "match", "processes") as progress:
        def keep(rows: list[Row]) -> None:
            runs[-1].append(rows)
            progress.update()

        for jobs in (1, 2, 1, 2):
            runs.append([])
            outcome = run_study(study, jobs, keep)
            rates[jobs].append(outcome.played / outcome.elapsed)
    one, two = max(rates[1]), max(rates[2])
    met = [two / one >= PROCESSES_GOAL, all(played == runs[0] for played in runs)]
    print(f"jobs 1 {one:.1f} matches/s, jobs 2 {two:.1f}: {two / one:.2f} times "
          f"(load average after {os.getloadavg()[0]:.1f}); "
          f"at least {PROCESSES_GOAL} on an idle machine: {'met' if met[0] else 'MISSED'}")
    if not met[1]:
        print("The records of jobs 1 and jobs 2 differ: MISSED")
    return met


# --- 3. strength ------------------------------------------------------------------------------

def duel(game_id: str, variant: str, first: str, second: str, matches: int, jobs: int,
         progress: tqdm) -> tuple[float, int, list[int], float]:
    """`first` against `second` over `matches` matches, half with each in seat 0 on the same
    deals (one study, an arm for each seating): its win share, the matches, their lengths and
    the run's time."""
    progress.set_postfix_str(f"{game_id}: {first} vs {second}")
    study = Study(game_id, SEED, matches // 2,
                  (Arm(f"{first} first", variant, (first, second)),
                   Arm(f"{second} first", variant, (second, first))))
    share, lengths = 0.0, []

    def count(rows: list[Row]) -> None:
        nonlocal share
        for row in rows:
            if row["seat"] == row["arm"]:  # the first bot: seat 0 in arm 0, seat 1 in arm 1
                share += row["won"] / row["winners"]
                lengths.append(row["length"])
        progress.update(len(study.arms))

    outcome = run_study(study, jobs, count)
    return share, len(lengths), lengths, outcome.elapsed


def round_the_table(game_id: str, variant: str, n: int, matches: int, jobs: int,
                    progress: tqdm) -> tuple[float, int, float]:
    """One search bot against greedy bots at a table of `n`, its seat going round (an arm for
    each of its seats, on the same deals): its win share, the matches and the run's time."""
    progress.set_postfix_str(f"{game_id}: mcts vs {n - 1} greedy")
    arms = tuple(Arm(f"mcts in seat {seat + 1}", variant,
                     tuple("mcts" if s == seat else "greedy" for s in range(n)))
                 for seat in range(n))
    study = Study(game_id, SEED + n, -(-matches // n), arms)
    share, count = 0.0, 0

    def tally(rows: list[Row]) -> None:
        nonlocal share, count
        for row in rows:
            if row["seat"] == row["arm"]:  # the search bot's seat in that arm
                share += row["won"] / row["winners"]
                count += 1
        progress.update(n)

    outcome = run_study(study, jobs, tally)
    return share, count, outcome.elapsed


def strength(matches: int, table_matches: int, jobs: int) -> list[bool]:
    pairs = [*STRENGTH_GOALS, ("greedy", "greedy")]
    big_game, big_variant, sizes = TABLE
    total = 2 * (matches // 2) * (len(pairs) * len(GAMES) - (len(GAMES) - 1)) + \
        sum(n * -(-table_matches // n) for n in sizes)
    met, rows, tables = [], [], []
    with bar(total, "match", "strength") as progress:
        for game_id, game in GAMES.items():
            variant = two_player_table(game)
            for first, second in pairs:
                if (first, second) == ("greedy", "greedy") and game_id != "dig":
                    continue
                rows.append((game_id, variant, first, second,
                             *duel(game_id, variant, first, second, matches, jobs, progress)))
        for n in sizes:
            tables.append((n, *round_the_table(big_game, big_variant, n, table_matches, jobs,
                                               progress)))
    print(f"\nStrength: two-player matches on {jobs} processes, each deal played twice with the "
          "bots in swapped seats; win share of the first bot with its 95% Wilson interval, "
          "judged on its lower bound")
    print(f"{'game':<19}{'variant':<11}{'match-up':<17}{'matches':>8}{'win share [95%]':>24}"
          f"{'actions/match':>15}{'matches/s':>10}   goal")
    for game_id, variant, first, second, share, n, lengths, wall in rows:
        low, high = wilson(share, n)
        goal = STRENGTH_GOALS.get((first, second))
        mean = statistics.fmean(lengths)
        if goal is not None:
            ok = low >= goal
            verdict = f"lower bound >= {goal:.2f}: {'met' if ok else 'MISSED'}"
        else:
            half = 1.96 * statistics.stdev(lengths) / math.sqrt(len(lengths))
            ok = mean < DIG_LENGTH_GOAL
            verdict = f"{mean:.1f} ± {half:.1f} actions < {DIG_LENGTH_GOAL}: " \
                      f"{'met' if ok else 'MISSED'}"
        met.append(ok)
        print(f"{game_id:<19}{variant:<11}{first + ' vs ' + second:<17}{n:>8}"
              f"{share / n:>9.3f} [{low:.3f}, {high:.3f}]{mean:>15.1f}{n / wall:>10.1f}   "
              f"{verdict}")
    print(f"\n{GAMES[big_game].name} ({big_variant}): one search bot against greedy bots, its "
          "seat going round the table; its win share with its 95% Wilson interval, whose lower "
          "bound must pass the fair share 1/n")
    for n, share, count, wall in tables:
        low, high = wilson(share, count)
        met.append(low > 1 / n)
        verdict = f"lower bound > fair share {1 / n:.2f}: {'met' if met[-1] else 'MISSED'}"
        print(f"{n} players: mcts vs {n - 1} greedy{count:>8}{share / count:>9.3f} "
              f"[{low:.3f}, {high:.3f}]{count / wall:>10.1f} matches/s   {verdict}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=600,
                        help="matches per two-player match-up")
    parser.add_argument("--table-matches", type=int, default=200,
                        help="matches at each of Dig It Up's larger tables")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--speed-seconds", type=float, default=4.0,
                        help="CPU seconds of random playouts per game")
    parser.add_argument("--process-matches", type=int, default=600,
                        help="matches of the study timed with jobs 1 and with jobs 2")
    args = parser.parse_args()
    started = time.perf_counter()
    met = random_playouts(args.speed_seconds)
    bot_speed(40)
    met += processes(args.process_matches)
    met += strength(args.matches, args.table_matches, args.jobs)
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    sys.exit(0 if all(met) else 1)


if __name__ == "__main__":
    main()
