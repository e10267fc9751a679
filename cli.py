"""Commands: `flask --app app simulate GAME` plays bots against each other in-process, on as many
processes as asked, and prints what a designer studying balance reads: win shares by seat with
95% intervals, scores, match lengths and the game's own figures (README "Bots and
simulations"). `flask --app app prune` removes the matches retention lets go (README
"Retention")."""

from __future__ import annotations

import csv
import io
import json
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import click
from alembic.util import CommandError
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy.exc import SQLAlchemyError
from tqdm import tqdm

from scoring.bots import kinds
from scoring.bots.boxes import BoxError, boxed, boxed_by_id
from scoring.bots.simulations import Table, play_batch, summary
from scoring.engine import Game
from scoring.games import GAMES
from service import idempotency, migrate, settings, storage, tallies
from service.settings import FINISHED_DAYS, IDLE_DAYS, whole_days
from service.store import TOMBSTONE_DAYS

ALL = "all"


def tables(game: Game, variant: str | None, players: str | None) -> list[tuple[str, int]]:
    """The (variant, player count) tables a run plays: one, or a sweep over `all`."""
    variants = list(game.variants) if variant == ALL else [variant or game.default_variant]
    for name in variants:
        if name not in game.variants:
            raise click.BadParameter(f"{game.name} has no variant {name!r}; choose one of "
                                     f"{', '.join(game.variants)} or all.",
                                     param_hint="'--variant'")
    chosen = []
    for name in variants:
        sizes = [n for v, n in game.tables() if v == name]
        if players == ALL:
            chosen += [(name, n) for n in sizes]
        elif players is None:
            chosen.append((name, sizes[0]))
        elif not players.isdigit() or int(players) not in sizes:
            if variant != ALL:
                raise click.BadParameter(f"{name} is played by {sizes[0]} to {sizes[-1]} "
                                         "players, or all.", param_hint="'--players'")
        else:
            chosen.append((name, int(players)))
    if not chosen:
        raise click.BadParameter(f"No variant of {game.name} is played by {players} players.",
                                 param_hint="'--players'")
    return chosen


def seat_bots(names: str, seats: int) -> tuple[str, ...]:
    """One bot per seat from `--bots`: the list as given, its last bot filling the seats left."""
    bots = [b.strip() for b in names.split(",") if b.strip()]
    unknown = [b for b in bots if b not in kinds()]
    if not bots or unknown:
        raise click.BadParameter(f"{', '.join(unknown) or 'none'}: choose bots among "
                                 f"{', '.join(kinds())}.", param_hint="'--bots'")
    if len(bots) > seats:
        raise click.BadParameter(f"{len(bots)} bots for {seats} seats.", param_hint="'--bots'")
    return tuple(bots + [bots[-1]] * (seats - len(bots)))


# Each worker process plays in the game as the run changed it (a box file), kept for its life.
_worker: dict[str, Any] = {}


def _start_worker(game_id: str, box: dict | None) -> None:
    _worker["game"] = GAMES[game_id] if box is None else boxed_by_id(game_id, box)


def _work(variant: str, bots: tuple[str, ...], budget: dict, seed: int,
          indices: list[int]) -> tuple[list[int], list[dict]]:
    table = Table(_worker["game"], variant, bots, budget=budget)
    return indices, play_batch(table, seed, indices)


