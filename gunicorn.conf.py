"""gunicorn settings shared by `make run`, the tests and the container.

DIGSITE_BIND and DIGSITE_WORKERS override the defaults (127.0.0.1:8000, 2 workers); the master
prunes expired matches at start and every DIGSITE_PRUNE_HOURS (default 6; 0: never)."""

import contextlib
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from gunicorn.arbiter import Arbiter
from gunicorn.glogging import Logger


class Refused(SystemExit):
    """A setting gunicorn cannot take: it stops before it listens, exit status 1, with the
    message alone. A ValueError came after "Failed to read config file: gunicorn.conf.py" and a
    traceback, and a host read a crash."""

    def __init__(self, message: str) -> None:
        super().__init__(f"Error: {message}")


def whole_number(name: str, default: int, least: int, meaning: str) -> int:
    """The environment's whole number `name` (unset or blank: `default`), at least `least`;
    else Refused naming it and saying what it takes, which stops gunicorn before it listens,
    as the app's settings stop it (service/settings.py)."""
    text = os.environ.get(name, "").strip() or str(default)
    if not (text.isascii() and text.isdigit()) or int(text) < least:
        raise Refused(f"{name} is {meaning}, not {text!r}")
    return int(text)


def bind_address(name: str, default: str) -> str:
    """The environment's address `name` to listen on (unset or blank: `default`): HOST:PORT
    (an IPv6 host in brackets; no host: every interface), a HOST alone (gunicorn's port 8000)
    or unix:PATH; else Refused naming it, as whole_number's. A port past 65535 stopped
    gunicorn with a traceback, a word with 'not a valid port number', neither naming the
    setting."""
    text = os.environ.get(name, "").strip() or default
    if text.startswith("unix:"):
        ok = len(text) > len("unix:")
    else:
        host, colon, port = text.rpartition(":") if not text.endswith("]") else ("", "", "")
        host = host if colon else text
        port_ok = not colon or (port.isascii() and port.isdigit() and int(port) <= 65535)
        ok = bool(host or colon) and " " not in host and port_ok \
            and host.startswith("[") == host.endswith("]")
    if not ok:
        raise Refused(f"{name} is the address to listen on, HOST:PORT (a port from 0 to "
                      f"65535) or unix:PATH, not {text!r}")
    return text


bind = bind_address("DIGSITE_BIND", "127.0.0.1:8000")
# None would leave the master listening with nobody to answer.
workers = whole_number("DIGSITE_WORKERS", 2, 1, "the number of worker processes, a whole number "
                       "above 0 (about one per core)")
# Evented: every connection is a greenlet, so a slow sender, an idle keep-alive connection or a
# long-held request waits without holding up the worker (a sync worker serves one connection at a
# time: two slow clients stopped the service). psycopg 3 waits cooperatively under it. It is
# serving.py's: gunicorn's gevent worker, its own answers (to a request it cannot read: a malformed
# request line or header, headers over its limits, a broken body) problem+json, not an HTML page.
worker_class = "serving.DigsiteWorker"
# Each open event stream holds one for as long as it lasts (service/streams.py): a worker
# holding 1,000 streams must still have room for everyone else.
worker_connections = 2000
# An idle keep-alive connection is closed after this long, and so is one whose request headers
# have not all arrived (the gevent worker bounds reading them by it): a slow client holds a
# connection for seconds, not for ever.
keepalive = 5
# A worker whose event loop has not come round for this long is stuck: it is replaced.
timeout = 30
# On SIGTERM, what is being served gets this long to finish: under `docker stop`'s 10 s.
graceful_timeout = 8
# gunicorn 25+ opens a control socket by default (under $HOME or $XDG_RUNTIME_DIR); nothing here
# uses it, and it would be one more way in.
control_socket_disable = True
# gunicorn reads X-Forwarded-Proto itself: it believes it exactly when app.py's ProxyFix believes
# the forwarded headers. With no proxy trusted (DIGSITE_TRUSTED_PROXIES unset or 0) that is from
# no peer, loopback included; behind a proxy, from whoever reaches the port, which must be the
# proxy alone (deploy/ publishes no app port), or only the peers FORWARDED_ALLOW_IPS lists.
forwarded_allow_ips = (os.environ.get("FORWARDED_ALLOW_IPS", "*")
                       if whole_number("DIGSITE_TRUSTED_PROXIES", 0, 0, "the number of reverse "
                                       "proxies in front of the app, a whole number (0 for "
                                       "none)") else "")


def access_log(name: str) -> str | None:
    """The environment's access log `name`: none (unset or blank), - for standard output, or a
    file that can be appended to, made if missing (as gunicorn opens it); else Refused naming
    it, as whole_number's. gunicorn's own check said "Error: '/x/a.log' isn't writable", naming
    no setting."""
    text = os.environ.get(name, "").strip()
    if text in ("", "-"):
        return text or None
    try:
        with open(text, "a"):
            pass
    except OSError as exc:
        raise Refused(f"{name} is the file gunicorn appends its access log to (- for standard "
                      f"output), one it can write, not {text!r}: {exc.strerror}") from None
    return text


accesslog = access_log("DIGSITE_ACCESS_LOG")
# gunicorn's own line, then the id the app gave the request (api/requests.py), as the answer's
# X-Request-Id header says it.
access_log_format = ('%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" '
                     '%({x-request-id}o)s')
