"""The match service and what it stands on: settings read once, the store, the clock watcher
and live-update notices. HTTP is one door to it (api/), the commands another (cli.py)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, current_app
from gevent.monkey import is_module_patched

from . import settings as settings_module
from .matches import MatchService
from .notify import Hub
from .settings import Settings
from .store import Storage
from .watcher import watch_clocks


def init_app(app: Flask, simulation_limit: Callable[[int, list[str]], None] | None = None,
             same_name: Callable[[str], str] = str) -> MatchService:
    """Read the settings, open the store and build the app's match service."""
    config = settings_module.read(app.config)
    store = Storage(config.database_url)
    hub = Hub(store.engine, config.redis_url, config.digsite_stream_poll_seconds)
    service = MatchService(store, hub, simulation_limit=simulation_limit, same_name=same_name)
    app.extensions["digsite_settings"] = config
    app.extensions["digsite_storage"] = store
    app.extensions["digsite_matches"] = service
    if is_module_patched("threading"):  # a served worker, not a command or a test's client
        watch_clocks(service, config.digsite_clock_poll_seconds)
    return service


def settings() -> Settings:
    return current_app.extensions["digsite_settings"]


def storage() -> Storage:
    return current_app.extensions["digsite_storage"]


def matches() -> MatchService:
    return current_app.extensions["digsite_matches"]
