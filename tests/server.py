"""Serve the app with the same gunicorn command as `make run` and the container, on a free
loopback port, for tests that exercise the real server."""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
COMMAND = [GUNICORN, "-c", "gunicorn.conf.py", "app:create_app()"]
# The served command (and Redis, Caddy, nginx) is started through util-linux's setpriv with a
# parent-death signal: a test process ended outright (a run stopped by a timeout, SIGKILL) takes
# its servers with it, rather than leaving them serving, their watchers ticking, beside every
# later run on the machine.
# setpriv then runs the command itself (exec): the same process, the same command line. The
# signal comes when the thread that started the server ends: servers started side by side are
# started by pool threads that live until the servers are stopped.
ENDS_WITH_ITS_TEST = ["setpriv", "--pdeathsig", "TERM", "--"]


def call(server: "Server", path: str, body: dict | None = None, token: str | None = None,
         timeout: float = 60) -> dict:
    """One JSON request to a served app (a POST when there is a body), its JSON answer."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(server.url + path, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def parent_if_running(pid: int) -> int | None:
    """The parent of process `pid` if it is running (neither ended nor a zombie), from /proc:
    no terminal width, no path or name to match, so it finds processes wherever the checkout
    lies."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # it ended, or ended while we looked
        return None
    # The name in parentheses may hold spaces and ")": the fields follow the last ")".
    state, parent = stat.rsplit(")", 1)[1].split()[:2]
    return None if state == "Z" else int(parent)


def children(pid: int) -> list[int]:
    """The running processes whose parent is `pid`."""
    return sorted(int(entry.name) for entry in Path("/proc").iterdir()
                  if entry.name.isdigit() and parent_if_running(int(entry.name)) == pid)


def command_line(pid: int) -> bytes | None:
    """A process's argv as the kernel keeps it (NUL-separated, never cut), or None once it ended."""
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes()
    except OSError:
        return None


class Server:
    def __init__(self, env: dict[str, str], workers: int, root: Path = ROOT) -> None:
        self.root = root
        self.command = [str(root / Path(GUNICORN).relative_to(ROOT))
                        if Path(GUNICORN).is_relative_to(ROOT) else GUNICORN, *COMMAND[1:]]
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # Each server would prune expired matches as it starts, in a process of its own that
        # imports the app (a second of CPU): only the tests of pruning turn it on. `env` may
        # set the workers and the log level itself (the tests of settings refused at start).
        self.env = {**os.environ, "DIGSITE_PRUNE_HOURS": "0", "DIGSITE_WORKERS": str(workers),
                    "DIGSITE_LOG_LEVEL": "warning", **env,
                    "DIGSITE_BIND": f"127.0.0.1:{self.port}"}
        self.process: subprocess.Popen | None = None
        # What gunicorn and its workers write (warnings, tracebacks) goes to a file, not a pipe
        # nobody reads while the server runs: a full pipe would block whichever process wrote
        # next, a worker in the middle of a request, say, after a few killed workers' messages.
        self.output = tempfile.TemporaryFile()

    # Workers import the app (a second or two each on an idle core); with every core busy with
    # other tests, four of them have taken over 20 s to answer.
    def start(self, timeout: float = 60.0) -> None:
        self.launch()
        if not self.answers(timeout):
            self.stop()
            raise RuntimeError("gunicorn did not answer /healthz in time")

    def launch(self) -> None:
        """Starts the server without waiting for it to answer."""
        self.process = subprocess.Popen([*ENDS_WITH_ITS_TEST, *self.command], cwd=self.root,
                                        env=self.env, stdout=subprocess.DEVNULL,
                                        stderr=self.output, start_new_session=True)

    def answers(self, timeout: float = 60.0) -> bool:
        """Whether the server answers /healthz within `timeout` seconds: once it has started, or
        once the workers that replace killed ones have."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log()}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as response:
                    if response.status == 200:
                        return True
            except OSError:
                time.sleep(0.1)
        return False

    def log(self) -> str:
        """What the server has written so far."""
        self.output.seek(0)
        return self.output.read().decode(errors="replace")

    def tell(self) -> None:
        """Writes what the server wrote to stderr, which pytest shows beside a failure: the
        reason a server closed a connection or lost a worker is in its log, which is otherwise
        thrown away with the server."""
        sys.stderr.write(f"--- gunicorn on port {self.port} wrote:\n{self.log()}--- end\n")

    def worker_pids(self) -> list[int]:
        """The master's gunicorn workers: its children forked with its own command line, so not
        the shell that launches a prune now and then (gunicorn.conf.py)."""
        master = command_line(self.process.pid)
        return [pid for pid in children(self.process.pid) if command_line(pid) == master]

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


@contextmanager
def serve(env: dict[str, str] | None = None, workers: int = 2,
          root: Path = ROOT) -> Iterator[Server]:
    """gunicorn serving `app:create_app()` from the checkout at `root` (this one, or a link to
    it) until the block ends."""
    server = Server(env or {}, workers, root)
    server.start()
    try:
        yield server
    except GeneratorExit:  # the block was left unfinished, not failed
        raise
    except BaseException:
        server.tell()
        raise
    finally:
        server.stop()


def app_refusal(tmp_path: Path, **settings: str) -> str:
    """What the app, made in this process with `settings` (on a database in `tmp_path`), is
    refused with at start: the message naming the setting."""
    from app import create_app

    try:
        create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}",
                    **settings})
    except ValueError as refused:
        return str(refused)
    raise AssertionError(f"the app started with {settings}")


def refused_at_start(tmp_path: Path, **settings: str) -> list[str]:
    """The lines gunicorn wrote as it stopped at start, refusing `settings` (on a database in
    `tmp_path`): the refusal in words, and no traceback."""
    server = Server({"DATABASE_URL": f"sqlite:///{tmp_path / 'digsite.db'}", **settings}, 1)
    try:
        server.start()
    except RuntimeError as refused:
        assert str(refused).startswith("gunicorn exited:"), refused
        assert "Traceback" not in str(refused), refused
        return str(refused).removeprefix("gunicorn exited: ").splitlines()
    server.stop()
    raise AssertionError(f"gunicorn started with {settings}")


@contextmanager
def serve_side_by_side(env: dict[str, str] | None = None, count: int = 2,
                       workers: int = 2) -> Iterator[list[Server]]:
    """`count` app servers of one environment, as several replicas share a database: started
    and stopped side by side, since each takes seconds to start."""
    servers = [Server(env or {}, workers) for _ in range(count)]
    with ThreadPoolExecutor(count) as pool:
        try:
            list(pool.map(Server.start, servers))
            yield servers
        except GeneratorExit:
            raise
        except BaseException:
            for server in servers:
                server.tell()
            raise
        finally:
            list(pool.map(Server.stop, servers))
