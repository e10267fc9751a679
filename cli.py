"""Commands: `flask --app app simulate GAME` plays bots against each other, here or on a Dask
cluster, one arm or several on the same deals, and prints what a designer studying balance
reads: win shares by seat with 95% intervals and a joint test, scores, ties, margins, match
lengths and the game's own figures, each arm's difference from the first; it streams the
records to a file and stops, resumes and shards (README "Bots and simulations", `studies/`).
`flask --app app studies …` merges shards and reports. `flask --app app prune` removes the
matches retention lets go (README "Retention")."""

from __future__ import annotations

import csv
import io
import itertools
import json
from pathlib import Path
from typing import Any

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy.exc import SQLAlchemyError

from api.schemas.matches import MAX_SEED
from api.schemas.words import listed
from scoring.bots import kinds
from scoring.bots.boxes import BoxError
from scoring.bots.simulations import Table, summary
from scoring.engine import Game
from scoring.games import GAMES
from service import (
    config_of,
    idempotency_keys,
    migrate,
    storage,
    study_service,
    tally_service,
)
from service.errors import Refused
from service.settings import FINISHED_DAYS, IDLE_DAYS, whole_days
from service.store import TOMBSTONE_DAYS
from service.work import SEARCH_BOT
from studies import commands as studies_commands
from studies import report as studies_report
from studies import run as studies_run
from studies.jobs import ClusterUnavailable
from studies.play import NoEnd
from studies.records import RecordsError, provenance, read_meta
from studies.runner import SCHEDULER_ENV
from studies.study import TWO_TO_COMPARE, Arm, Study, arm_game, box_key, played_before, stacked

ALL = "all"


def tables(game: Game, variant: str | None, players: str | None,
           seated: int = 1) -> list[tuple[str, int]]:
    """The (variant, player count) tables a run plays: one, or a sweep over `all`; with no
    `players` or `all`, those that seat the most bots an arm lists (`seated`), the smallest of a
    variant or all: `--bots greedy,random,random` alone plays three, not "3 bots for 2
    seats"."""
    variants = list(game.variants) if variant == ALL else [variant or game.default_variant]
    for name in variants:
        if name not in game.variants:
            raise click.BadParameter(f"{game.name} has no variant {name!r}; choose one of "
                                     f"{', '.join(game.variants)} or all.",
                                     param_hint="'--variant'")
    chosen = []
    for name in variants:
        sizes = [n for v, n in game.tables() if v == name]
        if players in (ALL, None):
            fits = [(name, n) for n in sizes if n >= seated]
            chosen += fits if players == ALL else fits[:1]
        elif not players.isdigit() or int(players) not in sizes:
            if variant != ALL:
                raise click.BadParameter(f"{name} is played by {sizes[0]} to {sizes[-1]} "
                                         "players, or all.", param_hint="'--players'")
        else:
            chosen.append((name, int(players)))
    if not chosen and players in (ALL, None):
        most = max(n for v, n in game.tables() if v in variants)
        raise click.BadParameter(f"{seated} bots listed, one a seat: {game.name} seats at most "
                                 f"{most} players.", param_hint="'--bots'")
    if not chosen:
        raise click.BadParameter(f"No variant of {game.name} is played by {players} players.",
                                 param_hint="'--players'")
    return chosen


def bot_list(names: str) -> list[str]:
    """The bots `--bots` (or an arm's bots=) lists, in order: "greedy, random" → both."""
    return [b.strip() for b in names.split(",") if b.strip()]


def seat_bots(names: str, seats: int, hint: str = "'--bots'") -> tuple[str, ...]:
    """One bot per seat from `--bots` (or an arm's bots=, `hint` naming where they were given):
    the list as given, its last bot filling the seats left."""
    bots = bot_list(names)
    if bots and len(bots) != len(names.split(",")):  # "greedy," played greedy alone, unsaid
        raise click.BadParameter(f"{names!r}: a bot's name is missing between its commas.",
                                 param_hint=hint)
    unknown = [b for b in bots if b not in kinds()]
    if not bots or unknown:
        raise click.BadParameter(f"{', '.join(unknown) or 'none'}: choose bots among "
                                 f"{', '.join(kinds())}.", param_hint=hint)
    if len(bots) > seats:
        raise click.BadParameter(f"{len(bots)} bots for {seats} seats.", param_hint=hint)
    return tuple(bots + [bots[-1]] * (seats - len(bots)))


