"""How near the floor is a match's request? The worker CPU time of a seat's view and of an action,
next to the cheapest request the app serves, GET /healthz.

The app is served by the gunicorn command (one worker, SQLite in a temporary directory) and one
sequential keep-alive client plays `--matches` matches of each game, every seat a person's. In
each round, for each game in turn, it sends three batches of requests, one of each kind:

- healthz: `GET /healthz`, once for each match;
- view: `GET /matches/{id}` with the token of the seat to act, its legal actions included;
- action: `POST /matches/{id}/actions`, a legal action chosen at random from that view, with the
  version it showed.

The worker's CPU time (/proc) is read before and after each batch, so an action's figure holds
the POST alone: the view it was chosen from is the view batch's. A finished match is replaced by
a new one between batches. The batches take turns in each round (a view always before the action
chosen from it), so a drift of the machine weighs on every kind alike. Each round gives the
ratios of a view's and an action's CPU per request to /healthz's, taken in the same worker
within seconds of each other; the verdict is the median of each over the rounds, with a 95%
bootstrap interval and the rounds' range.

A view also stores its seat's presence when the one stored is half a minute old (service.seen):
a write as durable as an action's. How often that falls in a batch depends on this client's
pace, not on the server, so those views are read just before the view batch, in a batch of
their own, and reported apart: the view batch times views that read only, as a seat following
its match sees them.

Goal: for every game, a view at most 1.5 × /healthz's CPU and an action at most 2 ×. Exits 1
otherwise.

    .venv/bin/python bench/match_cpu.py [--rounds 10] [--matches 60] [--players 3]
                                        [--database sqlite|postgresql]
"""

import argparse
import random
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.streams import Client, moves  # noqa: E402  (the root is put on the path above)
from scoring.engine import Game, Rng  # noqa: E402
from scoring.games import GAMES  # noqa: E402
from service.matches import PRESENCE_SECONDS  # noqa: E402
from tests.pg import postgres_cluster  # noqa: E402
from tests.server import serve  # noqa: E402

GOALS = {"view": 1.5, "action": 2.0}  # × /healthz's worker CPU per request
KINDS = ("healthz", "view", "action")
# The orders the batches take in turn: a view is always read before the action chosen from it.
ORDERS = (("healthz", "view", "action"), ("view", "action", "healthz"),
          ("view", "healthz", "action"))
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")
ENV = {"DIGSITE_PRUNE_HOURS": "0", "DIGSITE_RATE_LIMIT": "off", "DIGSITE_THINKING_LIMIT": "off"}
# A presence stored this long ago is stored again by the next view: the server's half minute,
# less a margin for the whole seconds it is stored in.
STALE_SECONDS = PRESENCE_SECONDS - 2
BOOTSTRAP = 2000


@dataclass
class Match:
    id: str
    tokens: dict[int, str]
    view: dict  # the latest view read: the acting seat's, once the view batch has run

    def path(self) -> str:
        return f"/api/v1/matches/{self.id}"

    def seat(self) -> int:
        return self.view["to_act"][0]

    def presence_stale(self, now: datetime) -> bool:
        """The next view of the seat to act stores its presence (as the latest view shows it:
        only that seat's own views and actions change it)."""
        seen = self.view["players"][self.seat()]["last_seen"]
        return seen is None or (now - datetime.fromisoformat(seen)).total_seconds() >= \
            STALE_SECONDS


@dataclass
class Table:
    """The matches of one game that the client plays, and the CPU time of each batch."""

    game: str
    players: int
    rng: Rng
    seed: int = 0
    matches: list[Match] = field(default_factory=list)
    # kind → per round: worker CPU seconds per request
    cpu: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    # views storing presence, a batch a round: (worker CPU seconds, views)
    presence: list[tuple[float, int]] = field(default_factory=list)

    def open(self, client: Client) -> Match:
        self.seed += 1
        created = client.json("POST", f"/api/v1/games/{self.game}/matches",
                              {"players": list(NAMES[:self.players]), "seed": self.seed})
        return Match(created["id"], {s["seat"]: s["token"] for s in created["seats"]},
                     created["view"])

    def fill(self, client: Client, count: int) -> None:
        """Replace the finished matches, and open more up to `count`."""
        self.matches = [m for m in self.matches if m.view["status"] != "finished"]
        while len(self.matches) < count:
            self.matches.append(self.open(client))


def seats(game: Game, wanted: int) -> int:
    """The seats of a match of `game`'s default variant: `wanted`, or the fewest it plays above."""
    counts = [n for variant, n in game.tables() if variant == game.default_variant]
    return min((n for n in counts if n >= wanted), default=max(counts))


