"""The app's settings, read once, when the app is made (app.py): from the app's config first
(tests and embedders pass them there), then from the environment, then the default; each checked
here, with an error that names it, so a wrong setting stops the app at start rather than at the
first request that needs it. Everything else reads `service.config_of()`, never the environment.

gunicorn.conf.py reads the few that belong to the server process itself (DIGSITE_BIND,
DIGSITE_WORKERS, DIGSITE_ACCESS_LOG, DIGSITE_LOG_LEVEL, DIGSITE_PRUNE_HOURS): the master must not
import the app."""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any
from urllib.parse import unquote, urlparse, urlsplit

from limits import parse_many

# Retention (README "Retention"): an unfinished match nobody touched for the idle days, or a
# finished one kept the finished days, is removed.
IDLE_DAYS, FINISHED_DAYS = 7, 30
MAX_DAYS = 36_500  # further back than that a cutoff date is no longer a date
# A table of friends, often all behind one home router, opens a match and fills up to five open
# seats within a minute, and plays a few dozen matches in an evening (api/limits.py).
DEFAULT_RATE_LIMIT = "20/minute;200/hour"
# Seconds of a core that bots may think for one address (and for one match): half a core
# within a minute, a sixth of one over an hour. Three search bots answering a person's move
# think 1-3 s; a match against them, 40 such moves, fits within an hour's budget four times.
DEFAULT_THINKING_LIMIT = "30/minute;600/hour"
RATE_LIMIT_OFF = "off"
# Seat-matches of work one request may ask for (api/simulations.py).
DEFAULT_SIMULATION_LIMIT = 400
# A study over HTTP (service/studies.py): the seat-matches of work it may ask for, every arm
# counted (a thousand random matches of five arms of four seats is 20,000), and the CPU seconds
# its bots may spend in all, counted as they play (an hour of one core).
DEFAULT_STUDY_LIMIT = 200_000
DEFAULT_STUDY_SECONDS = 3600


def seconds(value: Any) -> float:
    try:
        number = float(value)
    except ValueError:  # Python's own words named no form: "could not convert string to float"
        number = None
    if number is None or not 0 < number <= 3600:
        raise ValueError(f"{value!r} is not a number of seconds above 0 and at most 3600.")
    return number


def whole(value: Any) -> int | None:
    """`value` as a whole number ≥ 0, else None."""
    text = str(value).strip()
    if isinstance(value, bool) or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def whole_days(value: Any) -> int:
    """A number of days: a whole number from 1 to MAX_DAYS, else ValueError saying so."""
    days = whole(value)
    if days is None or not 1 <= days <= MAX_DAYS:
        raise ValueError(f"{value!r} is not a whole number of days from 1 to {MAX_DAYS}.")
    return days


def counted(what: str) -> Callable[[Any], int]:
    """What reads a whole number ≥ 0, refusing anything else as not `what`."""
    def parse(value: Any) -> int:
        number = whole(value)
        if number is None:
            raise ValueError(f"{value!r} is not {what}.")
        return number
    return parse


proxies = counted("a number of proxies in front of the app (0 for none)")
at_most_open = counted("the connections one address may hold open on a worker (0: no limit)")


def positive(value: Any) -> int:
    number = whole(value)
    if not number:
        raise ValueError(f"{value!r} is not a whole number above 0.")
    return number


