"""Serve the app with the same gunicorn command as `make run` and the container, on a free
loopback port, for tests that exercise the real server."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
COMMAND = [GUNICORN, "-c", "gunicorn.conf.py", "app:create_app()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, env: dict[str, str], workers: int) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **env, "DIGSITE_BIND": f"127.0.0.1:{self.port}",
                    "DIGSITE_WORKERS": str(workers), "DIGSITE_LOG_LEVEL": "warning"}
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 20.0) -> None:
        self.process = subprocess.Popen(COMMAND, cwd=ROOT, env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.process.stderr.read().decode()}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("gunicorn did not answer /healthz in time")

    def worker_pids(self) -> list[int]:
        """The master's gunicorn workers (not the pruner it starts now and then)."""
        out = subprocess.run(["ps", "-o", "pid=,args=", "--ppid", str(self.process.pid)],
                             capture_output=True, text=True).stdout
        return [int(line.split()[0]) for line in out.splitlines() if "gunicorn" in line]

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


@contextmanager
def serve(env: dict[str, str] | None = None, workers: int = 2) -> Iterator[Server]:
    """gunicorn serving `app:create_app()` until the block ends."""
    server = Server(env or {}, workers)
    server.start()
    try:
        yield server
    finally:
        server.stop()