errorlog = "-"
# gunicorn's own levels, from the most said: it would take any other word for info, saying
# nothing.
LOG_LEVELS = sorted(Logger.LOG_LEVELS, key=Logger.LOG_LEVELS.get)
loglevel = os.environ.get("DIGSITE_LOG_LEVEL", "").strip().lower() or "info"
if loglevel not in LOG_LEVELS:
    raise Refused(f"DIGSITE_LOG_LEVEL is one of {', '.join(LOG_LEVELS[:-1])} and "
                  f"{LOG_LEVELS[-1]}, not {os.environ['DIGSITE_LOG_LEVEL']!r}")


def prune_hours(text: str) -> float:
    """DIGSITE_PRUNE_HOURS: hours between two prunes, a fraction allowed; 0 turns them off (for
    an instance that leaves them to a cron job or to another instance on the same database)."""
    try:
        hours = float(text)
    except ValueError:
        hours = math.nan
    if not 0 <= hours <= 24 * 365:
        raise Refused("DIGSITE_PRUNE_HOURS is the hours between two prunes of expired "
                      f"matches, up to a year (0: never), not {text!r}")
    return hours


PRUNE_SECONDS = prune_hours(os.environ.get("DIGSITE_PRUNE_HOURS", "").strip() or "6") * 3600
# A prune stuck longer than this (a lock never released) is stopped; a long backlog is cleared in
# batches well within it, and whatever is left waits for the next round.
PRUNE_TIMEOUT_SECONDS = 3600
# At a low CPU priority: at start it would otherwise take its share of the cores from the workers
# booting beside it (with busy cores, their start took half as long again).
PRUNE = [*(["nice", "-n", "10"] if shutil.which("nice") else []),
         sys.executable, "-m", "flask", "--app", "app", "prune", "--format", "json"]
# sh starts the prune in the background, says its pid and exits, so the prune is no child of the
# master: the master takes its children for workers (it reaps them, and so do the tools that list
# them), and the exit status would be lost to it.
LAUNCH = ["/bin/sh", "-c", '"$@" & echo "$!"', "sh", *PRUNE]
HERE = Path(__file__).resolve().parent
# The master forks a worker and launches a prune in turn, never at once: a fork copies every
# descriptor the master holds (close-on-exec spares a worker nothing: it execs nothing), and a
# worker forked while Popen is setting up the launcher would hold its pipes' write ends for as
# long as it lives, leaving the pruner waiting on them for good, with no prune ever again.
LAUNCHING = threading.Lock()


def when_ready(server: Arbiter) -> None:
    """The master listens and is about to fork the workers: start the pruner, a daemon thread
    of the master, so that pruning happens once however many workers serve, and the workers
    start without waiting for it."""
    if not PRUNE_SECONDS:
        server.log.info("expired matches are not pruned here (DIGSITE_PRUNE_HOURS is 0)")
        return
    os.register_at_fork(before=LAUNCHING.acquire, after_in_parent=LAUNCHING.release,
                        after_in_child=LAUNCHING.release)
    threading.Thread(target=prune_forever, args=(server.log,), name="digsite-prune",
                     daemon=True).start()


# A round that failed (the database away at start, say) is tried again this soon, not a whole
# period later: a server started during an outage would otherwise not prune for hours.
RETRY_FAILED_SECONDS = min(PRUNE_SECONDS, 300)


def retry_words() -> str:
    return (f"{RETRY_FAILED_SECONDS / 60:g} min" if RETRY_FAILED_SECONDS >= 60
            else f"{RETRY_FAILED_SECONDS:g} s")


def prune_forever(log: Logger) -> None:
    """Prune now, then every PRUNE_SECONDS; a round that fails is logged and tried again after
    RETRY_FAILED_SECONDS, so the thread outlives any database outage."""
    while True:
        try:
            pruned = prune_once(log)
        except Exception:  # whatever went wrong, the next round must still come
            log.exception("pruning expired matches failed; trying again in %s", retry_words())
            pruned = False
        time.sleep(PRUNE_SECONDS if pruned else RETRY_FAILED_SECONDS)


def prune_once(log: Logger) -> bool:
    """One `flask prune`, in a process of its own. The master must not import the app: psycopg
    picks how it waits when imported, and a worker forked from a master that had imported it
    before gevent patched the worker would block on every PostgreSQL query; a worker forked
    while this thread held a connection or a lock would inherit it too."""
    with LAUNCHING:  # once Popen returns, the master holds only the pipes' read ends
        launcher = subprocess.Popen(LAUNCH, cwd=HERE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
    with launcher:
        pid = int(launcher.stdout.readline())
        try:
            out, err = launcher.communicate(timeout=PRUNE_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                os.kill(pid, signal.SIGKILL)  # each batch is a transaction: none is left half done
            launcher.communicate()
            log.error("pruning expired matches took over %d s and was stopped; the batches it "
                      "finished stay done", PRUNE_TIMEOUT_SECONDS)
            return True  # what is left waits for the next round, as it says
    # The prune's exit status goes to whoever adopted it: the report it prints last is what says
    # it succeeded.
    try:
        report = json.loads(out.strip().splitlines()[-1])
    except (IndexError, ValueError):
        why = " | ".join(line.strip() for line in err.strip().splitlines()[-3:])
        log.error("pruning expired matches failed; trying again in %s: %s", retry_words(),
                  why or "it printed no report")
        return False
    log.info("pruned %d idle matches (no move for %d days), %d finished matches (kept %d days), "
             "%d log entries, %d tombstones (over %d days old) and %d shared tallies",
             report["idle"], report["idle_days"], report["finished"], report["finished_days"],
             report["log_entries"], report["tombstones"], report["tombstone_days"],
             report["tallies"])
    return True
