"""`flask studies …`: what is done with a study's records once played (README "Studies"):
merge the shards of a run, and draw a report from a records file."""

from __future__ import annotations

import click

from . import records, report
from .metrics import Tally
from .run import merge


@click.group("studies")
def studies() -> None:
    """Merge a study's shards; report on its records."""


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