def rate_limit(value: Any) -> str:
    limit = str(value).strip()
    if limit.lower() == RATE_LIMIT_OFF:
        return RATE_LIMIT_OFF
    try:
        budgets = parse_many(limit)
    except ValueError:
        raise ValueError(f"{limit!r} is no limit: write one such as {DEFAULT_RATE_LIMIT!r}, or "
                         f"{RATE_LIMIT_OFF!r}.") from None
    # The limits library takes a budget of 0 and then refuses every request it counts, for as
    # long as the app runs: nobody means that, and `off` is how to have no limit.
    if any(budget.amount == 0 for budget in budgets):
        raise ValueError(f"{limit!r} allows nothing: every request of its kind would be refused "
                         f"for good. Write a number above 0, as in {DEFAULT_RATE_LIMIT!r}, or "
                         f"{RATE_LIMIT_OFF!r} to turn the limits off.")
    # It reads a period of 0 ("20/0 minutes") as none written, that is 1: 20 a minute.
    if NO_TIME.search(limit):
        raise ValueError(f"{limit!r} counts over no time at all. Write a number of seconds, "
                         f"minutes, hours or days above 0, as in {DEFAULT_RATE_LIMIT!r} or "
                         "'100/2 hours'.")
    return limit


NO_TIME = re.compile(r"(?:/|\bper)\s*0+\s*[a-z]", re.IGNORECASE)
ANY_ORIGIN = "*"
SCHEME = re.compile(r"[a-z][a-z0-9+.-]*")  # RFC 3986's, as urlsplit has lowered it


def is_origin(origin: str) -> bool:
    """Whether `origin` is one as a browser sends it in Origin: scheme://host[:port], nothing
    else. Anything more (a path, a user, no scheme) would never equal a browser's, so the app
    it was meant for would be refused without a word."""
    if not origin.isascii() or re.search(r"\s", origin):
        return False
    try:
        parts = urlsplit(origin)
        parts.port  # noqa: B018  (ValueError: a port that is no number up to 65535)
    except ValueError:
        return False
    return (bool(SCHEME.fullmatch(parts.scheme)) and bool(parts.hostname)
            and "@" not in parts.netloc and not parts.netloc.endswith(":")
            and origin == f"{parts.scheme}://{parts.netloc}")


def origins(value: Any) -> tuple[str, ...]:
    """Comma-separated origins (a list in the config) or ANY_ORIGIN, each without a trailing
    slash and in lower case, as browsers send them."""
    listed = value.split(",") if isinstance(value, str) else list(value)
    found = []
    for origin in (origin.strip() for origin in listed if origin.strip()):
        read = origin.rstrip("/").lower()
        if read != ANY_ORIGIN and not is_origin(read):
            raise ValueError(f"{origin!r} is no origin: write each as scheme://host[:port], such "
                             "as https://app.example or http://localhost:5173 (no path), "
                             f"comma-separated, or {ANY_ORIGIN}.")
        found.append(read)
    return tuple(found)


HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def header_names(value: Any) -> tuple[str, ...]:
    """Comma-separated request header names (a list in the config)."""
    listed = value.split(",") if isinstance(value, str) else list(value)
    names = tuple(name.strip() for name in listed if name.strip())
    for name in names:
        if not HEADER_NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not a header name")
    return names


HOST_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*")  # a name or an IPv4 address, in ASCII


def host(entry: str) -> str | None:
    """`entry`, a host name or address (an IPv6 one without brackets, as service/webhooks.py
    compares a URL's host) or host:port, as a webhook's URL is compared with it; None when it is
    neither: a port past 65535 or a word was never any URL's, and refused every webhook. A
    port is written as service/webhooks.py writes a URL's (8080 for 08080)."""
    if entry.count(":") > 1:
        try:
            ipaddress.IPv6Address(entry)
        except ValueError:
            return None
        return entry
    name, colon, port = entry.partition(":")
    number = whole(port)
    if not HOST_NAME.fullmatch(name):
        return None
    if not colon:
        return name
    return f"{name}:{number}" if number is not None and 1 <= number <= 65535 else None


def hosts(value: Any) -> tuple[str, ...]:
    """Comma-separated host names or host:port (a list in the config), in lower case."""
    listed = value.split(",") if isinstance(value, str) else list(value)
    found = []
    for entry in (entry.strip().lower() for entry in listed if entry.strip()):
        if (read := host(entry)) is None:
            raise ValueError(f"{entry!r} is no host: write each as a host name or address, or "
                             "host:port (a port from 1 to 65535), such as hooks.example.org or "
                             "127.0.0.1:8080, comma-separated.")
        found.append(read)
    return tuple(found)


