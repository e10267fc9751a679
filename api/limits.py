"""Per-address rate limits on the requests that make work: opening a match, joining one and
playing a batch of simulations; and the thinking limit, on the CPU time bots think. The
calculators and views are never limited here, nor an action in a match of people alone: an
action is a seat's turn, and a table must always be able to take it. Where bots would think
after it, the thinking limit may refuse it, with nothing played or changed.

Each kind of request has its own budget per client address, `request.remote_addr` as the app
sees it (behind a reverse proxy, the proxy's unless the app is set to trust the proxy's word);
an IPv6 client counts by its /64 network, the least a home or a phone is given, so that the
2^64 addresses of one network are one client. Counted by the `limits` library (Flask-Limiter's
core; Flask-Limiter itself would run its checks on every request, about an eighth of a small
request's time).

- DIGSITE_RATE_LIMIT: the budget of each kind, in the `limits` notation ("20/minute;200/hour"),
  or "off".
- DIGSITE_RATE_LIMIT_STORAGE: where the counts live. Unset, in each worker process's memory;
  a shared store (`redis://host:6379/0`) makes every worker of every app server count together.

- DIGSITE_THINKING_LIMIT: the CPU seconds bots may think (their turns, a batch of simulations,
  a bots-only match) for one address, and for one match, in the same notation ("30/minute"
  is 30 s of a core within a minute), or "off". Counted in fixed windows, where the rate
  limits count: the thinking of a request is counted once done, whatever it came to, and while
  a budget is spent, the next request in which bots would think is refused before they do.

All are read with the other settings (service/settings.py). Over budget, the answer is
429 problem+json with `Retry-After` (whole seconds) and the wait in words."""

import ipaddress
import logging
import math
import re
import time
from collections import Counter as Tally
from dataclasses import dataclass
from functools import cache, partial

from flask import Flask, Response, abort, current_app, g, request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter
from werkzeug.wsgi import ClosingIterator

import service
from service.errors import RATE_LIMITED, TooBusy
from service.offload import count_thinking, stop_counting_thinking
from service.settings import RATE_LIMIT_OFF

from .blueprint import PROBLEM_TYPES
from .errors import problem, type_uri

log = logging.getLogger(__name__)

# The default budget (service/settings.py), 20 a minute and 200 an hour of each kind, is well
# above what a table of friends behind one home router needs: they open a match and fill up to
# five open seats within a minute, and play a few dozen matches in an evening. A script is held
# to that pace, so it can neither fill the database with matches nor keep a worker busy with
# simulations (up to a second of a core each).
MEMORY = "memory://"
KEY_PREFIX = "digsite"  # a Redis shared with other apps keeps our counts apart
# A Redis that stops answering delays a limited request by at most this long before the limiter
# counts in memory instead (a refused connection fails at once), and is tried again after
# SHARED_RETRY_SECONDS.
REDIS_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 1}
SHARED_RETRY_SECONDS = 30
# IETF draft "RateLimit header fields for HTTP": sent on every answer to a limited request.
HEADERS = {
    "RateLimit-Policy": {"description": "The limits of this kind of request per address: each "
                                        "as \"<window>s\";q=<requests>;w=<seconds>",
                         "schema": {"type": "string"}, "example": '"60s";q=20;w=60, '
                                                                   '"3600s";q=200;w=3600'},
    "RateLimit": {"description": "Of the limit nearest to refusing: the requests left (`r`) and "
                                 "the seconds until its window lets more through (`t`)",
                  "schema": {"type": "string"}, "example": '"60s";r=19;t=60'},
}
RETRY_AFTER = {"description": "Whole seconds to wait before this address may send a request of "
                              "this kind again",
               "schema": {"type": "integer", "minimum": 1}}


@dataclass(frozen=True)
class Budget:
    """The POSTs whose path matches `path`, counted together per client address."""

    name: str
    path: re.Pattern[str]
    what: str  # as in "Too many {what} from your address"
    # Spent once the request is known to come from a seat (spend_due), not as it arrives: a
    # claim with no seat token, or a wrong one, is answered 401, not 429 "too many".
    seated: bool = False


BUDGETS = (
    Budget("matches", re.compile(r"/api/v1/games/[^/]+/matches"), "new matches"),
    # A rematch is a new match: claimed again and again, it opened matches past this budget.
    Budget("matches", re.compile(r"/api/v1/matches/[^/]+/rematch"), "new matches", seated=True),
    Budget("joins", re.compile(r"/api/v1/matches/[^/]+/join"), "requests to join a match"),
    Budget("simulations", re.compile(r"/api/v1/games/[^/]+/simulations"), "simulations"),
    Budget("tallies", re.compile(r"/api/v1/games/[^/]+/tallies"), "new shared tallies"),
    Budget("studies", re.compile(r"/api/v1/games/[^/]+/studies"), "new studies"),
    # A QR code of a secret link costs a tenth of a second of CPU at its longest; the others are
    # asked by GET, which any cache keeps.
    Budget("qr", re.compile(r"/qr\.svg"), "QR codes"),
)