def cpu_seconds(pid: int) -> float:
    """The CPU time a process's threads have run so far, to the nanosecond: what its utime and
    stime add up to (bench/calculator.py's workers_cpu_seconds), which /proc/PID/stat gives
    in ticks of 10 ms, too coarse for a batch of requests of half a millisecond each."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except OSError:  # a thread that ended while we looked
            continue
    return total / 1e9


def healthz(client: Client, table: Table) -> None:
    for _ in table.matches:
        client.json("GET", "/healthz")


def view(client: Client, table: Table, matches: list[Match] | None = None) -> None:
    for match in table.matches if matches is None else matches:
        match.view = client.json("GET", match.path(), token=match.tokens[match.seat()])


def action(client: Client, table: Table) -> None:
    for match in table.matches:
        chosen = table.rng.choice(moves(match.view))
        match.view = client.json("POST", f"{match.path()}/actions",
                                 {"action": chosen, "version": match.view["version"]},
                                 match.tokens[match.view["you"]])


BATCHES = {"healthz": healthz, "view": view, "action": action}


def batch(kind: str, client: Client, table: Table, pid: int) -> None:
    if kind == "view":  # the views that would store presence first, apart
        now = datetime.now(UTC)
        storing = [m for m in table.matches if m.presence_stale(now)]
        if storing:
            cpu = cpu_seconds(pid)
            view(client, table, storing)
            table.presence.append((cpu_seconds(pid) - cpu, len(storing)))
    cpu = cpu_seconds(pid)
    BATCHES[kind](client, table)
    table.cpu[kind].append((cpu_seconds(pid) - cpu) / len(table.matches))


def interval(values: list[float], rng: random.Random) -> tuple[float, float]:
    """A 95% bootstrap interval of the median of `values`."""
    medians = sorted(statistics.median(rng.choices(values, k=len(values)))
                     for _ in range(BOOTSTRAP))
    return medians[int(0.025 * BOOTSTRAP)], medians[int(0.975 * BOOTSTRAP) - 1]


def report(tables: list[Table]) -> bool:
    """Prints each game's figures; whether every goal was met."""
    rng = random.Random(0)
    met = True
    print(f"{'game (seats)':<22}{'healthz':>8}{'view':>7}{'action':>8}{'presence':>10}   "
          f"{'view / healthz':<31}{'action / healthz':<31}")
    for table in tables:
        cpu = {k: statistics.median(v) * 1000 for k, v in table.cpu.items()}
        storing = sum(n for _, n in table.presence)
        presence = (f"{sum(c for c, _ in table.presence) / storing * 1000:10.2f}" if storing
                    else f"{'—':>10}")
        line = (f"{f'{table.game} ({table.players})':<22}{cpu['healthz']:>8.2f}"
                f"{cpu['view']:>7.2f}{cpu['action']:>8.2f}{presence}   ")
        for kind, goal in GOALS.items():
            ratios = [k / h for k, h in zip(table.cpu[kind], table.cpu["healthz"], strict=True)]
            median = statistics.median(ratios)
            low, high = interval(ratios, rng)
            ok = median <= goal
            met &= ok
            line += (f"{median:4.2f} [{low:.2f}, {high:.2f}] "
                     f"({min(ratios):.2f}–{max(ratios):.2f}) {'ok' if ok else 'NO':<3}")
        print(line)
    return met


NAMES_OF = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


@contextmanager
def database(kind: str) -> Iterator[str]:
    """A DATABASE_URL of an empty database of `kind`, removed after."""
    if kind == "postgresql":
        with postgres_cluster() as url:
            yield url
        return
    with tempfile.TemporaryDirectory(prefix="digsite-bench-") as tmp:
        yield f"sqlite:///{tmp}/digsite.db"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--matches", type=int, default=60,
                        help="matches of each game: requests of each kind in a batch")
    parser.add_argument("--players", type=int, default=3,
                        help="seats of each match, or the fewest above that the game plays")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite",
                        help="an SQLite file, or a throwaway PostgreSQL cluster (tests/pg.py)")
    args = parser.parse_args()
    tables = [Table(game.id, seats(game, args.players), Rng.from_seed(i, "bench"))
              for i, game in enumerate(GAMES.values())]
    with database(args.database) as url, serve({**ENV, "DATABASE_URL": url}, workers=1) as server:
        [pid] = server.worker_pids()
        client = Client(server.port)
        for table in tables:  # a warm-up, in which every seat acts
            for _ in range(table.players):
                table.fill(client, args.matches)
                for kind in ORDERS[0]:
                    BATCHES[kind](client, table)
        for round_ in range(args.rounds):
            for table in tables:
                table.fill(client, args.matches)
                for kind in ORDERS[round_ % len(ORDERS)]:
                    batch(kind, client, table, pid)
    print(f"gunicorn, 1 worker, {NAMES_OF[args.database]}; one sequential client; "
          f"{args.rounds} rounds of "
          f"{args.matches} requests of each kind for each game. Worker CPU ms per request, "
          "median over the rounds (presence: the mean of the views that stored their seat's "
          "presence, apart); ratios: median [95% bootstrap interval] (range over the rounds); "
          f"goal: view ≤ {GOALS['view']}, action ≤ {GOALS['action']}")
    return 0 if report(tables) else 1


if __name__ == "__main__":
    sys.exit(main())
