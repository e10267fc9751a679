"""A study's records on disk: one row per seat and match, written a match index at a time and
flushed, as JSON Lines or CSV, with the run's provenance beside them in `<records>.meta.json`.

The rows of a file are in match order, and within a match arm by arm, seat by seat: a file is
always the rows of the first k matches the run plays (of a shard's, for a shard), each whole,
so an interrupted run resumes after its last whole match, and shards merge into exactly the
file one run writes.

A CSV file has one column per key of the first match's rows; rows of one study all have the
same keys (the breakdown of a result has the same items for every match of one box).
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import IO, Any

import orjson

Row = dict[str, Any]
KINDS = ("jsonl", "csv")
ROOT = Path(__file__).resolve().parent.parent


class RecordsError(ValueError):
    """A records file that cannot be resumed or merged, and why."""


def kind_of(path: str | os.PathLike, kind: str | None = None) -> str:
    """The records' format: as asked, else by the file's extension (JSON Lines unless .csv)."""
    return kind or ("csv" if str(path).endswith(".csv") else "jsonl")


def meta_path(path: str | os.PathLike) -> Path:
    return Path(f"{path}.meta.json")


def code_version() -> str:
    """The code that played: `git describe` of the checkout; else DIGSITE_VERSION (the image's,
    given as it is built: the image has neither git nor the project installed as a package, and
    every study over HTTP failed there as its report was drawn); else the installed package's;
    else "unknown"."""
    try:
        described = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"],
                                   cwd=ROOT, capture_output=True, text=True, timeout=10)
        if described.returncode == 0 and described.stdout.strip():
            return described.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    if os.environ.get("DIGSITE_VERSION", "").strip():
        return os.environ["DIGSITE_VERSION"].strip()
    try:
        return metadata.version("digsite")
    except metadata.PackageNotFoundError:
        return "unknown"


def provenance(study: dict[str, Any], shard: tuple[int, int] | None, kind: str,
               version: str | None = None) -> dict[str, Any]:
    """A new run's side file: what was played, by which code, in which format."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    return {"study": study, "shard": None if shard is None else list(shard), "records": kind,
            "version": version or code_version(), "python": sys.version.split()[0],
            "status": "running", "played": 0, "started": now, "updated": now}


def read_meta(path: str | os.PathLike) -> dict[str, Any]:
    try:
        return json.loads(meta_path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordsError(f"{path} has no side file {meta_path(path).name}, which simulate "
                           "--out and studies merge write beside their records (a study played "
                           "over HTTP has its report at /api/v1/studies/ID/report).") from None


def write_meta(path: str | os.PathLike, meta: dict[str, Any]) -> None:
    """Replace the side file whole, so a reader never sees half of one."""
    meta["updated"] = datetime.now(UTC).isoformat(timespec="seconds")
    target = meta_path(path)
    partial = target.with_name(target.name + ".part")
    partial.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, target)


class Writer:
    """Appends the rows of one match index at a time to a records file, flushed each time."""

    def __init__(self, path: str | os.PathLike, kind: str, append: bool = False) -> None:
        self.kind = kind
        self.file: IO[bytes] = open(path, "ab" if append else "wb")  # noqa: SIM115
        self.columns: list[str] | None = None
        if kind == "csv" and append:
            with open(path, encoding="utf-8", newline="") as existing:
                self.columns = next(csv.reader(existing), None)

    def write(self, rows: list[Row]) -> None:
        if self.kind == "jsonl":
            self.file.write(b"".join(orjson.dumps(row) + b"\n" for row in rows))
        else:
            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\n")
            if self.columns is None:
                self.columns = list(dict.fromkeys(key for row in rows for key in row))
                writer.writerow(self.columns)
            for row in rows:
                extra = set(row) - set(self.columns)
                if extra:
                    raise RecordsError(f"match {row['match']} has columns the file's header "
                                       f"lacks: {', '.join(sorted(extra))}; write JSON Lines.")
                writer.writerow(["" if row.get(c) is None else row[c] for c in self.columns])
            self.file.write(out.getvalue().encode())
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def _cell(text: str, column: str = "") -> Any:
    """A CSV cell back as the value written: empty is None, True/False, a number, or text. A
    column whose name ends in `_text` holds text whatever it reads as (`seed_text`: a seed in
    digits, for readers whose numbers stop at 53 bits)."""
    if text == "":
        return None
    if column.endswith("_text"):
        return text
    if text in ("True", "False"):
        return text == "True"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def rows(path: str | os.PathLike, kind: str | None = None) -> Iterator[Row]:
    """The rows of a records file, one at a time; a last row cut short while it was written
    (a run stopped, or still going) is left out. Rows never hold a newline: a line is a row."""
    csv_file = kind_of(path, kind) == "csv"
    columns = None
    with open(path, "rb") as file:
        for line in file:
            if not line.endswith(b"\n"):
                break
            if not csv_file:
                yield orjson.loads(line)
            elif columns is None:
                columns = next(csv.reader([line.decode()]))
            else:
                cells = next(csv.reader([line.decode()]))
                yield {c: v for c, v in ((c, _cell(text, c))
                                         for c, text in zip(columns, cells, strict=True))
                       if v is not None}


def matches(path: str | os.PathLike, kind: str | None = None) -> Iterator[list[Row]]:
    """The rows of a records file, a match index (every arm) at a time."""
    group: list[Row] = []
    for row in rows(path, kind):
        if group and row["match"] != group[0]["match"]:
            yield group
            group = []
        group.append(row)
    if group:
        yield group


def keep_whole_matches(path: str | os.PathLike, kind: str, rows_per_match: int) -> int:
    """Cut an interrupted file back to its last whole match (a row cut short, a match whose
    arms were not all written): the number of matches kept. Rows never hold a newline, so a
    line is a row; the file is read a line at a time, whatever its size."""
    header = 1 if kind == "csv" else 0
    lines = whole = 0
    offset = boundary = 0
    with open(path, "rb") as file:
        for line in file:
            if not line.endswith(b"\n"):
                break  # cut short while it was written
            lines += 1
            offset += len(line)
            if lines == header or (lines > header and (lines - header) % rows_per_match == 0):
                boundary, whole = offset, (lines - header) // rows_per_match
    if boundary != os.path.getsize(path):
        with open(path, "r+b") as file:
            file.truncate(boundary)
    return whole
