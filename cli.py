"""Commands: `flask --app app simulate GAME` plays random bots in-process."""

import statistics
import time

import click
from flask import Flask
from tqdm import tqdm

from scoring.engine import play_out
from scoring.games import GAMES


@click.command("simulate")
@click.argument("game_id", metavar="GAME", type=click.Choice(list(GAMES)))
@click.option("--matches", default=200, show_default=True, type=click.IntRange(1),
              help="How many matches to play.")
@click.option("--seed", default=1, show_default=True, type=int,
              help="First seed; match i uses seed + i.")
@click.option("--players", default=None, type=click.IntRange(1),
              help="Players per match (default: the smallest table of the variant).")
@click.option("--variant", default=None, help="Variant (default: the game's default).")
def simulate(game_id: str, matches: int, seed: int, players: int | None,
             variant: str | None) -> None:
    """Play random bots against each other and report speed, length and score spread."""
    game = GAMES[game_id]
    variant = variant or game.default_variant
    if variant not in game.variants:
        raise click.BadParameter(f"choose one of {', '.join(game.variants)}", param_hint="variant")
    sizes = [n for v, n in game.tables() if v == variant]
    count = players or sizes[0]
    if count not in sizes:
        raise click.BadParameter(f"{variant} is played by {sizes[0]} to {sizes[-1]} players",
                                 param_hint="players")
    names = [f"Bot {i + 1}" for i in range(count)]
    lengths, winning, margins, totals = [], [], [], []
    started = time.perf_counter()
    for i in tqdm(range(matches), desc=f"{game_id} ({variant}, {count} players)", unit="match"):
        state, history = play_out(game, names, seed + i, variant, bot_seed=seed + i)
        result = game.result(state)
        lengths.append(len(history))
        scores = sorted((p["total"] for p in result["players"]), reverse=True)
        winning.append(scores[0])
        margins.append(scores[0] - scores[1] if len(scores) > 1 else 0)
        totals.extend(scores)
    elapsed = time.perf_counter() - started
    click.echo(f"matches: {matches} in {elapsed:.2f} s = {matches / elapsed:.1f} matches/s")
    click.echo(f"actions per match: mean {statistics.mean(lengths):.1f}, "
               f"min {min(lengths)}, max {max(lengths)}")
    click.echo(f"scores: mean {statistics.mean(totals):.1f}, min {min(totals)}, "
               f"max {max(totals)}, stdev {statistics.pstdev(totals):.1f}")
    click.echo(f"winning score: mean {statistics.mean(winning):.1f}; "
               f"winning margin: mean {statistics.mean(margins):.1f}")


def init_app(app: Flask) -> None:
    app.cli.add_command(simulate)
