"""Each worker's clock watcher: it looks for clocks that ran out and has the service apply them,
with nobody connected (API.md "Clocks"). Every worker of every app server runs one; the service
stores each expiry against the version it ran out at, so however many look, one applies it, and
a restart loses nothing (the deadlines are stored)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the service imports this module's `every` (through service/webhooks.py)
    from .matches import MatchService

logger = logging.getLogger(__name__)


def every(seconds: float, work: Callable[[], object], what: str, name: str) -> threading.Thread:
    """Start a daemon thread (a greenlet under the gevent worker) that calls `work()` every
    `seconds`, outliving any database outage: a failure is logged once ("`what` could not…"),
    and tried again at the next tick."""

    def run() -> None:
        failing = False
        while True:
            time.sleep(seconds)
            try:
                work()
            except Exception as exc:  # an outage: logged once, tried again at the next tick
                if not failing:
                    logger.warning("%s: %s", what, str(exc).splitlines()[0])
                failing = True
            else:
                failing = False

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    return thread


def watch_clocks(service: MatchService, seconds: float) -> threading.Thread:
    """Start the watcher: it applies the expired clocks every `seconds`."""
    return every(seconds, service.expire_due, "clocks could not be checked", "digsite-clocks")