def csv_report(runs: list[dict]) -> str:
    """One row a match, for every table (and arm) of the run."""
    out = io.StringIO()
    # a run stopped before its first match: the columns alone
    first = next((one["matches"][0] for one in runs if one["matches"]), {"figures": {}})
    figures = list(first["figures"])
    arms = any("arm" in one for one in runs)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*(["arm"] if arms else []), "variant", "players", "match", "seed", "bots",
                     "scores", "winners", "length", *figures])
    for one in runs:
        for i, r in enumerate(one["matches"]):
            writer.writerow([*([one["arm"]] if arms else []), one["summary"]["variant"],
                             len(r["bots"]), i, r["seed"], ";".join(r["bots"]),
                             ";".join(map(str, r["scores"])), ";".join(map(str, r["winners"])),
                             r["length"], *(r["figures"][k] for k in figures)])
    return out.getvalue().rstrip("\n")


def read_box(path: str | None, hint: str = "'--box'") -> dict | None:
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except OSError as exc:
        raise click.BadParameter(f"cannot read {path}: {exc.strerror}.",
                                 param_hint=hint) from exc
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"{path} is not JSON: {exc.msg} at line {exc.lineno}, "
                                 f"column {exc.colno}.", param_hint=hint) from exc
    except RecursionError:  # lists in lists a thousand deep: no box's, and past Python's stack
        raise click.BadParameter(f"{path} nests lists or objects too deeply to be read.",
                                 param_hint=hint) from None


# What an arm may set besides box constants (the box's names, in either case).
ARM_SETTINGS = ("bots", "variant", "playouts", "think-ms", "box")


def json_or_text(value: str, hint: str) -> Any:
    """`value` as JSON, else as the text it is."""
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return value
    except RecursionError:  # lists in lists a thousand deep: no box's, and past Python's stack
        raise click.BadParameter(f"{value[:20]}…: nests lists or objects too deeply to be read.",
                                 param_hint=hint) from None


def setting_name(name: str) -> str:
    """An arm setting's name as the study keeps it: one of ARM_SETTINGS, in lower case, or a box
    constant, by its upper-case name (README: in either case)."""
    return name.lower() if name.lower() in ARM_SETTINGS else name.upper()


def arm_settings(spec: str, hint: str) -> dict[str, Any]:
    """`--compare`'s settings, 'name=value;name=value': an arm's bots, variant, budget, box
    file, or box constants (a JSON value, else text)."""
    settings: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in spec.split(";"))):
        name, equals, value = part.partition("=")
        name = name.strip()
        if not equals or not name:
            raise click.BadParameter(f"{part!r}: expected name=value.", param_hint=hint)
        key = setting_name(name)
        if key in settings:  # "HAND_LIMIT=0;hand_limit=1" played the last one, unsaid
            raise click.BadParameter(f"{spec!r} names {key} twice; name each setting once.",
                                     param_hint=hint)
        settings[key] = value.strip() if key in ARM_SETTINGS else json_or_text(value.strip(), hint)
    if not settings:
        raise click.BadParameter(f"{spec!r} sets nothing.", param_hint=hint)
    return settings


def sweep_values(name: str, text: str) -> list[Any]:
    """A sweep's values: a JSON list of them, one JSON value, or values apart by commas (each
    JSON, else text). A value holding commas goes in a JSON list: cut at its commas, it made
    arms of its pieces."""
    whole = json_or_text(text, "'--sweep'")
    if isinstance(whole, list):
        return whole
    if whole is not text:  # one JSON value: an object, a number…
        return [whole]
    values = [json_or_text(v.strip(), "'--sweep'") for v in text.split(",")]
    if any(isinstance(v, str) and v[:1] in "[{" for v in values):
        raise click.BadParameter(f"{name}={text}: a value holding commas goes in a JSON list of "
                                 f"the values, e.g. {name}=[[5,4,3,2,1],[3,3,3,3,3]].",
                                 param_hint="'--sweep'")
    return values


