"""Does the thinking limit hold a flood of bots' work to its budget? One address floods the
server with simulations of search bots and with moves against three search bots, while
another client times GET /healthz, against its times with nothing else going on.

The app is served by the gunicorn command (two workers, SQLite) with its default thinking limit
(DIGSITE_THINKING_LIMIT, 30 s a minute) counted in a shared Redis, as several workers and
servers count it. `--clients` flooding clients (half simulating, half playing) run for
`--seconds`; the timing client sends one /healthz every 50 ms meanwhile, and as many before,
on an idle server.

Reported: the answers of each kind (200, 429), the workers' CPU seconds during the flood against
the budget of that time, and /healthz's median and p99 idle and flooded.
Goal: /healthz's median under the flood at most 1.5 × its idle median, and the workers' CPU no
more than the budget and one request's worth per flooding client besides. Exits 1 otherwise.

    .venv/bin/python bench/thinking.py [--clients 8] [--seconds 70]
"""

import argparse
import collections
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.calculator import workers_cpu_seconds  # noqa: E402  (the root is put on the path above)
from service.settings import DEFAULT_THINKING_LIMIT  # noqa: E402
from tests.redis import redis_server  # noqa: E402
from tests.server import children, serve  # noqa: E402

RATIO_GOAL = 1.5
PER_MINUTE = int(DEFAULT_THINKING_LIMIT.split("/")[0])  # seconds of CPU a minute
SEARCH = "mcts"
SIMULATION = {"players": [{"name": "A", "bot": SEARCH}, {"name": "B", "bot": SEARCH}],
              "matches": 2}
MOST_ONE_REQUEST = 3.0  # CPU seconds: three search bots after a move, or a batch at the limit


def descendants(pid: int) -> list[int]:
    """The processes below `pid`: the workers, and their thinking processes and fork server."""
    found = []
    for child in children(pid):
        found += [child, *descendants(child)]
    return found


def healthz(url: str, seconds: float, session: requests.Session) -> list[float]:
    times = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        assert session.get(f"{url}/healthz", timeout=30).status_code == 200
        times.append(time.perf_counter() - started)
        time.sleep(0.05)
    return times


def flood(url: str, kind: str, seed: int, stop: threading.Event,
          answers: collections.Counter) -> None:
    session = requests.Session()
    rng = random.Random(seed)
    while not stop.is_set():
        if kind == "simulate":
            answer = session.post(f"{url}/api/v1/games/dig/simulations", json=SIMULATION,
                                  timeout=120)
            answers[(kind, answer.status_code)] += 1
            if answer.status_code == 429:
                time.sleep(0.5)  # a client that heeds nothing but a short pause
            continue
        created = session.post(f"{url}/api/v1/games/dig/matches", timeout=120, json={
            "players": ["Ann", *({"name": f"Bot {i}", "bot": SEARCH} for i in range(3))]})
        answers[("create", created.status_code)] += 1
        if created.status_code != 201:
            time.sleep(0.5)
            continue
        match = created.json()
        token, path = match["seats"][0]["token"], f"{url}/api/v1/matches/{match['id']}"
        view = match["view"]
        while not stop.is_set():
            view = session.get(path, headers={"Authorization": f"Bearer {token}"},
                               timeout=120).json()
            if view["status"] == "finished":
                break
            answer = session.post(f"{path}/actions", timeout=120,
                                  headers={"Authorization": f"Bearer {token}"},
                                  json={"action": rng.choice(view["legal_actions"]),
                                        "version": view["version"]})
            answers[(kind, answer.status_code)] += 1
            if answer.status_code == 429:
                time.sleep(0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=70)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="digsite-bench-") as tmp, \
            redis_server() as redis, \
            serve({"DATABASE_URL": f"sqlite:///{tmp}/digsite.db",
                   "DIGSITE_THINKING_LIMIT": DEFAULT_THINKING_LIMIT, "DIGSITE_RATE_LIMIT": "off",
                   "DIGSITE_RATE_LIMIT_STORAGE": redis, "DIGSITE_PRUNE_HOURS": "0"},
                  workers=2) as server:
        master = server.process.pid
        session = requests.Session()
        healthz(server.url, 2, session)  # warm-up
        idle = healthz(server.url, 10, session)
        stop, answers = threading.Event(), collections.Counter()
        clients = [threading.Thread(target=flood, args=(
            server.url, "simulate" if i % 2 else "play", i, stop, answers))
            for i in range(args.clients)]
        healthz(server.url, 0.1, session)
        # the thinking processes start on the first bots' work: their CPU is counted from 0
        cpu = workers_cpu_seconds(server.worker_pids())
        started = time.monotonic()
        for thread in clients:
            thread.start()
        flooded = healthz(server.url, args.seconds, session)
        stop.set()
        for thread in clients:
            thread.join()
        spent = workers_cpu_seconds(descendants(master)) - cpu
        elapsed = time.monotonic() - started
    budget = PER_MINUTE * (1 + int(elapsed // 60))  # fixed windows begun during the flood
    allowed = budget + MOST_ONE_REQUEST * args.clients
    ratio = statistics.median(flooded) / statistics.median(idle)
    print(f"gunicorn, 2 workers, SQLite, thinking limit {DEFAULT_THINKING_LIMIT} counted in "
          f"Redis; {args.clients} flooding clients from one address for {elapsed:.0f} s")
    for (kind, status), count in sorted(answers.items()):
        print(f"  {kind:<9} {status}: {count}")
    print(f"workers' and thinking processes' CPU during the flood: {spent:.1f} s (budget of "
          f"the windows begun: {budget} s; allowed with one request under way per client: "
          f"{allowed:.0f} s)")
    print(f"/healthz idle: median {statistics.median(idle) * 1000:.1f} ms, p99 "
          f"{sorted(idle)[int(0.99 * len(idle))] * 1000:.1f} ms; flooded: median "
          f"{statistics.median(flooded) * 1000:.1f} ms, p99 "
          f"{sorted(flooded)[int(0.99 * len(flooded))] * 1000:.1f} ms; ratio of medians "
          f"{ratio:.2f} (goal ≤ {RATIO_GOAL})")
    refused = sum(count for (_, status), count in answers.items() if status == 429)
    met = ratio <= RATIO_GOAL and spent <= allowed and refused > 0
    print("goal met" if met else "goal MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
