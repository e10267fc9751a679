"""A study's run from start to end: its records written and flushed match by match, its
statistics counted from the same rows, a progress bar with a rate and an ETA; a run that is
stopped (SIGINT, SIGTERM) keeps what it finished and can be resumed; a run split into shards is
merged into the file one run writes (README "Studies").
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from . import records, runner
from .metrics import Tally
from .play import Row
from .runner import Signals, Stopped
from .study import Study


@dataclass
class Outcome:
    """What a run (or a merge) leaves: its statistics and how far it got."""

    tally: Tally
    played: int  # matches whose rows are all in (a resumed run's earlier ones included)
    total: int  # matches the run (or its shard) plays
    elapsed: float  # seconds this run took
    stopped: Stopped | None = None
    kept: int = 0  # matches a resumed run found played before it (in `played`)


def shard_indices(matches: int, shard: tuple[int, int] | None) -> range:
    """The match indices a run plays: all, or shard K of N's, those i with i % N == K."""
    if shard is None:
        return range(matches)
    index, count = shard
    return range(index, matches, count)


def run(study: Study, out: str | os.PathLike | None = None, kind: str | None = None,
        shard: tuple[int, int] | None = None, resume: bool = False, jobs: int = 1,
        scheduler: str | None = None, on_match: Callable[[list[Row]], None] | None = None,
        progress: bool = True) -> Outcome:
    """Play the study (or its shard), writing its rows to `out` if given. With `resume`, `out`
    is an earlier run of the same study, cut short: its whole matches are kept and counted and
    the rest played. RecordsError when `out` cannot be written or resumed."""
    indices = shard_indices(study.matches, shard)
    tally = Tally(len(study.arms), study.seats)
    writer, meta, kept = None, None, 0
    if out is not None:
        kind = records.kind_of(out, kind)
        if resume:
            meta, kept = _resumed(study, out, kind, shard, indices, tally, on_match)
        else:
            if Path(out).exists() and Path(out).stat().st_size:
                raise records.RecordsError(f"{out} already holds records: --resume to go on "
                                           "with that run, or write elsewhere.")
            meta = records.provenance(study.describe(), shard, kind)
        try:
            if not resume:
                records.write_meta(out, meta)
            writer = records.Writer(out, kind, append=resume)
        except OSError as exc:  # a folder that is not there, a file that may not be written
            raise records.RecordsError(f"{out} cannot be written: {exc.strerror}.") from None
    started = time.perf_counter()
    outcome = Outcome(tally, kept, len(indices), 0.0, kept=kept)
    bar = tqdm(total=len(indices), initial=kept, unit="match", desc=study.game_id,
               file=sys.stderr, disable=not progress, smoothing=0.1)

    with Signals() as signals:

        def handle(rows: list[Row]) -> None:
            with signals.held():  # a match's rows are written and counted whole, or not at all
                if writer is not None:
                    writer.write(rows)
                tally.add(rows)
                outcome.played += 1
                if on_match is not None:
                    on_match(rows)
            bar.update(1)

        try:
            runner.play(study, indices[kept:], handle, jobs, scheduler)
        except Stopped as stopped:
            outcome.stopped = stopped
        finally:
            # From here a signal only marks the run as stopped: what was played gets written up.
            signals.holding = True
            bar.close()
            outcome.elapsed = time.perf_counter() - started
            if writer is not None:
                writer.close()
                meta["status"] = "interrupted" if outcome.played < len(indices) else "complete"
                meta["played"] = outcome.played
                meta["seconds"] = meta.get("seconds", 0) + round(outcome.elapsed, 3)
                records.write_meta(out, meta)
    if outcome.stopped is None and signals.pending is not None and \
            outcome.played < len(indices):
        outcome.stopped = Stopped(signals.pending)
    return outcome