def sweep_grid(sweeps: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every combination of the `--sweep` values, in order (the first sweep slowest): each an
    arm's settings. 'NAME=3,4,5', or a JSON list of values: 'SET_TABLE=[{…}, {…}]'."""
    axes, swept = [], set()
    for sweep in sweeps:
        name, equals, text = sweep.partition("=")
        name = name.strip()
        if not equals or not name or not text.strip():
            raise click.BadParameter(f"{sweep!r}: expected NAME=value,value,…",
                                     param_hint="'--sweep'")
        if name.lower() in ("bots", "box"):
            raise click.BadParameter(f"{name}: compare bots or box files with --compare.",
                                     param_hint="'--sweep'")
        key = setting_name(name)
        if key in swept:
            raise click.BadParameter(f"{key} is swept twice; sweep each setting once, all its "
                                     "values in one --sweep.", param_hint="'--sweep'")
        swept.add(key)
        axes.append([(key, value) for value in sweep_values(key, text.strip())])
    grid = []
    for point in itertools.product(*axes):
        grid.append({key: value for key, value in point}
                    | {"label": ";".join(f"{key}={json.dumps(value, separators=(',', ':'))}"
                                         if not isinstance(value, str) else f"{key}={value}"
                                         for key, value in point)})
    return grid


def arm_from(game: Game, base: Arm, label: str, settings: dict[str, Any], hint: str) -> Arm:
    """The base arm with `settings` (arm_settings) changed: a box change is merged over the
    base arm's box."""
    seats = base.seats
    bots = seat_bots(settings["bots"], seats, hint) if "bots" in settings else base.bots
    if "bots" in settings and settings["bots"] != ",".join(bots):
        # the label says the bots as seated, as a study over HTTP labels them: "bots=random,
        # greedy" at 3 players played random, greedy, greedy
        label = label.replace(f"bots={settings['bots']}", f"bots={','.join(bots)}", 1)
    variant = str(settings.get("variant", base.variant))
    if variant not in game.box.VARIANTS:
        raise click.BadParameter(f"{label}: {game.name} has no variant {variant!r}; choose one "
                                 f"of {', '.join(game.box.VARIANTS)}.", param_hint=hint)
    if (variant, seats) not in game.tables():
        raise click.BadParameter(f"{label}: {game.name} has no {seats}-player table in the "
                                 f"variant {variant!r}.", param_hint=hint)
    if "playouts" in settings and "think-ms" in settings:
        raise click.BadParameter(f"{label}: playouts and think-ms are two budgets for the "
                                 "search bot: give one.", param_hint=hint)
    budget = dict(base.budget)
    # held to what --playouts and --think-ms take: a playouts of 0 was played as the game's
    # (the search bot reads 0 as none given) under a label saying 0, and -1 ms was taken
    for name, key, kind, words in (("playouts", "playouts", int,
                                    "a whole number of playouts a move, 1 or more"),
                                   ("think-ms", "ms", float,
                                    "a number of milliseconds a move, above 0")):
        if name in settings:
            raw = settings[name]  # text from --compare; a JSON value from --sweep
            try:  # 2.5 playouts was played as 2 and true as 1, under labels saying so
                if isinstance(raw, bool) or (kind is int and isinstance(raw, float)):
                    raise ValueError
                budget = {key: kind(raw)}
            except (TypeError, ValueError):
                budget = {}
            if not budget or not (budget[key] >= 1 if kind is int else
                                  0 < budget[key] < float("inf")):
                given = raw if isinstance(raw, str) else json.dumps(raw)  # as it was written
                raise click.BadParameter(f"{label}: {name} takes {words}, not {given}.",
                                         param_hint=hint)
    change = read_box(settings["box"], hint) or {} if "box" in settings else {}
    change |= {k: v for k, v in settings.items() if k not in ARM_SETTINGS}
    return Arm(label, variant, bots, budget, stacked(game, base.box, change))


def study_arms(game: Game, base: Arm, compares: tuple[str, ...],
               sweeps: tuple[str, ...]) -> tuple[Arm, ...]:
    """The arms of a run: the sweep's grid (or the base arm alone), then each --compare. A
    refusal names the option that made the arm."""
    made = [(arm_from(game, base, point.pop("label"), point, "'--sweep'"), "'--sweep'")
            for point in sweep_grid(sweeps)] if sweeps else [(base, None)]
    made += [(arm_from(game, base, spec, arm_settings(spec, "'--compare'"), "'--compare'"),
              "'--compare'") for spec in compares]
    arms = [arm for arm, _ in made]
    labels = [arm.label for arm in arms]
    for number, label in enumerate(labels):
        if label in labels[:number]:
            raise click.BadParameter(f"{label}: two arms are the same.",
                                     param_hint=made[number][1])
    for number, earlier in played_before(game, arms).items():
        name = arms[earlier].label if earlier else "the first arm"
        arm = arms[number]
        if arm.budget != arms[earlier].budget and SEARCH_BOT not in arm.bots:
            raise click.BadParameter(f"{arm.label}: a search budget changes nothing where no "
                                     f"seat plays the search bot: add {SEARCH_BOT} to its bots.",
                                     param_hint=made[number][1])
        # the bots as seated, the last filling the seats left: "bots=greedy,greedy,greedy"
        # plays as "--bots greedy,greedy" at the 3 seats another arm's list asked for
        raise click.BadParameter(f"{arm.label}: plays as {name} does ({', '.join(arm.bots)} "
                                 f"in {arm.variant}); change its bots, variant, budget or box.",
                                 param_hint=made[number][1])
    return tuple(arms)


class Shard(click.ParamType):
    """K/N: shard K of N, 0 ≤ K < N."""

    name = "K/N"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[int, int]:
        if isinstance(value, tuple):
            return value
        index, slash, count = str(value).partition("/")
        if slash and index.isdigit() and count.isdigit() and int(index) < int(count):
            return int(index), int(count)
        self.fail(f"{value!r}: expected K/N with 0 ≤ K < N, e.g. 0/4.", param, ctx)


def legacy_record(rows: list[dict]) -> dict:
    """One arm's match as the JSON and CSV reports show it (API.md "Bots")."""
    first = rows[0]
    return {"seed": first["seed"], "bots": [r["bot"] for r in rows],
            "scores": [r["score"] for r in rows],
            "winners": [r["seat"] for r in rows if r["won"]], "length": first["length"],
            "figures": {k[len("figure."):]: v for k, v in first.items()
                        if k.startswith("figure.")}}


def play_study(study: Study, options: dict[str, Any], keep: bool) -> tuple[Any, list[list]]:
    """Run the study as the options say: its outcome, and each arm's records when `keep`
    (the JSON and CSV reports print every match)."""
    kept: list[list[dict]] = [[] for _ in study.arms]

    def collect(rows: list[dict]) -> None:
        for number in range(len(study.arms)):
            kept[number].append(legacy_record([r for r in rows if r["arm"] == number]))

    try:
        outcome = studies_run.run(study, out=options["out"], kind=options["kind"],
                                  shard=options["shard"], resume=options["resume"],
                                  jobs=options["jobs"], scheduler=options["scheduler"],
                                  on_match=collect if keep else None)
    except RecordsError as exc:
        raise click.BadParameter(str(exc), param_hint="'--out'") from exc
    except ClusterUnavailable as exc:  # a scheduler that does not answer, or no address
        raise click.BadParameter(str(exc), param_hint="'--scheduler'") from exc
    except NoEnd as exc:
        kept_where = (f" The records of the matches played before it are in {options['out']}."
                      if options["out"] else "")
        raise click.ClickException(f"{exc}{kept_where}") from exc
    return outcome, kept


def write_report(path: str, summary_: dict, study: Study, options: dict[str, Any],
                 outcome: Any) -> None:
    from studies.report import page

    if options["out"] is not None:
        meta = read_meta(options["out"])
    else:
        meta = provenance(study.describe(), options["shard"], None)
        meta.update(status="complete" if outcome.played == outcome.total else "interrupted",
                    played=outcome.played, records=None)
    with open(path, "w", encoding="utf-8") as file:
        file.write(page(summary_, meta))


@click.command("simulate")
@click.argument("game_id", metavar="GAME", type=click.Choice(list(GAMES)))
@click.option("--matches", default=200, show_default=True, type=click.IntRange(1, 2**63 - 1),
              help="Matches per table (and arm), at most 2**63 - 1.")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0, MAX_SEED),
              help="The run's seed: each match's seed is drawn from it and the match's number "
                   "(at most 2**63 - 1, as over HTTP, so that a run may be played again there).")