def run(game: Game, table: Table, seed: int, matches: int, jobs: int, box: dict | None,
        progress: tqdm) -> list[dict]:
    """The batch's records in match order, played here or on `jobs` processes."""
    if jobs == 1:
        records = []
        for i in range(matches):
            records += play_batch(table, seed, [i])
            progress.update(1)
        return records
    # Small chunks keep the processes evenly busy to the end and the progress bar moving.
    size = max(1, min(25, matches // (jobs * 8)))
    chunks = [list(range(i, min(i + size, matches))) for i in range(0, matches, size)]
    played: dict[int, dict] = {}
    with ProcessPoolExecutor(jobs, initializer=_start_worker,
                             initargs=(game.id, box)) as pool:
        futures = [pool.submit(_work, table.variant, table.bots, table.budget, seed, chunk)
                   for chunk in chunks]
        for future in as_completed(futures):
            indices, records = future.result()
            played.update(zip(indices, records, strict=True))
            progress.update(len(indices))
    return [played[i] for i in range(matches)]


def text_report(game: Game, summary_: dict, elapsed: float, jobs: int) -> str:
    seats = summary_["seats"]
    lines = [f"{game.name} ({summary_['variant']}, {len(seats)} players): "
             f"{summary_['matches']} matches in {elapsed:.2f} s = "
             f"{summary_['matches'] / elapsed:.1f} matches/s on {jobs} "
             f"process{'es' if jobs > 1 else ''}",
             f"{'seat':<5}{'bot':<8}{'wins':>6}{'shared':>8}{'win share [95%]':>24}"
             f"{'score mean':>12}{'stdev':>7}{'min':>6}{'max':>6}"]
    for s in seats:
        share, score = s["win_share"], s["score"]
        lines.append(f"{s['seat']:<5}{s['bot']:<8}{s['wins']:>6}{s['shared_wins']:>8}"
                     f"{share['value']:>9.3f} [{share['low']:.3f}, {share['high']:.3f}]"
                     f"{score['mean']:>12.1f}{score['stdev']:>7.1f}{score['min']:>6}"
                     f"{score['max']:>6}")
    length = summary_["length"]
    lines.append(f"actions per match: mean {length['mean']:.1f}, stdev {length['stdev']:.1f}, "
                 f"min {length['min']}, max {length['max']}")
    lines.append("per match: " + ", ".join(f"{k.replace('_', ' ')} {v:.2f}"
                                           for k, v in summary_["figures"].items()))
    return "\n".join(lines)


def csv_report(runs: list[dict]) -> str:
    """One row a match, for every table of the run."""
    out = io.StringIO()
    figures = list(runs[0]["matches"][0]["figures"])
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["variant", "players", "match", "seed", "bots", "scores", "winners",
                     "length", *figures])
    for one in runs:
        for i, r in enumerate(one["matches"]):
            writer.writerow([one["summary"]["variant"], len(r["bots"]), i, r["seed"],
                             ";".join(r["bots"]), ";".join(map(str, r["scores"])),
                             ";".join(map(str, r["winners"])), r["length"],
                             *(r["figures"][k] for k in figures)])
    return out.getvalue().rstrip("\n")


def read_box(path: str | None) -> dict | None:
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except OSError as exc:
        raise click.BadParameter(f"cannot read {path}: {exc.strerror}.",
                                 param_hint="'--box'") from exc
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"{path} is not JSON: {exc.msg} at line {exc.lineno}, "
                                 f"column {exc.colno}.", param_hint="'--box'") from exc


@click.command("simulate")
@click.argument("game_id", metavar="GAME", type=click.Choice(list(GAMES)))
@click.option("--matches", default=200, show_default=True, type=click.IntRange(1),
              help="Matches per table.")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0),
              help="The run's seed: each match's seed is drawn from it and the match's number.")
@click.option("--bots", default="random", show_default=True,
              help=f"One bot per seat, comma-separated, among {', '.join(kinds())}; the last "
                   "fills the seats left.")
@click.option("--players", default=None,
              help="Players per match, or 'all' (default: the smallest table of the variant).")
@click.option("--variant", default=None, help="Variant, or 'all' (default: the game's default).")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(1),
              help="Processes to play on.")
@click.option("--format", "output", default="text", show_default=True,
              type=click.Choice(["text", "json", "csv"]), help="What to print.")
@click.option("--box", "box_file", default=None, metavar="FILE.json",
              help="Box constants to change for the run (README), e.g. {\"SET_TABLE\": ...}.")
@click.option("--playouts", default=None, type=click.IntRange(1),
              help="The search bot's playouts per move (default: the game's).")
@click.option("--think-ms", default=None, type=click.FloatRange(min=0, min_open=True),
              help="The search bot's time per move in milliseconds, instead of playouts "
                   "(results then depend on the machine).")