# The requests in which bots may think (api/../service/offload.py `think`): a bot's turns after
# a person's move, a join, a leave or a seat handed to a bot, the first turns of a new match or
# a rematch, a bots-only match, a batch of simulations, the check of a new study's boxes (a
# match played at every table of each). What they think is counted in CPU
# seconds against the thinking limit, for the address and for the match.
THINKING = re.compile(r"/api/v1/(games/[^/]+/(matches|simulations|studies)|"
                      r"matches/<string:match_id>/(actions|join|leave|rematch|seats/<int:seat>/bot))")
# The thinking limit counts hundredths of a second.
HUNDREDTHS = 100


@cache
def _budget_of(rule: str) -> Budget | None:
    return next((budget for budget in BUDGETS if budget.path.fullmatch(rule)), None)


def budget() -> Budget | None:
    """The budget the current request spends, or None for a request that is not limited."""
    if request.method != "POST" or request.url_rule is None:
        return None
    return _budget_of(request.url_rule.rule)


def client(address: str) -> str:
    """Whom `address` counts as: an IPv4 address as it is (an IPv4-mapped IPv6 one too), an IPv6
    address as its /64 network, anything else (a Unix socket's empty address) as it is."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 4:
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.IPv6Network((int(parsed), 64), strict=False))


# Set on a request that finds its client's share of this worker's requests under way taken.
OVER_SHARE = "digsite.over_share"
TOO_MANY_UNDER_WAY = ("Too many requests from your address are under way at once; close some "
                      "(or wait for them to finish) and try again.")


class UnderWay:
    """Behind trusted proxies every connection is a proxy's, so serving.py does not limit each
    address's connections (it would count the proxy, and hold every client to one share). This
    counts, on this worker, the requests each client (its forwarded address, an IPv6 one by its
    /64) has under way, an event stream until it ends: one more than `share` is answered 429 by
    the app (`init_app`), as serving.py answers a connection over its share. One client's idle
    streams cannot take all of a worker's connections from everyone else."""

    def __init__(self, wsgi_app, share: int) -> None:
        self.wsgi_app, self.share = wsgi_app, share
        self.under_way: Tally[str] = Tally()

    def __call__(self, environ, start_response):
        who = client(environ.get("REMOTE_ADDR") or "")
        if self.under_way[who] >= self.share:
            environ[OVER_SHARE] = True
            return self.wsgi_app(environ, start_response)
        self.under_way[who] += 1
        try:
            answer = self.wsgi_app(environ, start_response)
        except BaseException:
            self.done(who)
            raise
        return ClosingIterator(answer, partial(self.done, who))

    def done(self, who: str) -> None:
        self.under_way[who] -= 1
        if not self.under_way[who]:
            del self.under_way[who]


def in_words(seconds: int) -> str:
    if seconds < 100:
        return f"{seconds} s"
    if seconds < 2 * 3600:
        return f"{math.ceil(seconds / 60)} min"
    return f"{math.ceil(seconds / 3600)} h"


class Stores:
    """Counts in the shared store when there is one, else (or while it cannot be reached) in this
    process's memory, with the `limits` strategy given; never refuses for a store that cannot
    count (fails open)."""

    what = "a request against its rate limit"  # as logged when nothing can count it

    def __init__(self, strategy: type, storage: str) -> None:
        self.strategy = strategy
        self.memory = strategy(MemoryStorage())
        # The shared store's URL (None: memory only), connected to on first use: a Redis
        # Cluster's client connects as it is made, and one away at start must not stop the app.
        self.storage = None if storage.startswith(MEMORY) else storage
        self.shared = None
        self.shared_again_at = 0.0  # while the shared store is away: when to try it again

    def _using(self, act):
        """`act(strategy)` on the shared store, else in memory; None when neither can count."""
        if self.storage is not None and time.monotonic() >= self.shared_again_at:
            try:
                if self.shared is None:
                    self.shared = self.strategy(storage_from_string(
                        self.storage,
                        **(REDIS_OPTIONS if self.storage.startswith("redis") else {})))
                counted = act(self.shared)
                if self.shared_again_at:  # the outage said below is over: said too
                    log.warning("Rate limit storage reachable again; counting there again")
                    self.shared_again_at = 0.0
                return counted
            except Exception as exc:  # noqa: BLE001  (whatever the store's client raises)
                log.warning("Rate limit storage unreachable (%s); counting in this process's "
                            "memory for %d s", exc, SHARED_RETRY_SECONDS)
                self.shared_again_at = time.monotonic() + SHARED_RETRY_SECONDS
        try:
            return act(self.memory)
        except Exception:  # noqa: BLE001
            log.exception("Could not count %s; let through", self.what)
            return None