@click.option("--bots", default="random", show_default=True,
              help=f"One bot per seat, comma-separated, among {', '.join(kinds())}; the last "
                   "fills the seats left.")
@click.option("--players", default=None,
              help="Players per match, or 'all' (default: the variant's smallest table that "
                   "seats every bot listed).")
@click.option("--variant", default=None, help="Variant, or 'all' (default: the game's default).")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(1),
              help="Processes to play on: above 1, a local Dask cluster of that many workers.")
@click.option("--format", "output", default="text", show_default=True,
              type=click.Choice(["text", "json", "csv"]), help="What to print.")
@click.option("--box", "box_file", default=None, metavar="FILE.json",
              help="Box constants to change for the run (README), e.g. {\"SET_TABLE\": ...}.")
@click.option("--playouts", default=None, type=click.IntRange(1),
              help="The search bot's playouts per move (default: the game's).")
@click.option("--think-ms", default=None, type=click.FloatRange(min=0, min_open=True),
              help="The search bot's time per move in milliseconds, instead of playouts "
                   "(results then depend on the machine).")
@click.option("--compare", "compares", multiple=True, metavar="SETTINGS",
              help="Another arm, played on the same deals and reported with its difference "
                   "from the first: settings 'name=value;…' among bots, variant, playouts, "
                   "think-ms, box (a file) and box constants (NAME=JSON value).")
