"""A throwaway PostgreSQL cluster from Debian's postgresql package, on a free loopback port.

initdb refuses to run as root, so as root the server runs as the `postgres` user."""

import atexit
import functools
import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

from tests.server import free_port


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} is missing: `make test` installs postgresql")
    return found[-1]


def _as_postgres(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


# DATABASE_URL → the command that starts its cluster's server again and the one that stops it.
_CONTROLS: dict[str, tuple[list[str], list[str], str]] = {}


def stop_server(url: str) -> None:
    """Stop the server of a running postgres_cluster() (as a crash would: immediately)."""
    _, stop, workdir = _CONTROLS[url]
    subprocess.run(stop, check=True, capture_output=True, cwd=workdir)


def start_server(url: str) -> None:
    """Start again the server that stop_server stopped."""
    start, _, workdir = _CONTROLS[url]
    subprocess.run(start, check=True, capture_output=True, cwd=workdir)


def server_processes(url: str) -> list[int]:
    """The running server's processes: the postmaster and every backend and helper it started."""
    _, _, workdir = _CONTROLS[url]
    with open(os.path.join(workdir, "data", "postmaster.pid")) as pidfile:
        postmaster = int(pidfile.readline())
    children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True,
                              text=True).stdout
    return [postmaster, *map(int, children.split())]


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
    listen = "''" if socket_only else "127.0.0.1"  # pg_ctl hands the options to a shell
    options = (f"-p {port} -k {workdir} -c listen_addresses={listen} -c fsync=off "
               "-c max_connections=100")
    start = _as_postgres([_bin("pg_ctl"), "-D", data, "-o", options, "-w", "-t", "30",
                          "-l", os.path.join(workdir, "log"), "start"])
    stop = _as_postgres([_bin("pg_ctl"), "-D", data, "-m", "immediate", "stop"])
    subprocess.run(start, check=True, capture_output=True, cwd=workdir)
    if socket_only:
        url = f"postgresql://postgres@/digsite?host={workdir}&port={port}"
        admin = f"postgresql://postgres@/postgres?host={workdir}&port={port}"
    else:
        url = f"postgresql://postgres@127.0.0.1:{port}/digsite"
        admin = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    _CONTROLS[url] = (start, stop, workdir)
    try:
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
        subprocess.run(stop, capture_output=True, cwd=workdir)
        shutil.rmtree(workdir, ignore_errors=True)
