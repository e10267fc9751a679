"""Work that would stall the gevent worker's event loop, run in a real thread instead.

Under the gevent worker every connection of a worker shares one event loop. A bot thinking
through its turns, a batch of simulated matches or a wait inside SQLite's C code would hold the
loop for its whole length; in a thread of gevent's pool the loop keeps serving the other
connections (Python hands the interpreter to the loop every few milliseconds). Outside gevent
(the Flask test client, a command) the work simply runs here."""

import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from gevent import get_hub
from gevent.monkey import is_module_patched

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


def think(work: Callable[..., T], *args: Any) -> T:
    """Bots' work (their turns, a batch of simulations), as `in_thread`, once the counting
    request's check lets it, its CPU time added to that request's sum: what the thinking limit
    counts (api/limits.py)."""
    counting = _thinking.get()
    if counting is not None:
        counting[0]()

    def timed() -> tuple[T, float]:
        start = time.thread_time()
        result = work(*args)
        return result, time.thread_time() - start

    result, seconds = in_thread(timed)
    if counting is not None:
        counting[1][0] += seconds
    return result
