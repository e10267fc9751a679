"""Per-address rate limits on the requests that make work: opening a match, joining one and
playing a batch of simulations. The calculators, views and actions are never limited here: an
action is a seat's turn, and a table must always be able to take it.

Each kind of request has its own budget per client address, `request.remote_addr` as the app
sees it (behind a reverse proxy, the proxy's unless the app is set to trust the proxy's word),
counted by Flask-Limiter.

- DIGSITE_RATE_LIMIT: the budget of each kind, in Flask-Limiter's syntax ("20/minute;200/hour"),
  or "off".
- DIGSITE_RATE_LIMIT_STORAGE: where the counts live. Unset, in each worker process's memory;
  a shared store (`redis://host:6379/0`) makes every worker of every app server count together.

Both are read from the app's config first, then from the environment. Over budget, the answer is
429 problem+json with `Retry-After` (whole seconds) and the wait in words."""

import logging
import math
import os
import re
import time
from dataclasses import dataclass
from functools import cache, partial

from flask import Flask, Response, request
from flask_limiter import Limit, Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import parse_many

from .errors import problem

log = logging.getLogger(__name__)

# A table of friends, often all behind one home router, opens a match and fills up to five open
# seats within a minute, and plays a few dozen matches in an evening: well inside 20 a minute and
# 200 an hour of each kind. A script is held to that pace, so it can neither fill the database
# with matches nor keep a worker busy with simulations (up to a second of a core each).
DEFAULT_LIMIT = "20/minute;200/hour"
OFF = "off"
MEMORY = "memory://"
KEY_PREFIX = "digsite"  # a Redis shared with other apps keeps our counts apart
# A Redis that stops answering delays a limited request by at most this long before the limiter
# counts in memory instead (a refused connection fails at once).
REDIS_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 1}
RETRY_AFTER = {"description": "Whole seconds to wait before this address may send a request of "
                              "this kind again",
               "schema": {"type": "integer", "minimum": 1}}


@dataclass(frozen=True)
class Budget:
    """The POSTs whose path matches `path`, counted together per client address."""

    name: str
    path: re.Pattern[str]
    what: str  # as in "Too many {what} from your address"


BUDGETS = (
    Budget("matches", re.compile(r"/api/v1/games/[^/]+/matches"), "new matches"),
    Budget("joins", re.compile(r"/api/v1/matches/[^/]+/join"), "requests to join a match"),
    Budget("simulations", re.compile(r"/api/v1/games/[^/]+/simulations"), "simulations"),
)


@cache
def _budget_of(rule: str) -> Budget | None:
    return next((budget for budget in BUDGETS if budget.path.fullmatch(rule)), None)


def budget() -> Budget | None:
    """The budget the current request spends, or None for a request that is not limited."""
    if request.method != "POST" or request.url_rule is None:
        return None
    return _budget_of(request.url_rule.rule)


def setting(app: Flask, name: str) -> str | None:
    return app.config.get(name) or os.environ.get(name) or None


def in_words(seconds: int) -> str:
    if seconds < 100:
        return f"{seconds} s"
    if seconds < 2 * 3600:
        return f"{math.ceil(seconds / 60)} min"
    return f"{math.ceil(seconds / 3600)} h"


def seconds_to_wait(limiter: Limiter, error: RateLimitExceeded) -> int:
    """Until the breached budget's oldest counted request leaves its moving window."""
    breached = limiter.current_limit
    if breached is not None:
        try:
            return max(1, math.ceil(breached.window.reset_time - time.time()))
        except Exception:  # the store went away since it refused: the whole window is safe
            log.warning("Could not read when a rate limit resets; answering its whole window")
    return error.limit.limit.get_expiry()


def too_many_requests(limiter: Limiter, error: RateLimitExceeded) -> Response:
    wait = seconds_to_wait(limiter, error)
    spent = budget()
    what = spent.what if spent else "requests"
    return problem(429, f"Too many {what} from your address; try again in {in_words(wait)}.",
                   headers={"Retry-After": str(wait)})


def document(app: Flask) -> None:
    """The 429 that the limited operations document carries its Retry-After header."""
    for entry in app.extensions["flask-smorest"]["apis"].values():
        components = entry["ext_obj"].spec.components
        response = (components.responses_lazy.get("TOO_MANY_REQUESTS")
                    or components.responses["TOO_MANY_REQUESTS"])
        response["description"] = ("Too many requests of this kind from your address: wait "
                                   "the seconds Retry-After gives")
        response["headers"] = {"Retry-After": RETRY_AFTER}


def init_app(app: Flask) -> None:
    document(app)
    limit = (setting(app, "DIGSITE_RATE_LIMIT") or DEFAULT_LIMIT).strip()
    if limit.lower() == OFF:
        return
    try:
        parse_many(limit)
    except ValueError:
        raise ValueError(f"DIGSITE_RATE_LIMIT is {limit!r}: write a limit such as "
                         f"{DEFAULT_LIMIT!r}, or {OFF!r}.") from None
    storage = setting(app, "DIGSITE_RATE_LIMIT_STORAGE") or MEMORY
    shared = not storage.startswith(MEMORY)
    limiter = Limiter(
        get_remote_address,
        # One limit, applied (by the filter below) only to a request that spends a budget, and
        # counted per budget: shared by every game's endpoint of that kind.
        default_limits=[Limit(limit, scope=lambda _endpoint: budget().name, shared=True)],
        # A moving window: a refused client is told exactly when its next request is accepted,
        # and no burst at a window's edge gets twice the budget.
        strategy="moving-window",
        storage_uri=storage,
        storage_options=REDIS_OPTIONS if storage.startswith("redis") else {},
        key_prefix=KEY_PREFIX,
        # Fail open: while the shared store is unreachable each worker counts in its own memory
        # (checking back now and then), and any other failure to count lets the request through.
        in_memory_fallback_enabled=shared,
        swallow_errors=True,
    )
    # Its warnings (the store unreachable, a request let through) reach the server's error log
    # with the app's own; Flask-Limiter's logger discards them unless logging is configured.
    limiter.logger = log
    limiter.request_filter(lambda: budget() is None)
    limiter.init_app(app)
    app.register_error_handler(RateLimitExceeded, partial(too_many_requests, limiter))