@click.option("--sweep", "sweeps", multiple=True, metavar="NAME=V1,V2,…",
              help="Arms over the values of a box constant (or variant, playouts, think-ms), "
                   "comma-separated or a JSON list; several make a grid.")
@click.option("--rotate-seats", is_flag=True,
              help="Move each bot one seat on from match to match, so that every bot plays "
                   "every seat (as often, with matches a multiple of the seats): the report "
                   "then tells a seat's advantage and each bot's strength apart.")
@click.option("--out", default=None, type=click.Path(dir_okay=False),
              help="Write one row per seat and match here as they are played; the run's "
                   "provenance goes beside it, to OUT.meta.json.")
@click.option("--records", "kind", default=None, type=click.Choice(["jsonl", "csv"]),
              help="The records' format (default: by --out's extension, JSON Lines unless "
                   ".csv).")
@click.option("--resume", is_flag=True,
              help="Go on with the interrupted run in --out (the same options).")
@click.option("--shard", default=None, type=Shard(),
              help="K/N: play only the matches i with i % N == K (`flask studies merge` joins "
                   "the shards).")
@click.option("--scheduler", default=None, envvar=SCHEDULER_ENV, metavar="ADDRESS",
              help=f"A Dask scheduler to play on instead of here (or ${SCHEDULER_ENV}).")
@click.option("--report", "report_path", default=None, type=click.Path(dir_okay=False),
              metavar="PATH.html", help="Write an HTML page of the study with charts.")
