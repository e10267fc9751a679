"""The tests and benchmarks find a server's workers wherever the checkout lies: a clone in a
folder with a long path is served and measured like any other; and a worker that is killed
leaves none of its processes behind; nor does a test process killed outright leave its servers
or its PostgreSQL clusters; and a worker whose bots have thought stops when told to."""

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from tests.server import ROOT, call, children, parent_if_running, serve

WORKERS = 3


def test_every_worker_is_found_when_the_checkout_path_is_long(tmp_path, monkeypatch):
    # ps cuts each line at the terminal's width: COLUMNS, or 80 when a terminal or CI says so.
    monkeypatch.setenv("COLUMNS", "80")
    folder = tmp_path / ("a-clone-in-a-folder-with-a-rather-long-name-" * 3)
    folder.mkdir()
    checkout = folder / "digsite"
    checkout.symlink_to(ROOT, target_is_directory=True)
    assert len(str(checkout)) >= 150
    database = f"sqlite:///{tmp_path / 'matches.db'}"
    with serve({"DATABASE_URL": database}, workers=WORKERS, root=checkout) as server:
        # At that width the served command's name lies past the end of ps's line.
        listed = subprocess.run(["ps", "-o", "args=", "-p", str(server.process.pid)],
                                capture_output=True, text=True).stdout
        assert listed.strip() and "gunicorn -c" not in listed
        workers = server.worker_pids()
        assert len(workers) == WORKERS and server.process.pid not in workers

        # A worker that dies is replaced, and the replacement is found in its place.
        os.kill(workers[0], signal.SIGKILL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            now = server.worker_pids()
            if len(now) == WORKERS and workers[0] not in now:
                break
            time.sleep(0.1)
        assert len(now) == WORKERS and workers[0] not in now


def running(pids: set[int] | list[int]) -> set[int]:
    return {pid for pid in pids if parent_if_running(pid) is not None}


def still_running_after(pids: set[int] | list[int], seconds: float) -> set[int]:
    """Which of `pids` still run once they have all ended, or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and running(pids):
        time.sleep(0.1)
    return running(pids)


@contextmanager
def a_test_process(script: str) -> Iterator[list[str]]:
    """Runs `script` as a test process of its own: it starts something, prints one line (what
    it started) and sleeps. The block gets the line's words while the process runs; the
    process is killed outright (SIGKILL) as the block ends."""
    test = subprocess.Popen([sys.executable, "-c", f"import sys, time; "
                             f"sys.path.insert(0, {str(ROOT)!r})\n{script}"],
                            stdout=subprocess.PIPE, text=True)
    try:
        yield test.stdout.readline().split()
    finally:
        test.kill()
        test.wait()


def descendants(pid: int) -> set[int]:
    found = set()
    for child in children(pid):
        found |= {child, *descendants(child)}
    return found


def test_a_worker_killed_outright_takes_its_thinking_processes_with_it(tmp_path):
    """A worker ended by SIGKILL (a timeout, the kernel short of memory) leaves none of the
    processes its bots thought in: neither the thinking processes, nor their fork server, nor
    their resource tracker."""
    database = f"sqlite:///{tmp_path / 'matches.db'}"
    with serve({"DATABASE_URL": database}, workers=1) as server:
        call(server, "/api/v1/games/dig/matches", {
            "players": [{"name": "Rex", "bot": "greedy"}, {"name": "Max", "bot": "greedy"}]})
        worker = server.worker_pids()[0]
        thinking = descendants(worker)
        assert len(thinking) >= 3  # the fork server, a thinking process, the resource tracker
        os.kill(worker, signal.SIGKILL)
        assert not still_running_after(thinking, 15)



def test_a_worker_that_thought_stops_when_told_to_without_waiting_out_its_graceful_timeout(
        tmp_path):
    """A worker whose bots had thought (its thinking processes started) waited, told to stop
    (SIGTERM: a deploy, a rolling restart), until gunicorn's graceful timeout killed it: 8 s
    each time. The graceful timeout is made far longer than the test waits."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'matches.db'}",
           "GUNICORN_CMD_ARGS": "--graceful-timeout 300"}
    with serve(env, workers=1) as server:
        call(server, "/api/v1/games/dig/matches", {
            "players": [{"name": "Rex", "bot": "greedy"}, {"name": "Max", "bot": "greedy"}]})
        thinking = descendants(server.worker_pids()[0])
        assert thinking
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError("the server was still stopping 30 s after it was told to") \
                from None
        assert server.process.returncode == 0, server.log()
        assert not still_running_after(thinking, 15)


def test_a_test_process_killed_outright_takes_its_server_with_it(tmp_path):
    """A run stopped by SIGKILL (a timeout) runs no teardown: its servers end all the same,
    rather than serve on beside every later run on the machine."""
    with a_test_process(
            "from tests.server import Server\n"
            f"server = Server({{'DATABASE_URL': 'sqlite:///{tmp_path / 'matches.db'}'}}, 1)\n"
            "server.start()\n"
            "print(server.process.pid, *server.worker_pids(), flush=True)\n"
            "time.sleep(600)\n") as line:
        served = [int(pid) for pid in line]
        assert len(served) == 2 and running(served) == set(served)  # the master, its worker
    # the master's graceful stop: graceful_timeout, 8 s
    assert not still_running_after(served, 30)


def test_a_test_process_killed_outright_takes_its_postgresql_cluster_with_it():
    left = []  # what the killed process leaves behind: its cluster's folder, its template
    try:
        with a_test_process(
                "import os\n"
                "from tests.pg import _CONTROLS, _template, postgres_cluster, server_processes\n"
                "with postgres_cluster() as url:\n"
                "    print(_CONTROLS[url][1], os.path.dirname(_template()),\n"
                "          *server_processes(url), flush=True)\n"
                "    time.sleep(600)\n") as line:
            left, pids = line[:2], line[2:]
            # the postmaster, then its helpers (a backend may be ending as they are listed)
            served = [int(pid) for pid in pids]
            assert served and parent_if_running(served[0])
        assert not still_running_after(served, 30)
    finally:
        for folder in left:
            shutil.rmtree(folder, ignore_errors=True)
