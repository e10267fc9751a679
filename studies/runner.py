"""Where a study's matches are played: in this process, or on Dask (distributed) workers, a
local cluster of single-threaded worker processes or a running cluster's scheduler.

Whatever plays them, the rows of each match index are handed on (`on_match`) in the order of
the indices asked for, so a file written from them is the same, row for row, on one process
or a hundred. On Dask, the indices go out in chunks by index range, a few per worker at a
time so that memory stays bounded however long the run, and come back as they complete; a
chunk that finished early waits only until the ones before it are in.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import Any

from .jobs import ClusterUnavailable
from .play import Row, play_chunk, play_index
from .study import Study

SCHEDULER_ENV = "DIGSITE_DASK_SCHEDULER"
MAX_CHUNK = 100  # matches a task: enough to outweigh a task's cost, few enough to stop soon
IN_FLIGHT = 3  # tasks a worker thread holds at once: one running, the next ones queued


class Stopped(Exception):
    """The run was asked to stop (SIGINT or SIGTERM), which is no error: what was finished
    has been handed on."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class Signals:
    """While active (a `with` block), SIGINT and SIGTERM raise Stopped in the main thread
    wherever it waits (a match being played, a wait on the workers), so the block's cleanup
    runs; except inside `held()`, where the signal waits for the end of the held part (the rows
    of a match being written and counted, which must be all or nothing)."""

    def __init__(self) -> None:
        self.holding = False
        self.pending: int | None = None
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> Signals:
        # Only the main thread may set handlers; elsewhere (a server's thread) a run is stopped
        # by whoever started it.
        if threading.current_thread() is threading.main_thread():
            self.previous = {s: signal.signal(s, self._stop)
                             for s in (signal.SIGINT, signal.SIGTERM)}
        return self

    def __exit__(self, *exc: object) -> None:
        for s, handler in self.previous.items():
            signal.signal(s, handler)

    def _stop(self, signum: int, _frame: Any) -> None:
        if self.holding:
            self.pending = signum
        else:
            raise Stopped(signum)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        if self.pending is not None:
            raise Stopped(self.pending)


def chunk_size(matches: int, workers: int) -> int:
    """Matches a task: about eight tasks per worker so that they finish close together,
    at most MAX_CHUNK."""
    return max(1, min(MAX_CHUNK, matches // (workers * 8)))


def play(study: Study, indices: Sequence[int], on_match: Callable[[list[Row]], None],
         jobs: int = 1, scheduler: str | None = None) -> None:
    """Play match `indices` of every arm, handing each index's rows to `on_match` in order:
    here when jobs is 1 and no scheduler is given, else on Dask."""
    if jobs == 1 and scheduler is None:
        for index in indices:
            on_match(play_index(study, index))
        return
    with cluster(jobs, scheduler) as client:
        play_on(client, study, indices, on_match)


@contextlib.contextmanager
def cluster(jobs: int, scheduler: str | None) -> Iterator[Any]:
    """A Dask client: of the cluster at `scheduler`, or of a local cluster of `jobs`
    single-threaded worker processes, closed with the block; closed at once when the block is
    left by an exception (a stop): a worker in the middle of a match is killed rather than
    waited for, since what it was playing would be dropped anyway."""
    from distributed import Client, LocalCluster  # seconds to import: only when asked for

    if scheduler is not None:
        try:
            client = Client(scheduler)
        except OSError as exc:  # no answer
            raise ClusterUnavailable(f"no Dask scheduler answers at {scheduler!r}: "
                                     f"{exc}".rstrip(": "), repr(exc)) from exc
        except (ValueError, TypeError) as exc:  # no address
            raise ClusterUnavailable(f"{scheduler!r} is no scheduler's address (e.g. "
                                     f"tcp://10.0.0.5:8786): {exc}".rstrip(": "),
                                     repr(exc)) from exc
        with client:
            yield client
        return
    # Errors of the matches come back through their results; what the cluster would log at a
    # stop (workers killed, connections lost) is expected and says nothing. It listens on this
    # machine only, its HTTP server on a free port.
    local = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                         host="127.0.0.1", dashboard_address=":0",
                         silence_logs=logging.CRITICAL)
    client = Client(local)
    workers = list(client.run(os.getpid).values())
    try:
        yield client
    except BaseException:
        for pid in workers:  # the processes the local cluster started for this run
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(Exception):  # the workers are gone, not waited for
            client.close(timeout=1)
            local.close(timeout=1)
        raise
    client.close()
    local.close()


def play_on(client: Any, study: Study, indices: Sequence[int],
            on_match: Callable[[list[Row]], None]) -> None:
    """Play `indices` on the cluster behind `client` (module docstring)."""
    from distributed import as_completed

    workers = max(1, sum(client.nthreads().values()))
    size = chunk_size(len(indices), workers)
    # Ranges, not lists: a run of ten million matches is a few numbers until it is played.
    chunks = (indices[i:i + size] for i in range(0, len(indices), size))
    position: dict[Any, int] = {}  # future → the chunk's place in the run
    done: dict[int, list[list[Row]]] = {}
    next_out = 0

    def submit(number: int, chunk: list[int]) -> Any:
        future = client.submit(play_chunk, study, chunk, pure=False)
        position[future] = number
        return future

    numbered = enumerate(chunks)
    running = as_completed([submit(n, c) for n, c in islice(numbered, workers * IN_FLIGHT)])
    try:
        for future in running:
            done[position.pop(future)] = future.result()
            future.release()
            for number, chunk in islice(numbered, 1):
                running.add(submit(number, chunk))
            while next_out in done:
                for rows in done.pop(next_out):
                    on_match(rows)
                next_out += 1
    finally:
        client.cancel(list(position))

