"""How fast is a calculator next to the cheapest endpoint? Serves the app with gunicorn (2 workers,
the command `make run` uses) on a free loopback port, then measures with wrk, in one run,
GET /healthz and POST /api/v1/games/dig/score with a 4-player scoresheet.

The two endpoints take turns (several short rounds each) so that a burst of other work on the
machine hits both alike. Besides requests/s, the workers' own CPU time per request is read from
/proc: it hardly moves when other programs share the CPU.

Goal (issue 2): the calculator reaches at least 0.8 of /healthz's requests/s. Exits 1 below it.

    .venv/bin/python bench/calculator.py [--duration 10] [--rounds 5] [--threads 2]
                                         [--connections 16] [--workers 2]
"""

import argparse
import json
import os
import re
import shutil
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
class Tally:
    requests: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0

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
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s"]
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per endpoint")
    parser.add_argument("--rounds", type=int, default=5, help="turns each endpoint takes")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk (or run `make bench`)")

    tallies = {HEALTH_PATH: Tally(), SCORE_PATH: Tally()}
    with tempfile.TemporaryDirectory(prefix="digsite-bench-") as tmp:
        script = Path(tmp) / "score.lua"
        script.write_text(POST_SCRIPT.format(body=json.dumps(SCORESHEET)))
        scripts = {HEALTH_PATH: None, SCORE_PATH: script}
        env = {"DATABASE_URL": f"sqlite:///{Path(tmp) / 'digsite.db'}"}
        with serve(env, workers=args.workers) as server:
            check_scoresheet(server.url)
            pids = server.worker_pids()
            load = (args.threads, args.connections)
            per_round = max(1, round(args.duration / args.rounds))  # wrk takes whole seconds
            for path in tallies:  # warm-up, so that neither pays for first requests
                wrk(server.url + path, 1, *load, scripts[path])
            for _ in range(args.rounds):
                for path, tally in tallies.items():
                    cpu = workers_cpu_seconds(pids)
                    requests, seconds = wrk(server.url + path, per_round, *load,
                                            scripts[path])
                    tally.cpu_seconds += workers_cpu_seconds(pids) - cpu
                    tally.requests += requests
                    tally.seconds += seconds

    health, score = tallies[HEALTH_PATH], tallies[SCORE_PATH]
    ratio = score.per_second / health.per_second
    print(f"gunicorn {args.workers} workers; wrk {args.threads} threads, "
          f"{args.connections} connections; {args.duration:g} s per endpoint in "
          f"{args.rounds} alternating rounds")
    print(f"{'':34}{'requests/s':>12}{'worker CPU/request':>21}")
    for label, tally in ((f"GET  {HEALTH_PATH}", health), (f"POST {SCORE_PATH}", score)):
        print(f"{label:34}{tally.per_second:12.1f}{tally.cpu_us_per_request:18.0f} µs")
    print(f"ratio of requests/s: {ratio:.2f} (goal ≥ {GOAL}: "
          f"{'met' if ratio >= GOAL else 'NOT met'}); ratio of worker CPU per request: "
          f"{health.cpu_us_per_request / score.cpu_us_per_request:.2f}")
    return 0 if ratio >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
