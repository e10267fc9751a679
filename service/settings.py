"""The match service's settings, read once: from the app's config first (tests and embedders pass
them there), then from the environment, then the default; each checked here, with an error that
names it. The service reads `settings()` and never the environment."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any


def seconds(value: Any) -> float:
    number = float(value)
    if not 0 < number <= 3600:
        raise ValueError(f"{value!r} is not a number of seconds above 0 and at most 3600.")
    return number


def text(value: Any) -> str | None:
    return str(value).strip() or None


@dataclass(frozen=True)
class Settings:
    """The app's settings (README "Settings"); the environment variable of each is its name
    in capitals."""
    database_url: str | None = None
    # A Redis that several app servers share, for live updates between them (PostgreSQL
    # notifies by itself).
    digsite_redis_url: str | None = None
    # On SQLite, how often each worker's one watcher looks for moves made by other workers.
    digsite_stream_poll_seconds: float = 0.2
    # How often each worker looks for clocks that ran out.
    digsite_clock_poll_seconds: float = 1.0

    @property
    def redis_url(self) -> str | None:
        """The Redis that carries live updates between app servers, if any."""
        return self.digsite_redis_url


PARSERS: dict[str, Callable[[Any], Any]] = {
    "database_url": text,
    "digsite_redis_url": text,
    "digsite_stream_poll_seconds": seconds,
    "digsite_clock_poll_seconds": seconds,
}


def read(config: Mapping[str, Any], environ: Mapping[str, str] = os.environ) -> Settings:
    """The settings from `config`, else `environ`, else their defaults; ValueError naming the
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
            values[field.name] = PARSERS[field.name](value)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
    return Settings(**values)
