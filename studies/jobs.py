"""A study's matches as a job's chunk (service/studies.py): what a worker's thinking process, or
a Dask worker, is handed, and what it gives back: the records of a range of match indices as
JSON Lines (the very bytes `simulate --out` writes for them) and the CPU seconds they took.

Kept apart from the server's code so a Dask worker imports only the games and this package."""

from __future__ import annotations

import threading
import time
from typing import Any

import orjson

from .play import play_index
from .study import Arm, Study

# One Dask client per process that asks a scheduler (a thinking process lives on), made on
# first use and kept: connecting costs a round of messages each time.
_clients: dict[str, Any] = {}
_clients_lock = threading.Lock()


def study_of(spec: dict[str, Any]) -> Study:
    """The Study a stored spec describes ({"game", "seed", "matches", "arms"})."""
    arms = tuple(Arm(arm["label"], arm["variant"], tuple(arm["bots"]), arm.get("budget") or {},
                     arm.get("box")) for arm in spec["arms"])
    return Study(spec["game"], int(spec["seed"]), spec["matches"], arms)


def play_range(spec: dict[str, Any], first: int, count: int) -> tuple[bytes, float]:
    """Match indices first … first+count-1 of every arm: their rows as JSON Lines, in match
    order, arm by arm, seat by seat, and the CPU seconds this thread spent playing them."""
    started = time.thread_time()
    study = study_of(spec)
    lines = b"".join(orjson.dumps(row) + b"\n"
                     for index in range(first, first + count)
                     for row in play_index(study, index))
    return lines, time.thread_time() - started


def play_range_on(scheduler: str, spec: dict[str, Any], first: int,
                  count: int) -> tuple[bytes, float]:
    """`play_range` on a Dask worker of the cluster at `scheduler` (its CPU seconds are the
    worker's)."""
    from distributed import Client  # seconds to import: only where a scheduler is set

    with _clients_lock:
        client = _clients.get(scheduler)
        if client is None or client.status != "running":
            client = _clients[scheduler] = Client(scheduler, set_as_default=False)
    future = client.submit(play_range, spec, first, count, pure=False)
    try:
        return future.result()
    finally:
        future.release()


def report_page(summary: dict[str, Any], described: dict[str, Any], played: int,
                complete: bool = True) -> str:
    """The HTML page of a study (report.page, with the run's provenance as a records file's
    side file holds it), played to its end or, not `complete`, ended after `played` matches:
    drawn where bots think, since matplotlib takes a second of a core."""
    from . import records, report

    meta = records.provenance(described, None, "jsonl")
    meta.update(status="complete" if complete else "ended", played=played)
    return report.page(summary, meta)