def text(value: Any) -> str | None:
    return str(value).strip() or None


# A URL's password, as in scheme://user:password@host: a refused URL is written out without it.
# The password runs to the last @, for the drivers take one holding / ? # or @ as it is.
PASSWORD = re.compile(r"^([^:/?#]+://[^:/?#@]*:).*@")


def shown(url: str) -> str:
    """`url` as a message may quote it: with *** for its password."""
    return PASSWORD.sub(r"\1***@", url)


def database(value: Any) -> str | None:
    """A SQLAlchemy URL whose dialect and driver are installed (postgres:// and postgresql://
    taken as psycopg's, as the store takes them). Whether the database answers is found when
    the store opens it."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from .store import database_url  # the store imports nothing of the settings

    url = str(value).strip()
    if not url:
        return None
    try:
        make_url(database_url(url)).get_dialect().import_dbapi()
    except (ArgumentError, ImportError, ValueError):  # no URL, no such dialect or driver, a port
        raise ValueError(f"{shown(url)!r} is no database URL this app can open (an installed "
                         "SQLAlchemy dialect and driver): write one such as "
                         "sqlite:///var/digsite.db or postgresql+psycopg://user:password@host/"
                         "digsite.") from None
    return url


def redis_reads(url: str) -> bool:
    """Whether redis-py's from_url reads `url`: redis://, rediss:// (TLS) or unix://, with a
    port that is a number, and a database (after the host's /) that is one too: redis-py reads
    any other as none and uses database 0. Whether that Redis answers is found once it is
    used, not here."""
    from redis.connection import parse_url  # only once a Redis is set, as service/notify.py

    try:
        parse_url(url)
    except ValueError:
        return False
    number = unquote(urlsplit(url).path).replace("/", "")  # the database, as redis-py reads it
    return url.startswith("unix://") or not number or whole(number) is not None


def redis_url(value: Any) -> str | None:
    """A URL redis-py reads (redis_reads)."""
    url = str(value).strip()
    if not url:
        return None
    if not redis_reads(url):
        raise ValueError(f"{shown(url)!r} is no Redis URL: write one such as "
                         "redis://127.0.0.1:6379/0, rediss://host:6380/0 (TLS) or "
                         "unix:///run/redis.sock.")
    return url


# The stores the limits library counts moving windows in (api/limits.py) with redis-py, the
# client this app installs; memory:// is each worker's own memory. One reached through a single
# address is read as redis-py reads it (redis+unix:// as unix://).
STORAGE_SCHEMES = ("memory", "redis", "rediss", "redis+unix", "redis+sentinel", "redis+cluster")
SINGLE_REDIS = ("redis", "rediss", "redis+unix")
# A Redis reached through several addresses: the form of each, for a URL that lacks a part of it
# (the library stopped the app with "'service_name' not provided" or RedisClusterException).
SEVERAL_REDIS = {
    "redis+sentinel": "a Redis Sentinel is written redis+sentinel://HOST:PORT[,HOST:PORT...]/"
                      "SERVICE, its sentinels and the name of the service they watch, such as "
                      "redis+sentinel://s1:26379,s2:26379/mymaster.",
    "redis+cluster": "a Redis Cluster is written redis+cluster://HOST:PORT[,HOST:PORT...], some "
                     "of its nodes, such as redis+cluster://n1:7000,n2:7000.",
}


def several_redis(url: str) -> bool:
    """Whether `url` of SEVERAL_REDIS lists its addresses as the limits library reads them,
    HOST:PORT, comma-separated after any user:password@ (a port a number up to 65535), at least
    one, and a sentinel's the service after them."""
    parts = urlsplit(url)
    addresses = parts.netloc.rpartition("@")[2]
    try:
        found = [urlsplit(f"//{address.strip()}") for address in addresses.split(",")]
        if not addresses or not all(part.hostname and part.port for part in found):
            return False
    except ValueError:
        return False
    return parts.scheme != "redis+sentinel" or bool(parts.path.replace("/", ""))


def storage(value: Any) -> str | None:
    """Where the rate limits count: a store of STORAGE_SCHEMES, its address one redis-py reads.
    Whether it answers is not asked here."""
    url = str(value).strip()
    if not url:
        return None
    scheme = urlparse(url).scheme if "://" in url else ""
    readable = scheme in STORAGE_SCHEMES and (
        scheme not in SINGLE_REDIS or redis_reads(url.replace("redis+unix://", "unix://", 1)))
    if readable and scheme in SEVERAL_REDIS and not several_redis(url):
        raise ValueError(f"{shown(url)!r} is no store the limits can count in: "
                         f"{SEVERAL_REDIS[scheme]}")
    if not readable:
        raise ValueError(f"{shown(url)!r} is no store the limits can count in: write a Redis URL "
                         "such as redis://127.0.0.1:6379/0 (or rediss://, redis+unix://, "
                         "redis+sentinel://, redis+cluster://), or memory://.")
    return url


# The schemes of a Dask scheduler's address by which the workers reach it on another machine;
# an address without one is tcp, Dask's default.
DASK_SCHEMES = ("tcp", "tls", "ws", "wss")


def dask_scheduler(value: Any) -> str | None:
    """A Dask scheduler's address, as Dask's Client reads one: [scheme://]host:port, an IPv6
    host in brackets. Whether a scheduler listens there is found once a study is played."""
    address = str(value).strip()
    if not address:
        return None
    scheme, sep, location = address.rpartition("://")
    if location.startswith("["):
        host, bracket, port = location[1:].partition("]")
        port = port.removeprefix(":") if bracket and port.startswith(":") else ""
    else:
        host, _, port = location.rpartition(":")
        host = "" if ":" in host else host
    number = whole(port)
    if (sep and scheme not in DASK_SCHEMES) or not host or re.search(r"[\s/@?#]", host) \
            or number is None or not 1 <= number <= 65535:
        raise ValueError(f"{address!r} is no Dask scheduler's address: write one such as "
                         "tcp://127.0.0.1:8786 or 127.0.0.1:8786 (tls://, ws:// and wss:// "
                         "also).")
    return address


@dataclass(frozen=True)
class Settings:
    """The app's settings (README "Configuration"); each is set by its name in capitals."""
    database_url: str | None = None
    # A Redis that several app servers share, for live updates between them (PostgreSQL
    # notifies by itself).
    digsite_redis_url: str | None = None
    # On SQLite, how often each worker's one watcher looks for moves made by other workers.
    digsite_stream_poll_seconds: float = 0.2
    # How often each worker looks for clocks that ran out.
    digsite_clock_poll_seconds: float = 1.0
    # The origins whose browser apps may call the API ("*": any).
    digsite_cors_origins: tuple[str, ...] = ()
    # Request headers those apps may send beyond api/cors.py's own (tracing, their own ids).
    digsite_cors_headers: tuple[str, ...] = ()
    # Each limited kind's budget per client address, or "off".
    digsite_rate_limit: str = DEFAULT_RATE_LIMIT
    # The CPU seconds bots may think (their turns, simulations, bots-only matches) for one
    # client address and for one match, or "off".
    digsite_thinking_limit: str = DEFAULT_THINKING_LIMIT
    # Where the rate limits count ("memory://": each worker's own memory).
    digsite_rate_limit_storage: str = "memory://"
    # How many reverse proxies stand in front: their forwarded headers are believed.
    digsite_trusted_proxies: int = 0
    # How many connections one address (an IPv6 /64) may hold open on one worker (serving.py), 0
    # for no limit. Behind trusted proxies, whose own address every connection has, how many
    # requests one client, by its forwarded address, may have under way on one worker (an event
    # stream until it ends: api/limits.py UnderWay).
    digsite_connections_per_address: int = 256
    digsite_idle_days: int = IDLE_DAYS
    digsite_finished_days: int = FINISHED_DAYS
    digsite_simulation_limit: int = DEFAULT_SIMULATION_LIMIT
    # API.md "Studies": the work one study may ask for, in seat-matches, and the CPU seconds
    # its bots may spend.
    digsite_study_limit: int = DEFAULT_STUDY_LIMIT
    digsite_study_seconds: int = DEFAULT_STUDY_SECONDS
    # How often each worker looks for a study to play (or one whose worker died).
    digsite_study_poll_seconds: float = 1.0
    # How long a worker's claim on a study lasts without a chunk stored: then another worker
    # takes the study over, going on from the records stored.
    digsite_study_lease_seconds: float = 30.0
    # A Dask scheduler (tcp://host:8786) that plays the studies' matches instead of the
    # workers' own thinking processes.
    digsite_dask_scheduler: str | None = None
    # API.md "Webhooks": the hosts (or host:port) a match's webhook may call; none: no webhooks.
    digsite_webhook_hosts: tuple[str, ...] = ()
    # How long after a failed delivery it is tried again (doubling after each failure).
    digsite_webhook_retry_seconds: float = 5.0
    # The longest a request's body may take to arrive whole (a slow sender holds a connection
    # and a worker's memory for no longer): then 408, and the connection is closed.
    digsite_body_seconds: float = 30.0
    # The longest a request waits on the database: on SQLite for a lock another connection
    # holds, on PostgreSQL for any answer; then 503. None: service/store.py DATABASE_SECONDS.
    digsite_database_seconds: float | None = None

    @property
    def redis_url(self) -> str | None:
        """The Redis that carries live updates between app servers, if any."""
        return self.digsite_redis_url


PARSERS: dict[str, Callable[[Any], Any]] = {
    "database_url": database,
    "digsite_redis_url": redis_url,
    "digsite_stream_poll_seconds": seconds,
    "digsite_clock_poll_seconds": seconds,
    "digsite_cors_origins": origins,
    "digsite_cors_headers": header_names,
    "digsite_rate_limit": rate_limit,
    "digsite_thinking_limit": rate_limit,
    "digsite_rate_limit_storage": storage,
    "digsite_trusted_proxies": proxies,
    "digsite_connections_per_address": at_most_open,
    "digsite_idle_days": whole_days,
    "digsite_finished_days": whole_days,
    "digsite_simulation_limit": positive,
    "digsite_study_limit": positive,
    "digsite_study_seconds": positive,
    "digsite_study_poll_seconds": seconds,
    "digsite_study_lease_seconds": seconds,
    "digsite_dask_scheduler": dask_scheduler,
    "digsite_body_seconds": seconds,
    "digsite_database_seconds": seconds,
    "digsite_webhook_hosts": hosts,
    "digsite_webhook_retry_seconds": seconds,
}


class SettingError(ValueError):
    """A setting that cannot be read, named in the message (serving.py stops a worker with the
    message alone)."""


def read(config: Mapping[str, Any], environ: Mapping[str, str] = os.environ) -> Settings:
    """The settings from `config`, else `environ`, else their defaults; SettingError naming the
    setting when one cannot be read."""
    values = {}
    for field in fields(Settings):
        name = field.name.upper()
        value = config.get(name)
        if value is None or value == "":
            value = environ.get(name)
        if value is None or value == "":
            continue
        try:
            parsed = PARSERS[field.name](value)
        except ValueError as exc:
            raise SettingError(f"{name}: {exc}") from None
        if parsed is not None:
            values[field.name] = parsed
    return Settings(**values)