def simulate(game_id: str, matches: int, seed: int, bots: str, players: str | None,
             variant: str | None, jobs: int, output: str, box_file: str | None,
             playouts: int | None, think_ms: float | None, compares: tuple[str, ...],
             sweeps: tuple[str, ...], rotate_seats: bool, out: str | None, kind: str | None,
             resume: bool,
             shard: tuple[int, int] | None, scheduler: str | None,
             report_path: str | None) -> None:
    """Play bots against each other and report, per seat, wins and win share with a 95%
    interval, a joint test of equal shares, scores, ties, margins, match length and the game's
    own figures; with --compare or --sweep, several arms on the same deals and each one's
    difference from the first. Ctrl-C stops at once, keeping what was played. The progress
    bar goes to stderr; the report to stdout."""
    box = read_box(box_file)
    if playouts is not None and think_ms is not None:  # both were taken, one of them played
        raise click.UsageError("--playouts and --think-ms are two budgets for the search bot: "
                               "give one.")
    budget = {k: v for k, v in (("playouts", playouts), ("ms", think_ms)) if v is not None}
    study_options = {"--compare": compares, "--sweep": sweeps, "--out": out, "--resume": resume,
                     "--shard": shard, "--report": report_path, "--scheduler": scheduler}
    asked = [name for name, value in study_options.items() if value]
    if ALL in (variant, players) and asked:
        raise click.UsageError(f"A run with {', '.join(asked)} plays one table: choose a "
                               "variant and a number of players.")
    if resume and out is None:
        raise click.UsageError("--resume goes on with the run written to --out: name it.")
    if (compares or sweeps) and matches < 2:
        raise click.BadParameter(TWO_TO_COMPARE, param_hint="'--matches'")
    game = GAMES[game_id]
    if box is not None:
        try:
            game = arm_game(game_id, box_key(box))  # refused here, before anything is played
        except BoxError as exc:
            raise click.BadParameter("\n  " + "\n  ".join(exc.problems),
                                     param_hint="'--box'") from exc
    options = {"out": out, "kind": kind, "shard": shard, "resume": resume, "jobs": jobs,
               "scheduler": scheduler}
    keep = output in ("json", "csv")
    runs = []
    # the seats the most bots any arm lists: --bots, or a --compare's bots=
    listed = max(len(bot_list(names)) for names in
                 [bots, *(arm_settings(spec, "'--compare'").get("bots", "") for spec in compares)])
    for table_variant, n in tables(game, variant, players, listed):
        base = Arm("base", table_variant, seat_bots(bots, n), budget, box)
        arms = study_arms(game, base, compares, sweeps)
        if budget and not any(SEARCH_BOT in arm.bots for arm in arms):
            # a budget no seat plays with was taken silently, the run labelled by it
            option = "'--playouts'" if "playouts" in budget else "'--think-ms'"
            raise click.BadParameter(f"sets the search bot's budget, and no seat plays it: add "
                                     f"{SEARCH_BOT} to --bots (or to an arm's bots).",
                                     param_hint=option)
        try:
            study = Study(game_id, seed, matches, arms, rotate=rotate_seats)
            for arm in arms:
                study.game(arm)  # a box change that does not fit is refused before playing
        except (BoxError, ValueError) as exc:
            problems = getattr(exc, "problems", [str(exc)])
            given = " or ".join(name for name, used in (("'--sweep'", sweeps),
                                                        ("'--compare'", compares)) if used)
            raise click.BadParameter("\n  " + "\n  ".join(problems),
                                     param_hint=given or "'--box'") from exc
        outcome, kept = play_study(study, options, keep)
        described = study.describe()["arms"]
        runs.append({"study": study, "outcome": outcome, "kept": kept,
                     "summary": outcome.tally.summary(described)})
        if outcome.stopped:
            break
    for one in runs:
        if report_path is not None:
            write_report(report_path, one["summary"], one["study"], options, one["outcome"])
    # a cluster's workers are its own: not the --jobs of a run on this machine
    click.echo(shaped_report(game, runs, output,
                             jobs if scheduler is None else f"the Dask cluster at {scheduler}"))
    stopped = runs[-1]["outcome"]
    if stopped.stopped:
        where = f"; the records in {out} are kept: add --resume to go on" if out else ""
        click.echo(f"Stopped ({stopped.stopped}) after {stopped.played} of {stopped.total} "
                   f"matches{where}.", err=True)
        raise SystemExit(128 + stopped.stopped.signum)


