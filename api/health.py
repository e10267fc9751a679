"""GET /healthz (liveness) and GET /readyz (readiness) for load balancers and orchestrators.

/healthz answers as long as the process can serve a request, so a restart is the cure when it
does not. /readyz also reads from the database, within READY_TIMEOUT_S, and answers 503 when it
cannot: take the instance out of rotation, do not restart it."""

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import marshmallow as ma
import sqlalchemy as sa
from flask import current_app
from flask.views import MethodView
from flask_smorest import abort
from gevent import Timeout
from gevent.monkey import is_module_patched

from service.offload import in_thread
from service.store import matches

from .blueprint import Blueprint
from .schemas.common import Sent

blp = Blueprint("health", __name__, description="Liveness and readiness for load balancers")
log = logging.getLogger(__name__)

READY_TIMEOUT_S = 2


class HealthSchema(Sent):
    status = ma.fields.String(required=True, metadata={"example": "ok"})


class ReadySchema(Sent):
    status = ma.fields.String(required=True, metadata={"example": "ready"})
    database = ma.fields.String(required=True, metadata={"example": "ok"})


@blp.route("/healthz")
class Health(MethodView):
    @blp.doc(operationId="getHealth")
    @blp.response(200, HealthSchema)
    def get(self):
        """Liveness: the app can serve

        Does not touch the database: a failing database is /readyz's answer, not a reason to
        restart the app."""
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.doc(operationId="getReadiness")
    @blp.response(200, ReadySchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The database did not answer in time")
    def get(self):
        """Readiness: the app can serve and read its database

        Reads the match table within a short timeout (2 s); 503 when it cannot, so a load
        balancer sends requests elsewhere until the database is back."""
        store = current_app.extensions["digsite_storage"]
        reason = database_problem(store.engine, READY_TIMEOUT_S)
        if reason is None and not store.newest:  # started while the database was away
            try:
                store.bring_to_newest()
            except Exception as exc:  # noqa: BLE001  (whatever it was: not ready yet)
                reason = "the schema is not at the newest revision yet: " + \
                         f"{type(exc).__name__}: {exc}".splitlines()[0]
        if reason is not None:
            log.warning("not ready: %s", reason)
            abort(503, message="Not ready: the database cannot be read right now.",
                  headers={"Retry-After": "5"})
        return {"status": "ready", "database": "ok"}


def database_problem(engine: sa.Engine, seconds: float) -> str | None:
    """None when a read of the match table succeeds within `seconds`; else what went wrong."""
    try:
        path = engine.url.database if engine.dialect.name == "sqlite" else None
        if path and path != ":memory:":
            # SQLite waits for a lock in C, which would stall every other connection.
            in_thread(_read_sqlite, path, seconds, timeout=seconds + 1)
        else:
            with _deadline(seconds), engine.connect() as conn, conn.begin():
                if conn.dialect.name == "postgresql":
                    conn.exec_driver_sql(f"SET LOCAL statement_timeout = {int(seconds * 1000)}")
                conn.execute(sa.select(sa.literal(1)).select_from(matches).limit(1))
    except Exception as exc:  # noqa: BLE001  (whatever the driver raises: not ready)
        return f"{type(exc).__name__}: {exc}".splitlines()[0]
    except Timeout:
        return f"no answer within {seconds} s"
    return None


def _read_sqlite(path: str, seconds: float) -> None:
    """A read on a connection of its own: the app's pool opens connections with a 10 s lock wait
    that nothing outside it can shorten."""
    uri = Path(path).absolute().as_uri() + "?mode=rw"  # never create a missing file
    conn = sqlite3.connect(uri, uri=True, timeout=seconds, isolation_level=None)
    try:
        conn.execute(f'SELECT 1 FROM "{matches.name}" LIMIT 1').fetchall()
    finally:
        conn.close()


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """A wall-clock bound on network waits (connecting to PostgreSQL) where the server is evented
    (gunicorn's gevent worker makes such waits cooperative); the database's own timeout bounds
    the query."""
    with Timeout(seconds) if is_module_patched("socket") else nullcontext():
        yield
