"""How fast is a calculator next to the cheapest endpoint? Serves the app with gunicorn (2 workers,
the command `make run` uses) on a free loopback port, then measures with wrk, in one run,
GET /healthz and POST /api/v1/games/dig/score with a 4-player scoresheet.

The two endpoints take turns in short runs, in pairs (healthz then calculator, then the other way
round, so that a slow drift weighs on both alike), and each pair gives a ratio of requests/s. The
verdict is the median of those ratios: a burst of other work on a shared machine spoils a pair or
two, not the median. Besides requests/s, the workers' own CPU time per request is read from /proc:
it hardly moves when other programs share the CPU.

Goal: the calculator reaches at least 0.8 of /healthz's requests/s. Exits 1 below it.

    .venv/bin/python bench/calculator.py [--duration 24] [--rounds 24] [--threads 2]
                                         [--connections 16] [--workers 2]
"""

import argparse
import functools
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server import serve  # noqa: E402  (the repository root is put on the path above)

GOAL = 0.8
HEALTH_PATH = "/healthz"
SCORE_PATH = "/api/v1/games/dig/score"
# A table of four at the end of a game of DIG: 14 of the 20 bones dropped.
SCORESHEET = {
    "bowls": ["purple", "red", "green", "blue", "yellow"],
    "players": [
        {"name": "Ann", "dropped": {"green": 2, "yellow": 1, "purple": 1, "blue": 0, "red": 1}},
        {"name": "Bob", "dropped": {"green": 0, "yellow": 2, "purple": 2, "blue": 1, "red": 0}},
        {"name": "Cleo", "dropped": {"green": 1, "yellow": 0, "purple": 0, "blue": 2, "red": 1}},
        {"name": "Dev", "dropped": {"green": 0, "yellow": 0, "purple": 1, "blue": 0, "red": 0}},
    ],
}
POST_SCRIPT = """\
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [==[{body}]==]
"""


@dataclass
class Run:
    """One wrk run against one endpoint."""

    requests: int
    seconds: float
    cpu_seconds: float

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds

    @property
    def cpu_us_per_request(self) -> float:
        return self.cpu_seconds / self.requests * 1e6


def workers_cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time the gunicorn workers have used so far."""
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def wrk(url: str, seconds: int, threads: int, connections: int,
        script: Path | None) -> tuple[int, float]:
    """(requests, seconds) that wrk completed; every answer must have been a 2xx."""
    # A request slower than wrk's 2 s under a burst of other work counts as slow, not failed.
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s"]
    if script is not None:
        command += ["-s", str(script)]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    if re.search(r"Non-2xx or 3xx responses|Socket errors", out):
        raise SystemExit(f"wrk saw failed requests on {url}:\n{out}")
    done = re.search(r"(\d+) requests in ([\d.]+)(m?s)", out)
    elapsed = float(done.group(2)) / (1000 if done.group(3) == "ms" else 1)
    return int(done.group(1)), elapsed


def check_scoresheet(base: str) -> None:
    """The measured request really is scored (not refused), with the right totals."""
    request = urllib.request.Request(base + SCORE_PATH, data=json.dumps(SCORESHEET).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        result = json.load(response)
    totals = [p["total"] for p in result["players"]]
    # purple 5, red 4, green 3, blue 2, yellow 1 per bone
    if totals != [3 * 2 + 1 + 5 + 4, 2 + 5 * 2 + 2, 3 + 2 * 2 + 4, 5]:
        raise SystemExit(f"the calculator scored the bench table wrongly: {totals}")


def measure(url: str, seconds: int, load: tuple[int, int], script: Path | None,
            pids: list[int]) -> Run:
    cpu = workers_cpu_seconds(pids)
    requests, elapsed = wrk(url, seconds, *load, script)
    return Run(requests, elapsed, workers_cpu_seconds(pids) - cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=24, help="seconds per endpoint")
    parser.add_argument("--rounds", type=int, default=24, help="pairs of runs")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk (or run `make bench`)")

    pairs: list[tuple[Run, Run]] = []  # (healthz, calculator), one per round
    with tempfile.TemporaryDirectory(prefix="digsite-bench-") as tmp:
        script = Path(tmp) / "score.lua"
        script.write_text(POST_SCRIPT.format(body=json.dumps(SCORESHEET)))
        # Pruning off: the master runs it as a child process, which would be counted as a worker
        # (and would take CPU from them).
        env = {"DATABASE_URL": f"sqlite:///{Path(tmp) / 'digsite.db'}", "DIGSITE_PRUNE_HOURS": "0"}
        with serve(env, workers=args.workers) as server:
            check_scoresheet(server.url)
            pids = server.worker_pids()
            load = (args.threads, args.connections)
            per_run = max(1, round(args.duration / args.rounds))  # wrk takes whole seconds
            health = functools.partial(measure, server.url + HEALTH_PATH, per_run, load, None,
                                       pids)
            score = functools.partial(measure, server.url + SCORE_PATH, per_run, load, script,
                                      pids)
            # a warm-up, so that neither pays for the workers' first requests
            wrk(server.url + HEALTH_PATH, 1, *load, None)
            wrk(server.url + SCORE_PATH, 1, *load, script)
            for round_ in range(args.rounds):
                if round_ % 2:  # the calculator first
                    calculator = score()
                    pairs.append((health(), calculator))
                else:
                    pairs.append((health(), score()))

    ratios = sorted(s.per_second / h.per_second for h, s in pairs)
    ratio = statistics.median(ratios)
    cpu_ratio = statistics.median(h.cpu_us_per_request / s.cpu_us_per_request for h, s in pairs)
    print(f"gunicorn {args.workers} workers; wrk {args.threads} threads, "
          f"{args.connections} connections; {args.rounds} rounds of {per_run} s per endpoint, "
          "medians over the rounds")
    print(f"{'':34}{'requests/s':>12}{'worker CPU/request':>21}")
    for label, runs in ((f"GET  {HEALTH_PATH}", [h for h, _ in pairs]),
                        (f"POST {SCORE_PATH}", [s for _, s in pairs])):
        print(f"{label:34}{statistics.median(r.per_second for r in runs):12.1f}"
              f"{statistics.median(r.cpu_us_per_request for r in runs):18.0f} µs")
    print(f"ratio of requests/s: {ratio:.2f} (rounds from {ratios[0]:.2f} to {ratios[-1]:.2f}; "
          f"goal ≥ {GOAL}: {'met' if ratio >= GOAL else 'NOT met'}); "
          f"ratio of worker CPU per request: {cpu_ratio:.2f}")
    return 0 if ratio >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
