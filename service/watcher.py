"""Each worker's clock watcher: it looks for clocks that ran out and has the service apply them,
with nobody connected (API.md "Clocks"). Every worker of every app server runs one; the service
stores each expiry against the version it ran out at, so however many look, one applies it, and
a restart loses nothing (the deadlines are stored)."""

from __future__ import annotations

import logging
import threading
import time

from .matches import MatchService

logger = logging.getLogger(__name__)


def watch_clocks(service: MatchService, every: float) -> threading.Thread:
    """Start the watcher: a daemon thread (a greenlet under the gevent worker) that applies the
    expired clocks every `every` seconds, outliving any database outage."""

    def run() -> None:
        failing = False
        while True:
            time.sleep(every)
            try:
                service.expire_due()
            except Exception as exc:  # an outage: logged once, tried again at the next tick
                if not failing:
                    logger.warning("clocks could not be checked: %s", str(exc).splitlines()[0])
                failing = True
            else:
                failing = False

    thread = threading.Thread(target=run, name="digsite-clocks", daemon=True)
    thread.start()
    return thread