def shaped_report(game: Game, runs: list[dict], output: str, jobs: int | str) -> str:
    """What simulate prints: text, or the JSON and CSV of API.md "Bots" (a table's first arm
    as before, the others beside it, and the study's statistics under "study")."""
    if output == "text":
        # a run stopped before its first match: no table of zeros, which reads as figures
        return "\n\n".join(studies_report.text(one["summary"], game.name,
                                               one["outcome"].elapsed, jobs,
                                               one["outcome"].kept)
                           if one["outcome"].played else f"{game.name}: no match was played."
                           for one in runs)
    shaped = []
    for one in runs:
        study = one["study"]
        # API.md: wherever a seed is an integer, `seed_text` is the same as decimal text (a
        # 64-bit match seed is past what a JavaScript number holds exactly), as the HTTP
        # simulations' answer gives the batch's
        arms = [{"arm": arm.label,
                 "summary": {**seated(study, summary(Table(game, arm.variant, arm.bots,
                                                           budget=arm.budget), records)),
                             "seed": study.seed, "seed_text": str(study.seed)},
                 "matches": [with_seed_text(record) for record in records]}
                for arm, records in zip(study.arms, one["kept"], strict=True)
                if records]
        shaped.append((arms, one["summary"]))
    if output == "csv":
        return csv_report([arm for arms, _ in shaped for arm in arms]
                          if len(shaped[0][0]) > 1 else
                          [{k: v for k, v in arms[0].items() if k != "arm"}
                           for arms, _ in shaped if arms])
    tables_ = [{"summary": arms[0]["summary"], "matches": arms[0]["matches"], "study": study_}
               if len(arms) == 1 else {"arms": arms, "study": study_}
               for arms, study_ in shaped if arms]
    return json.dumps(tables_[0] if len(tables_) == 1 else {"tables": tables_})


def seated(study: Study, said: dict) -> dict:
    """A batch's summary as it is for a study that rotates its seats: each seat held every bot
    in turn (each match's record says which), so it is named by its number alone, as the
    study's statistics name it, and not by the bot it held first."""
    if study.rotate:
        for seat in said["seats"]:
            seat.update(name=f"seat {seat['seat']}", bot=None)
    return said


def with_seed_text(record: dict) -> dict:
    """A match's record with its seed as text too, beside it."""
    shaped = {}
    for key, value in record.items():
        shaped[key] = value
        if key == "seed":
            shaped["seed_text"] = str(value)
    return shaped


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
        idle_days = config_of().digsite_idle_days
    if finished_days is None:
        finished_days = config_of().digsite_finished_days
    try:
        store = storage()
        store.bring_to_newest()
        pruned = store.prune(idle_days, finished_days)
        shared = tally_service().prune(finished_days)
        ended = study_service().prune(finished_days)  # with their records
        idempotency_keys().prune()  # keys past their 24 hours: nothing anyone can ask for any more
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
                               "tombstone_days": TOMBSTONE_DAYS, "tallies": shared,
                               "studies": ended}))
        return
    click.echo(f"Removed {counted(pruned.idle, 'idle match', 'idle matches')} (no move for "
               f"{counted(idle_days, 'day', 'days')}) and "
               f"{counted(pruned.finished, 'finished match', 'finished matches')} (kept "
               f"{counted(finished_days, 'day', 'days')}), with "
               f"{counted(pruned.log_entries, 'log entry', 'log entries')}.\n"
               f"Removed {counted(pruned.tombstones, 'tombstone', 'tombstones')} of matches "
               f"removed over {TOMBSTONE_DAYS} days ago.\n"
               f"Removed {counted(shared, 'shared tally', 'shared tallies')} unchanged for "
               f"{counted(finished_days, 'day', 'days')}.\n"
               f"Removed {counted(ended, 'study', 'studies')} ended over "
               f"{counted(finished_days, 'day', 'days')} ago.")


@studies_commands.studies.command("cancel")
@click.argument("study_id", metavar="ID")
@with_appcontext
def cancel_study(study_id: str) -> None:
    """Cancel the study ID played over HTTP, as its creator's DELETE would, without its token:
    for a study whose token was lost, that plays on against its creator's thinking budget.
    The matches stored stay, with their summary and report."""
    try:
        study, cancelled = study_service().stop(study_id, "Cancelled by the server's operator.")
    except Refused as exc:
        raise click.ClickException(f"{study_id}: {exc.message}") from None
    except SQLAlchemyError as exc:
        reason = str(exc).splitlines()[0]
        raise click.ClickException(f"The database failed: {reason}") from exc
    played = f"{study.done} of {study.total} matches played"
    click.echo(f"Study {study.id} cancelled ({played})." if cancelled else
               f"Study {study.id} had already ended ({study.status}, {played}): left as it is.")