def _resumed(study: Study, out: str | os.PathLike, kind: str, shard: tuple[int, int] | None,
             indices: range, tally: Tally,
             on_match: Callable[[list[Row]], None] | None) -> tuple[dict[str, Any], int]:
    """An earlier run's side file, checked to be this study's and this code's, and its whole
    matches, counted (and told to `on_match`, as the matches played now are: the reports that
    print every match print the run's, not this invocation's alone)."""
    if not Path(out).exists():
        raise records.RecordsError(f"{out} does not exist: nothing to resume.")
    meta = records.read_meta(out)
    version = records.code_version()
    if meta.get("version") != version:
        # its side file names one version for every match: the rest played by another would
        # be said played by it (studies merge refuses shards of two versions alike)
        raise records.RecordsError(f"{out} was played by the code at {meta.get('version')}, "
                                   f"and this is {version}: its matches and the rest would be "
                                   "two versions' under one name. Resume it with the code "
                                   "that began it, or play the study again.")
    asked = {"study": study.describe(), "shard": None if shard is None else list(shard),
             "records": kind}
    differ = [key for key, value in asked.items() if meta.get(key) != value]
    if differ:
        # which of the study's own settings differ (its arms, its rotation…), not "its study"
        kept_study = meta.get("study") or {}
        named = [f"study's {key}" for key in dict.fromkeys([*asked["study"], *kept_study])
                 if kept_study.get(key) != asked["study"].get(key)] if "study" in differ else []
        said = [*named, *(key for key in differ if key != "study")] or differ
        raise records.RecordsError(f"{out} holds another run (it differs in its "
                                   f"{', '.join(said)}): resume with the options it was "
                                   "started with.")
    kept = records.keep_whole_matches(out, kind, study.rows_per_match)
    for number, rows in enumerate(records.matches(out, kind)):
        if rows[0]["match"] != indices[number] or len(rows) != study.rows_per_match:
            raise records.RecordsError(f"{out}: its match {number} is not the run's "
                                       f"{indices[number]}; the file was changed.")
        tally.add(rows)
        if on_match is not None:
            on_match(rows)
    return meta, kept


def merge(inputs: Sequence[str | os.PathLike], out: str | os.PathLike,
          kind: str | None = None) -> tuple[Outcome, dict[str, Any]]:
    """Shards of one study, each complete, merged into `out`: the file, row for row, that the
    study run at once writes. RecordsError says which input is missing, unfinished or of
    another study."""
    if Path(out).exists() and Path(out).stat().st_size:
        raise records.RecordsError(f"{out} already holds records: write elsewhere.")
    metas = [records.read_meta(path) for path in inputs]
    first = metas[0]
    for path, meta in zip(inputs, metas, strict=True):
        if (meta["study"], meta["version"]) != (first["study"], first["version"]):
            raise records.RecordsError(f"{path} is of another study or code version than "
                                       f"{inputs[0]}.")
        if meta["shard"] is None:
            raise records.RecordsError(f"{path} is a whole run, not a shard.")
        if meta["status"] != "complete":
            raise records.RecordsError(f"{path} is unfinished ({meta['played']} matches): "
                                       "resume it first.")
    count = first["shard"][1]
    shards = sorted(meta["shard"][0] for meta in metas)
    if shards != list(range(count)) or any(meta["shard"][1] != count for meta in metas):
        raise records.RecordsError(f"merging needs each of the {count} shards once; these "
                                   f"are shards {', '.join(map(str, shards))}.")
    by_shard = {meta["shard"][0]: (path, meta["records"]) for path, meta in zip(inputs, metas,
                                                                                  strict=True)}
    readers = {k: records.matches(path, shard_kind) for k, (path, shard_kind) in by_shard.items()}
    described = first["study"]
    seats = described["arms"][0]["players"]
    tally = Tally(len(described["arms"]), seats)
    kind = records.kind_of(out, kind)
    meta = records.provenance(described, None, kind, version=first["version"])
    started = time.perf_counter()
    writer = records.Writer(out, kind)
    try:
        for index in range(described["matches"]):
            rows = next(readers[index % count], None)
            if rows is None or rows[0]["match"] != index:
                raise records.RecordsError(f"{by_shard[index % count][0]} lacks match {index}: "
                                           "the file was changed.")
            tally.add(rows)
            writer.write(rows)
    finally:
        writer.close()
    meta.update(status="complete", played=described["matches"],
                seconds=sum(m.get("seconds", 0) for m in metas))
    records.write_meta(out, meta)
    return Outcome(tally, described["matches"], described["matches"],
                   time.perf_counter() - started), meta
