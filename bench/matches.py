"""Turn-engine benchmarks.

1. Random matches in-process, one process (one core): matches/s and actions per match.
2. Through gunicorn (the served command, 2 workers, SQLite under a temp dir): a sequential
   seat-token client plays whole random matches; the median and p95 time of
   POST /matches/{id}/actions, and the time of a full match.

Run: .venv/bin/python bench/matches.py [--matches 200] [--http-matches 3]
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.streams import moves  # noqa: E402
from scoring.engine import Rng, play_out  # noqa: E402
from scoring.games import GAMES  # noqa: E402
from tests.server import serve  # noqa: E402


def in_process(matches: int) -> None:
    print(f"In-process random matches ({matches} per table, one core)")
    print(f"{'game':<20}{'variant':<12}{'players':>8}{'matches/s':>12}{'actions/match':>15}")
    for game_id, game in GAMES.items():
        for variant, n in game.tables():
            names = [f"p{i}" for i in range(n)]
            actions = 0
            started = time.perf_counter()
            for seed in range(matches):
                _, history = play_out(game, names, seed, variant, bot_seed=seed)
                actions += len(history)
            elapsed = time.perf_counter() - started
            print(f"{game_id:<20}{variant:<12}{n:>8}{matches / elapsed:>12.1f}"
                  f"{actions / matches:>15.1f}")


def http_match(url: str, game_id: str, players: list[str], seed: int) -> tuple[list[float], float]:
    session = requests.Session()
    rng = Rng.from_seed(seed, "client")
    started = time.perf_counter()
    created = session.post(f"{url}/api/v1/games/{game_id}/matches",
                           json={"players": players, "seed": seed}).json()
    tokens = [s["token"] for s in created["seats"]]
    view = created["view"]
    timings = []
    while view["status"] != "finished":
        seat = view["to_act"][0]
        if view["you"] != seat:
            view = session.get(f"{url}/api/v1/matches/{created['id']}",
                               headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
        action = rng.choice(moves(view))
        t0 = time.perf_counter()
        response = session.post(f"{url}/api/v1/matches/{created['id']}/actions",
                                headers={"Authorization": f"Bearer {tokens[seat]}"},
                                json={"action": action, "version": view["version"]})
        timings.append(time.perf_counter() - t0)
        response.raise_for_status()
        view = response.json()
    return timings, time.perf_counter() - started


def over_http(matches: int) -> None:
    print(f"\nThrough gunicorn (2 sync workers, SQLite), sequential client, {matches} matches")
    with tempfile.TemporaryDirectory() as tmp, \
            serve({"DATABASE_URL": f"sqlite:///{tmp}/bench.db"}, workers=2) as server:
        for game_id, players in (("dig", ["Ann", "Bob"]),
                                 ("digging-for-dinos", ["Ann", "Bob", "Cy"]),
                                 ("dig-it-up", ["Ann", "Bob", "Cy", "Di"])):
            timings, totals = [], []
            for seed in range(matches):
                t, total = http_match(server.url, game_id, players, seed)
                timings += t
                totals.append(total)
            timings.sort()
            print(f"{game_id:<20} POST actions: median {statistics.median(timings) * 1000:.2f} ms,"
                  f" p95 {timings[int(len(timings) * 0.95)] * 1000:.2f} ms over {len(timings)}"
                  f" actions; full match {statistics.mean(totals):.2f} s "
                  f"({len(timings) / matches:.0f} actions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--http-matches", type=int, default=3)
    args = parser.parse_args()
    in_process(args.matches)
    over_http(args.http_matches)


if __name__ == "__main__":
    main()