def simulate(game_id: str, matches: int, seed: int, bots: str, players: str | None,
             variant: str | None, jobs: int, output: str, box_file: str | None,
             playouts: int | None, think_ms: float | None) -> None:
    """Play bots against each other and report, per seat, wins and win share with a 95%
    interval, scores, match length and the game's own figures. The progress bar goes to
    stderr; the report to stdout."""
    box = read_box(box_file)
    budget = {k: v for k, v in (("playouts", playouts), ("ms", think_ms)) if v is not None}
    game = GAMES[game_id]
    if box is not None:
        try:
            game = boxed(game, box)
        except BoxError as exc:
            raise click.BadParameter("\n  " + "\n  ".join(exc.problems),
                                     param_hint="'--box'") from exc
    chosen = [Table(game, v, seat_bots(bots, n), budget=budget)
              for v, n in tables(game, variant, players)]
    runs = []
    with tqdm(total=matches * len(chosen), desc=game_id, unit="match") as progress:
        for table in chosen:
            progress.set_postfix_str(f"{table.variant}, {len(table.bots)} players")
            started = time.perf_counter()
            records = run(game, table, seed, matches, jobs, box, progress)
            elapsed = time.perf_counter() - started
            runs.append({"summary": summary(table, records), "matches": records,
                         "elapsed": elapsed})
    if output == "csv":
        click.echo(csv_report(runs))
    elif output == "json":
        shaped = [{"summary": r["summary"], "matches": r["matches"]} for r in runs]
        click.echo(json.dumps(shaped[0] if len(shaped) == 1 else {"tables": shaped}))
    else:
        click.echo("\n\n".join(text_report(game, r["summary"], r["elapsed"], jobs)
                               for r in runs))


class Days(click.ParamType):
    """A number of days to keep matches: a whole number, 1 or more."""

    name = "days"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        try:
            return whole_days(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def counted(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


@click.command("prune")
@click.option("--idle-days", type=Days(), default=None,
              help=f"Remove the unfinished matches nobody has touched for this many days "
                   f"(default: DIGSITE_IDLE_DAYS, else {IDLE_DAYS}).")
@click.option("--finished-days", type=Days(), default=None,
              help=f"Remove the finished matches kept this many days since they ended "
                   f"(default: DIGSITE_FINISHED_DAYS, else {FINISHED_DAYS}).")
@click.option("--format", "output", default="text", show_default=True,
              type=click.Choice(["text", "json"]), help="What to print.")
@with_appcontext
def prune(idle_days: int | None, finished_days: int | None, output: str) -> None:
    """Remove expired matches with their logs, each leaving a tombstone so that its address
    answers 410 Gone, and the tombstones a year old; print how many of each went."""
    if idle_days is None:
        idle_days = settings().digsite_idle_days
    if finished_days is None:
        finished_days = settings().digsite_finished_days
    try:
        pruned = storage().prune(idle_days, finished_days)
        shared = tallies().prune(finished_days)
        idempotency().prune()  # keys past their 24 hours: nothing anyone can ask for any more
    except SQLAlchemyError as exc:
        # Each batch commits whole or not at all: the batches before the failure stay done,
        # and the next prune takes up the rest.
        reason = str(exc).splitlines()[0]
        raise click.ClickException(f"The database failed while pruning: {reason}") from exc
    if output == "json":
        click.echo(json.dumps({"idle": pruned.idle, "idle_days": idle_days,
                               "finished": pruned.finished, "finished_days": finished_days,
                               "log_entries": pruned.log_entries,
                               "tombstones": pruned.tombstones,
                               "tombstone_days": TOMBSTONE_DAYS, "tallies": shared}))
        return
    click.echo(f"Removed {counted(pruned.idle, 'idle match', 'idle matches')} (no move for "
               f"{counted(idle_days, 'day', 'days')}) and "
               f"{counted(pruned.finished, 'finished match', 'finished matches')} (kept "
               f"{counted(finished_days, 'day', 'days')}), with "
               f"{counted(pruned.log_entries, 'log entry', 'log entries')}.\n"
               f"Removed {counted(pruned.tombstones, 'tombstone', 'tombstones')} of matches "
               f"removed over {TOMBSTONE_DAYS} days ago.\n"
               f"Removed {counted(shared, 'shared tally', 'shared tallies')} unchanged for "
               f"{counted(finished_days, 'day', 'days')}.")


@click.group("db")
def db() -> None:
    """The database's schema: every start brings it to the newest revision by itself."""


@db.command("current")
@with_appcontext
def db_current() -> None:
    """Print the schema's revision and the newest one this release knows."""
    click.echo(f"at {migrate.current(storage().engine)}; newest {migrate.head()}")


@db.command("downgrade")
@click.argument("revision")
@with_appcontext
def db_downgrade(revision: str) -> None:
    """Take the schema back to REVISION, before rolling back to the release that made it (this
    release's next start would bring it up again)."""
    try:
        migrate.downgrade(storage().engine, revision)
    except (CommandError, SQLAlchemyError) as exc:
        raise click.ClickException(str(exc).splitlines()[0]) from exc
    click.echo(f"at {migrate.current(storage().engine)}")


def init_app(app: Flask) -> None:
    app.cli.add_command(simulate)
    app.cli.add_command(prune)
    app.cli.add_command(db)
