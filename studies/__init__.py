"""Studies: bots playing a game many times, to answer a designer's questions (is the first seat
favoured? does this rule change help the player behind?), at any scale (README "Studies").

A study (`study.py`) is one or more arms played on the same deals; its matches are played
(`play.py`) here or on Dask workers (`runner.py`), into records streamed to a file with the
run's provenance beside it (`records.py`), counted into statistics as they come (`metrics.py`),
and reported as text or an HTML page of charts (`report.py`); `run.py` ties these together,
stops, resumes and merges shards. This package does I/O; the rules it plays stay in `scoring/`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from . import records

if TYPE_CHECKING:
    import pandas


def load(path: str | os.PathLike) -> pandas.DataFrame:
    """A records file (JSON Lines or CSV, as its side file says) as a pandas DataFrame: one row
    per seat and match, a column per field."""
    import pandas  # a second to import: only for those who load

    try:
        kind = records.read_meta(path)["records"]
    except records.RecordsError:
        kind = records.kind_of(path)
    # seed_text is a seed's exact decimal text: read as text, not as the number it looks like
    # (pandas made it a float, 13315442712065755397 as 1.3315442712065755e+19)
    text = {"seed_text": str}
    if kind == "csv":
        return pandas.read_csv(path, dtype=text)
    return pandas.read_json(path, lines=True, dtype=text)
