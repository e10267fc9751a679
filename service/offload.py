"""Work that would stall the gevent worker's event loop, run in a real thread instead.

Under the gevent worker every connection of a worker shares one event loop. A bot thinking
through its turns, a batch of simulated matches or a wait inside SQLite's C code would hold the
loop for its whole length; in a thread of gevent's pool the loop keeps serving the other
connections (Python hands the interpreter to the loop every few milliseconds). Outside gevent
(the Flask test client, a command) the work simply runs here."""

from collections.abc import Callable
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
