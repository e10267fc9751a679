"""`flask studies …`: what is done with a study's records once played (README "Studies"):
merge the shards of a run, and draw a report from a records file."""

from __future__ import annotations

import json

import click

from scoring.bots.simulations import match_seed

from . import records, report
from .jobs import study_of
from .metrics import Tally
from .play import NoEnd, play_arm
from .run import merge


@click.group("studies")
def studies() -> None:
    """Merge a study's shards; report on its records; replay one of its matches."""


@studies.command("merge")
@click.argument("shards", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="The merged records, with OUT.meta.json beside them.")
@click.option("--records", "kind", default=None, type=click.Choice(records.KINDS),
              help="Their format (default: by --out's extension, JSON Lines unless .csv).")
@click.option("--report", "report_path", default=None, type=click.Path(dir_okay=False),
              metavar="PATH.html", help="Write an HTML page of the study with charts.")
def merge_command(shards: tuple[str, ...], out: str, kind: str | None,
                  report_path: str | None) -> None:
    """Join SHARDS (the records of every shard K/N of one study, each complete) into the
    records one run of the study writes, and print its statistics."""
    try:
        outcome, meta = merge(shards, out, kind)
    except records.RecordsError as exc:
        raise click.ClickException(str(exc)) from exc
    summary = outcome.tally.summary(meta["study"]["arms"])
    if report_path is not None:
        with open(report_path, "w", encoding="utf-8") as file:
            file.write(report.page(summary, meta))
    click.echo(report.text(summary, meta["study"]["name"]))


@studies.command("report")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "report_path", default=None, type=click.Path(dir_okay=False),
              metavar="PATH.html", help="Write an HTML page of the study with charts.")
def report_command(path: str, report_path: str | None) -> None:
    """Print the statistics of the records in PATH (a run, finished or not, or a merge), and
    with --out write them as an HTML page."""
    try:
        meta = records.read_meta(path)
    except records.RecordsError as exc:
        raise click.ClickException(str(exc)) from exc
    arms = meta["study"]["arms"]
    tally = Tally(len(arms), arms[0]["players"])
    tally_rows = len(arms) * arms[0]["players"]
    for rows in records.matches(path, meta["records"]):
        if len(rows) == tally_rows:  # a match still being written is left out
            tally.add(rows)
    summary = tally.summary(arms)
    if report_path is not None:
        with open(report_path, "w", encoding="utf-8") as file:
            file.write(report.page(summary, meta))
    if (unfinished := report.unfinished(summary, meta)) is not None:
        click.echo(unfinished)
    click.echo(report.text(summary, meta["study"]["name"]))


@studies.command("replay")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--match", "index", required=True, type=click.IntRange(0),
              help="The match's index: the records' `match`.")
@click.option("--arm", default="base", show_default=True,
              help="The arm: its label (the records' `label`) or its number (`arm`).")
def replay_command(path: str, index: int, arm: str) -> None:
    """Play match INDEX of an arm of the study whose records are PATH again, move by move: as
    JSON Lines on stdout, each action with its seat, its bot and its events, as a match's log
    says them (an outlier looked into). The replay's scores are checked against the records'."""
    try:
        meta = records.read_meta(path)
    except records.RecordsError as exc:
        raise click.ClickException(str(exc)) from exc
    study = study_of(meta["study"])
    labels = [a.label for a in study.arms]
    number = labels.index(arm) if arm in labels else int(arm) if arm.isdigit() else None
    if number is None or number >= len(study.arms):
        raise click.BadParameter(f"{arm}: the study's arms are {', '.join(labels)} (or their "
                                 f"numbers, 0 to {len(labels) - 1}).", param_hint="'--arm'")
    if index >= study.matches:
        raise click.BadParameter(f"{index}: the study plays matches 0 to {study.matches - 1}.",
                                 param_hint="'--match'")
    log: list[dict] = []
    try:
        rows = play_arm(study, number, study.arms[number], index, match_seed(study.seed, index),
                        log)
    except NoEnd as exc:  # its bots go round in circles: said, not a traceback
        raise click.ClickException(str(exc)) from exc
    for entry in log:
        click.echo(json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
    scores = [row["score"] for row in rows]
    recorded = next(([r["score"] for r in sorted(group, key=lambda r: r["seat"])
                      if r["arm"] == number]
                     for group in records.matches(path, meta["records"])
                     if group[0]["match"] == index), None)
    said = (f"Match {index}, arm {labels[number]}: {len(log)} actions, scores "
            f"{', '.join(map(str, scores))}")
    if recorded is None:
        click.echo(f"{said}; the records hold no such match (another shard's, or not played "
                   "yet).", err=True)
    elif recorded != scores:
        raise click.ClickException(
            f"{said}, where the records say {', '.join(map(str, recorded))}: they were played "
            f"by the code at {meta['version']}, and this is {records.code_version()}.")
    else:
        click.echo(f"{said}, as the records say.", err=True)