class Counter(Stores):
    """Counts each address's requests of each budget in a moving window."""

    def __init__(self, limits: list[RateLimitItem], storage: str) -> None:
        super().__init__(MovingWindowRateLimiter, storage)
        self.limits = limits

    def spend(self, spent: Budget, address: str) -> tuple[int | None, str | None]:
        """Count a request of `spent` from `address`: None within budget, else the whole
        seconds to wait; and the RateLimit header saying what is left (None when it cannot be
        told). Fails open: a store that cannot count never refuses a request."""
        return self._using(lambda counter: self._spend(counter, spent.name, address)) or (
            None, None)

    def policy(self) -> str:
        """The RateLimit-Policy header: each limit's quota and window (IETF draft
        "RateLimit header fields for HTTP")."""
        return ", ".join(f'"{name(limit)}";q={limit.amount};w={limit.get_expiry()}'
                         for limit in self.limits)

    def _spend(self, counter: MovingWindowRateLimiter, *who: str) -> tuple[int | None, str]:
        # A refused request spends nothing: every limit is tested before any is hit. `hit`
        # itself refuses atomically, should another server have counted meanwhile.
        wait = None
        for limit in self.limits:
            if not counter.test(limit, KEY_PREFIX, *who) or not counter.hit(limit, KEY_PREFIX,
                                                                               *who):
                reset = counter.get_window_stats(limit, KEY_PREFIX, *who).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                break
        return wait, self._left(counter, *who)

    def _left(self, counter: MovingWindowRateLimiter, *who: str) -> str:
        """The RateLimit header: of the limit nearest to refusing, what is left and the
        seconds until the window lets more through."""
        stats = [(counter.get_window_stats(limit, KEY_PREFIX, *who), limit)
                 for limit in self.limits]
        (reset, remaining), limit = min(stats, key=lambda each: (each[0].remaining,
                                                                  -each[0].reset_time))
        return f'"{name(limit)}";r={remaining};t={max(0, math.ceil(reset - time.time()))}'


class Thinking(Stores):
    """The CPU seconds bots think for each address and each match, in fixed windows: what a
    request's bots thought is counted once it is known, whatever it comes to (the work is done),
    and while a window's budget is spent, the next request in which bots would think is refused
    before anything is played or changed."""

    what = "thinking against its limit"

    def __init__(self, limits: list[RateLimitItem], storage: str) -> None:
        super().__init__(FixedWindowRateLimiter, storage)
        self.limits = [type(limit)(limit.amount * HUNDREDTHS, limit.multiples)
                       for limit in limits]

    def wait(self, *keys: tuple[str, ...]) -> tuple[int, bool] | None:
        """None while every key has budget left, else the whole seconds until the first spent
        window ends and whether it is the match's (not the address's) budget."""
        def check(counter: FixedWindowRateLimiter) -> tuple[int, bool] | None:
            for key in keys:
                for limit in self.limits:
                    if not counter.test(limit, KEY_PREFIX, "thinking", *key):
                        reset = counter.get_window_stats(limit, KEY_PREFIX, "thinking",
                                                         *key).reset_time
                        return max(1, math.ceil(reset - time.time())), key[0] == "match"
            return None

        return self._using(check)

    def spend(self, seconds: float, *keys: tuple[str, ...]) -> None:
        cost = math.ceil(seconds * HUNDREDTHS)
        if cost <= 0:
            return

        def hit(counter: FixedWindowRateLimiter) -> bool:
            for key in keys:
                for limit in self.limits:
                    counter.hit(limit, KEY_PREFIX, "thinking", *key, cost=cost)
            return True

        self._using(hit)


def thinking_keys(address: str) -> list[tuple[str, ...]]:
    """What the current request's thinking counts against: its address and its match, if any."""
    keys = [("address", client(address))]
    match_id = (request.view_args or {}).get("match_id")
    if match_id:
        keys.append(("match", str(match_id)[:64]))
    return keys


def too_much_thinking(wait: int, of_match: bool) -> TooBusy:
    whose = "this match's" if of_match else "your address's"
    return TooBusy(f"The bots have thought for all of {whose} share of the server for now; "
                   f"try again in {in_words(wait)}. Nothing was played.", wait)


def name(limit: RateLimitItem) -> str:
    """A limit's name in the RateLimit headers: its window, "60s"."""
    return f"{limit.get_expiry()}s"


def too_many_requests(spent: Budget, wait: int) -> Response:
    return problem(RATE_LIMITED, f"Too many {spent.what} from your address; try again in "
                                 f"{in_words(wait)}.", headers={"Retry-After": str(wait)})


