"""A throwaway PostgreSQL cluster from Debian's postgresql package, on a free loopback port.

initdb refuses to run as root, so as root the server runs as the `postgres` user."""

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


@contextmanager
def postgres_cluster() -> Iterator[str]:
    """Yields a DATABASE_URL for a fresh database in a new cluster; removes it all after.

    The server's commands run inside its own directory: the `postgres` user may not be allowed
    into the checkout the tests run from."""
    workdir = tempfile.mkdtemp(prefix="digsite-pg-")
    data = os.path.join(workdir, "data")
    if os.geteuid() == 0:
        shutil.chown(workdir, "postgres", "postgres")
    port = free_port()
    subprocess.run(_as_postgres([_bin("initdb"), "-D", data, "-A", "trust", "-U", "postgres",
                                 "--no-sync", "-E", "UTF8"]),
                   check=True, capture_output=True, cwd=workdir)
    options = (f"-p {port} -k {workdir} -c listen_addresses=127.0.0.1 -c fsync=off "
               "-c max_connections=60")
    subprocess.run(_as_postgres([_bin("pg_ctl"), "-D", data, "-o", options, "-w", "-t", "30",
                                 "-l", os.path.join(workdir, "log"), "start"]),
                   check=True, capture_output=True, cwd=workdir)
    try:
        admin = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        for _ in range(50):
            try:
                with psycopg.connect(admin, autocommit=True) as conn:
                    conn.execute("CREATE DATABASE digsite")
                break
            except psycopg.OperationalError:
                time.sleep(0.1)
        yield f"postgresql://postgres@127.0.0.1:{port}/digsite"
    finally:
        subprocess.run(_as_postgres([_bin("pg_ctl"), "-D", data, "-m", "immediate", "stop"]),
                       capture_output=True, cwd=workdir)
        shutil.rmtree(workdir, ignore_errors=True)
