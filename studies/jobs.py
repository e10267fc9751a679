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
    """The Study a stored spec describes ({"game", "seed", "matches", "arms", and
    "rotate_seats" where it rotates})."""
    arms = tuple(Arm(arm["label"], arm["variant"], tuple(arm["bots"]), arm.get("budget") or {},
                     arm.get("box")) for arm in spec["arms"])
    return Study(spec["game"], int(spec["seed"]), spec["matches"], arms,
                 rotate=bool(spec.get("rotate_seats")))


def play_range(spec: dict[str, Any], first: int, count: int) -> tuple[bytes, float]:
    """Match indices first … first+count-1 of every arm: their rows as JSON Lines, in match
    order, arm by arm, seat by seat, and the CPU seconds this thread spent playing them."""
    started = time.thread_time()
    study = study_of(spec)
    lines = b"".join(orjson.dumps(row) + b"\n"
                     for index in range(first, first + count)
                     for row in play_index(study, index))
    return lines, time.thread_time() - started


class ClusterUnavailable(RuntimeError):
    """The Dask cluster cannot play a chunk now, and why in words (`said`; `detail`, Dask's
    own words, for the log): its scheduler does not answer, or it has no worker. Nothing of
    the chunk was played: it may be asked for again once the cluster is back."""

    def __init__(self, said: str, detail: str = "") -> None:
        super().__init__(said, detail)
        self.said, self.detail = said, detail

    def __str__(self) -> str:
        return self.said


def play_range_on(scheduler: str, spec: dict[str, Any], first: int, count: int,
                  patience: float = 30.0) -> tuple[bytes, float]:
    """`play_range` on a Dask worker of the cluster at `scheduler` (its CPU seconds are the
    worker's). ClusterUnavailable when its scheduler does not answer within `patience`
    seconds, or when it has no worker and none joins in that time: a chunk given to a cluster
    nobody works for waited for ever, unsaid. A cluster that starts workers for the tasks it
    is given (adaptive) has `patience` seconds to start one; a busy worker is waited for."""
    from distributed import Client  # seconds to import: only where a scheduler is set

    with _clients_lock:
        client = _clients.get(scheduler)
        if client is None or client.status != "running":
            try:
                client = Client(scheduler, set_as_default=False, timeout=patience)
            except OSError as exc:
                raise ClusterUnavailable("its scheduler does not answer",
                                         str(exc).split("\n", 1)[0]) from None
            _clients[scheduler] = client
    future = client.submit(play_range, spec, first, count, pure=False)
    try:
        while True:
            try:
                return future.result(timeout=patience)
            except TimeoutError:
                if not client.nthreads():
                    raise ClusterUnavailable(
                        f"it has no worker, and none joined in {patience:g} s",
                        f"no worker at {scheduler} for chunk {first}+{count}") from None
    finally:
        future.release()


def report_page(summary: dict[str, Any], described: dict[str, Any], played: int,
                status: str = "done", error: str | None = None, started: str | None = None,
                updated: str | None = None) -> str:
    """The HTML page of a study (report.page, with the run's provenance as a records file's
    side file holds it), played to its end (`status` done) or, cancelled or failed for
    `error`, ended after `played` matches; `started` and `updated` are the study's own
    (created, last changed), as stored: the page is drawn later, elsewhere. Drawn where bots
    think, since matplotlib takes a second of a core."""
    from . import records, report

    meta = records.provenance(described, None, "jsonl")
    meta.update(status="complete" if status == "done" else status, played=played)
    if error is not None:
        meta["error"] = error
    meta.update({key: value for key, value in (("started", started), ("updated", updated))
                 if value is not None})
    return report.page(summary, meta)