def document(app: Flask) -> None:
    """The 429 that the limited operations document carries its Retry-After header."""
    for entry in app.extensions["flask-smorest"]["apis"].values():
        components = entry["ext_obj"].spec.components
        response = (components.responses_lazy.get("TOO_MANY_REQUESTS")
                    or components.responses["TOO_MANY_REQUESTS"])
        response["description"] = ("Too many requests of this kind from your address: wait "
                                   "the seconds Retry-After gives")
        response["headers"] = {"Retry-After": RETRY_AFTER, **HEADERS}


def document_operations(spec) -> None:
    """The limited operations' answers carry the RateLimit headers: every POST whose path a
    budget counts, in each of its responses but the 429 (documented with the others above).
    Every POST in which bots may think may answer 429 too."""
    for path, item in spec._paths.items():
        if "post" in item and any(b.path.fullmatch(path) for b in BUDGETS):
            for response in item["post"]["responses"].values():
                if "$ref" not in response:
                    response.setdefault("headers", {}).update(HEADERS)
        rule = path.replace("{match_id}", "<string:match_id>").replace("{seat}", "<int:seat>")
        if "post" in item and THINKING.fullmatch(rule):
            operation = item["post"]
            operation["responses"].setdefault(str(RATE_LIMITED.status), spec.components.get_ref(
                "response", "TOO_MANY_REQUESTS"))
            listed = operation.setdefault(PROBLEM_TYPES, [])
            if type_uri(RATE_LIMITED) not in listed:
                listed.append(type_uri(RATE_LIMITED))
    # The error answers operations share (422, 409…) carry them too, to a limited request.
    for shared in (spec.components.responses, spec.components.responses_lazy):
        for response in shared.values():
            for name, header in HEADERS.items():
                response.setdefault("headers", {}).setdefault(name, {
                    **header, "description": header["description"] + " (answers to requests of "
                                                                      "a limited kind only)"})


def init_app(app: Flask) -> None:
    document(app)
    config = service.config_of(app)
    if config.digsite_trusted_proxies and config.digsite_connections_per_address:
        @app.before_request
        def within_share() -> Response | None:
            if request.environ.get(OVER_SHARE):
                return problem(RATE_LIMITED, TOO_MANY_UNDER_WAY, headers={"Retry-After": "5"})
            return None
    if config.digsite_thinking_limit != RATE_LIMIT_OFF:
        thinking = Thinking(parse_many(config.digsite_thinking_limit),
                            config.digsite_rate_limit_storage)
        # The studies' workers count their bots' time here too (service/studies.py).
        app.extensions["digsite_thinking"] = thinking
        limit_thinking(app, thinking)
    if config.digsite_rate_limit == RATE_LIMIT_OFF:
        return
    counter = Counter(parse_many(config.digsite_rate_limit), config.digsite_rate_limit_storage)

    policy = counter.policy()

    app.extensions["digsite_budgets"] = counter

    @app.before_request
    def within_budget() -> Response | None:
        # Every other request passes after one comparison: the limits cost them nothing.
        spent = budget()
        if spent is None:
            return None
        if spent.seated:
            g.budget_due = spent
            return None
        wait, left = counter.spend(spent, client(request.remote_addr or ""))
        if left is not None:
            g.rate_limit = left
        return None if wait is None else too_many_requests(spent, wait)

    @app.after_request
    def rate_limit_headers(response: Response) -> Response:
        left = g.pop("rate_limit", None)
        if left is not None:
            response.headers["RateLimit-Policy"] = policy
            response.headers["RateLimit"] = left
        return response


def spend_due() -> None:
    """Spends the budget of a request counted once it is known to come from a seat
    (Budget.seated); past it, the request is answered 429 (raised)."""
    spent = g.pop("budget_due", None)
    counter = current_app.extensions.get("digsite_budgets")
    if spent is None or counter is None:
        return
    wait, left = counter.spend(spent, client(request.remote_addr or ""))
    if left is not None:
        g.rate_limit = left
    if wait is not None:
        abort(too_many_requests(spent, wait))


def limit_thinking(app: Flask, thinking: Thinking) -> None:
    @app.before_request
    def count_thinking_of_request() -> None:
        if request.method != "POST" or request.url_rule is None or \
                not THINKING.fullmatch(request.url_rule.rule):
            return
        keys = thinking_keys(request.remote_addr or "")

        def check() -> None:
            # Asked only once bots are about to think: a move in a match of people alone is
            # never refused, whatever the address's bots thought elsewhere.
            refused = thinking.wait(*keys)
            if refused is not None:
                raise too_much_thinking(*refused)

        g.thinking = (count_thinking(check), keys)

    @app.teardown_request
    def count_what_was_thought(_error: BaseException | None) -> None:
        counted = g.pop("thinking", None)
        if counted is not None:
            stop_counting_thinking()
            thought, keys = counted
            thinking.spend(thought[0], *keys)
