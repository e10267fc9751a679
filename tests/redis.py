"""A throwaway Redis server from Debian's redis-server package, on a free loopback port.

It keeps nothing on disk (no snapshots, no append-only file) and runs inside its own temporary
directory, so a test's keys end with the test."""

import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

from tests.server import free_port

REDIS_SERVER = "/usr/bin/redis-server"
# A running redis_server()'s URL → its process.
_PROCESSES: dict[str, subprocess.Popen] = {}


def ping(port: int, timeout: float = 0.5) -> bool:
    """Whether a Redis server answers PING on this loopback port (the inline command: no client
    library needed)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def stop_server(url: str) -> None:
    """Stop the server of a running redis_server() before its block ends, as an outage would."""
    _stop(_PROCESSES[url])


@contextmanager
def redis_server(timeout: float = 10.0) -> Iterator[str]:
    """Yields `redis://127.0.0.1:<port>/0` for a fresh Redis server; stops it and removes its
    directory after."""
    executable = shutil.which("redis-server") or REDIS_SERVER
    if not shutil.which(executable):
        raise RuntimeError("redis-server is missing: `make test` installs redis-server")
    workdir = tempfile.mkdtemp(prefix="digsite-redis-")
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    process = subprocess.Popen(
        [executable, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", workdir, "--protected-mode", "yes"],
        cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while not ping(port):
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited: {process.stderr.read().decode()}")
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not answer PING in time")
            time.sleep(0.05)
        _PROCESSES[url] = process
        yield url
    finally:
        _PROCESSES.pop(url, None)
        _stop(process)
        process.stderr.close()
        shutil.rmtree(workdir, ignore_errors=True)