@click.group("db")
def db() -> None:
    """The database's schema: every start brings it to the newest revision by itself; these
    commands read and change it as it stands."""


@db.command("current")
@with_appcontext
def db_current() -> None:
    """Print the schema's revision and the newest one this release knows."""
    click.echo(f"at {schema_revision()}; newest {migrate.head()}")


@db.command("downgrade")
@click.argument("revision")
@click.option("--yes", is_flag=True,
              help="Go on even if taking the schema back to REVISION drops tables that hold "
                   "rows: the matches table (base does), every match and its log with it, or "
                   "the studies, tallies… a later revision added.")
@with_appcontext
def db_downgrade(revision: str, yes: bool) -> None:
    """Take the schema back to REVISION, before rolling back to the release that made it (this
    release's next start would bring it up again). One that drops tables holding rows (the
    matches, the studies, the tallies…) is refused without --yes: no start brings them back."""
    from alembic.util import CommandError  # Alembic is imported where it is used (migrate.py)

    try:
        migrate.downgrade(storage().engine, revision, drop_data=yes)
    except migrate.DropsData as exc:
        what = ("the matches table, every match and its log with it" if "matches" in exc.tables
                else f"the tables {listed(exc.tables)}, and the rows they hold")
        raise click.ClickException(
            f"Taking the schema back to {revision} would drop {what}, which no start brings "
            "back: add --yes to do it (after a backup).") from None
    except (CommandError, SQLAlchemyError) as exc:
        raise click.ClickException(str(exc).splitlines()[0]) from exc
    click.echo(f"at {schema_revision()}")


@db.command("backup")
@click.argument("path", type=click.Path(dir_okay=False))
@with_appcontext
def db_backup(path: str) -> None:
    """Copy the SQLite database whole to PATH, a new file, while the servers serve: what they
    wrote that SQLite keeps in its write-ahead log (the -wal file) until it moves it into the
    database file is in the copy too, which a copy of the file alone misses. A PostgreSQL
    database is backed up by pg_dump."""
    engine = storage().engine
    if engine.dialect.name != "sqlite":
        # pg_dump reads libpq's URL: "postgresql+psycopg://…" (SQLAlchemy's, as README writes
        # DATABASE_URL) made it try the local socket instead, and say only that it failed there
        raise click.ClickException(
            "This database is PostgreSQL: back it up with pg_dump, giving it DATABASE_URL "
            "without its driver (postgresql://, not postgresql+psycopg://): pg_dump -Fc -d "
            "\"postgresql://USER:PASSWORD@HOST:PORT/DATABASE\" -f digsite.dump; restore it with "
            "pg_restore.")
    target = Path(path)
    if target.exists():
        raise click.ClickException(f"{path} exists already: name a new file.")
    if not target.parent.is_dir():  # a traceback ("unable to open database file") said it
        raise click.ClickException(f"{target.parent} is no folder: name a file in one that "
                                   "exists.")
    import sqlite3  # the driver's online backup: a consistent copy, whatever is being written

    source = sqlite3.connect(engine.url.database)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()
    click.echo(f"Backed up to {path}. To restore it, stop every server, then put it in place of "
               f"{engine.url.database} and delete that file's -wal and -shm files beside it.")


def schema_revision() -> str:
    """The revision the schema is at, in words where it has none: a database at no revision
    holding tables is one from before the history (which `db current` had called empty)."""
    engine = storage().engine
    revision = migrate.current(engine)
    if revision is not None:
        return revision
    with engine.connect() as conn:
        if migrate.before_history(conn):
            return ("no revision: its tables are from a release before the migration history, "
                    "which the next start brings up, keeping its matches")
    return "no revision (an empty database)"


def init_app(app: Flask) -> None:
    app.cli.add_command(simulate)
    app.cli.add_command(studies_commands.studies)
    app.cli.add_command(prune)
    app.cli.add_command(db)


if __name__ == "__main__":  # `python cli.py …` runs what `flask --app app …` runs
    from flask.cli import FlaskGroup

    from app import create_app

    FlaskGroup(create_app=create_app)()
