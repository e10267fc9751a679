"""Work that would stall the gevent worker's event loop, run elsewhere.

Under the gevent worker every connection of a worker shares one event loop. A wait inside
SQLite's C code would hold the loop for its whole length: it runs in a thread of gevent's pool,
and the loop keeps serving the other connections meanwhile.

Bots' thinking (their turns, a batch of simulated matches) is CPU work for up to seconds: in a
thread it would still hold the interpreter's lock most of the time, and every request of the
worker would wait for it (a flood of search bots made /healthz 12 times slower). It runs in
processes of the worker's own, at a lower priority (`nice` 10): the worker's requests come
first for the CPU, and a bot's thinking takes what is left. Outside gevent (the Flask test
client, a command) the work simply runs here."""

import logging
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextvars import ContextVar
from typing import Any, TypeVar

from gevent import get_hub
from gevent.monkey import is_module_patched

log = logging.getLogger(__name__)

T = TypeVar("T")


def in_thread(work: Callable[..., T], *args: Any, timeout: float | None = None) -> T:
    """`work(*args)`, in a thread of gevent's pool when the gevent worker serves; waited for at
    most `timeout` seconds (gevent.Timeout beyond)."""
    if is_module_patched("threading"):
        return get_hub().threadpool.spawn(work, *args).get(timeout=timeout)
    return work(*args)


# What bots think in the current request is counted (None: nobody counts, as for a turn a
# clock's expiry plays): a check that refuses before they think when their budget is spent, and
# the CPU seconds they have thought. Each greenlet has its own context: each request its own.
_thinking: ContextVar[tuple[Callable[[], None], list[float]] | None] = ContextVar(
    "thinking", default=None)


def count_thinking(check: Callable[[], None]) -> list[float]:
    """From here on in this request (greenlet), `check()` runs before bots think (it raises to
    refuse) and what they think is summed: the one-item list that holds the sum."""
    held = [0.0]
    _thinking.set((check, held))
    return held


def stop_counting_thinking() -> None:
    _thinking.set(None)


# The thinking processes: as many as the machine has cores, each at this niceness, started
# by a fork server that has imported the games and bots once (a new one starts in milliseconds).
THINKING_NICENESS = 10
PRELOADED = ["scoring.bots", "scoring.bots.simulations", "scoring.games"]
_thinkers: ProcessPoolExecutor | None = None


def _start_thinking(worker: int) -> None:
    """Each thinking process, as it starts: at a lower priority, and ending with the worker
    that made it. A pool's process waits on a queue it holds both ends of, so it would outlive
    a worker killed outright (a timeout, the kernel short of memory), and keep its fork server
    and their resource tracker alive too, each holding the games and bots in memory."""
    os.nice(THINKING_NICENESS)
    try:
        gone = os.pidfd_open(worker)  # readable once the worker has ended
    except ProcessLookupError:
        os._exit(0)  # it ended before this process began

    def watch() -> None:
        select.select([gone], [], [])
        os._exit(0)

    threading.Thread(target=watch, name="digsite-worker-watch", daemon=True).start()


def thinkers() -> ProcessPoolExecutor:
    """This worker's thinking processes, started on first use."""
    global _thinkers
    if _thinkers is None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOADED)
        _thinkers = ProcessPoolExecutor(os.cpu_count() or 1, mp_context=context,
                                        initializer=_start_thinking, initargs=(os.getpid(),))
    return _thinkers


def thought() -> bool:
    """Whether this worker has started its thinking processes. If so, once it has served its
    last request it must end without Python's exit: the exit joins the pool's management
    thread, and under gevent's patched threads that join never returned (gevent documents the
    process pool as unsupported with them), so a worker that had ever thought waited until
    gunicorn's graceful timeout killed it, 8 s at each stop or restart. Its thinking processes,
    their fork server and resource tracker end with it, as with a worker killed outright
    (_start_thinking)."""
    return _thinkers is not None


def _timed(work: Callable[..., T], args: tuple[Any, ...]) -> tuple[T, float]:
    """`work(*args)` and the CPU seconds it took (the calling thread's: where it runs, in a
    thinking process or inline, nothing else runs in that thread meanwhile)."""
    start = time.thread_time()
    result = work(*args)
    return result, time.thread_time() - start


def think(work: Callable[..., T], *args: Any) -> T:
    """Bots' work (their turns, a batch of simulations), once the counting request's check
    lets it: in a thinking process when the gevent worker serves (`work` and `args` go there
    pickled, so `work` returns all it changes), else here. Its CPU time is added to that
    request's sum: what the thinking limit counts (api/limits.py)."""
    counting = _thinking.get()
    if counting is not None:
        counting[0]()
    if is_module_patched("threading"):
        result, seconds = _in_thinker(work, args)
    else:
        result, seconds = _timed(work, args)
    if counting is not None:
        counting[1][0] += seconds
    return result


def _in_thinker(work: Callable[..., T], args: tuple[Any, ...]) -> tuple[T, float]:
    """The work in a thinking process; waited for cooperatively (under gevent the pool's own
    thread is a greenlet). A pool whose process died (killed, out of memory) is replaced, and
    the work tried once more."""
    global _thinkers
    for attempt in range(2):
        try:
            return thinkers().submit(_timed, work, args).result()
        except BrokenProcessPool:
            log.warning("A thinking process died; starting new ones")
            _thinkers = None
            if attempt:
                raise
    raise AssertionError("unreachable")
