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

from tests.server import ENDS_WITH_ITS_TEST, free_port

REDIS_SERVER = "/usr/bin/redis-server"
# A running redis_server()'s URL → its process, and the command and directory that started it.
_PROCESSES: dict[str, subprocess.Popen] = {}
_STARTS: dict[str, tuple[list[str], str]] = {}


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


def start_server(url: str, timeout: float = 10.0) -> None:
    """Start again, empty, on the same port, the server that stop_server stopped."""
    command, workdir = _STARTS[url]
    _PROCESSES[url].stderr.close()
    _PROCESSES[url] = _launch(command, workdir, int(url.rsplit(":", 1)[1].split("/")[0]),
                              timeout)


def _launch(command: list[str], workdir: str, port: int, timeout: float) -> subprocess.Popen:
    process = subprocess.Popen([*ENDS_WITH_ITS_TEST, *command], cwd=workdir,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + timeout
    while not ping(port):
        if process.poll() is not None:
            raise RuntimeError(f"redis-server exited: {process.stderr.read().decode()}")
        if time.monotonic() > deadline:
            _stop(process)
            raise RuntimeError("redis-server did not answer PING in time")
        time.sleep(0.05)
    return process


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
    command = [executable, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", workdir, "--protected-mode", "yes"]
    process = None
    try:
        process = _launch(command, workdir, port, timeout)
        _PROCESSES[url], _STARTS[url] = process, (command, workdir)
        yield url
    finally:
        process = _PROCESSES.pop(url, process)  # the one start_server started, if it did
        _STARTS.pop(url, None)
        if process is not None:
            _stop(process)
            process.stderr.close()
        shutil.rmtree(workdir, ignore_errors=True)
