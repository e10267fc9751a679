"""Fifty tables at once on two app servers sharing one PostgreSQL.

Two gunicorns (2 workers each, the served command) on one throwaway PostgreSQL cluster and one
Redis for the creation rate limit, as tests/test_two_servers.py sets them up. Every table of every
game plays at once, each seat's client sending each request to either server (tests/tables.py);
a table starts a new match when one ends or reaches the cap, until the time is up. A few tables
race two clients on one seat. Prints the latency of accepted actions as the clients measured it
(p50, p99, max), accepted actions/s over all tables, the servers' CPU time an action, and the
409 answers: the racing losers and any other client sent back to its view. Then every match is
read back and replayed (as the test does); the script exits 1 if any answer or match was wrong.

    .venv/bin/python bench/tables.py [--tables 50] [--seconds 30] [--max-actions 60]
                                     [--races 4] [--seed 1]
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.calculator import workers_cpu_seconds  # noqa: E402  (the root is put on the path above)
from scoring.engine import FINISHED  # noqa: E402
from tests.pg import postgres_cluster  # noqa: E402
from tests.redis import redis_server  # noqa: E402
from tests.server import serve  # noqa: E402
from tests.tables import Played, check_all, lineup, play  # noqa: E402


def percentile(ordered: list[float], fraction: float) -> float:
    """The nearest-rank percentile of an ordered list."""
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def report(played: list[Played], seconds: float, tables: int, cpu_seconds: float) -> None:
    latencies = sorted(a.latency * 1000 for m in played for a in m.accepted)
    races = [race for m in played for race in m.races]
    refused = sum(len(m.refused) for m in played)
    lost_races = sum(race.count(409) for race in races)
    print(f"{tables} tables on 2 servers × 2 workers, one PostgreSQL: {len(played)} matches "
          f"({sum(m.status == FINISHED for m in played)} played to their end) in {seconds:.1f} s")
    if not latencies:
        print("no action was accepted")
        return
    print(f"accepted actions: {len(latencies)}, {len(latencies) / seconds:.1f}/s")
    print(f"action latency: p50 {statistics.median(latencies):.1f} ms, "
          f"p99 {percentile(latencies, 0.99):.1f} ms, max {latencies[-1]:.1f} ms")
    print(f"the servers' workers' CPU time: {cpu_seconds / len(latencies) * 1000:.1f} ms an "
          "accepted action (with the views read for it; other programs on the machine hardly "
          "move it)")
    print(f"409 answers: {refused} ({lost_races} racing losers in {len(races)} races, "
          f"{refused - lost_races} other clients sent back to their view)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the tables play")
    parser.add_argument("--max-actions", type=int, default=60, help="actions a match, at most")
    parser.add_argument("--races", type=int, default=4, help="tables that race a second client")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with postgres_cluster() as database, redis_server() as redis:
        env = {"DATABASE_URL": database, "DIGSITE_RATE_LIMIT": "10000/minute",
               "DIGSITE_THINKING_LIMIT": "off", "DIGSITE_CONNECTIONS_PER_ADDRESS": "0",
               "DIGSITE_RATE_LIMIT_STORAGE": redis}
        with serve(env, workers=2) as first, serve(env, workers=2) as second:
            urls = [first.url, second.url]
            tables = lineup(args.tables, args.races, args.seed)
            workers = first.worker_pids() + second.worker_pids()
            cpu, started = workers_cpu_seconds(workers), time.monotonic()
            played = play(urls, tables, args.max_actions, until=started + args.seconds)
            elapsed = time.monotonic() - started
            report(played, elapsed, args.tables, workers_cpu_seconds(workers) - cpu)
            errors = [error for m in played for error in m.errors]
            problems = check_all(urls, played)
    for text in errors + problems:
        print(text)
    print(f"read back and replayed: {len(played)} matches, {len(errors)} wrong answers, "
          f"{len(problems)} problems")
    return 1 if errors or problems else 0


if __name__ == "__main__":
    sys.exit(main())
