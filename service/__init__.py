"""The match service and what it stands on: settings read once, the store, the clock watcher
and live-update notices. HTTP is one door to it (api/), the commands another (cli.py)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable

import click
import sqlalchemy as sa
from flask import Flask, current_app
from flask.cli import FlaskGroup
from gevent.monkey import is_module_patched

from . import settings as settings_module
from .idempotency import IdempotencyKeys
from .matches import MatchService
from .notify import Hub
from .settings import Settings
from .store import Storage
from .studies import Studies
from .tallies import Tallies
from .watcher import every, watch_clocks
from .webhooks import send_webhooks

log = logging.getLogger(__name__)

# The database cannot be reached: as SQLAlchemy wraps it, and as the driver raises it where
# SQLAlchemy passes it on unwrapped (a pre-ping's reconnection that fails; SQLite's file).
DATABASE_AWAY = (sa.exc.OperationalError, sa.exc.InterfaceError, sa.exc.TimeoutError,
                 sqlite3.OperationalError)
# How often a worker that started while the database was away tries again to bring its schema
# to the newest revision (the requests that need the database try too, and answer 503 meanwhile).
SCHEMA_RETRY_SECONDS = 2


def configure(app: Flask) -> Settings:
    """Read the app's settings, once: from its config, else the environment (ValueError naming
    a setting that cannot be read)."""
    config = settings_module.read(app.config)
    app.extensions["digsite_settings"] = config
    return config


def init_app(app: Flask, same_name: Callable[[str], str] = str) -> MatchService:
    """Open the store and build the app's match service (after `configure`)."""
    config = config_of(app)
    served = is_module_patched("threading")  # a served worker, not a command or a test's client
    waits = {} if config.digsite_database_seconds is None else {
        "wait_seconds": config.digsite_database_seconds}
    store = Storage(config.database_url, newest=False, **waits)
    if not finding_own_command():
        try:
            store.bring_to_newest()
        except DATABASE_AWAY as exc:
            if not served:
                raise
            # A worker that failed to boot would take its master and the other workers down
            # with it (gunicorn halts): it serves instead, 503 where the database is needed.
            log.warning("the database cannot be reached as this worker starts (%s): it serves, "
                        "answering 503 where the database is needed, and brings the schema to "
                        "the newest revision once it answers", str(exc).splitlines()[0])
            every(SCHEMA_RETRY_SECONDS, store.bring_to_newest,
                  "the schema could not be brought to the newest revision", "digsite-schema")
    hub = Hub(store.engine, config.redis_url, config.digsite_stream_poll_seconds)
    service = MatchService(store, hub, simulation_limit=config.digsite_simulation_limit,
                           same_name=same_name, webhook_hosts=config.digsite_webhook_hosts,
                           thinking=app.extensions.get("digsite_thinking"))
    app.extensions["digsite_storage"] = store
    app.extensions["digsite_matches"] = service
    app.extensions["digsite_tallies"] = Tallies(store, hub)
    # A study's bot time counts against its creator's thinking budget (api/limits.py).
    studies = Studies(store, hub, config, app.extensions.get("digsite_thinking"))
    app.extensions["digsite_studies"] = studies
    app.extensions["digsite_idempotency"] = IdempotencyKeys(store.engine)
    # The served worker calls it when told to stop (serving.py): open streams end now, and the
    # study it plays goes to another worker once the chunk in play is stored.
    app.extensions["digsite_leaving"] = lambda: (hub.leave(), studies.leave())
    if served:
        watch_clocks(service, config.digsite_clock_poll_seconds)
        every(config.digsite_study_poll_seconds, studies.work, "studies could not be played",
              "digsite-studies")
        if config.digsite_webhook_hosts:  # else no match may have one: nothing to look for
            send_webhooks(store, config.digsite_webhook_hosts,
                          config.digsite_webhook_retry_seconds)
    return service


def finding_own_command() -> bool:
    """Whether the flask CLI is making the app to find one of the app's own commands (cli.py:
    `flask db`, `flask prune`…), which it does in its own group's context. Those leave the schema
    as it stands until they use the database (prune brings it to the newest revision first; the
    schema's own commands, `flask db`, read and change it as it is). Made any other way (served,
    a test's client, `flask run` or `flask shell`), the app brings it there at once."""
    context = click.get_current_context(silent=True)
    return context is not None and isinstance(context.command, FlaskGroup)


def config_of(app: Flask | None = None) -> Settings:
    return (app or current_app).extensions["digsite_settings"]


def storage() -> Storage:
    return current_app.extensions["digsite_storage"]


def match_service() -> MatchService:
    return current_app.extensions["digsite_matches"]


def tally_service() -> Tallies:
    return current_app.extensions["digsite_tallies"]


def study_service() -> Studies:
    return current_app.extensions["digsite_studies"]


def idempotency_keys() -> IdempotencyKeys:
    return current_app.extensions["digsite_idempotency"]
