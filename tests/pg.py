"""A throwaway PostgreSQL cluster from Debian's postgresql package, on a free loopback port.

initdb refuses to run as root, so as root the server runs as the `postgres` user."""

import atexit
import functools
import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import psycopg

from tests.server import free_port

START_SECONDS = 30  # as long as pg_ctl's -w would wait for the server to accept connections


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} is missing: `make test` installs postgresql")
    return found[-1]


def _as_postgres(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


class _Server:
    """A cluster's server: `postgres` itself, a child of the test process, started through
    setpriv with a parent-death signal (SIGINT, PostgreSQL's fast shutdown), so a test process
    ended outright takes its clusters with it, as it does its app servers (tests/server.py).
    pg_ctl would start it as a daemon, beyond the reach of that signal."""

    def __init__(self, data: str, workdir: str, options: list[str], admin: str) -> None:
        user = ["--reuid=postgres", "--regid=postgres", "--init-groups"] if os.geteuid() == 0 \
            else []
        self.command = ["setpriv", *user, "--pdeathsig", "INT", "--", _bin("postgres"),
                        "-D", data, *options]
        self.workdir, self.admin = workdir, admin
        self.log = os.path.join(workdir, "log")
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        """Started, and answering, as `pg_ctl start -w` leaves it."""
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(self.command, cwd=self.workdir, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                psycopg.connect(self.admin, connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    with open(self.log, errors="replace") as log:
                        raise RuntimeError(f"PostgreSQL did not start: {log.read()}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """Stopped as a crash would stop it: immediately (SIGQUIT, `pg_ctl -m immediate`)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# DATABASE_URL → its cluster's server and directory.
_CONTROLS: dict[str, tuple[_Server, str]] = {}


def stop_server(url: str) -> None:
    """Stop the server of a running postgres_cluster() (as a crash would: immediately)."""
    _CONTROLS[url][0].stop()


def start_server(url: str) -> None:
    """Start again the server that stop_server stopped."""
    _CONTROLS[url][0].start()


def server_processes(url: str) -> list[int]:
    """The running server's processes: the postmaster and every backend and helper it started."""
    workdir = _CONTROLS[url][1]
    with open(os.path.join(workdir, "data", "postmaster.pid")) as pidfile:
        postmaster = int(pidfile.readline())
    children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True,
                              text=True).stdout
    return [postmaster, *map(int, children.split())]


@contextmanager
def frozen(url: str) -> Iterator[None]:
    """The running server of a postgres_cluster() stopped (SIGSTOP), every process of it, for
    the block: it holds its connections and answers nothing, as a suspended host or a stalled
    disk would; it goes on (SIGCONT) after."""
    processes = server_processes(url)
    assert processes
    for pid in processes:
        _signal_if_running(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in processes:
            _signal_if_running(pid, signal.SIGCONT)


def _signal_if_running(pid: int, signum: int) -> None:
    """A short-lived backend listed a moment ago may have ended since: nothing to signal."""
    with suppress(ProcessLookupError):
        os.kill(pid, signum)


@functools.cache
def _template() -> str:
    """A cluster's data directory fresh from initdb, made once per test process and copied for
    each cluster: initdb takes most of a second of CPU, a copy a tenth of that."""
    workdir = tempfile.mkdtemp(prefix="digsite-pg-template-")
    atexit.register(shutil.rmtree, workdir, True)
    if os.geteuid() == 0:
        shutil.chown(workdir, "postgres", "postgres")
    data = os.path.join(workdir, "data")
    subprocess.run(_as_postgres([_bin("initdb"), "-D", data, "-A", "trust", "-U", "postgres",
                                 "--no-sync", "-E", "UTF8"]),
                   check=True, capture_output=True, cwd=workdir)
    return data


@contextmanager
def postgres_cluster(socket_only: bool = False) -> Iterator[str]:
    """Yields a DATABASE_URL for a fresh database in a new cluster; removes it all after.

    socket_only: the server listens on no TCP port, only on a Unix socket in its own directory,
    and the URL names that directory: while stop_server has it down, nothing answers there in
    its place (another test's cluster may take a freed loopback port, and has a `digsite`
    database too), and no other server can hold its port when start_server starts it again.

    The server's commands run inside its own directory: the `postgres` user may not be allowed
    into the checkout the tests run from."""
    workdir = tempfile.mkdtemp(prefix="digsite-pg-")
    data = os.path.join(workdir, "data")
    if os.geteuid() == 0:
        shutil.chown(workdir, "postgres", "postgres")
    port = free_port()
    # cp -a keeps the files' owner (postgres) and modes (a data directory must be private)
    subprocess.run(["cp", "-a", _template(), data], check=True, capture_output=True)
    options = ["-p", str(port), "-k", workdir,
               "-c", f"listen_addresses={'' if socket_only else '127.0.0.1'}",
               "-c", "fsync=off", "-c", "max_connections=100"]
    if socket_only:
        url = f"postgresql://postgres@/digsite?host={workdir}&port={port}"
        admin = f"postgresql://postgres@/postgres?host={workdir}&port={port}"
    else:
        url = f"postgresql://postgres@127.0.0.1:{port}/digsite"
        admin = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    server = _Server(data, workdir, options, admin)
    _CONTROLS[url] = (server, workdir)
    try:
        server.start()
        for attempt in range(50):
            try:
                with psycopg.connect(admin, autocommit=True) as conn:
                    conn.execute("CREATE DATABASE digsite")
                break
            except psycopg.OperationalError:
                if attempt == 49:  # say so here, not as a puzzling failure in the test
                    raise
                time.sleep(0.1)
        yield url
    finally:
        _CONTROLS.pop(url, None)
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
